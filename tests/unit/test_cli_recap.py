"""`python -m fray recap FILE [--json] [--html OUT] [--md OUT]` (issue #56): the page's own figures, per
combatant by id and for the fight, the recap files written, and a clear message for a file it cannot read."""
from __future__ import annotations

import io
import json
import pathlib

import pytest

from fray import cli, playout
from fray.engine import storage
from fray.views.recap import recap

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))
FIELDS = {"dealt", "taken", "healed", "hits", "misses", "down_at", "downed_by"}


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return cli.main(list(args), out, err), out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_recap_json_gives_the_pages_figures_for_every_example(path):
    code, out, err = run("recap", str(path), "--json")
    assert (code, err) == (0, "")
    got = json.loads(out)
    session = storage.loads(path.read_bytes()).session
    assert got == json.loads(json.dumps(recap(session).to_json()))
    assert got["fight"]["steps"] == len(session.steps) and len(got["combatants"]) == len(session.state.combatants)
    for figures in got["combatants"].values():
        assert FIELDS <= set(figures)
    unit = "segments" if session.encounter.system == "ogre" else "rounds"
    assert got["fight"][unit] == session.ruleset.clock.now(session.state)
    assert ("xp" in got["fight"]) == (session.encounter.system == "ose")


def test_a_long_saved_fight_recaps_as_its_log_says(tmp_path):
    session = playout.play("ose", "detailed", 11, max_steps=300)
    path = tmp_path / "fight.json"
    path.write_text(storage.dumps(session))
    code, out, _ = run("recap", str(path), "--json")
    got = json.loads(out)["combatants"]
    for c in session.state.combatants:
        taken = got[c.id]["taken"] - got[c.id]["healed"]
        assert taken == session.state_at(0).get(c.id).hp - c.hp
        assert got[c.id]["hits"] == sum(1 for _, e in session.log() if e.kind == "AttackHit" and e.actor == c.id)
        assert (got[c.id]["down_at"] is None) == (not c.is_down)


def test_recap_writes_the_html_and_markdown_files(tmp_path):
    page, text = tmp_path / "r.html", tmp_path / "r.md"
    code, out, err = run("recap", str(EXAMPLES[0]), "--html", str(page), "--md", str(text))
    assert (code, out, err) == (0, "", "")
    assert page.read_text().startswith("<!doctype html>") and "<svg" in page.read_text()
    assert text.read_text().startswith("# ")


def test_recap_text_names_each_combatant_and_the_fall():
    skirmish = next(p for p in EXAMPLES if "skirmish" in p.name)
    code, out, _ = run("recap", str(skirmish))
    assert code == 0 and "Goblin spear: HP -1/5" in out and "down at step 7 (round 1) by Brak" in out


def test_recap_players_view_keeps_monster_hp_out():
    skirmish = next(p for p in EXAMPLES if "skirmish" in p.name)
    code, out, _ = run("recap", str(skirmish), "--players")
    assert code == 0 and "Goblin spear: HP down" in out and "-1/5" not in out


def test_recap_of_a_missing_file_or_an_unwritable_output_says_why(tmp_path):
    code, out, err = run("recap", str(tmp_path / "nope.json"))
    assert code == cli.EXIT_PROBLEMS and out == "" and "nope.json: cannot read" in err
    code, _, err = run("recap", str(EXAMPLES[0]), "--html", str(tmp_path / "no" / "dir" / "r.html"))
    assert code == cli.EXIT_PROBLEMS and "r.html: cannot write" in err
