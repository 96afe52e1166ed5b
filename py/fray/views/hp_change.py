"""Quick HP: what the referee types after tapping a combatant's hit points, read as one referee command.

"-5" (or "−5") is 5 damage, "+3" 3 points healed, "12" the new hit points;
anything else is refused with a sentence that says what to type, and changes
nothing. Pure: no browser imports, tested in CPython.
"""
from __future__ import annotations

import re

from ..engine import limits as L
from ..engine.referee import Damage, Heal, SetHp

_CHANGE = re.compile(r"^([+-]?)\s*(\d{1,9})$")
HOW = "Type −N for damage, +N for healing, or the new hit points (for example −5, +3 or 12)."


def read_change(cid: str, typed: str):
    """The command `typed` asks for on combatant `cid`, or (None, the reason it was refused)."""
    text = typed.strip().replace("\u2212", "-").replace("\u2013", "-")
    m = _CHANGE.match(text)
    if not m:
        return None, (f"“{typed.strip()[:20]}” is not a change of hit points. " if text else "") + HOW
    sign, number = m.group(1), int(m.group(2))
    if sign:
        low, high = L.AMOUNT
        if number > high:
            return None, f"{number} is too large: at most {high} at once."
        return (Damage(cid, number) if sign == "-" else Heal(cid, number)), ""
    low, high = L.MAX_HP
    if number > high:
        return None, f"{number} is too large: hit points go up to {high}."
    return SetHp(cid, number), ""
