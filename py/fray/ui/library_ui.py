"""The library in the page: start-up, the list's actions, export all, import with a progress bar, take over.

`prepare` opens the store (ui/store.py) before the page's first drawing,
moves an old autosave slot in (ui/files.py), empties the trash of entries
older than seven days and asks for persistent storage without waiting for
the answer. The list opens in a dialog; each action changes one record and
the list is drawn again. Switching entries in a tab lets go of the old
entry's lock and takes the new one's (ui/tabs.py).
"""
from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

from pyscript import document
from pyscript.ffi import is_none

from .. import library
from ..engine import storage
from . import files, library_view, tabs
from .actions import Actions
from .store import ENTRIES, ROSTER, ask_persistence

if TYPE_CHECKING:
    from .app import App

clicks = Actions("click")
forms = Actions("form")
ALLOWED_READ_ONLY = ("library", "take-over", "cancel", "dismiss", "help", "rule", "tab", "select", "lib-open",
                     "lib-new", "lib-export", "lib-import", "lib-rename-start", "lib-dup", "lib-delete",
                     "lib-restore", "lib-download", "save", "export-log", "share", "copy-share")
IMPORT_CHUNK = 25  # entries checked between two drawings of the progress bar


def ui(app: App) -> dict:
    """The library's own page state: the entry being renamed, the import's progress, its report."""
    if getattr(app, "lib_ui", None) is None:
        app.lib_ui = {"renaming": "", "progress": None, "report": "", "usage": None, "persist": ""}
    return app.lib_ui


async def prepare(app: App) -> None:
    """Before the first drawing: the store open, the old slot migrated, the trash purged."""
    store = files.store_of(app)
    await store.open()
    store.on_failure = lambda why: files.storage_failed(app, why)
    store.on_saved = lambda name, rid: tabs.announce(app, name, rid)
    if store.problem:
        app.notify(f"This browser keeps nothing for Fray here ({store.problem}): the encounter is kept in memory "
                   "in this tab only. Use Save to keep this encounter (it downloads the file).", "error")
    files.migrate(app)
    now = files.now_ms()
    for rec in list(store.records.values()):
        if library.expired(rec, now):
            store.delete(ENTRIES, rec["id"])
    tabs.listen(app, lambda msg: heard(app, msg))
    tabs.keeper(app).on_free = lambda rid, done: asyncio.ensure_future(resume(app, rid, done))
    if store.durable:
        ask_persistence(lambda answer: _persistence(app, answer))


async def resume(app: App, rid: str, done) -> None:
    """The other tab let this entry go: read it as last saved, then this tab may change it."""
    rec = await files.store_of(app).reload(rid)
    if rec is not None and rid == getattr(app, "entry_id", ""):
        try:
            app.session = library.open_record(rec).session
        except storage.LoadError:
            pass
    done()
    app.notify("The other tab let go of this encounter: this tab can change it again.", "ok")
    app.render()


def _persistence(app: App, answer: str) -> None:
    ui(app)["persist"] = answer
    if app.page.dialog == ("library",):
        app.render(field=False)


async def heard(app: App, msg: dict) -> None:
    """Another tab saved: refresh that record; a read-only tab shows the other's steps."""
    store = files.store_of(app)
    rid = str(msg.get("id", ""))
    if msg.get("store") == ROSTER:
        await store.reload_roster()
        if app.page.mode == "setup":
            app.render(field=False)
        return
    rec = await store.reload(rid)
    if getattr(app, "read_only", False) and rid == getattr(app, "entry_id", "") and rec is not None:
        try:
            app.session = library.open_record(rec).session
        except storage.LoadError:
            return
        app.render()
    elif app.page.dialog == ("library",):
        app.render(field=False)


def draw(app: App) -> None:
    """The banner of a read-only tab and the library dialog, in their own slots."""
    banner = library_view.banner(app.session.encounter.name) if getattr(app, "read_only", False) else ""
    app.slots.html("banner-slot", banner)
    if app.page.dialog != ("library",):
        app.slots.html("library-slot", "")
        return
    store, state = files.store_of(app), ui(app)
    used, quota = state["usage"] or (None, None)
    line = library_view.StorageLine(store.durable, store.problem, used, quota, state["persist"])
    markup = library_view.dialog(list(store.records.values()), files.now_ms(), getattr(app, "entry_id", ""),
                                 state["renaming"], line, state["progress"], state["report"])
    app.slots.dialog("library-slot", markup)


