"""The starter bestiary: a few generic creatures per system, written for Fray, offered in the roster picker.

These are plain roster entries (fray/roster.py) with stats in each system's
own terms: OLOG's Hit Dice, OSE's PHYS/DEX modifiers and speed, Ogre's
reaction time, combat skill and defense. They are not taken from any
published book: ordinary animals and folk any referee would stat alike.
"""
from __future__ import annotations

from typing import Any


def _w(name: str, damage: str, to_hit: int = 0, kind: str = "natural", **more: Any) -> dict[str, Any]:
    return {"name": name, "damage": damage, "to_hit": to_hit, "kind": kind, "reach": 5, **more}


def _c(name: str, hp: int, ac: int, weapons: list, stats: dict, hands=("", ""), inventory=()) -> dict[str, Any]:
    return {"name": name, "hp": hp, "max_hp": hp, "ac": ac, "weapons": weapons, "hands": list(hands),
            "inventory": list(inventory), "conditions": [], "stats": stats, "notes": "Starter bestiary (Fray)."}


_CREATURES: dict[str, list[dict[str, Any]]] = {
    "olog": [
        _c("Cave rat", 2, 11, [_w("Bite", "1d3")], {"hd": 0, "level": 0}),
        _c("Wolf", 9, 12, [_w("Bite", "1d6", 1)], {"hd": 2, "level": 0}),
        _c("Bandit", 5, 12, [_w("Club", "1d6", 0, "melee", item="Club")], {"hd": 1, "level": 0},
           hands=("Club", ""), inventory=("Knife",)),
        _c("Cave bear", 22, 13, [_w("Claw", "1d6", 2, count=2), _w("Bite", "1d8", 2)], {"hd": 5, "level": 0}),
    ],
    "ose": [
        _c("Giant rat", 3, 12, [_w("Bite", "1d3")], {"hd": 1, "phys": -1, "dex": 1, "speed": 120}),
        _c("Wolf", 9, 12, [_w("Bite", "1d6", 1)], {"hd": 2, "phys": 0, "dex": 1, "speed": 180}),
        _c("Bandit", 5, 12, [_w("Short sword", "1d6", 0, "melee", item="Short sword"),
                             _w("Sling", "1d4", 0, "sling", item="Sling")],
           {"hd": 1, "phys": 0, "dex": 0, "speed": 120, "ammo_die": "d8"},
           hands=("Short sword", ""), inventory=("Sling", "Stones")),
        _c("Restless bones", 6, 12, [_w("Claw", "1d4")], {"hd": 1, "phys": 0, "dex": -1, "speed": 60,
                                                          "undead": True}),
    ],
    "ogre": [
        _c("Giant rat", 3, 13, [_w("Bite", "1d3")], {"dex": 2, "reaction": 0, "skill": 1, "defense": 0,
                                                      "speed": 40}),
        _c("Wolf", 11, 13, [_w("Bite", "1d6", 2)], {"dex": 2, "reaction": 0, "skill": 3, "defense": 0,
                                                     "speed": 50}),
        _c("Bandit", 7, 12, [_w("Short sword", "1d6", 1, "melee", item="Short sword")],
           {"dex": 1, "reaction": 0, "skill": 2, "defense": 0, "speed": 30}, hands=("Short sword", "")),
        _c("Boar", 14, 14, [_w("Tusks", "1d8", 3)], {"dex": 0, "reaction": 0, "skill": 3, "defense": 0,
                                                      "speed": 40}),
    ],
}


def entries() -> list[dict[str, Any]]:
    """Every starter creature as a roster entry (ids "starter-<system>-<name>", never stored)."""
    out = []
    for system, creatures in _CREATURES.items():
        for c in creatures:
            slug = c["name"].lower().replace(" ", "-")
            out.append({"id": f"starter-{system}-{slug}", "name": c["name"], "system": system, "pc": False,
                        "party": False, "cid": "", "combatant": c, "changed": 0})
    return out


def is_starter(entry_id: str) -> bool:
    return entry_id.startswith("starter-")
