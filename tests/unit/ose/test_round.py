"""OSE round: surprise, declarations, side initiative, step order, spells, morale, usage dice, loose play."""
from __future__ import annotations

from fray.engine.commands import IllegalCommand
from fray.engine.model import Side
from fray.engine.referee import Allow, SetHp
from fray.rules.ose import (Attack, CancelSpell, Charge, CompleteSpell, Declare, DisruptSpell, Done, EndStep, Grapple,
                           Manipulate, MoraleResult, Move, Narrate, RollInitiative, RollResource, Surprise)
from acting import act, kinds, refusal, texts
from ose_kit import BOW, CROSSBOW, GREATSWORD, HALBERD, SWORD, A, B, C, c, fighter, refused, session, start, sys

import pytest


def mage(cid="mira", side="a", square=None, **kw):
    return fighter(cid, side, square, hp=4, weapons=(SWORD,), hands=("Sword", ""),
                   spells=("Sleep", "Cure Light Wounds"), **kw)


# --- the round (OSE-SEQ-1) ---------------------------------------------------------------------

def test_round_runs_declare_then_initiative_then_sides_then_next_round__OSE_SEQ_1():
    s = session(fighter("ann", "a"), fighter("gob", "b"), profile="loose")
    assert sys(s).phase == "declare" and s.state.round == 1
    start(s, 4, 9)
    assert sys(s).phase == "act" and sys(s).order == ("b", "a")
    assert s.current() == ("gob",)
    act(s, EndStep("gob"))
    assert s.current() == ("ann",)
    step = act(s, EndStep("ann"))
    assert "RoundBegan" in kinds(step)
    assert s.state.round == 2 and sys(s).phase == "declare"


# --- surprise (OSE-SUR-1, OSE-SUR-2) -------------------------------------------------------------

def test_surprising_side_acts_first_and_no_initiative_is_rolled__OSE_SUR_1():
    s = session(fighter("ann", "a"), fighter("gob", "b"), profile="loose")
    opts = [o for o in s.options("ann") if isinstance(o.command, Surprise)]
    assert {o.command.side for o in opts} == {"a", "b"} and all(o.group == "Referee" for o in opts)
    assert all("suggested: no surprise" in o.hint for o in opts)
    act(s, Surprise("a"))  # the party is surprised
    step = act(s, RollInitiative())  # no faces at all
    assert step.dice == ()
    assert sys(s).order == ("b", "a") and sys(s).initiative == {}
    assert any("no initiative rolled" in t for t in texts(step))
    act(s, EndStep("gob"))
    act(s, EndStep("ann"))
    assert s.state.round == 2
    step = start(s, 6, 2)  # round 2 rolls as usual
    assert sys(s).order == ("a", "b")
    assert refused(s, Surprise("a")) == "TOO_LATE"


def test_surprised_side_cannot_declare_spells__OSE_SUR_2():
    s = session(mage("mira", "a"), fighter("gob", "b"), profile="loose")
    act(s, Declare("mira", "spell", "Sleep"))
    step = act(s, Surprise("a"))
    assert "mira" not in sys(s).declared
    assert any("OSE-SUR-2" in t for t in texts(step))
    ill = refusal(s, Declare("mira", "spell", "Sleep"))
    assert ill.reason == "SURPRISED" and "OSE-SUR-2" in ill.detail
    act(s, RollInitiative())
    act(s, EndStep("gob"))
    act(s, EndStep("mira"))
    act(s, Declare("mira", "spell", "Sleep"))  # round 2: allowed again


# --- initiative (OSE-INIT-1, OSE-INIT-2) -----------------------------------------------------------

def test_each_side_rolls_d12_every_round_highest_first__OSE_INIT_1():
    s = session(fighter("ann", "a"), fighter("gob", "b"), profile="loose")
    step = start(s, 3, 10)
    assert [r.expr for e in step.events for r in e.rolls] == ["d12", "d12"]
    assert sys(s).order == ("b", "a") and sys(s).initiative == {"a": (3,), "b": (10,)}
    act(s, EndStep("gob"))
    act(s, EndStep("ann"))
    start(s, 12, 1)
    assert sys(s).order == ("a", "b")


