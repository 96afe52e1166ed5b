"""The ruleset protocol every system implements: the template of `check` and `resolve`, and the lookup.

A ruleset is a stateless strategy: `begin`, `options`, `check`, `resolve`,
`outcome` (plus `current` for whose turn it is). The base class routes every
command the same way (referee commands first, then the system's tables and
one `settle` hook), resolves the referee's overrides (CORE-REF-1, in
engine/referee.py) and applies damage (CORE-HP-1) so every system logs them
alike; systems add their own consequences in `after_damage`.
"""
from __future__ import annotations

from dataclasses import replace
import re
from typing import Any, Callable

from .clock import Clock
from .commands import Command, Event, Illegal, Option, Reason
from .conditions import LIBRARY, Named, condition_refusal, immobile, incapacitating
from .dice import Dice
from .grid_rules import GridRules
from .model import Encounter, Square
from .referee import REFEREE_COMMANDS, Allow, Expire, check_referee, override_failed, resolve_referee
from .referee_effects import due_timers
from .specs import CORE_SETTINGS, Setting, StatSpec
from .state import State, evolve
from .tables import Handlers

Resolution = tuple[State, list[Event]]
ANSWERS_FOLLOWED = 12  # questions a command's odds answer by default, at most (a path past many threateners)

# What a resolution raises when an allowed command has nothing to act on (CORE-REF-1).
CANNOT_APPLY = (KeyError, ValueError, TypeError, AttributeError, IndexError)


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




_UNITS = {"s": "second", "sec": "second", "secs": "second", "second": "second", "seconds": "second",
          "m": "minute", "min": "minute", "mins": "minute", "minute": "minute", "minutes": "minute"}


def parse_duration(rs: "Ruleset", state: State, text: str) -> int:
    """Ruleset.duration: ticks of `rs`'s clock in a typed duration, or ValueError saying why not. Minutes and
    seconds go through the same round length (CORE-TIME-1): "1 min" and "60 s" last the same."""
    raw = " ".join(str(text).split()).lower()
    if not raw:
        return 0
    unit_word = rs.clock.unit
    per_minute = rs.clock.minute_ticks(state)
    units = f'{unit_word}s, minutes ("2 min") or seconds' if per_minute else f"{unit_word}s"
    m = re.fullmatch(r"(\d{1,6}(?:\.\d+)?)\s*([a-z]*)", raw)
    if m is None:
        raise ValueError(f'"{str(text)[:20]}" is not a duration: a whole number of {units}')
    number, unit = float(m.group(1)), m.group(2)
    if unit in ("", unit_word, unit_word + "s", unit_word[:3], unit_word[:3] + "s", "rd" * (unit_word == "round")):
        ticks = number
    elif unit in _UNITS and not per_minute:
        raise ValueError(f"{rs.title} gives a {unit_word} no length in {_UNITS[unit]}s: "
                         f"say the duration in {unit_word}s")
    elif _UNITS.get(unit) == "minute":
        ticks = number * per_minute
    elif _UNITS.get(unit) == "second":
        ticks = number * per_minute / 60
    else:
        raise ValueError(f'"{unit}" is not a unit of the clock of {rs.title}: {units}')
    if abs(ticks - round(ticks)) > 1e-9:
        each = f" ({60 / per_minute:g} s each)" if per_minute else ""
        raise ValueError(f"{str(text)[:20]} is not a whole number of {unit_word}s{each}")
    return int(round(ticks))


def stopped(rs: "Ruleset", state: State, cmd: Command | None = None) -> Illegal | None:
    """Why no action of the system (or not `cmd`) can be taken now: the fight cannot start yet (`unready`), or
    it is over: once one side stands alone nothing is asked of anyone but what the system does `afterwards`
    (OSE's usage die); the referee may still undo, or go on by an override."""
    waiting = rs.unready(state)
    if waiting:
        return Illegal(Reason.NOT_STARTED, waiting)
    if state.outcome and not isinstance(cmd, rs.afterwards):
        return Illegal(Reason.FIGHT_OVER, f"The fight is over: {state.outcome}")
    return None


def side_says(name: str, singular: str, plural: str) -> str:
    """"The Party stands alone", "Foes stand alone": the verb agrees with a side's name as written (its head
    word, the last before any "of", ending in -s, not -ss, -us or -is, is read as plural)."""
    last = (name.lower().split(" of ")[0].split() or [""])[-1]
    return f"{name} {plural if last.endswith('s') and not last.endswith(('ss', 'us', 'is')) else singular}"


