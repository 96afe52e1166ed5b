"""Ogre's count: segments, flat-footed, initiative, declarations and resolutions, Advance, surprise."""
from __future__ import annotations

import pytest

from acting import act, first_event, kinds
from ogre_support import BOW, SWORD, advance_to, encounter, fighter, orc, pc, start

from fray.engine.commands import IllegalCommand
from fray.engine.dice import ScriptedDice
from fray.engine.session import Session
from fray.rules.ogre import commands as oc
from fray.rules.ogre import RULESET
from fray.rules.ogre.examples import examples
from fray.rules.ogre.state import DEFAULT_DURATIONS, is_flat_footed, seconds
from fray.rules.ogre.surprise import suggest


# --- the text's example (OGRE-EX-1) -------------------------------------------------------

def test_the_orc_attacks_at_14_resolving_at_24_before_the_pc_at_16_resolving_at_26__OGRE_EX_1():
    s = Session(examples()["orc_and_pc"](1), RULESET)
    step = act(s, oc.RollInitiative(), 4, 8)
    assert [e.data["initiative"] for e in step.events if e.kind == "InitiativeRolled"] == [14, 16]
    assert "Orc acts first, at segment 14" in first_event(step, "CountStarted").text
    advance_to(s, 14)  # "the Gamemaster can start counting from segment 14"
    assert s.current() == ("orc",)
    step = act(s, oc.Attack("orc", "brak"))
    assert first_event(step, "ActionDeclared").data["resolves"] == 24
    advance_to(s, 16)
    assert s.current() == ("brak",)
    step = act(s, oc.Attack("brak", "orc"))
    assert first_event(step, "ActionDeclared").data["resolves"] == 26
    step = advance_to(s, 24, 15, 5)  # the orc's attack: d20 then damage
    hits = [e for e in step.events if e.kind in ("AttackHit", "AttackMissed")]
    assert [e.actor for e in hits] == ["orc"]
    assert s.state.get("brak").hp == 15
    assert s.current() == ("orc",)  # the orc declares its next action at 24
    act(s, oc.Attack("orc", "brak"))
    step = advance_to(s, 26, 2)  # the PC's attack misses
    assert first_event(step, "AttackMissed").actor == "brak"


# --- segments (OGRE-SEG-1) and Advance -------------------------------------------------------

def test_the_count_starts_at_0_and_a_segment_is_half_a_second__OGRE_SEG_1():
    s = start(orc(), pc(), initiative=[4, 8])
    assert s.state.board.segment == 0
    step = advance_to(s, 14)
    assert first_event(step, "SegmentReached").text == "Segment 14 (7.0 s)"
    assert seconds(16) == "8.0 s" and seconds(1) == "0.5 s"


def test_advance_jumps_to_the_next_segment_where_something_happens_or_one_segment__OGRE_SEG_1():
    s = start(orc(), pc(), initiative=[4, 8])
    act(s, oc.Advance(one=True))
    assert s.state.board.segment == 1
    advance_to(s, 14)
    with pytest.raises(IllegalCommand) as err:
        s.act(oc.Advance())
    assert err.value.illegal.reason == "MUST_DECLARE" and "Orc must declare" in str(err.value)
    act(s, oc.Attack("orc", "brak"))
    advance_to(s, 16)  # Brak's initiative comes before the orc's resolution


def test_nothing_happens_before_initiative_is_rolled__OGRE_INIT_1():
    s = Session(encounter(orc(), pc()), RULESET)
    for cmd in (oc.Advance(), oc.Attack("orc", "brak")):
        assert s.check(cmd).reason == "NOT_STARTED"
    act(s, oc.RollInitiative(), 1, 1)
    assert s.check(oc.RollInitiative()).reason == "ALREADY_ROLLED"


# --- flat-footed (OGRE-FF-1) ---------------------------------------------------------------

