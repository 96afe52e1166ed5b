"""OSE attacks with loaded dice: to-hit and damage, stances, ranged weapons, advantage, shields, grapples, conditions."""
from __future__ import annotations

from dataclasses import replace

from fray.engine.referee import SetCondition
from fray.rules.ose import (RULESET, Attack, Declare, Done, EndStep, Grapple, Manipulate, Move, Release,
                           Splinter)
from fray.rules.ose.combat import effective_ac
from acting import act, kinds, refusal, texts
from ose_kit import (AXE_THROWN, BOW, CLAW, CROSSBOW, DAGGER, GREATSWORD, HALBERD, SLING, SWORD, c, fighter,
                     refused, session, start, sys)


def goto(s, step: str):
    """End steps of the acting side until `step` is current."""
    while RULESET.phase(s.state) != step:
        act(s, EndStep())


def melee(*cs, **kw):
    s = session(*cs, **kw)
    start(s, 9, 2)
    goto(s, "melee")
    return s


def shield_bearer(cid="brak", side="b", square=(5, 4), **kw):
    return fighter(cid, side, square, hands=("Sword", "Shield"), **kw)


# --- to-hit and damage (OSE-ATK-1) ----------------------------------------------------------------

def test_melee_adds_phys_to_hit_and_damage_and_equal_to_ac_hits__OSE_ATK_1():
    s = melee(fighter("ann", "a", (4, 4), phys=2), fighter("gob", "b", (5, 4), ac=10))
    step = act(s, Attack("ann", "gob", "Sword"), 8, 3)
    assert step.events[0].kind == "AttackHit" and "d20+2 [8] = 10 vs AC 10" in step.events[0].text
    assert c(s, "gob").hp == 10 - 5


def test_missiles_use_dex_and_a_low_roll_misses__OSE_ATK_1():
    s = session(fighter("hal", "a", (1, 1), weapons=(BOW,), hands=("Bow", ""), dex=2, phys=-3),
                fighter("gob", "b", (9, 9), ac=11), fighter("gib", "b", (9, 1), ac=13))
    start(s, 9, 2)
    goto(s, "missile")
    step = act(s, Attack("hal", "gob", "Bow"), 9, 3)
    # 9 + DEX 2 + short range 1 (40 ft, within the bow's 50 ft)
    assert step.events[0].data["total"] == 12 and c(s, "gob").hp == 10 - 5


def test_a_miss_rolls_no_damage__OSE_ATK_1():
    s = melee(fighter("ann", "a", (4, 4)), fighter("gob", "b", (5, 4), ac=13))
    step = act(s, Attack("ann", "gob", "Sword"), 12)
    assert kinds(step)[0] == "AttackMissed" and "DamageRolled" not in kinds(step) and c(s, "gob").hp == 10


# --- advantage and disadvantage (OSE-ADV-1) -----------------------------------------------------------

def test_advantage_rolls_twice_and_keeps_the_higher__OSE_ADV_1():
    s = melee(fighter("ann", "a", (4, 4)), fighter("gob", "b", (5, 4), ac=12))
    step = act(s, Attack("ann", "gob", "Sword", edge="adv"), 4, 15, 2)
    roll = step.events[0].rolls[0]
    assert roll.keep == "high" and roll.total == 15 and step.events[0].kind == "AttackHit"


def test_full_defense_and_advantage_cancel_and_never_stack__OSE_ADV_1():
    s = session(fighter("ann", "a", (4, 4)), fighter("gob", "b", (5, 4), ac=12))
    act(s, Declare("gob", "full_defense"))
    start(s, 9, 2)
    goto(s, "melee")
    step = act(s, Attack("ann", "gob", "Sword", edge="adv"), 14, 2)  # one die: they cancel
    assert step.events[0].rolls[0].keep == ""
    s2 = session(fighter("ann", "a", (4, 4)), fighter("gob", "b", (5, 4), ac=12))
    act(s2, Declare("gob", "full_defense"))
    start(s2, 9, 2)
    goto(s2, "melee")
    step = act(s2, Attack("ann", "gob", "Sword", edge="dis"), 14, 13, 1)  # two disadvantages: still two dice
    assert step.events[0].rolls[0].keep == "low" and step.events[0].kind == "AttackHit"


