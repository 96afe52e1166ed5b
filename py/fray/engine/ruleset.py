"""The ruleset protocol every system implements, and the referee's commands.

A ruleset is a stateless strategy: `begin`, `options`, `check`, `resolve`,
`outcome` (plus `current` for whose turn it is). The base class resolves the
referee's overrides (CORE-REF-1) and applies damage (CORE-HP-1) so every
system logs them alike; systems add their own consequences in `after_damage`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from .commands import Code, Command, Event, Illegal, Option, Reason, command
from .dice import Dice, DiceError, DiceExpr
from . import limits as L
from .model import Encounter, Square
from .state import State

Resolution = tuple[State, list[Event]]


class Handlers:
    """A dispatch table from command class to function, filled by decorators:

        checks = Handlers("check")
        @checks(Move, Charge)
        def check_move(state, cmd): ...

    `table.get(cmd)` is the function for the command's class (None if none),
    so a ruleset looks commands up instead of running an isinstance chain."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.table: dict[type, Any] = {}

    def __call__(self, *classes: type):
        def register(fn):
            for cls in classes:
                if cls in self.table:
                    raise ValueError(f"{self.name}: {cls.__name__} has two handlers")
                self.table[cls] = fn
            return fn
        return register

    def get(self, cmd: Any):
        return self.table.get(type(cmd))

    def __contains__(self, cls: type) -> bool:
        return cls in self.table


class Lookup:
    """The rulesets a loader or a session may use, by system name. The engine
    never imports a system: `fray.rules` builds the one registry and installs
    it here as the default (`install_default`) when it is imported, and a
    caller may always pass its own lookup."""

    def __init__(self, get, names) -> None:
        self._get = get
        self._names = names

    def names(self) -> tuple[str, ...]:
        return tuple(self._names())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()

    def __getitem__(self, name: str) -> "Ruleset":
        return self._get(name)


_DEFAULT: list[Lookup] = []


def install_default(lookup: Lookup) -> None:
    """Make `lookup` the rulesets used when a caller names none (fray.rules does this)."""
    _DEFAULT[:] = [lookup]


def default_lookup() -> Lookup:
    if not _DEFAULT:
        raise LookupError("no rulesets: import fray.rules, or pass a ruleset lookup")
    return _DEFAULT[0]


@dataclass(frozen=True)
class Setting:
    """A referee setting: every RULES.md DEFAULT is one, saved with the encounter."""

    key: str
    label: str
    default: Any
    kind: str = "int"  # "int" | "bool" | "choice" | "text" | "table"
    choices: tuple[str, ...] = ()
    rule: str = ""
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class StatSpec:
    """A per-combatant number or flag a system needs (OLOG level, OSE PHYS...)."""

    key: str
    label: str
    default: Any = 0
    kind: str = "int"  # "int" | "bool" | "text" | "dice" | "list"
    rule: str = ""
    minimum: int | None = -1000
    maximum: int | None = 1000


# --- referee commands (CORE-REF-1) -------------------------------------------

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


REFEREE_COMMANDS = (SetHp, Damage, Heal, Place, SetStat, SetCondition, Allow, FreeRoll, Note, SetWalls)


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


