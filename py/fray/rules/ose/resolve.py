"""What each OSE command does: the `resolves` table, one function a command, each returning the new state.

A function takes (ruleset, state, command, dice, events), appends the facts
(events, past tense) and returns the new state; the ruleset's `settle` then
drops broken holds and lets the round move on (`round.settle`). Called only for commands
that `check.py` allowed, or that the referee allowed anyway (CORE-REF-1).
"""
from __future__ import annotations

from dataclasses import replace

from ...engine.commands import Command, Event, Illegal
from ...engine.dice import Dice
from ...engine.referee_effects import cast_effect
from ...engine.tables import Handlers
from ...engine.state import State
from .action_checks import manip_cost
from .check import charge_plan
from .combat import (ammo_die, break_turning, deal_damage, draw_needs_two, is_shield, shot_manipulations, splinter,
                     strike)
from .commands import (Attack, CancelSpell, Charge, CheckMorale, CompleteSpell, Declare, DisruptSpell, Done, EndStep, Flee,
                       Grapple, Manipulate, MoraleResult, Move, Narrate, Opportunity, Release, RestoreMemory,
                       RollInitiative,
                       RollResource, Splinter, Surprise, TurnUndead, Withdraw)
from .grapple import drop_broken_holds, release, resolve_grapple
from .movement import answer_opportunity, run_move, start_move
from .round import call_morale, end_side, end_step, lose_spell, mark_done, prompt_morale, roll_initiative
from .round import settle as settle_round
from .state import (FLED, STEP_NAMES, SURRENDERED, MoraleTrack, acting_side, current_step, econ_of, is_detailed, is_out,
                    memorised_at_start, memory_entry, opt, spells_of, with_econ)
from .turn_undead import resolve_turn

resolves = Handlers("ose resolve")


def settle(rs, state: State, cmd: Command, dice: Dice, events: list[Event]) -> State:
    """After any command: broken holds drop, then the round moves on (steps, spells lapsing, morale)."""
    return settle_round(drop_broken_holds(state, events), dice, events)


# --- before initiative (OSE-SUR-1..2, OSE-DECL-1, OSE-INIT-1) -------------------------------------

@resolves(Surprise)
def _surprise(rs, state: State, cmd: Surprise, dice: Dice, events: list[Event]) -> State:
    """OSE-SUR-1 (REF); OSE-SUR-2: a surprised side's spell declarations are withdrawn."""
    surprised = set(state.board.surprised)
    (surprised.add if cmd.on else surprised.discard)(cmd.side)
    sname = state.encounter.side(cmd.side).name
    events.append(Event("SurpriseMarked", f"{sname} {'is' if cmd.on else 'is not'} surprised (OSE-SUR-1)",
                        rule="OSE-SUR-1"))
    declared = dict(state.board.declared)
    if cmd.on:
        for cid, (action, spell) in list(declared.items()):
            if action == "spell" and state.get(cid).side == cmd.side:
                del declared[cid]
                events.append(Event("Undeclared", f"{state.name(cid)} cannot cast {spell}: surprised (OSE-SUR-2)",
                                    rule="OSE-SUR-2", actor=cid))
    return state.with_board(surprised=frozenset(surprised), declared=declared)


@resolves(Declare)
def _declare(rs, state: State, cmd: Declare, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.actor)
    declared = dict(state.board.declared)
    if cmd.action == "none":
        declared.pop(c.id, None)
        events.append(Event("Undeclared", f"{c.name} declares nothing before initiative", rule="OSE-DECL-1",
                            actor=c.id))
    else:
        spell = memory_entry(spells_of(c), cmd.spell) if cmd.action == "spell" else cmd.spell  # by its name too
        declared[c.id] = (cmd.action, spell)
        what = (f"to cast {spell}" if cmd.action == "spell"
                else {"full_defense": "Full Defense", "brace": "Brace"}[cmd.action])
        events.append(Event("Declared", f"{c.name} declares {what}", rule="OSE-DECL-1", actor=c.id))
    return state.with_board(declared=declared)


@resolves(RollInitiative)
def _initiative(rs, state: State, cmd: RollInitiative, dice: Dice, events: list[Event]) -> State:
    return roll_initiative(state, dice, events)


# --- the turn ----------------------------------------------------------------------------------------

