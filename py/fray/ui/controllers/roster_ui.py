"""The roster in the setup editor: save a combatant, search, filter, add numbered copies, add the party.

The picker lists the referee's roster (ui/dom/store.py keeps it with the
library) and the starter bestiary (fray/bestiary.py). Adding goes through
the editor's draft like any edit (ui/controllers/editing.py), so it is validated, saved
with the encounter and undone by Undo. Roster files import and export as
JSON (docs/ROSTER.md).
"""
from __future__ import annotations

from typing import Any

from pyscript import document

from ... import bestiary, quick_party, roster
from ...engine.limits import MAX_COMBATANTS
from .actions import Actions
from ..desk.desk import Desk
from ..desk.entries import download, now_ms
from ..desk.roster_entries import own
from ..desk.operations import draft_doc, edit

clicks = Actions("click")
changes = Actions("change")


def side_for(desk: Desk, doc: dict[str, Any], pc: bool) -> str:
    """The side chosen beside the presets, else the party's side for a PC and the first other for a monster."""
    sel = document.querySelector("[data-role=add-side-choice]")
    sides = doc["sides"]
    chosen = "" if sel is None else str(getattr(sel, "value", "") or "")
    if chosen and not pc and any(s["id"] == chosen for s in sides):
        return chosen
    for s in sides:
        if bool(s.get("is_player")) == pc:
            return s["id"]
    return chosen or sides[0]["id"]


def _find(desk: Desk, rid: str) -> dict[str, Any] | None:
    return next((e for e in own(desk) + bestiary.entries() if e["id"] == rid), None)


# --- actions -----------------------------------------------------------------------------------------

@clicks("roster-save")
def _save(desk: Desk, name: str, arg: str, target) -> None:
    doc = draft_doc(desk)
    i = int(arg)
    if not 0 <= i < len(doc["combatants"]):
        return
    c = doc["combatants"][i]
    side = next((s for s in doc["sides"] if s["id"] == c.get("side")), {})
    store = desk.store
    now = now_ms()
    entry = roster.from_combatant(c, doc.get("system", ""), f"r{now:x}", now, bool(side.get("is_player")))
    if entry["pc"]:
        entry["system"] = ""  # a PC goes to every system's encounters
    entries, updated = roster.saved(own(desk), entry)
    kept = next(e for e in entries if roster.same(e, entry))
    store.put_roster(kept)
    desk.roster.report = f"{'Updated' if updated else 'Saved'} “{kept['name']}” in the roster" + \
        (" (in the party)." if kept["party"] else ".")


@clicks("roster-add")
def _add(desk: Desk, name: str, arg: str, target) -> None:
    entry = _find(desk, arg)
    if entry is None:
        return
    n = 1 if entry["pc"] else desk.roster.count

    def change(d):
        return roster.add_copies(d, entry, n, side_for(desk, d, entry["pc"]))

    desk.roster.report = f"Added {n} × {entry['name']}." if n > 1 else f"Added {entry['name']}."
    edit(desk, change)


@clicks("roster-party")
def _party(desk: Desk, name: str, arg: str, target) -> None:
    doc = draft_doc(desk)
    members = roster.party(own(desk), doc.get("system", ""))
    new, added = roster.add_party(doc, members, side_for(desk, doc, True))
    desk.roster.report = f"Added the party: {', '.join(added)}." if added else \
        "The whole party is already here." if members else \
        "No party saved yet: add the PCs below (“+ Sample PC”, the roster), open each and tap “Save to " \
        "roster” (a PC on the players' side joins the party); it is then one tap away in every encounter."
    if added:
        edit(desk, lambda d: new)


@changes("quick-party-text")
def _party_text(desk: Desk, arg: str, target) -> None:
    desk.roster.party_text = str(target.value)[:2000]


