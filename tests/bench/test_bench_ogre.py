"""Benchmarks of Ogre: options for all 40 combatants of the large example, the panel and ruler, whole random fights."""
from __future__ import annotations

import pathlib
import random
import sys
from dataclasses import replace

import pytest

pytest.importorskip("pytest_benchmark")

if "fray" not in sys.modules:  # until a shared conftest puts py/ on the path
    _PY = str(pathlib.Path(__file__).resolve().parents[2] / "py")
    if _PY not in sys.path:
        sys.path.insert(0, _PY)

from fray.engine.dice import ScriptedDice  # noqa: E402
from fray.engine.session import Session  # noqa: E402
from fray.rules.ogre import commands as oc  # noqa: E402
from fray.rules.ogre import grid as og  # noqa: E402
from fray.rules.ogre import RULESET  # noqa: E402
from fray.rules.ogre.examples import examples  # noqa: E402
from fray.views.ogre import VIEW, ruler  # noqa: E402


def large_started() -> Session:
    """The forty, at the first segment where someone declares."""
    s = Session(examples()["large"](1), RULESET)
    s.act(oc.RollInitiative(), ScriptedDice([(i % 10) + 1 for i in range(40)]))
    s.act(oc.Advance())
    return s


def playout(name: str, seed: int, limit: int = 3000) -> int:
    """One random fight to its outcome (or `limit` steps); returns the steps taken."""
    rng = random.Random(seed)
    s = Session(examples()[name](seed), RULESET)
    for n in range(limit):
        if s.state.outcome:
            return n
        actor = rng.choice(s.current())
        allowed = [o for o in s.options(actor) if o.allowed and o.group != "Referee"]
        weapons = [o for o in allowed if o.group == "Attack"]
        o = rng.choice(weapons if weapons and rng.random() < 0.6 else allowed)
        cmd = o.command
        if o.choices:
            cmd = replace(cmd, **rng.choice(o.choices).values)
        if "path" in o.needs:
            c = s.state.get(actor)
            kind = getattr(cmd, "kind", "move")
            paths = [p for _, p in og.move_suggestions(s.state, c, (kind,))[kind]
                     if og.path_problem(s.state, c, p, kind if hasattr(cmd, "kind") else "withdraw") is None]
            if not paths:
                cmd = oc.Delay(actor) if o.group != "Turn" else cmd
                if RULESET.check(s.state, cmd) is not None:
                    continue
            else:
                cmd = replace(cmd, path=rng.choice(paths))
        elif o.needs:
            continue
        s.act(cmd)
    return limit


def test_bench_options_for_every_actor_large(benchmark):
    s = large_started()
    ids = [c.id for c in s.state.combatants]
    assert RULESET.declaring(s.state)
    result = benchmark(lambda: [RULESET.options(s.state, a) for a in ids])
    assert sum(len(r) for r in result) > 200


def test_bench_options_for_a_declaring_actor_large(benchmark):
    s = large_started()
    actor = RULESET.declaring(s.state)[0]
    assert len(benchmark(RULESET.options, s.state, actor)) > 20


def test_bench_move_suggestions_large(benchmark):
    s = large_started()
    c = s.state.get(RULESET.declaring(s.state)[0])
    result = benchmark(og.move_suggestions, s.state, c, ("quick", "short", "move"))
    assert result["move"]


def test_bench_panel_and_ruler_large(benchmark):
    s = large_started()
    panel, model = benchmark(lambda: (VIEW.panel(s.state), ruler(s.state)))
    assert len(panel.order) == 40 and len(model.lanes) == 40


def test_bench_random_playout_large(benchmark):
    steps = benchmark.pedantic(playout, args=("large", 3), rounds=1, iterations=1)
    assert steps > 40


def test_bench_random_playout_twelve(benchmark):
    steps = benchmark.pedantic(playout, args=("twelve", 5), rounds=3, iterations=1)
    assert steps > 12
