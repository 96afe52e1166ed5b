"""Benchmarks of the OSE rules on the "large" example: 40 combatants on a 30x20 grid."""
from __future__ import annotations

import pathlib
import sys

import pytest

pytest.importorskip("pytest_benchmark")

# tests/conftest.py puts py/ on the path; the conformance helpers live in tests/unit.
for _p in (pathlib.Path(__file__).resolve().parents[2] / "py", pathlib.Path(__file__).resolve().parents[1] / "unit" / "ose"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from fray.engine.session import Session  # noqa: E402
from fray.rules.ose import RULESET  # noqa: E402
from fray.rules.ose import Declare, RollInitiative  # noqa: E402
from fray.rules.ose.examples import large  # noqa: E402
from fray.views.ose import VIEW  # noqa: E402
from fray import playout  # noqa: E402


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
        return len(playout.play("ose", "large", 5, 600).steps)

    assert benchmark.pedantic(run, rounds=3, iterations=1) > 50
