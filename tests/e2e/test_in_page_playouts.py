"""The engine's conformance playouts run INSIDE the page, in Pyodide's Python, and must play exactly as
CPython does: the same seeded random fights (every offered option applied, HP never above max (CORE-HP-1),
undo/redo and a save round trip restoring the same state) end with the same digest of save file, log and
final HP in both interpreters, for all three systems. A difference between CPython 3.11 and the page's
Python (float formatting, dict order, a stdlib change) shows up here as a differing digest.

The page exposes `window.frayPlayout` only when opened with `?selftest=1` (fray.ui.app.install_selftest).
"""
from __future__ import annotations

import json

import pytest
from harness import wait_ready

from fray import playout

EXAMPLES = {"olog": ("two_orcs", "superpredator", "eight_humans", "skirmish"),
            "ose": ("loose", "detailed", "undead"),
            "ogre": ("orc_and_pc", "three_vs_three", "twelve")}
SEEDS = range(3)
MAX_STEPS = 250
CASES = [(system, name, seed) for system, names in EXAMPLES.items() for name in names for seed in SEEDS]


@pytest.fixture
def device() -> str:
    """Not a journey: one interpreter is enough, so desktop only."""
    return "desktop"


def test_seeded_fights_play_the_same_in_the_page_as_in_cpython__CORE_HP_1(visit, base_url_local):
    page = visit
    page.goto(base_url_local + "?selftest=1")
    wait_ready(page)
    assert page.evaluate("typeof window.frayPlayout") == "function"
    out = json.loads(page.evaluate("([c, n]) => window.frayPlayout(c, n)", [json.dumps(CASES), MAX_STEPS]))
    assert "3.1" in out["python"], out["python"]  # the page's own interpreter, not this process's
    in_page = out["results"]
    here = playout.run_many(CASES, MAX_STEPS)
    assert len(in_page) == len(here) == len(CASES)
    errors = [r["error"] for r in in_page + here if "error" in r]
    assert not errors, "\n".join(errors)
    differ = [(a["system"], a["example"], a["seed"], a["steps"], b["steps"], a["hp"], b["hp"])
              for a, b in zip(in_page, here) if a != b]
    assert not differ, f"page ({out['python']}) and CPython played differently: {differ}"
    # The playouts go somewhere: every system reaches outcomes, and fights run for many steps. (A random
    # walk of Ogre's choices, delays and reactions included, ends a third of its fights within the steps:
    # which third moves with any change to what is offered.)
    for system in EXAMPLES:
        mine = [r for r in here if r["system"] == system]
        assert sum(1 for r in mine if r["outcome"]) >= len(mine) // 3, system
    assert sum(r["steps"] for r in here) > 1000