def test_the_referee_may_let_disadvantage_win__OSE_ADV_1():
    s = session(fighter("ann", "a", (4, 4)), fighter("gob", "b", (5, 4), ac=12),
                settings={"adv_rule": "disadvantage wins"})
    act(s, Declare("gob", "full_defense"))
    start(s, 9, 2)
    goto(s, "melee")
    step = act(s, Attack("ann", "gob", "Sword", edge="adv"), 14, 5)
    assert step.events[0].rolls[0].keep == "low" and step.events[0].kind == "AttackMissed"


# --- full defense (OSE-FD-1) ---------------------------------------------------------------------------

def test_full_defense_lasts_until_just_before_the_defender_acts_again__OSE_FD_1():
    s = session(fighter("ann", "a", (4, 4)), fighter("gob", "b", (5, 4), ac=12))
    act(s, Declare("gob", "full_defense"))
    start(s, 9, 2)
    goto(s, "melee")
    step = act(s, Attack("ann", "gob", "Sword"), 18, 5)
    assert step.events[0].rolls[0].keep == "low" and "full defense (OSE-FD-1)" in step.events[0].text
    assert s.state.round == 2  # the goblin's full round was its Full Defense
    assert sys(s).full_defense == {"gob": 1}
    start(s, 9, 2)  # party first again: the goblin has not acted yet, still defending
    goto(s, "melee")
    step = act(s, Attack("ann", "gob", "Sword"), 3, 4)
    assert step.events[0].rolls[0].keep == "low"
    assert "gob" not in sys(s).full_defense  # its side's turn has begun
    while sys(s).phase == "act":  # the goblins' turn ends; round 3
        act(s, EndStep())
    start(s, 2, 9)
    while sys(s).order[sys(s).turn] == "b":
        act(s, EndStep())
    goto(s, "melee")
    step = act(s, Attack("ann", "gob", "Sword"), 3)
    assert step.events[0].rolls[0].keep == ""


# --- stances (OSE-STANCE-1..5) ------------------------------------------------------------------------------

def test_one_hand_fighting_leaves_a_hand_for_manipulation__OSE_STANCE_1():
    s = session(fighter("ann", "a", (4, 4), inventory=("Potion",)), shield_bearer("bob", "a", (4, 6),
                inventory=("Potion",)), fighter("gob", "b", (12, 10)))
    start(s, 9, 2)
    act(s, Manipulate("ann", "draw", "Potion"))
    assert c(s, "ann").hands == ("Sword", "Potion")
    ill = refusal(s, Manipulate("bob", "draw", "Potion"))
    assert ill.reason == "NO_FREE_HAND" and "OSE-MANIP-1" in ill.detail


def test_two_handed_weapon_adds_one_damage_and_costs_one_ac__OSE_STANCE_2():
    big = fighter("ann", "a", (4, 4), ac=12, weapons=(GREATSWORD,), hands=("Greatsword", "Greatsword"))
    s = melee(big, fighter("gob", "b", (5, 4), ac=10))
    step = act(s, Attack("ann", "gob", "Greatsword"), 12, 5)
    assert step.events[1].data["amount"] == 6
    assert effective_ac(s.state, c(s, "ann"))[0] == 11


def test_two_handed_weapon_needs_both_hands__OSE_STANCE_2():
    s = melee(fighter("ann", "a", (4, 4), weapons=(GREATSWORD,), hands=("Greatsword", "Torch")),
              fighter("bob", "a", (4, 5)), fighter("gob", "b", (5, 4)))
    ill = refusal(s, Attack("ann", "gob", "Greatsword"))
    assert ill.reason == "NEEDS_TWO_HANDS" and "OSE-STANCE-2" in ill.detail


def test_reach_weapon_strikes_from_the_second_rank_with_no_two_handed_bonus__OSE_STANCE_3():
    pole = fighter("pia", "a", (3, 4), ac=12, weapons=(HALBERD,), hands=("Halberd", "Halberd"))
    s = melee(pole, fighter("ann", "a", (4, 4)), fighter("gob", "b", (5, 4), ac=10))
    step = act(s, Attack("pia", "gob", "Halberd"), 12, 7)  # past Ann, 10 ft away
    assert step.events[1].data["amount"] == 7  # no +1 for a reach weapon
    assert effective_ac(s.state, c(s, "pia"))[0] == 11
    b = next(x for x in s.ruleset.grid.bodies(s.state) if x.id == "pia")
    assert b.reach == 2 and b.threatens