def refused(app: App, name: str) -> bool:
    """While another tab has the encounter, only looking, the library and taking over are allowed."""
    if not getattr(app, "read_only", False) or name in ALLOWED_READ_ONLY or name.startswith("lib-"):
        return False
    app.notify("This encounter is open in another tab: take over here to change it.", "info")
    app.render(field=False)
    return True


def switch(app: App, rid: str, session, message: str = "") -> None:
    """Open entry `rid` in this tab (the one that was open stays in the library as last saved)."""
    files.show_entry(app, rid, session)
    app.set(selected=None, follow_turn=True, pending=None, draft=None, mode="play", dialog=None, problems=(),
            restart_offer=None)
    if message:
        app.notify(message, "ok")
    app.render()


# --- the list's actions ----------------------------------------------------------------------------

@clicks("library")
def _library(app: App, name: str, arg: str, target) -> None:
    ui(app).update(renaming="", report="")
    app.set(dialog=("library",))
    app.render(field=False)
    asyncio.ensure_future(_refresh(app))


async def _refresh(app: App) -> None:
    store = files.store_of(app)
    await store.reload_all()
    ui(app)["usage"] = await store.estimate()
    if app.page.dialog == ("library",):
        app.render(field=False)


@clicks("lib-open")
def _open(app: App, name: str, arg: str, target) -> None:
    asyncio.ensure_future(open_entry(app, arg))


async def open_entry(app: App, rid: str) -> None:
    store = files.store_of(app)
    rec = await store.reload(rid)
    if rec is None:
        app.notify("That entry is no longer in the library (deleted in another tab?).", "error")
        app.render(field=False)
        return
    try:
        session = library.open_record(rec).session
    except storage.LoadError as exc:
        store.put(library.set_aside(rec, str(exc)))
        app.notify(f"“{rec['name']}” could not be read and was set aside (kept in the library): {exc}", "error")
        app.render(field=False)
        return
    switch(app, rid, session, f"Opened “{rec['name']}” from the library.")


@clicks("lib-new")
def _new(app: App, name: str, arg: str, target) -> None:
    sys_, profile = app.session.encounter.system, app.session.encounter.profile
    session = files.new_session(sys_, profile)
    rid = files.open_new(app, session, "new")
    switch(app, rid, session, "A new encounter is open (the previous one is in the library).")


@clicks("lib-rename-start")
def _rename_start(app: App, name: str, arg: str, target) -> None:
    ui(app)["renaming"] = arg
    app.render(field=False)


@forms("lib-rename")
def _rename(app: App, arg: str, values: dict, op: str, form) -> None:
    store = files.store_of(app)
    rec = store.records.get(arg)
    if rec is None:
        return
    try:
        new = library.renamed(rec, values.get("name", ""), files.now_ms())
    except ValueError as exc:
        ui(app)["report"] = f"Not renamed: {exc}."
        app.render(field=False)
        return
    ui(app).update(renaming="", report=f"Renamed to “{new['name']}”.")
    if arg == getattr(app, "entry_id", "") and not getattr(app, "read_only", False):
        from .editing import apply_setup
        doc = storage.encounter_to_json(app.session.encounter)
        doc["name"] = new["name"]
        apply_setup(app, doc)  # the open encounter renamed too (a setup change Undo takes back)
        return
    store.put(new)
    app.render(field=False)


@clicks("lib-dup")
def _dup(app: App, name: str, arg: str, target) -> None:
    store = files.store_of(app)
    rec = store.records.get(arg)
    if rec is None:
        return
    copy = library.copy_of(rec, library.new_id(store.records, files.now_ms()), files.now_ms())
    store.put(copy)
    ui(app)["report"] = f"Duplicated as “{copy['name']}”."
    app.render(field=False)


@clicks("lib-delete")
def _delete(app: App, name: str, arg: str, target) -> None:
    store = files.store_of(app)
    rec = store.records.get(arg)
    if rec is None:
        return
    store.put(library.deleted(rec, files.now_ms()))
    ui(app)["report"] = f"“{rec['name']}” is in the trash (restorable for {library.TRASH_DAYS} days)."
    if arg == getattr(app, "entry_id", ""):
        rest = [r for r in library.shown(store.records.values()) if not r.get("broken")]
        session = None
        for r in rest:
            try:
                session = library.open_record(r).session
                files.show_entry(app, r["id"], session)
                break
            except storage.LoadError:
                continue
        if session is None:
            files.open_new(app, files.new_session("olog", ""), "new")
        app.set(selected=None, follow_turn=True, pending=None, draft=None, mode="play")
    app.render()


