"""OLOG's starter creatures (fray/bestiary.py offers them in the roster picker), in its own stats.

The keys its rules read: `pc` false and `hd` (static initiative 10 + HD, OLOG-INIT-2), a fixed
`init` for a creature notably quicker or slower than its HD, `long_reach` (threatens the next zone,
OLOG-PRES-1), `pressure_bonus` (OLOG-PRES-6), `caster` and `spells` (OLOG-SPELL-1); several attacks
in one action are a weapon's `count` (OLOG-ATK-1), read by no other system.
"""
from __future__ import annotations

from typing import Any

from ...bestiary import creature, held, weapon


def _olog(name: str, hp: int, ac: int, hd: int, weapons: list, tags: str, **kw: Any) -> dict[str, Any]:
    keep = {k: kw.pop(k) for k in ("hands", "inventory", "note") if k in kw}
    return creature(name, hp, ac, weapons, {"pc": False, "hd": hd, **kw}, tags, **keep)


CREATURES: list[dict[str, Any]] = [
    _olog("Cave rat", 2, 11, 0, [weapon("Bite", "1d3")], "animal vermin"),
    _olog("Wolf", 9, 12, 2, [weapon("Bite", "1d6", 1)], "animal pack"),
    _olog("Bandit", 5, 12, 1, [held("Club", "1d6")], "humanoid human", hands=("Club", ""), inventory=("Knife",)),
    _olog("Cave bear", 22, 13, 5, [weapon("Claw", "1d6", 2, count=2), weapon("Bite", "1d8", 2)], "animal large"),
    _olog("Goblin", 4, 12, 1, [held("Spear", "1d6"), held("Sling", "1d4", 0, "sling")], "humanoid goblinoid",
          hands=("Spear", ""), inventory=("Sling", "Stones")),
    _olog("Orc", 6, 13, 1, [held("Sword", "1d8")], "humanoid orc", hands=("Sword", ""),
          inventory=("Dagger", "Rations")),
    _olog("Hobgoblin", 8, 14, 2, [held("Longsword", "1d8", 1)], "humanoid goblinoid",
          hands=("Longsword", "Shield")),
    _olog("Bugbear", 14, 13, 3, [held("Morningstar", "1d10", 2)], "humanoid goblinoid large",
          hands=("Morningstar", ""), init=11, note="Sneaks up: a fixed count of 11, slower than its HD."),
    _olog("Kobold", 3, 12, 0, [held("Spear", "1d6")], "humanoid small", hands=("Spear", "")),
    _olog("Gnoll", 10, 13, 2, [held("Flail", "1d8", 1), held("Shortbow", "1d6", 0, "bow")], "humanoid",
          hands=("Flail", ""), inventory=("Shortbow", "Arrows")),
    _olog("Skeleton", 6, 13, 1, [held("Rusty sword", "1d6")], "undead", hands=("Rusty sword", "")),
    _olog("Zombie", 10, 11, 2, [weapon("Slam", "1d8")], "undead slow", init=8,
          note="Shambles: a fixed count of 8, below 10 + HD."),
    _olog("Ghoul", 12, 13, 2, [weapon("Claw", "1d4", 1, count=2), weapon("Bite", "1d6", 1)], "undead"),
    _olog("Giant spider", 14, 13, 3, [weapon("Bite", "1d8", 2)], "vermin giant", init=15,
          note="Quick to strike: a fixed count of 15."),
    _olog("Ogre", 25, 14, 4, [held("Great club", "2d6+2", 3)], "giant large", hands=("Great club", "Great club"),
          pressure_bonus=True, note="Its +2 adds to pressure (OLOG-PRES-6)."),
    _olog("Troll", 32, 15, 6, [weapon("Claw", "1d6", 4, count=2), weapon("Bite", "1d10", 4)], "giant large",
          note="Regenerates: the referee heals it 3 HP a round unless fire or acid hurt it."),
    _olog("Boar", 14, 13, 3, [weapon("Tusks", "1d8", 2)], "animal"),
    _olog("Guard", 8, 14, 2, [held("Halberd", "1d10", 1)], "humanoid human", hands=("Halberd", "Halberd"),
          inventory=("Dagger",), long_reach=True, note="The halberd reaches the next zone (OLOG-PRES-1)."),
    _olog("Cultist", 5, 11, 1, [held("Dagger", "1d4")], "humanoid human", hands=("Dagger", ""),
          inventory=("Robe", "Candle")),
    _olog("Acolyte", 7, 12, 1, [held("Mace", "1d6")], "humanoid human caster", hands=("Mace", ""),
          inventory=("Holy symbol",), caster=True, spells=["Bless", "Darkness"]),
    _olog("Giant bat", 5, 14, 1, [weapon("Bite", "1d4")], "animal flying", init=16,
          note="Darts in and out: a fixed count of 16."),
    _olog("Lizardfolk", 9, 14, 2, [held("Club", "1d6", 1), weapon("Bite", "1d4", 1)], "humanoid reptile",
          hands=("Club", "Shield")),
    _olog("Berserker", 9, 12, 1, [held("Greataxe", "1d10", 2)], "humanoid human", hands=("Greataxe", "Greataxe"),
          init=14, note="Rushes in: a fixed count of 14."),
]


def _pc(name: str, hp: int, ac: int, weapons: list, **kw: Any) -> dict[str, Any]:
    keep = {k: kw.pop(k) for k in ("hands", "inventory") if k in kw}
    return creature(name, hp, ac, weapons, {"pc": True, "level": 1, **kw}, "pc", **keep)


# The quick party's classes (fray/quick_party.py: "Mira: fighter"), first-level PCs who roll initiative
# (OLOG-INIT-1); the first is the class of a name given without one.
PCS: dict[str, dict[str, Any]] = {
    "fighter": _pc("Fighter", 10, 15, [held("Longsword", "1d8", 1), held("Shortbow", "1d6", 0, "bow")],
                   hands=("Longsword", "Shield"), inventory=("Shortbow", "Arrows")),
    "cleric": _pc("Cleric", 8, 14, [held("Mace", "1d6")], hands=("Mace", "Shield"), inventory=("Holy symbol",),
                  caster=True, spells=["Bless", "Cure Light Wounds (1d6+1 heal)"]),
    "magic-user": _pc("Magic-user", 5, 11, [held("Dagger", "1d4")], hands=("Dagger", ""), init_mod=1, caster=True,
                      spells=["Magic Missile (1d6+1 each)", "Sleep (asleep for 6 rounds)"]),
    "thief": _pc("Thief", 6, 13, [held("Short sword", "1d6"), held("Shortbow", "1d6", 0, "bow")],
                 hands=("Short sword", ""), inventory=("Shortbow", "Arrows"), init_mod=2),
}
