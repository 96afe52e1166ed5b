"""Odds resolved in pieces (engine/odds_steps.py, CORE-ODDS-1): the same odds as resolving every branch whole.

A system that cuts its consequence into pieces (Ogre: one item of the
segment's work at a time) has each piece resolved once per state it starts
from; equal states reached by other faces go on as one. Nothing about the
answer may change: not the chances, not the count of branches, not where a
budget turns enumeration into a sample.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from fray.engine.dice import ScriptedDice
from fray.engine.odds import Budget, Odds, OddsError, Working, odds
from fray.engine.odds_steps import same
from fray.engine.state import Prompt
from fray.engine.model import Weapon
from fray.rules import examples
from fray.rules.ogre import RULESET as OGRE, commands as oc
from fray.engine.session import Session
from fray.views.odds import option_command

from ogre_support import orc_attacks_brak_at_14

INF = float("inf")


class Whole(type(OGRE)):
    """Ogre resolving every branch whole, as before the pieces."""

    def consequence_steps(self, state, cmd):
        return None


WHOLE = Whole()


def duel():
    return orc_attacks_brak_at_14()


def forty():
    s = Session(examples("ogre")["large"](1))
    s.act(oc.RollInitiative(), ScriptedDice([(i % 10) + 1 for i in range(40)]))
    s.act(oc.Advance())
    return s


@pytest.mark.parametrize("budget", [Budget(branches=4000, seconds=INF, samples=300, sample_seconds=INF),
                                    Budget(branches=40, seconds=INF, samples=50, sample_seconds=INF),
                                    Budget(branches=7, seconds=INF, samples=20, sample_seconds=INF)],
                         ids=["enough", "small", "tiny"])
def test_every_option_of_the_actor_has_the_odds_of_whole_resolutions__CORE_ODDS_1__OGRE_ATK_1(budget):
    s = forty()
    actor = sorted(s.current())[0]
    cmds = [c for c in map(option_command, OGRE.options(s.state, actor)) if c is not None]
    assert sum(isinstance(c, oc.Attack) for c in cmds) >= 10
    for cmd in cmds:
        got = odds(OGRE, s.state, cmd, budget, seed=s.encounter.seed)
        assert got == odds(WHOLE, s.state, cmd, budget, seed=s.encounter.seed), cmd
        assert repr(got) == repr(odds(WHOLE, s.state, cmd, budget, seed=s.encounter.seed))


def test_a_fast_attack_in_pieces_is_exact_and_the_same__OGRE_FAST_1__OGRE_ATK_1():
    s = duel()
    for cmd in (oc.Attack("brak", "orc", tempo=-1), oc.Attack("brak", "orc"), oc.Delay("brak")):
        got = odds(OGRE, s.state, cmd, exact=True)
        assert isinstance(got, Odds) and got.exact and got == odds(WHOLE, s.state, cmd, exact=True)


def test_worked_out_a_resolution_at_a_time_the_pieces_give_the_same_odds__CORE_ODDS_1():
    s = duel()
    cmd = oc.Attack("brak", "orc")
    job = Working(OGRE, s.state, cmd, exact=True)
    chunks = 0
    while job.work(0.0) is None:
        chunks += 1
    assert chunks > 20 and job.result == odds(WHOLE, s.state, cmd, exact=True)


def test_a_die_with_no_faces_is_the_same_clear_message_in_pieces__CORE_ODDS_1__CORE_DICE_1():
    s = duel()
    brak = s.state.get("brak")
    bad = s.state.with_combatant(replace(brak, weapons=tuple(replace(w, damage="1d0") for w in brak.weapons)))
    with pytest.raises(OddsError, match="at least one face"):
        odds(OGRE, bad, oc.Attack("brak", "orc"), exact=True)


def test_states_are_the_same_only_when_every_field_is__CORE_ODDS_1():
    s = duel().state
    assert same(s, replace(s))  # a copy: its derived index aside, field for field the same
    hurt = s.update("orc", hp=s.get("orc").hp - 1)
    assert not same(s, hurt) and same(hurt, s.update("orc", hp=s.get("orc").hp - 1))
    # A field a record leaves out of its own == still tells states apart: what follows may read it.
    a = replace(s, prompt=Prompt("brak", "?", data={"target": "orc"}))
    b = replace(s, prompt=Prompt("brak", "?", data={"target": "brak"}))
    assert a == b and not same(a, b)
    assert not same(1, 1.0) and not same((1,), [1]) and same({"a": (1, 2)}, {"a": (1, 2)})
    assert not same(Weapon("Bow", "d6"), Weapon("Bow", "d8"))
