"""Tactical grid geometry: 5 ft squares, distances, reach, threat, lines and steps (paths: engine/paths.py).

Generic only: what a system's rules make of it (brace, charge, back attacks,
second rank, ranged attacks next to an enemy) lives in the system's package.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from .cache import cached

from .commands import Illegal, Reason
from .conditions import can_act as core_can_act
from .model import Combatant, MapSpec, Square

Hostile = Callable[[str, str], bool]  # (side a, side b) -> are they enemies? (CORE-SIDE-1)

DIAGONALS = ("5", "5-10-5")
# The eight steps in a fixed order (N, E, S, W, then the diagonals): it makes
# neighbour lists and path tie-breaking deterministic.
_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class Grid:
    """The board: size in 5 ft squares, wall squares, and the diagonal rule: "5" (every
    diagonal step 5 ft) or "5-10-5" (diagonal steps of a move alternate 5 ft and 10 ft)."""

    width: int
    height: int
    walls: frozenset[Square] = frozenset()
    diagonal: str = "5"

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError(f"grid size must be positive, got {self.width}x{self.height}")
        if self.diagonal not in DIAGONALS:
            raise ValueError(f"diagonal rule must be one of {DIAGONALS}, got {self.diagonal!r}")
        if not isinstance(self.walls, frozenset):
            object.__setattr__(self, "walls", frozenset(self.walls))

    @classmethod
    def from_map(cls, spec: MapSpec, diagonal: str = "5") -> "Grid":
        return cls(spec.width, spec.height, frozenset(spec.walls), diagonal)

    def in_bounds(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def is_wall(self, sq: Square) -> bool:
        return sq in self.walls


@dataclass(frozen=True)
class Body:
    """The geometric view of a creature. `reach` is in squares (2 = a reach weapon, OSE-STANCE-3);
    `threatens` is False when it cannot strike now (down, unarmed, Ogre's flat-footed: OSE-AOO-1,
    OGRE-AOO-1). A down body can be stepped over but not ended on, and blocks nothing else."""

    id: str
    side: str
    square: Square
    reach: int = 1
    threatens: bool = True
    is_down: bool = False


def body_of(c: Combatant, *, can_act: bool = True) -> Body | None:
    """The body of a combatant, or None when it is not on the grid. Reach is the longest
    of its ready melee attacks and its own `reach_ft` stat; `can_act=False` is for states
    the caller knows of, such as Ogre's flat-footed (OGRE-AOO-1)."""
    if c.square is None:
        return None
    melee = [a for a in c.ready_weapons() if a.is_melee]
    # OSE-STANCE-3: a reach weapon reaches 2 squares; OSE-AOO-3: long necks or arms count too.
    reach = max([1, int(c.stats.get("reach_ft") or 0) // 5]
                + [max(a.reach // 5, 2 if a.has("reach") else 1) for a in melee])
    # OSE-AOO-1: only a melee or natural weapon in hand threatens; CORE-HP-1: down threatens nobody.
    threatens = can_act and core_can_act(c) and bool(melee)  # CORE-COND-1
    return Body(c.id, c.side, tuple(c.square), reach, threatens, c.is_down)


# --- distances -------------------------------------------------------------

def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def distance_squares(a: Square, b: Square) -> int:
    """Squares between a and b when every step, diagonal or not, counts as one."""
    return chebyshev(a, b)


def distance_ft(a: Square, b: Square, diagonal: str = "5") -> int:
    """Feet of the shortest unobstructed move from a to b under the diagonal rule."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    diag, straight = min(dx, dy), abs(dx - dy)
    if diagonal == "5":
        return 5 * (diag + straight)
    if diagonal == "5-10-5":
        return 5 * (diag + straight) + 5 * (diag // 2)
    raise ValueError(f"diagonal rule must be one of {DIAGONALS}, got {diagonal!r}")


def is_adjacent(a: Square, b: Square) -> bool:
    return chebyshev(a, b) == 1


def path_cost_ft(path: Sequence[Square], diagonal: str = "5") -> int:
    """Feet a path costs; with "5-10-5" every second diagonal step of the whole path costs 10 ft."""
    if diagonal not in DIAGONALS:
        raise ValueError(f"diagonal rule must be one of {DIAGONALS}, got {diagonal!r}")
    diags = 0
    for a, b in zip(path, path[1:]):
        if chebyshev(a, b) != 1:
            raise ValueError(f"path steps must join adjacent squares, got {a} -> {b}")
        diags += a[0] != b[0] and a[1] != b[1]
    extra = diags // 2 if diagonal == "5-10-5" else 0
    return 5 * (len(path) - 1 + extra)


def line(a: Square, b: Square) -> list[Square]:
    """The squares of the straight line from a to b, both included (Bresenham: midpoint
    rounding along the longer axis; a line crossing a corner exactly takes the square with
    the larger coordinate), so `line(b, a) == line(a, b)[::-1]` wherever the pair sits."""
    return _line(a, b, True)


def _line(a: Square, b: Square, ties_up: bool) -> list[Square]:
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    n = max(abs(dx), abs(dy))
    if n == 0:
        return [a]
    half = n if ties_up else n - 1  # floor((2kd + n) / 2n) rounds half up; n - 1 rounds half down
    if abs(dx) >= abs(dy):
        return [(ax + k * dx // n, ay + (2 * k * dy + half) // (2 * n)) for k in range(n + 1)]
    return [(ax + (2 * k * dx + half) // (2 * n), ay + k * dy // n) for k in range(n + 1)]


# --- movement steps ----------------------------------------------------------

def _cuts_corner(walls: frozenset[Square], a: Square, b: Square) -> bool:
    """A diagonal step squeezing between two wall squares (no corner cutting)."""
    return a[0] != b[0] and a[1] != b[1] and (b[0], a[1]) in walls and (a[0], b[1]) in walls


def is_valid_step(grid: Grid, a: Square, b: Square, blocked: Iterable[Square] = ()) -> bool:
    """One square of movement from a to b: adjacent, on the board, not a wall or a
    blocked square (enemies), and not a diagonal squeeze between two walls."""
    return (is_adjacent(a, b) and grid.in_bounds(b) and b not in grid.walls
            and b not in blocked and not _cuts_corner(grid.walls, a, b))


def neighbours(grid: Grid, sq: Square) -> list[Square]:
    """Squares one step away (OGRE-MOVE-1 quick or difficult move): 8-way, on the
    board, not walls, no diagonal squeeze between two walls; fixed N E S W, NE SE SW NW order."""
    x, y = sq
    return [s for s in ((x + dx, y + dy) for dx, dy in _STEPS) if is_valid_step(grid, sq, s)]


def path_problem(grid: Grid, start: Square | None, path: Sequence[Square], blocked: Iterable[Square] = (), *,
                 who: str = "The mover", rule: str = "") -> Illegal | None:
    """Why `path` is not a walk from `start` on this grid, or None: the mover must be placed, the
    path must hold a step, start on `start`, and every step be valid (`is_valid_step`, with
    `blocked` the squares it may not enter). `who` and `rule` go into the sentence; where the
    path may end and how far it may go are the system's to say."""
    cite = f" ({rule})" if rule else ""
    if start is None:
        return Illegal(Reason.NOT_PLACED, f"{who} is not on the map; place the token first{cite}")
    if len(path) < 2:
        return Illegal(Reason.NO_PATH, f"Choose where {who} moves: a path of at least one square{cite}")
    if tuple(path[0]) != tuple(start):
        return Illegal(Reason.BAD_PATH, f"{who}'s path must start on its square {tuple(start)}{cite}")
    blocked = blocked if isinstance(blocked, (set, frozenset)) else set(blocked)
    for a, b in zip(path, path[1:]):
        if not is_valid_step(grid, tuple(a), tuple(b), blocked):
            return Illegal(Reason.BAD_PATH, f"{who} cannot step from {tuple(a)} to {tuple(b)}: not adjacent, "
                                            f"off the map, a wall or an enemy in the way{cite}")
    return None


# --- reach and threat ----------------------------------------------------------

@cached(None)
def _offsets(reach: int) -> tuple:
    """Per reach: (dx, dy, lines) for each square within reach; a line is (offsets strictly
    between, wall pairs each diagonal step passes). Both roundings are kept (mirror-symmetric)."""
    out = []
    span = range(-reach, reach + 1)
    for dx, dy in ((dx, dy) for dy in span for dx in span if dx or dy):
        lines = []
        for ties_up in (True, False):
            pts = _line((0, 0), (dx, dy), ties_up)
            corners = tuple(((q[0], p[1]), (p[0], q[1])) for p, q in zip(pts, pts[1:])
                            if p[0] != q[0] and p[1] != q[1])
            if (tuple(pts[1:-1]), corners) not in lines:
                lines.append((tuple(pts[1:-1]), corners))
        out.append((dx, dy, tuple(lines)))
    return tuple(out)


def _line_clear(lines: tuple, x: int, y: int, stops: Callable[[Square], bool], walls: frozenset[Square]) -> bool:
    """Is some line free of stopping squares between, and of diagonal squeezes between two walls?"""
    return any(not any(stops((x + i, y + j)) for i, j in between)
               and not any((x + p[0], y + p[1]) in walls and (x + q[0], y + q[1]) in walls for p, q in corners)
               for between, corners in lines)


@cached(16384)
def _area(grid: Grid | None, square: Square, reach: int) -> frozenset[Square]:
    """Squares reachable from `square` within `reach`; grid None means no walls, no edges."""
    x, y = square
    if grid is None:
        return frozenset((x + dx, y + dy) for dx, dy, _ in _offsets(reach))
    walls, w, h = grid.walls, grid.width, grid.height
    out = []
    for dx, dy, lines in _offsets(reach):
        t = (x + dx, y + dy)
        if (0 <= t[0] < w and 0 <= t[1] < h and t not in walls
                and (not walls or _line_clear(lines, x, y, walls.__contains__, walls))):
            out.append(t)
    return frozenset(out)


def threatened_squares(body: Body, grid: Grid) -> frozenset[Square]:
    """Squares the body could strike with a melee attack (OSE-AOO-3, OGRE-AOO-1).

    Every square on the board, not a wall, at Chebyshev distance 1..reach, that some
    straight line reaches: the Bresenham line (either rounding where it crosses a corner
    exactly) passes no wall square and never steps diagonally between two walls. Creatures
    do not block threat. Empty if the body does not threaten (OSE-AOO-1).
    """
    return _area(grid, body.square, body.reach) if body.threatens else frozenset()


def reach_area(grid: Grid | None, square: Square, reach: int) -> frozenset[Square]:
    """Squares within `reach` of `square` by the threat line rule (as `threatened_squares`);
    without a grid, every square at Chebyshev distance 1..reach."""
    return _area(grid, square, reach)


def line_clear(a: Square, b: Square, stops: Callable[[Square], bool], grid: Grid | None = None) -> bool:
    """Line of sight: does some straight line from a to b (either rounding where it crosses a
    corner exactly) pass no square strictly between where `stops` is true, and never step
    diagonally between two walls of `grid`?"""
    d = chebyshev(a, b)
    if d == 0:
        return True
    dx, dy = b[0] - a[0], b[1] - a[1]
    lines = next(ls for ox, oy, ls in _offsets(d) if (ox, oy) == (dx, dy))
    return _line_clear(lines, a[0], a[1], stops, grid.walls if grid is not None else frozenset())


def adjacent_enemies(body: Body, bodies: Iterable[Body], hostile: Hostile) -> tuple[str, ...]:
    """Ids (sorted) of the standing bodies hostile to `body` on a square next to it."""
    return tuple(sorted(b.id for b in bodies if b.id != body.id and not b.is_down
                        and hostile(body.side, b.side) and is_adjacent(body.square, b.square)))


def _threatening(bodies: Iterable[Body], side: str, hostile: Hostile) -> list[Body]:
    return sorted((b for b in bodies if b.threatens and hostile(side, b.side)), key=lambda b: b.id)


def threateners(sq: Square, mover_side: str, bodies: Iterable[Body], hostile: Hostile,
                *, grid: Grid | None = None) -> tuple[str, ...]:
    """Ids (sorted) of bodies hostile to `mover_side` that threaten `sq`; without a grid, walls are ignored."""
    return tuple(b.id for b in _threatening(bodies, mover_side, hostile)
                 if sq in _area(grid, b.square, b.reach))


def threat_map(bodies: Iterable[Body], grid: Grid, side: str, hostile: Hostile) -> dict[Square, tuple[str, ...]]:
    """For a creature of `side`: every square its enemies threaten -> their ids, sorted."""
    acc: dict[Square, list[str]] = {}
    for b in _threatening(bodies, side, hostile):
        for sq in _area(grid, b.square, b.reach):
            acc.setdefault(sq, []).append(b.id)
    return {sq: tuple(ids) for sq, ids in acc.items()}
