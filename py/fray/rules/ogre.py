"""Ogre Character Codex: the combat sequence as a ruleset (segment count, declarations, reactions).

The fight is a count of half-second segments (OGRE-SEG-1). Each combatant
rolls d10 + reaction time (OGRE-INIT-1), stays flat-footed until that
segment (OGRE-FF-1), then declares an action that resolves a category's
duration later (OGRE-ACT-1, OGRE-CAT-1) and declares the next one then.
"Advance" jumps to the next segment where something happens. Tables and
records are in `ogre_model`, the resolution machinery in `ogre_resolve`, the
menus in `ogre_options`, before-the-fight surprise in `ogre_surprise`.
"""
from __future__ import annotations

from dataclasses import replace

from ..engine.commands import Command, Event, Illegal, Option
from ..engine.dice import Dice
from ..engine.geometry import Body, distance_squares
from ..engine.model import Encounter
from ..engine.ruleset import REFEREE_COMMANDS, Resolution, Ruleset, Setting, StatSpec
from ..engine.state import State
from . import ogre_grid as og
from . import ogre_model as om
from . import ogre_resolve as rv
from .ogre_commands import (
    ANSWERS, Act, Advance, Attack, BeforeTheFight, Break, Cast, Charge, Counter, Delay, Follow, Move, Opportunity,
    React, Ready, RollInitiative, Stun, Trigger, Withdraw,
)
from .ogre_model import CATEGORIES, FOLLOWS, MENU_BY_KEY, MOVES, TRIGGERS, Fighter, OgreState, Work, seconds
from .ogre_surprise import suggest, terrains


