"""Ogre's out-of-turn rules: reactions, attacks of opportunity, breaking, delaying and readied actions."""
from __future__ import annotations

import pytest

from acting import act, first_event, kinds
from ogre_support import advance_to, fighter, orc, pc, start

from fray.engine.commands import IllegalCommand
from fray.engine.referee import Damage, SetHp
from fray.rules.ogre import commands as oc
from fray.views.ogre import ruler


def orc_attacks_brak_at_14(*more, **kw):
    s = start(orc(), pc(), *more, initiative=[4, 8] + [1] * len(more), **kw)
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    advance_to(s, 16)
    return s


# --- reactions (OGRE-REACT-1) ----------------------------------------------------------------------

def test_a_short_reaction_gives_minus_4_to_the_pending_attack__OGRE_REACT_1():
    s = orc_attacks_brak_at_14()
    step = act(s, oc.React("orc", "Short", "sidestep"))
    assert first_event(step, "ReactionTaken").data == {"category": "Short", "penalty": -4}
    a = fighter(s, "orc").action
    assert a.penalty == -4 and a.resolves == 24  # not broken, not delayed
    act(s, oc.Delay("brak"))
    step = advance_to(s, 24, 14)  # 14 + 4 - 4 = 14 against 15: the reaction made it miss
    assert first_event(step, "AttackMissed").data == {"total": 14, "defense": 15, "bonus": -4}


def test_reaction_penalties_stack_by_default_and_the_referee_can_stop_it__OGRE_REACT_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.React("orc", "Quick"))
    act(s, oc.React("orc", "Immediate"))
    assert fighter(s, "orc").action.penalty == -3
    s = orc_attacks_brak_at_14(reactions_stack=False)
    act(s, oc.React("orc", "Quick"))
    act(s, oc.React("orc", "Immediate"))
    assert fighter(s, "orc").action.penalty == -2


def test_reactions_are_not_declared_and_do_not_need_the_actors_turn__OGRE_REACT_1():
    s = orc_attacks_brak_at_14()
    assert s.current() == ("brak",)
    assert s.check(oc.React("orc", "Standard")) is None
    step = act(s, oc.React("orc", "Standard"))
    assert "ActionDeclared" not in kinds(step) and fighter(s, "orc").action.penalty == -8


# --- attacks of opportunity (OGRE-AOO-1, OGRE-AOO-2) ----------------------------------------------------

def test_leaving_a_threatened_square_asks_each_threatening_foe__OGRE_AOO_1():
    s = start(orc(), pc(), orc("orc2", (5, 5)), initiative=[4, 8, 4])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    act(s, oc.Delay("orc2"))  # not flat-footed any more, with nothing under way
    advance_to(s, 16)
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    assert s.state.prompt.kind == "opportunity" and s.state.prompt.data == {"mover": "brak", "square": [6, 4]}
    asked = [s.state.prompt.actor]
    act(s, oc.Opportunity(asked[0], "decline"))
    asked.append(s.state.prompt.actor)
    assert asked == ["orc", "orc2"]


def brak_walks_past_the_orc(**kw):
    """The orc (5, 4) has an attack under way on Brak; Brak's short move leaves four squares it threatens."""
    s = start(orc(), pc(), initiative=[4, 8], **kw)
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    advance_to(s, 16)
    act(s, oc.Move("brak", "short", ((6, 4), (6, 5), (5, 5), (4, 5), (3, 6))))
    return s


def test_one_prompt_per_mover_and_segment_covers_every_square_it_leaves__OGRE_AOO_1__OGRE_AOO_2():
    s = brak_walks_past_the_orc()
    advance_to(s, 21)
    p = s.state.prompt
    assert p.actor == "orc" and "4 squares" in p.question and "(4, 5)" in p.question
    step = act(s, oc.Opportunity("orc", "decline"))
    assert s.state.prompt.kind == "follow" and s.state.get("brak").square == (3, 6)  # no second AoO prompt
    assert kinds(step).count("OpportunityDeclined") == 1


