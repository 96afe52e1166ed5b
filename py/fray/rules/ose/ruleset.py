"""OSE house rules "Combat and Tactical Actions" as a Fray ruleset, loose and detailed (OSE-*).

A thin strategy: it declares the tables of the `Ruleset` template (`checks`,
`resolves`, `setting_specs`, `stat_specs`) and its hooks (`settle`, `begin`,
`current`, `options`, `outcome`, `after_damage`, `phase`...) and its grid's
queries (`OseGrid`: `bodies`, `braced`, `move_allowance`, `suggest_paths`)
hand over to the sibling modules: `check` (legality),
`resolve` (what each command does, a `Handlers` table, and `settle`),
`options` (what each actor is offered), `reasons` (the `Reason` codes),
`round` (initiative, steps, spells lapsing, morale), `movement` (grid moves,
attacks of opportunity, charge, brace), `bodies` (who stands where), `combat` (attacks, stances, shields),
`ranged` (missile ranges), `grapple`, `turn_undead`; records and queries are in `state`, commands in
`commands`.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ...engine.clock import Clock
from ...engine.commands import Command, Event, Option
from ...engine.dice import Dice
from ...engine.geometry import Body
from ...engine.grid_rules import GridRules
from ...engine.model import Encounter
from ...engine.conditions import Named
from ...engine.ruleset import Ruleset
from ...engine.state import State
from .system import INFO
from . import check as ose_check, options as ose_options, resolve as ose_resolve
from .commands import Charge, Done, EndStep, Flee, Move, RollInitiative, RollResource, Withdraw
from .grapple import drop_broken_holds
from .movement import suggest_paths as suggest_move_paths
from .bodies import bodies as grid_bodies
from .movement import move_left
from .round import active_actors, all_engaged, lose_spell, outcome_text
from .state import SETTINGS, STATS, OseState, Phase, can_act, opt, phase_of

# The rule ids the shared grid view cites (views/grid.py); "no_threat" is its sentence for a
# creature that threatens nothing.
GRID_RULES = {
    "aoo": "OSE-AOO-1", "threat": "OSE-AOO-3", "withdraw": "OSE-WD-1", "brace": "OSE-BRACE-1",
    "ranged": "OSE-RANGED-1", "reach_weapon": "OSE-STANCE-3",
    "no_threat": "no melee or natural weapon in hand, or it cannot act (OSE-AOO-1)",
}


class OseGrid(GridRules):
    """OSE's grid queries (`OseRuleset.grid`): bodies, bracing, the move left, ready-made paths."""

    rule_ids = MappingProxyType(GRID_RULES)

    def bodies(self, state: State) -> list[Body]:
        """Who stands where, reach in squares and who threatens (OSE-AOO-1, OSE-AOO-3, OSE-STANCE-3)."""
        return grid_bodies(state)

    def suggest_paths(self, state: State, actor: str, command: Command | None = None) -> list:
        """Ready-made grid paths for the actor (see movement.suggest_paths)."""
        return suggest_move_paths(state, actor, command)

    def braced(self, state: State) -> frozenset[str]:
        """OSE-BRACE-1: who braced against a charge this round."""
        return frozenset(state.board.bracing)

    def move_allowance(self, state: State, actor: str, cmd: Command) -> int | None:
        """Feet the actor may still move this round (OSE-MOVE-1, OSE-ECON-1), for the grid's preview."""
        if not state.has(actor):
            return None
        return move_left(state, state.get(actor))