class Ogre(Ruleset):
    """OGRE-*: see RULES.md, "Ogre Character Codex: Combat Sequence"."""

    name = "ogre"
    title = "Ogre Character Codex: Combat Sequence"
    profiles = ("",)
    field_view = "grid"

    def settings(self) -> tuple[Setting, ...]:
        return om.settings()

    def stats(self) -> tuple[StatSpec, ...]:
        return om.stats()

    def extra_views(self, profile: str) -> tuple[str, ...]:
        """Before the fight (OGRE-SUR-1) above the grid, the segment ruler (OGRE-SEG-1) below it."""
        return ("before", "ruler")

    # --- the protocol ----------------------------------------------------------------
    def begin(self, encounter: Encounter) -> State:
        state = State(encounter=encounter, combatants=encounter.combatants, system=OgreState())
        fighters = tuple(Fighter(c.id, om.reaction_time(state, c)) for c in encounter.combatants)
        return replace(state, system=OgreState(fighters=fighters))

    def current(self, state: State) -> tuple[str, ...]:
        """The prompted combatant; before initiative everyone; then those who must
        declare now (lower initiative first, OGRE-INIT-1); when nobody must, the
        ones whose next event comes first (the Advance key is theirs). Never
        empty while anyone stands, so the page always has an actor to show."""
        if state.prompt is not None:
            return (state.prompt.actor,)
        s: OgreState = state.system
        if s.phase == "setup":
            return tuple(c.id for c in state.standing())
        due = self.declaring(state)
        if due:
            return due
        nxt = rv.next_event(state)
        if nxt is None:
            # Nothing scheduled: those waiting (readied, delaying) hold the Advance key.
            waiting = tuple(f.id for f in s.fighters if rv.standing(state, f.id)
                            and (f.delaying or (f.action is not None and f.action.resolves is None)))
            return waiting or tuple(c.id for c in state.standing())
        out = []
        for f in s.fighters:
            segs = (f.action.resolves if f.action else f.due, f.stunned_until)
            if rv.standing(state, f.id) and nxt in segs:
                out.append(f.id)
        return tuple(out)

    def declaring(self, state: State) -> tuple[str, ...]:
        """Who must declare an action now (OGRE-ACT-1), lower initiative first."""
        s: OgreState = state.system
        ids = [f for f in s.fighters if rv.must_declare(state, f.id)]
        ids.sort(key=lambda f: (f.initiative or 0, f.reaction, f.id))
        return tuple(f.id for f in ids)

    def options(self, state: State, actor: str) -> list[Option]:
        from .ogre_options import options
        return options(self, state, actor)

    def move_allowance(self, state: State, mover: str, cmd: Command) -> int | None:
        """Feet a move command may cover (OGRE-MOVE-1), for the grid's path preview."""
        c = state.get(mover)
        if isinstance(cmd, Move):
            if cmd.kind in ("quick", "difficult"):
                return 5
            return om.speed_ft(c) if cmd.kind == "short" else om.max_move_ft(state, c)
        if isinstance(cmd, (Withdraw, Charge)):
            return om.max_move_ft(state, c)
        return None

    def bodies(self, state: State) -> list[Body]:
        """For the grid view: flat-footed (OGRE-FF-1) and down combatants threaten nobody."""
        return og.bodies(state)

    # --- checking -----------------------------------------------------------------------
    def check(self, state: State, cmd: Command) -> Illegal | None:
        if isinstance(cmd, REFEREE_COMMANDS):
            return super().check(state, cmd)
        s: OgreState = state.system
        if isinstance(cmd, BeforeTheFight):
            return self._check_surprise(state, cmd)
        if isinstance(cmd, RollInitiative):
            if s.phase != "setup":
                return Illegal("ALREADY_ROLLED", "Initiative is already rolled; the count has started (OGRE-INIT-1)")
            return None
        if s.phase != "fight":
            return Illegal("NOT_STARTED", "Roll initiative first: the count starts after it (OGRE-INIT-1)")
        answer = ANSWERS.get(state.prompt.kind) if state.prompt is not None else None
        if state.prompt is not None and not (answer and isinstance(cmd, answer)
                                             and cmd.actor == state.prompt.actor):
            if isinstance(cmd, Stun):
                return None if state.has(cmd.target) else Illegal("NO_SUCH_COMBATANT", f"No combatant {cmd.target!r}")
            p = state.prompt
            return Illegal("WAITING_FOR_ANSWER", f"{state.name(p.actor)} must answer first: {p.question} ({p.rule})")
        if state.prompt is None and isinstance(cmd, tuple(ANSWERS.values())):
            return Illegal("NOTHING_TO_ANSWER", f"Nothing asks {state.name(cmd.actor)} that now")
        if isinstance(cmd, Advance):
            due = self.declaring(state)
            if due:
                names = ", ".join(state.name(i) for i in due)
                return Illegal("MUST_DECLARE", f"{names} must declare an action at segment {s.segment} first "
                                               f"(or delay) (OGRE-ACT-1)")
            return None
        if isinstance(cmd, Stun):
            if not state.has(cmd.target):
                return Illegal("NO_SUCH_COMBATANT", f"No combatant {cmd.target!r}")
            if not 1 <= cmd.segments <= 1000:
                return Illegal("OUT_OF_RANGE", "A stun lasts 1 to 1000 segments (OGRE-BREAK-1)")
            return None
        actor = getattr(cmd, "actor", None)
        if actor is None or not state.has(actor) or not s.has(actor):
            return Illegal("NO_SUCH_COMBATANT", f"There is no combatant {actor!r}")
        c = state.get(actor)
        if c.is_down:
            return Illegal("DOWN", f"{c.name} is down and cannot act (CORE-HP-1)")
        f = s.fighter(actor)
        if isinstance(cmd, Opportunity):
            return self._check_opportunity(state, cmd)
        if isinstance(cmd, Follow):
            return self._check_follow(state, cmd)
        if isinstance(cmd, Counter):
            return None
        if isinstance(cmd, Break):
            if f.action is None:
                return Illegal("NOTHING_TO_BREAK", f"{c.name} has no action under way to break (OGRE-BREAK-1)")
            return None
        if isinstance(cmd, React):
            return self._check_react(state, c, cmd.category)
        if isinstance(cmd, Trigger):
            if f.action is None or f.action.kind != "ready":
                return Illegal("NOT_READY", f"{c.name} has no readied action (OGRE-READY-1)")
            if not f.action.target:
                return Illegal("NO_TARGET", f"{c.name}'s {f.action.label} names no target; it fires by itself "
                                            f"when a foe charges into reach (OGRE-READY-1)")
            return None
        return self._check_declaration(state, cmd)

    def _check_surprise(self, state: State, cmd: BeforeTheFight) -> Illegal | None:
        if state.system.phase != "setup":
            return Illegal("ALREADY_ROLLED", "Surprise is settled before initiative is rolled (OGRE-SUR-1)")
        if len(cmd.sides) < 2 or len(set(cmd.sides)) != len(cmd.sides):
            return Illegal("NEED_GROUPS", "Name at least two different groups (OGRE-SUR-1)")
        for sid in cmd.sides + (cmd.surprised or ()):
            if state.encounter.side(sid) is None:
                return Illegal("NO_SUCH_SIDE", f"There is no group {sid!r} (OGRE-SUR-1)")
        if len(cmd.spot) != len(cmd.sides):
            return Illegal("NEED_SPOT", "Enter each group's best Spot result (OGRE-SUR-1)")
        if cmd.stalk and len(cmd.stalk) != len(cmd.sides) or cmd.ranged and len(cmd.ranged) != len(cmd.sides):
            return Illegal("BAD_INPUT", "Give Stalk results and ranged flags for every group, or none (OGRE-SUR-1)")
        if cmd.terrain not in terrains(state):
            return Illegal("NO_SUCH_TERRAIN", f"{cmd.terrain!r} is not a terrain of the table: "
                                              f"{', '.join(terrains(state))} (OGRE-SUR-1)")
        if cmd.distance_ft is not None and not 0 <= cmd.distance_ft <= 100000:
            return Illegal("OUT_OF_RANGE", "The starting distance must be 0 ft or more (OGRE-SUR-1)")
        return None

    def _check_react(self, state: State, c, category: str) -> Illegal | None:
        s: OgreState = state.system
        if category not in CATEGORIES:
            return Illegal("NO_SUCH_CATEGORY", f"{category!r} is not a category (OGRE-CAT-1)")
        if om.is_flat_footed(s, c.id):
            return Illegal("FLAT_FOOTED", f"{c.name} is flat-footed until segment {s.fighter(c.id).initiative}: "
                                          f"No Defense, no reactions (OGRE-FF-1)")
        if om.is_stunned(s, c.id):
            return Illegal("STUNNED", f"{c.name} is stunned until segment {s.fighter(c.id).stunned_until} "
                                      f"(OGRE-BREAK-1)")
        return None

    def _check_tempo(self, c, base: str, tempo: int) -> Illegal | None:
        if tempo not in (-1, 0, 1, 2):
            return Illegal("BAD_TEMPO", "Hurry one category (fast) or take one or two more (OGRE-FAST-1, OGRE-SLOW-1)")
        if tempo < 0 and base in ("Immediate", "Instantaneous"):
            return Illegal("CANNOT_HURRY", f"{c.name} cannot hurry an {base} action: nothing is quicker "
                                           f"(OGRE-FAST-1)")
        if tempo > 0 and CATEGORIES.index(base) + tempo >= len(CATEGORIES):
            return Illegal("CANNOT_SLOW", f"No category is slower than Very Slow (OGRE-SLOW-1)")
        return None

    def _check_declaration(self, state: State, cmd: Command) -> Illegal | None:
        s: OgreState = state.system
        c = state.get(cmd.actor)
        f = s.fighter(c.id)
        if not rv.can_declare(state, c.id):
            if f.action is not None:
                return Illegal("BUSY", f"{c.name} is busy with {f.action.label} until "
                                       f"{'its trigger' if f.action.resolves is None else 'segment ' + str(f.action.resolves)}"
                                       f"; break it first to declare anew (OGRE-ACT-1, OGRE-BREAK-1)")
            if om.is_stunned(s, c.id):
                return Illegal("STUNNED", f"{c.name} is stunned until segment {f.stunned_until} (OGRE-BREAK-1)")
            if f.initiative is not None and s.segment < f.initiative:
                return Illegal("FLAT_FOOTED", f"{c.name} declares at its initiative, segment {f.initiative}; "
                                              f"it is segment {s.segment} (OGRE-INIT-1, OGRE-FF-1)")
            return Illegal("NOT_DUE", f"{c.name} declares next at segment {f.due} (OGRE-DELAY-1)")
        if isinstance(cmd, Delay):
            if cmd.until is not None and cmd.until <= s.segment:
                return Illegal("PAST", f"Delay until a later segment than {s.segment} (OGRE-DELAY-1)")
            return None
        base = self.base_category(state, cmd)
        if base is None:
            return Illegal("UNKNOWN_ACTION", f"{getattr(cmd, 'action', '')!r} is not an action of the list "
                                             f"(OGRE-LIST-1)")
        problem = self._check_tempo(c, base, getattr(cmd, "tempo", 0))
        if problem:
            return problem
        if isinstance(cmd, (Attack, Charge)):
            t = state.find(cmd.target)
            if t is None or t.is_down or not state.hostile(c, t):
                return Illegal("NO_TARGET", f"{state.name(cmd.target)} is not a standing foe of {c.name} "
                                            f"(OGRE-ATK-1)")
            atk = rv.pick_attack(c, cmd.attack, melee_only=isinstance(cmd, Charge))
            if atk is None:
                what = "a melee attack in hand" if isinstance(cmd, Charge) else "that attack ready"
                return Illegal("NO_WEAPON", f"{c.name} has not {what}"
                                            f"{' (' + cmd.attack + ')' if cmd.attack else ''} (OGRE-ATK-1)")
            if isinstance(cmd, Attack):
                if not og.in_reach(state, c, atk, t):
                    return Illegal("OUT_OF_REACH", f"{t.name} is out of reach of {c.name}'s {atk.name}; "
                                                   f"move or charge first (OGRE-ATK-1)")
                return None
            problem = og.path_problem(state, c, tuple(cmd.path), "charge")
            if problem:
                return problem
            if not og.in_reach(state, c, atk, t, from_square=tuple(cmd.path[-1])):
                return Illegal("OUT_OF_REACH", f"The charge must end within reach of {t.name} (OGRE-CHARGE-1)")
            return None
        if isinstance(cmd, Move):
            return og.path_problem(state, c, tuple(cmd.path), cmd.kind)
        if isinstance(cmd, Withdraw):
            if c.has_condition("blinded"):
                return Illegal("BLINDED", f"{c.name} is blinded and cannot withdraw (OGRE-WD-1)")
            return og.path_problem(state, c, tuple(cmd.path), "withdraw")
        if isinstance(cmd, Act):
            return self.check_act(state, c, cmd)
        if isinstance(cmd, Cast):
            if not 0 <= cmd.level <= 20:
                return Illegal("OUT_OF_RANGE", "A spell level runs from 0 to 20 (OGRE-READY-1)")
            if cmd.target and not state.has(cmd.target):
                return Illegal("NO_TARGET", f"There is no combatant {cmd.target!r}")
            return None
        if isinstance(cmd, Ready):
            return self._check_ready(state, c, cmd)
        return None

    def base_category(self, state: State, cmd: Command) -> str | None:
        """The category of a declaration before hurry or care (OGRE-CAT-1, OGRE-LIST-1)."""
        if isinstance(cmd, Attack):
            return "Standard"
        if isinstance(cmd, (Withdraw, Charge)):
            return "Long"
        if isinstance(cmd, Move):
            return MOVES[cmd.kind][1] if cmd.kind in MOVES else None
        if isinstance(cmd, Act):
            m = MENU_BY_KEY.get(cmd.action)
            return m.category if m else None
        if isinstance(cmd, Cast):
            return cmd.category if cmd.category in CATEGORIES else None
        if isinstance(cmd, Ready):
            return "Standard"
        return None

    def check_act(self, state: State, c, cmd: Act) -> Illegal | None:
        """The list action's own conditions (OGRE-LIST-1), once the actor may declare."""
        m = MENU_BY_KEY[cmd.action]
        if m.requires and not c.has_condition(m.requires):
            return Illegal("NOT_NEEDED", f"{c.name} is not {m.requires}: nothing to {m.label.lower()} (OGRE-LIST-1)")
        if m.forbids and c.has_condition(m.forbids):
            return Illegal("NOT_NEEDED", f"{c.name} is already {m.forbids} (OGRE-LIST-1)")
        if m.needs_item == "carried":
            if not cmd.item or cmd.item not in c.inventory:
                return Illegal("NO_ITEM", f"{c.name} carries no {cmd.item or 'item'} to draw (OGRE-LIST-1)")
            if "" not in c.hands:
                return Illegal("HANDS_FULL", f"{c.name} has no free hand (OGRE-LIST-1)")
        if m.needs_item == "held" and (not cmd.item or cmd.item not in c.hands):
            return Illegal("NOT_HELD", f"{c.name} does not hold {cmd.item or 'anything'} (OGRE-LIST-1)")
        if cmd.target and not state.has(cmd.target):
            return Illegal("NO_TARGET", f"There is no combatant {cmd.target!r}")
        return None

    def _check_ready(self, state: State, c, cmd: Ready) -> Illegal | None:
        if cmd.action not in ("attack", "counterspell"):
            return Illegal("UNKNOWN_ACTION", f"Ready an attack or a counterspell, not {cmd.action!r} (OGRE-READY-1)")
        if cmd.trigger not in TRIGGERS:
            return Illegal("NO_SUCH_TRIGGER", f"{cmd.trigger!r} is not a trigger: {', '.join(TRIGGERS)} "
                                              f"(OGRE-READY-1)")
        if cmd.action == "counterspell" and cmd.trigger != "cast":
            return Illegal("BAD_TRIGGER", "A counterspell waits for the target to start a spell (OGRE-READY-1)")
        if cmd.trigger != "charge" or cmd.target:
            t = state.find(cmd.target)
            if t is None or t.is_down or not state.hostile(c, t):
                return Illegal("NO_TARGET", f"Name the standing foe {c.name} waits for (OGRE-READY-1)")
        if cmd.action == "attack" and rv.pick_attack(c, cmd.attack) is None:
            return Illegal("NO_WEAPON", f"{c.name} has no attack ready to ready (OGRE-READY-1)")
        return None

    def _check_opportunity(self, state: State, cmd: Opportunity) -> Illegal | None:
        c = state.get(cmd.actor)
        mover = state.get(state.prompt.data["mover"])
        if cmd.use == "decline":
            return None
        if cmd.use == "pending":
            a = state.system.fighter(c.id).action
            if a is None or not a.is_offensive:
                return Illegal("NO_PENDING_ATTACK", f"{c.name} has no attack under way to use (OGRE-AOO-2)")
            atk = rv.pick_attack(c, a.attack)
            if atk is None or not og.in_reach(state, c, atk, mover):
                return Illegal("OUT_OF_REACH", f"{c.name}'s pending attack cannot reach {mover.name} (OGRE-AOO-2)")
            if cmd.fast:
                return Illegal("BAD_ANSWER", "Only a new attack can be hurried (OGRE-AOO-2)")
            return None
        if cmd.use == "new":
            atk = rv.pick_attack(c, cmd.attack, melee_only=True)
            if atk is None or not og.in_reach(state, c, atk, mover):
                return Illegal("OUT_OF_REACH", f"{c.name} has no melee attack that reaches {mover.name} (OGRE-AOO-2)")
            return None
        return Illegal("BAD_ANSWER", "Answer pending, new or decline (OGRE-AOO-2)")

    def _check_follow(self, state: State, cmd: Follow) -> Illegal | None:
        if not cmd.kind:
            return None
        if cmd.kind not in FOLLOWS:
            return Illegal("BAD_ANSWER", f"Follow quick, short or standard, not {cmd.kind!r} (OGRE-FOLLOW-1)")
        c = state.get(cmd.actor)
        problem = og.path_problem(state, c, tuple(cmd.path), f"follow-{cmd.kind}")
        if problem:
            return problem
        t = state.get(state.prompt.data["target"])
        a = state.system.fighter(c.id).action
        atk = rv.pick_attack(c, a.attack if a else "")
        reach = og.reach_squares(atk) if atk is not None and atk.is_melee else 1
        if distance_squares(tuple(cmd.path[-1]), tuple(t.square)) > reach:
            return Illegal("NOT_FOLLOWING", f"The follow must end within reach of {t.name} (OGRE-FOLLOW-1)")
        return None

    # --- resolving ---------------------------------------------------------------------
    def resolve(self, state: State, cmd: Command, dice: Dice) -> Resolution:
        events: list[Event] = []
        if isinstance(cmd, REFEREE_COMMANDS):
            state, events = super().resolve(state, cmd, dice)
            p = state.prompt
            if p is not None and not rv.standing(state, p.actor):
                # CORE-REF-1: the referee felled the one being asked; its answer is moot.
                events.append(Event("PromptDropped", f"{state.name(p.actor)} is down: no answer needed", rule=p.rule))
                state = replace(state, prompt=None)
            if state.system.phase == "fight":
                for f in state.system.fighters:
                    if f.initiative is None and rv.standing(state, f.id):
                        # Down when initiative was rolled, up now: it joins the count at once.
                        now = state.system.segment
                        state = rv.change(state, f.id, initiative=now, due=now)
                        events.append(Event("JoinsTheCount", f"{state.name(f.id)} joins the count at segment {now}",
                                            rule="OGRE-INIT-1", actor=f.id))
                state = rv.run(self, state, events, dice)
            return state, events
        moot = self._moot(state, cmd)
        if moot:
            # Reached only through the referee's Allow (CORE-REF-1), which skips `check`:
            # a command with nothing to act on is logged, never a crash or a count going back.
            return state, [Event("NothingHappens", moot, rule="CORE-REF-1")]
        if isinstance(cmd, BeforeTheFight):
            return self._surprise(state, cmd, events), events
        if isinstance(cmd, RollInitiative):
            return self._initiative(state, dice, events), events
        if isinstance(cmd, Advance):
            state = self._advance(state, cmd, events)
        elif isinstance(cmd, Stun):
            state = self._stun(state, cmd, events)
        elif isinstance(cmd, Break):
            state = rv.break_action(state, cmd.actor, events, "called off")
        elif isinstance(cmd, React):
            state = rv.react(state, cmd.actor, cmd.category, cmd.what or "a reaction", events)
        elif isinstance(cmd, Trigger):
            a = state.system.fighter(cmd.actor).action
            state = rv.push(state, Work("fire", cmd.actor, a.uid, other=a.target, cause=a.trigger))
        elif isinstance(cmd, (Opportunity, Follow, Counter)):
            state = self._answer(state, cmd, events, dice)
        elif isinstance(cmd, Delay):
            state = self._delay(state, cmd, events)
        else:
            state = self._declare(state, cmd, events)
        return rv.run(self, state, events, dice), events

    def _moot(self, state: State, cmd: Command) -> str:
        """Why an (allowed) command cannot mean anything now, or ""."""
        s: OgreState = state.system
        if isinstance(cmd, BeforeTheFight):
            return "" if len(cmd.spot) == len(cmd.sides) and all(state.encounter.side(x) for x in cmd.sides) \
                else "The surprise dialog needs each group's Spot (OGRE-SUR-1)"
        if isinstance(cmd, RollInitiative):
            return "" if s.phase == "setup" else "Initiative is already rolled: the count never goes back (OGRE-SEG-1)"
        if s.phase != "fight":
            return "Roll initiative first (OGRE-INIT-1)"
        answer = ANSWERS.get(state.prompt.kind) if state.prompt is not None else None
        if isinstance(cmd, tuple(ANSWERS.values())):
            if answer is None or not isinstance(cmd, answer) or cmd.actor != state.prompt.actor:
                return f"Nothing asks {state.name(cmd.actor)} that now"
            return self._check_answer_shape(state, cmd)
        if state.prompt is not None and isinstance(cmd, Advance):
            return f"{state.name(state.prompt.actor)} must answer first ({state.prompt.rule})"
        if isinstance(cmd, Stun):
            return "" if state.has(cmd.target) and cmd.segments > 0 else "A stun needs a combatant and a duration"
        actor = getattr(cmd, "actor", None)
        if actor is not None and not s.has(actor):
            return f"There is no combatant {actor!r}"
        c = state.get(actor) if actor is not None else None
        f = s.fighter(actor) if actor is not None else None
        if isinstance(cmd, React) and cmd.category not in CATEGORIES:
            return f"{cmd.category!r} is not a category (OGRE-CAT-1)"
        if isinstance(cmd, Trigger) and (f.action is None or f.action.kind != "ready" or not f.action.target):
            return f"{c.name} has no readied action with a target (OGRE-READY-1)"
        if isinstance(cmd, (Attack, Charge, Move, Withdraw, Act, Cast, Ready)):
            if self.base_category(state, cmd) is None:
                return f"{c.name}: no such action or category (OGRE-LIST-1)"
            if isinstance(cmd, (Attack, Charge)) and (
                    not state.has(cmd.target) or rv.pick_attack(c, cmd.attack, isinstance(cmd, Charge)) is None):
                return f"{c.name} has no such attack or target (OGRE-ATK-1)"
            if isinstance(cmd, Ready) and (cmd.trigger not in TRIGGERS or cmd.action not in ("attack", "counterspell")
                                           or (cmd.action == "attack" and rv.pick_attack(c, cmd.attack) is None)):
                return f"{c.name} cannot ready that (OGRE-READY-1)"
        return ""

    def _check_answer_shape(self, state: State, cmd: Command) -> str:
        c = state.get(cmd.actor)
        if isinstance(cmd, Opportunity):
            a = state.system.fighter(c.id).action
            if cmd.use == "pending" and (a is None or not a.is_offensive or rv.pick_attack(c, a.attack) is None):
                return f"{c.name} has no attack under way (OGRE-AOO-2)"
            if cmd.use == "new" and rv.pick_attack(c, cmd.attack, melee_only=True) is None:
                return f"{c.name} has no such melee attack (OGRE-AOO-2)"
            if cmd.use not in ("pending", "new", "decline"):
                return "Answer pending, new or decline (OGRE-AOO-2)"
        if isinstance(cmd, Follow) and cmd.kind and (cmd.kind not in FOLLOWS or len(cmd.path) < 1):
            return "Follow quick, short or standard along a path (OGRE-FOLLOW-1)"
        return ""

    def after_damage(self, state: State, target: str, amount: int, events: list[Event], *,
                     source: str = "") -> State:
        return rv.on_damage(state, target, amount, events)

    def _surprise(self, state: State, cmd: BeforeTheFight, events: list[Event]) -> State:
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
        fighters = tuple(replace(f, surprised=state.get(f.id).side in surprised) for f in state.system.fighters)
        for f in fighters:
            if f.surprised:
                events.append(Event("Surprised", f"{state.name(f.id)} is surprised: reaction time "
                                                 f"+{penalty}", rule="OGRE-SUR-1", target=f.id))
        record = om.Surprise(distance, surprised, sug.distance_ft, sug.surprised, sug.reason)
        return state.with_system(fighters=fighters, surprise=record)

    def _initiative(self, state: State, dice: Dice, events: list[Event]) -> State:
        """OGRE-INIT-1: d10 + reaction time (+ surprise, OGRE-SUR-1); the count starts at 0 (OGRE-SEG-1)."""
        penalty = int(state.setting("surprise_penalty", 10))
        out = []
        for f in state.system.fighters:
            c = state.get(f.id)
            if c.is_down:
                out.append(f)
                continue
            rt = om.reaction_time(state, c) + (penalty if f.surprised else 0)
            roll = dice.roll("d10", f"{c.name}'s initiative")
            init = roll.total + rt
            extra = f" (surprised +{penalty})" if f.surprised else ""
            events.append(Event("InitiativeRolled", f"{c.name}: initiative {roll.describe()} + reaction time "
                                                    f"{rt}{extra} = {init}", rule="OGRE-INIT-1", rolls=(roll,),
                                actor=c.id, data={"initiative": init, "reaction": rt}))
            out.append(replace(f, reaction=rt, initiative=init, due=init))
        state = state.with_system(fighters=tuple(out), phase="fight", segment=0)
        first = rv.next_event(state)
        who = ", ".join(state.name(f.id) for f in out if f.initiative == first)
        events.append(Event("CountStarted", f"Segment 0: everyone is flat-footed; {who or 'nobody'} acts first"
                                            + (f", at segment {first} ({seconds(first)})" if first is not None else ""),
                            rule="OGRE-SEG-1 OGRE-FF-1", data={"first": first}))
        return state

    def _advance(self, state: State, cmd: Advance, events: list[Event]) -> State:
        """Count on: to the next segment where something happens, or one segment (the count never goes back)."""
        s: OgreState = state.system
        now = s.segment
        nxt = rv.next_event(state)
        target = now + 1 if cmd.one or nxt is None else nxt
        state = state.with_system(segment=target)
        events.append(Event("SegmentReached", f"Segment {target} ({seconds(target)})", rule="OGRE-SEG-1",
                            data={"segment": target, "from": now}))
        for f in s.fighters:
            if not rv.standing(state, f.id):
                continue
            if f.initiative is not None and now < f.initiative <= target:
                events.append(Event("FlatFootedEnds", f"{state.name(f.id)} is no longer flat-footed and declares",
                                    rule="OGRE-FF-1", actor=f.id))
            if f.stunned_until is not None and now < f.stunned_until <= target:
                state = rv.change(state, f.id, stunned_until=None, due=f.stunned_until)
                state = state.with_combatant(state.get(f.id).without_condition("stunned"))
                events.append(Event("StunEnds", f"{state.name(f.id)} recovers from the stun and declares",
                                    rule="OGRE-BREAK-1", actor=f.id))
        due = [f for f in state.system.fighters
               if f.action is not None and f.action.resolves == target and rv.standing(state, f.id)]
        due.sort(key=lambda f: (f.action.declared, f.initiative or 0, f.reaction, f.id))
        works = [Work("resolve", f.id, f.action.uid) for f in due]
        if len(works) > 1 and state.setting("simultaneous", "together") == "together":
            works.append(Work("flush", ""))  # OGRE-ACT-1: damage of the segment lands together
        return rv.push(state, *works)

    def _stun(self, state: State, cmd: Stun, events: list[Event]) -> State:
        """OGRE-BREAK-1: a stun breaks the action; it declares again on the segment it recovers."""
        s: OgreState = state.system
        until = s.segment + cmd.segments
        state = rv.break_action(state, cmd.target, events, "stunned", involuntary=True, due=until)
        state = rv.change(state, cmd.target, stunned_until=until, due=until, delaying=False)
        state = state.with_combatant(state.get(cmd.target).with_condition("stunned"))
        events.append(Event("Stunned", f"{state.name(cmd.target)} is stunned until segment {until}",
                            rule="OGRE-BREAK-1", target=cmd.target))
        return state

    def _delay(self, state: State, cmd: Delay, events: list[Event]) -> State:
        """OGRE-DELAY-1: nothing declared now; the waited segments are lost."""
        s: OgreState = state.system
        f = s.fighter(cmd.actor)
        start = f.delay_from if f.delaying and f.delay_from is not None else s.segment
        state = rv.change(state, cmd.actor, delaying=True, delay_from=start, due=cmd.until)
        when = f"until segment {cmd.until}" if cmd.until is not None else "and may declare at any later segment"
        events.append(Event("Delayed", f"{state.name(cmd.actor)} delays {when}", rule="OGRE-DELAY-1",
                            actor=cmd.actor, data={"until": cmd.until}))
        return state

    def _declare(self, state: State, cmd: Command, events: list[Event]) -> State:
        c = state.get(cmd.actor)
        base = self.base_category(state, cmd)
        tempo = getattr(cmd, "tempo", 0)
        fields = dict(base=base, category=om.shifted(base, tempo), tempo=tempo,
                      modifier=om.tempo_modifier(c, tempo) if tempo else 0)
        if isinstance(cmd, Attack):
            atk = rv.pick_attack(c, cmd.attack)
            fields.update(kind="attack", label=f"Attack {state.name(cmd.target)} with {atk.name}",
                          target=cmd.target, attack=atk.name)
        elif isinstance(cmd, Move):
            fields.update(kind="move", label=MOVES[cmd.kind][0], move=cmd.kind, path=tuple(map(tuple, cmd.path)))
        elif isinstance(cmd, Withdraw):
            fields.update(kind="withdraw", label="Withdraw", path=tuple(map(tuple, cmd.path)))
        elif isinstance(cmd, Charge):
            atk = rv.pick_attack(c, cmd.attack, melee_only=True)
            fields.update(kind="charge", label=f"Charge {state.name(cmd.target)}", target=cmd.target,
                          attack=atk.name, path=tuple(map(tuple, cmd.path)))
        elif isinstance(cmd, Act):
            m = MENU_BY_KEY[cmd.action]
            fields.update(kind="act", label=m.label + (f": {cmd.item}" if cmd.item else ""), act=m.key,
                          item=cmd.item, target=cmd.target)
        elif isinstance(cmd, Cast):
            fields.update(kind="cast", label=f"Cast {cmd.spell}", spell=cmd.spell, level=cmd.level,
                          target=cmd.target, concentration=True)
        elif isinstance(cmd, Ready):
            if cmd.action == "counterspell":
                label = f"Ready: counterspell on {state.name(cmd.target)}"
            else:
                on = "charge" if cmd.trigger == "charge" else f"{state.name(cmd.target)} ({cmd.trigger})"
                label = f"Ready: attack on {on}"
            atk = rv.pick_attack(c, cmd.attack) if cmd.action == "attack" else None
            fields.update(kind="ready", label=label, target=cmd.target, trigger=cmd.trigger, inner=cmd.action,
                          attack=atk.name if atk else "")
        return rv.declare(state, cmd.actor, events, **fields)

    def _answer(self, state: State, cmd: Command, events: list[Event], dice: Dice) -> State:
        prompt = state.prompt
        state = replace(state, prompt=None)
        if isinstance(cmd, Opportunity):
            return self._opportunity(state, cmd, prompt.data["mover"], events, dice)
        if isinstance(cmd, Follow):
            target = prompt.data["target"]
            if not cmd.kind:
                events.append(Event("FollowDeclined", f"{state.name(cmd.actor)} stays put", rule="OGRE-FOLLOW-1",
                                    actor=cmd.actor))
                return state
            label, category = FOLLOWS[cmd.kind]
            state = rv.react(state, cmd.actor, category, f"{label} {state.name(target)}", events,
                             rule="OGRE-FOLLOW-1 OGRE-REACT-1")
            path = tuple(map(tuple, cmd.path))
            # OGRE-FOLLOW-1: nothing provoked between follower and target; others still strike.
            stops = rv.provocation_stops(state, cmd.actor, path, exempt=(target,))
            return rv.push(state, Work("walk", cmd.actor, 0, path=path, stops=stops, cause="follow"))
        caster = prompt.data["caster"]
        if cmd.counter:
            state = rv.break_action(state, caster, events, f"countered by {state.name(cmd.actor)}",
                                    involuntary=True)
        else:
            events.append(Event("CounterDeclined", f"{state.name(cmd.actor)} cannot cast that spell",
                                rule="OGRE-READY-1", actor=cmd.actor))
        return rv.end_action(state, cmd.actor, events, "fired", rule="OGRE-READY-1")

    def _opportunity(self, state: State, cmd: Opportunity, mover: str, events: list[Event], dice: Dice) -> State:
        """OGRE-AOO-2: the pending attack at once (DEFAULT -2 on another target), a new one as a reaction, or nothing."""
        c = state.get(cmd.actor)
        if cmd.use == "decline":
            events.append(Event("OpportunityDeclined", f"{c.name} lets {state.name(mover)} go", rule="OGRE-AOO-2",
                                actor=cmd.actor, target=mover))
            return state
        walk = state.system.work[0] if state.system.work and state.system.work[0].kind == "walk" else None
        if walk is not None:
            state = state.with_system(work=(replace(walk, struck=walk.struck + (cmd.actor,)),)
                                      + state.system.work[1:])
        events.append(Event("OpportunityTaken", f"{c.name} takes an attack of opportunity on {state.name(mover)}",
                            rule="OGRE-AOO-1", actor=cmd.actor, target=mover, data={"use": cmd.use}))
        if cmd.use == "pending":
            a = state.system.fighter(cmd.actor).action
            change = int(state.setting("change_target_penalty", 2)) if a.target != mover else 0
            atk = rv.pick_attack(c, a.attack)
            state = rv.attack_roll(self, state, cmd.actor, mover, atk, a.check_bonus - change, events, dice,
                                   why="pending attack, now" + (f" (new target -{change})" if change else ""),
                                   rule="OGRE-AOO-2")
            return rv.end_action(state, cmd.actor, events, "resolved", rule="OGRE-AOO-2")
        atk = rv.pick_attack(c, cmd.attack, melee_only=True)
        category = "Short" if cmd.fast else "Standard"
        bonus = om.tempo_modifier(c, -1) if cmd.fast else 0
        state = rv.attack_roll(self, state, cmd.actor, mover, atk, bonus, events, dice,
                               why="attack of opportunity" + (" (fast)" if cmd.fast else ""), rule="OGRE-AOO-2")
        if rv.standing(state, cmd.actor):
            state = rv.react(state, cmd.actor, category, f"attack of opportunity on {state.name(mover)}", events,
                             rule="OGRE-AOO-2 OGRE-REACT-1")
        return state


RULESET = Ogre()
