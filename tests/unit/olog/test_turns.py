"""OLOG scenarios: initiative, turns and actions, with loaded dice."""
from __future__ import annotations

from fray.engine.model import Weapon
from fray.engine.referee import Allow, Damage, Heal, SetHp
from fray.engine.session import Session
from fray.rules import get as get_ruleset
from fray.rules.olog import (RULESET, Attack as AttackCmd, CastSpell, Defend, EndTurn, Move, Reorder, Retrieve,
                             RollInitiative, SetCount, Strategise)
from fray.rules.olog.pressure import band_label

from acting import act, first_event, kinds, refusal
from olog_support import FRIENDS, encounter, foe, hero, started, system


def test_registry_finds_olog_and_its_settings_cite_rules():
    assert get_ruleset("olog") is RULESET
    assert RULESET.info.field_view("") == "bands"
    assert all(s.rule.startswith(("OLOG-", "CORE-")) for s in RULESET.settings())


# --- initiative ---------------------------------------------------------------------

def test_begin_rolls_nothing_and_offers_roll_initiative__OLOG_INIT_1():
    s = Session(encounter(hero(), foe("orc1")), RULESET)
    assert s.state.rolls == 0 and s.state.round == 0
    assert s.current() == ("brak",)  # the PCs roll
    [opt] = s.options("brak")
    assert opt.label == "Roll initiative" and opt.key == "next" and opt.allowed


def test_pc_rolls_d20_plus_level_plus_modifier__OLOG_INIT_1():
    s = Session(encounter(hero(level=3, init_mod=2), foe("orc1")), RULESET)
    step = act(s, RollInitiative(), 9)
    e = first_event(step, "InitiativeRolled")
    assert "d20 [9] + level 3 +2 modifier = 14" in e.text and e.rule == "OLOG-INIT-1"
    assert e.rolls[0].faces == (9,)
    assert system(s).count("brak") == 14


def test_npc_count_is_fixed_10_plus_hd_never_rolled__OLOG_INIT_2():
    s = Session(encounter(hero(), foe("orc1", hd=1), foe("ogre", hd=4), foe("boss", init=17)), RULESET)
    step = act(s, RollInitiative(), 5)  # the one PC die only: NPCs roll nothing
    assert step.dice == (5,)
    assert [system(s).count(c) for c in ("orc1", "ogre", "boss")] == [11, 14, 17]
    assert all(e.rule == "OLOG-INIT-2" for e in step.events if e.kind == "CountSet")


def test_npc_base_count_is_a_setting__OLOG_INIT_2():
    s = Session(encounter(hero(), foe("orc1", hd=2), settings={"olog_npc_init_base": 6}), RULESET)
    act(s, RollInitiative(), 5)
    assert system(s).count("orc1") == 8


def test_counts_last_the_whole_fight__OLOG_INIT_3():
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,))
    before = system(s).counts
    for _ in range(3):  # three full rounds of doing nothing
        act(s, EndTurn(s.current()[0]))
        act(s, EndTurn(s.current()[0]))
    assert s.state.round == 4 and system(s).counts == before
    assert refusal(s, RollInitiative()).reason == "ALREADY_ROLLED"


def test_referee_sets_a_count_logged__OLOG_INIT_3():
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,))  # Brak 17, orc 11
    step = act(s, SetCount("orc1", 20))
    e = first_event(step, "CountSet")
    assert "11 → 20" in e.text and "CORE-REF-1" in e.rule
    assert RULESET.order(s.state) == ("orc1", "brak")
    # Brak keeps the turn in progress; the orc has not acted this round, so it is next
    assert s.current() == ("brak",)
    act(s, EndTurn("brak"))
    assert s.current() == ("orc1",) and s.state.round == 1
    act(s, EndTurn("orc1"))
    assert s.current() == ("orc1",) and s.state.round == 2  # and first from now on


