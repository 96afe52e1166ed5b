"""The library in the page: start-up, the list's actions, export all, import with a progress bar, take over.

`prepare` opens the store (ui/dom/store.py) before the page's first drawing,
moves an old autosave slot in (ui/controllers/files.py), empties the trash of entries
older than seven days and asks for persistent storage without waiting for
the answer. The list opens in a dialog; each action changes one record and
the list is drawn again. Switching entries in a tab lets go of the old
entry's lock and takes the new one's (ui/desk/tabs.py).
"""
from __future__ import annotations

import asyncio
import json

from pyscript import document
from pyscript.ffi import is_none

from ... import library, presets
from ...engine import map_image, storage
from ...engine.session import SetupChange
from . import roster_ui
from ..desk import entries, tabs
from .actions import Actions
from ..desk.desk import Desk
from ..desk.page import Dialog
from ..desk.operations import apply_setup
from ..dom.image_store import IMAGES_HERE
from ..dom.store import ENTRIES, ROSTER, ask_persistence
from ..field import map_layer

clicks = Actions("click")
forms = Actions("form")
IMPORT_CHUNK = 25  # entries checked between two drawings of the progress bar


async def prepare(desk: Desk) -> None:
    """Before the first drawing: the store open, the old slot migrated, the trash purged."""
    store = desk.store
    await store.open()
    store.on_failure = lambda why: desk.run(lambda d: entries.storage_failed(d, why))
    store.on_saved = lambda name, rid: tabs.announce(desk, name, rid)
    if store.problem:
        desk.notify(f"This browser keeps nothing for Fray here ({store.problem}): the encounter is kept in memory "
                   "in this tab only. Use Save to keep this encounter (it downloads the file).", "error")
    entries.migrate(desk)
    now = entries.now_ms()
    for rec in list(store.records.values()):
        if library.expired(rec, now):
            store.delete(ENTRIES, rec["id"])
    asyncio.ensure_future(sweep(desk))  # the images of entries gone, and of none, let go (after the drawing)
    # Other tabs' messages, a lock let go and the browser's answer arrive outside any handler: each goes
    # through the dispatcher (desk.run), which redraws after it.
    tabs.listen(desk, lambda msg: desk.run(lambda d: heard(d, msg)))
    desk.keeper.on_free = lambda rid, done: desk.run(lambda d: resume(d, rid, done))
    if store.durable:
        ask_persistence(lambda answer: desk.run(lambda d: _persistence(d, answer)))


async def resume(desk: Desk, rid: str, done) -> None:
    """The other tab let this entry go: read it as last saved, then this tab may change it."""
    rec = await desk.store.reload(rid)
    if rec is not None and rid == desk.entry_id:
        try:
            desk.session = library.open_record(rec).session
        except storage.LoadError:
            pass
    done()
    desk.notify("The other tab let go of this encounter: this tab can change it again.", "ok")


def _persistence(desk: Desk, answer: str) -> None:
    desk.library.persist = answer


async def heard(desk: Desk, msg: dict) -> None:
    """Another tab saved: refresh that record; a read-only tab shows the other's steps."""
    store = desk.store
    rid = str(msg.get("id", ""))
    if msg.get("store") == ROSTER:
        await store.reload_roster()
        return
    rec = await store.reload(rid)
    if desk.read_only and rid == desk.entry_id and rec is not None:
        try:
            desk.session = library.open_record(rec).session
        except storage.LoadError:
            pass


def switch(desk: Desk, rid: str, session, message: str = "") -> None:
    """Open entry `rid` in this tab (the one that was open stays in the library as last saved)."""
    entries.show_entry(desk, rid, session)
    desk.setup.clear()
    desk.set(selected=None, follow_turn=True, pending=None, draft=None, mode="play", dialog=None, problems=(),
            restart_offer=None)
    if message:
        desk.notify(message, "ok")


# --- the list's actions ----------------------------------------------------------------------------