def test_reach_weapon_cannot_strike_past_an_enemy__OSE_STANCE_3():
    pole = fighter("pia", "a", (3, 4), weapons=(HALBERD,), hands=("Halberd", "Halberd"))
    s = melee(pole, fighter("gob", "b", (4, 4)), fighter("orc", "b", (5, 4)))
    ill = refusal(s, Attack("pia", "orc", "Halberd"))
    assert ill.reason == "OUT_OF_REACH" and "OSE-STANCE-3" in ill.detail
    act(s, Attack("pia", "gob", "Halberd"), 2)


def test_two_weapons_roll_once_at_plus_one__OSE_STANCE_4():
    duo = fighter("ann", "a", (4, 4), weapons=(SWORD, DAGGER), hands=("Sword", "Dagger"))
    s = melee(duo, fighter("bob", "a", (4, 5)), fighter("gob", "b", (5, 4), ac=10))
    step = act(s, Attack("ann", "gob", "Sword"), 9, 2)
    assert step.events[0].kind == "AttackHit" and "d20+1" in step.events[0].text
    assert refused(s, Attack("ann", "gob", "Dagger")) == "MAIN_USED"


def test_shield_adds_its_ac_which_is_a_setting__OSE_STANCE_5():
    s = melee(fighter("ann", "a", (4, 4)), shield_bearer("brak", "b", (5, 4), ac=12))
    step = act(s, Attack("ann", "brak", "Sword"), 12)
    assert step.events[0].data["ac"] == 13 and step.events[0].kind == "AttackMissed"
    s = melee(fighter("ann", "a", (4, 4)), shield_bearer("brak", "b", (5, 4), ac=12), settings={"shield_ac": 2})
    assert effective_ac(s.state, c(s, "brak"))[0] == 14


# --- Shields Shall Be Splintered (OSE-SSBS-1) and attacks from behind (OSE-BACK-1) ----------------------------

def test_shield_bearer_is_asked_before_the_damage_roll_and_may_splinter__OSE_SSBS_1():
    s = melee(fighter("ann", "a", (4, 4)), shield_bearer("brak", "b", (5, 4), hp=3))
    step = act(s, Attack("ann", "brak", "Sword"), 15)  # only the d20 is rolled
    p = s.state.prompt
    assert p is not None and p.kind == "splinter" and p.rule == "OSE-SSBS-1" and s.current() == ("brak",)
    labels = [o.label for o in s.options("brak") if o.group == "Answer"]
    assert labels == ["Splinter the Shield: take no damage (suggested)", "Keep the shield: roll damage"]
    assert refused(s, Attack("ann", "brak", "Sword")) == "WAITING_FOR_ANSWER"
    step = act(s, Splinter("brak", True))
    assert "ShieldSplintered" in kinds(step) and c(s, "brak").hp == 3 and c(s, "brak").hands == ("Sword", "")
    assert s.state.prompt is None


def test_keeping_the_shield_rolls_the_damage__OSE_SSBS_1():
    s = melee(fighter("ann", "a", (4, 4)), shield_bearer("brak", "b", (5, 4), hp=20))
    act(s, Attack("ann", "brak", "Sword"), 15)
    keep = next(o for o in s.options("brak") if o.command == Splinter("brak", False))
    assert keep.label.endswith("(suggested)")
    act(s, Splinter("brak", False), 6)
    assert c(s, "brak").hp == 14 and c(s, "brak").hands == ("Sword", "Shield")


def test_an_attack_from_directly_behind_ignores_the_shield__OSE_BACK_1():
    s = melee(fighter("ann", "a", (6, 5)), fighter("bob", "a", (4, 5)), fighter("cid", "a", (5, 4)),
              shield_bearer("brak", "b", (5, 5), ac=10))
    step = act(s, Attack("bob", "brak", "Sword"), 10, 2)  # behind, with Ann engaging from the east
    assert step.events[0].data["behind"] and step.events[0].data["ac"] == 10
    assert s.state.prompt is None and c(s, "brak").hp == 8  # no shield to splinter
    step = act(s, Attack("cid", "brak", "Sword"), 10)  # from the side: the shield counts
    assert step.events[0].data["ac"] == 11 and step.events[0].kind == "AttackMissed"


# --- ranged attacks (OSE-RANGED-1..5) ----------------------------------------------------------------------------

def archer(cid="hal", square=(1, 1), **kw):
    kw.setdefault("weapons", (BOW,))
    kw.setdefault("hands", ("Bow", ""))
    return fighter(cid, "a", square, **kw)