def test_highest_count_first_pcs_win_ties__OLOG_INIT_4():
    # Orc A count 12 (hd 2), Brak 11 + 1 = 12: tie, PC first; orc B 11 after
    s = started(foe("orcA", hd=2, band=0), foe("orcB", hd=1, band=0), hero(level=1, band=5), faces=(11,))
    assert RULESET.order(s.state) == ("brak", "orcA", "orcB")
    assert s.current() == ("brak",)


def test_ties_in_setup_order_when_pcs_first_is_off__OLOG_INIT_4():
    s = started(foe("orcA", hd=2, band=0), hero(level=1, band=5), faces=(11,),
                settings={"olog_tie_pcs_first": False})
    assert RULESET.order(s.state) == ("orcA", "brak")


def test_referee_reorders_tied_counts_only__OLOG_INIT_4():
    s = started(hero(band=0), foe("a", band=5), foe("b", band=5), foe("c", hd=3, band=5), faces=(20,))
    assert RULESET.order(s.state) == ("brak", "c", "a", "b")  # 22, 13, 11, 11
    act(s, Reorder(("brak", "c", "b", "a")))
    assert RULESET.order(s.state) == ("brak", "c", "b", "a")
    illegal = refusal(s, Reorder(("brak", "b", "c", "a")))
    assert illegal.reason == "NOT_A_TIE" and "count 11" in illegal.detail and "OLOG-INIT-4" in illegal.detail
    assert refusal(s, Reorder(("brak", "c", "b"))).reason == "NOT_A_PERMUTATION"
    # the order holds into later rounds
    for _ in range(4):
        act(s, EndTurn(s.current()[0]))
    assert s.state.round == 2 and s.current() == ("brak",)
    act(s, EndTurn("brak"))
    act(s, EndTurn("c"))
    assert s.current() == ("b",)


def test_reorder_before_initiative_sets_the_tie_order__OLOG_INIT_4():
    s = Session(encounter(hero(level=1), foe("orcA", hd=2), foe("orcB", hd=2)), RULESET)
    assert RULESET.order(s.state) == ("brak", "orcA", "orcB")  # PCs first by DEFAULT
    act(s, Reorder(("orcB", "orcA", "brak")))  # the referee puts the orcs first among ties
    act(s, RollInitiative(), 11)  # all three on 12
    assert RULESET.order(s.state) == ("orcB", "orcA", "brak") and s.current() == ("orcB",)


# --- actions and turns ----------------------------------------------------------------

def test_two_actions_then_the_turn_passes__OLOG_ACT_1():
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,))
    act(s, Move("brak", 1))
    assert system(s).actions_left == 1 and s.current() == ("brak",)
    step = act(s, Defend("brak"))
    assert "TurnEnded" in kinds(step) and s.current() == ("orc1",)
    assert system(s).actions_left == 2


def test_not_the_same_action_twice__OLOG_ACT_2():
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,))
    act(s, Move("brak", 1))
    illegal = refusal(s, Move("brak", 2))
    assert illegal.reason == "SAME_ACTION_TWICE" and "OLOG-ACT-2" in illegal.detail
    opt = next(o for o in s.options("brak") if o.label == "Move to zone 3")
    assert not opt.allowed and "already moved" in opt.why
    # the referee may allow it (CORE-REF-1) ...
    act(s, Allow(Move("brak", 2)))
    assert s.state.get("brak").band == 2 and s.current() == ("orc1",)


def test_same_action_twice_when_the_setting_allows__OLOG_ACT_2():
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,), settings={"olog_allow_repeat": True})
    act(s, Move("brak", 1))
    act(s, Move("brak", 2))
    assert s.state.get("brak").band == 2


