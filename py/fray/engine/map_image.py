"""A map image under the grid: what a file is (PNG, JPEG or WebP, from its bytes), its size, its place on the squares.

Pure: the page reads the file's bytes and hands them here before anything is
stored or drawn, so a file that is too big, not an image, an SVG (which could
carry script) or too many pixels to draw is refused with its reason and the
encounter keeps what it had. `MapImage` is the image's placement on the map
(in squares), its opacity and whether the table display shows it; its JSON
form is what a save file keeps beside the image's data.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import struct
from dataclasses import dataclass, replace
from typing import Any

MAX_BYTES = 8 * 1024 * 1024       # a file's size
MAX_SIDE = 8192                   # pixels a side
MAX_PIXELS = 40_000_000           # width × height
SQUARE_PX = (4.0, 2000.0)         # one square's size in the image's pixels
OPACITY = (0.1, 1.0)
TYPES = ("image/png", "image/jpeg", "image/webp")
KEY = re.compile(r"[0-9a-f]{64}|")  # a placement made before its bytes were hashed has none


class ImageError(ValueError):
    """A file refused as a map image; the message says why in the referee's words."""


@dataclass(frozen=True)
class MapImage:
    """The image's kind and size, where its top-left corner lies on the map (in squares, either may be
    negative), how many of its pixels one square spans, its opacity, and whether the table shows it."""

    mime: str
    width: int
    height: int
    x: float = 0.0
    y: float = 0.0
    square: float = 70.0
    opacity: float = 0.7
    table: bool = True
    key: str = ""  # the bytes' SHA-256 (hex): where the browser keeps them, and the saved file's copy

    def moved(self, dx: float, dy: float) -> "MapImage":
        """Dragged by (dx, dy) squares."""
        return replace(self, x=round(self.x + dx, 3), y=round(self.y + dy, 3))

    def scaled(self, square: float) -> "MapImage":
        """One square set to `square` of the image's pixels (ImageError outside SQUARE_PX)."""
        if not SQUARE_PX[0] <= square <= SQUARE_PX[1]:
            raise ImageError(f"a square of {square:g} pixels: between {SQUARE_PX[0]:g} and {SQUARE_PX[1]:g}")
        return replace(self, square=float(square))

    def faded(self, opacity: float) -> "MapImage":
        if not OPACITY[0] <= opacity <= OPACITY[1]:
            raise ImageError(f"opacity {opacity:g}: between {OPACITY[0]:g} and {OPACITY[1]:g}")
        return replace(self, opacity=float(opacity))

    def box(self, cell: float) -> tuple[float, float, float, float]:
        """Where the image is drawn on a grid of `cell` units a square: (left, top, width, height)."""
        k = cell / self.square
        return (self.x * cell, self.y * cell, self.width * k, self.height * k)


def from_corners(image: MapImage, a: tuple[float, float], b: tuple[float, float],
                 square: tuple[int, int]) -> MapImage:
    """Aligned by two taps on opposite corners of one square drawn on the image (`a`, `b` in the image's
    pixels) that is the map's `square` (column, row): its size is the square's, its corner the square's."""
    side = (abs(b[0] - a[0]) + abs(b[1] - a[1])) / 2
    if side < SQUARE_PX[0]:
        raise ImageError("the two taps are too close: tap two opposite corners of one square")
    out = image.scaled(round(side, 3))
    left, top = min(a[0], b[0]), min(a[1], b[1])
    return replace(out, x=round(square[0] - left / side, 3), y=round(square[1] - top / side, 3))


def from_taps(image: MapImage, a: tuple[float, float], b: tuple[float, float]) -> MapImage:
    """Two taps on the map (in squares) on opposite corners of one square drawn on the image as it lies now:
    that square made the map's square nearest to where it is drawn (`from_corners`)."""
    pa, pb = (((p[0] - image.x) * image.square, (p[1] - image.y) * image.square) for p in (a, b))
    square = (round(min(a[0], b[0])), round(min(a[1], b[1])))
    return from_corners(image, pa, pb, square)