def test_a_bow_user_next_to_an_enemy_is_refused_with_the_reason__OSE_RANGED_1():
    s = session(archer("hal", (4, 4)), archer("ivy", (1, 1)), fighter("gob", "b", (5, 5)),
                fighter("gib", "b", (12, 10)))
    start(s, 9, 2)
    goto(s, "missile")
    ill = refusal(s, Attack("hal", "gib", "Bow"))
    assert ill.reason == "ENEMY_ADJACENT"
    assert ill.detail == "Hal cannot make a ranged attack: Gob within 5 ft (OSE-RANGED-1)"
    opts = [o for o in s.options("hal") if isinstance(o.command, Attack) and o.command.weapon == "Bow"]
    assert opts and not any(o.allowed for o in opts) and opts[0].why == ill.detail


def test_the_only_archer_within_5_ft_of_a_foe_gets_the_ranged_rule_not_the_wrong_step__OSE_RANGED_1():
    """The MISSILE step is skipped (logged, with why) and a shot asked for then names OSE-RANGED-1."""
    s = session(archer("ivy", (4, 4), weapons=(BOW, CLAW)), fighter("orc1", "b", (10, 10)),
                fighter("orc2", "b", (5, 5)))
    start(s, 9, 2)
    assert RULESET.phase(s.state) == "move"
    step = act(s, EndStep())
    assert RULESET.phase(s.state) != "missile"
    skipped = next(e for e in step.events if e.kind == "StepSkipped")
    assert skipped.text == "Missile step skipped: no one can shoot (OSE-RANGED-1: Ivy is within 5 ft of Orc2)"
    assert "OSE-RANGED-1" in skipped.rule
    ill = refusal(s, Attack("ivy", "orc1", "Bow"))
    assert ill.reason == "ENEMY_ADJACENT" and "OSE-RANGED-1" in ill.detail


def test_ranged_attacks_need_both_hands_free_but_thrown_needs_one__OSE_RANGED_1():
    s = session(archer("hal", hands=("Bow", "Shield")),
                archer("tom", (1, 3), weapons=(AXE_THROWN,), hands=("Hand axe", "Shield")),
                fighter("gob", "b", (5, 3)))  # 20 ft: within a thrown axe's range
    start(s, 9, 2)
    goto(s, "missile")
    ill = refusal(s, Attack("hal", "gob", "Bow"))
    assert ill.reason == "HANDS_FULL" and "OSE-RANGED-1" in ill.detail
    act(s, Attack("tom", "gob", "Hand axe"), 2)


def test_bow_shot_takes_one_manipulation_so_a_move_remains__OSE_RANGED_2():
    s = session(archer("hal"), fighter("gob", "b", (12, 10)))
    start(s, 9, 2)
    goto(s, "missile")
    act(s, Attack("hal", "gob", "Bow"), 2)
    e = sys(s).econ["hal"]
    assert e.main == "attack" and e.move == "" and e.manips == 1


def test_bow_after_a_manipulation_uses_the_move_and_is_refused_after_moving__OSE_RANGED_2():
    s = session(archer("hal"), archer("ivy", (1, 4)), fighter("gob", "b", (12, 10)))
    start(s, 9, 2)
    act(s, Manipulate("hal", "other", note="lights a torch"))
    act(s, Move("ivy", ((1, 4), (2, 4))))
    act(s, Manipulate("ivy", "other", note="lights a torch"))
    goto(s, "missile")
    act(s, Attack("hal", "gob", "Bow"), 2)
    assert sys(s).econ["hal"].move == "manipulation"
    ill = refusal(s, Attack("ivy", "gob", "Bow"))
    assert ill.reason == "NO_ACTION_TO_LOAD" and "OSE-RANGED-2" in ill.detail


def test_crossbow_damage_is_best_of_two_plus_one_and_costs_two_ac__OSE_RANGED_3():
    s = session(archer("hal", weapons=(CROSSBOW,), hands=("Crossbow", ""), ac=12), fighter("gob", "b", (12, 10)))
    assert effective_ac(s.state, c(s, "hal"))[0] == 10
    start(s, 9, 2)
    goto(s, "missile")
    step = act(s, Attack("hal", "gob", "Crossbow"), 15, 2, 5)
    dmg = step.events[1]
    assert dmg.rolls[0].keep == "high" and dmg.data["amount"] == 6 and c(s, "gob").hp == 4
    assert sys(s).econ["hal"].full == "crossbow" and sys(s).econ["hal"].manips == 2


