"""Odds from the real rules (engine/odds.py, CORE-ODDS-1): closed forms per rule, merging, bad input."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from fray.engine.commands import Illegal
from fray.engine.model import Weapon
from fray.engine.odds import MAX_SAMPLES, PAGE_BUDGET, Budget, Odds, OddsError, Working, mean, odds
from fray.engine.session import Session
from fray.rules.ogre import commands as oc
from fray.rules.olog import RULESET as OLOG, Attack as OlogAttack, Defend, RollInitiative
from fray.rules.olog.examples import eight_humans, superpredator, two_orcs
from fray.rules.ose import RULESET as OSE, Attack as OseAttack, Move as OseMove

from acting import act
from ogre_support import advance_to, orc, pc, start as ogre_start
from olog_support import foe, hero, started
from ose_kit import CROSSBOW, SLING, fighter, session as ose_session, start as ose_start


def uniform(lo: int, hi: int) -> tuple:
    n = hi - lo + 1
    return tuple((v, F(1, n)) for v in range(lo, hi + 1))


def total(o: Odds) -> F:
    return sum(p for _, p in o.outcomes)


def exact_odds(rs, state, cmd, **kw) -> Odds:
    """Closed forms compare exact odds (a loaded machine must not turn them into a sample)."""
    kw.setdefault("exact", True)
    return assert_exact(odds(rs, state, cmd, **kw))


def assert_exact(o) -> Odds:
    assert isinstance(o, Odds), o
    assert o.exact and o.samples == 0
    for dist in (o.dealt, o.taken, *(d for _, d in o.rolls)):
        assert all(isinstance(p, F) for _, p in dist) and sum(p for _, p in dist) == 1
    assert total(o) == 1
    return o


# --- OLOG -----------------------------------------------------------------------------------------

def olog_duel(to_hit: int = 0, ac: int = 12, damage: str = "1d8", hp: int = 30):
    """Brak (acting) beside a goblin with no weapon: no pressure, a plain attack."""
    s = started(hero(weapons=(Weapon("Sword", damage, to_hit=to_hit, item="Sword"),), hands=("Sword", "")),
                foe("gob", ac=ac, hp=hp, damage=None), faces=(15,))
    assert s.current() == ("brak",)
    return s


@pytest.mark.parametrize("to_hit,ac", [(0, 12), (3, 12), (2, 18), (0, 25)])
def test_a_d20_attack_against_ac_with_a_bonus_hits_on_21_minus_ac_plus_bonus_in_20__OLOG_ATK_1(to_hit, ac):
    s = olog_duel(to_hit, ac)
    o = exact_odds(OLOG, s.state, OlogAttack("brak", "gob", "Sword", press_on=False))
    p_hit = F(max(0, min(20, 21 - ac + to_hit)), 20)
    assert o.chance("hit") == p_hit and o.chance("missed") == 1 - p_hit


def test_damage_1d8_plus_1_on_a_hit_is_uniform_2_to_9_and_the_expected_hp_follows__OLOG_ATK_1():
    s = olog_duel(0, 11, "1d8+1")
    o = exact_odds(OLOG, s.state, OlogAttack("brak", "gob", "Sword", press_on=False))
    p = F(1, 2)  # 10..20 hits AC 11
    assert o.dealt == ((0, 1 - p),) + tuple((v, p / 8) for v in range(2, 10))
    assert mean(o.dealt) == p * F(11, 2)
    assert dict(o.hp)["gob"] == 30 - p * F(11, 2)
    assert o.taken == ((0, F(1)),) and o.down == ()


def test_a_hit_that_can_fell_gives_the_chance_to_go_down__OLOG_ATK_1__CORE_HP_1():
    s = olog_duel(0, 11, "1d8", hp=6)
    o = exact_odds(OLOG, s.state, OlogAttack("brak", "gob", "Sword", press_on=False))
    assert dict(o.down) == {"gob": F(1, 2) * F(3, 8)}  # a hit, then 6, 7 or 8


def olog_example(build) -> Session:
    s = Session(build(1), OLOG)
    act(s, RollInitiative(), 15)
    return s


def test_two_d8_threateners_press_for_d4_min_2__OLOG_PRES_9():
    s = olog_example(two_orcs)
    o = exact_odds(OLOG, s.state, Defend("brak", press_on=True))
    assert o.roll("pressure") == ((2, F(1, 2)), (3, F(1, 4)), (4, F(1, 4)))
    assert o.taken == ((2, F(1, 2)), (3, F(1, 4)), (4, F(1, 4)))
    assert mean(o.taken) == F(11, 4)


def test_a_superpredator_d10_bite_and_two_d6_claws_press_for_d5__OLOG_PRES_9():
    s = olog_example(superpredator)
    o = exact_odds(OLOG, s.state, Defend("brak", press_on=True))
    assert o.roll("pressure") == uniform(1, 5) and o.taken == uniform(1, 5)


def test_eight_d6_knives_always_press_for_8__OLOG_PRES_9__OLOG_PRES_5():
    s = olog_example(eight_humans)
    o = exact_odds(OLOG, s.state, Defend("brak", press_on=True))
    assert o.taken == ((8, F(1)),) and o.branches == 1


# --- OSE ------------------------------------------------------------------------------------------

def ose_shooter(weapon: Weapon, ac: int = 10):
    s = ose_session(fighter("hal", weapons=(weapon,), hands=(weapon.name, "")),
                    fighter("gob", "b", hp=30, ac=ac), profile="loose")
    ose_start(s, 9, 2)
    return s


def hit_faces(s, cmd) -> int:
    """How many d20 faces hit, found by the rules with loaded dice (a hit asks for a damage die)."""
    return sum(face_hits(s, cmd, face) for face in range(1, 21))


def face_hits(s, cmd, face) -> bool:
    from fray.engine.dice import NeedDice, ScriptedDice
    try:
        s.ruleset.consequence(s.state, cmd, ScriptedDice([face]))  # the threatener's attack taken (OSE-AOO-4)
    except NeedDice:
        return True
    return False


def test_a_crossbow_keeps_the_higher_of_two_then_adds_one__OSE_RANGED_3():
    s = ose_shooter(CROSSBOW)
    cmd = OseAttack("hal", "gob", "Crossbow")
    o = exact_odds(OSE, s.state, cmd)
    p = F(hit_faces(s, cmd), 20)
    # higher of two d6: k with chance (2k-1)/36, then +1
    assert o.dealt == ((0, 1 - p),) + tuple((k + 1, p * F(2 * k - 1, 36)) for k in range(1, 7))


def test_a_sling_does_one_less_but_at_least_one__OSE_RANGED_4():
    s = ose_shooter(SLING)
    cmd = OseAttack("hal", "gob", "Sling")
    o = exact_odds(OSE, s.state, cmd)
    p = F(hit_faces(s, cmd), 20)
    assert o.dealt == ((0, 1 - p), (1, p / 2), (2, p / 4), (3, p / 4))


def test_a_path_through_two_threatened_squares_risks_two_attacks_of_opportunity__OSE_AOO_1__OSE_AOO_2():
    s = ose_session(fighter("ann", "a", (5, 5), hp=30), fighter("g1", "b", (6, 5)), fighter("g2", "b", (3, 6)))
    ose_start(s, 9, 2)
    path = ((5, 5), (4, 5), (3, 5))
    o = exact_odds(OSE, s.state, OseMove("ann", path))
    # each foe's AoO hits as a plain attack does: count the faces with the rules themselves
    probe = ose_session(fighter("ann", "a", (5, 5), hp=30), fighter("g1", "b", (6, 5)))
    ose_start(probe, 9, 2)
    p = F(sum(face_hits(probe, OseMove("ann", ((5, 5), (4, 5))), f) for f in range(1, 21)), 20)
    stopped = p + (1 - p) * p  # the first hit stops the mover: no second attack
    assert o.chance("stopped") == stopped
    assert o.taken[0] == (0, 1 - stopped)
    assert o.attacked == ((1, p), (2, 1 - p))  # the second foe strikes only if the first missed
    from fray.views.odds import figure, pct
    assert figure(o) == f"path: 2 AoO, {pct(stopped)} to be stopped"


# --- Ogre -----------------------------------------------------------------------------------------

def test_a_fast_attack_is_at_minus_8_plus_dex_and_its_odds_are_those_of_its_resolution__OGRE_FAST_1__OGRE_ACT_1():
    s = ogre_start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    advance_to(s, 16)
    fast = exact_odds(s.ruleset, s.state, oc.Attack("brak", "orc", tempo=-1))
    normal = exact_odds(s.ruleset, s.state, oc.Attack("brak", "orc"))
    # d20 + 6 (skill) against Defense 13; fast: -8 + DEX 2 = -6
    assert fast.chance("hit") == F(8, 20) and normal.chance("hit") == F(14, 20)
    assert fast.dealt == ((0, F(12, 20)),) + tuple((v, F(8, 20) / 8) for v in range(1, 9))
    assert s.state.board.segment == 16  # nothing changed: odds never act


def test_a_hurried_draw_needs_dc_15_dexterity__OGRE_FAST_1():
    s = ogre_start(orc(), pc(inventory=("dagger",)), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Delay("orc"))
    advance_to(s, 16)
    o = exact_odds(s.ruleset, s.state, oc.Act("brak", "draw", "dagger", tempo=-1))
    p = F(8, 20)  # d20 + 2 >= 15
    assert o.chance("failed") == 1 - p and o.chance("act done") == p
    assert o.roll("Dexterity") == uniform(1, 20)


# --- honesty, bad input, bounds --------------------------------------------------------------------

def test_an_illegal_command_gets_the_refusal__CORE_ODDS_1():
    s = olog_duel()
    got = odds(OLOG, s.state, OlogAttack("gob", "brak", "Weapon"))
    assert isinstance(got, Illegal) and got.reason == s.check(OlogAttack("gob", "brak", "Weapon")).reason


def test_past_the_budget_a_seeded_sample_says_so_and_exact_is_on_request__CORE_ODDS_1():
    s = olog_duel(0, 11, "3d6")
    cmd = OlogAttack("brak", "gob", "Sword", press_on=False)
    small = Budget(branches=50, samples=400)
    a = odds(OLOG, s.state, cmd, budget=small, seed=7)
    b = odds(OLOG, s.state, cmd, budget=small, seed=7)
    assert a.approx and a.samples == 400 and a == b  # seeded: the same sample twice
    assert sum(p for _, p in a.dealt) == 1 and all(isinstance(p, F) for _, p in a.dealt)
    exact = exact_odds(OLOG, s.state, cmd, budget=small, exact=True)
    assert exact.chance("hit") == F(1, 2) and abs(float(a.chance("hit")) - 0.5) < 0.1


def test_sampling_is_never_unbounded__CORE_ODDS_1():
    s = olog_duel(0, 11, "3d6")
    o = odds(OLOG, s.state, OlogAttack("brak", "gob", "Sword", press_on=False),
             budget=Budget(branches=1, samples=10 ** 9, sample_seconds=0.05))
    assert o.approx and 30 <= o.samples <= MAX_SAMPLES


def test_a_die_with_no_faces_or_a_bad_expression_is_a_clear_message__CORE_ODDS_1__CORE_DICE_1():
    for damage, words in (("1d0", "at least one face"), ("sword", "not dice notation")):
        s = olog_duel()
        bad = s.state.update("brak", weapons=(Weapon("Sword", damage, item="Sword"),))
        with pytest.raises(OddsError, match=words):
            odds(OLOG, bad, OlogAttack("brak", "gob", "Sword", press_on=False), exact=True)


def test_identical_branches_are_merged__CORE_ODDS_1():
    s = olog_duel(0, 11)
    o = exact_odds(OLOG, s.state, OlogAttack("brak", "gob", "Sword", press_on=False))
    assert o.outcomes == (("Attack hit", F(1, 2)), ("Attack missed", F(1, 2)))
    assert len(o.dealt) == 9  # 10 misses are one, 8 damage values


def test_odds_worked_out_in_small_chunks_are_the_same_odds__CORE_ODDS_1():
    """The page works a little at a time between taps: the answer does not depend on how it is cut up."""
    s = olog_duel(0, 11, "2d6")
    cmd = OlogAttack("brak", "gob", "Sword", press_on=False)
    job = Working(OLOG, s.state, cmd, exact=True)
    chunks = 0
    while job.work(0.0) is None:
        chunks += 1
    assert chunks > 10 and job.result == odds(OLOG, s.state, cmd, exact=True)
    sampled = Working(OLOG, s.state, cmd, budget=Budget(branches=5, samples=200, sample_seconds=60), seed=3)
    while sampled.work(0.0) is None:
        pass
    assert sampled.result == odds(OLOG, s.state, cmd, budget=Budget(branches=5, samples=200, sample_seconds=60), seed=3)
    assert sampled.result.samples == 200


def test_the_page_budget_keeps_every_option_bounded__CORE_ODDS_1():
    s = olog_duel(0, 11, "3d6")
    o = odds(OLOG, s.state, OlogAttack("brak", "gob", "Sword", press_on=False), budget=PAGE_BUDGET)
    assert o.branches <= PAGE_BUDGET.branches + PAGE_BUDGET.samples


def test_a_command_that_rolls_as_it_is_taken_branches_on_every_face__OGRE_ATK_1__OGRE_SEG_1():
    """Advance resolves the orc's attack at once: its dice are branched on too (nothing rolled is kept
    from one branch for the next)."""
    from fray.engine.dice import NeedDice, ScriptedDice
    s = ogre_start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    advance_to(s, 16)
    act(s, oc.Delay("brak"))
    o = exact_odds(s.ruleset, s.state, oc.Advance())
    hits = 0
    for face in range(1, 21):
        try:
            s.ruleset.resolve(s.state, oc.Advance(), ScriptedDice([face]))
        except NeedDice:
            hits += 1  # a hit asks for its damage die
    assert 0 < hits < 20 and o.chance("hit") == F(hits, 20)
    assert o.everyone == ((0, 1 - F(hits, 20)),) + tuple((v, F(hits, 20) / 8) for v in range(1, 9))
