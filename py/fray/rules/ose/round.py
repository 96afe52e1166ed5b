"""The OSE round's flow: initiative, the acting side and its steps, spells lapsing or lost, morale at the end.

OSE-SEQ-1: declare → initiative → sides act in order (detailed: Move, Missile,
Magic, Melee) → morale → next round. `settle` moves the round forward after
every command, skipping steps in which nobody of the acting side can act.
What each command does is resolve.py's; what it may not do, check.py's.
"""
from __future__ import annotations

from dataclasses import replace

from ...engine.commands import Event
from ...engine.dice import Dice
from ...engine.model import Combatant
from ...engine.state import Prompt, State
from .action_checks import check_turn, check_weapon
from .combat import lose_spell, usable_melee, weapon_reach  # noqa: F401 (lose_spell: resolve, ruleset)
from .bodies import shooter_blocked_by, within
from .movement import move_left
from .state import (STEP_NAMES, STEPS, Econ, MoraleTrack, acting_side, active_sides, can_act, current_step,
                    econ_of, forget, is_detailed, is_out, is_turned, opt, with_econ)
from .turn_undead import expire_turning, undead_groups

MAX_REROLLS = 50


# --- initiative (OSE-INIT-1..2) ---------------------------------------------------------------

def roll_initiative(state: State, dice: Dice, events: list[Event]) -> State:
    """Lock declarations, roll (or apply surprise), start every declared action, begin the first side."""
    s = state.board
    sides = active_sides(state)
    if state.round == 1 and s.surprised and any(x not in s.surprised for x in sides):
        # OSE-SUR-1: the surprising side acts first; no initiative dice.
        order = tuple([x for x in sides if x not in s.surprised] + [x for x in sides if x in s.surprised])
        init: dict[str, tuple[int, ...]] = {}
        names = ", ".join(state.encounter.side(x).name for x in order)
        events.append(Event("SurpriseRoundBegan", f"Surprise round: no initiative rolled; order {names} (OSE-SUR-1)",
                            rule="OSE-SUR-1"))
    else:
        order, init = _roll_order(state, dice, events, sides)
    state = state.with_board(phase="act", order=order, initiative=init, turn=0, step=0, done=frozenset(),
                              econ={}, casting={}, bracing=frozenset(), withdrawing=frozenset())
    state = expire_turning(state, events)
    return _start_declared(state, events)


def _roll_order(state: State, dice: Dice, events: list[Event], sides: list[str]) -> tuple[tuple, dict]:
    rolls: dict[str, list[int]] = {x: [] for x in sides}
    groups = [list(sides)]
    for _ in range(MAX_REROLLS):
        tied = [g for g in groups if len(g) > 1]
        if not tied:
            break
        new_groups = []
        for g in groups:
            if len(g) == 1:
                new_groups.append(g)
                continue
            results = []
            for side in g:
                r = dice.roll("1d12", f"{state.encounter.side(side).name} initiative", by=side)
                rolls[side].append(r.total)
                results.append(r)
            first = not rolls[g[0]][:-1]
            text = ", ".join(f"{state.encounter.side(x).name} {r.total}" for x, r in zip(g, results))
            events.append(Event("InitiativeRolled", f"{'Initiative' if first else 'Tie re-roll'}: {text} "
                                                    f"({'OSE-INIT-1' if first else 'OSE-INIT-2'})",
                                rule="OSE-INIT-1" if first else "OSE-INIT-2", rolls=tuple(results)))
            by_val: dict[int, list[str]] = {}
            for side in g:
                by_val.setdefault(rolls[side][-1], []).append(side)
            for v in sorted(by_val, reverse=True):
                new_groups.append(by_val[v])
        groups = new_groups
    order = tuple(x for g in groups for x in g)
    if len(order) > 1:
        events.append(Event("InitiativeOrdered", "Acting order: " + ", ".join(state.encounter.side(x).name
                                                                              for x in order), rule="OSE-INIT-1"))
    return order, {x: tuple(v) for x, v in rolls.items()}