def test_crossbow_is_a_full_round_so_no_shot_after_moving__OSE_RANGED_3():
    s = session(archer("hal", weapons=(CROSSBOW,), hands=("Crossbow", "")), archer("ivy", (1, 4)),
                fighter("gob", "b", (12, 10)))
    start(s, 9, 2)
    act(s, Move("hal", ((1, 1), (2, 1))))
    goto(s, "missile")
    ill = refusal(s, Attack("hal", "gob", "Crossbow"))
    assert ill.reason == "NEEDS_FULL_ROUND" and "OSE-RANGED-3" in ill.detail


def test_sling_does_one_less_damage_but_at_least_one__OSE_RANGED_4():
    s = session(archer("hal", weapons=(SLING,), hands=("Sling", "")), fighter("gob", "b", (12, 10)))
    start(s, 9, 2)
    goto(s, "missile")
    step = act(s, Attack("hal", "gob", "Sling"), 15, 1)
    assert step.events[1].data["amount"] == 1 and step.events[1].rolls[0].raised
    assert c(s, "gob").hp == 9


def test_sling_minus_one_on_a_normal_roll__OSE_RANGED_4():
    s = session(fighter("hal", "a", weapons=(SLING,), hands=("Sling", "")), fighter("gob", "b"), profile="loose")
    start(s, 9, 2)
    step = act(s, Attack("hal", "gob", "Sling"), 15, 3)
    assert step.events[1].data["amount"] == 2


def test_missile_range_bands_give_plus_1_0_minus_1_and_beyond_long_is_refused__OSE_RANGED_2__OSE_RANGED_5():
    """DEFAULT (docs/RULESETS.md): OSE's ranges, short +1, medium 0, long -1; the weapon's own range first."""
    s = session(archer("hal", (0, 0)), fighter("g40", "b", (8, 0)), fighter("g90", "b", (0, 18)),
                fighter("g150", "b", (30, 0)), fighter("g155", "b", (31, 31)), width=40, height=40)
    start(s, 9, 2)
    goto(s, "missile")
    hints = {o.command.target: o.hint for o in s.options("hal") if isinstance(o.command, Attack)}
    assert hints["g40"].startswith("d20+1 vs AC 10") and hints["g40"].endswith("short range (40 ft): +1")
    assert hints["g90"].startswith("d20+0") and hints["g90"].endswith("medium range (90 ft): +0")
    assert hints["g150"].startswith("d20-1") and hints["g150"].endswith("long range (150 ft): -1")
    ill = refusal(s, Attack("hal", "g155", "Bow"))
    assert ill.reason == "OUT_OF_RANGE" and "beyond the Bow's long range (150 ft" in ill.detail
    assert "OSE-RANGED-2" in ill.detail
    step = act(s, Attack("hal", "g150", "Bow"), 12, 3)
    assert step.events[0].data["total"] == 11 and "long range -1 (OSE-RANGED-2)" in step.events[0].text
    # the referee gives this bow a longer reach: the weapon's own range is used
    s = session(archer("hal", (0, 0), weapons=(replace(BOW, range=(60, 120, 180)),)),
                fighter("g155", "b", (31, 31)), width=40, height=40)
    start(s, 9, 2)
    goto(s, "missile")
    assert s.check(Attack("hal", "g155", "Bow")) is None


def test_a_missile_needs_a_line_of_sight_past_walls__OSE_RANGED_1():
    walls = frozenset({(4, y) for y in range(0, 9)})
    s = session(archer("hal", (1, 4)), fighter("gob", "b", (8, 4)), fighter("gib", "b", (1, 12)),
                walls=walls, height=16)
    start(s, 9, 2)
    goto(s, "missile")
    ill = refusal(s, Attack("hal", "gob", "Bow"))
    assert ill.reason == "NO_LINE_OF_SIGHT" and "OSE-RANGED-1" in ill.detail
    assert s.check(Attack("hal", "gib", "Bow")) is None, "the line to Gib passes no wall"


def test_thrown_weapon_uses_the_better_of_phys_and_dex_and_leaves_the_hand__OSE_RANGED_5():
    s = session(archer("tom", weapons=(AXE_THROWN,), hands=("Hand axe", "Shield"), phys=2, dex=1),
                fighter("gob", "b", (5, 3), ac=12))  # 20 ft: medium range, no modifier
    start(s, 9, 2)
    goto(s, "missile")
    step = act(s, Attack("tom", "gob", "Hand axe"), 10, 3)
    assert "d20+2" in step.events[0].text and step.events[1].data["amount"] == 5
    assert c(s, "tom").hands == ("", "Shield")


