"""Benchmarks of the OSE rules on the "large" example: 40 combatants on a 30x20 grid."""
from __future__ import annotations

import pathlib
import random
import sys

import pytest

pytest.importorskip("pytest_benchmark")

# tests/conftest.py puts py/ on the path; the conformance helpers live in tests/unit.
for _p in (pathlib.Path(__file__).resolve().parents[2] / "py", pathlib.Path(__file__).resolve().parents[1] / "unit"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from fray.engine.session import Session  # noqa: E402
from fray.rules.ose import RULESET  # noqa: E402
from fray.rules.ose_base import Declare, RollInitiative  # noqa: E402
from fray.rules.ose_examples import large  # noqa: E402
from fray.views.ose import VIEW  # noqa: E402
from test_ose_conformance import fill  # noqa: E402


def _acting_session() -> Session:
    s = Session(large(11), RULESET)
    s.act(Declare("p1", "spell", "Sleep"))
    s.act(RollInitiative())
    return s


def test_options_for_every_actor_in_a_large_fight(benchmark):
    s = _acting_session()
    state = s.state

    def run():
        return sum(len(RULESET.options(state, c.id)) for c in state.combatants)

    assert benchmark(run) > 40


def test_panel_of_a_large_fight(benchmark):
    state = _acting_session().state
    panel = benchmark(VIEW.panel, state)
    assert len(panel.order) == 42


def test_a_full_random_playout_of_a_large_fight(benchmark):
    def run():
        rng = random.Random(5)
        s = Session(large(5), RULESET)
        for _ in range(600):
            if s.state.outcome:
                break
            current = s.current()
            allowed = [o for a in current for o in s.options(a) if o.allowed]
            real = [o for o in allowed if o.group not in ("Turn", "Referee")]
            o = rng.choice(real if real and rng.random() < 0.8 else allowed)
            cmd = fill(s.state, o, rng)
            if cmd is not None:
                s.act(cmd)
        return len(s.steps)

    assert benchmark.pedantic(run, rounds=3, iterations=1) > 50