def _start_declared(state: State, events: list[Event]) -> State:
    """OSE-SPELL-1: casting starts now and the slot is spent (OSE-SPELL-5: the spell leaves memory,
    whether it is then completed, cancelled or lost); Full Defense and Brace take the round."""
    s = state.board
    casting, fd, bracing, econ = dict(s.casting), dict(s.full_defense), set(), {}
    for cid, (action, spell) in s.declared.items():
        c = state.find(cid)
        if c is None or not can_act(c):
            continue
        if action == "spell":
            left = forget(c, spell)
            state = state.update(cid, stats={**c.stats, "spells": left})
            casting[cid] = spell
            econ[cid] = Econ(full="spell")
            memory = ", ".join(left) if left else "nothing"
            events.append(Event("CastingBegun", f"{c.name} begins casting {spell}; the slot is spent and {spell} "
                                                f"leaves memory (left: {memory}); a hit before it completes "
                                                f"breaks it (OSE-SPELL-1, OSE-SPELL-5)",
                                rule="OSE-SPELL-1", actor=cid, data={"spells": list(left)}))
        elif action == "full_defense":
            fd[cid] = state.round
            econ[cid] = Econ(full="full_defense")
        elif action == "brace":
            bracing.add(cid)
            econ[cid] = Econ(full="brace")
    state = state.with_board(casting=casting, full_defense=fd, bracing=frozenset(bracing), econ=econ)
    return begin_side(state, events)


# --- the acting side --------------------------------------------------------------------------

def begin_side(state: State, events: list[Event]) -> State:
    side = acting_side(state)
    if not side:
        return state
    # OSE-FD-1: a Full Defense from an earlier round ends just before the actor acts again.
    fd = {cid: r for cid, r in state.board.full_defense.items()
          if r >= state.round or state.get(cid).side != side}
    state = state.with_board(full_defense=fd, step=0, done=frozenset())
    init = state.board.initiative.get(side)
    d12 = ""
    if init:
        d12 = f" (d12: {init[0]}" + ("".join(f", tie re-roll {r}" for r in init[1:])) + ")"
    events.append(Event("SideTurnBegan", f"Now acting: {state.encounter.side(side).name}{d12}", rule="OSE-SEQ-1"))
    return state


def members(state: State, side: str) -> list[Combatant]:
    return [c for c in state.combatants if c.side == side and can_act(c)]


def is_active(state: State, c: Combatant) -> bool:
    """Still to act in the current step (detailed) or turn (loose)."""
    if not can_act(c) or c.side != acting_side(state):
        return False
    if not is_detailed(state):
        return not econ_of(state, c.id).acted
    if c.id in state.board.done:
        return False
    return has_step_action(state, c, current_step(state))


def has_step_action(state: State, c: Combatant, step: str) -> bool:
    """Whether the actor could do anything of this step (OSE-ORDER-1); else it is skipped."""
    e = econ_of(state, c.id)
    if c.id in state.board.casting:
        # OSE-SPELL-2: a caster may cancel and act otherwise, so it keeps its chance in each step.
        if step == "missile":
            return any(a.is_ranged for a in c.weapons)
        return step in ("move", "magic") and (step == "magic" or c.square is not None)
    if step == "move":
        if c.square is None:
            return False
        return move_left(state, c) > 0 or not e.full
    if step == "magic":
        if c.stat("warpriest", False):
            return any(check_turn(state, c, g) is None for g in undead_groups(state, c))
        return False
    if e.full or c.id in state.board.casting or e.main or is_turned(state, c.id):
        return False
    if step == "missile":
        for a in c.weapons:
            if a.is_ranged and check_weapon(state, c, a, a.name) is None:
                me, near = shooter_blocked_by(state, c.id)
                return me is not None and not near
        return False
    if step == "melee":
        if c.has_condition("grappled"):
            return True
        melee = usable_melee(c)
        if not melee or c.square is None:
            return False
        reach = max(weapon_reach(c, a) for a in melee)
        return any(not is_out(o) and state.hostile(c, o) for o in within(state, c.square, reach))
    return False


def missile_skip_reason(state: State, side: str) -> str:
    """Why the side's archers cannot shoot in this MISSILE step, for the log
    ("OSE-RANGED-1: Ivy is within 5 ft of Orc 2"); "" when nobody of the side
    has a ranged weapon at all (nothing worth saying)."""
    parts = []
    for c in members(state, side):
        if not any(a.is_ranged for a in c.weapons):
            continue
        _, near = shooter_blocked_by(state, c.id)
        if near:
            parts.append(f"OSE-RANGED-1: {c.name} is within 5 ft of {', '.join(state.name(x) for x in near)}")
            continue
        for a in c.weapons:
            if a.is_ranged:
                bad = check_weapon(state, c, a, a.name)
                if bad is not None:
                    parts.append(f"{c.name}: {bad.detail}")
                    break
        else:
            parts.append(f"{c.name} has no action left for a shot (OSE-ECON-1)")
    return "; ".join(parts)


