"""Why an OLOG command is refused now: the first broken rule, broad to narrow, as Illegal(reason, sentence).

Two layers, as in python-chess: `shape` holds what even a referee's override
needs (the combatants, zone, weapon or item named exist), `rules` the OLOG
rules proper (whose turn, actions left, reach, Press On), which the referee
may waive (CORE-REF-1).
"""
from __future__ import annotations


from ...engine.commands import Command, Illegal, Reason as Core
from ...engine.model import Combatant
from ...engine.tables import Handlers
from ...engine.state import State
from .reasons import Reason
from .commands import (ACTIONS, KIND, PAST_TENSE, Attack, CastSpell, EndTurn, Move, Reorder, Retrieve,
                       RollInitiative, SetCount, Strategise)
from .pressure import Pressure, band_label, pressure_on, zone_name
from .state import (ACTION, CONTINUE, EXTENDED, FREE, OlogState, Phase, cost, in_reach, needs_press_on, opt)




def check(state: State, cmd: Command) -> Illegal | None:
    """The first rule an OLOG command breaks; None if it may be taken now."""
    if type(cmd) in ACTIONS:
        return shape(state, cmd) or rules(state, cmd)
    return shape(state, cmd)


# --- shape: what even an override needs ---------------------------------------------------

orders = Handlers("olog order check")  # the commands about the whole order: (state, cmd)
shapes = Handlers("olog shape check")  # an actor's action: (state, actor, cmd)


def shape(state: State, cmd: Command) -> Illegal | None:
    """Checks that even a referee override needs: things named exist."""
    whole = orders.get(cmd)
    if whole is not None:
        return whole(state, cmd)
    if not state.has(cmd.actor):
        return Illegal(Core.NO_SUCH_COMBATANT, f"There is no combatant {cmd.actor!r}")
    fn = shapes.get(cmd)
    return fn(state, state.get(cmd.actor), cmd) if fn is not None else None


@orders(RollInitiative)
def _shape_initiative(state: State, cmd: RollInitiative) -> Illegal | None:
    if state.board.phase != Phase.INITIATIVE:
        return Illegal(Core.ALREADY_ROLLED, "Initiative is rolled once; counts last the whole fight: "
                                            "change one with Set count (OLOG-INIT-3)")
    return None


@orders(SetCount)
def _shape_set_count(state: State, cmd: SetCount) -> Illegal | None:
    if not state.has(cmd.target):
        return Illegal(Core.NO_SUCH_COMBATANT, f"There is no combatant {cmd.target!r}")
    if state.board.phase != Phase.FIGHT:
        return Illegal(Core.NOT_STARTED, "Roll initiative before setting counts (OLOG-INIT-1)")
    if abs(cmd.count) > 1000:
        return Illegal(Core.OUT_OF_RANGE, f"A count of {cmd.count} is out of range")
    return None


@orders(Reorder)
def _shape_reorder(state: State, cmd: Reorder) -> Illegal | None:
    ids = [c.id for c in state.combatants]
    if sorted(cmd.order) != sorted(ids):
        return Illegal(Reason.NOT_A_PERMUTATION, "A new order must list every combatant exactly once")
    s: OlogState = state.board
    if s.phase != Phase.FIGHT:
        return None
    for a, b in zip(cmd.order, cmd.order[1:]):
        ca, cb = s.count(a) or 0, s.count(b) or 0
        if ca < cb:
            return Illegal(Reason.NOT_A_TIE, f"{state.name(a)} (count {ca}) cannot act before {state.name(b)} "
                                             f"(count {cb}): only equal counts can be reordered; set a count "
                                             f"to change more (OLOG-INIT-4, CORE-REF-1)")
    return None


@shapes(Move)
def _shape_move(state: State, c: Combatant, cmd: Move) -> Illegal | None:
    if not 0 <= cmd.band < state.encounter.bands:
        return Illegal(Reason.OFF_FIELD, f"{zone_name(cmd.band).capitalize()} does not exist "
                                         f"(the field has {state.encounter.bands} zones, OLOG-BAND-1)")
    if c.band is None:
        return Illegal(Core.NOT_PLACED, f"{c.name} is not on the field: place the token first")
    return None


