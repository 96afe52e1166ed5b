"""Playing the fight: clicks and forms that act, ask, select, undo and redo.

Every change to the fight goes through `act` (check, resolve) or the
session's one history (`undo`, `redo`); the dispatcher autosaves and redraws
after the handler. No rule is decided here: the options, their questions and
the reasons come from the engine (read from the per-state offers, ui/desk/offers.py,
exactly as drawn); this module only turns the referee's answers into commands.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...engine.commands import IllegalCommand
from ...engine.dice import BadFace, DiceError, NeedDice
from ...engine.referee import Allow, Damage, FreeRoll, SetCondition, SetHp
from ...engine.session import SetupChange
from ...views.hp_change import read_change
from ...views.move_toward import TOWARD_KEY, nearest_foe
from ...views.quick_condition import condition_command, in_words
from ...views.panels import on_target, system_view
from .actions import Actions
from ..desk.desk import Desk
from ..desk.page import Dialog, showing
from ..field.field_views import SPATIAL_NEEDS, FieldAction
from ..desk.offers import current, follow, options, panel, selection
from ..dom.patch import attr
from ..dom.screen import is_phone

clicks = Actions("click")
forms = Actions("form")
changes = Actions("change")


def parse_int(raw: str) -> int | None:
    try:
        return int(raw.strip())
    except (ValueError, AttributeError):
        return None


# --- acting ----------------------------------------------------------------------

FOLLOW_UPS = 4  # steps the rules may take by themselves after one tap (a bound, not a count expected)

def act(desk: Desk, cmd, faces: list[int] | None = None, chained: int = 0, answer: str = "") -> bool:
    """Apply a command; on a refusal say why, on physical dice ask for the faces (the question the tap answered
    is then closed, its answer said in the dice dialog: OLOG-PRES-2, the question comes before any die). Then the
    step the rules take by themselves after it, if any (Ruleset.follow_up: the Ogre count going on), chained to it."""
    s = desk.session
    dice = s.dice_for(faces or [])
    try:
        step = s.act(cmd, dice)
    except IllegalCommand as exc:
        desk.notify(exc.illegal.detail, "error")
        return False
    except NeedDice as need:
        desk.set(dialog=Dialog("dice", need=need, command=cmd, faces=tuple(faces or ()),
                               answer=answer or answered(desk, cmd)), pending=None)
        return False
    except (BadFace, DiceError) as exc:
        desk.notify(str(exc), "error")
        return False
    desk.page.field_ui.path = None
    actor, aimed = getattr(cmd, "actor", ""), getattr(cmd, "target", "")
    if actor and isinstance(aimed, str) and aimed and aimed != actor:
        desk.aimed.pop(actor, None)  # newest last: `aim` reads the side's latest target from the end
        desk.aimed[actor] = aimed
    if isinstance(cmd, FreeRoll):
        desk.set(pending=None, last_roll=step.events[0].text if step.events else "")
    else:
        desk.set(pending=None, notice=("", "info"))
    follow(desk)
    nxt = s.ruleset.follow_up(s.state) if chained < FOLLOW_UPS else None
    if nxt is not None and s.check(nxt) is None:
        act(desk, nxt, chained=chained + 1)
    return True


def answered(desk: Desk, cmd) -> str:
    """The pending question and the answer `cmd` carries (the choice whose fields it holds), or ""."""
    if desk.page.pending is None:
        return ""
    o = desk.page.pending[1]
    for c in o.choices:
        if c.values and all(getattr(cmd, k, None) == v for k, v in c.values.items()):
            return f"{o.question} {c.label}"
    return ""


def default_choice(desk: Desk, o) -> int:
    """The answer a tap gives an option's question without asking: the combatant's last answer to it, else
    the option's default; -1 when the question must be asked."""
    if o.default < 0 or not o.choices:
        return -1
    kept = desk.remembered.get((getattr(o.command, "actor", ""), o.question), o.default)
    return kept if 0 <= kept < len(o.choices) else o.default


