"""Ogre Character Codex: the combat sequence as a ruleset (segment count, declarations, reactions).

The fight is a count of half-second segments (OGRE-SEG-1). Each combatant
rolls d10 + reaction time (OGRE-INIT-1), stays flat-footed until that
segment (OGRE-FF-1), then declares an action that resolves a category's
duration later (OGRE-ACT-1, OGRE-CAT-1) and declares the next one then.
"Advance" jumps to the next segment where something happens. This class only
declares the template's tables and hooks and delegates: tables and records are in `state`, the commands in `commands`,
legality in `check`, the menus in `options`, command resolution in
`resolve`, the count's records in `timeline`, a segment's work in `segment`,
the grid in `grid`, before-the-fight surprise in `surprise`.
"""
from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ...engine.cache import Cache
from ...engine.clock import Clock
from ...engine.commands import Command, Event, Option
from ...engine.dice import Dice, NeedDice, ScriptedDice
from ...engine.geometry import Body
from ...engine.grid_rules import GridRules
from ...engine.model import Encounter, Square
from ...engine.conditions import Named
from ...engine.ruleset import Ruleset
from ...engine.state import State
from .system import INFO
from . import check as ogre_check, grid as og, options as ogre_options, resolve as ogre_resolve, state as om
from .commands import ANSWERS, Advance, Charge, Delay, Move, Withdraw
from .movement import walkable
from .segment import on_damage, run as run_work, run_until_dice, step as work_step
from .state import Fighter, OgreState, Phase, Work
from .timeline import declaring, next_event, standing


_ANSWERS = tuple(ANSWERS.values())  # the answers to a prompt (an attack of opportunity, a follow...)
_PREPARED = Cache(64)  # (state, command) -> what its resolution does before the first die (Ogre.consequence)


class SegmentClock(Clock):
    """Ogre's clock is the segment count, half a second a segment (OGRE-SEG-1): a timed condition lasts N
    segments."""

    def now(self, state: State) -> int:
        return state.board.segment

    def next_tick(self, state: State) -> int:
        """The segment the count goes on to next (a timed condition's end is one of its stops)."""
        nxt = next_event(state)
        return state.board.segment + 1 if nxt is None else nxt

    def label(self, state: State) -> str:
        """None beside the status: it says the segment and the in-game time it makes already (OGRE-SEG-1)."""
        return ""

    def words(self, ticks: int, at: bool = False) -> str:
        words = super().words(ticks, at)
        return words if at else f"{words} ({ticks / 2:g} s)"  # half a second a segment (OGRE-SEG-1)


class OgreGrid(GridRules):
    """Ogre's grid queries (`Ogre.grid`): bodies, the feet a move may cover, ready-made paths."""

    rule_ids = MappingProxyType({"aoo": "OGRE-AOO-1", "threat": "OGRE-AOO-1", "withdraw": "OGRE-WD-1",
                                 "no_threat": "flat-footed, down or without a melee attack in hand (OGRE-AOO-1)"})

    def suggest_paths(self, state: State, actor: str, command: Command | None = None
                      ) -> list[tuple[str, str, tuple[Square, ...]]]:
        """(kind, label, path) for every move kind of the menu and withdraw (OGRE-MOVE-1, OGRE-WD-1);
        for a command, only the paths of its kind (a withdraw has no kind field)."""
        paths = og.suggest_paths(state, actor)
        if command is None:
            return paths
        kind = getattr(command, "kind", "withdraw")
        return [p for p in paths if p[0] == kind]

    def move_allowance(self, state: State, mover: str, cmd: Command) -> int | None:
        """Feet a move command may cover (OGRE-MOVE-1), for the grid's path preview."""
        c = state.get(mover)
        if isinstance(cmd, Move):
            if cmd.kind in ("quick", "difficult"):
                return 5
            return om.speed_ft(c) if cmd.kind == "short" else om.max_move_ft(state, c)
        if isinstance(cmd, (Withdraw, Charge)):
            return om.max_move_ft(state, c)
        return None

    def bodies(self, state: State) -> list[Body]:
        """For the grid view: flat-footed (OGRE-FF-1) and down combatants threaten nobody."""
        return og.bodies(state)


