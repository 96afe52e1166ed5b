"""Why an OSE command is illegal now: the first broken rule, broad to narrow, as Illegal(code, sentence)."""
from __future__ import annotations

from ..engine.commands import Command, Illegal
from ..engine.geometry import Body, ranged_blocked_by, second_rank_ok
from ..engine.model import Attack, Combatant
from ..engine.state import State
from .ose_base import (STEP_NAMES, Attack as AttackCmd, CancelSpell, Charge, CompleteSpell, Declare, DisruptSpell,
                       Done, EndStep, Flee, Grapple, Manipulate, MoraleResult, Move, Narrate, Release, RollInitiative,
                       RollResource, Splinter, Surprise, TurnUndead, Withdraw, acting_side, current_step, econ_of,
                       grid_of, hostile_fn, is_detailed, is_helpless, is_out, is_turned, rate_ft)
from .ose_combat import ammo_die, check_grapple, check_weapon, shot_manipulations, weapon_reach
from .ose_move import body, bodies, charge_plan, check_manipulation, check_path, is_dark_for, move_left
from .ose_round import active_sides, check_declare, check_resource
from .ose_turn import check_turn

# The detailed step each command belongs to (OSE-ORDER-1); absent = any step.
STEP_OF = {Move: "move", Withdraw: "move", Flee: "move", Charge: "move", CompleteSpell: "magic",
           TurnUndead: "magic", Grapple: "melee"}
# Commands a turned undead may still take (OSE-TURN-3: it must move away).
TURNED_OK = (Move, Withdraw, Flee, Done, Narrate, Manipulate, Release, Declare)
# Commands a caster may take while casting (OSE-SPELL-1: full round, one manipulation).
CASTING_OK = (CompleteSpell, CancelSpell, Done, Manipulate, Release, Declare)


def check(state: State, cmd: Command) -> Illegal | None:
    """The first rule the command breaks; None if it may be taken now."""
    if isinstance(cmd, RollResource):
        c = state.find(cmd.target)
        return _no_one(cmd.target) if c is None else check_resource(state, c, cmd.item)
    if isinstance(cmd, DisruptSpell):
        c = state.find(cmd.target)
        if c is None:
            return _no_one(cmd.target)
        if cmd.target not in state.system.casting and cmd.target not in state.system.concentrating:
            return Illegal("NOT_CASTING", f"{c.name} is neither casting nor concentrating on a spell")
        return None
    p = state.prompt
    if p is not None:
        if isinstance(cmd, Splinter) and p.kind == "splinter" and cmd.actor == p.actor:
            return None
        if isinstance(cmd, MoraleResult) and p.kind == "morale" and cmd.side == p.data.get("side"):
            if cmd.result not in ("flee", "surrender", "fight on"):
                return Illegal("BAD_RESULT", f"{cmd.result!r} is not flee, surrender or fight on (OSE-MORALE-1)")
            return None
        return Illegal("WAITING", f"First answer: {p.question}")
    if isinstance(cmd, (Splinter, MoraleResult)):
        return Illegal("NO_QUESTION", "Nothing is being asked now")
    if state.outcome:
        return Illegal("FIGHT_OVER", f"The fight is over: {state.outcome}")
    s = state.system
    if isinstance(cmd, Surprise):
        if s.phase != "declare" or state.round != 1:
            return Illegal("TOO_LATE", "Surprise is decided before the first initiative (OSE-SUR-1)")
        if state.encounter.side(cmd.side) is None:
            return Illegal("NO_SUCH_SIDE", f"There is no side {cmd.side!r}")
        return None
    if isinstance(cmd, RollInitiative):
        if s.phase != "declare":
            return Illegal("ALREADY_ROLLED", f"Initiative for round {state.round} is already rolled (OSE-INIT-1)")
        if len(active_sides(state)) < 1:
            return Illegal("NO_SIDES", "No side is left to act")
        return None
    if isinstance(cmd, EndStep):
        if s.phase != "act":
            return Illegal("NOT_YET", "Roll initiative first (OSE-SEQ-1)")
        who = state.find(cmd.actor)
        if who is not None and who.side != acting_side(state):
            return Illegal("NOT_YOUR_SIDE", f"{state.encounter.side(acting_side(state)).name} is acting; only its "
                                            f"step or turn can be ended (OSE-SEQ-1)")
        return None
    c = state.find(getattr(cmd, "actor", ""))
    if c is None:
        return _no_one(getattr(cmd, "actor", ""))
    return _check_actor(state, c, cmd)