def test_free_action_uses_no_action_and_never_triggers_pressure__OLOG_ACT_3():
    s = started(hero(inventory=("Torch", "Rope")), foe("orc1"), faces=(15,))
    opt = next(o for o in s.options("brak") if o.label.startswith("Retrieve Torch"))
    assert "(free)" in opt.label and opt.choices == () and opt.allowed
    step = act(s, opt.command)  # no dice: no pressure roll
    assert step.dice == () and "TurnEnded" not in kinds(step)
    assert system(s).actions_left == 2 and s.state.get("brak").hands == ("Sword", "Torch")
    # Rope is now the topmost item: free too, and a Press On answer makes no sense for it
    assert RULESET.item_cost(s.state, s.state.get("brak"), "Rope") == "free"
    assert refusal(s, Retrieve("brak", "Rope", 0, press_on=True)).reason == "FREE_ACTION"


def test_extended_action_uses_both_actions__OLOG_ACT_4():
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,))
    step = act(s, CastSpell("brak", "Light"))
    assert "TurnEnded" in kinds(step) and s.current() == ("orc1",)
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,))
    act(s, Move("brak", 1))
    illegal = refusal(s, CastSpell("brak", "Light"))
    assert illegal.reason == "NEEDS_BOTH_ACTIONS" and "OLOG-ACT-4" in illegal.detail


def test_down_combatants_take_no_turn__CORE_HP_1():
    s = started(hero(band=0), foe("orc1", band=5), foe("orc2", band=5), faces=(15,))
    act(s, SetHp("orc1", 0))
    act(s, EndTurn("brak"))
    assert s.current() == ("orc2",)
    # the current actor dropped by the referee: the turn passes at once
    act(s, Damage("orc2", 20))
    assert s.current() == () and s.state.outcome == "Party wins"  # the fight is over: nobody is asked
    # healed, it acts again in its place
    act(s, Heal("orc1", 3))
    assert s.current() == ("brak",) and s.state.round == 2
    act(s, EndTurn("brak"))
    assert s.current() == ("orc1",)


def test_everyone_down_then_one_healed_resumes():
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,))
    act(s, SetHp("orc1", 0))
    act(s, SetHp("brak", 0))
    assert s.current() == () and s.state.outcome == "Everyone is down"
    act(s, Heal("brak", 4))
    assert s.current() == () and s.state.outcome == "Party wins"
    act(s, Heal("orc1", 4))
    assert s.current() == ("brak",)


# --- the actions ----------------------------------------------------------------------

def test_move_one_zone_toward_or_away__OLOG_MOVE_1():
    s = started(hero(band=2), foe("orc1", band=5), faces=(15,))
    labels = [o.label for o in s.options("brak") if o.group == "Move"]
    assert labels == ["Move to zone 2", "Move to zone 4"]
    hints = [o.hint for o in s.options("brak") if o.group == "Move"]
    assert hints == ["away from the foes", "toward the foes"]
    assert refusal(s, Move("brak", 4)).reason == "NOT_NEXT_ZONE"
    assert refusal(s, Move("brak", 6)).reason == "OFF_FIELD"
    act(s, Move("brak", 3))
    assert s.state.get("brak").band == 3
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,))
    assert [o.label for o in s.options("brak") if o.group == "Move"] == ["Move to zone 2"]


def test_attack_hits_when_d20_plus_bonus_meets_ac_and_logs_a_drop__OLOG_ATK_1():
    s = started(hero(band=1, weapons=(Weapon("Sword", "1d8", to_hit=2, item="Sword"),)),
                foe("orc1", band=1, ac=13, hp=5), foe("orc2", band=1), faces=(15,))
    step = act(s, AttackCmd("brak", "orc1", "Sword", press_on=False), 10)  # 12 vs 13: miss, no damage roll
    assert "AttackMissed" in kinds(step) and s.state.get("orc1").hp == 5
    s = started(hero(band=1, weapons=(Weapon("Sword", "1d8", to_hit=2, item="Sword"),)),
                foe("orc1", band=1, ac=13, hp=5), foe("orc2", band=1), faces=(15,))
    step = act(s, AttackCmd("brak", "orc1", "Sword", press_on=True), 1, 11, 5)  # pressure 2, 13 hits, 5
    hit = first_event(step, "AttackHit")
    assert "d20+2 [11] = 13 vs AC 13" in hit.text and "d8 [5] = 5" in hit.text
    assert s.state.get("orc1").hp == 0 and first_event(step, "CombatantDown").text == "orc1 is down"


