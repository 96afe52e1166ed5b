"""The setup's placement map (issue #33, placement that needs no typing): which square or zone a drop means,
whether it is allowed (a wall or a square someone holds refuses it, with why), and the edit of the draft it
makes, which the loader accepts as it would a save file."""
from __future__ import annotations

import pytest

import fray.rules  # noqa: F401 (the systems a document names)
from fray import place_map, presets
from fray.engine import storage
from fray.place_map import Reason, Spot
from fray.ui.markup import editor


def ose() -> dict:
    doc = presets.blank_encounter("ose", "detailed")  # Mira (4,8), Orc 1 (12,7), Orc 2 (14,7)
    doc["map"]["walls"] = [[6, 6]]
    return doc


def loads(doc: dict) -> bool:
    problems: list[str] = []
    storage.encounter_from_json(doc, problems)
    return not problems


@pytest.mark.parametrize("text, spot", [("sq:3,4", Spot(square=(3, 4))), ("zone:2", Spot(zone=2)),
                                        ("sq:0,0", Spot(square=(0, 0)))])
def test_a_spot_reads_and_writes_as_the_page_writes_it(text, spot):
    assert Spot.parse(text) == spot
    assert spot.key == text


@pytest.mark.parametrize("text", ["", "sq:3", "sq:a,b", "zone:", "band:2", "sq:1,2,3"])
def test_a_spot_that_is_neither_names_the_text(text):
    with pytest.raises(ValueError, match="not a square"):
        Spot.parse(text)


def test_a_drop_on_a_free_square_moves_the_token_and_the_loader_takes_it():
    doc = ose()
    new = place_map.drop(doc, 0, Spot(square=(2, 3)), "grid")
    assert new["combatants"][0]["square"] == [2, 3]
    assert doc["combatants"][0]["square"] == [4, 8]  # the draft itself is unchanged
    assert loads(new)
    assert place_map.placed_words(new, 0, Spot(square=(2, 3))) == "Mira placed on square 2,3."


def test_a_wall_refuses_the_drop_with_why():
    with pytest.raises(place_map.Refused) as info:
        place_map.drop(ose(), 0, Spot(square=(6, 6)), "grid")
    assert info.value.refusal.reason is Reason.WALL
    assert "Square 6,6 is a wall" in str(info.value)


def test_a_square_someone_holds_refuses_the_drop_naming_them():
    r = place_map.check(ose(), 0, Spot(square=(12, 7)), "grid")
    assert r is not None and r.reason is Reason.OCCUPIED
    assert r.detail.startswith("Orc 1 stands on square 12,7")


def test_its_own_square_is_not_occupied_and_counts_as_unmoved():
    doc = ose()
    assert place_map.check(doc, 0, Spot(square=(4, 8)), "grid") is None
    assert place_map.is_unmoved(doc, 0, Spot(square=(4, 8)), "grid")
    assert not place_map.is_unmoved(doc, 0, Spot(square=(4, 9)), "grid")


@pytest.mark.parametrize("spot, reason", [(Spot(square=(24, 0)), Reason.OFF_MAP), (Spot(square=(-1, 3)), Reason.OFF_MAP),
                                          (Spot(zone=2), Reason.BAD_SPOT)])
def test_off_the_map_or_a_zone_on_squares_is_refused(spot, reason):
    assert place_map.check(ose(), 0, spot, "grid").reason is reason


def test_a_combatant_gone_meanwhile_is_refused():
    assert place_map.check(ose(), 9, Spot(square=(1, 1)), "grid").reason is Reason.NO_SUCH_COMBATANT


def test_zones_count_from_1_in_the_page_and_from_0_in_the_file():
    doc = presets.blank_encounter("olog")  # Mira in zone index 2: "zone 3"
    pm = place_map.place_map(doc, "bands")
    assert pm.tokens[0].spot == Spot(zone=3)
    new = place_map.drop(doc, 0, Spot(zone=1), "bands")
    assert new["combatants"][0]["band"] == 0
    assert loads(new)
    # A zone holds anyone: Orc 1's zone too.
    assert place_map.check(doc, 0, Spot(zone=4), "bands") is None


