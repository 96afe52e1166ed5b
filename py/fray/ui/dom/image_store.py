"""Map images in this browser: their bytes in IndexedDB by their SHA-256, each drawn from a blob URL.

The encounter keeps only the image's placement (engine/map_image.py `MapImage`, with its `key`); the save
written on every tap never holds the bytes. They live here, in a database of their own ("fray-maps"), so the
library's store (ui/dom/store.py) is left as it is. Where IndexedDB cannot be had the bytes stay in memory
for this visit and the page says so. A blob URL is made once per image and kept for the page's life, so a
redraw of the grid writes the same `<image>` and the browser decodes it once.
"""
from __future__ import annotations

import asyncio
from typing import Any

from pyscript import window
from pyscript.ffi import is_none, to_js

from .store import StoreError, _wait, open_database, thrown

DB_NAME = "fray-maps"
DB_VERSION = 1
IMAGES = "images"


class Images:
    """Image blobs by key, in IndexedDB when it opens (else in memory), and their blob URLs."""

    def __init__(self) -> None:
        self.db = None
        self.opening: asyncio.Future | None = None
        self.problem = ""  # why the images are kept in memory only
        self.memory: dict[str, Any] = {}  # key -> Blob, when IndexedDB cannot be had
        self.urls: dict[str, str] = {}

    def close(self) -> None:
        """Close the database and let the blob URLs go (App.close): the next App starts afresh."""
        if self.db is not None:
            self.db.close()
        for url in self.urls.values():
            window.URL.revokeObjectURL(url)
        self.__init__()

    async def _open(self) -> None:
        """Open the database once: callers at the same time (the grid's image, the library's sweep) all
        wait for that one opening, none reads the store as if IndexedDB could not be had."""
        if self.opening is None:
            self.opening = asyncio.ensure_future(self._first_open())
        await self.opening

    async def _first_open(self) -> None:
        idb = getattr(window, "indexedDB", None)
        if idb is None or is_none(idb):
            self.problem = "this browser offers no IndexedDB here"
            return
        try:
            self.db = await open_database(idb, DB_NAME, DB_VERSION, (IMAGES,), "opening the map images")
        except Exception as exc:  # a timeout, SecurityError (private mode), a StoreError...
            self.db, self.problem = None, str(exc) or type(exc).__name__

    async def put(self, key: str, data: Any, mime: str) -> str:
        """Keep the bytes (an ArrayBuffer or bytes) under `key` and give their blob URL; StoreError when the
        browser refuses them (storage full): nothing is kept then."""
        blob = window.Blob.new([to_js(data) if isinstance(data, bytes) else data],
                               to_js({"type": mime}, dict_converter=window.Object.fromEntries))
        await self._open()
        if self.db is None:
            self.memory[key] = blob
        else:
            try:
                tx = self.db.transaction(IMAGES, "readwrite")
                await _wait(tx.objectStore(IMAGES).put(blob, key), "storing the map image")
            except StoreError:
                raise
            except Exception as exc:  # QuotaExceededError thrown at once
                raise StoreError(f"storing the map image: {thrown(exc)}") from None
        return self._url(key, blob)

    async def blob(self, key: str) -> Any | None:
        """The image's Blob, or None when this browser does not hold it."""
        if key in self.memory:
            return self.memory[key]
        await self._open()
        if self.db is None:
            return None
        try:
            tx = self.db.transaction(IMAGES, "readonly")
            found = await _wait(tx.objectStore(IMAGES).get(key), "reading the map image")
        except Exception:
            return None
        return None if found is None or is_none(found) else found

    async def url(self, key: str) -> str | None:
        """The image's blob URL, made from the stored bytes the first time; None when they are not here."""
        if key in self.urls:
            return self.urls[key]
        found = await self.blob(key)
        return None if found is None else self._url(key, found)

    async def data(self, key: str) -> bytes | None:
        """The image's bytes (for the saved file), or None."""
        found = await self.blob(key)
        if found is None:
            return None
        return (await found.arrayBuffer()).to_bytes()

    async def keys(self) -> set[str]:
        """Every image this browser holds, by key."""
        await self._open()
        found = set(self.memory)
        if self.db is not None:
            try:
                tx = self.db.transaction(IMAGES, "readonly")
                listed = await _wait(tx.objectStore(IMAGES).getAllKeys(), "listing the map images")
                found |= {str(k) for k in listed.to_py()}
            except Exception:  # a closed database: nothing is let go
                return set()
        return found

    async def sweep(self, keep: set[str]) -> list[str]:
        """Let go of every image not in `keep` (the ones the library's entries name): its bytes and its blob
        URL. Gives the keys let go; an image the browser would not delete stays, for the next sweep."""
        gone = sorted(await self.keys() - keep)
        for key in gone:
            self.memory.pop(key, None)
            url = self.urls.pop(key, None)
            if url is not None:
                window.URL.revokeObjectURL(url)
            if self.db is not None:
                try:
                    tx = self.db.transaction(IMAGES, "readwrite")
                    await _wait(tx.objectStore(IMAGES).delete(key), "deleting a map image")
                except Exception:
                    pass
        return gone

    def _url(self, key: str, blob: Any) -> str:
        if key not in self.urls:
            self.urls[key] = str(window.URL.createObjectURL(blob))
        return self.urls[key]


IMAGES_HERE = Images()  # the page's one set of map images
