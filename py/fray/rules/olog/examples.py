"""Ready-made OLOG encounters: the text's three pressure examples, a skirmish, a large fight.

Each builder takes a seed (the encounter's dice seed) and returns an
Encounter; tests, benchmarks, the conformance playout and the page's
"examples" menu use them.
"""
from __future__ import annotations

from typing import Callable

from ...engine.model import Weapon, Combatant, Encounter, Side

PARTY = Side("party", "Party", "#3b6ea8", "circle", is_player=True)
ORCS = Side("orcs", "Orcs", "#a83b3b", "square")
BEASTS = Side("beasts", "Beasts", "#7a4fa0", "diamond")
HUMANS = Side("humans", "Cutthroats", "#8a6d1f", "triangle")
GOBLINS = Side("goblins", "Goblins", "#3f8a3b", "hexagon")
ELVES = Side("elves", "Elves", "#2b8a8a", "star", allies=("party",))


def sword(damage: str = "1d8", to_hit: int = 0) -> Weapon:
    return Weapon("Sword", damage, to_hit=to_hit, item="Sword")


def pc(cid: str, name: str, *, hp: int = 12, ac: int = 14, level: int = 2, band: int = 2,
       weapons: tuple[Weapon, ...] = (), hands: tuple[str, ...] = ("Sword", ""),
       inventory: tuple[str, ...] = ("Torch", "Rope", "Rations", "Spare dagger"), **stats) -> Combatant:
    return Combatant(cid, name, PARTY.id, hp, hp, ac, weapons or (sword("1d8", 2),), hands, inventory,
                     stats={"pc": True, "level": level, "init_mod": 0, **stats}, band=band)


def npc(cid: str, name: str, side: Side, *, hp: int = 6, ac: int = 13, hd: int = 1, band: int = 2,
        weapons: tuple[Weapon, ...] = (), hands: tuple[str, ...] = ("", ""),
        inventory: tuple[str, ...] = (), **stats) -> Combatant:
    return Combatant(cid, name, side.id, hp, hp, ac, weapons, hands, inventory,
                     stats={"pc": False, "hd": hd, **stats}, band=band)


def _encounter(name: str, seed: int, combatants: tuple[Combatant, ...], sides: tuple[Side, ...],
               bands: int = 6) -> Encounter:
    return Encounter(name=name, system="olog", combatants=combatants, sides=sides, bands=bands, seed=seed)


def two_orcs(seed: int = 1) -> Encounter:
    """The text's first example: threatened by two orcs with d8 swords -> d4, minimum 2."""
    orcs = tuple(npc(f"orc{i}", f"Orc {i}", ORCS, weapons=(sword("1d8"),), hands=("Sword", ""))
                 for i in (1, 2))
    return _encounter("Two orcs", seed, (pc("brak", "Brak"),) + orcs, (PARTY, ORCS))


def superpredator(seed: int = 1) -> Encounter:
    """The second: a badlands superpredator with a d10 bite and two d6 claws -> d5."""
    beast = npc("beast", "Badlands superpredator", BEASTS, hp=30, ac=15, hd=6,
                weapons=(Weapon("Bite", "1d10", to_hit=4, kind="natural"),
                         Weapon("Claws", "1d6", to_hit=4, kind="natural", count=2)))
    return _encounter("Badlands superpredator", seed, (pc("brak", "Brak", hp=18, level=4),beast),
                      (PARTY, BEASTS))


def eight_humans(seed: int = 1) -> Encounter:
    """The third: eight humans with d6 knives -> 8 damage every time."""
    humans = tuple(npc(f"human{i}", f"Human {i}", HUMANS, hp=4, ac=11,
                       weapons=(Weapon("Knife", "1d6", item="Knife"),), hands=("Knife", ""))
                   for i in range(1, 9))
    return _encounter("Eight humans", seed, (pc("brak", "Brak", hp=20, level=3),) + humans, (PARTY, HUMANS))


