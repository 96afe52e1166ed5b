"""OSE house rules "Combat and Tactical Actions" as a Fray ruleset, loose and detailed (OSE-*).

This module holds the hooks (`begin`, `current`, `options`, `check`, `resolve`,
`outcome`, `after_damage`, `bodies`); the rules themselves live in the
sibling modules `ose_round` (round, initiative, spells, morale), `ose_combat`
(attacks, stances, shields, grapples), `ose_move` (grid movement, attacks of
opportunity, charge, brace, manipulation), `ose_turn` (Turn Undead),
`ose_check` (legality) and `ose_options` (what each actor is offered).
"""
from __future__ import annotations

from dataclasses import replace

from ..engine.commands import Command, Event, Illegal, Option
from ..engine.dice import Dice
from ..engine.geometry import Body
from ..engine.model import Encounter
from ..engine.ruleset import REFEREE_COMMANDS, Allow, Resolution, Ruleset, Setting, StatSpec
from ..engine.state import State
from . import ose_check, ose_options
from .ose_base import (FLED, SETTINGS, STATS, Attack, CancelSpell, Charge, CompleteSpell, Declare, DisruptSpell,
                       Done, EndStep, Flee, Grapple, Manipulate, MoraleResult, Move, Narrate, OseState, Release,
                       RollInitiative, RollResource, Splinter, Surprise, TurnUndead, Withdraw, can_act, econ_of,
                       is_detailed, with_econ)
from .ose_combat import (deal_damage, drop_broken_holds, release, resolve_grapple, shot_manipulations, splinter,
                         strike)
from .ose_move import bodies as grid_bodies, apply_manipulation, charge_plan, move_left, run_move, start_move
from .ose_round import (active_actors, apply_morale, cancel_spell, complete_spell, declare, end_side, end_step,
                        lose_spell, mark_done, mark_surprise, outcome_text, roll_initiative, roll_resource,
                        settle)
from .ose_turn import resolve_turn


