"""How a segment's work happens: resolutions, attacks, charges, readies, held damage (a move's walk: movement.py).

A segment's work (resolutions, the steps of a move, readied actions firing)
is a queue kept in `OgreState.work`, so a decision in the middle (an attack
of opportunity, a follow, a counterspell) can pause it as a `state.prompt`
and the answer's command picks it up again. Every function returns a new
State and appends its facts to `events`; nothing mutates.

Movement happens at resolution (OGRE-ACT-1: "when the segment to resolve is
reached, the action happens"): the token stays on its square while the move
is under way, then walks its path square by square at the resolution
segment; threat, flat-footedness and blocking are judged then. So the grid
always shows where everyone is at the current count.

Simultaneity (OGRE-ACT-1, setting "simultaneous"): with "together" every
action due at a segment resolves in declaration order (earliest declared,
then lower initiative) against the state as it stands, but the damage its
attacks roll is held and lands after the last of them, so a combatant felled
on that segment still completes its own action. Interruptions (attacks of
opportunity, readied actions) land at once. With "in order", damage lands as
each action resolves.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...engine.commands import Event
from ...engine.conditions import can_act
from ...engine.dice import Dice, NeedDice, ScriptedDice
from ...engine.state import Prompt, State
from ...engine.spells import spell_effect
from ...engine.referee_effects import cast_effect
from . import grid as og
from .attack import attack_damage, attack_hits, attack_roll
from .movement import follow_offer, follow_offers, provocation_stops, walk, walkable
from .state import CHARGE_BONUS, FAST_DC, MENU_BY_KEY, Action, Work, dex, duration, is_stunned, pace_of
from .timeline import (break_action, change, end_action, fighter, fire_works, holding, ogre, pick_attack, push,
                       standing, work_action)


# --- the work loop -----------------------------------------------------------------------

def run(rs: Any, state: State, events: list[Event], dice: Dice) -> State:
    """Do the queued work until it is done or a prompt waits for an answer."""
    for _ in range(10000):  # a safety net: every handler consumes its item
        after = step(rs, state, events, dice)
        if after is None:
            return state
        state = after
    if state.prompt is None and ogre(state).work:
        raise RuntimeError("Ogre work queue does not drain")
    return state


def step(rs: Any, state: State, events: list[Event], dice: Dice) -> State | None:
    """The first item of the queued work done; None when there is none or a prompt waits for an answer."""
    if state.prompt is not None or not ogre(state).work:
        return None
    w = ogre(state).work[0]
    return HANDLERS[w.kind](rs, state.with_board(work=ogre(state).work[1:]), w, events, dice)


def run_until_dice(rs: Any, state: State, events: list[Event]) -> State:
    """Do the queued work that rolls nothing, and stop before the first item that asks for a die (it stays
    queued): the part of a resolution every branch of its odds shares (CORE-ODDS-1), done once."""
    guard = 0
    while state.prompt is None and ogre(state).work and guard < 10000:
        guard += 1
        w = ogre(state).work[0]
        tried: list[Event] = []
        try:
            after = HANDLERS[w.kind](rs, state.with_board(work=ogre(state).work[1:]), w, tried, ScriptedDice(()))
        except NeedDice:
            return state
        events.extend(tried)
        state = after
    return state


def _resolve(rs: Any, state: State, w: Work, events: list[Event], dice: Dice) -> State:
    a = work_action(state, w)
    if a is None:
        return state
    triggers: tuple[str, ...] = ()
    if a.kind in ("attack",):
        triggers = ("attack",)
    elif a.kind in ("move", "withdraw"):
        triggers = ("move",)
    elif a.kind == "charge":
        triggers = ("move",)  # "attack" readies strike when the charger arrives (_charge_hit)
    # OGRE-READY-1: readied actions interrupt: they happen before this one.
    return push(state, *fire_works(state, w.actor, triggers), Work("act", w.actor, w.uid))


def hurried_check(state: State, cid: str, a: Action, events: list[Event], dice: Dice) -> bool:
    """OGRE-FAST-1: a hurried action with no check of its own needs a DC 15 Dexterity check."""
    c = state.get(cid)
    roll = dice.roll("d20", f"{c.name}'s Dexterity check (fast {a.label})", by=c.id)
    total = roll.total + dex(c) + a.penalty
    ok = total >= FAST_DC
    events.append(Event("CheckMade", f"{c.name} hurries {a.label}: Dexterity {roll.describe()} {dex(c):+d}"
                                     + (f" {a.penalty:+d}" if a.penalty else "")
                                     + f" = {total} vs DC {FAST_DC}: {'done in time' if ok else 'not in time'}",
                        rule="OGRE-FAST-1", rolls=(roll,), actor=cid))
    return ok


def _act(rs: Any, state: State, w: Work, events: list[Event], dice: Dice) -> State:
    a = work_action(state, w)
    if a is None:
        return state
    cid = w.actor
    c = state.get(cid)
    checkless = a.kind in ("move", "withdraw") or (a.kind == "act" and not MENU_BY_KEY[a.act].check)
    if a.tempo < 0 and checkless and w.cause != "provoked" and not hurried_check(state, cid, a, events, dice):
        return end_action(state, cid, events, "failed", f"{c.name} cannot {a.label.lower()} in time",
                          rule="OGRE-FAST-1")
    if a.kind == "attack":
        t = state.find(a.target)
        atk = pick_attack(c, a.weapon)
        if t is None or t.is_down:
            return end_action(state, cid, events, "resolved", f"{c.name}'s attack finds {state.name(a.target)} "
                                                              f"already down")
        if atk is None or not og.in_reach(state, c, atk, t):
            return end_action(state, cid, events, "resolved", f"{c.name}'s {a.label} comes to nothing: "
                                                              f"{t.name} is out of reach", rule="OGRE-ATK-1")
        state, hit = attack_hits(state, cid, a.target, atk, a.check_bonus, events, dice, why="attack")
        if not hit:
            return end_action(state, cid, events)
        # The damage is the next piece of work (nothing comes between): it goes on from the state alone, so
        # the odds resolve it once for every face of the attack roll that hits (CORE-ODDS-1).
        return push(state, Work("damage", cid, a.uid))
    if a.kind in ("move", "withdraw", "charge"):
        path, problem = walkable(state, c, a.path)
        if problem:
            events.append(Event("MoveStopped", f"{c.name}'s path is cut short: {problem}", rule="OGRE-MOVE-1",
                                actor=cid))
        stops = provocation_stops(state, cid, path, withdraw=a.kind == "withdraw")
        after = [Work("charge_hit", cid, a.uid)] if a.kind == "charge" else []
        return push(state, Work("walk", cid, a.uid, path=path, stops=stops, cause=a.kind), *after,
                    Work("end", cid, a.uid))
    if a.kind == "act":
        return _menu_effect(rs, state, cid, a, events, dice, provoked=w.cause == "provoked")
    if a.kind == "cast":
        name, effect = spell_effect(a.spell or "")
        named = a.targets or ((a.target,) if a.target else ())  # an older record: its one target
        on = tuple(t for t in named if state.has(t)) if effect is not None else ()
        events.append(Event("SpellCast", f"{c.name} completes {name or 'the spell'}"
                                         + (f" (check {a.check_bonus:+d})" if a.check_bonus else "")
                                         + (f" on {', '.join(state.name(t) for t in on)}" if on
                                            else ": the referee applies its effect"),
                            rule="OGRE-ACT-1", actor=cid, target=a.target, data={"spell": name or a.spell or ""}))
        if on:
            state = cast_effect(rs, state, on, a.spell, dice, events)
        return end_action(state, cid, events)
    return end_action(state, cid, events)


def _menu_effect(rs: Any, state: State, cid: str, a: Action, events: list[Event], dice: Dice, *,
                 provoked: bool = False) -> State:
    """OGRE-LIST-1: what the text's listed actions change on the combatant."""
    m = MENU_BY_KEY[a.act]
    c = state.get(cid)
    if m.provokes and not provoked and c.square is not None:
        # OGRE-AOO-1: a provoking non-combat act in a threatened square; the act completes afterwards.
        stops = provocation_stops(state, cid, (tuple(c.square),), act=True)
        if stops:
            return push(state, Work("walk", cid, a.uid, path=(tuple(c.square),), stops=stops, cause="act"),
                        Work("act", cid, a.uid, cause="provoked"))
    if m.check:
        bonus = int(c.stat(m.check, 0) or 0)
        roll = dice.roll("d20", f"{c.name}'s {m.check.capitalize()} check", by=c.id)
        total = roll.total + bonus + a.check_bonus
        ok = total >= m.dc
        events.append(Event("CheckMade", f"{c.name} {m.label.lower()}: {m.check.capitalize()} {roll.describe()} "
                                         f"{bonus + a.check_bonus:+d} = {total} vs DC {m.dc}: "
                                         f"{'success' if ok else 'failure'}", rule="OGRE-LIST-1", rolls=(roll,),
                            actor=cid))
        if not ok and a.act == "fast_mount":
            # OGRE-LIST-1: a failed fast mount takes a Short action instead.
            later = a.declared + duration(state, "Short")
            if later > ogre(state).segment:
                state = change(state, cid, action=replace(a, resolves=later, act="mount", category="Short",
                                                          label="Mount or dismount (fast mount failed)"))
                events.append(Event("ActionExtended", f"{c.name} mounts the slow way: done at segment {later}",
                                    rule="OGRE-LIST-1", actor=cid, data={"uid": a.uid, "resolves": later}))
                return state
    new = c
    if a.act == "drop_prone":
        new = c.with_condition("prone")
    elif a.act == "stand_up":
        new = c.without_condition("prone")
    elif a.act in ("mount", "fast_mount"):
        new = c.without_condition("mounted") if c.has_condition("mounted") else c.with_condition("mounted")
    elif a.act == "extinguish":
        new = c.without_condition("on fire")
    elif a.act == "draw" and a.item in c.inventory and "" in c.hands:
        hands = list(c.hands)
        hands[hands.index("")] = a.item
        inv = list(c.inventory)
        inv.remove(a.item)
        new = replace(c, hands=tuple(hands), inventory=tuple(inv))
    elif a.act == "sheathe" and a.item in c.hands:
        hands = list(c.hands)
        hands[hands.index(a.item)] = ""
        new = replace(c, hands=tuple(hands), inventory=(a.item,) + c.inventory)
    elif a.act == "drop_item" and a.item in c.hands:
        hands = list(c.hands)
        hands[hands.index(a.item)] = ""
        new = replace(c, hands=tuple(hands))
    if new is not c:
        state = state.with_combatant(new)
    what = f" {a.item}" if a.item else ""
    events.append(Event("ActDone", f"{c.name}: {m.label.lower()}{what} done", rule="OGRE-LIST-1", actor=cid))
    return end_action(state, cid, events)


