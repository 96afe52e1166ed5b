"""The setup editor's form and edits (issue #33, "a fight built in a minute"): zones counted from 1 as the
field counts them, and a weapon renamed with what its combatant holds."""
from __future__ import annotations

import re

import pytest

import fray.rules  # noqa: F401 (the systems a document names)
from fray import presets
from fray.engine import storage
from fray.rules import get
from fray.ui.markup import editor


def olog_doc() -> dict:
    return presets.blank_encounter("olog")


# --- zones counted one way -----------------------------------------------------------------------

def test_the_zone_field_counts_from_1_like_the_field_and_stores_from_0():
    doc = olog_doc()
    doc["combatants"][0]["band"] = 2  # the field shows it as "Zone 3"
    form = str(editor.render(doc, get("olog"), [], 0))
    zone = re.search(r'<label class="f f-zone"><span>([^<]*)</span><input ([^>]*)>', form)
    assert zone, "the zone field is drawn"
    assert zone.group(1) == "Zone (1 to 6)" and "0 = first" not in form
    assert 'value="3"' in zone.group(2) and 'data-path="combatants/0/band"' in zone.group(2)


@pytest.mark.parametrize("typed, stored", [("1", 0), ("3", 2), ("6", 5), ("", None)])
def test_a_zone_typed_from_1_is_stored_from_0(typed, stored):
    assert editor.convert("zone", typed) == stored


@pytest.mark.parametrize("typed", ["0", "-1", "two"])
def test_a_zone_below_1_or_not_a_number_is_refused(typed):
    with pytest.raises(editor.EditError):
        editor.convert("zone", typed)


def test_zone_3_typed_in_setup_is_zone_3_on_the_field():
    doc = editor.set_field(olog_doc(), "combatants/0/band", editor.convert("zone", "3"))
    enc, _ = storage.encounter_from_json(doc, [])
    assert enc.combatants[0].band == 2  # the field draws band 2 as "Zone 3" (views/olog.py)


# --- renames that follow -------------------------------------------------------------------------

def test_renaming_a_weapon_renames_what_the_hands_hold_and_its_item():
    doc = olog_doc()  # Mira: Longsword in hand, Short bow in the pack
    new = editor.set_field(doc, "combatants/0/weapons/0/name", "Moonblade")
    mira = new["combatants"][0]
    assert mira["weapons"][0]["name"] == "Moonblade" and mira["weapons"][0]["item"] == "Moonblade"
    assert mira["hands"] == ["Moonblade", ""]
    assert doc["combatants"][0]["hands"] == ["Longsword", ""], "the old draft is unchanged (undo)"
    enc, _ = storage.encounter_from_json(new, [])
    assert enc is not None and enc.combatants[0].hands[0] == "Moonblade"


def test_renaming_a_carried_weapon_renames_it_in_the_inventory():
    new = editor.set_field(olog_doc(), "combatants/0/weapons/1/name", "Elm bow")
    mira = new["combatants"][0]
    assert "Elm bow" in mira["inventory"] and "Short bow" not in mira["inventory"]
    assert mira["weapons"][1]["item"] == "Elm bow"


def test_an_attack_that_needs_another_item_renames_only_the_attack():
    doc = olog_doc()
    doc["combatants"][0]["weapons"][0]["name"] = "Lunge"  # an attack made with the Longsword
    new = editor.set_field(doc, "combatants/0/weapons/0/name", "Riposte")
    mira = new["combatants"][0]
    assert mira["weapons"][0] == {**doc["combatants"][0]["weapons"][0], "name": "Riposte"}
    assert mira["hands"] == ["Longsword", ""]


def test_every_weapon_needing_the_renamed_item_follows():
    doc = olog_doc()
    doc["combatants"][0]["weapons"].append({"name": "Pommel strike", "damage": "1d4", "item": "Longsword"})
    new = editor.set_field(doc, "combatants/0/weapons/0/name", "Moonblade")
    assert new["combatants"][0]["weapons"][2]["item"] == "Moonblade"
