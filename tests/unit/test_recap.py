"""The fight's summary (views/recap.py, issue #56): the figures agree with the log's events and the states
on scripted fights and on long random ones in every system (a property test), OSE's XP and ammunition
(OSE-RES-1), and the players' summary keeps out what the table display keeps out."""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fray import playout
from fray.engine.referee import Damage, Heal, SetCondition, SetHp
from fray.engine.session import Session
from fray.rules import examples, get
from fray.rules.ose import RollResource
from fray.views.recap import public, recap

CASES = [("olog", "skirmish"), ("olog", "two_orcs"), ("ose", "detailed"), ("ose", "loose"), ("ose", "undead"),
         ("ogre", "orc_and_pc"), ("ogre", "three_vs_three")]


def session_of(system: str, example: str, change=None) -> Session:
    enc = examples(system)[example](1)
    if change:
        enc = replace(enc, combatants=tuple(change(c) for c in enc.combatants))
    return Session(enc, get(system))


def agrees_with_the_log(s: Session) -> None:
    """Every figure of the summary, checked against the events and states it was read from."""
    r = recap(s)
    first, last = s.state_at(0), s.state
    dealt = {c.id: 0 for c in first.combatants}
    hits, misses = dict(dealt), dict(dealt)
    downs = {c.id: [] for c in first.combatants}
    for i, e in s.log():
        if e.kind == "DamageTaken" and e.actor and e.actor != e.target:
            dealt[e.actor] += e.data["amount"]
        hits[e.actor] = hits.get(e.actor, 0) + (e.kind == "AttackHit")
        misses[e.actor] = misses.get(e.actor, 0) + (e.kind == "AttackMissed")
        if e.kind == "CombatantDown":
            downs[e.target].append(i)
    assert r.steps == len(s.steps) and r.clock == s.ruleset.clock.now(last)
    for f in r.combatants:
        c0, c1 = first.get(f.id), last.get(f.id)
        # HP lost = damage taken minus healing, and the chart is the states' HP step by step.
        assert f.healed - f.taken == c1.hp - c0.hp, f
        assert f.taken >= sum(e.data["amount"] for _, e in s.log() if e.kind == "DamageTaken" and e.target == f.id)
        assert f.hp == tuple(s.state_at(i).get(f.id).hp for i in range(len(s.steps) + 1))
        assert (f.dealt, f.hits, f.misses) == (dealt[f.id], hits[f.id], misses[f.id]), f
        assert f.down == c1.is_down and (f.down_at is not None) == c1.is_down
        if f.down_at is not None:
            assert not s.state_at(f.down_at - 1).get(f.id).is_down
            assert all(s.state_at(i).get(f.id).is_down for i in range(f.down_at, len(s.steps) + 1))
            assert f.down_at in downs[f.id]  # the log says so at that very step
            assert f.downed_by == "" or last.has(f.downed_by)
        assert [x.step for x in f.falls] == downs[f.id]
    for side in r.sides:
        members = [f for f in r.combatants if f.side == side.id]
        assert side.down == sum(f.down for f in members) and side.falls == sum(len(f.falls) for f in members)
    j = r.to_json()
    assert set(j["combatants"]) == {c.id for c in first.combatants}
    assert j["fight"]["steps"] == len(s.steps)


@pytest.mark.parametrize("system,example", CASES)
def test_the_summary_agrees_with_the_log_on_every_example(system, example):
    agrees_with_the_log(playout.play(system, example, 2, max_steps=120))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10_000))
def test_long_random_fights_summarise_as_their_logs_say(case, seed):
    session = playout.play(case[0], case[1], seed, max_steps=300)
    agrees_with_the_log(session)
    middle = len(session.steps) // 2  # during the fight: the summary of a moment is that of its steps
    assert recap(session, middle).combatants == recap(session.reopened(), middle).combatants
    assert recap(session, middle).steps == middle


