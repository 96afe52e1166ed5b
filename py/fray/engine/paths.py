"""Paths on the tactical grid: the shortest walk and walks through waypoints, the attacks of opportunity a
path provokes, and every square within a move. Generic only, over engine/geometry.py's board and bodies."""
from __future__ import annotations

from dataclasses import dataclass
from heapq import heappop, heappush
from typing import Iterable, Sequence

from .geometry import Body, Grid, Hostile, _STEPS, _area, _threatening, distance_ft, path_cost_ft, threat_map
from .model import Square


# --- paths -----------------------------------------------------------------------

def _search(grid: Grid, start: Square, goal: Square | None, blocked: frozenset[Square] | set[Square],
            avoid: dict | frozenset, max_ft: int | None) -> tuple[dict, dict, tuple | None]:
    """A* (Dijkstra without a goal) over (square, diagonals so far mod 2) states, the parity
    "5-10-5" needs; ties break by insertion order, fixed by _STEPS. -> (costs, parents, goal state)."""
    alt = grid.diagonal == "5-10-5"
    walls, w, h = grid.walls, grid.width, grid.height
    heur = (lambda s: distance_ft(s, goal, grid.diagonal)) if goal is not None else (lambda s: 0)
    s0 = (start, 0)
    best: dict = {s0: 0}
    parent: dict = {s0: None}  # state -> the state it was reached from
    heap = [(heur(start), 0, 0, s0)]
    n = 0
    while heap:
        _, _, g, state = heappop(heap)
        if g > best[state]:
            continue
        sq, par = state
        if sq == goal:
            return best, parent, state
        x, y = sq
        for dx, dy in _STEPS:
            t = (x + dx, y + dy)
            if (not (0 <= t[0] < w and 0 <= t[1] < h) or t in walls or t in blocked
                    or (avoid and t in avoid and t != goal)):
                continue
            if dx and dy:
                if (t[0], y) in walls and (x, t[1]) in walls:
                    continue
                ng, npar = g + (10 if alt and par else 5), (par ^ 1 if alt else 0)
            else:
                ng, npar = g + 5, par
            if max_ft is not None and ng > max_ft:
                continue
            ns = (t, npar)
            if ng < best.get(ns, ng + 1):
                best[ns], parent[ns] = ng, state
                n += 1
                heappush(heap, (ng + heur(t), n, ng, ns))
    return best, parent, None


def _unwind(parent: dict, state: tuple | None) -> list[Square]:
    out = []
    while state is not None:
        out.append(state[0])
        state = parent[state]
    return out[::-1]


def occupancy(mover: Body, bodies: Iterable[Body], hostile: Hostile) -> tuple[set[Square], set[Square]]:
    """(blocked, occupied): enemies standing block movement; anyone else can be passed, not ended on."""
    blocked, occupied = set(), set()
    for b in bodies:
        if b.id == mover.id:
            continue
        occupied.add(b.square)
        if not b.is_down and hostile(mover.side, b.side):
            blocked.add(b.square)
    return blocked, occupied


def _shortest(grid: Grid, start: Square, goal: Square, mover: Body, bodies: Sequence[Body], hostile: Hostile,
              max_ft: int | None, avoid_threat: bool, end_free: bool) -> list[Square] | None:
    blocked, occupied = occupancy(mover, bodies, hostile)
    if (not grid.in_bounds(start) or not grid.in_bounds(goal) or goal in grid.walls or goal in blocked
            or (end_free and goal in occupied and goal != start)):
        return None
    if start == goal:
        return [start]
    avoid = threat_map(bodies, grid, mover.side, hostile) if avoid_threat else frozenset()
    _, parent, found = _search(grid, start, goal, blocked, avoid, max_ft)
    return _unwind(parent, found) or None


def shortest_path(grid: Grid, start: Square, goal: Square, mover: Body, bodies: Sequence[Body], hostile: Hostile,
                  *, max_ft: int | None = None, avoid_threat: bool = False) -> list[Square] | None:
    """The cheapest move [start, ..., goal] under the grid's diagonal rule; same inputs, same path.

    Walls and standing enemies block; allies and down bodies may be passed, not ended on; no
    diagonal squeeze between two walls. None if the goal is not free, unreachable, or over
    `max_ft`. `avoid_threat` keeps out of every square an enemy threatens (the goal excepted),
    so only leaving the start can provoke; None if there is no such path (ask again without).
    """
    return _shortest(grid, start, goal, mover, bodies, hostile, max_ft, avoid_threat, True)


def path_through(grid: Grid, waypoints: Sequence[Square], mover: Body, bodies: Sequence[Body], hostile: Hostile,
                 *, max_ft: int | None = None, avoid_threat: bool = False) -> list[Square] | None:
    """Shortest legs between consecutive waypoints, joined; the last waypoint must be free,
    the others only passable; `max_ft` limits the whole path (UI waypoint editing)."""
    if not waypoints:
        return None
    path = [waypoints[0]]
    for i, (a, b) in enumerate(zip(waypoints, waypoints[1:]), 1):
        leg = _shortest(grid, a, b, mover, bodies, hostile, max_ft, avoid_threat, i == len(waypoints) - 1)
        if leg is None:
            return None
        path += leg[1:]
    if max_ft is not None and path_cost_ft(path, grid.diagonal) > max_ft:
        return None
    return path


