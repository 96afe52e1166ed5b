"""The OSE round: surprise, declarations, side initiative, the acting side's steps, spells, morale, usage dice.

OSE-SEQ-1: declare → initiative → sides act in order (detailed: Move, Missile,
Magic, Melee) → morale → next round. `settle` moves the round forward after
every command, skipping steps in which nobody of the acting side can act.
"""
from __future__ import annotations

from dataclasses import replace

from ..engine.commands import Event, Illegal
from ..engine.dice import Dice
from ..engine.geometry import chebyshev, ranged_blocked_by
from ..engine.model import Combatant
from ..engine.state import Prompt, State
from .ose_base import (FLED, STEP_NAMES, STEPS, SURRENDERED, Econ, MoraleTrack, acting_side, can_act,
                       current_step, econ_of, is_detailed, is_out, is_turned, opt, with_econ)
from .ose_combat import check_weapon, held_attack, usable_melee, weapon_reach
from .ose_move import bodies, move_left
from .ose_turn import check_turn, expire_turning, undead_groups

MAX_REROLLS = 50


# --- declarations (OSE-DECL-1, OSE-SUR-2) -----------------------------------------------------

def spells_of(c: Combatant) -> tuple[str, ...]:
    return tuple(c.stat("spells", ()) or ())


def check_declare(state: State, c: Combatant, action: str, spell: str) -> Illegal | None:
    if action == "none":
        return None
    if action == "spell":
        if not spells_of(c):
            return Illegal("NO_SPELLS", f"{c.name} has no spells prepared (OSE-DECL-1)")
        if not spell:
            return Illegal("NO_SPELL_NAMED", f"Name the spell {c.name} casts: it is declared by name "
                                             "before initiative (OSE-DECL-1)")
        if spell not in spells_of(c):
            return Illegal("UNKNOWN_SPELL", f"{c.name} has no spell {spell!r} prepared (OSE-DECL-1)")
        if int(c.stat("slots", 0) or 0) < 1:
            return Illegal("NO_SLOTS", f"{c.name} has no spell slot left (OSE-SPELL-1)")
        if state.round == 1 and c.side in state.system.surprised:
            return Illegal("SURPRISED", f"{c.name}'s side is surprised: no spells this round (OSE-SUR-2)")
        if c.has_condition("grappled"):
            return Illegal("GRAPPLED_NO_SPELLS", f"{c.name} is grappled: no spells (OSE-COND-1)")
        return None
    if action in ("full_defense", "brace"):
        word = "Full Defense" if action == "full_defense" else "Brace"
        if not is_detailed(state):
            return Illegal("DETAILED_ONLY", f"{word} is only meaningful in the detailed rules (OSE-DECL-1, "
                                            f"OSE-LOOSE-1)")
        if action == "brace" and not held_attack(c, "brace"):
            return Illegal("NO_BRACE_WEAPON", f"{c.name} holds no weapon with the Brace quality (OSE-BRACE-1)")
        return None
    return Illegal("BAD_DECLARATION", f"{action!r} is not a declaration (spell, full_defense, brace, none)")


def declare(state: State, events: list[Event], c: Combatant, action: str, spell: str) -> State:
    declared = dict(state.system.declared)
    if action == "none":
        declared.pop(c.id, None)
        events.append(Event("Undeclared", f"{c.name} declares nothing before initiative", rule="OSE-DECL-1",
                            actor=c.id))
    else:
        declared[c.id] = (action, spell)
        what = f"to cast {spell}" if action == "spell" else {"full_defense": "Full Defense", "brace": "Brace"}[action]
        events.append(Event("Declared", f"{c.name} declares {what}", rule="OSE-DECL-1", actor=c.id))
    return state.with_system(declared=declared)


