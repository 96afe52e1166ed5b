"""OSE movement on the grid: bodies, allowance, moves, attacks of opportunity, withdraw, flee, charge and brace.

A move is resolved square by square (`run_move`): at each provocation every
threatening enemy is asked whether it attacks, lets the mover go or tries a
stunt (OSE-AOO-4), and an attack resolves before the mover goes on (OSE-AOO-2);
a hit puts the mover back on the square it was leaving. Each question (and a
shield decision) pauses the move in `OseState.pending_move`; answering it
resumes here (`answer_opportunity`, `run_move`).
"""
from __future__ import annotations

from dataclasses import replace

from typing import Sequence

from ...engine import geometry as geo
from ...engine.cache import Cache
from ...engine.commands import Event
from ...engine.dice import Dice
from ...engine.geometry import Body, Grid, Hostile, chebyshev, path_cost_ft
from ...engine import paths
from ...engine.paths import Provocation, provocations
from ...engine.model import Combatant, Square
from ...engine.state import Prompt, State
from .combat import casting_cost, drop_broken_holds, strike, usable_melee, weapon_reach
from .state import (FLED, MoveProgress, can_act, econ_of, grid_of, hostile_fn, is_out, is_turned, opt, rate_ft,
                    with_econ)


# --- bodies on the grid ----------------------------------------------------------------

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


# --- movement allowance (OSE-ECON-1, OSE-MOVE-1) -------------------------------------------

def move_left(state: State, c: Combatant) -> int:
    """Feet the actor may still move this round: the Move action's rate, plus the Main's if unused."""
    e = econ_of(state, c.id)
    if e.full or c.id in state.board.casting:
        return 0
    rate = rate_ft(state, c)
    budget = (rate if e.move in ("", "move") else 0) + (rate if e.main in ("", "move", "withdraw") else 0)
    return max(0, budget - e.moved_ft)


def spend_move(state: State, c: Combatant, feet: int) -> State:
    """Movement uses the Move action first, then the Main (OSE-ECON-1: Main may be spent on more movement)."""
    e = econ_of(state, c.id)
    moved = e.moved_ft + feet
    rate = rate_ft(state, c)
    move, main = e.move, e.main
    cap_move = rate if move in ("", "move") else 0
    if moved > 0 and cap_move:
        move = "move"
    if moved > cap_move and main == "":
        main = "move"
    return with_econ(state, c.id, moved_ft=moved, move=move, main=main)


# --- running a move ---------------------------------------------------------------------------

def start_move(rs, state: State, dice: Dice, events: list[Event], actor: str, path: tuple, mode: str,
               target: str = "", weapon: str = "") -> State:
    """Work out the provocations of the whole path now (threat is where the bodies stand), then run it."""
    c = state.get(actor)
    me = body(state, actor)
    bs = bodies(state)
    hostile = hostile_fn(state)
    grid = grid_of(state)
    if mode == "charge":
        # OSE-CHARGE-1: no attacks of opportunity except from braced enemies (OSE-BRACE-1).
        provs = brace_strikes(path, me, bs, hostile, state.board.bracing, grid=grid)
    else:
        provs = provocations(path, me, bs, hostile, withdraw=(mode == "withdraw"), grid=grid)
    mp = MoveProgress(actor, tuple(tuple(p) for p in path), mode,
                      tuple((p.index, p.attackers) for p in provs), target=target, weapon=weapon)
    word = {"move": "moves", "withdraw": "withdraws", "charge": "charges", "flee": "flees"}[mode]
    feet = path_cost_ft(path, grid.diagonal) if len(path) > 1 and mode != "flee" else 0
    rule = {"move": "OSE-MOVE-1", "withdraw": "OSE-WD-1", "charge": "OSE-CHARGE-1", "flee": "OSE-FLEE-1"}[mode]
    dest = "off the map" if mode == "flee" else f"to {tuple(path[-1])} ({feet} ft)"
    warn = ""
    if provs:
        n = sum(len(p.attackers) for p in provs)
        warn = f"; {n} {'brace strike' if mode == 'charge' else 'attack'}{'s' if n != 1 else ''} of opportunity ahead"
    events.append(Event("MoveStarted", f"{c.name} {word} {dest}{warn}", rule=rule, actor=actor,
                        data={"path": [list(p) for p in path], "mode": mode}))
    return run_move(rs, state, dice, events, mp)