def test_only_tied_sides_reroll_until_untied_with_three_sides__OSE_INIT_2():
    s = session(fighter("ann", "a"), fighter("gob", "b"), fighter("ban", "c"), sides=(A, B, C), profile="loose")
    # Party 7, Goblins 7, Bandits 3 -> only Party and Goblins re-roll: 4 and 4 (tied again), then 2 and 6.
    step = start(s, 7, 7, 3, 4, 4, 2, 6)
    assert sys(s).order == ("b", "a", "c")
    assert sys(s).initiative == {"a": (7, 4, 2), "b": (7, 4, 6), "c": (3,)}
    rerolls = [e for e in step.events if e.rule == "OSE-INIT-2"]
    assert len(rerolls) == 2 and all("Bandits" not in e.text for e in rerolls)


def test_a_three_way_tie_rerolls_all_and_orders_the_losers_below__OSE_INIT_2():
    s = session(fighter("ann", "a"), fighter("gob", "b"), fighter("ban", "c"), sides=(A, B, C), profile="loose")
    start(s, 5, 5, 5, 1, 8, 3)
    assert sys(s).order == ("b", "c", "a")


# --- declarations (OSE-DECL-1) ------------------------------------------------------------------------

def test_declarations_are_named_and_locked_by_initiative__OSE_DECL_1():
    s = session(mage("mira", "a", (2, 2)), fighter("gob", "b", (8, 8), weapons=(SWORD,)))
    assert refused(s, Declare("mira", "spell", "Fireball")) == "UNKNOWN_SPELL"
    assert refused(s, Declare("mira", "spell", "")) == "NO_SPELL_NAMED"
    none = refusal(s, Declare("gob", "spell", ""))
    assert none.reason == "NO_SPELLS" and none.detail == "Gob has no spells memorised (OSE-DECL-1)"
    ill = refusal(s, Declare("gob", "brace"))
    assert ill.reason == "NO_BRACE_WEAPON" and "OSE-BRACE-1" in ill.detail
    act(s, Declare("mira", "spell", "Sleep"))
    act(s, Declare("mira", "spell", "Cure Light Wounds"))  # may change before initiative
    assert sys(s).declared["mira"] == ("spell", "Cure Light Wounds")
    act(s, Declare("gob", "full_defense"))
    start(s, 9, 2)
    ill = refusal(s, Declare("mira", "spell", "Sleep"))
    assert ill.reason == "DECLARATIONS_LOCKED" and "OSE-DECL-1" in ill.detail
    assert sys(s).casting == {"mira": "Cure Light Wounds"}


def test_full_defense_and_brace_only_in_the_detailed_rules__OSE_DECL_1__OSE_LOOSE_1():
    s = session(fighter("ann", "a"), fighter("gob", "b"), profile="loose")
    assert refused(s, Declare("ann", "full_defense")) == "DETAILED_ONLY"


# --- spells (OSE-SPELL-1..4) ----------------------------------------------------------------------------

def test_slot_spent_at_initiative_even_if_cancelled_and_no_movement__OSE_SPELL_1():
    s = session(mage("mira", "a", (2, 2), inventory=("Wand", "Rope")), fighter("gob", "b", (12, 9)))
    act(s, Declare("mira", "spell", "Sleep"))
    assert c(s, "mira").stat("spells") == ("Sleep", "Cure Light Wounds")
    step = start(s, 9, 2)
    assert c(s, "mira").stat("spells") == ("Cure Light Wounds",) and any("slot is spent" in t for t in texts(step))
    ill = refusal(s, Move("mira", ((2, 2), (3, 2))))
    assert ill.reason == "CASTING" and "OSE-SPELL-1" in ill.detail
    act(s, Manipulate("mira", "draw", "Wand"))  # the one manipulation
    assert refused(s, Manipulate("mira", "draw", "Rope")) == "CASTING_ONE_MANIPULATION"
    act(s, CancelSpell("mira"))
    assert c(s, "mira").stat("spells") == ("Cure Light Wounds",) and "mira" not in sys(s).casting


def test_caster_completes_in_the_magic_step_or_cancels_and_acts_otherwise__OSE_SPELL_2():
    s = session(mage("mira", "a", (2, 2)), mage("zed", "a", (2, 4)), fighter("gob", "b", (12, 9)))
    act(s, Declare("mira", "spell", "Sleep"))
    act(s, Declare("zed", "spell", "Sleep"))
    start(s, 9, 2)
    ill = refusal(s, CompleteSpell("mira", ("gob",)))
    assert ill.reason == "WRONG_STEP" and "MAGIC" in ill.detail
    act(s, CancelSpell("zed"))  # cancelled in the MOVE step: zed may now move
    act(s, Move("zed", ((2, 4), (3, 4), (4, 4))))
    assert c(s, "zed").square == (4, 4) and c(s, "zed").stat("spells") == ("Cure Light Wounds",)
    act(s, Done("zed"))
    act(s, Done("mira"))
    assert sys(s).step == 2  # nothing to shoot: straight to MAGIC
    step = act(s, CompleteSpell("mira", ("gob",), "the goblin falls asleep"))
    assert kinds(step)[0] == "SpellCast" and "mira" not in sys(s).casting