class Ruleset:
    """Base class of the systems. Subclasses set `name`, `title` and override
    the hooks; the session owns history, the ruleset owns meaning."""

    name = "base"
    title = "Base"
    profiles: tuple[str, ...] = ("",)
    field_view = "none"  # a ruleset with no SystemInfo (tests): the field view the page shows

    # --- description ----------------------------------------------------
    def settings(self) -> tuple[Setting, ...]:
        return ()

    def stats(self) -> tuple[StatSpec, ...]:
        return ()

    def default_settings(self) -> dict[str, Any]:
        return {s.key: s.default for s in self.settings()}

    def namespaces(self) -> tuple[str, ...]:
        return (self.name, "core")

    def field_view_for(self, profile: str) -> str:
        """The field view a profile plays on (OSE loose has no grid): the
        system's SystemInfo (`info`, set by fray.rules) says, else `field_view`."""
        info = getattr(self, "info", None)
        return info.field_view(profile) if info is not None else self.field_view

    def extra_views(self, profile: str) -> tuple[str, ...]:
        """More views the page shows with the field, by name (e.g. Ogre's "ruler")."""
        info = getattr(self, "info", None)
        return info.extra_views if info is not None else ()

    # --- hooks the views and the page ask, so generic code never names a system ---
    def phase(self, state: State) -> Any:
        """Where the fight is: the system's own phase enum (None: just fighting)."""
        return None

    def where(self, state: State) -> dict[str, Any]:
        """"Where are we", in plain values a caller can read without the
        system's records: the round, the phase, whoever acts now, and each
        system's own place (OSE's acting side and step, Ogre's segment)."""
        phase = self.phase(state)
        return {"round": state.round, "phase": str(phase) if phase is not None else "",
                "acting": self.current(state)}

    @property
    def grid_rules(self) -> dict[str, str]:
        """The rule ids the grid view cites: {"aoo", "threat", "withdraw"} -> id."""
        return {}

    def suggest_paths(self, state: State, actor: str, command: Command | None = None) -> list:
        """Ready-made grid paths for an actor, (kind, label, path) each; for a command that
        needs a path, only paths it can take (playout, conformance tests, the preview)."""
        return []

    # --- the protocol ------------------------------------------------------
    def begin(self, encounter: Encounter) -> State:
        """The state before the first command."""
        return State(encounter=encounter, combatants=encounter.combatants)

    def options(self, state: State, actor: str) -> list[Option]:
        """Every action the actor might take now, disallowed ones with `why`."""
        return []

    def current(self, state: State) -> tuple[str, ...]:
        """The combatants who act now (highlighted everywhere)."""
        return ()

    def check(self, state: State, cmd: Command) -> Illegal | None:
        """The first rule the command breaks, broad to narrow; None if legal."""
        if isinstance(cmd, REFEREE_COMMANDS):
            return self.check_referee(state, cmd)
        return Illegal(Reason.UNKNOWN_COMMAND, f"{cmd.type_name} is not an action of {self.title}")

    def resolve(self, state: State, cmd: Command, dice: Dice) -> Resolution:
        """The new state and the events; never mutates `state`."""
        if isinstance(cmd, REFEREE_COMMANDS):
            return self.resolve_referee(state, cmd, dice)
        raise NotImplementedError(cmd.type_name)

    def outcome(self, state: State) -> str:
        """A sentence when the fight is decided ("The Party wins"), else ""."""
        standing_sides = {c.side for c in state.combatants if not c.is_down}
        if len(standing_sides) <= 1 and state.combatants:
            if not standing_sides:
                return "Everyone is down"
            side = state.encounter.side(next(iter(standing_sides)))
            return f"{side.name if side else next(iter(standing_sides))} stands alone"
        hostile_pairs = any(state.hostile(a, b) for a in standing_sides for b in standing_sides)
        return "" if hostile_pairs else "No hostile sides remain standing"

    # --- damage (CORE-HP-1), shared by every system ------------------------
    def damage(self, state: State, target: str, amount: int, events: list[Event], *,
               source: str = "", rule: str = "", text: str = "") -> State:
        """Lower HP; log it, and a fall to 0; then the system's after_damage."""
        c = state.get(target)
        if amount <= 0:
            return state
        was_down = c.is_down
        new = replace(c, hp=c.hp - amount)
        state = state.with_combatant(new)
        events.append(Event("DamageTaken", text or f"{c.name} takes {amount} damage ({new.hp}/{new.max_hp} HP)",
                            rule=rule or "CORE-HP-1", actor=source, target=target, data={"amount": amount}))
        if new.is_down and not was_down:
            events.append(Event("CombatantDown", f"{c.name} is down", rule="CORE-HP-1", target=target))
        return self.after_damage(state, target, amount, events, source=source)

    def after_damage(self, state: State, target: str, amount: int, events: list[Event], *,
                     source: str = "") -> State:
        """System hook: what damage does beyond HP (a spell lost, a count...)."""
        return state

    def bodies(self, state: State) -> list:
        """The grid's view of every placed creature (engine.geometry.Body):
        who threatens and how far. Grid systems refine it (flat-footed, pinned)."""
        from .geometry import body_of
        return [b for c in state.combatants if (b := body_of(c)) is not None]

    def move_allowance(self, state: State, actor: str, cmd: Command) -> int | None:
        """Feet the actor may still move with this command (the grid's path
        preview compares against it); None when the system does not say."""
        return None

    def moved(self, state: State, target: str, events: list[Event]) -> State:
        """System hook after the referee places a token."""
        return state

    # --- referee overrides (CORE-REF-1) --------------------------------------
    def check_referee(self, state: State, cmd: Command) -> Illegal | None:
        """A referee command's facts: the target exists, and the command's own `referee_checks`."""
        target = getattr(cmd, "target", None)
        if target is not None and not state.has(target):
            return Illegal(Reason.NO_SUCH_COMBATANT, f"There is no combatant {target!r}")
        fn = referee_checks.get(cmd)
        return fn(self, state, cmd) if fn is not None else None

    def resolve_referee(self, state: State, cmd: Command, dice: Dice) -> Resolution:
        """The referee command's `referee_resolves` entry; every one is logged (CORE-REF-1)."""
        events: list[Event] = []
        state = referee_resolves.table[type(cmd)](self, state, cmd, dice, events)
        return state, events

    def referee_target_square(self, state: State, target: str) -> Square | None:
        return state.get(target).square


