"""The setup editor's actions: edit the draft, apply it to the fight, restart, open an example.

The draft is the encounter's JSON document (ui/markup/editor.py draws it and makes
each change on a copy). A valid draft is applied at once (ui/desk/operations.py):
the fight's steps are replayed over it and the new setup enters the
session's history, so undo brings the old one back. When the steps no longer
fit, the draft is kept and a restart with it is offered instead.
"""
from __future__ import annotations

from ... import placement, presets
from ...engine import storage
from ...engine.session import Session
from ...rules import examples as system_examples
from . import roster_ui
from ..markup import editor, table_editor
from .actions import Actions
from ..desk.desk import Desk
from ..desk.page import Dialog
from ..desk.entries import keep_copy
from ..desk.operations import adopt, draft_doc, edit

clicks = Actions("click")
changes = Actions("change")


# --- changing the draft -------------------------------------------------------------------

def edit_field(desk: Desk, path: str, kind: str, raw: str) -> None:
    """One field of the form changed (`path` like "combatants/2/hp"). A value that cannot be applied is
    refused at its field (kept there as typed, with why) and the encounter keeps its own."""
    refused = desk.setup.refused
    try:
        value = editor.convert(kind, raw)
        doc = editor.edited(draft_doc(desk), path, value)
    except editor.EditError as exc:
        refused[path] = (raw, str(exc))
        return
    except (KeyError, IndexError, TypeError):  # a field of a combatant or side removed meanwhile
        refused.pop(path, None)
        return
    refused.pop(path, None)
    if not refused:
        desk.setup.leaving = False
    edit(desk, lambda d: doc)


def load_example(desk: Desk, system: str, name: str) -> None:
    """Open one of a system's examples in place of the encounter (undo returns)."""
    build = system_examples(system).get(name)
    if build is None:
        return
    enc = build(desk.session.encounter.seed or 1)
    # Through the file format, so an example is exactly what a saved file would give.
    loaded = storage.load({"format": storage.FORMAT, "encounter": storage.encounter_to_json(enc), "steps": []})
    kept = keep_copy(desk)
    adopt(desk, loaded.session, f"Opened the example “{name.replace('_', ' ')}” (Undo returns to "
                               "the previous encounter" + (", which is also kept in the Library)." if kept else ")."))
    desk.set(mode="play")


# --- clicks ---------------------------------------------------------------------------

@clicks("mode")
def _mode(desk: Desk, name: str, arg: str, target) -> None:
    if arg == "setup":
        desk.setup.clear()
        desk.set(draft=storage.encounter_to_json(desk.session.encounter), problems=(), restart_offer=None)
    elif desk.page.mode == "setup" and desk.setup.refused:
        desk.setup.leaving = True  # values typed were refused: ask before dropping them
        desk.focus = "[data-testid=setup-keep]"
        return
    if arg == "play" and desk.page.notice[1] != "error":
        desk.set(notice=("", "info"))  # the setup's word ("a new encounter is open in Setup...") stays there (#53)
    desk.set(mode=arg, pending=None)


@clicks("setup-keep")
def _keep(desk: Desk, name: str, arg: str, target) -> None:
    """Stay in setup to fix the refused values (the first one gets the focus)."""
    desk.setup.leaving = False
    first = next(iter(desk.setup.refused), "")
    if first:
        desk.focus = f"#{editor.field_id(first)}"


@clicks("setup-discard")
def _discard(desk: Desk, name: str, arg: str, target) -> None:
    """Drop the refused values and go back to the fight as the encounter is."""
    desk.setup.clear()
    desk.set(mode="play", pending=None, problems=())


@clicks("goto-field")
def _goto(desk: Desk, name: str, arg: str, target) -> None:
    """A link of the summary: the refused field it names, focused (its combatant's section is open)."""
    desk.focus = f"#{editor.field_id(arg)}"


@clicks("restart")
def _restart(desk: Desk, name: str, arg: str, target) -> None:
    """Start the fight again from the draft the steps did not fit."""
    if desk.page.restart_offer is None:
        return
    enc, ruleset = storage.encounter_from_json(desk.page.restart_offer, [])
    if enc is None:
        return
    new = Session(enc, ruleset)
    new.dice_from(desk.session)
    desk.set(restart_offer=None, problems=())
    adopt(desk, new, "The fight restarts with the new setup (Undo brings the old one back).")
    desk.set(mode="setup", draft=storage.encounter_to_json(new.encounter))


@clicks("add")
def _add(desk: Desk, name: str, arg: str, target) -> None:
    # The side chosen beside the presets, as for the roster's creatures; a PC preset ("Sample PC") joins the
    # party's side whatever that select says, so three in a row never land among the foes (roster_ui.side_for).
    pc = bool(presets.PRESETS.get(arg, {}).get("stats", {}).get("pc"))
    edit(desk, lambda d: editor.add_combatant(d, arg, roster_ui.side_for(desk, d, pc)))


@clicks("add-side")
def _add_side(desk: Desk, name: str, arg: str, target) -> None:
    edit(desk, editor.add_side)


@clicks("remove-side", "add-attack", "duplicate", "remove")
def _by_index(desk: Desk, name: str, arg: str, target) -> None:
    change = {"remove-side": editor.remove_side, "add-attack": editor.add_attack,
              "duplicate": editor.duplicate, "remove": editor.remove}[name]
    edit(desk, lambda d: change(d, int(arg)))


@clicks("remove-attack")
def _remove_attack(desk: Desk, name: str, arg: str, target) -> None:
    i, _, j = arg.partition(":")
    edit(desk, lambda d: editor.remove_attack(d, int(i), int(j)))


@clicks("edit-table")
def _edit_table(desk: Desk, name: str, arg: str, target) -> None:
    """A dialog of ordinary editor fields, one a cell (settings/<key>/<row>/<col>)."""
    desk.set(draft=table_editor.with_table(draft_doc(desk), arg), dialog=Dialog("table", key=arg))


# --- changes (drop-downs and checkboxes of the form) --------------------------------------------

@changes("system")
def _system(desk: Desk, arg: str, target) -> None:
    system, _, profile = str(target.value).partition(":")
    edit(desk, lambda d: editor.change_system(d, system, profile))


@changes("start-distance")
def _start_distance(desk: Desk, arg: str, target) -> None:
    """Issue #53: the sides placed that far apart (those the referee dragged stay); one undo takes it back."""
    value = str(target.value)
    if value in placement.CHOICES:
        edit(desk, lambda d: placement.with_distance(d, value))


@changes("example")
def _example(desk: Desk, arg: str, target) -> None:
    system, _, example = str(target.value).partition(":")
    if desk.page.browsing_examples:
        desk.notify("Press Enter to open this example.", "info")
    elif example:
        load_example(desk, system, example)


@changes("ally")
def _ally(desk: Desk, arg: str, target) -> None:
    i, _, other = arg.partition(":")
    side_index, on = int(i), bool(target.checked)

    def change(d):
        allies = [a for a in d["sides"][side_index]["allies"] if a != other]
        if on:
            allies.append(other)
        return editor.set_path(d, f"sides/{side_index}/allies", allies)
    edit(desk, change)