@resolves(Done)
def _done(rs, state: State, cmd: Done, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.actor)
    if c.id in state.board.casting and (not is_detailed(state) or current_step(state) == "magic"):
        spell = state.board.casting[c.id]
        state = state.with_board(casting={k: v for k, v in state.board.casting.items() if k != c.id})
        events.append(Event("SpellLapsed", f"{c.name} lets {spell} lapse: it is lost (OSE-SPELL-2)",
                            rule="OSE-SPELL-2", actor=c.id))
    step = f" with the {STEP_NAMES.get(current_step(state), '')} step" if is_detailed(state) else ""
    events.append(Event("ActorFinished", f"{c.name} is done{step}", actor=c.id))
    return mark_done(state, c.id)


@resolves(EndStep)
def _end_step(rs, state: State, cmd: EndStep, dice: Dice, events: list[Event]) -> State:
    if cmd.auto:
        events.append(Event("StepSkipped", f"{state.encounter.side(acting_side(state)).name}: MOVE step ended, "
                                           "everyone is engaged in melee", rule="OSE-ORDER-1"))
    if is_detailed(state):
        return end_step(state, dice, events)
    return end_side(state, dice, events)


@resolves(Narrate)
def _narrate(rs, state: State, cmd: Narrate, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.actor)
    if cmd.uses == "full":
        state = with_econ(state, c.id, full="other")
    elif cmd.uses in ("main", "move"):
        state = with_econ(state, c.id, **{cmd.uses: "other"})
    kind = {"main": "Main", "move": "Move", "full": "Full Round", "free": "free"}[cmd.uses]
    events.append(Event("Narrated", f"{c.name}: {cmd.text or 'another action'} ({kind} action)",
                        rule="OSE-ECON-1" if is_detailed(state) else "OSE-LOOSE-1", actor=c.id))
    if not is_detailed(state) and cmd.uses != "free":
        state = mark_done(state, c.id)
    return state


# --- moving (OSE-MOVE-1, OSE-WD-1, OSE-FLEE-1, OSE-CHARGE-1) ----------------------------------------

@resolves(Move)
def _move(rs, state: State, cmd: Move, dice: Dice, events: list[Event]) -> State:
    return start_move(rs, state, dice, events, cmd.actor, cmd.path, "move")


@resolves(Withdraw)
def _withdraw(rs, state: State, cmd: Withdraw, dice: Dice, events: list[Event]) -> State:
    state = with_econ(state, cmd.actor, main="withdraw")
    state = state.with_board(withdrawing=state.board.withdrawing | {cmd.actor})
    return start_move(rs, state, dice, events, cmd.actor, cmd.path, "withdraw")


@resolves(Flee)
def _flee(rs, state: State, cmd: Flee, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.actor)
    if is_detailed(state) and c.square is not None:
        sq = tuple(c.square)
        return start_move(rs, state, dice, events, c.id, (sq, sq), "flee")
    events.append(Event("Fled", f"{c.name} flees the fight: the referee takes control (OSE-FLEE-1)",
                        rule="OSE-FLEE-1", actor=c.id))
    return state.update(c.id, square=None, conditions=c.with_condition(FLED).conditions)


@resolves(Charge)
def _charge(rs, state: State, cmd: Charge, dice: Dice, events: list[Event]) -> State:
    plan = charge_plan(state, state.get(cmd.actor), cmd.weapon)
    if isinstance(plan, Illegal):
        raise ValueError(plan.detail)
    target, path = plan
    path = cmd.path or path  # OSE-CHARGE-1: the squares the referee chose, checked like a move
    state = with_econ(state, cmd.actor, full="charge")
    return start_move(rs, state, dice, events, cmd.actor, tuple(tuple(p) for p in path), "charge",
                      target=target, weapon=cmd.weapon)


# --- fighting (OSE-ATK-1, OSE-RANGED-*, OSE-SSBS-1, OSE-GRAP-1) ----------------------------------

