"""The map image made ready before the grid draws it: its blob URL read from the browser's store once a visit.

Called first in the one drawing order (ui/page/drawing.py). An encounter opened, reloaded or switched in the
library names its image by key only; the first drawing leaves the image out, asks ui/dom/image_store.py for its
URL, and a redraw of the field follows when it is ready. An image this browser does not hold is said once.
"""
from __future__ import annotations

import asyncio

from ..controllers import map_image_ui
from ..desk.desk import Desk
from ..dom.image_store import IMAGES_HERE
from ..field import map_layer

_ASKED: set[str] = set()  # keys read (or being read) from the store this visit


def ensure(desk: Desk) -> None:
    """Start reading the shown encounter's map image (or the setup draft's) if its URL is not ready."""
    keys = set()
    if desk.session is not None and desk.session.encounter.map.image is not None:
        keys.add(desk.session.encounter.map.image.key)
    draft = desk.page.draft
    if isinstance(draft, dict) and isinstance(draft.get("map"), dict) and isinstance(draft["map"].get("image"), dict):
        keys.add(str(draft["map"]["image"].get("key", "")))
    for key in keys - _ASKED - set(map_layer.URLS):
        if key:
            _ASKED.add(key)
            asyncio.ensure_future(_read(desk, key))


async def _read(desk: Desk, key: str) -> None:
    url = await IMAGES_HERE.url(key)

    def drawn(d: Desk) -> None:
        if url:
            map_layer.URLS[key] = url
            d.field_acted = True  # the field draws from the URL: the dispatcher redraws it (ui/dispatch.py `_after`)
        else:
            d.notify("This encounter's map image is not kept in this browser: open the saved file that holds it, "
                     "or choose the image again in Setup.", "info")
    desk.run(drawn)


def close() -> None:
    """The App lets the page go (ui/app.py `App.close`): the images' database, URLs and reads with it."""
    IMAGES_HERE.close()
    map_image_ui.forget()
    map_layer.URLS.clear()
    _ASKED.clear()