@clicks("quick-party")
def _quick_party(desk: Desk, name: str, arg: str, target) -> None:
    """The quick party's names read: every wrong line said at the field and nothing added, else the PCs added
    on the players' side in one edit (one undo) and saved to the roster as the party."""
    box = document.querySelector("[data-testid=quick-party-text]")
    state = desk.roster
    state.party_text = str(getattr(box, "value", state.party_text) or "")[:2000] if box is not None \
        else state.party_text
    doc = draft_doc(desk)
    system = doc.get("system", "")
    members, problems = quick_party.read(state.party_text, system, MAX_COMBATANTS - len(doc["combatants"]))
    state.party_problems, state.party_report = tuple(str(p) for p in problems), ""
    if problems:
        return
    now = now_ms()
    taken = {e["id"] for e in own(desk)}
    ids = [f"r{now + i:x}" for i in range(len(members) + len(taken)) if f"r{now + i:x}" not in taken]
    new, entries = quick_party.add(doc, members, side_for(desk, doc, True), system, ids.__getitem__, now)
    edit(desk, lambda d: new)
    if draft_doc(desk) is not new:  # refused by the loader: its problem is shown, nothing is saved
        return
    for e in entries:
        desk.store.put_roster(e)
    state.party_text = ""
    state.party_report = f"Added the party and saved it in the roster: {', '.join(m.name for m in members)}."


@clicks("roster-remove")
def _remove(desk: Desk, name: str, arg: str, target) -> None:
    store = desk.store
    entry = store.roster.get(arg)
    if entry is None:
        return
    store.delete("roster", arg)
    desk.roster.report = f"Removed “{entry.get('name', arg)}” from the roster (encounters keep their copies)."


@clicks("roster-export")
def _export(desk: Desk, name: str, arg: str, target) -> None:
    download(roster.dump(own(desk)), "fray-roster.json", "application/json")


@clicks("roster-import")
def _import(desk: Desk, name: str, arg: str, target) -> None:
    document.getElementById("roster-input").click()


@changes("roster-search")
def _search(desk: Desk, arg: str, target) -> None:
    desk.roster.query = str(target.value)[:80]


@changes("roster-system")
def _system(desk: Desk, arg: str, target) -> None:
    desk.roster.system = str(target.value)


@changes("roster-count")
def _count(desk: Desk, arg: str, target) -> None:
    n, desk.roster.count_why = copies_typed(str(target.value))
    desk.roster.count = n


def copies_typed(raw: str) -> tuple[int, str]:
    """The copies to add from what was typed, and why it is not what was typed ("" when it is): never
    changed silently."""
    top = roster.MAX_COPIES
    try:
        n = int(raw.strip())
    except ValueError:
        return 1, f"“{raw.strip()[:20]}” is not a number of copies: 1 copy will be added."
    if n > top:
        return top, (f"{n:,} is more than {top}, the most added at once (each copy is a token and a row of the "
                     f"order; an encounter holds at most {MAX_COMBATANTS}): {top} will be added, tap again for more.")
    if n < 1:
        return 1, "At least 1 copy: 1 will be added."
    return n, ""


# --- importing ------------------------------------------------------------------------------------

def merge_in(desk: Desk, text: str | bytes, name: str) -> tuple[int, list[str]]:
    """Add a roster file's good entries (never overwriting); returns (added, problems named)."""
    try:
        good, problems = roster.load(text, name)
    except roster.RosterError as exc:
        return 0, [str(exc)]
    store = desk.store
    counter = [now_ms()]

    def new_id(taken: set[str]) -> str:
        while f"r{counter[0]:x}" in taken:
            counter[0] += 1
        return f"r{counter[0]:x}"

    before = own(desk)
    entries, added = roster.merged(before, good, new_id)
    old = {e["id"] for e in before}
    for e in entries:
        if e["id"] not in old:
            store.put_roster(e)
    return added, [f"roster {p}" for p in problems]


def on_import_file(desk: Desk, event):
    """The roster file chosen: read it after the handler returns (the dispatcher awaits what it gives)."""
    chosen = event.target.files
    file = chosen.item(0) if chosen.length else None
    event.target.value = ""
    return None if file is None else _read(desk, file)


async def _read(desk: Desk, file) -> None:
    buf = await file.arrayBuffer()
    added, problems = merge_in(desk, buf.to_bytes(), str(file.name))
    shown = "; ".join(problems[:4]) + (f" (and {len(problems) - 4} more)" if len(problems) > 4 else "")
    desk.roster.report = f"Imported {added} roster entries from {file.name}." + \
        (f" Not imported: {shown}." if problems else "")
