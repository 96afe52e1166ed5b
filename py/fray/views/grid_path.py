"""The grid's move preview: the board of a state, which of a mover's options a path completes, the path a drag or
taps plan with its cost and the attacks of opportunity it provokes (OSE-AOO-1, OGRE-AOO-1), and what committing
it sends. Pure data, built before anything is committed; views/grid.py puts it in the grid's model.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Sequence

from ..engine import geometry as geo
from ..engine import paths
from ..engine.cache import Cache
from ..engine.commands import Option
from ..engine.geometry import Body, Grid
from ..engine.grid_rules import GridRules
from ..engine.model import Square, are_hostile
from ..engine.referee import Place
from ..engine.ruleset import Ruleset
from ..engine.state import State


def grid_queries(ruleset: Ruleset) -> GridRules:
    """The grid's queries a system with a grid declares (`Ruleset.grid`); one without has no grid to draw."""
    if ruleset.grid is None:
        raise ValueError(f"{ruleset.title} has no grid: its field views draw none")
    return ruleset.grid


def grid_rules(ruleset: Ruleset) -> dict[str, str]:
    """The rule ids the grid cites, from the grid's `rule_ids`: "aoo", "threat",
    "withdraw", and where the system has them "brace" (a charge meets braced foes), "ranged"
    (no ranged attack next to an enemy), "reach_weapon"; "no_threat" is the sentence for a
    creature that threatens nothing. The geometry is shared; the rules differ."""
    return dict(grid_queries(ruleset).rule_ids)


@dataclass(frozen=True)
class Provoking:
    """A square of the path where leaving provokes: the attackers, named."""

    index: int
    square: Square
    attackers: tuple[str, ...]
    names: tuple[str, ...]
    rule: str
    brace: bool = False  # a charge entering a bracing enemy's reach (OSE-BRACE-1)

    @property
    def text(self) -> str:
        who = ", ".join(self.names)
        if self.brace:
            return f"Charging on from {fmt(self.square)} meets the braced {who} ({self.rule})"
        return f"Leaving {fmt(self.square)} provokes {who} ({self.rule})"


@dataclass(frozen=True)
class PathPreview:
    """A move (or a referee placement) shown before it is committed.

    `squares` is the shortest legal path through the waypoints (start first),
    empty when there is none; `command` is what a commit would send, with the
    path filled; `problem` is the engine's refusal of it (or why there is no
    path), "" when the rules allow it.
    """

    mover: str
    mover_name: str
    kind: str  # "move" | "withdraw" | "charge" | "place"
    label: str  # the option's label, or "Place (referee)"
    start: Square
    points: tuple[Square, ...]  # waypoints, the destination last
    squares: tuple[Square, ...]
    cost_ft: int
    allowance_ft: int | None
    provocations: tuple[Provoking, ...]
    problem: str
    command: Any  # Command | None
    via_pending: bool = False
    rule: str = ""

    @property
    def dest(self) -> Square | None:
        return self.points[-1] if self.points else None

    @property
    def waypoints(self) -> tuple[Square, ...]:
        return self.points[:-1]

    @property
    def is_over(self) -> bool:
        return self.allowance_ft is not None and self.cost_ft > self.allowance_ft

    @property
    def summary(self) -> str:
        """One line: "Move: Brak to (9, 4), 25 ft of 80 ft"."""
        if self.kind == "place":
            return f"Place {self.mover_name} at {fmt(self.dest)}: a referee override, logged (CORE-REF-1)"
        if not self.squares:
            return f"{self.label}: {self.mover_name} to {fmt(self.dest)}"
        feet = f"{self.cost_ft} ft" + (f" of {self.allowance_ft} ft" if self.allowance_ft is not None else "")
        return f"{self.label}: {self.mover_name} to {fmt(self.dest)}, {feet}"


@dataclass(frozen=True)
class PreviewRequest:
    """What the pointer asked for: a mover and the squares its path must pass, destination last."""

    mover: str
    points: tuple[Square, ...]
    place: bool = False  # a referee placement (Place), not a move by the rules


def fmt(sq: Square | None) -> str:
    return "?" if sq is None else f"({sq[0]}, {sq[1]})"


# --- the board ---------------------------------------------------------------------------

_GRIDS = Cache(17)  # (map, diagonal rule) -> its geometry board


