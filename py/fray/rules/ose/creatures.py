"""OSE's starter creatures (fray/bestiary.py offers them in the roster picker), in its own stats.

The keys its rules read: `hd` (turn undead, OSE-TURN-2), `phys`/`dex` (OSE-ATK-1), `speed`
(OSE-MOVE-1), `undead` and `turn_row` (OSE-TURN-1), `ammo_die` (OSE-RES-1), `spells` (OSE-SPELL-5),
`grapple_bonus` (OSE-GRAP-1); weapon qualities (brace, two_handed, small...) and reach in feet. The
attack bonus of a monster's Hit Dice is in each weapon's `to_hit`. Morale belongs to a side
(OSE-MORALE-1), so a creature's usual score is in its notes.
"""
from __future__ import annotations

from typing import Any

from ...bestiary import creature, held, weapon


def _ose(name: str, hp: int, ac: int, hd: int, weapons: list, tags: str, speed: int = 120, **kw: Any) -> dict[str, Any]:
    keep = {k: kw.pop(k) for k in ("hands", "inventory", "note") if k in kw}
    stats = {"hd": hd, "phys": kw.pop("phys", 0), "dex": kw.pop("dex", 0), "speed": speed, **kw}
    return creature(name, hp, ac, weapons, stats, tags, **keep)


CREATURES: list[dict[str, Any]] = [
    _ose("Giant rat", 3, 12, 1, [weapon("Bite", "1d3")], "animal vermin", phys=-1, dex=1,
         note="Morale 8."),
    _ose("Wolf", 9, 12, 2, [weapon("Bite", "1d6", 1)], "animal pack", dex=1, speed=180, note="Morale 8."),
    _ose("Bandit", 5, 12, 1, [held("Short sword", "1d6"), held("Sling", "1d4", 0, "sling")], "humanoid human",
         hands=("Short sword", ""), inventory=("Sling", "Stones"), ammo_die="d8", note="Morale 8."),
    _ose("Restless bones", 6, 12, 1, [weapon("Claw", "1d4")], "undead", dex=-1, speed=60, undead=True,
         note="Morale 12: it never flees."),
    _ose("Goblin", 4, 12, 1, [held("Spear", "1d6", qualities=["brace", "piercing"]),
                              held("Sling", "1d4", 0, "sling")], "humanoid goblinoid", dex=1, speed=60,
         hands=("Spear", ""), inventory=("Sling", "Stones"), ammo_die="d8", note="Morale 7."),
    _ose("Orc", 6, 12, 1, [held("Sword", "1d8")], "humanoid orc", phys=1, hands=("Sword", "Shield"),
         inventory=("Dagger",), note="Morale 8. AC 13 with its shield."),
    _ose("Hobgoblin", 7, 13, 1, [held("Longsword", "1d8", 1)], "humanoid goblinoid", speed=90,
         hands=("Longsword", "Shield"), note="Morale 8. AC 14 with its shield."),
    _ose("Bugbear", 14, 14, 3, [held("Morningstar", "2d4", 2)], "humanoid goblinoid large", phys=1, speed=90,
         hands=("Morningstar", ""), note="Morale 9."),
    _ose("Kobold", 3, 12, 1, [held("Spear", "1d6", qualities=["brace", "piercing"])], "humanoid small",
         phys=-1, dex=1, speed=60, hands=("Spear", ""), note="Morale 6."),
    _ose("Gnoll", 11, 15, 2, [held("Battle axe", "1d8", 1, qualities=["two_handed"])], "humanoid", phys=1,
         speed=90, hands=("Battle axe", "Battle axe"), note="Morale 8. AC 14 with the two-handed axe."),
    _ose("Skeleton", 5, 13, 1, [held("Sword", "1d6")], "undead", speed=60, hands=("Sword", ""), undead=True,
         note="Morale 12."),
    _ose("Zombie", 9, 12, 2, [weapon("Slam", "1d8", 1)], "undead slow", dex=-1, speed=60, undead=True,
         note="Morale 12."),
    _ose("Ghoul", 9, 13, 2, [weapon("Claws", "1d3", 1), weapon("Bite", "1d3", 1)], "undead", speed=90, undead=True,
         turn_row="2*", note="Morale 9. Turned as the table's 2* row."),
    _ose("Wight", 14, 15, 3, [weapon("Touch", "1d6", 2)], "undead", speed=90, undead=True, note="Morale 12."),
    _ose("Giant spider", 13, 14, 3, [weapon("Bite", "2d6", 2)], "vermin giant", dex=1, speed=60,
         note="Morale 8. Poison is the referee's call."),
    _ose("Ogre", 19, 14, 4, [held("Great club", "1d10", 3, qualities=["two_handed"], reach=10)], "giant large",
         phys=1, speed=90, hands=("Great club", "Great club"), note="Morale 10. Reaches 10 ft."),
    _ose("Troll", 30, 15, 6, [weapon("Claws", "1d6", 5, reach=10), weapon("Bite", "1d10", 5)], "giant large", phys=1,
         reach_ft=10, note="Morale 10. Reaches 10 ft. Regenerates 3 HP a round: the referee heals it."),
    _ose("Bear", 22, 13, 5, [weapon("Claws", "1d6", 4), weapon("Bite", "1d8", 4)], "animal large", phys=1,
         grapple_bonus=3, note="Morale 8. Hugs: +3 to grapple."),
    _ose("Boar", 14, 13, 3, [weapon("Tusks", "2d4", 2)], "animal", speed=150, note="Morale 9."),
    _ose("Guard", 8, 14, 1, [held("Spear", "1d6", qualities=["brace", "piercing"]),
                             held("Crossbow", "1d6", 0, "crossbow")], "humanoid human",
         hands=("Spear", "Shield"), inventory=("Crossbow", "Bolts"), ammo_die="d10",
         note="Morale 8. AC 15 with its shield."),
    _ose("Archer", 5, 12, 1, [held("Shortbow", "1d6", 0, "bow"), held("Dagger", "1d4", qualities=["small"])],
         "humanoid human", dex=1, hands=("Shortbow", ""), inventory=("Dagger", "Arrows"), ammo_die="d8",
         note="Morale 7."),
    _ose("Cultist", 4, 11, 1, [held("Dagger", "1d4", qualities=["small"])], "humanoid human",
         hands=("Dagger", ""), note="Morale 7."),
    _ose("Acolyte", 6, 13, 1, [held("Mace", "1d6")], "humanoid human caster", hands=("Mace", ""),
         spells=["Cause Light Wounds (1d6+1)", "Darkness (blinded for 1 min)"],
         note="Morale 8. Memorises two spells."),
    _ose("Lizardfolk", 9, 14, 2, [held("Club", "1d6", 1)], "humanoid reptile", phys=1, speed=60,
         hands=("Club", ""), note="Morale 12."),
    _ose("Berserker", 6, 12, 1, [held("Greataxe", "1d10", 2, qualities=["two_handed"])], "humanoid human",
         phys=1, hands=("Greataxe", "Greataxe"), note="Morale 12. +2 to hit in its rage."),
    _ose("Giant snake", 18, 13, 4, [weapon("Bite", "1d4", 3)], "animal reptile large", speed=90, grapple_bonus=3,
         note="Morale 8. Constricts: +3 to grapple."),
]

