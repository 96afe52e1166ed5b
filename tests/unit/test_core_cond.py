"""CORE-COND-1 (issue 52): a combatant that can take no action (asleep, held, helpless, paralysed, unconscious,
the referee's "no actions") counts as down for everyone else: it puts nobody under pressure (OLOG), threatens no
square and makes no attack of opportunity (OSE, Ogre), on the grid and its path preview as in the rules."""
from __future__ import annotations

import pytest
from acting import act
from ogre_support import advance_to, orc, pc, start as ogre_start
from olog_support import foe, hero, started
from ose_kit import c, fighter, session as ose_session, start as ose_start

from fray.engine.conditions import can_act
from fray.engine.referee import SetCondition
from fray.rules.ogre import commands as oc
from fray.rules.ogre.movement import aoo_eligible
from fray.rules.olog.pressure import pressure_on
from fray.rules.ose import RULESET as OSE, Move
from fray.rules.ose.bodies import bodies as ose_bodies
from fray.views.grid import grid_model
from fray.views.grid_path import PreviewRequest

CANNOT = ("asleep", "held", "helpless", "paralysed", "unconscious", "Frozen (no actions)")


@pytest.mark.parametrize("word", CANNOT)
def test_a_condition_that_allows_no_action_is_one_answer_to_can_it_act__CORE_COND_1(word):
    assert not can_act(fighter("gob", conditions=(word,)))
    assert can_act(fighter("gob", conditions=("prone", "shaken")))


# --- OLOG: pressure from a hostile creature *that can act* -----------------------------------------------

@pytest.mark.parametrize("word", CANNOT)
def test_an_asleep_orc_puts_nobody_under_pressure__CORE_COND_1__OLOG_PRES_1(word):
    s = started(hero(), foe("orc1", "Orc 1"), foe("orc2", "Orc 2"), faces=(15,))
    before = pressure_on(s.state, "brak")
    assert before.who() == "Orc 1, Orc 2" and before.minimum == 2
    act(s, SetCondition("orc1", word))
    p = pressure_on(s.state, "brak")
    assert p.who() == "Orc 2" and p.minimum == 1 and p.cost() == "d4 (min 1)", p.sentence()
    act(s, SetCondition("orc2", "asleep"))
    assert not pressure_on(s.state, "brak").is_under


# --- OSE: threat and the attack of opportunity ------------------------------------------------------------

@pytest.mark.parametrize("word", CANNOT)
def test_an_asleep_goblin_is_not_asked_for_an_attack_of_opportunity__CORE_COND_1__OSE_AOO_1(word):
    s = ose_session(fighter("ann", "a", (5, 5), hp=20), fighter("gob", "b", (6, 5), conditions=(word,)))
    ose_start(s, 9, 2)
    step = act(s, Move("ann", ((5, 5), (4, 5), (3, 5))))
    assert s.state.prompt is None and c(s, "ann").square == (3, 5), [e.text for e in step.events]
    gob = next(b for b in ose_bodies(s.state) if b.id == "gob")
    assert not gob.threatens


def test_the_grid_shows_no_threat_of_an_asleep_goblin_and_its_preview_no_attack__CORE_COND_1__OSE_AOO_1():
    req = PreviewRequest("ann", ((3, 5),))
    for word, threat in (("", True), ("asleep", False)):
        s = ose_session(fighter("ann", "a", (5, 5), hp=20),
                        fighter("gob", "b", (6, 5), conditions=(word,) if word else ()))
        ose_start(s, 9, 2)
        assert bool(grid_model(s.state, OSE, selected="gob").threatened) is threat, word
        model = grid_model(s.state, OSE, selected="ann", current=s.current(), preview=req)
        assert bool(model.path.provocations) is threat and bool(model.enemy_threat) is threat, word


# --- Ogre: no reaction of one that cannot act ---------------------------------------------------------------

@pytest.mark.parametrize("word", CANNOT)
def test_an_asleep_orc_is_not_offered_an_attack_of_opportunity__CORE_COND_1__OGRE_AOO_1(word):
    s = ogre_start(orc(), pc(), orc("orc2", (5, 5)), initiative=[4, 8, 4])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    act(s, oc.Delay("orc2"))  # not flat-footed any more, with nothing under way
    act(s, SetCondition("orc2", word))
    advance_to(s, 16)
    assert aoo_eligible(s.state, "orc", "brak", (6, 4)) and not aoo_eligible(s.state, "orc2", "brak", (6, 4))
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    asked = []
    while s.state.prompt is not None and s.state.prompt.kind == "opportunity" and len(asked) < 4:
        asked.append(s.state.prompt.actor)
        act(s, oc.Opportunity(asked[-1], "decline"))
    assert asked == ["orc"]
