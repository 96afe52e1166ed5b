"""A tiny ruleset used only by the engine's own tests: two sides trade blows.

It exercises the session, storage and referee commands without depending on
any real system's rules.
"""
from __future__ import annotations

from dataclasses import dataclass

from fray.engine.commands import Command, Event, Illegal, Option, command
from fray.engine.model import Weapon, Combatant, Encounter, Side
from fray.engine.ruleset import Ruleset
from fray.engine.specs import Setting, StatSpec
from fray.engine.state import State


@dataclass(frozen=True)
class DuelState:
    turn: int = 0  # index into the combatants of whose turn it is


@command("duel")
class Strike:
    actor: str
    target: str


@command("duel")
class Pass:
    actor: str


class Duel(Ruleset):
    name = "duel"
    title = "Duel (test)"

    def settings(self):
        return (Setting("bonus", "Flat bonus to damage", 0, rule="TEST-1", minimum=-5, maximum=5),)

    def stats(self):
        return (StatSpec("level", "Level", 1, minimum=0, maximum=20),)

    def begin(self, encounter: Encounter) -> State:
        return State(encounter, encounter.combatants, round=1, board=DuelState())

    def current(self, state):
        return (state.combatants[state.board.turn].id,)

    def options(self, state, actor):
        c = state.get(actor)
        opts = [Option(Pass(actor), "Pass", group="Turn").refused(self.check(state, Pass(actor)))]
        for o in state.enemies_of(c):
            cmd = Strike(actor, o.id)
            opts.append(Option(cmd, f"Strike {o.name}", group="Attack").refused(self.check(state, cmd)))
        return opts

    def check(self, state, cmd):
        if isinstance(cmd, (Strike, Pass)):
            if cmd.actor not in self.current(state):
                return Illegal("NOT_YOUR_TURN", f"It is not {state.name(cmd.actor)}'s turn")
            if isinstance(cmd, Strike):
                if not state.has(cmd.target):
                    return Illegal("NO_SUCH_COMBATANT", f"No combatant {cmd.target!r}")
                if state.get(cmd.target).is_down:
                    return Illegal("TARGET_DOWN", f"{state.name(cmd.target)} is already down")
            return None
        return super().check(state, cmd)

    def resolve(self, state, cmd, dice):
        if isinstance(cmd, Strike):
            events = []
            c = state.get(cmd.actor)
            roll = dice.roll(c.weapons[0].damage if c.weapons else "1d4", "damage")
            events.append(Event("Struck", f"{c.name} strikes: {roll.describe()}", rolls=(roll,), actor=c.id))
            state = self.damage(state, cmd.target, roll.total + state.setting("bonus", 0), events, source=c.id)
            return self._next(state), events
        if isinstance(cmd, Pass):
            return self._next(state), [Event("Passed", f"{state.name(cmd.actor)} passes", actor=cmd.actor)]
        return super().resolve(state, cmd, dice)

    def _next(self, state):
        n = len(state.combatants)
        t = state.board.turn
        for _ in range(n):
            t = (t + 1) % n
            if not state.combatants[t].is_down:
                break
        return state.with_board(turn=t)


RULESET = Duel()


def encounter(seed: int = 7, **kw) -> Encounter:
    sides = (Side("a", "Alpha", "#3366aa"), Side("b", "Beta", "#aa3333", shape="square"))
    cs = (
        Combatant("a1", "Ann", "a", 10, 10, weapons=(Weapon("Sword", "1d8"),), stats={"level": 2}),
        Combatant("b1", "Bob", "b", 8, 8, weapons=(Weapon("Club", "1d6"),)),
        Combatant("b2", "Bea", "b", 6, 6, weapons=(Weapon("Knife", "1d4"),)),
    )
    return Encounter(name="Test duel", system="duel", combatants=cs, sides=sides, seed=seed,
                     settings={"bonus": 0}, **kw)