# --- the referee commands' checks and resolutions (CORE-REF-1) ---------------------------------

referee_checks = Handlers("referee check")  # (ruleset, state, cmd) -> Illegal | None
referee_resolves = Handlers("referee resolve")  # (ruleset, state, cmd, dice, events) -> State


def _out_of(path: str, value: int, allowed: tuple[int, int]) -> Illegal | None:
    """The loader's message for a number outside its limit (engine/limits.py)."""
    if allowed[0] <= value <= allowed[1]:
        return None
    return Illegal(Reason.OUT_OF_RANGE, f"{path}: {value} is out of range ({allowed[0]} to {allowed[1]})")


@referee_checks(Damage, Heal)
def _check_amount(rs: Ruleset, state: State, cmd: Damage | Heal) -> Illegal | None:
    if cmd.amount < 0:
        return Illegal(RefereeReason.NEGATIVE_AMOUNT, "The amount must be zero or more")
    # a save file holds the amount, and the HP it leaves within the limits
    return _out_of(f"{cmd.target}.amount", cmd.amount, L.AMOUNT)


@referee_checks(SetStat)
def _check_stat(rs: Ruleset, state: State, cmd: SetStat) -> Illegal | None:
    if not _is_plain(cmd.value):
        # the value is saved with the step: it must be what a file can hold
        return Illegal(RefereeReason.BAD_VALUE, f"{cmd.value!r:.60} cannot be a stat (a number, text, true/false "
                                                f"or a list)")
    # The stat is held to the range a save file of the setup is (issue 13:
    # OLOG level 40 is refused here, not only when the file is opened).
    from .encounter_io import stat_problems  # encounter_io imports this module
    problems = stat_problems(cmd.key, cmd.value, rs.stats(), f"{cmd.target}.stats",
                             len({**state.get(cmd.target).stats, cmd.key: None}) if state.has(cmd.target) else 1)
    if problems:
        return Illegal(RefereeReason.BAD_VALUE, problems[0])
    return None


@referee_checks(SetHp)
def _check_hp(rs: Ruleset, state: State, cmd: SetHp) -> Illegal | None:
    return _out_of(f"{cmd.target}.hp", cmd.hp, L.HP)


@referee_checks(SetCondition)
def _check_condition(rs: Ruleset, state: State, cmd: SetCondition) -> Illegal | None:
    if not cmd.on:
        return None
    if not cmd.condition or len(cmd.condition) > L.CONDITION_TEXT:
        return Illegal(RefereeReason.BAD_VALUE, f"{cmd.target}.conditions: expected text of 1 to "
                                                f"{L.CONDITION_TEXT} characters")
    c = state.get(cmd.target) if state.has(cmd.target) else None
    if c is not None and cmd.condition not in c.conditions and len(c.conditions) >= L.MAX_CONDITIONS:
        return Illegal(RefereeReason.BAD_VALUE, f"{cmd.target}.conditions: too many items "
                                                f"({len(c.conditions) + 1}, at most {L.MAX_CONDITIONS})")
    return None


@referee_checks(FreeRoll)
def _check_roll(rs: Ruleset, state: State, cmd: FreeRoll) -> Illegal | None:
    try:
        DiceExpr.parse(cmd.expr)
    except DiceError as exc:
        return Illegal(RefereeReason.BAD_DICE, str(exc))
    return None


