"""Why an Ogre command is refused now: the first broken rule, broad to narrow, as Illegal(reason, sentence).

`check` runs the phase and the prompt first (nothing else while someone is
asked, UI principle 2), then the actor, then the command's own table entry.
`moot` is the softer question the resolution asks of a command the referee
allowed (CORE-REF-1): can it mean anything at all now?
"""
from __future__ import annotations


from ...engine.commands import Command, Illegal, Reason as Core
from ...engine.geometry import distance_squares
from ...engine.model import Combatant
from ...engine.tables import Handlers
from ...engine.state import State
from . import grid as og
from .reasons import Reason
from .commands import (StandingAnswer, ANSWERS, Act, Advance, Attack, BeforeTheFight, Break, Cast, Charge, Counter, Delay, Follow,
                       Move, Opportunity, React, Ready, RollInitiative, Strike, Stun, Trigger, Withdraw)
from .state import CATEGORIES, FOLLOWS, MENU_BY_KEY, MOVES, TRIGGERS, OgreState, Phase, is_flat_footed, is_stunned
from .surprise import terrains
from .timeline import can_declare, declaring, delayed_now, pick_attack




def _no_one(cid: object) -> Illegal:
    return Illegal(Core.NO_SUCH_COMBATANT, f"There is no combatant {cid!r}")


# --- the order of checks --------------------------------------------------------------------

setup = Handlers("ogre setup check")      # before and at initiative: (state, cmd)
count = Handlers("ogre count check")      # the count itself, no actor: (state, cmd)
actions = Handlers("ogre action check")   # an actor's command: (state, actor, cmd)


def check(state: State, cmd: Command) -> Illegal | None:
    """The first rule an Ogre command breaks; None if it may be taken now."""
    s: OgreState = state.board
    first = setup.get(cmd)
    if first is not None:
        return first(state, cmd)
    if s.phase != Phase.FIGHT:
        return Illegal(Core.NOT_STARTED, "Roll initiative first: the count starts after it (OGRE-INIT-1)")
    p = state.prompt
    answer = ANSWERS.get(p.kind) if p is not None else None
    if p is not None and not (answer and isinstance(cmd, answer) and cmd.actor == p.actor):
        if isinstance(cmd, Stun):
            return None if state.has(cmd.target) else _no_one(cmd.target)
        return Illegal(Core.WAITING_FOR_ANSWER, f"{state.name(p.actor)} must answer first: {p.question} ({p.rule})")
    if p is None and type(cmd) in ANSWERS.values():
        return Illegal(Reason.NOTHING_TO_ANSWER, f"Nothing asks {state.name(cmd.actor)} that now")
    whole = count.get(cmd)
    if whole is not None:
        return whole(state, cmd)
    actor = getattr(cmd, "actor", None)
    if actor is None or not state.has(actor) or not s.has(actor):
        return _no_one(actor)
    c = state.get(actor)
    if c.is_down:
        return Illegal(Core.DOWN, f"{c.name} is down and cannot act (CORE-HP-1)")
    fn = actions.get(cmd)
    return fn(state, c, cmd) if fn is not None else None


@setup(BeforeTheFight)
def _check_surprise(state: State, cmd: BeforeTheFight) -> Illegal | None:
    if state.board.phase != Phase.SETUP:
        return Illegal(Core.ALREADY_ROLLED, "Surprise is settled before initiative is rolled (OGRE-SUR-1)")
    if len(cmd.sides) < 2 or len(set(cmd.sides)) != len(cmd.sides):
        return Illegal(Reason.NEED_GROUPS, "Name at least two different groups (OGRE-SUR-1)")
    for sid in cmd.sides + (cmd.surprised or ()):
        if state.encounter.side(sid) is None:
            return Illegal(Core.NO_SUCH_SIDE, f"There is no group {sid!r} (OGRE-SUR-1)")
    if len(cmd.spot) != len(cmd.sides):
        return Illegal(Reason.NEED_SPOT, "Enter each group's best Spot result (OGRE-SUR-1)")
    if cmd.stalk and len(cmd.stalk) != len(cmd.sides) or cmd.ranged and len(cmd.ranged) != len(cmd.sides):
        return Illegal(Reason.BAD_INPUT, "Give Stalk results and ranged flags for every group, or none (OGRE-SUR-1)")
    if cmd.terrain not in terrains(state):
        return Illegal(Reason.NO_SUCH_TERRAIN, f"{cmd.terrain!r} is not a terrain of the table: "
                                               f"{', '.join(terrains(state))} (OGRE-SUR-1)")
    if cmd.distance_ft is not None and not 0 <= cmd.distance_ft <= 100000:
        return Illegal(Core.OUT_OF_RANGE, "The starting distance must be 0 ft or more (OGRE-SUR-1)")
    return None


