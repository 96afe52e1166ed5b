"""Ogre's count: whose declaration is due, and the records of declaring, ending, breaking and reacting.

Each combatant's place in the count is a `Fighter` in `OgreState`: when it
declares next (OGRE-INIT-1, OGRE-ACT-1), the action under way, and the marks
of its past that the ruler draws. Every function returns a new State and
appends its facts to `events`; nothing mutates.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...engine.commands import Event
from ...engine.model import Weapon, Combatant
from ...engine.state import State, evolve
from .state import REACTION_PENALTY, Action, Fighter, Mark, OgreState, Phase, Work, duration, is_stunned


# --- small state helpers ------------------------------------------------------------

def ogre(state: State) -> OgreState:
    return state.board


def fighter(state: State, cid: str) -> Fighter:
    return state.board.fighter(cid)


def put(state: State, f: Fighter) -> State:
    return state.with_board_record(state.board.put(f))


def change(state: State, cid: str, **kw: Any) -> State:
    return put(state, evolve(fighter(state, cid), **kw))


def push(state: State, *works: Work) -> State:
    """Put work at the front of the queue, in the given order."""
    return state.with_board(work=tuple(works) + state.board.work)


def holding(state: State) -> bool:
    """Damage is held while a segment's batch resolves "together" (OGRE-ACT-1)."""
    return any(w.kind == "flush" for w in state.board.work)


def standing(state: State, cid: str) -> bool:
    c = state.find(cid)
    return c is not None and not c.is_down


def work_action(state: State, w: Work) -> Action | None:
    """The action a work item is about, if still pending and its actor standing."""
    if not standing(state, w.actor):
        return None
    a = fighter(state, w.actor).action
    return a if a is not None and a.uid == w.uid else None


def pick_attack(c: Combatant, name: str = "", melee_only: bool = False) -> Weapon | None:
    """The named attack if ready, else the first ready (melee first) one."""
    ready = c.ready_weapons()
    if name:
        for a in ready:
            if a.name == name and (a.is_melee or not melee_only):
                return a
        return None
    melee = [a for a in ready if a.is_melee]
    if melee:
        return melee[0]
    return None if melee_only or not ready else ready[0]


def must_declare(state: State, cid: str) -> bool:
    """OGRE-ACT-1: at or past its due segment with nothing pending (and not stunned)."""
    s = ogre(state)
    if s.phase != Phase.FIGHT or not standing(state, cid):
        return False
    f = s.fighter(cid)
    if f.initiative is None or f.action is not None or is_stunned(s, cid):
        return False
    if f.due is None:
        return not f.delaying  # e.g. back up after being down: declares at once
    return f.due <= s.segment


def can_declare(state: State, cid: str) -> bool:
    """Must declare now, or is delaying and may declare at any segment (OGRE-DELAY-1)."""
    if must_declare(state, cid):
        return True
    s = ogre(state)
    if s.phase != Phase.FIGHT or not standing(state, cid):
        return False
    f = s.fighter(cid)
    return f.delaying and f.action is None and not is_stunned(s, cid) and not delayed_now(state, cid)


def delayed_now(state: State, cid: str) -> bool:
    """OGRE-DELAY-1: it delayed on this very segment, so it declares nothing here (only at a later one)."""
    s = ogre(state)
    f = s.fighter(cid)
    return f.delaying and f.delayed_at == s.segment


def next_event(state: State) -> int | None:
    """The next segment after now where something happens: an action resolves, a
    declaration is due, a stun or a timed condition ends. None when nothing is scheduled."""
    s = ogre(state)
    best = None
    for f in s.fighters:
        if not standing(state, f.id):
            continue
        for seg in (f.action.resolves if f.action else None,
                    f.due if f.action is None else None, f.stunned_until):
            if seg is not None and seg > s.segment and (best is None or seg < best):
                best = seg
    for _, _, seg in state.timers:  # a timed condition ends at its segment: the count stops there
        if isinstance(seg, int) and seg > s.segment and (best is None or seg < best):
            best = seg
    return best


def declaring(state: State) -> tuple[str, ...]:
    """Who must declare an action now (OGRE-ACT-1), lower initiative first."""
    s = ogre(state)
    ids = [f for f in s.fighters if must_declare(state, f.id)]
    ids.sort(key=lambda f: (f.initiative or 0, f.reaction, f.id))
    return tuple(f.id for f in ids)


# --- declaring ------------------------------------------------------------------------

