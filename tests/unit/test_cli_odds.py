"""`python -m fray odds FILE [--actor ID] [--json] [--exact]`: each option of an actor with its odds (CORE-ODDS-1)."""
from __future__ import annotations

import io
import json
import pathlib
from fractions import Fraction

import pytest

from fray import cli

from test_cli import EXAMPLES, fray

ROOT = pathlib.Path(__file__).resolve().parents[2]
OGRE = ROOT / "docs" / "examples" / "ogre-orc-and-pc.json"
OLOG = ROOT / "docs" / "examples" / "olog-skirmish.json"


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(list(args), out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_prints_each_option_of_whoever_acts_now__CORE_ODDS_1(path):
    status, out, err = run("odds", str(path))
    assert status == cli.EXIT_OK and err == ""
    lines = out.splitlines()
    assert lines[0].endswith("):") and any(line.startswith(" 1. ") for line in lines)
    assert any("%" in line for line in lines)  # a distribution row at least


def test_the_json_gives_exact_fractions_summing_to_one__CORE_ODDS_1():
    status, out, _ = run("odds", str(OGRE), "--json")
    data = json.loads(out)
    assert status == 0 and data["actor"] == "brak"
    computed = [o for o in data["options"] if "outcomes" in o]
    assert computed and all(sum(Fraction(c["p"]) for c in o["outcomes"]) == 1 for o in computed)
    react = next(o for o in computed if o["label"] == "React")
    assert react["exact"] and {c["value"] for c in react["outcomes"]} == {"Attack hit", "Attack missed"}
    refused = [o for o in data["options"] if "note" in o]
    assert refused and all(o["note"] for o in refused)


def test_an_actor_can_be_named_and_an_unknown_one_is_a_clear_problem__CORE_ODDS_1():
    status, out, _ = run("odds", str(OGRE), "--actor", "orc")
    assert status == 0 and out.startswith("Orc (orc):")
    status, out, err = run("odds", str(OGRE), "--actor", "nobody")
    assert status == cli.EXIT_PROBLEMS and "no such combatant" in err and out == ""


def test_exact_on_request_never_says_approximately__CORE_ODDS_1():
    status, out, _ = run("odds", str(OLOG), "--exact")
    assert status == 0 and "≈" not in out and "exact (" in out


def test_the_module_runs_from_the_shell__CORE_ODDS_1():
    done = fray("odds", str(OLOG))
    assert done.returncode == 0 and "%" in done.stdout
    done = fray("odds")
    assert done.returncode == cli.EXIT_USAGE
