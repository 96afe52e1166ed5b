"""The referee's commands (CORE-REF-1): overrides outside the rules, their checks and what they do.

Every system shares them: `check_referee` holds a referee command to the
facts (the combatant exists, the value fits a save file), `resolve_referee`
applies it and logs it. `Allow` resolves a command its system forbids; one
that cannot apply at all changes nothing and is logged as `override_failed`.
The commands on conditions and effects are checked and resolved in engine/referee_effects.py.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Protocol

from .commands import Code, Command, Event, Illegal, Reason, command
from .dice import Dice, DiceError, DiceExpr
from . import limits as L
from .specs import StatSpec, stat_problems
from .state import State
from .tables import Handlers


class Rules(Protocol):
    """What the referee's commands ask of the ruleset (engine/ruleset.py's `Ruleset`, which imports this module)."""

    title: str

    def stats(self) -> tuple[StatSpec, ...]: ...

    def namespaces(self) -> tuple[str, ...]: ...

    def resolve(self, state: State, cmd: Command, dice: Dice) -> tuple[State, list[Event]]: ...

    def damage(self, state: State, target: str, amount: int, events: list[Event], *,
               source: str = "", rule: str = "", text: str = "") -> State: ...

    def moved(self, state: State, target: str, events: list[Event]) -> State: ...

    def clock(self, state: State) -> int: ...

    clock_unit: str

    def clock_words(self, ticks: int, at: bool = False) -> str: ...

    def turns(self, state: State, who: str) -> tuple[int, bool] | None: ...

    def steps(self, state: State, who: str) -> tuple[int, bool] | None: ...

    def duration(self, state: State, text: str) -> int: ...

    def turn_word(self, state: State) -> str: ...


class RefereeReason(Code):
    """Why a referee command cannot apply (the codes beyond the core `Reason`, CORE-REF-1)."""

    NEGATIVE_AMOUNT = "NEGATIVE_AMOUNT"
    BAD_VALUE = "BAD_VALUE"        # a stat value a save file cannot hold
    BAD_DICE = "BAD_DICE"
    NOWHERE = "NOWHERE"            # a placement with neither square nor zone
    OFF_MAP = "OFF_MAP"            # a square outside the map
    OFF_FIELD = "OFF_FIELD"        # a zone outside the bands
    NESTED_ALLOW = "NESTED_ALLOW"


@command("core")
class SetHp:
    target: str
    hp: int

    def label(self) -> str:
        return f"Set HP to {self.hp}"


@command("core")
class Damage:
    """Damage applied directly by the referee (or a hit resolved at the table)."""

    target: str
    amount: int
    note: str = ""


@command("core")
class Heal:
    target: str
    amount: int


@command("core")
class Place:
    """Move a token anywhere (band or square), outside the rules."""

    target: str
    band: int | None = None
    square: tuple[int, int] | None = None


@command("core")
class SetStat:
    target: str
    key: str
    value: Any


@command("core")
class SetCondition:
    target: str
    condition: str
    on: bool = True
    lasts: int = 0  # ticks of the system's clock (Ruleset.clock: rounds, Ogre segments); 0: until removed
    until: str = ""  # or "start:<id>" / "end:<id>": until that combatant's next turn starts / ends (Ruleset.turns);
    # "start-step:<id>" / "end-step:<id>": its next step, where turns have steps (Ruleset.steps, OSE detailed)
    secret: bool = False  # the referee's alone: never on the players' display


@command("core")
class Effect:
    """A spell, an item or a ruling on several targets in one step: damage (or healing) rolled once for
    all or once per target, and/or a condition, for `lasts` ticks of the system's clock (0: until removed)."""

    targets: tuple[str, ...]
    dice: str = ""  # the damage or healing, "" for none
    each: bool = False  # roll it for each target instead of once for all
    heal: bool = False
    condition: str = ""
    lasts: int = 0
    note: str = ""  # what it is ("Fireball"), said in the log
    until: str = ""  # as SetCondition's

    def label(self) -> str:
        return f"{self.note or 'Effect'} on {len(self.targets)}"


