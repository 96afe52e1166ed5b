"""The library's storage in this browser: IndexedDB, mirrored in memory, or memory alone.

Every record (an encounter entry, a roster entry) is kept as its JSON text
under its id, in one of two object stores. The whole store is read once at
start-up into `Store.records` / `Store.roster`, so the page reads
synchronously; each write updates the mirror and starts its own IndexedDB
transaction at once, so writes land in the order they were made, and a
record is written whole (never a mix of two saves). When IndexedDB is
missing (a private window in some browsers), refuses to open, or a write
fails (storage full), the page goes on in memory and says so once.
"""
from __future__ import annotations

import asyncio
import json
import re
from typing import Any, Callable

from pyscript import window
from pyscript.ffi import create_proxy, is_none

from ... import library

DB_NAME = "fray"
DB_VERSION = 1
ENTRIES = "entries"
ROSTER = "roster"
PENDING = "fray.pending."  # localStorage: an entry written but not yet committed (a reload may abort it)
OPEN_TIMEOUT = 5.0  # seconds: a blocked or hanging open falls back to memory


class StoreError(Exception):
    """IndexedDB refused (unavailable, full, blocked); the message names the browser's error."""


def _error_name(err) -> str:
    if err is None or is_none(err):
        return "unknown error"
    name = str(getattr(err, "name", "") or "")
    message = str(getattr(err, "message", "") or "")
    return f"{name}: {message}" if name and message else name or message or str(err)


def thrown(exc: Exception) -> str:
    """A JavaScript exception's name and message (Pyodide wraps a thrown DOMException in a long sentence)."""
    text = str(exc)
    m = re.search(r'"""(.+?)"""', text, re.S)
    return (m.group(1) if m else text.splitlines()[0] if text else type(exc).__name__)[:200]


def _wait(req, what: str) -> asyncio.Future:
    """An IDBRequest (or open request) as a future of its result."""
    fut = asyncio.get_event_loop().create_future()
    proxies = []

    def done(value=None, error=None):
        if not fut.done():
            if error is not None:
                fut.set_exception(StoreError(f"{what}: {error}"))
            else:
                fut.set_result(value)
        for p in proxies:
            p.destroy()
        proxies.clear()

    def on_success(*_):
        done(req.result)

    def on_error(event=None):
        if event is not None and not is_none(event) and hasattr(event, "preventDefault"):
            event.preventDefault()
        done(error=_error_name(req.error))

    def on_blocked(*_):
        done(error="blocked by another tab")

    for kind, fn in (("onsuccess", on_success), ("onerror", on_error), ("onblocked", on_blocked)):
        p = create_proxy(fn)
        proxies.append(p)
        try:
            setattr(req, kind, p)
        except Exception:
            pass
    return fut