def choose(desk: Desk, index: int, ask: bool = False, other: bool = False) -> None:
    """Pick the selected actor's option `index`: act now, or ask its question first (a question with a
    default is answered with it, unless `ask`: the option's own "other answers" button; with `other`, a
    question of two answers is answered with the one that is not the default: its own button)."""
    if index >= len(options(desk)):
        return
    o = options(desk)[index]
    if not o.allowed:
        desk.notify(o.why or "Not allowed now.", "error")
        return
    picked = -1 if ask else default_choice(desk, o)
    if picked < 0 and not ask and len(o.choices) == 1:
        picked = 0  # one possible answer ("on whom?" with one foe): no question (#53, stop 11)
    if other and picked >= 0 and len(o.choices) == 2:
        picked = 1 - picked
    if picked >= 0:
        desk.set(pending=(index, o))
        answer(desk, picked)
        return
    if not o.choices and o.needs and o.needs[0].split(":")[0] == "target" and desk.page.target:
        desk.set(pending=(index, o))
        fill_pending(desk, {o.needs[0].split(":")[-1]: desk.page.target})
        return
    if o.key == TOWARD_KEY:  # the foe walked toward is the one the actor goes on with (issue 53): aimed
        actor = getattr(o.command, "actor", "")
        foe = nearest_foe(desk.session.state, actor, desk.page.target) if actor else None
        if foe is not None:
            desk.aimed.pop(actor, None)
            desk.aimed[actor] = foe
    if o.choices or o.needs:
        desk.set(pending=(index, o))
        if is_phone():
            # On a phone the question must be on screen: the field for a place, else the actions.
            spatial = bool(o.needs) and o.needs[0] in SPATIAL_NEEDS and not o.choices
            desk.set(tab="field" if spatial else "act")
        return
    act(desk, o.command)


def answer(desk: Desk, choice_index: int) -> None:
    """Answer the pending question with one of its choices."""
    if desk.page.pending is None:
        return
    index, o = desk.page.pending
    choice = o.choices[choice_index]
    if o.default >= 0 and o.remember:  # the next tap answers the same, without asking
        desk.remembered[(getattr(o.command, "actor", ""), o.question)] = choice_index
    cmd = replace(o.command, **choice.values)
    if o.needs:
        desk.set(pending=(index, replace(o, command=cmd, choices=())))
        if o.needs[0].split(":")[0] == "target" and desk.page.target:
            fill_pending(desk, {o.needs[0].split(":")[-1]: desk.page.target})
            return
        if is_phone() and o.needs[0] in SPATIAL_NEEDS:
            desk.set(tab="field")
        return
    act(desk, cmd)


def fill_pending(desk: Desk, values: dict[str, Any]) -> None:
    """Fill some of the pending option's needs; act once none is left."""
    if desk.page.pending is None:
        return
    index, o = desk.page.pending
    cmd = replace(o.command, **values)
    remaining = tuple(n for n in o.needs if n.split(":")[-1] not in values)
    if remaining:
        desk.set(pending=(index, replace(o, command=cmd, needs=remaining)))
        return
    act(desk, cmd)


def apply_field(desk: Desk, result: FieldAction) -> None:
    """Do what a field view asked for after a click, a key or a pointer gesture. The view changed its own
    state (`Page.field_ui`, in place): the dispatcher redraws the field."""
    desk.field_acted = True
    if result.message:
        desk.notify(result.message, "info")
    if result.select is not None:
        select(desk, result.select)
    elif result.fill is not None:
        fill_pending(desk, result.fill)
    elif result.choose is not None:
        offered, steps = options(desk), len(desk.session.steps)
        choose(desk, result.choose)
        if is_phone() and result.choose < len(offered) and offered[result.choose].key == "next" \
                and len(desk.session.steps) > steps and desk.page.pending is None:
            # The field's own Roll initiative (OSE's declarations, Ogre's before the fight) on a phone: the first
            # actor's actions come next, and the field tab holds none (issue 53: no tab tap before every fight).
            desk.set(tab="act")
    elif result.command is not None:
        act(desk, result.command)


def cancel(desk: Desk) -> None:
    """Esc: close the dialog, else drop the question and the path previewed."""
    if desk.page.dialog is not None:
        desk.set(dialog=None)
        return
    desk.set(pending=None)
    # A path previewed by tapping (nothing pending) is cancelled too.
    desk.page.field_ui.path = None
    desk.page.field_ui.info = None


