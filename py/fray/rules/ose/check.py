"""Why an OSE command is illegal now: the first broken rule, broad to narrow, as Illegal(reason, sentence).

`Reason` (defined in reasons.py, below every module that says "no") lists
every code OSE has of its own; the codes every system shares (a missing
combatant, a bad path, out of range...) are the core's `Core`
(`engine.commands.Reason`). Each command's own rules are found in the
`checks` table; the checks other modules reuse (weapons, manipulations,
turning, declarations, usage dice, paths, charges) live here too, so that
only this module says "no".
"""
from __future__ import annotations

from dataclasses import replace

from ...engine.commands import Command, Illegal, Reason as Core
from ...engine.geometry import Body, chebyshev, is_adjacent, path_cost_ft, path_problem
from ...engine.model import Combatant, Weapon
from ...engine.tables import Handlers
from ...engine.state import State
from .combat import (RANGE_RULE, ammo_die, draw_needs_two, hands_ok, held_attack, is_shield, line_of_sight,
                     range_band, ranged_blocked_by, ranges, second_rank_ok, shot_feet, shot_manipulations,
                     weapon_reach)
from .commands import (Attack as AttackCmd, CancelSpell, Charge, CompleteSpell, Declare, Done, EndStep, Flee, Grapple,
                       Manipulate, Move, Narrate, Release, RollInitiative, Surprise, TurnUndead, Withdraw)
from .movement import body, bodies, flight_gain, is_dark_for, move_left, nearest_charge, turned_from
from .answers import answers, anytime, check_resource, no_one as _no_one, waiting as _waiting  # noqa: F401
from .reasons import Reason
from .state import (FLED, GRAPPLED, STEP_NAMES, acting_side, active_sides, current_step, econ_of, grid_of,
                    holds_of, hostile_fn, is_detailed, is_helpless, is_out, is_turned, memorised_at_start, memory_entry,
                    opt, rate_ft, spells_of)
from .turn_undead import candidates, holds_focus, undead_groups

R = Reason  # OSE's own codes; Core for the shared ones

# The detailed step each command belongs to (OSE-ORDER-1); absent = any step.
STEP_OF = {Move: "move", Withdraw: "move", Flee: "move", Charge: "move", CompleteSpell: "magic",
           TurnUndead: "magic", Grapple: "melee"}
# Commands a turned undead may still take (OSE-TURN-3: it must move away).
TURNED_OK = (Move, Withdraw, Flee, Done, Narrate, Manipulate, Release, Declare)
# Commands a caster may take while casting (OSE-SPELL-1: full round, one manipulation).
CASTING_OK = (CompleteSpell, CancelSpell, Done, Manipulate, Release, Declare)

round_checks = Handlers("ose round check")  # (state, cmd): the round's own commands, no actor
checks = Handlers("ose check")  # (state, actor, cmd): an actor's command, once it may act at all


def check(state: State, cmd: Command) -> Illegal | None:
    """The first rule the command breaks; None if it may be taken now."""
    fn = anytime.get(cmd)
    if fn is not None:
        return fn(state, cmd)
    answer = answers.get(cmd)
    p = state.prompt
    if p is not None:
        return answer(state, cmd, p) if answer is not None else _waiting(p)
    if answer is not None:
        return Illegal(R.NO_QUESTION, "Nothing is being asked now")
    if state.outcome:
        return Illegal(Core.FIGHT_OVER, f"The fight is over: {state.outcome}")
    fn = round_checks.get(cmd)
    if fn is not None:
        return fn(state, cmd)
    c = state.find(getattr(cmd, "actor", ""))
    if c is None:
        return _no_one(getattr(cmd, "actor", ""))
    return _check_actor(state, c, cmd)


@round_checks(Surprise)
def _check_surprise(state: State, cmd: Surprise) -> Illegal | None:
    if state.board.phase != "declare" or state.round != 1:
        return Illegal(R.TOO_LATE, "Surprise is decided before the first initiative (OSE-SUR-1)")
    if state.encounter.side(cmd.side) is None:
        return Illegal(Core.NO_SUCH_SIDE, f"There is no side {cmd.side!r}")
    return None


