"""Ready-made combatants and new encounters for the editor.

Presets are plain encounter JSON (the save-file format), so they pass the same
validation as a file; `stats` hold what every system reads (each system
ignores the others' keys).
"""
from __future__ import annotations

import copy
from typing import Any

PRESETS: dict[str, dict[str, Any]] = {
    "Orc": {
        "name": "Orc", "hp": 6, "max_hp": 6, "ac": 13,
        "weapons": [{"name": "Sword", "damage": "1d8", "to_hit": 1, "kind": "melee", "reach": 5, "item": "Sword"}],
        "hands": ["Sword", ""], "inventory": ["Dagger", "Rations"],
        "stats": {"hd": 1, "pc": False, "phys": 1, "dex": 0, "speed": 120, "reaction": 10, "skill": 3,
                  "defense": 12},
    },
    "Goblin": {
        "name": "Goblin", "hp": 4, "max_hp": 4, "ac": 12,
        "weapons": [{"name": "Spear", "damage": "1d6", "to_hit": 0, "kind": "melee", "reach": 5,
                     "qualities": ["brace", "piercing"], "item": "Spear"},
                    {"name": "Sling", "damage": "1d4", "to_hit": 0, "kind": "sling", "reach": 5, "item": "Sling"}],
        "hands": ["Spear", ""], "inventory": ["Sling", "Stones"],
        "stats": {"hd": 1, "pc": False, "phys": 0, "dex": 1, "speed": 90, "reaction": 9, "skill": 2,
                  "defense": 13, "ammo_die": "d8"},
    },
    "Skeleton": {
        "name": "Skeleton", "hp": 5, "max_hp": 5, "ac": 13,
        "weapons": [{"name": "Rusty sword", "damage": "1d6", "to_hit": 0, "kind": "melee", "reach": 5,
                     "item": "Rusty sword"}],
        "hands": ["Rusty sword", ""], "inventory": [],
        "stats": {"hd": 1, "pc": False, "undead": True, "phys": 0, "dex": 0, "speed": 60, "reaction": 11,
                  "skill": 2, "defense": 11},
    },
    "Human guard": {
        "name": "Guard", "hp": 8, "max_hp": 8, "ac": 15,
        "weapons": [{"name": "Spear", "damage": "1d6", "to_hit": 1, "kind": "melee", "reach": 5,
                     "qualities": ["brace", "piercing"], "item": "Spear"},
                    {"name": "Crossbow", "damage": "1d6", "to_hit": 0, "kind": "crossbow", "reach": 5,
                     "item": "Crossbow"}],
        "hands": ["Spear", "Shield"], "inventory": ["Crossbow", "Bolts", "Rope"],
        "stats": {"hd": 2, "pc": False, "phys": 1, "dex": 0, "speed": 120, "reaction": 10, "skill": 4,
                  "defense": 14, "shield_ac": 1, "ammo_die": "d10"},
    },
    "Sample PC": {
        "name": "Mira", "hp": 12, "max_hp": 12, "ac": 14,
        "weapons": [{"name": "Longsword", "damage": "1d8", "to_hit": 2, "kind": "melee", "reach": 5,
                     "item": "Longsword"},
                    {"name": "Short bow", "damage": "1d6", "to_hit": 2, "kind": "bow", "reach": 5,
                     "item": "Short bow"}],
        "hands": ["Longsword", ""], "inventory": ["Short bow", "Arrows", "Rope", "Torch", "Rations"],
        "stats": {"pc": True, "level": 3, "init_mod": 1, "phys": 1, "dex": 2, "speed": 120, "reaction": 8,
                  "skill": 6, "defense": 15, "defense_dex": 2, "ammo_die": "d12"},
    },
}

# The sample PC's names, one per tap of "+ Sample PC" (issue #53: three taps gave "Mira, Mira 2, Mira 3").
PC_NAMES = ("Mira", "Brak", "Sela", "Hal", "Tamsin", "Orrin", "Wren", "Corvin", "Ilse", "Dagny")

SIDE_STYLES = (
    ("#2f6db5", "circle"), ("#b53a2f", "square"), ("#2f8f4e", "diamond"),
    ("#8a4fb5", "triangle"), ("#b5862f", "hexagon"), ("#3a9aa8", "star"),
)


def preset(name: str, cid: str, side: str) -> dict[str, Any]:
    """A combatant from a preset, with its id and side set."""
    c = copy.deepcopy(PRESETS[name])
    c["id"] = cid
    c["side"] = side
    c.setdefault("conditions", [])
    c.setdefault("notes", "")
    return c


def blank_encounter(system: str, profile: str = "") -> dict[str, Any]:
    """A small starting encounter for a system: a party against orcs."""
    doc: dict[str, Any] = {
        "name": "New encounter", "system": system, "profile": profile, "seed": 1, "bands": 6, "settings": {},
        "map": {"width": 24, "height": 16, "walls": []},
        "sides": [
            {"id": "party", "name": "Party", "colour": SIDE_STYLES[0][0], "shape": SIDE_STYLES[0][1],
             "allies": [], "morale": None, "is_player": True},
            {"id": "orcs", "name": "Orcs", "colour": SIDE_STYLES[1][0], "shape": SIDE_STYLES[1][1],
             "allies": [], "morale": 8, "is_player": False},
        ],
        "combatants": [preset("Sample PC", "mira", "party"), preset("Orc", "orc-1", "orcs"),
                       preset("Orc", "orc-2", "orcs")],
    }
    doc["combatants"][1]["name"] = "Orc 1"
    doc["combatants"][2]["name"] = "Orc 2"
    for i, c in enumerate(doc["combatants"]):
        c["band"] = 2 if c["side"] == "party" else 3
        c["square"] = [4 + i * 3, 8] if c["side"] == "party" else [10 + i * 2, 7]
    return doc


def new_encounters() -> tuple[tuple[str, str, str, str], ...]:
    """The systems a new encounter starts in (the library's "New encounter"): system, the profile it
    starts in, its short name and one line on what it is, from each system's descriptor."""
    from .rules import SYSTEMS
    return tuple((s, i.start_profile, i.label, i.new_line or i.line) for s, i in SYSTEMS.items())


def empty_encounter(system: str, profile: str = "") -> dict[str, Any]:
    """A new encounter with nobody in it yet: the party's side and the foes' side, to fill in setup."""
    doc = blank_encounter(system, profile)
    doc["sides"][1].update(id="foes", name="Foes")
    doc["combatants"] = []
    return doc


def next_id(existing: set[str], base: str) -> str:
    stem = "".join(ch if ch.isalnum() else "-" for ch in base.lower()).strip("-") or "c"
    stem = stem[:30]
    n = 1
    while f"{stem}-{n}" in existing:
        n += 1
    return f"{stem}-{n}"