class OseRuleset(Ruleset):
    name = "ose"
    title = "OSE house rules: Combat and Tactical Actions"
    profiles = ("loose", "detailed")
    field_view = "grid"

    def field_view_for(self, profile: str) -> str:
        """The field a profile needs: the grid (detailed) or a plain list (loose, OSE-LOOSE-1)."""
        return "grid" if profile == "detailed" else "list"

    def extra_views(self, profile: str) -> tuple[str, ...]:
        """The declaration step's panel above the field, both profiles (OSE-DECL-1)."""
        return ("declarations",)

    def settings(self) -> tuple[Setting, ...]:
        return SETTINGS

    def stats(self) -> tuple[StatSpec, ...]:
        return STATS

    # --- protocol ----------------------------------------------------------------------
    def begin(self, encounter: Encounter) -> State:
        profile = encounter.profile if encounter.profile in self.profiles else "loose"
        return State(encounter=encounter, combatants=encounter.combatants, round=1,
                     system=OseState(profile=profile))

    def current(self, state: State) -> tuple[str, ...]:
        if state.prompt is not None:
            return (state.prompt.actor,)
        if state.outcome:
            return ()
        if state.system.phase == "declare":
            return tuple(c.id for c in state.combatants if can_act(c))
        return active_actors(state)

    def options(self, state: State, actor: str) -> list[Option]:
        return ose_options.options(self, state, actor)

    def check(self, state: State, cmd: Command) -> Illegal | None:
        if isinstance(cmd, REFEREE_COMMANDS):
            return super().check(state, cmd)
        if type(cmd).namespace != self.name:
            return Illegal("UNKNOWN_COMMAND", f"{cmd.type_name} is not an action of {self.title}")
        return ose_check.check(state, cmd)

    def resolve(self, state: State, cmd: Command, dice: Dice) -> Resolution:
        if isinstance(cmd, Allow):
            # CORE-REF-1: an allowed command skips the checks; one that cannot apply at all changes nothing.
            try:
                return super().resolve(state, cmd, dice)
            except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
                return state, [Event("OverrideFailed", f"The referee's override of {cmd.command.label()} cannot "
                                                       f"be applied here ({type(exc).__name__}: {exc})",
                                     rule="CORE-REF-1")]
        if isinstance(cmd, REFEREE_COMMANDS):
            state, events = super().resolve(state, cmd, dice)
            state = drop_broken_holds(state, events)
            return settle(state, dice, events), events
        events: list[Event] = []
        state = self._HANDLERS[type(cmd)](self, state, cmd, dice, events)
        state = drop_broken_holds(state, events)
        return settle(state, dice, events), events

    def outcome(self, state: State) -> str:
        """Decided when no two hostile sides still have someone in the fight (down, fled and surrendered are out)."""
        return outcome_text(state)

    def after_damage(self, state: State, target: str, amount: int, events: list[Event], *,
                     source: str = "") -> State:
        # OSE-SPELL-3: damage between the initiative roll and completion loses the spell.
        s = state.system
        if target in s.casting or target in s.concentrating:
            state = lose_spell(state, events, target, "damaged before completing it" if target in s.casting
                               else "damaged")
        return state

    def moved(self, state: State, target: str, events: list[Event]) -> State:
        return drop_broken_holds(state, events)

    def bodies(self, state: State) -> list[Body]:
        """Who stands where, reach in squares and who threatens (OSE-AOO-1, OSE-AOO-3, OSE-STANCE-3)."""
        return grid_bodies(state)

    def move_allowance(self, state: State, actor: str, cmd: Command) -> int | None:
        """Feet the actor may still move this round (OSE-MOVE-1, OSE-ECON-1), for the grid's preview."""
        if not state.has(actor):
            return None
        return move_left(state, state.get(actor))

    # --- handlers ------------------------------------------------------------------------
    def _surprise(self, state, cmd: Surprise, dice, events):
        return mark_surprise(state, events, cmd.side, cmd.on)

    def _declare(self, state, cmd: Declare, dice, events):
        return declare(state, events, state.get(cmd.actor), cmd.action, cmd.spell)

    def _initiative(self, state, cmd: RollInitiative, dice, events):
        return roll_initiative(state, dice, events)

    def _done(self, state, cmd: Done, dice, events):
        c = state.get(cmd.actor)
        if c.id in state.system.casting and (not is_detailed(state) or ose_options.step_now(state) == "magic"):
            state = _lapse_one(state, events, c.id)
        events.append(Event("Done", f"{c.name} is done" + (f" with the {ose_options.step_word(state)} step"
                                                          if is_detailed(state) else ""), actor=c.id))
        return mark_done(state, c.id)

    def _end_step(self, state, cmd: EndStep, dice, events):
        if is_detailed(state):
            return end_step(state, dice, events)
        return end_side(state, dice, events)

    def _move(self, state, cmd: Move, dice, events):
        return start_move(self, state, dice, events, cmd.actor, cmd.path, "move")

    def _withdraw(self, state, cmd: Withdraw, dice, events):
        state = with_econ(state, cmd.actor, main="withdraw")
        state = state.with_system(withdrawing=state.system.withdrawing | {cmd.actor})
        return start_move(self, state, dice, events, cmd.actor, cmd.path, "withdraw")

    def _flee(self, state, cmd: Flee, dice, events):
        c = state.get(cmd.actor)
        if is_detailed(state) and c.square is not None:
            sq = tuple(c.square)
            return start_move(self, state, dice, events, c.id, (sq, sq), "flee")
        events.append(Event("Fled", f"{c.name} flees the fight: the referee takes control (OSE-FLEE-1)",
                            rule="OSE-FLEE-1", actor=c.id))
        return state.update(c.id, square=None, conditions=c.with_condition(FLED).conditions)

    def _charge(self, state, cmd: Charge, dice, events):
        plan = charge_plan(state, state.get(cmd.actor), cmd.attack)
        if isinstance(plan, Illegal):
            raise ValueError(plan.detail)
        target, path = plan
        state = with_econ(state, cmd.actor, full="charge")
        return start_move(self, state, dice, events, cmd.actor, tuple(tuple(p) for p in path), "charge",
                          target=target, attack=cmd.attack)

    def _attack(self, state, cmd: Attack, dice, events):
        c = state.get(cmd.actor)
        atk = c.attack(cmd.attack)
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
        state = strike(self, state, dice, events, c.id, cmd.target, atk.name, edge=cmd.edge).state
        return state if is_detailed(state) else mark_done(state, c.id)

    def _complete(self, state, cmd: CompleteSpell, dice, events):
        return complete_spell(state, events, state.get(cmd.actor), cmd.targets, cmd.note, cmd.concentration)

    def _cancel(self, state, cmd: CancelSpell, dice, events):
        return cancel_spell(state, events, state.get(cmd.actor))

    def _disrupt(self, state, cmd: DisruptSpell, dice, events):
        return lose_spell(state, events, cmd.target, cmd.reason or "disrupted (referee's ruling)")

    def _manipulate(self, state, cmd: Manipulate, dice, events):
        return apply_manipulation(state, events, state.get(cmd.actor), cmd.action, cmd.item, cmd.note)

    def _grapple(self, state, cmd: Grapple, dice, events):
        state = with_econ(state, cmd.actor, main="grapple")
        state = resolve_grapple(state, dice, events, cmd.actor, cmd.target, cmd.intent)
        return state if is_detailed(state) else mark_done(state, cmd.actor)

    def _release(self, state, cmd: Release, dice, events):
        return release(state, events, cmd.actor, cmd.target)

    def _turn(self, state, cmd: TurnUndead, dice, events):
        state = resolve_turn(state, dice, events, cmd.actor, cmd.group)
        return state if is_detailed(state) else mark_done(state, cmd.actor)

    def _narrate(self, state, cmd: Narrate, dice, events):
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

    def _splinter(self, state, cmd: Splinter, dice, events):
        p = state.system.pending_hit
        state = replace(state, prompt=None).with_system(pending_hit=None)
        state = splinter(state, events, p) if cmd.splinter else deal_damage(self, state, dice, events, p)
        mp = state.system.pending_move
        if mp is not None:
            state = run_move(self, state, dice, events, mp)
        return state

    def _morale(self, state, cmd: MoraleResult, dice, events):
        return apply_morale(state, events, cmd.side, cmd.result)

    def _resource(self, state, cmd: RollResource, dice, events):
        return roll_resource(state, dice, events, state.get(cmd.target), cmd.item)

    _HANDLERS = {Surprise: _surprise, Declare: _declare, RollInitiative: _initiative, Done: _done,
                 EndStep: _end_step, Move: _move, Withdraw: _withdraw, Flee: _flee, Charge: _charge,
                 Attack: _attack, CompleteSpell: _complete, CancelSpell: _cancel, DisruptSpell: _disrupt,
                 Manipulate: _manipulate, Grapple: _grapple, Release: _release, TurnUndead: _turn,
                 Narrate: _narrate, Splinter: _splinter, MoraleResult: _morale, RollResource: _resource}


def _lapse_one(state: State, events: list[Event], cid: str) -> State:
    spell = state.system.casting[cid]
    state = state.with_system(casting={k: v for k, v in state.system.casting.items() if k != cid})
    events.append(Event("SpellLapsed", f"{state.name(cid)} lets {spell} lapse: it is lost (OSE-SPELL-2)",
                        rule="OSE-SPELL-2", actor=cid))
    return state


RULESET = OseRuleset()
