"""Time that keeps itself (issue 34): conditions until the start or the end of someone's next turn, durations
typed in minutes and seconds and converted by each system's clock, secret conditions the players never see,
the rules' own timed states with their time left, the header's in-game clock, and conditions the rules act
on (entangled: no movement; "AC +2", "to-hit -1" and the library's named ones in each system's attack)."""
from __future__ import annotations

import pytest
from acting import act
from ogre_support import advance_to, orc, pc, start
from ose_kit import CLAW, fighter, session as ose_session, start as ose_start

from fray.engine import storage
from fray.engine.commands import Reason
from fray.engine.conditions import Mods, modifiers
from fray.engine.referee import SetCondition
from fray.engine.conditions import condition_words, public_conditions
from fray.engine.session import Session
from fray.rules.ogre import RULESET as OGRE, commands as oc
from fray.rules.olog import RULESET as OLOG, Attack, EndTurn, Move, RollInitiative
from fray.rules.olog.examples import two_orcs
from fray.rules.ose import RULESET as OSE, Attack as OseAttack, EndStep, Move as OseMove
from fray.views.table_view import table_view


def follow(s: Session) -> list[str]:
    kinds = []
    while (nxt := s.ruleset.follow_up(s.state)) is not None and len(kinds) < 8:
        kinds += [e.kind for e in s.act(nxt).events]
    return kinds


def olog() -> Session:
    s = Session(two_orcs(1), OLOG)
    act(s, RollInitiative(), 18)
    return s


def end_turn(s: Session) -> list[str]:
    act(s, EndTurn(s.current()[0]))
    return follow(s)


# --- until someone's next turn --------------------------------------------------------------------------

def test_until_the_start_of_a_combatants_next_turn_ends_as_that_turn_begins__CORE_REF_1__OLOG_INIT_4():
    s = olog()
    first = s.current()[0]
    act(s, SetCondition("orc1", "Dazzled", until=f"start:{first}"))
    assert condition_words(OLOG, s.state)["orc1"] == (f"Dazzled · until the start of {s.state.name(first)}'s "
                                                      f"next turn",)
    while s.state.round == 1:
        assert s.state.get("orc1").has_condition("Dazzled"), "not before the turn it waits for"
        kinds = end_turn(s)
    assert s.current() == (first,) and "ConditionEnded" in kinds
    assert not s.state.get("orc1").has_condition("Dazzled") and s.state.timers == ()
    ended = next(e for st in s.steps for e in st.events if e.kind == "ConditionEnded")
    assert ended.text == f"Orc 1 is no longer Dazzled: its time is up (start of {s.state.name(first)}'s turn)"
    s.undo()  # the turn that began it and the end it brought go back together
    assert s.state.get("orc1").has_condition("Dazzled") and s.state.round == 1
    s.redo()
    assert not s.state.get("orc1").has_condition("Dazzled")


def test_until_the_end_of_a_combatants_next_turn_lasts_through_that_turn__CORE_REF_1():
    s = olog()
    first = s.current()[0]
    act(s, SetCondition(first, "Inspired", until=f"end:{first}"))  # set during its own turn: the next one
    while s.state.round == 1:
        end_turn(s)
    assert s.current() == (first,) and s.state.get(first).has_condition("Inspired"), "its next turn: still on"
    kinds = end_turn(s)
    assert "ConditionEnded" in kinds and not s.state.get(first).has_condition("Inspired")


def test_a_turn_timer_survives_a_save__CORE_REF_1():
    s = olog()
    act(s, SetCondition("orc2", "Dazzled", until="end:brak"))
    back = storage.loads(storage.dumps(s)).session
    assert back.state == s.state and back.state.timers == s.state.timers


def test_ose_counts_a_sides_turn_for_until_its_next_turn__CORE_REF_1__OSE_SEQ_1():
    s = ose_session(fighter("ann", "a", (2, 2)), fighter("gob", "b", (8, 2), weapons=(CLAW,), hands=("", "")),
                    profile="loose")
    ose_start(s, 6, 2)  # the Party acts first
    act(s, SetCondition("gob", "Frightened", until="start:ann"))
    kinds: list[str] = []
    for _ in range(12):
        if "ConditionEnded" in kinds:
            break
        actor = s.current()[0] if s.current() else ""
        if actor and s.check(EndStep(actor)) is None:
            act(s, EndStep(actor))
        else:
            from fray.rules.ose import RollInitiative as OseInitiative
            act(s, OseInitiative(), 6, 2)
        kinds += follow(s)
    assert "ConditionEnded" in kinds and s.state.round == 2, "at the Party's turn of round 2"


