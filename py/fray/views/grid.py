"""The tactical grid's view model: tokens, threat and reach, distances, and a move path preview with its attacks of opportunity.

Pure data from (state, ruleset, selection, pointer/cursor squares, waypoints,
pending option), built BEFORE anything is committed so the referee sees what
a move would provoke (OSE-AOO-1, OGRE-AOO-1) and what it costs. Geometry
itself lives in `engine/geometry.py`; who threatens comes from
`ruleset.grid.bodies(state)`; whether a command is legal comes from
`ruleset.check`. `ui/field/grid.py` only draws this.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from ..engine import geometry as geo
from ..engine.cache import Cache
from ..engine.commands import Option
from ..engine.geometry import Body, Grid
from ..engine.model import MapSpec, Square
from ..engine.ruleset import Ruleset
from ..engine.state import State
from . import grid_path
from .grid_path import (PathPreview, PreviewRequest, _hostile, can_move, diagonal_rule, fmt, grid_of, grid_queries,
                        grid_rules, plan_path)
from .models import Badge, initials


@dataclass(frozen=True)
class GridToken:
    """A creature on the map as the grid draws it: colour AND shape AND letters."""

    id: str
    name: str
    initials: str
    side: str
    side_name: str
    colour: str
    shape: str
    square: Square
    hp: int
    max_hp: int
    is_current: bool
    is_selected: bool
    is_down: bool
    badges: tuple[Badge, ...] = ()
    reach_ft: int = 5
    threatens: bool = True

    @property
    def label(self) -> str:
        """The sentence a screen reader (and the tooltip) says for the token."""
        out = f"{self.name} ({self.side_name}), {self.hp}/{self.max_hp} HP, at {fmt(self.square)}"
        if self.is_current:
            out += ", acting now"
        if self.is_selected:
            out += ", selected"
        if self.is_down:
            out += ", down"
        for b in self.badges:
            out += f", {b.word}"
        return out


@dataclass(frozen=True)
class SquareInfo:
    """What a long press (or the cursor) tells about one square."""

    square: Square
    lines: tuple[str, ...]
    can_place: str | None = None  # id of the selected creature the referee may place here


@dataclass(frozen=True)
class GridModel:
    width: int
    height: int
    diagonal: str
    map: MapSpec
    tokens: tuple[GridToken, ...]
    selected: str | None
    threatened: frozenset[Square]  # the selected creature's threatened squares
    threat_note: str  # "Brak threatens 8 squares (reach 5 ft, OSE-AOO-3)"
    reach_ft: int
    ranged_blocked: tuple[str, ...]  # names of standing enemies within 5 ft (OSE-RANGED-1)
    ranged_note: str
    hover: Square | None
    hover_ft: int | None
    hover_note: str
    cursor: Square | None
    path: PathPreview | None
    enemy_threat: frozenset[Square]  # while previewing: squares the mover's enemies threaten
    info: SquareInfo | None
    move_ready: bool  # the selected creature can move by tapping squares (a path option or pending)

    @property
    def walls(self) -> frozenset[Square]:
        return self.map.walls


# --- the whole model --------------------------------------------------------------------------

_TOKENS = Cache(1)  # the last state's tokens, none selected, per (current, badges)


def _tokens(state: State, current: Iterable[str], selected: str | None, badges: dict[str, tuple[Badge, ...]],
            bodies: dict[str, Body]) -> tuple[GridToken, ...]:
    """The tokens, built once while the state, the turn and the badges stay the same: a selection only
    marks its token (and draws it on top of the others on its square)."""
    cur = tuple(current)
    base = _TOKENS.get((cur, tuple(badges.items())), lambda: _build_tokens(state, cur, None, badges, bodies),
                       same=(state,))
    if selected is None or not any(tk.id == selected for tk in base):
        return base
    out = [replace(tk, is_selected=True) if tk.id == selected else tk for tk in base]
    # On top of its own square only: the selected token moves after the others on that square, and every
    # other token keeps its place, so a selection redraws two tokens, not every one drawn after it.
    i = next(j for j, tk in enumerate(out) if tk.is_selected)
    last = max(j for j, tk in enumerate(out) if tk.square == out[i].square)
    if last > i:
        out.insert(last, out.pop(i))
    return tuple(out)


_BODIES = Cache(1)  # the last state's bodies


def _bodies(state: State, ruleset: Ruleset) -> list[Body]:
    """The ruleset's bodies of this state (who stands where, reach, threat), once per state."""
    return _BODIES.get(None, lambda: list(grid_queries(ruleset).bodies(state)), same=(state, ruleset))


