"""The setup editor's actions: edit the draft, apply it to the fight, restart.

The draft is the encounter's JSON document (ui/editor.py draws it and makes
each change on a copy). A valid draft is applied at once: the fight's steps
are replayed over it and the new setup enters the session's history, so undo
brings the old one back. When the steps no longer fit, the draft is kept and
a restart with it is offered instead.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from pyscript import document
from pyscript.ffi import is_none

from ..engine import storage
from ..engine.session import Session
from ..rules import SYSTEMS
from ..rules import examples as system_examples
from ..rules import get as get_ruleset
from . import editor, files, table_editor
from .actions import Actions
from .html import Markup, h
from .play import adopt, follow

if TYPE_CHECKING:
    from .app import App

clicks = Actions("click")
changes = Actions("change")


def draft_doc(app: App) -> dict[str, Any]:
    """The setup being edited: the draft, else the encounter's own document."""
    draft = app.page.draft
    return draft if draft is not None else storage.encounter_to_json(app.session.encounter)


def draw(app: App) -> None:
    """The setup form in its slot while the page is in setup mode."""
    if app.page.mode != "setup":
        app.slots.clear("editor-slot")
        return
    s = app.session
    doc = draft_doc(app)
    ruleset = get_ruleset(doc["system"]) if doc.get("system") in SYSTEMS else s.ruleset
    restart = ""
    if app.page.restart_offer is not None:
        restart = h("button", {"type": "button", "data-action": "restart", "data-testid": "restart"},
                    "Restart the fight with this setup")
    from . import roster_ui
    app.slots.form("editor-slot", Markup(editor.render(doc, ruleset, list(app.page.problems), len(s.steps),
                                                       roster_ui.picker(app, doc)) + restart))


# --- changing the draft -------------------------------------------------------------------

def edit(app: App, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Apply `change` to the draft, then the draft to the fight."""
    try:
        doc = change(draft_doc(app))
    except editor.EditError as exc:
        app.set(problems=(str(exc),))
        app.render()
        return
    apply_setup(app, doc)


def edit_field(app: App, path: str, kind: str, raw: str) -> None:
    """One field of the form changed (`path` like "combatants/2/hp")."""
    try:
        value = editor.convert(kind, raw)
    except editor.EditError as exc:
        app.set(problems=(f"{path.replace('/', '.')}: {exc}",))
        app.render()
        return
    edit(app, lambda d: editor.set_path(d, path, value))


def apply_setup(app: App, doc: dict[str, Any]) -> None:
    """Replay the fight's steps over the edited setup and adopt it (undo
    brings the old setup back); if the steps no longer fit, offer a restart."""
    problems: list[str] = []
    enc, ruleset = storage.encounter_from_json(doc, problems)
    app.set(draft=doc, restart_offer=None)
    if problems or enc is None:
        app.set(problems=tuple(problems) or ("encounter: not valid",))
        app.render()
        return
    s = app.session
    recorded = [(st.command, st.dice) for st in s.steps]
    redo = [(st.command, st.dice) for st in reversed(s.redo_stack)]
    try:
        new = Session.replay(enc, recorded, redo, ruleset=ruleset)
    except Exception as exc:  # a ReplayError, or a rule that no longer holds for the new setup
        app.set(problems=(f"The fight's {len(recorded)} steps do not fit this setup ({exc}).",), restart_offer=doc)
        app.render()
        return
    new.physical_dice = s.physical_dice
    app.set(problems=())
    s.adopt(new)
    app.autosave()
    follow(app)
    app.render()


def load_example(app: App, system: str, name: str) -> None:
    """Open one of a system's examples in place of the encounter (undo returns)."""
    build = system_examples(system).get(name)
    if build is None:
        return
    enc = build(app.session.encounter.seed or 1)
    # Through the file format, so an example is exactly what a saved file would give.
    loaded = storage.load({"format": storage.FORMAT, "encounter": storage.encounter_to_json(enc), "steps": []})
    kept = files.keep_copy(app)
    adopt(app, loaded.session, f"Opened the example “{name.replace('_', ' ')}” (Undo returns to "
                               "the previous encounter" + (", which is also kept in the Library)." if kept else ")."))
    app.set(mode="play")
    app.render()


# --- clicks ---------------------------------------------------------------------------

@clicks("mode")
def _mode(app: App, name: str, arg: str, target) -> None:
    if arg == "setup":
        app.set(draft=storage.encounter_to_json(app.session.encounter), problems=(), restart_offer=None)
    app.set(mode=arg, pending=None)
    app.render()


@clicks("restart")
def _restart(app: App, name: str, arg: str, target) -> None:
    """Start the fight again from the draft the steps did not fit."""
    if app.page.restart_offer is None:
        return
    enc, ruleset = storage.encounter_from_json(app.page.restart_offer, [])
    if enc is None:
        return
    new = Session(enc, ruleset)
    new.physical_dice = app.session.physical_dice
    app.set(restart_offer=None, problems=())
    adopt(app, new, "The fight restarts with the new setup (Undo brings the old one back).")
    app.set(mode="setup", draft=storage.encounter_to_json(new.encounter))
    app.render()


@clicks("add")
def _add(app: App, name: str, arg: str, target) -> None:
    sel = document.querySelector("[data-role=add-side-choice]")
    side = str(sel.value) if not is_none(sel) else app.session.encounter.sides[0].id
    edit(app, lambda d: editor.add_combatant(d, arg, side))


@clicks("add-side")
def _add_side(app: App, name: str, arg: str, target) -> None:
    edit(app, editor.add_side)


@clicks("remove-side", "add-attack", "duplicate", "remove")
def _by_index(app: App, name: str, arg: str, target) -> None:
    change = {"remove-side": editor.remove_side, "add-attack": editor.add_attack,
              "duplicate": editor.duplicate, "remove": editor.remove}[name]
    edit(app, lambda d: change(d, int(arg)))


@clicks("remove-attack")
def _remove_attack(app: App, name: str, arg: str, target) -> None:
    i, _, j = arg.partition(":")
    edit(app, lambda d: editor.remove_attack(d, int(i), int(j)))


@clicks("edit-table")
def _edit_table(app: App, name: str, arg: str, target) -> None:
    """A dialog of ordinary editor fields, one a cell (settings/<key>/<row>/<col>)."""
    app.set(draft=table_editor.with_table(draft_doc(app), arg), dialog=("table", arg))
    app.render()


# --- changes (drop-downs and checkboxes of the form) --------------------------------------------

@changes("system")
def _system(app: App, arg: str, target) -> None:
    system, _, profile = str(target.value).partition(":")
    edit(app, lambda d: editor.change_system(d, system, profile))


@changes("example")
def _example(app: App, arg: str, target) -> None:
    system, _, example = str(target.value).partition(":")
    if app.page.browsing_examples:
        app.notify("Press Enter to open this example.", "info")
        app.render()
    elif example:
        load_example(app, system, example)


@changes("ally")
def _ally(app: App, arg: str, target) -> None:
    i, _, other = arg.partition(":")
    side_index, on = int(i), bool(target.checked)

    def change(d):
        allies = [a for a in d["sides"][side_index]["allies"] if a != other]
        if on:
            allies.append(other)
        return editor.set_path(d, f"sides/{side_index}/allies", allies)
    edit(app, change)