@setup(RollInitiative)
def _check_initiative(state: State, cmd: RollInitiative) -> Illegal | None:
    if state.board.phase != Phase.SETUP:
        return Illegal(Core.ALREADY_ROLLED, "Initiative is already rolled; the count has started (OGRE-INIT-1)")
    return None


@count(Advance)
def _check_advance(state: State, cmd: Advance) -> Illegal | None:
    due = declaring(state)
    if due:
        names = ", ".join(state.name(i) for i in due)
        return Illegal(Reason.MUST_DECLARE, f"{names} must declare an action at segment {state.board.segment} "
                                            f"first (or delay) (OGRE-ACT-1)")
    return None


@count(Stun)
def _check_stun(state: State, cmd: Stun) -> Illegal | None:
    if not state.has(cmd.target):
        return _no_one(cmd.target)
    if not 1 <= cmd.segments <= 1000:
        return Illegal(Core.OUT_OF_RANGE, "A stun lasts 1 to 1000 segments (OGRE-BREAK-1)")
    return None


# --- answers, reactions, breaks -------------------------------------------------------------

@actions(Opportunity)
def _check_opportunity(state: State, c: Combatant, cmd: Opportunity) -> Illegal | None:
    mover = state.get(state.prompt.data["mover"])
    if cmd.always and (cmd.always not in ("me", "side") or cmd.use == "new"):
        return Illegal(Core.BAD_ANSWER, "Only using the pending attack or letting it go can be a standing "
                                        "answer, for the combatant or its side (OGRE-AOO-2)")
    if cmd.use == "decline":
        return None
    if cmd.use == "pending":
        a = state.board.fighter(c.id).action
        if a is None or not a.is_offensive:
            return Illegal(Reason.NO_PENDING_ATTACK, f"{c.name} has no attack under way to use (OGRE-AOO-2)")
        atk = pick_attack(c, a.weapon)
        if atk is None or not og.in_reach(state, c, atk, mover):
            return Illegal(Core.OUT_OF_REACH, f"{c.name}'s pending attack cannot reach {mover.name} (OGRE-AOO-2)")
        if cmd.fast:
            return Illegal(Core.BAD_ANSWER, "Only a new attack can be hurried (OGRE-AOO-2)")
        return None
    if cmd.use == "new":
        atk = pick_attack(c, cmd.weapon, melee_only=True)
        if atk is None or not og.in_reach(state, c, atk, mover):
            return Illegal(Core.OUT_OF_REACH, f"{c.name} has no melee attack that reaches {mover.name} "
                                              f"(OGRE-AOO-2)")
        return None
    return Illegal(Core.BAD_ANSWER, "Answer pending, new or decline (OGRE-AOO-2)")


@actions(StandingAnswer)
def _check_standing(state: State, c: Combatant, cmd: StandingAnswer) -> Illegal | None:
    if cmd.use not in ("", "pending", "decline") or cmd.scope not in ("me", "side"):
        return Illegal(Core.BAD_ANSWER, "Always use the pending attack, always let it go, or ask, for the "
                                        "combatant or its side (OGRE-AOO-2)")
    return None


