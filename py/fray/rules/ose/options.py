"""What the OSE rules offer an actor now: every action, illegal ones kept with their reason.

Groups follow the detailed steps ("Move", "Missile", "Magic", "Melee") plus
"Declare", "Attack" (loose), "Manipulate", "Other", "Turn" (key "next") and
"Referee" (REF decisions with the engine's suggestion).
"""
from __future__ import annotations

from dataclasses import replace

from ...engine.commands import Choice, Option
from ...engine.geometry import chebyshev, path_cost_ft
from ...engine.model import Combatant
from ...engine.spells import spell_effect
from ...engine.state import State
from .check import Core, R, charge_plan, check
from .combat import ammo_die, casting_cost, damage_text, effective_ac, is_shield, to_hit_bonus, usable_melee
from .commands import (Attack, CancelSpell, Charge, CheckMorale, CompleteSpell, Declare, DisruptSpell, Done, EndStep, Flee,
                       Grapple, Manipulate, MoraleResult, Move, Narrate, Opportunity, Release, RestoreMemory,
                       RollInitiative,
                       RollResource, Splinter, Surprise, TurnUndead, Withdraw)
from .bodies import body, bodies
from .ranged import band_text, range_bonus, ranged_blocked_by
from .movement import flight_path, move_left, turned_from, withdraw_suggestion
from .state import (STEP_NAMES, acting_side, current_step, econ_of, grid_of, hostile_fn, is_detailed, is_out,
                    distinct, memorised_at_start, spells_of)
from .turn_undead import undead_groups

# Refusals that are the same whatever the target: the attack is shown once, against the nearest enemy.
SAME_FOR_EVERY_TARGET = frozenset({
    R.NOT_IN_HAND, R.NEEDS_TWO_HANDS, R.HANDS_FULL, R.NO_AMMUNITION, R.GRAPPLED_SMALL_ONLY, R.NOTHING_TO_THROW,
    R.CASTING, R.TURNED, R.MAIN_USED, R.FULL_ROUND_USED, R.WRONG_STEP, R.NEEDS_FULL_ROUND, R.ENEMY_ADJACENT,
    R.ALREADY_DONE, R.ALREADY_ACTED})


def _opt(state: State, cmd, label: str, **kw) -> Option:
    return Option(cmd, label, **kw).refused(check(state, cmd))


def options(state: State, actor: str) -> list[Option]:
    c = state.find(actor)
    if c is None:
        return []
    out: list[Option] = []
    if state.prompt is not None:
        if state.prompt.actor == actor:
            out += _answers(state)
        return out + referee_options(state, c.id)
    if state.outcome:
        return referee_options(state, c.id)
    if state.board.phase == "declare":
        out += _declare_options(state, c)
    elif c.side != acting_side(state) and not is_out(c):
        # Not its side's turn: one greyed line that says so, rather than every action greyed.
        out.append(_opt(state, Done(c.id), "Wait for its side's turn", group="Turn", rule="OSE-SEQ-1"))
    elif is_detailed(state):
        out += _detailed(state, c)
    else:
        out += _loose(state, c)
    return out + referee_options(state, c.id)


# --- prompts -------------------------------------------------------------------------------------