def select(desk: Desk, cid: str, look: bool = False) -> None:
    """A tap on a combatant (its row or its token). During the turn of the selected actor, another
    combatant who does not act now becomes the actor's target (a second tap on it clears it): the actor
    stays the subject, its options on the target come first. Otherwise, or with `look` (the row's own
    "details" control), the combatant is selected to see its card and actions."""
    if not desk.session.state.has(cid):
        return
    page, now = desk.page, current(desk)
    subject = page.selected
    # What a selection shows first is the combatant marked in the order, the field and the ruler: the
    # action panel follows once that has painted (issue 38: a tap paints within two frames at 120).
    desk.panel_later = True
    if not look and subject is not None and subject in now and cid != subject and cid not in now \
            and desk.session.state.has(subject) and _targetable(desk, subject, cid):
        desk.set(target=None if page.target == cid else cid, pending=None)
        if page.target != cid:
            # One more tap acts, at every size (issue #53, stop 5): the options on the foe are brought into
            # view once drawn; on a phone the actions are a tab of their own, from the Field tab too.
            desk.reveal_target = True
            if is_phone():
                desk.set(tab="act")
                desk.panel_later = False  # (the tab shows the panel: drawn with it)
        return
    desk.set(selected=cid, follow_turn=cid in now, pending=None, target=None)


def _targetable(desk: Desk, subject: str, cid: str) -> bool:
    """A foe of the subject, or anyone the subject has an option on (an ally to heal)."""
    state = desk.session.state
    return state.get(cid).side != state.get(subject).side or \
        any(on_target(o, subject, cid) for o in selection(desk, subject)[0])


def reorder(desk: Desk, moved: str, before: str) -> None:
    """Move a combatant before another in the order, if the system has an order to change."""
    make = getattr(system_view(desk.session.encounter.system), "reorder", None)
    if make is None:
        return
    cmd = make(desk.session.state, moved, before)
    if cmd is not None:
        act(desk, cmd)


# --- the one history ------------------------------------------------------------------

def undo(desk: Desk) -> None:
    if not desk.session.can_undo:
        return
    if isinstance(desk.session.undo(), SetupChange):
        desk.set(draft=None)
    desk.set(pending=None, follow_turn=True)  # the subject stays with whoever acts
    follow(desk)


def redo(desk: Desk) -> None:
    if not desk.session.can_redo:
        return
    if isinstance(desk.session.redo(), SetupChange):
        desk.set(draft=None)
    desk.set(follow_turn=True)
    follow(desk)


# --- clicks ---------------------------------------------------------------------------

@clicks("undo")
def _undo(desk: Desk, name: str, arg: str, target) -> None:
    undo(desk)


@clicks("redo")
def _redo(desk: Desk, name: str, arg: str, target) -> None:
    redo(desk)


@clicks("help", "rule")
def _open_help(desk: Desk, name: str, arg: str, target) -> None:
    desk.set(dialog=Dialog("help") if name == "help" else Dialog("rule", rule=arg))


@clicks("cancel")
def _cancel(desk: Desk, name: str, arg: str, target) -> None:
    cancel(desk)


@clicks("dismiss")
def _dismiss(desk: Desk, name: str, arg: str, target) -> None:
    desk.set(notice=("", "info"))


@clicks("select", "token")
def _select(desk: Desk, name: str, arg: str, target) -> None:
    select(desk, arg)


@clicks("look")
def _look(desk: Desk, name: str, arg: str, target) -> None:
    """The row's "details" control: that combatant's own card and actions, whoever acts."""
    select(desk, arg, look=True)


def target_next(desk: Desk) -> bool:
    """T: the selected actor's next foe standing (in the order of the fight) becomes its target."""
    state, subject = desk.session.state, desk.page.selected
    if subject is None or not state.has(subject):
        return False
    side = state.get(subject).side
    foes = [c.id for c in state.combatants if c.side != side and not c.is_down]
    if not foes:
        return False
    after = foes.index(desk.page.target) + 1 if desk.page.target in foes else 0
    desk.set(target=foes[after % len(foes)], pending=None)
    desk.reveal_target = True
    return True


def open_hp(desk: Desk) -> bool:
    """H: quick HP for the target, else for the selected combatant."""
    cid = desk.page.target or desk.page.selected
    if cid is None or not desk.session.state.has(cid):
        return False
    desk.set(dialog=Dialog("hp", combatant=cid))
    return True


@clicks("skip")
def _skip(desk: Desk, name: str, arg: str, target) -> None:
    """The skip link: straight to the actions (on a phone, their tab), the first one focused."""
    desk.set(tab="act")
    desk.focus = "#actions-slot button.act:not([disabled]), #actions-slot button"