@actions(Follow)
def _check_follow(state: State, c: Combatant, cmd: Follow) -> Illegal | None:
    if not cmd.kind:
        return None
    if cmd.kind not in FOLLOWS:
        return Illegal(Core.BAD_ANSWER, f"Follow quick, short or standard, not {cmd.kind!r} (OGRE-FOLLOW-1)")
    problem = og.path_problem(state, c, tuple(cmd.path), f"follow-{cmd.kind}")
    if problem:
        return problem
    t = state.get(state.prompt.data["target"])
    a = state.board.fighter(c.id).action
    atk = pick_attack(c, a.weapon if a else "")
    reach = og.reach_squares(atk) if atk is not None and atk.is_melee else 1
    if distance_squares(tuple(cmd.path[-1]), tuple(t.square)) > reach:
        return Illegal(Reason.NOT_FOLLOWING, f"The follow must end within reach of {t.name} (OGRE-FOLLOW-1)")
    return None


@actions(Counter)
def _check_counter(state: State, c: Combatant, cmd: Counter) -> Illegal | None:
    return None  # the prompt asked it: either answer is legal (OGRE-READY-1)


@actions(Strike)
def _check_strike(state: State, c: Combatant, cmd: Strike) -> Illegal | None:
    return None  # the prompt asked it: strike or hold, either is legal (OGRE-READY-1)


@actions(Break)
def _check_break(state: State, c: Combatant, cmd: Break) -> Illegal | None:
    if state.board.fighter(c.id).action is None:
        return Illegal(Reason.NOTHING_TO_BREAK, f"{c.name} has no action under way to break (OGRE-BREAK-1)")
    return None


@actions(React)
def _check_react(state: State, c: Combatant, cmd: React) -> Illegal | None:
    s: OgreState = state.board
    if cmd.category not in CATEGORIES:
        return Illegal(Reason.NO_SUCH_CATEGORY, f"{cmd.category!r} is not a category (OGRE-CAT-1)")
    if is_flat_footed(s, c.id):
        return Illegal(Reason.FLAT_FOOTED, f"{c.name} is flat-footed until segment "
                                           f"{s.fighter(c.id).initiative}: No Defense, no reactions (OGRE-FF-1)")
    if is_stunned(s, c.id):
        return Illegal(Reason.STUNNED, f"{c.name} is stunned until segment {s.fighter(c.id).stunned_until} "
                                       f"(OGRE-BREAK-1)")
    return None


@actions(Trigger)
def _check_trigger(state: State, c: Combatant, cmd: Trigger) -> Illegal | None:
    f = state.board.fighter(c.id)
    if f.action is None or f.action.kind != "ready":
        return Illegal(Reason.NOT_READY, f"{c.name} has no readied action (OGRE-READY-1)")
    if not f.action.target:
        return Illegal(Reason.NO_TARGET, f"{c.name}'s {f.action.label} names no target; it fires by itself "
                                         f"when a foe charges into reach (OGRE-READY-1)")
    return None


# --- declarations ---------------------------------------------------------------------------

categories = Handlers("ogre category")   # a declaration's category before tempo: (cmd) -> str | None
declarations = Handlers("ogre declaration check")  # (state, actor, cmd), once the actor may declare


def base_category(cmd: Command) -> str | None:
    """The category of a declaration before hurry or care (OGRE-CAT-1, OGRE-LIST-1)."""
    fn = categories.get(cmd)
    return fn(cmd) if fn is not None else None


categories(Attack, Ready)(lambda cmd: "Standard")
categories(Withdraw, Charge)(lambda cmd: "Long")
categories(Move)(lambda cmd: MOVES[cmd.kind][1] if cmd.kind in MOVES else None)
categories(Act)(lambda cmd: m.category if (m := MENU_BY_KEY.get(cmd.action)) else None)
categories(Cast)(lambda cmd: cmd.category if cmd.category in CATEGORIES else None)