def _answers(state: State) -> list[Option]:
    p = state.prompt
    if p.kind == "splinter":
        suggest = bool(p.data.get("suggest"))
        shield = p.data.get("shield", "shield")
        return [
            Option(Splinter(p.actor, True), f"Splinter the {shield}: take no damage" + (" (suggested)" if suggest else ""),
                   group="Answer", rule="OSE-SSBS-1", hint=f"Damage would be {p.data.get('min')}-{p.data.get('max')}"),
            Option(Splinter(p.actor, False), "Keep the shield: roll damage" + ("" if suggest else " (suggested)"),
                   group="Answer", rule="OSE-SSBS-1"),
        ]
    if p.kind == "aoo":
        # OSE-AOO-4: attack is the default, first and one tap; OSE-SPELL-3: a caster sees the cost first.
        mover, weapon, cost = state.name(p.data.get("mover", "")), p.data.get("weapon", ""), p.data.get("cost", "")
        brace = p.data.get("brace")
        what = f"Strike {mover} with the braced {weapon} (double damage)" if brace else f"Attack {mover} ({weapon})"
        # "If the opponent has multiple attacks, they may choose which attack is used for the AoO."
        others = [Option(Opportunity(p.actor, "attack", w), (f"Strike with the braced {w}" if brace else
                                                              f"Attack {mover} with {w} instead"), group="Answer",
                         rule="OSE-AOO-2", hint=cost or "Another of its attacks")
                  for w in p.data.get("weapons", ())[1:]]
        return [
            Option(Opportunity(p.actor, "attack"), what + (f" — {cost.split(':')[0]}" if cost else ""),
                   group="Answer", rule="OSE-BRACE-1" if brace else "OSE-AOO-2", key="next",
                   hint=cost or "The default: a hit stops the movement"),
            *others,
            Option(Opportunity(p.actor, "decline"), f"Let {mover} go", group="Answer", rule="OSE-AOO-4",
                   hint="No attack; the movement goes on"),
            Option(Opportunity(p.actor, "stunt"), "A stunt instead (trip, shove, disarm...)", group="Answer",
                   rule="OSE-AOO-4", hint="Resolved as the referee rules (REF); the movement goes on unless the "
                                          "referee stops it"),
        ]
    if p.kind == "morale":
        side, suggest = p.data.get("side", ""), p.data.get("suggest", "flee")
        return [Option(MoraleResult(p.actor, side, r), r.capitalize() + (" (suggested)" if r == suggest else ""),
                       group="Answer", rule="OSE-MORALE-1",
                       hint="Referee's ruling (OSE-MORALE-1)" if r == "fight on" else "")
                for r in ("flee", "surrender", "fight on")]
    return []


# --- declarations ----------------------------------------------------------------------------------

def declaration_options(state: State, c: Combatant) -> list[Option]:
    """The three declarations (each spell, Full Defense, Brace) and "nothing" (OSE-DECL-1)."""
    out = []
    current = state.board.declared.get(c.id)
    spells = spells_of(c)
    # OSE-SPELL-5: only what is still in memory is offered, each spell once with its copies counted.
    for sp in distinct(spells):
        n = spells.count(sp)
        out.append(_opt(state, Declare(c.id, "spell", sp), f"Cast {sp}" + (" ✓" if current == ("spell", sp) else ""),
                        group="Declare", rule="OSE-DECL-1",
                        hint=f"{n} in memory; casting, cancelling or losing it spends one (OSE-SPELL-5)"))
    if not spells:
        out.append(_opt(state, Declare(c.id, "spell", ""), "Cast a spell", group="Declare", rule="OSE-DECL-1"))
    out.append(_opt(state, Declare(c.id, "full_defense"), "Full Defense" +
                    (" ✓" if current and current[0] == "full_defense" else ""), group="Declare", rule="OSE-FD-1",
                    hint="Attacks against it have disadvantage until just before it acts again"))
    out.append(_opt(state, Declare(c.id, "brace"), "Brace" + (" ✓" if current and current[0] == "brace" else ""),
                    group="Declare", rule="OSE-BRACE-1", hint="A free double-damage attack on a charger"))
    if current:
        out.append(_opt(state, Declare(c.id, "none"), "Declare nothing", group="Declare", rule="OSE-DECL-1"))
    return out


