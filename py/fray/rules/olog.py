"""OLOG "Combat and Pressure" as a Fray ruleset: counts, two actions a turn, Press On, bands.

The turn flow: `RollInitiative` (PCs roll, NPCs take fixed counts), then each
standing combatant in count order takes a turn of two actions (OLOG-ACT-1);
under pressure an action ends the turn unless the actor presses on and takes
pressure damage (OLOG-PRES-*). Counts persist; Strategise changes them from the
next round, the referee with `SetCount` at once (OLOG-INIT-3). Pressure and
band arithmetic live in `olog_pressure.py`; settings, stats, the state record
and the commands in `olog_model.py` (re-exported here).

Decisions the text leaves open (documented for the referee):
- Reorder: only combatants with equal counts can be reordered relative to each
  other (a tie is the referee's, OLOG-INIT-4); to move someone past a
  different count, set the count (`SetCount`). The order given becomes the
  tie order for the rest of the fight.
- A shield is an item in hand whose name is in the combatant's `shields` stat
  or contains "shield" (OLOG-DEF-1).
- A threatening creature with no damage die counts toward the pressure
  minimum but adds no die (see `Pressure`).
- Melee and natural attacks reach as far as the creature threatens (same zone,
  or the next one when long-reaching); ranged attacks reach any zone.
- Free actions come before the last action: a turn ends as soon as its
  actions (and any split attacks) are spent.
- A retrieved item that replaces a held one puts the held one back where the
  retrieved one was in the pack.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from ..engine.commands import Choice, Command, Event, Illegal, Option
from ..engine.dice import Dice, DiceExpr
from ..engine.model import Combatant, Encounter
from ..engine.ruleset import REFEREE_COMMANDS, Allow, Resolution, Ruleset, Setting, StatSpec
from ..engine.state import State
from .olog_model import (ACTIONS, KIND, PAST_TENSE, SETTINGS, STATS, Attack, CastSpell, Defend, EndTurn, Move,
                         OlogState, Reorder, Retrieve, RollInitiative, SetCount, Strategise, is_pc, opt)
from .olog_pressure import Pressure, band_label, pressure_on, reach_zones, zone_name

__all__ = ["RULESET", "Olog", "OlogState", "SETTINGS", "STATS", "ACTIONS", "RollInitiative", "Move", "Attack",
           "Defend", "CastSpell", "Retrieve", "Strategise", "EndTurn", "SetCount", "Reorder", "is_pc", "opt",
           "FREE", "ACTION", "EXTENDED", "CONTINUE"]

FREE, ACTION, EXTENDED, CONTINUE = "free", "action", "extended", "continue"


# --- the ruleset --------------------------------------------------------------------

class Olog(Ruleset):
    name = "olog"
    title = "OLOG: Combat and Pressure"
    profiles = ("",)
    field_view = "bands"

    def settings(self) -> tuple[Setting, ...]:
        return SETTINGS

    def stats(self) -> tuple[StatSpec, ...]:
        return STATS

    # --- order ---------------------------------------------------------------------
    def begin(self, encounter: Encounter) -> State:
        """Before initiative: no dice; the tie order is PCs first (DEFAULT), then setup order."""
        state = State(encounter=encounter, combatants=encounter.combatants, round=0, system=OlogState())
        ids = tuple(c.id for c in encounter.combatants)
        if opt(state, "olog_tie_pcs_first"):  # OLOG-INIT-4
            pcs = tuple(c.id for c in encounter.combatants if is_pc(state, c))
            ids = pcs + tuple(i for i in ids if i not in pcs)
        return state.with_system(ranks=ids)

    def order(self, state: State) -> tuple[str, ...]:
        """OLOG-INIT-4: highest count first; ties in the referee's order."""
        s: OlogState = state.system
        return _order(s.counts, s.ranks, state.memo("olog.ids", _ids))

    def current(self, state: State) -> tuple[str, ...]:
        s: OlogState = state.system
        if s.phase == "initiative":
            standing = [c for c in state.combatants if not c.is_down]
            pcs = tuple(c.id for c in standing if is_pc(state, c))
            return pcs or tuple(c.id for c in standing)
        return (s.actor,) if s.actor else ()

    def outcome(self, state: State) -> str:
        """Decided when no two standing combatants are hostile: names who is left."""
        standing = [c for c in state.combatants if not c.is_down]
        if not state.combatants:
            return ""
        if not standing:
            return "Everyone is down"
        sides = list(dict.fromkeys(c.side for c in standing))
        if any(state.hostile(a, b) for a in sides for b in sides):
            return ""
        names = [(state.encounter.side(s).name if state.encounter.side(s) else s) for s in sides]
        return f"{' and '.join(names)} {'wins' if len(names) == 1 else 'win'}"

    # --- costs -----------------------------------------------------------------------
    def cost(self, state: State, cmd: Command) -> str:
        """free, action, extended, or continue (the rest of a split attack action)."""
        if isinstance(cmd, EndTurn):
            return FREE
        if isinstance(cmd, CastSpell):
            return EXTENDED  # OLOG-SPELL-1
        if isinstance(cmd, Attack) and self.is_continuation(state, cmd):
            return CONTINUE
        if isinstance(cmd, Retrieve):
            return self.item_cost(state, state.get(cmd.actor), cmd.item)
        return ACTION

    def item_cost(self, state: State, c: Combatant, item: str) -> str:
        """OLOG-ITEM-1: topmost free, bottom half extended, the middle a normal
        action (DEFAULT). With an odd count the middle item is not the bottom half."""
        inv = c.inventory
        i = inv.index(item) if item in inv else 0
        if i == 0:
            return FREE
        if i >= len(inv) - len(inv) // 2:
            return EXTENDED
        return EXTENDED if opt(state, "olog_item_middle") == "extended" else ACTION

    def is_continuation(self, state: State, cmd: Command) -> bool:
        s: OlogState = state.system
        return (isinstance(cmd, Attack) and s.actor == cmd.actor and s.attacks_left > 0
                and s.split_attack == cmd.attack)

    def needs_press_on(self, state: State, actor: str, p: Pressure | None = None) -> bool:
        """Under pressure, and not already covered by a turn-long Press On (OLOG-PRES-8 off)."""
        s: OlogState = state.system
        p = p or pressure_on(state, actor)
        if not p.is_under:
            return False
        return not (s.pressed and s.actor == actor and not opt(state, "olog_press_on_each_action"))

    def shield_in_hand(self, c: Combatant) -> str:
        """OLOG-DEF-1: a held item named in the `shields` stat or containing "shield"."""
        listed = {str(x).lower() for x in (c.stat("shields", ()) or ())}
        for h in c.hands:
            if h and (h.lower() in listed or "shield" in h.lower()):
                return h
        return ""

    def defend_bonus(self, state: State, c: Combatant) -> int:
        if not self.shield_in_hand(c):
            return int(opt(state, "olog_defend_bonus"))
        bonus = int(opt(state, "olog_defend_shield_bonus"))
        if not opt(state, "olog_defend_stacks_shield"):
            bonus -= int(c.stat("shield_ac", 1) or 0)
        return max(0, bonus)

    def in_reach(self, state: State, attacker: Combatant, target: Combatant, weapon_kind: str) -> bool:
        if attacker.band is None or target.band is None:
            return False
        if weapon_kind not in ("melee", "natural"):
            return True
        return abs(attacker.band - target.band) <= reach_zones(state, attacker)

    # --- options ---------------------------------------------------------------------
    def options(self, state: State, actor: str) -> list[Option]:
        s: OlogState = state.system
        if not state.has(actor):
            return []
        if s.phase == "initiative":
            cmd = RollInitiative()
            return [Option(cmd, "Roll initiative", group="Turn", key="next", rule="OLOG-INIT-1",
                           hint="PCs roll d20 + level + modifier; NPCs take their fixed counts")
                    .refused(self.check(state, cmd))]
        c = state.get(actor)
        p = pressure_on(state, actor)
        out: list[Option] = []
        offer = _Offer(self, state, c, p, out)
        if c.band is not None:
            for b in (c.band - 1, c.band + 1):
                if 0 <= b < state.encounter.bands:
                    offer(Move(actor, b), f"Move to {zone_name(b)}", "Move", "OLOG-MOVE-1",
                          hint=self._move_hint(state, c, b))
        targets = [o for o in state.combatants if o.id != actor and not o.is_down and state.hostile(c, o)]
        for a in c.attacks:
            for o in targets:
                cmd = Attack(actor, o.id, a.name)
                extra = ""
                if self.is_continuation(state, cmd):
                    extra = f" ({a.count - s.attacks_left + 1} of {a.count}, same action)"
                offer(cmd, f"Attack {o.name} with {a.name} ({a.damage}){extra}", "Attack", "OLOG-ATK-1")
        bonus = self.defend_bonus(state, c)
        offer(Defend(actor), f"Defend (+{bonus} AC)", "Defend", "OLOG-DEF-1",
              hint="until its next turn" + (f", holding {self.shield_in_hand(c)}" if self.shield_in_hand(c) else ""))
        if is_pc(state, c) or c.stat("caster", False) or c.stat("spells", ()):
            offer(CastSpell(actor), "Cast a spell… (extended)", "Spell", "OLOG-SPELL-1", needs=("spell",))
            for sp in c.stat("spells", ()) or ():
                offer(CastSpell(actor, str(sp)), f"Cast {sp} (extended)", "Spell", "OLOG-SPELL-1")
        for item in dict.fromkeys(c.inventory):
            cost = self.item_cost(state, c, item)
            tag = {FREE: "free", EXTENDED: "extended", ACTION: "action"}[cost]
            empty = [i for i, h in enumerate(c.hands) if not h]
            if empty or not c.hands:
                offer(Retrieve(actor, item, empty[0] if empty else -1), f"Retrieve {item} ({tag})", "Item",
                      "OLOG-ITEM-1")
            else:
                for i, h in enumerate(c.hands):
                    offer(Retrieve(actor, item, i), f"Swap {h} for {item} ({tag})", "Item", "OLOG-ITEM-1")
        for d, word in (("up", "earlier"), ("down", "later")):
            offer(Strategise(actor, d), f"Strategise: count {d} 1d6", "Strategise", "OLOG-STRAT-1",
                  hint=f"act {word} from next round")
        end = EndTurn(actor)
        out.append(Option(end, "End turn", group="Turn", key="next", rule="OLOG-ACT-1")
                   .refused(self.check(state, end)))
        return out

    def _move_hint(self, state: State, c: Combatant, band: int) -> str:
        foes = [o for o in state.combatants if not o.is_down and o.band is not None and state.hostile(c, o)]
        if not foes:
            return ""
        before = min(abs(o.band - c.band) for o in foes)
        after = min(abs(o.band - band) for o in foes)
        there = [o.name for o in foes if o.band == band]
        if there:
            return "into reach of " + ", ".join(there)
        return "toward the foes" if after < before else "away from the foes"

    # --- checking -----------------------------------------------------------------
    def check(self, state: State, cmd: Command) -> Illegal | None:
        if isinstance(cmd, REFEREE_COMMANDS):
            return self.check_referee(state, cmd)
        if isinstance(cmd, (SetCount, Reorder, RollInitiative)):
            return self.shape(state, cmd)
        if isinstance(cmd, ACTIONS):
            return self.shape(state, cmd) or self.rules(state, cmd)
        return super().check(state, cmd)

    def check_referee(self, state: State, cmd: Command) -> Illegal | None:
        """Core checks, plus: an allowed action must still make sense (its
        combatants, zone, attack or item exist); its rules are waived (CORE-REF-1)."""
        illegal = super().check_referee(state, cmd)
        if illegal is None and isinstance(cmd, Allow) and not isinstance(cmd.command, REFEREE_COMMANDS):
            if not isinstance(cmd.command, ACTIONS + (SetCount, Reorder, RollInitiative)):
                return Illegal("UNKNOWN_COMMAND", f"{cmd.command.type_name} is not an action of {self.title}")
            return self.shape(state, cmd.command)
        return illegal

    def shape(self, state: State, cmd: Command) -> Illegal | None:
        """Checks that even a referee override needs: things named exist."""
        s: OlogState = state.system
        if isinstance(cmd, RollInitiative):
            if s.phase != "initiative":
                return Illegal("ALREADY_ROLLED", "Initiative is rolled once; counts last the whole fight: "
                                                 "change one with Set count (OLOG-INIT-3)")
            return None
        if isinstance(cmd, SetCount):
            if not state.has(cmd.target):
                return Illegal("NO_SUCH_COMBATANT", f"There is no combatant {cmd.target!r}")
            if s.phase != "fight":
                return Illegal("NOT_STARTED", "Roll initiative before setting counts (OLOG-INIT-1)")
            if abs(cmd.count) > 1000:
                return Illegal("OUT_OF_RANGE", f"A count of {cmd.count} is out of range")
            return None
        if isinstance(cmd, Reorder):
            return self._check_reorder(state, cmd)
        if not state.has(cmd.actor):
            return Illegal("NO_SUCH_COMBATANT", f"There is no combatant {cmd.actor!r}")
        c = state.get(cmd.actor)
        if isinstance(cmd, Move):
            if not 0 <= cmd.band < state.encounter.bands:
                return Illegal("OFF_FIELD", f"{zone_name(cmd.band).capitalize()} does not exist "
                                            f"(the field has {state.encounter.bands} zones, OLOG-BAND-1)")
            if c.band is None:
                return Illegal("NOT_PLACED", f"{c.name} is not on the field: place the token first")
        elif isinstance(cmd, Attack):
            if not state.has(cmd.target):
                return Illegal("NO_SUCH_COMBATANT", f"There is no combatant {cmd.target!r}")
            if c.attack(cmd.attack) is None:
                return Illegal("NO_SUCH_ATTACK", f"{c.name} has no attack named {cmd.attack!r}")
        elif isinstance(cmd, Retrieve):
            if cmd.item not in c.inventory:
                return Illegal("NO_SUCH_ITEM", f"{c.name} carries no {cmd.item!r} in the pack (OLOG-ITEM-1)")
            if not c.hands:
                return Illegal("NO_HANDS", f"{c.name} has no hands to hold {cmd.item}")
            if not -1 <= cmd.hand < len(c.hands):
                return Illegal("NO_SUCH_HAND", f"{c.name} has no hand {cmd.hand + 1}")
        elif isinstance(cmd, Strategise):
            if cmd.direction not in ("up", "down"):
                return Illegal("BAD_DIRECTION", f"Strategise moves the count \"up\" or \"down\", "
                                                f"not {cmd.direction!r} (OLOG-STRAT-1)")
        elif isinstance(cmd, CastSpell):
            if len(cmd.spell) > 80:
                return Illegal("TOO_LONG", "A spell's name is at most 80 characters")
        return None

    def _check_reorder(self, state: State, cmd: Reorder) -> Illegal | None:
        ids = [c.id for c in state.combatants]
        if sorted(cmd.order) != sorted(ids):
            return Illegal("NOT_A_PERMUTATION", "A new order must list every combatant exactly once")
        s: OlogState = state.system
        if s.phase != "fight":
            return None
        for a, b in zip(cmd.order, cmd.order[1:]):
            ca, cb = s.count(a) or 0, s.count(b) or 0
            if ca < cb:
                return Illegal("NOT_A_TIE", f"{state.name(a)} (count {ca}) cannot act before {state.name(b)} "
                                            f"(count {cb}): only equal counts can be reordered; set a count "
                                            f"to change more (OLOG-INIT-4, CORE-REF-1)")
        return None

    def rules(self, state: State, cmd: Command, p: Pressure | None = None, *,
              press: bool | None | str = "cmd") -> Illegal | None:
        """The first OLOG rule the action breaks, broad to narrow. `p` saves a
        recomputation; `press` checks as if the command carried that Press On answer."""
        s: OlogState = state.system
        c = state.get(cmd.actor)
        if s.phase != "fight":
            return Illegal("NOT_STARTED", "Roll initiative first (OLOG-INIT-1)")
        if c.is_down:
            return Illegal("ACTOR_DOWN", f"{c.name} is down and cannot act (CORE-HP-1)")
        if s.actor != cmd.actor:
            who = f"{state.name(s.actor)}'s" if s.actor else "nobody's"
            return Illegal("NOT_YOUR_TURN", f"It is {who} turn, not {c.name}'s (OLOG-INIT-4)")
        if isinstance(cmd, EndTurn):
            return None
        cost = self.cost(state, cmd)
        if s.ending and cost != CONTINUE:
            return Illegal("TURN_ENDING", f"{c.name} did not press on, so the turn ends after this action "
                                          f"(OLOG-PRES-2)")
        if cost in (ACTION, EXTENDED):
            kind = KIND[type(cmd)]
            if s.actions_left <= 0:
                return Illegal("NO_ACTIONS_LEFT", f"{c.name} has used both actions this turn (OLOG-ACT-1)")
            if cost == EXTENDED and s.actions_left < 2:
                return Illegal("NEEDS_BOTH_ACTIONS", f"{cmd.label()} is extended: it takes both actions and "
                                                     f"{c.name} has 1 left (OLOG-ACT-4)")
            if kind in s.used and not opt(state, "olog_allow_repeat"):
                return Illegal("SAME_ACTION_TWICE", f"{c.name} already {PAST_TENSE[kind]} this turn: not the same "
                                                    f"action twice (OLOG-ACT-2; the referee may allow it)")
        illegal = self._rules_of(state, c, cmd)
        if illegal:
            return illegal
        return self._check_press_on(state, c, cmd, cost, p,
                                    getattr(cmd, "press_on", None) if press == "cmd" else press)

    def _rules_of(self, state: State, c: Combatant, cmd: Command) -> Illegal | None:
        if isinstance(cmd, Move):
            if abs(cmd.band - c.band) != 1:
                return Illegal("NOT_NEXT_ZONE", f"{c.name} moves one zone a move, from {zone_name(c.band)} to "
                                                f"{zone_name(c.band - 1)} or {zone_name(c.band + 1)} "
                                                f"(OLOG-MOVE-1)")
        elif isinstance(cmd, Attack):
            t = state.get(cmd.target)
            a = c.attack(cmd.attack)
            if t.is_down:
                return Illegal("TARGET_DOWN", f"{t.name} is already down (CORE-HP-1)")
            if not state.hostile(c, t):
                return Illegal("NOT_HOSTILE", f"{t.name} is on a friendly side (CORE-SIDE-1)")
            if a not in c.ready_attacks():
                return Illegal("NOT_IN_HAND", f"{c.name} is not holding {a.item}: retrieve it first "
                                              f"(OLOG-ITEM-1)")
            if not self.in_reach(state, c, t, a.kind):
                if t.band is None or c.band is None:
                    return Illegal("NOT_PLACED", f"{t.name if t.band is None else c.name} is not on the field")
                d = abs(t.band - c.band)
                return Illegal("OUT_OF_REACH", f"{t.name} is {d} zone{'s' if d != 1 else ''} away "
                                               f"({band_label(state, d)}): out of reach of {c.name}'s "
                                               f"{a.name} (OLOG-BAND-1)")
        elif isinstance(cmd, Retrieve):
            if cmd.hand == -1 and c.free_hands == 0:
                return Illegal("HANDS_FULL", f"{c.name}'s hands are full: choose which held item to swap "
                                             f"(OLOG-ITEM-1)")
        return None

    def _check_press_on(self, state: State, c: Combatant, cmd: Command, cost: str,
                        p: Pressure | None, press: bool | None) -> Illegal | None:
        if cost == FREE:
            if press:
                return Illegal("FREE_ACTION", f"{cmd.label()} is free: free actions never trigger pressure "
                                              f"(OLOG-ACT-3)")
            return None
        if cost == CONTINUE:
            if press:
                return Illegal("SAME_ACTION", f"{c.name}'s further {cmd.attack} attack belongs to an action "
                                              f"already taken: no new Press On (OLOG-ATK-1, OLOG-PRES-8)")
            return None
        p = p or pressure_on(state, c.id)
        if not p.is_under:
            if press:
                return Illegal("NOT_UNDER_PRESSURE", f"{c.name} is within reach of no foe: there is nothing "
                                                     f"to press on against (OLOG-PRES-1)")
            return None
        if not self.needs_press_on(state, c.id, p):
            return None  # a turn-long Press On already covers it (OLOG-PRES-8 off)
        if press is None:
            return Illegal("NEEDS_PRESS_ON_CHOICE", f"{c.name} is under pressure from {p.who()}: press on "
                                                    f"({p.cost()}) or act and end the turn (OLOG-PRES-2)")
        if cost == EXTENDED and not press:
            return Illegal("EXTENDED_NEEDS_PRESS_ON", f"{cmd.label()} is extended: under pressure {c.name} "
                                                      f"must press on ({p.cost()}) to take it (OLOG-PRES-7)")
        return None

    # --- resolving ----------------------------------------------------------------------
    def resolve(self, state: State, cmd: Command, dice: Dice) -> Resolution:
        events: list[Event] = []
        if isinstance(cmd, REFEREE_COMMANDS):
            state, events = self.resolve_referee(state, cmd, dice)
        elif isinstance(cmd, RollInitiative):
            state = self._roll_initiative(state, dice, events)
        elif isinstance(cmd, SetCount):
            state = self._set_count(state, cmd, events)
        elif isinstance(cmd, Reorder):
            state = state.with_system(ranks=tuple(cmd.order))
            names = ", ".join(state.name(i) for i in self.order(state))
            events.append(Event("OrderChanged", f"Referee reorders ties: {names}", rule="OLOG-INIT-4 CORE-REF-1"))
        elif isinstance(cmd, ACTIONS):
            state = self._act(state, cmd, dice, events)
        else:
            return super().resolve(state, cmd, dice)
        return self._settle(state, events), events

    def _roll_initiative(self, state: State, dice: Dice, events: list[Event]) -> State:
        counts: list[tuple[str, int]] = []
        how: list[tuple[str, str]] = []
        base = int(opt(state, "olog_npc_init_base"))
        for c in state.combatants:
            if is_pc(state, c):
                # OLOG-INIT-1: d20 + level + initiative modifier (Check virtues, DEFAULT)
                level, mod = int(c.stat("level", 1) or 0), int(c.stat("init_mod", 0) or 0)
                roll = dice.roll("d20", f"initiative for {c.name}")
                n = roll.total + level + mod
                text = f"d20 [{roll.total}] + level {level}" + (f" {mod:+d} modifier" if mod else "") + f" = {n}"
                events.append(Event("InitiativeRolled", f"{c.name} rolls initiative: {text}", rule="OLOG-INIT-1",
                                    rolls=(roll,), actor=c.id, data={"count": n}))
            else:
                # OLOG-INIT-2: a fixed count, never rolled (DEFAULT 10 + HD; the init stat overrides)
                fixed = c.stat("init", None)
                if fixed is not None:
                    n, text = int(fixed), f"fixed {int(fixed)}"
                else:
                    hd = int(c.stat("hd", 1) or 0)
                    n, text = base + hd, f"{base} + {hd} HD = {base + hd}"
                events.append(Event("CountSet", f"{c.name} has count {n} ({text})", rule="OLOG-INIT-2",
                                    actor=c.id, data={"count": n}))
            counts.append((c.id, n))
            how.append((c.id, text))
        state = replace(state, round=1).with_system(phase="fight", counts=tuple(counts), rolls=tuple(how))
        events.append(Event("RoundStarted", "Round 1 begins: " + self._order_text(state), rule="OLOG-INIT-4"))
        return self._advance(state, events)

    def _set_count(self, state: State, cmd: SetCount, events: list[Event]) -> State:
        s: OlogState = state.system
        old = s.count(cmd.target)
        counts = tuple((k, cmd.count if k == cmd.target else v) for k, v in s.counts)
        state = state.with_system(counts=counts, rolls=tuple(
            (k, f"set to {cmd.count} by the referee" if k == cmd.target else v) for k, v in s.rolls))
        events.append(Event("CountSet", f"Referee sets {state.name(cmd.target)}'s count {old} → {cmd.count}",
                            rule="OLOG-INIT-3 CORE-REF-1", target=cmd.target, data={"count": cmd.count}))
        return state

    def _order_text(self, state: State) -> str:
        s: OlogState = state.system
        return ", ".join(f"{state.name(i)} {s.count(i)}" for i in self.order(state) if not state.get(i).is_down)

    def _act(self, state: State, cmd: Command, dice: Dice, events: list[Event]) -> State:
        s: OlogState = state.system
        c = state.get(cmd.actor)
        on_turn = s.phase == "fight" and s.actor == cmd.actor
        if isinstance(cmd, EndTurn):
            if on_turn:
                left = f" with {s.actions_left} action{'s' if s.actions_left != 1 else ''} unused" \
                    if s.actions_left else ""
                return self._end_turn(state, events, f"{c.name} ends the turn{left}", "OLOG-ACT-1")
            return state
        cost = self.cost(state, cmd)
        if on_turn and cost in (ACTION, EXTENDED):
            left = 0 if cost == EXTENDED else max(0, s.actions_left - 1)  # OLOG-ACT-1, OLOG-ACT-4
            state = state.with_system(actions_left=left, used=s.used + (KIND[type(cmd)],))
        if cost in (ACTION, EXTENDED):  # OLOG-ACT-3: free actions never trigger pressure
            state = self._pressure(state, c, cmd, cost, dice, events, on_turn)
        if state.get(c.id).is_down and not opt(state, "olog_action_resolves_if_dropped"):
            events.append(Event("ActionLost", f"Pressure drops {c.name} before {cmd.label().lower()} resolves",
                                rule="OLOG-PRES-3", actor=c.id))
        else:
            state = self._effect(state, state.get(c.id), cmd, cost, dice, events)
        if on_turn:
            t: OlogState = state.system
            if t.attacks_left == 0 and (t.ending or t.actions_left == 0):
                why = "under pressure without pressing on" if t.ending else "both actions used"
                rule = "OLOG-PRES-2" if t.ending else "OLOG-ACT-1"
                state = self._end_turn(state, events, f"{c.name}'s turn ends: {why}", rule)
        return state

    def _pressure(self, state: State, c: Combatant, cmd: Command, cost: str, dice: Dice,
                  events: list[Event], on_turn: bool) -> State:
        """OLOG-PRES-2/3/5/7/8: roll Press On now, or mark the turn to end after this action."""
        p = pressure_on(state, c.id)
        if not p.is_under or not self.needs_press_on(state, c.id, p):
            return state
        if getattr(cmd, "press_on", None):
            times = 2 if cost == EXTENDED and not opt(state, "olog_extended_pressure_once") else 1
            for _ in range(times):
                roll = dice.roll(p.expr(), f"pressure on {c.name}", minimum=p.minimum)
                events.append(Event("PressedOn", f"{c.name} presses on under pressure from {p.who()}: "
                                                 f"{roll.describe()} (min {p.minimum})",
                                    rule="OLOG-PRES-4 OLOG-PRES-5", rolls=(roll,), actor=c.id,
                                    data={"amount": roll.total, "threats": list(p.threats)}))
                now = state.get(c.id)
                state = self.damage(state, c.id, roll.total, events, rule="OLOG-PRES-3",
                                    text=f"{c.name} takes {roll.total} pressure damage "
                                         f"({now.hp - roll.total}/{now.max_hp} HP)")
            if on_turn and not opt(state, "olog_press_on_each_action"):
                state = state.with_system(pressed=True)
        elif on_turn:
            state = state.with_system(ending=True)
            events.append(Event("TurnWillEnd", f"{c.name} acts under pressure from {p.who()} without pressing "
                                               f"on: the turn ends after this action", rule="OLOG-PRES-2",
                                actor=c.id))
        return state

    def _effect(self, state: State, c: Combatant, cmd: Command, cost: str, dice: Dice,
                events: list[Event]) -> State:
        s: OlogState = state.system
        if isinstance(cmd, Move):
            events.append(Event("Moved", f"{c.name} moves from {zone_name(c.band)} to {zone_name(cmd.band)}",
                                rule="OLOG-MOVE-1", actor=c.id, data={"from": c.band, "to": cmd.band}))
            return state.update(c.id, band=cmd.band)
        if isinstance(cmd, Attack):
            return self._attack(state, c, cmd, cost, dice, events)
        if isinstance(cmd, Defend):
            bonus = self.defend_bonus(state, c)
            shield = self.shield_in_hand(c)
            with_ = f" behind {shield}" if shield else ""
            events.append(Event("Defending", f"{c.name} defends{with_}: +{bonus} AC until its next turn "
                                             f"(AC {c.ac + bonus})", rule="OLOG-DEF-1", actor=c.id,
                                data={"bonus": bonus}))
            defending = tuple(d for d in s.defending if d[0] != c.id) + ((c.id, bonus),)
            return state.with_system(defending=defending)
        if isinstance(cmd, CastSpell):
            events.append(Event("SpellCast", f"{c.name} casts {cmd.spell or 'a spell'} (extended: both actions); "
                                             f"the referee narrates its effect", rule="OLOG-SPELL-1 OLOG-ACT-4",
                                actor=c.id, data={"spell": cmd.spell}))
            return state
        if isinstance(cmd, Retrieve):
            return self._retrieve(state, c, cmd, cost, events)
        if isinstance(cmd, Strategise):
            roll = dice.roll("d6", f"strategise for {c.name}")
            delta = roll.total if cmd.direction == "up" else -roll.total
            now = s.count(c.id) or 0
            after = now + s.delta(c.id) + delta
            events.append(Event("Strategised", f"{c.name} strategises: {roll.describe()} {cmd.direction}; count "
                                               f"{now} → {after} from round {state.round + 1}",
                                rule="OLOG-STRAT-1", rolls=(roll,), actor=c.id, data={"delta": delta}))
            return state.with_system(pending=s.pending + ((c.id, delta),))
        return state

    def _attack(self, state: State, c: Combatant, cmd: Attack, cost: str, dice: Dice,
                events: list[Event]) -> State:
        s: OlogState = state.system
        a = c.attack(cmd.attack)
        t = state.get(cmd.target)
        if cost == CONTINUE:
            state = state.with_system(attacks_left=s.attacks_left - 1)
        elif a.count > 1 and s.actor == c.id:
            # OLOG-ATK-1: several attacks an action may be split around the other action
            state = state.with_system(split_attack=a.name, attacks_left=a.count - 1)
        elif s.actor == c.id:
            state = state.with_system(split_attack="", attacks_left=0)
        ac = t.ac + s.defence(t.id)
        hit = dice.roll(DiceExpr(1, 20, a.to_hit), f"{c.name}'s {a.name} to hit {t.name}")
        defended = f" (defending +{s.defence(t.id)})" if s.defence(t.id) else ""
        if hit.total < ac:
            events.append(Event("AttackMissed", f"{c.name} attacks {t.name} with {a.name}: {hit.describe()} vs "
                                                f"AC {ac}{defended}: miss", rule="OLOG-ATK-1", rolls=(hit,),
                                actor=c.id, target=t.id))
            return state
        dmg = dice.roll(a.damage, f"{c.name}'s {a.name} damage")
        amount = max(0, dmg.total)
        events.append(Event("AttackHit", f"{c.name} hits {t.name} with {a.name}: {hit.describe()} vs AC {ac}"
                                         f"{defended}; damage {dmg.describe()}", rule="OLOG-ATK-1",
                            rolls=(hit, dmg), actor=c.id, target=t.id, data={"amount": amount}))
        return self.damage(state, t.id, amount, events, source=c.id, rule="OLOG-ATK-1",
                           text=f"{t.name} takes {amount} damage from {c.name}'s {a.name} "
                                f"({t.hp - amount}/{t.max_hp} HP)")

    def _retrieve(self, state: State, c: Combatant, cmd: Retrieve, cost: str, events: list[Event]) -> State:
        inv = list(c.inventory)
        i = inv.index(cmd.item)
        hand = cmd.hand
        if hand == -1:
            empty = [k for k, h in enumerate(c.hands) if not h]
            hand = empty[0] if empty else 0
        held = c.hands[hand]
        inv.pop(i)
        if held:
            inv.insert(i, held)
        hands = c.hands[:hand] + (cmd.item,) + c.hands[hand + 1:]
        why = {FREE: "free: topmost item", ACTION: "an action: middle of the pack",
               EXTENDED: "extended: bottom half of the pack"}[cost if cost in (FREE, ACTION, EXTENDED) else ACTION]
        verb = f"swaps {held} for {cmd.item}" if held else f"takes {cmd.item} from the pack"
        events.append(Event("ItemRetrieved", f"{c.name} {verb} ({why})", rule="OLOG-ITEM-1", actor=c.id))
        return state.update(c.id, hands=hands, inventory=tuple(inv))

    # --- turn flow ---------------------------------------------------------------
    def _end_turn(self, state: State, events: list[Event], text: str, rule: str) -> State:
        s: OlogState = state.system
        events.append(Event("TurnEnded", text, rule=rule, actor=s.actor))
        state = state.with_system(acted=s.acted + (s.actor,), actor="", actions_left=0, used=(),
                                  split_attack="", attacks_left=0, ending=False, pressed=False)
        return self._advance(state, events)

    def _advance(self, state: State, events: list[Event]) -> State:
        """Start the next standing combatant's turn; a new round when all have acted.
        Down combatants are skipped (CORE-HP-1)."""
        if not any(not c.is_down for c in state.combatants):
            return state.with_system(actor="")
        for _ in range(2):
            s: OlogState = state.system
            acted = list(s.acted)
            for cid in self.order(state):
                if cid in acted:
                    continue
                if state.get(cid).is_down:
                    acted.append(cid)
                    continue
                state = state.with_system(acted=tuple(acted))
                return self._start_turn(state, cid, events)
            state = self._new_round(state, events)
        return state

    def _new_round(self, state: State, events: list[Event]) -> State:
        s: OlogState = state.system
        counts = dict(s.counts)
        for cid, delta in s.pending:  # OLOG-STRAT-1: takes effect from the next round
            if cid in counts:
                before = counts[cid]
                counts[cid] = before + delta
                events.append(Event("CountChanged", f"{state.name(cid)}'s count {before} → {counts[cid]} "
                                                    f"(Strategise)", rule="OLOG-STRAT-1", actor=cid))
        new = tuple((k, counts[k]) for k, _ in s.counts)
        state = replace(state, round=state.round + 1).with_system(counts=new, pending=(), acted=())
        events.append(Event("RoundStarted", f"Round {state.round} begins: {self._order_text(state)}",
                            rule="OLOG-INIT-3"))
        return state

    def _start_turn(self, state: State, cid: str, events: list[Event]) -> State:
        s: OlogState = state.system
        c = state.get(cid)
        if s.defence(cid):  # OLOG-DEF-1: the bonus lasts until its next turn
            events.append(Event("DefenceEnded", f"{c.name} stops defending", rule="OLOG-DEF-1", actor=cid))
        state = state.with_system(actor=cid, turn=s.turn + 1, actions_left=2, used=(), split_attack="",
                                  attacks_left=0, ending=False, pressed=False,
                                  defending=tuple(d for d in s.defending if d[0] != cid))
        p = pressure_on(state, cid)
        under = f"; {p.sentence().lower()}" if p.is_under else ""
        events.append(Event("TurnStarted", f"{c.name}'s turn (count {s.count(cid)}){under}",
                            rule="OLOG-ACT-1", actor=cid))
        return state

    def _settle(self, state: State, events: list[Event]) -> State:
        """After any command: a down actor's turn passes; if nobody was acting
        and someone stands again, play resumes."""
        s: OlogState = state.system
        if s.phase != "fight":
            return state
        if s.actor and state.get(s.actor).is_down:
            return self._end_turn(state, events, f"{state.name(s.actor)} is down: the turn passes", "CORE-HP-1")
        if not s.actor and any(not c.is_down for c in state.combatants):
            return self._advance(state, events)
        return state