# --- charges, a declared attack's damage, the end of a move -----------------------------------

def _charge_hit(rs: Any, state: State, w: Work, events: list[Event], dice: Dice) -> State:
    a = work_action(state, w)
    if a is None:
        return state
    c = state.get(w.actor)
    if w.cause != "braced":
        # OGRE-READY-1: weapons readied against a charge (or against this one's attack) strike
        # first, if the charger has come within reach.
        braced = []
        for f in ogre(state).fighters:
            r = f.action
            if r is None or r.kind != "ready" or r.inner != "attack" or not standing(state, f.id):
                continue
            if not (r.trigger == "charge" and r.target in ("", w.actor)
                    or r.trigger == "attack" and r.target == w.actor):
                continue
            o = state.get(f.id)
            atk = pick_attack(o, r.weapon)
            if not state.hostile(o, c) or atk is None or not og.in_reach(state, o, atk, c):
                continue
            braced.append(Work("fire", f.id, r.uid, other=w.actor, cause=r.trigger))
        if braced:
            return push(state, *braced, replace(w, cause="braced"))
    t = state.find(a.target)
    atk = pick_attack(c, a.weapon, melee_only=True)
    if t is None or t.is_down or atk is None or not og.in_reach(state, c, atk, t):
        events.append(Event("ChargeFailed", f"{c.name}'s charge ends out of reach of {state.name(a.target)}",
                            rule="OGRE-CHARGE-1", actor=w.actor, target=a.target))
        return state
    walked = a.path[:a.path.index(tuple(c.square)) + 1] if tuple(c.square) in a.path else a.path
    feet = og.cost_ft(state, tuple(walked)) if len(walked) > 1 else 0
    pace = pace_of(state, c, feet)
    bonus = CHARGE_BONUS[pace]  # OGRE-CHARGE-1
    events.append(Event("Charged", f"{c.name} charges {feet} ft ({pace}): damage {bonus:+d}", rule="OGRE-CHARGE-1",
                        actor=w.actor, target=a.target, data={"feet": feet, "pace": pace}))
    return attack_roll(rs, state, w.actor, a.target, atk, a.check_bonus, events, dice, why="charge",
                       hold=holding(state), extra_damage=bonus, rule="OGRE-CHARGE-1")


