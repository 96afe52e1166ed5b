"""OSE grid movement with loaded dice: rate, attacks of opportunity, withdraw, flee, charge, brace, manipulation."""
from __future__ import annotations

from fray.engine.geometry import chebyshev
from fray.engine.paths import provocations
from fray.rules.ose import (RULESET, STEPS, Attack, Charge, Declare, Done, EndStep, Flee, Manipulate, Move,
                           Opportunity, Phase, Splinter, Withdraw, grid_of, hostile_fn)
from fray.rules.ose.movement import body, bodies, move_left
from acting import act, kinds, refusal, texts
from ose_kit import CLAW, HALBERD, SPEAR, c, fighter, refused, session, start, sys


def line(x0: int, x1: int, y: int):
    step = 1 if x1 >= x0 else -1
    return tuple((x, y) for x in range(x0, x1 + step, step))


# --- tactical movement (OSE-MOVE-1, OSE-ECON-1) ----------------------------------------------------

def test_tactical_rate_is_base_speed_over_three__OSE_MOVE_1():
    s = session(fighter("ann", "a", (0, 0)), fighter("sly", "a", (0, 2), speed=90), fighter("gob", "b", (15, 11)))
    start(s, 9, 2)
    assert move_left(s.state, c(s, "ann")) == 80  # 40 ft Move + 40 ft Main
    assert move_left(s.state, c(s, "sly")) == 60
    ill = refusal(s, Move("ann", line(0, 9, 0) + ((9, 1), (9, 2), (9, 3), (9, 4), (9, 5), (9, 6), (9, 7), (9, 8))))
    assert ill.reason == "OUT_OF_RANGE" and "OSE-MOVE-1" in ill.detail
    act(s, Move("ann", line(0, 8, 0)))
    assert c(s, "ann").square == (8, 0) and move_left(s.state, c(s, "ann")) == 40


def test_movement_rate_divisor_is_a_setting__OSE_MOVE_1():
    s = session(fighter("ann", "a", (0, 0)), fighter("gob", "b", (15, 11)), settings={"move_divisor": 4})
    start(s, 9, 2)
    assert move_left(s.state, c(s, "ann")) == 60


def test_main_spent_on_movement_leaves_no_attack__OSE_ECON_1():
    s = session(fighter("ann", "a", (0, 5)), fighter("gob", "b", (10, 5)))
    start(s, 9, 2)
    act(s, Move("ann", line(0, 9, 5)))  # 45 ft: more than the Move's 40
    e = sys(s).econ["ann"]
    assert e.move == "move" and e.main == "move"
    assert sys(s).turn == 0 and RULESET.phase(s.state) is Phase.MOVE
    act(s, Done("ann"))
    assert sys(s).turn == 1  # no Main left to attack with in the MELEE step: the goblins act


def test_a_main_action_once_a_round__OSE_ECON_1():
    s = session(fighter("ann", "a", (4, 4)), fighter("bob", "a", (4, 5)), fighter("gob", "b", (5, 4), hp=30))
    start(s, 9, 2)
    act(s, EndStep())
    act(s, Attack("ann", "gob", "Sword"), 15, 2)
    ill = refusal(s, Attack("ann", "gob", "Sword"))
    assert ill.reason in ("MAIN_USED", "ALREADY_DONE") or "OSE-ECON-1" in ill.detail


# --- attacks of opportunity (OSE-AOO-1..3) --------------------------------------------------------------

def test_leaving_a_threatened_square_provokes_every_threatening_enemy__OSE_AOO_1():
    s = session(fighter("ann", "a", (5, 5), hp=30), fighter("g1", "b", (6, 5)), fighter("g2", "b", (6, 6)),
                fighter("g3", "b", (9, 9)))
    start(s, 9, 2)
    step = act(s, Move("ann", ((5, 5), (4, 5), (3, 5))))
    prov = [e for e in step.events if e.kind == "Provoked"]
    assert len(prov) == 1 and prov[0].data["attackers"] == ["g1", "g2"] and prov[0].rule == "OSE-AOO-1"
    assert s.current() == ("g1",)
    act(s, Opportunity("g1"), 2)  # both miss
    act(s, Opportunity("g2"), 3)
    assert c(s, "ann").square == (3, 5)