# --- grapples and conditions (OSE-GRAP-1, OSE-COND-1) ---------------------------------------------------------------

def next_round(s, *faces):
    """Loose: end whatever turn is left and roll the next initiative (party first)."""
    while sys(s).phase == "act":
        act(s, EndStep())
    start(s, *(faces or (9, 2)))


def test_grapple_is_opposed_and_three_successes_pin__OSE_GRAP_1():
    s = session(fighter("ann", "a", phys=1), fighter("gob", "b"), profile="loose")
    start(s, 9, 2)
    step = act(s, Grapple("ann", "gob"), 10, 11)  # 11 vs 11: the defender holds
    assert "failure" in texts(step)[0] and not c(s, "gob").has_condition("grappled")
    next_round(s)
    act(s, Grapple("ann", "gob"), 14, 3)
    assert c(s, "gob").has_condition("grappled")
    next_round(s)
    act(s, Grapple("ann", "gob"), 14, 3)
    next_round(s)
    step = act(s, Grapple("ann", "gob"), 14, 3)
    assert "Pinned" in kinds(step) and c(s, "gob").has_condition("pinned")


def test_escaping_a_hold_resets_the_count__OSE_GRAP_1():
    s = session(fighter("ann", "a"), fighter("gob", "b"), profile="loose")
    start(s, 9, 2)
    act(s, Grapple("ann", "gob"), 14, 3)
    act(s, Grapple("gob", "ann", "escape"), 12, 5)
    assert not c(s, "gob").has_condition("grappled") and sys(s).holds == ()
    next_round(s)
    act(s, Grapple("ann", "gob"), 14, 3)
    assert sys(s).holds[0].successes == 1
    act(s, EndStep())
    next_round(s)
    act(s, Release("ann", "gob"))
    assert sys(s).holds == () and not c(s, "gob").has_condition("grappled")


def test_consecutive_counting_resets_on_a_failure__OSE_GRAP_1():
    s = session(fighter("ann", "a"), fighter("gob", "b"), profile="loose", settings={"grapple_count": "consecutive"})
    start(s, 9, 2)
    act(s, Grapple("ann", "gob"), 14, 3)
    next_round(s)
    act(s, Grapple("ann", "gob"), 2, 3)
    assert sys(s).holds[0].successes == 0


def test_grappled_fighters_use_only_small_weapons_and_cast_no_spells__OSE_COND_1():
    duo = fighter("ann", "a", weapons=(SWORD, DAGGER), hands=("Sword", "Dagger"), spells=("Sleep",))
    s = session(duo, fighter("gob", "b"), profile="loose")
    start(s, 2, 9)
    act(s, Grapple("gob", "ann"), 14, 3)
    ill = refusal(s, Attack("ann", "gob", "Sword"))
    assert ill.reason == "GRAPPLED_SMALL_ONLY" and "OSE-COND-1" in ill.detail
    act(s, Attack("ann", "gob", "Dagger"), 3)
    assert sys(s).phase == "declare"
    assert refused(s, Declare("ann", "spell", "Sleep")) == "GRAPPLED_NO_SPELLS"


def test_pinned_creatures_cannot_act_and_melee_hits_deal_maximum__OSE_COND_1():
    s = session(fighter("ann", "a"), fighter("gob", "b", hp=20), profile="loose")
    act(s, SetCondition("gob", "pinned"))
    start(s, 9, 2)
    step = act(s, Attack("ann", "gob", "Sword"), 12)  # no damage die: maximum
    assert step.events[1].data["amount"] == 8 and c(s, "gob").hp == 12
    assert refused(s, Done("gob")) == "HELPLESS"
    assert "gob" not in s.current() and s.state.round == 2  # the pinned goblin's turn passed


def test_helpless_creatures_take_maximum_melee_damage__OSE_COND_1():
    s = session(fighter("ann", "a", weapons=(BOW, SWORD), hands=("Sword", "")), fighter("gob", "b", hp=20),
                profile="loose")
    act(s, SetCondition("gob", "helpless"))
    start(s, 9, 2)
    act(s, Attack("ann", "gob", "Sword"), 12)
    assert c(s, "gob").hp == 12