def active_actors(state: State) -> tuple[str, ...]:
    side = acting_side(state)
    if not side or state.prompt is not None:
        return ()
    return tuple(c.id for c in state.combatants if c.side == side and is_active(state, c))


def outcome_text(state: State) -> str:
    """Decided when no two hostile sides still have someone in the fight (down, fled and surrendered are out)."""
    if not state.combatants:
        return ""
    active = {c.side for c in state.combatants if not is_out(c)}
    if not active:
        return "Everyone is out of the fight"
    if any(state.hostile(a, b) for a in active for b in active):
        return ""
    if len(active) == 1:
        side = state.encounter.side(next(iter(active)))
        return f"Victory: {side.name if side else next(iter(active))}"
    return "No hostile sides remain in the fight"


def settle(state: State, dice: Dice, events: list[Event]) -> State:
    """Advance steps, sides and rounds while nobody of the acting side has anything left to do
    (and the fight is not decided)."""
    for cid in [x for x in state.board.casting if is_out(state.get(x))]:
        state = lose_spell(state, events, cid, "the caster is out of the fight")
    for _ in range(64):
        if state.board.phase != "act" or state.prompt is not None or state.board.pending_move is not None:
            return state
        if outcome_text(state):
            return state
        if active_actors(state):
            return state
        state = end_step(state, dice, events)
    return state


def all_engaged(state: State) -> bool:
    """DEFAULT (OSE-ORDER-1, issue 53): in the detailed MOVE step, everyone of the acting side still to act stands
    next to a foe that can fight, so the page ends the step by itself (`OseRuleset.after_step`, a chained step one
    undo takes back with the tap before) rather than wait for a tap per side."""
    if state.board.phase != "act" or not is_detailed(state) or current_step(state) != "move" or state.prompt:
        return False
    movers = active_actors(state)
    return bool(movers) and all(_engaged(state, state.get(cid)) for cid in movers)


def _engaged(state: State, c: Combatant) -> bool:
    return c.square is not None and any(o.id != c.id and can_act(o) and not is_out(o) and state.hostile(c, o)
                                        for o in within(state, c.square, 1))


def end_step(state: State, dice: Dice, events: list[Event]) -> State:
    side = acting_side(state)
    if is_detailed(state) and state.board.step < len(STEPS) - 1:
        if STEPS[state.board.step] == "magic":
            state = lapse_spells(state, events, side)
        state = state.with_board(step=state.board.step + 1, done=frozenset())
        if active_actors(state):
            events.append(Event("StepBegan", f"{state.encounter.side(side).name}: "
                                             f"{STEP_NAMES[current_step(state)]} step", rule="OSE-ORDER-1"))
        elif current_step(state) == "missile":
            why = missile_skip_reason(state, side)
            if why:
                events.append(Event("StepSkipped", f"Missile step skipped: no one can shoot ({why})",
                                    rule="OSE-ORDER-1 OSE-RANGED-1"))
        return state
    return end_side(state, dice, events)


def end_side(state: State, dice: Dice, events: list[Event]) -> State:
    state = lapse_spells(state, events, acting_side(state))
    state = state.with_board(turn=state.board.turn + 1, step=0, done=frozenset())
    if state.board.turn >= len(state.board.order):
        return end_round(state, dice, events)
    return begin_side(state, events)


def mark_done(state: State, cid: str) -> State:
    if is_detailed(state):
        return state.with_board(done=state.board.done | {cid})
    return with_econ(state, cid, acted=True)


# --- spells (OSE-SPELL-1..4) --------------------------------------------------------------------

def lapse_spells(state: State, events: list[Event], side: str) -> State:
    """A spell not completed by the end of its caster's chance is lost (slot already spent)."""
    casting = dict(state.board.casting)
    for cid, spell in list(casting.items()):
        if state.get(cid).side == side:
            del casting[cid]
            events.append(Event("SpellLapsed", f"{state.name(cid)} did not complete {spell}: it is lost "
                                               f"(OSE-SPELL-2)", rule="OSE-SPELL-2", actor=cid))
    return state.with_board(casting=casting) if len(casting) != len(state.board.casting) else state


