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

from .commands import Command, Event, Illegal, Option, command
from .dice import Dice, DiceError, DiceExpr
from .model import Encounter, Square
from .state import State

Resolution = tuple[State, list[Event]]


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
    field_view = "none"  # "bands" | "grid" | "list": which field view the page shows

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
        """The field view a profile plays on (OSE loose has no grid)."""
        return self.field_view

    def extra_views(self, profile: str) -> tuple[str, ...]:
        """More views the page shows with the field, by name (e.g. Ogre's "ruler")."""
        return ()

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
        return Illegal("UNKNOWN_COMMAND", f"{cmd.type_name} is not an action of {self.title}")

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
        target = getattr(cmd, "target", None)
        if target is not None and not state.has(target):
            return Illegal("NO_SUCH_COMBATANT", f"There is no combatant {target!r}")
        if isinstance(cmd, (Damage, Heal)) and cmd.amount < 0:
            return Illegal("NEGATIVE_AMOUNT", "The amount must be zero or more")
        if isinstance(cmd, SetStat) and not _is_plain(cmd.value):
            # the value is saved with the step: it must be what a file can hold
            return Illegal("BAD_VALUE", f"{cmd.value!r:.60} cannot be a stat (a number, text, true/false or a list)")
        if isinstance(cmd, SetHp) and abs(cmd.hp) > 100000:
            return Illegal("OUT_OF_RANGE", f"{cmd.hp} HP is out of range")
        if isinstance(cmd, FreeRoll):
            try:
                DiceExpr.parse(cmd.expr)
            except DiceError as exc:
                return Illegal("BAD_DICE", str(exc))
        if isinstance(cmd, Place):
            if cmd.square is None and cmd.band is None:
                return Illegal("NOWHERE", f"Say where to place {state.name(cmd.target)}: a zone or a square")
            if cmd.square is not None:
                m = state.encounter.map
                x, y = cmd.square
                if not (0 <= x < m.width and 0 <= y < m.height):
                    return Illegal("OFF_MAP", f"Square {cmd.square} is off the map")
                if cmd.square in m.walls:
                    return Illegal("WALL", f"Square {cmd.square} is a wall")
                for o in state.combatants:
                    if o.id != cmd.target and o.square == cmd.square and not o.is_down:
                        return Illegal("OCCUPIED", f"{o.name} already stands on that square")
            if cmd.band is not None and not 0 <= cmd.band < state.encounter.bands:
                return Illegal("OFF_FIELD", f"Zone {cmd.band + 1} does not exist")
        if isinstance(cmd, Allow):
            inner = cmd.command
            if isinstance(inner, Allow):
                return Illegal("NESTED_ALLOW", "Allow an action, not another override")
            # Allow skips the rules, not the facts: a referee command keeps its
            # own checks, and an action must be one of this system's and name
            # combatants that exist (else its resolution raised KeyError).
            if isinstance(inner, REFEREE_COMMANDS):
                return self.check_referee(state, inner)
            if inner.namespace not in self.namespaces():
                return Illegal("UNKNOWN_COMMAND", f"{inner.type_name} is not an action of {self.title}")
            for name in ("actor", "target"):
                who = getattr(inner, name, None)
                if isinstance(who, str) and who and not state.has(who):
                    return Illegal("NO_SUCH_COMBATANT", f"There is no combatant {who!r}")
        return None

    def resolve_referee(self, state: State, cmd: Command, dice: Dice) -> Resolution:
        events: list[Event] = []
        if isinstance(cmd, SetHp):
            c = state.get(cmd.target)
            was_down = c.is_down
            state = state.update(cmd.target, hp=cmd.hp)
            events.append(Event("HpSet", f"Referee sets {c.name} to {cmd.hp}/{c.max_hp} HP",
                                rule="CORE-REF-1", target=cmd.target))
            if cmd.hp <= 0 and not was_down:
                events.append(Event("CombatantDown", f"{c.name} is down", rule="CORE-HP-1", target=cmd.target))
            elif cmd.hp > 0 and was_down:
                events.append(Event("CombatantUp", f"{c.name} is back up", rule="CORE-HP-1", target=cmd.target))
        elif isinstance(cmd, Damage):
            c = state.get(cmd.target)
            note = f" ({cmd.note})" if cmd.note else ""
            state = self.damage(state, cmd.target, cmd.amount, events, rule="CORE-REF-1",
                                text=f"{c.name} takes {cmd.amount} damage{note} "
                                     f"({c.hp - cmd.amount}/{c.max_hp} HP)")
            if cmd.amount == 0:  # CORE-REF-1: every override is logged, even a no-op
                events.append(Event("DamageTaken", f"{c.name} takes no damage{note} ({c.hp}/{c.max_hp} HP)",
                                    rule="CORE-REF-1", target=cmd.target, data={"amount": 0}))
        elif isinstance(cmd, Heal):
            c = state.get(cmd.target)
            hp = min(c.max_hp, c.hp + cmd.amount)
            state = state.update(cmd.target, hp=hp)
            events.append(Event("Healed", f"{c.name} heals {hp - c.hp} ({hp}/{c.max_hp} HP)",
                                rule="CORE-REF-1", target=cmd.target))
            if c.is_down and hp > 0:
                events.append(Event("CombatantUp", f"{c.name} is back up", rule="CORE-HP-1", target=cmd.target))
        elif isinstance(cmd, Place):
            c = state.get(cmd.target)
            changes: dict[str, Any] = {}
            if cmd.band is not None:
                changes["band"] = cmd.band
            if cmd.square is not None:
                changes["square"] = tuple(cmd.square)
            state = state.update(cmd.target, **changes)
            where = f"zone {cmd.band + 1}" if cmd.band is not None else f"square {cmd.square}"
            events.append(Event("Placed", f"Referee places {c.name} at {where}", rule="CORE-REF-1",
                                target=cmd.target))
            state = self.moved(state, cmd.target, events)
        elif isinstance(cmd, SetStat):
            c = state.get(cmd.target)
            state = state.update(cmd.target, stats={**c.stats, cmd.key: cmd.value})
            events.append(Event("StatSet", f"Referee sets {c.name}'s {cmd.key} to {cmd.value}",
                                rule="CORE-REF-1", target=cmd.target))
        elif isinstance(cmd, SetCondition):
            c = state.get(cmd.target)
            new = c.with_condition(cmd.condition) if cmd.on else c.without_condition(cmd.condition)
            state = state.with_combatant(new)
            verb = "now" if cmd.on else "no longer"
            events.append(Event("ConditionSet", f"{c.name} is {verb} {cmd.condition}", rule="CORE-REF-1",
                                target=cmd.target))
        elif isinstance(cmd, Allow):
            inner_state, inner = self.resolve(state, cmd.command, dice)
            events.append(Event("Overridden", f"Referee allows: {cmd.command.label()}", rule="CORE-REF-1"))
            events.extend(inner)
            state = inner_state
        elif isinstance(cmd, FreeRoll):
            roll = dice.roll(cmd.expr, cmd.purpose or "free roll")
            what = f" for {cmd.purpose}" if cmd.purpose else ""
            events.append(Event("Rolled", f"Rolled {roll.describe()}{what}", rule="CORE-DICE-3", rolls=(roll,)))
        elif isinstance(cmd, Note):
            events.append(Event("Noted", cmd.text, rule="CORE-REF-1"))
        elif isinstance(cmd, SetWalls):
            enc = state.encounter
            walls = (enc.map.walls | {tuple(sq) for sq in cmd.add}) - {tuple(sq) for sq in cmd.remove}
            state = replace(state, encounter=replace(enc, map=replace(enc.map, walls=frozenset(walls))))
            parts = []
            if cmd.add:
                parts.append(f"draws {len(cmd.add)} wall square{'s' if len(cmd.add) != 1 else ''}")
            if cmd.remove:
                parts.append(f"erases {len(cmd.remove)}")
            events.append(Event("WallsChanged", "Referee " + " and ".join(parts), rule="CORE-REF-1",
                                data={"add": [list(s) for s in cmd.add], "remove": [list(s) for s in cmd.remove]}))
        return state, events

    def referee_target_square(self, state: State, target: str) -> Square | None:
        return state.get(target).square