@round_checks(RollInitiative)
def _check_initiative(state: State, cmd: RollInitiative) -> Illegal | None:
    if state.board.phase != "declare":
        return Illegal(Core.ALREADY_ROLLED, f"Initiative for round {state.round} is already rolled (OSE-INIT-1)")
    if len(active_sides(state)) < 1:
        return Illegal(R.NO_SIDES, "No side is left to act")
    return None


@round_checks(EndStep)
def _check_end_step(state: State, cmd: EndStep) -> Illegal | None:
    if state.board.phase != "act":
        return Illegal(Core.NOT_STARTED, "Roll initiative first (OSE-SEQ-1)")
    who = state.find(cmd.actor)
    if who is not None and who.side != acting_side(state):
        return Illegal(Core.NOT_YOUR_TURN, f"{state.encounter.side(acting_side(state)).name} is acting; only its "
                                           f"step or turn can be ended (OSE-SEQ-1)")
    return None


def _check_actor(state: State, c: Combatant, cmd: Command) -> Illegal | None:
    if c.is_down:
        return Illegal(Core.DOWN, f"{c.name} is down (CORE-HP-1)")
    if is_out(c):
        return Illegal(R.OUT_OF_FIGHT, f"{c.name} has left the fight")
    if is_helpless(c):
        return Illegal(R.HELPLESS, f"{c.name} is pinned or helpless: no actions (OSE-COND-1)")
    s = state.board
    if isinstance(cmd, Declare):
        if s.phase != "declare":
            return Illegal(R.DECLARATIONS_LOCKED, "Declarations are locked once initiative is rolled (OSE-DECL-1)")
        return check_declare(state, c, cmd.action, cmd.spell)
    if s.phase != "act":
        return Illegal(Core.NOT_STARTED, "Declare, then roll initiative first (OSE-SEQ-1)")
    side = acting_side(state)
    if c.side != side:
        return Illegal(Core.NOT_YOUR_TURN, f"{state.encounter.side(side).name} is acting; {c.name}'s side acts in "
                                        f"initiative order (OSE-SEQ-1)")
    if isinstance(cmd, Release):
        if not any(h.grappler == c.id and h.target == cmd.target for h in s.holds):
            return Illegal(R.NOT_HELD, f"{c.name} does not hold {state.name(cmd.target)}")
        return None
    if is_detailed(state) and c.id in s.done:
        return Illegal(R.ALREADY_DONE, f"{c.name} is done with the {STEP_NAMES[current_step(state)]} step "
                                       f"(OSE-ORDER-1)")
    if not is_detailed(state) and econ_of(state, c.id).acted:
        return Illegal(R.ALREADY_ACTED, f"{c.name} has acted this turn (OSE-LOOSE-1)")
    if is_turned(state, c.id) and not isinstance(cmd, TURNED_OK):
        return Illegal(R.TURNED, f"{c.name} is turned: it must move as far from the Warpriest as it can "
                                 f"(OSE-TURN-3)")
    spell = s.casting.get(c.id)
    if spell and isinstance(cmd, AttackCmd):
        # OSE-SPELL-3: a caster may attack, losing the spell (the option says so first); the attack
        # is then judged as if the spell were already gone.
        state = state.with_board(casting={k: v for k, v in s.casting.items() if k != c.id},
                                 econ={**s.econ, c.id: replace(econ_of(state, c.id), full="")})
        s, spell = state.board, ""
    if spell and not isinstance(cmd, CASTING_OK) and not (isinstance(cmd, Narrate) and cmd.uses == "free"):
        return Illegal(R.CASTING, f"{c.name} is casting {spell}: no movement and no other action; cancel it first "
                                  f"(OSE-SPELL-1)")
    if is_detailed(state):
        step = _step_of(state, c, cmd)
        if step and step != current_step(state):
            # The most specific rule first: a shot no step would allow says why (OSE-RANGED-1),
            # not merely that the MISSILE step is over.
            if step == "missile" and checks.get(cmd) is not None:
                own = checks.get(cmd)(state, c, cmd)
                if own is not None and own.reason in RANGED_REFUSALS:
                    return own
            return Illegal(R.WRONG_STEP, f"That happens in the {STEP_NAMES[step]} step; this is the "
                                         f"{STEP_NAMES[current_step(state)]} step (OSE-ORDER-1)")
    fn = checks.get(cmd)
    return fn(state, c, cmd) if fn else None


