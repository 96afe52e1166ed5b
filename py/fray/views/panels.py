"""View models shared by every system: the action menu, the log, the cards.

Pure functions from engine values to plain records; the page only draws them.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from ..engine.commands import Event, Option
from ..engine.conditions import turn_count
from ..engine.model import Combatant
from ..engine.ruleset import Ruleset
from ..engine.session import Session
from ..engine.state import State
from ..rules import info
from .models import Badge, Hint, SystemPanel, SystemView
from .move_toward import TOWARD_KEY

_VIEWS: dict[str, SystemView] = {}


def system_view(system: str) -> SystemView:
    """The view hooks of a system: the `VIEW` of the module its descriptor names (`SystemInfo.view`), or
    the plain hooks where it names none. An unknown system, or a view that is not there, is an error."""
    v = _VIEWS.get(system)
    if v is None:
        module = info(system).view
        v = importlib.import_module(module).VIEW if module else SystemView()
        _VIEWS[system] = v
    return v


@dataclass(frozen=True)
class ActionItem:
    """One button of the action panel; `index` points into the options list."""

    index: int
    label: str
    group: str
    allowed: bool
    why: str = ""
    hint: str = ""
    key: str = ""
    question: str = ""
    choices: tuple[tuple[str, str], ...] = ()  # (label, detail)
    needs: tuple[str, ...] = ()
    number: int = 0  # 1-9 keyboard shortcut for allowed items, 0 for none
    default: int = -1  # the choice a tap takes without asking (Option.default)


@dataclass(frozen=True)
class ActionMenu:
    actor: str
    actor_name: str
    is_current: bool
    prompt: str  # a decision the rules wait for, if any
    prompt_rule: str
    groups: tuple[tuple[str, tuple[ActionItem, ...]], ...]
    hints: tuple[Hint, ...]
    badges: tuple[Badge, ...]
    next_index: int | None  # the option bound to N
    target: str = ""  # the foe the referee tapped during the actor's turn (its options come first)
    target_name: str = ""
    # Whom the actor's allowed options act on, in the order of the fight: one tap targets them from the
    # action panel itself (on a phone, without the Order or Field tab).
    targets: tuple[tuple[str, str], ...] = ()


GROUP_ORDER = ("Decision", "Declare", "Initiative", "Attack", "Move", "Magic", "Spell", "Defend", "Item",
               "Strategise", "Other", "Referee", "Turn")


def numbered(menu: "ActionMenu | None") -> dict[int, int]:
    """Keyboard number (1-9) -> option index, as the menu shows them."""
    if menu is None:
        return {}
    return {it.number: it.index for _, items in menu.groups for it in items if it.number}


# Refusals that say an option cannot apply to this combatant at all (no spell memorised, no weapon that
# braces, nothing to draw, nothing to stand up from): such options are left out of the menu (issue 38).
NEVER_HERE = frozenset({"NO_SPELLS", "NO_BRACE_WEAPON", "NO_ITEM", "NOT_NEEDED"})


def on_target(o: Option, actor: str, target: str) -> bool:
    """An option the actor would take on the tapped target (not the referee's tools on it)."""
    return bool(target) and target != actor and getattr(o.command, "target", "") == target \
        and o.group not in ("Referee", "Turn")


def action_menu(ruleset: Ruleset, state: State, actor: str | None, panel: SystemPanel,
                options: list[Option], target: str | None = None) -> ActionMenu | None:
    """The actor's options in groups, the most likely first: with a `target` tapped, what the actor can
    do to it leads ("On Orc 1"), so one more tap acts."""
    if actor is None or not state.has(actor):
        return None
    c = state.get(actor)
    target = target if target and target != actor and state.has(target) else ""
    first = f"On {state.get(target).name}" if target else ""
    groups: dict[str, list[tuple[int, Option]]] = {}
    next_index = None
    for i, o in enumerate(options):
        if o.key == "next" and o.allowed:
            next_index = i
        if not o.allowed and str(getattr(o.reason, "value", o.reason)) in NEVER_HERE:
            continue  # it cannot apply to this combatant at all: not listed (the engine still says why)
        toward = bool(target) and o.key == TOWARD_KEY and o.label == f"Move toward {state.get(target).name}"
        group = first if on_target(o, actor, target) or toward else (o.group or "Other")
        groups.setdefault(group, []).append((i, o))
    def rank(kv):
        name, members = kv
        if name == first:
            return (False, False, -1)
        base = GROUP_ORDER.index(name) if name in GROUP_ORDER else GROUP_ORDER.index("Other")
        # What the actor can do comes first; groups with nothing allowed follow, reasons still shown.
        tail = name in ("Referee", "Turn")  # always at the bottom, Turn last
        blocked = not tail and not any(o.allowed for _, o in members)
        return (tail, blocked, base)

    ordered = sorted(((g, _in_order(m, g == first)) for g, m in groups.items()), key=rank)
    # Keys 1-9 follow the order the referee sees, allowed actions only.
    number = 0
    out_groups = []
    for g, members in ordered:
        items = []
        for i, o in members:
            n = 0
            if o.allowed and number < 9 and o.key != "next":
                number += 1
                n = number
            items.append(ActionItem(i, o.label, g, o.allowed, o.why, o.hint, o.key, o.question,
                                    tuple((ch.label, ch.detail) for ch in o.choices), o.needs, n, o.default))
        out_groups.append((g, tuple(items)))
    prompt = state.prompt
    is_current = actor in ruleset.current(state)
    return ActionMenu(
        actor=actor, actor_name=c.name, is_current=is_current,
        prompt=prompt.question if prompt and prompt.actor == actor else "",
        prompt_rule=prompt.rule if prompt and prompt.actor == actor else "",
        groups=tuple(out_groups),
        hints=panel.hints.get(actor, ()) + (ending_soon(ruleset, state) if is_current else ()),
        badges=panel.badges.get(actor, ()), next_index=next_index,
        target=target, target_name=state.get(target).name if target else "",
        targets=targets_of(state, actor, options))


def _in_order(members: list[tuple[int, Option]], on_target_group: bool) -> list[tuple[int, Option]]:
    """A group's options, the allowed first. The long move comes near the top (issue 53: on a fight's first
    view, no scroll to reach it): first of the Move group, and second of the target's own group ("On Orc 1"),
    after the first thing the actor can do to that foe (a charge)."""
    out = sorted(members, key=lambda io: (not io[1].allowed, io[1].key != TOWARD_KEY))
    if on_target_group and len(out) > 1 and out[0][1].key == TOWARD_KEY and out[1][1].allowed:
        out[0], out[1] = out[1], out[0]
    return out


def ending_soon(ruleset: Ruleset, state: State) -> tuple[Hint, ...]:
    """The timed conditions that end by the clock's next stop (Ruleset.clock.next_tick), said on the card of
    whoever acts now ("Ending at round 3: Orc 1 Stunned"), so the referee is not surprised when they go."""
    if not state.timers:
        return ()
    at = ruleset.clock.next_tick(state)
    ending = [f"{state.get(cid).name} {cond}" for cid, cond, end in state.timers
              if isinstance(end, int) and end <= at and state.has(cid)]
    out = (Hint(f"Ending at {ruleset.clock.words(at, at=True)}: {', '.join(ending)}", "CORE-REF-1"),) if ending else ()
    for who in ruleset.current(state):  # "until the end of X's next turn", X's turn on now: it ends with it
        for edge, word in (("end", ruleset.clock.turn_word(state)), ("end-step", "step")):
            turns = turn_count(ruleset, state, edge, who) if state.has(who) else None
            with_turn = [f"{state.get(cid).name} {cond}" for cid, cond, end in state.timers
                         if not isinstance(end, int) and end[:2] == (edge, who) and turns == (end[2] + 1, True)
                         and state.has(cid)]
            if with_turn:
                out += (Hint(f"Ending with {state.get(who).name}'s {word}: {', '.join(with_turn)}", "CORE-REF-1"),)
    return out


def targets_of(state: State, actor: str, options: list[Option]) -> tuple[tuple[str, str], ...]:
    """(id, name) of each combatant an allowed option of the actor acts on, in the order of the fight."""
    aimed = {getattr(o.command, "target", "") for o in options if o.allowed and on_target(o, actor,
                                                                                          getattr(o.command, "target", ""))}
    return tuple((c.id, c.name) for c in state.combatants if c.id in aimed)


@dataclass(frozen=True)
class LogLine:
    step: int
    text: str
    rule: str
    kind: str
    dice: str  # the faces, e.g. "d20 [14] = 14; d8 [5] = 5"
    secret: bool = False


def log_lines(session: Session, limit: int | None = None) -> list[LogLine]:
    """The log, newest first (UI: "Log of every event with its dice, newest first")."""
    out: list[LogLine] = []
    for step_no in range(len(session.steps), 0, -1):
        step = session.steps[step_no - 1]
        for e in reversed(step.events):
            out.append(line_of(step_no, e))
            if limit and len(out) >= limit:
                return out
    return out


def line_of(step_no: int, e: Event) -> LogLine:
    # Faces the sentence does not already show.
    dice = "; ".join(d for d in (r.describe() for r in e.rolls) if d not in e.text)
    return LogLine(step_no, e.text, e.rule, e.kind, dice, e.secret)


@dataclass(frozen=True)
class HpChange:
    """A combatant whose hit points the step changed: before and after, and whether it went down."""

    id: str
    name: str
    before: int
    after: int
    max_hp: int
    downed: bool = False  # up before the step, down after it
    rose: bool = False  # down before the step, up after it


@dataclass(frozen=True)
class StepResult:
    """What the last step did, for the result card where the referee looks: its events (each with its
    dice and rule ids), every hit point it changed, and who it took down."""

    step: int
    lines: tuple[LogLine, ...]
    hp: tuple[HpChange, ...]

    @property
    def downed(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.hp if c.downed)


def last_result(session: Session, upto: int | None = None) -> StepResult | None:
    """The result of the fight's last step (None before the first). An undo shows the step before.
    `upto`: the result of that step instead, as the timeline shows a past one (views/recap.py)."""
    n = len(session.steps) if upto is None else upto
    if not n:
        return None
    first = n - 1  # steps the app took by itself (Ruleset.follow_up) show with the step that led to them
    while first > 0 and session.steps[first].command.chained():
        first -= 1
    before, after = session.state_at(first), session.state_at(n)
    hp = []
    for c in after.combatants:
        if not before.has(c.id):
            continue
        old = before.get(c.id)
        if (old.hp, old.is_down) != (c.hp, c.is_down):
            hp.append(HpChange(c.id, c.name, old.hp, c.hp, c.max_hp, downed=c.is_down and not old.is_down,
                               rose=old.is_down and not c.is_down))
    lines = tuple(line_of(i + 1, e) for i in range(first, n) for e in session.steps[i].events)
    return StepResult(n, lines, tuple(hp))


def log_text(session: Session) -> str:
    """The whole log as plain text, oldest first, for export."""
    enc = session.encounter
    lines = [f"Fray log: {enc.name} ({enc.system}{' ' + enc.profile if enc.profile else ''})", ""]
    for step_no, e in session.log():
        dice = "; ".join(r.describe() for r in e.rolls)
        rule = f" [{e.rule}]" if e.rule else ""
        lines.append(f"{step_no:>4}  {e.text}{rule}" + (f"  ({dice})" if dice and e.text.find(dice) < 0 else ""))
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Card:
    """A combatant as the list field (no map) shows it."""

    id: str
    name: str
    side: str
    hp: int
    max_hp: int
    ac: int
    is_down: bool
    is_current: bool
    is_selected: bool
    badges: tuple[Badge, ...]
    holds: str


def cards(state: State, current: tuple[str, ...], selected: str | None,
          badges: dict[str, tuple[Badge, ...]]) -> list[tuple[str, list[Card]]]:
    """Combatants grouped by side, for systems played without a map."""
    out: list[tuple[str, list[Card]]] = []
    for side in state.sides:
        group = [card(c, current, selected, badges) for c in state.combatants if c.side == side.id]
        out.append((side.id, group))
    return out


def card(c: Combatant, current: tuple[str, ...], selected: str | None,
         badges: dict[str, tuple[Badge, ...]]) -> Card:
    holds = ", ".join(h for h in c.hands if h)
    return Card(c.id, c.name, c.side, c.hp, c.max_hp, c.ac, c.is_down, c.id in current, c.id == selected,
                badges.get(c.id, ()), holds)

