"""fray.playout, the seeded random fights the page also plays under ?selftest=1: the same seed gives the
same fight and digest, fights reach outcomes in all three systems, and a broken invariant is reported with
its system, example, seed and step (CORE-HP-1)."""
from __future__ import annotations

import pytest

from fray import playout
from fray.engine.session import Session


def test_the_chooser_is_a_fixed_stream():
    a, b = playout.Chooser(7), playout.Chooser(7)
    assert [a.next() for _ in range(5)] == [b.next() for _ in range(5)]
    assert playout.Chooser(8).next() != playout.Chooser(7).next()
    c = playout.Chooser(1)
    picks = {c.below(6) for _ in range(400)}
    assert picks == set(range(6))


@pytest.mark.parametrize("system,example", [("olog", "skirmish"), ("ose", "detailed"), ("ogre", "orc_and_pc")])
def test_same_seed_same_fight_and_digest(system, example):
    one, two = playout.run(system, example, 4), playout.run(system, example, 4)
    assert one == two and one.steps > 0
    assert playout.run(system, example, 5).digest != one.digest


def test_fights_reach_outcomes_in_every_system():
    for system, example in (("olog", "two_orcs"), ("ose", "loose"), ("ogre", "orc_and_pc")):
        ended = sum(bool(playout.run(system, example, seed).outcome) for seed in range(6))
        assert ended >= 4, system


def test_a_broken_invariant_names_the_fight_and_step__CORE_HP_1(monkeypatch):
    real = Session.act

    def overheal(self, cmd, dice=None):
        step = real(self, cmd, dice)
        c = self.state.combatants[0]
        self._states[-1] = self.state.update(c.id, hp=c.max_hp + 1)
        return step

    monkeypatch.setattr(Session, "act", overheal)
    with pytest.raises(playout.PlayoutError, match=r"olog/two_orcs seed 3, step 0: .* HP \(CORE-HP-1\)"):
        playout.run("olog", "two_orcs", 3)
    out = playout.run_many([("olog", "two_orcs", 3)])
    assert "CORE-HP-1" in out[0]["error"]