@referee_checks(Place)
def _check_place(rs: Ruleset, state: State, cmd: Place) -> Illegal | None:
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
def _check_allow(rs: Ruleset, state: State, cmd: Allow) -> Illegal | None:
    inner = cmd.command
    if isinstance(inner, Allow):
        return Illegal(RefereeReason.NESTED_ALLOW, "Allow an action, not another override")
    # Allow skips the rules, not the facts: a referee command keeps its
    # own checks, and an action must be one of this system's and name
    # combatants that exist (else its resolution raised KeyError).
    if isinstance(inner, REFEREE_COMMANDS):
        return rs.check_referee(state, inner)
    if inner.namespace not in rs.namespaces():
        return Illegal(Reason.UNKNOWN_COMMAND, f"{inner.type_name} is not an action of {rs.title}")
    for name in ("actor", "target"):
        who = getattr(inner, name, None)
        if isinstance(who, str) and who and not state.has(who):
            return Illegal(Reason.NO_SUCH_COMBATANT, f"There is no combatant {who!r}")
    return None


@referee_resolves(SetHp)
def _set_hp(rs: Ruleset, state: State, cmd: SetHp, dice: Dice, events: list[Event]) -> State:
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
def _damage(rs: Ruleset, state: State, cmd: Damage, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.target)
    note = f" ({cmd.note})" if cmd.note else ""
    state = rs.damage(state, cmd.target, cmd.amount, events, rule="CORE-REF-1",
                      text=f"{c.name} takes {cmd.amount} damage{note} ({c.hp - cmd.amount}/{c.max_hp} HP)")
    if cmd.amount == 0:  # CORE-REF-1: every override is logged, even a no-op
        events.append(Event("DamageTaken", f"{c.name} takes no damage{note} ({c.hp}/{c.max_hp} HP)",
                            rule="CORE-REF-1", target=cmd.target, data={"amount": 0}))
    return state


@referee_resolves(Heal)
def _heal(rs: Ruleset, state: State, cmd: Heal, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.target)
    hp = min(c.max_hp, c.hp + cmd.amount)
    state = state.update(cmd.target, hp=hp)
    events.append(Event("Healed", f"{c.name} heals {hp - c.hp} ({hp}/{c.max_hp} HP)", rule="CORE-REF-1",
                        target=cmd.target))
    if c.is_down and hp > 0:
        events.append(Event("CombatantUp", f"{c.name} is back up", rule="CORE-HP-1", target=cmd.target))
    return state


@referee_resolves(Place)
def _place(rs: Ruleset, state: State, cmd: Place, dice: Dice, events: list[Event]) -> State:
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
def _set_stat(rs: Ruleset, state: State, cmd: SetStat, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.target)
    # a list is kept (and logged) as the tuple a save file's step loads back as
    value = tuple(cmd.value) if isinstance(cmd.value, list) else cmd.value
    shown = ", ".join(map(str, value)) if isinstance(value, tuple) else value
    events.append(Event("StatSet", f"Referee sets {c.name}'s {cmd.key} to {shown}", rule="CORE-REF-1",
                        target=cmd.target))
    return state.update(cmd.target, stats={**c.stats, cmd.key: value})


@referee_resolves(SetCondition)
def _set_condition(rs: Ruleset, state: State, cmd: SetCondition, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.target)
    new = c.with_condition(cmd.condition) if cmd.on else c.without_condition(cmd.condition)
    verb = "now" if cmd.on else "no longer"
    events.append(Event("ConditionSet", f"{c.name} is {verb} {cmd.condition}", rule="CORE-REF-1",
                        target=cmd.target))
    return state.with_combatant(new)


@referee_resolves(Allow)
def _allow(rs: Ruleset, state: State, cmd: Allow, dice: Dice, events: list[Event]) -> State:
    inner_state, inner = rs.resolve(state, cmd.command, dice)
    events.append(Event("Overridden", f"Referee allows: {cmd.command.label()}", rule="CORE-REF-1"))
    events.extend(inner)
    return inner_state


@referee_resolves(FreeRoll)
def _free_roll(rs: Ruleset, state: State, cmd: FreeRoll, dice: Dice, events: list[Event]) -> State:
    roll = dice.roll(cmd.expr, cmd.purpose or "free roll")
    what = f" for {cmd.purpose}" if cmd.purpose else ""
    events.append(Event("Rolled", f"Rolled {roll.describe()}{what}", rule="CORE-DICE-3", rolls=(roll,)))
    return state


@referee_resolves(Note)
def _note(rs: Ruleset, state: State, cmd: Note, dice: Dice, events: list[Event]) -> State:
    events.append(Event("Noted", cmd.text, rule="CORE-REF-1"))
    return state


@referee_resolves(SetWalls)
def _set_walls(rs: Ruleset, state: State, cmd: SetWalls, dice: Dice, events: list[Event]) -> State:
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