def test_a_caster_hit_in_the_missile_step_loses_the_spell__OSE_SPELL_3():
    archer = fighter("gob", "b", (10, 2), weapons=(BOW,), hands=("Bow", ""))
    s = session(mage("mira", "a", (2, 2)), archer)
    act(s, Declare("mira", "spell", "Sleep"))
    start(s, 2, 9)  # the goblins win initiative
    act(s, Done("gob"))  # MOVE step
    assert sys(s).step == 1
    step = act(s, Attack("gob", "mira", "Bow"), 15, 3)
    assert "SpellLost" in kinds(step) and "mira" not in sys(s).casting
    assert c(s, "mira").stat("spells") == ("Cure Light Wounds",)  # the slot stays spent
    assert any("OSE-SPELL-3" in t for t in texts(step))
    # The round Mira spent casting is gone with the spell: her side has nothing left to do.
    assert s.state.round == 2


def test_referee_may_rule_a_spell_disrupted_with_the_engines_suggestion__OSE_SPELL_3():
    s = session(mage("mira", "a", (2, 2)), fighter("gob", "b", (3, 2)), profile="loose")
    act(s, Declare("mira", "spell", "Sleep"))
    start(s, 2, 9)
    opt = next(o for o in s.options("mira") if isinstance(o.command, DisruptSpell))
    assert opt.allowed and "keep it" in opt.hint
    act(s, Grapple("gob", "mira"), 15, 3)
    opt = next(o for o in s.options("mira") if isinstance(o.command, DisruptSpell))
    assert "lose it" in opt.hint and "grappled" in opt.hint
    step = act(s, opt.command)
    assert "SpellLost" in kinds(step)


def test_concentration_ends_when_the_caster_is_damaged__OSE_SPELL_3():
    s = session(mage("mira", "a"), fighter("gob", "b"), profile="loose")
    act(s, Declare("mira", "spell", "Sleep"))
    start(s, 9, 2)
    act(s, CompleteSpell("mira", (), concentration=True))
    assert sys(s).concentrating == {"mira": "Sleep"}
    step = act(s, Attack("gob", "mira", "Sword"), 18, 2)
    assert "ConcentrationEnded" in kinds(step) and not sys(s).concentrating


def test_healing_cannot_answer_a_fall_in_the_same_round__OSE_SPELL_4():
    s = session(mage("cleric", "a"), fighter("ann", "a", hp=2), fighter("gob", "b"), profile="loose")
    start(s, 2, 9)
    act(s, Attack("gob", "ann", "Sword"), 18, 5)
    assert c(s, "ann").is_down
    ill = refusal(s, CompleteSpell("cleric", ("ann",), "Cure Light Wounds"))
    assert ill.reason == "NOT_CASTING" and "OSE-SPELL-4" in ill.detail
    assert refused(s, Declare("cleric", "spell", "Cure Light Wounds")) == "DECLARATIONS_LOCKED"


# --- the acting side's steps (OSE-ORDER-1) -----------------------------------------------------------------

def test_detailed_side_moves_then_shoots_then_casts_then_fights__OSE_ORDER_1():
    s = session(fighter("ann", "a", (4, 4)), fighter("hal", "a", (1, 1), weapons=(BOW,), hands=("Bow", "")),
                fighter("gob", "b", (5, 4)), fighter("gib", "b", (12, 10)))
    start(s, 9, 2)
    assert s.state.board.step == 0 and set(s.current()) == {"ann", "hal"}
    ill = refusal(s, Attack("ann", "gob", "Sword"))
    assert ill.reason == "WRONG_STEP" and "MELEE step" in ill.detail and "OSE-ORDER-1" in ill.detail
    done = next(o for o in s.options("ann") if isinstance(o.command, Done))
    assert done.allowed and done.group == "Turn"
    # In the MOVE step "next" ends the step for the whole side (most stand; the step is what ends), one tap.
    side = next(o for o in s.options("ann") if isinstance(o.command, EndStep))
    assert side.key == "next" and side.allowed and done.key == ""
    act(s, Done("ann"))
    assert s.current() == ("hal",)
    step = act(s, Done("hal"))
    assert sys(s).step == 1 and s.current() == ("hal",)  # only the archer has a MISSILE step
    assert "Goblins: MISSILE step" not in texts(step)
    act(s, Attack("hal", "gib", "Bow"), 2)  # a miss
    assert sys(s).step == 3 and s.current() == ("ann",)  # no MAGIC for anyone: on to MELEE
    act(s, Attack("ann", "gob", "Sword"), 3)
    assert sys(s).order[sys(s).turn] == "b"  # the goblins act next


