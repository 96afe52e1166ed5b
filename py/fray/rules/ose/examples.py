"""Example OSE encounters (loose, detailed, undead, large) for the page, the tests and the benchmarks.

Each builder takes a seed (the encounter's dice seed) and returns an Encounter.
Weapons that take both hands (two-handed, reach) are listed in both hands.
"""
from __future__ import annotations

from typing import Callable

from ...engine.model import Weapon, Combatant, Encounter, MapSpec, Side
from .state import DEFAULTS

SWORD = Weapon("Sword", "1d8", kind="melee", item="Sword")
DAGGER = Weapon("Dagger", "1d4", kind="melee", qualities=("small", "off_hand"), item="Dagger")
THROWN_DAGGER = Weapon("Thrown dagger", "1d4", kind="thrown", qualities=("small",), item="Dagger")
SPEAR = Weapon("Spear", "1d6", kind="melee", qualities=("brace", "piercing"), item="Spear")
HALBERD = Weapon("Halberd", "1d10", kind="melee", reach=10, qualities=("reach",), item="Halberd")
GREATAXE = Weapon("Greataxe", "1d10", kind="melee", qualities=("two_handed",), item="Greataxe")
MACE = Weapon("Mace", "1d6", kind="melee", item="Mace")
SHORTBOW = Weapon("Shortbow", "1d6", kind="bow", item="Shortbow")
CROSSBOW = Weapon("Crossbow", "1d6", kind="crossbow", item="Crossbow")
SLING = Weapon("Sling", "1d4", kind="sling", item="Sling")
CLAW = Weapon("Claw", "1d3", kind="natural")
BITE = Weapon("Bite", "1d4", kind="natural")

PARTY = Side("party", "Party", "#3b6ea8", "circle", is_player=True)
GOBLINS = Side("goblins", "Goblins", "#a83b3b", "square", morale=7)
ORCS = Side("orcs", "Orcs", "#7a5a1e", "diamond", morale=8)
UNDEAD = Side("undead", "Crypt", "#5e3ba8", "hexagon")


def _c(cid: str, name: str, side: str, hp: int, ac: int, weapons: tuple[Weapon, ...], hands: tuple[str, str],
       square: tuple[int, int] | None = None, inventory: tuple[str, ...] = (), **stats) -> Combatant:
    return Combatant(cid, name, side, hp, hp, ac, weapons=weapons, hands=hands, inventory=inventory,
                     stats={"phys": 0, "dex": 0, "speed": 120, **stats}, square=square)


def loose(seed: int = 1) -> Encounter:
    """Three adventurers against three goblins, theatre of the mind (OSE-LOOSE-1)."""
    cs = (
        _c("brak", "Brak", "party", 9, 14, (SWORD,), ("Sword", "Shield"), inventory=("Dagger",), phys=1),
        _c("mira", "Mira", "party", 4, 10, (DAGGER, THROWN_DAGGER), ("Dagger", ""), inventory=("Dagger",),
           spells=("Sleep (asleep for 10 min)", "Magic Missile (1d6+1 each)"), dex=1),
        _c("hal", "Hal", "party", 6, 12, (SHORTBOW, DAGGER), ("Shortbow", ""), inventory=("Dagger",), dex=2,
           ammo_die="d8"),
        _c("g1", "Goblin 1", "goblins", 4, 12, (SPEAR,), ("Spear", "")),
        _c("g2", "Goblin 2", "goblins", 3, 11, (SWORD,), ("Sword", "")),
        _c("g3", "Goblin 3", "goblins", 3, 11, (SLING, DAGGER), ("Sling", ""), inventory=("Dagger",), dex=1),
    )
    return Encounter("Goblin ambush (loose)", "ose", cs, (PARTY, GOBLINS), profile="loose",
                     settings=dict(DEFAULTS), seed=seed)


def detailed(seed: int = 1) -> Encounter:
    """Three adventurers against three orcs on a 16x12 grid: a caster, a bow, a shield; a spear
    (brace), a halberd (reach) and a crossbow."""
    walls = frozenset({(7, y) for y in range(0, 4)} | {(8, y) for y in range(8, 12)})
    cs = (
        _c("brak", "Brak", "party", 10, 14, (SWORD,), ("Sword", "Shield"), square=(4, 5), inventory=("Dagger",),
           phys=1, backpack=("Rope", "Torches")),
        _c("mira", "Mira", "party", 4, 10, (DAGGER, THROWN_DAGGER), ("Dagger", ""), square=(2, 6),
           inventory=("Dagger",), spells=("Sleep (asleep for 10 min)", "Magic Missile (1d6+1 each)"), dex=1),
        _c("hal", "Hal", "party", 6, 12, (SHORTBOW, DAGGER), ("Shortbow", ""), square=(2, 4), inventory=("Dagger",),
           dex=2, ammo_die="d8"),
        _c("o1", "Orc spearman", "orcs", 6, 13, (SPEAR,), ("Spear", "Shield"), square=(11, 5), phys=1),
        _c("o2", "Orc halberdier", "orcs", 7, 12, (HALBERD,), ("Halberd", "Halberd"), square=(12, 6), phys=1),
        _c("o3", "Orc crossbowman", "orcs", 5, 11, (CROSSBOW, DAGGER), ("Crossbow", ""), square=(14, 4),
           inventory=("Dagger",), dex=1, ammo_die="d6"),
    )
    return Encounter("Orc patrol (detailed)", "ose", cs, (PARTY, ORCS), profile="detailed",
                     settings=dict(DEFAULTS), map=MapSpec(16, 12, walls), seed=seed)