@pytest.mark.parametrize("until, says", [
    ("start:nobody", "start:<id> or end:<id> of a combatant in the fight"),
    ("later", "start:<id> or end:<id>"),
])
def test_an_until_that_names_nobody_is_refused__CORE_REF_1(until, says):
    s = olog()
    illegal = s.check(SetCondition("orc1", "Dazzled", until=until))
    assert illegal is not None and says in illegal.detail


def test_ogre_has_no_turns_so_until_a_turn_is_refused_with_the_reason__OGRE_SEG_1():
    s = start(orc(), pc(), initiative=[4, 8])
    illegal = s.check(SetCondition("orc", "Dazzled", until="start:brak"))
    assert illegal is not None and "has no turns: a condition lasts segments here" in illegal.detail


def test_a_duration_and_an_until_together_are_refused__CORE_REF_1():
    s = olog()
    illegal = s.check(SetCondition("orc1", "Dazzled", lasts=2, until="start:brak"))
    assert illegal is not None and "not both" in illegal.detail


# --- durations in the system's clock --------------------------------------------------------------------

@pytest.mark.parametrize("ruleset, text, ticks", [
    (OLOG, "3", 3), (OLOG, "3 rounds", 3), (OLOG, "1 round", 3 // 3), (OLOG, "", 0),
    (OSE, "2 min", 12), (OSE, "1 minute", 6), (OSE, "30 s", 3), (OSE, "4 rd", 4),
    (OGRE, "3 s", 6), (OGRE, "1.5 seconds", 3), (OGRE, "1 min", 120), (OGRE, "5 segments", 5), (OGRE, "7", 7),
])
def test_a_typed_duration_becomes_ticks_of_the_systems_clock__CORE_REF_1__OGRE_SEG_1__OSE_TURN_3(
        ruleset, text, ticks):
    state = {"olog": olog, "ose": lambda: ose_session(fighter("ann")), "ogre": lambda: start(orc(), pc())}[
        ruleset.name]().state
    assert ruleset.duration(state, text) == ticks


@pytest.mark.parametrize("ruleset, text, says", [
    (OLOG, "2 min", "gives a round no length in minutes"),
    (OLOG, "10 s", "gives a round no length in seconds: say the duration in rounds"),
    (OSE, "15 s", "not a whole number of rounds"),
    (OGRE, "0.7 s", "not a whole number of segments"),
    (OGRE, "soon", "is not a duration"),
    (OSE, "-2", "is not a duration"),
])
def test_a_duration_that_is_not_one_says_why__CORE_REF_1(ruleset, text, says):
    state = {"olog": olog, "ose": lambda: ose_session(fighter("ann")), "ogre": lambda: start(orc(), pc())}[
        ruleset.name]().state
    with pytest.raises(ValueError, match=says):
        ruleset.duration(state, text)


def test_the_header_clock_says_the_in_game_time_in_each_system__OGRE_SEG_1__OSE_SEQ_1():
    s = olog()
    assert OLOG.clock_label(s.state) == "turn 1 of 3"
    end_turn(s)
    assert OLOG.clock_label(s.state) == "turn 2 of 3"
    o = ose_session(fighter("ann", "a", (2, 2)), fighter("gob", "b", (8, 2)), profile="loose")
    assert OSE.clock_label(o.state) == "0 s"
    g = start(orc(), pc(), initiative=[4, 8])
    advance_to(g, 14)
    assert OGRE.clock_label(g.state) == "", "the status says it: segment 14 (7.0 s)"


# --- secret conditions ----------------------------------------------------------------------------------

def test_a_secret_condition_never_reaches_the_players_display__CORE_REF_1():
    s = olog()
    act(s, SetCondition("orc1", "Cursed", lasts=3, secret=True))
    act(s, SetCondition("orc1", "Stunned", lasts=1))
    assert condition_words(OLOG, s.state)["orc1"] == ("Cursed · 3 rounds left · secret", "Stunned · 1 round left")
    assert public_conditions(OLOG, s.state)["orc1"] == ("Stunned · 1 round left",)
    view = table_view(s.state, s.steps, "bands")
    assert "Cursed" not in repr(view), "not in its order row, not in its log"
    row = next(r for r in view["order"] if r.get("id") == "orc1")
    assert row["conditions"] == ["Stunned · 1 round left"]
    assert s.steps[-2].events[0].secret


def test_removing_a_secret_condition_forgets_its_secret__CORE_REF_1():
    s = olog()
    act(s, SetCondition("orc1", "Cursed", secret=True))
    act(s, SetCondition("orc1", "Cursed", on=False))
    assert s.state.secret == frozenset()


# --- the rules' own timed states ------------------------------------------------------------------------

def test_turned_undead_show_their_time_left_to_the_referee_only__OSE_TURN_3():
    from fray.views.panels import system_view
    from fray.views.models import Badge
    badge = Badge("☀", "turned", left="12 rounds left", left_secret=True)
    assert badge.said == "turned · 12 rounds left"
    s = ose_session(fighter("ann", "a", (2, 2)), fighter("bones", "b", (8, 2), undead=True))
    s.state.board.turned["bones"] = ("ann", 12)  # (a fresh dict per state: this one only)
    s = s  # the view reads the board as it is
    state = s.state.update("bones", conditions=("turned",))
    badges = system_view("ose").panel(state).badges["bones"]
    turned = next(b for b in badges if b.word == "turned")
    assert turned.left == "12 rounds left" and turned.left_secret
    view = table_view(state, (), "grid")
    assert "12 rounds" not in repr(view) and "turned" in repr(view)


def test_ogre_flat_footed_says_its_time_left__OGRE_FF_1__OGRE_SEG_1():
    from fray.views.panels import system_view
    from ogre_support import fighter as ogre_fighter
    s = start(orc(), pc(), initiative=[4, 8])
    ends = ogre_fighter(s, "brak").initiative
    left = ends - s.state.board.segment
    assert left > 1, "flat-footed at the start, until its reaction time"
    badges = system_view("ogre").panel(s.state).badges
    ff = next(b for b in badges["brak"] if b.word == "flat-footed")
    assert ff.left == f"{left} segments ({left / 2:g} s) left"


def test_olog_defending_says_until_its_next_turn__OLOG_DEF_1():
    from fray.rules.olog import Defend
    from fray.views.panels import system_view
    s = olog()
    actor = s.current()[0]
    act(s, Defend(actor, press_on=False))
    badge = next(b for b in system_view("olog").panel(s.state).badges[actor] if b.word.startswith("defending"))
    assert badge.said == "defending +2 · until its next turn"


# --- conditions the rules act on ------------------------------------------------------------------------

def test_the_modifiers_a_condition_carries__CORE_REF_1():
    from fray.engine.model import Combatant
    c = Combatant("x", "X", "a", 5, 5, 10, conditions=("Shield (AC +4)", "Bane: to-hit -1", "blessed", "Exposed"))
    assert modifiers(c) == Mods(ac=4 - 2, to_hit=-1 + 1)
    assert modifiers(Combatant("y", "Y", "a", 5, 5, 10, conditions=("Stunned",))) == Mods()


def test_an_entangled_combatant_may_attack_but_not_move__CORE_REF_1():
    s = olog()
    actor = s.current()[0]
    act(s, SetCondition(actor, "Entangled", lasts=1))
    illegal = s.check(Move(actor, 1))
    assert illegal is not None and illegal.reason == Reason.IMMOBILE
    assert "may act where it stands, not move" in illegal.detail
    moves = [o for o in OLOG.options(s.state, actor) if o.label.startswith("Move")]
    assert moves and not any(o.allowed for o in moves)


def test_an_ose_entangled_fighter_may_not_move__CORE_REF_1():
    s = ose_session(fighter("ann", "a", (2, 2)), fighter("gob", "b", (8, 2)))
    ose_start(s, 6, 2)
    act(s, SetCondition("ann", "Entangled"))
    illegal = s.check(OseMove("ann", ((3, 2),)))
    assert illegal is not None and illegal.reason == Reason.IMMOBILE


def test_olog_a_shielded_target_is_harder_to_hit__CORE_REF_1__OLOG_ATK_1():
    s = olog()
    actor = s.current()[0]
    foe = "orc1" if actor == "brak" else "brak"
    ac = s.state.get(foe).ac
    act(s, SetCondition(foe, "Shielded", lasts=2))  # AC +2
    weapon = s.state.get(actor).weapons[0].name
    to_hit = s.state.get(actor).weapons[0].to_hit
    step = act(s, Attack(actor, foe, weapon, press_on=False), ac - to_hit)  # a hit without the shield
    assert any(e.kind == "AttackMissed" for e in step.events), [e.text for e in step.events]


def test_ose_to_hit_minus_one_is_in_the_roll__CORE_REF_1__OSE_ATK_1():
    s = ose_session(fighter("ann", "a", (2, 2), phys=0), fighter("gob", "b", (3, 2), ac=12))
    ose_start(s, 6, 2)
    while s.state.board.step != 3:  # on to the Melee step
        act(s, EndStep("ann"))
    act(s, SetCondition("ann", "Shaken"))  # to-hit -1
    step = act(s, OseAttack("ann", "gob", "Sword"), 12)  # 12 vs AC 12 would hit
    assert any(e.kind == "AttackMissed" for e in step.events), [e.text for e in step.events]


def test_ogre_a_condition_lowers_a_defense__CORE_REF_1__OGRE_ATK_1():
    from fray.rules.ogre.state import defense
    s = start(orc(), pc(), initiative=[4, 8])
    c = s.state.get("brak")
    act(s, SetCondition("brak", "Exposed"))
    assert defense(s.state.get("brak"), False) == defense(c, False) - 2


# --- save files from before ------------------------------------------------------------------------------

def test_a_file_saved_before_turn_timers_and_secrets_opens_unchanged__CORE_REF_1():
    """tests/unit/fixtures/before-turn-timers: an OLOG fight saved by the app as it was at c36e3c7 (timed
    conditions, an effect, a turn ended), with none of today's fields (until, secret)."""
    import pathlib
    path = pathlib.Path(__file__).parent / "fixtures" / "before-turn-timers" / "olog-timed-conditions.json"
    text = path.read_text(encoding="utf-8")
    assert '"until"' not in text and '"secret": true' not in text
    s = storage.loads(text).session
    assert s.state.timers == (("orc1", "Stunned", 3), ("orc1", "Burning", 2), ("orc2", "Burning", 2))
    assert [c.conditions for c in s.state.combatants] == [(), ("Stunned", "Burning"), ("Burning",)]
    assert s.state.secret == frozenset() and s.state.round == 1
    assert condition_words(OLOG, s.state)["orc1"] == ("Stunned · 2 rounds left", "Burning · 1 round left")


def test_the_referees_own_words_no_actions_and_no_movement_do_what_they_say__CORE_REF_1():
    s = olog()
    actor = s.current()[0]
    act(s, SetCondition(actor, "Webbed (no movement)"))
    assert s.check(Move(actor, 1, press_on=False)).reason == Reason.IMMOBILE
    act(s, SetCondition(actor, "Frozen: no actions", lasts=1))
    illegal = s.check(Attack(actor, "orc1", "Sword", press_on=False))
    assert illegal is not None and illegal.reason == Reason.INCAPACITATED
    assert s.check(EndTurn(actor)) is None, "it may still pass"


@pytest.mark.parametrize("ruleset, word, rule", [
    (OSE, "pinned", "OSE-COND-1"), (OSE, "grappled", "OSE-COND-1"), (OGRE, "prone", "OGRE-LIST-1"),
    (OGRE, "blinded", "OGRE-WD-1"), (OLOG, "asleep", ""),
])
def test_each_system_offers_the_condition_words_its_rules_act_on__OSE_COND_1__OGRE_WD_1(ruleset, word, rule):
    named = {n.word: n for n in ruleset.condition_library()}
    assert word in named and named[word].rule == rule and named[word].does


def test_an_ose_pinned_fighter_set_from_the_library_may_not_act__OSE_COND_1():
    s = ose_session(fighter("ann", "a", (2, 2)), fighter("gob", "b", (3, 2)))
    ose_start(s, 9, 2)
    act(s, SetCondition("ann", "pinned"))
    assert s.check(OseMove("ann", ((2, 3),))) is not None


def test_the_actors_card_says_what_ends_with_its_turn__CORE_REF_1():
    from fray.views.panels import action_menu, system_view
    s = olog()
    first = s.current()[0]
    act(s, SetCondition("orc1", "shaken", until=f"end:{first}"))
    while s.current() != (first,) or s.state.round == 1:
        end_turn(s)
    menu = action_menu(OLOG, s.state, first, system_view("olog").panel(s.state), OLOG.options(s.state, first))
    assert any(h.text == f"Ending with {s.state.name(first)}'s turn: Orc 1 shaken" for h in menu.hints), \
        [h.text for h in menu.hints]
