"""Ready-made Ogre encounters: the text's orc-and-PC example, three against three, twelve, and forty for benchmarks.

Each builder takes the encounter's dice seed; layouts are fixed so a seed
names one exact fight.
"""
from __future__ import annotations

from typing import Callable

from ...engine.model import Weapon, Combatant, Encounter, MapSpec, Side

PARTY = Side("party", "Party", "#3b6ea8", "circle", is_player=True)
ORCS = Side("orcs", "Orcs", "#a83b3b", "square")

SWORD = Weapon("Sword", "1d8", to_hit=5, item="sword")
AXE = Weapon("Axe", "1d8", to_hit=4, item="axe")
SPEAR = Weapon("Spear", "1d8", to_hit=4, item="spear", qualities=("piercing",))
BOW = Weapon("Bow", "1d6", to_hit=5, kind="bow", reach=5, item="bow")
DAGGER = Weapon("Dagger", "1d4", to_hit=3, item="dagger", qualities=("piercing",))
STAFF = Weapon("Staff", "1d6", to_hit=2, item="staff")


def _pc(cid: str, name: str, square: tuple[int, int], **kw) -> Combatant:
    return Combatant(cid, name, "party", kw.pop("hp", 20), kw.pop("max_hp", 20), **kw, square=square)


def _orc(cid: str, name: str, square: tuple[int, int], **kw) -> Combatant:
    return Combatant(cid, name, "orcs", kw.pop("hp", 15), kw.pop("max_hp", 15), **kw, square=square)


def orc_and_pc(seed: int = 1) -> Encounter:
    """The text's example (OGRE-EX-1): an orc, reaction time 10, and a PC with
    DEX +2 (reaction time 8), face to face. Initiative dice go orc first."""
    orc = _orc("orc", "Orc", (5, 4), ac=13, weapons=(AXE,), hands=("axe", ""),
               stats={"dex": 0, "skill": 4, "defense": 13, "speed": 30})
    brak = _pc("brak", "Brak", (6, 4), ac=15, weapons=(SWORD,), hands=("sword", ""), inventory=("dagger",),
               stats={"dex": 2, "skill": 6, "defense": 15, "defense_dex": 2, "speed": 30})
    return Encounter("Orc and PC (the text's example)", "ogre", (orc, brak), (PARTY, ORCS), map=MapSpec(12, 8),
                     seed=seed)


def three_vs_three(seed: int = 1) -> Encounter:
    """A fighter, an archer and a caster against two orcs and an orc shaman, on a walled field."""
    walls = frozenset({(8, y) for y in range(2, 5)} | {(3, 8), (4, 8)})
    cs = (
        _pc("brak", "Brak", (3, 3), ac=15, weapons=(SWORD,), hands=("sword", ""), inventory=("dagger",),
            stats={"dex": 2, "skill": 6, "defense": 15, "defense_dex": 2, "speed": 30}),
        _pc("mira", "Mira", (2, 5), hp=14, max_hp=14, ac=13, weapons=(BOW, DAGGER), hands=("bow", ""),
            inventory=("dagger",), stats={"dex": 3, "skill": 5, "defense": 13, "defense_dex": 3, "speed": 30}),
        _pc("sable", "Sable", (2, 2), hp=12, max_hp=12, ac=11, weapons=(STAFF,), hands=("staff", ""),
            stats={"dex": 1, "skill": 2, "defense": 11, "defense_dex": 1, "speed": 30, "caster": True,
                   "concentration": 4, "spellcraft": 6}),
        _orc("orc1", "Orc 1", (12, 3), ac=13, weapons=(AXE,), hands=("axe", ""),
             stats={"dex": 0, "skill": 4, "defense": 13, "speed": 30}),
        _orc("orc2", "Orc 2", (12, 6), ac=13, weapons=(SPEAR,), hands=("spear", ""),
             stats={"dex": 1, "skill": 4, "defense": 13, "defense_dex": 1, "speed": 30}),
        _orc("shaman", "Orc shaman", (14, 4), hp=11, max_hp=11, ac=11, weapons=(STAFF,), hands=("staff", ""),
             stats={"dex": 0, "skill": 2, "defense": 11, "speed": 30, "caster": True, "concentration": 3,
                    "spellcraft": 4}),
    )
    return Encounter("Three against three", "ogre", cs, (PARTY, ORCS), map=MapSpec(16, 10, walls), seed=seed)


def _line_up(n: int, width: int, height: int) -> tuple[Combatant, ...]:
    """n per side, facing each other across the board, with a mix of weapons and Dexterity."""
    out = []
    for i in range(n):
        y = 1 + (i * 2) % (height - 2)
        col = (i * 2) // (height - 2)
        kit = (SWORD, SPEAR, AXE, BOW)[i % 4]
        dexterity = (i % 4) - 1
        out.append(_pc(f"pc{i + 1}", f"Hero {i + 1}", (2 + col, y), ac=14, weapons=(kit, DAGGER),
                       hands=(kit.item, ""), inventory=("dagger",),
                       stats={"dex": dexterity, "skill": 5, "defense": 14, "defense_dex": max(0, dexterity),
                              "speed": 30, "caster": i % 5 == 4, "concentration": 3, "spellcraft": 4}))
        okit = (AXE, SPEAR, SWORD, BOW)[i % 4]
        out.append(_orc(f"orc{i + 1}", f"Orc {i + 1}", (width - 3 - col, y), ac=13, weapons=(okit,),
                        hands=(okit.item, ""),
                        stats={"dex": (i % 3) - 1, "skill": 4, "defense": 13, "defense_dex": max(0, (i % 3) - 1),
                               "speed": 30, "caster": i % 6 == 5, "concentration": 2, "spellcraft": 3}))
    return tuple(out)


def twelve(seed: int = 1) -> Encounter:
    """Six against six: enough lanes to judge the segment ruler's readability."""
    return Encounter("Twelve", "ogre", _line_up(6, 20, 14), (PARTY, ORCS), map=MapSpec(20, 14), seed=seed)


def large(seed: int = 1) -> Encounter:
    """Twenty against twenty on a wide field, for benchmarks."""
    walls = frozenset({(15, y) for y in range(4, 9)} | {(15, y) for y in range(13, 18)})
    return Encounter("Forty", "ogre", _line_up(20, 30, 22), (PARTY, ORCS), map=MapSpec(30, 22, walls), seed=seed)


def examples() -> dict[str, Callable[[int], Encounter]]:
    return {"orc_and_pc": orc_and_pc, "three_vs_three": three_vs_three, "twelve": twelve, "large": large}
