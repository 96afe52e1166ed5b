"""Ogre's compact creature, the Codex's combat figures as a referee notes them
("Orc (3): HP 9, Defense 13, DEX +1, Skill +3, Speed 30 ft, longsword 1d8").

What an Ogre combatant needs (docs/ROSTER.md): hit points, Defense (its AC;
`AC 13` is read the same), the DEX bonus and reaction time (OGRE-INIT-1:
0 means 10 − DEX), the combat skill (OGRE-ATK-1), speed in feet, and the
weapons with their damage dice (a to-hit bonus before the dice: "spear +2
1d8"); Concentration, Spellcraft and Ride bonuses, and "caster", when it
casts (OGRE-BREAK-1, OGRE-READY-1).
"""
from __future__ import annotations

from typing import Any

from ...engine import limits as L
from ...engine.stat_block import Block, read_compact

KEYS = {"hp": ("hp", "HP", L.MAX_HP), "hit points": ("hp", "HP", L.MAX_HP), "ac": ("ac", "Defense", L.AC),
        "defense": ("ac", "Defense", L.AC), "defence": ("ac", "Defense", L.AC),
        "dex": ("stats.dex", "DEX bonus", (-10, 20)), "reaction": ("stats.reaction", "Reaction time", (0, 60)),
        "combat skill": ("stats.skill", "Combat skill", (-50, 100)),
        "skill": ("stats.skill", "Combat skill", (-50, 100)),
        "speed": ("stats.speed", "Speed (ft)", (0, 300)),
        "concentration": ("stats.concentration", "Concentration", (-50, 100)),
        "spellcraft": ("stats.spellcraft", "Spellcraft", (-50, 100)), "ride": ("stats.ride", "Ride", (-50, 100))}
FLAGS = {"caster": ("stats.caster", True)}


def read_stat_blocks(text: Any) -> list[Block]:
    """Every creature of a paste (PasteError for what is not text or is too much)."""
    return read_compact(text, KEYS, FLAGS)