def sniff(data: bytes) -> tuple[str, int, int]:
    """The image's type and size from its first bytes; ImageError for anything else."""
    head = bytes(data[:64])
    if head.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and head[12:16] == b"IHDR":
        w, h = struct.unpack(">II", head[16:24])
        return "image/png", w, h
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "image/webp", *_webp(bytes(data[:64]))
    if head.startswith(b"\xff\xd8"):
        return "image/jpeg", *_jpeg(bytes(data))
    text = head.lstrip().lower()
    if text.startswith((b"<?xml", b"<svg", b"<!doctype svg")) or b"<svg" in bytes(data[:1024]).lower():
        raise ImageError("an SVG image is refused (it can carry script): export the map as PNG, JPEG or WebP")
    raise ImageError("this file is not a PNG, JPEG or WebP image")


def _webp(head: bytes) -> tuple[int, int]:
    kind = head[12:16]
    if kind == b"VP8X" and len(head) >= 30:
        return 1 + int.from_bytes(head[24:27], "little"), 1 + int.from_bytes(head[27:30], "little")
    if kind == b"VP8L" and len(head) >= 25:
        bits = int.from_bytes(head[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if kind == b"VP8 " and len(head) >= 30:
        w, h = struct.unpack("<HH", head[26:30])
        return w & 0x3FFF, h & 0x3FFF
    raise ImageError("this WebP image's size cannot be read")


def _jpeg(data: bytes) -> tuple[int, int]:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            break
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        size = int.from_bytes(data[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        i += 2 + size
    raise ImageError("this JPEG image's size cannot be read")


def check_size(size: int) -> None:
    """ImageError for a file too big to read at all (the page asks before reading its bytes)."""
    if size > MAX_BYTES:
        raise ImageError(f"{size / 1024 / 1024:.0f} MB: a map image is at most {MAX_BYTES // 1024 // 1024} MB")


def check(data: bytes) -> MapImage:
    """The map image a file's bytes make, or ImageError: too big, not an image, an SVG, too many pixels.
    Its `key` is the bytes' SHA-256, so the same picture is stored once."""
    check_size(len(data))
    mime, w, h = sniff(data)
    if not (w and h):
        raise ImageError("this image has no pixels")
    if max(w, h) > MAX_SIDE or w * h > MAX_PIXELS:
        raise ImageError(f"{w:,} × {h:,} pixels: a map image is at most {MAX_SIDE:,} a side and "
                         f"{MAX_PIXELS // 1_000_000} million pixels")
    return MapImage(mime, w, h, key=hashlib.sha256(bytes(data)).hexdigest())


def to_json(image: MapImage) -> dict[str, Any]:
    return {"type": image.mime, "width": image.width, "height": image.height, "x": image.x, "y": image.y,
            "square": image.square, "opacity": image.opacity, "table": image.table, "key": image.key}


def from_json(raw: Any, path: str, problems: list[str]) -> MapImage | None:
    """A save file's map image placement, each problem appended with its path."""
    if not isinstance(raw, dict):
        problems.append(f"{path}: expected an object")
        return None
    found = len(problems)

    def number(key: str, lo: float, hi: float, default: float) -> float:
        v = raw.get(key, default)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
            problems.append(f"{path}.{key}: expected a number from {lo:g} to {hi:g}")
            return default
        return float(v)
    key = raw.get("key", "")
    if not isinstance(key, str) or not KEY.fullmatch(key):
        problems.append(f"{path}.key: expected the image's SHA-256 as 64 hex digits")
        key = ""
    mime = raw.get("type")
    if mime not in TYPES:
        problems.append(f"{path}.type: expected one of {', '.join(TYPES)}")
    w, h = number("width", 1, MAX_SIDE, 1), number("height", 1, MAX_SIDE, 1)
    image = MapImage(str(mime), int(w), int(h), number("x", -MAX_SIDE, MAX_SIDE, 0),
                     number("y", -MAX_SIDE, MAX_SIDE, 0), number("square", *SQUARE_PX, 70),
                     number("opacity", *OPACITY, 0.7), bool(raw.get("table", True)), key)
    return None if len(problems) > found else image


# --- the saved file's copy of the bytes ------------------------------------------------------------
FILE_KEY = "map_image"  # the saved file's member holding the image: {"key": sha256, "data": base64}
MAX_FILE_EXTRA = (MAX_BYTES + 2) // 3 * 4 + 200  # characters that member may add to a saved file


def embed(text: str, key: str, data: bytes) -> str:
    """A saved file's text (storage.dumps) with the image's bytes beside the encounter, for a download."""
    doc = json.loads(text)
    doc[FILE_KEY] = {"key": key, "data": base64.b64encode(bytes(data)).decode("ascii")}
    return json.dumps(doc, ensure_ascii=False, indent=1)


def unpack(data: bytes, max_text: int) -> tuple[bytes, MapImage | None, bytes, str]:
    """A file being opened, its image taken out: (the rest, for storage.loads; the image read from its bytes
    and those bytes, or None and b""; why an image there was left out, or ""). A file without one, or one
    that does not read as JSON, comes back as it was (the loader then says what is wrong with it)."""
    if FILE_KEY.encode() not in data[-(MAX_FILE_EXTRA + 1000):] or len(data) > max_text + MAX_FILE_EXTRA:
        return data, None, b"", ""
    try:
        doc = json.loads(data)
    except ValueError:
        return data, None, b"", ""
    if not isinstance(doc, dict) or FILE_KEY not in doc:
        return data, None, b"", ""
    image, image_bytes, why = _read_one(doc.pop(FILE_KEY))
    rest = json.dumps(doc, ensure_ascii=False).encode()
    return rest, image, image_bytes, (f"its map image {why}" if why else "")


def _read_one(raw: Any) -> tuple[MapImage | None, bytes, str]:
    """One image member ({"key", "data"}) read and checked: (image, its bytes, "") or (None, b"", why not)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("data"), str) or not isinstance(raw.get("key"), str):
        return None, b"", "is not an object with a key and data"
    try:
        image_bytes = base64.b64decode(raw["data"], validate=True)
        image = check(image_bytes)
    except (ValueError, ImageError) as exc:
        return None, b"", f"was refused ({exc})"
    if image.key != raw["key"]:
        return None, b"", "has bytes that are not the ones its key names"
    return image, image_bytes, ""


# --- the library's backup ("Export all"): the images its entries name -------------------------------
BACKUP_KEY = "map_images"  # the backup's member: [{"key": sha256, "data": base64}, ...]
MAX_BACKUP_BYTES = 48 * 1024 * 1024  # images' bytes one backup carries; past it an image is left out
MAX_BACKUP_EXTRA = (MAX_BACKUP_BYTES + 2) // 3 * 4 + 200 * 64  # characters that member may add to a backup


def pack_all(doc: dict[str, Any], found: dict[str, bytes]) -> list[str]:
    """The backup `doc` with the images `found` (key -> bytes) beside its entries, as many as fit in
    MAX_BACKUP_BYTES (the smallest first); gives the keys left out."""
    kept, total, left = [], 0, []
    for key in sorted(found, key=lambda k: (len(found[k]), k)):
        if total + len(found[key]) > MAX_BACKUP_BYTES:
            left.append(key)
            continue
        total += len(found[key])
        kept.append({"key": key, "data": base64.b64encode(bytes(found[key])).decode("ascii")})
    if kept:
        doc[BACKUP_KEY] = kept
    return left


def unpack_all(data: bytes, max_text: int) -> tuple[bytes, list[tuple[MapImage, bytes]], list[str]]:
    """A backup being imported, its images taken out: (the rest, for the library's import; each image read
    and checked with its bytes; why each one left out was). A file without them comes back as it was."""
    if len(data) > max_text + MAX_BACKUP_EXTRA or f'"{BACKUP_KEY}"'.encode() not in data:
        return data, [], []
    try:
        doc = json.loads(data)
    except ValueError:
        return data, [], []
    if not isinstance(doc, dict) or BACKUP_KEY not in doc:
        return data, [], []
    raw = doc.pop(BACKUP_KEY)
    rest = json.dumps(doc, ensure_ascii=False).encode()
    if not isinstance(raw, list):
        return rest, [], [f"{BACKUP_KEY}: expected a list of images"]
    images, problems, total = [], [], 0
    for i, item in enumerate(raw):
        image, image_bytes, why = _read_one(item)
        if image is not None and total + len(image_bytes) > MAX_BACKUP_BYTES:
            image, why = None, f"is past the {MAX_BACKUP_BYTES // 1024 // 1024} MB of images a backup brings"
        if image is None:
            problems.append(f"{BACKUP_KEY}[{i}] {why}")
        else:
            total += len(image_bytes)
            images.append((image, image_bytes))
    return rest, images, problems