@actions(Attack, Charge, Move, Withdraw, Act, Cast, Ready, Delay)
def _check_declaration(state: State, c: Combatant, cmd: Command) -> Illegal | None:
    s: OgreState = state.board
    f = s.fighter(c.id)
    if delayed_now(state, c.id):
        return Illegal(Reason.DELAYED, f"{c.name} delayed on segment {s.segment}: it declares nothing on this "
                                       f"segment and may declare at any later one (OGRE-DELAY-1)")
    if not can_declare(state, c.id):
        if f.action is not None:
            until = 'its trigger' if f.action.resolves is None else 'segment ' + str(f.action.resolves)
            return Illegal(Reason.BUSY, f"{c.name} is busy with {f.action.label} until {until}; break it first "
                                        f"to declare anew (OGRE-ACT-1, OGRE-BREAK-1)")
        if is_stunned(s, c.id):
            return Illegal(Reason.STUNNED, f"{c.name} is stunned until segment {f.stunned_until} (OGRE-BREAK-1)")
        if f.initiative is not None and s.segment < f.initiative:
            return Illegal(Reason.FLAT_FOOTED, f"{c.name} declares at its initiative, segment {f.initiative}; "
                                               f"it is segment {s.segment} (OGRE-INIT-1, OGRE-FF-1)")
        return Illegal(Reason.NOT_DUE, f"{c.name} declares next at segment {f.due} (OGRE-DELAY-1)")
    if isinstance(cmd, Delay):
        if cmd.until is not None and cmd.until <= s.segment:
            return Illegal(Reason.PAST, f"Delay until a later segment than {s.segment} (OGRE-DELAY-1)")
        return None
    base = base_category(cmd)
    if base is None:
        return Illegal(Reason.UNKNOWN_ACTION, f"{getattr(cmd, 'action', '')!r} is not an action of the list "
                                              f"(OGRE-LIST-1)")
    return _check_tempo(c, base, getattr(cmd, "tempo", 0)) or declarations.get(cmd)(state, c, cmd)


def _check_tempo(c: Combatant, base: str, tempo: int) -> Illegal | None:
    if tempo not in (-1, 0, 1, 2):
        return Illegal(Reason.BAD_TEMPO, "Hurry one category (fast) or take one or two more "
                                         "(OGRE-FAST-1, OGRE-SLOW-1)")
    if tempo < 0 and base in ("Immediate", "Instantaneous"):
        return Illegal(Reason.CANNOT_HURRY, f"{c.name} cannot hurry an {base} action: nothing is quicker "
                                            f"(OGRE-FAST-1)")
    if tempo > 0 and CATEGORIES.index(base) + tempo >= len(CATEGORIES):
        return Illegal(Reason.CANNOT_SLOW, "No category is slower than Very Slow (OGRE-SLOW-1)")
    return None


@declarations(Attack, Charge)
def _check_strike(state: State, c: Combatant, cmd: Attack | Charge) -> Illegal | None:
    t = state.find(cmd.target)
    if t is None or t.is_down or not state.hostile(c, t):
        return Illegal(Reason.NO_TARGET, f"{state.name(cmd.target)} is not a standing foe of {c.name} "
                                         f"(OGRE-ATK-1)")
    charge = isinstance(cmd, Charge)
    atk = pick_attack(c, cmd.weapon, melee_only=charge)
    if atk is None:
        what = "a melee attack in hand" if charge else "that attack ready"
        return Illegal(Core.NO_SUCH_WEAPON, f"{c.name} has not {what}"
                                            f"{' (' + cmd.weapon + ')' if cmd.weapon else ''} (OGRE-ATK-1)")
    if not charge:
        if not og.in_reach(state, c, atk, t):
            return Illegal(Core.OUT_OF_REACH, f"{t.name} is out of reach of {c.name}'s {atk.name}; "
                                              f"move or charge first (OGRE-ATK-1)")
        return None
    problem = og.path_problem(state, c, tuple(cmd.path), "charge")
    if problem:
        return problem
    if not og.in_reach(state, c, atk, t, from_square=tuple(cmd.path[-1])):
        return Illegal(Core.OUT_OF_REACH, f"The charge must end within reach of {t.name} (OGRE-CHARGE-1)")
    return None