@clicks("target")
def _target(desk: Desk, name: str, arg: str, target) -> None:
    """A target chip of the action panel: the actor's options on that combatant first (again: cleared)."""
    if desk.session.state.has(arg):
        desk.reveal_target = desk.page.target != arg
        desk.set(target=None if desk.page.target == arg else arg, pending=None)


@clicks("untarget")
def _untarget(desk: Desk, name: str, arg: str, target) -> None:
    desk.set(target=None)


@clicks("opt")
def _opt(desk: Desk, name: str, arg: str, target) -> None:
    choose(desk, int(arg))


@clicks("ask")
def _ask(desk: Desk, name: str, arg: str, target) -> None:
    """An option's "other answers" button: its question asked instead of its default taken."""
    choose(desk, int(arg), ask=True)


@clicks("alt")
def _alt(desk: Desk, name: str, arg: str, target) -> None:
    """An option's other answer, when its question has just two (OLOG: "Press on"): taken in one tap."""
    choose(desk, int(arg), other=True)


@clicks("allow")
def _allow(desk: Desk, name: str, arg: str, target) -> None:
    act(desk, Allow(options(desk)[int(arg)].command))


@clicks("fold")
def _fold(desk: Desk, name: str, arg: str, target) -> None:
    """Show or hide a group's refused options (ui/markup/panels.py `fold`); the field is as it was."""
    shown = desk.page.unfolded
    desk.set(unfolded=shown - {arg} if arg in shown else shown | {arg})


@clicks("choose")
def _choose(desk: Desk, name: str, arg: str, target) -> None:
    answer(desk, int(arg))


@clicks("reorder-up", "reorder-down")
def _reorder_step(desk: Desk, name: str, arg: str, target) -> None:
    """The order list's arrow buttons: one place up or down."""
    rows = [r.id for r in panel(desk).order if r.kind == "combatant"]
    if arg not in rows:
        return
    j = rows.index(arg) + (-1 if name == "reorder-up" else 1)
    if not 0 <= j < len(rows):
        return
    reorder(desk, arg, rows[j] if name == "reorder-up" else (rows[j + 1] if j + 1 < len(rows) else ""))


@clicks("uncond")
def _uncondition(desk: Desk, name: str, arg: str, target) -> None:
    cid, _, i = arg.partition(":")
    act(desk, SetCondition(cid, desk.session.state.get(cid).conditions[int(i)], False))


@clicks("tab")
def _tab(desk: Desk, name: str, arg: str, target) -> None:
    desk.set(tab=arg)


# --- forms ----------------------------------------------------------------------------

@forms("roll")
def _roll(desk: Desk, arg: str, values: dict[str, str], op: str, form) -> None:
    act(desk, FreeRoll(values.get("expr", "").strip()))


@forms("hp-form")
def _hp(desk: Desk, arg: str, values: dict[str, str], op: str, form) -> None:
    cid = attr(form, "data-id")
    if op == "sethp":
        hp = parse_int(values.get("hp", ""))
        if hp is not None:
            act(desk, SetHp(cid, hp))
        return
    amount = parse_int(values.get("damage", ""))
    if amount is None:
        return
    if amount < 0:
        desk.notify("Damage must be zero or more.", "error")
    else:
        act(desk, Damage(cid, amount))


@clicks("hp", "effect")
def _hp_open(desk: Desk, name: str, arg: str, target) -> None:
    """A combatant's hit points tapped: the quick HP field (views/hp_change.py); or "Effect…" beside them:
    the effect dialog of that actor, nobody ticked (ui/controllers/effect_ui.py)."""
    if desk.session.state.has(arg):
        desk.set(dialog=Dialog(name, combatant=arg))


@forms("hp-quick")
def _hp_quick(desk: Desk, arg: str, values: dict[str, str], op: str, form) -> None:
    """−N, +N or a new value: one referee step (undo takes it back); anything else is refused at the field,
    with what was typed kept, and the fight unchanged."""
    typed = values.get("change", "")
    cmd, problem = read_change(arg, typed)
    if cmd is None:
        desk.set(dialog=Dialog("hp", combatant=arg, typed=typed[:40], problem=problem))
        return
    desk.set(dialog=None)
    act(desk, cmd)