def test_end_step_ends_it_for_the_whole_side__OSE_ORDER_1():
    s = session(fighter("ann", "a", (4, 4)), fighter("bob", "a", (4, 6)), fighter("gob", "b", (12, 10)))
    start(s, 9, 2)
    act(s, EndStep("ann"))
    assert sys(s).order[sys(s).turn] == "b"


# --- morale (OSE-MORALE-1) ------------------------------------------------------------------------------------

GOBS = Side("b", "Goblins", "#aa3333", "square", morale=7)


def test_first_death_triggers_morale_and_a_failure_asks_flee_or_surrender__OSE_MORALE_1():
    s = session(fighter("ann", "a"), fighter("g1", "b", hp=2), fighter("g2", "b"), sides=(A, GOBS), profile="loose")
    start(s, 9, 2)
    act(s, Attack("ann", "g1", "Sword"), 15, 4)
    step = act(s, Done("g2"), 5, 4)
    assert "MoraleFailed" in kinds(step) and "first death" in texts(step)[kinds(step).index("MoraleFailed")]
    p = s.state.prompt
    assert p is not None and p.kind == "morale" and s.current() == ("g2",)
    answers = s.options("g2")
    assert [o.label for o in answers if o.group == "Answer"] == ["Flee (suggested)", "Surrender", "Fight on"]
    assert refused(s, Declare("ann", "none")) == "WAITING_FOR_ANSWER"
    act(s, MoraleResult("g2", "b", "flee"))
    assert c(s, "g2").has_condition("fled") and s.state.outcome == "Victory: Party"


def test_morale_not_checked_without_a_trigger_and_two_passes_mean_fight_to_the_end__OSE_MORALE_1():
    s = session(fighter("ann", "a"), fighter("g1", "b", hp=2), fighter("g2", "b", hp=2), fighter("g3", "b"),
                fighter("g4", "b"), sides=(A, GOBS), profile="loose")
    start(s, 9, 2)
    step = act(s, EndStep("ann"))
    step = act(s, EndStep("g2"))  # no death yet: no roll
    assert "MoralePassed" not in kinds(step) and step.dice == ()
    start(s, 9, 2)
    act(s, Attack("ann", "g1", "Sword"), 15, 4)
    step = act(s, EndStep("g2"), 3, 3)  # first death: 6 <= 7 holds
    assert "MoralePassed" in kinds(step)
    start(s, 9, 2)
    act(s, Attack("ann", "g2", "Sword"), 15, 4)  # half down now
    step = act(s, EndStep("g3"), 4, 3)
    assert "fights to the end" in texts(step)[kinds(step).index("MoralePassed")]
    start(s, 9, 2)
    act(s, Attack("ann", "g3", "Sword"), 15, 8)
    step = act(s, EndStep("g4"))  # no more checks
    assert step.dice == ()


def test_two_triggers_in_one_round_are_two_checks_until_two_passes__OSE_MORALE_1():
    s = session(fighter("ann", "a"), fighter("g1", "b", hp=2), fighter("g2", "b"), sides=(A, GOBS), profile="loose")
    start(s, 9, 2)
    act(s, Attack("ann", "g1", "Sword"), 15, 4)  # first death and half down at once
    step = act(s, Done("g2"), 3, 3, 2, 4)
    passed = [t for k, t in zip(kinds(step), texts(step)) if k == "MoralePassed"]
    assert len(passed) == 2 and "first death" in passed[0] and "half down" in passed[1]
    assert "fights to the end" in passed[1] and sys(s).morale["b"].passes == 2