@clicks("lib-restore")
def _restore(app: App, name: str, arg: str, target) -> None:
    store = files.store_of(app)
    rec = store.records.get(arg)
    if rec is not None:
        store.put(library.restored(rec, files.now_ms()))
        ui(app)["report"] = f"“{rec['name']}” is back in the library."
    app.render(field=False)


@clicks("lib-download")
def _download(app: App, name: str, arg: str, target) -> None:
    rec = files.store_of(app).records.get(arg)
    if rec is not None:
        files.download(rec["doc"], f"{files.safe_name(rec['name'])}.set-aside.json", "application/json")


@clicks("lib-export")
def _export(app: App, name: str, arg: str, target) -> None:
    store = files.store_of(app)
    doc = library.backup(store.records.values(), [store.roster[k] for k in sorted(store.roster)], files.now_ms())
    files.download(library.dump_backup(doc), "fray-library.backup.json", "application/json")
    ui(app)["report"] = f"Exported {len(doc['entries'])} entries and {len(doc['roster'])} roster entries."
    app.render(field=False)


@clicks("lib-import")
def _import(app: App, name: str, arg: str, target) -> None:
    document.getElementById("import-input").click()


@clicks("take-over")
def _take_over(app: App, name: str, arg: str, target) -> None:
    asyncio.ensure_future(take_over(app))


async def take_over(app: App) -> None:
    """Read the entry as the other tab last saved it, then take its lock (the other tab turns read-only)."""
    store = files.store_of(app)
    rid = getattr(app, "entry_id", "")
    rec = await store.reload(rid)
    if rec is not None:
        try:
            app.session = library.open_record(rec).session
        except storage.LoadError:
            pass

    def taken() -> None:
        app.notify("This tab now has the encounter; the other tab is read-only.", "ok")
        app.render()

    tabs.hold(app, rid, steal=True, then=taken)


def _show_progress(done: int, total: int) -> None:
    bar = document.querySelector("[data-testid=import-progress]")
    if bar is not None and not is_none(bar):
        bar.value = done
        label = bar.nextElementSibling
        if label is not None and not is_none(label):
            label.textContent = f" {done} of {total}"


# --- importing --------------------------------------------------------------------------------------

def on_import_file(app: App, event) -> None:
    chosen = event.target.files
    if chosen.length:
        asyncio.ensure_future(import_file(app, chosen.item(0)))
    event.target.value = ""


async def import_file(app: App, file) -> None:
    buf = await file.arrayBuffer()
    await import_text(app, buf.to_bytes(), str(file.name))


async def import_text(app: App, text: str | bytes, name: str) -> None:
    """Add every entry of a backup (or one encounter file) under ids no entry has, with a progress bar;
    entries that do not load are added set aside, and the report names them."""
    state = ui(app)
    app.set(dialog=("library",))
    try:
        incoming = library.read_import(text, name)
    except library.BackupError as exc:
        state.update(report=f"Nothing imported: {exc}.", progress=None)
        app.render(field=False)
        return
    store = files.store_of(app)
    total = len(incoming.records)
    problems = list(incoming.problems)
    added = 0
    state["progress"] = (0, total)
    app.render(field=False)
    taken = set(store.records)
    for i, rec in enumerate(incoming.records):
        if i % IMPORT_CHUNK == 0 and i:
            state["progress"] = (i, total)
            _show_progress(i, total)  # the bar alone: the list is drawn once, at the end
            await asyncio.sleep(0)
        checked, problem = library.check_incoming(rec, i)
        if problem:
            problems.append(problem)
        new = library.adopt_incoming(checked, taken, files.now_ms(), "import" if incoming.is_backup else "file")
        taken.add(new["id"])
        store.put(new)
        added += 1
    roster_added = 0
    if incoming.roster:
        from . import roster_ui
        roster_added, roster_problems = roster_ui.merge_in(app, json.dumps(
            {"format": 1, "app": "fray", "kind": "roster", "entries": incoming.roster}), name)
        problems += roster_problems
    shown = "; ".join(problems[:5]) + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "")
    report = f"Imported {added} {'entry' if added == 1 else 'entries'}" + \
        (f" and {roster_added} roster entries" if roster_added else "") + " from " + name + \
        (f". Set aside (kept, marked broken): {shown}" if problems else "") + "."
    state.update(progress=None, report=report)
    app.render(field=False)