def test_entering_a_threatened_square_does_not_provoke__OSE_AOO_1():
    s = session(fighter("ann", "a", (2, 5)), fighter("gob", "b", (5, 5)))
    start(s, 9, 2)
    step = act(s, Move("ann", ((2, 5), (3, 5), (4, 5))))
    assert step.dice == () and c(s, "ann").square == (4, 5)


def test_only_a_melee_weapon_in_hand_threatens__OSE_AOO_1():
    s = session(fighter("ann", "a", (5, 5)), fighter("gob", "b", (6, 5), hands=("", "")),
                fighter("imp", "b", (6, 4), weapons=(CLAW,), hands=("", "")))
    start(s, 9, 2)
    threat = {b.id: b.threatens for b in bodies(s.state)}
    assert threat == {"ann": True, "gob": False, "imp": True}
    act(s, Move("ann", ((5, 5), (4, 5))))
    assert s.current() == ("imp",)  # only the imp is asked, and strikes
    step = act(s, Opportunity("imp"), 2)
    assert [e.actor for e in step.events if e.kind.startswith("Attack")] == ["imp"]


def test_an_aoo_hit_returns_the_mover_and_the_movement_is_lost_then_it_may_try_again__OSE_AOO_2():
    s = session(fighter("ann", "a", (5, 5), hp=20), fighter("gob", "b", (6, 5)))
    start(s, 9, 2)
    act(s, Move("ann", ((5, 5), (4, 5), (3, 5))))
    step = act(s, Opportunity("gob"), 15, 3)
    assert "MoveStopped" in kinds(step) and c(s, "ann").square == (5, 5) and c(s, "ann").hp == 17
    assert move_left(s.state, c(s, "ann")) == 75  # the 5 ft step out is lost
    act(s, Move("ann", ((5, 5), (4, 5), (3, 5))))  # provokes again: a miss
    act(s, Opportunity("gob"), 4)
    assert c(s, "ann").square == (3, 5) and move_left(s.state, c(s, "ann")) == 65


def test_an_aoo_on_a_shield_bearer_pauses_the_move_for_the_shield_question__OSE_AOO_2__OSE_SSBS_1():
    s = session(fighter("ann", "a", (5, 5), hands=("Sword", "Shield")), fighter("gob", "b", (6, 5)))
    start(s, 9, 2)
    act(s, Move("ann", ((5, 5), (4, 5), (3, 5))))
    act(s, Opportunity("gob"), 15)
    assert s.state.prompt.kind == "splinter" and s.current() == ("ann",)
    step = act(s, Splinter("ann", True))
    assert "MoveStopped" in kinds(step) and c(s, "ann").square == (5, 5) and c(s, "ann").hp == 10


def test_reach_weapons_threaten_ten_feet__OSE_AOO_3():
    pole = fighter("pia", "b", (8, 5), weapons=(HALBERD,), hands=("Halberd", "Halberd"))
    s = session(fighter("ann", "a", (6, 5)), pole)
    start(s, 9, 2)
    b = body(s.state, "pia")
    assert b.reach == 2
    step = act(s, Move("ann", ((6, 5), (5, 5))))  # 10 ft from the halberd: provokes
    assert kinds(step) == ["MoveStarted", "Provoked"] and s.current() == ("pia",)
    assert kinds(act(s, Opportunity("pia"), 2))[0] == "AttackMissed"


def test_the_threatening_enemy_is_asked_attack_first_and_may_let_go__OSE_AOO_4():
    s = session(fighter("ann", "a", (5, 5), hp=20), fighter("gob", "b", (6, 5)))
    start(s, 9, 2)
    step = act(s, Move("ann", ((5, 5), (4, 5), (3, 5))))
    assert step.dice == () and c(s, "ann").square == (5, 5)  # nothing rolled before the answer
    p = s.state.prompt
    assert p.kind == "aoo" and p.actor == "gob" and "OSE-AOO-4" in p.question and s.current() == ("gob",)
    answers = s.options("gob")
    assert [o.command for o in answers if o.group == "Answer"] == [
        Opportunity("gob", "attack"), Opportunity("gob", "decline"), Opportunity("gob", "stunt")]
    assert answers[0].key == "next" and answers[0].allowed  # the default, one tap
    assert refused(s, Attack("ann", "gob", "Sword")) == "WAITING_FOR_ANSWER"
    step = act(s, Opportunity("gob", "decline"))
    assert kinds(step)[0] == "OpportunityDeclined" and "OSE-AOO-4" in texts(step)[0]
    assert c(s, "ann").square == (3, 5) and c(s, "ann").hp == 20 and s.state.prompt is None


