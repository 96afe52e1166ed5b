"""Placement that needs no typing (issue #33): a combatant added in setup stands with its side, the first
side (the party) at one edge and the others at the setup's starting distance (issue #53 stop 6: close, near,
far; near by default), in a compact block, never adjacent to a foe (CORE-SIDE-1), on OLOG's zones and on
OSE detailed's and Ogre's squares."""
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


def build(system: str, profile: str, pcs: int, foes: int, distance: str = "near") -> dict:
    doc = empty(system, profile)
    doc["start_distance"] = distance
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
def test_on_squares_the_party_starts_at_one_edge_and_the_foes_near_it__CORE_SIDE_1(system, profile):
    doc = build(system, profile, 4, 6)
    party, foes = squares(doc, "party"), squares(doc, "foes")
    assert max(x for x, _ in party) <= 2, party  # the near edge
    assert min(x for x, _ in foes) == 1 + 6, foes  # DEFAULT near: 30 ft (6 squares) from the party's column
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

def test_in_zones_the_party_starts_in_the_first_zone_and_the_foes_one_zone_on__OLOG_BAND_1():
    doc = build("olog", "", 2, 3)
    assert [c["band"] for c in doc["combatants"] if c["side"] == "party"] == [0, 0]
    assert [c["band"] for c in doc["combatants"] if c["side"] == "foes"] == [1, 1, 1]  # Near: 1 zone


def test_in_zones_a_side_joins_the_zone_its_members_hold():
    doc = build("olog", "", 1, 1)
    doc["combatants"][1]["band"] = 3
    doc = editor.add_combatant(doc, "Orc", "foes")
    assert doc["combatants"][-1]["band"] == 3


def test_in_zones_a_second_hostile_side_stands_apart_from_the_first_foes():
    doc = editor.add_side(empty("olog"))
    doc["bands"], doc["start_distance"] = 6, "far"
    third = doc["sides"][2]["id"]
    doc = editor.add_combatant(doc, "Orc", "foes")
    doc = editor.add_combatant(doc, "Orc", third)
    assert doc["combatants"][0]["band"] == 3 and doc["combatants"][1]["band"] == 5


def test_one_zone_only_puts_everyone_in_it():
    doc = empty("olog")
    doc["bands"] = 1
    doc = editor.add_combatant(editor.add_combatant(doc, "Orc", "foes"), "Sample PC", "party")
    assert [c["band"] for c in doc["combatants"]] == [0, 0]


# --- every way of adding ---------------------------------------------------------------------

def test_the_roster_the_bestiary_and_the_party_place_too():
    from fray import bestiary
    doc = empty("ogre")
    doc["start_distance"] = "far"
    wolf = next(e for e in bestiary.entries() if e["system"] == "ogre")
    doc = roster.add_copies(doc, wolf, 4, "foes")
    pc = roster.from_combatant(presets.preset("Sample PC", "mira", "party"), "", "r1", 0, True)
    doc, added = roster.add_party(doc, [pc], "party")
    assert added == ["Mira"]
    mira = tuple(doc["combatants"][-1]["square"])
    assert mira[0] <= 2 and all(x >= 1 + 12 for x, _ in squares(doc, "foes"))
    assert not any(touching(mira, f) for f in squares(doc, "foes"))


def test_a_duplicate_stands_with_its_side():
    doc = build("ose", "detailed", 1, 2)
    doc = editor.duplicate(doc, 1)
    copy = doc["combatants"][2]
    assert copy["side"] == "foes" and copy["square"][0] >= 1 + 6


# --- the starting distance (issue #53 stop 6) --------------------------------------------------

def gap_in_squares(doc: dict) -> int:
    """Columns between the party's front and the foes' front."""
    return min(x for x, _ in squares(doc, "foes")) - max(x for x, _ in squares(doc, "party"))