def mark_surprise(state: State, events: list[Event], side: str, on: bool) -> State:
    """OSE-SUR-1 (REF); OSE-SUR-2: a surprised side's spell declarations are withdrawn."""
    surprised = set(state.system.surprised)
    (surprised.add if on else surprised.discard)(side)
    sname = state.encounter.side(side).name
    events.append(Event("Surprise", f"{sname} {'is' if on else 'is not'} surprised (OSE-SUR-1)", rule="OSE-SUR-1"))
    declared = dict(state.system.declared)
    if on:
        for cid, (action, spell) in list(declared.items()):
            if action == "spell" and state.get(cid).side == side:
                del declared[cid]
                events.append(Event("Undeclared", f"{state.name(cid)} cannot cast {spell}: surprised (OSE-SUR-2)",
                                    rule="OSE-SUR-2", actor=cid))
    return state.with_system(surprised=frozenset(surprised), declared=declared)


# --- initiative (OSE-INIT-1..2) ---------------------------------------------------------------

def active_sides(state: State) -> list[str]:
    present = {c.side for c in state.combatants if not is_out(c)}
    return [s.id for s in state.encounter.sides if s.id in present]


def roll_initiative(state: State, dice: Dice, events: list[Event]) -> State:
    """Lock declarations, roll (or apply surprise), start every declared action, begin the first side."""
    s = state.system
    sides = active_sides(state)
    if state.round == 1 and s.surprised and any(x not in s.surprised for x in sides):
        # OSE-SUR-1: the surprising side acts first; no initiative dice.
        order = tuple([x for x in sides if x not in s.surprised] + [x for x in sides if x in s.surprised])
        init: dict[str, tuple[int, ...]] = {}
        names = ", ".join(state.encounter.side(x).name for x in order)
        events.append(Event("Surprise", f"Surprise round: no initiative rolled; order {names} (OSE-SUR-1)",
                            rule="OSE-SUR-1"))
    else:
        order, init = _roll_order(state, dice, events, sides)
    state = state.with_system(phase="act", order=order, initiative=init, turn=0, step=0, done=frozenset(),
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
                r = dice.roll("1d12", f"{state.encounter.side(side).name} initiative")
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
        events.append(Event("InitiativeOrder", "Acting order: " + ", ".join(state.encounter.side(x).name
                                                                              for x in order), rule="OSE-INIT-1"))
    return order, {x: tuple(v) for x, v in rolls.items()}


def _start_declared(state: State, events: list[Event]) -> State:
    """OSE-SPELL-1: casting starts now and the slot is spent; Full Defense and Brace take the round."""
    s = state.system
    casting, fd, bracing, econ = dict(s.casting), dict(s.full_defense), set(), {}
    for cid, (action, spell) in s.declared.items():
        c = state.find(cid)
        if c is None or not can_act(c):
            continue
        if action == "spell":
            slots = int(c.stat("slots", 0) or 0)
            state = state.update(cid, stats={**c.stats, "slots": max(0, slots - 1)})
            casting[cid] = spell
            econ[cid] = Econ(full="spell")
            events.append(Event("CastingBegun", f"{c.name} begins casting {spell}; the slot is spent ({slots - 1} "
                                                f"left) and a hit before it completes breaks it (OSE-SPELL-1)",
                                rule="OSE-SPELL-1", actor=cid))
        elif action == "full_defense":
            fd[cid] = state.round
            econ[cid] = Econ(full="full_defense")
        elif action == "brace":
            bracing.add(cid)
            econ[cid] = Econ(full="brace")
    state = state.with_system(casting=casting, full_defense=fd, bracing=frozenset(bracing), econ=econ)
    return begin_side(state, events)


# --- the acting side --------------------------------------------------------------------------

def begin_side(state: State, events: list[Event]) -> State:
    side = acting_side(state)
    if not side:
        return state
    # OSE-FD-1: a Full Defense from an earlier round ends just before the actor acts again.
    fd = {cid: r for cid, r in state.system.full_defense.items()
          if r >= state.round or state.get(cid).side != side}
    state = state.with_system(full_defense=fd, step=0, done=frozenset())
    init = state.system.initiative.get(side)
    d12 = ""
    if init:
        d12 = f" (d12: {init[0]}" + ("".join(f", tie re-roll {r}" for r in init[1:])) + ")"
    events.append(Event("SideActs", f"Now acting: {state.encounter.side(side).name}{d12}", rule="OSE-SEQ-1"))
    return state


def members(state: State, side: str) -> list[Combatant]:
    return [c for c in state.combatants if c.side == side and can_act(c)]


def is_active(state: State, c: Combatant) -> bool:
    """Still to act in the current step (detailed) or turn (loose)."""
    if not can_act(c) or c.side != acting_side(state):
        return False
    if not is_detailed(state):
        return not econ_of(state, c.id).acted
    if c.id in state.system.done:
        return False
    return has_step_action(state, c, current_step(state))


def has_step_action(state: State, c: Combatant, step: str) -> bool:
    """Whether the actor could do anything of this step (OSE-ORDER-1); else it is skipped."""
    e = econ_of(state, c.id)
    if c.id in state.system.casting:
        # OSE-SPELL-2: a caster may cancel and act otherwise, so it keeps its chance in each step.
        if step == "missile":
            return any(a.is_ranged for a in c.attacks)
        return step in ("move", "magic") and (step == "magic" or c.square is not None)
    if step == "move":
        if c.square is None:
            return False
        return move_left(state, c) > 0 or not e.full
    if step == "magic":
        if c.stat("warpriest", False):
            return any(check_turn(state, c, g) is None for g in undead_groups(state, c))
        return False
    if e.full or c.id in state.system.casting or e.main or is_turned(state, c.id):
        return False
    if step == "missile":
        bs = None
        for a in c.attacks:
            if a.is_ranged and check_weapon(state, c, a, a.name) is None:
                if bs is None:
                    bs = bodies(state)
                me = next((b for b in bs if b.id == c.id), None)
                return me is not None and not ranged_blocked_by(me, bs, lambda x, y: state.hostile(x, y))
        return False
    if step == "melee":
        if c.has_condition("grappled"):
            return True
        melee = usable_melee(c)
        if not melee or c.square is None:
            return False
        reach = max(weapon_reach(c, a) for a in melee)
        return any(not is_out(o) and o.square is not None and state.hostile(c, o)
                   and chebyshev(c.square, o.square) <= reach for o in state.combatants)
    return False


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
    for cid in [x for x in state.system.casting if is_out(state.get(x))]:
        state = lose_spell(state, events, cid, "the caster is out of the fight")
    for _ in range(64):
        if state.system.phase != "act" or state.prompt is not None or state.system.pending_move is not None:
            return state
        if outcome_text(state):
            return state
        if active_actors(state):
            return state
        state = end_step(state, dice, events)
    return state


def end_step(state: State, dice: Dice, events: list[Event]) -> State:
    side = acting_side(state)
    if is_detailed(state) and state.system.step < len(STEPS) - 1:
        if STEPS[state.system.step] == "magic":
            state = lapse_spells(state, events, side)
        state = state.with_system(step=state.system.step + 1, done=frozenset())
        if active_actors(state):
            events.append(Event("StepBegan", f"{state.encounter.side(side).name}: "
                                             f"{STEP_NAMES[current_step(state)]} step", rule="OSE-ORDER-1"))
        return state
    return end_side(state, dice, events)


def end_side(state: State, dice: Dice, events: list[Event]) -> State:
    state = lapse_spells(state, events, acting_side(state))
    state = state.with_system(turn=state.system.turn + 1, step=0, done=frozenset())
    if state.system.turn >= len(state.system.order):
        return end_round(state, dice, events)
    return begin_side(state, events)


def mark_done(state: State, cid: str) -> State:
    if is_detailed(state):
        return state.with_system(done=state.system.done | {cid})
    return with_econ(state, cid, acted=True)


# --- spells (OSE-SPELL-1..4) --------------------------------------------------------------------

def lapse_spells(state: State, events: list[Event], side: str) -> State:
    """A spell not completed by the end of its caster's chance is lost (slot already spent)."""
    casting = dict(state.system.casting)
    for cid, spell in list(casting.items()):
        if state.get(cid).side == side:
            del casting[cid]
            events.append(Event("SpellLapsed", f"{state.name(cid)} did not complete {spell}: it is lost "
                                               f"(OSE-SPELL-2)", rule="OSE-SPELL-2", actor=cid))
    return state.with_system(casting=casting) if len(casting) != len(state.system.casting) else state


def lose_spell(state: State, events: list[Event], cid: str, why: str) -> State:
    """OSE-SPELL-3: the spell being cast, and any concentration, is lost."""
    s = state.system
    if cid in s.casting:
        spell = s.casting[cid]
        casting = {k: v for k, v in s.casting.items() if k != cid}
        state = state.with_system(casting=casting)
        events.append(Event("SpellLost", f"{state.name(cid)} loses {spell}: {why} (OSE-SPELL-3)",
                            rule="OSE-SPELL-3", target=cid))
    if cid in s.concentrating:
        spell = s.concentrating[cid]
        state = state.with_system(concentrating={k: v for k, v in s.concentrating.items() if k != cid})
        events.append(Event("ConcentrationEnded", f"{state.name(cid)}'s {spell} ends: {why} (OSE-SPELL-3)",
                            rule="OSE-SPELL-3", target=cid))
    return state


def complete_spell(state: State, events: list[Event], c: Combatant, targets: tuple[str, ...], note: str,
                   concentration: bool) -> State:
    from .ose_combat import break_turning
    spell = state.system.casting[c.id]
    casting = {k: v for k, v in state.system.casting.items() if k != c.id}
    state = state.with_system(casting=casting)
    if concentration:
        state = state.with_system(concentrating={**state.system.concentrating, c.id: spell})
    on = f" on {', '.join(state.name(t) for t in targets)}" if targets else ""
    events.append(Event("SpellCast", f"{c.name} completes {spell}{on}{': ' + note if note else ''} (OSE-SPELL-2)",
                        rule="OSE-SPELL-2", actor=c.id, data={"spell": spell, "targets": list(targets)}))
    for t in targets:
        if state.has(t):
            state = break_turning(state, t, events)
    return mark_done(state, c.id)


def cancel_spell(state: State, events: list[Event], c: Combatant) -> State:
    spell = state.system.casting[c.id]
    casting = {k: v for k, v in state.system.casting.items() if k != c.id}
    state = state.with_system(casting=casting)
    state = with_econ(state, c.id, full="")
    events.append(Event("SpellCancelled", f"{c.name} cancels {spell}: the slot is still lost; {c.name} may act "
                                          f"otherwise (OSE-SPELL-2)", rule="OSE-SPELL-2", actor=c.id))
    return state


def disruption_advice(state: State, c: Combatant) -> str:
    """The engine's suggestion at the REF point of OSE-SPELL-3."""
    if c.has_condition("grappled"):
        return f"Suggested: lose it — {c.name} is grappled"
    return "Suggested: keep it, unless violent motion or silence interferes"


# --- morale (OSE-MORALE-1) ---------------------------------------------------------------------

def end_round(state: State, dice: Dice, events: list[Event]) -> State:
    """Morale for each side subject to it whose trigger happened, then the next round's declarations."""
    queue = []
    tracks = dict(state.system.morale)
    for side in state.encounter.sides:
        if side.morale is None:
            continue
        t = tracks.get(side.id) or MoraleTrack()
        if t.result or t.passes >= 2:
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
        if not why:
            tracks[side.id] = t
            continue
        roll = dice.roll("2d6", f"{side.name} morale")
        ok = roll.total <= side.morale
        if ok:
            t = replace(t, passes=t.passes + 1)
            more = "; two checks passed: it fights to the end" if t.passes >= 2 else ""
            events.append(Event("MoralePassed", f"{side.name} holds ({' and '.join(why)}): {roll.describe()} vs "
                                                f"morale {side.morale}{more} (OSE-MORALE-1)", rule="OSE-MORALE-1",
                                rolls=(roll,)))
        else:
            queue.append(side.id)
            events.append(Event("MoraleFailed", f"{side.name} breaks ({' and '.join(why)}): {roll.describe()} vs "
                                                f"morale {side.morale}: it flees or surrenders (OSE-MORALE-1)",
                                rule="OSE-MORALE-1", rolls=(roll,)))
        tracks[side.id] = t
    state = state.with_system(morale=tracks, morale_queue=tuple(queue))
    state = replace(state, round=state.round + 1)
    state = state.with_system(phase="declare", declared={}, order=(), turn=0, step=0, done=frozenset(),
                              econ={}, casting={}, bracing=frozenset(), withdrawing=frozenset(),
                              surprised=frozenset())
    events.append(Event("RoundBegan", f"Round {state.round}: declare pre-initiative actions", rule="OSE-SEQ-1"))
    return prompt_morale(state)


def prompt_morale(state: State) -> State:
    """REF: the referee says whether a broken side flees or surrenders (suggestion: flee, unless dark)."""
    if not state.system.morale_queue:
        return replace(state, prompt=None) if state.prompt and state.prompt.kind == "morale" else state
    side = state.system.morale_queue[0]
    who = next((c for c in state.on_side(side) if not is_out(c)), None)
    if who is None:
        state = state.with_system(morale_queue=state.system.morale_queue[1:])
        return prompt_morale(state)
    suggest = "surrender" if bool(opt(state, "dark")) else "flee"
    sname = state.encounter.side(side).name
    return replace(state, prompt=Prompt(who.id, f"{sname} failed morale: flee or surrender? (OSE-MORALE-1)",
                                        rule="OSE-MORALE-1", kind="morale", data={"side": side, "suggest": suggest}))


def apply_morale(state: State, events: list[Event], side: str, result: str) -> State:
    tracks = dict(state.system.morale)
    tracks[side] = replace(tracks.get(side) or MoraleTrack(), result=result)
    state = state.with_system(morale=tracks, morale_queue=state.system.morale_queue[1:])
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
    events.append(Event("MoraleResult", f"{sname} {word} (OSE-MORALE-1)", rule="OSE-MORALE-1"))
    return prompt_morale(replace(state, prompt=None))


# --- usage die (OSE-RES-1) -------------------------------------------------------------------------

def resource_chain(state: State) -> list[str]:
    return [x.strip().lower() for x in str(opt(state, "resource_dice")).split(",") if x.strip()]


def roll_resource(state: State, dice: Dice, events: list[Event], c: Combatant, item: str) -> State:
    from .ose_combat import ammo_die
    die = ammo_die(state, c, item)
    chain = resource_chain(state)
    roll = dice.roll(die, f"{c.name} {item} usage die")
    drop = roll.total <= int(opt(state, "resource_drop"))
    new = die
    if drop:
        i = chain.index(die) if die in chain else len(chain) - 1
        new = chain[i + 1] if i + 1 < len(chain) else "out"
    text = (f"{c.name}'s {item}: {roll.describe()}: " +
            (f"down to {new}" if drop and new != "out" else "used up" if drop else f"stays {die}") + " (OSE-RES-1)")
    events.append(Event("ResourceRolled", text, rule="OSE-RES-1", rolls=(roll,), target=c.id,
                        data={"die": new}))
    return state.with_system(ammo={**state.system.ammo, f"{c.id}:{item}": new})


def check_resource(state: State, c: Combatant, item: str) -> Illegal | None:
    from .ose_combat import ammo_die
    from ..engine.dice import is_dice
    die = ammo_die(state, c, item)
    if not die:
        return Illegal("NO_USAGE_DIE", f"{c.name} has no usage die for {item} (OSE-RES-1)")
    if die == "out":
        return Illegal("USED_UP", f"{c.name}'s {item} is used up (OSE-RES-1)")
    if not is_dice(die):
        return Illegal("BAD_USAGE_DIE", f"{c.name}'s usage die {die!r} is not a die (OSE-RES-1)")
    return None
