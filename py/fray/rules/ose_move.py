"""OSE movement on the grid: moves, attacks of opportunity, withdraw, flee, charge and brace; manipulations.

A move is resolved square by square (`run_move`): at each provocation every
threatening enemy strikes before the mover goes on (OSE-AOO-2); a hit puts the
mover back on the square it was leaving. A shield decision pauses the move in
`OseState.pending_move`; answering it resumes here.
"""
from __future__ import annotations

from dataclasses import replace

from ..engine.commands import Event, Illegal
from ..engine.dice import Dice
from ..engine.geometry import (Body, chebyshev, charge_path, is_valid_step, path_cost_ft, provocations)
from ..engine.model import Combatant
from ..engine.state import State
from .ose_base import (FLED, MoveProgress, econ_of, grid_of, hostile_fn, is_detailed, is_out, is_turned, opt,
                       rate_ft, with_econ)
from .ose_combat import drop_broken_holds, is_shield, needs_both_hands, strike, usable_melee, weapon_reach


# --- bodies on the grid ----------------------------------------------------------------

def bodies(state: State) -> list[Body]:
    """Who stands where and who threatens (OSE-AOO-1, OSE-AOO-3, OSE-STANCE-3).

    A creature threatens with a usable melee or natural weapon in hand, when it
    can act: not down, fled, surrendered, pinned, helpless or turned.
    """
    cached = _CACHE.get("bodies")
    if cached is not None and cached[0] is state.combatants and cached[1] is state.system.turned:
        return cached[2]
    out = []
    for c in state.combatants:
        if c.square is None or c.has_condition(FLED):
            continue
        melee = usable_melee(c)
        reach = max([weapon_reach(c, a) for a in melee] or [1])
        threatens = (bool(melee) and not is_out(c) and not c.has_condition("pinned")
                     and not c.has_condition("helpless") and not is_turned(state, c.id))
        out.append(Body(c.id, c.side, tuple(c.square), reach, threatens, c.is_down))
    _CACHE["bodies"] = (state.combatants, state.system.turned, out)
    return out


_CACHE: dict[str, tuple] = {}


def body(state: State, cid: str) -> Body | None:
    for b in bodies(state):
        if b.id == cid:
            return b
    return None


# --- movement allowance (OSE-ECON-1, OSE-MOVE-1) -------------------------------------------

def move_left(state: State, c: Combatant) -> int:
    """Feet the actor may still move this round: the Move action's rate, plus the Main's if unused."""
    e = econ_of(state, c.id)
    if e.full or c.id in state.system.casting:
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


def check_path(state: State, c: Combatant, path: tuple, budget: int) -> Illegal | None:
    """A path from the actor's square, step by step legal, ending on a free square, within budget."""
    if c.square is None:
        return Illegal("NOT_ON_MAP", f"{c.name} is not on the map")
    if len(path) < 2:
        return Illegal("NO_PATH", f"Choose where {c.name} moves")
    if tuple(path[0]) != tuple(c.square):
        return Illegal("PATH_START", f"The path must start where {c.name} stands {tuple(c.square)}")
    grid = grid_of(state)
    blocked = {b.square for b in bodies(state) if b.id != c.id and not b.is_down and state.hostile(c.side, b.side)}
    for a, b in zip(path, path[1:]):
        if not is_valid_step(grid, tuple(a), tuple(b), blocked):
            return Illegal("BAD_STEP", f"{c.name} cannot step from {tuple(a)} to {tuple(b)}: off the map, a wall, "
                                       f"or an enemy in the way (OSE-MOVE-1)")
    end = tuple(path[-1])
    for o in state.combatants:
        if o.id != c.id and o.square is not None and tuple(o.square) == end and not o.has_condition(FLED):
            return Illegal("OCCUPIED", f"{o.name} is on {end}: {c.name} cannot end a move there")
    cost = path_cost_ft(path, grid.diagonal)
    if cost > budget:
        return Illegal("TOO_FAR", f"{c.name} can move {budget} ft more this round; that path is {cost} ft "
                                  f"(OSE-MOVE-1)")
    return None


# --- running a move ---------------------------------------------------------------------------