RANGED_REFUSALS = (R.ENEMY_ADJACENT, R.NO_FREE_HAND, R.NO_AMMUNITION, R.NOTHING_TO_THROW)  # OSE-RANGED-1


def _step_of(state: State, c: Combatant, cmd: Command) -> str:
    if isinstance(cmd, AttackCmd):
        atk = c.weapon(cmd.weapon)
        return "missile" if atk is not None and atk.is_ranged else "melee"
    return STEP_OF.get(type(cmd), "")


# --- per command ------------------------------------------------------------------------------

def _loose_no_grid(state: State, what: str) -> Illegal | None:
    if not is_detailed(state):
        return Illegal(R.NO_GRID, f"{what} needs the grid; in the loose rules the referee narrates positions "
                                  f"(OSE-LOOSE-1)")
    return None


@checks(Move)
def check_move(state: State, c: Combatant, cmd: Move, template: bool = False) -> Illegal | None:
    bad = _loose_no_grid(state, "Moving square by square")
    if bad:
        return bad
    left = move_left(state, c)
    if left <= 0:
        e = econ_of(state, c.id)
        why = "a full-round action" if e.full else "its Move and Main actions"
        return Illegal(R.NO_MOVEMENT_LEFT, f"{c.name} has no movement left: it has used {why} (OSE-ECON-1)")
    return None if template else check_path(state, c, cmd.path, left) or check_flight(state, c, cmd.path)


@checks(Withdraw)
def check_withdraw(state: State, c: Combatant, cmd: Withdraw, template: bool = False) -> Illegal | None:
    bad = _loose_no_grid(state, "Withdrawing")
    if bad:
        return bad
    e = econ_of(state, c.id)
    if e.full or e.main:
        return Illegal(R.MAIN_USED, f"Withdraw is a Main action; {c.name} has used it (OSE-WD-1)")
    return None if template else (check_path(state, c, cmd.path, rate_ft(state, c))
                                  or check_flight(state, c, cmd.path))


@checks(Flee)
def check_flee(state: State, c: Combatant, cmd: Flee) -> Illegal | None:
    if is_dark_for(state, c):
        return Illegal(R.DARK, f"{c.name} cannot flee in the dark without a way to see (OSE-FLEE-1)")
    return None


@checks(Charge)
def check_charge(state: State, c: Combatant, cmd: Charge) -> Illegal | None:
    bad = _loose_no_grid(state, "Charging")
    if bad:
        return bad
    e = econ_of(state, c.id)
    if e.full or e.main or e.move or e.moved_ft:
        return Illegal(R.NEEDS_FULL_ROUND, f"A charge is a full-round action; {c.name} has already acted or moved "
                                           f"(OSE-CHARGE-1)")
    atk = c.weapon(cmd.weapon)
    if atk is None or not atk.is_melee:
        return Illegal(R.NO_MELEE_WEAPON, f"{c.name} charges with a melee weapon (OSE-CHARGE-1)")
    bad = check_weapon(state, c, atk, cmd.weapon)
    if bad:
        return bad
    plan = charge_plan(state, c, cmd.weapon)
    if isinstance(plan, Illegal):
        return plan
    return check_charge_route(state, c, cmd, plan)


