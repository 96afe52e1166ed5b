"""Spells that do what they say: the effect a caster's spell carries, written in the roster with its name.

A spell entry is its name, and in brackets what it does when it is completed
(OSE's Magic step, Ogre's cast resolving, OLOG's cast): damage or healing
dice, rolled once for all its targets or for each ("each"), and/or a
condition with its duration in the system's clock:

    Magic Missile (1d6+1 each)
    Cure Light Wounds (1d6+1 heal)
    Sleep (asleep for 10 min)
    Burning Hands (1d8, burning for 2 rounds)
    Hold Person (held for 9)

A spell without brackets is narrated by the referee as before. The effect
becomes the referee's `Effect` on the targets the caster names, inside the
step that completes the spell (one undo takes both back). Pure: no browser
imports.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .dice import DiceError, DiceExpr

_ENTRY = re.compile(r"^(?P<name>[^()]+?)\s*\((?P<what>[^()]*)\)\s*$")
_TWO_WORDS = frozenset(("can see",))  # a condition of more than one word needs "for <duration>", but these
_CONDITION = re.compile(r"^(?P<word>[A-Za-z][A-Za-z '\-]{0,38}?)(?:\s+for\s+(?P<lasts>.{1,20}))?$")


@dataclass(frozen=True)
class SpellEffect:
    """What a spell does: `dice` of damage (or healing, `heal`), rolled for `each` target or once for all,
    and/or `condition` for `lasts` (a duration the ruleset reads, Ruleset.duration; "" until removed)."""

    dice: str = ""
    each: bool = False
    heal: bool = False
    condition: str = ""
    lasts: str = ""

    def words(self) -> str:
        parts = []
        if self.dice:
            parts.append(f"{self.dice} {'healed' if self.heal else 'damage'}" + (" each" if self.each else ""))
        if self.condition:
            parts.append(self.condition + (f" for {self.lasts}" if self.lasts else ""))
        return ", ".join(parts)


def spell_effect(entry: str) -> tuple[str, SpellEffect | None]:
    """(the spell's name, its effect) of a roster entry; (entry, None) when it carries none or the brackets
    do not read as one (the entry is then only a name, narrated as before)."""
    m = _ENTRY.match(str(entry))
    if m is None:
        return str(entry), None
    name, what = m.group("name").strip(), m.group("what")
    dice, each, heal, condition, lasts = "", False, False, "", ""
    for part in (p.strip() for p in what.split(",")):
        words = part.split()
        if not words:
            continue
        try:
            DiceExpr.parse(words[0])
        except DiceError:
            c = _CONDITION.match(part)
            if c is None or condition or (not c.group("lasts") and len(part.split()) > 1
                                          and part.lower() not in _TWO_WORDS):
                return str(entry), None
            condition, lasts = c.group("word").strip().lower(), (c.group("lasts") or "").strip()
            continue
        if dice or any(w not in ("each", "heal", "heals") for w in words[1:]):
            return str(entry), None
        dice, each, heal = words[0], "each" in words[1:], bool({"heal", "heals"} & set(words[1:]))
    if not dice and not condition:
        return str(entry), None
    return name, SpellEffect(dice, each, heal, condition, lasts)
