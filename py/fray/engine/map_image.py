"""A map image under the grid: what a file is (PNG, JPEG or WebP, from its bytes), its size, its place on the squares.

Pure: the page reads the file's bytes and hands them here before anything is
stored or drawn, so a file that is too big, not an image, an SVG (which could
carry script) or too many pixels to draw is refused with its reason and the
encounter keeps what it had. `MapImage` is the image's placement on the map
(in squares), its opacity and whether the table display shows it; its JSON
form is what a save file keeps beside the image's data.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, replace
from typing import Any

MAX_BYTES = 8 * 1024 * 1024       # a file's size
MAX_SIDE = 8192                   # pixels a side
MAX_PIXELS = 40_000_000           # width × height
SQUARE_PX = (4.0, 2000.0)         # one square's size in the image's pixels
OPACITY = (0.1, 1.0)
TYPES = ("image/png", "image/jpeg", "image/webp")


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


def check(data: bytes) -> MapImage:
    """The map image a file's bytes make, or ImageError: too big, not an image, an SVG, too many pixels."""
    if len(data) > MAX_BYTES:
        raise ImageError(f"{len(data) / 1024 / 1024:.0f} MB: a map image is at most {MAX_BYTES // 1024 // 1024} MB")
    mime, w, h = sniff(data)
    if not (w and h):
        raise ImageError("this image has no pixels")
    if max(w, h) > MAX_SIDE or w * h > MAX_PIXELS:
        raise ImageError(f"{w:,} × {h:,} pixels: a map image is at most {MAX_SIDE:,} a side and "
                         f"{MAX_PIXELS // 1_000_000} million pixels")
    return MapImage(mime, w, h)


def to_json(image: MapImage) -> dict[str, Any]:
    return {"type": image.mime, "width": image.width, "height": image.height, "x": image.x, "y": image.y,
            "square": image.square, "opacity": image.opacity, "table": image.table}


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
    mime = raw.get("type")
    if mime not in TYPES:
        problems.append(f"{path}.type: expected one of {', '.join(TYPES)}")
    w, h = number("width", 1, MAX_SIDE, 1), number("height", 1, MAX_SIDE, 1)
    image = MapImage(str(mime), int(w), int(h), number("x", -MAX_SIDE, MAX_SIDE, 0),
                     number("y", -MAX_SIDE, MAX_SIDE, 0), number("square", *SQUARE_PX, 70),
                     number("opacity", *OPACITY, 0.7), bool(raw.get("table", True)))
    return None if len(problems) > found else image
