"""Ogre on the tactical grid: bodies, reach, legal paths and suggested destinations for moves and charges.

Geometry itself is `engine/geometry.py`; this module only says what Ogre's
rules make of it: who threatens (not the flat-footed, OGRE-FF-1), how far
each kind of move may go (OGRE-MOVE-1), what a straight charge is
(OGRE-CHARGE-1).
"""
from __future__ import annotations

from heapq import heappop, heappush
from typing import Callable

from ...engine import geometry as geo
from ...engine.commands import Illegal, Reason as Core
from ...engine.conditions import can_act
from ...engine.geometry import Body, Grid
from ...engine.model import Weapon, Combatant, Square
from ...engine.state import State
from .reasons import Reason
from .state import OgreState, is_flat_footed, is_stunned, max_move_ft, speed_ft

_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))


def grid(state: State) -> Grid:
    diagonal = state.setting("diagonal", "5")
    return Grid.from_map(state.encounter.map, diagonal if diagonal in geo.DIAGONALS else "5")


def hostile_fn(state: State) -> Callable[[str, str], bool]:
    return lambda a, b: state.hostile(a, b)


def can_threaten(system: OgreState, c: Combatant) -> bool:
    """OGRE-FF-1 No Opportunity; CORE-COND-1 down, asleep, held...; a stunned one cannot strike either."""
    return can_act(c) and not is_flat_footed(system, c.id) and not is_stunned(system, c.id)


def bodies(state: State) -> list[Body]:
    """Every placed combatant as geometry sees it; the flat-footed threaten nobody (OGRE-FF-1)."""
    system: OgreState = state.board
    out = []
    for c in state.combatants:
        b = geo.body_of(c, can_act=can_threaten(system, c) if system is not None else False)
        if b is not None:
            out.append(b)
    return out


def body(state: State, cid: str) -> Body | None:
    c = state.get(cid)
    return geo.body_of(c, can_act=can_threaten(state.board, c))


def melee_attacks(c: Combatant) -> tuple[Weapon, ...]:
    return tuple(a for a in c.ready_weapons() if a.is_melee)


