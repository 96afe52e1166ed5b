"""The round trip of issue 13 over many more setups: 10,000 random encounters in CI (FRAY_LONG=1).

test_setup_contract's Hypothesis property draws setups from the full allowed ranges and shrinks a
failure to its smallest form, but drawing costs about 70 ms a setup, so 10,000 of them would add minutes
to every CI run. This sweep draws from the same ranges (limits.py: boundaries often, any text a file can
hold, every system's own stats) with a seeded `random.Random`, in shards that the suite's workers share,
and checks the same property: whatever `Session` accepts, `storage.dumps` then `loads` gives back the same
encounter, state and log. A failure names its shard and index, so it can be replayed.
"""
from __future__ import annotations

import os
import random
import string

import pytest

from fray.engine import limits as L, storage
from fray.engine.model import QUALITIES, WEAPON_KINDS, Combatant, Encounter, MapSpec, Side, Weapon
from fray.engine.session import Session
from fray.rules import get

LONG = os.environ.get("FRAY_LONG") == "1"
SHARDS = 8
PER_SHARD = 1_250 if LONG else 40  # 10,000 in all with FRAY_LONG=1
SYSTEMS = ("olog", "ose", "ogre")

ID_CHARS = string.ascii_letters + string.digits + "_.-"
ODD = ['a', 'Z', ' ', '0', '"', '\\', "'", '<', '>', '&', '/', '\n', '\t', '\x00', '\x7f', 'é', '中', '🐉',
       '\u200d', '\ufeff']
DICE = ("1d6", "1d8", "2d4+1", "d20", "1d4-1", "3", "1d10+2", "2d6")


class Draw:
    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def text(self, limit: int) -> str:
        """Any text a file can hold (no lone surrogates), the longest allowed now and then."""
        if self.r.random() < 0.1:
            return "é" * limit
        return "".join(self.r.choice(ODD) for _ in range(self.r.randint(0, 8)))

    def ranged(self, bounds: tuple[int, int]) -> int:
        lo, hi = bounds
        roll = self.r.random()
        return lo if roll < 0.15 else hi if roll < 0.3 else self.r.randint(lo, hi)

    def ident(self) -> str:
        if self.r.random() < 0.05:
            return "i" * L.ID_TEXT
        return "".join(self.r.choice(ID_CHARS) for _ in range(self.r.randint(1, 8)))

    def some(self, make, most: int) -> tuple:
        return tuple(make() for _ in range(self.r.randint(0, most)))

    def weapon(self) -> Weapon:
        r = self.r
        return Weapon(self.text(L.WEAPON_NAME), r.choice(DICE), self.ranged(L.TO_HIT), kind=r.choice(WEAPON_KINDS),
                      reach=5 * r.randint(0, L.REACH[1] // 5), count=self.ranged(L.COUNT),
                      qualities=tuple(r.sample(QUALITIES, r.randint(0, min(3, len(QUALITIES))))),
                      item=self.text(L.ITEM_TEXT))

    def stat(self, spec):
        if spec.kind == "int":
            lo = spec.minimum if spec.minimum is not None else -10**6
            hi = spec.maximum if spec.maximum is not None else 10**6
            if spec.default is None and self.r.random() < 0.1:
                return None
            return self.ranged((lo, hi))
        if spec.kind == "bool":
            return self.r.random() < 0.5
        if spec.kind == "list":
            return self.some(lambda: self.text(L.ITEM_TEXT), 3)
        if spec.kind == "dice":
            return self.r.choice(DICE)
        return self.text(L.STAT_TEXT)

    def encounter(self) -> Encounter:
        r = self.r
        system = r.choice(SYSTEMS)
        rs = get(system)
        width, height = self.ranged(L.MAP_SIZE), self.ranged(L.MAP_SIZE)
        walls = frozenset((r.randrange(width), r.randrange(height)) for _ in range(r.randint(0, 6)))
        bands = self.ranged(L.BANDS)
        side_ids = list(dict.fromkeys(self.ident() for _ in range(r.randint(1, 3))))
        if r.random() < 0.05:  # now and then the most sides a setup may have
            side_ids = [f"s{i}" for i in range(L.MAX_SIDES)]
        sides = tuple(Side(sid, self.text(L.SIDE_NAME), f"#{r.randrange(0x1000000):06x}", r.choice(L.SHAPES),
                           is_player=r.random() < 0.5, morale=None if r.random() < 0.5 else r.randint(2, 12),
                           allies=tuple(r.sample(side_ids, r.randint(0, min(2, len(side_ids))))))
                      for sid in side_ids)
        taken: set = set(walls)
        combatants = []
        for cid in dict.fromkeys(self.ident() for _ in range(r.randint(0, 5))):
            square = None if r.random() < 0.3 else (r.randrange(width), r.randrange(height))
            if square in taken:
                square = None
            taken.add(square)
            weapons = ((Weapon("Dart", "1d4", kind="thrown"),) * L.MAX_WEAPONS if r.random() < 0.05
                       else self.some(self.weapon, 2))
            stats = {s.key: self.stat(s) for s in rs.stats() if r.random() < 0.5}
            combatants.append(Combatant(
                id=cid, name=self.text(L.COMBATANT_NAME), side=r.choice(side_ids), hp=self.ranged(L.HP),
                max_hp=self.ranged(L.MAX_HP), ac=self.ranged(L.AC), weapons=weapons,
                hands=self.some(lambda: self.text(L.ITEM_TEXT), L.MAX_HANDS),
                inventory=self.some(lambda: self.text(L.ITEM_TEXT), 3),
                conditions=self.some(lambda: self.text(L.CONDITION_TEXT), 3), stats=stats,
                band=None if r.random() < 0.3 else r.randrange(bands), square=square, notes=self.text(L.NOTES)))
        return Encounter(name=self.text(L.ENCOUNTER_NAME), system=system, profile=r.choice(rs.profiles),
                         combatants=tuple(combatants), sides=sides, map=MapSpec(width, height, walls), bands=bands,
                         seed=self.ranged(L.SEED))


@pytest.mark.parametrize("shard", range(SHARDS))
def test_random_setups_from_the_full_ranges_save_and_open_identically(shard):
    systems = set()
    for i in range(PER_SHARD):
        enc = Draw(shard * 1_000_003 + i).encounter()
        s = Session(enc, get(enc.system))
        back = storage.loads(storage.dumps(s)).session
        where = f"shard {shard}, setup {i}"
        assert back.encounter == s.encounter, where
        assert back.state == s.state, where
        assert list(back.log()) == list(s.log()), where
        systems.add(enc.system)
    assert systems == set(SYSTEMS)  # every system's setups were drawn
