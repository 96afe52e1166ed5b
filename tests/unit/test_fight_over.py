"""The fight is over when it is over (issue 52, all systems): once one side stands alone nothing is asked of
anyone: nobody acts, declares or reacts; the referee can still undo, or go on by an override (CORE-REF-1). A
side's name takes the verb as written: "Party stands alone", "Orcs stand alone"."""
from __future__ import annotations

import pytest
from acting import act
from ogre_support import advance_to, orc, pc, start
from olog_support import foe, hero, started

from fray.engine.commands import Reason
from fray.engine.referee import Allow, SetHp
from fray.engine.ruleset import side_says
from fray.rules.ogre import commands as oc


def over_in_ogre():
    s = start(orc(), pc(), orc("orc4", (5, 5)), initiative=[4, 8, 4])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    act(s, SetHp("brak", 0))
    return s


def test_ogre_asks_nobody_to_declare_or_react_once_one_side_stands_alone__CORE_REF_1__OGRE_ACT_1():
    s = over_in_ogre()
    assert s.state.outcome == "Orcs stand alone"
    assert s.current() == ()
    for who in ("orc", "orc4"):
        offered = [o for o in s.options(who) if o.allowed and o.group != "Referee"]
        assert offered == [], [o.label for o in offered]
        assert s.check(oc.React(who, "Quick")).reason == Reason.FIGHT_OVER
    assert s.check(oc.Advance()).reason == Reason.FIGHT_OVER
    assert s.ruleset.follow_up(s.state) is None, "the count does not go on by itself"


def test_the_referee_can_undo_or_go_on_by_an_override_after_the_fight__CORE_REF_1():
    s = over_in_ogre()
    assert s.check(Allow(oc.React("orc4", "Quick"))) is None
    act(s, Allow(oc.React("orc4", "Quick")))
    s.undo()
    s.undo()
    assert not s.state.outcome and s.current()


def test_olog_asks_nobody_once_the_foes_stand_alone__CORE_REF_1():
    s = started(hero(band=2), foe("orc1", band=2), foe("orc2", band=2), faces=(15,))
    act(s, SetHp("brak", 0))
    assert s.state.outcome == "Foes win" and s.current() == ()
    assert s.check(__import__("fray.rules.olog", fromlist=["EndTurn"]).EndTurn("orc1")).reason == Reason.FIGHT_OVER


@pytest.mark.parametrize("name, said", [
    ("Party", "Party stands alone"), ("Foes", "Foes stand alone"), ("Orcs", "Orcs stand alone"),
    ("The Goblin Horde", "The Goblin Horde stands alone"), ("Crypt of Ages", "Crypt of Ages stands alone"),
    ("Thieves' Guild", "Thieves' Guild stands alone"), ("Nemesis", "Nemesis stands alone"), ("Boss", "Boss stands alone"),
])
def test_a_sides_name_takes_the_verb_as_written__CORE_SIDE_1(name, said):
    assert side_says(name, "stands alone", "stand alone") == said