def _no_one(cid: str) -> Illegal:
    return Illegal("NO_SUCH_COMBATANT", f"There is no combatant {cid!r}")


def _check_actor(state: State, c: Combatant, cmd: Command) -> Illegal | None:
    if c.is_down:
        return Illegal("DOWN", f"{c.name} is down (CORE-HP-1)")
    if is_out(c):
        return Illegal("OUT_OF_FIGHT", f"{c.name} has left the fight")
    if is_helpless(c):
        return Illegal("HELPLESS", f"{c.name} is pinned or helpless: no actions (OSE-COND-1)")
    s = state.system
    if isinstance(cmd, Declare):
        if s.phase != "declare":
            return Illegal("DECLARATIONS_LOCKED", "Declarations are locked once initiative is rolled (OSE-DECL-1)")
        return check_declare(state, c, cmd.action, cmd.spell)
    if s.phase != "act":
        return Illegal("NOT_YET", "Declare, then roll initiative first (OSE-SEQ-1)")
    side = acting_side(state)
    if c.side != side:
        return Illegal("NOT_YOUR_SIDE", f"{state.encounter.side(side).name} is acting; {c.name}'s side acts in "
                                        f"initiative order (OSE-SEQ-1)")
    if isinstance(cmd, Release):
        if not any(h.grappler == c.id and h.target == cmd.target for h in s.holds):
            return Illegal("NOT_HOLDING", f"{c.name} does not hold {state.name(cmd.target)}")
        return None
    if is_detailed(state) and c.id in s.done:
        return Illegal("ALREADY_DONE", f"{c.name} is done with the {STEP_NAMES[current_step(state)]} step "
                                       f"(OSE-ORDER-1)")
    if not is_detailed(state) and econ_of(state, c.id).acted:
        return Illegal("ALREADY_ACTED", f"{c.name} has acted this turn (OSE-LOOSE-1)")
    if is_turned(state, c.id) and not isinstance(cmd, TURNED_OK):
        return Illegal("TURNED", f"{c.name} is turned: it must move as far from the Warpriest as it can "
                                 f"(OSE-TURN-3)")
    spell = s.casting.get(c.id)
    if spell and not isinstance(cmd, CASTING_OK) and not (isinstance(cmd, Narrate) and cmd.uses == "free"):
        return Illegal("CASTING", f"{c.name} is casting {spell}: no movement and no other action; cancel it first "
                                  f"(OSE-SPELL-1)")
    if is_detailed(state):
        step = _step_of(state, c, cmd)
        if step and step != current_step(state):
            return Illegal("WRONG_STEP", f"That happens in the {STEP_NAMES[step]} step; this is the "
                                         f"{STEP_NAMES[current_step(state)]} step (OSE-ORDER-1)")
    fn = _SPECIFIC.get(type(cmd))
    return fn(state, c, cmd) if fn else None


def _step_of(state: State, c: Combatant, cmd: Command) -> str:
    if isinstance(cmd, AttackCmd):
        atk = c.attack(cmd.attack)
        return "missile" if atk is not None and atk.is_ranged else "melee"
    return STEP_OF.get(type(cmd), "")


# --- per command ------------------------------------------------------------------------------

def _loose_no_grid(state: State, what: str) -> Illegal | None:
    if not is_detailed(state):
        return Illegal("NO_GRID", f"{what} needs the grid; in the loose rules the referee narrates positions "
                                  f"(OSE-LOOSE-1)")
    return None


def check_move(state: State, c: Combatant, cmd: Move, template: bool = False) -> Illegal | None:
    bad = _loose_no_grid(state, "Moving square by square")
    if bad:
        return bad
    left = move_left(state, c)
    if left <= 0:
        e = econ_of(state, c.id)
        why = "a full-round action" if e.full else "its Move and Main actions"
        return Illegal("NO_MOVEMENT_LEFT", f"{c.name} has no movement left: it has used {why} (OSE-ECON-1)")
    return None if template else check_path(state, c, cmd.path, left)


