"""The model's `Attack` (a weapon profile) became `Weapon`, and the weapon a
command strikes with is its `weapon` field: files written before the rename
(tests/unit/fixtures/before-weapon-rename, copies of docs/examples as they
were) still open, to the same fight, and are written back in the new words."""
from __future__ import annotations

import json
import pathlib

import pytest

from fray.engine import storage
from fray.engine.model import Weapon

ROOT = pathlib.Path(__file__).resolve().parents[2]
OLD = ROOT / "tests" / "unit" / "fixtures" / "before-weapon-rename"
NAMES = ("olog-skirmish", "ose-detailed", "ogre-orc-and-pc")


@pytest.mark.parametrize("name", NAMES)
def test_a_file_written_before_the_rename_opens_to_the_same_fight(name):
    old_text = (OLD / f"{name}.json").read_text()
    assert '"attacks"' in old_text  # the fixture really is in the old words
    old = storage.loads(old_text).session
    new = storage.loads((ROOT / "docs" / "examples" / f"{name}.json").read_text()).session
    # the example may have grown since (OLOG-ACT-3 added Brak's End turn): the old file's steps are its start
    n = len(old.steps)
    assert old.state == new.state_at(n)
    assert [s.events for s in old.steps] == [s.events for s in new.steps[:n]]
    assert all(isinstance(w, Weapon) for c in old.state.combatants for w in c.weapons)


@pytest.mark.parametrize("name", NAMES)
def test_saving_writes_the_new_words_only(name):
    text = storage.dumps(storage.loads((OLD / f"{name}.json").read_text()).session)
    doc = json.loads(text)
    assert all("attacks" not in c and "weapons" in c for c in doc["encounter"]["combatants"])
    assert all("attack" not in s["command"] for s in doc["steps"] + doc.get("redo", []))
    assert text == storage.dumps(storage.loads(text).session)


def test_a_command_with_both_the_old_and_the_new_field_is_refused_not_guessed():
    doc = json.loads((ROOT / "docs" / "examples" / "olog-skirmish.json").read_text())
    step = next(s for s in doc["steps"] if "weapon" in s["command"])
    step["command"]["attack"] = step["command"]["weapon"]
    with pytest.raises(storage.LoadError) as err:
        storage.load(doc)
    assert "has no field 'attack'" in str(err.value)
