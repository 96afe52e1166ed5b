"""Odds-ready time (CORE-ODDS-1): for the 40-combatant benchmark encounters, how long until the selected
combatant's odds are all worked out, as the page works them (ui/page/odds_ui.py: the page budget, option after
option in the panel's order, in 4 ms parts). Target in the page: p95 <= 150 ms from the tap.

Run: .venv/bin/python -m pytest tests/bench/test_bench_odds.py -q -s
It prints, per system, p50/p95 over selecting each of the 40 (and over the ones acting now) in CPython;
Pyodide runs such Python about 1.2-1.9x slower (../shared/PERF-NOTES.md). Never pass/fail on timing.
"""
from __future__ import annotations

import time

import pytest

from fray.engine.odds import PAGE_BUDGET, Working
from fray.views.odds import option_command
from fray.views.panels import action_menu, system_view

from fray.engine.dice import ScriptedDice
from fray.engine.session import Session
from fray.rules import examples


def olog_large() -> Session:
    """As tests/bench/test_bench_olog.py: the forty, initiative rolled."""
    from fray.rules.olog import RollInitiative
    s = Session(examples("olog")["large"](1))
    s.act(RollInitiative(), ScriptedDice([10, 11, 12, 13, 14, 15]))
    return s


def ose_large() -> Session:
    """As tests/bench/test_bench_ose.py: a spell declared, initiative rolled."""
    from fray.rules.ose import Declare, RollInitiative
    s = Session(examples("ose")["large"](11))
    s.act(Declare("p1", "spell", "Sleep"))
    s.act(RollInitiative())
    return s


def ogre_large() -> Session:
    """As tests/bench/test_bench_ogre.py: the forty at the first segment where someone declares."""
    from fray.rules.ogre import commands as oc
    s = Session(examples("ogre")["large"](1))
    s.act(oc.RollInitiative(), ScriptedDice([(i % 10) + 1 for i in range(40)]))
    s.act(oc.Advance())
    return s

CHUNK_S = 0.004
SESSIONS = {"olog": olog_large, "ose": ose_large, "ogre": ogre_large}


def odds_ready_ms(session, sel: str) -> tuple[float, int, int]:
    """Milliseconds until every option of `sel` has its odds (options and menu included, as the page
    computes them on the tap), the options with odds, and how many of them are a sample."""
    rs, state = session.ruleset, session.state
    t0 = time.perf_counter()
    options = rs.options(state, sel)
    menu = action_menu(rs, state, sel, system_view(state.encounter.system).panel(state), options)
    done = sampled = 0
    for _, items in menu.groups:
        for it in items:
            cmd = option_command(options[it.index])
            if cmd is None:
                continue
            job = Working(rs, state, cmd, PAGE_BUDGET, seed=session.encounter.seed)
            while job.work(CHUNK_S) is None:
                pass
            done += 1
            sampled += bool(getattr(job.result, "samples", 0))
    return (time.perf_counter() - t0) * 1000, done, sampled


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


@pytest.mark.parametrize("system", list(SESSIONS))
def test_bench_odds_ready_for_each_selection_of_the_forty(system):
    session = SESSIONS[system]()
    acting = set(session.current())
    times, acting_times, counts = [], [], []
    for _ in range(3):  # three passes: the first one warms the interpreter's caches as a page would
        for c in session.state.combatants:
            ms, n, sampled = odds_ready_ms(session, c.id)
            times.append(ms)
            counts.append((n, sampled))
            if c.id in acting:
                acting_times.append(ms)
    print(f"\n{system}: odds ready over 40 selections x3: p50 {pct(times, .5):.1f} ms, p95 {pct(times, .95):.1f} ms, "
          f"max {max(times):.1f} ms; acting now ({', '.join(sorted(acting))}): p50 {pct(acting_times, .5):.1f} ms, "
          f"p95 {pct(acting_times, .95):.1f} ms; options with odds per selection up to {max(n for n, _ in counts)}, "
          f"sampled up to {max(s for _, s in counts)}")
    assert times
