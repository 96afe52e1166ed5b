"""CORE-TIME-1 (issue 52): one clock per system. A minute typed as minutes or as seconds lasts the same
number of rounds under any round length, and "until Ann's next turn" in OSE detailed combat is her side's
whole turn of four steps ("until her next step" the finer choice); files written before open unchanged."""
from __future__ import annotations

import pytest
from acting import act
from ogre_support import orc, pc, start
from ose_kit import fighter, session as ose_session, start as ose_start

from fray.engine import storage
from fray.engine.referee import SetCondition
from fray.engine.conditions import condition_words
from fray.engine.session import Session
from fray.rules.ogre import RULESET as OGRE
from fray.rules.ose import RULESET as OSE, EndStep
from fray.views.quick_condition import duration_choices


def follow(s: Session) -> None:
    while (nxt := s.ruleset.follow_up(s.state)) is not None:
        s.act(nxt)


def end_step(s: Session) -> None:
    act(s, EndStep(s.current()[0]))
    follow(s)


def where(s: Session) -> tuple[int, str, int]:
    b = s.state.board
    return s.state.round, b.order[b.turn] if b.phase == "act" and b.turn < len(b.order) else "", b.step


# --- the same minute typed two ways -------------------------------------------------------------------

@pytest.mark.parametrize("per_minute, ticks", [(6, 6), (10, 10), (12, 12)])
def test_a_minute_typed_as_seconds_lasts_as_long_as_one_typed_as_minutes__CORE_TIME_1(per_minute, ticks):
    state = ose_session(fighter("ann"), settings={"rounds_per_minute": per_minute}).state
    assert OSE.duration(state, "1 min") == OSE.duration(state, "60 s") == ticks
    assert OSE.duration(state, "2 min") == OSE.duration(state, "120 seconds") == 2 * ticks


def test_seconds_go_through_the_rounds_length_and_say_it_when_they_do_not_fit__CORE_TIME_1():
    state = ose_session(fighter("ann"), settings={"rounds_per_minute": 10}).state
    assert OSE.duration(state, "30 s") == 5
    with pytest.raises(ValueError, match=r"not a whole number of rounds \(6 s each\)"):
        OSE.duration(state, "10 s")


def test_ogre_segments_read_a_minute_both_ways_alike__CORE_TIME_1():
    state = start(orc(), pc()).state
    assert OGRE.duration(state, "1 min") == OGRE.duration(state, "60 s") == 120


def test_the_header_clock_counts_the_rounds_length_of_the_setting__CORE_TIME_1():
    s = ose_session(fighter("ann", "a", (2, 2)), fighter("gob", "b", (12, 2)), profile="loose",
                    settings={"rounds_per_minute": 10})
    s = Session(s.encounter, OSE)
    from dataclasses import replace
    assert OSE.clock.label(replace(s.state, round=3)) == "12 s"


# --- a turn in OSE detailed combat is the side's whole turn --------------------------------------------

def detailed() -> Session:
    s = ose_session(fighter("ann", "a", (2, 2)), fighter("gob", "b", (3, 2)))
    ose_start(s, 9, 2)  # the Party acts first (MOVE, MELEE: nobody shoots or casts), then the Goblins
    assert where(s) == (1, "a", 0)
    return s


def test_until_the_start_of_anns_next_turn_lasts_through_her_sides_steps_and_the_foes_turn__CORE_TIME_1__OSE_ORDER_1():
    s = detailed()
    act(s, SetCondition("ann", "AC +2", until="start:ann"))  # set in her side's MOVE step
    assert condition_words(OSE, s.state)["ann"] == ("AC +2 · until the start of Ann's next turn",)
    seen = []
    while s.state.round == 1:
        seen.append((where(s), s.state.get("ann").has_condition("AC +2")))
        end_step(s)
    assert [w for w, on in seen if not on] == [], seen
    assert any(w[1] == "b" and w[2] == 3 for w, _ in seen), "the goblins' MELEE step came while it lasted"
    ose_start(s, 9, 2)
    follow(s)  # her side's MOVE step ends by itself, everyone engaged (OSE-ORDER-1)
    assert where(s) == (2, "a", 3)
    assert not s.state.get("ann").has_condition("AC +2"), "her side's next turn has begun"


def test_until_the_end_of_a_sides_next_turn_lasts_until_its_melee_is_over__CORE_TIME_1__OSE_SEQ_1():
    s = detailed()
    act(s, SetCondition("gob", "Blessed", until="end:gob"))  # the goblins' next turn: later this round
    while where(s)[1] == "a":
        end_step(s)
    # the goblins' MOVE step ended by itself (everyone engaged, OSE-ORDER-1): the bless holds to their MELEE
    assert where(s) == (1, "b", 3) and s.state.get("gob").has_condition("Blessed")
    end_step(s)
    assert not s.state.get("gob").has_condition("Blessed"), "its side's turn is over"