@pytest.mark.parametrize("zone", [0, 7])
def test_a_zone_outside_1_to_the_zones_is_refused(zone):
    r = place_map.check(presets.blank_encounter("olog"), 0, Spot(zone=zone), "bands")
    assert r.reason is Reason.NO_SUCH_ZONE and r.detail == "Zones here are 1 to 6."


def test_the_map_lists_tokens_with_letters_side_and_a_label_for_screen_readers():
    pm = place_map.place_map(ose(), "grid", picked=1)
    assert (pm.width, pm.height, pm.walls) == (24, 16, frozenset({(6, 6)}))
    orc = pm.tokens[1]
    assert (orc.initials, orc.side_name, orc.is_picked, pm.picked) == ("O1", "Orcs", True, 1)
    assert orc.label.startswith("Orc 1 (Orcs), on square 12,7: picked up")
    assert pm.at(Spot(square=(4, 8)))[0].name == "Mira"
    assert pm.is_drawn and not pm.unplaced


def test_a_token_with_no_square_waits_beside_the_map():
    doc = ose()
    doc["combatants"][2]["square"] = None
    pm = place_map.place_map(doc, "grid")
    assert [t.name for t in pm.unplaced] == ["Orc 2"]
    assert "not placed" in pm.unplaced[0].label


def test_a_map_too_large_to_draw_square_by_square_is_not_drawn():
    doc = ose()
    doc["map"].update(width=60, height=60)
    assert not place_map.place_map(doc, "grid").is_drawn
    assert place_map.place_map(presets.blank_encounter("olog"), "bands").is_drawn


def test_arrows_move_the_focus_one_square_or_zone_and_stay_on_the_map():
    pm = place_map.place_map(ose(), "grid")
    assert place_map.neighbour(Spot(square=(0, 0)), "ArrowLeft", pm) == Spot(square=(0, 0))
    assert place_map.neighbour(Spot(square=(0, 0)), "ArrowDown", pm) == Spot(square=(0, 1))
    assert place_map.neighbour(Spot(square=(23, 15)), "ArrowRight", pm) == Spot(square=(23, 15))
    zones = place_map.place_map(presets.blank_encounter("olog"), "bands")
    assert place_map.neighbour(Spot(zone=6), "ArrowRight", zones) == Spot(zone=6)
    assert place_map.neighbour(Spot(zone=2), "ArrowLeft", zones) == Spot(zone=1)


def test_a_drop_is_an_edit_the_setup_editor_accepts():
    doc = place_map.drop(ose(), 1, Spot(square=(20, 2)), "grid")
    assert editor.edited(doc, "name", "Moved")["combatants"][1]["square"] == [20, 2]


def test_the_map_markup_shows_names_as_text_and_a_button_a_square():
    from fray.ui.markup import place_markup

    doc = ose()
    doc["combatants"][0]["name"] = '<img src=x onerror="alert(1)">'
    html = str(place_markup.render(doc, "grid", 0, "<b>said</b>"))
    assert "<img" not in html and "&lt;img" in html and "&lt;b&gt;said" in html
    assert html.count('class="pm-sq') == 24 * 16 - 3  # three squares hold the tokens
    assert 'data-testid="place-tok-0"' in html and 'aria-pressed="true"' in html
    assert 'data-action="place-drop:sq:6,6"' in html and "Square 6,6: wall" in html
    zones = str(place_markup.render(presets.blank_encounter("olog"), "bands", None, ""))
    assert zones.count('class="pm-zone"') == 6 and 'data-action="place-drop:zone:1"' in zones
    assert place_markup.render(presets.blank_encounter("ose", "loose"), "list", None, "") == ""
