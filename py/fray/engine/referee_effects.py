"""The referee's commands on conditions and effects (CORE-REF-1): `SetCondition`, `Effect` (a spell's damage or
healing and its condition; `cast_effect` when a spell completes) and `Expire` (timed conditions ending): their
checks and resolutions in engine/referee.py's tables, and the timers they keep (`due_timers`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import limits as L
from .commands import Event, Illegal, Reason
from .conditions import TURN_EDGES, turn_count, until_words
from .dice import Dice, DiceError, DiceExpr
from .referee import (Effect, Expire, Heal, RefereeReason, Rules, SetCondition, heal, referee_checks,
                      referee_resolves)
from .spells import spell_effect
from .state import State


@referee_checks(SetCondition)
def _check_condition(rs: Rules, state: State, cmd: SetCondition) -> Illegal | None:
    if not cmd.on:
        return None
    if not isinstance(cmd.lasts, int) or isinstance(cmd.lasts, bool) or not 0 <= cmd.lasts <= L.CONDITION_TICKS:
        unit = rs.clock_unit + "s"
        return Illegal(RefereeReason.BAD_VALUE, f"{cmd.target}.conditions: a duration is a whole number of "
                                                f"{unit} from 1 to {L.CONDITION_TICKS} (0: until removed)")
    if not cmd.condition or len(cmd.condition) > L.CONDITION_TEXT:
        return Illegal(RefereeReason.BAD_VALUE, f"{cmd.target}.conditions: expected text of 1 to "
                                                f"{L.CONDITION_TEXT} characters")
    if cmd.until:
        bad = _check_until(rs, state, cmd)
        if bad is not None:
            return bad
    c = state.get(cmd.target) if state.has(cmd.target) else None
    if c is not None and cmd.condition not in c.conditions and len(c.conditions) >= L.MAX_CONDITIONS:
        return Illegal(RefereeReason.BAD_VALUE, f"{cmd.target}.conditions: too many items "
                                                f"({len(c.conditions) + 1}, at most {L.MAX_CONDITIONS})")
    return None


def _check_until(rs: Rules, state: State, cmd: SetCondition) -> Illegal | None:
    edge, _, who = cmd.until.partition(":") if isinstance(cmd.until, str) else ("", "", "")
    if edge not in TURN_EDGES or not state.has(who):
        return Illegal(RefereeReason.BAD_VALUE, f"{cmd.target}.conditions: 'until' is start:<id> or end:<id> "
                                                f"of a combatant in the fight (start-step:, end-step: for a step), "
                                                f"not {str(cmd.until)[:40]!r}")
    if rs.turns(state, who) is None:
        return Illegal(RefereeReason.BAD_VALUE, f"{rs.title} has no turns: a condition lasts "
                                                f"{rs.clock_unit}s here")
    if turn_count(rs, state, edge, who) is None:
        return Illegal(RefereeReason.BAD_VALUE, f"{cmd.target}.conditions: turns have no steps here: "
                                                f"until the start or the end of a turn")
    if cmd.lasts:
        return Illegal(RefereeReason.BAD_VALUE, f"{cmd.target}.conditions: a duration or 'until a turn', "
                                                f"not both")
    return None


@referee_resolves(SetCondition)
def _set_condition(rs: Rules, state: State, cmd: SetCondition, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.target)
    new = c.with_condition(cmd.condition) if cmd.on else c.without_condition(cmd.condition)
    verb = "now" if cmd.on else "no longer"
    key = (cmd.target, cmd.condition)
    timers = tuple(t for t in state.timers if t[:2] != key)
    lasting = ""
    if cmd.on and cmd.lasts:
        timers += ((cmd.target, cmd.condition, rs.clock(state) + cmd.lasts),)
        lasting = f" for {rs.clock_words(cmd.lasts)}"
    elif cmd.on and cmd.until:
        edge, _, who = cmd.until.partition(":")
        timers += ((cmd.target, cmd.condition, (edge, who, turn_count(rs, state, edge, who)[0])),)
        lasting = " " + until_words(state, edge, who, rs.turn_word(state))
    secret = state.secret - {key}
    if cmd.on and cmd.secret:
        secret |= {key}
    events.append(Event("ConditionSet", f"{c.name} is {verb} {cmd.condition}{lasting}", rule="CORE-REF-1",
                        target=cmd.target, secret=bool(cmd.secret or key in state.secret)))
    return replace(state.with_combatant(new), timers=timers, secret=secret)


MAX_EFFECT_TARGETS = 100


@referee_checks(Effect)
def _check_effect(rs: Rules, state: State, cmd: Effect) -> Illegal | None:
    if not isinstance(cmd.targets, tuple) or not cmd.targets:
        return Illegal(RefereeReason.BAD_VALUE, "An effect needs at least one target")
    if len(cmd.targets) > MAX_EFFECT_TARGETS or len(set(cmd.targets)) != len(cmd.targets):
        return Illegal(RefereeReason.BAD_VALUE, f"An effect has 1 to {MAX_EFFECT_TARGETS} different targets")
    missing = next((t for t in cmd.targets if not isinstance(t, str) or not state.has(t)), None)
    if missing is not None:
        return Illegal(Reason.NO_SUCH_COMBATANT, f"There is no combatant {missing!r}")
    if not cmd.dice and not cmd.condition:
        return Illegal(RefereeReason.BAD_VALUE, "An effect deals damage or healing, or sets a condition (or both)")
    if cmd.dice:
        try:
            DiceExpr.parse(cmd.dice)
        except DiceError as exc:
            return Illegal(RefereeReason.BAD_VALUE, str(exc))
    if len(cmd.note) > L.CONDITION_TEXT * 2:
        return Illegal(RefereeReason.BAD_VALUE, f"The effect's name: at most {L.CONDITION_TEXT * 2} characters")
    if cmd.condition:
        for t in cmd.targets:
            bad = _check_condition(rs, state, SetCondition(t, cmd.condition, True, cmd.lasts, cmd.until))
            if bad is not None:
                return bad
    return None


@referee_resolves(Effect)
def _effect(rs: Rules, state: State, cmd: Effect, dice: Dice, events: list[Event]) -> State:
    what = cmd.note or "The effect"
    events.append(Event("EffectApplied", f"{what} on {', '.join(state.get(t).name for t in cmd.targets)}",
                        rule="CORE-REF-1"))
    roll = dice.roll(cmd.dice, f"{what}") if cmd.dice and not cmd.each else None
    for t in cmd.targets:
        c = state.get(t)
        if cmd.dice:
            r = roll or dice.roll(cmd.dice, f"{what} on {c.name}")
            amount = max(0, r.total)
            if cmd.heal:
                state = heal(rs, state, Heal(t, amount), dice, events)
            else:
                state = rs.damage(state, t, amount, events, rule="CORE-REF-1",
                                  text=f"{c.name} takes {amount} damage ({what}: {r.describe()}; "
                                       f"{c.hp - amount}/{c.max_hp} HP)")
        if cmd.condition:
            state = _set_condition(rs, state, SetCondition(t, cmd.condition, True, cmd.lasts, cmd.until), dice,
                                   events)
    return state


def cast_effect(rs: Rules, state: State, targets: tuple[str, ...], entry: str, dice: Dice,
                events: list[Event]) -> State:
    """A spell completed on `targets` does what its roster entry says (engine/spells.py): the referee's
    `Effect`, inside the step that completes it. A spell with no effect, or no target, changes nothing here;
    an effect that cannot apply is said in the log and changes nothing."""
    name, eff = spell_effect(entry)
    if eff is None or not targets:
        return state
    try:
        lasts = rs.duration(state, eff.lasts) if eff.condition else 0
    except ValueError as exc:
        events.append(Event("EffectRefused", f"{name}: {exc}", rule="CORE-REF-1"))
        return state
    cmd = Effect(tuple(targets), eff.dice, eff.each, eff.heal, eff.condition, lasts, name)
    illegal = _check_effect(rs, state, cmd)
    if illegal is not None:
        events.append(Event("EffectRefused", f"{name}: {illegal.detail}", rule="CORE-REF-1"))
        return state
    return _effect(rs, state, cmd, dice, events)


def due_timers(rs: Rules, state: State) -> tuple[tuple[str, str, Any], ...]:
    """The timed conditions whose time is up now: their end tick reached, or the turn they wait for begun
    (a "start" timer) or over (an "end" timer)."""
    now = rs.clock(state)
    return tuple(t for t in state.timers if _due(rs, state, t[2], now))


def _due(rs: Rules, state: State, at: Any, now: int) -> bool:
    if isinstance(at, int):
        return at <= now
    edge, who, begun = at
    turns = turn_count(rs, state, edge, who)
    if turns is None:
        return not state.has(who)  # the one whose turn it waited for is gone: it ends
    count, on = turns
    return count > begun + 1 or (count == begun + 1 and (edge.startswith("start") or not on))


def tick_timers(state: State) -> tuple[tuple[str, str, int], ...]:
    """The timers counted in ticks of the clock (not those waiting for someone's turn)."""
    return tuple(t for t in state.timers if isinstance(t[2], int))


@referee_checks(Expire)
def _check_expire(rs: Rules, state: State, cmd: Expire) -> Illegal | None:
    if not due_timers(rs, state):
        return Illegal(RefereeReason.BAD_VALUE, "no timed condition ends now")
    return None


@referee_resolves(Expire)
def _expire(rs: Rules, state: State, cmd: Expire, dice: Dice, events: list[Event]) -> State:
    due = due_timers(rs, state)
    for cid, cond, at in due:
        if not state.has(cid):
            continue
        c = state.get(cid)
        state = state.with_combatant(c.without_condition(cond))
        when = rs.clock_words(at, at=True) if isinstance(at, int) else \
            until_words(state, at[0], at[1], rs.turn_word(state))[len("until the "):].replace(" next ", " ")
        events.append(Event("ConditionEnded", f"{c.name} is no longer {cond}: its time is up ({when})",
                            rule="CORE-REF-1", target=cid, secret=(cid, cond) in state.secret))
    ended = {t[:2] for t in due}
    return replace(state, timers=tuple(t for t in state.timers if t not in due), secret=state.secret - ended)
