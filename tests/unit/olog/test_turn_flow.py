"""Turns that can only end do not wait for a tap (issue 53, stop 3): the turn of a combatant that may only pass
ends by itself, logged, and an attack offers "…, then end turn" in the same tap; one undo takes either back."""
from __future__ import annotations

from dataclasses import replace

from fray.engine.model import Weapon
from fray.engine.referee import SetCondition
from fray.engine.session import Session
from fray.rules.olog import RULESET, Attack, EndTurn, Move

from acting import act
from olog_support import foe, hero, started, system


def _tap(s: Session, cmd, *faces: int) -> None:
    """What the page does for one tap: the command, then the steps the rules take by themselves after it."""
    act(s, cmd, *faces)
    for _ in range(4):
        nxt = RULESET.follow_up(s.state)
        if nxt is None or s.check(nxt) is not None:
            return
        s.act(nxt)


def test_an_asleep_combatants_turn_passes_by_itself_and_is_logged__OLOG_ACT_1():
    s = started(hero(band=0), foe("orc1", band=5), hero("mira", "Mira", band=0), faces=(15, 5))
    assert system(s).actor == "brak"
    before = len(s.steps)
    _tap(s, SetCondition("mira", "asleep"))
    _tap(s, EndTurn("brak"))
    # Mira (count 5+2) comes after the orc (11): the orc acts, then Mira, asleep, passes by itself
    assert system(s).actor == "orc1"
    _tap(s, EndTurn("orc1"))
    assert system(s).actor == "brak" and s.state.round == 2
    passed = [e for e in s.steps[-1].events if e.kind == "TurnEnded"]
    assert passed and "Mira is asleep: no action but to pass" in passed[0].text
    assert s.steps[-1].command == EndTurn("mira", auto=True)
    s.undo()  # one undo takes back the orc's End turn and the pass it led to
    assert system(s).actor == "orc1" and len(s.steps) == before + 2


def test_a_turn_with_actions_left_does_not_end_by_itself__OLOG_ACT_1():
    s = started(hero(band=0), foe("orc1", band=5), faces=(15,))
    _tap(s, Move("brak", 1))
    assert system(s).actor == "brak" and system(s).actions_left == 1


def test_under_pressure_the_attacks_tap_already_ends_the_turn_so_no_then_end__OLOG_PRES_2():
    s = started(hero(band=2), foe("orc1", band=2, hp=30), faces=(15,))
    opt = next(o for o in s.options("brak") if isinstance(o.command, Attack))
    assert [c.values for c in opt.choices] == [{"press_on": True}, {"press_on": False}] and opt.default == 1


def test_attack_offers_then_end_turn_beside_it__OLOG_ACT_1():
    bow = Weapon("Bow", "1d6", kind="bow", item="Bow")
    s = started(hero(band=0, weapons=(bow,), hands=("Bow", "")), foe("orc1", band=3, hp=30), faces=(15,))
    [opt] = [o for o in s.options("brak") if isinstance(o.command, Attack)]
    assert opt.allowed and opt.default == 0 and [c.label for c in opt.choices] == ["Attack", "+ End turn"]
    cmd = replace(opt.command, **opt.choices[1].values)
    assert cmd.label() == "Attack orc1 with Bow, then end turn"
    before = len(s.steps)
    _tap(s, cmd, 2)  # a miss
    assert system(s).actor == "orc1"
    assert [e.kind for e in s.steps[-1].events][-2:] == ["TurnEnded", "TurnStarted"]
    s.undo()
    assert len(s.steps) == before and system(s).actor == "brak" and system(s).actions_left == 2
    # the turn's second action ends it anyway: no "then end turn" beside it
    _tap(s, Move("brak", 1))
    assert all(not o.choices for o in s.options("brak") if isinstance(o.command, Attack))