def test_everyone_is_flat_footed_until_their_initiative_segment__OGRE_FF_1():
    s = start(orc(), pc(), initiative=[4, 8])
    sys_ = s.state.board
    assert is_flat_footed(sys_, "orc") and is_flat_footed(sys_, "brak")
    assert s.check(oc.React("brak", "Quick")).reason == "FLAT_FOOTED"
    assert s.check(oc.Attack("orc", "brak")).reason == "FLAT_FOOTED"
    step = advance_to(s, 14)
    assert [e.actor for e in step.events if e.kind == "FlatFootedEnded"] == ["orc"]
    assert not is_flat_footed(s.state.board, "orc") and is_flat_footed(s.state.board, "brak")


def test_a_flat_footed_defender_loses_the_dex_part_of_defense__OGRE_FF_1__OGRE_ATK_1():
    """Brak (Defense 15, 2 of it Dex) is still flat-footed at 24: the orc's 9 + 4 = 13 hits."""
    s = start(orc(), pc(reaction=30), initiative=[4, 1])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    step = advance_to(s, 24, 9, 3)
    hit = first_event(step, "AttackHit")
    assert hit.data["defense"] == 13 and "flat-footed" in hit.text


def test_flat_footed_combatants_threaten_nobody_for_attacks_of_opportunity__OGRE_FF_1():
    s = start(orc(), pc(), initiative=[4, 8])
    bodies = {b.id: b for b in RULESET.grid.bodies(s.state)}
    assert not bodies["orc"].threatens and not bodies["brak"].threatens
    advance_to(s, 14)
    bodies = {b.id: b for b in RULESET.grid.bodies(s.state)}
    assert bodies["orc"].threatens and not bodies["brak"].threatens


def test_a_down_combatant_threatens_nobody__OGRE_FF_1():
    s = start(orc(), pc(hp=0), pc("ally", (1, 1), dex=0), initiative=[1, 1])  # one stands: the fight goes on
    advance_to(s, 11)
    assert not {b.id: b for b in RULESET.grid.bodies(s.state)}["brak"].threatens


# --- initiative (OGRE-INIT-1) -------------------------------------------------------------------

def test_initiative_is_d10_plus_reaction_time_10_minus_dex__OGRE_INIT_1():
    s = start(orc(dex=-1), pc(dex=3), initiative=[5, 5])
    assert fighter(s, "orc").initiative == 5 + 11 and fighter(s, "brak").initiative == 5 + 7


def test_an_own_reaction_time_overrides_the_default__OGRE_INIT_1():
    s = start(orc(reaction=6), pc(), initiative=[2, 2])
    assert fighter(s, "orc").initiative == 8


def test_the_referee_can_change_the_base_reaction_time__OGRE_INIT_1():
    s = start(orc(), pc(), initiative=[2, 2], reaction_base=12)
    assert fighter(s, "orc").initiative == 14 and fighter(s, "brak").initiative == 12


def test_lower_initiative_declares_first__OGRE_INIT_1():
    s = start(orc(), pc(), initiative=[6, 8])  # both 16; Brak's reaction time 8 is quicker than 10
    advance_to(s, 16)
    assert s.current() == ("brak", "orc")


# --- declaring and resolving (OGRE-ACT-1, OGRE-CAT-1) ------------------------------------------------

def test_an_action_resolves_at_its_segment_plus_its_category_and_the_next_is_declared_then__OGRE_ACT_1():
    s = start(orc(), pc(), initiative=[1, 10])
    advance_to(s, 11)
    act(s, oc.Act("orc", "speak"))  # Immediate: 1 segment
    assert fighter(s, "orc").action.resolves == 12
    step = advance_to(s, 12)
    assert "ActDone" in kinds(step) and s.current() == ("orc",)
    assert s.check(oc.Attack("brak", "orc")).reason == "FLAT_FOOTED"


def test_durations_are_the_referees_table__OGRE_CAT_1():
    defaults = {st.key: st for st in RULESET.settings()}["durations"]
    assert defaults.kind == "table" and defaults.default == DEFAULT_DURATIONS
    assert DEFAULT_DURATIONS == {"Instantaneous": 0, "Immediate": 1, "Quick": 2, "Short": 5, "Standard": 10,
                                 "Long": 20, "Very Long": 40, "Slow": 80, "Very Slow": 160}
    table = dict(DEFAULT_DURATIONS, Standard=12)
    s = start(orc(), pc(), initiative=[4, 8], durations=table)
    advance_to(s, 14)
    step = act(s, oc.Attack("orc", "brak"))
    assert first_event(step, "ActionDeclared").data["resolves"] == 26