@declarations(Move)
def _check_move(state: State, c: Combatant, cmd: Move) -> Illegal | None:
    return og.path_problem(state, c, tuple(cmd.path), cmd.kind)


@declarations(Withdraw)
def _check_withdraw(state: State, c: Combatant, cmd: Withdraw) -> Illegal | None:
    if c.has_condition("blinded"):
        return Illegal(Reason.BLINDED, f"{c.name} is blinded and cannot withdraw (OGRE-WD-1)")
    return og.path_problem(state, c, tuple(cmd.path), "withdraw")


@declarations(Act)
def check_act(state: State, c: Combatant, cmd: Act) -> Illegal | None:
    """The list action's own conditions (OGRE-LIST-1), once the actor may declare."""
    m = MENU_BY_KEY[cmd.action]
    if m.requires and not c.has_condition(m.requires):
        return Illegal(Reason.NOT_NEEDED, f"{c.name} is not {m.requires}: nothing to {m.label.lower()} "
                                          f"(OGRE-LIST-1)")
    if m.forbids and c.has_condition(m.forbids):
        return Illegal(Reason.NOT_NEEDED, f"{c.name} is already {m.forbids} (OGRE-LIST-1)")
    if m.needs_item == "carried":
        if not cmd.item or cmd.item not in c.inventory:
            return Illegal(Reason.NO_ITEM, f"{c.name} carries no {cmd.item or 'item'} to draw (OGRE-LIST-1)")
        if "" not in c.hands:
            return Illegal(Reason.HANDS_FULL, f"{c.name} has no free hand (OGRE-LIST-1)")
    if m.needs_item == "held" and (not cmd.item or cmd.item not in c.hands):
        return Illegal(Reason.NOT_HELD, f"{c.name} does not hold {cmd.item or 'anything'} (OGRE-LIST-1)")
    if cmd.target and not state.has(cmd.target):
        return _no_one(cmd.target)
    return None


@declarations(Cast)
def _check_cast(state: State, c: Combatant, cmd: Cast) -> Illegal | None:
    if not 0 <= cmd.level <= 20:
        return Illegal(Core.OUT_OF_RANGE, "A spell level runs from 0 to 20 (OGRE-READY-1)")
    for t in cmd.on:
        if not state.has(t):
            return _no_one(t)
    return None


@declarations(Ready)
def _check_ready(state: State, c: Combatant, cmd: Ready) -> Illegal | None:
    if cmd.action not in ("attack", "counterspell"):
        return Illegal(Reason.UNKNOWN_ACTION, f"Ready an attack or a counterspell, not {cmd.action!r} "
                                              f"(OGRE-READY-1)")
    if cmd.trigger not in TRIGGERS:
        return Illegal(Reason.NO_SUCH_TRIGGER, f"{cmd.trigger!r} is not a trigger: {', '.join(TRIGGERS)} "
                                               f"(OGRE-READY-1)")
    if cmd.action == "counterspell" and cmd.trigger != "cast":
        return Illegal(Reason.BAD_TRIGGER, "A counterspell waits for the target to start a spell (OGRE-READY-1)")
    if cmd.trigger != "charge" or cmd.target:
        t = state.find(cmd.target)
        if t is None or t.is_down or not state.hostile(c, t):
            return Illegal(Reason.NO_TARGET, f"Name the standing foe {c.name} waits for (OGRE-READY-1)")
    if cmd.action == "attack" and pick_attack(c, cmd.weapon) is None:
        return Illegal(Core.NO_SUCH_WEAPON, f"{c.name} has no attack ready to ready (OGRE-READY-1)")
    return None


# --- moot: an allowed command that cannot mean anything (CORE-REF-1) ---------------------------