def check_charge_route(state: State, c: Combatant, cmd: Charge, plan: tuple[str, list]) -> Illegal | None:
    """OSE-CHARGE-1: the target named must be the nearest enemy, and a path given is checked like a
    move: step by step legal, at least 15 ft, at most twice the rate, ending within the weapon's reach."""
    nearest, _ = plan
    if cmd.target and cmd.target != nearest:
        if not state.has(cmd.target):
            return Illegal(Core.NO_SUCH_COMBATANT, f"There is no combatant {cmd.target!r}")
        return Illegal(R.NOT_NEAREST, f"A charge goes at the nearest enemy, {state.name(nearest)}, not "
                                      f"{state.name(cmd.target)} (OSE-CHARGE-1)")
    if not cmd.path:
        return None
    bad = check_path(state, c, cmd.path, 2 * rate_ft(state, c))  # at most twice the rate
    if bad:
        return Illegal(bad.reason, bad.detail.replace("(OSE-MOVE-1)", "(OSE-CHARGE-1, OSE-MOVE-1)"))
    if (cost := path_cost_ft(cmd.path, grid_of(state).diagonal)) < 15:
        return Illegal(R.TOO_CLOSE, f"A charge covers at least 15 ft; that path is {cost} ft (OSE-CHARGE-1)")
    t = state.get(nearest)
    if t.square is None or chebyshev(tuple(cmd.path[-1]), tuple(t.square)) > weapon_reach(c, c.weapon(cmd.weapon)):
        return Illegal(Core.OUT_OF_REACH, f"That path ends out of reach of {t.name}: a charge ends with "
                                          f"the attack (OSE-CHARGE-1)")
    return None


@checks(AttackCmd)
def check_attack(state: State, c: Combatant, cmd: AttackCmd) -> Illegal | None:
    t = state.find(cmd.target)
    if t is None:
        return _no_one(cmd.target)
    if is_out(t):
        return Illegal(R.TARGET_OUT, f"{t.name} is out of the fight")
    if not state.hostile(c, t):
        return Illegal(R.NOT_AN_ENEMY, f"{t.name} is not an enemy of {c.name} (CORE-SIDE-1)")
    atk = c.weapon(cmd.weapon)
    bad = check_weapon(state, c, atk, cmd.weapon)
    if bad:
        return bad
    if cmd.edge not in ("", "adv", "dis"):
        return Illegal(R.BAD_EDGE, f"{cmd.edge!r} is not adv or dis (OSE-ADV-1)")
    bad = check_attack_economy(state, c, atk)
    if bad or not is_detailed(state):
        return bad
    return check_position(state, c, atk, t)


def check_attack_economy(state: State, c: Combatant, atk: Weapon) -> Illegal | None:
    """OSE-ECON-1 with OSE-RANGED-2/3: melee, bow, sling and thrown are Main; a crossbow the full round."""
    if not is_detailed(state):
        return None
    e = econ_of(state, c.id)
    if atk.kind == "crossbow":
        if e.full or e.main or e.move or e.moved_ft:
            return Illegal(R.NEEDS_FULL_ROUND, f"A crossbow shot is a full-round action with no movement; {c.name} "
                                               f"has already acted or moved (OSE-RANGED-3)")
        return None
    if e.full:
        return Illegal(R.FULL_ROUND_USED, f"{c.name} has used a full-round action this round (OSE-ECON-1)")
    if e.main:
        return Illegal(R.MAIN_USED, f"{c.name} has used the Main action this round (OSE-ECON-1)")
    if shot_manipulations(c, atk) == 1 and e.manips >= 1 and e.move:
        return Illegal(R.NO_ACTION_TO_LOAD, f"{c.name} has no action left for the manipulation to draw and load "
                                            f"(OSE-RANGED-2, OSE-MANIP-1)")
    return None


