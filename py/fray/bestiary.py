"""The starter bestiary: ordinary creatures for each system, written for Fray, offered in the roster picker.

These are plain roster entries (fray/roster.py) with stats in each system's
own terms, and only the keys its rules read (docs/RULESETS.md):

- OLOG: `pc` false and `hd` (static initiative 10 + HD, OLOG-INIT-2), a
  fixed `init` for a creature notably quicker or slower than its HD,
  `long_reach` (threatens the next zone, OLOG-PRES-1), `pressure_bonus`
  (OLOG-PRES-6), `caster` and `spells` (OLOG-SPELL-1); several attacks in one
  action are a weapon's `count` (OLOG-ATK-1), read by no other system.
- OSE: `hd` (turn undead, OSE-TURN-2), `phys`/`dex` (OSE-ATK-1), `speed`
  (OSE-MOVE-1), `undead` and `turn_row` (OSE-TURN-1), `ammo_die` (OSE-RES-1),
  `spells` (OSE-SPELL-5), `grapple_bonus` (OSE-GRAP-1); weapon qualities
  (brace, two_handed, small...) and reach in feet. The attack bonus of a
  monster's Hit Dice is in each weapon's `to_hit`. Morale belongs to a side
  (OSE-MORALE-1), so a creature's usual score is in its notes.
- Ogre: `dex` and `reaction` (OGRE-INIT-1: 0 means 10 - DEX), `skill` and
  `defense` / `defense_dex` (OGRE-ATK-1, OGRE-FF-1), `speed` in feet,
  `caster`, `concentration` and `spellcraft` (OGRE-BREAK-1, OGRE-READY-1).

Each entry keeps its `source` and its `tags` (animal, undead, humanoid...),
which the picker's search matches. Nothing here is taken from a published
book: these are the generic animals, folk and monsters any referee would stat
alike. A weapon that takes both hands is listed in both hands.
"""
from __future__ import annotations

from typing import Any

SOURCE = "Starter bestiary (Fray)"
RULES = {"olog": "OLOG Combat and Pressure", "ose": "OSE house rules, Combat and Tactical Actions",
         "ogre": "Ogre Character Codex, Combat Sequence"}


def _w(name: str, damage: str, to_hit: int = 0, kind: str = "natural", **more: Any) -> dict[str, Any]:
    return {"name": name, "damage": damage, "to_hit": to_hit, "kind": kind, "reach": 5, **more}


def _held(name: str, damage: str, to_hit: int = 0, kind: str = "melee", **more: Any) -> dict[str, Any]:
    """A weapon that is an item (its name) to hold in hand."""
    return _w(name, damage, to_hit, kind, item=name, **more)


def _c(name: str, hp: int, ac: int, weapons: list, stats: dict, tags: str, hands=("", ""), inventory=(),
       note: str = "") -> dict[str, Any]:
    return {"name": name, "hp": hp, "max_hp": hp, "ac": ac, "weapons": weapons, "hands": list(hands),
            "inventory": list(inventory), "conditions": [], "stats": stats, "notes": note, "tags": tags.split()}


def _olog(name: str, hp: int, ac: int, hd: int, weapons: list, tags: str, **kw: Any) -> dict[str, Any]:
    keep = {k: kw.pop(k) for k in ("hands", "inventory", "note") if k in kw}
    return _c(name, hp, ac, weapons, {"pc": False, "hd": hd, **kw}, tags, **keep)


def _ose(name: str, hp: int, ac: int, hd: int, weapons: list, tags: str, speed: int = 120, **kw: Any) -> dict[str, Any]:
    keep = {k: kw.pop(k) for k in ("hands", "inventory", "note") if k in kw}
    stats = {"hd": hd, "phys": kw.pop("phys", 0), "dex": kw.pop("dex", 0), "speed": speed, **kw}
    return _c(name, hp, ac, weapons, stats, tags, **keep)


def _ogre(name: str, hp: int, ac: int, weapons: list, tags: str, dex: int = 0, skill: int = 0, speed: int = 30,
          **kw: Any) -> dict[str, Any]:
    keep = {k: kw.pop(k) for k in ("hands", "inventory", "note") if k in kw}
    stats = {"dex": dex, "reaction": kw.pop("reaction", 0), "skill": skill, "defense": kw.pop("defense", 0),
             "speed": speed, **kw}
    return _c(name, hp, ac, weapons, stats, tags, **keep)