def test_attack_refused_out_of_reach_or_unready__OLOG_ATK_1():
    s = started(hero(band=1, hands=("", ""), inventory=("Sword",)), foe("orc1", band=3), faces=(15,))
    assert refusal(s, AttackCmd("brak", "orc1", "Sword")).reason == "NOT_IN_HAND"
    act(s, Retrieve("brak", "Sword"))  # topmost: free
    illegal = refusal(s, AttackCmd("brak", "orc1", "Sword"))
    assert illegal.reason == "OUT_OF_REACH" and "2 zones away (Far)" in illegal.detail
    # a bow reaches any zone
    s = started(hero(band=1, weapons=(Weapon("Bow", "1d6", kind="bow"),)), foe("orc1", band=4), faces=(15,))
    assert s.check(AttackCmd("brak", "orc1", "Bow")) is None


def test_several_attacks_an_action_finish_before_an_unpressed_turn_ends__OLOG_ATK_1():
    claws = Weapon("Claws", "1d6", kind="natural", count=2)
    s = started(hero(band=1, ac=10), foe("beast", band=2, weapons=(claws,), init=30), faces=(1,))
    assert s.current() == ("beast",)
    act(s, Move("beast", 1))  # not under pressure yet; now within Brak's reach
    act(s, AttackCmd("beast", "brak", "Claws", press_on=False), 15, 4)
    assert system(s).attacks_left == 1 and s.current() == ("beast",)  # turn ending, one claw remains
    opt = next(o for o in s.options("beast") if o.command == AttackCmd("beast", "brak", "Claws"))
    assert opt.allowed and opt.choices == () and "2 of 2, same action" in opt.label
    assert refusal(s, Defend("beast", press_on=True)).reason == "TURN_ENDING"
    step = act(s, AttackCmd("beast", "brak", "Claws"), 2)
    assert "AttackMissed" in kinds(step) and "TurnEnded" in kinds(step) and s.current() == ("brak",)


def test_split_attack_resumes_after_the_other_action_with_no_new_pressure__OLOG_ATK_1():
    claws = Weapon("Claws", "1d6", kind="natural", count=2)
    s = started(hero(band=1, ac=10, hp=30), foe("beast", band=1, weapons=(claws,), init=30), faces=(1,))
    act(s, AttackCmd("beast", "brak", "Claws", press_on=True), 1, 12, 3)  # pressure d4 [1], hit, 3
    step = act(s, Defend("beast", press_on=True), 2)  # the other action: its own pressure roll
    assert system(s).actions_left == 0 and system(s).attacks_left == 1 and s.current() == ("beast",)
    illegal = refusal(s, AttackCmd("beast", "brak", "Claws", press_on=True))
    assert illegal.reason == "SAME_ACTION"
    step = act(s, AttackCmd("beast", "brak", "Claws"), 11, 2)  # to-hit and damage only
    assert "PressedOn" not in kinds(step) and s.state.get("brak").hp == 30 - 3 - 2
    assert s.current() == ("brak",)


def test_defend_adds_2_ac_until_the_next_turn__OLOG_DEF_1():
    s = started(hero(band=0, ac=12), foe("orc1", band=1, weapons=(Weapon("Bow", "1d6", kind="bow"),)),
                faces=(15,))
    step = act(s, Defend("brak"))
    assert "+2 AC until its next turn (AC 14)" in first_event(step, "Defended").text
    act(s, EndTurn("brak"))
    step = act(s, AttackCmd("orc1", "brak", "Bow"), 13)  # 13 vs AC 14: miss
    assert "vs AC 14 (defending +2): miss" in first_event(step, "AttackMissed").text
    act(s, EndTurn("orc1"))
    assert "DefenceEnded" in [e.kind for _, e in s.log()]
    assert system(s).defence("brak") == 0