@clicks("library")
def _library(desk: Desk, name: str, arg: str, target) -> None:
    desk.library.renaming, desk.library.report = "", ""
    desk.set(dialog=Dialog("library"))
    return _refresh(desk)  # the dispatcher awaits it, then draws the list again


async def _refresh(desk: Desk) -> None:
    store = desk.store
    await store.reload_all()
    desk.library.usage = await store.estimate()


@clicks("lib-open")
def _open(desk: Desk, name: str, arg: str, target):
    return open_entry(desk, arg)


async def open_entry(desk: Desk, rid: str) -> None:
    store = desk.store
    rec = await store.reload(rid)
    if rec is None:
        desk.notify("That entry is no longer in the library (deleted in another tab?).", "error")
        return
    try:
        session = library.open_record(rec).session
    except storage.LoadError as exc:
        store.put(library.set_aside(rec, str(exc)))
        desk.notify(f"“{rec['name']}” could not be read and was set aside (kept in the library): {exc}", "error")
        return
    switch(desk, rid, session, f"Opened “{rec['name']}” from the library.")


@clicks("lib-new")
def _new(desk: Desk, name: str, arg: str, target) -> None:
    """A new, empty encounter of the system tapped ("<system>:<profile>"), opened in Setup to fill in."""
    sys_, _, profile = arg.partition(":")
    label = new_encounter(desk, sys_, profile)
    desk.notify(f"A new {label} encounter is open in Setup: add the party, then the foes "
                "(the previous encounter is in the library).", "ok")


def new_encounter(desk: Desk, system: str, profile: str) -> str:
    """A new, empty encounter of `system` (else the open encounter's) in a new entry, opened in Setup;
    returns the system's short name."""
    choice = next((c for c in presets.new_encounters() if c[0] == system), None)
    if choice is None:  # no system named: the open encounter's
        system, profile = desk.session.encounter.system, desk.session.encounter.profile
    session = storage.load({"format": storage.FORMAT, "encounter": presets.empty_encounter(system, profile),
                            "steps": []}).session
    rid = entries.open_new(desk, session, "new")
    switch(desk, rid, session)
    desk.set(mode="setup", draft=storage.encounter_to_json(session.encounter))
    return choice[2] if choice else system


@clicks("lib-rename-start")
def _rename_start(desk: Desk, name: str, arg: str, target) -> None:
    desk.library.renaming = arg


@forms("lib-rename")
def _rename(desk: Desk, arg: str, values: dict, op: str, form) -> None:
    store = desk.store
    rec = store.records.get(arg)
    if rec is None:
        return
    try:
        new = library.renamed(rec, values.get("name", ""), entries.now_ms())
    except ValueError as exc:
        desk.library.report = f"Not renamed: {exc}."
        return
    desk.library.renaming, desk.library.report = "", f"Renamed to “{new['name']}”."
    if arg == desk.entry_id and not desk.read_only:
        doc = storage.encounter_to_json(desk.session.encounter)
        doc["name"] = new["name"]
        apply_setup(desk, doc)  # the open encounter renamed too (a setup change Undo takes back)
        return
    store.put(new)


@clicks("lib-dup")
def _dup(desk: Desk, name: str, arg: str, target) -> None:
    store = desk.store
    rec = store.records.get(arg)
    if rec is None:
        return
    copy = library.copy_of(rec, library.new_id(store.records, entries.now_ms()), entries.now_ms())
    store.put(copy)
    desk.library.report = f"Duplicated as “{copy['name']}”."