def moot(state: State, cmd: Command) -> str:
    """Why an (allowed) command cannot mean anything now, or ""."""
    first = setup_moots.get(cmd)
    if first is not None:
        return first(state, cmd)
    s: OgreState = state.board
    if s.phase != Phase.FIGHT:
        return "Roll initiative first (OGRE-INIT-1)"
    if state.prompt is not None and isinstance(cmd, Advance):
        return f"{state.name(state.prompt.actor)} must answer first ({state.prompt.rule})"
    if isinstance(cmd, Stun):
        return "" if state.has(cmd.target) and cmd.segments > 0 else "A stun needs a combatant and a duration"
    actor = getattr(cmd, "actor", None)
    if actor is not None and not s.has(actor):
        return f"There is no combatant {actor!r}"
    fn = moots.get(cmd)
    return fn(state, state.get(actor), cmd) if fn is not None else ""


setup_moots = Handlers("ogre setup moot")  # (state, cmd) -> why, or ""
moots = Handlers("ogre moot")  # (state, actor, cmd) -> why, or ""


@setup_moots(BeforeTheFight)
def _moot_surprise(state: State, cmd: BeforeTheFight) -> str:
    if len(cmd.spot) == len(cmd.sides) and all(state.encounter.side(x) for x in cmd.sides):
        return ""
    return "The surprise dialog needs each group's Spot (OGRE-SUR-1)"


@setup_moots(RollInitiative)
def _moot_initiative(state: State, cmd: RollInitiative) -> str:
    if state.board.phase == Phase.SETUP:
        return ""
    return "Initiative is already rolled: the count never goes back (OGRE-SEG-1)"


@moots(Opportunity, Follow, Counter)
def _moot_answer(state: State, c: Combatant, cmd: Command) -> str:
    answer = ANSWERS.get(state.prompt.kind) if state.prompt is not None else None
    if answer is None or not isinstance(cmd, answer) or cmd.actor != state.prompt.actor:
        return f"Nothing asks {c.name} that now"
    if isinstance(cmd, Opportunity):
        a = state.board.fighter(c.id).action
        if cmd.use == "pending" and (a is None or not a.is_offensive or pick_attack(c, a.weapon) is None):
            return f"{c.name} has no attack under way (OGRE-AOO-2)"
        if cmd.use == "new" and pick_attack(c, cmd.weapon, melee_only=True) is None:
            return f"{c.name} has no such melee attack (OGRE-AOO-2)"
        if cmd.use not in ("pending", "new", "decline"):
            return "Answer pending, new or decline (OGRE-AOO-2)"
    if isinstance(cmd, Follow) and cmd.kind and (cmd.kind not in FOLLOWS or len(cmd.path) < 1):
        return "Follow quick, short or standard along a path (OGRE-FOLLOW-1)"
    return ""


@moots(React)
def _moot_react(state: State, c: Combatant, cmd: React) -> str:
    return "" if cmd.category in CATEGORIES else f"{cmd.category!r} is not a category (OGRE-CAT-1)"


@moots(Trigger)
def _moot_trigger(state: State, c: Combatant, cmd: Trigger) -> str:
    a = state.board.fighter(c.id).action
    if a is None or a.kind != "ready" or not a.target:
        return f"{c.name} has no readied action with a target (OGRE-READY-1)"
    return ""


@moots(Attack, Charge, Move, Withdraw, Act, Cast, Ready)
def _moot_declaration(state: State, c: Combatant, cmd: Command) -> str:
    if base_category(cmd) is None:
        return f"{c.name}: no such action or category (OGRE-LIST-1)"
    if isinstance(cmd, (Attack, Charge)) and (
            not state.has(cmd.target) or pick_attack(c, cmd.weapon, isinstance(cmd, Charge)) is None):
        return f"{c.name} has no such attack or target (OGRE-ATK-1)"
    if isinstance(cmd, Ready) and (cmd.trigger not in TRIGGERS or cmd.action not in ("attack", "counterspell")
                                   or (cmd.action == "attack" and pick_attack(c, cmd.weapon) is None)):
        return f"{c.name} cannot ready that (OGRE-READY-1)"
    return ""
