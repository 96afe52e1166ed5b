"""OLOG conformance: 200 seeded random fights over the examples, choosing random allowed
options (and random answers to their questions) until the fight is decided or 500 steps.

Every allowed option offered must resolve; invariants a referee relies on hold
at every step: HP never above max (CORE-HP-1), down combatants never act, an
actor keeps the turn only with actions or split attacks left (OLOG-ACT-1,
OLOG-ATK-1), counts change only by Strategise at a round's start or by the
referee (OLOG-INIT-3, OLOG-STRAT-1), undo restores the previous state exactly.
"""
from __future__ import annotations

import random
import zlib
from dataclasses import replace

import pytest

from fray.engine.commands import Command, Option
from fray.engine.dice import SeededDice
from fray.engine.ruleset import Allow, Damage, Heal
from fray.engine.session import Session
from fray.rules.olog import ACTIONS, RULESET, OlogState, SetCount
from fray.rules.olog_examples import examples
from fray.rules.olog_pressure import pressure_map, pressure_on
from fray.views.olog import VIEW, bands

CASES = ([(name, seed) for name in ("two_orcs", "superpredator", "eight_humans", "skirmish")
          for seed in range(48)] + [("large", seed) for seed in range(8)])
MAX_STEPS = 500


def filled(option: Option, rng: random.Random) -> Command:
    cmd = option.command
    if option.choices:
        cmd = replace(cmd, **rng.choice(option.choices).values)
    if "spell" in option.needs:
        cmd = replace(cmd, spell=rng.choice(("Sleep", "Light", "Fireball")))
    return cmd


def referee_move(session: Session, rng: random.Random) -> Command | None:
    """Now and then the referee steps in, as at a real table (CORE-REF-1)."""
    state = session.state
    standing = [c for c in state.combatants if not c.is_down]
    roll = rng.random()
    c = rng.choice(standing)
    if roll < 0.25:
        return SetCount(c.id, rng.randint(0, 25))
    if roll < 0.45:
        ids = [r.id for r in VIEW.panel(state).order if r.draggable]
        if len(ids) >= 2:
            return VIEW.reorder(state, ids[-1], ids[0])
        return None
    if roll < 0.6:
        return Damage(c.id, rng.randint(1, 4))
    if roll < 0.75:
        return Heal(rng.choice(state.combatants).id, rng.randint(1, 4))
    refused = [o for a in session.current() for o in session.options(a) if not o.allowed]
    if refused:
        return Allow(filled(rng.choice(refused), rng))
    return None


def check_step(before, after, cmd: Command, events) -> None:
    s0: OlogState = before.system
    s1: OlogState = after.system
    for c in after.combatants:
        assert c.hp <= c.max_hp, f"{c.name} above max HP"
    if isinstance(cmd, ACTIONS):
        actor = before.get(cmd.actor)
        assert not actor.is_down, f"down {actor.name} acted"
        assert s0.actor == cmd.actor, f"{actor.name} acted out of turn"
        if s1.actor == cmd.actor and s1.turn == s0.turn:
            assert s1.actions_left > 0 or s1.attacks_left > 0, f"{actor.name} kept a spent turn"
    if s1.counts != s0.counts and s0.phase == "fight" and not isinstance(cmd, SetCount):
        assert after.round == before.round + 1 or after.round > before.round, "counts changed mid-round"
        # this round's Strategise deltas, including one made by this very step
        now = [(e.actor, e.data["delta"]) for e in events if e.kind == "Strategised"]
        expected = {k: v + s0.delta(k) + sum(d for a, d in now if a == k) for k, v in s0.counts}
        assert dict(s1.counts) == expected, "counts changed by something other than Strategise"
    if not any(e.kind == "Strategised" for e in events):
        for k, v in s1.pending:
            assert (k, v) in s0.pending, "a pending count change appeared without Strategise"
    assert after.rolls >= before.rolls
    if s1.actor:
        assert not after.get(s1.actor).is_down, "a down combatant holds the turn"


@pytest.mark.parametrize("name,seed", CASES)
def test_random_fight_obeys_the_rules__OLOG_ACT_1(name, seed):
    rng = random.Random(zlib.crc32(name.encode()) * 1000 + seed)
    session = Session(examples()[name](seed), RULESET)
    for step_no in range(MAX_STEPS):
        state = session.state
        if state.outcome:
            break
        current = session.current()
        assert current, "nobody to act and no outcome"
        options = [o for a in current for o in session.options(a)]
        allowed = [o for o in options if o.allowed]
        assert allowed, f"{current} has no allowed option"
        if step_no % 5 == 0:  # every allowed option resolves, with any answer to its question
            for o in allowed:
                for choice in o.choices or (None,):
                    cmd = replace(o.command, **choice.values) if choice else o.command
                    if "spell" in o.needs:
                        cmd = replace(cmd, spell="Light")
                    assert session.check(cmd) is None, f"offered {o.label} but refused: {session.check(cmd)}"
                    RULESET.resolve(state, cmd, SeededDice(seed, state.rolls))
        if rng.random() < 0.05:
            cmd = referee_move(session, rng)
            if cmd is None or session.check(cmd) is not None:
                continue
        else:
            attacks = [o for o in allowed if o.group == "Attack"]
            cmd = filled(rng.choice(attacks if attacks and rng.random() < 0.6 else allowed), rng)
        step = session.act(cmd)
        check_step(state, session.state, cmd, step.events)
        if step_no % 17 == 0:
            after = session.state
            session.undo()
            assert session.state == state
            session.redo()
            assert session.state == after
        if step_no % 23 == 0:
            now = session.state
            bands(now, rng.choice(now.combatants).id)
            VIEW.panel(now)
            assert pressure_map(now) == {c.id: pressure_on(now, c.id) for c in now.combatants}
