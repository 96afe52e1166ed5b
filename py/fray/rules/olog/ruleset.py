"""OLOG "Combat and Pressure" as a Fray ruleset: counts, two actions a turn, Press On, bands.

The turn flow: `RollInitiative` (PCs roll, NPCs take fixed counts), then each
standing combatant in count order takes a turn of two actions (OLOG-ACT-1);
under pressure an action ends the turn unless the actor presses on and takes
pressure damage (OLOG-PRES-*). Counts persist; Strategise changes them from the
next round, the referee with `SetCount` at once (OLOG-INIT-3). Pressure and
band arithmetic live in `pressure`; the commands in `commands`; settings,
stats, the board record and its small queries in `state`; legality in
`check`, the menus in `options`, what happens in `resolve`. This class only
declares the `Ruleset` template's tables and hooks, and delegates to them.

Decisions the text leaves open (documented for the referee):
- Reorder: only combatants with equal counts can be reordered relative to each
  other (a tie is the referee's, OLOG-INIT-4); to move someone past a
  different count, set the count (`SetCount`). The order given becomes the
  tie order for the rest of the fight.
- A shield is an item in hand whose name is in the combatant's `shields` stat
  or contains "shield" (OLOG-DEF-1).
- A threatening creature with no damage die counts toward the pressure
  minimum but adds no die (see `Pressure`).
- Melee and natural attacks reach as far as the creature threatens (same zone,
  or the next one when long-reaching); ranged attacks reach any zone.
- Free actions come before the last action: a turn ends as soon as its
  actions (and any split attacks) are spent.
- A retrieved item that replaces a held one puts the held one back where the
  retrieved one was in the pack.
"""
from __future__ import annotations

from ...engine.clock import Clock
from ...engine.commands import Command, Event, Option
from ...engine.dice import Dice
from ...engine.model import Combatant, Encounter
from ...engine.ruleset import Ruleset, side_says
from ...engine.state import State
from .system import INFO
from . import check as olog_check, options as olog_options, resolve as olog_resolve
from .commands import EndTurn, Move
from .pressure import Pressure
from .state import (SETTINGS, STATS, OlogState, Phase, is_pc, item_cost, needs_press_on, opt, order)


class OlogClock(Clock):
    """Rounds of no stated length, one turn a round each (OLOG-INIT-4)."""

    def turns(self, state: State, who: str) -> tuple[int, bool] | None:
        """One turn a round each (OLOG-INIT-4): `who` has begun this round's once it has acted or acts now."""
        s: OlogState = state.board
        if s.phase == Phase.INITIATIVE:
            return (0, False)
        begun = who in s.acted or s.actor == who
        return (state.round if begun else state.round - 1, s.actor == who)

    def label(self, state: State) -> str:
        """OLOG counts rounds and turns (its text gives a round no length in seconds): "turn 3 of 7"."""
        s: OlogState = state.board
        if s.phase == Phase.INITIATIVE or not state.round:
            return ""
        standing = sum(1 for c in state.combatants if not c.is_down)
        turn = len(set(s.acted) | ({s.actor} if s.actor else set()))
        return f"turn {turn} of {max(standing, turn)}"


class Olog(Ruleset):
    """OLOG-*: see RULES.md, "OLOG: Combat and Pressure"."""

    name = "olog"
    title = "OLOG: Combat and Pressure"
    profiles = ("",)
    setting_specs = SETTINGS
    stat_specs = STATS
    checks = staticmethod(olog_check.check)
    passes = (EndTurn,)  # what an asleep, held or helpless combatant may still do
    moves = (Move,)  # what an entangled one may not
    resolves = olog_resolve.resolves
    clock = OlogClock()

    def settle(self, state: State, cmd: Command, dice: Dice, events: list[Event]) -> State:
        """A down actor's turn passes; play resumes when someone stands again."""
        return olog_resolve.settle(self, state, cmd, dice, events)

    def after_step(self, state: State) -> Command | None:
        """OLOG-ACT-1: when the actor may do nothing but end its turn (asleep or held, or every action left
        refused), the turn ends by itself, logged, as a step chained to the one before (one undo takes both)."""
        s: OlogState = state.board
        if s.phase != Phase.FIGHT or not s.actor or state.outcome or state.prompt is not None:
            return None
        allowed = [o for o in olog_options.options(state, s.actor) if o.allowed]
        allowed = [o for o in self.held_options(state, s.actor, allowed) if o.allowed]
        if allowed and all(isinstance(o.command, EndTurn) for o in allowed):
            return EndTurn(s.actor, auto=True)
        return None

    def cannot_apply(self, state: State, cmd: Command) -> str:
        """An allowed action must still make sense: its combatants, zone, attack or item exist (CORE-REF-1)."""
        illegal = olog_check.shape(state, cmd)
        return illegal.detail if illegal is not None else ""

    def phase(self, state: State) -> Phase:
        return state.board.phase

    # --- order -------------------------------------------------------------------------
    def begin(self, encounter: Encounter) -> State:
        """Before initiative: no dice; the tie order is PCs first (DEFAULT), then setup order."""
        state = State(encounter=encounter, combatants=encounter.combatants, round=0, board=OlogState())
        ids = tuple(c.id for c in encounter.combatants)
        if opt(state, "olog_tie_pcs_first"):  # OLOG-INIT-4
            pcs = tuple(c.id for c in encounter.combatants if is_pc(state, c))
            ids = pcs + tuple(i for i in ids if i not in pcs)
        return state.with_board(ranks=ids)

    def order(self, state: State) -> tuple[str, ...]:
        """OLOG-INIT-4: highest count first; ties in the referee's order."""
        return order(state)

    def current(self, state: State) -> tuple[str, ...]:
        s: OlogState = state.board
        if state.outcome:  # the fight is over: nothing is asked of anyone
            return ()
        if s.phase == Phase.INITIATIVE:
            standing = [c for c in state.combatants if not c.is_down]
            pcs = tuple(c.id for c in standing if is_pc(state, c))
            return pcs or tuple(c.id for c in standing)
        return (s.actor,) if s.actor else ()

    def outcome(self, state: State) -> str:
        """Decided when no two standing combatants are hostile: names who is left."""
        standing = [c for c in state.combatants if not c.is_down]
        if not state.combatants:
            return ""
        if not standing:
            return "Everyone is down"
        sides = list(dict.fromkeys(c.side for c in standing))
        if any(state.hostile(a, b) for a in sides for b in sides):
            return ""
        names = [(state.encounter.side(s).name if state.encounter.side(s) else s) for s in sides]
        return side_says(names[0], "wins", "win") if len(names) == 1 else f"{' and '.join(names)} win"

    # --- queries the views and tests ask ---------------------------------------------------
    def item_cost(self, state: State, c: Combatant, item: str) -> str:
        return item_cost(state, c, item)

    def needs_press_on(self, state: State, actor: str, p: Pressure | None = None) -> bool:
        return needs_press_on(state, actor, p)

    # --- the protocol ------------------------------------------------------------------------
    def options(self, state: State, actor: str) -> list[Option]:
        """The actor's options, then the referee's own offer for it (Set count), as in every system."""
        return self.held_options(state, actor, olog_options.options(state, actor)) + \
            olog_options.referee_options(state, actor)


RULESET = Olog()
RULESET.info = INFO
