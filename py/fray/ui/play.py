"""Playing the fight: clicks and forms that act, ask, select, undo and redo.

Every change to the fight goes through `act` (check, resolve, autosave,
redraw) or the session's one history (`undo`, `redo`, `adopt`). No rule is
decided here: the options, their questions and the reasons come from the
engine; this module only turns the referee's answers into commands.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..engine.commands import IllegalCommand
from ..engine.dice import BadFace, DiceError, NeedDice, ScriptedDice
from ..engine.ruleset import Allow, Damage, FreeRoll, SetCondition, SetHp
from ..engine.session import Session, SetupChange
from ..views.panels import system_view
from .actions import Actions
from .field_views import FieldAction
from .patch import attr

if TYPE_CHECKING:
    from .app import App

SPATIAL_NEEDS = ("path", "square", "band", "target")  # filled by the field; others are typed

clicks = Actions("click")
forms = Actions("form")
changes = Actions("change")


def parse_int(raw: str) -> int | None:
    try:
        return int(raw.strip())
    except (ValueError, AttributeError):
        return None


# --- acting ----------------------------------------------------------------------

def act(app: App, cmd, faces: list[int] | None = None) -> bool:
    """Apply a command; on a refusal say why, on physical dice ask for the faces."""
    s = app.session
    dice = ScriptedDice(faces or []) if s.physical_dice else None
    try:
        step = s.act(cmd, dice)
    except IllegalCommand as exc:
        app.notify(exc.illegal.detail, "error")
        app.render()
        return False
    except NeedDice as need:
        app.set(dialog=("dice", need, cmd, list(faces or [])))
        app.render()
        return False
    except (BadFace, DiceError) as exc:
        app.notify(str(exc), "error")
        app.render()
        return False
    app.page.field_ui.pop("path", None)
    if isinstance(cmd, FreeRoll):
        app.set(pending=None, last_roll=step.events[0].text if step.events else "")
    else:
        app.set(pending=None, notice=("", "info"))
    app.autosave()
    follow(app)
    app.render()
    return True


def choose(app: App, index: int) -> None:
    """Pick the selected actor's option `index`: act now, or ask its question first."""
    if index >= len(app.options):
        return
    o = app.options[index]
    if not o.allowed:
        app.notify(o.why or "Not allowed now.", "error")
        app.render()
        return
    if o.choices or o.needs:
        app.set(pending=(index, o))
        if app.is_phone():
            # On a phone the question must be on screen: the field for a place, else the actions.
            spatial = bool(o.needs) and o.needs[0] in SPATIAL_NEEDS and not o.choices
            app.set(tab="field" if spatial else "act")
        app.render()
        return
    act(app, o.command)


def answer(app: App, choice_index: int) -> None:
    """Answer the pending question with one of its choices."""
    if app.page.pending is None:
        return
    index, o = app.page.pending
    choice = o.choices[choice_index]
    cmd = replace(o.command, **choice.values)
    if o.needs:
        app.set(pending=(index, replace(o, command=cmd, choices=())))
        if app.is_phone() and o.needs[0] in SPATIAL_NEEDS:
            app.set(tab="field")
        app.render()
        return
    act(app, cmd)


def fill_pending(app: App, values: dict[str, Any]) -> None:
    """Fill some of the pending option's needs; act once none is left."""
    if app.page.pending is None:
        return
    index, o = app.page.pending
    cmd = replace(o.command, **values)
    remaining = tuple(n for n in o.needs if n.split(":")[-1] not in values)
    if remaining:
        app.set(pending=(index, replace(o, command=cmd, needs=remaining)))
        app.render()
        return
    act(app, cmd)


def apply_field(app: App, result: FieldAction) -> None:
    """Do what a field view asked for after a click, a key or a pointer gesture."""
    if result.message:
        app.notify(result.message, "info")
    if result.select is not None:
        select(app, result.select)
    elif result.fill is not None:
        fill_pending(app, result.fill)
    elif result.choose is not None:
        choose(app, result.choose)
    elif result.command is not None:
        act(app, result.command)
    else:
        app.render()


def cancel(app: App) -> None:
    """Esc: close the dialog, else drop the question and the path previewed."""
    if app.page.dialog is not None:
        app.set(dialog=None)
        app.render(field=False)  # a dialog closes: the field is as it was
        return
    app.set(pending=None)
    # A path previewed by tapping (nothing pending) is cancelled too.
    app.page.field_ui.pop("path", None)
    app.page.field_ui.pop("info", None)
    app.render()


def select(app: App, cid: str) -> None:
    if not app.session.state.has(cid):
        return
    app.set(selected=cid, follow_turn=cid in current(app), pending=None)
    app.render()


def current(app: App) -> tuple[str, ...]:
    """Who acts now, worked out once per state (a tap reads it twice: here and in the drawing)."""
    s = app.session
    return app.memo("current", (s.state,), s.current)


def follow(app: App) -> None:
    """Keep the current actor selected while the referee follows the turn."""
    page = app.page
    selected = page.selected
    now = current(app)
    if now and (page.follow_turn or selected is None or selected not in now):
        if page.follow_turn or selected is None:
            selected = now[0]
    if selected is not None and not app.session.state.has(selected):
        selected = now[0] if now else None
    if selected != page.selected:
        app.set(selected=selected)


def reorder(app: App, moved: str, before: str) -> None:
    """Move a combatant before another in the order, if the system has an order to change."""
    make = getattr(system_view(app.session.encounter.system), "reorder", None)
    if make is None:
        return
    cmd = make(app.session.state, moved, before)
    if cmd is not None:
        act(app, cmd)


# --- the one history ------------------------------------------------------------------