def _declare_options(state: State, c: Combatant) -> list[Option]:
    out = declaration_options(state, c)
    out.append(_opt(state, RollInitiative(c.id), "Surprise round: begin" if state.board.surprised and
                    state.round == 1 else "Roll initiative", group="Turn", key="next", rule="OSE-INIT-1",
                    hint="Locks every declaration (OSE-DECL-1)"))
    if state.round == 1:
        for side in state.encounter.sides:
            on = side.id not in state.board.surprised
            out.append(_opt(state, Surprise(side.id, on),
                            f"Mark {side.name} {'surprised' if on else 'not surprised'}", group="Referee",
                            rule="OSE-SUR-1", hint="Referee's call from the fiction; suggested: no surprise"))
    return out


# --- detailed profile --------------------------------------------------------------------------------

def _detailed(state: State, c: Combatant) -> list[Option]:
    out: list[Option] = []
    if c.side == acting_side(state) and not is_out(c):
        step = current_step(state)
        left = move_left(state, c)
        hint = "Leaving a threatened square provokes (OSE-AOO-1)"
        w = turned_from(state, c)
        if w is not None:
            # OSE-TURN-3: say where the flight goes before the referee draws a path.
            away = flight_path(state, c, left)
            hint = (f"Turned: only a move farther from {w.name} (OSE-TURN-3); suggested: to {away[-1]}" if away
                    else f"Turned: no square farther from {w.name} within reach (OSE-TURN-3)")
        out.append(_opt(state, Move(c.id, ()), f"Move ({left} ft left)", group="Move", needs=("path",),
                        rule="OSE-TURN-3" if w is not None else "OSE-MOVE-1", hint=hint))
        out[-1] = _template(state, out[-1], "move")
        sug = withdraw_suggestion(state, c)
        wd = _opt(state, Withdraw(c.id, ()), "Withdraw", group="Move", needs=("path",), rule="OSE-WD-1",
                  hint="First square left is safe, +2 AC against attacks of opportunity; the referee constrains "
                       "where to" + (f" (suggested: {sug})" if sug else ""))
        out.append(_template(state, wd, "withdraw"))
        for a in usable_melee(c)[:3]:
            plan = charge_plan(state, c, a.name) if c.square is not None else None
            cmd, at = Charge(c.id, a.name), ""
            if isinstance(plan, tuple):  # whom and along which squares (OSE-CHARGE-1)
                cmd = Charge(c.id, a.name, plan[0], tuple(tuple(p) for p in plan[1]))
                at = f" at {state.name(plan[0])}, {path_cost_ft(cmd.path, grid_of(state).diagonal)} ft"
            out.append(_opt(state, cmd, f"Charge with {a.name}", group="Move", rule="OSE-CHARGE-1",
                            hint=f"Full round: nearest enemy, 15 ft to twice the rate{at}"))
        out.append(_opt(state, Flee(c.id), "Flee", group="Move", rule="OSE-FLEE-1",
                        hint="Leaves the map; the referee controls it from now on (Pursuit)"))
        out += _attacks(state, c, step)
        out += _spell_options(state, c)
        out += _turn_options(state, c)
        out += _grapples(state, c)
        out += _manipulations(state, c)
        out += _narrations(state, c, ("main", "move", "free"))
        word = STEP_NAMES.get(step, "")
        done_label = f"Done with {word}"
        if c.id in state.board.casting and step == "magic":
            done_label += f": {state.board.casting[c.id]} lapses (lost from memory)"
        # In the MOVE step the side's actors move at once (OSE-ORDER-1) and most stand: the step is what the
        # referee ends, in one tap, not each actor's part of it. In the other steps each actor's own
        # attack or spell is at stake, so "next" ends only this one's part.
        side_next = step == "move"
        out.append(_opt(state, Done(c.id), done_label, group="Turn", key="" if side_next else "next",
                        rule="OSE-ORDER-1"))
        out.append(_opt(state, EndStep(c.id), f"End the {word} step for the whole side", group="Turn",
                        key="next" if side_next else "", rule="OSE-ORDER-1"))
    return out