class Ruleset:
    """Base class of the systems, and the template every command goes through.

    A system declares its tables and hooks: `setting_specs`, `stat_specs`, `checks` (its check of its own
    commands), `resolves` (its resolve table), `settle` (what follows any command), `cannot_apply` (why an
    allowed command means nothing now). `check` and `resolve` below are the same for every system: the
    session owns history, the ruleset owns meaning."""

    name = "base"
    title = "Base"
    profiles: tuple[str, ...] = ("",)
    # The system's descriptor (fray/rules/<name>/system.py: its names, lines and views), which the system
    # sets and the registry gives a ruleset registered by hand; the engine never reads it.
    info: Any = None

    # --- what a system declares ---------------------------------------------
    setting_specs: tuple[Setting, ...] = ()  # every DEFAULT of the system, with its rule id
    stat_specs: tuple[StatSpec, ...] = ()  # per-combatant numbers the editor shows
    checks: Callable[[State, Command], Illegal | None] | None = None  # the system's check of its own commands
    passes: tuple[type, ...] = ()  # the commands a combatant that can take no action may still give
    moves: tuple[type, ...] = ()  # the commands that move the actor (refused while it is entangled)
    afterwards: tuple[type, ...] = ()  # the commands still given once the fight is over (OSE's usage die)
    own_conditions: tuple[Named, ...] = ()  # the condition words this system's rules act on, for the library
    resolves: Handlers | None = None  # the system's resolve table: (ruleset, state, cmd, dice, events) -> State

    def settle(self, state: State, cmd: Command, dice: Dice, events: list[Event]) -> State:
        """System hook after any command, the referee's too (a down actor's turn passes...)."""
        return state

    def follow_up(self, state: State) -> Command | None:
        """The step the app takes by itself after a step, chained to it (`chained()` is True): the
        timed conditions whose time is up end (`Expire`), else the system's `after_step`."""
        if state.timers and due_timers(self, state):
            return Expire()
        return self.after_step(state)

    def after_step(self, state: State) -> Command | None:
        """System hook: a step the rules take by themselves when they leave nothing to decide before it
        (Ogre counting on to the next event). Default: none."""
        return None

    # The ticks a timed condition lasts (engine/clock.py): rounds unless the system declares its own.
    clock: Clock = Clock()
    # The grid's queries (engine/grid_rules.py) of a system with a tactical grid; None: it has no grid.
    grid: GridRules | None = None

    def duration(self, state: State, text: str) -> int:  # "3", "3 rounds", "2 min", "10 s" in ticks; ValueError
        return parse_duration(self, state, text)

    def cannot_apply(self, state: State, cmd: Command) -> str:
        """System hook: why a command the referee allows cannot mean anything now
        (a zone or weapon that does not exist...), or "" (CORE-REF-1)."""
        return ""

    def upgrade(self, doc: dict[str, Any]) -> dict[str, Any]:
        """System hook: a save file (the whole parsed document) written before a
        change to this system's stats or commands, rewritten in today's words
        before it is checked (the loader calls it; the result must still pass
        every check). Default: unchanged. Must not raise on a malformed doc."""
        return doc

    # --- description ----------------------------------------------------
    def settings(self) -> tuple[Setting, ...]:
        return self.setting_specs + CORE_SETTINGS

    def stats(self) -> tuple[StatSpec, ...]:
        return self.stat_specs

    def default_settings(self) -> dict[str, Any]:
        return {s.key: s.default for s in self.settings()}

    def namespaces(self) -> tuple[str, ...]:
        return (self.name, "core")

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
        """The first rule the command breaks, broad to narrow; None if legal:
        a referee command's facts, else the system's `checks`."""
        if isinstance(cmd, REFEREE_COMMANDS):
            return check_referee(self, state, cmd)
        if type(cmd).namespace != self.name or self.checks is None:
            return Illegal(Reason.UNKNOWN_COMMAND, f"{cmd.type_name} is not an action of {self.title}")
        stop = stopped(self, state, cmd)
        if stop is not None:
            return stop
        return self.incapacitated(state, cmd) or self.checks(state, cmd)

    def unready(self, state: State) -> str:
        """Why the fight cannot start yet, else "": it needs a combatant on each of two sides. A setup may
        hold fewer (a new encounter is empty until the party and foes are added); no action of the system
        is taken, and no side has won, until it does."""
        if len({c.side for c in state.combatants}) >= 2:
            return ""
        if not state.combatants:
            return "No combatants yet: add them in Setup (the fight starts with someone on each of two sides)"
        return "The fight starts when two sides each have a combatant: add their foes in Setup"

    def decided(self, state: State) -> str:
        """The outcome the session records: none before the fight can start (`unready`), else `outcome`."""
        return "" if self.unready(state) else self.outcome(state)

    def held_options(self, state: State, actor: str, options: list[Option]) -> list[Option]:
        """The options of a combatant that can take no action (`incapacitated`): all but its passes, its
        answers and the referee's refused, with the reason. Before the fight can start (`unready`), every
        option but the referee's is refused with the reason."""
        if stopped(self, state) is not None:
            return [o if not o.allowed or o.command is None or isinstance(o.command, REFEREE_COMMANDS)
                    or (stop := stopped(self, state, o.command)) is None
                    else replace(o, allowed=False, why=stop.detail, reason=stop.reason.value) for o in options]
        c = state.find(actor)
        if c is None or not c.conditions or not (incapacitating(c) or immobile(c)):
            return options
        out = []
        for o in options:
            illegal = self.incapacitated(state, o.command) if o.allowed and o.command is not None \
                and not isinstance(o.command, REFEREE_COMMANDS) else None
            out.append(o if illegal is None else replace(o, allowed=False, why=illegal.detail,
                                                          reason=illegal.reason.value))
        return out

    def incapacitated(self, state: State, cmd: Command) -> Illegal | None:
        """A combatant whose condition allows no action (INCAPACITATING: asleep, held, helpless...) may only
        pass (the system's `passes`) or answer what it is asked; the referee's Allow still overrides."""
        actor = getattr(cmd, "actor", "")
        if not actor or isinstance(cmd, self.passes) or not state.has(actor) or (
                state.prompt is not None and state.prompt.actor == actor):
            return None
        return condition_refusal(state.get(actor), isinstance(cmd, self.moves))

    def condition_library(self) -> tuple[Named, ...]:
        """The named conditions offered in one tap (engine/conditions.py), the system's `own_conditions` too."""
        return LIBRARY + self.own_conditions

    def resolve(self, state: State, cmd: Command, dice: Dice) -> Resolution:
        """The new state and the events; never mutates `state`. An allowed
        command that cannot apply changes nothing and logs why (CORE-REF-1)."""
        if not isinstance(cmd, Allow):
            return self._resolve_settled(state, cmd, dice)
        why = "" if isinstance(cmd.command, REFEREE_COMMANDS) else self.cannot_apply(state, cmd.command)
        if not why:
            try:
                return self._resolve_settled(state, cmd, dice)
            except CANNOT_APPLY as exc:  # the rules had nothing to act on: a missing record, a wrong value
                why = f"{type(exc).__name__}: {exc}"
        return state, [override_failed(cmd, why)]

    def _resolve_settled(self, state: State, cmd: Command, dice: Dice) -> Resolution:
        """The referee's table or the system's `resolves`, then `settle`."""
        if isinstance(cmd, REFEREE_COMMANDS):
            state, events = resolve_referee(self, state, cmd, dice)
        else:
            fn = self.resolves.get(cmd) if self.resolves is not None else None
            if fn is None:
                raise NotImplementedError(cmd.type_name)
            events = []
            state = fn(self, state, cmd, dice, events)
        return self.settle(state, cmd, dice, events), events

    def consequence(self, state: State, cmd: Command, dice: Dice) -> Resolution:
        """What a command leads to, for its odds (engine/odds.py, CORE-ODDS-1): its resolution, and the
        questions it raises on the way answered as a tap answers them (the answer marked "next": an attack
        of opportunity taken, OSE-AOO-4), so a path's odds count the attacks it draws. Ogre resolves a
        declaration now instead, and cuts that into pieces for the odds (`consequence_steps`, odds_steps.py)."""
        state, events = self.resolve(state, cmd, dice)
        for _ in range(ANSWERS_FOLLOWED):
            prompt = state.prompt
            if prompt is None:
                break
            answer = next((o for o in self.options(state, prompt.actor) if o.allowed and o.key == "next"
                           and not o.needs and not o.choices), None)
            if answer is None:
                break
            state, more = self.resolve(state, answer.command, dice)
            events = events + more
        return state, events

    def outcome(self, state: State) -> str:
        """A sentence when the fight is decided ("The Party wins"), else ""."""
        standing_sides = {c.side for c in state.combatants if not c.is_down}
        if len(standing_sides) <= 1 and state.combatants:
            if not standing_sides:
                return "Everyone is down"
            side = state.encounter.side(next(iter(standing_sides)))
            return side_says(side.name if side else next(iter(standing_sides)), "stands alone", "stand alone")
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
        new = evolve(c, hp=c.hp - amount)  # a copy without the generated __init__: damage runs on every branch of the odds
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

    def moved(self, state: State, target: str, events: list[Event]) -> State:
        """System hook after the referee places a token."""
        return state

    def referee_target_square(self, state: State, target: str) -> Square | None:
        return state.get(target).square