def test_a_failed_first_check_stops_there_and_asks__OSE_MORALE_1():
    s = session(fighter("ann", "a"), fighter("g1", "b", hp=2), fighter("g2", "b"), sides=(A, GOBS), profile="loose")
    start(s, 9, 2)
    act(s, Attack("ann", "g1", "Sword"), 15, 4)
    step = act(s, Done("g2"), 6, 6)
    assert kinds(step).count("MoraleFailed") == 1 and "MoralePassed" not in kinds(step)
    assert s.state.prompt.kind == "morale"


def test_a_failure_answered_fight_on_is_checked_again_at_the_next_trigger__OSE_MORALE_1():
    s = session(fighter("ann", "a"), fighter("g1", "b", hp=2), fighter("g2", "b", hp=2), fighter("g3", "b"),
                fighter("g4", "b"), sides=(A, GOBS), profile="loose")
    start(s, 9, 2)
    act(s, Attack("ann", "g1", "Sword"), 15, 4)
    step = act(s, EndStep("g2"), 6, 6)  # first death: 12 > 7 breaks
    assert "MoraleFailed" in kinds(step)
    act(s, MoraleResult("g2", "b", "fight on"))
    start(s, 9, 2)
    act(s, Attack("ann", "g2", "Sword"), 15, 4)  # half down now: checked again
    step = act(s, EndStep("g3"), 3, 3)
    assert "MoralePassed" in kinds(step) and "half down" in texts(step)[kinds(step).index("MoralePassed")]
    assert sys(s).morale["b"].passes == 1, "one pass: the side is not yet past its checks"


def test_the_referee_calls_a_morale_check_any_time_logged_with_its_faces__OSE_MORALE_2():
    from fray.rules.ose import CheckMorale
    s = session(fighter("ann", "a"), fighter("g1", "b", hp=2), fighter("g2", "b"), sides=(A, GOBS),
                profile="loose")
    assert refused(s, CheckMorale("a")) == "NO_MORALE"
    offer = next(o for o in s.options("g1") if isinstance(o.command, CheckMorale))
    assert offer.allowed and offer.group == "Referee" and offer.rule == "OSE-MORALE-2"
    step = act(s, CheckMorale("b"), 2, 3)  # before any trigger, even before initiative
    e = step.events[0]
    assert e.kind == "MoralePassed" and e.rule == "OSE-MORALE-2" and e.rolls[0].faces == (2, 3)
    assert "2" in e.text and "3" in e.text and sys(s).morale["b"].passes == 1
    start(s, 9, 2)
    act(s, CheckMorale("b"), 1, 1)  # the second pass: no more checks at the triggers
    act(s, Attack("ann", "g1", "Sword"), 15, 8)
    assert c(s, "g1").is_down  # first death and half down: no check after two passes
    step = act(s, Done("g2"))
    assert step.dice == () and "MoralePassed" not in kinds(step)


def test_a_called_check_that_fails_asks_flee_or_surrender_at_once__OSE_MORALE_2():
    from fray.rules.ose import CheckMorale
    s = session(fighter("ann", "a"), fighter("g1", "b"), sides=(A, GOBS), profile="loose")
    start(s, 9, 2)
    step = act(s, CheckMorale("b"), 6, 6)
    assert kinds(step) == ["MoraleFailed"] and s.state.prompt.kind == "morale" and s.current() == ("g1",)
    act(s, MoraleResult("g1", "b", "surrender"))
    assert c(s, "g1").has_condition("surrendered")


def test_morale_triggers_are_settings__OSE_MORALE_1():
    s = session(fighter("ann", "a"), fighter("g1", "b", hp=2), fighter("g2", "b"), fighter("g3", "b"),
                sides=(A, GOBS), profile="loose", settings={"morale_first_death": False})
    start(s, 9, 2)
    act(s, Attack("ann", "g1", "Sword"), 15, 4)
    step = act(s, EndStep("g2"))
    assert step.dice == ()


# --- usage die (OSE-RES-1) -----------------------------------------------------------------------------------

