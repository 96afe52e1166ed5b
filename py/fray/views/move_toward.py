"""The long move in one tap (issue #53, stop 7): "Move toward <foe> (as far as allowed)", a Move option with its path.

The path is the cheapest walk to a free square beside the foe (walls, standing enemies and the map's edge stop
it, allies are passed), cut where the rules stop it: the feet the command may still cover (the grid's
`move_allowance`), then the engine's own check of the filled command, shortened square by square until it
passes. The option is the mover's ordinary Move command with that path: the same checks as a drawn path, the
attacks of opportunity asked when it resolves, one tap and one undo.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Collection, Sequence

from ..engine import geometry as geo
from ..engine import paths
from ..engine.commands import Option
from ..engine.ruleset import Ruleset
from ..engine.state import State
from .grid_path import _hostile, _path_options, allowance_of, diagonal_rule, fmt, grid_of

TOWARD_KEY = "toward"


def nearest_foe(state: State, actor: str, target: str | None = None,
                among: Collection[str] | None = None) -> str | None:
    """The foe a long move heads for: `target` when it is a standing, placed foe of the actor, else the
    nearest such foe (ties: the straighter line, then the lower square, then the id), only those `among` when
    given; None when there is none."""
    me = state.get(actor)
    if me.square is None:
        return None
    foes = [c for c in state.combatants if c.id != actor and not c.is_down and c.square is not None
            and state.hostile(me, c) and (among is None or c.id in among)]
    chosen = next((c for c in foes if c.id == target), None)
    if chosen is None and foes:
        mx, my = me.square
        chosen = min(foes, key=lambda c: (geo.distance_squares(tuple(me.square), tuple(c.square)),
                                          (c.square[0] - mx) ** 2 + (c.square[1] - my) ** 2, tuple(c.square), c.id))
    return chosen.id if chosen is not None else None


def toward_option(state: State, ruleset: Ruleset, actor: str | None, options: Sequence[Option],
                  target: str | None = None) -> Option | None:
    """"Move toward <foe> (as far as allowed)" for an actor on a grid with a Move option that takes a path, or
    None (no grid, no such move, no foe, already beside it, or no step the rules allow)."""
    if ruleset.grid is None or actor is None or not state.has(actor):
        return None
    foe_id = nearest_foe(state, actor, target)
    cands = _path_options(state, ruleset, actor, options) if foe_id is not None else []
    if not cands:
        return None
    c, foe = state.get(actor), state.get(foe_id)
    start, goal = tuple(c.square), tuple(foe.square)
    if geo.distance_squares(start, goal) <= 1:
        return None  # already beside it
    grid = grid_of(state, diagonal_rule(state, ruleset))
    bodies = list(ruleset.grid.bodies(state))
    me = next((b for b in bodies if b.id == actor), None) or geo.Body(actor, c.side, start)
    blocked, occupied = paths.occupancy(me, bodies, _hostile(state))
    reach = paths.Reachable(grid, start, blocked)
    beside = [sq for sq in ((goal[0] + dx, goal[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
              if sq != goal and sq in reach and sq not in occupied]
    if not beside:
        return None
    full = [tuple(p) for p in reach.path(min(beside, key=lambda sq: (reach.cost(sq), sq)))]
    best = None
    for _, option in cands:
        walk = _walk(state, ruleset, option, full, allowance_of(state, ruleset, actor, option), occupied, grid)
        if walk is not None and (best is None or len(walk[1]) > len(best[1])):
            best = walk
    if best is None:
        return None
    option, path, cmd = best
    feet = geo.path_cost_ft(list(path), grid.diagonal)
    there = "beside" if path[-1] in beside else "toward"
    hint = f"as far as allowed: {feet} ft to {fmt(path[-1])}, {there} {foe.name}"
    provoked = sorted({state.name(a) for p in paths.provocations(list(path), me, bodies, _hostile(state), grid=grid)
                       for a in p.attackers})
    if provoked:  # asked as for a drawn path when it resolves
        hint += f"; provokes {', '.join(provoked)} ({ruleset.grid.rule_ids.get('aoo', '')})"
    return Option(cmd, f"Move toward {foe.name}", group="Move", rule=option.rule,
                  hint=hint, key=TOWARD_KEY)


def _walk(state: State, ruleset: Ruleset, option: Option, full: list, allowance: int | None,
          occupied: set, grid: geo.Grid):
    """The longest start of `full` this option may take: within its allowance, ending on a free square, and
    allowed by the engine's check; (option, path, command) or None."""
    end = len(full)
    if allowance is not None:
        while end > 1 and geo.path_cost_ft(full[:end], grid.diagonal) > allowance:
            end -= 1
    while end > 1:
        path = tuple(full[:end])
        if path[-1] not in occupied:
            cmd = replace(option.command, path=path)
            if ruleset.check(state, cmd) is None:
                return option, path, cmd
        end -= 1
    return None