def check_withdraw(state: State, c: Combatant, cmd: Withdraw, template: bool = False) -> Illegal | None:
    bad = _loose_no_grid(state, "Withdrawing")
    if bad:
        return bad
    e = econ_of(state, c.id)
    if e.full or e.main:
        return Illegal("MAIN_USED", f"Withdraw is a Main action; {c.name} has used it (OSE-WD-1)")
    return None if template else check_path(state, c, cmd.path, rate_ft(state, c))


def check_flee(state: State, c: Combatant, cmd: Flee) -> Illegal | None:
    if is_dark_for(state, c):
        return Illegal("DARK", f"{c.name} cannot flee in the dark without a way to see (OSE-FLEE-1)")
    return None


def check_charge(state: State, c: Combatant, cmd: Charge) -> Illegal | None:
    bad = _loose_no_grid(state, "Charging")
    if bad:
        return bad
    e = econ_of(state, c.id)
    if e.full or e.main or e.move or e.moved_ft:
        return Illegal("NEEDS_FULL_ROUND", f"A charge is a full-round action; {c.name} has already acted or moved "
                                           f"(OSE-CHARGE-1)")
    atk = c.attack(cmd.attack)
    if atk is None or not atk.is_melee:
        return Illegal("NO_MELEE_WEAPON", f"{c.name} charges with a melee weapon (OSE-CHARGE-1)")
    bad = check_weapon(state, c, atk, cmd.attack)
    if bad:
        return bad
    plan = charge_plan(state, c, cmd.attack)
    return plan if isinstance(plan, Illegal) else None


def check_attack(state: State, c: Combatant, cmd: AttackCmd) -> Illegal | None:
    t = state.find(cmd.target)
    if t is None:
        return _no_one(cmd.target)
    if is_out(t):
        return Illegal("TARGET_OUT", f"{t.name} is out of the fight")
    if not state.hostile(c, t):
        return Illegal("NOT_AN_ENEMY", f"{t.name} is not an enemy of {c.name} (CORE-SIDE-1)")
    atk = c.attack(cmd.attack)
    bad = check_weapon(state, c, atk, cmd.attack)
    if bad:
        return bad
    if cmd.edge not in ("", "adv", "dis"):
        return Illegal("BAD_EDGE", f"{cmd.edge!r} is not adv or dis (OSE-ADV-1)")
    bad = check_attack_economy(state, c, atk)
    if bad or not is_detailed(state):
        return bad
    return check_position(state, c, atk, t)


def check_attack_economy(state: State, c: Combatant, atk: Attack) -> Illegal | None:
    """OSE-ECON-1 with OSE-RANGED-2/3: melee, bow, sling and thrown are Main; a crossbow the full round."""
    if not is_detailed(state):
        return None
    e = econ_of(state, c.id)
    if atk.kind == "crossbow":
        if e.full or e.main or e.move or e.moved_ft:
            return Illegal("NEEDS_FULL_ROUND", f"A crossbow shot is a full-round action with no movement; {c.name} "
                                               f"has already acted or moved (OSE-RANGED-3)")
        return None
    if e.full:
        return Illegal("FULL_ROUND_USED", f"{c.name} has used a full-round action this round (OSE-ECON-1)")
    if e.main:
        return Illegal("MAIN_USED", f"{c.name} has used the Main action this round (OSE-ECON-1)")
    if shot_manipulations(c, atk) == 1 and e.manips >= 1 and e.move:
        return Illegal("NO_ACTION_TO_LOAD", f"{c.name} has no action left for the manipulation to draw and load "
                                            f"(OSE-RANGED-2, OSE-MANIP-1)")
    return None


def check_position(state: State, c: Combatant, atk: Attack, t: Combatant) -> Illegal | None:
    if c.square is None or t.square is None:
        return Illegal("NOT_ON_MAP", f"{c.name if c.square is None else t.name} is not on the map")
    bs = bodies(state)
    me = body(state, c.id)
    if atk.is_ranged:
        near = ranged_blocked_by(me, bs, hostile_fn(state))
        if near:
            names = ", ".join(state.name(x) for x in near)
            return Illegal("ENEMY_ADJACENT", f"{c.name} cannot make a ranged attack: {names} within 5 ft "
                                             f"(OSE-RANGED-1)")
        return None
    reach = weapon_reach(c, atk)
    probe = Body(c.id, c.side, tuple(c.square), reach, True)
    if not second_rank_ok(probe, tuple(t.square), bs, hostile_fn(state), grid=grid_of(state)):
        rule = "OSE-STANCE-3" if atk.has("reach") else "OSE-AOO-3"
        return Illegal("OUT_OF_REACH", f"{t.name} is out of reach of {c.name}'s {atk.name} ({reach * 5} ft) ({rule})")
    return None


