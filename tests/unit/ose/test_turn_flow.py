"""Turns that can only pass do not wait for a tap (issue 53): an asleep combatant selected does not refuse the
sides' initiative roll, and a side whose movers are all asleep or all engaged does not stop at its MOVE step."""
from __future__ import annotations

from fray.rules.ose import RULESET, Done, EndStep, RollInitiative

from acting import act
from ose_kit import c, fighter, session, start, sys


def test_an_asleep_combatant_selected_still_offers_roll_initiative__OSE_INIT_1():
    s = session(fighter("mira", "a", (1, 1), conditions=("asleep",)), fighter("bob", "a", (1, 2)),
                fighter("gob", "b", (8, 8)))
    [roll] = [o for o in s.options("mira") if isinstance(o.command, RollInitiative)]
    assert roll.allowed, roll.why
    act(s, roll.command, 10, 3)
    assert sys(s).phase != "declare"
    # her own actions stay refused: asleep, she may only pass (CORE-COND-1)
    assert not any(o.allowed for o in s.options("mira") if o.group not in ("Turn", "Referee")
                   and not isinstance(o.command, Done))


def test_a_side_all_asleep_skips_its_move_step__OSE_ORDER_1():
    s = session(fighter("mira", "a", (1, 1), conditions=("asleep",)), fighter("gob", "b", (8, 8)))
    start(s, 10, 3)
    assert s.where()["side"] == "b" and s.current() == ("gob",)


def test_a_side_all_engaged_ends_its_move_step_by_itself_logged__OSE_ORDER_1():
    s = session(fighter("mira", "a", (4, 4)), fighter("bob", "a", (6, 4)), fighter("gob", "b", (5, 4)),
                fighter("orc", "b", (12, 10)))
    start(s, 10, 3)
    assert s.where()["step"] == "move"
    follow = RULESET.follow_up(s.state)  # the page takes it after the tap, chained to it
    assert follow == EndStep(auto=True) and follow.chained()
    step = act(s, follow)
    assert s.where()["side"] == "a" and s.where()["step"] == "melee"
    assert any(e.kind == "StepSkipped" and "MOVE step ended, everyone is engaged" in e.text for e in step.events)
    s.undo()  # one undo takes back the roll and the step's end it led to
    assert sys(s).phase == "declare"


def test_one_free_mover_keeps_the_move_step__OSE_ORDER_1():
    s = session(fighter("mira", "a", (4, 4)), fighter("bob", "a", (1, 10)), fighter("gob", "b", (5, 4)))
    start(s, 10, 3)
    assert s.where()["step"] == "move" and set(s.current()) == {"mira", "bob"}
    assert RULESET.follow_up(s.state) is None
    assert c(s, "mira").square == (4, 4)
