"""Files, links and the autosave: what leaves the page and what comes in.

The encounter in this tab is one entry of the library (ui/library_ui.py,
kept by ui/store.py): every change autosaves into that entry. Save downloads
the same JSON, Share puts it in a link's fragment, Open reads a file. An
encounter that comes in (a file, a link) becomes a new library entry and
opens in this tab; it never replaces one, so the encounter that was open is
still in the library, step for step. A document that does not load changes
nothing and says why. The old single autosave slot (`fray.autosave`) is
moved into the library once (`migrate`).
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none, to_js

from .. import library, presets
from ..engine import storage
from ..engine.session import Session
from ..views.panels import log_text
from . import tabs
from .actions import Actions
from .store import Store

if TYPE_CHECKING:
    from .app import App

AUTOSAVE_KEY = "fray.autosave"
BROKEN_KEY = "fray.autosave.broken"
MIGRATED_KEY = "fray.autosave.migrated"
TAB_KEY = "fray.tab.entry"  # sessionStorage: the entry this tab had open (a reload reopens it)

clicks = Actions("click")


def now_ms() -> int:
    return int(time.time() * 1000)


def store_of(app: App) -> Store:
    """The app's library store (a memory one until ui/library_ui.prepare opened IndexedDB)."""
    if getattr(app, "store", None) is None:
        app.store = Store()
    return app.store


def safe_name(name: str) -> str:
    """An encounter's name as a file name."""
    out = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name.strip())[:60].strip("-")
    return out or "encounter"


def new_session(system: str, profile: str) -> Session:
    """A blank encounter of a system, through the file format like any other."""
    doc = {"format": storage.FORMAT, "encounter": presets.blank_encounter(system, profile), "steps": []}
    return storage.load(doc).session


def restore(app: App) -> None:
    """Open the share link in the URL (as a new entry), else this tab's entry, else the last changed one,
    else a new encounter in a new entry. An entry that does not read is set aside and the next one opens."""
    store = store_of(app)
    loaded = take_link(app)
    if loaded is not None:
        open_new(app, loaded.session, "link", loaded.session.encounter.name)
        return
    wanted = _tab_entry()
    order = library.shown(store.records.values())
    order.sort(key=lambda r: r["id"] != wanted)
    for rec in order:
        if rec.get("broken"):
            continue
        try:
            session = library.open_record(rec).session
        except storage.LoadError as exc:
            store.put(library.set_aside(rec, str(exc)))
            app.notify(f"The library entry “{rec['name']}” could not be read and was set aside (it is kept "
                       f"in the library, marked broken). Problem: {exc}", "error")
            continue
        show_entry(app, rec["id"], session)
        return
    open_new(app, new_session("olog", ""), "new")


def migrate(app: App) -> None:
    """An old single autosave slot becomes the library's first entry (the slot is kept, renamed)."""
    try:
        text = window.localStorage.getItem(AUTOSAVE_KEY)
    except Exception:
        return
    if is_none(text) or not text:
        return
    text = str(text)
    try:
        session = storage.loads(text).session
    except storage.LoadError as exc:
        window.localStorage.setItem(BROKEN_KEY, text)
        window.localStorage.removeItem(AUTOSAVE_KEY)
        app.notify("The autosaved encounter could not be read and was set aside "
                   f"(kept as {BROKEN_KEY}); a fresh encounter is open. Problem: {exc}", "error")
        return
    store = store_of(app)
    rid = library.new_id(store.records, now_ms())
    store.put(library.make_record(rid, storage.dumps(session), describe(app, session), now_ms(), "migrated"))
    _remember(rid)
    window.localStorage.setItem(MIGRATED_KEY, text)
    window.localStorage.removeItem(AUTOSAVE_KEY)


def describe(app: App, session: Session) -> dict:
    from ..views.panels import system_view
    try:
        # The page's own panel when it is this tab's fight (worked out once per state for the drawing).
        status = (app.panel() if session is app.session else
                  system_view(session.encounter.system).panel(session.state)).status
    except Exception:
        status = ""
    return library.describe(session, status)


def show_entry(app: App, rid: str, session: Session) -> None:
    """Make `session` (entry `rid`) this tab's encounter; the other tabs are asked who else has it open."""
    app.session = session
    app.entry_id = rid
    _remember(rid)
    tabs.hold(app, rid)


def open_new(app: App, session: Session, origin: str, name: str = "") -> str:
    """A new library entry holding `session`, opened in this tab; returns its id."""
    store = store_of(app)
    rid = library.new_id(store.records, now_ms())
    store.put(library.make_record(rid, storage.dumps(session), describe(app, session), now_ms(), origin))
    show_entry(app, rid, session)
    return rid


def keep_copy(app: App, origin: str = "kept") -> str:
    """The tab's encounter as it is now, kept as a library entry of its own (before an example takes its
    place in this tab: undo still returns to it here, and after a reload it is still in the library).
    An untouched blank encounter is not worth an entry; returns the new entry's id or ""."""
    session = app.session
    enc = session.encounter
    blank = new_session(enc.system, enc.profile).encounter
    if not session.steps and storage.encounter_to_json(enc) == storage.encounter_to_json(blank):
        return ""
    store = store_of(app)
    rid = library.new_id(store.records, now_ms())
    store.put(library.make_record(rid, storage.dumps(session), describe(app, session), now_ms(), origin))
    return rid