def undead(seed: int = 1) -> Encounter:
    """A Warpriest and a fighter against a crypt's skeletons, zombies and a ghoul (OSE-TURN-1..4)."""
    cs = (
        _c("aldric", "Aldric", "party", 12, 15, (MACE,), ("Mace", "Holy symbol"), square=(3, 5), inventory=("Shield",),
           warpriest=True, level=2, favoured_weapon="Mace", phys=1),
        _c("brak", "Brak", "party", 10, 14, (SWORD,), ("Sword", "Shield"), square=(3, 7), phys=1),
        _c("s1", "Skeleton 1", "undead", 5, 13, (SWORD,), ("Sword", ""), square=(9, 4), undead=True, hd=1,
           group="crypt", speed=60),
        _c("s2", "Skeleton 2", "undead", 4, 13, (SWORD,), ("Sword", ""), square=(9, 6), undead=True, hd=1,
           group="crypt", speed=60),
        _c("s3", "Skeleton 3", "undead", 6, 13, (SWORD,), ("Sword", ""), square=(10, 8), undead=True, hd=1,
           group="crypt", speed=60),
        _c("z1", "Zombie 1", "undead", 9, 12, (CLAW,), ("", ""), square=(11, 5), undead=True, hd=2, group="crypt",
           speed=60),
        _c("z2", "Zombie 2", "undead", 8, 12, (CLAW,), ("", ""), square=(11, 7), undead=True, hd=2, group="crypt",
           speed=60),
        _c("gh", "Ghoul", "undead", 10, 14, (CLAW, BITE), ("", ""), square=(12, 6), undead=True, hd=2,
           turn_row="2*", group="crypt", speed=90),
    )
    return Encounter("Crypt (undead)", "ose", cs, (PARTY, UNDEAD), profile="detailed",
                     settings=dict(DEFAULTS), map=MapSpec(16, 12), seed=seed)


def large(seed: int = 1) -> Encounter:
    """Forty combatants, twenty a side, on a 30x20 grid (benchmarks)."""
    kits = [
        ((SWORD,), ("Sword", "Shield"), {}),
        ((SPEAR,), ("Spear", ""), {}),
        ((HALBERD,), ("Halberd", "Halberd"), {}),
        ((SHORTBOW, DAGGER), ("Shortbow", ""), {"dex": 1, "ammo_die": "d8"}),
        ((GREATAXE,), ("Greataxe", "Greataxe"), {"phys": 1}),
    ]
    cs = []
    for i in range(20):
        atk, hands, extra = kits[i % len(kits)]
        cs.append(_c(f"p{i + 1}", f"Soldier {i + 1}", "party", 6 + i % 4, 12 + i % 3, atk, hands,
                     square=(3 + (i % 4), 1 + i // 4 * 4 % 20 + i % 3), **extra))
        atk, hands, extra = kits[(i + 2) % len(kits)]
        cs.append(_c(f"o{i + 1}", f"Orc {i + 1}", "orcs", 5 + i % 4, 12 + (i + 1) % 3, atk, hands,
                     square=(24 + (i % 4), 1 + i // 4 * 4 % 20 + i % 3), **extra))
    mira = cs[0]
    cs[0] = _c(mira.id, "Mira", "party", 5, 10, (DAGGER,), ("Dagger", ""), square=mira.square,
               spells=("Sleep (asleep for 10 min)", "Magic Missile (1d6+1 each)"))
    seen = set()
    for c in cs:
        assert c.square not in seen, c.square
        seen.add(c.square)
    return Encounter("Battle (large)", "ose", tuple(cs), (PARTY, ORCS), profile="detailed",
                     settings=dict(DEFAULTS), map=MapSpec(30, 20), seed=seed)


def examples() -> dict[str, Callable[[int], Encounter]]:
    return {"loose": loose, "detailed": detailed, "undead": undead, "large": large}
