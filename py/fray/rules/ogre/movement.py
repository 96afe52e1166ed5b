"""A move's walk when it resolves: the path still walkable, the attacks of opportunity it provokes, follows;
where declared moves will stand when a charge declared now lands."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...engine import geometry as geo
from ...engine import paths
from ...engine.commands import Event
from ...engine.dice import Dice
from ...engine.model import Combatant, Square, Weapon
from ...engine.state import Prompt, State
from . import grid as og
from .commands import Opportunity
from .state import Work, max_move_ft, speed_ft
from .timeline import fighter, ogre, pick_attack, push, standing, work_action


def walkable(state: State, c: Combatant, path: tuple) -> tuple[tuple, str]:
    """The part of a declared path still walkable now (from the mover's square, no
    foe in the way, ending on a free square), and why it was cut, if it was."""
    if c.square is None or not path:
        return (), ""
    if tuple(path[0]) != tuple(c.square):
        return (tuple(c.square),), f"{c.name} is no longer where the move began"
    g = og.grid(state)
    blocked = {tuple(o.square) for o in state.combatants
               if o.square is not None and not o.is_down and o.id != c.id and state.hostile(c, o)}
    occupied = {tuple(o.square) for o in state.combatants
                if o.square is not None and not o.is_down and o.id != c.id}
    out = [tuple(path[0])]
    why = ""
    for sq in path[1:]:
        sq = tuple(sq)
        if not geo.is_valid_step(g, out[-1], sq, blocked):
            why = f"{sq} is blocked"
            break
        out.append(sq)
    while len(out) > 1 and out[-1] in occupied:
        out.pop()
        why = why or "its last square is taken"
    return tuple(out), why


def charge_obstacles(state: State, c: Combatant, lands: int) -> dict[str, tuple[Square, int]]:
    """Where declared moves, withdraws and charges will stand before a charge declared now
    lands (at segment `lands`): mover id -> (its end square, the segment it gets there)."""
    out = {}
    for f in state.board.fighters:
        a = f.action
        if f.id == c.id or a is None or a.kind not in ("move", "withdraw", "charge") or not a.path:
            continue
        if a.resolves is not None and a.resolves <= lands:
            out[f.id] = (tuple(a.path[-1]), a.resolves)
    return out


def cannot_land(state: State, c: Combatant, foe: Combatant, atk: Weapon, path: tuple,
                planned: dict[str, tuple[Square, int]]) -> str:
    """OGRE-CHARGE-1: why a charge declared now surely ends out of reach of `foe` ("Brak moves at 17"), from the
    declared moves that resolve before it lands (their end squares); "" when it may land."""
    moved = state
    for mid, (sq, _) in planned.items():
        moved = moved.update(mid, square=sq)
    walked, _ = walkable(moved, c, path)
    end = walked[-1] if walked else tuple(c.square)
    if og.in_reach(moved, c, atk, moved.get(foe.id), from_square=end):
        return ""
    if foe.id in planned:
        return f"{foe.name} moves at {planned[foe.id][1]}"
    takers = [f"{state.name(mid)} stands on {sq} at {seg}" for mid, (sq, seg) in planned.items() if sq in path[1:]]
    return "; ".join(takers) or f"the charge stops at {end}"


def provocation_stops(state: State, cid: str, path: tuple, *, withdraw: bool = False, act: bool = False,
                      exempt: tuple[str, ...] = ()) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """OGRE-AOO-1: where the mover provokes along its path and from whom (flat-footed foes do not
    threaten, OGRE-FF-1). OGRE-WD-1: withdrawing frees the start square from foes the mover can see,
    so only invisible foes still strike there. `act`: a non-combat act in place provokes once."""
    c = state.get(cid)
    if c.square is None or not path:
        return ()
    me = og.body(state, cid)
    bs = og.bodies(state)
    g = og.grid(state)
    if act:
        ids = geo.threateners(tuple(c.square), c.side, bs, og.hostile_fn(state), grid=g)
        ids = tuple(i for i in ids if i != cid and i not in exempt)
        return ((0, ids),) if ids else ()
    if len(path) < 2:
        return ()
    provs = paths.provocations(list(path), me, bs, og.hostile_fn(state), withdraw=withdraw,
                             exempt=frozenset(exempt), grid=g)
    stops = [(p.index, p.attackers) for p in provs]
    if withdraw:
        unseen = tuple(i for i in geo.threateners(tuple(path[0]), c.side, bs, og.hostile_fn(state), grid=g)
                       if state.get(i).has_condition("invisible") and i not in exempt)
        if unseen:
            stops.insert(0, (0, unseen))  # OGRE-WD-1: invisible foes still get their attack
    return tuple(stops)


def aoo_eligible(state: State, attacker: str, mover: str, square: tuple) -> bool:
    """OGRE-AOO-1: a standing, not flat-footed foe that threatens the square being left."""
    a = state.find(attacker)
    m = state.get(mover)
    if a is None or a.is_down or m.is_down or not state.hostile(a, m):
        return False
    if not og.can_threaten(ogre(state), a):
        return False  # OGRE-FF-1: No Opportunity
    b = og.body(state, attacker)
    return b is not None and tuple(square) in geo.threatened_squares(b, og.grid(state))


def was_asked(state: State, foe: str, mover: str) -> bool:
    """OGRE-AOO-2: one answer per mover a segment for each foe covers every square it leaves."""
    s = ogre(state)
    return (foe, mover, s.segment) in s.asked


def standing_answer(state: State, cid: str) -> tuple[str, str]:
    """OGRE-AOO-2: the answer `cid` gives every attack of opportunity unasked, its own before its side's,
    and whose it is ("me" or "side"); ("", "") when it is asked."""
    own = dict(ogre(state).standing)
    if own.get(cid):
        return own[cid], "me"
    side = own.get("side:" + state.get(cid).side, "") if state.has(cid) else ""
    return (side, "side") if side else ("", "")


def _question(state: State, c: Combatant, w: Work, foe: str) -> str:
    if w.cause == "act":
        return f"{c.name} stands up at {tuple(w.path[0])}: attack of opportunity?"
    squares = [tuple(w.path[i]) for i, ids in w.stops if foe in ids]
    where = f"at {squares[0]}" if len(squares) == 1 else f"at {', '.join(map(str, squares))}"
    return (f"{c.name} leaves {'a square' if len(squares) == 1 else f'{len(squares)} squares'} you threaten "
            f"{where}: attack of opportunity? (one answer for all of this segment)")


def _answer_standing(rs: Any, state: State, foe: str, events: list[Event], dice: Dice) -> State:
    """OGRE-AOO-2: a standing answer is given at once, no prompt raised; "always use my pending attack"
    asks after all when that attack cannot be used on the mover (none under way, out of reach)."""
    use, scope = standing_answer(state, foe)
    if not use:
        return state
    cmd = Opportunity(foe, use)
    if rs.check(state, cmd) is not None:
        return state
    whose = "its own" if scope == "me" else "its side's"
    events.append(Event("StandingAnswer", f"{state.name(foe)} answers by {whose} standing answer "
                                          f"({'use the pending attack' if use == 'pending' else 'let it go'})",
                        rule="OGRE-AOO-2", actor=foe, data={"use": use, "scope": scope}))
    return rs.resolves.get(cmd)(rs, state, cmd, dice, events)


def walk(rs: Any, state: State, w: Work, events: list[Event], dice: Dice) -> State:
    c = state.get(w.actor)
    if c.is_down or not w.path:
        return state
    if w.stops:
        index, attackers = w.stops[0]
        sq = tuple(w.path[index])
        if c.square is None or tuple(c.square) != sq:
            state = state.update(w.actor, square=sq)
        for i, aid in enumerate(attackers):
            if aid == w.actor or was_asked(state, aid, w.actor) or not aoo_eligible(state, aid, w.actor, sq):
                continue
            rest = ((index, attackers[i + 1:]),) + w.stops[1:]
            state = push(state, replace(w, stops=rest))
            state = state.with_board(asked=tuple(k for k in ogre(state).asked if k[2] == ogre(state).segment)
                                     + ((aid, w.actor, ogre(state).segment),))
            prompt = Prompt(aid, _question(state, c, w, aid), rule="OGRE-AOO-1", kind="opportunity",
                            data={"mover": w.actor, "square": list(sq)})
            return _answer_standing(rs, replace(state, prompt=prompt), aid, events, dice)
        return push(state, replace(w, stops=w.stops[1:]))
    end = tuple(w.path[-1])
    if len(w.path) > 1:
        start = tuple(c.square) if c.square is not None else tuple(w.path[0])
        state = state.update(w.actor, square=end)
        feet = og.cost_ft(state, tuple(tuple(p) for p in w.path))
        verb = {"follow": "follows to", "withdraw": "withdraws to", "charge": "charges to"}.get(w.cause, "moves to")
        events.append(Event("Moved", f"{c.name} {verb} {end} ({feet} ft)",
                            rule={"withdraw": "OGRE-WD-1", "charge": "OGRE-CHARGE-1",
                                  "follow": "OGRE-FOLLOW-1"}.get(w.cause, "OGRE-MOVE-1"),
                            actor=w.actor, data={"path": [list(p) for p in w.path], "from": list(start)}))
        if w.cause in ("move", "withdraw"):
            state = push(state, Work("follow_offers", w.actor, w.uid, exempt=w.struck))
    return state


def follow_paths(state: State, follower: str, target: str) -> dict[str, tuple]:
    """OGRE-FOLLOW-1: for each follow category, a path that brings the follower back
    within reach of its target (quick: one square; short: normal speed; standard: any)."""
    f = state.get(follower)
    t = state.get(target)
    if f.square is None or t.square is None:
        return {}
    a = fighter(state, follower).action
    atk = pick_attack(f, a.weapon if a else "")
    reach = og.reach_squares(atk) if atk is not None and atk.is_melee else 1
    if geo.distance_squares(tuple(f.square), tuple(t.square)) <= reach:
        return {}
    finder = og.Reach(state, f, max_move_ft(state, f))
    out = {}
    for kind, limit in (("quick", 5), ("short", speed_ft(f)), ("standard", max_move_ft(state, f))):
        p = finder.closest_to(t, reach, limit)
        if p is not None and og.path_problem(state, f, p, f"follow-{kind}") is None:
            out[kind] = p
    return out


def follow_offers(rs: Any, state: State, w: Work, events: list[Event], dice: Dice) -> State:
    mover = w.actor
    if not standing(state, mover):
        return state
    works = []
    for f in ogre(state).fighters:
        a = f.action
        if f.id == mover or a is None or a.target != mover or f.id in w.exempt:
            continue
        if not standing(state, f.id) or not og.can_threaten(ogre(state), state.get(f.id)):
            continue
        if not state.hostile(state.get(f.id), state.get(mover)):
            continue
        works.append(Work("follow_offer", f.id, a.uid, other=mover))
    return push(state, *works)


def follow_offer(rs: Any, state: State, w: Work, events: list[Event], dice: Dice) -> State:
    if work_action(state, w) is None or not standing(state, w.other):
        return state
    if not follow_paths(state, w.actor, w.other):
        return state
    q = f"{state.name(w.other)} moved away from your {fighter(state, w.actor).action.label}: follow?"
    return replace(state, prompt=Prompt(w.actor, q, rule="OGRE-FOLLOW-1", kind="follow",
                                        data={"target": w.other}))
