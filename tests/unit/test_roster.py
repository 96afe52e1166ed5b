"""The roster: saving a combatant, numbered copies, the party, the file format, the starter bestiary."""
from __future__ import annotations

import json

import pytest

import fray.rules  # noqa: F401  (installs the systems the loader looks up)
from fray import bestiary, presets, roster
from fray.engine import storage

NOW = 1_800_000_000_000


def draft():
    return presets.blank_encounter("ose", "detailed")


def goblin():
    c = presets.preset("Goblin", "goblin-1", "orcs")
    c["name"] = "Goblin 3"
    c["hp"] = 1
    return roster.from_combatant(c, "ose", "r1", NOW)


def test_a_saved_monster_is_kept_unhurt_under_its_base_name():
    e = goblin()
    assert e["name"] == "Goblin" and e["combatant"]["hp"] == e["combatant"]["max_hp"] == 4
    assert not e["pc"] and "id" not in e["combatant"] and "side" not in e["combatant"]


def test_four_copies_are_numbered_and_valid():
    doc = roster.add_copies(draft(), goblin(), 4, "orcs")
    names = [c["name"] for c in doc["combatants"][-4:]]
    assert names == ["Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4"]
    problems: list[str] = []
    enc, _ = storage.encounter_from_json(doc, problems)
    assert not problems and len({c.id for c in enc.combatants}) == len(enc.combatants)
    more = roster.add_copies(doc, goblin(), 2, "orcs")
    assert [c["name"] for c in more["combatants"][-2:]] == ["Goblin 5", "Goblin 6"]


def test_the_encounter_keeps_its_own_copy_when_the_roster_entry_changes():
    e = goblin()
    doc = roster.add_copies(draft(), e, 1, "orcs")
    e["combatant"]["max_hp"] = 99
    assert doc["combatants"][-1]["max_hp"] == 4


def test_a_pc_keeps_its_id_across_encounters_and_the_party_comes_in_one_step():
    mira = presets.preset("Sample PC", "mira", "party")
    pc = roster.from_combatant(mira, "", "r2", NOW)
    brak = roster.from_combatant({**presets.preset("Sample PC", "brak", "party"), "name": "Brak"}, "", "r3", NOW)
    assert pc["pc"] and pc["party"] and pc["cid"] == "mira"
    doc = {**draft(), "combatants": []}
    doc, added = roster.add_party(doc, [pc, brak, goblin()], "party")
    assert added == ["Mira", "Brak"] and [c["id"] for c in doc["combatants"]] == ["mira", "brak"]
    again, added = roster.add_party(doc, [pc, brak], "party")
    assert added == [] and len(again["combatants"]) == 2


def test_saving_the_same_monster_again_updates_the_entry():
    entries, updated = roster.saved([], goblin())
    assert not updated
    stronger = {**goblin(), "id": "r9", "combatant": {**goblin()["combatant"], "max_hp": 7}}
    entries, updated = roster.saved(entries, stronger)
    assert updated and len(entries) == 1 and entries[0]["id"] == "r1" and entries[0]["combatant"]["max_hp"] == 7


def test_search_by_name_and_filter_by_system():
    entries = [goblin(), {**goblin(), "id": "r2", "name": "Ghoul", "system": "olog"},
               {**goblin(), "id": "r3", "name": "Gnoll", "system": ""}]
    assert [e["name"] for e in roster.search(entries, "g", "ose")] == ["Gnoll", "Goblin"]
    assert [e["name"] for e in roster.search(entries, "GHO")] == ["Ghoul"]


def test_the_roster_file_round_trips():
    entries = [goblin()]
    good, problems = roster.load(roster.dump(entries))
    assert good == entries and problems == []


def test_a_bad_entry_is_named_and_the_rest_still_load():
    bad = {**goblin(), "id": "r2", "combatant": {**goblin()["combatant"],
                                                 "weapons": [{"name": "Claw", "damage": "2x6"}]}}
    good, problems = roster.load(json.dumps({"format": 1, "app": "fray", "kind": "roster",
                                             "entries": [goblin(), bad, "junk"]}))
    assert [e["id"] for e in good] == ["r1"]
    assert any('entries[1].combatant.weapons[0].damage: "2x6" is not dice notation' in p for p in problems)
    assert any("entries[2]" in p for p in problems)


@pytest.mark.parametrize("text", ['{"kind": "backup-of-something-else"}', "[]", "nope"])
def test_a_file_that_is_no_roster_is_refused_with_a_message(text):
    with pytest.raises(roster.RosterError):
        roster.load(text, "x.json")


def test_merging_never_overwrites_and_skips_what_is_already_there():
    entries = [goblin()]
    other = {**goblin(), "name": "Orc", "combatant": {**goblin()["combatant"], "name": "Orc"}}
    out, added = roster.merged(entries, [goblin(), other], lambda taken: "r-new")
    assert added == 1 and [e["id"] for e in out] == ["r1", "r-new"]


def test_every_starter_creature_is_a_valid_entry_of_its_system():
    entries = bestiary.entries()
    assert {e["system"] for e in entries} == {"olog", "ose", "ogre"}
    for e in entries:
        checked, problems = roster.check_entry(e, e["id"])
        assert problems == [] and checked is not None
        blank = presets.blank_encounter(e["system"], "detailed" if e["system"] == "ose" else "")
        doc = roster.add_copies(blank, e, 2, "orcs")
        loaded = storage.load({"format": 1, "encounter": doc, "steps": []})
        # numbered after any already there: the starter Orc follows the blank encounter's Orc 1 and Orc 2
        expected = roster.numbered_names(blank, e["name"], 2)
        assert [c.name for c in loaded.session.encounter.combatants[-2:]] == expected
        assert expected[-1] == (f"{e['name']} 4" if e["name"] == "Orc" else f"{e['name']} 2")


def test_a_caster_saved_to_the_roster_with_a_slot_count_loads_with_its_memory_list__OSE_SPELL_5():
    body = {"name": "Mira", "hp": 4, "max_hp": 4, "ac": 10, "weapons": [],
            "stats": {"spells": ["Sleep", "Light"], "slots": 1}}
    entry, problems = roster.check_entry({"id": "mira", "name": "Mira", "system": "ose", "combatant": body,
                                          "changed": 0}, "entries[0]")
    assert problems == [] and entry["combatant"]["stats"] == {"spells": ["Sleep"]}
