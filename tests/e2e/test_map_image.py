"""A map image under the grid (issue #55, part 2), at desktop and on a phone: a PNG chosen in Setup is drawn
under the squares, lined up by its fields, kept in the browser across a reload; a 40 MB file, a file that is
not an image, an SVG carrying script and an image of 20,000 × 20,000 pixels are each refused with their reason,
and the image already there stays. The library keeps an image while an entry names it (the trash's included)
and lets it go with the entry deleted for good; "Export all" carries the images and importing brings them back."""
from __future__ import annotations

import base64
import json
import os
import pathlib
import re
import struct
import zlib

import pytest
from harness import wait_ready
from helpers import close_setup, drag_by, is_phone, open_setup, show, stored

import fray.rules  # noqa: F401  (installs the systems the loader looks up)
from fray.engine import map_image, storage
from playwright.sync_api import Page, expect


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png(w: int, h: int, cell: int = 20, pixels: bool = True) -> bytes:
    """A real PNG: flagstones of `cell` pixels with dark joints (a dungeon map's look); with `pixels=False`
    only its header says the size (the 20,000 × 20,000 case needs no 1.2 GB of pixels to be refused)."""
    rows = b""
    if pixels:
        out = bytearray()
        for y in range(h):
            out.append(0)
            for x in range(w):
                joint = x % cell == 0 or y % cell == 0
                shade = 70 if joint else 150 + ((x // cell * 7 + y // cell * 13) % 5) * 12
                out += bytes((shade, shade - 15 if not joint else 60, shade - 40 if not joint else 50))
        rows = bytes(out)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(rows or b"\x00\x00\x00\x00")) + _chunk(b"IEND", b""))


def set_field(page: Page, key: str, value: str) -> None:
    field = page.get_by_test_id(f"map-image-{key}")
    field.fill(value)
    field.press("Tab")
    expect(page.get_by_test_id(f"map-image-{key}")).to_have_value(value)


def tap(page: Page, x: float, y: float) -> None:
    if is_phone(page):
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def new_ose_grid(page: Page) -> None:
    page.get_by_test_id("library-open").click()
    page.get_by_test_id("lib-new-ose").click()
    expect(page.get_by_test_id("map-image-setup")).to_be_visible()


def choose(page: Page, path: pathlib.Path) -> None:
    page.get_by_test_id("map-image-file").set_input_files(str(path))


def refused(page: Page, path: pathlib.Path, why: str) -> None:
    choose(page, path)
    expect(page.get_by_test_id("notice-error")).to_contain_text(f"{path.name} was not used as the map image: {why}")
    expect(page.get_by_test_id("notice-error")).to_contain_text("The encounter is unchanged.")
    # The image already chosen stays, as it was.
    expect(page.get_by_test_id("map-image-size")).to_have_text("480 × 320 pixels; one square is 20 of them.")


