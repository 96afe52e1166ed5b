"""OLOG pressure and bands: who threatens whom, the pressure die, zone distances.

Pure functions over a State, shared by the rules (`check`, `resolve`) and the views
(`views/olog.py`) so the page never re-derives a rule.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Any

from ...engine.cache import Cache, cached
from ...engine.conditions import can_act
from ...engine.dice import DiceError, DiceExpr
from ...engine.model import Combatant
from ...engine.state import State

# The DEFAULTs these functions read (keys of the ruleset's settings).
DEFAULTS: dict[str, Any] = {
    "olog_reach_zones": 0,  # OLOG-PRES-1: reach = the same zone
    "olog_pressure_round": "up",  # OLOG-PRES-4: odd faces round up
    "olog_near_max": 1,  # OLOG-BAND-1: 1 zone = Near
    "olog_far_max": 4,  # OLOG-BAND-1: 2-4 zones = Far, beyond = Distant
    "olog_zone_ft": 30,  # OLOG-BAND-1: zones about 30 ft apart
}


def setting(state: State, key: str) -> Any:
    """A setting of the encounter, falling back to the rules' DEFAULT."""
    val = state.encounter.settings.get(key)
    return DEFAULTS.get(key) if val is None else val


@cached(512)
def _parse(damage: str) -> DiceExpr | None:
    try:
        return DiceExpr.parse(damage)
    except DiceError:
        return None


def largest_die(c: Combatant) -> tuple[int, int]:
    """(faces, flat bonus) of the creature's largest damage die among its ready
    attacks; (0, 0) when it has none. A multi-die attack counts its die type
    (2d6 -> 6) and each creature counts only its largest die (OLOG-PRES-4).
    Kept per combatant object: a changed combatant is a new object."""
    return _LARGEST.get(id(c), lambda: _largest_die(c), same=(c,))


_LARGEST = Cache(1024)  # id(combatant) -> its largest die, while that combatant object lives


def _largest_die(c: Combatant) -> tuple[int, int]:
    best = (0, 0)
    for a in c.ready_weapons():
        e = _parse(a.damage)
        if e is None or e.is_flat:
            continue
        if e.sides > best[0] or (e.sides == best[0] and e.modifier > best[1]):
            best = (e.sides, e.modifier)
    return best


def half_die(faces: int, rounding: str = "up") -> int:
    """OLOG-PRES-4: half the faces, odd rounding up by DEFAULT (d10 -> d5, d5 -> d3)."""
    if faces <= 0:
        return 0
    half = ceil(faces / 2) if rounding == "up" else faces // 2
    return max(1, half)


def reach_zones(state: State, c: Combatant) -> int:
    """How many zones away `c` threatens: the same zone by DEFAULT, one more
    when the referee marks it long-reaching (OLOG-PRES-1)."""
    return int(setting(state, "olog_reach_zones")) + (1 if c.stat("long_reach", False) else 0)


def threatens(state: State, foe: Combatant, target: Combatant, base_reach: int | None = None) -> bool:
    """OLOG-PRES-1 / CORE-COND-1 / CORE-SIDE-1: a hostile, placed creature *that can act* (not down, asleep,
    held...) with the target within its reach."""
    if foe.id == target.id or not can_act(foe) or foe.band is None or target.band is None:
        return False
    d = abs(foe.band - target.band)
    if base_reach is None:
        base_reach = int(setting(state, "olog_reach_zones"))
    if d > base_reach and (d > base_reach + 1 or not foe.stats.get("long_reach", False)):
        return False
    return state.hostile(foe, target)


@dataclass(frozen=True)
class Pressure:
    """The pressure on one creature now: who threatens it and what Press On costs.

    A threatening creature with no damage die (unarmed, or no attack at all)
    still wishes you ill: it counts toward the minimum but adds no die; when no
    threatening creature has a die, Press On costs exactly the minimum.
    """

    target: str
    threats: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    die: int = 0  # faces of the pressure die (OLOG-PRES-4); 0 = none
    source_die: int = 0  # the largest damage die it halves
    bonus: int = 0  # flat bonus of a creature marked pressure_bonus (OLOG-PRES-6)

    @property
    def count(self) -> int:
        return len(self.threats)

    @property
    def is_under(self) -> bool:
        return bool(self.threats)

    @property
    def minimum(self) -> int:
        """OLOG-PRES-5: at least one point per threatening creature."""
        return len(self.threats)

    def expr(self) -> DiceExpr:
        return DiceExpr(1, self.die, self.bonus) if self.die else DiceExpr(0, 0, self.bonus)

    @property
    def fixed(self) -> int | None:
        """The result when no roll can beat the minimum (eight humans: always 8)."""
        e = self.expr()
        if self.minimum >= e.maximum:
            return self.minimum
        return None

    def cost(self) -> str:
        """What Press On costs, as the referee reads it: "d4 (min 2)"."""
        if not self.die:
            return str(max(self.minimum, self.bonus))
        if self.fixed is not None:  # OLOG-PRES-5: the minimum decides, so no die is asked
            return f"{self.fixed}, the minimum ({self.why_fixed()})"
        return f"{self.expr()} (min {self.minimum})"

    def why_fixed(self) -> str:
        """Why no die is asked: "a d3 rolls at most 3; the minimum is 8, one per foe"."""
        e = self.expr()
        return f"a {e} rolls at most {e.maximum}; the minimum is {self.minimum}, one per foe"

    def sentence(self) -> str:
        """The actor card's line (UI.md): "Under pressure from 2: pressing on costs d4 (min 2)"."""
        if not self.is_under:
            return ""
        text = f"Under pressure from {self.count}: pressing on costs {self.cost()}"
        if not self.die:
            return text + " (no damage die among them)"
        return text

    def who(self) -> str:
        return ", ".join(self.names)