def upgrade_slots(doc: dict) -> dict:
    """OSE-SPELL-5: before, a caster had a list of prepared spells and a count of slots left;
    now its memory is the list itself. A count becomes the list it implies: the prepared
    spells in order, as many as the slots (cycling through them when there are more slots
    than spells, none at 0). A referee's SetStat of "slots" becomes the same list."""
    enc = doc.get("encounter")
    if not isinstance(enc, dict) or not isinstance(enc.get("combatants"), list):
        return doc
    implied: dict[str, list] = {}
    combatants = []
    changed = False
    for c in enc["combatants"]:
        stats = c.get("stats") if isinstance(c, dict) else None
        if isinstance(stats, dict) and "slots" in stats:
            known = stats.get("spells") or []
            slots = stats.get("slots")
            if isinstance(known, list) and type(slots) is int and slots >= 0:
                memory = [known[i % len(known)] for i in range(slots)] if known else []
                stats = {k: v for k, v in stats.items() if k != "slots"}
                stats["spells"] = memory
                implied[str(c.get("id"))] = known
                c = {**c, "stats": stats}
                changed = True
        combatants.append(c)
    if not changed:
        return doc

    def step(s):
        cmd = s.get("command") if isinstance(s, dict) else None
        if (isinstance(cmd, dict) and cmd.get("type") == "SetStat" and cmd.get("key") == "slots"
                and type(cmd.get("value")) is int and cmd.get("target") in implied):
            known = implied[cmd["target"]]
            value = [known[i % len(known)] for i in range(cmd["value"])] if known else []
            return {**s, "command": {**cmd, "key": "spells", "value": value}}
        return s

    out = {**doc, "encounter": {**enc, "combatants": combatants}}
    for key in ("steps", "redo"):
        if isinstance(doc.get(key), list):
            out[key] = [step(s) for s in doc[key]]
    return out


