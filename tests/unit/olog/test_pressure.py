"""OLOG pressure: who threatens, the die, the minimum, and the Press On flow (OLOG-PRES-*)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from fray.engine.model import Weapon
from fray.engine.session import Session
from fray.rules.olog import RULESET, Attack as AttackCmd, CastSpell, Defend, EndTurn, Move, RollInitiative, Strategise
from fray.rules.olog.examples import eight_humans, superpredator, two_orcs
from fray.rules.olog.pressure import half_die, pressure_on

from acting import act, first_event, kinds
from olog_support import FRIENDS, THIRD, foe, hero, started, system


def pressure(session, cid="brak"):
    return pressure_on(session.state, cid)


def example_session(build, face: int = 15) -> Session:
    s = Session(build(1), RULESET)
    act(s, RollInitiative(), face)
    assert s.current() == ("brak",)
    return s


# --- the text's examples (golden) ------------------------------------------------------

@pytest.mark.parametrize("face,taken", [(1, 2), (2, 2), (3, 3), (4, 4)])
def test_two_orcs_with_d8_swords_press_for_d4_min_2__OLOG_PRES_9(face, taken):
    s = example_session(two_orcs)
    p = pressure(s)
    assert (p.die, p.minimum, p.cost()) == (4, 2, "d4 (min 2)")
    assert p.sentence() == "Under pressure from 2: pressing on costs d4 (min 2)"
    hp = s.state.get("brak").hp
    step = act(s, Defend("brak", press_on=True), face)
    roll = first_event(step, "PressedOn").rolls[0]
    assert roll.expr == "d4" and roll.faces == (face,) and roll.total == taken
    assert s.state.get("brak").hp == hp - taken


@pytest.mark.parametrize("face", [1, 3, 5])
def test_superpredator_d10_bite_and_d6_claws_press_for_d5__OLOG_PRES_9(face):
    s = example_session(superpredator)
    p = pressure(s)
    assert (p.die, p.minimum, p.cost()) == (5, 1, "d5 (min 1)")
    step = act(s, Defend("brak", press_on=True), face)
    roll = first_event(step, "PressedOn").rolls[0]
    assert roll.expr == "d5" and roll.total == face


def test_eight_humans_with_d6_knives_press_for_8_without_asking_for_the_d3__OLOG_PRES_9__OLOG_PRES_5():
    """The minimum (8, one per foe) beats any d3: no die is asked, even of physical dice, and the log says why."""
    s = example_session(eight_humans)
    p = pressure(s)
    assert (p.die, p.minimum) == (3, 8) and p.fixed == 8
    assert p.cost() == "8, the minimum (a d3 rolls at most 3; the minimum is 8, one per foe)"
    assert p.sentence() == ("Under pressure from 8: pressing on costs 8, the minimum "
                            "(a d3 rolls at most 3; the minimum is 8, one per foe)")
    press = next(o for o in s.options("brak") if o.group == "Defend").choices[0]
    assert press.label.startswith("Press on: take 8, the minimum") and "d3 (min 8)" not in press.label
    s.physical_dice = True
    step = act(s, Defend("brak", press_on=True))  # no faces: asking for one would raise NeedDice
    pressed = first_event(step, "PressedOn")
    assert step.dice == () and pressed.rolls == () and "without a roll" in pressed.text
    assert pressed.rule == "OLOG-PRES-4 OLOG-PRES-5" and s.state.get("brak").hp == 20 - 8


# --- who threatens (OLOG-PRES-1) ---------------------------------------------------------

def test_foe_in_the_same_zone_threatens_not_the_next__OLOG_PRES_1():
    s = started(hero(band=2), foe("near", band=3), foe("close", band=2), faces=(15,))
    assert pressure(s).threats == ("close",)


def test_long_reaching_foe_threatens_the_next_zone__OLOG_PRES_1():
    s = started(hero(band=2), foe("pike", band=3, stats={"long_reach": True}), foe("far", band=4,
                stats={"long_reach": True}), faces=(15,))
    assert pressure(s).threats == ("pike",)


def test_reach_setting_widens_every_creature__OLOG_PRES_1():
    s = started(hero(band=2), foe("near", band=3), faces=(15,), settings={"olog_reach_zones": 1})
    assert pressure(s).threats == ("near",)


def test_down_foe_allied_side_and_friends_exert_no_pressure__OLOG_PRES_1():
    s = started(hero(band=2), foe("dead", band=2, hp=0, max_hp=6), foe("elf", band=2, side=FRIENDS),
                hero("mira", "Mira", band=2), foe("bandit", band=2, side=THIRD), faces=(15, 14))
    assert pressure(s).threats == ("bandit",)  # a third side is hostile too (CORE-SIDE-1)
    assert pressure(s, "elf").threats == ("bandit",)


def test_foe_with_no_attack_counts_for_the_minimum_without_a_die__OLOG_PRES_1():
    s = started(hero(band=2), foe("unarmed", band=2, damage=None), faces=(15,))
    p = pressure(s)
    assert p.is_under and p.die == 0 and p.cost() == "1"
    assert p.sentence() == "Under pressure from 1: pressing on costs 1 (no damage die among them)"
    step = act(s, Defend("brak", press_on=True))  # no die is rolled
    assert step.dice == () and s.state.get("brak").hp == 11
    # with an armed foe too, the unarmed one still raises the minimum
    s = started(hero(band=2), foe("unarmed", band=2, damage=None), foe("orc", band=2), faces=(15,))
    assert (pressure(s).die, pressure(s).minimum) == (4, 2)


def test_weapon_not_in_hand_gives_no_die__OLOG_PRES_4():
    sheathed = foe("orc", band=2, weapons=(Weapon("Sword", "1d8", item="Sword"),), hands=("", ""))
    s = started(hero(band=2), sheathed, faces=(15,))
    assert pressure(s).die == 0 and pressure(s).minimum == 1


# --- the Press On flow (OLOG-PRES-2) -----------------------------------------------------

def test_options_under_pressure_ask_before_rolling__OLOG_PRES_2():
    s = example_session(two_orcs)
    opts = {o.label: o for o in s.options("brak")}
    attack = opts["Attack Orc 1 with Sword (1d8)"]
    assert attack.allowed and attack.command.press_on is None
    assert attack.question == "Brak is under pressure from Orc 1, Orc 2: press on?"
    assert [c.label for c in attack.choices] == ["Press on: take d4 (min 2)", "Act, then the turn ends"]
    assert [c.values for c in attack.choices] == [{"press_on": True}, {"press_on": False}]
    # A tap takes the text's default: no Press On, the turn ends after the action (OLOG-PRES-2); pressing
    # on is the other answer, one tap away, and is never remembered for the next action (it costs HP).
    assert attack.default == 1 and not attack.remember
    assert opts["End turn"].choices == ()
    illegal = s.check(attack.command)
    assert illegal.reason == "NEEDS_PRESS_ON_CHOICE"
    assert "press on (d4 (min 2)) or act and end the turn (OLOG-PRES-2)" in illegal.detail


def test_acting_under_pressure_without_press_on_ends_the_turn__OLOG_PRES_2():
    s = example_session(two_orcs)
    step = act(s, Move("brak", 1, press_on=False))
    assert "PressedOn" not in kinds(step) and step.dice == ()
    assert first_event(step, "TurnEnded").rule == "OLOG-PRES-2"
    assert s.current() == ("orc1",) and s.state.get("brak").band == 1


def test_the_last_action_under_pressure_asks_nothing_and_costs_no_pressure__OLOG_PRES_2_OLOG_ACT_1():
    """With one action left and nothing free to follow it, the turn ends after the action anyway: the page
    does not ask "press on?" (pressing on would only cost hit points); the action acts at once, without
    pressure, and the turn ends. Extended actions still must press on (OLOG-PRES-7), asked once."""
    s = started(hero(band=2), foe("orc1", band=2), foe("orc2", band=2), faces=(15,))
    act(s, Defend("brak", press_on=True), 1)  # the first action, pressed on: one action left
    assert system(s).actions_left == 1 and s.current() == ("brak",)
    opts = {o.label: o for o in s.options("brak")}
    attack = opts["Attack orc1 with Sword (1d8)"]
    assert attack.allowed and attack.choices == () and attack.question == ""
    assert attack.command.press_on is False and "turn ends" in attack.hint
    hp = s.state.get("brak").hp
    step = act(s, attack.command, 15, 4)
    assert "PressedOn" not in kinds(step) and s.state.get("brak").hp == hp  # no pressure paid
    assert first_event(step, "TurnEnded").rule == "OLOG-PRES-2" and s.current() == ("orc1",)


def test_the_last_action_still_asks_when_a_free_action_could_follow__OLOG_PRES_2_OLOG_ACT_3():
    """With an item on top of the pack, pressing on keeps the turn open for the free retrieval: still asked."""
    s = started(hero(band=2, inventory=("Torch",)), foe("orc1", band=2), foe("orc2", band=2), faces=(15,))
    act(s, Defend("brak", press_on=True), 1)
    attack = next(o for o in s.options("brak") if o.label.startswith("Attack orc1"))
    assert [c.values for c in attack.choices] == [{"press_on": True}, {"press_on": False}]


def test_no_press_on_needed_out_of_reach__OLOG_PRES_2():
    s = started(hero(band=0), foe("orc", band=3), faces=(15,))
    opts = [o for o in s.options("brak") if o.allowed]
    assert all(o.choices == () for o in opts)
    assert s.check(Defend("brak", press_on=True)).reason == "NOT_UNDER_PRESSURE"
    act(s, Defend("brak"))
    assert s.current() == ("brak",) and system(s).actions_left == 1


def test_press_on_damage_lands_with_the_action_which_resolves_even_if_dropped__OLOG_PRES_3():
    s = started(hero(band=2, hp=2), foe("orc1", band=2, hp=4, ac=10), foe("orc2", band=2), faces=(15,))
    step = act(s, AttackCmd("brak", "orc1", "Sword", press_on=True), 3, 15, 4)
    order = kinds(step)
    assert order.index("PressedOn") < order.index("AttackHit")
    assert s.state.get("brak").is_down and s.state.get("orc1").is_down  # he fell, his blow still landed
    assert s.current() == () and s.state.outcome == "Foes win"


def test_action_lost_when_pressure_drops_the_actor_if_set__OLOG_PRES_3():
    s = started(hero(band=2, hp=2), foe("orc1", band=2, hp=4), foe("orc2", band=2), faces=(15,),
                settings={"olog_action_resolves_if_dropped": False})
    step = act(s, AttackCmd("brak", "orc1", "Sword", press_on=True), 3)  # no to-hit roll follows
    assert "ActionLost" in kinds(step) and not s.state.get("orc1").is_down


# --- the die and the minimum (OLOG-PRES-4/5/6) -------------------------------------------

@pytest.mark.parametrize("damage,die", [("1d8", 4), ("1d10", 5), ("1d6", 3), ("2d6", 3), ("1d12", 6),
                                        ("d5", 3), ("1d3", 2), ("1d2", 1), ("3d4+2", 2)])
def test_pressure_die_is_half_the_largest_die_odd_rounding_up__OLOG_PRES_4(damage, die):
    s = started(hero(band=2), foe("f", band=2, damage=damage), faces=(15,))
    assert pressure(s).die == die


def test_odd_faces_round_down_when_set__OLOG_PRES_4():
    s = started(hero(band=2), foe("f", band=2, damage="1d10"), foe("g", band=2, damage="1d5"), faces=(15,),
                settings={"olog_pressure_round": "down"})
    assert pressure(s).die == 5 and half_die(5, "down") == 2 and half_die(1, "down") == 1


def test_each_creature_counts_only_its_largest_die_the_largest_overall_wins__OLOG_PRES_4():
    beast = foe("beast", band=2, weapons=(Weapon("Claw", "1d6", kind="natural", count=2),
                                          Weapon("Bite", "1d12", kind="natural")))
    s = started(hero(band=2), beast, foe("rat", band=2, damage="1d4"), faces=(15,))
    p = pressure(s)
    assert (p.source_die, p.die, p.minimum) == (12, 6, 2)


def test_minimum_is_the_number_of_threats_even_above_the_die__OLOG_PRES_5():
    s = started(hero(band=2, hp=30), *[foe(f"rat{i}", band=2, damage="1d2") for i in range(5)], faces=(15,))
    p = pressure(s)
    assert (p.die, p.minimum) == (1, 5)
    step = act(s, Defend("brak", press_on=True))  # a d1 cannot beat 5: no die is asked
    assert first_event(step, "PressedOn").rolls == () and s.state.get("brak").hp == 25


def test_a_roll_below_the_minimum_is_raised_to_it__OLOG_PRES_5():
    s = started(hero(band=2, hp=30), *[foe(f"rat{i}", band=2, damage="1d6") for i in range(2)], faces=(15,))
    step = act(s, Defend("brak", press_on=True), 1)
    roll = first_event(step, "PressedOn").rolls[0]
    assert roll.expr == "d3" and roll.total == 2 and roll.raised and "raised to minimum 2" in roll.describe()


def test_flat_bonuses_add_only_for_a_marked_creature__OLOG_PRES_6():
    s = started(hero(band=2), foe("ogre", band=2, damage="1d8+3"), faces=(15,))
    assert pressure(s).cost() == "d4 (min 1)"
    s = started(hero(band=2), foe("ogre", band=2, damage="1d8+3", stats={"pressure_bonus": True}), faces=(15,))
    assert pressure(s).cost() == "d4+3 (min 1)"
    step = act(s, Defend("brak", press_on=True), 2)
    assert first_event(step, "PressedOn").rolls[0].total == 5


# --- extended actions and repeated Press On (OLOG-PRES-7/8) -----------------------------

def test_extended_action_under_pressure_needs_press_on_rolled_once__OLOG_PRES_7():
    s = example_session(two_orcs)
    opt = next(o for o in s.options("brak") if o.group == "Spell")
    assert [c.label for c in opt.choices] == ["Press on: take d4 (min 2)"]
    assert "extended actions need Press On (OLOG-PRES-7)" in opt.question
    assert opt.default == -1  # asked, once: the only answer costs hit points
    illegal = s.check(CastSpell("brak", "Sleep", press_on=False))
    assert illegal.reason == "EXTENDED_NEEDS_PRESS_ON" and "OLOG-PRES-7" in illegal.detail
    step = act(s, CastSpell("brak", "Sleep", press_on=True), 3)
    assert kinds(step).count("PressedOn") == 1 and system(s).actions_left == 0


def test_extended_action_rolls_pressure_per_action_when_set__OLOG_PRES_7():
    s = Session(replace(two_orcs(1), settings={"olog_extended_pressure_once": False}), RULESET)
    act(s, RollInitiative(), 15)
    step = act(s, CastSpell("brak", "Sleep", press_on=True), 3, 1)
    assert kinds(step).count("PressedOn") == 2 and s.state.get("brak").hp == 12 - 3 - 2


def test_each_pressed_action_rolls_its_own_pressure__OLOG_PRES_8():
    s = example_session(two_orcs)
    act(s, Defend("brak", press_on=True), 4)
    opt = next(o for o in s.options("brak") if o.label.startswith("Strategise: count up"))
    assert opt.choices and opt.choices[0].label == "Press on: take d4 (min 2)"
    step = act(s, Strategise("brak", "up", press_on=True), 1, 6)
    assert kinds(step).count("PressedOn") == 1 and s.state.get("brak").hp == 12 - 4 - 2


def test_one_press_on_covers_the_turn_when_set__OLOG_PRES_8():
    s = Session(replace(two_orcs(1), settings={"olog_press_on_each_action": False}), RULESET)
    act(s, RollInitiative(), 15)
    act(s, Defend("brak", press_on=True), 4)
    assert all(not o.choices for o in s.options("brak"))
    step = act(s, Strategise("brak", "up"), 6)  # no pressure roll
    assert "PressedOn" not in kinds(step) and s.state.get("brak").hp == 12 - 4


def test_turn_started_line_names_the_pressure():
    s = example_session(two_orcs)
    act(s, EndTurn("brak"))
    line = next(e.text for _, e in s.log() if e.kind == "TurnStarted" and e.actor == "orc1")
    assert line == "Orc 1's turn (count 11); under pressure from 1: pressing on costs d4 (min 1)"
