"""OSE-SPELL-5: a caster's memory became the `spells` list itself (it was a list of
prepared spells and a count of `slots`). Files written before (a copy of
docs/examples/ose-detailed.json as it was, in tests/unit/fixtures/before-memorised-spells)
open to the same fight through the system's `upgrade` hook, and are written back in the new words."""
from __future__ import annotations

import json
import pathlib

from fray.engine import storage
from fray.rules.ose import RULESET

ROOT = pathlib.Path(__file__).resolve().parents[1].parent
OLD = ROOT / "tests" / "unit" / "fixtures" / "before-memorised-spells" / "ose-detailed.json"
NEW = ROOT / "docs" / "examples" / "ose-detailed.json"


def test_a_file_with_a_slot_count_opens_to_the_same_fight__OSE_SPELL_5():
    old_text = OLD.read_text()
    assert '"slots": 2' in old_text  # the fixture really is in the old words
    old = storage.loads(old_text).session
    new = storage.loads(NEW.read_text()).session
    assert old.state == new.state and len(old.steps) == len(new.steps)
    assert [s.events for s in old.steps] == [s.events for s in new.steps]
    mira = old.encounter.combatants[1]
    assert mira.stat("spells") == ("Sleep", "Magic Missile") and "slots" not in mira.stats


def test_saving_an_old_file_writes_the_memory_list_only__OSE_SPELL_5():
    text = storage.dumps(storage.loads(OLD.read_text()).session)
    doc = json.loads(text)
    assert all("slots" not in c["stats"] for c in doc["encounter"]["combatants"])
    assert text == storage.dumps(storage.loads(text).session)


def test_a_slot_count_becomes_the_list_it_implies__OSE_SPELL_5():
    def upgraded(spells, slots, steps=()):
        doc = {"encounter": {"system": "ose", "combatants": [{"id": "m", "stats": {"spells": spells, "slots": slots}}]},
               "steps": list(steps)}
        return RULESET.upgrade(doc)
    assert upgraded(["Sleep", "Light"], 1)["encounter"]["combatants"][0]["stats"] == {"spells": ["Sleep"]}
    assert upgraded(["Sleep"], 3)["encounter"]["combatants"][0]["stats"] == {"spells": ["Sleep"] * 3}
    assert upgraded(["Sleep"], 0)["encounter"]["combatants"][0]["stats"] == {"spells": []}
    step = {"command": {"type": "SetStat", "target": "m", "key": "slots", "value": 2}, "dice": []}
    assert upgraded(["Sleep", "Light"], 0, [step])["steps"][0]["command"] == {
        "type": "SetStat", "target": "m", "key": "spells", "value": ["Sleep", "Light"]}
    untouched = {"encounter": {"system": "ose", "combatants": [{"id": "m", "stats": {"spells": ["Sleep"]}}]}}
    assert RULESET.upgrade(untouched) is untouched
    assert RULESET.upgrade({"encounter": "nonsense"}) == {"encounter": "nonsense"}
