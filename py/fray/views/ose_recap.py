"""OSE's part of the fight's summary: the XP of the defeated foes shared among the surviving PCs, and
the ammunition each archer used (OSE-RES-1), from the first and last states and the log's events."""
from __future__ import annotations

from typing import Any

from ..engine.commands import Event
from ..engine.state import State
from ..rules.ose import ammo_die, is_out
from .recap import HIT, MISS, SystemRecap
from .table_view import is_pc

MISSILES = ("bow", "crossbow", "sling", "ranged")  # weapons that spend ammunition (thrown ones are picked up)


def xp_of(state: State, c) -> int:
    """A foe's XP as its roster entry or stat block gives it (the `xp` stat), 0 when none does."""
    value = c.stat("xp", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def ose_recap(first: State, last: State, events: tuple[tuple[int, Event], ...]) -> SystemRecap:
    """XP: every foe of the PCs out of the fight at the end (down, fled, surrendered), its `xp` stat, split
    evenly among the PCs still in it (the remainder said). Ammunition (OSE-RES-1): the missile shots each
    combatant with a usage die made, and its die at the start and now."""
    pcs = [c for c in last.combatants if is_pc(last, c)]
    pc_sides = {c.side for c in pcs}
    foes = [c for c in last.combatants if not is_pc(last, c) and any(last.hostile(c.side, s) for s in pc_sides)]
    beaten = [(c, xp_of(last, c)) for c in foes if is_out(c)]
    total = sum(x for _, x in beaten)
    survivors = [c for c in pcs if not is_out(c)]
    each, left = divmod(total, len(survivors)) if survivors else (0, total)
    xp: dict[str, Any] = {"total": total, "foes": {c.id: x for c, x in beaten},
                          "share": {c.id: each for c in survivors}, "remainder": left}
    lines = []
    if beaten:
        named = ", ".join(f"{c.name} {x}" for c, x in beaten)
        to = f"{each} each to {', '.join(c.name for c in survivors)}" if survivors else "no PC left to share it"
        if total:
            lines.append(f"XP: {total} from {len(beaten)} defeated ({named}); {to}"
                         + (f", {left} left over" if left and survivors else ""))
        else:
            lines.append(f"XP: {len(beaten)} defeated, none with an XP value (a foe's xp stat gives it)")
    ammo = {}
    for c in first.combatants:
        start = ammo_die(first, c)
        if not start or not last.has(c.id):
            continue
        shots = sum(1 for _, e in events if e.kind in (HIT, MISS) and e.actor == c.id
                    and _missile(c, e.data.get("weapon") if isinstance(e.data, dict) else None))
        rolled = sum(1 for _, e in events if e.kind == "ResourceRolled" and e.target == c.id)
        end = ammo_die(last, last.get(c.id))
        ammo[c.id] = {"shots": shots, "start": start, "now": end, "rolled": rolled}
        die = "used up" if end == "out" else f"usage die {start}" + (f" → {end}" if end != start else "")
        todo = "; roll the usage die (OSE-RES-1)" if shots and not rolled else ""
        lines.append(f"Ammunition, {c.name}: {shots} shot{'s' if shots != 1 else ''}, {die}{todo}")
    return SystemRecap({"xp": xp, "ammo": ammo}, tuple(lines))


def _missile(c, weapon: Any) -> bool:
    w = c.weapon(weapon) if isinstance(weapon, str) else None
    return w is not None and w.kind in MISSILES
