"""One conformance test for every registered system (issue 12): seeded random
fights over each of its examples, played by fray.playout (the same player the
page runs under ?selftest=1), each step held to the system's invariants
(tests/unit/support/invariants.py) and to playout's own: every option offered
as allowed applies, HP never above max (CORE-HP-1), undo and redo restore the
very state, a save loads back to the same state.

Each (system, example, seed) is its own test, so a failure names its fight.
FRAY_LONG=1 (CI) plays more seeds.
"""
from __future__ import annotations

import os

import pytest
from invariants import invariants_for

from fray import playout
from fray.rules import SYSTEMS, examples

SEEDS = 24 if os.environ.get("FRAY_LONG") else 8
LARGE_SEEDS = 3  # the 40-combatant examples are slow: a few seeds each
MAX_STEPS = 400
CASES = [(system, example, seed)
         for system in SYSTEMS for example in examples(system)
         for seed in range(LARGE_SEEDS if example == "large" else SEEDS)]


def test_every_registered_system_and_example_is_played():
    played = {(s, e) for s, e, _ in CASES}
    assert played == {(s, e) for s in SYSTEMS for e in examples(s)}
    assert {s for s, _ in played} == set(SYSTEMS) and len(SYSTEMS) >= 3


@pytest.mark.parametrize("system,example,seed", CASES, ids=[f"{s}-{e}-{n}" for s, e, n in CASES])
def test_a_random_fight_keeps_every_rule__OLOG_ACT_1__OSE_ORDER_1__OGRE_SEG_1(system, example, seed):
    inv = invariants_for(system)
    session = playout.play(system, example, seed, MAX_STEPS, observe=inv.step, interject=inv.interject)
    inv.end(session)
    assert session.steps, "the fight never started"


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_most_random_fights_reach_an_outcome(system):
    name = next(e for e in examples(system) if e != "large")
    ended = sum(bool(playout.play(system, name, seed, MAX_STEPS).state.outcome) for seed in range(100, 112))
    assert ended >= 8, f"only {ended} of 12 {system}/{name} fights were decided"