def run_move(rs, state: State, dice: Dice, events: list[Event], mp: MoveProgress) -> State:
    """Advance a move until it ends or a shield decision pauses it (OSE-AOO-2, OSE-BRACE-1)."""
    state = state.with_board(pending_move=None)
    while True:
        mover = state.get(mp.actor)
        if mover.is_down:
            if mp.mode == "flee":
                return state  # fell before getting away
            return _finish(rs, state, dice, events, mp, stopped_at=max(mp.at, 0))
        if mp.queue:
            a = state.get(mp.queue[0])
            atk = None if not can_act(a) else _opportunity_attack(state, a, mp)  # CORE-COND-1
            if atk is None:
                mp = replace(mp, queue=mp.queue[1:])
                continue
            # OSE-AOO-4: the threatening enemy *may* attack: its side is asked first.
            return _ask_opportunity(state, mp, a, atk)
        if mp.at >= 0:
            if mp.hit and mp.mode != "flee":
                return _finish(rs, state, dice, events, mp, stopped_at=mp.at)
            mp = replace(mp, at=-1, hit=False)
        if mp.provs:
            (index, attackers), rest = mp.provs[0], mp.provs[1:]
            state = state.update(mp.actor, square=mp.path[index])
            mp = replace(mp, provs=rest, at=index, queue=attackers, hit=False)
            what = "charges into the reach of" if mp.mode == "charge" else "leaves a square threatened by"
            events.append(Event("Provoked", f"{mover.name} {what} {', '.join(state.name(x) for x in attackers)} "
                                            f"at {mp.path[index]}",
                                rule="OSE-BRACE-1" if mp.mode == "charge" else "OSE-AOO-1", actor=mp.actor,
                                data={"square": list(mp.path[index]), "attackers": list(attackers)}))
            continue
        return _finish(rs, state, dice, events, mp, stopped_at=None)


def _ask_opportunity(state: State, mp: MoveProgress, a: Combatant, weapon: str) -> State:
    """OSE-AOO-4: pause the move on a question to the threatening enemy's side."""
    mover = state.get(mp.actor)
    brace = mp.mode == "charge"
    if brace:
        question = (f"{mover.name} charges into {a.name}'s reach: strike with the braced {weapon} (double damage, "
                    f"OSE-BRACE-1), let it come, or a stunt instead? (OSE-AOO-4)")
    else:
        question = (f"{mover.name} leaves {a.name}'s reach at {tuple(mp.path[mp.at])}: attack with {weapon}, "
                    f"let it go, or a stunt instead? (OSE-AOO-4)")
    prompt = Prompt(a.id, question, rule="OSE-AOO-4", kind="aoo",
                    data={"mover": mp.actor, "weapon": weapon, "weapons": opportunity_weapons(state, a, mp),
                          "brace": brace, "cost": casting_cost(state, a.id)})
    return replace(state, prompt=prompt).with_board(pending_move=mp)


def answer_opportunity(rs, state: State, dice: Dice, events: list[Event], answer: str, weapon: str = "") -> State:
    """OSE-AOO-4: the asked enemy attacks (OSE-AOO-2, OSE-BRACE-1), lets the mover go, or tries a
    stunt (the referee rules its effect); then the move goes on."""
    mp = state.board.pending_move
    state = replace(state, prompt=None).with_board(pending_move=None)
    attacker, mp = mp.queue[0], replace(mp, queue=mp.queue[1:])
    a, mover = state.get(attacker), state.get(mp.actor)
    if answer == "attack":
        res = strike(rs, state, dice, events, attacker, mp.actor, weapon or _opportunity_attack(state, a, mp),
                     mode="brace" if mp.mode == "charge" else "aoo")
        state = res.state
        if res.outcome in ("hit", "paused"):
            mp = replace(mp, hit=True)
        if res.outcome == "paused":
            return state.with_board(pending_move=mp)
    elif answer == "decline":
        events.append(Event("OpportunityDeclined", f"{a.name} lets {mover.name} go: no attack (OSE-AOO-4)",
                            rule="OSE-AOO-4", actor=attacker, target=mp.actor))
    else:
        events.append(Event("StuntInstead", f"{a.name} attempts a stunt on {mover.name} in lieu of the attack: "
                                            f"the referee rules how it resolves (OSE-AOO-4)",
                            rule="OSE-AOO-4", actor=attacker, target=mp.actor))
    return run_move(rs, state, dice, events, mp)