@pytest.mark.parametrize("system, profile", [("ose", "detailed"), ("ogre", "")])
@pytest.mark.parametrize("distance, gap", [("close", 2), ("near", 6), ("far", 12)])
def test_on_squares_the_sides_start_at_the_chosen_distance__DEFAULT_feet(system, profile, distance, gap):
    # DEFAULT: neither text gives a starting distance for a grid (OSE's seed has none; Ogre's comes from
    # Spot, OGRE-SUR-1, rolled when the fight starts): close 10 ft, near 30 ft, far 60 ft between the fronts.
    doc = build(system, profile, 3, 4, distance)
    assert gap_in_squares(doc) == gap
    assert not any(touching(p, f) for p in squares(doc, "party") for f in squares(doc, "foes"))


@pytest.mark.parametrize("distance, zone", [("close", 0), ("near", 1), ("far", 3)])
def test_in_zones_the_foes_start_in_the_chosen_distance_band__OLOG_BAND_1(distance, zone):
    doc = build("olog", "", 3, 4, distance)
    assert {c["band"] for c in doc["combatants"] if c["side"] == "party"} == {0}
    assert {c["band"] for c in doc["combatants"] if c["side"] == "foes"} == {zone}


def test_a_file_without_a_starting_distance_places_at_near_and_a_bad_one_is_refused():
    doc = empty("ose", "detailed")
    assert placement.choice(doc) == "near"
    problems: list[str] = []
    storage.encounter_from_json({**doc, "start_distance": "miles"}, problems)
    assert problems and "start_distance" in problems[0] and "close, near, far" in problems[0]


def test_the_starting_distance_is_kept_in_the_save_file_and_an_old_file_loads_unchanged():
    enc, _ = storage.encounter_from_json({**build("olog", "", 1, 1), "start_distance": "close"}, [])
    assert enc.start_distance == "close"
    assert storage.encounter_to_json(enc)["start_distance"] == "close"
    old = build("olog", "", 1, 1)
    del old["start_distance"]
    enc, _ = storage.encounter_from_json(old, [])
    assert enc.start_distance == "near" and "start_distance" not in storage.encounter_to_json(enc)


@pytest.mark.parametrize("system, profile", [("ose", "detailed"), ("ogre", "")])
def test_changing_the_distance_replaces_the_placed_but_never_the_dragged_on_squares(system, profile):
    doc = build(system, profile, 3, 4, "far")
    doc["combatants"][4]["square"] = [20, 2]  # the referee dragged one goblin
    close = placement.with_distance(doc, "close")
    assert close["start_distance"] == "close"
    assert close["combatants"][4]["square"] == [20, 2]
    others = [tuple(c["square"]) for i, c in enumerate(close["combatants"]) if c["side"] == "foes" and i != 4]
    assert min(x for x, _ in others) == 1 + 2 and max(x for x, _ in others) <= 4, others
    assert squares(close, "party") == squares(doc, "party")
    assert len({tuple(c["square"]) for c in close["combatants"]}) == 7, "one combatant a square"
    # back to far: the placed ones return to the far block; the dragged one has not moved
    back = placement.with_distance(close, "far")
    assert back["combatants"][4]["square"] == [20, 2]
    far_block = set(squares(build(system, profile, 3, 4, "far"), "foes"))
    assert set(squares(back, "foes")) - {(20, 2)} <= far_block


def test_changing_the_distance_replaces_the_placed_but_never_the_dragged_in_zones__OLOG_BAND_1():
    doc = build("olog", "", 2, 3)
    doc["combatants"][2]["band"] = 5  # the referee dragged one orc to the last zone
    far = placement.with_distance(doc, "far")
    assert [c["band"] for c in far["combatants"]] == [0, 0, 5, 3, 3]


def test_an_unknown_distance_is_refused_with_its_choices():
    with pytest.raises(ValueError, match="close, near, far"):
        placement.with_distance(empty("olog"), "miles")


def test_setup_asks_the_starting_distance_in_the_fields_own_units_near_by_default():
    ose = str(editor.distance_select(empty("ose", "detailed"), "grid"))
    assert 'data-action="start-distance"' in ose and "Close (10 ft)" in ose and "Far (60 ft)" in ose
    assert '<option value="near" selected' in ose
    olog = str(editor.distance_select({**empty("olog"), "start_distance": "close"}, "bands"))
    assert "Close (same zone)" in olog and "Near (1 zone)" in olog and '<option value="close" selected' in olog
    assert editor.distance_select(empty("ose"), "none") == ""
