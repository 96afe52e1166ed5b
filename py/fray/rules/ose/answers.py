"""The checks of commands that come outside an actor's own turn: the referee's calls, which
may come at any time, even while a question waits (`anytime`), and the answers to the
question asked (`answers`); check.py consults both tables first.
"""
from __future__ import annotations

from ...engine.commands import Illegal, Reason as Core
from ...engine.dice import is_dice
from ...engine.tables import Handlers
from ...engine.state import Prompt, State
from .combat import ammo_die
from .commands import CheckMorale, DisruptSpell, MoraleResult, Opportunity, RestoreMemory, RollResource, Splinter
from .reasons import Reason as R
from .state import is_out, memorised_at_start, spells_of

anytime = Handlers("ose check, even while a question waits")  # (state, cmd): the referee's calls
answers = Handlers("ose answer")  # (state, cmd, prompt): answers to the question asked


def no_one(cid: str) -> Illegal:
    return Illegal(Core.NO_SUCH_COMBATANT, f"There is no combatant {cid!r}")


def waiting(p: Prompt) -> Illegal:
    return Illegal(Core.WAITING_FOR_ANSWER, f"First answer: {p.question}")


@anytime(RollResource)
def _check_roll_resource(state: State, cmd: RollResource) -> Illegal | None:
    c = state.find(cmd.target)
    return no_one(cmd.target) if c is None else check_resource(state, c, cmd.item)


@anytime(DisruptSpell)
def _check_disrupt(state: State, cmd: DisruptSpell) -> Illegal | None:
    c = state.find(cmd.target)
    if c is None:
        return no_one(cmd.target)
    if cmd.target not in state.board.casting and cmd.target not in state.board.concentrating:
        return Illegal(R.NOT_CASTING, f"{c.name} is neither casting nor concentrating on a spell")
    return None


@anytime(CheckMorale)
def _check_call_morale(state: State, cmd: CheckMorale) -> Illegal | None:
    side = state.encounter.side(cmd.side)
    if side is None:
        return Illegal(Core.NO_SUCH_SIDE, f"There is no side {cmd.side!r}")
    if side.morale is None:
        return Illegal(R.NO_MORALE, f"{side.name} has no morale score: it is not subject to morale (OSE-MORALE-2)")
    if not any(not is_out(c) for c in state.on_side(side.id)):
        return Illegal(R.OUT_OF_FIGHT, f"No one of {side.name} is left in the fight (OSE-MORALE-2)")
    if state.prompt is not None:
        return waiting(state.prompt)
    return None


@anytime(RestoreMemory)
def _check_restore(state: State, cmd: RestoreMemory) -> Illegal | None:
    c = state.find(cmd.target)
    if c is None:
        return no_one(cmd.target)
    start = memorised_at_start(state, c.id)
    if not start:
        return Illegal(R.NO_SPELLS, f"{c.name} was set up with no spells memorised (OSE-SPELL-5)")
    if c.id in state.board.casting:
        return Illegal(R.CASTING, f"{c.name} is casting {state.board.casting[c.id]}: memory is restored between "
                                  f"fights (OSE-SPELL-5)")
    if sorted(spells_of(c)) == sorted(start):
        return Illegal(R.MEMORY_FULL, f"{c.name} already has every spell it was set up with in memory (OSE-SPELL-5)")
    return None


@answers(Splinter)
def _check_splinter(state: State, cmd: Splinter, p: Prompt) -> Illegal | None:
    return None if p.kind == "splinter" and cmd.actor == p.actor else waiting(p)


@answers(Opportunity)
def _check_opportunity(state: State, cmd: Opportunity, p: Prompt) -> Illegal | None:
    if p.kind != "aoo" or cmd.actor != p.actor:
        return waiting(p)
    if cmd.answer not in ("attack", "decline", "stunt"):
        return Illegal(Core.BAD_ANSWER, f"{cmd.answer!r} is not attack, decline or stunt (OSE-AOO-4)")
    if cmd.weapon and (cmd.answer != "attack" or cmd.weapon not in p.data.get("weapons", ())):
        return Illegal(Core.BAD_ANSWER, f"{cmd.weapon!r} is not an attack {state.name(cmd.actor)} can make here "
                                        f"(OSE-AOO-2)")
    return None


@answers(MoraleResult)
def _check_morale(state: State, cmd: MoraleResult, p: Prompt) -> Illegal | None:
    if p.kind != "morale" or cmd.side != p.data.get("side"):
        return waiting(p)
    if cmd.result not in ("flee", "surrender", "fight on"):
        return Illegal(Core.BAD_ANSWER, f"{cmd.result!r} is not flee, surrender or fight on (OSE-MORALE-1)")
    return None


def check_resource(state: State, c: Combatant, item: str) -> Illegal | None:
    """OSE-RES-1: a usage die to roll for the item, not spent, and a real die."""
    die = ammo_die(state, c, item)
    if not die:
        return Illegal(R.NO_USAGE_DIE, f"{c.name} has no usage die for {item} (OSE-RES-1)")
    if die == "out":
        return Illegal(R.USED_UP, f"{c.name}'s {item} is used up (OSE-RES-1)")
    if not is_dice(die):
        return Illegal(R.BAD_USAGE_DIE, f"{c.name}'s usage die {die!r} is not a die (OSE-RES-1)")
    return None
