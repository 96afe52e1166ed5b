"""OSE bodies on the grid: who stands where and threatens (OSE-AOO-1, OSE-AOO-3), looked up by id and square."""
from __future__ import annotations

from ...engine.cache import Cache
from ...engine.geometry import Body, chebyshev
from ...engine.model import Combatant, Square
from ...engine.state import State
from .combat import usable_melee, weapon_reach
from .state import FLED, can_act


def bodies(state: State) -> list[Body]:
    """Who stands where and who threatens (OSE-AOO-1, OSE-AOO-3, OSE-STANCE-3).

    A creature threatens with a usable melee or natural weapon in hand, when it
    can act: not down, fled, surrendered, pinned, helpless or turned.
    """
    return _BODIES.get("bodies", lambda: _bodies(state), same=(state.combatants, state.board.turned))


_BODIES = Cache(1)  # the last combatants' bodies
_BODY = Cache(1024)  # one combatant's body (a new state keeps most combatants: their bodies are kept too)
_NEAR = Cache(1)  # the last bodies by square and by id (`near_index`)


def _bodies(state: State) -> list[Body]:
    turned = state.board.turned
    out = []
    for c in state.combatants:
        b = _BODY.get(c.id, lambda: _body_of(c, c.id in turned), same=(c, c.id in turned))
        if b is not None:
            out.append(b)
    return out


def _body_of(c: Combatant, turned: bool) -> Body | None:
    if c.square is None or c.has_condition(FLED):
        return None
    melee = usable_melee(c)
    reach = max([weapon_reach(c, a) for a in melee] or [1])
    threatens = bool(melee) and can_act(c) and not turned  # CORE-COND-1
    return Body(c.id, c.side, tuple(c.square), reach, threatens, c.is_down)


def near_index(state: State) -> tuple[dict[str, Body], dict[Square, list[Body]]]:
    """`bodies(state)` by id and by square, made once per list of bodies: who stands next to whom is
    looked up on the eight squares around, not over the whole fight (each resolution of a big fight's
    odds asks it of every archer: issue 38)."""
    bs = bodies(state)
    return _NEAR.get("near", lambda: _near_index(bs), same=(bs,))


def _near_index(bs: list[Body]) -> tuple[dict[str, Body], dict[Square, list[Body]]]:
    by_id: dict[str, Body] = {}
    by_square: dict[Square, list[Body]] = {}
    for b in bs:
        by_id.setdefault(b.id, b)
        by_square.setdefault(b.square, []).append(b)
    return by_id, by_square


_PLACED = Cache(1)  # the last combatants by square (`within`)


def within(state: State, square: Square, reach: int) -> list[Combatant]:
    """The combatants (in the fight's order) on a square at most `reach` squares from `square` (Chebyshev),
    looked up around it rather than over the whole fight; `square` itself included."""
    if reach > 4:
        return [o for o in state.combatants if o.square is not None and chebyshev(square, o.square) <= reach]
    placed = _PLACED.get("placed", lambda: _placed(state.combatants), same=(state.combatants,))
    x, y = square
    found = [(i, o) for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)
             for i, o in placed.get((x + dx, y + dy), ())]
    return [o for _, o in sorted(found, key=lambda p: p[0])]


def _placed(combatants: tuple[Combatant, ...]) -> dict[Square, list[tuple[int, Combatant]]]:
    out: dict[Square, list[tuple[int, Combatant]]] = {}
    for i, o in enumerate(combatants):
        if o.square is not None:
            out.setdefault(tuple(o.square), []).append((i, o))
    return out


def shooter_blocked_by(state: State, cid: str) -> tuple[Body | None, tuple[str, ...]]:
    """`cid`'s body and, as `ranged_blocked_by` (OSE-RANGED-1), the ids (sorted) of the standing enemies
    on a square next to it; (None, ()) when it has no body on the grid."""
    by_id, by_square = near_index(state)
    me = by_id.get(cid)
    if me is None:
        return None, ()
    x, y = me.square
    near = [b.id for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy
            for b in by_square.get((x + dx, y + dy), ())
            if b.id != me.id and not b.is_down and state.hostile(me.side, b.side)]
    return me, tuple(sorted(near))


def body(state: State, cid: str) -> Body | None:
    return near_index(state)[0].get(cid)
