"""OSE state: the round record (`OseState`) and its parts, the settings and stats, and small queries.

`OseState` is the ruleset's frozen record in `State.board`; every OSE module
reads the round through the queries here (`acting_side`, `current_step`,
`econ_of`...). Rule ids (OSE-*) refer to /shared/RULES.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...engine.commands import Code
from ...engine.conditions import can_act as core_can_act
from ...engine.geometry import Grid
from ...engine.model import Combatant
from ...engine.specs import Setting, StatSpec
from ...engine.state import State
from ...engine.spells import spell_effect

STEPS = ("move", "missile", "magic", "melee")  # OSE-ORDER-1
STEP_NAMES = {"move": "MOVE", "missile": "MISSILE", "magic": "MAGIC", "melee": "MELEE"}
Path = tuple[tuple[int, int], ...]


class Phase(Code):
    """Where the OSE round is (OSE-SEQ-1, OSE-ORDER-1): declaring, or acting; the detailed
    profile acts in four steps, so its acting phase is the step. `RULESET.phase(state)`."""

    DECLARE = "declare"
    ACT = "act"  # the loose profile: the acting side takes its turn
    MOVE = "move"
    MISSILE = "missile"
    MAGIC = "magic"
    MELEE = "melee"

    @property
    def is_acting(self) -> bool:
        return self is not Phase.DECLARE

    @property
    def step_name(self) -> str:
        """The step as the page names it ("MOVE"), "" outside the detailed steps."""
        return STEP_NAMES.get(self.value, "")

# OSE-TURN-1 DEFAULT: the B/X (OSE) cleric turning table. Rows by undead Hit Dice
# ("2*" = 2 HD with a special ability, e.g. a ghoul), columns by Warpriest level
# 1..11+; a number is the 2d6 needed, T turns, D destroys, "-" cannot turn.
TURN_TABLE: dict[str, tuple[str, ...]] = {
    "1": ("7", "T", "T", "D", "D", "D", "D", "D", "D", "D", "D"),
    "2": ("9", "7", "T", "T", "D", "D", "D", "D", "D", "D", "D"),
    "2*": ("11", "9", "7", "T", "T", "D", "D", "D", "D", "D", "D"),
    "3": ("-", "11", "9", "7", "T", "T", "D", "D", "D", "D", "D"),
    "4": ("-", "-", "11", "9", "7", "T", "T", "D", "D", "D", "D"),
    "5": ("-", "-", "-", "11", "9", "7", "T", "T", "D", "D", "D"),
    "6": ("-", "-", "-", "-", "11", "9", "7", "T", "T", "D", "D"),
    "7-9": ("-", "-", "-", "-", "-", "11", "9", "7", "T", "T", "D"),
}

SETTINGS: tuple[Setting, ...] = (
    Setting("move_divisor", "Tactical movement: base speed divided by", 3, rule="OSE-MOVE-1", minimum=1, maximum=12,
            help="120 ft base speed / 3 = 40 ft (8 squares) per round"),
    Setting("diagonal", "Diagonal steps cost", "5", kind="choice", choices=("5", "5-10-5"), rule="OSE-MOVE-1"),
    Setting("shield_ac", "Shield bonus to AC", 1, rule="OSE-STANCE-5", minimum=0, maximum=5),
    Setting("adv_rule", "Advantage and disadvantage together", "cancel", kind="choice",
            choices=("cancel", "disadvantage wins"), rule="OSE-ADV-1",
            help="cancel: one of each cancels (neither stacks); disadvantage wins: any disadvantage prevails"),
    Setting("grapple_check", "Grapple check uses", "phys", kind="choice", choices=("phys", "dex", "best"),
            rule="OSE-GRAP-1", help="Opposed d20 + the ability modifier (+ grapple_bonus); the defender wins ties"),
    Setting("grapple_count", "Grapple successes toward a pin", "cumulative", kind="choice",
            choices=("cumulative", "consecutive"), rule="OSE-GRAP-1",
            help="cumulative: every success counts until the hold is released; consecutive: a failure resets"),
    Setting("pin_successes", "Successes against one target that pin it", 3, rule="OSE-GRAP-1", minimum=1, maximum=10),
    Setting("turn_action", "Turn Undead takes", "main", kind="choice", choices=("main", "full_round"),
            rule="OSE-TURN-1"),
    Setting("turn_table", "Turn Undead table (rows: undead HD; columns: Warpriest level 1..11+)", TURN_TABLE,
            kind="table", rule="OSE-TURN-1"),
    Setting("rounds_per_minute", "Rounds in a minute (turned undead flee 1d4 minutes)", 6, rule="OSE-TURN-3",
            minimum=1, maximum=60),
    Setting("morale_first_death", "Morale check after a side's first death", True, kind="bool", rule="OSE-MORALE-1"),
    Setting("morale_half_down", "Morale check when half a side is down", True, kind="bool", rule="OSE-MORALE-1"),
    Setting("resource_dice", "Usage die chain", "d20,d12,d10,d8,d6,d4", kind="text", rule="OSE-RES-1"),
    Setting("resource_drop", "Usage die steps down on a roll of at most", 2, rule="OSE-RES-1", minimum=1, maximum=10),
    Setting("dark", "The fight is in darkness (no fleeing without sight)", False, kind="bool", rule="OSE-FLEE-1"),
)
DEFAULTS: dict[str, Any] = {s.key: s.default for s in SETTINGS}

STATS: tuple[StatSpec, ...] = (
    StatSpec("phys", "PHYS modifier", 0, rule="OSE-ATK-1", minimum=-5, maximum=5),
    StatSpec("dex", "DEX modifier", 0, rule="OSE-ATK-1", minimum=-5, maximum=5),
    StatSpec("speed", "Base speed (ft)", 120, rule="OSE-MOVE-1", minimum=0, maximum=480),
    # OSE-SPELL-5: the spells in memory, one entry per memorised copy ("Sleep, Sleep" is two Sleeps);
    # casting, cancelling or losing one takes it off the list.
    StatSpec("spells", "Spells memorised (one entry per copy)", (), kind="list", rule="OSE-SPELL-5"),
    StatSpec("warpriest", "Warpriest (turns undead)", False, kind="bool", rule="OSE-TURN-1"),
    StatSpec("level", "Level", 1, rule="OSE-TURN-1", minimum=0, maximum=30),
    StatSpec("favoured_weapon", "Deity's favoured weapon (item)", "", kind="text", rule="OSE-TURN-1"),
    StatSpec("undead", "Undead", False, kind="bool", rule="OSE-TURN-1"),
    StatSpec("hd", "Hit Dice", 1, rule="OSE-TURN-2", minimum=0, maximum=30),
    StatSpec("turn_row", "Turn table row (e.g. 2* for a ghoul)", "", kind="text", rule="OSE-TURN-1"),
    StatSpec("group", "Group (turning is tracked per group)", "", kind="text", rule="OSE-TURN-4"),
    StatSpec("ammo_die", "Ammunition usage die (e.g. d8)", "", kind="text", rule="OSE-RES-1"),
    StatSpec("shield_bonus", "Extra shield AC (magic shield)", 0, rule="OSE-STANCE-5", minimum=0, maximum=5),
    StatSpec("backpack", "Backpack contents (out of reach)", (), kind="list", rule="OSE-MANIP-1"),
    StatSpec("aoo_attack", "Attack used for attacks of opportunity", "", kind="text", rule="OSE-AOO-2"),
    StatSpec("grapple_bonus", "Grapple bonus", 0, rule="OSE-GRAP-1", minimum=-10, maximum=10),
    StatSpec("reach_ft", "Natural reach (ft)", 0, rule="OSE-AOO-3", minimum=0, maximum=30),
)

# Conditions this system sets or reads (besides the referee's own).
FLED, SURRENDERED, GRAPPLED, PINNED, HELPLESS, TURNED, DESTROYED = (
    "fled", "surrendered", "grappled", "pinned", "helpless", "turned", "destroyed")

# --- records ------------------------------------------------------------------

@dataclass(frozen=True)
class Econ:
    """One actor's action economy this round (OSE-ECON-1, OSE-MANIP-1).

    `main`/`move`/`full` say what used each action ("" = unused); `moved_ft`
    the feet moved; `manips` the manipulations made; `acted` (loose profile)
    whether the actor has taken its action this turn.
    """

    main: str = ""
    move: str = ""
    full: str = ""
    moved_ft: int = 0
    manips: int = 0
    acted: bool = False


@dataclass(frozen=True)
class Hold:
    """A grapple: `grappler` holds `target`; `successes` count toward a pin (OSE-GRAP-1)."""

    grappler: str
    target: str
    successes: int = 1


@dataclass(frozen=True)
class MoraleTrack:
    """A side's morale so far (OSE-MORALE-1): triggers already used, checks passed, result."""

    first_death: bool = False
    half_down: bool = False
    passes: int = 0
    result: str = ""  # "" | "flee" | "surrender" | "fight on"