def check_position(state: State, c: Combatant, atk: Weapon, t: Combatant) -> Illegal | None:
    if c.square is None or t.square is None:
        return Illegal(Core.NOT_PLACED, f"{c.name if c.square is None else t.name} is not on the map")
    bs = bodies(state)
    me = body(state, c.id)
    if atk.is_ranged:
        near = ranged_blocked_by(me, bs, hostile_fn(state))
        if near:
            names = ", ".join(state.name(x) for x in near)
            return Illegal(R.ENEMY_ADJACENT, f"{c.name} cannot make a ranged attack: {names} within 5 ft "
                                             f"(OSE-RANGED-1)")
        feet = shot_feet(c, t)
        if range_band(atk, feet) == "beyond":
            rule = RANGE_RULE.get(atk.kind, "OSE-RANGED-1")
            return Illegal(Core.OUT_OF_RANGE, f"{t.name} is {feet} ft away: beyond the {atk.name}'s long range "
                                              f"({ranges(atk)[2]} ft; {rule}, DEFAULT ranges)")
        if not line_of_sight(state, tuple(c.square), tuple(t.square)):
            return Illegal(R.NO_LINE_OF_SIGHT, f"{c.name} has no line of sight to {t.name}: a wall stands "
                                               f"between them (OSE-RANGED-1, DEFAULT)")
        return None
    reach = weapon_reach(c, atk)
    probe = Body(c.id, c.side, tuple(c.square), reach, True)
    if not second_rank_ok(probe, tuple(t.square), bs, hostile_fn(state), grid=grid_of(state)):
        rule = "OSE-STANCE-3" if atk.has("reach") else "OSE-AOO-3"
        return Illegal(Core.OUT_OF_REACH, f"{t.name} is out of reach of {c.name}'s {atk.name} ({reach * 5} ft) ({rule})")
    return None


@checks(CompleteSpell)
def check_complete(state: State, c: Combatant, cmd: CompleteSpell) -> Illegal | None:
    if c.id not in state.board.casting:
        return Illegal(R.NOT_CASTING, f"{c.name} declared no spell this round (OSE-SPELL-4: no undeclared casting)")
    for t in cmd.targets:
        if not state.has(t):
            return _no_one(t)
    return None


@checks(CancelSpell)
def check_cancel(state: State, c: Combatant, cmd: CancelSpell) -> Illegal | None:
    if c.id not in state.board.casting:
        return Illegal(R.NOT_CASTING, f"{c.name} is not casting a spell")
    return None


@checks(Manipulate)
def check_manipulate(state: State, c: Combatant, cmd: Manipulate) -> Illegal | None:
    bad = check_manipulation(state, c, cmd.action, cmd.item)
    if bad and not is_detailed(state) and bad.reason in (R.NO_ACTION_LEFT, R.SHIELD_NEEDS_MOVE,
                                                         R.CASTING_ONE_MANIPULATION):
        return None  # the loose rules do not count actions
    return bad


@checks(Grapple)
def check_grapple_cmd(state: State, c: Combatant, cmd: Grapple) -> Illegal | None:
    e = econ_of(state, c.id)
    if is_detailed(state) and (e.full or e.main):
        return Illegal(R.MAIN_USED, f"A grapple is a Main action; {c.name} has used it (OSE-GRAP-1, OSE-ECON-1)")
    return check_grapple(state, c, state.find(cmd.target), cmd.intent)


@checks(TurnUndead)
def check_turn_cmd(state: State, c: Combatant, cmd: TurnUndead) -> Illegal | None:
    return check_turn(state, c, cmd.group)


@checks(Narrate)
def check_narrate(state: State, c: Combatant, cmd: Narrate) -> Illegal | None:
    if cmd.uses not in ("main", "move", "full", "free"):
        return Illegal(R.BAD_ACTION_TYPE, f"{cmd.uses!r} is not main, move, full or free (OSE-ECON-1)")
    if not is_detailed(state):
        return None
    e = econ_of(state, c.id)
    if cmd.uses == "main" and (e.main or e.full):
        return Illegal(R.MAIN_USED, f"{c.name} has used the Main action this round (OSE-ECON-1)")
    if cmd.uses == "move" and (e.move or e.full):
        return Illegal(R.MOVE_USED, f"{c.name} has used the Move action this round (OSE-ECON-1)")
    if cmd.uses == "full" and (e.main or e.move or e.full or e.moved_ft):
        return Illegal(R.NEEDS_FULL_ROUND, f"{c.name} has already acted this round (OSE-ECON-1)")
    return None


