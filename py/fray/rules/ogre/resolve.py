"""How an Ogre command happens: surprise, initiative, counting on, declarations, stuns, delays and answers.

Each command's entry in `resolves` changes the count or queues work; `settle`
then runs the segment's work (`segment.run`) until it is done or a prompt waits.
Every function returns a new State and appends its facts to `events`;
nothing mutates. `rs` is the ruleset, whose `damage` logs HP loss alike in
every system (CORE-HP-1).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...engine.commands import Command, Event
from ...engine.dice import Dice
from ...engine.referee import REFEREE_COMMANDS
from ...engine.tables import Handlers
from ...engine.state import State
from . import state as om
from .check import base_category
from .commands import (StandingAnswer, Act, Advance, Attack, BeforeTheFight, Break, Cast, Charge, Counter, Delay, Follow, Move,
                       Opportunity, React, Ready, RollInitiative, Strike, Stun, Trigger, Withdraw)
from .attack import attack_roll
from .movement import provocation_stops
from .segment import fire_readied, run
from .state import FOLLOWS, MENU_BY_KEY, MOVES, OgreState, Phase, Work, seconds
from .surprise import placement, suggest
from .timeline import break_action, change, declare, end_action, next_event, pick_attack, push, react, standing

resolves = Handlers("ogre resolve")  # (rs, state, cmd, dice, events) -> State


def settle(rs: Any, state: State, cmd: Command, dice: Dice, events: list[Event]) -> State:
    """After any command, the segment's work runs (not after surprise or initiative,
    which start the count); after a referee's command, see `_after_referee`."""
    if isinstance(cmd, REFEREE_COMMANDS):
        return _after_referee(rs, state, dice, events)
    if isinstance(cmd, (BeforeTheFight, RollInitiative)):
        return state
    return run(rs, state, events, dice)


def _after_referee(rs: Any, state: State, dice: Dice, events: list[Event]) -> State:
    p = state.prompt
    if p is not None and not standing(state, p.actor):
        # CORE-REF-1: the referee felled the one being asked; its answer is moot.
        events.append(Event("PromptDropped", f"{state.name(p.actor)} is down: no answer needed", rule=p.rule))
        state = replace(state, prompt=None)
    if state.board.phase == Phase.FIGHT:
        for f in state.board.fighters:
            if f.initiative is None and standing(state, f.id):
                # Down when initiative was rolled, up now: it joins the count at once (OGRE-INIT-1).
                now = state.board.segment
                state = change(state, f.id, initiative=now, due=now)
                events.append(Event("JoinedTheCount", f"{state.name(f.id)} joins the count at segment {now}",
                                    rule="OGRE-INIT-1", actor=f.id))
        state = run(rs, state, events, dice)
    return state


# --- before the fight and the count ------------------------------------------------------------

@resolves(BeforeTheFight)
def _surprise(rs: Any, state: State, cmd: BeforeTheFight, dice: Dice, events: list[Event]) -> State:
    """OGRE-SUR-1 (REF): log the suggestion, then apply the referee's decision."""
    sug = suggest(state, cmd.sides, cmd.spot, cmd.stalk, cmd.ranged, cmd.terrain)
    surprised = tuple(cmd.surprised) if cmd.surprised is not None else sug.surprised
    distance = cmd.distance_ft if cmd.distance_ft is not None else sug.distance_ft
    names = ", ".join(state.encounter.side(s).name for s in sug.surprised) or "nobody"
    sights = "; ".join(f"{g.name} sees {g.sees_ft} ft (Spot {g.spot})" for g in sug.groups)
    events.append(Event("SurpriseSuggested", f"{sights}. Suggested: start at {sug.distance_ft} ft, "
                                             f"surprised: {names}. {sug.reason}", rule="OGRE-SUR-1"))
    if surprised != sug.surprised or distance != sug.distance_ft:
        chosen = ", ".join(state.encounter.side(s).name for s in surprised) or "nobody"
        events.append(Event("Overridden", f"Referee decides: start at {distance} ft, surprised: {chosen}",
                            rule="CORE-REF-1"))
    penalty = int(state.setting("surprise_penalty", 10))
    fighters = tuple(replace(f, surprised=state.get(f.id).side in surprised) for f in state.board.fighters)
    for f in fighters:
        if f.surprised:
            events.append(Event("Surprised", f"{state.name(f.id)} is surprised: reaction time "
                                             f"+{penalty}", rule="OGRE-SUR-1", target=f.id))
    record = om.Surprise(distance, surprised, sug.distance_ft, sug.surprised, sug.reason)
    state = state.with_board(fighters=fighters, surprise=record)
    return _place_groups(state, cmd.sides, distance, events)