@dataclass(frozen=True)
class PendingHit:
    """A hit waiting for the defender's Shields Shall Be Splintered answer (OSE-SSBS-1)."""

    attacker: str
    target: str
    weapon: str
    mode: str  # "attack" | "aoo" | "brace" | "charge"
    double: bool = False
    maximum: bool = False


@dataclass(frozen=True)
class MoveProgress:
    """A move in progress, resumable after a prompt (OSE-AOO-2).

    `provs` are the provocations not reached yet as (path index, attacker ids);
    `at` the index being left now (-1: none), `queue` the attackers still to
    strike there, `hit` whether one of them hit.
    """

    actor: str
    path: Path
    mode: str  # "move" | "withdraw" | "flee" | "charge"
    provs: tuple[tuple[int, tuple[str, ...]], ...] = ()
    at: int = -1
    queue: tuple[str, ...] = ()
    hit: bool = False
    target: str = ""  # charge: the enemy charged
    weapon: str = ""  # charge: the attack made at the end


@dataclass(frozen=True)
class OseState:
    """The OSE round as frozen data (OSE-SEQ-1)."""

    profile: str = "loose"
    phase: str = "declare"  # "declare" | "act"
    surprised: frozenset[str] = frozenset()  # OSE-SUR-1 (round 1 only)
    declared: dict[str, tuple[str, str]] = field(default_factory=dict)  # cid -> (action, spell)
    initiative: dict[str, tuple[int, ...]] = field(default_factory=dict)  # side -> d12 and re-rolls
    order: tuple[str, ...] = ()  # sides in acting order this round
    turn: int = 0  # index into order
    step: int = 0  # index into STEPS (detailed)
    done: frozenset[str] = frozenset()  # actors done with this step (detailed)
    econ: dict[str, Econ] = field(default_factory=dict)
    casting: dict[str, str] = field(default_factory=dict)  # cid -> spell begun at initiative (OSE-SPELL-1)
    concentrating: dict[str, str] = field(default_factory=dict)  # cid -> spell (OSE-SPELL-3)
    full_defense: dict[str, int] = field(default_factory=dict)  # cid -> round declared (OSE-FD-1)
    bracing: frozenset[str] = frozenset()  # OSE-BRACE-1, this round
    withdrawing: frozenset[str] = frozenset()  # OSE-WD-1, this round
    holds: tuple[Hold, ...] = ()  # OSE-GRAP-1
    turned: dict[str, tuple[str, int]] = field(default_factory=dict)  # undead -> (warpriest, last round)
    turn_locks: frozenset[tuple[str, str]] = frozenset()  # (warpriest, group), OSE-TURN-4
    morale: dict[str, MoraleTrack] = field(default_factory=dict)
    morale_queue: tuple[str, ...] = ()  # sides whose failed check awaits the referee
    ammo: dict[str, str] = field(default_factory=dict)  # "cid:item" -> usage die or "out" (OSE-RES-1)
    pending_hit: PendingHit | None = None
    pending_move: MoveProgress | None = None


