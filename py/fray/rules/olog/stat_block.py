"""OLOG's compact creature, as a referee writes it in notes ("Orc (4): HP 6, AC 13, HD 1, axe 1d8").

What an OLOG creature needs (docs/ROSTER.md): hit points, AC, its Hit Dice
(its count is 10 + HD, OLOG-INIT-2) or a fixed count (`Init 14`), and its
weapons with their damage dice, several attacks a weapon's count ("2 × claw
1d4", OLOG-ATK-1); a weapon with reach ("halberd 1d10 reach") or the word
"long reach" threatens the next zone (OLOG-PRES-1), "pressure bonus" adds a
flat damage bonus to pressure (OLOG-PRES-6), "caster" casts (OLOG-SPELL-1).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...engine import limits as L
from ...engine.stat_block import Block, Field, read_compact

KEYS = {"hp": ("hp", "HP", L.MAX_HP), "hit points": ("hp", "HP", L.MAX_HP), "ac": ("ac", "AC", L.AC),
        "hd": ("stats.hd", "HD", (0, 50)), "hit dice": ("stats.hd", "HD", (0, 50)),
        "init": ("stats.init", "Fixed count", (-100, 200)), "initiative": ("stats.init", "Fixed count", (-100, 200))}
FLAGS = {"long reach": ("stats.long_reach", True), "pressure bonus": ("stats.pressure_bonus", True),
         "caster": ("stats.caster", True)}


def read_stat_blocks(text: Any) -> list[Block]:
    """Every creature of a paste (PasteError for what is not text or is too much)."""
    return [_reach(b) for b in read_compact(text, KEYS, FLAGS)]


def _reach(block: Block) -> Block:
    """OLOG-PRES-1: a weapon that reaches past 5 ft makes its wielder long-reaching."""
    weapons = block.get("weapons", [])
    if any(w["reach"] > 5 for w in weapons) and block.field("stats.long_reach") is None:
        f = block.field("weapons")
        return replace(block, fields=block.fields + (Field("stats.long_reach", "Long reach", True, f.text, f.start,
                                                           f.end),))
    return block
