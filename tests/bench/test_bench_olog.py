"""Benchmarks of OLOG: options for all 40 combatants of the large example, views, and whole random fights."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

pytest.importorskip("pytest_benchmark")

from fray.engine.dice import ScriptedDice  # noqa: E402
from fray.engine.session import Session  # noqa: E402
from fray.rules.olog import RULESET, RollInitiative  # noqa: E402
from fray.rules.olog.examples import examples  # noqa: E402
from fray.views.olog import VIEW, bands  # noqa: E402


def large_started() -> Session:
    s = Session(examples()["large"](1), RULESET)
    s.act(RollInitiative(), ScriptedDice([10, 11, 12, 13, 14, 15]))
    return s


def playout(name: str, seed: int, limit: int = 500) -> int:
    """One random fight to its outcome (or `limit` steps); returns the steps taken."""
    rng = random.Random(seed)
    s = Session(examples()[name](seed), RULESET)
    for n in range(limit):
        if s.state.outcome:
            return n
        allowed = [o for a in s.current() for o in s.options(a) if o.allowed]
        weapons = [o for o in allowed if o.group == "Attack"]
        o = rng.choice(weapons if weapons and rng.random() < 0.6 else allowed)
        cmd = o.command
        if o.choices:
            cmd = replace(cmd, **rng.choice(o.choices).values)
        s.act(cmd)
    return limit


def test_bench_options_for_every_actor_large(benchmark):
    s = large_started()
    ids = [c.id for c in s.state.combatants]
    result = benchmark(lambda: [RULESET.options(s.state, a) for a in ids])
    assert sum(len(r) for r in result) > 1000


def test_bench_options_for_the_current_actor_large(benchmark):
    s = large_started()
    actor = s.current()[0]
    assert benchmark(RULESET.options, s.state, actor)


def test_bench_panel_and_bands_large(benchmark):
    s = large_started()
    actor = s.current()[0]
    panel, model = benchmark(lambda: (VIEW.panel(s.state), bands(s.state, actor)))
    assert len(panel.order) == 40 and len(model.columns) == 8


def test_bench_random_playout_large(benchmark):
    steps = benchmark.pedantic(playout, args=("large", 3), rounds=3, iterations=1)
    assert steps > 0


def test_bench_random_playout_skirmish(benchmark):
    steps = benchmark(playout, "skirmish", 3)
    assert steps > 0
