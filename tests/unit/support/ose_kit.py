"""Builders shared by the OSE tests: weapons, fighters, small encounters, starting a round."""
from __future__ import annotations

from fray.engine.model import Weapon, Combatant, Encounter, MapSpec, Side
from fray.engine.session import Session
from fray.rules.ose import RULESET
from fray.rules.ose import DEFAULTS, RollInitiative

from acting import act, refusal

SWORD = Weapon("Sword", "1d8", kind="melee", item="Sword")
DAGGER = Weapon("Dagger", "1d4", kind="melee", qualities=("small", "off_hand"), item="Dagger")
SPEAR = Weapon("Spear", "1d6", kind="melee", qualities=("brace",), item="Spear")
HALBERD = Weapon("Halberd", "1d10", kind="melee", reach=10, qualities=("reach", "two_handed"), item="Halberd")
GREATSWORD = Weapon("Greatsword", "1d10", kind="melee", qualities=("two_handed",), item="Greatsword")
BOW = Weapon("Bow", "1d6", kind="bow", item="Bow")
CROSSBOW = Weapon("Crossbow", "1d6", kind="crossbow", item="Crossbow")
SLING = Weapon("Sling", "1d4", kind="sling", item="Sling")
AXE_THROWN = Weapon("Hand axe", "1d6", kind="thrown", item="Hand axe")
CLAW = Weapon("Claw", "1d4", kind="natural")

A = Side("a", "Party", "#3366aa", is_player=True)
B = Side("b", "Goblins", "#aa3333", "square")
C = Side("c", "Bandits", "#33aa33", "diamond")


def fighter(cid: str, side: str = "a", square=None, *, hp: int = 10, ac: int = 10, weapons=(SWORD,),
            hands=("Sword", ""), inventory=(), conditions=(), **stats) -> Combatant:
    return Combatant(cid, cid.capitalize(), side, hp, hp, ac, weapons=tuple(weapons), hands=tuple(hands),
                     inventory=tuple(inventory), conditions=tuple(conditions),
                     stats={"speed": 120, **stats}, square=square)


def encounter(*combatants: Combatant, sides=(A, B), profile: str = "detailed", settings=None, width: int = 16,
              height: int = 12, walls=()) -> Encounter:
    return Encounter("Test", "ose", tuple(combatants), tuple(sides), profile=profile,
                     settings={**DEFAULTS, **(settings or {})}, map=MapSpec(width, height, frozenset(walls)), seed=3)


def session(*combatants: Combatant, **kw) -> Session:
    return Session(encounter(*combatants, **kw), RULESET)


def refused(s: Session, cmd) -> str:
    """The reason code a command is refused with (and assert it is refused)."""
    return refusal(s, cmd).reason


def start(s: Session, *d12: int):
    """Roll initiative with these d12 faces (sides in encounter order)."""
    return act(s, RollInitiative(), *d12)


def sys(s: Session):
    return s.state.board


def c(s: Session, cid: str) -> Combatant:
    return s.state.get(cid)
