"""Ogre's actions: attacks, the action list, moves, withdraw, charge, follow, acting fast and taking time."""
from __future__ import annotations

import pytest

from acting import act, first_event, kinds
from ogre_support import SPEAR, advance_to, fighter, orc, orc_attacks_brak_at_14, pc, start

from fray.rules.ogre import commands as oc
from fray.rules.ogre.state import MENU, MENU_BY_KEY


# --- attack (OGRE-ATK-1) ------------------------------------------------------------------------

def test_an_attack_hits_when_d20_plus_skill_reaches_defense__OGRE_ATK_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Act("brak", "speak"))
    step = advance_to(s, 17)
    act(s, oc.Act("brak", "speak"))
    step = advance_to(s, 18)
    act(s, oc.Delay("brak"))
    step = advance_to(s, 24, 11, 6)  # 11 + 4 = 15 against Defense 15: a hit
    hit = first_event(step, "AttackHit")
    assert hit.data == {"total": 15, "defense": 15, "bonus": 0}
    assert s.state.get("brak").hp == 14


def test_a_melee_attack_needs_the_target_within_reach__OGRE_ATK_1():
    s = start(orc(square=(1, 1)), pc(), initiative=[4, 8])
    advance_to(s, 14)
    assert s.check(oc.Attack("orc", "brak")).reason == "OUT_OF_REACH"
    assert s.check(oc.Attack("orc", "orc")).reason == "NO_TARGET"


def test_a_target_gone_out_of_reach_by_resolution_is_not_struck__OGRE_ATK_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)  # Brak steps away; the orc's attack of opportunity is declined, it does not follow
    act(s, oc.Opportunity("orc", "decline"))
    act(s, oc.Follow("orc", ""))
    act(s, oc.Delay("brak"))
    step = advance_to(s, 24)
    assert "out of reach" in first_event(step, "ActionResolved").text and "AttackHit" not in kinds(step)


# --- the action list (OGRE-LIST-1) ----------------------------------------------------------------

def test_the_default_menu_is_the_texts_list_with_its_categories__OGRE_LIST_1():
    cats = {m.key: m.category for m in MENU}
    assert cats == {
        "cease_concentration": "Instantaneous", "drop_item": "Immediate", "drop_prone": "Immediate",
        "speak": "Immediate", "fast_mount": "Immediate", "draw": "Short", "sheathe": "Short", "shield": "Short",
        "manipulate": "Short", "redirect_spell": "Short", "stand_up": "Short", "mount": "Short",
        "dismiss_spell": "Short", "aid_another": "Standard", "use_item": "Standard", "extinguish": "Long"}
    assert MENU_BY_KEY["stand_up"].provokes and MENU_BY_KEY["fast_mount"].dc == 20
    s = orc_attacks_brak_at_14()
    labels = {o.label for o in s.options("brak")}
    assert {"Speak (Immediate)", "Use an item (Standard)", "Attack Orc (Sword)", "Delay"} <= labels
    # What cannot apply to Brak now is not listed (issue 38): nothing carried to draw, no flames, not prone,
    # no spells; the engine still refuses it with its reason if declared.
    assert not labels & {"Draw a weapon (Short)", "Extinguish flames (Long)", "Stand up (Short)",
                         "Dismiss a spell (Short)", "Direct or redirect a spell (Short)"}
    assert s.check(oc.Act("brak", "extinguish")).reason == "NOT_NEEDED"
    armed = start(orc(), pc(inventory=("dagger",)), initiative=[4, 8])
    advance_to(armed, 14)
    act(armed, oc.Delay("orc"))
    advance_to(armed, 16)
    assert "Draw a weapon (Short)" in {o.label for o in armed.options("brak")}


