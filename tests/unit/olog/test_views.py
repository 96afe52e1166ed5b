"""OLOG view models: the turn panel and the bands field, as the referee reads them."""
from __future__ import annotations

from fray.engine.model import Weapon
from fray.engine.referee import SetHp
from fray.engine.session import Session
from fray.rules.olog import RULESET, Attack as AttackCmd, Defend, Reorder, RollInitiative, Strategise
from fray.rules.olog.examples import skirmish, two_orcs
from fray.views.olog import VIEW, BandsModel, bands, initials

from acting import act
from olog_support import foe, hero, started


def two_orcs_started() -> Session:
    s = Session(two_orcs(1), RULESET)
    act(s, RollInitiative(), 15)
    return s


def test_status_line_says_round_actor_and_actions_left__OLOG_ACT_1():
    s = Session(two_orcs(1), RULESET)
    assert VIEW.panel(s.state).status == "Before initiative · roll initiative to begin"
    assert VIEW.panel(s.state).phase == "initiative"
    act(s, RollInitiative(), 15)
    assert VIEW.panel(s.state).status == "Round 1 · Brak's turn · 2 actions left"
    act(s, Defend("brak", press_on=True), 2)
    assert VIEW.panel(s.state).status == "Round 1 · Brak's turn · 1 action left"


def test_order_rows_by_count_with_current_and_down__OLOG_INIT_4():
    s = two_orcs_started()
    act(s, SetHp("orc2", 0))
    rows = VIEW.panel(s.state).order
    assert [(r.name, r.detail, r.is_current, r.is_down) for r in rows] == [
        ("Brak", "init 17", True, False), ("Orc 1", "init 11", False, False), ("Orc 2", "init 11", False, True)]
    # the two orcs tie: both draggable; Brak does not
    assert [r.draggable for r in rows] == [False, True, True]


def test_order_row_shows_a_strategised_count_for_next_round__OLOG_STRAT_1():
    s = two_orcs_started()
    act(s, Strategise("brak", "up", press_on=True), 2, 5)
    row = VIEW.panel(s.state).order[0]
    assert row.detail == "init 17 → 22 next round"
    assert any(b.word == "count +5 next round" for b in row.badges)


def test_pressure_badge_and_hint_for_the_actor__OLOG_PRES_1():
    s = two_orcs_started()
    panel = VIEW.panel(s.state)
    [badge] = [b for b in panel.badges["brak"] if b.icon == "⚔"]
    assert badge.word == "pressure 2"
    assert badge.title == "Under pressure from Orc 1, Orc 2 (OLOG-PRES-1)"
    assert panel.hints["brak"][0].text == "Under pressure from 2: pressing on costs d4 (min 2)"
    assert panel.hints["orc1"][0].text == "Under pressure from 1: pressing on costs d4 (min 1)"


def test_defending_badge_and_turn_ending_badge__OLOG_DEF_1():
    s = two_orcs_started()
    act(s, Defend("brak", press_on=True), 1)
    words = [b.word for b in VIEW.panel(s.state).badges["brak"]]
    assert "defending +2" in words
    s = started(hero(band=1), foe("beast", band=1, init=30, weapons=(Weapon("Claws", "1d6", count=2),)),
                faces=(1,))
    act(s, AttackCmd("beast", "brak", "Claws", press_on=False), 1)
    panel = VIEW.panel(s.state)
    assert "last action" in [b.word for b in panel.badges["beast"]]
    assert panel.status == "Round 1 · beast's turn · turn ends after this action · 1 Claws attack left"
    assert [h.text for h in panel.hints["beast"]][1:] == [
        "1 more Claws attack from this action: no new action, no new pressure",
        "Did not press on: the turn ends after this action"]