def test_a_stunt_in_lieu_of_the_attack_is_logged_for_the_referee__OSE_AOO_4():
    s = session(fighter("ann", "a", (5, 5)), fighter("g1", "b", (6, 5)), fighter("g2", "b", (6, 6)))
    start(s, 9, 2)
    act(s, Move("ann", ((5, 5), (4, 5), (3, 5))))
    step = act(s, Opportunity("g1", "stunt"))
    assert kinds(step) == ["StuntInstead"] and "referee rules" in texts(step)[0]
    assert s.current() == ("g2",)  # each threatening enemy answers for itself
    act(s, Opportunity("g2"), 2)
    assert c(s, "ann").square == (3, 5)


def test_a_caster_asked_for_an_aoo_sees_the_spell_it_would_lose__OSE_SPELL_3__OSE_AOO_4():
    mage = fighter("mira", "b", (6, 5), spells=("Sleep",))
    s = session(fighter("ann", "a", (5, 5), hp=20), mage)
    act(s, Declare("mira", "spell", "Sleep"))
    start(s, 9, 2)
    act(s, Move("ann", ((5, 5), (4, 5), (3, 5))))
    first = s.options("mira")[0]
    assert first.command == Opportunity("mira", "attack") and "loses Sleep" in first.label
    assert "OSE-SPELL-3" in first.hint
    step = act(s, first.command, 3)
    assert "SpellLost" in kinds(step) and "mira" not in sys(s).casting


# --- withdraw (OSE-WD-1) ------------------------------------------------------------------------------------

def test_withdraw_first_square_is_free_then_plus_two_ac_against_aoo__OSE_WD_1():
    s = session(fighter("ann", "a", (5, 5), ac=10), fighter("g1", "b", (6, 5)), fighter("g2", "b", (4, 4)))
    start(s, 9, 2)
    opt = next(o for o in s.options("ann") if isinstance(o.command, Withdraw))
    assert opt.allowed and opt.needs == ("path",) and "referee constrains" in opt.hint and "suggested" in opt.hint
    act(s, Withdraw("ann", ((5, 5), (4, 5), (3, 5))))  # leaving (4, 5) provokes g2 only
    assert s.current() == ("g2",)
    step = act(s, Opportunity("g2"), 11)
    atk = [e for e in step.events if e.kind.startswith("Attack")]
    assert len(atk) == 1 and atk[0].actor == "g2" and atk[0].data["ac"] == 12 and atk[0].kind == "AttackMissed"
    assert "withdrawing +2" in atk[0].text
    e = sys(s).econ["ann"]
    assert e.main == "withdraw" and e.move == "" and c(s, "ann").square == (3, 5)


def test_withdraw_is_a_main_action__OSE_WD_1():
    s = session(fighter("ann", "a", (5, 5)), fighter("g1", "b", (12, 5)))
    start(s, 9, 2)
    act(s, Move("ann", line(5, 0, 5) + ((0, 6), (0, 7), (0, 8), (0, 9))))  # 45 ft uses the Main
    assert refused(s, Withdraw("ann", ((0, 9), (0, 10)))) == "MAIN_USED"


# --- flee (OSE-FLEE-1) --------------------------------------------------------------------------------------

def test_flee_leaves_the_map_and_aoos_do_not_stop_it__OSE_FLEE_1():
    s = session(fighter("ann", "a", (5, 5)), fighter("bob", "a", (1, 1)), fighter("gob", "b", (6, 5)))
    start(s, 9, 2)
    act(s, Flee("ann"))
    step = act(s, Opportunity("gob"), 15, 3)
    assert "AttackHit" in kinds(step) and "Fled" in kinds(step)
    a = c(s, "ann")
    assert a.has_condition("fled") and a.square is None and a.hp == 7
    assert refused(s, Move("ann", ((5, 5), (4, 5)))) == "OUT_OF_FIGHT"


def test_no_fleeing_in_the_dark_without_sight__OSE_FLEE_1():
    s = session(fighter("ann", "a", (5, 5)), fighter("eve", "a", (1, 1), conditions=("can see",)),
                fighter("gob", "b", (12, 5)), settings={"dark": True})
    start(s, 9, 2)
    ill = refusal(s, Flee("ann"))
    assert ill.reason == "DARK" and "OSE-FLEE-1" in ill.detail
    act(s, Flee("eve"))


