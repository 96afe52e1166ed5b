"""Ogre's starter creatures (fray/bestiary.py offers them in the roster picker), in its own stats.

The keys its rules read: `dex` and `reaction` (OGRE-INIT-1: 0 means 10 -DEX), `skill` and `defense`
/ `defense_dex` (OGRE-ATK-1, OGRE-FF-1), `speed` in feet, `caster`, `concentration` and `spellcraft`
(OGRE-BREAK-1, OGRE-READY-1).
"""
from __future__ import annotations

from typing import Any

from ...bestiary import creature, held, weapon


def _ogre(name: str, hp: int, ac: int, weapons: list, tags: str, dex: int = 0, skill: int = 0, speed: int = 30,
          **kw: Any) -> dict[str, Any]:
    keep = {k: kw.pop(k) for k in ("hands", "inventory", "note") if k in kw}
    stats = {"dex": dex, "reaction": kw.pop("reaction", 0), "skill": skill, "defense": kw.pop("defense", 0),
             "speed": speed, **kw}
    return creature(name, hp, ac, weapons, stats, tags, **keep)


CREATURES: list[dict[str, Any]] = [
    _ogre("Giant rat", 3, 13, [weapon("Bite", "1d3")], "animal vermin", dex=2, skill=1, speed=40),
    _ogre("Wolf", 11, 13, [weapon("Bite", "1d6", 2)], "animal pack", dex=2, skill=3, speed=50),
    _ogre("Bandit", 7, 12, [held("Short sword", "1d6", 1)], "humanoid human", dex=1, skill=2,
          hands=("Short sword", "")),
    _ogre("Boar", 14, 14, [weapon("Tusks", "1d8", 3)], "animal", skill=3, speed=40),
    _ogre("Goblin", 5, 15, [held("Spear", "1d6", 2, qualities=["piercing"]), held("Sling", "1d4", 2, "sling")],
          "humanoid goblinoid small", dex=1, skill=2, defense=15, defense_dex=1, hands=("Spear", ""),
          inventory=("Sling", "Stones")),
    _ogre("Orc", 15, 13, [held("Axe", "1d8", 4)], "humanoid orc", skill=4, defense=13, hands=("Axe", ""),
          inventory=("Dagger",)),
    _ogre("Hobgoblin", 11, 15, [held("Longsword", "1d8", 3)], "humanoid goblinoid", dex=1, skill=3, defense=15,
          defense_dex=1, hands=("Longsword", "Shield")),
    _ogre("Bugbear", 16, 15, [held("Morningstar", "1d8", 5)], "humanoid goblinoid large", dex=1, skill=5,
          defense=15, defense_dex=1, hands=("Morningstar", "")),
    _ogre("Kobold", 4, 15, [held("Spear", "1d6", 1, qualities=["piercing"])], "humanoid small", dex=1, skill=1,
          defense=15, defense_dex=1, hands=("Spear", "")),
    _ogre("Gnoll", 11, 15, [held("Battleaxe", "1d8", 3)], "humanoid", skill=3, defense=15,
          hands=("Battleaxe", "Shield")),
    _ogre("Skeleton", 6, 13, [held("Scimitar", "1d6", 1)], "undead", dex=1, skill=1, defense=13, defense_dex=1,
          hands=("Scimitar", "")),
    _ogre("Zombie", 16, 11, [weapon("Slam", "1d6", 2)], "undead slow", dex=-1, reaction=14, skill=2, defense=11,
          note="Slow to react: reaction time 14."),
    _ogre("Ghoul", 13, 14, [weapon("Bite", "1d6", 3), weapon("Claws", "1d3", 3)], "undead", dex=2, skill=3, defense=14,
          defense_dex=2),
    _ogre("Giant spider", 11, 14, [weapon("Bite", "1d6", 4, qualities=["piercing"])], "vermin giant", dex=3, skill=4,
          defense=14, defense_dex=3),
    _ogre("Ogre", 29, 16, [held("Greatclub", "2d8", 8, reach=10)], "giant large", dex=-1, skill=8, defense=16,
          speed=40, hands=("Greatclub", "Greatclub"), note="Large: reaches 10 ft."),
    _ogre("Troll", 63, 16, [weapon("Claws", "1d6", 9, reach=10), weapon("Bite", "1d6", 9)], "giant large", dex=2, skill=9,
          defense=16, defense_dex=2, note="Large: its claws reach 10 ft. Regenerates 5 HP a round: the referee "
                                          "heals it unless fire or acid hurt it."),
    _ogre("Bear", 32, 15, [weapon("Claws", "1d8", 8), weapon("Bite", "2d6", 8)], "animal large", dex=1, skill=8,
          defense=15, defense_dex=1, speed=40),
    _ogre("Guard", 11, 16, [held("Spear", "1d8", 3, qualities=["piercing"]),
                            held("Crossbow", "1d8", 2, "crossbow")], "humanoid human", skill=3, defense=16,
          hands=("Spear", "Shield"), inventory=("Crossbow", "Bolts")),
    _ogre("Cultist", 6, 12, [held("Dagger", "1d4", 1, qualities=["piercing"])], "humanoid human", dex=1, skill=1,
          defense=12, defense_dex=1, hands=("Dagger", "")),
    _ogre("Acolyte", 9, 15, [held("Mace", "1d8", 1)], "humanoid human caster", skill=1, defense=15,
          hands=("Mace", ""), caster=True, concentration=5, spellcraft=3,
          note="Casts: a failed Concentration check after a hit breaks the spell (OGRE-BREAK-1)."),
    _ogre("Giant bat", 5, 16, [weapon("Bite", "1d6", 3)], "animal flying", dex=4, skill=3, defense=16, defense_dex=4,
          speed=40),
    _ogre("Lizardfolk", 11, 15, [held("Club", "1d6", 2), weapon("Bite", "1d4", 2)], "humanoid reptile", skill=2,
          defense=15, hands=("Club", "Shield")),
    _ogre("Berserker", 13, 13, [held("Greataxe", "1d12", 5)], "humanoid human", dex=1, skill=5, defense=13,
          defense_dex=1, hands=("Greataxe", "Greataxe")),
    _ogre("Giant snake", 19, 15, [weapon("Bite", "1d3", 5)], "animal reptile large", dex=3, skill=5, defense=15,
          defense_dex=3, speed=20),
]