def _ids(state: State) -> tuple[str, ...]:
    return tuple(c.id for c in state.combatants)


@lru_cache(maxsize=64)
def _order(counts: tuple[tuple[str, int], ...], ranks: tuple[str, ...], ids: tuple[str, ...]) -> tuple[str, ...]:
    # Counts change only at initiative, a new round, Strategise or the referee: sort once per change.
    rank = {cid: i for i, cid in enumerate(ranks)}
    by = dict(counts)
    return tuple(sorted(ids, key=lambda i: (-by.get(i, 0), rank.get(i, len(rank)))))


class _Offer:
    """Builds one option: its legality, and the Press On question when under pressure.
    The question and its answers are built once per actor (options() is hot)."""

    def __init__(self, rules: Olog, state: State, c: Combatant, p: Pressure, out: list[Option]):
        self.rules, self.state, self.c, self.p, self.out = rules, state, c, p, out
        self.ask = rules.needs_press_on(state, c.id, p)
        if self.ask:
            press = Choice(f"Press on: take {p.cost()}", {"press_on": True}, key="p",
                           detail=f"Pressure from {p.who()}, dealt as the action resolves "
                                  f"(OLOG-PRES-3, OLOG-PRES-4, OLOG-PRES-5)")
            end = Choice("Act, then the turn ends", {"press_on": False}, key="e",
                         detail="No pressure damage; the turn ends after this action (OLOG-PRES-2)")
            self.choices = {ACTION: (press, end), EXTENDED: (press,)}
            who = f"{c.name} is under pressure from {p.who()}: "
            self.questions = {ACTION: who + "press on?",
                              EXTENDED: who + "extended actions need Press On (OLOG-PRES-7)"}

    def __call__(self, cmd: Command, label: str, group: str, rule: str, *, hint: str = "",
                 needs: tuple[str, ...] = ()) -> None:
        cost = self.rules.cost(self.state, cmd)
        ask = self.ask and cost in (ACTION, EXTENDED)
        illegal = self.rules.shape(self.state, cmd) or self.rules.rules(
            self.state, cmd, self.p, press=True if ask else "cmd")
        self.out.append(Option(
            cmd, label, allowed=illegal is None, why=illegal.detail if illegal else "",
            reason=illegal.reason if illegal else "", group=group, rule=rule, hint=hint, needs=needs,
            choices=self.choices[cost] if ask else (), question=self.questions[cost] if ask else ""))


RULESET = Olog()
