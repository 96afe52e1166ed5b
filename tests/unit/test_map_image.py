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
