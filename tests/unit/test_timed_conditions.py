"""Timed conditions (issue 34, first part; CORE-REF-1: the referee's condition): a condition set for N
ticks of the system's clock (OLOG and OSE rounds, Ogre segments) ends by itself at that tick, as a logged
step chained to the step that brought the clock there: one undo takes both back, a save keeps the time
left, and the badges say it."""
from __future__ import annotations

import pytest
from acting import act
from ogre_support import advance_to, orc, pc, start

from fray.engine import storage
from fray.engine.referee import Expire, SetCondition
from fray.engine.session import Session
from fray.rules.olog import RULESET as OLOG, EndTurn, RollInitiative
from fray.rules.olog.examples import two_orcs
from fray.rules.ogre import RULESET as OGRE, commands as oc
from fray.engine.conditions import condition_words
from fray.views.table_view import table_view


def with_follow_ups(s: Session, cmd, *faces: int) -> list[str]:
    """Apply `cmd` as the page does, then the steps the rules take by themselves; their event kinds."""
    act(s, cmd, *faces)
    kinds = []
    while (nxt := s.ruleset.follow_up(s.state)) is not None and len(kinds) < 8:
        step = s.act(nxt)
        kinds += [e.kind for e in step.events]
    return kinds


def olog_started() -> Session:
    s = Session(two_orcs(1), OLOG)
    act(s, RollInitiative(), 18)
    return s


def end_turns_until_round(s: Session, rnd: int) -> list[str]:
    kinds: list[str] = []
    while s.state.round < rnd:
        kinds += with_follow_ups(s, EndTurn(s.current()[0]))
    return kinds


def test_a_condition_for_one_round_ends_when_the_next_round_begins__CORE_REF_1():
    s = olog_started()
    act(s, SetCondition("orc1", "Stunned", lasts=1))
    assert "Orc 1 is now Stunned for 1 round" in s.steps[-1].events[0].text
    assert condition_words(OLOG, s.state)["orc1"] == ("Stunned · 1 round left",)
    assert OLOG.follow_up(s.state) is None, "round 1: not yet"
    kinds = end_turns_until_round(s, 2)
    assert "ConditionEnded" in kinds and not s.state.get("orc1").has_condition("Stunned")
    assert s.state.timers == ()
    ended = [e for st in s.steps for e in st.events if e.kind == "ConditionEnded"]
    assert ended[0].text == "Orc 1 is no longer Stunned: its time is up (round 2)"
    assert isinstance(s.steps[-1].command, Expire) and s.steps[-1].command.chained()


def test_one_undo_takes_back_the_expiry_with_the_step_that_brought_the_round__CORE_REF_1():
    s = olog_started()
    act(s, SetCondition("orc1", "Stunned", lasts=1))
    end_turns_until_round(s, 2)
    s.undo()
    assert s.state.round == 1 and s.state.get("orc1").has_condition("Stunned")
    assert s.state.timers == (("orc1", "Stunned", 2),)
    s.redo()
    assert s.state.round == 2 and not s.state.get("orc1").has_condition("Stunned")


def test_a_save_mid_condition_keeps_its_time_left__CORE_REF_1():
    s = olog_started()
    act(s, SetCondition("brak", "Blessed", lasts=3))
    back = storage.loads(storage.dumps(s)).session
    assert back.state == s.state and back.state.timers == (("brak", "Blessed", 4),)
    assert condition_words(OLOG, back.state)["brak"] == ("Blessed · 3 rounds left",)


def test_setting_it_again_restarts_its_time_and_removing_it_stops_the_clock__CORE_REF_1():
    s = olog_started()
    act(s, SetCondition("brak", "Blessed", lasts=3))
    act(s, SetCondition("brak", "Blessed", lasts=1))
    assert s.state.timers == (("brak", "Blessed", 2),)
    act(s, SetCondition("brak", "Blessed", on=False))
    assert s.state.timers == () and OLOG.follow_up(s.state) is None


@pytest.mark.parametrize("lasts", [-1, 10_001, True])
def test_a_duration_that_makes_no_sense_is_refused_and_changes_nothing__CORE_REF_1(lasts):
    s = olog_started()
    before = s.state
    illegal = s.check(SetCondition("brak", "Blessed", lasts=lasts))
    assert illegal is not None and "a duration is a whole number of rounds" in illegal.detail
    assert s.state is before


def test_ogre_counts_a_condition_in_segments_and_the_count_stops_where_it_ends__OGRE_SEG_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, SetCondition("brak", "Dazzled", lasts=1))  # ends at segment 15, before Brak declares at 16
    assert "for 1 segment (0.5 s)" in s.steps[-1].events[0].text
    assert condition_words(OGRE, s.state)["brak"] == ("Dazzled · 1 segment (0.5 s) left",)
    act(s, oc.Attack("orc", "brak"))
    kinds = with_follow_ups(s, oc.Advance())
    assert s.state.board.segment == 16, "on to Brak's declaration, after the condition ended"
    assert "ConditionEnded" in kinds and not s.state.get("brak").has_condition("Dazzled")
    ended = next(e for st in s.steps for e in st.events if e.kind == "ConditionEnded")
    assert ended.text == "Brak is no longer Dazzled: its time is up (segment 15)"


