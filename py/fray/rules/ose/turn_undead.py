"""OSE Turn Undead: the turning table, who can be turned, and one turning attempt (OSE-TURN-1..4).

Whether a Warpriest may try now is action_checks.py's `check_turn`.
"""
from __future__ import annotations

from ...engine.commands import Event
from ...engine.dice import Dice
from ...engine.model import Combatant
from ...engine.state import State
from .state import DESTROYED, TURN_TABLE, TURNED, is_out, opt, with_econ

ROWS = tuple(TURN_TABLE)  # weakest row first


def group_of(c: Combatant) -> str:
    """Turning is tracked per group: the `group` stat, else the side (OSE-TURN-4)."""
    return str(c.stat("group", "") or c.side)


def row_of(state: State, c: Combatant) -> str:
    """The table row of an undead: its `turn_row` stat, else its Hit Dice (7+ use "7-9")."""
    table = opt(state, "turn_table")
    row = str(c.stat("turn_row", "") or "")
    if row in table:
        return row
    hd = int(c.stat("hd", 1) or 1)
    return "1" if hd <= 1 else str(hd) if hd <= 6 else "7-9"


def entry(state: State, warpriest: Combatant, undead: Combatant) -> str:
    """The table entry: a number to roll, "T", "D" or "-" (anything unreadable counts as "-")."""
    table = opt(state, "turn_table")
    row = table.get(row_of(state, undead)) or ()
    level = int(warpriest.stat("level", 1) or 1)
    col = min(max(level, 1), len(row)) - 1
    val = str(row[col]).strip().upper() if row else "-"
    return val if val in ("T", "D") or val.isdigit() else "-"


def holds_focus(c: Combatant) -> str:
    """The holy symbol or favoured weapon in hand, or "" (OSE-TURN-1)."""
    fav = str(c.stat("favoured_weapon", "") or "")
    for h in c.hands:
        if h and ("holy symbol" in h.lower() or (fav and h == fav)):
            return h
    return ""


def undead_groups(state: State, c: Combatant) -> dict[str, list[Combatant]]:
    """Standing, hostile undead by group."""
    out: dict[str, list[Combatant]] = {}
    for o in state.combatants:
        if o.stat("undead", False) and not is_out(o) and state.hostile(c, o):
            out.setdefault(group_of(o), []).append(o)
    return out


def candidates(state: State, group: list[Combatant]) -> list[Combatant]:
    """Not already turned, weakest first (OSE-TURN-2): Hit Dice, table row, HP, id."""
    rows = {r: i for i, r in enumerate(ROWS)}
    left = [u for u in group if u.id not in state.board.turned]
    return sorted(left, key=lambda u: (int(u.stat("hd", 1) or 1), rows.get(row_of(state, u), 0), u.hp, u.id))


def resolve_turn(state: State, dice: Dice, events: list[Event], actor: str, group: str) -> State:
    """2d6 against the table; on success 2d6 Hit Dice affected, weakest first, at least one; D destroys."""
    c = state.get(actor)
    econ = {"full": "turn"} if opt(state, "turn_action") == "full_round" else {"main": "turn"}
    state = with_econ(state, actor, **econ)
    pool = candidates(state, undead_groups(state, c)[group])
    first = dice.roll("2d6", f"{c.name} turns undead", by=c.id)
    able = []
    for u in pool:
        e = entry(state, c, u)
        if e in ("T", "D") or (e.isdigit() and first.total >= int(e)):
            able.append((u, e))
    if not able:
        state = state.with_board(turn_locks=state.board.turn_locks | {(actor, group)})
        events.append(Event("TurnFailed", f"{c.name} fails to turn {group}: {first.describe()}; no more turning them "
                                          f"for 24 hours (OSE-TURN-4)", rule="OSE-TURN-1", rolls=(first,),
                            actor=actor))
        return state
    hd_roll = dice.roll("2d6", "Hit Dice turned", by=c.id)
    budget = hd_roll.total
    chosen = []
    for u, e in able:
        hd = max(1, int(u.stat("hd", 1) or 1))
        if hd > budget:
            break
        budget -= hd
        chosen.append((u, e))
    if not chosen:
        chosen = [able[0]]  # OSE-TURN-2: at least one creature
    events.append(Event("TurnSucceeded", f"{c.name} turns undead of {group}: {first.describe()}, Hit Dice "
                                         f"{hd_roll.describe()}: {', '.join(u.name for u, _ in chosen)} "
                                         f"(weakest first, OSE-TURN-2)", rule="OSE-TURN-2", rolls=(first, hd_roll),
                        actor=actor, data={"affected": [u.id for u, _ in chosen]}))
    turned = dict(state.board.turned)
    rpm = int(opt(state, "rounds_per_minute"))
    for u, e in chosen:
        if e == "D":
            state = state.update(u.id, hp=min(0, u.hp), conditions=u.with_condition(DESTROYED).conditions)
            events.append(Event("Destroyed", f"{u.name} is destroyed (OSE-TURN-2)", rule="OSE-TURN-2", actor=actor,
                                target=u.id))
            events.append(Event("CombatantDown", f"{u.name} is down", rule="CORE-HP-1", target=u.id))
        else:
            minutes = dice.roll("1d4", f"minutes {u.name} stays turned", by=u.id)
            turned[u.id] = (actor, state.round + minutes.total * rpm - 1)
            state = state.update(u.id, conditions=u.with_condition(TURNED).conditions)
            events.append(Event("Turned", f"{u.name} is turned: it must move as far from {c.name} as it can "
                                          f"(OSE-TURN-3)", rule="OSE-TURN-3", actor=actor, target=u.id))
            events.append(Event("TurnDurationRolled", f"{u.name} stays turned for {minutes.describe()} minute(s)",
                                rule="OSE-TURN-3", rolls=(minutes,), target=u.id, secret=True))
    return state.with_board(turned=turned)


def expire_turning(state: State, events: list[Event]) -> State:
    """At the start of a round, turning that has run its 1d4 minutes ends (OSE-TURN-3)."""
    turned = dict(state.board.turned)
    for cid, (_, last) in list(turned.items()):
        if state.round > last:
            del turned[cid]
            state = state.update(cid, conditions=state.get(cid).without_condition(TURNED).conditions)
            events.append(Event("TurningEnded", f"{state.name(cid)} is no longer turned (OSE-TURN-3)",
                                rule="OSE-TURN-3", target=cid))
    return state.with_board(turned=turned) if len(turned) != len(state.board.turned) else state