def opportunity_weapons(state: State, a: Combatant, mp: MoveProgress) -> list[str]:
    """The attacks an enemy may use, the suggested one first: its `aoo_attack` stat if usable, else
    its first usable melee attack that reaches; a brace strike needs a Brace weapon (OSE-AOO-2,
    OSE-BRACE-1). "If the opponent has multiple attacks, they may choose which attack is used"."""
    melee = usable_melee(a)
    if mp.mode == "charge":
        melee = [x for x in melee if x.has("brace")]
    if not melee:
        return []
    square = mp.path[mp.at]
    dist = chebyshev(a.square, square) if a.square is not None else 1
    if mp.mode == "charge":
        dist = chebyshev(a.square, mp.path[mp.at + 1]) if a.square is not None else 1
    reaching = [x.name for x in melee if weapon_reach(a, x) >= dist] or [x.name for x in melee]
    preferred = a.stat("aoo_attack", "")
    return sorted(reaching, key=lambda name: name != preferred)


def _opportunity_attack(state: State, a: Combatant, mp: MoveProgress) -> str | None:
    """The suggested attack (see opportunity_weapons), or None."""
    names = opportunity_weapons(state, a, mp)
    return names[0] if names else None


def _held_by_another(state: State, actor: str, square) -> bool:
    return any(o.id != actor and o.square is not None and tuple(o.square) == tuple(square) and not o.is_down
               and not o.has_condition(FLED) for o in state.combatants)


def _finish(rs, state: State, dice: Dice, events: list[Event], mp: MoveProgress, stopped_at: int | None) -> State:
    c = state.get(mp.actor)
    grid = grid_of(state)
    if mp.mode == "flee":
        # OSE-FLEE-1: gone from the map; the referee controls it from now on (Pursuit).
        state = state.update(mp.actor, square=None, conditions=c.with_condition(FLED).conditions)
        state = with_econ(state, mp.actor, full="flee")
        events.append(Event("Fled", f"{c.name} flees the fight: the referee takes control (OSE-FLEE-1)",
                            rule="OSE-FLEE-1", actor=mp.actor))
        return drop_broken_holds(state, events)
    if stopped_at is None:
        end, feet = mp.path[-1], path_cost_ft(mp.path, grid.diagonal)
    else:
        # OSE-AOO-2: the movement used to leave the square is lost. A mover stopped while
        # passing through an ally's square stands on the last square of its path that no
        # other standing creature holds (OSE-MOVE-1: allies may be passed, not ended on).
        at = stopped_at
        while at > 0 and _held_by_another(state, mp.actor, mp.path[at]):
            at -= 1
        end = mp.path[at]
        feet = path_cost_ft(mp.path[:stopped_at + 2], grid.diagonal)
    state = state.update(mp.actor, square=end)
    if mp.mode == "charge":
        state = with_econ(state, mp.actor, full="charge", moved_ft=econ_of(state, mp.actor).moved_ft + feet)
    elif mp.mode == "withdraw":
        # OSE-WD-1: the withdraw is the Main action's movement; the Move action stays free.
        state = with_econ(state, mp.actor, moved_ft=econ_of(state, mp.actor).moved_ft + feet)
    else:
        state = spend_move(state, c, feet)
    if stopped_at is not None and not c.is_down:
        why = "the brace strike stops the charge (OSE-BRACE-1)" if mp.mode == "charge" else \
            "it is back where it was leaving and that movement is lost (OSE-AOO-2)"
        events.append(Event("MoveStopped", f"{c.name} stops at {end}: {why}",
                            rule="OSE-BRACE-1" if mp.mode == "charge" else "OSE-AOO-2", actor=mp.actor,
                            data={"square": list(end)}))
    state = drop_broken_holds(state, events)
    if mp.mode == "charge" and not state.get(mp.actor).is_down:
        state = _charge_attack(rs, state, dice, events, mp)
    return state


def _charge_attack(rs, state: State, dice: Dice, events: list[Event], mp: MoveProgress) -> State:
    c, t = state.get(mp.actor), state.find(mp.target)
    atk = c.weapon(mp.weapon)
    if t is None or is_out(t) or atk is None or c.square is None or t.square is None:
        return state
    if chebyshev(c.square, t.square) > weapon_reach(c, atk):
        events.append(Event("ChargeFell", f"{c.name} does not reach {t.name}: no attack (OSE-CHARGE-1)",
                            rule="OSE-CHARGE-1", actor=c.id, target=t.id))
        return state
    return strike(rs, state, dice, events, c.id, t.id, atk.name, mode="charge").state