def diagonal_rule(state: State, ruleset: Ruleset) -> str:
    """The encounter's diagonal rule: its `diagonal` setting if the system has one, else "5"."""
    if any(s.key == "diagonal" for s in ruleset.settings()):
        d = str(state.setting("diagonal", "5"))
        return d if d in geo.DIAGONALS else "5"
    return "5"


def grid_of(state: State, diagonal: str) -> Grid:
    """The geometry board of the state's map (walls as they are now), cached per map."""
    return _GRIDS.get((state.encounter.map, diagonal), lambda: Grid.from_map(state.encounter.map, diagonal))


def _hostile(state: State):
    """CORE-SIDE-1 between side ids, as geometry asks it."""
    sides = state.encounter.sides
    return lambda a, b: are_hostile(sides, a, b)


# --- moves ----------------------------------------------------------------------------------

def _path_options(state: State, ruleset: Ruleset, mover: str, options: Sequence[Option] | None
                  ) -> list[tuple[int, Option]]:
    """The mover's allowed Move-group options that a map path completes alone."""
    if options is None:
        options = _options_of(state, ruleset, mover)
    out = []
    for i, o in enumerate(options):
        if not o.allowed or o.group != "Move" or "path" not in o.needs:
            continue
        if getattr(o.command, "actor", mover) != mover:
            continue
        if any(n.split(":")[-1] != "path" for n in o.needs):
            continue
        if any(set(ch.values) - {"path"} for ch in o.choices):
            continue  # a question beyond the path must be asked in the actions panel first
        out.append((i, o))
    if out:  # only options of the first one's kind: never a Withdraw picked in place of a Move
        kind = type(out[0][1].command)
        out = [(i, o) for i, o in out if type(o.command) is kind]
    return out


_OPTIONS = Cache(1)  # the last dragged creature's options, per (state, ruleset)


def _options_of(state: State, ruleset: Ruleset, mover: str) -> list[Option]:
    """Another creature's options (a token dragged without being selected), remembered per state."""
    def make() -> list[Option]:
        try:
            return list(ruleset.options(state, mover))
        except Exception:  # a ruleset mid-turn may not offer options to this creature
            return []
    return _OPTIONS.get(mover, make, same=(state, ruleset))


def is_path_pending(pending: Option | None, mover: str | None) -> bool:
    return (pending is not None and "path" in pending.needs
            and getattr(pending.command, "actor", mover) == mover)


def can_move(state: State, ruleset: Ruleset, mover: str | None, pending: Option | None,
             options: Sequence[Option] | None) -> bool:
    """Does tapping a square move this creature by the rules (a pending path, or a Move option)?"""
    if mover is None or not state.has(mover) or state.get(mover).square is None:
        return False
    return is_path_pending(pending, mover) or bool(_path_options(state, ruleset, mover, options))


_FT = re.compile(r"(\d+) ft (?:left|more)|up to (\d+) ft")


def allowance_of(state: State, ruleset: Ruleset, mover: str, option: Option | None) -> int | None:
    """Feet the mover may still cover: the grid's `move_allowance(state, mover, command)` if it
    says, else the figure its option shows ("Move (30 ft left)", "up to 40 ft")."""
    hook = ruleset.grid.move_allowance if ruleset.grid is not None else None
    if hook is not None and option is not None:
        try:
            value = hook(state, mover, option.command)
        except Exception:
            value = None
        if value is not None:
            return int(value)
    if option is None:
        return None
    for text in (option.label, option.hint):
        m = _FT.search(text or "")
        if m:
            return int(m.group(1) or m.group(2))
    return None


def _kind_of(cmd: Any) -> str:
    name = type(cmd).__name__.lower()
    if getattr(cmd, "withdraw", False) is True or name == "withdraw":
        return "withdraw"
    if getattr(cmd, "charge", False) is True or name == "charge":
        return "charge"
    return "move"


_LAST = Cache(1)  # the last path preview, per state


def plan_path(state: State, ruleset: Ruleset, request: PreviewRequest, *, pending: Option | None = None,
              options: Sequence[Option] | None = None, bodies: Sequence[Body] | None = None,
              diagonal: str | None = None) -> PathPreview | None:
    """The path preview for a request: the shortest legal path through the points, its cost,
    its provocations (from where everyone stands now) and the engine's verdict on the command."""
    if not state.has(request.mover) or not request.points:
        return None
    c = state.get(request.mover)
    if c.square is None:
        return None
    key = (request, pending, tuple(options) if options is not None else None)
    # The options may hold lists (unhashable): the key is compared by value with the state, not hashed.
    return _LAST.get(None, lambda: _plan_path(state, ruleset, request, c, pending, options, bodies, diagonal),
                     same=(state, key), equal=(False, True))