def test_a_new_attack_of_opportunity_answers_for_the_whole_segment__OGRE_AOO_2():
    s = brak_walks_past_the_orc()
    advance_to(s, 21)
    act(s, oc.Opportunity("orc", "new", "Axe"), 2)  # a miss at the first square; the rest are let go
    assert s.state.prompt is None and s.state.get("brak").square == (3, 6)  # it struck: no follow offered
    assert fighter(s, "orc").action.penalty == -8  # one reaction, not four


def test_a_standing_let_it_go_for_a_side_raises_no_prompt_and_is_changed_back__OGRE_AOO_2():
    s = start(orc(), pc(), orc("orc2", (5, 6)), initiative=[4, 8, 4])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    act(s, oc.Delay("orc2"))
    advance_to(s, 16)
    act(s, oc.Move("brak", "short", ((6, 4), (6, 5), (5, 5), (4, 5), (3, 6))))
    advance_to(s, 21)
    always = next(o for o in s.options("orc") if o.label == "Always let it go")
    assert [c.values for c in always.choices] == [{"always": "me"}, {"always": "side"}]
    step = act(s, oc.Opportunity("orc", "decline", always="side"))
    assert s.state.board.standing == (("side:orcs", "decline"),)
    assert s.state.prompt.kind == "follow" and "StandingAnswer" in kinds(step)  # Orc2 was not asked
    act(s, oc.Follow("orc", ""))
    ask = next(o for o in s.options("orc2") if o.group == "Opportunity")
    assert ask.command == oc.StandingAnswer("orc2", "", "side") and "everyone of Orcs always lets it go" in ask.hint
    act(s, ask.command)
    assert s.state.board.standing == ()


def test_a_standing_pending_answer_strikes_unasked_for_the_whole_side__OGRE_AOO_2():
    s = brak_walks_past_the_orc()
    act(s, oc.StandingAnswer("orc", "pending", "side"))
    step = advance_to(s, 21, 15, 3)
    assert s.state.prompt is None and "StandingAnswer" in kinds(step)
    assert first_event(step, "AttackHit").data["bonus"] == 0
    assert s.state.get("brak").square == (3, 6) and s.state.get("brak").hp == 17


def test_a_standing_pending_answer_asks_when_no_attack_is_under_way__OGRE_AOO_2():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.StandingAnswer("orc", "pending"))
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    assert s.state.prompt.actor == "orc" and s.state.prompt.kind == "opportunity"


def test_flat_footed_foes_get_no_attack_of_opportunity__OGRE_AOO_1__OGRE_FF_1():
    s = start(orc(), pc(reaction=2), initiative=[4, 1])  # Brak acts at 3, the orc only at 14
    advance_to(s, 3)
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    step = advance_to(s, 5)
    assert s.state.prompt is None and "Moved" in kinds(step)


def test_standing_up_in_a_threatened_square_provokes__OGRE_AOO_1__OGRE_LIST_1():
    s = start(orc(), pc(conditions=("prone",)), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    act(s, oc.Act("brak", "stand_up"))
    advance_to(s, 21)
    assert s.state.prompt.actor == "orc" and "stands up" in s.state.prompt.question
    act(s, oc.Opportunity("orc", "new", "Axe"), 2)
    assert not s.state.get("brak").has_condition("prone")


def test_an_attack_of_opportunity_can_use_the_pending_attack_at_once__OGRE_AOO_2():
    s = orc_attacks_brak_at_14()
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    opts = {o.command.use: o for o in s.options("orc") if o.command.use != "new"}
    assert "(-2" not in opts["pending"].label  # same target: no penalty
    step = act(s, oc.Opportunity("orc", "pending"), 12, 3)
    assert first_event(step, "AttackHit").data["bonus"] == 0
    assert first_event(step, "ActionResolved").data["outcome"] == "resolved"
    assert "orc" in s.current()  # its attack is spent: it declares anew at 18 (and Brak, its move done)
    assert s.state.get("brak").square == (7, 4)  # the move went on


def test_the_pending_attack_on_another_target_takes_minus_2__OGRE_AOO_2():
    s = start(orc(), pc(), pc("mira", (4, 4)), initiative=[4, 8, 9])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "mira"))
    advance_to(s, 16)
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 17)
    act(s, oc.Delay("mira"))
    advance_to(s, 18)
    opt = next(o for o in s.options("orc") if o.command.use == "pending")
    assert "-2: new target" in opt.label
    step = act(s, oc.Opportunity("orc", "pending"), 13, 1)  # 13 + 4 - 2 = 15 against 15: a hit
    assert first_event(step, "AttackHit").data["bonus"] == -2