# --- helpers --------------------------------------------------------------------

def opt(state: State, key: str) -> Any:
    """A setting, falling back to its DEFAULT when the encounter lacks it."""
    val = state.encounter.settings.get(key)
    return DEFAULTS[key] if val is None else val


def is_detailed(state: State) -> bool:
    return state.board.profile == "detailed"


def econ_of(state: State, cid: str) -> Econ:
    return state.board.econ.get(cid) or Econ()


def with_econ(state: State, cid: str, **changes: Any) -> State:
    s = state.board
    return state.with_board(econ={**s.econ, cid: replace(s.econ.get(cid) or Econ(), **changes)})


def is_out(c: Combatant) -> bool:
    """Out of the fight: down, fled or surrendered."""
    return c.is_down or c.has_condition(FLED) or c.has_condition(SURRENDERED)


def is_helpless(c: Combatant) -> bool:
    """OSE-COND-1: pinned or helpless creatures take no actions."""
    return c.has_condition(PINNED) or c.has_condition(HELPLESS)


def can_act(c: Combatant) -> bool:
    """CORE-COND-1: the one question "can it act?" of OSE: in the fight, not pinned, and no condition that
    allows no action (asleep, held, helpless...: `engine.conditions.can_act`)."""
    return not is_out(c) and not is_helpless(c) and core_can_act(c)


