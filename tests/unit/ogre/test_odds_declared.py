"""Ogre's odds of a declaration: the action priced as it will resolve, with what is known now (CORE-ODDS-1)."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from acting import act
from ogre_support import orc, pc, start

from fray.engine.odds import Odds, odds
from fray.rules.ogre import RULESET, commands as oc
from fray.views.odds import CERTAIN, figure

CHARGE = oc.Charge("orc", "brak", ((1, 4), (2, 4), (3, 4), (4, 4), (5, 4)))


def orc_charges_at_14():
    """The orc declares at 14 (d10 4 + reaction time 10); Brak's initiative is 17 (d10 9 + 8): flat-footed
    till then. A charge is Long (20 segments): it lands at 34."""
    s = start(orc(square=(1, 4)), pc(), initiative=[4, 9])
    act(s, oc.Advance())
    assert s.state.board.segment == 14 and s.state.board.fighter("brak").initiative == 17
    return s


def hit(o: Odds) -> Fraction:
    return sum((p for v, p in o.dealt if v > 0), Fraction(0))


def test_a_charge_is_priced_after_the_targets_flat_footed_time__CORE_ODDS_1__OGRE_FF_1__OGRE_CHARGE_1():
    s = orc_charges_at_14()
    o = odds(RULESET, s.state, CHARGE, exact=True)
    # Hand count: d20 + skill 4 against Brak's Defense 15 at segment 34 (no longer flat-footed): faces
    # 11-20, 10 of 20 = 50 %; one d8, +0 for this pace: 4.5 x 1/2 = 9/4. (Before: Defense 13, flat-footed
    # at 14: faces 9-20, 60 %.)
    assert hit(o) == Fraction(1, 2)
    assert figure(o) == "50 % · 2.2 dmg"


def test_a_condition_whose_time_is_up_before_the_charge_lands_is_not_counted__CORE_ODDS_1__OGRE_CHARGE_1():
    s = orc_charges_at_14()
    brak = s.state.get("brak").with_condition("exposed")  # AC -2, its time up at segment 20
    state = replace(s.state.with_combatant(brak), timers=(("brak", "exposed", 20),))
    # Hand count: at 34 Brak is neither exposed nor flat-footed: Defense 15, faces 11-20 = 1/2. (Priced at
    # 14: 15 - 2 - 2 = 11, faces 7-20 = 70 %.)
    assert hit(odds(RULESET, state, CHARGE, exact=True)) == Fraction(1, 2)
    # A condition that lasts past 34 still counts: exposed till 40, Defense 13, faces 9-20 = 12 of 20.
    state = replace(state, timers=(("brak", "exposed", 40),))
    assert hit(odds(RULESET, state, CHARGE, exact=True)) == Fraction(3, 5)


def test_a_charge_on_a_target_whose_declared_move_lands_first_cannot_land__CORE_ODDS_1__OGRE_CHARGE_1():
    s = start(orc(square=(1, 4)), pc(), initiative=[4, 4])   # Brak declares at 12, the orc at 14
    act(s, oc.Advance())
    act(s, oc.Move("brak", "short", ((6, 4), (6, 3), (6, 2), (6, 1))))  # Short: Brak is at (6, 1) from 17
    act(s, oc.Advance())
    assert s.check(CHARGE) is None  # today Brak stands at the charge's end: it may be declared
    o = odds(RULESET, s.state, CHARGE, exact=True)
    # Hand count: at 34 the charge ends at (5, 4), three squares from Brak: no attack roll, no die; every
    # branch (one) fails. It says so, never "certain" (before: priced at 14 next to Brak, 60 % to hit).
    assert o.chance("charge failed") == 1 and hit(o) == 0
    assert figure(o) == "0 %: ends out of reach" != CERTAIN


def test_a_charge_that_first_provokes_an_attack_of_opportunity_is_never_certain__CORE_ODDS_1__OGRE_CHARGE_1():
    # Brak (16), next to the orc, charges it the long way round: leaving (6, 4) asks the orc first, and what
    # the charge does hangs on that answer (before: one outcome, no die: "certain").
    s = start(orc(), pc(), initiative=[4, 8])
    act(s, oc.Advance())
    act(s, oc.Attack("orc", "brak"))
    act(s, oc.Advance())
    o = odds(RULESET, s.state, oc.Charge("brak", "orc", ((6, 4), (5, 5), (4, 5)), "Sword"), exact=True)
    assert o.chance("answer awaited") == 1
    assert figure(o) == "asks first: the rest waits for the answer" != CERTAIN