def test_the_change_of_target_penalty_is_a_setting__OGRE_AOO_2():
    s = start(orc(), pc(), pc("mira", (4, 4)), initiative=[4, 8, 9], change_target_penalty=4)
    advance_to(s, 14)
    act(s, oc.Attack("orc", "mira"))
    advance_to(s, 16)
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 17)
    act(s, oc.Delay("mira"))
    advance_to(s, 18)
    step = act(s, oc.Opportunity("orc", "pending"), 13)
    assert first_event(step, "AttackMissed").data["bonus"] == -4


def test_a_new_attack_of_opportunity_is_a_reaction_penalising_the_pending_one__OGRE_AOO_2__OGRE_REACT_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    step = act(s, oc.Opportunity("orc", "new", "Axe"), 5)
    assert first_event(step, "AttackMissed").data["bonus"] == 0
    assert first_event(step, "ReactionTaken").data["penalty"] == -8
    assert fighter(s, "orc").action.penalty == -8 and fighter(s, "orc").action.resolves == 24


def test_a_fast_new_attack_of_opportunity_is_a_short_reaction__OGRE_AOO_2__OGRE_FAST_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    step = act(s, oc.Opportunity("orc", "new", "Axe", fast=True), 5)
    assert first_event(step, "AttackMissed").data["bonus"] == -8
    assert fighter(s, "orc").action.penalty == -4


def test_while_a_foe_is_asked_nothing_else_happens__OGRE_AOO_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    assert s.current() == ("orc",)
    for cmd in (oc.Advance(), oc.React("brak", "Quick"), oc.Break("orc")):
        assert s.check(cmd).reason == "WAITING_FOR_ANSWER"
    assert s.check(oc.Opportunity("brak", "decline")).reason == "WAITING_FOR_ANSWER"


# --- breaking (OGRE-BREAK-1) ---------------------------------------------------------------------------

def test_breaking_an_action_loses_the_elapsed_segments_and_declares_at_once__OGRE_BREAK_1():
    s = orc_attacks_brak_at_14()
    step = act(s, oc.Break("orc"))
    assert first_event(step, "ActionBroken").data["lost"] == 2
    assert set(s.current()) == {"orc", "brak"}
    bar = next(b for b in ruler(s.state).lanes[0].bars if b.state == "broken")
    assert (bar.start, bar.end) == (14, 16)


def test_a_failed_concentration_check_breaks_a_spell__OGRE_BREAK_1():
    s = start(orc(caster=True, concentration=2), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Cast("orc", "Darkness", 1))
    advance_to(s, 16)
    step = act(s, Damage("orc", 3), 10)  # 10 + 2 = 12 < 10 + 3
    assert "lost" in first_event(step, "CheckMade").text and "ActionBroken" in kinds(step)
    assert "orc" in s.current()


def test_a_concentration_check_that_succeeds_keeps_the_spell__OGRE_BREAK_1():
    s = start(orc(caster=True, concentration=2), pc(), initiative=[4, 8], concentration_dc=5)
    advance_to(s, 14)
    act(s, oc.Cast("orc", "Darkness", 1))
    advance_to(s, 16)
    act(s, Damage("orc", 3), 6)  # 6 + 2 = 8 against DC 5 + 3
    assert fighter(s, "orc").action.label == "Cast Darkness"


def test_a_stun_breaks_the_action_and_it_declares_on_recovery__OGRE_BREAK_1():
    s = orc_attacks_brak_at_14()
    step = act(s, oc.Stun("orc", 6))
    assert "ActionBroken" in kinds(step) and s.state.get("orc").has_condition("stunned")
    assert s.check(oc.React("orc", "Quick")).reason == "STUNNED"
    act(s, oc.Delay("brak"))
    step = advance_to(s, 22)
    assert "StunEnded" in kinds(step) and s.current() == ("orc",)
    assert not s.state.get("orc").has_condition("stunned")