# --- attacks of opportunity ------------------------------------------------------

@dataclass(frozen=True)
class Provocation:
    """Leaving path[index] (= square) provokes each of `attackers` (ids, sorted). OSE-AOO-2: they
    resolve before the move goes on; a hit returns the mover to `square`, the rest is lost."""

    index: int
    square: Square
    attackers: tuple[str, ...]


def provocations(path: Sequence[Square], mover: Body, bodies: Sequence[Body], hostile: Hostile, *,
                 withdraw: bool = False, exempt: frozenset[str] = frozenset(), grid: Grid | None = None,
                 threats: dict[Square, tuple[str, ...]] | None = None) -> list[Provocation]:
    """Every point of the path where the mover provokes, in path order.

    OSE-AOO-1 / OGRE-AOO-1: leaving a square an enemy threatens provokes each such enemy;
    entering does not, passing through does (the square is left later); the last square is
    never left. Threat is from where the bodies stand now; `grid` adds walls and edges (else
    reach alone counts); `threats`, if given, must be `threat_map(bodies, grid, mover.side,
    hostile)`, computed once per side instead of once per mover.
    withdraw (OSE-WD-1 / OGRE-WD-1): the start square counts as unthreatened.
    exempt (OGRE-FOLLOW-1): these bodies never strike: the target when the follower moves,
    the follower when the target moves.
    """
    if len(path) < 2:
        return []
    if threats is None:
        threats = _threats_along(path, mover, bodies, hostile, grid)
    out = []  # OSE-WD-1 / OGRE-WD-1: the first square left is free of threat.
    for i in range(1 if withdraw else 0, len(path) - 1):
        ids = threats.get(path[i])
        if ids and exempt:
            ids = tuple(x for x in ids if x not in exempt)  # OGRE-FOLLOW-1
        if ids:
            out.append(Provocation(i, path[i], ids))
    return out


def _threats_along(path: Sequence[Square], mover: Body, bodies: Sequence[Body], hostile: Hostile,
                   grid: Grid | None) -> dict[Square, tuple[str, ...]]:
    """The threat map restricted to the path's squares."""
    xs, ys = [p[0] for p in path], [p[1] for p in path]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)  # bodies out of reach of this box are skipped
    acc: dict[Square, list[str]] = {}
    squares = set(path)
    for b in _threatening(bodies, mover.side, hostile):
        (bx, by), r = b.square, b.reach
        if bx < x0 - r or bx > x1 + r or by < y0 - r or by > y1 + r:
            continue
        area = _area(grid, b.square, r)
        for sq in squares:
            if sq in area:
                acc.setdefault(sq, []).append(b.id)
    return {sq: tuple(ids) for sq, ids in acc.items()}


def threat_entries(path: Sequence[Square], mover: Body, bodies: Sequence[Body], hostile: Hostile,
                   among: frozenset[str], *, grid: Grid | None = None) -> list[Provocation]:
    """Every point where the path enters the threat area of one of `among` (hostile bodies that
    threaten), reported at the index of the square being left, in path order."""
    hits: dict[int, list[str]] = {}
    for b in (b for b in _threatening(bodies, mover.side, hostile) if b.id in among):
        area = _area(grid, b.square, b.reach)
        for i in range(len(path) - 1):
            if path[i] not in area and path[i + 1] in area:
                hits.setdefault(i, []).append(b.id)
    return [Provocation(i, path[i], tuple(ids)) for i, ids in sorted(hits.items())]


def first_provocation(path: Sequence[Square], mover: Body, bodies: Sequence[Body], hostile: Hostile,
                      **kw) -> Provocation | None:
    """The first point where the move may be stopped (OSE-AOO-2), or None; same options as `provocations`."""
    found = provocations(path, mover, bodies, hostile, **kw)
    return found[0] if found else None


# --- every square within a move -------------------------------------------------

class Reachable:
    """Every square a mover can walk to from `start` within `max_ft` (walls and `blocked`
    squares stop it; the "5-10-5" parity is searched), each with its cheapest cost and path.
    Ties break as `shortest_path` does, so the same inputs give the same paths."""

    def __init__(self, grid: Grid, start: Square, blocked: Iterable[Square] = (), max_ft: int | None = None):
        blocked = blocked if isinstance(blocked, (set, frozenset)) else set(blocked)
        best, self._parent, _ = _search(grid, start, None, blocked, frozenset(), max_ft)
        self._cheapest: dict[Square, tuple[int, tuple]] = {}
        for state, g in sorted(best.items(), key=lambda item: (item[1], item[0][1]), reverse=True):
            self._cheapest[state[0]] = (g, state)  # the cheapest state of a square is written last

    def __contains__(self, sq: object) -> bool:
        return sq in self._cheapest

    def cost(self, sq: Square) -> int:
        """Feet of the cheapest walk to `sq` (KeyError if it cannot be reached)."""
        return self._cheapest[sq][0]

    def path(self, sq: Square) -> list[Square]:
        """The cheapest walk [start, ..., sq] (KeyError if it cannot be reached)."""
        return _unwind(self._parent, self._cheapest[sq][1])
