"""The count goes on by itself (issue 38, OGRE-SEG-1): after the segment's last declaration, with nothing
asked and nobody on an open delay, the rules' follow-up is the Advance the referee used to tap, taken as a
step chained to the declaration: one undo takes both back, one redo brings both back with their faces."""
from __future__ import annotations

from acting import act, first_event, kinds
from ogre_support import advance_to, orc, pc, start

from fray.engine.session import Session
from fray.rules.ogre import RULESET
from fray.rules.ogre import commands as oc
from fray.rules.ogre.examples import examples
from fray.views.panels import last_result


def test_after_the_last_declaration_of_a_segment_the_count_goes_on_to_the_next_event__OGRE_SEG_1():
    s = start(orc(), pc(), initiative=[4, 8])
    assert RULESET.follow_up(s.state) == oc.Advance(auto=True), "segment 0: nobody declares, on to 14"
    advance_to(s, 14)
    assert RULESET.follow_up(s.state) is None, "the orc must declare first (OGRE-ACT-1)"
    act(s, oc.Attack("orc", "brak"))
    nxt = RULESET.follow_up(s.state)
    assert nxt == oc.Advance(auto=True) and nxt.chained()
    act(s, nxt)
    assert s.state.board.segment == 16 and s.current() == ("brak",), "the next event: Brak declares"


def test_the_count_waits_for_the_referee_when_the_setting_is_off_or_someone_delays_at_will__OGRE_DELAY_1():
    s = start(orc(), pc(), initiative=[4, 8], count_on=False)
    assert RULESET.follow_up(s.state) is None, "off: the referee taps Advance"
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc", None))
    assert fighter_delaying(s, "orc")
    assert RULESET.follow_up(s.state) is None, "the orc may declare at any segment: every segment is a stop"


def fighter_delaying(s: Session, cid: str) -> bool:
    return s.state.board.fighter(cid).delaying


def both_declared_and_counted_to_24() -> Session:
    """The text's example as the page plays it: each declaration followed by the count going on by itself,
    to 24, where the orc's attack hits Brak for 5."""
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    act(s, oc.Advance(auto=True))
    act(s, oc.Attack("brak", "orc"))
    act(s, oc.Advance(auto=True), 15, 5)
    return s


def test_one_undo_takes_back_the_declaration_and_the_count_it_moved_on_one_redo_brings_both__OGRE_SEG_1():
    s = both_declared_and_counted_to_24()
    assert s.state.board.segment == 24 and s.state.get("brak").hp == 15
    n = len(s.steps)
    s.undo()
    assert len(s.steps) == n - 2 and s.state.board.segment == 16 and s.current() == ("brak",), \
        "Brak's declaration and the count it moved on went back together"
    assert s.state.get("brak").hp == 20
    s.redo()
    assert len(s.steps) == n and s.state.board.segment == 24 and s.state.get("brak").hp == 15, \
        "both came back, with the same faces"


def test_the_result_card_shows_the_declaration_and_what_the_count_brought_together__OGRE_ACT_1():
    s = both_declared_and_counted_to_24()
    kinds_shown = [line.kind for line in last_result(s).lines]
    assert "ActionDeclared" in kinds_shown and "SegmentReached" in kinds_shown and "AttackHit" in kinds_shown
    assert [h.name for h in last_result(s).hp] == ["Brak"]


def test_an_old_save_with_the_referees_own_advance_steps_replays_the_same__OGRE_SEG_1():
    enc = examples()["orc_and_pc"](1)
    s = Session(enc, RULESET)
    act(s, oc.RollInitiative(), 4, 8)
    act(s, oc.Advance())
    act(s, oc.Attack("orc", "brak"))
    act(s, oc.Advance())
    recorded = [(step.command, step.dice) for step in s.steps]
    again = Session.replay(enc, recorded, ruleset=RULESET)
    assert again.state == s.state and not any(step.command.chained() for step in again.steps)
    assert kinds(again.steps[-1]) == kinds(s.steps[-1])
    assert first_event(again.steps[-1], "SegmentReached").data["segment"] == 16
