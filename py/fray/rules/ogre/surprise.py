"""OGRE-SUR-1 "before the fight": who sees whom first, the starting distance and who is surprised.

The engine only suggests; the referee confirms or overrides with the
`BeforeTheFight` command (REF). Pure functions over plain numbers.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...engine.state import State
from .state import DEFAULT_TERRAIN_FT, table


@dataclass(frozen=True)
class GroupSight:
    """One group's numbers in the dialog."""

    side: str
    name: str
    spot: int
    stalk: int
    ranged: bool
    sees_ft: int


@dataclass(frozen=True)
class SurpriseSuggestion:
    """What the engine proposes: the starting distance, who is surprised, and why."""

    groups: tuple[GroupSight, ...]
    terrain: str
    ft_per_3: int
    distance_ft: int
    surprised: tuple[str, ...]
    reason: str


def terrains(state: State) -> dict[str, int]:
    return table(state, "terrain_ft", DEFAULT_TERRAIN_FT)


def sight_ft(spot: int, ft_per_3: int) -> int:
    """OGRE-SUR-1: 10 ft (in gentle hills) for each 3 points of the Spot result."""
    return max(0, spot) // 3 * ft_per_3


def has_ranged(state: State, side: str) -> bool:
    """Does any standing member of the group have a ranged attack?"""
    return any(a.is_ranged for c in state.on_side(side) if not c.is_down for a in c.weapons)


def suggest(state: State, sides: tuple[str, ...], spot: tuple[int, ...], stalk: tuple[int, ...] = (),
            ranged: tuple[bool, ...] = (), terrain: str = "gentle hills") -> SurpriseSuggestion:
    """OGRE-SUR-1. The group that sees the others first surprises them if it has
    ranged attacks (the fight starts at its sight distance); with melee only
    nobody is surprised and the fight starts when the others notice it. A group
    whose Stalk the others' Spot does not beat surprises them even in melee
    (the fight then starts at 5 ft)."""
    ft = int(terrains(state).get(terrain, 10))
    groups = []
    for i, side in enumerate(sides):
        s = state.encounter.side(side)
        groups.append(GroupSight(
            side, s.name if s else side, spot[i] if i < len(spot) else 0,
            stalk[i] if i < len(stalk) else 0,
            ranged[i] if i < len(ranged) else has_ranged(state, side),
            sight_ft(spot[i] if i < len(spot) else 0, ft)))
    if len(groups) < 2:
        d = groups[0].sees_ft if groups else 0
        return SurpriseSuggestion(tuple(groups), terrain, ft, d, (), "Only one group: nobody to surprise.")
    order = sorted(groups, key=lambda g: -g.sees_ft)
    first, second = order[0], order[1]
    surprised: list[str] = []
    reasons: list[str] = []
    distance = second.sees_ft
    for g in groups:
        for o in groups:
            if o is g or o.side in surprised:
                continue
            if g.stalk > 0 and o.spot <= g.stalk:
                surprised.append(o.side)
                distance = 5
                reasons.append(f"{o.name}'s Spot {o.spot} does not beat {g.name}'s Stalk {g.stalk}: "
                               f"{o.name} is surprised even in melee")
    if first.sees_ft > second.sees_ft and first.ranged:
        for o in groups:
            if o is not first and o.side not in surprised:
                surprised.append(o.side)
                reasons.append(f"{first.name} sees {o.name} first ({first.sees_ft} ft against "
                               f"{o.sees_ft} ft) and has ranged attacks: {o.name} is surprised")
        if distance != 5:
            distance = first.sees_ft
    elif first.sees_ft > second.sees_ft and not surprised:
        reasons.append(f"{first.name} sees the others first ({first.sees_ft} ft) but must close to melee: "
                       f"the fight starts when they notice it, at {second.sees_ft} ft, and nobody is surprised")
    elif not surprised:
        reasons.append(f"Both groups see each other at {second.sees_ft} ft: nobody is surprised")
    return SurpriseSuggestion(tuple(groups), terrain, ft, distance, tuple(surprised), "; ".join(reasons) + ".")


def placement(state: State, sides: tuple[str, ...], distance_ft: int) -> dict[str, tuple[int, int]] | None:
    """OGRE-SUR-1 on the grid: the first group and the others `distance_ft`
    apart (5 ft a square), in ranks facing each other across the map's middle,
    across its width or else its height. None when the map has no room (walls
    and other tokens are stepped around; the referee can adjust after)."""
    if len(sides) < 2:
        return None
    gap = max(1, distance_ft // 5)
    first = [c for c in state.on_side(sides[0]) if not c.is_down]
    others = [c for side in sides[1:] for c in state.on_side(side) if not c.is_down]
    if not first or not others:
        return None
    moving = {c.id for c in first + others}
    m = state.encounter.map
    blocked = set(m.walls) | {c.square for c in state.combatants
                              if c.square is not None and c.id not in moving and not c.is_down}
    for across in (True, False):  # along x first (facing left-right), then along y
        length, breadth = (m.width, m.height) if across else (m.height, m.width)
        front = (length - 1 - gap) // 2
        if front < 0:
            continue

        def square(along: int, side: int) -> tuple[int, int]:
            return (along, side) if across else (side, along)

        placed: dict[str, tuple[int, int]] = {}
        ok = True
        for group, start, step in ((first, front, -1), (others, front + gap, 1)):
            lines = _ranks(len(group), start, step, length, breadth, blocked, square)
            if lines is None:
                ok = False
                break
            placed.update({c.id: sq for c, sq in zip(group, lines)})
        if ok:
            return placed
    return None


def _ranks(n: int, start: int, step: int, length: int, breadth: int, blocked: set,
           square) -> list[tuple[int, int]] | None:
    """n free squares in ranks from `start` away from the foe (centre of each rank first)."""
    middle = (breadth - 1) // 2
    files = sorted(range(breadth), key=lambda y: (abs(y - middle), y))
    out: list[tuple[int, int]] = []
    along = start
    while len(out) < n:
        if not 0 <= along < length:
            return None
        out += [square(along, y) for y in files if square(along, y) not in blocked][:n - len(out)]
        along += step
    return out