def test_defend_with_a_shield_in_hand_adds_4_stacking__OLOG_DEF_1():
    s = started(hero(band=0, hands=("Sword", "Kite shield")), foe("orc1", band=5), faces=(15,))
    assert next(o for o in s.options("brak") if o.group == "Defend").label == "Defend (+4 AC)"
    act(s, Defend("brak"))
    assert system(s).defence("brak") == 4
    # a shield named in the shields stat; not stacking: +4 includes the shield's own AC (shield_ac)
    buckler = hero(band=0, hands=("Sword", "Buckler"), stats={"shields": ("Buckler",), "shield_ac": 1})
    s = started(buckler, foe("orc1", band=5), faces=(15,), settings={"olog_defend_stacks_shield": False})
    act(s, Defend("brak"))
    assert system(s).defence("brak") == 3
    # a shield in the pack does not count
    s = started(hero(band=0, inventory=("Shield",)), foe("orc1", band=5), faces=(15,))
    act(s, Defend("brak"))
    assert system(s).defence("brak") == 2


def test_cast_a_spell_is_extended_and_narrated__OLOG_SPELL_1():
    mira = hero("mira", "Mira", band=0, stats={"spells": ("Sleep",)})
    s = started(mira, foe("orc1", band=5), faces=(15,))
    labels = [o.label for o in s.options("mira") if o.group == "Spell"]
    assert labels == ["Cast a spell… (extended)", "Cast Sleep (extended)"]
    assert next(o for o in s.options("mira") if o.group == "Spell").needs == ("spell",)
    step = act(s, CastSpell("mira", "Sleep"))
    assert "casts Sleep" in first_event(step, "SpellCast").text and s.current() == ("orc1",)


def test_retrieve_costs_by_position_in_the_pack__OLOG_ITEM_1():
    pack = ("Torch", "Rope", "Chalk", "Shield", "Rations")  # 5 items: top free, 1-2 middle, 3-4 bottom half
    s = started(hero(band=0, hands=("Sword", ""), inventory=pack), foe("orc1", band=5), faces=(15,))
    tags = {o.command.item: o.label for o in s.options("brak") if o.group == "Item"}
    assert tags == {"Torch": "Retrieve Torch (free)", "Rope": "Retrieve Rope (action)",
                    "Chalk": "Retrieve Chalk (action)", "Shield": "Retrieve Shield (extended)",
                    "Rations": "Retrieve Rations (extended)"}
    act(s, Retrieve("brak", "Rope", 1))
    assert system(s).actions_left == 1 and s.state.get("brak").hands == ("Sword", "Rope")
    # hands full: swap; the held item goes back where the new one was
    step = act(s, Retrieve("brak", "Torch", 0))
    assert "swaps Sword for Torch" in first_event(step, "ItemRetrieved").text
    assert s.state.get("brak").inventory == ("Sword", "Chalk", "Shield", "Rations")
    assert refusal(s, Retrieve("brak", "Chalk")).reason in ("HANDS_FULL", "SAME_ACTION_TWICE")


def test_retrieve_from_the_middle_can_be_made_extended__OLOG_ITEM_1():
    s = started(hero(band=0, inventory=("Torch", "Rope", "Chalk")), foe("orc1", band=5), faces=(15,),
                settings={"olog_item_middle": "extended"})
    step = act(s, Retrieve("brak", "Rope"))
    assert system(s).actions_left == 0, "the extended retrieve took both actions"
    assert "FreeActionsLeft" in kinds(step), "the turn stays open for a free action (OLOG-ACT-3)"