def test_drawing_a_weapon_puts_it_in_hand_after_a_short_action__OGRE_LIST_1():
    s = start(orc(), pc(inventory=("dagger",)), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    assert s.check(oc.Act("brak", "draw", "rope")).reason == "NO_ITEM"
    act(s, oc.Act("brak", "draw", "dagger"))
    advance_to(s, 21)
    assert s.state.get("brak").hands == ("dagger", "") and s.state.get("brak").inventory == ()


def test_standing_up_needs_to_be_prone_and_dropping_prone_makes_it_so__OGRE_LIST_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    assert s.check(oc.Act("brak", "stand_up")).reason == "NOT_NEEDED"
    act(s, oc.Act("brak", "drop_prone"))
    advance_to(s, 17)
    assert s.state.get("brak").has_condition("prone")


def test_a_failed_fast_mount_takes_a_short_action_instead__OGRE_LIST_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    act(s, oc.Act("brak", "fast_mount"))
    step = advance_to(s, 17, 10)  # Ride 10 + 0 < 20
    assert first_event(step, "ActionExtended").data["resolves"] == 21
    advance_to(s, 21)
    assert s.state.get("brak").has_condition("mounted")


# --- moves (OGRE-MOVE-1) ------------------------------------------------------------------------

def test_a_quick_move_is_one_square_and_takes_2_segments__OGRE_MOVE_1():
    s = start(orc(square=(1, 1)), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    assert s.check(oc.Move("brak", "quick", ((6, 4), (7, 4), (8, 4)))).reason == "OUT_OF_RANGE"
    step = act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    assert first_event(step, "ActionDeclared").data["resolves"] == 18
    assert s.state.get("brak").square == (6, 4)  # the move happens at resolution
    advance_to(s, 18)
    assert s.state.get("brak").square == (7, 4)


def test_a_short_move_goes_up_to_normal_speed_and_a_move_any_speed__OGRE_MOVE_1():
    s = start(orc(square=(0, 0)), pc(square=(0, 7)), width=20, initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    seven = tuple((x, 7) for x in range(8))  # 35 ft
    assert s.check(oc.Move("brak", "short", seven)).reason == "OUT_OF_RANGE"
    assert s.check(oc.Move("brak", "short", seven[:7])) is None  # 30 ft
    step = act(s, oc.Move("brak", "move", tuple((x, 7) for x in range(16))))  # 75 ft at a run
    assert first_event(step, "ActionDeclared").data["resolves"] == 26
    advance_to(s, 26)
    assert s.state.get("brak").square == (15, 7)


def test_a_difficult_move_is_one_square_any_direction_as_a_long_action__OGRE_MOVE_1():
    s = start(orc(square=(0, 0)), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    step = act(s, oc.Move("brak", "difficult", ((6, 4), (7, 5))))
    assert first_event(step, "ActionDeclared").data["resolves"] == 36


def test_a_path_through_a_wall_or_a_foe_is_refused__OGRE_MOVE_1():
    s = start(orc(), pc(), walls={(7, 4)}, initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    assert s.check(oc.Move("brak", "short", ((6, 4), (7, 4), (8, 4)))).reason == "BAD_PATH"
    assert s.check(oc.Move("brak", "short", ((6, 4), (5, 4), (4, 4)))).reason == "BAD_PATH"
    assert s.check(oc.Move("brak", "short", ((5, 5), (4, 5)))).reason == "BAD_PATH"


# --- withdraw (OGRE-WD-1) ------------------------------------------------------------------------

def _withdraw_setup(**brak):
    """Orc 1 beside Brak; orc 2 a little further, threatening (7, 4) only."""
    s = start(orc("orc1", (5, 4), reaction=1), orc("orc2", (8, 5), reaction=1), pc(reaction=2, **brak),
              initiative=[1, 1, 1])
    advance_to(s, 2)
    act(s, oc.Delay("orc1"))
    act(s, oc.Delay("orc2"))
    advance_to(s, 3)
    return s


def test_a_withdraw_does_not_provoke_from_the_start_square_but_from_the_next__OGRE_WD_1():
    s = _withdraw_setup()
    step = act(s, oc.Withdraw("brak", ((6, 4), (7, 4), (7, 3), (7, 2))))
    assert first_event(step, "ActionDeclared").data["resolves"] == 23  # Long
    advance_to(s, 23)
    p = s.state.prompt
    assert p is not None and p.actor == "orc2" and p.kind == "opportunity" and p.data["square"] == [7, 4]
    act(s, oc.Opportunity("orc2", "decline"))
    assert s.state.prompt is None and s.state.get("brak").square == (7, 2)


def test_the_same_path_as_a_move_provokes_from_the_start_square__OGRE_WD_1__OGRE_AOO_1():
    s = _withdraw_setup()
    act(s, oc.Move("brak", "short", ((6, 4), (7, 4), (7, 3), (7, 2))))
    advance_to(s, 8)
    assert s.state.prompt.actor == "orc1" and s.state.prompt.data["square"] == [6, 4]


def test_a_blinded_combatant_cannot_withdraw__OGRE_WD_1():
    s = _withdraw_setup(conditions=("blinded",))
    assert s.check(oc.Withdraw("brak", ((6, 4), (7, 4)))).reason == "BLINDED"


def test_invisible_foes_still_strike_a_withdrawal_from_the_start_square__OGRE_WD_1():
    s = start(orc("orc1", (5, 4), reaction=1, conditions=("invisible",)), pc(reaction=2), initiative=[1, 1])
    advance_to(s, 2)
    act(s, oc.Delay("orc1"))
    advance_to(s, 3)
    act(s, oc.Withdraw("brak", ((6, 4), (7, 4), (8, 4))))
    advance_to(s, 23)
    assert s.state.prompt.actor == "orc1" and s.state.prompt.data["square"] == [6, 4]


# --- charge (OGRE-CHARGE-1) -------------------------------------------------------------------------

def _charge_setup(**brak):
    s = start(orc(square=(2, 4), speed=10), pc(**brak), initiative=[4, 8])
    advance_to(s, 14)
    return s


def test_a_charge_needs_10_ft_in_a_straight_line__OGRE_CHARGE_1():
    s = _charge_setup()
    assert s.check(oc.Charge("orc", "brak", ((2, 4), (3, 3), (4, 4), (5, 4)))).reason == "NOT_STRAIGHT"
    assert s.check(oc.Charge("orc", "brak", ((2, 4), (3, 4)))).reason == "NOT_STRAIGHT"  # only 5 ft
    charge = [o for o in s.options("orc") if isinstance(o.command, oc.Charge) and o.allowed]
    assert charge and charge[0].command.path == ((2, 4), (3, 4), (4, 4), (5, 4))


def test_a_charge_moves_then_attacks_once_with_the_pace_bonus__OGRE_CHARGE_1():
    s = _charge_setup()
    step = act(s, oc.Charge("orc", "brak", ((2, 4), (3, 4), (4, 4), (5, 4))))
    assert first_event(step, "ActionDeclared").data["resolves"] == 34  # Long
    advance_to(s, 16)
    act(s, oc.Delay("brak"))
    step = advance_to(s, 34, 15, 3)
    charged = first_event(step, "Charged")
    assert charged.data == {"feet": 15, "pace": "hustle"}  # 15 ft at speed 10: hustling, +2
    assert first_event(step, "DamageRolled").data["amount"] == 5
    assert s.state.get("orc").square == (5, 4) and s.state.get("brak").hp == 15


def test_a_readied_piercing_weapon_deals_double_damage_to_a_charger__OGRE_READY_1__OGRE_CHARGE_1():
    s = _charge_setup(weapons=(SPEAR,))
    act(s, oc.Charge("orc", "brak", ((2, 4), (3, 4), (4, 4), (5, 4))))
    advance_to(s, 16)
    act(s, oc.Ready("brak", "attack", "charge"))
    first = advance_to(s, 34)
    assert s.state.prompt.kind == "ready" and "double damage" in s.state.prompt.question
    step = act(s, oc.Strike("brak"), 12, 4, 2)  # Brak's spear 12 + 6 hits for 4 x 2; the orc's attack misses
    order = [e.kind for e in first.events + step.events]
    assert order.index("ReadyTriggered") < order.index("Charged")
    dmg = [e for e in step.events if e.kind == "DamageRolled"][0]
    assert dmg.actor == "brak" and dmg.data["amount"] == 8 and "x2" in dmg.text
    assert s.state.get("orc").hp == 7


# --- follow (OGRE-FOLLOW-1) -----------------------------------------------------------------------------

def test_following_a_moving_target_keeps_the_action_and_costs_the_reaction_penalty__OGRE_FOLLOW_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    act(s, oc.Opportunity("orc", "decline"))
    p = s.state.prompt
    assert p.kind == "follow" and p.actor == "orc"
    answers = {o.command.kind: o for o in s.options("orc")}
    assert set(answers) == {"quick", "short", "standard", ""}
    step = act(s, answers["quick"].command)
    assert first_event(step, "ReactionTaken").data["penalty"] == -2
    assert s.state.get("orc").square == (6, 4)
    a = fighter(s, "orc").action
    assert a.label.startswith("Attack Brak") and a.penalty == -2 and a.resolves == 24
    act(s, oc.Delay("brak"))
    step = advance_to(s, 24, 13, 2)  # 13 + 4 - 2 = 15: still a hit
    assert first_event(step, "AttackHit").data["bonus"] == -2


def test_following_provokes_nothing_from_the_target__OGRE_FOLLOW_1():
    """Brak's reach weapon threatens the orc's square after Brak steps back; following, the orc
    leaves that square without an attack of opportunity from Brak."""
    from fray.engine.model import Weapon
    glaive = Weapon("Glaive", "1d10", to_hit=5, reach=10)
    s = start(orc(), pc(weapons=(glaive,)), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    advance_to(s, 16)
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    act(s, oc.Opportunity("orc", "decline"))
    act(s, oc.Follow("orc", "quick", ((5, 4), (6, 4))))
    assert s.state.prompt is None and s.state.get("orc").square == (6, 4)


def test_a_follow_must_end_within_reach_of_the_target__OGRE_FOLLOW_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    act(s, oc.Opportunity("orc", "decline"))
    assert s.check(oc.Follow("orc", "quick", ((5, 4), (5, 5)))).reason == "NOT_FOLLOWING"
    assert s.check(oc.Follow("orc", "quick", ((5, 4), (6, 4), (6, 5)))).reason == "OUT_OF_RANGE"


# --- fast and slow (OGRE-FAST-1, OGRE-SLOW-1) ------------------------------------------------------------

def test_a_fast_standard_attack_is_short_at_minus_8_plus_dex__OGRE_FAST_1():
    s = orc_attacks_brak_at_14()
    step = act(s, oc.Attack("brak", "orc", tempo=-1))
    decl = first_event(step, "ActionDeclared")
    assert decl.data["category"] == "Short" and decl.data["resolves"] == 21 and "fast (-6)" in decl.text
    step = advance_to(s, 21, 13, 4)  # 13 + 6 - 6 = 13 against Defense 13
    assert first_event(step, "AttackHit").data["bonus"] == -6


def test_immediate_actions_cannot_be_hurried__OGRE_FAST_1():
    s = orc_attacks_brak_at_14()
    assert s.check(oc.Act("brak", "speak", tempo=-1)).reason == "CANNOT_HURRY"
    assert s.check(oc.Act("brak", "cease_concentration", tempo=-1)).reason == "CANNOT_HURRY"


def test_a_hurried_action_with_no_check_needs_a_dc_15_dexterity_check__OGRE_FAST_1():
    s = start(orc(), pc(inventory=("dagger",)), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    act(s, oc.Act("brak", "draw", "dagger", tempo=-1))  # Quick: 2 segments
    step = advance_to(s, 18, 12)  # 12 + 2 = 14 < 15
    assert "not in time" in first_event(step, "CheckMade").text
    assert first_event(step, "ActionResolved").data["outcome"] == "failed"
    assert s.state.get("brak").hands == ("", "")
    act(s, oc.Act("brak", "draw", "dagger", tempo=-1))
    advance_to(s, 20, 13)
    assert s.state.get("brak").hands == ("dagger", "")


def test_taking_two_categories_more_gives_plus_8__OGRE_SLOW_1():
    s = orc_attacks_brak_at_14()
    step = act(s, oc.Attack("brak", "orc", tempo=2))
    decl = first_event(step, "ActionDeclared")
    assert decl.data["category"] == "Very Long" and decl.data["resolves"] == 56
    assert fighter(s, "brak").action.modifier == 8


def test_taking_one_category_more_gives_plus_4__OGRE_SLOW_1():
    s = orc_attacks_brak_at_14()
    assert s.check(oc.Attack("brak", "orc", tempo=3)).reason == "BAD_TEMPO"  # at most two categories
    act(s, oc.Attack("brak", "orc", tempo=1))
    a = fighter(s, "brak").action
    assert a.category == "Long" and a.resolves == 36 and a.modifier == 4


@pytest.mark.parametrize("tempo,label", [(0, "Normal: Standard, 10 seg"), (-1, "Fast: Short, 5 seg, -6"),
                                         (2, "Take time: Very Long, 40 seg, +8")])
def test_the_attack_menu_asks_how_fast_before_rolling__OGRE_FAST_1__OGRE_SLOW_1(tempo, label):
    s = orc_attacks_brak_at_14()
    opt = next(o for o in s.options("brak") if isinstance(o.command, oc.Attack) and o.allowed)
    assert any(c.label == label and c.values == {"tempo": tempo} for c in opt.choices)


def test_the_grid_learns_how_far_each_move_goes__OGRE_MOVE_1():
    from fray.rules.ogre import RULESET
    s = start(orc(), pc(speed=20), initiative=[4, 8])
    st = s.state
    assert [RULESET.grid.move_allowance(st, "brak", oc.Move("brak", k)) for k in ("quick", "short", "move", "difficult")] \
        == [5, 20, 100, 5]
    assert RULESET.grid.move_allowance(st, "brak", oc.Withdraw("brak")) == 100


# --- delay (OGRE-DELAY-1) ---------------------------------------------------------------------------

def test_a_combatant_that_delays_declares_nothing_on_that_segment__OGRE_DELAY_1():
    """"Declare no action on your segment; you may declare at any later segment.\""""
    s = start(orc(square=(1, 1)), pc(), initiative=[4, 8])
    advance_to(s, 14)
    due = s.current()
    who = due[0]
    act(s, oc.Delay(who))
    refused = s.check(oc.Act(who, "speak"))
    assert refused is not None and refused.reason == "DELAYED" and "OGRE-DELAY-1" in refused.detail
    assert s.check(oc.Delay(who)).reason == "DELAYED"
    declare = next(o for o in s.options(who) if o.label == "Declare an action")
    assert not declare.allowed and "OGRE-DELAY-1" in declare.why
    seg = s.state.board.segment
    act(s, oc.Advance())
    assert s.state.board.segment > seg and s.check(oc.Act(who, "speak")) is None, "a later segment is open"


# --- an offered charge can reach, or says why not (OGRE-CHARGE-1) -----------------------------------

def test_a_charge_avoids_the_square_a_declared_move_will_take_and_warns_of_a_foe_moving_first__OGRE_CHARGE_1():
    # Brak (16) charges the orc at (9, 4); the second orc's move (declared at 14) will end on (8, 4),
    # the straight approach's last square, before the charge lands at 36.
    s = start(orc("orc", (9, 4)), pc("brak", (2, 4)), orc("orc2", (8, 7)), initiative=[4, 8, 4])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    act(s, oc.Move("orc2", "short", ((8, 7), (8, 6), (8, 5), (8, 4))))
    advance_to(s, 16)
    charge = next(o for o in s.options("brak") if isinstance(o.command, oc.Charge) and o.command.target == "orc")
    assert charge.allowed and (8, 4) not in charge.command.path  # a line clear of the planned square
    assert "(8, 4)" not in charge.hint
    assert "Orc declares again at 16" in charge.hint and "may move" in charge.hint  # delaying: it may act first


def test_a_foe_no_straight_clear_line_reaches_is_greyed_with_the_reason__OGRE_CHARGE_1():
    # Two orcs stand in a column: the one behind cannot be charged in a straight line past the other.
    s = start(orc("orc", (6, 4)), pc("brak", (2, 4)), orc("orc2", (7, 4)), initiative=[9, 8, 9],
              walls=[(6, 3), (6, 5), (7, 3), (7, 5), (8, 3), (8, 5)])
    advance_to(s, 16)
    charges = [o for o in s.options("brak") if isinstance(o.command, oc.Charge)]
    behind = next(o for o in charges if o.command.target == "orc2")
    assert not behind.allowed and "No straight line" in behind.why and "OGRE-CHARGE-1" in behind.why
    assert any(o.allowed and o.command.target == "orc" for o in charges)


def test_a_charge_that_cannot_land_says_why_and_comes_last__OGRE_CHARGE_1():
    # The orc (14) sees Brak's short move land at 17 on (4, 0): a charge on Brak, the nearest foe, declared now
    # ends on (3, 3), out of reach; Mira, straight below the orc, can be charged.
    s = start(orc(square=(1, 3)), pc(square=(4, 3)), pc("mira", (1, 7)), initiative=[4, 4, 9])
    advance_to(s, 12)
    act(s, oc.Move("brak", "short", ((4, 3), (4, 2), (4, 1), (4, 0))))
    advance_to(s, 14)
    charges = [o for o in s.options("orc") if isinstance(o.command, oc.Charge) and o.allowed]
    assert [o.command.target for o in charges] == ["mira", "brak"]
    assert charges[1].hint.startswith("Ends out of reach: Brak moves at 17")
    assert not charges[0].hint.startswith("Ends out of reach")