def _damage(rs: Any, state: State, w: Work, events: list[Event], dice: Dice) -> State:
    """OGRE-ATK-1: the declared attack hit (`_act`, just before): its damage, and the action is done."""
    a = fighter(state, w.actor).action
    if a is None or a.uid != w.uid:
        return state
    c = state.get(w.actor)
    state = attack_damage(rs, state, w.actor, a.target, pick_attack(c, a.weapon), events, dice, why="attack",
                          hold=holding(state))
    return end_action(state, w.actor, events)


def _end(rs: Any, state: State, w: Work, events: list[Event], dice: Dice) -> State:
    if work_action(state, w) is None:
        return state
    return end_action(state, w.actor, events)


# --- readied actions ---------------------------------------------------------------------

def _fire(rs: Any, state: State, w: Work, events: list[Event], dice: Dice) -> State:
    """OGRE-READY-1: the trigger happened; the readied action resolves now, interrupting."""
    r = work_action(state, w)
    if r is None or r.kind != "ready" or is_stunned(ogre(state), w.actor) or not standing(state, w.other) \
            or not can_act(state.get(w.actor)):  # CORE-COND-1: no reaction of one that cannot act
        return state
    me = state.get(w.actor)
    events.append(Event("ReadyTriggered", f"{me.name}'s {r.label} is triggered: {state.name(w.other)} "
                                          f"({w.cause})", rule="OGRE-READY-1", actor=w.actor, target=w.other))
    if r.inner == "counterspell":
        caster = fighter(state, w.other).action
        if caster is None or caster.kind != "cast":
            return state
        bonus = int(me.stat("spellcraft", 0) or 0)
        roll = dice.roll("d20", f"{me.name}'s Spellcraft", by=me.id)
        dc = 15 + caster.level
        total = roll.total + bonus + r.penalty
        ok = total >= dc
        events.append(Event("CheckMade", f"{me.name} tries to identify {caster.spell}: Spellcraft {roll.describe()} "
                                         f"{bonus + r.penalty:+d} = {total} vs DC {dc} (15 + level {caster.level}): "
                                         f"{'identified' if ok else 'not identified'}", rule="OGRE-READY-1",
                            rolls=(roll,), actor=w.actor))
        if not ok:
            return end_action(state, w.actor, events, "fired", rule="OGRE-READY-1")
        q = f"{me.name} identifies {caster.spell}: can {me.name} cast it to counter it?"
        return replace(state, prompt=Prompt(w.actor, q, rule="OGRE-READY-1", kind="counter",
                                            data={"caster": w.other}))
    atk = pick_attack(me, r.weapon)
    t = state.get(w.other)
    if atk is None or not og.in_reach(state, me, atk, t):
        events.append(Event("ReadyHeld", f"{me.name} cannot reach {t.name}: the readied attack waits",
                            rule="OGRE-READY-1", actor=w.actor, target=w.other))
        return state
    if w.cause == "manual":  # the referee's Trigger is the decision itself
        return fire_readied(rs, state, w.actor, w.other, w.cause, events, dice)
    # OGRE-READY-1: "you can use a ready action": the readier is asked; striking is the default.
    double = w.cause == "charge" and atk.has("piercing")
    q = (f"{t.name} {w.cause}s: {me.name}'s readied attack is triggered: strike with {atk.name} now"
         f"{' (double damage against the charge)' if double else ''}, or hold it?")
    return replace(state, prompt=Prompt(w.actor, q, rule="OGRE-READY-1", kind="ready",
                                        data={"target": w.other, "cause": w.cause, "weapon": atk.name,
                                              "double": double}))