def pressure_on(state: State, cid: str) -> Pressure:
    """OLOG-PRES-1,4,5,6: the pressure the combatant `cid` is under now. It
    depends on the combatants and the encounter alone, so it is kept while they
    stay the same (checks, resolution and the next turn's log line share it)."""
    return state.memo(f"olog.pressure:{cid}", lambda st: _pressure_on(st, cid))


def _pressure_on(state: State, cid: str) -> Pressure:
    """Only creatures in zones within reach are looked at, in setup order."""
    target = state.get(cid)
    if target.band is None:
        return Pressure(cid)
    reach = int(setting(state, "olog_reach_zones"))
    by_band = state.memo("olog.by_band", _standing_by_band)
    near = [o for b in range(target.band - reach - 1, target.band + reach + 2) for o in by_band.get(b, ())]
    if len(near) > 1:
        order = state.memo("olog.order", _position)
        near.sort(key=lambda o: order[o.id])
    return _pressure(state, target, [o for o in near if threatens(state, o, target, reach)])


def _standing_by_band(state: State) -> dict[int, list[Combatant]]:
    by_band: dict[int, list[Combatant]] = {}
    for o in state.combatants:
        if o.band is not None and can_act(o):  # CORE-COND-1
            by_band.setdefault(o.band, []).append(o)
    return by_band


def _position(state: State) -> dict[str, int]:
    return {c.id: i for i, c in enumerate(state.combatants)}


def pressure_map(state: State) -> dict[str, Pressure]:
    """The pressure on every combatant at once (views draw them all): foes are
    looked up by zone, so this stays cheap with many combatants."""
    reach = int(setting(state, "olog_reach_zones"))
    by_band = state.memo("olog.by_band", _standing_by_band)
    order = state.memo("olog.order", _position)
    out: dict[str, Pressure] = {}
    for c in state.combatants:
        if c.band is None:
            out[c.id] = Pressure(c.id)
            continue
        threats = [o for b in range(c.band - reach - 1, c.band + reach + 2) for o in by_band.get(b, ())
                   if threatens(state, o, c, reach)]
        threats.sort(key=lambda o: order[o.id])
        out[c.id] = _pressure(state, c, threats)
    return out


def _pressure(state: State, target: Combatant, threats: list[Combatant]) -> Pressure:
    if not threats:
        return Pressure(target.id)
    source = 0
    bonus = 0
    for o in threats:
        faces, flat = largest_die(o)
        source = max(source, faces)
        if o.stat("pressure_bonus", False) and flat > 0:
            # OLOG-PRES-6: flat bonuses add only for a creature marked so; the
            # largest marked bonus counts.
            bonus = max(bonus, flat)
    die = half_die(source, str(setting(state, "olog_pressure_round")))
    return Pressure(target.id, tuple(o.id for o in threats), tuple(o.name for o in threats), die, source, bonus)


# --- bands (OLOG-BAND-1) ------------------------------------------------------

BAND_LABELS = ("Close", "Near", "Far", "Distant")


def band_label(state: State, distance: int) -> str:
    """OLOG-BAND-1: same zone Close, 1 Near, 2-4 Far, 5+ Distant (DEFAULT thresholds)."""
    d = abs(distance)
    if d == 0:
        return "Close"
    if d <= int(setting(state, "olog_near_max")):
        return "Near"
    if d <= int(setting(state, "olog_far_max")):
        return "Far"
    return "Distant"


def zone_name(band: int) -> str:
    """Zones are numbered from 1 for people (index 0 is "zone 1")."""
    return f"zone {band + 1}"