# --- withdraw, flee and charge checks -----------------------------------------------------------

def is_dark_for(state: State, c: Combatant) -> bool:
    """OSE-FLEE-1: dark (setting or condition) and no means to see."""
    dark = bool(opt(state, "dark")) or c.has_condition("dark")
    return dark and not c.has_condition("can see")


def brace_strikes(path: Sequence[Square], mover: Body, bodies: Sequence[Body], hostile: Hostile,
                  bracing: frozenset[str], *, grid: Grid | None = None) -> list[Provocation]:
    """OSE-CHARGE-1: a charge provokes no attacks of opportunity; OSE-BRACE-1: each bracing enemy
    strikes when the charge enters its threat area ("charges into the threat range"), reported
    at the index of the square being left, where a hit stops the charge."""
    if len(path) < 2:
        return []
    return paths.threat_entries(path, mover, bodies, hostile, bracing, grid=grid)


def charge_path(grid: Grid, start: Square, mover: Body, bodies: Sequence[Body], hostile: Hostile, *,
                weapon_reach: int, min_ft: int = 15, max_ft: int) -> tuple[str, list[Square]] | None:
    """OSE-CHARGE-1: (target id, path) of the charge at the nearest enemy, or None.

    Nearest by movement: the standing enemy needing the least movement to a free end square
    within `weapon_reach` of it (the threat line rule); ties by lowest id, then end square.
    None if no enemy is reachable within `max_ft`, or the nearest needs under `min_ft`: the
    charge covers 15 ft toward the nearest enemy, and padding a shorter approach with a
    detour would not be a charge; an enemy that close is simply attacked.
    """
    blocked, occupied = paths.occupancy(mover, bodies, hostile)
    reach = paths.Reachable(grid, start, blocked, max_ft)
    choice = None
    for e in bodies:
        if e.id == mover.id or e.is_down or not hostile(mover.side, e.side):
            continue
        for sq in geo.reach_area(grid, e.square, weapon_reach):
            if sq in reach and (sq == start or sq not in occupied):
                key = (reach.cost(sq), e.id, sq)
                choice = key if choice is None or key < choice else choice
    if choice is None or choice[0] < min_ft:
        return None
    return choice[1], reach.path(choice[2])


def nearest_charge(state: State, c: Combatant, weapon: str) -> tuple[str, list] | None:
    """OSE-CHARGE-1: (target, path) toward the nearest enemy within twice the rate, or None;
    `check.charge_plan` says why a charge is refused (under 15 ft away, nobody in range)."""
    atk = c.weapon(weapon)
    me = body(state, c.id)
    if me is None:
        return None
    reach = weapon_reach(c, atk)
    rate = rate_ft(state, c)
    bs, hostile, grid = bodies(state), hostile_fn(state), grid_of(state)
    key = (c.id, reach, rate, grid.diagonal)
    return _CHARGES.get(key, lambda: _nearest(c, me, reach, rate, bs, hostile, grid), same=(state.combatants,))


_CHARGES = Cache(65)  # (charger, reach, rate, diagonal rule) -> its nearest charge, per combatants


def _nearest(c: Combatant, me: Body, reach: int, rate: int, bs: list[Body], hostile, grid):
    # Cheap test first: no enemy within twice the rate plus reach (in squares) means no search.
    span = 2 * rate // 5 + reach
    near = None
    if any(not b.is_down and hostile(c.side, b.side) and chebyshev(b.square, me.square) <= span for b in bs):
        near = charge_path(grid, tuple(c.square), me, bs, hostile, weapon_reach=reach, min_ft=0, max_ft=2 * rate)
    return near


