"""The map image in Setup (issue #55): a file chosen or an image pasted, checked, kept, and lined up.

A file is refused from its size before it is read, then from its bytes (engine/map_image.py `check`: not an
image, an SVG, too many pixels); each refusal says why and the encounter keeps what it had. An image taken is
stored by its key (ui/dom/image_store.py) before the setup names it, so the save written on every tap holds
its placement only. Moving it, one square's size, its opacity and the table display's choice are edits of the
setup draft, undone as any other.
"""
from __future__ import annotations

import copy
import math
from typing import Any, Callable

from pyscript import window
from pyscript.ffi import is_none

from ...engine import map_image, storage
from ...engine.map_image import ImageError, MapImage
from ..desk import entries
from ..desk.desk import Desk
from ..desk.operations import draft_doc, edit
from ..dom.image_store import IMAGES_HERE
from ..field import map_layer
from .actions import Actions

clicks = Actions("click")
changes = Actions("change")
NUDGE = {"left": (-0.1, 0), "right": (0.1, 0), "up": (0, -0.1), "down": (0, 0.1)}  # squares a tap moves it


def placed(doc: dict[str, Any]) -> MapImage | None:
    """The setup draft's map image, read as a save file's would be (None when it has none or it is bad)."""
    raw = doc.get("map", {}).get("image")
    return None if raw is None else map_image.from_json(raw, "map.image", [])


def _set(desk: Desk, image: MapImage | None) -> None:
    def change(doc: dict[str, Any]) -> dict[str, Any]:
        new = copy.deepcopy(doc)
        if image is None:
            new["map"].pop("image", None)
        else:
            new["map"]["image"] = map_image.to_json(image)
        return new
    edit(desk, change)


def _refused(desk: Desk, what: str, why: str) -> None:
    desk.notify(f"{what} was not used as the map image: {why}. The encounter is unchanged.", "error")


async def take(desk: Desk, blob: Any, what: str) -> None:
    """A file or pasted Blob: checked, stored, then placed under the grid (the first square sized so the
    image spans the map's width, to be lined up from there)."""
    try:
        map_image.check_size(int(blob.size))
        buf = await blob.arrayBuffer()
        image = map_image.check(buf.to_bytes())
    except ImageError as exc:
        _refused(desk, what, str(exc))
        return
    try:
        url = await IMAGES_HERE.put(image.key, buf, image.mime)
    except Exception as exc:  # storage full, refused
        _refused(desk, what, f"this browser would not store it ({exc})")
        return

    def placed_now(d: Desk) -> None:
        map_layer.URLS[image.key] = url
        old = placed(draft_doc(d))
        width = draft_doc(d)["map"]["width"]
        square = min(max(image.width / width, map_image.SQUARE_PX[0]), map_image.SQUARE_PX[1])
        new = image.scaled(round(square, 3))
        if old is not None:  # a new picture of the same map keeps the table display's choice
            new = MapImage(new.mime, new.width, new.height, 0, 0, new.square, old.opacity, old.table, new.key)
        _set(d, new)
        if not d.page.problems:
            d.notify(f"{what}: {image.width} × {image.height} pixels, drawn under the squares. Line it up with "
                     "one square's size and its offset.", "ok")
    desk.run(placed_now)


@changes("map-image-file")
def _file(desk: Desk, arg: str, target) -> Any:
    chosen = target.files
    file = chosen.item(0) if chosen.length else None
    target.value = ""
    return None if file is None else take(desk, file, str(file.name))


@clicks("map-image-paste")
def _paste(desk: Desk, name: str, arg: str, target) -> Any:
    return _pasted(desk)


async def _pasted(desk: Desk) -> None:
    try:
        items = await window.navigator.clipboard.read()
        for item in items:
            for kind in item.types:
                if str(kind).startswith("image/"):
                    await take(desk, await item.getType(kind), "The pasted image")
                    return
    except Exception:  # no permission, an empty clipboard
        pass
    desk.run(lambda d: _refused(d, "The clipboard", "it holds no image (copy one first, or choose a file)"))


def _changed(desk: Desk, how: Callable[[MapImage], MapImage]) -> None:
    image = placed(draft_doc(desk))
    if image is None:
        return
    try:
        _set(desk, how(image))
    except ImageError as exc:
        desk.notify(f"The map image is unchanged: {exc}.", "error")