# --- delay (OGRE-DELAY-1) -----------------------------------------------------------------------------

def test_a_delay_loses_the_waited_segments__OGRE_DELAY_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Delay("brak", until=20))
    assert s.check(oc.Advance()) is None  # nobody must declare now
    advance_to(s, 20)
    assert s.current() == ("brak",)
    step = act(s, oc.Attack("brak", "orc"))
    assert first_event(step, "ActionDeclared").data["resolves"] == 30  # not 26: segments 16-20 are lost
    lane = next(l for l in ruler(s.state).lanes if l.id == "brak")
    delay = next(b for b in lane.bars if b.kind == "delay")
    assert (delay.start, delay.end, delay.state) == (16, 20, "lost")


def test_a_delaying_combatant_may_declare_at_any_later_segment__OGRE_DELAY_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Delay("brak"))
    act(s, oc.Advance(one=True))
    step = act(s, oc.Attack("brak", "orc"))
    assert first_event(step, "ActionDeclared").data["resolves"] == 27
    assert s.check(oc.Delay("orc", until=10)).reason == "BUSY"


# --- ready (OGRE-READY-1) ------------------------------------------------------------------------------

def test_a_readied_attack_that_damages_a_caster_breaks_the_spell__OGRE_READY_1__OGRE_BREAK_1():
    s = start(orc("shaman", (5, 4), caster=True, concentration=1), pc(), initiative=[8, 8])  # 18, 16
    advance_to(s, 16)
    step = act(s, oc.Ready("brak", "attack", "cast", "shaman"))
    assert fighter(s, "brak").action.resolves is None
    assert "waits for its trigger" in first_event(step, "ActionDeclared").text
    advance_to(s, 18)
    step = act(s, oc.Cast("shaman", "Sleep", 1))
    assert "ReadyTriggered" in kinds(step) and s.state.prompt.kind == "ready" and s.current() == ("brak",)
    first = s.options("brak")[0]
    assert first.command == oc.Strike("brak") and first.label == "Strike Shaman with Sword"  # the default, one tap
    step = act(s, first.command, 9, 6, 5)  # Brak 9 + 6 hits for 6; Concentration 5 + 1 < 16
    order = ["ReadyTriggered"] + kinds(step)
    assert order.index("ReadyTriggered") < order.index("AttackHit") < order.index("CheckMade")
    assert first_event(step, "ActionBroken").actor == "shaman"
    assert set(s.current()) == {"brak", "shaman"}  # both declare anew at 18


def test_a_readied_counterspell_needs_spellcraft_15_plus_the_spell_level__OGRE_READY_1():
    s = start(orc("shaman", (9, 4), caster=True), pc(caster=True, spellcraft=6), initiative=[8, 8])
    advance_to(s, 16)
    act(s, oc.Ready("brak", "counterspell", "cast", "shaman"))
    advance_to(s, 18)
    step = act(s, oc.Cast("shaman", "Sleep", 2), 11)  # 11 + 6 = 17 against 15 + 2
    assert "identified" in first_event(step, "CheckMade").text and s.state.prompt.kind == "counter"
    step = act(s, oc.Counter("brak", True))
    assert first_event(step, "ActionBroken").actor == "shaman" and "countered" in first_event(step, "ActionBroken").text


def test_a_failed_spellcraft_spends_the_counterspell__OGRE_READY_1():
    s = start(orc("shaman", (9, 4), caster=True), pc(caster=True, spellcraft=6), initiative=[8, 8])
    advance_to(s, 16)
    act(s, oc.Ready("brak", "counterspell", "cast", "shaman"))
    advance_to(s, 18)
    step = act(s, oc.Cast("shaman", "Sleep", 2), 10)  # 16 < 17
    assert s.state.prompt is None and fighter(s, "shaman").action.label == "Cast Sleep"
    assert first_event(step, "ActionResolved").data["outcome"] == "fired"