def undo(app: App) -> None:
    if not app.session.can_undo:
        return
    if isinstance(app.session.undo(), SetupChange):
        app.set(draft=None)
    app.set(pending=None)
    app.autosave()
    follow(app)
    app.render()


def redo(app: App) -> None:
    if not app.session.can_redo:
        return
    if isinstance(app.session.redo(), SetupChange):
        app.set(draft=None)
    app.autosave()
    follow(app)
    app.render()


def adopt(app: App, new: Session, message: str = "") -> None:
    """Adopt another encounter; undo brings the previous one back."""
    app.session.adopt(new)
    app.set(selected=None, follow_turn=True, pending=None, draft=None)
    app.autosave()
    follow(app)
    if message:
        app.notify(message, "ok")
    app.render()


# --- clicks ---------------------------------------------------------------------------

@clicks("undo")
def _undo(app: App, name: str, arg: str, target) -> None:
    undo(app)


@clicks("redo")
def _redo(app: App, name: str, arg: str, target) -> None:
    redo(app)


@clicks("help", "rule")
def _open_help(app: App, name: str, arg: str, target) -> None:
    app.set(dialog=("help",) if name == "help" else ("rule", arg))
    app.render(field=False)


@clicks("cancel")
def _cancel(app: App, name: str, arg: str, target) -> None:
    cancel(app)


@clicks("dismiss")
def _dismiss(app: App, name: str, arg: str, target) -> None:
    app.set(notice=("", "info"))
    app.render(field=False)


@clicks("select", "token")
def _select(app: App, name: str, arg: str, target) -> None:
    select(app, arg)


@clicks("opt")
def _opt(app: App, name: str, arg: str, target) -> None:
    choose(app, int(arg))


@clicks("allow")
def _allow(app: App, name: str, arg: str, target) -> None:
    act(app, Allow(app.options[int(arg)].command))


@clicks("fold")
def _fold(app: App, name: str, arg: str, target) -> None:
    """Show or hide a group's refused options (ui/panels.py `fold`); the field is as it was."""
    shown = app.page.unfolded
    app.set(unfolded=shown - {arg} if arg in shown else shown | {arg})
    app.render(field=False)


@clicks("choose")
def _choose(app: App, name: str, arg: str, target) -> None:
    answer(app, int(arg))


@clicks("reorder-up", "reorder-down")
def _reorder_step(app: App, name: str, arg: str, target) -> None:
    """The order list's arrow buttons: one place up or down."""
    rows = [r.id for r in app.panel().order if r.kind == "combatant"]
    if arg not in rows:
        return
    j = rows.index(arg) + (-1 if name == "reorder-up" else 1)
    if not 0 <= j < len(rows):
        return
    reorder(app, arg, rows[j] if name == "reorder-up" else (rows[j + 1] if j + 1 < len(rows) else ""))


@clicks("uncond")
def _uncondition(app: App, name: str, arg: str, target) -> None:
    cid, _, i = arg.partition(":")
    act(app, SetCondition(cid, app.session.state.get(cid).conditions[int(i)], False))


@clicks("tab")
def _tab(app: App, name: str, arg: str, target) -> None:
    app.set(tab=arg)
    app.render()


# --- forms ----------------------------------------------------------------------------

@forms("roll")
def _roll(app: App, arg: str, values: dict[str, str], op: str, form) -> None:
    act(app, FreeRoll(values.get("expr", "").strip()))


@forms("hp-form")
def _hp(app: App, arg: str, values: dict[str, str], op: str, form) -> None:
    cid = attr(form, "data-id")
    if op == "sethp":
        hp = parse_int(values.get("hp", ""))
        if hp is not None:
            act(app, SetHp(cid, hp))
        return
    amount = parse_int(values.get("damage", ""))
    if amount is None:
        return
    if amount < 0:
        app.notify("Damage must be zero or more.", "error")
        app.render()
    else:
        act(app, Damage(cid, amount))


@forms("cond-form")
def _condition(app: App, arg: str, values: dict[str, str], op: str, form) -> None:
    cond = values.get("condition", "").strip()
    if cond:
        act(app, SetCondition(attr(form, "data-id"), cond[:40], True))


@forms("need-submit")
def _need(app: App, arg: str, values: dict[str, str], op: str, form) -> None:
    """The pending option's typed need (a number or a text)."""
    if not app.page.pending:
        return
    option = app.page.pending[1]
    need = next((n for n in option.needs if n not in SPATIAL_NEEDS), "")
    kind, _, fname = need.partition(":") if ":" in need else ("text", "", need)
    raw = values.get("value", "").strip()
    val: Any = raw
    if kind == "number":
        val = parse_int(raw)
        if val is None:
            app.render()
            return
    fill_pending(app, {fname: val})


@forms("faces")
def _faces(app: App, arg: str, values: dict[str, str], op: str, form) -> None:
    """The faces of the referee's own dice, typed into the dice dialog."""
    dialog = app.page.dialog
    if not dialog or dialog[0] != "dice":
        return
    _, need, cmd, faces = dialog
    typed = []
    for i in range(need.count):
        v = parse_int(values.get(f"f{i}", ""))
        if v is None or not 1 <= v <= need.sides:
            app.notify(f"Each face must be a number from 1 to {need.sides}.", "error")
            app.render()
            return
        typed.append(v)
    app.set(dialog=None)
    act(app, cmd, faces=list(faces) + typed)


@changes("dice-mode")
def _dice_mode(app: App, arg: str, target) -> None:
    app.session.physical_dice = arg == "physical"
    app.autosave()
    app.notify("Type the faces of your own dice when asked." if arg == "physical"
               else "The app rolls the dice.", "info")
    app.render()