_OLOG = [
    _olog("Cave rat", 2, 11, 0, [_w("Bite", "1d3")], "animal vermin"),
    _olog("Wolf", 9, 12, 2, [_w("Bite", "1d6", 1)], "animal pack"),
    _olog("Bandit", 5, 12, 1, [_held("Club", "1d6")], "humanoid human", hands=("Club", ""), inventory=("Knife",)),
    _olog("Cave bear", 22, 13, 5, [_w("Claw", "1d6", 2, count=2), _w("Bite", "1d8", 2)], "animal large"),
    _olog("Goblin", 4, 12, 1, [_held("Spear", "1d6"), _held("Sling", "1d4", 0, "sling")], "humanoid goblinoid",
          hands=("Spear", ""), inventory=("Sling", "Stones")),
    _olog("Orc", 6, 13, 1, [_held("Sword", "1d8")], "humanoid orc", hands=("Sword", ""),
          inventory=("Dagger", "Rations")),
    _olog("Hobgoblin", 8, 14, 2, [_held("Longsword", "1d8", 1)], "humanoid goblinoid",
          hands=("Longsword", "Shield")),
    _olog("Bugbear", 14, 13, 3, [_held("Morningstar", "1d10", 2)], "humanoid goblinoid large",
          hands=("Morningstar", ""), init=11, note="Sneaks up: a fixed count of 11, slower than its HD."),
    _olog("Kobold", 3, 12, 0, [_held("Spear", "1d6")], "humanoid small", hands=("Spear", "")),
    _olog("Gnoll", 10, 13, 2, [_held("Flail", "1d8", 1), _held("Shortbow", "1d6", 0, "bow")], "humanoid",
          hands=("Flail", ""), inventory=("Shortbow", "Arrows")),
    _olog("Skeleton", 6, 13, 1, [_held("Rusty sword", "1d6")], "undead", hands=("Rusty sword", "")),
    _olog("Zombie", 10, 11, 2, [_w("Slam", "1d8")], "undead slow", init=8,
          note="Shambles: a fixed count of 8, below 10 + HD."),
    _olog("Ghoul", 12, 13, 2, [_w("Claw", "1d4", 1, count=2), _w("Bite", "1d6", 1)], "undead"),
    _olog("Giant spider", 14, 13, 3, [_w("Bite", "1d8", 2)], "vermin giant", init=15,
          note="Quick to strike: a fixed count of 15."),
    _olog("Ogre", 25, 14, 4, [_held("Great club", "2d6+2", 3)], "giant large", hands=("Great club", "Great club"),
          pressure_bonus=True, note="Its +2 adds to pressure (OLOG-PRES-6)."),
    _olog("Troll", 32, 15, 6, [_w("Claw", "1d6", 4, count=2), _w("Bite", "1d10", 4)], "giant large",
          note="Regenerates: the referee heals it 3 HP a round unless fire or acid hurt it."),
    _olog("Boar", 14, 13, 3, [_w("Tusks", "1d8", 2)], "animal"),
    _olog("Guard", 8, 14, 2, [_held("Halberd", "1d10", 1)], "humanoid human", hands=("Halberd", "Halberd"),
          inventory=("Dagger",), long_reach=True, note="The halberd reaches the next zone (OLOG-PRES-1)."),
    _olog("Cultist", 5, 11, 1, [_held("Dagger", "1d4")], "humanoid human", hands=("Dagger", ""),
          inventory=("Robe", "Candle")),
    _olog("Acolyte", 7, 12, 1, [_held("Mace", "1d6")], "humanoid human caster", hands=("Mace", ""),
          inventory=("Holy symbol",), caster=True, spells=["Bless", "Darkness"]),
    _olog("Giant bat", 5, 14, 1, [_w("Bite", "1d4")], "animal flying", init=16,
          note="Darts in and out: a fixed count of 16."),
    _olog("Lizardfolk", 9, 14, 2, [_held("Club", "1d6", 1), _w("Bite", "1d4", 1)], "humanoid reptile",
          hands=("Club", "Shield")),
    _olog("Berserker", 9, 12, 1, [_held("Greataxe", "1d10", 2)], "humanoid human", hands=("Greataxe", "Greataxe"),
          init=14, note="Rushes in: a fixed count of 14."),
]