def _build_tokens(state: State, current: tuple[str, ...], selected: str | None,
                  badges: dict[str, tuple[Badge, ...]], bodies: dict[str, Body]) -> tuple[GridToken, ...]:
    sides = {s.id: s for s in state.encounter.sides}
    cur = set(current)
    out = []
    for c in state.combatants:
        if c.square is None:
            continue
        side = sides.get(c.side)
        b = bodies.get(c.id)
        out.append(GridToken(
            c.id, c.name, initials(c.name), c.side, side.name if side else c.side,
            side.colour if side else "#777777", side.shape if side else "circle", tuple(c.square), c.hp, c.max_hp,
            c.id in cur, c.id == selected, c.is_down, tuple(badges.get(c.id, ())),
            (b.reach if b else 1) * 5, bool(b and b.threatens)))
    # Down tokens first so a standing creature on the same square is drawn (and tapped) on top.
    out.sort(key=lambda t: (not t.is_down, t.is_selected))
    return tuple(out)


def square_info(state: State, ruleset: Ruleset, sq: Square, selected: str | None, bodies: Sequence[Body],
                grid: Grid, diagonal: str) -> SquareInfo:
    """Who stands there, wall, distance from the selected creature, who threatens it."""
    lines = [f"Square {fmt(sq)}"]
    if sq in grid.walls:
        lines.append("Wall")
    here = [c for c in state.combatants if c.square is not None and tuple(c.square) == sq]
    for c in here:
        lines.append(f"{c.name} stands here" + (" (down)" if c.is_down else ""))
    sel = state.find(selected) if selected else None
    can_place = None
    if sel is not None and sel.square is not None:
        d = geo.distance_ft(tuple(sel.square), sq, diagonal)
        lines.append(f"{d} ft from {sel.name}")
        ids = geo.threateners(sq, sel.side, bodies, _hostile(state), grid=grid)
        if ids:
            rule = grid_rules(ruleset).get("threat", "")
            lines.append(f"Threatened, for {sel.name}, by {', '.join(state.name(i) for i in ids)}"
                         + (f" ({rule})" if rule else ""))
        if tuple(sel.square) != sq and sq not in grid.walls and not any(not c.is_down for c in here):
            can_place = sel.id
    elif sel is not None:
        can_place = sel.id if sq not in grid.walls and not any(not c.is_down for c in here) else None
    return SquareInfo(sq, tuple(lines), can_place)