def withdraw_suggestion(state: State, c: Combatant) -> tuple[int, int] | None:
    """The engine's advice for a withdraw (the referee decides, OSE-WD-1): straight away from the
    engaged enemies (within 10 ft), as far as one rate allows onto a free square; None if not engaged."""
    if c.square is None:
        return None
    x0, y0 = c.square
    near = [b.square for b in bodies(state) if not b.is_down and state.hostile(c.side, b.side)
            and chebyshev(b.square, c.square) <= 2]
    if not near:
        return None
    dx = sum(x0 - x for x, _ in near)
    dy = sum(y0 - y for _, y in near)
    step = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    if step == (0, 0):
        return None
    grid = grid_of(state)
    occupied = {b.square for b in bodies(state) if b.id != c.id}
    for k in range(rate_ft(state, c) // 5, 0, -1):
        sq = (x0 + k * step[0], y0 + k * step[1])
        if grid.in_bounds(sq) and sq not in grid.walls and sq not in occupied:
            return sq
    return None


def turned_from(state: State, c: Combatant) -> Combatant | None:
    """OSE-TURN-3: the Warpriest a turned undead must flee, when both stand on the map."""
    if not is_turned(state, c.id) or c.square is None:
        return None
    w = state.find(state.board.turned[c.id][0])
    return w if w is not None and w.square is not None else None


def flight_gain(state: State, c: Combatant, w: Combatant, end: Square) -> int:
    """OSE-TURN-3: feet a move ending on `end` adds to the distance from the Warpriest (<= 0: not away)."""
    diag = grid_of(state).diagonal
    return geo.distance_ft(tuple(end), tuple(w.square), diag) - geo.distance_ft(tuple(c.square), tuple(w.square), diag)


def flight_path(state: State, c: Combatant, budget: int) -> tuple[Square, ...] | None:
    """OSE-TURN-3: "as far away from the Warpriest as possible": the cheapest path to the free square
    within `budget` farthest from the Warpriest (ties: the cheaper, then the lower square); None when
    no reachable square is farther than where it stands."""
    w = turned_from(state, c)
    me = body(state, c.id)
    if w is None or me is None or budget <= 0:
        return None
    grid = grid_of(state)
    blocked, occupied = paths.occupancy(me, bodies(state), hostile_fn(state))
    reach = paths.Reachable(grid, tuple(c.square), blocked, budget)
    best = None
    for x in range(grid.width):
        for y in range(grid.height):
            sq = (x, y)
            if sq in reach and sq not in occupied and flight_gain(state, c, w, sq) > 0:
                key = (-flight_gain(state, c, w, sq), reach.cost(sq), sq)
                best = key if best is None or key < best else best
    return tuple(tuple(p) for p in reach.path(best[2])) if best else None


def suggest_paths(state: State, actor: str, command=None) -> list[tuple[str, str, tuple[Square, ...]]]:
    """Ready-made paths for an actor on the grid, the same for the same state
    (playout, conformance tests): to a square beside each of the four nearest
    standing foes, and toward the middle and each corner of the map, each the
    cheapest path within what the actor may still move (OSE-MOVE-1: the Move
    action's rate for a Move, the full rate for a withdraw or a charge)."""
    from .commands import Move
    c = state.get(actor)
    if c.square is None:
        return []
    budget = move_left(state, c) if command is None or isinstance(command, Move) else rate_ft(state, c)
    all_bodies = bodies(state)
    me = next((b for b in all_bodies if b.id == c.id), None)
    if me is None or budget <= 0:
        return []
    grid, hostile = grid_of(state), hostile_fn(state)
    start = tuple(c.square)
    foes = sorted((b for b in all_bodies if not b.is_down and b.square is not None and state.hostile(c.side, b.side)),
                  key=lambda b: (chebyshev(start, b.square), b.square))[:4]
    goals = [(f"beside {state.name(b.id)}", (b.square[0] + dx, b.square[1] + dy))
             for b in foes for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    w, h = grid.width - 1, grid.height - 1
    goals += [("to the middle", (w // 2, h // 2)), ("toward a corner", (0, 0)), ("toward a corner", (w, 0)),
              ("toward a corner", (0, h)), ("toward a corner", (w, h))]
    out, seen = [], set()
    w = turned_from(state, c)
    if w is not None:
        # OSE-TURN-3: a turned undead is offered only moves that take it farther from the Warpriest.
        away = flight_path(state, c, budget)
        if away is None:
            return []
        out.append(("move", f"away from {w.name}", away))
        seen.add(away)
    for label, goal in goals:
        path = paths.shortest_path(grid, start, goal, me, all_bodies, hostile, max_ft=budget)
        if path and len(path) > 1 and tuple(path) not in seen:
            if w is not None and flight_gain(state, c, w, path[-1]) <= 0:
                continue
            seen.add(tuple(path))
            out.append(("move", label, tuple(tuple(p) for p in path)))
    return out