# The quick party's classes (fray/quick_party.py: "Mira: fighter"), first-level PCs in OSE's terms; the first is
# the class of a name given without one. The casters' spells say what they do (engine/spells.py).
PCS: dict[str, dict[str, Any]] = {
    "fighter": _ose("Fighter", 8, 16, 0, [held("Longsword", "1d8"), held("Shortbow", "1d6", 0, "bow")], "pc",
                    phys=1, level=1, hands=("Longsword", "Shield"), inventory=("Shortbow", "Arrows"),
                    ammo_die="d8"),
    "cleric": _ose("Cleric", 6, 15, 0, [held("Mace", "1d6")], "pc", level=1, warpriest=True,
                   hands=("Mace", "Shield"), inventory=("Holy symbol",),
                   spells=["Cure Light Wounds (1d6+1 heal)"]),
    "magic-user": _ose("Magic-user", 4, 11, 0, [held("Dagger", "1d4", qualities=["small"])], "pc", dex=1, level=1,
                       hands=("Dagger", ""), spells=["Magic Missile (1d6+1 each)", "Sleep (asleep for 10 min)"]),
    "thief": _ose("Thief", 4, 13, 0, [held("Short sword", "1d6"), held("Shortbow", "1d6", 0, "bow")], "pc", dex=2,
                  level=1, hands=("Short sword", ""), inventory=("Shortbow", "Arrows"), ammo_die="d8"),
}