def test_an_instantaneous_action_resolves_at_once__OGRE_CAT_1():
    s = start(orc(), pc(), initiative=[1, 10])
    advance_to(s, 11)
    step = act(s, oc.Act("orc", "cease_concentration"))
    assert kinds(step)[:2] == ["ActionDeclared", "ActDone"] and s.current() == ("orc",)


def _same_segment(mode: str):
    """Orc (reaction 7) and Brak (reaction 8) both reach 14 and attack each other; both resolve at 24."""
    s = start(orc(dex=3), pc(hp=3), initiative=[7, 6], simultaneous=mode)
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    act(s, oc.Attack("brak", "orc"))
    return s


def test_same_segment_actions_resolve_together_and_damage_lands_after__OGRE_ACT_1():
    s = _same_segment("together")
    step = advance_to(s, 24, 15, 8, 15, 6)
    assert [e.actor for e in step.events if e.kind == "AttackHit"] == ["orc", "brak"]
    assert s.state.get("brak").is_down and s.state.get("orc").hp == 9
    assert [e.kind for e in step.events].index("DamageTaken") > [e.kind for e in step.events].index("DamageRolled")


def test_in_order_the_first_blow_can_prevent_the_second__OGRE_ACT_1():
    s = _same_segment("in order")
    step = advance_to(s, 24, 15, 8)
    assert [e.actor for e in step.events if e.kind == "AttackHit"] == ["orc"]
    assert s.state.get("orc").hp == 15
    assert any(e.kind == "ActionBroken" and e.actor == "brak" for e in step.events)


# --- before the fight (OGRE-SUR-1) ----------------------------------------------------------------

def _state(*cs):
    return Session(encounter(*cs), RULESET).state


def test_the_texts_spot_example_sees_50_and_40_ft_in_gentle_hills__OGRE_SUR_1():
    st = _state(orc(), pc())
    sug = suggest(st, ("party", "orcs"), (15, 12), terrain="gentle hills")
    assert [g.sees_ft for g in sug.groups] == [50, 40]
    # melee only: the party charges, the orcs notice it at 40 ft, nobody is surprised
    assert sug.distance_ft == 40 and sug.surprised == ()


def test_seeing_first_with_ranged_attacks_surprises_the_others__OGRE_SUR_1():
    st = _state(orc(), pc(weapons=(SWORD, BOW)))
    sug = suggest(st, ("party", "orcs"), (15, 12))
    assert sug.surprised == ("orcs",) and sug.distance_ft == 50 and "ranged" in sug.reason


def test_a_stalk_their_spot_does_not_beat_surprises_even_in_melee__OGRE_SUR_1():
    st = _state(orc(), pc())
    sug = suggest(st, ("party", "orcs"), (15, 12), stalk=(14, 0))
    assert sug.surprised == ("orcs",) and sug.distance_ft == 5
    assert suggest(st, ("party", "orcs"), (15, 15), stalk=(14, 0)).surprised == ()


def test_other_terrains_come_from_the_referees_table__OGRE_SUR_1():
    st = _state(orc(), pc())
    assert suggest(st, ("party", "orcs"), (15, 12), terrain="open plain").groups[0].sees_ft == 100


def test_surprised_combatants_add_10_to_reaction_time__OGRE_SUR_1():
    s = Session(encounter(orc(), pc(weapons=(SWORD, BOW))),
                RULESET)
    step = act(s, oc.BeforeTheFight(("party", "orcs"), (15, 12)))
    assert "Surprised" in kinds(step) and "Overridden" not in kinds(step)
    step = act(s, oc.RollInitiative(), 4, 8)
    assert fighter(s, "orc").initiative == 4 + 10 + 10 and fighter(s, "brak").initiative == 16
    assert s.state.board.surprise.distance_ft == 50