def skirmish(seed: int = 1) -> Encounter:
    """Two PCs against four goblins spread over the zones: a spear-goblin that
    reaches the next zone, an archer two zones back, a chief with a shield."""
    brak = pc("brak", "Brak", hp=14, ac=13, level=2, band=1, hands=("Sword", "Shield"),
              inventory=("Torch", "Rope", "Rations"), init_mod=1)
    mira = pc("mira", "Mira", hp=9, ac=11, level=2, band=0,
              weapons=(Weapon("Staff", "1d4", item="Staff"), Weapon("Sling", "1d4", kind="sling", item="Sling")),
              hands=("Staff", ""), inventory=("Spellbook", "Sling", "Lantern", "Chalk"),
              caster=True, spells=("Sleep (asleep for 6 rounds)", "Magic Missile (1d6+1 each)"))
    goblins = (
        npc("gob1", "Goblin 1", GOBLINS, hp=4, ac=12, band=2, weapons=(Weapon("Club", "1d6", item="Club"),),
            hands=("Club", "")),
        npc("gob2", "Goblin spear", GOBLINS, hp=5, ac=12, band=2, long_reach=True,
            weapons=(Weapon("Spear", "1d8", item="Spear"),), hands=("Spear", "")),
        npc("gob3", "Goblin archer", GOBLINS, hp=4, ac=12, band=4,
            weapons=(Weapon("Shortbow", "1d6", kind="bow", item="Shortbow"), Weapon("Knife", "1d4", item="Knife")),
            hands=("Shortbow", ""), inventory=("Knife",)),
        npc("chief", "Goblin chief", GOBLINS, hp=9, ac=14, hd=2, band=3, init=14,
            weapons=(Weapon("Axe", "1d8+1", to_hit=1, item="Axe"),), hands=("Axe", "Shield"),
            pressure_bonus=True),
    )
    return _encounter("Goblin skirmish", seed, (brak, mira) + goblins, (PARTY, GOBLINS))


def large(seed: int = 1) -> Encounter:
    """Forty combatants on four sides (the party and elves allied) over eight zones."""
    cs: list[Combatant] = []
    for i in range(6):
        cs.append(pc(f"pc{i + 1}", f"Hero {i + 1}", hp=10 + i, level=1 + i % 4, band=1 + i % 3,
                     init_mod=i % 2))
    for i in range(6):
        cs.append(npc(f"elf{i + 1}", f"Elf {i + 1}", ELVES, hp=7, ac=14, hd=2, band=i % 3,
                      weapons=(sword("1d8", 1), Weapon("Longbow", "1d8", kind="bow", item="Longbow")),
                      hands=("Sword", ""), inventory=("Longbow", "Arrows", "Cloak")))
    for i in range(16):
        cs.append(npc(f"orc{i + 1}", f"Orc {i + 1}", ORCS, hp=6 + i % 3, band=3 + i % 4,
                      weapons=(sword("1d8"),), hands=("Sword", "Shield" if i % 4 == 0 else ""),
                      inventory=("Dagger", "Rations"), long_reach=i % 5 == 0))
    for i in range(12):
        cs.append(npc(f"gob{i + 1}", f"Goblin {i + 1}", GOBLINS, hp=4, ac=12, band=4 + i % 4,
                      weapons=(Weapon("Spear", "2d6", item="Spear"), Weapon("Bite", "1d3", kind="natural")),
                      hands=("Spear", ""), inventory=("Sling",)))
    return _encounter("Battle at the ford", seed, tuple(cs), (PARTY, ELVES, ORCS, GOBLINS), bands=8)


def examples() -> dict[str, Callable[[int], Encounter]]:
    """Name -> builder taking a seed."""
    return {
        "two_orcs": two_orcs,
        "superpredator": superpredator,
        "eight_humans": eight_humans,
        "skirmish": skirmish,
        "large": large,
    }