# The quick party's classes (fray/quick_party.py: "Mira: fighter"), starting PCs in Ogre's terms; the first is
# the class of a name given without one.
PCS: dict[str, dict[str, Any]] = {
    "fighter": _ogre("Fighter", 14, 16, [held("Longsword", "1d8", 4), held("Shortbow", "1d6", 3, "bow")], "pc",
                     dex=1, skill=4, defense=16, defense_dex=1, hands=("Longsword", "Shield"),
                     inventory=("Shortbow", "Arrows")),
    "cleric": _ogre("Cleric", 11, 15, [held("Mace", "1d8", 2)], "pc", skill=2, defense=15, hands=("Mace", "Shield"),
                    caster=True, concentration=5, spellcraft=3, spells=["Cure Light Wounds (1d8 heal)"]),
    "magic-user": _ogre("Magic-user", 7, 12, [held("Dagger", "1d4", 1, qualities=["piercing"])], "pc", dex=2,
                        skill=1, defense=12, defense_dex=2, hands=("Dagger", ""), caster=True, concentration=6,
                        spellcraft=5, spells=["Magic Missile (1d4+1 each)", "Sleep (asleep for 1 min)"]),
    "thief": _ogre("Thief", 9, 14, [held("Short sword", "1d6", 3), held("Shortbow", "1d6", 3, "bow")], "pc", dex=3,
                   skill=3, defense=14, defense_dex=3, hands=("Short sword", ""), inventory=("Shortbow", "Arrows")),
}