# --- charge and brace (OSE-CHARGE-1, OSE-BRACE-1) -------------------------------------------------------------

def test_a_charge_draws_no_aoo_and_ends_with_one_attack__OSE_CHARGE_1():
    giant = fighter("ogre", "b", (8, 5), hp=20, weapons=(CLAW,), hands=("", ""), reach_ft=20)
    s = session(fighter("ann", "a", (4, 5)), giant)
    start(s, 9, 2)
    me, bs = body(s.state, "ann"), bodies(s.state)
    walk = line(4, 7, 5)
    assert len(provocations(walk, me, bs, hostile_fn(s.state), grid=grid_of(s.state))) == 3  # a walk would provoke
    step = act(s, Charge("ann", "Sword"), 14, 5)
    weapons = [e for e in step.events if e.kind.startswith("Attack")]
    assert [(e.actor, e.rule) for e in weapons] == [("ann", "OSE-CHARGE-1")]
    assert chebyshev(c(s, "ann").square, (8, 5)) == 1 and c(s, "ogre").hp == 15
    assert sys(s).econ["ann"].full == "charge"


def test_a_charge_needs_fifteen_feet_to_the_nearest_enemy__OSE_CHARGE_1():
    s = session(fighter("ann", "a", (4, 5)), fighter("gob", "b", (7, 5)), fighter("orc", "b", (14, 5)))
    start(s, 9, 2)
    ill = refusal(s, Charge("ann", "Sword"))
    assert ill.reason == "TOO_CLOSE" and "Gob" in ill.detail and "OSE-CHARGE-1" in ill.detail


def test_a_charge_says_whom_and_along_which_squares_checked_like_a_move__OSE_CHARGE_1():
    s = session(fighter("ann", "a", (4, 5)), fighter("gob", "b", (10, 5)), fighter("orc", "b", (14, 9)),
                walls=[(6, 6)])
    start(s, 9, 2)
    offered = next(o for o in s.options("ann") if isinstance(o.command, Charge))
    assert offered.command.target == "gob" and offered.command.path[0] == (4, 5)
    assert chebyshev(offered.command.path[-1], (10, 5)) == 1 and "at Gob, 25 ft" in offered.hint
    assert refusal(s, Charge("ann", "Sword", "orc")).reason == "NOT_NEAREST"
    through_wall = ((4, 5), (5, 6), (6, 6), (7, 6), (8, 6), (9, 6))
    ill = refusal(s, Charge("ann", "Sword", "gob", through_wall))
    assert ill.reason in ("WALL", "BAD_PATH") and "wall" in ill.detail.lower() and "OSE-CHARGE-1" in ill.detail
    assert refusal(s, Charge("ann", "Sword", "gob", ((4, 5), (5, 4), (6, 3), (7, 2)))).reason == "OUT_OF_REACH"
    detour = ((4, 5), (5, 4), (6, 4), (7, 4), (8, 4), (9, 4))  # the referee's squares, not the engine's
    act(s, Charge("ann", "Sword", "gob", detour), 14, 5)
    assert c(s, "ann").square == (9, 4) and c(s, "gob").hp == 5


def test_a_charge_is_a_full_round_action__OSE_CHARGE_1():
    s = session(fighter("ann", "a", (0, 5)), fighter("gob", "b", (10, 5)))
    start(s, 9, 2)
    act(s, Move("ann", ((0, 5), (1, 5))))
    assert refused(s, Charge("ann", "Sword")) == "NEEDS_FULL_ROUND"


def test_a_charger_stopped_by_a_brace_hit_takes_double_damage__OSE_BRACE_1():
    spear = fighter("orc", "b", (10, 5), weapons=(SPEAR,), hands=("Spear", ""))
    s = session(fighter("ann", "a", (4, 5), hp=12), spear)
    act(s, Declare("orc", "brace"))
    start(s, 9, 2)
    act(s, Charge("ann", "Sword"))
    assert s.state.prompt.kind == "aoo" and "braced Spear" in s.state.prompt.question  # OSE-AOO-4: asked too
    step = act(s, Opportunity("orc"), 15, 4)  # brace strike hits: 4 x 2
    brace = [e for e in step.events if e.rule == "OSE-BRACE-1"]
    assert any(e.kind == "AttackHit" and e.actor == "orc" for e in brace)
    assert c(s, "ann").hp == 4 and c(s, "ann").square == (8, 5)
    assert "MoveStopped" in kinds(step) and not any(e.actor == "ann" and e.kind.startswith("Attack")
                                                     for e in step.events)