@shapes(Attack)
def _shape_attack(state: State, c: Combatant, cmd: Attack) -> Illegal | None:
    if not state.has(cmd.target):
        return Illegal(Core.NO_SUCH_COMBATANT, f"There is no combatant {cmd.target!r}")
    if c.weapon(cmd.weapon) is None:
        return Illegal(Core.NO_SUCH_WEAPON, f"{c.name} has no attack named {cmd.weapon!r}")
    return None


@shapes(Retrieve)
def _shape_retrieve(state: State, c: Combatant, cmd: Retrieve) -> Illegal | None:
    if cmd.item not in c.inventory:
        return Illegal(Reason.NO_SUCH_ITEM, f"{c.name} carries no {cmd.item!r} in the pack (OLOG-ITEM-1)")
    if not c.hands:
        return Illegal(Reason.NO_HANDS, f"{c.name} has no hands to hold {cmd.item}")
    if not -1 <= cmd.hand < len(c.hands):
        return Illegal(Reason.NO_SUCH_HAND, f"{c.name} has no hand {cmd.hand + 1}")
    return None


@shapes(Strategise)
def _shape_strategise(state: State, c: Combatant, cmd: Strategise) -> Illegal | None:
    if cmd.direction not in ("up", "down"):
        return Illegal(Reason.BAD_DIRECTION, f"Strategise moves the count \"up\" or \"down\", "
                                             f"not {cmd.direction!r} (OLOG-STRAT-1)")
    return None


@shapes(CastSpell)
def _shape_cast(state: State, c: Combatant, cmd: CastSpell) -> Illegal | None:
    if len(cmd.spell) > 80:
        return Illegal(Reason.TOO_LONG, "A spell's name is at most 80 characters")
    if not isinstance(cmd.targets, tuple) or len(cmd.targets) > 100:
        return Illegal(Reason.NO_SUCH_COMBATANT, "A spell's targets are a list of combatants")
    gone = next((t for t in cmd.targets if not isinstance(t, str) or not state.has(t)), None)
    if gone is not None:
        return Illegal(Reason.NO_SUCH_COMBATANT, f"There is no combatant {gone!r}")
    return None


# --- rules: what the referee may waive --------------------------------------------------------

actions = Handlers("olog action check")  # an action's own rules: (state, actor, cmd)


def rules(state: State, cmd: Command, p: Pressure | None = None, *,
          press: bool | None | str = "cmd") -> Illegal | None:
    """The first OLOG rule the action breaks, broad to narrow. `p` saves a
    recomputation; `press` checks as if the command carried that Press On answer."""
    s: OlogState = state.board
    c = state.get(cmd.actor)
    if s.phase != Phase.FIGHT:
        return Illegal(Core.NOT_STARTED, "Roll initiative first (OLOG-INIT-1)")
    if c.is_down:
        return Illegal(Core.DOWN, f"{c.name} is down and cannot act (CORE-HP-1)")
    if s.actor != cmd.actor:
        who = f"{state.name(s.actor)}'s" if s.actor else "nobody's"
        return Illegal(Core.NOT_YOUR_TURN, f"It is {who} turn, not {c.name}'s (OLOG-INIT-4)")
    if isinstance(cmd, EndTurn):
        return None
    price = cost(state, cmd)
    if s.ending and price != CONTINUE:
        return Illegal(Reason.TURN_ENDING, f"{c.name} did not press on, so the turn ends after this action "
                                           f"(OLOG-PRES-2)")
    if price in (ACTION, EXTENDED):
        kind = KIND[type(cmd)]
        if s.actions_left <= 0:
            return Illegal(Reason.NO_ACTIONS_LEFT, f"{c.name} has used both actions this turn (OLOG-ACT-1)")
        if price == EXTENDED and s.actions_left < 2:
            return Illegal(Reason.NEEDS_BOTH_ACTIONS, f"{cmd.label()} is extended: it takes both actions and "
                                                      f"{c.name} has 1 left (OLOG-ACT-4)")
        if kind in s.used and not opt(state, "olog_allow_repeat"):
            return Illegal(Reason.SAME_ACTION_TWICE, f"{c.name} already {PAST_TENSE[kind]} this turn: not the "
                                                     f"same action twice (OLOG-ACT-2; the referee may allow it)")
    fn = actions.get(cmd)
    illegal = fn(state, c, cmd) if fn is not None else None
    if illegal:
        return illegal
    return _check_press_on(state, c, cmd, price, p, getattr(cmd, "press_on", None) if press == "cmd" else press)