class Store:
    """Records by id, in memory; IndexedDB behind them when `db` is set."""

    def __init__(self) -> None:
        self.db = None
        self.records: dict[str, library.Record] = {}
        self.roster: dict[str, dict[str, Any]] = {}
        self.problem = ""  # why the store is memory only ("" while IndexedDB works)
        self.failing = False  # the last write failed (said once; cleared by a write that works)
        self.on_failure: Callable[[str], None] = lambda why: None
        self.on_saved: Callable[[str, str], None] = lambda store, rid: None
        self._in_flight: dict[str, int] = {}  # entry id -> its writes not yet committed

    @property
    def durable(self) -> bool:
        return self.db is not None

    def close(self) -> None:
        """Close the database (App.close); the records stay readable in memory."""
        if self.db is not None:
            self.db.close()
            self.db = None

    # --- opening ----------------------------------------------------------------------------
    async def open(self) -> None:
        """Open the database and read every record into memory; on any failure stay in memory."""
        idb = getattr(window, "indexedDB", None)
        if idb is None or is_none(idb):
            self.problem = "this browser offers no IndexedDB here"
            return
        try:
            req = idb.open(DB_NAME, DB_VERSION)

            def upgrade(*_):
                db = req.result
                names = db.objectStoreNames
                for name in (ENTRIES, ROSTER):
                    if not names.contains(name):
                        db.createObjectStore(name)

            up = create_proxy(upgrade)
            req.onupgradeneeded = up
            self.db = await asyncio.wait_for(_wait(req, "opening the library"), OPEN_TIMEOUT)
            up.destroy()
            self.records = {k: v for k, v in (await self._read_all(ENTRIES, library.check_record))}
            self.roster = dict(await self._read_all(ROSTER, lambda raw, key: raw))
            self._replay_pending()
        except asyncio.TimeoutError:
            self.db, self.problem = None, "opening the browser's storage did not finish"
        except Exception as exc:  # SecurityError (private mode), InvalidStateError, a StoreError...
            self.db, self.problem = None, str(exc) or type(exc).__name__

    async def _read_all(self, store: str, check) -> list[tuple[str, Any]]:
        tx = self.db.transaction(store, "readonly")
        os = tx.objectStore(store)
        # Both requests before the first await: a transaction ends once the page's task has nothing left in it.
        got_keys, got_values = _wait(os.getAllKeys(), f"reading the {store}"), _wait(os.getAll(), f"reading the {store}")
        keys = (await got_keys).to_py()
        values = await got_values
        out = []
        for i, key in enumerate(keys):
            text = values[i]
            try:
                raw = json.loads(str(text)) if isinstance(text, str) else None
            except ValueError:
                raw = None
            rec = check(raw, str(key))
            if store == ENTRIES and isinstance(rec, dict) and rec.get("id") != str(key):
                # A record that does not read: set aside under its own key, its text kept.
                rec = {**rec, "id": str(key), "doc": str(text) if isinstance(text, str) else rec["doc"]}
            out.append((str(key), rec))
        return out

    async def reload(self, rid: str) -> library.Record | None:
        """One entry as another tab last saved it (the mirror is refreshed)."""
        if self.db is None:
            return self.records.get(rid)
        try:
            tx = self.db.transaction(ENTRIES, "readonly")
            text = await _wait(tx.objectStore(ENTRIES).get(rid), "reading an entry")
        except Exception:
            return self.records.get(rid)
        if text is None or is_none(text):
            self.records.pop(rid, None)
            return None
        try:
            rec = library.check_record(json.loads(str(text)), rid)
        except ValueError:
            rec = library.check_record(None, rid)
        self.records[rid] = rec
        return rec

    async def reload_roster(self) -> None:
        if self.db is not None:
            try:
                self.roster = dict(await self._read_all(ROSTER, lambda raw, key: raw))
            except Exception:
                pass

    async def reload_all(self) -> None:
        if self.db is not None:
            try:
                self.records = dict(await self._read_all(ENTRIES, library.check_record))
            except Exception:
                pass

    # --- writing -------------------------------------------------------------------------------
    def put(self, rec: library.Record) -> None:
        self.records[rec["id"]] = rec
        text = json.dumps(rec, ensure_ascii=False)
        if self.db is not None:
            # Synchronously too, until IndexedDB commits: a write cut short by a reload or a closed tab
            # is found again at the next start (`_replay_pending`), so no step is lost.
            self._in_flight[rec["id"]] = self._in_flight.get(rec["id"], 0) + 1
            try:
                window.localStorage.setItem(PENDING + rec["id"], text)
            except Exception:
                pass
        self._write(ENTRIES, rec["id"], text)

    def _committed(self, rid: str) -> None:
        left = self._in_flight.get(rid, 0) - 1
        if left > 0:
            self._in_flight[rid] = left
            return
        self._in_flight.pop(rid, None)
        try:
            window.localStorage.removeItem(PENDING + rid)
        except Exception:
            pass

    def _replay_pending(self) -> None:
        """Entries whose last write did not commit before the page went away: written again now."""
        try:
            ls = window.localStorage
            keys = [str(ls.key(i)) for i in range(int(ls.length))]
        except Exception:
            return
        for key in keys:
            if not key.startswith(PENDING):
                continue
            try:
                rec = library.check_record(json.loads(str(window.localStorage.getItem(key))), key[len(PENDING):])
            except (ValueError, TypeError):
                continue
            have = self.records.get(rec["id"])
            if have is None or rec["changed"] >= have["changed"]:
                self.put(rec)
            else:
                window.localStorage.removeItem(key)

    def put_roster(self, entry: dict[str, Any]) -> None:
        self.roster[entry["id"]] = entry
        self._write(ROSTER, entry["id"], json.dumps(entry, ensure_ascii=False))

    def delete(self, store: str, key: str) -> None:
        (self.records if store == ENTRIES else self.roster).pop(key, None)
        self._write(store, key, None)

    def _write(self, store: str, key: str, text: str | None) -> None:
        if self.db is None:
            return
        try:
            tx = self.db.transaction(store, "readwrite")
            os = tx.objectStore(store)
            if text is None:
                os.delete(key)
            else:
                os.put(text, key)
        except Exception as exc:  # QuotaExceededError thrown at once, a closed database...
            self._failed(thrown(exc))
            return
        proxies = []

        def finish(ok: bool, why: str = "") -> None:
            for p in proxies:
                p.destroy()
            proxies.clear()
            if store == ENTRIES and text is not None:
                self._committed(key)
            if ok:
                self.failing = False
                self.on_saved(store, key)
            else:
                self._failed(why)

        def complete(*_):
            finish(True)

        def abort(*_):
            finish(False, _error_name(tx.error))

        for kind, fn in (("oncomplete", complete), ("onabort", abort)):
            p = create_proxy(fn)
            proxies.append(p)
            setattr(tx, kind, p)

    def _failed(self, why: str) -> None:
        first = not self.failing
        self.failing = True
        if first:
            self.on_failure(why or "the browser refused to store it")

    # --- the browser's grant ----------------------------------------------------------------------
    async def estimate(self) -> tuple[float, float] | None:
        """(bytes used, bytes the browser allows), when the browser says."""
        st = getattr(window.navigator, "storage", None)
        if st is None or is_none(st) or is_none(getattr(st, "estimate", None)):
            return None
        try:
            est = await asyncio.wait_for(st.estimate(), 2.0)
            return float(est.usage or 0), float(est.quota or 0)
        except Exception:
            return None


def ask_persistence(done: Callable[[str], None]) -> None:
    """Ask once for persistent storage, never waiting on the answer (Firefox may keep it pending, WebKitGTK
    has no such call); `done` gets "granted", "not granted" or "not offered"."""
    st = getattr(window.navigator, "storage", None)
    if st is None or is_none(st) or is_none(getattr(st, "persist", None)):
        done("not offered by this browser")
        return

    def answered(value) -> None:
        done("granted" if bool(value) else "not granted (the browser may clear it when space runs low)")

    def failed(*_) -> None:
        done("not granted")

    def already(value) -> None:
        if bool(value):
            done("granted")
            return
        st.persist().then(create_proxy(answered), create_proxy(failed))

    try:
        persisted = getattr(st, "persisted", None)
        if persisted is None or is_none(persisted):
            st.persist().then(create_proxy(answered), create_proxy(failed))
        else:
            st.persisted().then(create_proxy(already), create_proxy(failed))
    except Exception:
        done("not offered by this browser")