@clicks("lib-delete")
def _delete(desk: Desk, name: str, arg: str, target) -> None:
    store = desk.store
    rec = store.records.get(arg)
    if rec is None:
        return
    store.put(library.deleted(rec, entries.now_ms()))
    desk.library.report = f"“{rec['name']}” is in the trash (restorable for {library.TRASH_DAYS} days)."
    if arg == desk.entry_id:
        rest = [r for r in library.shown(store.records.values()) if not r.get("broken")]
        session = None
        for r in rest:
            try:
                session = library.open_record(r).session
                entries.show_entry(desk, r["id"], session)
                break
            except storage.LoadError:
                continue
        if session is None:
            entries.open_new(desk, entries.new_session(), "new")
        desk.set(selected=None, follow_turn=True, pending=None, draft=None, mode="play")


@clicks("lib-purge")
def _purge(desk: Desk, name: str, arg: str, target):
    """An entry in the trash deleted for good, and the map images no other entry names with it."""
    store = desk.store
    rec = store.records.get(arg)
    if rec is None or rec.get("deleted") is None:
        return None
    store.delete(ENTRIES, arg)
    desk.library.report = f"“{rec['name']}” is deleted for good."
    return sweep(desk)


async def sweep(desk: Desk) -> None:
    """Let go of the map images no entry names (the trash's included), nor the open encounter or its draft:
    an entry deleted for good takes its image with it, and an image replaced or never kept goes too."""
    store = desk.store
    await store.reload_all()  # what other tabs saved counts too
    keep = library.image_keys(store.records.values())
    if desk.session is not None:  # the open encounter, and any setup Undo or Redo can bring back
        s = desk.session
        setups = [s.encounter] + [f.encounter for e in s.history + s.undone if isinstance(e, SetupChange)
                                  for f in (e.before, e.after)]
        keep |= {enc.map.image.key for enc in setups if enc.map.image is not None}
    draft = desk.page.draft
    if isinstance(draft, dict):
        keep |= library.image_keys([{"doc": json.dumps(draft)}])
    for key in await IMAGES_HERE.sweep(keep):
        map_layer.URLS.pop(key, None)


@clicks("lib-restore")
def _restore(desk: Desk, name: str, arg: str, target) -> None:
    store = desk.store
    rec = store.records.get(arg)
    if rec is not None:
        store.put(library.restored(rec, entries.now_ms()))
        desk.library.report = f"“{rec['name']}” is back in the library."


@clicks("lib-download")
def _download(desk: Desk, name: str, arg: str, target) -> None:
    rec = desk.store.records.get(arg)
    if rec is not None:
        entries.download(rec["doc"], f"{entries.safe_name(rec['name'])}.set-aside.json", "application/json")


@clicks("lib-export")
def _export(desk: Desk, name: str, arg: str, target):
    return export_all(desk)


async def export_all(desk: Desk) -> None:
    """Every entry, the roster, and the map images the entries name (read from this browser's store)."""
    store = desk.store
    doc = library.backup(store.records.values(), [store.roster[k] for k in sorted(store.roster)], entries.now_ms())
    found: dict[str, bytes] = {}
    for key in sorted(library.image_keys(store.records.values())):
        data = await IMAGES_HERE.data(key)
        if data is not None:
            found[key] = data
    left = map_image.pack_all(doc, found)
    entries.download(library.dump_backup(doc), "fray-library.backup.json", "application/json")
    images = len(doc.get(map_image.BACKUP_KEY, []))
    desk.library.report = f"Exported {len(doc['entries'])} entries, {len(doc['roster'])} roster entries" + \
        (f" and {images} map image{'s' if images != 1 else ''}" if images else "") + "." + \
        (f" {len(left)} map images were left out (past {map_image.MAX_BACKUP_BYTES // 1024 // 1024} MB of images "
         "in one file): save those encounters' own files." if left else "")


@clicks("lib-import")
def _import(desk: Desk, name: str, arg: str, target) -> None:
    document.getElementById("import-input").click()


@clicks("take-over")
def _take_over(desk: Desk, name: str, arg: str, target):
    return take_over(desk)