def test_the_referee_overrides_the_suggestion_and_it_is_logged__OGRE_SUR_1():
    s = Session(encounter(orc(), pc()), RULESET)
    step = act(s, oc.BeforeTheFight(("party", "orcs"), (15, 12), surprised=("party",), distance_ft=30))
    assert "Overridden" in kinds(step)
    assert s.state.board.surprise.surprised == ("party",) and s.state.board.surprise.suggested_surprised == ()
    act(s, oc.RollInitiative(), 1, 1)
    assert fighter(s, "brak").initiative == 1 + 8 + 10


def test_the_groups_are_placed_the_starting_distance_apart_facing_each_other__OGRE_SUR_1():
    """The text's example: the orcs notice the charging party at 40 ft, so the
    fight starts with the groups 8 squares (5 ft a square) apart, each in a
    rank facing the other."""
    s = Session(encounter(orc("orc", (1, 1)), orc("orc2", (2, 1)), pc("brak", (3, 6)), pc("mira", (4, 6)),
                          width=24, height=16), RULESET)
    step = act(s, oc.BeforeTheFight(("party", "orcs"), (15, 12)))
    placed = first_event(step, "GroupsPlaced")
    assert placed.rule == "OGRE-SUR-1" and "40 ft apart (8 squares)" in placed.text
    sq = {c.id: c.square for c in s.state.combatants}
    assert sq["brak"][0] == sq["mira"][0] and sq["orc"][0] == sq["orc2"][0], "each group in one rank"
    assert sq["orc"][0] - sq["brak"][0] == 8, "8 squares between the ranks"
    assert {sq["brak"][1], sq["mira"][1]} == {sq["orc"][1], sq["orc2"][1]}, "facing each other, file for file"
    act(s, oc.RollInitiative(), 1, 1, 1, 1)
    assert s.state.get("brak").square == sq["brak"], "the fight starts from there"


def test_the_groups_step_around_walls_and_the_map_too_small_leaves_them__OGRE_SUR_1():
    walls = {(x, 7) for x in range(24)} - {(0, 7)}  # the middle file is walled
    s = Session(encounter(orc("orc", (1, 1)), pc("brak", (3, 6)), width=24, height=16, walls=walls), RULESET)
    act(s, oc.BeforeTheFight(("party", "orcs"), (15, 12)))
    brak, orc_ = s.state.get("brak").square, s.state.get("orc").square
    assert brak not in walls and orc_ not in walls and orc_[0] - brak[0] == 8
    s = Session(encounter(orc("orc", (1, 1)), pc("brak", (3, 5)), width=6, height=6), RULESET)
    step = act(s, oc.BeforeTheFight(("party", "orcs"), (15, 12)))  # 40 ft does not fit on 30 ft
    assert "GroupsNotPlaced" in kinds(step) and s.state.get("brak").square == (3, 5)


def test_surprise_is_settled_before_initiative__OGRE_SUR_1():
    s = start(orc(), pc())
    assert s.check(oc.BeforeTheFight(("party", "orcs"), (15, 12))).reason == "ALREADY_ROLLED"
    s = Session(encounter(orc(), pc()), RULESET)
    assert s.check(oc.BeforeTheFight(("party", "orcs"), (15,))).reason == "NEED_SPOT"
    assert s.check(oc.BeforeTheFight(("party", "orcs"), (15, 12), terrain="moon")).reason == "NO_SUCH_TERRAIN"


def test_dice_are_recorded_for_initiative__OGRE_INIT_1():
    s = Session(encounter(orc(), pc()), RULESET)
    step = s.act(oc.RollInitiative(), ScriptedDice([3, 9]))
    assert step.dice == (3, 9)
    assert [e.rolls[0].faces for e in step.events if e.kind == "InitiativeRolled"] == [(3,), (9,)]


def test_one_down_when_initiative_was_rolled_joins_the_count_when_healed__OGRE_INIT_1():
    from fray.engine.referee import Heal
    s = start(orc(), pc(hp=0), pc("ally", (1, 1), dex=0), initiative=[4, 4])  # Brak is down: no initiative die
    assert fighter(s, "brak").initiative is None
    advance_to(s, 14)
    step = act(s, Heal("brak", 5))
    assert "JoinedTheCount" in kinds(step) and fighter(s, "brak").initiative == 14
    assert set(s.current()) == {"orc", "ally", "brak"}