_OSE = [
    _ose("Giant rat", 3, 12, 1, [_w("Bite", "1d3")], "animal vermin", phys=-1, dex=1,
         note="Morale 8."),
    _ose("Wolf", 9, 12, 2, [_w("Bite", "1d6", 1)], "animal pack", dex=1, speed=180, note="Morale 8."),
    _ose("Bandit", 5, 12, 1, [_held("Short sword", "1d6"), _held("Sling", "1d4", 0, "sling")], "humanoid human",
         hands=("Short sword", ""), inventory=("Sling", "Stones"), ammo_die="d8", note="Morale 8."),
    _ose("Restless bones", 6, 12, 1, [_w("Claw", "1d4")], "undead", dex=-1, speed=60, undead=True,
         note="Morale 12: it never flees."),
    _ose("Goblin", 4, 12, 1, [_held("Spear", "1d6", qualities=["brace", "piercing"]),
                              _held("Sling", "1d4", 0, "sling")], "humanoid goblinoid", dex=1, speed=60,
         hands=("Spear", ""), inventory=("Sling", "Stones"), ammo_die="d8", note="Morale 7."),
    _ose("Orc", 6, 12, 1, [_held("Sword", "1d8")], "humanoid orc", phys=1, hands=("Sword", "Shield"),
         inventory=("Dagger",), note="Morale 8. AC 13 with its shield."),
    _ose("Hobgoblin", 7, 13, 1, [_held("Longsword", "1d8", 1)], "humanoid goblinoid", speed=90,
         hands=("Longsword", "Shield"), note="Morale 8. AC 14 with its shield."),
    _ose("Bugbear", 14, 14, 3, [_held("Morningstar", "2d4", 2)], "humanoid goblinoid large", phys=1, speed=90,
         hands=("Morningstar", ""), note="Morale 9."),
    _ose("Kobold", 3, 12, 1, [_held("Spear", "1d6", qualities=["brace", "piercing"])], "humanoid small",
         phys=-1, dex=1, speed=60, hands=("Spear", ""), note="Morale 6."),
    _ose("Gnoll", 11, 15, 2, [_held("Battle axe", "1d8", 1, qualities=["two_handed"])], "humanoid", phys=1,
         speed=90, hands=("Battle axe", "Battle axe"), note="Morale 8. AC 14 with the two-handed axe."),
    _ose("Skeleton", 5, 13, 1, [_held("Sword", "1d6")], "undead", speed=60, hands=("Sword", ""), undead=True,
         note="Morale 12."),
    _ose("Zombie", 9, 12, 2, [_w("Slam", "1d8", 1)], "undead slow", dex=-1, speed=60, undead=True,
         note="Morale 12."),
    _ose("Ghoul", 9, 13, 2, [_w("Claws", "1d3", 1), _w("Bite", "1d3", 1)], "undead", speed=90, undead=True,
         turn_row="2*", note="Morale 9. Turned as the table's 2* row."),
    _ose("Wight", 14, 15, 3, [_w("Touch", "1d6", 2)], "undead", speed=90, undead=True, note="Morale 12."),
    _ose("Giant spider", 13, 14, 3, [_w("Bite", "2d6", 2)], "vermin giant", dex=1, speed=60,
         note="Morale 8. Poison is the referee's call."),
    _ose("Ogre", 19, 14, 4, [_held("Great club", "1d10", 3, qualities=["two_handed"], reach=10)], "giant large",
         phys=1, speed=90, hands=("Great club", "Great club"), note="Morale 10. Reaches 10 ft."),
    _ose("Troll", 30, 15, 6, [_w("Claws", "1d6", 5, reach=10), _w("Bite", "1d10", 5)], "giant large", phys=1,
         reach_ft=10, note="Morale 10. Reaches 10 ft. Regenerates 3 HP a round: the referee heals it."),
    _ose("Bear", 22, 13, 5, [_w("Claws", "1d6", 4), _w("Bite", "1d8", 4)], "animal large", phys=1,
         grapple_bonus=3, note="Morale 8. Hugs: +3 to grapple."),
    _ose("Boar", 14, 13, 3, [_w("Tusks", "2d4", 2)], "animal", speed=150, note="Morale 9."),
    _ose("Guard", 8, 14, 1, [_held("Spear", "1d6", qualities=["brace", "piercing"]),
                             _held("Crossbow", "1d6", 0, "crossbow")], "humanoid human",
         hands=("Spear", "Shield"), inventory=("Crossbow", "Bolts"), ammo_die="d10",
         note="Morale 8. AC 15 with its shield."),
    _ose("Archer", 5, 12, 1, [_held("Shortbow", "1d6", 0, "bow"), _held("Dagger", "1d4", qualities=["small"])],
         "humanoid human", dex=1, hands=("Shortbow", ""), inventory=("Dagger", "Arrows"), ammo_die="d8",
         note="Morale 7."),
    _ose("Cultist", 4, 11, 1, [_held("Dagger", "1d4", qualities=["small"])], "humanoid human",
         hands=("Dagger", ""), note="Morale 7."),
    _ose("Acolyte", 6, 13, 1, [_held("Mace", "1d6")], "humanoid human caster", hands=("Mace", ""),
         spells=["Darkness", "Cause Fear"], note="Morale 8. Memorises two spells."),
    _ose("Lizardfolk", 9, 14, 2, [_held("Club", "1d6", 1)], "humanoid reptile", phys=1, speed=60,
         hands=("Club", ""), note="Morale 12."),
    _ose("Berserker", 6, 12, 1, [_held("Greataxe", "1d10", 2, qualities=["two_handed"])], "humanoid human",
         phys=1, hands=("Greataxe", "Greataxe"), note="Morale 12. +2 to hit in its rage."),
    _ose("Giant snake", 18, 13, 4, [_w("Bite", "1d4", 3)], "animal reptile large", speed=90, grapple_bonus=3,
         note="Morale 8. Constricts: +3 to grapple."),
]