def _template(state: State, o: Option, kind: str) -> Option:
    """Move/Withdraw wait for a path: every check passed but the path itself (NO_PATH comes last)."""
    if not o.allowed and o.reason == Core.NO_PATH:
        return replace(o, allowed=True, why="", reason="")
    return o


def _enemies(state: State, c: Combatant) -> list[Combatant]:
    es = [o for o in state.combatants if state.hostile(c, o) and not is_out(o)]
    if c.square is not None:
        es.sort(key=lambda o: (chebyshev(c.square, o.square) if o.square is not None else 999, o.id))
    return es


def _attacks(state: State, c: Combatant, step: str) -> list[Option]:
    out, refused = [], []
    enemies = _enemies(state, c)
    cost = casting_cost(state, c.id)  # OSE-SPELL-3: shown before the attack is chosen
    spell = state.board.casting.get(c.id) or state.board.concentrating.get(c.id)
    for a in c.weapons:
        group = "Missile" if a.is_ranged else "Melee" if is_detailed(state) else "Attack"
        if not is_detailed(state):
            group = "Attack"
        for t in enemies:
            ac, _ = effective_ac(state, t)
            cmd = Attack(c.id, t.id, a.name)
            o = _opt(state, cmd, f"{a.name} → {t.name}" + (f" (loses {spell})" if cost else ""), group=group,
                     rule="OSE-RANGED-1" if a.is_ranged else "OSE-ATK-1",
                     hint=(f"{cost}; " if cost else "") + f"d20{to_hit_bonus(c, a) + range_bonus(state, c, a, t)[0]:+d} vs AC {ac}; "
                          f"damage {damage_text(c, a)}" + (f"; {band}" if (band := band_text(state, c, a, t)) else ""))
            if o.allowed:
                out.append(o)
            elif o.reason in SAME_FOR_EVERY_TARGET:
                refused.append(o)
                break
            else:
                refused.append(o)
    return out + refused


def _spell_options(state: State, c: Combatant) -> list[Option]:
    spell = state.board.casting.get(c.id)
    if not spell:
        return []
    group = "Magic" if is_detailed(state) else "Spell"
    name, effect = spell_effect(spell)
    if effect is not None:  # the spell does what its entry says (engine/spells.py): only its targets are asked
        every = _effect_group(state, c, effect.heal)
        return [
            _opt(state, CompleteSpell(c.id), f"Complete {name}", group=group, rule="OSE-SPELL-2",
                 choices=_effect_targets(every, effect.heal), question=f"{c.name} completes {name}: on whom?",
                 hint=effect.words(), few=tuple(o.id for o in every[:12]) if len(every) > 2 else ()),
            _opt(state, CancelSpell(c.id), f"Cancel {name} (lost from memory)", group=group, rule="OSE-SPELL-2",
                 hint="The caster may then act otherwise"),
        ]
    # The effect is narrated; naming a target matters for a turned undead (OSE-TURN-3: a spell breaks it).
    choices = (Choice("No target named", {"targets": ()}, "The referee narrates the effect"),
               Choice("A concentration spell", {"targets": (), "concentration": True},
                      "Damage or violent motion will end it (OSE-SPELL-3)")) + tuple(
        Choice(f"On {t.name}", {"targets": (t.id,)}, "turned: this breaks its turning" if t.id in state.board.turned
               else "") for t in _enemies(state, c)[:8])
    return [
        _opt(state, CompleteSpell(c.id), f"Complete {spell}", group=group, rule="OSE-SPELL-2",
             choices=choices, question=f"{c.name} completes {spell}: on whom?",
             hint="The effect is narrated by the referee"),
        _opt(state, CancelSpell(c.id), f"Cancel {spell} (lost from memory)", group=group, rule="OSE-SPELL-2",
             hint="The caster may then act otherwise"),
    ]


def _effect_group(state: State, c: Combatant, heal: bool) -> list[Combatant]:
    """Whom a spell with an effect may touch: the foes, nearest first (a healing spell: the caster's side)."""
    return [o for o in state.combatants if o.side == c.side and not is_out(o)] if heal else _enemies(state, c)