def test_a_missed_brace_strike_lets_the_charge_hit_home__OSE_BRACE_1():
    spear = fighter("orc", "b", (10, 5), weapons=(SPEAR,), hands=("Spear", ""))
    s = session(fighter("ann", "a", (4, 5), hp=12), spear)
    act(s, Declare("orc", "brace"))
    start(s, 9, 2)
    assert sys(s).bracing == frozenset({"orc"}) and sys(s).econ["orc"].full == "brace"
    act(s, Charge("ann", "Sword"))
    act(s, Opportunity("orc"), 3, 15, 6)
    assert chebyshev(c(s, "ann").square, (10, 5)) == 1 and c(s, "orc").hp == 4
    assert s.state.round == 2  # the bracer takes no Main action on its turn


# --- manipulation (OSE-MANIP-1) ------------------------------------------------------------------------------------

def test_first_manipulation_free_second_uses_move_third_uses_main__OSE_MANIP_1():
    s = session(fighter("ann", "a", (1, 1), hands=("", ""), inventory=("Sword", "Torch", "Rope", "Potion")),
                fighter("gob", "b", (14, 10)))
    start(s, 9, 2)
    steps = [act(s, Manipulate("ann", "draw", "Sword")), act(s, Manipulate("ann", "stow", "Sword")),
             act(s, Manipulate("ann", "draw", "Torch"))]
    assert ["free" in texts(x)[0] for x in steps] == [True, False, False]
    e = sys(s).econ["ann"]
    assert e.manips == 3 and e.move == "manipulation" and e.main == "manipulation"
    ill = refusal(s, Manipulate("ann", "draw", "Rope"))
    assert ill.reason == "NO_ACTION_LEFT" and "OSE-MANIP-1" in ill.detail
    assert move_left(s.state, c(s, "ann")) == 0


def test_a_shield_takes_the_move_and_the_backpack_is_out_of_reach__OSE_MANIP_1():
    s = session(fighter("ann", "a", (1, 1), inventory=("Shield",), backpack=("Rope",)),
                fighter("gob", "b", (14, 10)))
    start(s, 9, 2)
    step = act(s, Manipulate("ann", "draw", "Shield"))
    assert "uses the Move" in texts(step)[0]
    e = sys(s).econ["ann"]
    assert e.move == "manipulation" and e.manips == 0
    ill = refusal(s, Manipulate("ann", "draw", "Rope"))
    assert ill.reason == "IN_BACKPACK" and "OSE-MANIP-1" in ill.detail
    assert move_left(s.state, c(s, "ann")) == 40  # only the Main's movement is left


def test_movement_split_around_the_free_manipulation__OSE_MANIP_1():
    s = session(fighter("ann", "a", (1, 1), hands=("Sword", ""), inventory=("Potion",)), fighter("gob", "b", (14, 10)))
    start(s, 9, 2)
    act(s, Move("ann", ((1, 1), (2, 1))))
    act(s, Manipulate("ann", "draw", "Potion"))
    act(s, Move("ann", ((2, 1), (3, 1))))
    assert c(s, "ann").square == (3, 1) and sys(s).econ["ann"].manips == 1
    act(s, Done("ann"))
    assert STEPS[sys(s).step] != "move" or sys(s).order[sys(s).turn] == "b"


def test_an_enemy_with_several_attacks_chooses_which_one_for_the_aoo__OSE_AOO_2__OSE_AOO_4():
    beast = fighter("imp", "b", (6, 5), weapons=(CLAW, CLAW.__class__("Bite", "1d6", kind="natural")),
                    hands=("", ""), aoo_attack="Bite")
    s = session(fighter("ann", "a", (5, 5), hp=20), beast)
    start(s, 9, 2)
    act(s, Move("ann", ((5, 5), (4, 5), (3, 5))))
    answers = [o for o in s.options("imp") if o.group == "Answer"]
    assert answers[0].command == Opportunity("imp", "attack") and "(Bite)" in answers[0].label  # suggested
    assert answers[1].command == Opportunity("imp", "attack", "Claw") and "with Claw" in answers[1].label
    assert refused(s, Opportunity("imp", "attack", "Sword")) == "BAD_ANSWER"
    step = act(s, answers[1].command, 2)
    assert "with Claw" in texts(step)[0]