# --- morale (OSE-MORALE-1) ---------------------------------------------------------------------

def end_round(state: State, dice: Dice, events: list[Event]) -> State:
    """Morale for each side subject to it whose trigger happened, then the next round's declarations."""
    queue = []
    tracks = dict(state.board.morale)
    for side in state.encounter.sides:
        if side.morale is None:
            continue
        t = tracks.get(side.id) or MoraleTrack()
        if t.result in ("flee", "surrender") or t.passes >= 2:  # a failure answered "fight on" is no pass
            continue
        team = state.on_side(side.id)
        if not team or all(is_out(c) for c in team):
            continue
        down = sum(1 for c in team if c.is_down)
        why = []
        if down >= 1 and not t.first_death and opt(state, "morale_first_death"):
            why.append("first death")
        if down * 2 >= len(team) and not t.half_down and opt(state, "morale_half_down"):
            why.append("half down")
        t = replace(t, first_death=t.first_death or down >= 1, half_down=t.half_down or down * 2 >= len(team))
        # OSE-MORALE-1: one check at each trigger, until a failure or the second pass.
        for trigger in why:
            t, ok = morale_check(state, dice, events, side.id, t, trigger)
            if not ok:
                queue.append(side.id)
            if not ok or t.passes >= 2:
                break
        tracks[side.id] = t
    state = state.with_board(morale=tracks, morale_queue=tuple(queue))
    state = replace(state, round=state.round + 1)
    state = state.with_board(phase="declare", declared={}, order=(), turn=0, step=0, done=frozenset(),
                              econ={}, casting={}, bracing=frozenset(), withdrawing=frozenset(),
                              surprised=frozenset())
    events.append(Event("RoundBegan", f"Round {state.round}: declare pre-initiative actions", rule="OSE-SEQ-1"))
    return prompt_morale(state)


def morale_check(state: State, dice: Dice, events: list[Event], side_id: str, t: MoraleTrack,
                 why: str, rule: str = "OSE-MORALE-1") -> tuple[MoraleTrack, bool]:
    """One 2d6 morale check, logged with its faces; a pass counts toward the two that end the checks."""
    side = state.encounter.side(side_id)
    roll = dice.roll("2d6", f"{side.name} morale", by=side_id)
    if roll.total <= side.morale:
        t = replace(t, passes=t.passes + 1)
        more = "; two checks passed: it fights to the end" if t.passes >= 2 else ""
        events.append(Event("MoralePassed", f"{side.name} holds ({why}): {roll.describe()} vs morale "
                                            f"{side.morale}{more} ({rule})", rule=rule, rolls=(roll,)))
        return t, True
    events.append(Event("MoraleFailed", f"{side.name} breaks ({why}): {roll.describe()} vs morale {side.morale}: "
                                        f"it flees or surrenders ({rule})", rule=rule, rolls=(roll,)))
    return t, False


def call_morale(state: State, dice: Dice, events: list[Event], side_id: str) -> State:
    """OSE-MORALE-2 (REF): the referee calls a check for a side now; a pass counts toward the two,
    a failure asks flee or surrender at once."""
    t = state.board.morale.get(side_id) or MoraleTrack()
    t, ok = morale_check(state, dice, events, side_id, t, "the referee's call", rule="OSE-MORALE-2")
    state = state.with_board(morale={**state.board.morale, side_id: t})
    if ok:
        return state
    state = state.with_board(morale_queue=state.board.morale_queue + (side_id,))
    return prompt_morale(state)


def prompt_morale(state: State) -> State:
    """REF: the referee says whether a broken side flees or surrenders (suggestion: flee, unless dark)."""
    if not state.board.morale_queue:
        return replace(state, prompt=None) if state.prompt and state.prompt.kind == "morale" else state
    side = state.board.morale_queue[0]
    who = next((c for c in state.on_side(side) if not is_out(c)), None)
    if who is None:
        state = state.with_board(morale_queue=state.board.morale_queue[1:])
        return prompt_morale(state)
    suggest = "surrender" if bool(opt(state, "dark")) else "flee"
    sname = state.encounter.side(side).name
    return replace(state, prompt=Prompt(who.id, f"{sname} failed morale: flee or surrender? (OSE-MORALE-1)",
                                        rule="OSE-MORALE-1", kind="morale", data={"side": side, "suggest": suggest}))