def _effect_targets(group: list[Combatant], heal: bool) -> tuple[Choice, ...]:
    """The targets a spell with an effect is offered: every one at once and each one; a few of them are
    ticked beside these answers (`Option.few`, issue 53, stop 9)."""
    every = "On every ally" if heal else "On every foe"
    out = [Choice(f"{every} ({len(group)})", {"targets": tuple(o.id for o in group)})] if len(group) > 1 else []
    return tuple(out) + tuple(Choice(f"On {o.name}", {"targets": (o.id,)}) for o in group[:12])


def _turn_options(state: State, c: Combatant) -> list[Option]:
    if not c.stat("warpriest", False):
        return []
    group = "Magic" if is_detailed(state) else "Other"
    def label(g: str) -> str:
        side = state.encounter.side(g)
        return side.name if side else g

    return [_opt(state, TurnUndead(c.id, g), f"Turn Undead: {label(g)} ({len(members)})", group=group,
                 rule="OSE-TURN-1", hint="2d6 on the turning table; then 2d6 Hit Dice, weakest first")
            for g, members in sorted(undead_groups(state, c).items())]


def _grapples(state: State, c: Combatant) -> list[Option]:
    out = []
    group = "Melee" if is_detailed(state) else "Other"
    for h in state.board.holds:
        if h.target == c.id:
            out.append(_opt(state, Grapple(c.id, h.grappler, "escape"), f"Escape {state.name(h.grappler)}'s hold",
                            group=group, rule="OSE-GRAP-1"))
        if h.grappler == c.id:
            out.append(_opt(state, Release(c.id, h.target), f"Release {state.name(h.target)}", group="Other",
                            rule="OSE-GRAP-1"))
    for t in _enemies(state, c):
        if is_detailed(state) and (c.square is None or t.square is None or chebyshev(c.square, t.square) > 1):
            break
        out.append(_opt(state, Grapple(c.id, t.id, "grab"), f"Grapple {t.name}", group=group, rule="OSE-GRAP-1",
                        hint="Opposed check; three successes pin"))
    return out


def _manipulations(state: State, c: Combatant) -> list[Option]:
    out = []
    e = econ_of(state, c.id)
    used = f"{e.manips} used this round" if is_detailed(state) else ""
    for item in dict.fromkeys(c.inventory):
        if item:
            out.append(_opt(state, Manipulate(c.id, "draw", item), f"Draw {item}", group="Manipulate",
                            rule="OSE-MANIP-1", hint=("uses the Move (shield)" if is_shield(c, item) else used)))
    for item in dict.fromkeys(h for h in c.hands if h):
        out.append(_opt(state, Manipulate(c.id, "stow", item), f"Stow {item}", group="Manipulate",
                        rule="OSE-MANIP-1", hint=("uses the Move (shield)" if is_shield(c, item) else used)))
        out.append(_opt(state, Manipulate(c.id, "drop", item), f"Drop {item}", group="Manipulate",
                        rule="OSE-MANIP-1", hint="free"))
    for item in tuple(c.stat("backpack", ()) or ())[:3]:
        out.append(_opt(state, Manipulate(c.id, "draw", item), f"Draw {item} (backpack)", group="Manipulate",
                        rule="OSE-MANIP-1"))
    out.append(_opt(state, Manipulate(c.id, "other"), "Other manipulation (open, pick up, hand over...)",
                    group="Manipulate", rule="OSE-MANIP-1", needs=("note",), hint=used))
    return out


def _narrations(state: State, c: Combatant, kinds: tuple[str, ...]) -> list[Option]:
    words = {"main": "Main", "move": "Move", "full": "Full Round", "free": "free"}
    return [_opt(state, Narrate(c.id, "", k), f"Other action ({words[k]})", group="Other", needs=("text",),
                 rule="OSE-ECON-1" if is_detailed(state) else "OSE-LOOSE-1",
                 hint="Stunt, use an item, anything else: the referee rules") for k in kinds]