def reach_squares(a: Weapon) -> int:
    return max(1, a.reach // 5, 2 if a.has("reach") else 1)


def in_reach(state: State, attacker: Combatant, a: Weapon, target: Combatant, g: Grid | None = None,
             from_square: Square | None = None) -> bool:
    """Can `a` strike the target (from the attacker's square, or `from_square`)? Melee: within
    reach (the threat line rule); ranged: anywhere (the text gives no ranges); off the grid:
    always (the referee narrates)."""
    where = from_square if from_square is not None else attacker.square
    if a.is_ranged or where is None or target.square is None:
        return True
    g = g or grid(state)
    b = Body(attacker.id, attacker.side, tuple(where), reach_squares(a), True)
    return tuple(target.square) in geo.threatened_squares(b, g)


def cost_ft(state: State, path: tuple[Square, ...]) -> int:
    return geo.path_cost_ft(path, grid(state).diagonal)


def blocked_squares(state: State, c: Combatant) -> frozenset[Square]:
    """The squares `c` may not step into: those of standing foes (OGRE-MOVE-1)."""
    return frozenset(tuple(o.square) for o in state.combatants
                     if o.square is not None and not o.is_down and o.id != c.id and state.hostile(c, o))


def path_problem(state: State, c: Combatant, path: tuple[Square, ...], kind: str,
                 blocked: frozenset[Square] | None = None) -> Illegal | None:
    """Why a path is not a legal `kind` move for `c` (quick | short | move |
    difficult | withdraw | charge | follow-quick | follow-short | follow-standard).
    `blocked`, when given, is `blocked_squares(state, c)`, worked out once by a caller
    that tries many paths."""
    rule = {"withdraw": "OGRE-WD-1", "charge": "OGRE-CHARGE-1"}.get(kind, "OGRE-MOVE-1")
    if kind.startswith("follow"):
        rule = "OGRE-FOLLOW-1"
    g = grid(state)
    if blocked is None:
        blocked = blocked_squares(state, c)
    bad = geo.path_problem(g, c.square, path, blocked, who=c.name, rule=rule)
    if bad:
        return bad
    end = tuple(path[-1])
    for o in state.combatants:
        if o.id != c.id and o.square is not None and tuple(o.square) == end and not o.is_down:
            return Illegal(Core.OCCUPIED, f"{o.name} stands on {end}; {c.name} cannot end its move there ({rule})")
    steps = len(path) - 1
    feet = geo.path_cost_ft(path, g.diagonal)
    one_square = kind in ("quick", "difficult", "follow-quick")
    if one_square and steps != 1:
        name = {"quick": "A quick move", "difficult": "A difficult move"}.get(kind, "A quick follow")
        return Illegal(Core.OUT_OF_RANGE, f"{name} goes one square only; {c.name}'s path has {steps} ({rule})")
    limit = speed_ft(c) if kind in ("short", "follow-short") else max_move_ft(state, c)
    if not one_square and feet > limit:
        what = "normal speed" if kind in ("short", "follow-short") else "its fastest pace"
        return Illegal(Core.OUT_OF_RANGE, f"{c.name} can move {limit} ft at {what}; this path is {feet} ft ({rule})")
    if kind == "charge":
        if feet < 10 or not straight_charge_ok([tuple(p) for p in path]):
            return Illegal(Reason.NOT_STRAIGHT, f"A charge covers at least 10 ft in a straight line; "
                                           f"{c.name}'s path does not (OGRE-CHARGE-1)")
    return None


def _nearest_enemies(state: State, c: Combatant, limit: int) -> list[Combatant]:
    foes = [o for o in state.enemies_of(c) if not o.is_down and o.square is not None]
    foes.sort(key=lambda o: (geo.distance_squares(tuple(c.square), tuple(o.square)), o.id))
    return foes[:limit]


class Reach:
    """Every square `c` can walk to within max_ft: Dijkstra over (square, diagonal
    parity) with geometry's step rule, searched once per options() call and
    reused for every suggested destination."""

    def __init__(self, state: State, c: Combatant, max_ft: int) -> None:
        g = grid(state)
        self.c = c
        start = tuple(c.square)
        blocked = {tuple(o.square) for o in state.combatants
                   if o.square is not None and not o.is_down and o.id != c.id and state.hostile(c, o)}
        self.occupied = {tuple(o.square) for o in state.combatants
                         if o.square is not None and not o.is_down and o.id != c.id}
        alt = g.diagonal == "5-10-5"
        walls, w, h = g.walls, g.width, g.height
        best: dict[tuple[Square, int], int] = {(start, 0): 0}
        parent: dict[tuple[Square, int], tuple[Square, int] | None] = {(start, 0): None}
        heap = [(0, 0, (start, 0))]
        n = 0
        while heap:
            cost, _, node = heappop(heap)
            if cost > best[node]:
                continue
            sq, par = node
            x, y = sq
            for dx, dy in _STEPS:
                t = (x + dx, y + dy)
                # geometry.is_valid_step, inlined: on the board, no wall, no foe, no squeeze between walls
                if not (0 <= t[0] < w and 0 <= t[1] < h) or t in walls or t in blocked:
                    continue
                diag = dx != 0 and dy != 0
                if diag and (t[0], y) in walls and (x, t[1]) in walls:
                    continue
                nc = cost + (10 if alt and diag and par else 5)
                if nc > max_ft:
                    continue
                key = (t, par ^ 1 if alt and diag else par)
                if nc < best.get(key, nc + 1):
                    best[key], parent[key] = nc, node
                    n += 1
                    heappush(heap, (nc, n, key))
        self.cost: dict[Square, tuple[int, tuple[Square, int]]] = {}
        for node, cost in best.items():
            if node[0] not in self.cost or cost < self.cost[node[0]][0]:
                self.cost[node[0]] = (cost, node)
        self._parent = parent

    def path(self, sq: Square) -> tuple[Square, ...] | None:
        if sq not in self.cost:
            return None
        node: tuple[Square, int] | None = self.cost[sq][1]
        out = []
        while node is not None:
            out.append(node[0])
            node = self._parent[node]
        return tuple(out[::-1])

    def closest_to(self, foe: Combatant, reach: int, max_ft: int) -> tuple[Square, ...] | None:
        """The cheapest path to a free square within `reach` squares of `foe`; None if there already."""
        start = tuple(self.c.square)
        fx, fy = foe.square
        if geo.distance_squares(start, (fx, fy)) <= reach:
            return None
        best = None
        for dx in range(-reach, reach + 1):
            for dy in range(-reach, reach + 1):
                sq = (fx + dx, fy + dy)
                hit = self.cost.get(sq)
                if hit is None or sq in self.occupied or hit[0] > max_ft or sq == start:
                    continue
                key = (hit[0], dx * dx + dy * dy, sq)  # cheapest, then squarely facing the foe
                if best is None or key < best:
                    best = key
        return self.path(best[2]) if best else None


def move_suggestions(state: State, c: Combatant, kinds: tuple[str, ...], foes: int = 3
                     ) -> dict[str, list[tuple[str, tuple[Square, ...]]]]:
    """A few ready-made paths for each move kind of a menu: one square each way
    for quick and difficult moves; for longer ones, closing with each of the
    nearest foes and backing off from the nearest."""
    out: dict[str, list[tuple[str, tuple[Square, ...]]]] = {k: [] for k in kinds}
    if c.square is None:
        return out
    g = grid(state)
    start = tuple(c.square)
    far = max_move_ft(state, c)
    near = _nearest_enemies(state, c, foes)
    reach = Reach(state, c, far) if any(k not in ("quick", "difficult") for k in kinds) else None
    blocked = blocked_squares(state, c)
    for kind in kinds:
        if kind in ("quick", "difficult"):
            for sq in geo.neighbours(g, start):
                path = (start, sq)
                if path_problem(state, c, path, kind, blocked) is None:
                    out[kind].append((f"to {sq}", path))
            continue
        limit = speed_ft(c) if kind == "short" else far
        for foe in near:
            p = reach.closest_to(foe, 1, limit)
            if p is not None and path_problem(state, c, p, kind, blocked) is None:
                out[kind].append((f"close with {foe.name}", p))
        away = _away(state, c, limit, kind, blocked)
        if away is not None:
            out[kind].append(("back off", away))
    return out


def _away(state: State, c: Combatant, limit: int, kind: str,
          blocked: frozenset[Square] | None = None) -> tuple[Square, ...] | None:
    """A straight retreat from the nearest foe, as far as the limit and the board allow."""
    foes = _nearest_enemies(state, c, 1)
    if not foes:
        return None
    g = grid(state)
    sx, sy = c.square
    fx, fy = foes[0].square
    dx, dy = (sx > fx) - (sx < fx), (sy > fy) - (sy < fy)
    path = [(sx, sy)]
    for _ in range(max(1, limit // 5)):
        nxt = (path[-1][0] + dx, path[-1][1] + dy)
        if not g.in_bounds(nxt) or nxt in g.walls:
            break
        path.append(nxt)
    while len(path) >= 2 and path_problem(state, c, tuple(path), kind, blocked) is not None:
        path.pop()
    return tuple(path) if len(path) >= 2 else None


def charge_path(state: State, c: Combatant, foe: Combatant, a: Weapon,
                avoid: frozenset[Square] = frozenset()) -> tuple[Square, ...] | None:
    """OGRE-CHARGE-1: the shortest straight path of 10 ft or more ending within
    reach of `foe`, or None. A path that crosses none of the `avoid` squares (where
    declared moves will stand before the charge lands) is preferred to a shorter one."""
    if c.square is None or foe.square is None:
        return None
    start = tuple(c.square)
    reach = reach_squares(a)
    best = None
    g = grid(state)
    blocked = blocked_squares(state, c)  # once for every end square tried (a tap's options try 20 foes)
    fx, fy = foe.square
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            end = (fx + dx, fy + dy)
            if end == tuple(foe.square) or end == start:
                continue
            if geo.distance_squares(start, end) < 2 or not g.in_bounds(end) or end in g.walls:
                continue
            path = tuple(geo.line(start, end))
            if path_problem(state, c, path, "charge", blocked) is not None:
                continue
            if not in_reach(state, c, a, foe, g, from_square=end):
                continue
            crossed = bool(avoid.intersection(tuple(p) for p in path[1:]))
            key = (crossed, len(path), dx * dx + dy * dy, end)  # clear first, shortest, squarely facing
            if best is None or key < best[0]:
                best = (key, path)
    return best[1] if best else None


MOVE_KINDS = ("quick", "short", "move", "difficult")  # OGRE-MOVE-1


def suggest_paths(state: State, actor: str) -> list[tuple[str, str, tuple[Square, ...]]]:
    """(kind, label, path) for each move kind (OGRE-MOVE-1), and the standard moves
    that are also a legal withdraw (OGRE-WD-1): the paths playout and the preview offer."""
    c = state.get(actor)
    by_kind = move_suggestions(state, c, MOVE_KINDS)
    out = [(kind, label, path) for kind in MOVE_KINDS for label, path in by_kind[kind]]
    out += [("withdraw", label, path) for label, path in by_kind["move"]
            if path_problem(state, c, path, "withdraw") is None]
    return out


def straight_charge_ok(path: tuple[Square, ...] | list[Square]) -> bool:
    """OGRE-CHARGE-1: at least 2 steps (10 ft) of adjacent squares in a straight line:
    every step the same direction, or exactly `line(path[0], path[-1])`."""
    if len(path) < 3 or any(not geo.is_adjacent(a, b) for a, b in zip(path, path[1:])):
        return False
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:])}
    return len(steps) == 1 or list(path) == geo.line(path[0], path[-1])
