"""This tab's library entry: opened at start-up, new, kept, autosaved; and files that leave the page.

The encounter in this tab is one entry of the library (ui/dom/store.py keeps
them): the dispatcher autosaves into it after every handler that changed the
history. An encounter that comes in (a file, a link) becomes a new entry and
opens in this tab; it never replaces one. An entry that does not read is set
aside, marked broken, and the next one opens. The old single autosave slot
(`fray.autosave`) is moved into the library once (`migrate`).
"""
from __future__ import annotations

import time

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none, to_js

from ... import library, presets
from ...engine import storage
from ...engine.session import Session
from ...rules import default_system, info
from ...views.panels import system_view
from ...views.welcome import is_first_visit
from . import tabs
from .desk import Desk
from .offers import panel

AUTOSAVE_KEY = "fray.autosave"
BROKEN_KEY = "fray.autosave.broken"
MIGRATED_KEY = "fray.autosave.migrated"
TAB_KEY = "fray.tab.entry"  # sessionStorage: the entry this tab had open (a reload reopens it)


def now_ms() -> int:
    return int(time.time() * 1000)


def new_session(system: str = "", profile: str = "") -> Session:
    """A blank encounter of a system (the first in order when none is named, in its starting
    profile), through the file format like any other."""
    if not system:
        system = default_system()
        profile = info(system).start_profile
    doc = {"format": storage.FORMAT, "encounter": presets.blank_encounter(system, profile), "steps": []}
    return storage.load(doc).session


def restore(desk: Desk) -> bool:
    """Open the share link in the URL (as a new entry), else this tab's entry, else the last changed one,
    else a new encounter in a new entry. An entry that does not read is set aside and the next one opens.
    True on a first visit (views/welcome.py `is_first_visit`): nothing was kept here before."""
    store = desk.store
    loaded = take_link(desk)
    if loaded is not None:
        open_new(desk, loaded.session, "link", loaded.session.encounter.name)
        return False
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
            desk.notify(f"The library entry “{rec['name']}” could not be read and was set aside (it is kept "
                        f"in the library, marked broken). Problem: {exc}", "error")
            continue
        show_entry(desk, rec["id"], session)
        return False
    first = is_first_visit(store.records.values(), _had_old_slot(), link=False)
    open_new(desk, new_session(), "new")
    return first


def _had_old_slot() -> bool:
    """The old single autosave slot was here once (moved into the library, or set aside as broken)."""
    try:
        found = [window.localStorage.getItem(k) for k in (AUTOSAVE_KEY, BROKEN_KEY, MIGRATED_KEY)]
    except Exception:
        return False
    return any(got is not None and not is_none(got) for got in found)


def migrate(desk: Desk) -> None:
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
        desk.notify("The autosaved encounter could not be read and was set aside "
                    f"(kept as {BROKEN_KEY}); a fresh encounter is open. Problem: {exc}", "error")
        return
    store = desk.store
    rid = library.new_id(store.records, now_ms())
    store.put(library.make_record(rid, storage.dumps(session), describe(desk, session), now_ms(), "migrated"))
    _remember(rid)
    window.localStorage.setItem(MIGRATED_KEY, text)
    window.localStorage.removeItem(AUTOSAVE_KEY)


def describe(desk: Desk, session: Session) -> dict:
    try:
        # The page's own panel when it is this tab's fight (worked out once per state for the drawing).
        status = (panel(desk) if session is desk.session else
                  system_view(session.encounter.system).panel(session.state)).status
    except Exception:
        status = ""
    return library.describe(session, status)


def show_entry(desk: Desk, rid: str, session: Session) -> None:
    """Make `session` (entry `rid`) this tab's encounter; the other tabs are asked who else has it open."""
    desk.session = session
    desk.entry_id = rid
    _remember(rid)
    tabs.hold(desk, rid)


def open_new(desk: Desk, session: Session, origin: str, name: str = "") -> str:
    """A new library entry holding `session`, opened in this tab; returns its id."""
    store = desk.store
    rid = library.new_id(store.records, now_ms())
    store.put(library.make_record(rid, storage.dumps(session), describe(desk, session), now_ms(), origin))
    show_entry(desk, rid, session)
    return rid


def is_untouched(session: Session) -> bool:
    """A blank encounter as it was made (no step, no change): not worth an entry of its own."""
    enc = session.encounter
    blank = new_session(enc.system, enc.profile).encounter
    return not session.steps and storage.encounter_to_json(enc) == storage.encounter_to_json(blank)


def keep_copy(desk: Desk, origin: str = "kept") -> str:
    """The tab's encounter as it is now, kept as a library entry of its own (before an example takes its
    place in this tab: undo still returns to it here, and after a reload it is still in the library).
    An untouched blank encounter is not worth an entry; returns the new entry's id or ""."""
    session = desk.session
    if is_untouched(session):
        return ""
    store = desk.store
    rid = library.new_id(store.records, now_ms())
    store.put(library.make_record(rid, storage.dumps(session), describe(desk, session), now_ms(), origin))
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


def take_link(desk: Desk):
    """Read and consume a share link in the URL fragment (#e=...)."""
    frag = str(window.location.hash or "")
    if not frag.startswith("#e="):
        return None
    window.history.replaceState(None, "", str(window.location.pathname) + str(window.location.search))
    try:
        loaded = storage.decode_link(frag)
    except storage.LoadError as exc:
        desk.notify(f"This share link is damaged and was not opened: {exc}. "
                    "The current encounter is unchanged.", "error")
        return None
    desk.notify("Opened the shared encounter (a new entry in the library).", "ok")
    return loaded


def autosave(desk: Desk) -> None:
    """The encounter into its library entry, document and list line together. Not while another tab has
    this encounter (this tab is read-only until the referee takes over)."""
    if desk.read_only:
        return
    store = desk.store
    rid = desk.entry_id
    rec = store.records.get(rid)
    text = storage.dumps(desk.session)
    if rec is None:  # the entry was deleted in another tab: the encounter is saved again, not lost
        rid = rid or library.new_id(store.records, now_ms())
        rec = library.make_record(rid, text, describe(desk, desk.session), now_ms(), "new")
        desk.entry_id = rid
    store.put(library.updated(rec, text, describe(desk, desk.session), now_ms()))


def storage_failed(desk: Desk, why: str) -> None:
    """Said once per failure: the encounter goes on in memory, and Save keeps it."""
    desk.notify(f"Autosave failed ({why}): this encounter is kept in memory in this tab only; "
                "use Save to keep this encounter (it downloads the file).", "error")


# --- files that leave the page ------------------------------------------------------------------

def safe_name(name: str) -> str:
    """An encounter's name as a file name."""
    out = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name.strip())[:60].strip("-")
    return out or "encounter"


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