def test_the_players_see_a_public_condition_with_its_time_left__CORE_REF_1():
    s = olog_started()
    act(s, SetCondition("orc1", "Stunned", lasts=2))
    view = table_view(s.state, s.steps, "bands")
    row = next(r for r in view["order"] if r.get("id") == "orc1")
    assert row["conditions"] == ["Stunned · 2 rounds left"]


def test_the_actors_card_says_what_ends_at_the_next_tick__CORE_REF_1():
    from fray.views.panels import action_menu, system_view
    s = olog_started()
    act(s, SetCondition("orc1", "Stunned", lasts=1))
    act(s, SetCondition("orc2", "Blessed", lasts=3))
    actor = s.current()[0]
    menu = action_menu(OLOG, s.state, actor, system_view("olog").panel(s.state), OLOG.options(s.state, actor))
    assert any(h.text == "Ending at round 2: Orc 1 Stunned" for h in menu.hints), [h.text for h in menu.hints]
    assert not any("Blessed" in h.text for h in menu.hints), "not yet: two more rounds"


def test_an_asleep_combatant_is_offered_nothing_but_to_pass_and_the_referee_can_still_allow__CORE_REF_1():
    from fray.engine.commands import Reason
    from fray.engine.referee import Allow
    from fray.rules.olog import Attack
    s = olog_started()
    actor = s.current()[0]
    act(s, SetCondition(actor, "asleep", lasts=1))
    attack = Attack(actor, "orc1", "Sword", press_on=False)
    illegal = s.check(attack)
    assert illegal is not None and illegal.reason == Reason.INCAPACITATED
    assert illegal.detail == "Brak is asleep: no action but to pass while it lasts"
    offered = {o.label: o for o in OLOG.options(s.state, actor)}
    assert offered["End turn"].allowed
    assert not any(o.allowed for label, o in offered.items() if label.startswith("Attack"))
    assert s.check(Allow(attack)) is None, "the referee's Allow overrides (CORE-REF-1)"


def test_an_ogre_fighter_held_may_only_delay__OGRE_DELAY_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, SetCondition("orc", "Held"))
    assert s.check(oc.Attack("orc", "brak")).detail == "Orc is Held: no action but to pass while it lasts"
    assert s.check(oc.Delay("orc", None)) is None


def test_one_effect_damages_several_targets_with_one_roll_and_sets_a_timed_condition__CORE_REF_1():
    from fray.engine.referee import Effect
    s = olog_started()
    step = act(s, Effect(("orc1", "orc2"), "2d6", condition="Burning", lasts=2, note="Fireball"), 1, 2)
    assert s.state.get("orc1").hp == 3 and s.state.get("orc2").hp == 3, "3 damage each, one roll for both"
    texts = [e.text for e in step.events]
    assert texts[0] == "Fireball on Orc 1, Orc 2"
    assert "Orc 1 takes 3 damage (Fireball: 2d6 [1, 2] = 3; 3/6 HP)" in texts
    assert s.state.timers == (("orc1", "Burning", 3), ("orc2", "Burning", 3))
    back = storage.loads(storage.dumps(s)).session
    assert back.state == s.state, "saved and replayed with its faces"


def test_an_effect_rolled_for_each_target_heals_each_its_own__CORE_REF_1():
    from fray.engine.referee import Damage, Effect
    s = olog_started()
    act(s, Damage("orc1", 5))
    act(s, Damage("orc2", 5))
    act(s, Effect(("orc1", "orc2"), "1d4", each=True, heal=True, note="Potion"), 1, 4)
    assert s.state.get("orc1").hp == 2 and s.state.get("orc2").hp == 5


@pytest.mark.parametrize("effect, says", [
    (dict(targets=()), "at least one target"),
    (dict(targets=("orc1", "nobody"), dice="1d6"), "There is no combatant 'nobody'"),
    (dict(targets=("orc1",)), "deals damage or healing, or sets a condition"),
    (dict(targets=("orc1",), dice="2x6"), '"2x6" is not dice notation'),
    (dict(targets=("orc1", "orc1"), dice="1d6"), "different targets"),
    (dict(targets=("orc1",), condition="Slowed", lasts=-2), "a duration is a whole number of rounds"),
])
def test_an_effect_that_makes_no_sense_is_refused_with_a_message__CORE_REF_1(effect, says):
    from fray.engine.referee import Effect
    s = olog_started()
    illegal = s.check(Effect(**effect))
    assert illegal is not None and says in illegal.detail, illegal


def test_an_ogre_fighters_card_says_what_ends_before_the_count_stops_again__OGRE_SEG_1():
    from fray.views.panels import action_menu, system_view
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))  # resolves at 24
    advance_to(s, 16)
    act(s, SetCondition("orc", "Dazzled", lasts=8))  # ends at 24: the count's next stop, 8 segments on
    menu = action_menu(OGRE, s.state, "brak", system_view("ogre").panel(s.state), OGRE.options(s.state, "brak"))
    assert any(h.text == "Ending at segment 24: Orc Dazzled" for h in menu.hints), [h.text for h in menu.hints]