def shots(tmp_path: pathlib.Path) -> pathlib.Path:
    """Where the journeys' screenshots go: $FRAY_SHOTS, else the test's own folder."""
    out = pathlib.Path(os.environ.get("FRAY_SHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def crypt_under_the_grid(page: Page, tmp_path: pathlib.Path) -> bytes:
    """A new OSE grid encounter with a 480 × 320 PNG chosen in Setup, back in play; gives the PNG's bytes."""
    new_ose_grid(page)
    data = png(480, 320)
    (tmp_path / "crypt.png").write_bytes(data)
    choose(page, tmp_path / "crypt.png")
    expect(page.get_by_test_id("map-image-size")).to_be_visible()
    close_setup(page)
    return data


DECODED = """() => new Promise(done => { const i = new Image(); i.onload = () => done(i.width);
  i.onerror = () => done(0); i.src = document.querySelector('[data-testid=map-image]').getAttribute('href'); })"""


def decoded_width(page: Page) -> int:
    """The width in pixels of the image the grid's `<image>` loads from its blob URL (0: it does not load)."""
    return page.evaluate(DECODED)


def grid_image(page: Page):
    show(page, "field")
    expect(page.get_by_test_id("grid-svg")).to_be_visible()
    return page.get_by_test_id("grid-svg").get_by_test_id("map-image")


def test_a_png_chosen_in_setup_is_drawn_under_the_grid_and_kept_across_a_reload(app, tmp_path):
    new_ose_grid(app)
    map_png = tmp_path / "crypt.png"
    map_png.write_bytes(png(480, 320))
    choose(app, map_png)
    expect(app.get_by_test_id("notice-ok")).to_contain_text("crypt.png: 480 × 320 pixels, drawn under the squares")
    expect(app.get_by_test_id("map-image-size")).to_have_text("480 × 320 pixels; one square is 20 of them.")
    app.get_by_test_id("map-image-opacity").fill("80")
    app.get_by_test_id("map-image-opacity").press("Enter")
    app.get_by_test_id("map-image-x").fill("0.5")
    app.get_by_test_id("map-image-x").press("Tab")
    expect(app.get_by_test_id("map-image-x")).to_have_value("0.5")
    # Dragged on its preview two squares left and one down: one edit, at the drop.
    preview = app.get_by_test_id("map-image-preview")
    expect(preview.locator("image")).to_have_count(1)
    box = preview.bounding_box()
    square = box["width"] / 24
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    drag_by(app, x0, y0, -2 * square, square)
    expect(app.get_by_test_id("map-image-x")).to_have_value(re.compile(r"-1\.[45]\d*|-1\.5"))
    expect(app.get_by_test_id("map-image-y")).to_have_value(re.compile(r"0\.9\d*|1(\.0\d*)?|1\.1\d*"))
    app.get_by_test_id("map-image-x").fill("0.5")
    app.get_by_test_id("map-image-x").press("Tab")
    app.get_by_test_id("map-image-y").fill("0")
    app.get_by_test_id("map-image-y").press("Tab")
    expect(app.get_by_test_id("map-image-y")).to_have_value("0")
    # Lined up by two taps: one square set wrong (25 pixels), then the corners of one of the image's flagstones
    # (pixels 40 to 60, drawn at squares 1.6 to 2.4) tapped: 20 pixels a square, and that stone on square 2,2.
    set_field(app, "square", "25")
    set_field(app, "x", "0")
    app.get_by_test_id("map-image-corners").click()
    expect(app.get_by_test_id("map-image-corners-say")).to_have_text(
        "Tap one corner of a square drawn on the image, above.")
    for at in (1.6, 2.4):
        box = preview.bounding_box()
        tap(app, box["x"] + at * box["width"] / 24, box["y"] + at * box["width"] / 24)
        if at == 1.6:
            expect(app.get_by_test_id("map-image-corners-say")).to_have_text(
                "Now tap the opposite corner of that square.")
    expect(app.get_by_test_id("notice-ok")).to_contain_text("Lined up: one square is")
    assert abs(float(app.get_by_test_id("map-image-square").input_value()) - 20) < 1
    assert abs(float(app.get_by_test_id("map-image-x").input_value())) < 0.2
    set_field(app, "square", "20")
    set_field(app, "x", "0.5")
    set_field(app, "y", "0")
    app.get_by_test_id("map-image-setup").scroll_into_view_if_needed()
    app.screenshot(path=str(shots(tmp_path) / f"setup-map-image-{app.viewport_size['width']}.png"))
    close_setup(app)
    image = grid_image(app)
    expect(image).to_have_count(1)
    assert image.get_attribute("href").startswith("blob:")
    assert (image.get_attribute("x"), image.get_attribute("opacity"), image.get_attribute("width")) == \
        ("5", "0.8", "240")  # half a square right, 24 squares of 10 units wide
    # Under the squares and the walls: the board's lines and the walls come after it in the drawing.
    order = app.evaluate("""() => [...document.querySelector('#grid-svg').children].map(e => e.getAttribute('class')
                                   || e.tagName)""")
    assert order.index("map-image") < order.index("board-lines") < order.index("walls")
    decoded = decoded_width(app)
    assert decoded == 480
    app.get_by_test_id("grid-svg").scroll_into_view_if_needed()
    app.screenshot(path=str(shots(tmp_path) / f"map-image-{app.viewport_size['width']}.png"))
    # A reload: the save holds the placement, the browser's store the bytes.
    app.reload()
    wait_ready(app)
    image = grid_image(app)
    expect(image).to_have_count(1)
    assert image.get_attribute("href").startswith("blob:") and image.get_attribute("opacity") == "0.8"


def test_bad_files_are_refused_with_their_reason_and_the_image_stays(app, tmp_path):
    new_ose_grid(app)
    good = tmp_path / "crypt.png"
    good.write_bytes(png(480, 320))
    choose(app, good)
    expect(app.get_by_test_id("map-image-size")).to_be_visible()
    big = tmp_path / "scan.png"
    with big.open("wb") as f:
        f.write(png(480, 320))
        f.truncate(40 * 1024 * 1024)
    refused(app, big, "40 MB: a map image is at most 8 MB")
    pdf = tmp_path / "module.png"
    pdf.write_bytes(b"%PDF-1.7 the adventure module, not a picture")
    refused(app, pdf, "this file is not a PNG, JPEG or WebP image")
    svg = tmp_path / "map.svg"
    svg.write_bytes(b'<svg xmlns="http://www.w3.org/2000/svg"><script>window.frayPwned = 1</script></svg>')
    refused(app, svg, "an SVG image is refused (it can carry script)")
    assert app.evaluate("() => window.frayPwned") is None
    huge = tmp_path / "world.png"
    huge.write_bytes(png(20_000, 20_000, pixels=False))
    refused(app, huge, "20,000 × 20,000 pixels: a map image is at most 8,192 a side")
    close_setup(app)
    expect(grid_image(app)).to_have_count(1)


def test_the_saved_file_carries_the_image_and_a_share_link_says_it_cannot(app, tmp_path):
    data = crypt_under_the_grid(app, tmp_path)
    if not is_phone(app):  # the table display shows it, read from this browser's store, until the referee says not
        with app.expect_popup() as popup:
            app.get_by_test_id("table-open").click()
        table = popup.value
        wait_ready(table)
        expect(table.get_by_test_id("table-map-image")).to_have_count(1)
        assert table.get_by_test_id("table-map-image").get_attribute("href").startswith("blob:")
        table.wait_for_function("""() => { const i = new Image();
            i.src = document.querySelector('[data-testid=table-map-image]').getAttribute('href');
            return i.decode().then(() => true, () => false); }""")
        table.screenshot(path=str(shots(tmp_path) / "table-map-image.png"))
        app.bring_to_front()
        open_setup(app)
        app.get_by_test_id("map-image-table").uncheck()
        expect(table.get_by_test_id("table-map-image")).to_have_count(0)
        close_setup(app)
    with app.expect_download() as got:
        app.get_by_test_id("save").click()
    saved = pathlib.Path(got.value.path()).read_bytes()
    rest, image, image_bytes, why = map_image.unpack(saved, storage.MAX_TEXT)
    assert (image_bytes, why) == (data, "") and storage.loads(rest).session.encounter.map.image.key == image.key
    # Opened again (a new library entry): drawn under the grid from the file's own copy.
    (tmp_path / "crypt.fray.json").write_bytes(saved)
    app.locator("#file-input").set_input_files(str(tmp_path / "crypt.fray.json"))
    expect(app.get_by_test_id("notice-ok")).to_contain_text("Opened crypt.fray.json")
    expect(grid_image(app)).to_have_count(1)
    app.get_by_test_id("share").click()
    expect(app.get_by_test_id("notice-info")).to_contain_text(
        "The link carries the map image's place but not the image itself: send the saved file (Save)")


STORED_IMAGES = """() => new Promise((done, fail) => {
  const req = indexedDB.open('fray-maps', 1);
  req.onerror = () => fail(req.error);
  req.onsuccess = () => { const db = req.result;
    const keys = db.transaction('images').objectStore('images').getAllKeys();
    keys.onsuccess = () => { db.close(); done(keys.result); }; };
})"""


def stored_images(page: Page, want: set[str] | None = None) -> set[str]:
    """The keys of the map images in this browser's IndexedDB (`fray-maps`); with `want`, read until they
    are those (a sweep runs after the drawing) for up to ten seconds."""
    for _ in range(50):
        got = set(page.evaluate(STORED_IMAGES))
        if want is None or got == want:
            break
        page.wait_for_timeout(200)
    return got


def test_an_image_goes_with_its_entry_deleted_for_good_and_one_no_entry_names_is_let_go(app, tmp_path):
    new_ose_grid(app)
    first, second = png(480, 320), png(320, 480)
    (tmp_path / "crypt.png").write_bytes(first)
    (tmp_path / "vault.png").write_bytes(second)
    choose(app, tmp_path / "crypt.png")
    expect(app.get_by_test_id("map-image-size")).to_have_text("480 × 320 pixels; one square is 20 of them.")
    crypt, vault = map_image.check(first).key, map_image.check(second).key
    assert stored_images(app) == {crypt}
    # Another picture of the map: the first one is named by no entry now (nor by Undo after a reload).
    choose(app, tmp_path / "vault.png")
    expect(app.get_by_test_id("map-image-size")).to_contain_text("320 × 480 pixels")
    assert stored_images(app) == {crypt, vault}  # Undo in this visit can still bring it back
    close_setup(app)
    app.reload()
    wait_ready(app)
    assert stored_images(app, {vault}) == {vault}
    expect(grid_image(app)).to_have_count(1)
    # Deleted: in the trash, restorable with its image.
    app.get_by_test_id("library-open").click()
    rid = stored(app)["current"]
    app.get_by_test_id(f"lib-delete-{rid}").click()
    expect(app.get_by_test_id(f"trash-{rid}")).to_have_count(1)
    assert stored_images(app) == {vault}
    app.get_by_test_id("lib-trash").locator("summary").click()
    app.get_by_test_id(f"restore-{rid}").click()
    app.get_by_test_id(f"lib-open-{rid}").click()
    expect(grid_image(app)).to_have_count(1)
    # Deleted for good: its image goes with it.
    app.get_by_test_id("library-open").click()
    app.get_by_test_id(f"lib-delete-{rid}").click()
    if not app.get_by_test_id(f"purge-{rid}").is_visible():
        app.get_by_test_id("lib-trash").locator("summary").click()
    app.get_by_test_id(f"trash-{rid}").scroll_into_view_if_needed()
    app.screenshot(path=str(shots(tmp_path) / f"library-trash-{app.viewport_size['width']}.png"))
    app.get_by_test_id(f"purge-{rid}").click()
    expect(app.get_by_test_id("lib-report")).to_contain_text("is deleted for good")
    expect(app.get_by_test_id(f"trash-{rid}")).to_have_count(0)
    assert stored_images(app, set()) == set()
    assert all(r["id"] != rid for r in stored(app)["entries"])


@pytest.mark.parametrize("device", ["desktop"])
def test_export_all_carries_the_map_images_and_import_brings_them_back(app, fresh_page, tmp_path):
    data = crypt_under_the_grid(app, tmp_path)
    key = map_image.check(data).key
    rid = stored(app)["current"]
    app.get_by_test_id("library-open").click()
    with app.expect_download() as dl:
        app.get_by_test_id("lib-export").click()
    expect(app.get_by_test_id("lib-report")).to_contain_text("and 1 map image.")
    path = tmp_path / "backup.json"
    dl.value.save_as(path)
    backup = json.loads(path.read_text())
    assert [(i["key"], base64.b64decode(i["data"])) for i in backup["map_images"]] == [(key, data)]
    # An empty browser: the backup imported, the entry opens with its image under the grid.
    other = fresh_page()
    other.goto(app.url)
    wait_ready(other)
    other.get_by_test_id("library-open").click()
    other.locator("#import-input").set_input_files(str(path))
    expect(other.get_by_test_id("lib-report")).to_contain_text("Imported")
    assert stored_images(other) == {key}
    other.get_by_test_id(f"lib-open-{rid}").click()
    image = grid_image(other)
    expect(image).to_have_count(1)
    decoded = decoded_width(other)
    assert decoded == 480


AGED = """async ([rid, days]) => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open('fray'); r.onsuccess = () => ok(r.result);
                                             r.onerror = () => no(r.error); });
  const store = () => db.transaction('entries', 'readwrite').objectStore('entries');
  const text = await new Promise(ok => { const q = store().get(rid); q.onsuccess = () => ok(q.result); });
  const rec = JSON.parse(text);
  rec.deleted = Date.now() - days * 24 * 3600 * 1000;
  await new Promise(ok => { const q = store().put(JSON.stringify(rec), rid); q.onsuccess = () => ok(); });
  db.close();
}"""


@pytest.mark.parametrize("device", ["desktop"])
def test_an_entry_purged_from_the_trash_after_seven_days_takes_its_image_at_the_next_start(app, tmp_path):
    data = crypt_under_the_grid(app, tmp_path)
    key = map_image.check(data).key
    app.get_by_test_id("library-open").click()
    rid = stored(app)["current"]
    app.get_by_test_id(f"lib-delete-{rid}").click()
    expect(app.get_by_test_id(f"trash-{rid}")).to_have_count(1)
    assert stored_images(app) == {key}
    app.evaluate(AGED, [rid, 6])  # six days in the trash: still restorable, its image kept
    app.reload()
    wait_ready(app)
    app.wait_for_timeout(500)
    assert stored_images(app) == {key} and any(r["id"] == rid for r in stored(app)["entries"])
    app.evaluate(AGED, [rid, 8])  # eight: purged as the page starts, and its image with it
    app.reload()
    wait_ready(app)
    assert stored_images(app, set()) == set()
    assert all(r["id"] != rid for r in stored(app)["entries"])
