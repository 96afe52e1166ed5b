"""How OLOG commands happen: initiative, an action and its pressure, and the turn flow (OLOG-*).

Every function returns a new State and appends its facts to `events`;
nothing mutates. `rs` is the ruleset, whose `damage` logs HP loss alike in
every system (CORE-HP-1).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...engine.conditions import incapacitating, modifiers
from ...engine.commands import Command, Event
from ...engine.referee_effects import cast_effect
from ...engine.spells import spell_effect
from ...engine.dice import Dice, DiceExpr
from ...engine.model import Combatant
from ...engine.tables import Handlers
from ...engine.state import State
from .commands import (ACTIONS, KIND, Attack, CastSpell, Defend, EndTurn, Move, Reorder, Retrieve, RollInitiative,
                       SetCount, Strategise)
from .pressure import pressure_on, zone_name
from .state import (ACTION, CONTINUE, EXTENDED, FREE, OlogState, Phase, cost, defend_bonus, has_free_action, is_pc,
                    needs_press_on, opt, order, order_text, shield_in_hand)

resolves = Handlers("olog resolve")  # (rs, state, cmd, dice, events) -> State


@resolves(RollInitiative)
def _roll_initiative(rs: Any, state: State, cmd: RollInitiative, dice: Dice, events: list[Event]) -> State:
    counts: list[tuple[str, int]] = []
    how: list[tuple[str, str]] = []
    base = int(opt(state, "olog_npc_init_base"))
    for c in state.combatants:
        if is_pc(state, c):
            # OLOG-INIT-1: d20 + level + initiative modifier (Check virtues, DEFAULT)
            level, mod = int(c.stat("level", 1) or 0), int(c.stat("init_mod", 0) or 0)
            roll = dice.roll("d20", f"initiative for {c.name}", by=c.id)
            n = roll.total + level + mod
            text = f"d20 [{roll.total}] + level {level}" + (f" {mod:+d} modifier" if mod else "") + f" = {n}"
            events.append(Event("InitiativeRolled", f"{c.name} rolls initiative: {text}", rule="OLOG-INIT-1",
                                rolls=(roll,), actor=c.id, data={"count": n}))
        else:
            # OLOG-INIT-2: a fixed count, never rolled (DEFAULT 10 + HD; the init stat overrides)
            fixed = c.stat("init", None)
            if fixed is not None:
                n, text = int(fixed), f"fixed {int(fixed)}"
            else:
                hd = int(c.stat("hd", 1) or 0)
                n, text = base + hd, f"{base} + {hd} HD = {base + hd}"
            events.append(Event("CountSet", f"{c.name} has count {n} ({text})", rule="OLOG-INIT-2",
                                actor=c.id, data={"count": n}))
        counts.append((c.id, n))
        how.append((c.id, text))
    state = replace(state, round=1).with_board(phase=Phase.FIGHT, counts=tuple(counts), rolls=tuple(how))
    events.append(Event("RoundStarted", "Round 1 begins: " + order_text(state), rule="OLOG-INIT-4"))
    return advance(state, events)


@resolves(SetCount)
def _set_count(rs: Any, state: State, cmd: SetCount, dice: Dice, events: list[Event]) -> State:
    s: OlogState = state.board
    old = s.count(cmd.target)
    counts = tuple((k, cmd.count if k == cmd.target else v) for k, v in s.counts)
    state = state.with_board(counts=counts, rolls=tuple(
        (k, f"set to {cmd.count} by the referee" if k == cmd.target else v) for k, v in s.rolls))
    events.append(Event("CountSet", f"Referee sets {state.name(cmd.target)}'s count {old} → {cmd.count}",
                        rule="OLOG-INIT-3 CORE-REF-1", target=cmd.target, data={"count": cmd.count}))
    return state


@resolves(Reorder)
def _reorder(rs: Any, state: State, cmd: Reorder, dice: Dice, events: list[Event]) -> State:
    state = state.with_board(ranks=tuple(cmd.order))
    names = ", ".join(state.name(i) for i in order(state))
    events.append(Event("OrderChanged", f"Referee reorders ties: {names}", rule="OLOG-INIT-4 CORE-REF-1"))
    return state


@resolves(EndTurn)
def _end_turn_cmd(rs: Any, state: State, cmd: EndTurn, dice: Dice, events: list[Event]) -> State:
    s: OlogState = state.board
    if not (s.phase == Phase.FIGHT and s.actor == cmd.actor):
        return state
    left = f" with {s.actions_left} action{'s' if s.actions_left != 1 else ''} unused" if s.actions_left else ""
    if cmd.auto:  # Olog.after_step: nothing but ending the turn was allowed, so it ends by itself (logged)
        held = incapacitating(state.get(cmd.actor))
        why = f"is {held}: no action but to pass" if held else "has nothing left it may do"
        return end_turn(state, events, f"{state.name(cmd.actor)} {why}; the turn ends by itself", "OLOG-ACT-1")
    return end_turn(state, events, f"{state.name(cmd.actor)} ends the turn{left}", "OLOG-ACT-1")


@resolves(*(a for a in ACTIONS if a is not EndTurn))
def _act(rs: Any, state: State, cmd: Command, dice: Dice, events: list[Event]) -> State:
    s: OlogState = state.board
    c = state.get(cmd.actor)
    on_turn = s.phase == Phase.FIGHT and s.actor == cmd.actor
    price = cost(state, cmd)
    if on_turn and price in (ACTION, EXTENDED):
        left = 0 if price == EXTENDED else max(0, s.actions_left - 1)  # OLOG-ACT-1, OLOG-ACT-4
        state = state.with_board(actions_left=left, used=s.used + (KIND[type(cmd)],))
    if price in (ACTION, EXTENDED):  # OLOG-ACT-3: free actions never trigger pressure
        state = _pressure(rs, state, c, cmd, price, dice, events, on_turn)
    if state.get(c.id).is_down and not opt(state, "olog_action_resolves_if_dropped"):
        events.append(Event("ActionLost", f"Pressure drops {c.name} before {cmd.label().lower()} resolves",
                            rule="OLOG-PRES-3", actor=c.id))
    else:
        state = effects.get(cmd)(rs, state, state.get(c.id), cmd, price, dice, events)
    if on_turn:
        t: OlogState = state.board
        now = state.get(c.id)
        if t.attacks_left == 0 and t.ending:  # pressure ends it after the non-free action
            state = end_turn(state, events, f"{c.name}'s turn ends: under pressure without pressing on",
                             "OLOG-PRES-2")
        elif t.attacks_left == 0 and t.actions_left == 0:
            if now.is_down or not has_free_action(now):
                state = end_turn(state, events, f"{c.name}'s turn ends: both actions used", "OLOG-ACT-1")
            elif price != FREE:
                # OLOG-ACT-3: a free action uses no action, so the turn stays
                # open for one until the combatant ends it.
                events.append(Event("FreeActionsLeft", f"{c.name} has used both actions; free actions "
                                    f"(retrieving the topmost item) remain until the turn is ended",
                                    rule="OLOG-ACT-3", actor=c.id))
        if getattr(cmd, "then_end", False) and state.board.actor == c.id:  # "…, then end turn": one tap
            state = end_turn(state, events, f"{c.name} ends the turn", "OLOG-ACT-1")
    return state


def _pressure(rs: Any, state: State, c: Combatant, cmd: Command, price: str, dice: Dice,
              events: list[Event], on_turn: bool) -> State:
    """OLOG-PRES-2/3/5/7/8: roll Press On now, or mark the turn to end after this action."""
    p = pressure_on(state, c.id)
    if not p.is_under or not needs_press_on(state, c.id, p):
        return state
    if getattr(cmd, "press_on", None):
        times = 2 if price == EXTENDED and not opt(state, "olog_extended_pressure_once") else 1
        for _ in range(times):
            if p.fixed is not None:
                # OLOG-PRES-5: no roll can beat the minimum, so none is asked (not even of physical dice)
                amount, rolls = p.fixed, ()
                text = f"takes the minimum {p.fixed} without a roll ({p.why_fixed()})"
            else:
                roll = dice.roll(p.expr(), f"pressure on {c.name}", minimum=p.minimum, by=c.id)
                amount, rolls, text = roll.total, (roll,), f"{roll.describe()} (min {p.minimum})"
            events.append(Event("PressedOn", f"{c.name} presses on under pressure from {p.who()}: {text}",
                                rule="OLOG-PRES-4 OLOG-PRES-5", rolls=rolls, actor=c.id,
                                data={"amount": amount, "threats": list(p.threats)}))
            now = state.get(c.id)
            state = rs.damage(state, c.id, amount, events, rule="OLOG-PRES-3",
                              text=f"{c.name} takes {amount} pressure damage "
                                   f"({now.hp - amount}/{now.max_hp} HP)")
        if on_turn and not opt(state, "olog_press_on_each_action"):
            state = state.with_board(pressed=True)
    elif on_turn:
        state = state.with_board(ending=True)
        events.append(Event("PressOnDeclined", f"{c.name} acts under pressure from {p.who()} without pressing "
                                               f"on: the turn ends after this action", rule="OLOG-PRES-2",
                            actor=c.id))
    return state


# --- what each action does ---------------------------------------------------------------

effects = Handlers("olog effect")  # (rs, state, actor, cmd, cost, dice, events) -> State


@effects(Move)
def _move(rs: Any, state: State, c: Combatant, cmd: Move, price: str, dice: Dice, events: list[Event]) -> State:
    events.append(Event("Moved", f"{c.name} moves from {zone_name(c.band)} to {zone_name(cmd.band)}",
                        rule="OLOG-MOVE-1", actor=c.id, data={"from": c.band, "to": cmd.band}))
    return state.update(c.id, band=cmd.band)


@effects(Attack)
def _attack(rs: Any, state: State, c: Combatant, cmd: Attack, price: str, dice: Dice,
            events: list[Event]) -> State:
    s: OlogState = state.board
    a = c.weapon(cmd.weapon)
    t = state.get(cmd.target)
    if price == CONTINUE:
        state = state.with_board(attacks_left=s.attacks_left - 1)
    elif a.count > 1 and s.actor == c.id:
        # OLOG-ATK-1: several attacks an action may be split around the other action
        state = state.with_board(split_attack=a.name, attacks_left=a.count - 1)
    elif s.actor == c.id:
        state = state.with_board(split_attack="", attacks_left=0)
    ac = t.ac + s.defence(t.id) + modifiers(t).ac  # conditions: "AC +2", "blessed"... (engine/conditions.py)
    hit = dice.roll(DiceExpr(1, 20, a.to_hit + modifiers(c).to_hit), f"{c.name}'s {a.name} to hit {t.name}",
                    by=c.id)
    defended = f" (defending +{s.defence(t.id)})" if s.defence(t.id) else ""
    if hit.total < ac:
        events.append(Event("AttackMissed", f"{c.name} attacks {t.name} with {a.name}: {hit.describe()} vs "
                                            f"AC {ac}{defended}: miss", rule="OLOG-ATK-1", rolls=(hit,),
                            actor=c.id, target=t.id))
        return state
    dmg = dice.roll(a.damage, f"{c.name}'s {a.name} damage", by=c.id)
    amount = max(0, dmg.total)
    events.append(Event("AttackHit", f"{c.name} hits {t.name} with {a.name}: {hit.describe()} vs AC {ac}"
                                     f"{defended}; damage {dmg.describe()}", rule="OLOG-ATK-1",
                        rolls=(hit, dmg), actor=c.id, target=t.id, data={"amount": amount}))
    return rs.damage(state, t.id, amount, events, source=c.id, rule="OLOG-ATK-1",
                     text=f"{t.name} takes {amount} damage from {c.name}'s {a.name} "
                          f"({t.hp - amount}/{t.max_hp} HP)")


@effects(Defend)
def _defend(rs: Any, state: State, c: Combatant, cmd: Defend, price: str, dice: Dice,
            events: list[Event]) -> State:
    bonus = defend_bonus(state, c)  # OLOG-DEF-1
    shield = shield_in_hand(c)
    with_ = f" behind {shield}" if shield else ""
    events.append(Event("Defended", f"{c.name} defends{with_}: +{bonus} AC until its next turn "
                                    f"(AC {c.ac + bonus})", rule="OLOG-DEF-1", actor=c.id, data={"bonus": bonus}))
    defending = tuple(d for d in state.board.defending if d[0] != c.id) + ((c.id, bonus),)
    return state.with_board(defending=defending)


@effects(CastSpell)
def _cast(rs: Any, state: State, c: Combatant, cmd: CastSpell, price: str, dice: Dice,
          events: list[Event]) -> State:
    name, effect = spell_effect(cmd.spell)
    if effect is None or not cmd.targets:
        events.append(Event("SpellCast", f"{c.name} casts {cmd.spell or 'a spell'} (extended: both actions); "
                                         f"the referee narrates its effect", rule="OLOG-SPELL-1 OLOG-ACT-4",
                            actor=c.id, data={"spell": cmd.spell}))
        return state
    on = ", ".join(state.name(t) for t in cmd.targets)
    events.append(Event("SpellCast", f"{c.name} casts {name} on {on} (extended: both actions)",
                        rule="OLOG-SPELL-1 OLOG-ACT-4", actor=c.id,
                        data={"spell": cmd.spell, "targets": list(cmd.targets)}))
    return cast_effect(rs, state, cmd.targets, cmd.spell, dice, events)


@effects(Retrieve)
def _retrieve(rs: Any, state: State, c: Combatant, cmd: Retrieve, price: str, dice: Dice,
              events: list[Event]) -> State:
    """OLOG-ITEM-1: the item goes to the hand; what the hand held goes where the item was."""
    inv = list(c.inventory)
    i = inv.index(cmd.item)
    hand = cmd.hand
    if hand == -1:
        empty = [k for k, h in enumerate(c.hands) if not h]
        hand = empty[0] if empty else 0
    held = c.hands[hand]
    inv.pop(i)
    if held:
        inv.insert(i, held)
    hands = c.hands[:hand] + (cmd.item,) + c.hands[hand + 1:]
    why = {FREE: "free: topmost item", ACTION: "an action: middle of the pack",
           EXTENDED: "extended: bottom half of the pack"}[price if price in (FREE, ACTION, EXTENDED) else ACTION]
    verb = f"swaps {held} for {cmd.item}" if held else f"takes {cmd.item} from the pack"
    events.append(Event("ItemRetrieved", f"{c.name} {verb} ({why})", rule="OLOG-ITEM-1", actor=c.id))
    return state.update(c.id, hands=hands, inventory=tuple(inv))


@effects(Strategise)
def _strategise(rs: Any, state: State, c: Combatant, cmd: Strategise, price: str, dice: Dice,
                events: list[Event]) -> State:
    s: OlogState = state.board
    roll = dice.roll("d6", f"strategise for {c.name}", by=c.id)
    delta = roll.total if cmd.direction == "up" else -roll.total
    now = s.count(c.id) or 0
    after = now + s.delta(c.id) + delta
    events.append(Event("Strategised", f"{c.name} strategises: {roll.describe()} {cmd.direction}; count "
                                       f"{now} → {after} from round {state.round + 1}",
                        rule="OLOG-STRAT-1", rolls=(roll,), actor=c.id, data={"delta": delta}))
    return state.with_board(pending=s.pending + ((c.id, delta),))


# --- turn flow -------------------------------------------------------------------------

def end_turn(state: State, events: list[Event], text: str, rule: str) -> State:
    s: OlogState = state.board
    events.append(Event("TurnEnded", text, rule=rule, actor=s.actor))
    state = state.with_board(acted=s.acted + (s.actor,), actor="", actions_left=0, used=(),
                             split_attack="", attacks_left=0, ending=False, pressed=False)
    return advance(state, events)


def advance(state: State, events: list[Event]) -> State:
    """Start the next standing combatant's turn; a new round when all have acted.
    Down combatants are skipped (CORE-HP-1)."""
    if not any(not c.is_down for c in state.combatants):
        return state.with_board(actor="")
    for _ in range(2):
        s: OlogState = state.board
        acted = list(s.acted)
        for cid in order(state):
            if cid in acted:
                continue
            if state.get(cid).is_down:
                acted.append(cid)
                continue
            state = state.with_board(acted=tuple(acted))
            return _start_turn(state, cid, events)
        state = _new_round(state, events)
    return state


def _new_round(state: State, events: list[Event]) -> State:
    s: OlogState = state.board
    counts = dict(s.counts)
    for cid, delta in s.pending:  # OLOG-STRAT-1: takes effect from the next round
        if cid in counts:
            before = counts[cid]
            counts[cid] = before + delta
            events.append(Event("CountChanged", f"{state.name(cid)}'s count {before} → {counts[cid]} "
                                                f"(Strategise)", rule="OLOG-STRAT-1", actor=cid))
    new = tuple((k, counts[k]) for k, _ in s.counts)
    state = replace(state, round=state.round + 1).with_board(counts=new, pending=(), acted=())
    events.append(Event("RoundStarted", f"Round {state.round} begins: {order_text(state)}", rule="OLOG-INIT-3"))
    return state


def _start_turn(state: State, cid: str, events: list[Event]) -> State:
    s: OlogState = state.board
    c = state.get(cid)
    if s.defence(cid):  # OLOG-DEF-1: the bonus lasts until its next turn
        events.append(Event("DefenceEnded", f"{c.name} stops defending", rule="OLOG-DEF-1", actor=cid))
    state = state.with_board(actor=cid, turn=s.turn + 1, actions_left=2, used=(), split_attack="",
                             attacks_left=0, ending=False, pressed=False,
                             defending=tuple(d for d in s.defending if d[0] != cid))
    p = pressure_on(state, cid)
    under = f"; {p.sentence().lower()}" if p.is_under else ""
    events.append(Event("TurnStarted", f"{c.name}'s turn (count {s.count(cid)}){under}",
                        rule="OLOG-ACT-1", actor=cid))
    return state


def settle(rs: Any, state: State, cmd: Command, dice: Dice, events: list[Event]) -> State:
    """After any command: a down actor's turn passes; if nobody was acting
    and someone stands again, play resumes."""
    s: OlogState = state.board
    if s.phase != Phase.FIGHT:
        return state
    if s.actor and state.get(s.actor).is_down:
        return end_turn(state, events, f"{state.name(s.actor)} is down: the turn passes", "CORE-HP-1")
    if not s.actor and any(not c.is_down for c in state.combatants):
        return advance(state, events)
    return state