_OGRE = [
    _ogre("Giant rat", 3, 13, [_w("Bite", "1d3")], "animal vermin", dex=2, skill=1, speed=40),
    _ogre("Wolf", 11, 13, [_w("Bite", "1d6", 2)], "animal pack", dex=2, skill=3, speed=50),
    _ogre("Bandit", 7, 12, [_held("Short sword", "1d6", 1)], "humanoid human", dex=1, skill=2,
          hands=("Short sword", "")),
    _ogre("Boar", 14, 14, [_w("Tusks", "1d8", 3)], "animal", skill=3, speed=40),
    _ogre("Goblin", 5, 15, [_held("Spear", "1d6", 2, qualities=["piercing"]), _held("Sling", "1d4", 2, "sling")],
          "humanoid goblinoid small", dex=1, skill=2, defense=15, defense_dex=1, hands=("Spear", ""),
          inventory=("Sling", "Stones")),
    _ogre("Orc", 15, 13, [_held("Axe", "1d8", 4)], "humanoid orc", skill=4, defense=13, hands=("Axe", ""),
          inventory=("Dagger",)),
    _ogre("Hobgoblin", 11, 15, [_held("Longsword", "1d8", 3)], "humanoid goblinoid", dex=1, skill=3, defense=15,
          defense_dex=1, hands=("Longsword", "Shield")),
    _ogre("Bugbear", 16, 15, [_held("Morningstar", "1d8", 5)], "humanoid goblinoid large", dex=1, skill=5,
          defense=15, defense_dex=1, hands=("Morningstar", "")),
    _ogre("Kobold", 4, 15, [_held("Spear", "1d6", 1, qualities=["piercing"])], "humanoid small", dex=1, skill=1,
          defense=15, defense_dex=1, hands=("Spear", "")),
    _ogre("Gnoll", 11, 15, [_held("Battleaxe", "1d8", 3)], "humanoid", skill=3, defense=15,
          hands=("Battleaxe", "Shield")),
    _ogre("Skeleton", 6, 13, [_held("Scimitar", "1d6", 1)], "undead", dex=1, skill=1, defense=13, defense_dex=1,
          hands=("Scimitar", "")),
    _ogre("Zombie", 16, 11, [_w("Slam", "1d6", 2)], "undead slow", dex=-1, reaction=14, skill=2, defense=11,
          note="Slow to react: reaction time 14."),
    _ogre("Ghoul", 13, 14, [_w("Bite", "1d6", 3), _w("Claws", "1d3", 3)], "undead", dex=2, skill=3, defense=14,
          defense_dex=2),
    _ogre("Giant spider", 11, 14, [_w("Bite", "1d6", 4, qualities=["piercing"])], "vermin giant", dex=3, skill=4,
          defense=14, defense_dex=3),
    _ogre("Ogre", 29, 16, [_held("Greatclub", "2d8", 8, reach=10)], "giant large", dex=-1, skill=8, defense=16,
          speed=40, hands=("Greatclub", "Greatclub"), note="Large: reaches 10 ft."),
    _ogre("Troll", 63, 16, [_w("Claws", "1d6", 9, reach=10), _w("Bite", "1d6", 9)], "giant large", dex=2, skill=9,
          defense=16, defense_dex=2, note="Large: its claws reach 10 ft. Regenerates 5 HP a round: the referee "
                                          "heals it unless fire or acid hurt it."),
    _ogre("Bear", 32, 15, [_w("Claws", "1d8", 8), _w("Bite", "2d6", 8)], "animal large", dex=1, skill=8,
          defense=15, defense_dex=1, speed=40),
    _ogre("Guard", 11, 16, [_held("Spear", "1d8", 3, qualities=["piercing"]),
                            _held("Crossbow", "1d8", 2, "crossbow")], "humanoid human", skill=3, defense=16,
          hands=("Spear", "Shield"), inventory=("Crossbow", "Bolts")),
    _ogre("Cultist", 6, 12, [_held("Dagger", "1d4", 1, qualities=["piercing"])], "humanoid human", dex=1, skill=1,
          defense=12, defense_dex=1, hands=("Dagger", "")),
    _ogre("Acolyte", 9, 15, [_held("Mace", "1d8", 1)], "humanoid human caster", skill=1, defense=15,
          hands=("Mace", ""), caster=True, concentration=5, spellcraft=3,
          note="Casts: a failed Concentration check after a hit breaks the spell (OGRE-BREAK-1)."),
    _ogre("Giant bat", 5, 16, [_w("Bite", "1d6", 3)], "animal flying", dex=4, skill=3, defense=16, defense_dex=4,
          speed=40),
    _ogre("Lizardfolk", 11, 15, [_held("Club", "1d6", 2), _w("Bite", "1d4", 2)], "humanoid reptile", skill=2,
          defense=15, hands=("Club", "Shield")),
    _ogre("Berserker", 13, 13, [_held("Greataxe", "1d12", 5)], "humanoid human", dex=1, skill=5, defense=13,
          defense_dex=1, hands=("Greataxe", "Greataxe")),
    _ogre("Giant snake", 19, 15, [_w("Bite", "1d3", 5)], "animal reptile large", dex=3, skill=5, defense=15,
          defense_dex=3, speed=20),
]

_CREATURES: dict[str, list[dict[str, Any]]] = {"olog": _OLOG, "ose": _OSE, "ogre": _OGRE}


def slug(name: str) -> str:
    """An id's last part: "Giant rat" -> "giant-rat"."""
    return name.lower().replace(" ", "-")


def entries() -> list[dict[str, Any]]:
    """Every starter creature as a roster entry (ids "starter-<system>-<slug>", never stored)."""
    out = []
    for system, creatures in _CREATURES.items():
        for c in creatures:
            body = {k: v for k, v in c.items() if k != "tags"}
            body["notes"] = f"{SOURCE}, for the {RULES[system]}." + (f" {c['notes']}" if c["notes"] else "")
            out.append({"id": f"starter-{system}-{slug(c['name'])}", "name": c["name"], "system": system,
                        "pc": False, "party": False, "cid": "", "combatant": body, "changed": 0,
                        "source": f"{SOURCE}: {RULES[system]}", "tags": list(c["tags"])})
    return out


def is_starter(entry_id: str) -> bool:
    return entry_id.startswith("starter-")