def start_move(rs, state: State, dice: Dice, events: list[Event], actor: str, path: tuple, mode: str,
               target: str = "", attack: str = "") -> State:
    """Work out the provocations of the whole path now (threat is where the bodies stand), then run it."""
    c = state.get(actor)
    me = body(state, actor)
    bs = bodies(state)
    hostile = hostile_fn(state)
    grid = grid_of(state)
    if mode == "charge":
        # OSE-CHARGE-1: no attacks of opportunity except from braced enemies (OSE-BRACE-1).
        provs = provocations(path, me, bs, hostile, charge=True, bracing=state.system.bracing, grid=grid)
    else:
        provs = provocations(path, me, bs, hostile, withdraw=(mode == "withdraw"), grid=grid)
    mp = MoveProgress(actor, tuple(tuple(p) for p in path), mode,
                      tuple((p.index, p.attackers) for p in provs), target=target, attack=attack)
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
    state = state.with_system(pending_move=None)
    while True:
        mover = state.get(mp.actor)
        if mover.is_down:
            if mp.mode == "flee":
                return state  # fell before getting away
            return _finish(rs, state, dice, events, mp, stopped_at=max(mp.at, 0))
        if mp.queue:
            attacker, rest = mp.queue[0], mp.queue[1:]
            mp = replace(mp, queue=rest)
            a = state.get(attacker)
            if is_out(a) or mover.is_down:
                continue
            atk = _opportunity_attack(state, a, mp)
            if atk is None:
                continue
            res = strike(rs, state, dice, events, attacker, mp.actor, atk,
                         mode="brace" if mp.mode == "charge" else "aoo")
            state = res.state
            if res.outcome in ("hit", "paused"):
                mp = replace(mp, hit=True)
            if res.outcome == "paused":
                return state.with_system(pending_move=mp)
            continue
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


def _opportunity_attack(state: State, a: Combatant, mp: MoveProgress) -> str | None:
    """The attack an enemy uses: its `aoo_attack` stat if usable, else its first usable melee attack
    that reaches; a brace strike needs a Brace weapon (OSE-AOO-2, OSE-BRACE-1)."""
    melee = usable_melee(a)
    if mp.mode == "charge":
        melee = [x for x in melee if x.has("brace")]
    if not melee:
        return None
    square = mp.path[mp.at]
    dist = chebyshev(a.square, square) if a.square is not None else 1
    if mp.mode == "charge":
        dist = chebyshev(a.square, mp.path[mp.at + 1]) if a.square is not None else 1
    reaching = [x for x in melee if weapon_reach(a, x) >= dist] or melee
    preferred = a.stat("aoo_attack", "")
    for x in reaching:
        if x.name == preferred:
            return x.name
    return reaching[0].name


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
        end = mp.path[stopped_at]
        # OSE-AOO-2: the movement used to leave the square is lost.
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
    atk = c.attack(mp.attack)
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


def charge_plan(state: State, c: Combatant, attack: str) -> tuple[str, list] | Illegal:
    """OSE-CHARGE-1: (target, path) toward the nearest enemy, at least 15 ft and at most twice the rate."""
    atk = c.attack(attack)
    me = body(state, c.id)
    if me is None:
        return Illegal("NOT_ON_MAP", f"{c.name} is not on the map")
    reach = weapon_reach(c, atk)
    rate = rate_ft(state, c)
    bs, hostile, grid = bodies(state), hostile_fn(state), grid_of(state)
    key = (c.id, reach, rate, grid.diagonal)
    cached = _CHARGES.get(key)
    if cached is not None and cached[0] is state.combatants:
        near = cached[1]
    else:
        # Cheap test first: no enemy within twice the rate plus reach (in squares) means no search.
        span = 2 * rate // 5 + reach
        near = None
        if any(not b.is_down and hostile(c.side, b.side) and chebyshev(b.square, me.square) <= span for b in bs):
            near = charge_path(grid, tuple(c.square), me, bs, hostile, weapon_reach=reach, min_ft=0,
                               max_ft=2 * rate)
        if len(_CHARGES) > 64:
            _CHARGES.clear()
        _CHARGES[key] = (state.combatants, near)
    if near is None:
        return Illegal("NO_ONE_TO_CHARGE", f"No enemy within {2 * rate} ft of {c.name}'s charge (OSE-CHARGE-1)")
    # "Nearest" is by movement; a nearest enemy under 15 ft away cannot be charged (geometry.charge_path).
    if path_cost_ft(near[1], grid.diagonal) < 15:
        return Illegal("TOO_CLOSE", f"The nearest enemy, {state.name(near[0])}, is less than 15 ft of movement away: "
                                    f"attack it instead (OSE-CHARGE-1)")
    return near


