"""OSE grapples (OSE-GRAP-1): the opposed roll, holds and pins, releases, and holds broken by distance or a fall."""
from __future__ import annotations

from dataclasses import replace

from ...engine.commands import Event
from ...engine.dice import Dice, DiceExpr
from ...engine.geometry import is_adjacent
from ...engine.state import State
from ...engine.model import Combatant
from .state import GRAPPLED, PINNED, Hold, is_detailed, is_out, opt


def grapple_mod(state: State, c: Combatant) -> int:
    phys, dex = int(c.stat("phys", 0) or 0), int(c.stat("dex", 0) or 0)
    mode = opt(state, "grapple_check")
    base = dex if mode == "dex" else max(phys, dex) if mode == "best" else phys
    return base + int(c.stat("grapple_bonus", 0) or 0)


def resolve_grapple(state: State, dice: Dice, events: list[Event], actor: str, target: str, intent: str) -> State:
    """Opposed d20 + modifier; the actor must beat the defender (ties keep things as they are)."""
    c, t = state.get(actor), state.get(target)
    r1 = dice.roll(DiceExpr(1, 20, grapple_mod(state, c)), f"{c.name} grapple", by=c.id)
    r2 = dice.roll(DiceExpr(1, 20, grapple_mod(state, t)), f"{t.name} resists", by=t.id)
    won = r1.total > r2.total
    verb = "escape from" if intent == "escape" else "grab"
    events.append(Event("GrappleRolled", f"{c.name} tries to {verb} {t.name}: {r1.describe()} vs {r2.describe()}: "
                                         f"{'success' if won else 'failure'} (OSE-GRAP-1)", rule="OSE-GRAP-1",
                        rolls=(r1, r2), actor=actor, target=target))
    holds = list(state.board.holds)
    if intent == "escape":
        if won:
            state = release(state, events, target, actor, escaped=True)
        return state
    existing = next((h for h in holds if h.grappler == actor and h.target == target), None)
    if not won:
        if existing and opt(state, "grapple_count") == "consecutive":
            holds[holds.index(existing)] = replace(existing, successes=0)
            state = state.with_board(holds=tuple(holds))
        return state
    if existing:
        new = replace(existing, successes=existing.successes + 1)
        holds[holds.index(existing)] = new
    else:
        new = Hold(actor, target, 1)
        holds.append(new)
    state = state.with_board(holds=tuple(holds))
    t = state.get(target).with_condition(GRAPPLED)
    need = int(opt(state, "pin_successes"))
    if new.successes >= need and not t.has_condition(PINNED):
        t = t.with_condition(PINNED)
        events.append(Event("Pinned", f"{t.name} is pinned ({new.successes} successes): no actions, no movement, "
                                      f"melee hits deal maximum damage (OSE-GRAP-1, OSE-COND-1)",
                            rule="OSE-GRAP-1", actor=actor, target=target))
    elif not existing:
        events.append(Event("Grappled", f"{t.name} is grappled by {c.name}: only Small weapons, no spells "
                                        f"(OSE-COND-1)", rule="OSE-GRAP-1", actor=actor, target=target))
    else:
        events.append(Event("GrappleHeld", f"{c.name} keeps hold of {t.name} ({new.successes} of {need} toward a pin)",
                            rule="OSE-GRAP-1", actor=actor, target=target))
    return state.with_combatant(t)


def release(state: State, events: list[Event], grappler: str, target: str, escaped: bool = False) -> State:
    """End a hold; the pin count resets (OSE-GRAP-1 DEFAULT)."""
    holds = tuple(h for h in state.board.holds if not (h.grappler == grappler and h.target == target))
    state = state.with_board(holds=holds)
    if not any(h.target == target for h in holds):
        t = state.get(target).without_condition(GRAPPLED).without_condition(PINNED)
        state = state.with_combatant(t)
    word = "escapes from" if escaped else "is released by"
    events.append(Event("Released", f"{state.name(target)} {word} {state.name(grappler)}", rule="OSE-GRAP-1",
                        actor=grappler, target=target))
    return state


def drop_broken_holds(state: State, events: list[Event]) -> State:
    """Holds end when either side is out of the fight or no longer adjacent on the grid."""
    for h in state.board.holds:
        g, t = state.get(h.grappler), state.get(h.target)
        apart = (is_detailed(state) and g.square is not None and t.square is not None
                 and not is_adjacent(g.square, t.square))
        if is_out(g) or is_out(t) or apart or g.square is None and is_detailed(state):
            state = release(state, events, h.grappler, h.target)
    return state