def test_a_readied_attack_interrupts_a_move_before_it_happens__OGRE_READY_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Move("orc", "short", ((5, 4), (5, 5), (5, 6))))
    advance_to(s, 16)
    act(s, oc.Ready("brak", "attack", "move", "orc"))
    first = advance_to(s, 19)
    step = act(s, oc.Strike("brak"), 1)  # Brak's readied sword misses the orc before it walks
    order = kinds(first) + kinds(step)
    assert order.index("ReadyTriggered") < order.index("AttackMissed")
    assert s.state.prompt.actor == "brak" and s.state.prompt.kind == "opportunity"  # then the orc leaves


def test_a_counterspell_waits_for_a_spell__OGRE_READY_1():
    s = start(orc(), pc(caster=True), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    assert s.check(oc.Ready("brak", "counterspell", "attack", "orc")).reason == "BAD_TRIGGER"
    assert s.check(oc.Ready("brak", "attack", "nonsense", "orc")).reason == "NO_SUCH_TRIGGER"


def test_the_referee_can_fire_a_readied_action__OGRE_READY_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    act(s, oc.Ready("brak", "attack", "manual", "orc"))
    step = act(s, oc.Trigger("brak"), 20, 8)
    assert "ReadyTriggered" in kinds(step) and s.state.get("orc").hp == 7


def test_a_referee_felling_the_asked_one_drops_the_question__OGRE_AOO_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    step = act(s, SetHp("orc", 0))
    assert "PromptDropped" in kinds(step) and s.state.prompt is None
    assert s.state.get("brak").square == (7, 4)
    try:
        s.act(oc.Opportunity("orc", "decline"))
    except IllegalCommand as exc:
        assert exc.illegal.reason == "FIGHT_OVER"  # its side is down: the fight is over


# --- the referee's Allow (CORE-REF-1) -------------------------------------------------------------------

def test_the_referee_can_allow_an_attack_out_of_reach_and_over_a_pending_action__OGRE_ATK_1():
    from fray.engine.referee import Allow
    s = start(orc(square=(1, 1)), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    act(s, oc.Act("brak", "use_item"))
    assert s.check(oc.Attack("brak", "orc")).reason == "BUSY"
    step = act(s, Allow(oc.Attack("brak", "orc")))  # out of reach, and over the pending action
    assert "Overridden" in kinds(step) and "ActionBroken" in kinds(step)
    assert fighter(s, "brak").action.resolves == 26


def test_an_allowed_command_with_nothing_to_act_on_changes_nothing__OGRE_SEG_1():
    from fray.engine.referee import Allow
    s = orc_attacks_brak_at_14()
    for cmd in (oc.RollInitiative(), oc.Opportunity("orc", "pending"), oc.Act("brak", "juggle"),
                oc.Trigger("brak"), oc.React("brak", "Sideways"), oc.Attack("brak", "orc", "Halberd")):
        before = s.state
        step = act(s, Allow(cmd))
        assert kinds(step) == ["OverrideFailed"]
        assert s.state.board == before.board and s.state.combatants == before.combatants


def test_a_readied_attack_waiting_for_an_attack_meets_a_charger_on_arrival__OGRE_READY_1__OGRE_CHARGE_1():
    s = start(orc(square=(2, 4)), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Charge("orc", "brak", ((2, 4), (3, 4), (4, 4), (5, 4))))
    advance_to(s, 16)
    act(s, oc.Ready("brak", "attack", "attack", "orc"))  # a sword: no double damage
    first = advance_to(s, 34)
    step = act(s, oc.Strike("brak"), 12, 4, 2)
    order = kinds(first) + kinds(step)
    assert order.index("Moved") < order.index("ReadyTriggered") < order.index("Charged")
    assert [e.data["amount"] for e in step.events if e.kind == "DamageRolled"] == [4]


def test_a_missed_attack_on_a_concentrating_caster_still_calls_for_the_check_at_dc_10__OGRE_CONC_1():
    s = start(orc(caster=True, concentration=2), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Cast("orc", "Darkness", 1, category="Long"))
    advance_to(s, 16)
    act(s, oc.Attack("brak", "orc"))
    step = advance_to(s, 26, 1, 7)  # Brak misses; Concentration 7 + 2 = 9 < DC 10
    order = kinds(step)
    assert order.index("AttackMissed") < order.index("CheckMade")
    check = first_event(step, "CheckMade")
    assert check.rule == "OGRE-CONC-1" and "DC 10" in check.text and "attacked" in check.text
    assert first_event(step, "ActionBroken").actor == "orc"


def test_a_missed_attack_the_caster_keeps_its_concentration_through__OGRE_CONC_1():
    s = start(orc(caster=True, concentration=2), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Cast("orc", "Darkness", 1, category="Long"))
    advance_to(s, 16)
    act(s, oc.Attack("brak", "orc"))
    step = advance_to(s, 26, 1, 8)  # 8 + 2 = 10: kept
    assert "kept" in first_event(step, "CheckMade").text and "ActionBroken" not in kinds(step)
    assert fighter(s, "orc").action.label == "Cast Darkness"


def spell_and_attack_at_19():
    s = start(orc(caster=True, concentration=2), pc(), initiative=[4, 1])  # Brak acts at 9, the orc at 14
    advance_to(s, 9)
    act(s, oc.Attack("brak", "orc"))  # Standard: resolves at 19
    advance_to(s, 14)
    act(s, oc.Cast("orc", "Sleep", 1, category="Short"))  # resolves at 19 too
    assert fighter(s, "orc").action.resolves == fighter(s, "brak").action.resolves == 19
    return s


@pytest.mark.parametrize("face, kept", [(12, False), (13, True)])
def test_a_hit_in_the_segment_the_spell_completes_calls_for_the_check_first__OGRE_CONC_1__OGRE_ACT_1(face, kept):
    s = spell_and_attack_at_19()
    step = advance_to(s, 19, 15, 5, face)  # a hit for 5: DC 10 + 5 = 15; the check is 12 (or 13) + 2
    order = kinds(step)
    check = first_event(step, "CheckMade")
    assert "DC 15" in check.text and "5 damage" in check.text and order.count("CheckMade") == 1
    assert order.index("AttackHit") < order.index("CheckMade") < order.index("DamageTaken")
    if kept:
        assert order.index("CheckMade") < order.index("SpellCast")
    else:
        assert "SpellCast" not in order and first_event(step, "ActionBroken").actor == "orc"
    assert s.state.get("orc").hp == 10


def test_a_miss_in_the_segment_the_spell_completes_calls_for_the_same_check_at_dc_10__OGRE_CONC_1():
    s = spell_and_attack_at_19()
    step = advance_to(s, 19, 2, 8)  # a miss; 8 + 2 = 10 vs DC 10: kept
    order = kinds(step)
    assert "DC 10" in first_event(step, "CheckMade").text and order.index("CheckMade") < order.index("SpellCast")


def test_a_triggered_readied_attack_may_be_held_for_a_later_trigger__OGRE_READY_1():
    s = start(orc("shaman", (5, 4), caster=True, concentration=1), pc(), initiative=[8, 8])  # 18, 16
    advance_to(s, 16)
    act(s, oc.Ready("brak", "attack", "cast", "shaman"))
    advance_to(s, 18)
    act(s, oc.Cast("shaman", "Sleep", 1))
    assert [o.command for o in s.options("brak") if o.group == "Ready"] == [oc.Strike("brak"),
                                                                            oc.Strike("brak", False)]
    step = act(s, oc.Strike("brak", False))
    assert "ReadyHeld" in kinds(step) and step.dice == ()
    assert fighter(s, "brak").action.kind == "ready" and fighter(s, "shaman").action.label == "Cast Sleep"


def test_an_attack_of_opportunity_is_asked_with_the_attack_as_the_one_tap_default__OGRE_AOO_2():
    s = orc_attacks_brak_at_14()
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    assert s.state.prompt.kind == "opportunity" and s.current() == ("orc",)
    answers = s.options("orc")
    default = [o for o in answers if o.key == "next"]
    assert len(default) == 1 and default[0].command.use == "pending" and default[0] is answers[0]
    let_go = next(o for o in answers if o.label == "Let it go")
    assert let_go.command == oc.Opportunity("orc", "decline") and "don't have to" in let_go.hint
