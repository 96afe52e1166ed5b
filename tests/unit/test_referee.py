"""The referee's overrides through a Session, hit points and sides.

CORE-HP-1 (damage, down at 0, the referee edits any HP), CORE-SIDE-1 (sides
hostile unless allied), CORE-REF-1 (every override applies and is logged).
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from acting import kinds
import duel
from fray.engine.commands import IllegalCommand
from fray.engine.dice import NeedDice, ScriptedDice
from fray.engine.model import MapSpec, Side, are_hostile
from fray.engine.referee import Allow, Damage, FreeRoll, Heal, Note, Place, SetCondition, SetHp, SetStat
from fray.engine.session import Session


def fight(**kw) -> Session:
    return Session(duel.encounter(**kw), duel.RULESET)


def refused(session: Session, cmd) -> str:
    """The reason code of a refused command; the session must be unchanged."""
    before = (session.state, list(session.steps), list(session.redo_stack))
    with pytest.raises(IllegalCommand) as err:
        session.act(cmd)
    assert (session.state, session.steps, session.redo_stack) == before
    return err.value.illegal.reason


# --- CORE-HP-1 -------------------------------------------------------------------

def test_damage_lowers_hp_and_is_logged__CORE_HP_1():
    s = fight()
    step = s.act(Damage("b1", 3, note="falling rock"))
    assert s.state.get("b1").hp == 5
    assert kinds(step) == ["DamageTaken"]
    assert step.events[0].text == "Bob takes 3 damage (falling rock) (5/8 HP)"
    assert step.events[0].rule == "CORE-REF-1"


def test_a_combatant_at_zero_hp_is_down__CORE_HP_1():
    s = fight()
    step = s.act(Damage("b1", 8))
    assert s.state.get("b1").hp == 0 and s.state.get("b1").is_down
    assert kinds(step) == ["DamageTaken", "CombatantDown"]
    assert step.events[1].text == "Bob is down" and step.events[1].rule == "CORE-HP-1"
    assert [c.id for c in s.state.standing()] == ["a1", "b2"]


def test_damage_past_zero_goes_negative_and_down_is_logged_once__CORE_HP_1():
    s = fight()
    s.act(Damage("b1", 10))
    assert s.state.get("b1").hp == -2
    step = s.act(Damage("b1", 1))
    assert kinds(step) == ["DamageTaken"], "already down: no second CombatantDown"


def test_zero_damage_from_the_referee_is_still_logged__CORE_REF_1():
    s = fight()
    step = s.act(Damage("a1", 0, note="glancing"))
    assert s.state.get("a1").hp == 10
    assert [e.text for e in step.events] == ["Ann takes no damage (glancing) (10/10 HP)"]


def test_a_strike_that_drops_a_foe_logs_the_roll_and_the_fall__CORE_HP_1():
    s = fight()
    s.act(SetHp("b1", 3))
    step = s.act(duel.Strike("a1", "b1"), ScriptedDice([5]))
    assert step.dice == (5,)
    assert kinds(step) == ["Struck", "DamageTaken", "CombatantDown"]
    assert "[5]" in step.events[0].text and step.events[0].rolls[0].faces == (5,)


def test_a_down_combatant_cannot_be_struck_and_loses_its_turn__CORE_HP_1():
    s = fight()
    s.act(SetHp("b1", 0))
    assert refused(s, duel.Strike("a1", "b1")) == "TARGET_DOWN"
    s.act(duel.Pass("a1"))
    assert s.current() == ("b2",), "Bob is down and is skipped"


def test_referee_sets_any_hp_and_down_and_up_are_logged__CORE_HP_1__CORE_REF_1():
    s = fight()
    step = s.act(SetHp("a1", 0))
    assert [e.text for e in step.events] == ["Referee sets Ann to 0/10 HP", "Ann is down"]
    assert s.state.get("a1").is_down
    step = s.act(SetHp("a1", 25))
    assert [e.text for e in step.events] == ["Referee sets Ann to 25/10 HP", "Ann is back up"]
    assert s.state.get("a1").hp == 25, "the referee may set HP above the maximum"
    step = s.act(SetHp("a1", -4))
    assert kinds(step) == ["HpSet", "CombatantDown"]


def test_healing_is_capped_and_brings_a_fallen_combatant_back_up__CORE_HP_1():
    s = fight()
    s.act(Damage("b1", 10))
    step = s.act(Heal("b1", 5))
    assert s.state.get("b1").hp == 3
    assert [e.text for e in step.events] == ["Bob heals 5 (3/8 HP)", "Bob is back up"]
    step = s.act(Heal("b1", 100))
    assert s.state.get("b1").hp == 8
    assert [e.text for e in step.events] == ["Bob heals 5 (8/8 HP)"]


def test_healing_that_leaves_a_combatant_below_one_keeps_it_down__CORE_HP_1():
    s = fight()
    s.act(Damage("b1", 12))
    step = s.act(Heal("b1", 2))
    assert s.state.get("b1").hp == -2 and s.state.get("b1").is_down
    assert kinds(step) == ["Healed"]


@pytest.mark.parametrize("cmd, reason", [
    (Damage("b1", -1), "NEGATIVE_AMOUNT"),
    (Heal("b1", -1), "NEGATIVE_AMOUNT"),
    (SetHp("b1", 100001), "OUT_OF_RANGE"),
    (SetHp("nobody", 1), "NO_SUCH_COMBATANT"),
    (Damage("nobody", 1), "NO_SUCH_COMBATANT"),
    (SetStat("nobody", "level", 1), "NO_SUCH_COMBATANT"),
    (SetCondition("nobody", "prone"), "NO_SUCH_COMBATANT"),
    (FreeRoll("2x6"), "BAD_DICE"),
    (FreeRoll(""), "BAD_DICE"),
])
def test_impossible_overrides_are_refused_and_change_nothing__CORE_REF_1(cmd, reason):
    s = fight()
    s.act(Damage("a1", 1))
    assert refused(s, cmd) == reason


# --- CORE-REF-1: placement, stats, conditions, notes, rolls ------------------------

def test_place_on_a_square_and_in_a_zone__CORE_REF_1():
    s = fight()
    step = s.act(Place("a1", square=(3, 4)))
    assert s.state.get("a1").square == (3, 4)
    assert step.events[0].text == "Referee places Ann at square (3, 4)"
    step = s.act(Place("a1", band=2))
    assert s.state.get("a1").band == 2
    assert step.events[0].text == "Referee places Ann at zone 3"


@pytest.mark.parametrize("square, reason", [
    ((5, 5), "WALL"),
    ((2, 2), "OCCUPIED"),
    ((-1, 0), "OFF_MAP"),
    ((0, -1), "OFF_MAP"),
    ((10, 0), "OFF_MAP"),
    ((0, 8), "OFF_MAP"),
])
def test_place_onto_a_wall_an_occupied_square_or_off_the_map_is_refused__CORE_REF_1(square, reason):
    enc = duel.encounter()
    cs = (replace(enc.combatants[0], square=(1, 1)), replace(enc.combatants[1], square=(2, 2)),
          enc.combatants[2])
    s = Session(replace(enc, combatants=cs, map=MapSpec(10, 8, frozenset({(5, 5)}))), duel.RULESET)
    assert refused(s, Place("a1", square=square)) == reason


def test_place_onto_the_square_of_a_fallen_combatant_is_allowed__CORE_REF_1():
    enc = duel.encounter()
    cs = (enc.combatants[0], replace(enc.combatants[1], square=(2, 2), hp=0), enc.combatants[2])
    s = Session(replace(enc, combatants=cs), duel.RULESET)
    s.act(Place("a1", square=(2, 2)))
    assert s.state.get("a1").square == (2, 2)


def test_a_combatant_may_be_placed_on_its_own_square__CORE_REF_1():
    enc = duel.encounter()
    cs = (replace(enc.combatants[0], square=(1, 1)),) + enc.combatants[1:]
    s = Session(replace(enc, combatants=cs), duel.RULESET)
    s.act(Place("a1", square=(1, 1)))


@pytest.mark.parametrize("cmd, reason", [
    (Place("a1", band=6), "OFF_FIELD"),
    (Place("a1", band=-1), "OFF_FIELD"),
    (Place("a1"), "NOWHERE"),
])
def test_place_outside_the_zones_or_nowhere_is_refused__CORE_REF_1(cmd, reason):
    assert refused(fight(), cmd) == reason


def test_set_stat_changes_a_copy_not_the_setup__CORE_REF_1():
    s = fight()
    step = s.act(SetStat("a1", "level", 7))
    assert s.state.get("a1").stats == {"level": 7}
    assert s.encounter.combatants[0].stats == {"level": 2}, "the setup is never mutated"
    assert s.initial.get("a1").stats == {"level": 2}
    assert step.events[0].text == "Referee sets Ann's level to 7"


def test_conditions_are_set_and_cleared__CORE_REF_1():
    s = fight()
    step = s.act(SetCondition("b1", "prone"))
    assert s.state.get("b1").conditions == ("prone",)
    assert step.events[0].text == "Bob is now prone"
    s.act(SetCondition("b1", "prone"))
    assert s.state.get("b1").conditions == ("prone",), "set twice is still once"
    step = s.act(SetCondition("b1", "prone", on=False))
    assert s.state.get("b1").conditions == ()
    assert step.events[0].text == "Bob is no longer prone"


def test_a_note_is_logged_as_written__CORE_REF_1():
    s = fight()
    s.act(Note("The bridge sways"))
    assert [(i, e.text, e.rule) for i, e in s.log()] == [(1, "The bridge sways", "CORE-REF-1")]


def test_free_roll_is_logged_with_its_faces__CORE_DICE_3():
    s = fight()
    step = s.act(FreeRoll("2d6+1", "wandering monster"), ScriptedDice([2, 6]))
    assert step.dice == (2, 6)
    assert step.events[0].text == "Rolled 2d6+1 [2, 6] = 9 for wandering monster"
    assert step.events[0].rolls[0].total == 9
    assert s.state.rolls == 2, "the dice counter advances by the faces used"


def test_free_roll_with_seeded_dice_is_repeatable__CORE_DICE_3():
    a, b = fight(seed=3), fight(seed=3)
    assert a.act(FreeRoll("4d6")).dice == b.act(FreeRoll("4d6")).dice


def test_allow_resolves_a_forbidden_command_and_logs_the_override__CORE_REF_1():
    s = fight()
    assert s.check(duel.Strike("b1", "a1")).reason == "NOT_YOUR_TURN"
    step = s.act(Allow(duel.Strike("b1", "a1")), ScriptedDice([4]))
    assert kinds(step) == ["Overridden", "Struck", "DamageTaken"]
    assert step.events[0].text == "Referee allows: Strike" and step.events[0].rule == "CORE-REF-1"
    assert s.state.get("a1").hp == 6


@pytest.mark.parametrize("inner, reason", [
    (Allow(Note("x")), "NESTED_ALLOW"),
    (SetHp("nobody", 3), "NO_SUCH_COMBATANT"),
    (Heal("a1", -5), "NEGATIVE_AMOUNT"),
    (duel.Strike("nobody", "b1"), "NO_SUCH_COMBATANT"),
    (duel.Strike("a1", "nobody"), "NO_SUCH_COMBATANT"),
])
def test_allow_skips_the_rules_but_not_the_facts__CORE_REF_1(inner, reason):
    assert refused(fight(), Allow(inner)) == reason


def test_allow_of_another_systems_command_is_refused__CORE_REF_1():
    from fray.engine.commands import command

    @command("elsewhere")
    class Teleport:
        actor: str

    assert refused(fight(), Allow(Teleport("a1"))) == "UNKNOWN_COMMAND"


def test_overrides_undo_like_any_step__CORE_REF_1():
    s = fight()
    start = s.state
    for cmd in (SetHp("a1", 1), Place("b1", band=1), SetStat("b2", "level", 4), SetCondition("a1", "hidden"),
                Note("n"), FreeRoll("d20"), Allow(duel.Strike("b2", "a1"))):
        s.act(cmd)
    while s.can_undo:
        s.undo()
    assert s.state == start


def test_physical_dice_for_a_free_roll_ask_first_and_change_nothing__CORE_DICE_3():
    s = fight()
    with pytest.raises(NeedDice) as need:
        s.act(FreeRoll("3d8", "treasure"), ScriptedDice([]))
    assert (need.value.count, need.value.sides) == (3, 8)
    assert not s.steps


# --- CORE-SIDE-1 -------------------------------------------------------------------

def sides3(allied: bool):
    return (Side("a", "Alpha"), Side("b", "Beta", allies=("c",) if allied else ()), Side("c", "Gamma"))


def test_different_sides_are_hostile_unless_allied__CORE_SIDE_1():
    plain = sides3(False)
    assert are_hostile(plain, "a", "b") and are_hostile(plain, "b", "c")
    assert not are_hostile(plain, "a", "a")
    allied = sides3(True)
    assert not are_hostile(allied, "b", "c") and not are_hostile(allied, "c", "b"), "one mark is enough"
    assert are_hostile(allied, "a", "c")


def test_allied_sides_are_not_enemies_and_are_not_offered_as_targets__CORE_SIDE_1():
    enc = duel.encounter()
    a, b = enc.sides
    enc = replace(enc, sides=(replace(a, allies=("b",)), b))
    s = Session(enc, duel.RULESET)
    assert list(s.state.enemies_of(s.state.get("a1"))) == []
    assert [o.label for o in s.options("a1")] == ["Pass"]
    assert s.state.outcome == "No hostile sides remain standing", "decided before any command"


def test_hostile_sides_are_offered_as_targets__CORE_SIDE_1():
    s = fight()
    assert [o.label for o in s.options("a1")] == ["Pass", "Strike Bob", "Strike Bea"]
    assert [o.id for o in s.state.enemies_of(s.state.get("b1"))] == ["a1"], "Bea is Bob's own side"


def test_the_fight_ends_when_one_side_stands_alone__CORE_HP_1__CORE_SIDE_1():
    s = fight()
    s.act(Damage("b1", 8))
    assert s.state.outcome == ""
    s.act(Damage("b2", 6))
    assert s.state.outcome == "Alpha stands alone"
    s.undo()
    assert s.state.outcome == ""


@pytest.mark.parametrize("value", [float("inf"), float("nan"), {1: 2}, object(), {"a": [float("-inf")]}])
def test_a_stat_value_no_save_file_could_hold_is_refused__CORE_REF_1(value):
    """Infinity would be saved as the non-JSON `Infinity`: the autosave could never load."""
    assert refused(fight(), SetStat("a1", "luck", value)) == "BAD_VALUE"


@pytest.mark.parametrize("value", [3, -2.5, "brave", True, None, ("a", 1), ["a"], {"x": (1, 2)}])
def test_a_stat_value_may_be_any_plain_value__CORE_REF_1(value):
    s = fight()
    s.act(SetStat("a1", "luck", value))
    # a list is kept as the tuple its saved step loads back as, so a reload gives the same state
    assert s.state.get("a1").stats["luck"] == (tuple(value) if isinstance(value, list) else value)
