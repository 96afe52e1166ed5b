"""Ogre conformance: 200 seeded random fights taking random allowed options, with the count's invariants checked each step.

A fight ends at its outcome or after 2,000 steps. The chooser picks a random
current actor, then an option group (attacks weighted up and referee stuns
down, so fights tend to end), then an option and a random answer to its
question; a path the page would draw comes from `ogre_grid.move_suggestions`.
"""
from __future__ import annotations

import dataclasses
import random

import pytest

from test_ogre_support import PARTY  # noqa: F401  (puts py/ on the path)

from fray.engine import storage
from fray.engine.commands import Option
from fray.engine.session import Session
from fray.rules import ogre_grid as og
from fray.rules.ogre import RULESET
from fray.rules.ogre_examples import examples
from fray.rules.ogre_model import is_flat_footed

WEIGHTS = {"Attack": 6, "Move": 2, "Turn": 2, "Referee": 0.1}
FIGHTS = {"orc_and_pc": 110, "three_vs_three": 70, "twelve": 20}  # 200 in all
MAX_STEPS = 2000


def fill(rng: random.Random, s: Session, o: Option):
    """A complete command for an option: a random answer, and what the page would fill in."""
    cmd = o.command
    if o.choices:
        cmd = dataclasses.replace(cmd, **rng.choice(o.choices).values)
    for need in o.needs:
        name = need.split(":")[-1]
        if name == "path":
            c = s.state.get(cmd.actor)
            kind = getattr(cmd, "kind", "move")
            paths = [p for _, p in og.move_suggestions(s.state, c, (kind,))[kind]]
            if not hasattr(cmd, "kind"):
                paths = [p for p in paths if og.path_problem(s.state, c, p, "withdraw") is None]
            if not paths:
                return None
            cmd = dataclasses.replace(cmd, path=rng.choice(paths))
        elif name == "level":
            cmd = dataclasses.replace(cmd, level=rng.randint(0, 3))
        elif name == "spell":
            cmd = dataclasses.replace(cmd, spell=rng.choice(("Sleep", "Darkness", "Bless")))
        else:
            return None
    return cmd


def choose(rng: random.Random, s: Session):
    actor = rng.choice(s.current())
    opts = [o for o in s.options(actor) if o.allowed]
    assert opts, f"{actor} has no allowed option at segment {s.state.system.segment}"
    for _ in range(20):
        groups = sorted({o.group for o in opts})
        group = rng.choices(groups, [WEIGHTS.get(g, 1) for g in groups])[0]
        cmd = fill(rng, s, rng.choice([o for o in opts if o.group == group]))
        if cmd is not None:
            return cmd
    return next(o.command for o in opts if not o.needs and not o.choices)


def play(name: str, seed: int) -> Session:
    rng = random.Random(seed)
    s = Session(examples()[name](seed), RULESET)
    ended: dict[int, int] = {}
    declared: set[int] = set()
    for _ in range(MAX_STEPS):
        if s.state.outcome:
            break
        before = s.state
        cmd = choose(rng, s)
        step = s.act(cmd)  # every offered option applies: IllegalCommand fails the test
        after = s.state
        assert after.system.segment >= before.system.segment, "the count went backwards"
        for c in after.combatants:
            assert c.hp <= c.max_hp, f"{c.name} has {c.hp}/{c.max_hp} HP"
        for e in step.events:
            if e.kind == "ActionDeclared":
                declared.add(e.data["uid"])
            elif e.kind in ("ActionResolved", "ActionBroken"):
                uid = e.data["uid"]
                assert uid in declared, f"action {uid} ended without being declared"
                ended[uid] = ended.get(uid, 0) + 1
                assert ended[uid] == 1, f"action {uid} ended twice"
            elif e.kind in ("OpportunityTaken",):
                assert not is_flat_footed(before.system, e.actor), f"flat-footed {e.actor} took an AoO"
    pending = {f.action.uid for f in s.state.system.fighters if f.action is not None}
    assert declared == set(ended) | pending, "an action neither resolved, broke nor is still pending"
    assert not (set(ended) & pending)
    return s


@pytest.mark.parametrize("name", list(FIGHTS))
def test_random_fights_keep_the_counts_invariants__OGRE_SEG_1__OGRE_ACT_1__OGRE_FF_1__OGRE_AOO_1(name):
    outcomes = 0
    for seed in range(FIGHTS[name]):
        s = play(name, seed)
        outcomes += bool(s.state.outcome)
        if seed % 20 == 0:  # a saved fight replays to the same state
            again = storage.loads(storage.dumps(s)).session
            assert again.state == s.state
    assert outcomes >= FIGHTS[name] // 2, "most random fights should reach an outcome"


def test_the_saved_orc_and_pc_example_loads_and_replays__OGRE_EX_1():
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "ogre-orc-and-pc.json"
    s = storage.loads(path.read_text(encoding="utf-8")).session
    sys_ = s.state.system
    assert [f.initiative for f in sys_.fighters] == [14, 16] and sys_.segment == 26
    assert s.state.get("brak").hp == 15
    orc, brak = sys_.fighters
    assert (orc.action.resolves, orc.action.penalty) == (34, -2)
    assert (brak.action.category, brak.action.resolves) == ("Short", 31)