_CHARGES: dict[tuple, tuple] = {}


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


# --- manipulation (OSE-MANIP-1) ------------------------------------------------------------------

def manip_cost(state: State, c: Combatant, action: str, item: str) -> str | Illegal:
    """What a manipulation uses: "free", "move" or "main"; shields always use the Move."""
    e = econ_of(state, c.id)
    if action == "drop":
        return "free"
    if c.id in state.system.casting and e.manips >= 1:
        return Illegal("CASTING_ONE_MANIPULATION", f"{c.name} is casting: one manipulation at most (OSE-SPELL-1)")
    if item and is_shield(c, item) and action in ("draw", "stow"):
        if e.move or e.full or c.id in state.system.casting:
            return Illegal("SHIELD_NEEDS_MOVE", f"Readying or stowing a shield uses the Move action, which "
                                                f"{c.name} has spent (OSE-MANIP-1)")
        return "move"
    if e.manips == 0:
        return "free"
    if e.full:
        return Illegal("NO_ACTION_LEFT", f"{c.name} has used a full-round action: no second manipulation "
                                         f"(OSE-MANIP-1)")
    if e.move == "":
        return "move"
    if e.main == "":
        return "main"
    return Illegal("NO_ACTION_LEFT", f"{c.name} has no action left for another manipulation (OSE-MANIP-1)")


def check_manipulation(state: State, c: Combatant, action: str, item: str) -> Illegal | None:
    if action not in ("draw", "stow", "drop", "other"):
        return Illegal("BAD_MANIPULATION", f"{action!r} is not a manipulation (draw, stow, drop, other)")
    cost = manip_cost(state, c, action, item)
    if isinstance(cost, Illegal):
        return cost
    if action == "draw":
        if item in tuple(c.stat("backpack", ()) or ()) and item not in c.inventory:
            return Illegal("IN_BACKPACK", f"{item} is in {c.name}'s backpack: out of reach in combat (OSE-MANIP-1)")
        if item not in c.inventory:
            return Illegal("NOT_CARRIED", f"{c.name} does not carry {item!r} within reach")
        need = 2 if _needs_two(c, item) else 1
        if c.free_hands < need:
            return Illegal("NO_FREE_HAND", f"{c.name} needs {need} free hand{'s' if need > 1 else ''} to draw "
                                           f"{item} (OSE-MANIP-1)")
    elif action in ("stow", "drop"):
        if not c.holds(item):
            return Illegal("NOT_HELD", f"{c.name} does not hold {item!r}")
    elif action == "other" and c.free_hands < 1:
        return Illegal("NO_FREE_HAND", f"{c.name} has no free hand (OSE-MANIP-1)")
    return None


def _needs_two(c: Combatant, item: str) -> bool:
    return any(a.item == item and needs_both_hands(a) for a in c.attacks)


def apply_manipulation(state: State, events: list[Event], c: Combatant, action: str, item: str, note: str) -> State:
    cost = manip_cost(state, c, action, item) if is_detailed(state) else "free"
    if not isinstance(cost, str):
        cost = "free"  # allowed by the referee (CORE-REF-1)
    e = econ_of(state, c.id)
    hands = list(c.hands)
    inv = list(c.inventory)
    if action == "draw":
        slots = [i for i, h in enumerate(hands) if not h][: 2 if _needs_two(c, item) else 1]
        for i in slots:
            hands[i] = item
        inv.remove(item)
    elif action in ("stow", "drop"):
        hands = ["" if h == item else h for h in hands]
        if action == "stow":
            inv.insert(0, item)
    state = state.update(c.id, hands=tuple(hands), inventory=tuple(inv))
    counts = not (action == "drop" or (item and is_shield(c, item) and action in ("draw", "stow")))
    changes = {"manips": e.manips + (1 if counts else 0)}
    if cost == "move":
        changes["move"] = "manipulation"
    elif cost == "main":
        changes["main"] = "manipulation"
    state = with_econ(state, c.id, **changes)
    what = {"draw": f"draws {item}", "stow": f"stows {item}", "drop": f"drops {item}",
            "other": note or "makes a manipulation"}[action]
    events.append(Event("Manipulated", f"{c.name} {what} ({'free' if cost == 'free' else 'uses the ' + cost.capitalize()}"
                                       f" action) (OSE-MANIP-1)", rule="OSE-MANIP-1", actor=c.id))
    return state