def fire_readied(rs: Any, state: State, actor: str, target: str, cause: str, events: list[Event],
                 dice: Dice) -> State:
    """OGRE-READY-1: the readied attack strikes (double damage with a piercing weapon set against a charge)."""
    r = fighter(state, actor).action
    me = state.get(actor)
    atk = pick_attack(me, r.weapon)
    double = cause == "charge" and atk.has("piercing")
    state = attack_roll(rs, state, actor, target, atk, r.penalty, events, dice,
                        why="readied attack" + (" against the charge" if cause == "charge" else ""),
                        double=double, rule="OGRE-READY-1")
    return end_action(state, actor, events, "fired", rule="OGRE-READY-1")


# --- damage that lands later, and its consequences -------------------------------------------

def _flush(rs: Any, state: State, w: Work, events: list[Event], dice: Dice) -> State:
    """OGRE-ACT-1 (together): the segment's held damage lands now, all of it."""
    held = ogre(state).held
    state = state.with_board(held=())
    for h in held:
        state = rs.damage(state, h.target, h.amount, events, source=h.source, rule="OGRE-ACT-1")
    return state


def _concentration(rs: Any, state: State, w: Work, events: list[Event], dice: Dice) -> State:
    """OGRE-CONC-1, OGRE-BREAK-1: attacked (hit or miss) or damaged while concentrating: d20 +
    Concentration against DEFAULT 10 + damage; a failure breaks the action."""
    a = work_action(state, w)
    if a is None or not a.concentration:
        return state
    c = state.get(w.actor)
    amount = int(w.cause or 0)
    dc = int(state.setting("concentration_dc", 10)) + amount
    bonus = int(c.stat("concentration", 0) or 0)
    roll = dice.roll("d20", f"{c.name}'s Concentration", by=c.id)
    total = roll.total + bonus
    ok = total >= dc
    why = f"{amount} damage" if amount else "attacked"
    events.append(Event("CheckMade", f"{c.name} keeps concentrating ({why})? {roll.describe()} {bonus:+d} = {total} "
                                     f"vs DC {dc}: {'kept' if ok else 'lost'} (OGRE-CONC-1)", rule="OGRE-CONC-1",
                        rolls=(roll,), actor=w.actor))
    if ok:
        return state
    return break_action(state, w.actor, events, "concentration lost", involuntary=True)


def on_damage(state: State, target: str, amount: int, events: list[Event]) -> State:
    """After damage: a down combatant's action ends (CORE-HP-1); a concentrating one checks (OGRE-BREAK-1)."""
    s = ogre(state)
    if s is None or not s.has(target):
        return state
    c = state.get(target)
    f = s.fighter(target)
    if c.is_down:
        if f.action is not None:
            state = break_action(state, target, events, "down", involuntary=True)
        return change(state, target, due=None, delaying=False)
    if f.action is not None and f.action.concentration:
        return push(state, Work("concentration", target, f.action.uid, cause=str(amount)))
    return state


HANDLERS = {
    "resolve": _resolve, "act": _act, "walk": walk, "end": _end, "follow_offers": follow_offers,
    "follow_offer": follow_offer, "charge_hit": _charge_hit, "fire": _fire, "flush": _flush,
    "concentration": _concentration, "damage": _damage,
}
