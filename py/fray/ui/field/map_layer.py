"""The map image's layer in the grid's SVG: an `<image>` under the squares, from the blob URL the page made.

The page (ui/page/map_images.py) makes each image's blob URL from the browser's store and notes it in `URLS`;
this module only writes the element, so the grid's static layer stays pure markup (CPython tests draw it with
a URL of their own). An image whose URL is not ready yet is left out, and drawn once it is.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from ...engine.model import MapSpec
from ..markup.html import esc

URLS: dict[str, str] = {}  # an image's key -> its blob URL, for this page's life
_ASIDE = [False]  # a drawing kept for the next visit (ui/page/paint.py): this page's blob URLs die with it


@contextmanager
def aside() -> Iterator[None]:
    """While the next visit's painted start is drawn, no image: its blob URL would not load there."""
    _ASIDE[0] = True
    try:
        yield
    finally:
        _ASIDE[0] = False


def url(spec: MapSpec) -> str:
    """The blob URL the map's image is drawn from ("" when there is none or it is not ready)."""
    return URLS.get(spec.image.key, "") if spec.image is not None and not _ASIDE[0] else ""


def image_svg(spec: MapSpec, cell: float) -> str:
    """The image under the squares of a grid of `cell` units a square; it takes no taps (they reach the board)."""
    image, href = spec.image, url(spec)
    if image is None or not href:
        return ""
    left, top, width, height = (round(v, 3) for v in image.box(cell))
    return (f'<image class="map-image" data-testid="map-image" href="{esc(href)}" x="{left:g}" y="{top:g}" '
            f'width="{width:g}" height="{height:g}" opacity="{image.opacity:g}" preserveAspectRatio="none" '
            'pointer-events="none"/>')