def is_turned(state: State, cid: str) -> bool:
    return cid in state.board.turned


def acting_side(state: State) -> str:
    s = state.board
    if s.phase != "act" or not s.order or s.turn >= len(s.order):
        return ""
    return s.order[s.turn]


def current_step(state: State) -> str:
    return STEPS[state.board.step] if is_detailed(state) and state.board.step < len(STEPS) else ""


def rate_ft(state: State, c: Combatant) -> int:
    """OSE-MOVE-1: tactical movement rate, base speed / divisor, in whole squares."""
    speed = int(c.stat("speed", 120) or 0)
    return (speed // max(1, int(opt(state, "move_divisor"))) // 5) * 5


def grid_of(state: State) -> Grid:
    return Grid.from_map(state.encounter.map, str(opt(state, "diagonal")))


def hostile_fn(state: State):
    return lambda a, b: state.hostile(a, b)


def holds_of(state: State, target: str) -> tuple[Hold, ...]:
    return tuple(h for h in state.board.holds if h.target == target)


def phase_of(state: State) -> Phase:
    """Where the round is now: declaring, the loose turn, or the detailed step (OSE-SEQ-1, OSE-ORDER-1)."""
    s = state.board
    if s.phase != "act":
        return Phase.DECLARE
    step = current_step(state)
    return Phase(step) if step else Phase.ACT


def spells_of(c: Combatant) -> tuple[str, ...]:
    """The spells a combatant has in memory now, one entry per copy (OSE-SPELL-5)."""
    return tuple(c.stat("spells", ()) or ())


def memory_entry(spells: tuple[str, ...], spell: str) -> str:
    """OSE-SPELL-5, OSE-DECL-1: the entry of `spells` a declared spell names: the whole entry, or the spell's
    name without the effect in its brackets ("Magic Missile" for "Magic Missile (1d6+1 each)"); else `spell`."""
    if spell in spells:
        return spell
    said = " ".join(str(spell).split()).casefold()
    return next((e for e in spells if spell_effect(e)[0].casefold() == said), spell)


def memorised_at_start(state: State, cid: str) -> tuple[str, ...]:
    """The spells the combatant had in memory when the fight was set up (OSE-SPELL-5)."""
    c = next((x for x in state.encounter.combatants if x.id == cid), None)
    return spells_of(c) if c is not None else ()


def forget(c: Combatant, spell: str) -> tuple[str, ...]:
    """OSE-SPELL-5: the memory without one copy of `spell` ("exactly as if it had been cast")."""
    spells = list(spells_of(c))
    if spell in spells:
        spells.remove(spell)
    return tuple(spells)


def distinct(spells: tuple[str, ...]) -> tuple[str, ...]:
    """Each memorised spell once, in memory order."""
    return tuple(dict.fromkeys(spells))


def active_sides(state: State) -> list[str]:
    """Sides with someone still in the fight, in the encounter's order."""
    present = {c.side for c in state.combatants if not is_out(c)}
    return [s.id for s in state.encounter.sides if s.id in present]