@resolves(Attack)
def _attack(rs, state: State, cmd: Attack, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.actor)
    atk = c.weapon(cmd.weapon)
    if c.id in state.board.casting:
        # OSE-SPELL-3: attacking ends the casting (strike logs the spell lost); the round is its own again.
        state = with_econ(state, c.id, full="")
    e = econ_of(state, c.id)
    if is_detailed(state):
        n = shot_manipulations(c, atk)
        if atk.kind == "crossbow":
            state = with_econ(state, c.id, full="crossbow", manips=e.manips + n)  # OSE-RANGED-3
        else:
            changes = {"main": "attack", "manips": e.manips + n}
            if n and e.manips >= 1:
                changes["move"] = "manipulation"  # OSE-RANGED-2 with OSE-MANIP-1
            state = with_econ(state, c.id, **changes)
    if atk.kind == "thrown" and atk.item:
        # OSE-RANGED-5: the weapon leaves the hand (drawn first if it was not in hand).
        if c.holds(atk.item):
            hands = list(c.hands)
            hands[hands.index(atk.item)] = ""
            state = state.update(c.id, hands=tuple(hands))
        else:
            inv = list(c.inventory)
            inv.remove(atk.item)
            state = state.update(c.id, inventory=tuple(inv))
    state = strike(rs, state, dice, events, c.id, cmd.target, atk.name, edge=cmd.edge).state
    return state if is_detailed(state) else mark_done(state, c.id)


@resolves(Splinter)
def _splinter(rs, state: State, cmd: Splinter, dice: Dice, events: list[Event]) -> State:
    p = state.board.pending_hit
    state = replace(state, prompt=None).with_board(pending_hit=None)
    state = splinter(state, events, p) if cmd.splinter else deal_damage(rs, state, dice, events, p)
    mp = state.board.pending_move
    if mp is not None:
        state = run_move(rs, state, dice, events, mp)
    return state


@resolves(Opportunity)
def _opportunity(rs, state: State, cmd: Opportunity, dice: Dice, events: list[Event]) -> State:
    return answer_opportunity(rs, state, dice, events, cmd.answer, cmd.weapon)


@resolves(Grapple)
def _grapple(rs, state: State, cmd: Grapple, dice: Dice, events: list[Event]) -> State:
    state = with_econ(state, cmd.actor, main="grapple")
    state = resolve_grapple(state, dice, events, cmd.actor, cmd.target, cmd.intent)
    return state if is_detailed(state) else mark_done(state, cmd.actor)


@resolves(Release)
def _release(rs, state: State, cmd: Release, dice: Dice, events: list[Event]) -> State:
    return release(state, events, cmd.actor, cmd.target)


# --- magic (OSE-SPELL-1..4, OSE-TURN-1..4) ---------------------------------------------------------

@resolves(CompleteSpell)
def _complete(rs, state: State, cmd: CompleteSpell, dice: Dice, events: list[Event]) -> State:
    """OSE-SPELL-2: the spell takes effect (narrated); a concentration spell goes on (OSE-SPELL-3)."""
    c = state.get(cmd.actor)
    spell = state.board.casting[c.id]
    state = state.with_board(casting={k: v for k, v in state.board.casting.items() if k != c.id})
    if cmd.concentration:
        state = state.with_board(concentrating={**state.board.concentrating, c.id: spell})
    on = f" on {', '.join(state.name(t) for t in cmd.targets)}" if cmd.targets else ""
    note = f": {cmd.note}" if cmd.note else ""
    events.append(Event("SpellCast", f"{c.name} completes {spell}{on}{note} (OSE-SPELL-2)",
                        rule="OSE-SPELL-2", actor=c.id, data={"spell": spell, "targets": list(cmd.targets)}))
    for t in cmd.targets:
        if state.has(t):
            state = break_turning(state, t, events)
    state = cast_effect(rs, state, tuple(t for t in cmd.targets if state.has(t)), spell, dice, events)
    return mark_done(state, c.id) if state.has(c.id) else state


@resolves(CancelSpell)
def _cancel(rs, state: State, cmd: CancelSpell, dice: Dice, events: list[Event]) -> State:
    c = state.get(cmd.actor)
    spell = state.board.casting[c.id]
    state = state.with_board(casting={k: v for k, v in state.board.casting.items() if k != c.id})
    state = with_econ(state, c.id, full="")
    events.append(Event("SpellCancelled", f"{c.name} cancels {spell}: the slot is still lost and {spell} is out of "
                                          f"memory (OSE-SPELL-5); {c.name} may act "
                                          f"otherwise (OSE-SPELL-2)", rule="OSE-SPELL-2", actor=c.id))
    return state