@forms("qcond")
def _quick_condition(desk: Desk, arg: str, values: dict[str, str], op: str, form) -> None:
    """A condition of the library tapped (or the referee's own typed) in the quick dialog, for the duration
    chosen there: one referee step; a refusal is said at the field with what was typed kept."""
    state, rs = desk.session.state, desk.session.ruleset
    if not state.has(arg):
        desk.set(dialog=None)
        return
    lasting = values.get("for", "")
    typed = values.get("custom", "")
    name = op[4:] if op.startswith("lib:") else typed
    cmd, problem = condition_command(rs, state, arg, name, lasting, "secret" in values)
    illegal = desk.session.check(cmd) if cmd is not None else None
    if cmd is None or illegal is not None:
        desk.set(dialog=Dialog("hp", combatant=arg, cond_typed=typed[:40],
                               cond_problem=problem or in_words(illegal.detail)), cond_for=lasting)
        return
    desk.set(dialog=None, cond_for=lasting)
    act(desk, cmd)


@forms("cond-form")
def _condition(desk: Desk, arg: str, values: dict[str, str], op: str, form) -> None:
    """The referee's condition and its duration: one step; a refusal (no name, not a duration, too long) is
    said beside the form, in words, with what was typed kept (CORE-TIME-1)."""
    cid, state = attr(form, "data-id"), desk.session.state
    if not state.has(cid):
        return
    name, lasting = values.get("condition", ""), values.get("lasts", "")
    cmd, problem = condition_command(desk.session.ruleset, state, cid, name, lasting)
    illegal = desk.session.check(cmd) if cmd is not None else None
    if cmd is None or illegal is not None:
        if not name.strip():
            problem = "Name the condition first (asleep, prone, or your own words): a condition needs a name."
        elif problem:
            problem += "; or leave the duration empty: until removed."
        desk.set(cond_refused=(state, cid, name[:40], lasting[:20], problem or in_words(illegal.detail)))
        return
    desk.set(cond_refused=None)
    act(desk, cmd)


@forms("need-submit")
def _need(desk: Desk, arg: str, values: dict[str, str], op: str, form) -> None:
    """The pending option's typed need (a number or a text)."""
    if not desk.page.pending:
        return
    option = desk.page.pending[1]
    need = next((n for n in option.needs if n not in SPATIAL_NEEDS), "")
    kind, _, fname = need.partition(":") if ":" in need else ("text", "", need)
    raw = values.get("value", "").strip()
    val: Any = raw
    if kind == "number":
        val = parse_int(raw)
        if val is None:
            return
    fill_pending(desk, {fname: val})


@forms("faces")
def _faces(desk: Desk, arg: str, values: dict[str, str], op: str, form) -> None:
    """The faces of the referee's own dice, typed into the dice dialog."""
    if not showing(desk.page, "dice"):
        return
    dialog = desk.page.dialog
    need, cmd, faces = dialog.need, dialog.command, dialog.faces
    typed = []
    for i in range(need.count):
        v = parse_int(values.get(f"f{i}", ""))
        if v is None or not 1 <= v <= need.sides:
            desk.notify(f"Each face must be a number from 1 to {need.sides}.", "error")
            return
        typed.append(v)
    desk.set(dialog=None)
    act(desk, cmd, faces=list(faces) + typed, answer=dialog.answer)


@changes("dice-mode")
def _dice_mode(desk: Desk, arg: str, target) -> None:
    """Who rolls (CORE-DICE-3): the app every die, the referee every die, or the players their own."""
    s = desk.session
    s.physical_dice = arg == "physical"
    if arg == "players":
        players = [side.id for side in s.encounter.sides if side.is_player] or [s.encounter.sides[0].id]
        s.hand_sides = frozenset(players)
    else:
        s.hand_sides = frozenset()
    say_who_rolls(desk)


@changes("dice-side")
def _dice_side(desk: Desk, arg: str, target) -> None:
    """One side's rolls typed by hand or rolled by the app; the others as they were."""
    s = desk.session
    if s.encounter.side(arg) is None:
        desk.notify("That side is not in this fight.", "error")
        return
    s.physical_dice = False
    s.hand_sides = s.hand_sides ^ {arg}
    say_who_rolls(desk)


def say_who_rolls(desk: Desk) -> None:
    s = desk.session
    if s.physical_dice:
        desk.notify("Type the faces of your own dice when asked.", "info")
    elif s.hand_sides:
        names = [side.name for side in s.encounter.sides if side.id in s.hand_sides]
        desk.notify(f"Dice typed by hand for {' and '.join(names)}; the app rolls the rest.", "info")
    else:
        desk.notify("The app rolls the dice.", "info")