def test_a_free_action_can_follow_the_second_action__OLOG_ACT_3():
    """Retrieving the topmost item uses no action: after both actions the turn
    stays open for it, and ends when the combatant ends it."""
    s = started(hero(band=0, inventory=("Torch", "Rope")), foe("orc1", band=5), faces=(15,))
    act(s, Defend("brak"))
    step = act(s, Strategise("brak", "up"), 2)
    assert "TurnEnded" not in kinds(step) and s.current() == ("brak",)
    assert first_event(step, "FreeActionsLeft").rule == "OLOG-ACT-3"
    assert [o.label for o in s.options("brak") if o.allowed and o.group != "Referee"] == ["Retrieve Torch (free)", "End turn"]
    step = act(s, Retrieve("brak", "Torch"))
    assert "TurnEnded" not in kinds(step) and "Torch" in s.state.get("brak").hands
    act(s, EndTurn("brak"))
    assert s.current() == ("orc1",)


def test_without_a_free_action_the_second_action_ends_the_turn__OLOG_ACT_1__OLOG_ACT_3():
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,))
    act(s, Defend("brak"))
    step = act(s, Strategise("brak", "up"), 2)
    assert "TurnEnded" in kinds(step) and s.current() == ("orc1",)


def test_strategise_moves_the_count_from_next_round__OLOG_STRAT_1():
    s = started(hero(band=0), foe("orc1", band=5, hd=3), faces=(12,))  # Brak 14, orc 13
    step = act(s, Strategise("brak", "down"), 4)
    assert "count 14 → 10 from round 2" in first_event(step, "Strategised").text
    assert system(s).count("brak") == 14 and system(s).delta("brak") == -4
    act(s, EndTurn("brak"))
    assert s.current() == ("orc1",)  # this round's order unchanged
    step = act(s, EndTurn("orc1"))
    assert "CountChanged" in kinds(step) and system(s).count("brak") == 10
    assert s.current() == ("orc1",) and s.state.round == 2


def test_zone_labels_from_a_creature__OLOG_BAND_1():
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,), bands=8)
    st = s.state
    assert [band_label(st, d) for d in range(8)] == ["Close", "Near", "Far", "Far", "Far", "Distant",
                                                     "Distant", "Distant"]
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,), settings={"olog_far_max": 2, "olog_near_max": 1})
    assert [band_label(s.state, d) for d in range(4)] == ["Close", "Near", "Far", "Distant"]


def test_outcome_when_no_hostile_group_stands():
    s = started(hero(band=0), foe("elf", band=0, side=FRIENDS), foe("orc1", band=5), faces=(15,))
    assert s.state.outcome == ""
    act(s, SetHp("orc1", 0))
    assert s.state.outcome == "Party and Friends win"


def test_a_two_round_fight_against_two_orcs():
    """Round 1: Brak presses on to attack, then attacks... no, not twice: defends, turn ends;
    the orcs answer; round 2 he strategises and is dropped by pressure while acting."""
    s = started(hero(band=2, hp=8, ac=12), foe("orc1", band=2, hp=5, ac=12), foe("orc2", band=2, hp=5, ac=12),
                faces=(14,))  # Brak 16; orcs 11
    st = act(s, AttackCmd("brak", "orc1", "Sword", press_on=True), 1, 12, 6)  # pressure raised to 2; kills
    assert s.state.get("brak").hp == 6 and s.state.get("orc1").is_down
    act(s, Defend("brak", press_on=True), 1)  # now only orc2: d4, min 1 -> 1
    assert s.state.get("brak").hp == 5 and s.current() == ("orc2",)  # orc1 is down: skipped
    step = act(s, AttackCmd("orc2", "brak", "Weapon", press_on=False), 13)  # 13 vs 14: miss
    assert "AttackMissed" in kinds(step) and "TurnEnded" in kinds(step)
    assert s.state.round == 2 and s.current() == ("brak",) and system(s).defence("brak") == 0
    step = act(s, Strategise("brak", "up", press_on=True), 4, 6)
    assert s.state.get("brak").hp == 1
    act(s, AttackCmd("brak", "orc2", "Sword", press_on=False), 20, 8)
    assert s.state.get("orc2").is_down and s.state.outcome == "Party wins"