def declare(state: State, cid: str, events: list[Event], **fields: Any) -> State:
    """OGRE-ACT-1: record the action; it resolves at now + the category's duration."""
    if fighter(state, cid).action is not None:
        # Only the referee's Allow declares over a pending action: the old one is broken.
        state = break_action(state, cid, events, "replaced by the referee")
    s = ogre(state)
    f = s.fighter(cid)
    uid = s.serial + 1
    now = s.segment
    category = fields["category"]
    resolves = None if fields["kind"] == "ready" else now + duration(state, category)
    action = Action(uid=uid, declared=now, resolves=resolves, **fields)
    marks = f.marks
    if f.delaying and f.delay_from is not None and f.delay_from < now:
        # OGRE-DELAY-1: the waited segments are lost, and shown as such.
        marks += (Mark("delay", f.delay_from, now, "Delay", outcome="lost"),)
    state = state.with_board(serial=uid)
    state = put(state, replace(f, action=action, due=None, delaying=False, delay_from=None, marks=marks))
    when = "waits for its trigger" if resolves is None else f"resolves at segment {resolves}"
    tempo = ""
    if action.tempo < 0:
        tempo = f", fast ({action.modifier:+d})"
    elif action.tempo > 0:
        tempo = f", taking its time ({action.modifier:+d})"
    events.append(Event("ActionDeclared", f"{state.name(cid)} declares {action.label} ({category}{tempo}): {when}",
                        rule="OGRE-ACT-1", actor=cid, target=action.target,
                        data={"uid": uid, "segment": now, "resolves": resolves, "category": category}))
    # OGRE-READY-1: readied actions waiting for this one's declaration interrupt it.
    triggers = ("declare", "cast") if action.kind == "cast" else ("declare",)
    instant = [Work("resolve", cid, uid)] if resolves == now else []  # Instantaneous: at once
    return push(state, *fire_works(state, cid, triggers), *instant)


def fire_works(state: State, causer: str, triggers: tuple[str, ...]) -> list[Work]:
    """Work items for every readied action whose trigger is `causer` doing one of `triggers`."""
    out = []
    c = state.get(causer)
    for f in ogre(state).fighters:
        a = f.action
        if a is None or a.kind != "ready" or a.trigger not in triggers or f.id == causer:
            continue
        if a.target != causer or not standing(state, f.id) or not state.hostile(state.get(f.id), c):
            continue
        out.append(Work("fire", f.id, a.uid, other=causer, cause=a.trigger))
    return out


def end_action(state: State, cid: str, events: list[Event], outcome: str = "resolved", text: str = "",
               rule: str = "OGRE-ACT-1") -> State:
    """The action is over: the combatant declares its next one now (OGRE-ACT-1)."""
    f = fighter(state, cid)
    a = f.action
    if a is None:
        return state
    now = ogre(state).segment
    mark = Mark("action", a.declared, now, a.label, a.category, a.tempo, outcome)
    state = put(state, evolve(f, action=None, due=now, marks=f.marks + (mark,)))
    events.append(Event("ActionResolved", text or f"{state.name(cid)}'s {a.label} is done ({outcome})",
                        rule=rule, actor=cid, data={"uid": a.uid, "outcome": outcome, "segment": now}))
    return state


def break_action(state: State, cid: str, events: list[Event], why: str, *, involuntary: bool = False,
                 due: int | None = None) -> State:
    """OGRE-BREAK-1: the pending action is lost with its elapsed segments; the next is declared at `due` (now)."""
    f = fighter(state, cid)
    a = f.action
    if a is None:
        return state
    now = ogre(state).segment
    lost = now - a.declared
    mark = Mark("action", a.declared, now, a.label, a.category, a.tempo, "broken")
    state = put(state, evolve(f, action=None, due=now if due is None else due, marks=f.marks + (mark,)))
    kind = "involuntarily" if involuntary else "voluntarily"
    events.append(Event("ActionBroken", f"{state.name(cid)}'s {a.label} is broken {kind} ({why}); "
                                        f"{lost} segment{'s' if lost != 1 else ''} lost",
                        rule="OGRE-BREAK-1", actor=cid, data={"uid": a.uid, "lost": lost}))
    return state


def react(state: State, cid: str, category: str, what: str, events: list[Event], rule: str = "OGRE-REACT-1"
          ) -> State:
    """OGRE-REACT-1: resolves at once; the current action keeps going with the category's penalty."""
    f = fighter(state, cid)
    pen = REACTION_PENALTY[category]
    now = ogre(state).segment
    marks = f.marks + (Mark("reaction", now, now, what, category, penalty=pen),)
    a = f.action
    note = "no action pending to penalise"
    if a is not None:
        stack = bool(state.setting("reactions_stack", True))
        total = a.penalty + pen if stack else min(a.penalty, pen)
        a = replace(a, penalty=total)
        note = f"{a.label} now at {total:+d}" if total else f"{a.label} unaffected"
    state = put(state, replace(f, action=a, marks=marks))
    events.append(Event("ReactionTaken", f"{state.name(cid)} reacts: {what} ({category}, {pen:+d}); {note}",
                        rule=rule, actor=cid, data={"category": category, "penalty": pen}))
    return state
