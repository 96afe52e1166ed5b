"""Builders shared by the OSE tests: small encounters, loaded dice, and acting in one line.

(No tests here; pytest collects nothing from this module.)
"""
from __future__ import annotations

from fray.engine.commands import IllegalCommand
from fray.engine.dice import ScriptedDice
from fray.engine.model import Weapon, Combatant, Encounter, MapSpec, Side
from fray.engine.session import Session
from fray.rules.ose import RULESET
from fray.rules.ose import DEFAULTS, RollInitiative

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


def act(s: Session, cmd, *faces: int):
    """Apply a command with exactly these die faces (all must be used)."""
    dice = ScriptedDice(list(faces))
    step = s.act(cmd, dice)
    assert dice.exhausted, f"{len(dice.queue)} loaded faces unused by {cmd}"
    return step


def texts(step) -> list[str]:
    return [e.text for e in step.events]


def kinds(step) -> list[str]:
    return [e.kind for e in step.events]


def refused(s: Session, cmd) -> str:
    """The reason code a command is refused with (and assert it is refused)."""
    illegal = s.check(cmd)
    assert illegal is not None, f"{cmd} was allowed"
    return illegal.reason


def refusal(s: Session, cmd):
    illegal = s.check(cmd)
    assert illegal is not None, f"{cmd} was allowed"
    return illegal


def try_act(s: Session, cmd, *faces: int):
    try:
        return act(s, cmd, *faces)
    except IllegalCommand as exc:
        raise AssertionError(exc.illegal.detail) from None


def start(s: Session, *d12: int):
    """Roll initiative with these d12 faces (sides in encounter order)."""
    return act(s, RollInitiative(), *d12)


def sys(s: Session):
    return s.state.board


def c(s: Session, cid: str) -> Combatant:
    return s.state.get(cid)