def _step_timers(value: Any) -> Any:
    """`value` (a step's JSON) with each turn timer ("start:ann", "end:ann") read as a step timer."""
    if isinstance(value, list):
        return [_step_timers(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _step_timers(v) for k, v in value.items()}
    until = out.get("until")
    if isinstance(until, str) and until.startswith(("start:", "end:")):
        edge, _, who = until.partition(":")
        out["until"] = f"{edge}-step:{who}"
    return out


def upgrade_turn_timers(doc: dict) -> dict:
    """CORE-TIME-1: in detailed combat "until Ann's next turn" once meant her side's next step; it now means
    its whole turn. A file whose steps replay only as they were written (an end recorded at a step) has
    its turn timers read as the step timers they were; any other file is read as written."""
    enc = doc.get("encounter")
    if not isinstance(enc, dict) or enc.get("profile") != "detailed":
        return doc
    timed = {key: _step_timers(doc[key]) for key in ("steps", "redo") if isinstance(doc.get(key), list)}
    if all(timed[key] == doc[key] for key in timed):
        return doc
    from ...engine.storage import LoadError, load
    try:
        load(doc, {"ose": _AsWritten()})
        return doc
    except LoadError:
        return {**doc, **timed}


class OseClock(Clock):
    """Rounds of 10 seconds (the text's full-round action), a side's turn each, four steps in detailed combat."""

    def minute_ticks(self, state: State) -> int:
        """Rounds in a minute: the setting turned undead count by (OSE-TURN-3)."""
        return int(opt(state, "rounds_per_minute"))

    def turns(self, state: State, who: str) -> tuple[int, bool] | None:
        """A side's turn each round (OSE-SEQ-1), in detailed combat its four steps together (CORE-TIME-1):
        how many turns `who`'s side has begun, and whether it acts now."""
        return self._count(state, who, 1)

    def steps(self, state: State, who: str) -> tuple[int, bool] | None:
        """Detailed combat's finer count (OSE-ORDER-1): each of the four steps of `who`'s side's turns
        ("until the start of Ann's next step"). None in loose combat, which has no steps."""
        from .state import STEPS, is_detailed
        return self._count(state, who, len(STEPS)) if is_detailed(state) else None

    @staticmethod
    def _count(state: State, who: str, per: int) -> tuple[int, bool] | None:
        from .state import acting_side
        s = state.board
        c = state.find(who)
        if c is None:
            return None
        if s.phase != "act" or c.side not in s.order:
            return ((state.round - 1) * per, False)
        index = s.order.index(c.side)
        begun = per if index < s.turn else (s.step + 1 if per > 1 else 1) if index == s.turn else 0
        return ((state.round - 1) * per + begun, acting_side(state) == c.side)


class OseRuleset(Ruleset):
    name = "ose"
    title = "OSE house rules: Combat and Tactical Actions"
    profiles = ("loose", "detailed")
    setting_specs = SETTINGS
    stat_specs = STATS
    checks = staticmethod(ose_check.check)
    # What an asleep, held or helpless combatant may still do; the round's initiative is the sides' roll
    # (OSE-INIT-1), never the selected combatant's action, so an asleep one selected does not refuse it.
    passes = (Done, EndStep, RollInitiative)
    moves = (Move, Withdraw, Flee, Charge)  # what an entangled one may not
    afterwards = (RollResource,)  # OSE-RES-1: the usage die is rolled after the fight
    own_conditions = (
        Named("Pinned", "no actions or moves; melee hits deal maximum", rule="OSE-COND-1"),
        Named("Grappled", "only Small weapons, no spells", rule="OSE-COND-1"),
        Named("Dark", "cannot see: flees at half speed", rule="OSE-FLEE-1"),
        Named("Can see", "sees in the dark", rule="OSE-FLEE-1"),
    )
    resolves = ose_resolve.resolves
    clock = OseClock(tick_seconds=10.0)  # a round is 10 seconds (the text's full-round action)
    grid = OseGrid()  # the grid's queries (engine/grid_rules.py)

    def upgrade(self, doc: dict) -> dict:
        """Files written before spells were memorised by name (OSE-SPELL-5), or before a detailed turn was
        the side's four steps (CORE-TIME-1), open unchanged."""
        return upgrade_turn_timers(upgrade_slots(doc))

    def settle(self, state: State, cmd: Command, dice: Dice, events: list[Event]) -> State:
        """Broken holds drop, then the round moves on (steps, spells lapsing, morale)."""
        return ose_resolve.settle(self, state, cmd, dice, events)

    def after_step(self, state: State) -> Command | None:
        """OSE-ORDER-1 (DEFAULT, issue 53): a MOVE step where everyone of the acting side still to act is engaged
        ends by itself, logged, as a step chained to the tap before it; moving away stays one undo off."""
        return EndStep(auto=True) if not state.outcome and all_engaged(state) else None

    # --- hooks for generic code ----------------------------------------------------------
    def phase(self, state: State) -> Phase:
        """Declaring, the loose turn, or the detailed step (OSE-SEQ-1, OSE-ORDER-1)."""
        return phase_of(state)

    def where(self, state: State) -> dict:
        """The round, the phase, the acting side and its step ("move", "missile", "magic", "melee"; "" loose)."""
        from .state import acting_side, current_step
        acting = acting_side(state) if state.board.phase == "act" else ""
        step = (current_step(state) or "") if acting else ""
        return {**super().where(state), "side": acting or "", "step": step}

    def secret_times(self, state: State) -> tuple[tuple[str, str, int], ...]:
        """OSE-TURN-3: turned undead flee 1d4 minutes, rolled secretly: the round each turning ends, which
        the referee's badges, `condition_words` and `fray show` count down and the players' display does not."""
        return tuple((cid, "turned", last + 1) for cid, (_, last) in state.board.turned.items()
                     if state.has(cid) and state.get(cid).has_condition("turned"))

    # --- protocol ----------------------------------------------------------------------
    def begin(self, encounter: Encounter) -> State:
        profile = encounter.profile if encounter.profile in self.profiles else "loose"
        return State(encounter=encounter, combatants=encounter.combatants, round=1,
                     board=OseState(profile=profile))

    def current(self, state: State) -> tuple[str, ...]:
        if state.outcome:  # the fight is over: nothing is asked of anyone
            return ()
        if state.prompt is not None:
            return (state.prompt.actor,)
        if state.board.phase == "declare":
            return tuple(c.id for c in state.combatants if can_act(c))
        return active_actors(state)

    def options(self, state: State, actor: str) -> list[Option]:
        return self.held_options(state, actor, ose_options.options(state, actor))

    def outcome(self, state: State) -> str:
        """Decided when no two hostile sides still have someone in the fight (down, fled and surrendered are out)."""
        return outcome_text(state)

    def after_damage(self, state: State, target: str, amount: int, events: list[Event], *,
                     source: str = "") -> State:
        # OSE-SPELL-3: damage between the initiative roll and completion loses the spell.
        s = state.board
        if target in s.casting or target in s.concentrating:
            state = lose_spell(state, events, target, "damaged before completing it" if target in s.casting
                               else "damaged")
        return state

    def moved(self, state: State, target: str, events: list[Event]) -> State:
        return drop_broken_holds(state, events)


class _AsWritten(OseRuleset):
    """OSE reading a file's turn timers as written: the trial replay of `upgrade_turn_timers`."""

    def upgrade(self, doc: dict) -> dict:
        return upgrade_slots(doc)


RULESET = OseRuleset()
RULESET.info = INFO