class Ogre(Ruleset):
    """OGRE-*: see RULES.md, "Ogre Character Codex: Combat Sequence"."""

    name = "ogre"
    title = "Ogre Character Codex: Combat Sequence"
    profiles = ("",)
    setting_specs = om.SETTINGS
    stat_specs = om.STATS
    checks = staticmethod(ogre_check.check)
    passes = (Delay,)  # what an asleep, held or helpless combatant may still do
    moves = (Move, Charge, Withdraw)  # what an entangled one may not
    own_conditions = (
        Named("Prone", "standing up takes a Short action and provokes", rule="OGRE-LIST-1"),
        Named("Blinded", "cannot withdraw", rule="OGRE-WD-1"),
        Named("Invisible", "still gets its attack on a foe withdrawing", rule="OGRE-WD-1"),
    )
    resolves = ogre_resolve.resolves
    clock = SegmentClock("segment", 0.5)  # OGRE-SEG-1
    grid = OgreGrid()  # the grid's queries (engine/grid_rules.py)

    def settle(self, state: State, cmd: Command, dice: Dice, events: list[Event]) -> State:
        """The segment's work runs after a command (not after surprise or initiative)."""
        return ogre_resolve.settle(self, state, cmd, dice, events)

    def after_step(self, state: State) -> Command | None:
        """OGRE-SEG-1: with nobody left to declare at this segment, nothing asked and nobody waiting to
        declare when they choose (an open delay), the count goes on to the next event by itself, as a
        step chained to the declaration (one undo takes both back). The "count_on" setting turns it off."""
        s: OgreState = state.board
        if (s.phase != Phase.FIGHT or state.prompt is not None or s.work or state.outcome
                or not state.setting("count_on", True) or declaring(state) or next_event(state) is None):
            return None
        if any(f.delaying and f.due is None and standing(state, f.id) for f in s.fighters):
            return None
        return Advance(auto=True)

    def consequence(self, state: State, cmd: Command, dice: Dice) -> tuple[State, list[Event]]:
        """The odds of a declaration are the odds of its resolution (CORE-ODDS-1, OGRE-ACT-1): the
        declared action is resolved at once, against the state as it will meet it segments later as far as
        is known now (`as_at`: flat-footed time and timed conditions over by then).
        What rolls no die (the declaration, the work before the first roll) is done once per state and
        command, and every branch of the odds goes on from there. An answer to a prompt is priced by its
        own rolls (`_answer`)."""
        if isinstance(cmd, _ANSWERS):
            return self._answer(state, cmd, dice)
        prepared = _PREPARED.get(repr(cmd), lambda: self._prepared(state, cmd), same=(state,))
        if prepared is None:  # the command rolls as it is declared: resolve it whole, every branch
            state, events = self.resolve(state, cmd, dice)
            return _asked(run_work(self, self._resolving(state, cmd), events, dice), events), events
        state, shared = prepared
        events = list(shared)
        done = run_work(self, state, events, dice)
        return (done if state.prompt is not None else _asked(done, events)), events

    def consequence_steps(self, state: State, cmd: Command) -> tuple[State, tuple[Event, ...], Any] | None:
        """The consequence in pieces (CORE-ODDS-1): after what rolls no die, one item of the segment's work
        at a time (a declared attack's roll, then its damage), each going on from the state alone."""
        if isinstance(cmd, _ANSWERS):
            return None
        prepared = _PREPARED.get(repr(cmd), lambda: self._prepared(state, cmd), same=(state,))
        if prepared is None:
            return None
        state, shared = prepared
        return state, shared, self._work_step

    def _answer(self, state: State, cmd: Command, dice: Dice) -> tuple[State, list[Event]]:
        """CORE-ODDS-1: an answer's odds are what that option's own rolls do (OGRE-AOO-2: one swing): the
        answer, then the segment's work only while it is the answerer's own (a follow's walk). What others do
        after it in the segment (their actions resolving, damage held till its end) is not the option's."""
        events: list[Event] = []
        state = self.resolves.get(cmd)(self, state, cmd, dice, events)
        while state.prompt is None and state.board.work and state.board.work[0].actor == cmd.actor:
            state = work_step(self, state, events, dice)
        return state, events

    def _work_step(self, state: State, events: list[Event], dice: Dice) -> State | None:
        done = work_step(self, state, events, dice)
        return done if done is None or state.prompt is not None else _asked(done, events)

    def _prepared(self, state: State, cmd: Command) -> tuple[State, tuple[Event, ...]] | None:
        try:
            state, events = self.resolve(state, cmd, ScriptedDice(()))
        except NeedDice:
            return None
        state = _asked(run_until_dice(self, self._resolving(state, cmd), events), events)
        return state, tuple(events)

    @staticmethod
    def _resolving(state: State, cmd: Command) -> State:
        """The state with the actor's declared action queued to resolve now (a ready waits for its trigger),
        the count at its segment as far as is known now (`as_at`)."""
        actor = getattr(cmd, "actor", None)
        s = state.board
        f = s.fighter(actor) if actor and isinstance(s, OgreState) and s.has(actor) else None
        a = f.action if f is not None else None
        if a is None or a.resolves is None or state.prompt is not None:
            return state
        state = as_at(state, a.resolves, actor)
        return state.with_board(work=state.board.work + (Work("resolve", actor, a.uid),))

    def cannot_apply(self, state: State, cmd: Command) -> str:
        """Why an allowed command cannot mean anything now (no such attack, nothing asked...), CORE-REF-1."""
        return ogre_check.moot(state, cmd)

    # --- hooks the views and the page ask ---------------------------------------------
    def phase(self, state: State) -> Phase:
        return state.board.phase

    def where(self, state: State) -> dict:
        """The round, the phase, the segment of the count (OGRE-SEG-1) and who declares now."""
        return {**super().where(state), "segment": state.board.segment}

    # --- the protocol ----------------------------------------------------------------
    def begin(self, encounter: Encounter) -> State:
        state = State(encounter=encounter, combatants=encounter.combatants, board=OgreState())
        fighters = tuple(Fighter(c.id, om.reaction_time(state, c)) for c in encounter.combatants)
        return replace(state, board=OgreState(fighters=fighters))

    def current(self, state: State) -> tuple[str, ...]:
        """The prompted combatant; before initiative everyone; then those who must
        declare now (lower initiative first, OGRE-INIT-1); when nobody must, the
        ones whose next event comes first (the Advance key is theirs). Never
        empty while the fight goes on, so the page always has an actor to show; once it is over, nobody."""
        if state.outcome:
            return ()
        if state.prompt is not None:
            return (state.prompt.actor,)
        s: OgreState = state.board
        if s.phase == Phase.SETUP:
            return tuple(c.id for c in state.standing())
        due = declaring(state)
        if due:
            return due
        nxt = next_event(state)
        if nxt is None:
            # Nothing scheduled: those waiting (readied, delaying) hold the Advance key.
            waiting = tuple(f.id for f in s.fighters if standing(state, f.id)
                            and (f.delaying or (f.action is not None and f.action.resolves is None)))
            return waiting or tuple(c.id for c in state.standing())
        return tuple(f.id for f in s.fighters if standing(state, f.id)
                     and nxt in (f.action.resolves if f.action else f.due, f.stunned_until))

    def declaring(self, state: State) -> tuple[str, ...]:
        """Who must declare an action now (OGRE-ACT-1), lower initiative first."""
        return declaring(state)

    def options(self, state: State, actor: str) -> list[Option]:
        return self.held_options(state, actor, ogre_options.options(state, actor))

    def after_damage(self, state: State, target: str, amount: int, events: list[Event], *,
                     source: str = "") -> State:
        return on_damage(state, target, amount, events)