def test_until_the_next_step_is_the_finer_choice_of_detailed_combat__CORE_TIME_1__OSE_ORDER_1():
    s = detailed()
    labels = dict(duration_choices(OSE, s.state))
    assert labels["start:ann"] == "until the start of Ann's next turn"
    assert labels["start-step:ann"] == "until the start of Ann's next step"
    act(s, SetCondition("gob", "shaken", until="start-step:ann"))
    assert condition_words(OSE, s.state)["gob"] == ("shaken · until the start of Ann's next step",)
    end_step(s)  # on to the next step (MELEE)
    assert not s.state.get("gob").has_condition("shaken")
    ended = next(e for st in s.steps for e in st.events if e.kind == "ConditionEnded")
    assert ended.text == "Gob is no longer shaken: its time is up (start of Ann's step)"


def test_loose_combat_offers_no_step__CORE_TIME_1():
    s = ose_session(fighter("ann", "a", (2, 2)), fighter("gob", "b", (12, 2)), profile="loose")
    ose_start(s, 9, 2)
    assert not any(v.startswith("start-step:") for v, _ in duration_choices(OSE, s.state))
    illegal = s.check(SetCondition("gob", "shaken", until="start-step:ann"))
    assert illegal is not None and "turns have no steps here" in illegal.detail


def test_a_file_written_when_a_turn_was_a_step_opens_unchanged__CORE_TIME_1():
    s = detailed()
    act(s, SetCondition("gob", "shaken", until="start-step:ann"))
    end_step(s)  # the end is recorded at the MISSILE step, as files of before recorded "start:ann"
    doc = storage.dump(s)
    old = {**doc, "steps": [{**st, "command": {**st["command"], "until": "start:ann"}}
                            if st["command"].get("until") else st for st in doc["steps"]]}
    assert any(st["command"].get("until") == "start:ann" for st in old["steps"])
    loaded = storage.load(old).session
    assert [st.events for st in loaded.steps] == [st.events for st in s.steps]


def test_a_file_written_now_keeps_its_whole_turn_when_opened__CORE_TIME_1():
    s = detailed()
    act(s, SetCondition("ann", "AC +2", until="start:ann"))
    end_step(s)
    loaded = storage.load(storage.dump(s)).session
    assert loaded.state.timers == s.state.timers and loaded.state.get("ann").has_condition("AC +2")
    assert OSE.follow_up(loaded.state) is None


# --- docs/API.md and the code agree (issue 52, point 10) ---------------------------------------------

def test_the_referee_commands_docs_api_lists_import_from_where_they_live__CORE_REF_1():
    import re
    from pathlib import Path
    import fray.engine.referee as referee
    api = (Path(__file__).parents[2] / "docs" / "API.md").read_text(encoding="utf-8")
    section = api.split("### `fray.engine.ruleset`")[1].split("\n### ")[0]
    for name in ("Effect", "SetCondition", "Expire", "Allow"):
        assert f"`{name}(" in section and hasattr(referee, name), name
    assert "ValueError" in api and "rounds_per_minute" in api
    for key in re.findall(r'`"(\w+)"`', api.split("`fray odds --json` writes")[1].split("\n\n")[0]):
        assert key in ("outcomes", "dealt", "taken", "down", "hp_after", "rolls", "exact", "samples",
                       "branches", "note", "value", "p", "float"), key


def test_olog_refuses_seconds_and_minutes_alike_and_says_its_only_unit__CORE_TIME_1():
    from olog_support import foe, hero, started
    from fray.rules.olog import RULESET as OLOG
    state = started(hero(), foe("orc1"), faces=(15,)).state
    for text in ("10 s", "1 min"):
        with pytest.raises(ValueError, match="say the duration in rounds"):
            OLOG.duration(state, text)
    with pytest.raises(ValueError) as bad:
        OLOG.duration(state, "3 hours")
    assert str(bad.value).endswith(": rounds") and "minutes" not in str(bad.value)


# --- odds that say what will happen (issue 52, point 9) ------------------------------------------------

def test_roll_initiative_shows_no_raw_die_in_any_system__CORE_ODDS_1():
    from ogre_support import encounter as ogre_encounter
    from fray.rules.olog import RULESET as OLOG
    from fray.rules.olog.examples import two_orcs
    from fray.views.odds import of_option
    fights = [Session(two_orcs(1), OLOG), ose_session(fighter("ann", "a", (2, 2)), fighter("gob", "b", (5, 5))),
              Session(ogre_encounter(orc(), pc()), OGRE)]
    for s in fights:
        who = s.current()[0]
        i, roll = next((i, o) for i, o in enumerate(s.options(who)) if o.label == "Roll initiative")
        shown = of_option(s.ruleset, s.state, i, roll)
        assert shown.odds is not None and shown.figure == "", (s.ruleset.name, shown.figure)
