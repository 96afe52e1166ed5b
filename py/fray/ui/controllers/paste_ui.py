"""The paste dialog's actions: read pasted stat blocks, fix a part, add the creatures to the encounter or the roster.

Reading goes through fray/stat_blocks.py (the draft's system's reader);
nothing is added until the referee taps Add, and a block with a refused field
cannot be added. Adding is an edit of the draft like any other (ui/operations.py),
so it is validated, saved and undone by Undo; a draft that would break a limit
is refused whole and the encounter keeps what it had.
"""
from __future__ import annotations

from typing import Any

from pyscript import document

from ... import roster, stat_blocks
from ...rules import info
from ...views.paste import ready
from ..desk.desk import Desk
from ..desk.entries import now_ms
from ..desk.operations import draft_doc, edit
from ..desk.roster_entries import own
from ..markup.html import Markup
from ..markup.paste_markup import panel
from .actions import Actions
from .roster_ui import side_for

clicks = Actions("click")
changes = Actions("change")


def draw(desk: Desk, doc: dict[str, Any]) -> Markup:
    """The dialog's markup for the draft's system (ui/editing.py shows it under the roster picker)."""
    system = doc.get("system", "")
    return panel(desk.paste, info(system).title if system else "")


def read(desk: Desk, text: str) -> None:
    """Read `text` with the draft's system's reader into the dialog (a paste that is not stat blocks: why)."""
    state = desk.paste
    state.clear()
    state.text = text[:stat_blocks.MAX_TEXT] if isinstance(text, str) else ""
    try:
        state.blocks = stat_blocks.read(draft_doc(desk)["system"], text)
    except stat_blocks.PasteError as exc:
        state.error = str(exc)
        return
    good = sum(b.ok for b in state.blocks)
    state.report = f"Read {len(state.blocks)} creature{'s' * (len(state.blocks) != 1)}: {good} ready to add" + \
        (f", {len(state.blocks) - good} with a part to fix." if good < len(state.blocks) else ".")


def add(desk: Desk, indices: list[int]) -> None:
    """Add each block's copies to the draft on the chosen side, in one edit (one undo)."""
    state = desk.paste
    blocks = [(i, state.blocks[i]) for i in indices if 0 <= i < len(state.blocks) and state.blocks[i].ok]
    if not blocks:
        return
    system = draft_doc(desk)["system"]

    def change(doc: dict[str, Any]) -> dict[str, Any]:
        for i, b in blocks:
            count = state.count(i)
            doc = roster.add_copies(doc, stat_blocks.entry(b, system, f"paste{i}", 0), count,
                                    side_for(desk, doc, False))
            seed = int(doc.get("seed", 1)) * 1000 + len(doc["combatants"])
            rolled = stat_blocks.copies(b, count, state.roll, seed=seed)
            for c, made in zip(doc["combatants"][-count:], rolled):
                c["hp"], c["max_hp"] = made["hp"], made["max_hp"]
        return doc

    try:
        edit(desk, change)
    except ValueError as exc:  # roster.add_copies: copies out of range
        state.report = f"Not added: {exc}."
        return
    if desk.page.problems:
        state.report = "Not added: " + "; ".join(desk.page.problems or ("the encounter refused it",))
        return
    state.added |= {i for i, _ in blocks}
    state.report = "Added " + ", ".join(f"{state.count(i)} × {b.name}" for i, b in blocks) + "."


# --- actions -----------------------------------------------------------------------------------------

@clicks("paste-open")
def _open(desk: Desk, name: str, arg: str, target) -> None:
    desk.paste.open = not desk.paste.open


@clicks("paste-read")
def _read(desk: Desk, name: str, arg: str, target) -> None:
    box = document.querySelector("[data-action=paste-text]")
    read(desk, str(getattr(box, "value", "") or "") if box is not None else desk.paste.text)


@clicks("paste-add")
def _add(desk: Desk, name: str, arg: str, target) -> None:
    add(desk, [int(arg)] if arg.isdigit() else [])


@clicks("paste-add-all")
def _add_all(desk: Desk, name: str, arg: str, target) -> None:
    add(desk, ready(desk.paste))


@clicks("paste-roster")
def _roster(desk: Desk, name: str, arg: str, target) -> None:
    state = desk.paste
    if not arg.isdigit() or not int(arg) < len(state.blocks) or not state.blocks[int(arg)].ok:
        return
    b = state.blocks[int(arg)]
    now = now_ms()
    entry = stat_blocks.entry(b, draft_doc(desk)["system"], f"r{now:x}", now)
    entries, updated = roster.saved(own(desk), entry)
    kept = next(e for e in entries if roster.same(e, entry))
    desk.store.put_roster(kept)
    state.report = f"{'Updated' if updated else 'Saved'} “{kept['name']}” in the roster."


@changes("paste-text")
def _text(desk: Desk, arg: str, target) -> None:
    desk.paste.text = str(target.value)[:stat_blocks.MAX_TEXT]


@changes("paste-roll")
def _roll(desk: Desk, arg: str, target) -> None:
    desk.paste.roll = bool(target.checked)


@changes("paste-count")
def _count(desk: Desk, arg: str, target) -> None:
    state = desk.paste
    raw = str(target.value).strip()
    if arg.isdigit() and int(arg) < len(state.blocks):
        if raw.isdigit() and 1 <= int(raw) <= roster.MAX_COPIES:
            state.counts[int(arg)] = int(raw)
            state.report = ""
        else:
            state.report = f"Copies: “{raw[:20]}” is not a number from 1 to {roster.MAX_COPIES}; kept " \
                           f"{state.count(int(arg))}."


@changes("paste-name")
def _name(desk: Desk, arg: str, target) -> None:
    state = desk.paste
    if arg.isdigit() and int(arg) < len(state.blocks):
        i = int(arg)
        try:
            state.blocks[i] = stat_blocks.renamed(draft_doc(desk)["system"], state.blocks[i], str(target.value))
        except stat_blocks.PasteError as exc:
            state.report = f"Not read: {exc}."


@changes("paste-fix")
def _fix(desk: Desk, arg: str, target) -> None:
    """A part of a block retyped: the block is read again with it (a missing part goes on a line of its own)."""
    state = desk.paste
    try:
        i, start, end = (int(x) for x in arg.split(":"))
    except ValueError:
        return
    if not 0 <= i < len(state.blocks):
        return
    b = state.blocks[i]
    typed = str(target.value)
    if start == end == len(b.text):
        typed = "\n" + typed
    try:
        state.blocks[i] = stat_blocks.reread(draft_doc(desk)["system"], b, start, end, typed)
    except stat_blocks.PasteError as exc:
        state.report = f"Not read: {exc}."
