"""Placement that needs no typing (issue #33): a combatant added in setup stands with its side, the first
side (the party) at one edge and the others at the opposite edge, in a compact block, never adjacent to a
foe (CORE-SIDE-1), on OLOG's zones and on OSE detailed's and Ogre's squares."""
from __future__ import annotations

import pytest

import fray.rules  # noqa: F401 (the systems a document names)
from fray import placement, presets, roster
from fray.engine import storage
from fray.ui.markup import editor


def empty(system: str, profile: str = "") -> dict:
    doc = presets.blank_encounter(system, profile)
    doc["combatants"] = []
    doc["sides"][1].update(id="foes", name="Foes")
    return doc


def build(system: str, profile: str, pcs: int, foes: int) -> dict:
    doc = empty(system, profile)
    for _ in range(pcs):
        doc = editor.add_combatant(doc, "Sample PC", "party")
    for _ in range(foes):
        doc = editor.add_combatant(doc, "Goblin", "foes")
    return doc


def squares(doc: dict, side: str) -> list[tuple[int, int]]:
    return [tuple(c["square"]) for c in doc["combatants"] if c["side"] == side]


def touching(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1


@pytest.mark.parametrize("system, profile", [("ose", "detailed"), ("ogre", "")])
def test_on_squares_the_party_starts_at_one_edge_and_the_foes_at_the_other__CORE_SIDE_1(system, profile):
    doc = build(system, profile, 4, 6)
    party, foes = squares(doc, "party"), squares(doc, "foes")
    width = doc["map"]["width"]
    assert max(x for x, _ in party) <= 2, party  # the near edge
    assert min(x for x, _ in foes) >= width - 4, foes  # the far edge
    assert not any(touching(p, f) for p in party for f in foes)
    assert len(set(party + foes)) == 10, "one combatant a square"
    problems: list[str] = []
    storage.encounter_from_json(doc, problems)
    assert problems == []


@pytest.mark.parametrize("system, profile", [("ose", "detailed"), ("ogre", "")])
def test_a_side_stands_in_a_compact_block_not_a_row(system, profile):
    doc = build(system, profile, 0, 10)
    foes = squares(doc, "foes")
    xs, ys = {x for x, _ in foes}, {y for _, y in foes}
    assert len(xs) == 2 and len(ys) == 5, foes  # two columns of five, not ten in a row
    # each one touches another of its side: one group
    assert all(any(touching(a, b) for b in foes if b != a) for a in foes)


def test_a_new_combatant_joins_its_side_where_it_stands():
    doc = build("ose", "detailed", 2, 0)
    doc["combatants"][0]["square"], doc["combatants"][1]["square"] = [10, 3], [11, 3]
    doc = editor.add_combatant(doc, "Sample PC", "party")
    assert touching(tuple(doc["combatants"][2]["square"]), (11, 3)) or \
        touching(tuple(doc["combatants"][2]["square"]), (10, 3))


def test_never_adjacent_to_a_foe_even_when_the_foes_stand_at_the_partys_edge__CORE_SIDE_1():
    doc = build("ogre", "", 0, 0)
    doc = editor.add_combatant(doc, "Orc", "foes")
    doc["combatants"][0]["square"] = [1, 8]  # an orc where the party would start
    for _ in range(5):
        doc = editor.add_combatant(doc, "Sample PC", "party")
    orc = tuple(doc["combatants"][0]["square"])
    assert not any(touching(orc, p) for p in squares(doc, "party"))


def test_allied_sides_may_stand_side_by_side_but_a_third_hostile_side_has_its_own_area():
    doc = empty("ose", "detailed")
    doc = editor.add_side(doc)
    third = doc["sides"][2]["id"]
    for side in ("party", "foes", third):
        for _ in range(3):
            doc = editor.add_combatant(doc, "Goblin", side)
    groups = {s: squares(doc, s) for s in ("party", "foes", third)}
    for a in groups:
        for b in groups:
            if a != b:
                assert not any(touching(p, q) for p in groups[a] for q in groups[b]), (a, b, groups)


def test_walls_and_taken_squares_are_skipped():
    doc = empty("ose", "detailed")
    doc["map"]["walls"] = [[1, y] for y in range(16)]
    doc = editor.add_combatant(doc, "Sample PC", "party")
    assert doc["combatants"][0]["square"] != [1, 8] and doc["combatants"][0]["square"][0] != 1


def test_a_starting_distance_puts_the_foes_that_far_from_the_party():
    doc = build("ose", "detailed", 1, 0)
    sq = placement.square_for(doc, "foes", distance=6)
    assert sq[0] == 1 + 6
    assert placement.band_for(empty("olog"), "foes", distance=3) == 3


# --- OLOG's zones ---------------------------------------------------------------------------

def test_in_zones_the_party_starts_in_the_first_zone_and_the_foes_in_the_last():
    doc = build("olog", "", 2, 3)
    assert [c["band"] for c in doc["combatants"] if c["side"] == "party"] == [0, 0]
    assert [c["band"] for c in doc["combatants"] if c["side"] == "foes"] == [5, 5, 5]


def test_in_zones_a_side_joins_the_zone_its_members_hold():
    doc = build("olog", "", 1, 1)
    doc["combatants"][1]["band"] = 3
    doc = editor.add_combatant(doc, "Orc", "foes")
    assert doc["combatants"][-1]["band"] == 3


def test_in_zones_a_second_hostile_side_stands_apart_from_the_first_foes():
    doc = editor.add_side(empty("olog"))
    third = doc["sides"][2]["id"]
    doc = editor.add_combatant(doc, "Orc", "foes")
    doc = editor.add_combatant(doc, "Orc", third)
    assert doc["combatants"][0]["band"] == 5 and doc["combatants"][1]["band"] == 3


def test_one_zone_only_puts_everyone_in_it():
    doc = empty("olog")
    doc["bands"] = 1
    doc = editor.add_combatant(editor.add_combatant(doc, "Orc", "foes"), "Sample PC", "party")
    assert [c["band"] for c in doc["combatants"]] == [0, 0]


# --- every way of adding ---------------------------------------------------------------------

def test_the_roster_the_bestiary_and_the_party_place_too():
    from fray import bestiary
    doc = empty("ogre")
    wolf = next(e for e in bestiary.entries() if e["system"] == "ogre")
    doc = roster.add_copies(doc, wolf, 4, "foes")
    pc = roster.from_combatant(presets.preset("Sample PC", "mira", "party"), "", "r1", 0, True)
    doc, added = roster.add_party(doc, [pc], "party")
    assert added == ["Mira"]
    mira = tuple(doc["combatants"][-1]["square"])
    assert mira[0] <= 2 and all(x >= doc["map"]["width"] - 4 for x, _ in squares(doc, "foes"))
    assert not any(touching(mira, f) for f in squares(doc, "foes"))


def test_a_duplicate_stands_with_its_side():
    doc = build("ose", "detailed", 1, 2)
    doc = editor.duplicate(doc, 1)
    copy = doc["combatants"][2]
    assert copy["side"] == "foes" and copy["square"][0] >= doc["map"]["width"] - 4
