"""The map image under the grid (issue #55): a file read as PNG, JPEG or WebP by its bytes, the bad files
refused with a clear reason, and the image lined up with the squares."""
from __future__ import annotations

import struct
import zlib

import pytest

from fray.engine import map_image as mi


def png(w: int, h: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    rows = b"".join(b"\x00" + b"\x80\x80\x80" * min(w, 4) for _ in range(min(h, 4)))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def jpeg(w: int, h: int) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, h, w, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def webp(w: int, h: int) -> bytes:
    body = b"VP8X" + struct.pack("<I", 10) + b"\x00\x00\x00\x00" + (w - 1).to_bytes(3, "little") + \
        (h - 1).to_bytes(3, "little")
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body


@pytest.mark.parametrize("data, mime", [(png(1200, 800), "image/png"), (jpeg(1200, 800), "image/jpeg"),
                                        (webp(1200, 800), "image/webp")])
def test_a_png_jpeg_or_webp_is_read_with_its_size(data, mime):
    image = mi.check(data)
    assert (image.mime, image.width, image.height) == (mime, 1200, 800)


def test_a_40_mb_file_is_refused_before_it_is_read():
    with pytest.raises(mi.ImageError, match="40 MB: a map image is at most 8 MB"):
        mi.check(png(100, 100) + b"\x00" * (40 * 1024 * 1024))


def test_a_file_that_is_not_an_image_is_refused():
    with pytest.raises(mi.ImageError, match="not a PNG, JPEG or WebP image"):
        mi.check(b"%PDF-1.7 the adventure")


def test_an_svg_is_refused_so_no_script_ever_runs():
    svg = b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    for data in (svg, svg[21:], b"  \n" + svg[21:]):
        with pytest.raises(mi.ImageError, match="SVG image is refused"):
            mi.check(data)


def test_an_image_of_20000_by_20000_pixels_is_refused():
    for data in (png(20_000, 20_000), jpeg(20_000, 20_000), webp(16_000, 3_000)):
        with pytest.raises(mi.ImageError, match="pixels: a map image is at most 8,192 a side"):
            mi.check(data)


def test_two_taps_on_a_squares_corners_line_the_image_up_with_that_square():
    image = mi.check(png(1400, 1050))
    lined = mi.from_corners(image, (210, 140), (280, 210), (3, 2))  # the image's square at 210,140 is map 3,2
    assert lined.square == 70 and (lined.x, lined.y) == (0, 0)
    left, top, width, height = lined.box(50)  # the grid draws 50 units a square
    assert (left, top, width, height) == (0, 0, 1000, 750)
    moved = lined.moved(-0.5, 1).faded(0.4)
    assert (moved.x, moved.y, moved.opacity) == (-0.5, 1, 0.4)
    with pytest.raises(mi.ImageError, match="too close"):
        mi.from_corners(image, (10, 10), (11, 11), (0, 0))
    with pytest.raises(mi.ImageError, match="between 4 and 2000"):
        image.scaled(2)


def test_the_saved_placement_reads_back_and_bad_values_are_named():
    image = mi.check(jpeg(900, 600)).moved(1.5, -2).scaled(60)
    problems: list[str] = []
    assert mi.from_json(mi.to_json(image), "map.image", problems) == image and not problems
    bad = {**mi.to_json(image), "type": "image/svg+xml", "opacity": 7}
    assert mi.from_json(bad, "map.image", problems) is None
    assert problems == ["map.image.type: expected one of image/png, image/jpeg, image/webp",
                        "map.image.opacity: expected a number from 0.1 to 1"]


# --- the encounter's map setup carries the placement (issue #55, part 2) ----------------------------------

def _encounter_doc(image: dict | None = None) -> dict:
    from fray.engine import storage
    import fray.rules  # noqa: F401  (installs the systems' lookup)
    from fray.rules.ose.examples import detailed
    enc = detailed(1)
    doc = storage.encounter_to_json(enc)
    if image is not None:
        doc["map"]["image"] = image
    return doc


def test_an_encounter_keeps_its_map_images_placement_through_its_save_file():
    from fray.engine import storage
    data = png(1400, 1050)
    image = mi.check(data).moved(-1, 2).scaled(50).faded(0.5)
    assert len(image.key) == 64 and image.key == mi.check(data).key  # the same bytes, the same key
    problems: list[str] = []
    enc, _ = storage.encounter_from_json(_encounter_doc(mi.to_json(image)), problems)
    assert not problems and enc.map.image == image
    again = storage.encounter_to_json(enc)
    assert again["map"]["image"]["key"] == image.key and "data" not in again["map"]["image"]  # placement only


def test_an_old_save_file_without_a_map_image_opens_unchanged():
    from fray.engine import storage
    doc = _encounter_doc()
    assert "image" not in doc["map"]
    problems: list[str] = []
    enc, _ = storage.encounter_from_json(doc, problems)
    assert not problems and enc.map.image is None
    assert storage.encounter_to_json(enc)["map"] == doc["map"]


def test_a_bad_map_image_placement_is_named_at_its_path_and_refused():
    from fray.engine import storage
    image = mi.to_json(mi.check(png(100, 100)))
    for bad, where in (({**image, "key": "<script>"}, "map.image.key"), ({**image, "square": 0}, "map.image.square"),
                       ("a picture", "map.image")):
        problems: list[str] = []
        enc, _ = storage.encounter_from_json(_encounter_doc(bad), problems)
        assert enc is None and any(where in p for p in problems), problems


def test_a_file_too_big_is_refused_from_its_size_before_its_bytes_are_read():
    with pytest.raises(mi.ImageError, match="40 MB"):
        mi.check_size(40 * 1024 * 1024)
    mi.check_size(mi.MAX_BYTES)


def test_the_saved_file_carries_the_images_bytes_and_opens_with_them():
    from fray.engine import storage
    from fray.engine.session import Session
    from fray.rules import get
    data = png(640, 480)
    image = mi.check(data)
    doc = _encounter_doc(mi.to_json(image))
    enc, ruleset = storage.encounter_from_json(doc, [])
    text = storage.dumps(Session(enc, ruleset), indent=1)
    assert len(text) < 20_000  # the autosave: placement only
    saved = mi.embed(text, image.key, data)
    rest, got, got_bytes, why = mi.unpack(saved.encode(), storage.MAX_TEXT)
    assert (got, got_bytes, why) == (image, data, "")
    assert storage.loads(rest).session.encounter.map.image == image
    # An old file, or one without an image, comes back as it was.
    assert mi.unpack(text.encode(), storage.MAX_TEXT) == (text.encode(), None, b"", "")
    assert get("ose") is ruleset


def test_a_saved_files_bad_image_is_left_out_and_the_encounter_still_opens():
    from fray.engine import storage
    from fray.engine.session import Session
    image = mi.check(png(64, 64))
    enc, ruleset = storage.encounter_from_json(_encounter_doc(mi.to_json(image)), [])
    text = storage.dumps(Session(enc, ruleset))
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    for data, key, why in ((png(64, 64), "0" * 64, "not the ones its key names"),
                           (svg, image.key, "SVG image is refused")):
        rest, got, _, said = mi.unpack(mi.embed(text, key, data).encode(), storage.MAX_TEXT)
        assert got is None and why in said
        assert storage.loads(rest).session.encounter.map.image == image  # the rest opens: nothing else lost


def test_export_all_carries_every_image_and_import_reads_them_back():
    import json
    from fray.engine import storage
    small, other = png(64, 64), jpeg(300, 200)
    doc = {"format": 1, "app": "fray", "kind": "backup", "entries": [], "roster": []}
    found = {mi.check(small).key: small, mi.check(other).key: other}
    assert mi.pack_all(doc, found) == []
    text = json.dumps(doc).encode()
    rest, images, problems = mi.unpack_all(text, storage.MAX_TEXT)
    assert problems == [] and {im.key: data for im, data in images} == found
    assert json.loads(rest) == {k: v for k, v in doc.items() if k != mi.BACKUP_KEY}
    # A backup of before (no images) comes back as it was.
    plain = json.dumps({"format": 1, "kind": "backup", "entries": []}).encode()
    assert mi.unpack_all(plain, storage.MAX_TEXT) == (plain, [], [])


def test_a_backups_bad_images_are_named_and_the_good_ones_kept():
    import base64
    import json
    from fray.engine import storage
    good = png(64, 64)
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    items = [{"key": mi.check(good).key, "data": base64.b64encode(good).decode()},
             {"key": "0" * 64, "data": base64.b64encode(svg).decode()},
             {"key": "1" * 64, "data": base64.b64encode(good).decode()}, "junk"]
    rest, images, problems = mi.unpack_all(json.dumps({"kind": "backup", mi.BACKUP_KEY: items}).encode(),
                                           storage.MAX_TEXT)
    assert [im.key for im, _ in images] == [mi.check(good).key] and json.loads(rest) == {"kind": "backup"}
    assert [p.split(" ", 1)[0] for p in problems] == ["map_images[1]", "map_images[2]", "map_images[3]"]
    assert "SVG image is refused" in problems[0] and "not the ones its key names" in problems[1]


def test_export_all_leaves_out_images_past_its_limit_and_says_which(monkeypatch):
    monkeypatch.setattr(mi, "MAX_BACKUP_BYTES", 1000)
    big, small = b"\x00" * 900, b"\x01" * 200
    doc: dict = {}
    assert mi.pack_all(doc, {"a" * 64: big, "b" * 64: small}) == ["a" * 64]
    assert [i["key"] for i in doc[mi.BACKUP_KEY]] == ["b" * 64]
