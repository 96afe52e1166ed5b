"""OSE conformance: many seeded random fights per profile; every offered allowed option applies; invariants hold.

OSE-LOOSE-1 and the detailed rules (OSE-ORDER-1, OSE-AOO-1, OSE-SPELL-3...) are
played through random legal choices, as OpenSpiel does for its games.
"""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from fray.engine import storage
from fray.engine.commands import Option
from fray.engine.geometry import shortest_path
from fray.engine.session import Session
from fray.engine.state import State
from fray.rules.ose import RULESET
from fray.rules.ose_base import Move, grid_of, hostile_fn, rate_ft
from fray.rules.ose_examples import examples
from fray.rules.ose_move import move_left

MAX_STEPS = 400


def fill(state: State, o: Option, rng: random.Random):
    """A concrete command for an option that needs fields, or None when none fits."""
    cmd = o.command
    if "path" in o.needs:
        c = state.get(cmd.actor)
        budget = move_left(state, c) if isinstance(cmd, Move) else rate_ft(state, c)
        bodies = RULESET.bodies(state)
        me = next(b for b in bodies if b.id == c.id)
        grid = grid_of(state)
        enemies = [b.square for b in bodies if not b.is_down and state.hostile(c.side, b.side)]
        for _ in range(6):
            if enemies and rng.random() < 0.6:
                ex, ey = rng.choice(enemies)
                goal = (ex + rng.randint(-1, 1), ey + rng.randint(-1, 1))
            else:
                goal = (rng.randrange(grid.width), rng.randrange(grid.height))
            path = shortest_path(grid, tuple(c.square), goal, me, bodies, hostile_fn(state), max_ft=budget)
            if path and len(path) > 1:
                return replace(cmd, path=tuple(path))
        return None
    if o.choices:
        cmd = replace(cmd, **rng.choice(o.choices).values)
        if hasattr(cmd, "concentration"):
            cmd = replace(cmd, concentration=rng.random() < 0.3)
    if "text" in o.needs:
        return replace(cmd, text="tries something")
    if "note" in o.needs:
        return replace(cmd, note="opens a door")
    return cmd


def check_invariants(before: State, after: State, step) -> None:
    seen = set()
    for c in after.combatants:
        assert c.hp <= c.max_hp, f"{c.id} above max HP"
        assert int(c.stat("slots", 0) or 0) >= 0
        if c.has_condition("fled"):
            assert c.square is None
        if c.square is not None and not c.is_down and not c.has_condition("fled"):
            assert c.square not in seen, f"two standing combatants on {c.square}"
            seen.add(c.square)
    s = after.system
    for cid, spell in s.casting.items():
        c = after.get(cid)
        assert not c.is_down and s.phase == "act" and spell in tuple(c.stat("spells", ()))
    for b in RULESET.bodies(after):
        if b.is_down:
            assert not b.threatens
    # OSE-SPELL-3: damage to a caster between initiative and completion loses the spell.
    for e in step.events:
        if e.kind == "DamageTaken" and e.target in before.system.casting:
            assert any(x.kind == "SpellLost" and x.target == e.target for x in step.events)
            assert e.target not in after.system.casting
    if after.prompt is not None:
        assert RULESET.current(after) == (after.prompt.actor,)


def playout(name: str, seed: int, check_save: bool = False) -> Session:
    rng = random.Random(seed * 7919 + len(name))
    s = Session(examples()[name](seed), RULESET)
    for _ in range(MAX_STEPS):
        if s.state.outcome:
            break
        current = s.current()
        assert current, f"no one can act in round {s.state.round} ({s.state.system.phase})"
        # Views and options for someone not acting must not fail either.
        RULESET.options(s.state, rng.choice(s.state.combatants).id)
        allowed = [(a, o) for a in current for o in s.options(a) if o.allowed]
        assert allowed, f"{current} have no allowed option"
        # Favour real actions over "done" so fights get somewhere.
        real = [x for x in allowed if x[1].group not in ("Turn", "Referee")]
        _, o = rng.choice(real if real and rng.random() < 0.8 else allowed)
        cmd = fill(s.state, o, rng)
        if cmd is None:
            continue
        before = s.state
        step = s.act(cmd)  # IllegalCommand here means an option was offered but refused
        check_invariants(before, s.state, step)
    if check_save:
        again = storage.loads(storage.dumps(s)).session
        assert again.state == s.state
    return s


@pytest.mark.parametrize("seed", range(100))
def test_loose_random_fights_apply_every_offered_option__OSE_LOOSE_1(seed):
    s = playout("loose", seed, check_save=seed % 10 == 0)
    assert s.steps


@pytest.mark.parametrize("seed", range(100))
def test_detailed_random_fights_apply_every_offered_option__OSE_ORDER_1(seed):
    s = playout("detailed", seed, check_save=seed % 10 == 0)
    assert s.steps


@pytest.mark.parametrize("seed", range(30))
def test_undead_random_fights_apply_every_offered_option__OSE_TURN_1(seed):
    playout("undead", seed, check_save=seed % 10 == 0)


def test_most_random_fights_end():
    ended = sum(bool(playout("detailed", seed).state.outcome) for seed in range(200, 230))
    assert ended >= 20