def _plan_path(state: State, ruleset: Ruleset, request: PreviewRequest, c, pending: Option | None,
               options: Sequence[Option] | None, bodies: Sequence[Body] | None, diagonal: str | None) -> PathPreview:
    diagonal = diagonal or diagonal_rule(state, ruleset)
    start = tuple(c.square)
    points = tuple(tuple(p) for p in request.points)
    rules = grid_rules(ruleset)
    if request.place:
        dest = points[-1]
        cmd = Place(c.id, square=dest)
        bad = ruleset.check(state, cmd)
        return PathPreview(c.id, c.name, "place", "Place (referee)", start, (dest,), (), 0, None, (),
                           bad.detail if bad else "", cmd, rule="CORE-REF-1")
    grid = grid_of(state, diagonal)
    bodies = list(bodies) if bodies is not None else list(grid_queries(ruleset).bodies(state))
    hostile = _hostile(state)
    me = next((b for b in bodies if b.id == c.id), None) or Body(c.id, c.side, start)
    path = paths.path_through(grid, (start,) + points, me, bodies, hostile)
    squares = tuple(tuple(p) for p in path) if path else ()
    # Which command a commit sends: the pending one, else the first Move option the path satisfies.
    option, via_pending, cmd, problem = None, False, None, ""
    if is_path_pending(pending, c.id):
        option, via_pending = pending, True
        cmd = replace(pending.command, path=squares) if squares else pending.command
        bad = ruleset.check(state, cmd) if squares else None
        problem = bad.detail if bad else ""
    else:
        cands = _path_options(state, ruleset, c.id, options)
        for _, o in cands:
            filled = replace(o.command, path=squares) if squares else o.command
            bad = ruleset.check(state, filled) if squares else None
            if option is None or bad is None:
                option, cmd, problem = o, filled, (bad.detail if bad else "")
            if bad is None:
                break
    kind = _kind_of(cmd) if cmd is not None else "move"
    if not squares:
        problem = (f"No way for {c.name} to {fmt(points[-1])}: walls, standing enemies, the map's edge "
                   f"or a creature on the last square are in the way")
    provs: tuple[Provoking, ...] = ()
    if len(squares) > 1:
        names = {b.id: state.name(b.id) for b in bodies}
        bracing = grid_queries(ruleset).braced(state) if kind == "charge" else frozenset()
        if kind == "charge":  # a charge provokes only the braced foes whose reach it enters
            found = paths.threat_entries(list(squares), me, bodies, hostile, bracing, grid=grid)
        else:
            found = paths.provocations(list(squares), me, bodies, hostile, withdraw=kind == "withdraw", grid=grid)
        rule = rules.get("brace", "") if kind == "charge" else rules.get("aoo", "")
        provs = tuple(Provoking(p.index, p.square, p.attackers, tuple(names.get(a, a) for a in p.attackers),
                                rule, brace=kind == "charge") for p in found)
    cost = geo.path_cost_ft(list(squares), grid.diagonal) if len(squares) > 1 else 0
    label = option.label if option is not None else "Move"
    label = re.sub(r"\s*\([^)]*\bft\b[^)]*\)", "", label) or label  # "Move (80 ft left)" -> "Move"
    rule = rules.get("withdraw", "") if kind == "withdraw" else rules.get("aoo", "")
    return PathPreview(c.id, c.name, kind, label, start, points, squares, cost,
                       allowance_of(state, ruleset, c.id, option), provs, problem, cmd, via_pending, rule)


def commit_command(path: PathPreview) -> tuple[str, Any]:
    """What committing a preview sends: ("fill", {"path": ...}) for a pending option,
    ("command", cmd) otherwise, or ("none", reason) when there is no path."""
    if path.kind == "place":
        return ("command", path.command)
    if not path.squares:
        return ("none", path.problem)
    if path.via_pending:
        return ("fill", {"path": path.squares})
    if path.command is None:
        return ("none", f"{path.mover_name} has no move to make now")
    return ("command", path.command)


def forget() -> None:
    """Drop the remembered options, last path and boards (benchmarks of a cold build)."""
    for cache in (_OPTIONS, _LAST, _GRIDS):
        cache.cache_clear()