def _tab_entry() -> str:
    try:
        got = window.sessionStorage.getItem(TAB_KEY)
        return "" if is_none(got) or got is None else str(got)
    except Exception:
        return ""


def _remember(rid: str) -> None:
    try:
        window.sessionStorage.setItem(TAB_KEY, rid)
    except Exception:
        pass


def take_link(app: App):
    """Read and consume a share link in the URL fragment (#e=...)."""
    frag = str(window.location.hash or "")
    if not frag.startswith("#e="):
        return None
    window.history.replaceState(None, "", str(window.location.pathname) + str(window.location.search))
    try:
        loaded = storage.decode_link(frag)
    except storage.LoadError as exc:
        app.notify(f"This share link is damaged and was not opened: {exc}. "
                   "The current encounter is unchanged.", "error")
        return None
    app.notify("Opened the shared encounter (a new entry in the library).", "ok")
    return loaded


def autosave(app: App) -> None:
    """The encounter into its library entry, document and list line together. Not while another tab has
    this encounter (this tab is read-only until the referee takes over)."""
    if getattr(app, "read_only", False):
        return
    store = store_of(app)
    rid = getattr(app, "entry_id", "")
    rec = store.records.get(rid)
    text = storage.dumps(app.session)
    if rec is None:  # the entry was deleted in another tab: the encounter is saved again, not lost
        rid = rid or library.new_id(store.records, now_ms())
        rec = library.make_record(rid, text, describe(app, app.session), now_ms(), "new")
        app.entry_id = rid
    store.put(library.updated(rec, text, describe(app, app.session), now_ms()))


def storage_failed(app: App, why: str) -> None:
    """Said once per failure: the encounter goes on in memory, and Save keeps it."""
    app.notify(f"Autosave failed ({why}): this encounter is kept in memory in this tab only; "
               "use Save to keep this encounter (it downloads the file).", "error")
    app.render()


def open_text(app: App, text: str | bytes, name: str) -> None:
    """Open a file's contents as a new library entry, or say why not (nothing changes then)."""
    try:
        loaded = storage.loads(text)
    except storage.LoadError as exc:
        shown = "; ".join(exc.problems[:6]) + (f" (and {len(exc.problems) - 6} more)"
                                                if len(exc.problems) > 6 else "")
        app.notify(f"{name} was not opened: {shown}. The current encounter is unchanged.", "error")
        app.render()
        return
    before = app.session.encounter.name if app.session is not None else ""
    open_new(app, loaded.session, "file")
    app.set(selected=None, follow_turn=True, pending=None, draft=None, mode="play", dialog=None)
    app.notify(f"Opened {name}. It is a new library entry" + (f"; “{before}” is still in the library." if before
                                                               else "."), "ok")
    app.render()


def open_link(app: App, loaded) -> None:
    """A share link pasted into this tab: a new entry; the encounter that was open stays in the library."""
    open_new(app, loaded.session, "link")
    app.set(selected=None, follow_turn=True, pending=None, draft=None, mode="play", dialog=None)
    app.notify("Opened the shared encounter as a new library entry.", "ok")
    app.render()


async def read_file(app: App, file) -> None:
    # Bytes, not text(): a file that is not UTF-8 must be refused, not repaired.
    buf = await file.arrayBuffer()
    open_text(app, buf.to_bytes(), str(file.name))


def download(text: str, filename: str, mime: str) -> None:
    blob = window.Blob.new([text], to_js({"type": mime}, dict_converter=window.Object.fromEntries))
    url = window.URL.createObjectURL(blob)
    a = document.createElement("a")
    a.href = url
    a.download = filename
    document.body.appendChild(a)
    a.click()
    a.remove()
    window.setTimeout(create_proxy(lambda: window.URL.revokeObjectURL(url)), 5000)


# --- clicks ---------------------------------------------------------------------------

@clicks("save")
def _save(app: App, name: str, arg: str, target) -> None:
    download(storage.dumps(app.session, indent=1), f"{safe_name(app.session.encounter.name)}.fray.json",
             "application/json")


@clicks("export-log")
def _export_log(app: App, name: str, arg: str, target) -> None:
    s = app.session
    download(log_text(s), f"{safe_name(s.encounter.name)}-log.txt", "text/plain")


@clicks("open")
def _open(app: App, name: str, arg: str, target) -> None:
    app.slots.el("file-input").click()


@clicks("share")
def _share(app: App, name: str, arg: str, target) -> None:
    url = str(window.location.href).split("#")[0] + "#" + storage.encode_link(app.session)
    app.set(dialog=("share", url, False))
    app.render(field=False)


@clicks("copy-share")
def _copy_share(app: App, name: str, arg: str, target) -> None:
    dialog = app.page.dialog
    if not dialog or dialog[0] != "share":
        return
    text = dialog[1]

    def done(*_):
        app.set(dialog=("share", text, True))
        app.render()

    try:
        window.navigator.clipboard.writeText(text).then(create_proxy(done), create_proxy(lambda *_: None))
    except Exception:
        pass
