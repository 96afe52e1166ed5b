"""Where a combatant added in setup stands: each side in its own area, none touching a foe. Pure.

The first side (the players' side, else the first listed) starts at one edge of the field, every other side
at the starting distance the encounter sets (`start_distance`: close, near, far; near when unset) from
the first side's edge: OLOG in zones (OLOG-BAND-1's labels), OSE detailed and Ogre in squares (DEFAULT feet).
On a grid (OSE detailed, Ogre) a side fills a compact block five squares tall, column by column inward
from its edge, next to its own members already placed, and never on a square adjacent to a hostile
combatant (CORE-SIDE-1: sides are hostile unless allied). On OLOG's zones a side stands in one zone: the
one its members already hold, else its edge's. The documents are the save-file form (presets, roster).
"""
from __future__ import annotations

from typing import Any

from .engine.limits import START_DISTANCES

Square = tuple[int, int]
BLOCK = 2  # rows each side of a block's middle row: a block is five squares tall before it spreads
CHOICES = START_DISTANCES  # the setup's starting distance; an encounter without one is "near"
ZONES = {"close": 0, "near": 1, "far": 3}  # OLOG-BAND-1: same zone Close, 1 zone Near, 2-4 Far
SQUARES = {"close": 2, "near": 6, "far": 12}  # DEFAULT: 10, 30 and 60 ft between the sides' front columns


def choice(doc: dict[str, Any]) -> str:
    """The encounter's starting distance: close, near or far (near when the file has none)."""
    value = doc.get("start_distance", "near")
    return value if value in CHOICES else "near"


def hostile(doc: dict[str, Any], a: str, b: str) -> bool:
    """CORE-SIDE-1 on the save-file form: different sides are hostile unless either lists the other as ally."""
    if a == b:
        return False
    for s in doc.get("sides", []):
        if (s.get("id") == a and b in s.get("allies", [])) or (s.get("id") == b and a in s.get("allies", [])):
            return False
    return True


def first_side(doc: dict[str, Any]) -> str:
    """The side that starts at the near edge: the players' side, else the first listed."""
    sides = doc.get("sides", [])
    player = next((s["id"] for s in sides if s.get("is_player")), None)
    return player or (sides[0]["id"] if sides else "")


def _others(doc: dict[str, Any]) -> list[str]:
    first = first_side(doc)
    return [s["id"] for s in doc.get("sides", []) if s["id"] != first]


def band_for(doc: dict[str, Any], side: str, distance: int | None = None) -> int:
    """The zone (from 0) where a new combatant of `side` stands."""
    bands = max(1, int(doc.get("bands", 6) or 1))
    held = [c["band"] for c in doc.get("combatants", []) if c.get("side") == side and c.get("band") is not None]
    if held:
        return max(set(held), key=held.count)
    if side == first_side(doc):
        return 0
    distance = ZONES[choice(doc)] if distance is None else distance
    far = max(0, min(bands - 1, distance))
    # OLOG's zones are one line: a second hostile foe side stands two zones further on, within the field.
    k = _others(doc).index(side) if side in _others(doc) else 0
    return min(bands - 1, far + 2 * k)


def square_for(doc: dict[str, Any], side: str, distance: int | None = None) -> list[int] | None:
    """The square where a new combatant of `side` stands (None when the map has no free square)."""
    m = doc.get("map", {})
    w, hgt = int(m.get("width", 24)), int(m.get("height", 16))
    walls = {tuple(s) for s in m.get("walls", [])}
    placed = [(c.get("side", ""), tuple(c["square"])) for c in doc.get("combatants", []) if c.get("square")]
    taken = {sq for _, sq in placed}
    mine = [sq for s, sq in placed if s == side]
    foes = [sq for s, sq in placed if hostile(doc, side, s)]
    edge, step, middle = _anchor(doc, side, w, hgt, distance)

    def touches_foe(sq: Square) -> bool:
        return any(max(abs(sq[0] - f[0]), abs(sq[1] - f[1])) <= 1 for f in foes)

    def key(sq: Square) -> tuple:
        depth = (sq[0] - edge) * step
        off = abs(sq[1] - middle)
        near = min((max(abs(sq[0] - o[0]), abs(sq[1] - o[1])) for o in mine), default=0)
        return (depth < 0, near, off > BLOCK, depth, off, sq[1])

    free = [(x, y) for x in range(w) for y in range(hgt) if (x, y) not in taken and (x, y) not in walls]
    if not free:
        return None
    safe = [sq for sq in free if not touches_foe(sq)]
    best = min(safe or free, key=key)
    return [best[0], best[1]]


def _anchor(doc: dict[str, Any], side: str, w: int, hgt: int, distance: int | None) -> tuple[int, int, int]:
    """(edge column, direction inward, middle row) of a side's area."""
    near = min(1, w - 1)
    if side == first_side(doc):
        return near, 1, hgt // 2
    others = _others(doc)
    k = others.index(side) if side in others else 0
    middle = (hgt * (k + 1)) // (len(others) + 1) if others else hgt // 2
    distance = SQUARES[choice(doc)] if distance is None else distance
    return max(0, min(w - 1, near + distance)), 1, middle


def placed(doc: dict[str, Any], c: dict[str, Any], distance: int | None = None) -> dict[str, Any]:
    """The combatant `c` (not yet in doc) with its zone and square set for its side."""
    side = c.get("side", "")
    return {**c, "band": band_for(doc, side, distance), "square": square_for(doc, side, distance)}


def _at(c: dict[str, Any]) -> tuple[Any, Any]:
    return c.get("side"), c.get("band"), tuple(c["square"]) if c.get("square") is not None else None


def _fresh(doc: dict[str, Any], combatants: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`combatants` placed one after another, as setup adds them, on doc's field (its own combatants gone)."""
    out: dict[str, Any] = {**doc, "combatants": []}
    for c in combatants:
        out["combatants"].append(placed(out, c))
    return out["combatants"]


def with_distance(doc: dict[str, Any], value: str) -> dict[str, Any]:
    """doc with its starting distance set to `value`, and the combatants that stand where placement puts its
    side re-placed at it. One the referee moved (its zone or square not among those placement gives its side)
    stays where it is, and its square is given to no one else."""
    if value not in CHOICES:
        raise ValueError(f"{value!r} is not a starting distance ({', '.join(CHOICES)})")
    people = doc.get("combatants", [])
    spots = {_at(c) for c in _fresh(doc, people)}
    moved = [_at(c) not in spots for c in people]
    m = doc.get("map", {})
    kept = [c["square"] for c, was in zip(people, moved) if was and c.get("square") is not None]
    field = {**doc, "start_distance": value, "map": {**m, "walls": list(m.get("walls", [])) + kept}}
    again = iter(_fresh(field, [c for c, was in zip(people, moved) if not was]))
    return {**doc, "start_distance": value, "combatants": [c if was else next(again) for c, was in zip(people, moved)]}