def check_path(state: State, c: Combatant, path: tuple, budget: int) -> Illegal | None:
    """A path from the actor's square, step by step legal, ending on a free square, within budget (OSE-MOVE-1)."""
    blocked = {b.square for b in bodies(state) if b.id != c.id and not b.is_down and state.hostile(c.side, b.side)}
    bad = path_problem(grid_of(state), c.square, path, blocked, who=c.name, rule="OSE-MOVE-1")
    if bad:
        return bad
    end = tuple(path[-1])
    for o in state.combatants:
        if o.id != c.id and o.square is not None and tuple(o.square) == end and not o.has_condition(FLED):
            return Illegal(Core.OCCUPIED, f"{o.name} is on {end}: {c.name} cannot end a move there")
    cost = path_cost_ft(path, grid_of(state).diagonal)
    if cost > budget:
        return Illegal(Core.OUT_OF_RANGE, f"{c.name} can move {budget} ft more this round; that path is {cost} ft "
                                          f"(OSE-MOVE-1)")
    return None


def check_flight(state: State, c: Combatant, path: tuple) -> Illegal | None:
    """OSE-TURN-3: a turned undead "must use all subsequent actions to move as far away from the
    Warpriest as possible": a move that does not end farther from him is refused."""
    w = turned_from(state, c)
    if w is None or not path:
        return None
    gain = flight_gain(state, c, w, tuple(path[-1]))
    if gain > 0:
        return None
    return Illegal(R.NOT_AWAY, f"{c.name} is turned by {w.name}: its move must take it farther from him "
                               f"(this one {'brings it closer' if gain < 0 else 'keeps the same distance'}) "
                               f"(OSE-TURN-3)")


def charge_plan(state: State, c: Combatant, weapon: str) -> tuple[str, list] | Illegal:
    """OSE-CHARGE-1: (target, path) toward the nearest enemy, at least 15 ft and at most twice the rate."""
    if body(state, c.id) is None:
        return Illegal(Core.NOT_PLACED, f"{c.name} is not on the map")
    near = nearest_charge(state, c, weapon)
    if near is None:
        return Illegal(R.NO_ONE_TO_CHARGE, f"No enemy within {2 * rate_ft(state, c)} ft of {c.name}'s charge "
                                           f"(OSE-CHARGE-1)")
    # "Nearest" is by movement; a nearest enemy under 15 ft away cannot be charged (movement.charge_path).
    if path_cost_ft(near[1], grid_of(state).diagonal) < 15:
        return Illegal(R.TOO_CLOSE, f"The nearest enemy, {state.name(near[0])}, is less than 15 ft of movement "
                                    f"away: attack it instead (OSE-CHARGE-1)")
    return near


def check_weapon(state: State, c: Combatant, atk: Weapon | None, attack_name: str) -> Illegal | None:
    """Is the weapon in hand and usable with what the hands hold (OSE-STANCE-*, OSE-RANGED-1, OSE-COND-1)?"""
    if atk is None:
        return Illegal(Core.NO_SUCH_WEAPON, f"{c.name} has no attack called {attack_name!r}")
    if atk.is_melee:
        if atk.item and not c.holds(atk.item):
            return Illegal(R.NOT_IN_HAND, f"{c.name}'s {atk.item} is not in hand: draw it first (OSE-MANIP-1)")
        if not hands_ok(c, atk):
            rule = "OSE-STANCE-3" if atk.has("reach") else "OSE-STANCE-2"
            return Illegal(R.NEEDS_TWO_HANDS, f"{c.name}'s {atk.name} needs both hands ({rule})")
        if c.has_condition(GRAPPLED) and not atk.has("small"):
            return Illegal(R.GRAPPLED_SMALL_ONLY, f"{c.name} is grappled: only Small weapons (OSE-COND-1)")
        return None
    # OSE-RANGED-1: two free hands (the weapon itself aside); thrown weapons need one.
    if atk.kind == "thrown":
        if atk.item and not c.holds(atk.item):
            if atk.item not in c.inventory:
                return Illegal(R.NOTHING_TO_THROW, f"{c.name} has no {atk.item} to throw (OSE-RANGED-5)")
            if c.free_hands < 1:
                return Illegal(R.NO_FREE_HAND, f"{c.name} needs a free hand to draw and throw (OSE-RANGED-1)")
        return None
    if atk.item:
        if not c.holds(atk.item):
            return Illegal(R.NOT_IN_HAND, f"{c.name}'s {atk.item} is not in hand: draw it first (OSE-MANIP-1)")
        others = [h for h in c.hands if h and h != atk.item]
        if others:
            return Illegal(R.HANDS_FULL, f"{c.name} needs both hands free to shoot ({', '.join(others)} in hand) "
                                         f"(OSE-RANGED-1)")
    if c.has_condition(GRAPPLED):
        return Illegal(R.GRAPPLED_SMALL_ONLY, f"{c.name} is grappled: only Small weapons (OSE-COND-1)")
    die = ammo_die(state, c, "ammo")
    if die == "out":
        return Illegal(R.NO_AMMUNITION, f"{c.name} is out of ammunition (OSE-RANGED-1, OSE-RES-1)")
    return None

