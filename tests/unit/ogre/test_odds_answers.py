"""Ogre's odds of an answer to a prompt: what that option's own rolls do, nothing else of the segment (CORE-ODDS-1)."""
from __future__ import annotations

from fractions import Fraction

from acting import act
from ogre_support import orc, pc, start

from fray.engine.odds import mean
from fray.rules.ogre import RULESET, commands as oc
from fray.views.odds import CERTAIN, of_option


def brak_steps_away_while_orc2_strikes_mira():
    """Segment 22: Orc2's attack on Mira (declared at 12) resolves first and hits for 8, its damage held till
    the segment's end (OGRE-ACT-1, "together"); then Brak's move (declared at 17) leaves the orc's reach:
    the orc is asked about an attack of opportunity (OGRE-AOO-1) before Mira's 8 lands."""
    s = start(orc(), pc(), pc("mira", square=(6, 5)), orc("orc2", square=(7, 6)), initiative=[4, 9, 10, 2])
    act(s, oc.Advance())
    act(s, oc.Attack("orc2", "mira"))   # at 12, resolves at 22
    act(s, oc.Advance())
    act(s, oc.Attack("orc", "brak"))    # at 14, resolves at 24
    act(s, oc.Advance())
    act(s, oc.Move("brak", "short", ((6, 4), (7, 3))))  # at 17, resolves at 22
    act(s, oc.Advance())
    act(s, oc.Delay("mira"))
    act(s, oc.Advance(), 20, 8)         # Orc2: d20 20 hits, d8 8 held
    assert s.state.prompt is not None and s.state.prompt.kind == "opportunity"
    return s


def test_an_attack_of_opportunity_is_priced_by_its_own_swing_alone__CORE_ODDS_1__OGRE_AOO_2():
    s = brak_steps_away_while_orc2_strikes_mira()
    got = {o.label: of_option(RULESET, s.state, i, o, exact=True) for i, o in enumerate(s.options("orc"))}
    swing = got["Attack with Axe as a reaction"]
    # Hand count: d20 + skill 4 against Brak's Defense 15 hits on faces 11-20: 10 of 20 = 1/2. One d8 swing:
    # mean 4.5 x 1/2 = 9/4. Mira's 8 from Orc2 lands later in the segment and is not this option's
    # (before: "100 % · 10.2 dmg", every branch counting her 8).
    assert sum(p for v, p in swing.odds.dealt if v > 0) == Fraction(1, 2)
    assert mean(swing.odds.dealt) == Fraction(9, 4)
    assert swing.figure == "50 % · 2.2 dmg"
    pending = got["Use Attack Brak with Axe on Brak now"]  # the declared attack, now, on its own target: no -2
    assert mean(pending.odds.dealt) == Fraction(9, 4)
    assert got["Let it go"].figure == CERTAIN  # no die of its own: nothing dealt