def _place_groups(state: State, sides: tuple[str, ...], distance: int, events: list[Event]) -> State:
    """OGRE-SUR-1: the groups start `distance` ft apart on the grid, facing each other, where there is room."""
    squares = placement(state, sides, distance)
    names = " and ".join(state.encounter.side(s).name for s in sides[:2])
    m = state.encounter.map
    if squares is None:
        events.append(Event("GroupsNotPlaced", f"No room to set {names} {distance} ft apart on the "
                                               f"{m.width}x{m.height} map: the tokens stay where they are",
                            rule="OGRE-SUR-1"))
        return state
    for cid, sq in squares.items():
        state = state.update(cid, square=sq)
    n = max(1, distance // 5)
    events.append(Event("GroupsPlaced", f"{names} start {n * 5} ft apart ({n} square{'s' if n != 1 else ''}), "
                                        f"facing each other; the referee may move any token", rule="OGRE-SUR-1",
                        data={"squares": {cid: list(sq) for cid, sq in squares.items()}}))
    return state


@resolves(RollInitiative)
def _initiative(rs: Any, state: State, cmd: RollInitiative, dice: Dice, events: list[Event]) -> State:
    """OGRE-INIT-1: d10 + reaction time (+ surprise, OGRE-SUR-1); the count starts at 0 (OGRE-SEG-1)."""
    penalty = int(state.setting("surprise_penalty", 10))
    out = []
    for f in state.board.fighters:
        c = state.get(f.id)
        if c.is_down:
            out.append(f)
            continue
        rt = om.reaction_time(state, c) + (penalty if f.surprised else 0)
        roll = dice.roll("d10", f"{c.name}'s initiative", by=c.id)
        init = roll.total + rt
        extra = f" (surprised +{penalty})" if f.surprised else ""
        events.append(Event("InitiativeRolled", f"{c.name}: initiative {roll.describe()} + reaction time "
                                                f"{rt}{extra} = {init}", rule="OGRE-INIT-1", rolls=(roll,),
                            actor=c.id, data={"initiative": init, "reaction": rt}))
        out.append(replace(f, reaction=rt, initiative=init, due=init))
    state = state.with_board(fighters=tuple(out), phase=Phase.FIGHT, segment=0)
    first = next_event(state)
    who = ", ".join(state.name(f.id) for f in out if f.initiative == first)
    events.append(Event("CountStarted", f"Segment 0: everyone is flat-footed; {who or 'nobody'} acts first"
                                        + (f", at segment {first} ({seconds(first)})" if first is not None else ""),
                        rule="OGRE-SEG-1 OGRE-FF-1", data={"first": first}))
    return state


@resolves(Advance)
def _advance(rs: Any, state: State, cmd: Advance, dice: Dice, events: list[Event]) -> State:
    """Count on: to the next segment where something happens, or one segment (the count never goes back)."""
    s: OgreState = state.board
    now = s.segment
    nxt = next_event(state)
    target = now + 1 if cmd.one or nxt is None else nxt
    state = state.with_board(segment=target)
    events.append(Event("SegmentReached", f"Segment {target} ({seconds(target)})", rule="OGRE-SEG-1",
                        data={"segment": target, "from": now}))
    for f in s.fighters:
        if not standing(state, f.id):
            continue
        if f.initiative is not None and now < f.initiative <= target:
            events.append(Event("FlatFootedEnded", f"{state.name(f.id)} is no longer flat-footed and declares",
                                rule="OGRE-FF-1", actor=f.id))
        if f.stunned_until is not None and now < f.stunned_until <= target:
            state = change(state, f.id, stunned_until=None, due=f.stunned_until)
            state = state.with_combatant(state.get(f.id).without_condition("stunned"))
            events.append(Event("StunEnded", f"{state.name(f.id)} recovers from the stun and declares",
                                rule="OGRE-BREAK-1", actor=f.id))
    due = [f for f in state.board.fighters
           if f.action is not None and f.action.resolves == target and standing(state, f.id)]
    due.sort(key=lambda f: (f.action.declared, f.initiative or 0, f.reaction, f.id))
    works = [Work("resolve", f.id, f.action.uid) for f in due]
    if len(works) > 1 and state.setting("simultaneous", "together") == "together":
        works.append(Work("flush", ""))  # OGRE-ACT-1: damage of the segment lands together
    return push(state, *works)


@resolves(Stun)
def _stun(rs: Any, state: State, cmd: Stun, dice: Dice, events: list[Event]) -> State:
    """OGRE-BREAK-1: a stun breaks the action; it declares again on the segment it recovers."""
    until = state.board.segment + cmd.segments
    state = break_action(state, cmd.target, events, "stunned", involuntary=True, due=until)
    state = change(state, cmd.target, stunned_until=until, due=until, delaying=False)
    state = state.with_combatant(state.get(cmd.target).with_condition("stunned"))
    events.append(Event("Stunned", f"{state.name(cmd.target)} is stunned until segment {until}",
                        rule="OGRE-BREAK-1", target=cmd.target))
    return state


@resolves(Delay)
def _delay(rs: Any, state: State, cmd: Delay, dice: Dice, events: list[Event]) -> State:
    """OGRE-DELAY-1: nothing declared now; the waited segments are lost."""
    s: OgreState = state.board
    f = s.fighter(cmd.actor)
    start = f.delay_from if f.delaying and f.delay_from is not None else s.segment
    state = change(state, cmd.actor, delaying=True, delay_from=start, due=cmd.until, delayed_at=s.segment)
    when = f"until segment {cmd.until}" if cmd.until is not None else "and may declare at any later segment"
    events.append(Event("Delayed", f"{state.name(cmd.actor)} delays {when}", rule="OGRE-DELAY-1",
                        actor=cmd.actor, data={"until": cmd.until}))
    return state


@resolves(Break)
def _break(rs: Any, state: State, cmd: Break, dice: Dice, events: list[Event]) -> State:
    return break_action(state, cmd.actor, events, "called off")  # OGRE-BREAK-1


@resolves(React)
def _react(rs: Any, state: State, cmd: React, dice: Dice, events: list[Event]) -> State:
    return react(state, cmd.actor, cmd.category, cmd.what or "a reaction", events)  # OGRE-REACT-1


@resolves(StandingAnswer)
def _standing_answer(rs: Any, state: State, cmd: StandingAnswer, dice: Dice, events: list[Event]) -> State:
    return keep_standing(state, cmd.actor, cmd.use, cmd.scope, events)


def keep_standing(state: State, actor: str, use: str, scope: str, events: list[Event]) -> State:
    """OGRE-AOO-2: the actor's or its side's standing answer to attacks of opportunity ("" asks again)."""
    c = state.get(actor)
    key = actor if scope == "me" else "side:" + c.side
    whom = c.name if scope == "me" else f"{c.name}'s side"
    kept = tuple(k for k in state.board.standing if k[0] != key) + (((key, use),) if use else ())
    what = {"pending": "always uses the pending attack", "decline": "always lets it go"}.get(use, "is asked again")
    events.append(Event("StandingAnswerSet", f"Attacks of opportunity: {whom} {what}", rule="OGRE-AOO-2",
                        actor=actor, data={"use": use, "scope": scope}))
    return state.with_board(standing=kept)


@resolves(Trigger)
def _trigger(rs: Any, state: State, cmd: Trigger, dice: Dice, events: list[Event]) -> State:
    a = state.board.fighter(cmd.actor).action  # OGRE-READY-1: the referee says the trigger happened
    return push(state, Work("fire", cmd.actor, a.uid, other=a.target, cause=a.trigger))


# --- declarations (OGRE-ACT-1) -----------------------------------------------------------------

declared = Handlers("ogre declared action")  # (state, actor, cmd) -> the Action's own fields


@resolves(Attack, Move, Withdraw, Charge, Act, Cast, Ready)
def _declare(rs: Any, state: State, cmd: Command, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.actor)
    base = base_category(cmd)
    tempo = getattr(cmd, "tempo", 0)
    fields = dict(base=base, category=om.shifted(base, tempo), tempo=tempo,
                  modifier=om.tempo_modifier(c, tempo) if tempo else 0)  # OGRE-FAST-1, OGRE-SLOW-1
    fields.update(declared.get(cmd)(state, c, cmd))
    return declare(state, cmd.actor, events, **fields)


@declared(Attack)
def _attack_fields(state: State, c, cmd: Attack) -> dict:
    atk = pick_attack(c, cmd.weapon)
    return dict(kind="attack", label=f"Attack {state.name(cmd.target)} with {atk.name}", target=cmd.target,
                weapon=atk.name)


@declared(Move)
def _move_fields(state: State, c, cmd: Move) -> dict:
    return dict(kind="move", label=MOVES[cmd.kind][0], move=cmd.kind, path=tuple(map(tuple, cmd.path)))


@declared(Withdraw)
def _withdraw_fields(state: State, c, cmd: Withdraw) -> dict:
    return dict(kind="withdraw", label="Withdraw", path=tuple(map(tuple, cmd.path)))


@declared(Charge)
def _charge_fields(state: State, c, cmd: Charge) -> dict:
    atk = pick_attack(c, cmd.weapon, melee_only=True)
    return dict(kind="charge", label=f"Charge {state.name(cmd.target)}", target=cmd.target, weapon=atk.name,
                path=tuple(map(tuple, cmd.path)))


@declared(Act)
def _act_fields(state: State, c, cmd: Act) -> dict:
    m = MENU_BY_KEY[cmd.action]
    return dict(kind="act", label=m.label + (f": {cmd.item}" if cmd.item else ""), act=m.key, item=cmd.item,
                target=cmd.target)


@declared(Cast)
def _cast_fields(state: State, c, cmd: Cast) -> dict:
    on = tuple(dict.fromkeys(cmd.on))  # the ruler and the log name whom it will land on (issue 53, stop 9)
    label = f"Cast {cmd.spell}" + (f" on {', '.join(state.name(t) for t in on)}" if len(on) > 1 else "")
    return dict(kind="cast", label=label, spell=cmd.spell, level=cmd.level, target=on[0] if on else "",
                targets=on, concentration=True)


@declared(Ready)
def _ready_fields(state: State, c, cmd: Ready) -> dict:
    if cmd.action == "counterspell":
        label = f"Ready: counterspell on {state.name(cmd.target)}"
    else:
        on = "charge" if cmd.trigger == "charge" else f"{state.name(cmd.target)} ({cmd.trigger})"
        label = f"Ready: attack on {on}"
    atk = pick_attack(c, cmd.weapon) if cmd.action == "attack" else None
    return dict(kind="ready", label=label, target=cmd.target, trigger=cmd.trigger, inner=cmd.action,
                weapon=atk.name if atk else "")


# --- answers to a prompt ---------------------------------------------------------------------------

@resolves(Opportunity)
def _opportunity(rs: Any, state: State, cmd: Opportunity, dice: Dice, events: list[Event]) -> State:
    """OGRE-AOO-2: the pending attack at once (DEFAULT -2 on another target), a new one as a reaction, or nothing."""
    mover = state.prompt.data["mover"]
    state = replace(state, prompt=None)
    c = state.get(cmd.actor)
    if cmd.always:
        state = keep_standing(state, cmd.actor, cmd.use, cmd.always, events)
    if cmd.use == "decline":
        events.append(Event("OpportunityDeclined", f"{c.name} lets {state.name(mover)} go", rule="OGRE-AOO-2",
                            actor=cmd.actor, target=mover))
        return state
    walk = state.board.work[0] if state.board.work and state.board.work[0].kind == "walk" else None
    if walk is not None:
        state = state.with_board(work=(replace(walk, struck=walk.struck + (cmd.actor,)),) + state.board.work[1:])
    events.append(Event("OpportunityTaken", f"{c.name} takes an attack of opportunity on {state.name(mover)}",
                        rule="OGRE-AOO-1", actor=cmd.actor, target=mover, data={"use": cmd.use}))
    if cmd.use == "pending":
        a = state.board.fighter(cmd.actor).action
        change_target = int(state.setting("change_target_penalty", 2)) if a.target != mover else 0
        atk = pick_attack(c, a.weapon)
        state = attack_roll(rs, state, cmd.actor, mover, atk, a.check_bonus - change_target, events, dice,
                            why="pending attack, now" + (f" (new target -{change_target})" if change_target else ""),
                            rule="OGRE-AOO-2")
        return end_action(state, cmd.actor, events, "resolved", rule="OGRE-AOO-2")
    atk = pick_attack(c, cmd.weapon, melee_only=True)
    category = "Short" if cmd.fast else "Standard"
    bonus = om.tempo_modifier(c, -1) if cmd.fast else 0
    state = attack_roll(rs, state, cmd.actor, mover, atk, bonus, events, dice,
                        why="attack of opportunity" + (" (fast)" if cmd.fast else ""), rule="OGRE-AOO-2")
    if standing(state, cmd.actor):
        state = react(state, cmd.actor, category, f"attack of opportunity on {state.name(mover)}", events,
                      rule="OGRE-AOO-2 OGRE-REACT-1")
    return state


@resolves(Follow)
def _follow(rs: Any, state: State, cmd: Follow, dice: Dice, events: list[Event]) -> State:
    target = state.prompt.data["target"]
    state = replace(state, prompt=None)
    if not cmd.kind:
        events.append(Event("FollowDeclined", f"{state.name(cmd.actor)} stays put", rule="OGRE-FOLLOW-1",
                            actor=cmd.actor))
        return state
    label, category = FOLLOWS[cmd.kind]
    state = react(state, cmd.actor, category, f"{label} {state.name(target)}", events,
                  rule="OGRE-FOLLOW-1 OGRE-REACT-1")
    path = tuple(map(tuple, cmd.path))
    # OGRE-FOLLOW-1: nothing provoked between follower and target; others still strike.
    stops = provocation_stops(state, cmd.actor, path, exempt=(target,))
    return push(state, Work("walk", cmd.actor, 0, path=path, stops=stops, cause="follow"))


@resolves(Strike)
def _strike(rs: Any, state: State, cmd: Strike, dice: Dice, events: list[Event]) -> State:
    """OGRE-READY-1: the readied attack strikes now, or waits for the next trigger."""
    data = state.prompt.data
    state = replace(state, prompt=None)
    if cmd.strike:
        return fire_readied(rs, state, cmd.actor, data["target"], data["cause"], events, dice)
    events.append(Event("ReadyHeld", f"{state.name(cmd.actor)} holds the readied attack: it waits for the next "
                                     f"trigger (OGRE-READY-1)", rule="OGRE-READY-1", actor=cmd.actor,
                        target=data["target"]))
    return state


@resolves(Counter)
def _counter(rs: Any, state: State, cmd: Counter, dice: Dice, events: list[Event]) -> State:
    caster = state.prompt.data["caster"]
    state = replace(state, prompt=None)
    if cmd.counter:  # OGRE-READY-1: the counterspell breaks the caster's spell
        state = break_action(state, caster, events, f"countered by {state.name(cmd.actor)}", involuntary=True)
    else:
        events.append(Event("CounterDeclined", f"{state.name(cmd.actor)} cannot cast that spell",
                            rule="OGRE-READY-1", actor=cmd.actor))
    return end_action(state, cmd.actor, events, "fired", rule="OGRE-READY-1")