# --- loose profile -----------------------------------------------------------------------------------

def _loose(state: State, c: Combatant) -> list[Option]:
    if c.side != acting_side(state) or is_out(c):
        return []
    out = _attacks(state, c, "")
    out += _spell_options(state, c)
    out += _turn_options(state, c)
    out += _grapples(state, c)
    out.append(_opt(state, Flee(c.id), "Flee", group="Other", rule="OSE-FLEE-1",
                    hint="The referee controls it from now on"))
    out += _manipulations(state, c)
    out += _narrations(state, c, ("main",))
    label = "Done"
    if c.id in state.board.casting:
        label += f": {state.board.casting[c.id]} lapses (lost from memory)"
    out.append(_opt(state, Done(c.id), label, group="Turn", key="next", rule="OSE-LOOSE-1"))
    out.append(_opt(state, EndStep(c.id), "End the side's turn", group="Turn", rule="OSE-LOOSE-1"))
    return out


# --- hints for the page ----------------------------------------------------------------------------

def ranged_block_reason(state: State, c: Combatant) -> str:
    """The view's hint: why ranged attacks are impossible now (OSE-RANGED-1), or ""."""
    if not is_detailed(state) or c.square is None or not any(a.is_ranged for a in c.weapons):
        return ""
    me = body(state, c.id)
    near = ranged_blocked_by(me, bodies(state), hostile_fn(state)) if me else ()
    if near:
        return f"Ranged attacks impossible: {', '.join(state.name(x) for x in near)} within 5 ft (OSE-RANGED-1)"
    if all(ammo_die(state, c, "ammo") == "out" for a in c.weapons if a.is_ranged and a.kind != "thrown"):
        if any(a.is_ranged and a.kind != "thrown" for a in c.weapons):
            return "Ranged attacks impossible: out of ammunition (OSE-RANGED-1)"
    return ""


def disruption_advice(state: State, c: Combatant) -> str:
    """The engine's suggestion at the REF point of OSE-SPELL-3."""
    if c.has_condition("grappled"):
        return f"Suggested: lose it — {c.name} is grappled"
    return "Suggested: keep it, unless violent motion or silence interferes"


# --- referee decisions ------------------------------------------------------------------------------

def referee_options(state: State, actor: str) -> list[Option]:
    """The referee's decisions about a combatant: a spell disrupted (OSE-SPELL-3), a usage die (OSE-RES-1)."""
    c = state.find(actor)
    if c is None:
        return []
    out = []
    if c.id in state.board.casting or c.id in state.board.concentrating:
        out.append(_opt(state, DisruptSpell(c.id, "violent motion, silence or grapple"),
                        "Spell disrupted (violent motion, silence, grapple)", group="Referee", rule="OSE-SPELL-3",
                        hint=disruption_advice(state, c)))
    side = state.encounter.side(c.side)
    if side is not None and side.morale is not None:
        out.append(_opt(state, CheckMorale(c.side), f"Check {side.name}'s morale now", group="Referee",
                        rule="OSE-MORALE-2", hint=f"2d6 against {side.morale}; a pass counts toward the two"))
    start = memorised_at_start(state, c.id)
    if start and sorted(spells_of(c)) != sorted(start):
        out.append(_opt(state, RestoreMemory(c.id), f"Restore memory ({', '.join(start)})", group="Referee",
                        rule="OSE-SPELL-5", hint="Between fights: the spells memorised at the start come back"))
    if ammo_die(state, c, "ammo"):
        die = ammo_die(state, c, "ammo")
        out.append(_opt(state, RollResource(c.id, "ammo"), f"Roll ammunition usage die ({die})",
                        group="Referee", rule="OSE-RES-1", hint="After the fight, or when it matters"))
    return out

