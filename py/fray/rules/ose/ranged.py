"""OSE missile fire (OSE-RANGED-*): range bands and their to-hit, line of sight, enemies next to a shooter."""
from __future__ import annotations

from typing import Sequence

from ...engine import geometry as geo
from ...engine.geometry import Body, Hostile
from ...engine.model import Combatant, Square, Weapon
from ...engine.state import State
from .state import is_detailed


# DEFAULT (docs/RULESETS.md): Old-School Essentials' missile ranges in feet
# (short, medium, long) by weapon kind, and the to-hit at each band. A
# weapon's own `range` (the referee's edit) comes first.
DEFAULT_RANGES = {"bow": (50, 100, 150), "crossbow": (80, 160, 240), "sling": (40, 80, 160),
                  "thrown": (10, 20, 30), "ranged": (50, 100, 150)}
BAND_TO_HIT = {"short": 1, "medium": 0, "long": -1}
RANGE_RULE = {"bow": "OSE-RANGED-2", "crossbow": "OSE-RANGED-3", "sling": "OSE-RANGED-4",
              "thrown": "OSE-RANGED-5", "ranged": "OSE-RANGED-1"}


def ranges(a: Weapon) -> tuple[int, int, int]:
    """A missile's (short, medium, long) in feet: its own, else the DEFAULT for its kind."""
    return tuple(a.range) if len(a.range) == 3 else DEFAULT_RANGES.get(a.kind, DEFAULT_RANGES["ranged"])


def range_band(a: Weapon, feet: int) -> str:
    """"short", "medium", "long" or "beyond" (refused) for a missile shot `feet` away."""
    short, medium, long_ = ranges(a)
    return "short" if feet <= short else "medium" if feet <= medium else "long" if feet <= long_ else "beyond"


def shot_feet(c: Combatant, t: Combatant) -> int | None:
    """Feet between two tokens on the grid (5 ft a square, as the grid counts reach), None off the grid."""
    if c.square is None or t.square is None:
        return None
    return geo.chebyshev(tuple(c.square), tuple(t.square)) * 5


def band_text(state: State, c: Combatant, a: Weapon, t: Combatant) -> str:
    """The attack preview's range: "short range (40 ft): +1", or "" for melee or off the grid."""
    feet = shot_feet(c, t)
    if not a.is_ranged or feet is None or not is_detailed(state):
        return ""
    band = range_band(a, feet)
    if band == "beyond":
        return f"beyond long range ({feet} ft, long {ranges(a)[2]} ft)"
    return f"{band} range ({feet} ft): {BAND_TO_HIT[band]:+d}"


def range_bonus(state: State, c: Combatant, a: Weapon, t: Combatant) -> tuple[int, str]:
    """The to-hit of the shot's range band and the log's note for it (0, "" for melee or loose)."""
    feet = shot_feet(c, t)
    if not a.is_ranged or feet is None or not is_detailed(state):
        return 0, ""
    band = range_band(a, feet)
    if band == "beyond":
        return 0, ""
    return BAND_TO_HIT[band], f"{band} range {BAND_TO_HIT[band]:+d} ({RANGE_RULE.get(a.kind, 'OSE-RANGED-1')})"


def line_of_sight(state: State, a: Square, b: Square) -> bool:
    """DEFAULT: the centre-to-centre line from shooter to target crosses no wall square."""
    walls = state.encounter.map.walls
    if not walls:
        return True
    return geo.line_clear(a, b, walls.__contains__, geo.Grid.from_map(state.encounter.map))


def ranged_blocked_by(attacker: Body, bodies: Sequence[Body], hostile: Hostile) -> tuple[str, ...]:
    """OSE-RANGED-1: ids (sorted) of standing enemies within 5 ft; any of them forbids a ranged attack."""
    return geo.adjacent_enemies(attacker, bodies, hostile)