def check_grapple(state: State, c: Combatant, t: Combatant | None, intent: str) -> Illegal | None:
    if t is None or is_out(t):
        return Illegal(R.NO_TARGET, f"{c.name} has no one to grapple there")
    if intent not in ("grab", "escape"):
        return Illegal(R.BAD_INTENT, f"A grapple grabs or escapes, not {intent!r} (OSE-GRAP-1)")
    if intent == "escape" and not any(h.grappler == t.id for h in holds_of(state, c.id)):
        return Illegal(R.NOT_HELD, f"{t.name} does not hold {c.name} (OSE-GRAP-1)")
    if intent == "grab" and not state.hostile(c, t):
        return Illegal(R.NOT_AN_ENEMY, f"{t.name} is not an enemy of {c.name}")
    if is_detailed(state) and (c.square is None or t.square is None or not is_adjacent(c.square, t.square)):
        return Illegal(R.NOT_ADJACENT, f"{t.name} is not next to {c.name} (OSE-GRAP-1)")
    return None




def manip_cost(state: State, c: Combatant, action: str, item: str) -> str | Illegal:
    """What a manipulation uses: "free", "move" or "main"; shields always use the Move."""
    e = econ_of(state, c.id)
    if action == "drop":
        return "free"
    if c.id in state.board.casting and e.manips >= 1:
        return Illegal(R.CASTING_ONE_MANIPULATION, f"{c.name} is casting: one manipulation at most (OSE-SPELL-1)")
    if item and is_shield(c, item) and action in ("draw", "stow"):
        if e.move or e.full or c.id in state.board.casting:
            return Illegal(R.SHIELD_NEEDS_MOVE, f"Readying or stowing a shield uses the Move action, which "
                                                f"{c.name} has spent (OSE-MANIP-1)")
        return "move"
    if e.manips == 0:
        return "free"
    if e.full:
        return Illegal(R.NO_ACTION_LEFT, f"{c.name} has used a full-round action: no second manipulation "
                                         f"(OSE-MANIP-1)")
    if e.move == "":
        return "move"
    if e.main == "":
        return "main"
    return Illegal(R.NO_ACTION_LEFT, f"{c.name} has no action left for another manipulation (OSE-MANIP-1)")


def check_manipulation(state: State, c: Combatant, action: str, item: str) -> Illegal | None:
    if action not in ("draw", "stow", "drop", "other"):
        return Illegal(R.BAD_MANIPULATION, f"{action!r} is not a manipulation (draw, stow, drop, other)")
    cost = manip_cost(state, c, action, item)
    if isinstance(cost, Illegal):
        return cost
    if action == "draw":
        if item in tuple(c.stat("backpack", ()) or ()) and item not in c.inventory:
            return Illegal(R.IN_BACKPACK, f"{item} is in {c.name}'s backpack: out of reach in combat (OSE-MANIP-1)")
        if item not in c.inventory:
            return Illegal(R.NOT_CARRIED, f"{c.name} does not carry {item!r} within reach")
        need = 2 if draw_needs_two(c, item) else 1
        if c.free_hands < need:
            return Illegal(R.NO_FREE_HAND, f"{c.name} needs {need} free hand{'s' if need > 1 else ''} to draw "
                                           f"{item} (OSE-MANIP-1)")
    elif action in ("stow", "drop"):
        if not c.holds(item):
            return Illegal(R.NOT_IN_HAND, f"{c.name} does not hold {item!r}")
    elif action == "other" and c.free_hands < 1:
        return Illegal(R.NO_FREE_HAND, f"{c.name} has no free hand (OSE-MANIP-1)")
    return None