def check_complete(state: State, c: Combatant, cmd: CompleteSpell) -> Illegal | None:
    if c.id not in state.system.casting:
        return Illegal("NOT_CASTING", f"{c.name} declared no spell this round (OSE-SPELL-4: no undeclared casting)")
    for t in cmd.targets:
        if not state.has(t):
            return _no_one(t)
    return None


def check_cancel(state: State, c: Combatant, cmd: CancelSpell) -> Illegal | None:
    if c.id not in state.system.casting:
        return Illegal("NOT_CASTING", f"{c.name} is not casting a spell")
    return None


def check_manipulate(state: State, c: Combatant, cmd: Manipulate) -> Illegal | None:
    bad = check_manipulation(state, c, cmd.action, cmd.item)
    if bad and not is_detailed(state) and bad.reason in ("NO_ACTION_LEFT", "SHIELD_NEEDS_MOVE",
                                                         "CASTING_ONE_MANIPULATION"):
        return None  # the loose rules do not count actions
    return bad


def check_grapple_cmd(state: State, c: Combatant, cmd: Grapple) -> Illegal | None:
    e = econ_of(state, c.id)
    if is_detailed(state) and (e.full or e.main):
        return Illegal("MAIN_USED", f"A grapple is a Main action; {c.name} has used it (OSE-GRAP-1, OSE-ECON-1)")
    return check_grapple(state, c, state.find(cmd.target), cmd.intent)


def check_turn_cmd(state: State, c: Combatant, cmd: TurnUndead) -> Illegal | None:
    return check_turn(state, c, cmd.group)


def check_narrate(state: State, c: Combatant, cmd: Narrate) -> Illegal | None:
    if cmd.uses not in ("main", "move", "full", "free"):
        return Illegal("BAD_ACTION_TYPE", f"{cmd.uses!r} is not main, move, full or free (OSE-ECON-1)")
    if not is_detailed(state):
        return None
    e = econ_of(state, c.id)
    if cmd.uses == "main" and (e.main or e.full):
        return Illegal("MAIN_USED", f"{c.name} has used the Main action this round (OSE-ECON-1)")
    if cmd.uses == "move" and (e.move or e.full):
        return Illegal("MOVE_USED", f"{c.name} has used the Move action this round (OSE-ECON-1)")
    if cmd.uses == "full" and (e.main or e.move or e.full or e.moved_ft):
        return Illegal("NEEDS_FULL_ROUND", f"{c.name} has already acted this round (OSE-ECON-1)")
    return None


_SPECIFIC = {Move: check_move, Withdraw: check_withdraw, Flee: check_flee, Charge: check_charge,
             AttackCmd: check_attack, CompleteSpell: check_complete, CancelSpell: check_cancel,
             Manipulate: check_manipulate, Grapple: check_grapple_cmd, TurnUndead: check_turn_cmd,
             Narrate: check_narrate}


def ranged_block_reason(state: State, c: Combatant) -> str:
    """The view's hint: why ranged attacks are impossible now (OSE-RANGED-1), or ""."""
    if not is_detailed(state) or c.square is None or not any(a.is_ranged for a in c.attacks):
        return ""
    me = body(state, c.id)
    near = ranged_blocked_by(me, bodies(state), hostile_fn(state)) if me else ()
    if near:
        return f"Ranged attacks impossible: {', '.join(state.name(x) for x in near)} within 5 ft (OSE-RANGED-1)"
    if all(ammo_die(state, c, "ammo") == "out" for a in c.attacks if a.is_ranged and a.kind != "thrown"):
        if any(a.is_ranged and a.kind != "thrown" for a in c.attacks):
            return "Ranged attacks impossible: out of ammunition (OSE-RANGED-1)"
    return ""