@command("core")
class Expire:
    """The timed conditions whose time is up end: a step the app takes by itself (Ruleset.follow_up),
    chained to the step that brought the clock there."""

    def chained(self) -> bool:
        return True


@command("core")
class Allow:
    """The referee allows a command the rules forbid; it resolves unchecked."""

    command: Command


@command("core")
class FreeRoll:
    """A roll from the dice roller, outside any action; logged."""

    expr: str
    purpose: str = ""


@command("core")
class Note:
    text: str


@command("core")
class SetWalls:
    """The referee draws or erases walls on the grid (an edit of the map that
    stays in the history, so it is undoable and replayed like any step)."""

    add: tuple[tuple[int, int], ...] = ()
    remove: tuple[tuple[int, int], ...] = ()

    def label(self) -> str:
        return "Edit walls"


REFEREE_COMMANDS = (SetHp, Damage, Heal, Place, SetStat, SetCondition, Expire, Effect, Allow, FreeRoll, Note,
                    SetWalls)


def _is_plain(value: Any, depth: int = 0) -> bool:
    """A value a save file holds and gives back equal: finite numbers, text,
    true/false, null, and lists, tuples or string-keyed dicts of those."""
    if depth > 8:
        return False
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, (tuple, list)):
        return all(_is_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_plain(v, depth + 1) for k, v in value.items())
    return False


referee_checks = Handlers("referee check")  # (ruleset, state, cmd) -> Illegal | None
referee_resolves = Handlers("referee resolve")  # (ruleset, state, cmd, dice, events) -> State


def check_referee(rs: Rules, state: State, cmd: Command) -> Illegal | None:
    """A referee command's facts: the target exists, and the command's own `referee_checks`."""
    target = getattr(cmd, "target", None)
    if target is not None and not state.has(target):
        return Illegal(Reason.NO_SUCH_COMBATANT, f"There is no combatant {target!r}")
    fn = referee_checks.get(cmd)
    return fn(rs, state, cmd) if fn is not None else None


def resolve_referee(rs: Rules, state: State, cmd: Command, dice: Dice) -> tuple[State, list[Event]]:
    """The referee command's `referee_resolves` entry; every one is logged (CORE-REF-1)."""
    events: list[Event] = []
    state = referee_resolves.table[type(cmd)](rs, state, cmd, dice, events)
    return state, events


def override_failed(cmd: Allow, why: str) -> Event:
    """CORE-REF-1: the one event for an allowed command that cannot apply here; nothing changes."""
    return Event("OverrideFailed", f"The referee allows {cmd.command.label()}, but it cannot apply here, "
                                   f"so nothing changes: {why}", rule="CORE-REF-1")


def _out_of(path: str, value: int, allowed: tuple[int, int]) -> Illegal | None:
    """The loader's message for a number outside its limit (engine/limits.py)."""
    if allowed[0] <= value <= allowed[1]:
        return None
    return Illegal(Reason.OUT_OF_RANGE, f"{path}: {value} is out of range ({allowed[0]} to {allowed[1]})")


@referee_checks(Damage, Heal)
def _check_amount(rs: Rules, state: State, cmd: Damage | Heal) -> Illegal | None:
    if cmd.amount < 0:
        return Illegal(RefereeReason.NEGATIVE_AMOUNT, "The amount must be zero or more")
    # a save file holds the amount, and the HP it leaves within the limits
    return _out_of(f"{cmd.target}.amount", cmd.amount, L.AMOUNT)


@referee_checks(SetStat)
def _check_stat(rs: Rules, state: State, cmd: SetStat) -> Illegal | None:
    if not _is_plain(cmd.value):
        # the value is saved with the step: it must be what a file can hold
        return Illegal(RefereeReason.BAD_VALUE, f"{cmd.value!r:.60} cannot be a stat (a number, text, true/false "
                                                f"or a list)")
    # The stat is held to the range a save file of the setup is: OLOG level 40
    # is refused here, not only when the file is opened.
    problems = stat_problems(cmd.key, cmd.value, rs.stats(), f"{cmd.target}.stats",
                             len({**state.get(cmd.target).stats, cmd.key: None}) if state.has(cmd.target) else 1)
    if problems:
        return Illegal(RefereeReason.BAD_VALUE, problems[0])
    return None