def test_referee_damage_healing_and_a_set_value_are_taken_and_healed__CORE_REF_1():
    s = session_of("ose", "detailed")
    s.act(Damage("o1", 4))
    s.act(Heal("o1", 2))
    s.act(SetHp("o1", 1))
    s.act(SetHp("o1", 0))
    f = recap(s).get("o1")
    assert (f.taken, f.healed, f.hp) == (4 + 3 + 1, 2, (6, 2, 4, 1, 0))
    assert (f.down_at, f.downed_by) == (4, "")
    assert recap(s).to_json()["combatants"]["o1"]["downed_by"] is None


def test_the_fall_that_kept_a_combatant_down_is_its_down_at__CORE_HP_1():
    s = session_of("ose", "detailed")
    s.act(Damage("mira", 9))
    s.act(Heal("mira", 9))
    s.act(Damage("mira", 5))
    f = recap(s).get("mira")
    assert [x.step for x in f.falls] == [1, 3] and f.down_at == 3
    assert recap(s, 2).get("mira").down_at is None  # back up after step 2


def test_conditions_suffered_and_the_secret_ones_stay_off_the_players_summary():
    s = session_of("olog", "skirmish")
    s.act(SetCondition("gob1", "Stunned"))
    s.act(SetCondition("gob1", "Cursed", secret=True))
    assert recap(s).get("gob1").conditions == ("Stunned", "Cursed")
    assert public(s).get("gob1").conditions == ("Stunned",)


def test_the_players_summary_has_no_hidden_combatant_nor_monster_hp_figures():
    s = session_of("ose", "detailed", lambda c: replace(c, hidden=True) if c.id == "o3" else c)
    s.act(Damage("o1", 4))
    s.act(Damage("hal", 2))
    p = public(s)
    assert "o3" not in {f.id for f in p.combatants}
    o1, hal = p.get("o1"), p.get("hal")
    assert (o1.taken, o1.hp_words, o1.hp_word) == (0, True, "bloodied") and max(o1.hp) <= 4
    assert (hal.taken, hal.hp[-1]) == (2, 4)
    assert all("Orc crossbowman" not in line for _, line in p.log)


def test_xp_of_the_defeated_foes_is_shared_among_the_surviving_pcs():
    xp = {"o1": 10, "o2": 15, "o3": 6}
    s = session_of("ose", "detailed", lambda c: replace(c, stats={**c.stats, "xp": xp[c.id]}) if c.id in xp else c)
    s.act(Damage("o1", 20))
    s.act(Damage("o2", 20))
    s.act(Damage("mira", 20))
    r = recap(s)
    got = r.system_recap.figures["xp"]
    assert (got["total"], got["foes"], got["share"], got["remainder"]) == (25, {"o1": 10, "o2": 15},
                                                                          {"brak": 12, "hal": 12}, 1)
    assert r.to_json()["fight"]["xp"]["total"] == 25
    assert any(line.startswith("XP: 25 from 2 defeated") for line in r.system_recap.lines)


def test_no_xp_figures_outside_ose():
    assert "xp" not in recap(session_of("olog", "skirmish")).to_json()["fight"]


def test_ammunition_used_counts_shots_and_the_usage_die__OSE_RES_1():
    shots = None
    for seed in range(40):  # a fight in which Hal shoots his bow
        s = playout.play("ose", "detailed", seed, max_steps=200)
        shots = sum(1 for _, e in s.log() if e.actor == "hal" and e.kind in ("AttackHit", "AttackMissed")
                    and e.data.get("weapon") == "Shortbow")
        if shots:
            break
    assert shots
    ammo = recap(s).system_recap.figures["ammo"]["hal"]
    assert (ammo["shots"], ammo["start"]) == (shots, "d8")
    s2 = session_of("ose", "detailed")
    s2.act(RollResource("hal"))
    after = recap(s2).system_recap.figures["ammo"]["hal"]
    assert after["rolled"] == 1 and after["now"] == s2.state.board.ammo["hal:ammo"]


def test_spells_cast_are_listed_by_caster():
    cast = []
    for seed in range(30):
        s = playout.play("olog", "skirmish", seed, max_steps=200)
        cast = [e for _, e in s.log() if e.kind == "SpellCast"]
        if cast:
            break
    assert cast
    who = cast[0].actor
    assert recap(s).get(who).spells == tuple(e.data["spell"] or "a spell" for e in cast if e.actor == who)