def test_usage_die_steps_down_on_one_or_two_and_runs_out__OSE_RES_1():
    s = session(fighter("hal", "a", (1, 1), weapons=(BOW,), hands=("Bow", ""), ammo_die="d6"),
                fighter("ivy", "a", (1, 3), weapons=(BOW,), hands=("Bow", "")), fighter("gob", "b", (9, 9)))
    step = act(s, RollResource("hal"), 5)
    assert sys(s).ammo["hal:ammo"] == "d6" and "stays d6" in texts(step)[0]
    act(s, RollResource("hal"), 2)
    assert sys(s).ammo["hal:ammo"] == "d4"
    step = act(s, RollResource("hal"), 1)
    assert sys(s).ammo["hal:ammo"] == "out" and "used up" in texts(step)[0]
    assert refused(s, RollResource("hal")) == "USED_UP"
    start(s, 9, 2)
    act(s, EndStep("hal"))
    ill = refusal(s, Attack("hal", "gob", "Bow"))
    assert ill.reason == "NO_AMMUNITION" and "OSE-RANGED-1" in ill.detail


def test_usage_die_roll_is_offered_after_the_fight__OSE_RES_1__OSE_SEQ_1():
    s = session(fighter("hal", "a", weapons=(BOW, SWORD), hands=("Sword", ""), ammo_die="d8"),
                fighter("gob", "b", hp=1), profile="loose")
    start(s, 9, 2)
    act(s, Attack("hal", "gob", "Sword"), 18, 3)
    assert s.state.outcome
    opts = s.options("hal")
    assert [o.command for o in opts] == [RollResource("hal", "ammo")] and opts[0].allowed
    act(s, RollResource("hal"), 1)
    assert sys(s).ammo["hal:ammo"] == "d6"


def test_usage_die_chain_and_drop_are_settings__OSE_RES_1():
    s = session(fighter("hal", "a", ammo_die="d12"), fighter("gob", "b"), profile="loose",
                settings={"resource_drop": 3, "resource_dice": "d12,d6"})
    act(s, RollResource("hal"), 3)
    assert sys(s).ammo["hal:ammo"] == "d6"


# --- loose profile (OSE-LOOSE-1) ---------------------------------------------------------------------------------

def test_loose_has_no_grid_and_one_action_each_in_any_order__OSE_LOOSE_1():
    s = session(fighter("ann", "a"), fighter("bob", "a"), fighter("gob", "b", hp=20), profile="loose")
    start(s, 9, 2)
    assert set(s.current()) == {"ann", "bob"}
    ill = refusal(s, Move("ann", ((0, 0), (1, 0))))
    assert ill.reason == "NO_GRID" and "OSE-LOOSE-1" in ill.detail
    act(s, Attack("bob", "gob", "Sword"), 3)
    assert s.current() == ("ann",)
    assert refused(s, Attack("bob", "gob", "Sword")) == "ALREADY_ACTED"
    act(s, Narrate("ann", "shouts for help"))
    assert s.current() == ("gob",)


def test_loose_weapon_effects_still_apply__OSE_LOOSE_1():
    s = session(fighter("ann", "a", weapons=(GREATSWORD,), hands=("Greatsword", "Greatsword")),
                fighter("hal", "a", weapons=(CROSSBOW,), hands=("Crossbow", "")),
                fighter("gob", "b", hp=40, ac=12), fighter("pole", "b", ac=12, weapons=(HALBERD,),
                                                               hands=("Halberd", "Halberd")), profile="loose")
    start(s, 9, 2)
    step = act(s, Attack("ann", "gob", "Greatsword"), 12, 5)
    assert step.events[1].data["amount"] == 6  # two-handed +1
    step = act(s, Attack("hal", "gob", "Crossbow"), 12, 2, 5)
    assert step.events[1].data["amount"] == 6  # best of two, +1


def test_loose_ac_penalties_for_two_handed_and_reach__OSE_LOOSE_1():
    s = session(fighter("ann", "a", weapons=(SWORD,)), fighter("pole", "b", ac=12, weapons=(HALBERD,),
                                                                hands=("Halberd", "Halberd")), profile="loose")
    start(s, 9, 2)
    step = act(s, Attack("ann", "pole", "Sword"), 11, 1)
    assert step.events[0].data["ac"] == 11 and step.events[0].kind == "AttackHit"


def test_illegal_commands_change_nothing():
    s = session(fighter("ann", "a"), fighter("gob", "b"), profile="loose")
    with pytest.raises(IllegalCommand):
        s.act(Attack("ann", "gob", "Sword"))
    assert not s.steps


# --- referee overrides (CORE-REF-1) ------------------------------------------------------------------

