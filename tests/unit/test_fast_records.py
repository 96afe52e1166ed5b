"""The hand-written fast paths of hot records give the same objects as the generated ones (CORE-ODDS-1 speed)."""
from __future__ import annotations

import dataclasses

from fray.engine import commands, dice
from fray.engine.commands import Event
from fray.engine.dice import Roll
from fray.engine.model import Combatant
from fray.engine.state import evolve


def _generated(cls, init, *args, **kwargs):
    obj = object.__new__(cls)
    init(obj, *args, **kwargs)
    return obj


def _same(a, b, hashed: bool = True) -> None:
    assert a == b and repr(a) == repr(b)
    assert not hashed or hash(a) == hash(b)
    assert a.__dict__ == b.__dict__ and list(a.__dict__) == list(b.__dict__)


def test_an_event_made_fast_is_the_generated_one():
    roll = Roll("d20", (7,), (7,), 7, "to hit")
    cases = [(("AttackHit", "Orc hits"), {}),
             (("AttackHit", "Orc hits", "OLOG-ATK-1", (roll,), "o1", "p1", {"amount": 3}, True), {}),
             (("Moved", "Orc moves"), {"actor": "o1", "data": None}),
             (("Moved", "Orc moves"), {"rule": "X", "secret": False, "target": "p2"})]
    for args, kwargs in cases:
        _same(Event(*args, **kwargs), _generated(Event, commands._dataclass_event_init, *args, **kwargs))


def test_each_event_has_its_own_data_dict():
    a, b = Event("A", "a"), Event("A", "a")
    assert a.data == {} and a.data is not b.data


def test_a_roll_made_fast_is_the_generated_one():
    cases = [(("d20", (7,), (7,), 7), {}),
             (("2d6+1", (3, 4, 1, 2), (3, 4), 8, "damage", "high", 2, False), {}),
             (("d4", (1,), (1,), 2), {"minimum": 2, "raised": True})]
    for args, kwargs in cases:
        _same(Roll(*args, **kwargs), _generated(Roll, dice._dataclass_roll_init, *args, **kwargs))


def test_a_rolled_roll_is_a_roll():
    r = dice.ScriptedDice([3, 5]).roll("2d6+1", "damage")
    assert r == Roll("2d6+1", (3, 5), (3, 5), 9, "damage") and r.describe() == "2d6+1 [3, 5] = 9"


def test_evolving_a_combatant_is_replacing_it():
    c = Combatant("o1", "Orc", "foes", 7, 7, weapons=(), stats={"dex": 3})
    _same(evolve(c, hp=2), dataclasses.replace(c, hp=2), hashed=False)  # its stats are a dict


def test_an_ogre_board_with_a_fighter_put_is_the_evolved_one():
    from fray.engine.session import Session
    from fray.rules import examples
    from fray.rules.ogre import commands as oc
    s = Session(examples("ogre")["three_vs_three"](1))
    s.act(oc.RollInitiative(), dice.ScriptedDice([(i % 10) + 1 for i in range(40)]))
    board = s.state.board
    f = dataclasses.replace(board.fighters[1], due=99)
    fast, slow = board.put(f), dataclasses.replace(board, fighters=board.with_fighter(f))
    assert fast == slow and fast.fighter(f.id) is f and fast._index == slow._index
    assert s.state.with_board_record(fast) == s.state.with_board(fighters=board.with_fighter(f))