def check_turn(state: State, c: Combatant, group: str) -> Illegal | None:
    if not c.stat("warpriest", False):
        return Illegal(R.NOT_A_WARPRIEST, f"Only a Warpriest can Turn Undead; {c.name} is not one (OSE-TURN-1)")
    if not holds_focus(c):
        return Illegal(R.NO_HOLY_SYMBOL, f"{c.name} must hold the holy symbol or the favoured weapon (OSE-TURN-1)")
    if (c.id, group) in state.board.turn_locks:
        return Illegal(R.TURN_LOCKED, f"{c.name} failed against {group}: no more turning them for 24 hours "
                                      f"(OSE-TURN-4)")
    members = undead_groups(state, c).get(group)
    if not members:
        return Illegal(R.NO_UNDEAD, f"No standing undead in group {group!r}")
    if not candidates(state, members):
        return Illegal(R.ALL_TURNED, f"Every undead of {group} is already turned (OSE-TURN-3)")
    e = econ_of(state, c.id)
    if opt(state, "turn_action") == "full_round":
        if e.main or e.move or e.full or e.moved_ft:
            return Illegal(R.NEEDS_FULL_ROUND, f"Turn Undead is a full-round action; {c.name} has acted (OSE-TURN-1)")
    elif e.main or e.full:
        return Illegal(R.MAIN_USED, f"Turn Undead is a Main action; {c.name} has used it (OSE-TURN-1)")
    return None




def check_declare(state: State, c: Combatant, action: str, spell: str) -> Illegal | None:
    if action == "none":
        return None
    if action == "spell":
        # OSE-SPELL-5: only a spell still in memory can be declared.
        if not spells_of(c):
            if memorised_at_start(state, c.id):
                return Illegal(R.NOT_MEMORISED, f"{c.name} has no spell left in memory (OSE-SPELL-5)")
            return Illegal(R.NO_SPELLS, f"{c.name} has no spells memorised (OSE-DECL-1)")
        if not spell:
            return Illegal(R.NO_SPELL_NAMED, f"Name the spell {c.name} casts: it is declared by name "
                                             "before initiative (OSE-DECL-1)")
        if memory_entry(spells_of(c), spell) not in spells_of(c):
            if memory_entry(memorised_at_start(state, c.id), spell) in memorised_at_start(state, c.id):
                return Illegal(R.NOT_MEMORISED, f"{c.name} no longer has {spell} in memory: cast, cancelled "
                                                f"or lost already (OSE-SPELL-5)")
            return Illegal(R.UNKNOWN_SPELL, f"{c.name} has no spell {spell!r} memorised (OSE-SPELL-5)")
        if state.round == 1 and c.side in state.board.surprised:
            return Illegal(R.SURPRISED, f"{c.name}'s side is surprised: no spells this round (OSE-SUR-2)")
        if c.has_condition("grappled"):
            return Illegal(R.GRAPPLED_NO_SPELLS, f"{c.name} is grappled: no spells (OSE-COND-1)")
        return None
    if action in ("full_defense", "brace"):
        word = "Full Defense" if action == "full_defense" else "Brace"
        if not is_detailed(state):
            return Illegal(R.DETAILED_ONLY, f"{word} is only meaningful in the detailed rules (OSE-DECL-1, "
                                            f"OSE-LOOSE-1)")
        if action == "brace" and not held_attack(c, "brace"):
            return Illegal(R.NO_BRACE_WEAPON, f"{c.name} holds no weapon with the Brace quality (OSE-BRACE-1)")
        return None
    return Illegal(R.BAD_DECLARATION, f"{action!r} is not a declaration (spell, full_defense, brace, none)")