def grid_model(state: State, ruleset: Ruleset, *, selected: str | None = None, current: Iterable[str] = (),
               badges: dict[str, tuple[Badge, ...]] | None = None, hover: Square | None = None,
               cursor: Square | None = None, preview: PreviewRequest | None = None,
               pending: Option | None = None, options: Sequence[Option] | None = None,
               info: Square | None = None) -> GridModel:
    """Everything the grid draws for this state and this pointer/selection."""
    m = state.encounter.map
    diagonal = diagonal_rule(state, ruleset)
    grid = grid_of(state, diagonal)
    bodies = _bodies(state, ruleset)
    by_id = {b.id: b for b in bodies}
    tokens = _tokens(state, current, selected, badges or {}, by_id)
    hostile = _hostile(state)
    sel = state.find(selected) if selected else None
    sel_body = by_id.get(selected) if selected else None
    threatened: frozenset[Square] = frozenset()
    threat_note = ranged_note = ""
    ranged: tuple[str, ...] = ()
    reach_ft = 0
    rules = grid_rules(ruleset)
    if sel is not None and sel_body is not None:
        threatened = geo.threatened_squares(sel_body, grid)
        reach_ft = sel_body.reach * 5
        rule = rules.get("threat", "")
        if sel_body.reach > 1 and rules.get("reach_weapon"):
            rule = f"{rule}, {rules['reach_weapon']}" if rule else rules["reach_weapon"]
        if threatened:
            threat_note = (f"{sel.name} threatens {len(threatened)} square{'s' if len(threatened) != 1 else ''}"
                           f" (reach {reach_ft} ft" + (f", {rule})" if rule else ")"))
        else:
            why = rules.get("no_threat", "it cannot strike now")
            threat_note = f"{sel.name} threatens no square: {why}"
        if rules.get("ranged") and any(a.is_ranged for a in sel.weapons):
            ids = geo.adjacent_enemies(sel_body, bodies, hostile)  # a ranged attack needs no enemy within 5 ft
            if ids:
                ranged = tuple(state.name(i) for i in ids)
                ranged_note = (f"No ranged attack for {sel.name}: {', '.join(ranged)} "
                               f"{'is' if len(ranged) == 1 else 'are'} within 5 ft ({rules['ranged']})")
    hover_ft = None
    hover_note = ""
    if hover is not None and grid.in_bounds(hover):
        if sel is not None and sel.square is not None:
            hover_ft = geo.distance_ft(tuple(sel.square), hover, diagonal)
            hover_note = f"{fmt(hover)}: {hover_ft} ft from {sel.name}"
        else:
            hover_note = f"{fmt(hover)}"
    else:
        hover = None
    path = None
    enemy_threat: frozenset[Square] = frozenset()
    if preview is not None and state.has(preview.mover):
        path = plan_path(state, ruleset, preview, pending=pending,
                         options=options if preview.mover == selected else None, bodies=bodies, diagonal=diagonal)
        if path is not None and path.kind != "place":
            enemy_threat = _enemy_threat(state, bodies, grid, state.get(preview.mover).side, hostile)
    move_ready = can_move(state, ruleset, selected, pending, options)
    sq_info = square_info(state, ruleset, info, selected, bodies, grid, diagonal) \
        if info is not None and grid.in_bounds(info) else None
    if cursor is not None and not grid.in_bounds(cursor):
        cursor = None
    return GridModel(m.width, m.height, diagonal, m, tokens, selected if sel is not None else None, threatened,
                     threat_note, reach_ft, ranged, ranged_note, hover, hover_ft, hover_note, cursor, path,
                     enemy_threat, sq_info, move_ready)


_THREAT = Cache(1)  # the last state's threatened squares, per (side, board)


def _enemy_threat(state: State, bodies: Sequence[Body], grid: Grid, side: str, hostile) -> frozenset[Square]:
    """Every square the side's enemies threaten, remembered per (state, side, walls)."""
    return _THREAT.get((side, grid), lambda: frozenset(geo.threat_map(bodies, grid, side, hostile)), same=(state,))


def forget() -> None:
    """Drop every remembered result (tokens, options, threat, last path): for benchmarks of a cold build."""
    for cache in (_TOKENS, _THREAT, _BODIES):
        cache.cache_clear()
    grid_path.forget()


def token_at(model: GridModel, sq: Square) -> GridToken | None:
    """The token drawn on top at a square (a standing creature before a down one)."""
    found = None
    for t in model.tokens:
        if t.square == sq:
            found = t
    return found



def uncut(start: float, length: float, total: float, occupied: Iterable[int], keep: Iterable[int] = ()) -> float:
    """Where a zoomed view of `length` squares along one axis of a map of `total` squares begins (in squares),
    moved as little as it takes so that its edges cut no token's square (`occupied`: the columns, or rows,
    tokens stand in) and the `keep` squares stay whole inside: a token at the view's edge shows whole or not at
    all (issue 53: OSE tokens cut at the grid's edge at 390 px). `start` when nothing needs it or nothing fits."""
    eps = 1e-6
    cells, kept = set(occupied), set(keep)

    def whole(a: float) -> bool:
        b = a + length
        if a < -eps or b > total + eps:
            return False
        if any(k + eps < a < k + 1 - eps or k + eps < b < k + 1 - eps for k in cells):
            return False  # an edge through a token's square
        return all(a - eps <= k and k + 1 <= b + eps for k in kept)

    if length >= total - eps:
        return start
    tries = [start] + [c for k in cells for c in (k, k + 1, k + 1 - length, k - length)]
    return next((a for a in sorted(tries, key=lambda a: abs(a - start)) if whole(a)), start)