@referee_checks(SetHp)
def _check_hp(rs: Rules, state: State, cmd: SetHp) -> Illegal | None:
    return _out_of(f"{cmd.target}.hp", cmd.hp, L.HP)


@referee_checks(FreeRoll)
def _check_roll(rs: Rules, state: State, cmd: FreeRoll) -> Illegal | None:
    try:
        DiceExpr.parse(cmd.expr)
    except DiceError as exc:
        return Illegal(RefereeReason.BAD_DICE, str(exc))
    return None


@referee_checks(Place)
def _check_place(rs: Rules, state: State, cmd: Place) -> Illegal | None:
    if cmd.square is None and cmd.band is None:
        return Illegal(RefereeReason.NOWHERE, f"Say where to place {state.name(cmd.target)}: a zone or a square")
    if cmd.square is not None:
        m = state.encounter.map
        x, y = cmd.square
        if not (0 <= x < m.width and 0 <= y < m.height):
            return Illegal(RefereeReason.OFF_MAP, f"Square {cmd.square} is off the map")
        if cmd.square in m.walls:
            return Illegal(Reason.WALL, f"Square {cmd.square} is a wall")
        for o in state.combatants:
            if o.id != cmd.target and o.square == cmd.square and not o.is_down:
                return Illegal(Reason.OCCUPIED, f"{o.name} already stands on that square")
    if cmd.band is not None and not 0 <= cmd.band < state.encounter.bands:
        return Illegal(RefereeReason.OFF_FIELD, f"Zone {cmd.band + 1} does not exist")
    return None


@referee_checks(Allow)
def _check_allow(rs: Rules, state: State, cmd: Allow) -> Illegal | None:
    inner = cmd.command
    if isinstance(inner, Allow):
        return Illegal(RefereeReason.NESTED_ALLOW, "Allow an action, not another override")
    # Allow skips the rules, not the facts: a referee command keeps its
    # own checks, and an action must be one of this system's and name
    # combatants that exist (else its resolution raised KeyError).
    if isinstance(inner, REFEREE_COMMANDS):
        return check_referee(rs, state, inner)
    if inner.namespace not in rs.namespaces():
        return Illegal(Reason.UNKNOWN_COMMAND, f"{inner.type_name} is not an action of {rs.title}")
    for name in ("actor", "target"):
        who = getattr(inner, name, None)
        if isinstance(who, str) and who and not state.has(who):
            return Illegal(Reason.NO_SUCH_COMBATANT, f"There is no combatant {who!r}")
    return None


@referee_resolves(SetHp)
def _set_hp(rs: Rules, state: State, cmd: SetHp, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.target)
    state = state.update(cmd.target, hp=cmd.hp)
    events.append(Event("HpSet", f"Referee sets {c.name} to {cmd.hp}/{c.max_hp} HP", rule="CORE-REF-1",
                        target=cmd.target))
    if cmd.hp <= 0 and not c.is_down:
        events.append(Event("CombatantDown", f"{c.name} is down", rule="CORE-HP-1", target=cmd.target))
    elif cmd.hp > 0 and c.is_down:
        events.append(Event("CombatantUp", f"{c.name} is back up", rule="CORE-HP-1", target=cmd.target))
    return state


@referee_resolves(Damage)
def _damage(rs: Rules, state: State, cmd: Damage, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.target)
    note = f" ({cmd.note})" if cmd.note else ""
    state = rs.damage(state, cmd.target, cmd.amount, events, rule="CORE-REF-1",
                      text=f"{c.name} takes {cmd.amount} damage{note} ({c.hp - cmd.amount}/{c.max_hp} HP)")
    if cmd.amount == 0:  # CORE-REF-1: every override is logged, even a no-op
        events.append(Event("DamageTaken", f"{c.name} takes no damage{note} ({c.hp}/{c.max_hp} HP)",
                            rule="CORE-REF-1", target=cmd.target, data={"amount": 0}))
    return state