def _asked(state: State, events: list[Event]) -> State:
    """CORE-ODDS-1: a resolution that stops at a question (an attack of opportunity on a charge's path) says
    so: what follows hangs on the answer, so it is never shown as certain."""
    p = state.prompt
    if p is not None:
        events.append(Event("AnswerAwaited", f"{state.name(p.actor)} is asked first: {p.question}", rule=p.rule,
                            actor=p.actor))
    return state


def as_at(state: State, segment: int, actor: str) -> State:
    """CORE-ODDS-1, OGRE-ACT-1: the state as `actor`'s action resolving at `segment` meets it, as far as is
    known now: the count there (flat-footed time over, OGRE-FF-1; a stun over, OGRE-BREAK-1), the timed
    conditions whose time is up by then ended, and the others' declared moves that resolve first at the end
    of what of their path is walkable now (OGRE-MOVE-1: a target gone from reach). Attacks of opportunity
    that might stop them, and what others will declare, are not known and not guessed."""
    s: OgreState = state.board
    if segment <= s.segment:
        return state
    moving = sorted((f.action.resolves, f.action.declared, f.id) for f in s.fighters
                    if f.id != actor and f.action is not None and f.action.kind in ("move", "withdraw", "charge")
                    and f.action.resolves is not None and f.action.resolves <= segment and standing(state, f.id))
    for _, _, cid in moving:
        c = state.get(cid)
        path, _ = walkable(state, c, s.fighter(cid).action.path)
        if path:
            state = state.with_combatant(replace(c, square=path[-1]))
    state = state.with_board(segment=segment)
    over = [t for t in state.timers if isinstance(t[2], int) and t[2] <= segment]
    over += [(f.id, "stunned", f.stunned_until) for f in s.fighters
             if f.stunned_until is not None and f.stunned_until <= segment]
    for cid, cond, _ in over:
        if state.has(cid):
            state = state.with_combatant(state.get(cid).without_condition(cond))
    return replace(state, timers=tuple(t for t in state.timers if t not in over))


RULESET = Ogre()
RULESET.info = INFO