def _number(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ImageError(f"“{raw[:20]}” is not a number")
    return value


SETTERS: dict[str, Callable[[MapImage, str], MapImage]] = {
    "x": lambda im, v: im.moved(_number(v) - im.x, 0),
    "y": lambda im, v: im.moved(0, _number(v) - im.y),
    "square": lambda im, v: im.scaled(_number(v)),
    "opacity": lambda im, v: im.faded(_number(v) / 100),
}


@changes("map-image-set")
def _field(desk: Desk, arg: str, target) -> None:
    if arg == "table":
        _changed(desk, lambda im: MapImage(im.mime, im.width, im.height, im.x, im.y, im.square, im.opacity,
                                           bool(target.checked), im.key))
    elif arg in SETTERS:
        raw = str(target.value).strip()
        _changed(desk, lambda im: SETTERS[arg](im, raw))


@clicks("map-image-nudge")
def _nudge(desk: Desk, name: str, arg: str, target) -> None:
    dx, dy = NUDGE.get(arg, (0, 0))
    _changed(desk, lambda im: im.moved(dx, dy))


@clicks("map-image-remove")
def _remove(desk: Desk, name: str, arg: str, target) -> None:
    if placed(draft_doc(desk)) is not None:
        _set(desk, None)
        desk.notify("The map image is removed from this encounter (Undo brings it back).", "ok")


# --- the saved file and the share link --------------------------------------------------------------

def download(desk: Desk, text: str, filename: str) -> Any:
    """Save: the file, with the map image's bytes when the encounter has one (read from the browser's store
    first: a coroutine then)."""
    image = desk.session.encounter.map.image
    if image is None or not image.key:
        entries.download(text, filename, "application/json")
        return None
    return _download(desk, text, filename, image.key)


async def _download(desk: Desk, text: str, filename: str, key: str) -> None:
    data = await IMAGES_HERE.data(key)
    if data is None:
        desk.notify("Saved without the map image: this browser does not hold it (choose it again in Setup).",
                    "info")
    else:
        text = map_image.embed(text, key, data)
    entries.download(text, filename, "application/json")


async def opened(desk: Desk, data: bytes, name: str) -> tuple[bytes, str]:
    """A file being opened: its map image stored in this browser (its URL made ready), and the rest for the
    loader; the second part says why an image in it was left out ("" when none was)."""
    rest, image, image_bytes, why = map_image.unpack(data, storage.MAX_TEXT)
    if image is not None:
        try:
            map_layer.URLS[image.key] = await IMAGES_HERE.put(image.key, image_bytes, image.mime)
        except Exception as exc:  # storage full
            why = f"this browser would not store its map image ({exc})"
    return rest, (f"{name} was opened without its map image: {why}." if why else "")


def share_note(desk: Desk) -> None:
    """Share: a link cannot carry the map image; say so and offer the file."""
    if desk.session.encounter.map.image is not None:
        desk.notify("The link carries the map image's place but not the image itself: send the saved file "
                    "(Save) to share the map with its image.", "info")


# --- lined up by dragging it -----------------------------------------------------------------------
_DRAG: dict[str, Any] = {}  # the drag under way: pointer id, start, the preview's pixels a square


def pointer(desk: Desk, event) -> bool | None | str:
    """A pointer event in the setup: a drag on the map image's preview moves the image (one edit, at the
    drop); "pass" for any other event (the placement map's)."""
    kind = str(event.type)
    if kind == "pointerdown":
        el = event.target.closest("[data-map-drag]")
        if el is None or is_none(el) or (event.button is not None and int(event.button) != 0):
            return "pass"
        box = el.getBoundingClientRect()
        width = draft_doc(desk)["map"]["width"]
        _DRAG.update(pid=int(event.pointerId), x=float(event.clientX), y=float(event.clientY),
                     px=float(box.width) / width, left=float(box.left), top=float(box.top),
                     el=el.querySelector(".mi-img"))
        event.preventDefault()
        return False
    if not _DRAG or int(event.pointerId) != _DRAG["pid"]:
        return "pass"
    dx, dy = float(event.clientX) - _DRAG["x"], float(event.clientY) - _DRAG["y"]
    img = _DRAG["el"]
    if kind == "pointermove":
        event.preventDefault()
        if img is not None and not is_none(img):
            img.style.transform = f"translate({dx:.0f}px, {dy:.0f}px)"  # follows the pointer; drawn at the drop
        return False
    drag = dict(_DRAG)
    _DRAG.clear()
    if img is not None and not is_none(img):
        img.style.transform = ""  # the redraw puts it where it was dropped
    if kind != "pointerup" or drag["px"] <= 0:
        return False
    if abs(dx) + abs(dy) < 2:  # a tap: a corner, while lining up by two taps
        if CORNERS["on"]:
            return corner(desk, ((drag["x"] - drag["left"]) / drag["px"], (drag["y"] - drag["top"]) / drag["px"]))
        return False
    _changed(desk, lambda im: im.moved(round(dx / drag["px"], 2), round(dy / drag["px"], 2)))
    return None


# --- lined up by two taps on a square's corners ------------------------------------------------------
CORNERS: dict[str, Any] = {"on": False, "taps": []}  # the points tapped so far, in map squares


def taps() -> int | None:
    """How many corners are tapped while lining up by two taps (None when not lining up)."""
    return len(CORNERS["taps"]) if CORNERS["on"] else None


def forget() -> None:
    """A drag or two taps under way dropped (the App lets the page go)."""
    _DRAG.clear()
    CORNERS.update(on=False, taps=[])


@clicks("map-image-corners")
def _corners(desk: Desk, name: str, arg: str, target) -> None:
    CORNERS.update(on=not CORNERS["on"], taps=[])


def corner(desk: Desk, at: tuple[float, float]) -> None:
    image = placed(draft_doc(desk))
    if image is None:
        CORNERS.update(on=False, taps=[])
        return None
    CORNERS["taps"].append(at)
    if len(CORNERS["taps"]) < 2:
        return None
    a, b = CORNERS["taps"]
    CORNERS.update(on=False, taps=[])
    _changed(desk, lambda im: map_image.from_taps(im, a, b))
    now = placed(draft_doc(desk))
    if now is not None and now != image:
        desk.notify(f"Lined up: one square is {now.square:g} of the image's pixels.", "ok")
    return None