def test_down_combatant_badge_and_no_pressure_on_it__CORE_HP_1():
    s = two_orcs_started()
    act(s, SetHp("orc1", -2))
    panel = VIEW.panel(s.state)
    assert [b.word for b in panel.badges["orc1"]] == ["down"]
    assert "orc1" not in panel.hints
    assert panel.hints["brak"][0].text == "Under pressure from 1: pressing on costs d4 (min 1)"


def test_bands_columns_label_zones_from_the_selected_creature__OLOG_BAND_1():
    s = Session(skirmish(1), RULESET)
    act(s, RollInitiative(), 10, 12)
    m = bands(s.state, "brak")  # Brak in zone 2
    assert isinstance(m, BandsModel) and len(m.columns) == 6
    assert [c.label for c in m.columns] == ["Near", "Close", "Near", "Far", "Far", "Far"]
    assert m.columns[3].title == "Zone 4 · Far · 60 ft from Brak"
    assert [c.is_reach for c in m.columns] == [False, True, False, False, False, False]
    assert [c.distance for c in m.columns] == [1, 0, 1, 2, 3, 4]
    m = bands(s.state, None)
    assert [c.label for c in m.columns][:2] == ["Zone 1", "Zone 2"] and m.columns[0].distance is None


def test_bands_tokens_stack_by_side_with_pressure__OLOG_PRES_1():
    s = Session(skirmish(1), RULESET)
    act(s, RollInitiative(), 10, 12)
    m = bands(s.state, "gob2")
    zone3 = m.columns[2]
    assert [t.id for t in zone3.tokens] == ["gob1", "gob2"]
    spear = zone3.tokens[1]
    assert spear.is_selected and spear.initials == "GS" and spear.shape == "hexagon"
    assert m.columns[1].is_reach and m.columns[2].is_reach  # long reach: its zone and the next
    brak = m.columns[1].tokens[0]
    assert brak.pressure == 1 and brak.pressure_from == ("gob2",)
    assert brak.pressure_text == "Under pressure from 1: pressing on costs d4 (min 1)"
    assert any(b.word == "pressure 1" for b in brak.badges)
    assert brak.title == "Brak · Party · 14/14 HP · AC 13 · count 13"
    mira = m.columns[0].tokens[0]
    assert mira.is_current and mira.pressure == 0 and mira.pressure_text == ""
    assert [k.name for k in m.legend] == ["Party", "Goblins"]


def test_bands_mark_where_the_current_actor_may_move__OLOG_MOVE_1():
    s = Session(skirmish(1), RULESET)
    act(s, RollInitiative(), 10, 12)  # Mira (zone 1) acts first
    assert [c.is_move_target for c in bands(s.state, "mira").columns] == [False, True, False, False, False,
                                                                          False]
    assert not any(c.is_move_target for c in bands(s.state, "brak").columns)  # not his turn


def test_token_initials():
    assert [initials(n) for n in ("Orc 1", "Brak", "Goblin chief", "Human 12", "")] == ["O1", "Br", "GC", "H12",
                                                                                       "?"]


def test_reorder_drag_builds_the_command_for_ties__OLOG_INIT_4():
    s = two_orcs_started()
    cmd = VIEW.reorder(s.state, "orc2", "orc1")
    assert cmd == Reorder(("brak", "orc2", "orc1"))
    act(s, cmd)
    assert [r.id for r in VIEW.panel(s.state).order] == ["brak", "orc2", "orc1"]
    assert VIEW.reorder(s.state, "orc2", "orc1") is None  # already there
    bad = VIEW.reorder(s.state, "orc1", "brak")  # past a higher count: the rules refuse it
    assert s.check(bad).reason == "NOT_A_TIE"
    assert VIEW.reorder(s.state, "brak", "") == Reorder(("orc2", "orc1", "brak"))


def test_outcome_shows_in_status():
    s = two_orcs_started()
    act(s, SetHp("orc1", 0))
    act(s, SetHp("orc2", 0))
    panel = VIEW.panel(s.state)
    assert panel.status.startswith("Round 1 · Party wins") and panel.phase == "over"
