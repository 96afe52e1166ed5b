"""Helpers for the Ogre tests: small encounters, loaded dice, stepping the count."""
from __future__ import annotations

from fray.engine.dice import ScriptedDice
from fray.engine.model import Weapon, Combatant, Encounter, MapSpec, Side
from fray.engine.session import Session, Step
from fray.rules.ogre import commands as oc
from fray.rules.ogre import RULESET

from acting import act

PARTY = Side("party", "Party", is_player=True)
ORCS = Side("orcs", "Orcs", shape="square")
AXE = Weapon("Axe", "1d8", to_hit=4)
SWORD = Weapon("Sword", "1d8", to_hit=5)
SPEAR = Weapon("Spear", "1d8", to_hit=4, qualities=("piercing",))
BOW = Weapon("Bow", "1d6", to_hit=5, kind="bow")


def orc(cid: str = "orc", square=(5, 4), **stats) -> Combatant:
    weapons = stats.pop("weapons", (AXE,))
    hp = stats.pop("hp", 15)
    conditions = stats.pop("conditions", ())
    base = {"dex": 0, "skill": 4, "defense": 13, "speed": 30}
    return Combatant(cid, cid.capitalize(), "orcs", hp, max(hp, 15), ac=13, weapons=weapons,
                     conditions=conditions, stats={**base, **stats}, square=square)


def pc(cid: str = "brak", square=(6, 4), **stats) -> Combatant:
    weapons = stats.pop("weapons", (SWORD,))
    hp = stats.pop("hp", 20)
    inventory = stats.pop("inventory", ())
    hands = stats.pop("hands", ("", ""))
    conditions = stats.pop("conditions", ())
    base = {"dex": 2, "skill": 6, "defense": 15, "defense_dex": 2, "speed": 30}
    return Combatant(cid, cid.capitalize(), "party", hp, max(hp, 20), ac=15, weapons=weapons, hands=hands,
                     inventory=inventory, conditions=conditions, stats={**base, **stats}, square=square)


def encounter(*combatants: Combatant, width: int = 12, height: int = 8, walls=frozenset(), **settings
              ) -> Encounter:
    merged = {**RULESET.default_settings(), **settings}
    return Encounter("Test", "ogre", tuple(combatants), (PARTY, ORCS), settings=merged,
                     map=MapSpec(width, height, frozenset(walls)))


def start(*combatants: Combatant, initiative=None, **kw) -> Session:
    """A session with initiative rolled; `initiative` are the d10 faces in combatant order."""
    s = Session(encounter(*combatants, **kw), RULESET)
    faces = initiative if initiative is not None else [1] * len(combatants)
    s.act(oc.RollInitiative(), ScriptedDice(faces))
    return s


def advance_to(s: Session, segment: int, *faces: int) -> Step:
    """Advance (next event) once; it must land exactly on `segment`."""
    step = act(s, oc.Advance(), *faces)
    assert s.state.board.segment == segment, f"advanced to {s.state.board.segment}, expected {segment}"
    return step


def fighter(s: Session, cid: str):
    return s.state.board.fighter(cid)


def orc_attacks_brak_at_14() -> Session:
    """The text's pair: the orc declares an attack on Brak at segment 14 (it resolves at 24); the count
    stands at 16, where Brak declares."""
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    advance_to(s, 16)
    return s