def test_referee_downing_a_caster_loses_the_spell__OSE_SPELL_3():
    s = session(mage("mira", "a"), fighter("ann", "a"), fighter("gob", "b"), profile="loose")
    act(s, Declare("mira", "spell", "Sleep"))
    start(s, 9, 2)
    step = act(s, SetHp("mira", 0))
    assert "SpellLost" in kinds(step) and "mira" not in sys(s).casting


def test_referee_may_allow_a_refused_attack_and_an_impossible_override_changes_nothing__OSE_AOO_3():
    s = session(fighter("ann", "a", (1, 1), speed=30), fighter("gob", "b", (9, 9)))
    start(s, 9, 2)
    assert refused(s, Attack("ann", "gob", "Sword")) == "WRONG_STEP"
    step = act(s, Allow(Attack("ann", "gob", "Sword")), 15, 3)
    assert "AttackHit" in kinds(step) and "Overridden" in kinds(step)
    assert c(s, "gob").hp == 7
    step = act(s, Allow(Charge("ann", "Sword")))
    assert kinds(step) == ["OverrideFailed"]


# --- memory (OSE-SPELL-5) ---------------------------------------------------------------------------

def test_a_cancelled_spell_is_out_of_memory_and_cannot_be_declared_again__OSE_SPELL_5():
    s = session(mage("mira", "a"), fighter("gob", "b"), profile="loose")
    act(s, Declare("mira", "spell", "Sleep"))
    start(s, 9, 2)
    step = act(s, CancelSpell("mira"))
    assert any("out of memory" in t and "OSE-SPELL-5" in t for t in texts(step))
    assert c(s, "mira").stat("spells") == ("Cure Light Wounds",)
    act(s, Done("mira"))
    act(s, EndStep("gob"))
    ill = refusal(s, Declare("mira", "spell", "Sleep"))
    assert ill.reason == "NOT_MEMORISED" and "OSE-SPELL-5" in ill.detail
    assert [o.command.spell for o in s.options("mira") if isinstance(o.command, Declare) and o.command.spell] \
        == ["Cure Light Wounds"]


def test_a_lost_spell_is_out_of_memory_and_a_second_copy_stays__OSE_SPELL_5():
    s = session(fighter("mira", "a", hp=9, spells=("Sleep", "Sleep")), fighter("gob", "b"), profile="loose")
    opts = [o for o in s.options("mira") if isinstance(o.command, Declare) and o.command.spell]
    assert [o.command.spell for o in opts] == ["Sleep"] and opts[0].hint.startswith("2 in memory")
    act(s, Declare("mira", "spell", "Sleep"))
    start(s, 2, 9)
    step = act(s, Attack("gob", "mira", "Sword"), 18, 2)
    assert "SpellLost" in kinds(step) and c(s, "mira").stat("spells") == ("Sleep",)
    act(s, Done("mira"))
    act(s, Declare("mira", "spell", "Sleep"))  # the second copy
    start(s, 2, 9)
    assert c(s, "mira").stat("spells") == ()


def test_the_referee_restores_memory_between_fights__OSE_SPELL_5():
    from fray.rules.ose import RestoreMemory
    s = session(mage("mira", "a"), fighter("gob", "b"), profile="loose")
    assert refused(s, RestoreMemory("mira")) == "MEMORY_FULL"
    act(s, Declare("mira", "spell", "Sleep"))
    start(s, 9, 2)
    assert refused(s, RestoreMemory("mira")) == "CASTING"
    act(s, CompleteSpell("mira", ("gob",)))
    offer = next(o for o in s.options("mira") if isinstance(o.command, RestoreMemory))
    assert offer.allowed and offer.group == "Referee" and offer.rule == "OSE-SPELL-5"
    step = act(s, RestoreMemory("mira"))
    assert kinds(step) == ["MemoryRestored"] and c(s, "mira").stat("spells") == ("Sleep", "Cure Light Wounds")


def test_a_casting_caster_may_attack_and_the_option_shows_the_spell_lost_first__OSE_SPELL_3():
    s = session(mage("mira", "a"), fighter("gob", "b"), profile="loose")
    act(s, Declare("mira", "spell", "Sleep"))
    start(s, 9, 2)
    o = next(o for o in s.options("mira") if isinstance(o.command, Attack))
    assert o.allowed and o.label.endswith("(loses Sleep)") and "OSE-SPELL-3" in o.hint
    step = act(s, o.command, 15, 3)
    assert kinds(step)[:2] == ["SpellLost", "AttackHit"] and "mira" not in sys(s).casting
    assert "violent motion" in texts(step)[0]
