"""Enumerated odds agree with seeded resolutions (CORE-ODDS-1): a property over random states of every system.

The states come from seeded random fights (fray.playout); in each, every
option of the actor whose odds are exact and need some dice is compared with
the frequencies of seeded resolutions of the same command by the same rules.
About 20,000 resolutions in all, each value's frequency within 4.5 standard
errors (plus a little for tiny chances). The probabilities themselves must
be Fractions that sum to exactly 1.
"""
from __future__ import annotations

import math
from fractions import Fraction

import pytest

from fray import playout
from fray.engine.dice import SeededDice
from fray.engine.odds import Budget, Odds, consequence_of, odds

CASES = [("olog", "skirmish", 3, 4), ("olog", "two_orcs", 5, 1), ("olog", "large", 2, 6),
         ("ose", "loose", 4, 3), ("ose", "detailed", 7, 5), ("ose", "undead", 2, 4),
         ("ogre", "orc_and_pc", 3, 3), ("ogre", "three_vs_three", 6, 8), ("ogre", "twelve", 4, 5)]
PER_CASE = 2_400  # resolutions per state, shared by its commands
BUDGET = Budget(branches=3000, seconds=5.0)


def random_state(system: str, example: str, seed: int, steps: int):
    s = playout.play(system, example, seed, max_steps=steps)
    rng = playout.Chooser(seed)
    commands = []
    for actor in s.current():
        for o in s.options(actor):
            if o.allowed:
                cmd = playout.fill(s, o, rng)
                if cmd is not None and s.check(cmd) is None:
                    commands.append(cmd)
    return s, commands


def frequencies(rs, state, cmd, n: int, seed: int) -> dict[int, int]:
    run = consequence_of(rs)
    ids = [c.id for c in state.combatants]
    counts: dict[int, int] = {}
    for k in range(n):
        new, _ = run(state, cmd, SeededDice(seed * 7919 + k, state.rolls))
        lost = sum(max(0, c.hp - new.get(c.id).hp) for c in state.combatants if c.id in ids)
        counts[lost] = counts.get(lost, 0) + 1
    return counts




def rolling_state(system: str, example: str, seed: int, steps: int):
    """The first state from `steps` on in which some option's exact odds need dice."""
    for k in range(steps, steps + 40):
        s, commands = random_state(system, example, seed, k)
        found = []
        for cmd in commands:
            o = odds(s.ruleset, s.state, cmd, budget=BUDGET)
            assert isinstance(o, Odds)
            for dist in (o.dealt, o.taken, o.everyone, *(d for _, d in o.rolls)):
                assert all(isinstance(p, Fraction) for _, p in dist) and sum(p for _, p in dist) == 1
            assert sum(p for _, p in o.outcomes) == 1
            if o.exact and len(o.everyone) > 1:
                found.append((cmd, o))
        if found:
            return s, found
    raise AssertionError(f"no option of {system}/{example} seed {seed} rolled dice that matter")


@pytest.mark.parametrize("system,example,seed,steps", CASES)
def test_enumerated_odds_match_seeded_resolutions__CORE_ODDS_1__CORE_DICE_1(system, example, seed, steps):
    s, exact = rolling_state(system, example, seed, steps)
    n = max(300, PER_CASE // len(exact))
    for i, (cmd, o) in enumerate(exact):
        counts = frequencies(s.ruleset, s.state, cmd, n, seed + i)
        expected = dict(o.everyone)
        assert set(counts) <= set(expected), (cmd, counts, expected)
        for v, p in expected.items():
            f = counts.get(v, 0) / n
            se = math.sqrt(float(p) * (1 - float(p)) / n)
            assert abs(f - float(p)) <= 4.5 * se + 2 / n, (cmd, v, f, float(p))