async def take_over(desk: Desk) -> None:
    """Read the entry as the other tab last saved it, then take its lock (the other tab turns read-only)."""
    store = desk.store
    rid = desk.entry_id
    rec = await store.reload(rid)
    if rec is not None:
        try:
            desk.session = library.open_record(rec).session
        except storage.LoadError:
            pass

    tabs.hold(desk, rid, steal=True,
              then=lambda d: d.notify("This tab now has the encounter; the other tab is read-only.", "ok"))


def _show_progress(done: int, total: int) -> None:
    bar = document.querySelector("[data-testid=import-progress]")
    if bar is not None and not is_none(bar):
        bar.value = done
        label = bar.nextElementSibling
        if label is not None and not is_none(label):
            label.textContent = f" {done} of {total}"


# --- importing --------------------------------------------------------------------------------------

def on_import_file(desk: Desk, event):
    """The backup chosen: imported after the handler returns (the dispatcher awaits what it gives)."""
    chosen = event.target.files
    file = chosen.item(0) if chosen.length else None
    event.target.value = ""
    return None if file is None else import_file(desk, file)


async def import_file(desk: Desk, file) -> None:
    buf = await file.arrayBuffer()
    await import_text(desk, *(await _images_in(buf.to_bytes(), str(file.name))))


async def _images_in(data: bytes, name: str) -> tuple[bytes, str, list[str]]:
    """A backup's map images (or a single encounter file's) stored in this browser before its entries are
    read; gives the rest of the file, its name, and why each image left out was."""
    data, one, one_bytes, why = map_image.unpack(data, storage.MAX_TEXT)
    data, images, problems = map_image.unpack_all(data, storage.MAX_TEXT)
    images = ([(one, one_bytes)] if one is not None else []) + images
    for image, image_bytes in images:
        try:
            map_layer.URLS[image.key] = await IMAGES_HERE.put(image.key, image_bytes, image.mime)
        except Exception as exc:  # storage full
            problems.append(f"the map image {image.key[:8]}… was not stored ({exc})")
    return data, name, ([why] if why else []) + problems


async def import_text(desk: Desk, text: str | bytes, name: str, image_problems: tuple | list = ()) -> None:
    """Add every entry of a backup (or one encounter file) under ids no entry has, with a progress bar;
    entries that do not load are added set aside, and the report names them (and any map image the file
    brought that was left out)."""
    state = desk.library
    desk.set(dialog=Dialog("library"))
    try:
        incoming = library.read_import(text, name)
    except library.BackupError as exc:
        state.report, state.progress = f"Nothing imported: {exc}.", None
        return
    store = desk.store
    total = len(incoming.records)
    problems = list(incoming.problems)
    added = 0
    state.progress = (0, total)
    desk.run(lambda d: None)  # the dialog with its progress bar drawn now, before the work
    taken = set(store.records)
    for i, rec in enumerate(incoming.records):
        if i % IMPORT_CHUNK == 0 and i:
            state.progress = (i, total)
            _show_progress(i, total)  # the bar alone: the list is drawn once, at the end
            await asyncio.sleep(0)
        checked, problem = library.check_incoming(rec, i)
        if problem:
            problems.append(problem)
        new = library.adopt_incoming(checked, taken, entries.now_ms(), "import" if incoming.is_backup else "file")
        taken.add(new["id"])
        store.put(new)
        added += 1
    roster_added = 0
    if incoming.roster:
        roster_added, roster_problems = roster_ui.merge_in(desk, json.dumps(
            {"format": 1, "app": "fray", "kind": "roster", "entries": incoming.roster}), name)
        problems += roster_problems
    shown = "; ".join(problems[:5]) + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "")
    report = f"Imported {added} {'entry' if added == 1 else 'entries'}" + \
        (f" and {roster_added} roster entries" if roster_added else "") + " from " + name + \
        (f". Set aside (kept, marked broken): {shown}" if problems else "") + "." + \
        (f" Map images left out: {'; '.join(image_problems[:3])}." if image_problems else "")
    state.progress, state.report = None, report