@resolves(RestoreMemory)
def _restore(rs, state: State, cmd: RestoreMemory, dice: Dice, events: list[Event]) -> State:
    """OSE-SPELL-5 (REF): the spells the combatant was set up with are back in memory."""
    c = state.get(cmd.target)
    start = memorised_at_start(state, c.id)
    state = state.update(c.id, stats={**c.stats, "spells": start})
    events.append(Event("MemoryRestored", f"{c.name}'s memory is restored: {', '.join(start)} (OSE-SPELL-5)",
                        rule="OSE-SPELL-5", target=c.id, data={"spells": list(start)}))
    return state


@resolves(DisruptSpell)
def _disrupt(rs, state: State, cmd: DisruptSpell, dice: Dice, events: list[Event]) -> State:
    return lose_spell(state, events, cmd.target, cmd.reason or "disrupted (referee's ruling)")


@resolves(TurnUndead)
def _turn(rs, state: State, cmd: TurnUndead, dice: Dice, events: list[Event]) -> State:
    state = resolve_turn(state, dice, events, cmd.actor, cmd.group)
    return state if is_detailed(state) else mark_done(state, cmd.actor)


# --- morale (OSE-MORALE-1) ---------------------------------------------------------------------

@resolves(CheckMorale)
def _call_morale(rs, state: State, cmd: CheckMorale, dice: Dice, events: list[Event]) -> State:
    return call_morale(state, dice, events, cmd.side)


@resolves(MoraleResult)
def _morale(rs, state: State, cmd: MoraleResult, dice: Dice, events: list[Event]) -> State:
    """REF: the referee's answer for a side that failed its morale check."""
    side, result = cmd.side, cmd.result
    tracks = dict(state.board.morale)
    tracks[side] = replace(tracks.get(side) or MoraleTrack(), result=result)
    state = state.with_board(morale=tracks, morale_queue=state.board.morale_queue[1:])
    sname = state.encounter.side(side).name
    if result in ("flee", "surrender"):
        cond = FLED if result == "flee" else SURRENDERED
        for c in state.on_side(side):
            if not is_out(c):
                changes = {"conditions": c.with_condition(cond).conditions}
                if result == "flee":
                    changes["square"] = None
                state = state.update(c.id, **changes)
    word = {"flee": "flees", "surrender": "surrenders", "fight on": "fights on (referee's ruling)"}[result]
    events.append(Event("MoraleDecided", f"{sname} {word} (OSE-MORALE-1)", rule="OSE-MORALE-1"))
    return prompt_morale(replace(state, prompt=None))


# --- items (OSE-MANIP-1, OSE-RES-1) ---------------------------------------------------------------

@resolves(Manipulate)
def _manipulate(rs, state: State, cmd: Manipulate, dice: Dice, events: list[Event]) -> State:
    c, action, item, note = state.get(cmd.actor), cmd.action, cmd.item, cmd.note
    cost = manip_cost(state, c, action, item) if is_detailed(state) else "free"
    if not isinstance(cost, str):
        cost = "free"  # allowed by the referee (CORE-REF-1)
    e = econ_of(state, c.id)
    hands = list(c.hands)
    inv = list(c.inventory)
    if action == "draw":
        slots = [i for i, h in enumerate(hands) if not h][: 2 if draw_needs_two(c, item) else 1]
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


def resource_chain(state: State) -> list[str]:
    """The usage die chain, largest first (OSE-RES-1 DEFAULT: d20 down to d4)."""
    return [x.strip().lower() for x in str(opt(state, "resource_dice")).split(",") if x.strip()]


@resolves(RollResource)
def _resource(rs, state: State, cmd: RollResource, dice: Dice, events: list[Event]) -> State:
    """OSE-RES-1: roll the usage die; at most `resource_drop` steps it down the chain, past the last is used up."""
    c, item = state.get(cmd.target), cmd.item
    die = ammo_die(state, c, item)
    chain = resource_chain(state)
    roll = dice.roll(die, f"{c.name} {item} usage die", by=c.id)
    drop = roll.total <= int(opt(state, "resource_drop"))
    new = die
    if drop:
        i = chain.index(die) if die in chain else len(chain) - 1
        new = chain[i + 1] if i + 1 < len(chain) else "out"
    text = (f"{c.name}'s {item}: {roll.describe()}: " +
            (f"down to {new}" if drop and new != "out" else "used up" if drop else f"stays {die}") + " (OSE-RES-1)")
    events.append(Event("ResourceRolled", text, rule="OSE-RES-1", rolls=(roll,), target=c.id,
                        data={"die": new}))
    return state.with_board(ammo={**state.board.ammo, f"{c.id}:{item}": new})
