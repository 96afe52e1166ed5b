"""Who stands next to whom, looked up around a square (rules/ose/bodies.py `near_index`, `within`), says the
same as the scan over the whole fight it replaced: a shot is refused by an adjacent standing enemy
(OSE-RANGED-1), and a step is skipped for whoever has nothing left to do in it (OSE-ORDER-1)."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from fray.engine.geometry import chebyshev
from fray.engine.session import Session
from fray.rules.ose import examples
from fray.rules.ose.ranged import ranged_blocked_by
from fray.rules.ose.bodies import bodies, shooter_blocked_by, within
from fray.rules.ose.round import active_actors
from fray.rules.ose.state import is_out


def crowded(seed: int):
    """The large example with everyone put on random squares of a small patch (many neighbours), some
    off the grid, some down, some fled."""
    rng = random.Random(seed)
    enc = examples.large(seed)
    squares = rng.sample([(x, y) for x in range(8) for y in range(8)], len(enc.combatants))
    cs = []
    for c, sq in zip(enc.combatants, squares):
        sq = None if rng.random() < 0.1 else sq
        c = replace(c, square=sq)
        if rng.random() < 0.15:
            c = replace(c, hp=0)
        if rng.random() < 0.1:
            c = replace(c, conditions=c.conditions + ("fled",))
        cs.append(c)
    return Session(replace(enc, combatants=tuple(cs)))


@pytest.mark.parametrize("seed", range(6))
def test_adjacent_enemies_by_square_match_the_scan__OSE_RANGED_1(seed):
    s = crowded(seed)
    bs = bodies(s.state)
    for c in s.state.combatants:
        me = next((b for b in bs if b.id == c.id), None)
        got_me, near = shooter_blocked_by(s.state, c.id)
        assert got_me == me
        if me is not None:
            assert near == ranged_blocked_by(me, bs, lambda x, y: s.state.hostile(x, y))
    assert any(shooter_blocked_by(s.state, c.id)[1] for c in s.state.combatants)  # the patch is crowded


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("reach", (0, 1, 2, 5))
def test_within_reach_matches_the_scan_in_the_fights_order__OSE_ORDER_1(seed, reach):
    s = crowded(seed)
    for c in s.state.combatants:
        if c.square is None:
            continue
        scan = [o for o in s.state.combatants if o.square is not None and chebyshev(c.square, o.square) <= reach]
        assert within(s.state, c.square, reach) == scan


def test_who_still_acts_in_a_step_is_unchanged_by_the_lookup__OSE_ORDER_1():
    # Whoever is skipped in the melee step has no standing enemy in reach; whoever is not has one.
    s = crowded(1)
    for c in s.state.combatants:
        if c.square is None or is_out(c):
            continue
        near = [o for o in s.state.combatants if not is_out(o) and o.square is not None
                and s.state.hostile(c, o) and chebyshev(c.square, o.square) <= 1]
        assert bool(near) == any(not is_out(o) and s.state.hostile(c, o) for o in within(s.state, c.square, 1))
    assert isinstance(active_actors(s.state), tuple)