@actions(Move)
def _move_rules(state: State, c: Combatant, cmd: Move) -> Illegal | None:
    if abs(cmd.band - c.band) != 1:
        return Illegal(Reason.NOT_NEXT_ZONE, f"{c.name} moves one zone a move, from {zone_name(c.band)} to "
                                             f"{zone_name(c.band - 1)} or {zone_name(c.band + 1)} (OLOG-MOVE-1)")
    return None


@actions(Attack)
def _attack_rules(state: State, c: Combatant, cmd: Attack) -> Illegal | None:
    t = state.get(cmd.target)
    a = c.weapon(cmd.weapon)
    if t.is_down:
        return Illegal(Core.TARGET_DOWN, f"{t.name} is already down (CORE-HP-1)")
    if not state.hostile(c, t):
        return Illegal(Reason.NOT_HOSTILE, f"{t.name} is on a friendly side (CORE-SIDE-1)")
    if a not in c.ready_weapons():
        return Illegal(Reason.NOT_IN_HAND, f"{c.name} is not holding {a.item}: retrieve it first (OLOG-ITEM-1)")
    if not in_reach(state, c, t, a.kind):
        if t.band is None or c.band is None:
            return Illegal(Core.NOT_PLACED, f"{t.name if t.band is None else c.name} is not on the field")
        d = abs(t.band - c.band)
        return Illegal(Core.OUT_OF_REACH, f"{t.name} is {d} zone{'s' if d != 1 else ''} away "
                                          f"({band_label(state, d)}): out of reach of {c.name}'s "
                                          f"{a.name} (OLOG-BAND-1)")
    return None


@actions(Retrieve)
def _retrieve_rules(state: State, c: Combatant, cmd: Retrieve) -> Illegal | None:
    if cmd.hand == -1 and c.free_hands == 0:
        return Illegal(Reason.HANDS_FULL, f"{c.name}'s hands are full: choose which held item to swap "
                                          f"(OLOG-ITEM-1)")
    return None


def _check_press_on(state: State, c: Combatant, cmd: Command, price: str,
                    p: Pressure | None, press: bool | None) -> Illegal | None:
    if price == FREE:
        if press:
            return Illegal(Reason.FREE_ACTION, f"{cmd.label()} is free: free actions never trigger pressure "
                                               f"(OLOG-ACT-3)")
        return None
    if price == CONTINUE:
        if press:
            return Illegal(Reason.SAME_ACTION, f"{c.name}'s further {cmd.weapon} attack belongs to an action "
                                               f"already taken: no new Press On (OLOG-ATK-1, OLOG-PRES-8)")
        return None
    p = p or pressure_on(state, c.id)
    if not p.is_under:
        if press:
            return Illegal(Reason.NOT_UNDER_PRESSURE, f"{c.name} is within reach of no foe: there is nothing "
                                                      f"to press on against (OLOG-PRES-1)")
        return None
    if not needs_press_on(state, c.id, p):
        return None  # a turn-long Press On already covers it (OLOG-PRES-8 off)
    if press is None:
        return Illegal(Reason.NEEDS_PRESS_ON_CHOICE, f"{c.name} is under pressure from {p.who()}: press on "
                                                     f"({p.cost()}) or act and end the turn (OLOG-PRES-2)")
    if price == EXTENDED and not press:
        return Illegal(Reason.EXTENDED_NEEDS_PRESS_ON, f"{cmd.label()} is extended: under pressure {c.name} "
                                                       f"must press on ({p.cost()}) to take it (OLOG-PRES-7)")
    return None


def is_allowed(state: State, cmd: Command, *, press: bool | None | str = "cmd") -> bool:
    """Both layers pass, answering Press On with `press` (the bands view's move targets)."""
    return shape(state, cmd) is None and rules(state, cmd, press=press) is None