@referee_resolves(Heal)
def heal(rs: Rules, state: State, cmd: Heal, dice: Dice, events: list[Event]) -> State:
    """Hit points back, up to the maximum, logged (the referee's Heal, and an effect's healing)."""
    c = state.get(cmd.target)
    hp = min(c.max_hp, c.hp + cmd.amount)
    state = state.update(cmd.target, hp=hp)
    events.append(Event("Healed", f"{c.name} heals {hp - c.hp} ({hp}/{c.max_hp} HP)", rule="CORE-REF-1",
                        target=cmd.target))
    if c.is_down and hp > 0:
        events.append(Event("CombatantUp", f"{c.name} is back up", rule="CORE-HP-1", target=cmd.target))
    return state


@referee_resolves(Place)
def _place(rs: Rules, state: State, cmd: Place, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.target)
    changes: dict[str, Any] = {}
    if cmd.band is not None:
        changes["band"] = cmd.band
    if cmd.square is not None:
        changes["square"] = tuple(cmd.square)
    state = state.update(cmd.target, **changes)
    where = f"zone {cmd.band + 1}" if cmd.band is not None else f"square {cmd.square}"
    events.append(Event("Placed", f"Referee places {c.name} at {where}", rule="CORE-REF-1", target=cmd.target))
    return rs.moved(state, cmd.target, events)


@referee_resolves(SetStat)
def _set_stat(rs: Rules, state: State, cmd: SetStat, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.target)
    # a list is kept (and logged) as the tuple a save file's step loads back as
    value = tuple(cmd.value) if isinstance(cmd.value, list) else cmd.value
    shown = ", ".join(map(str, value)) if isinstance(value, tuple) else value
    events.append(Event("StatSet", f"Referee sets {c.name}'s {cmd.key} to {shown}", rule="CORE-REF-1",
                        target=cmd.target))
    return state.update(cmd.target, stats={**c.stats, cmd.key: value})


@referee_resolves(Allow)
def _allow(rs: Rules, state: State, cmd: Allow, dice: Dice, events: list[Event]) -> State:
    inner_state, inner = rs.resolve(state, cmd.command, dice)
    events.append(Event("Overridden", f"Referee allows: {cmd.command.label()}", rule="CORE-REF-1"))
    events.extend(inner)
    return inner_state


@referee_resolves(FreeRoll)
def _free_roll(rs: Rules, state: State, cmd: FreeRoll, dice: Dice, events: list[Event]) -> State:
    roll = dice.roll(cmd.expr, cmd.purpose or "free roll")
    what = f" for {cmd.purpose}" if cmd.purpose else ""
    events.append(Event("Rolled", f"Rolled {roll.describe()}{what}", rule="CORE-DICE-3", rolls=(roll,)))
    return state


@referee_resolves(Note)
def _note(rs: Rules, state: State, cmd: Note, dice: Dice, events: list[Event]) -> State:
    events.append(Event("Noted", cmd.text, rule="CORE-REF-1"))
    return state


@referee_resolves(SetWalls)
def _set_walls(rs: Rules, state: State, cmd: SetWalls, dice: Dice, events: list[Event]) -> State:
    enc = state.encounter
    walls = (enc.map.walls | {tuple(sq) for sq in cmd.add}) - {tuple(sq) for sq in cmd.remove}
    parts = []
    if cmd.add:
        parts.append(f"draws {len(cmd.add)} wall square{'s' if len(cmd.add) != 1 else ''}")
    if cmd.remove:
        parts.append(f"erases {len(cmd.remove)}")
    events.append(Event("WallsChanged", "Referee " + " and ".join(parts), rule="CORE-REF-1",
                        data={"add": [list(s) for s in cmd.add], "remove": [list(s) for s in cmd.remove]}))
    return replace(state, encounter=replace(enc, map=replace(enc.map, walls=frozenset(walls))))
