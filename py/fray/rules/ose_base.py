"""OSE combat records, commands, settings, stats and the small helpers every OSE module shares.

The round state (`OseState`) is the ruleset's frozen record in `State.system`;
the commands are registered under the "ose" namespace so save files name
them. Rule ids (OSE-*) refer to /shared/RULES.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.commands import command
from ..engine.geometry import Grid
from ..engine.model import Combatant, Square
from ..engine.ruleset import Setting, StatSpec
from ..engine.state import State

NS = "ose"
STEPS = ("move", "missile", "magic", "melee")  # OSE-ORDER-1
STEP_NAMES = {"move": "MOVE", "missile": "MISSILE", "magic": "MAGIC", "melee": "MELEE"}
Path = tuple[tuple[int, int], ...]

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
    StatSpec("spells", "Spells prepared", (), kind="list", rule="OSE-DECL-1"),
    StatSpec("slots", "Spell slots left", 0, rule="OSE-SPELL-1", minimum=0, maximum=40),
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
    attack: str
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
    attack: str = ""  # charge: the attack made at the end


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


# --- commands -------------------------------------------------------------------

@command(NS)
class Surprise:
    """REF (OSE-SUR-1): mark a side surprised (or not) before round 1's initiative."""

    side: str
    on: bool = True

    def label(self) -> str:
        return f"Mark {self.side} {'surprised' if self.on else 'not surprised'}"


@command(NS)
class Declare:
    """OSE-DECL-1: a pre-initiative declaration ("spell", "full_defense", "brace" or "none")."""

    actor: str
    action: str
    spell: str = ""

    def label(self) -> str:
        return f"Declare {self.spell or self.action}"


@command(NS)
class RollInitiative:
    """OSE-INIT-1: lock the declarations and roll 1d12 per side (none in a surprise round)."""

    actor: str = ""

    def label(self) -> str:
        return "Roll initiative"


@command(NS)
class Done:
    """The actor is done with the current step (detailed) or its turn (loose)."""

    actor: str

    def label(self) -> str:
        return "Done"


@command(NS)
class EndStep:
    """End the current step (detailed) or turn (loose) for every actor of the acting side."""

    actor: str = ""

    def label(self) -> str:
        return "End step"


@command(NS)
class Move:
    """OSE-MOVE-1 / OSE-AOO-1..2: move along `path` (starting at the actor's square)."""

    actor: str
    path: Path = ()

    def label(self) -> str:
        return "Move"


@command(NS)
class Withdraw:
    """OSE-WD-1 (Main): move with the first square left unthreatened, +2 AC against AoO."""

    actor: str
    path: Path = ()

    def label(self) -> str:
        return "Withdraw"


@command(NS)
class Flee:
    """OSE-FLEE-1: leave the map; the referee controls the actor from now on."""

    actor: str

    def label(self) -> str:
        return "Flee"


@command(NS)
class Charge:
    """OSE-CHARGE-1 (Full Round): charge the nearest enemy and attack it with `attack`."""

    actor: str
    attack: str = ""

    def label(self) -> str:
        return "Charge"


@command(NS)
class Attack:
    """OSE-ATK-1: a melee or ranged attack; `edge` is a referee's "adv" or "dis" (OSE-ADV-1)."""

    actor: str
    target: str
    attack: str = ""
    edge: str = ""

    def label(self) -> str:
        return f"Attack {self.target}"


@command(NS)
class CompleteSpell:
    """OSE-SPELL-2: complete the declared spell now; turned undead among `targets` stop fleeing."""

    actor: str
    targets: tuple[str, ...] = ()
    note: str = ""
    concentration: bool = False

    def label(self) -> str:
        return "Complete spell"


@command(NS)
class CancelSpell:
    """OSE-SPELL-2: cancel the declared spell (slot still lost); the caster may act otherwise."""

    actor: str

    def label(self) -> str:
        return "Cancel spell"


@command(NS)
class DisruptSpell:
    """REF (OSE-SPELL-3): violent motion, silence or a grapple breaks the target's spell."""

    target: str
    reason: str = ""

    def label(self) -> str:
        return "Spell disrupted"


@command(NS)
class Manipulate:
    """OSE-MANIP-1: "draw" or "stow" an item, "drop" it, or "other" (open a door, hand over...)."""

    actor: str
    action: str
    item: str = ""
    note: str = ""

    def label(self) -> str:
        return f"{self.action.capitalize()} {self.item}".strip()


@command(NS)
class Grapple:
    """OSE-GRAP-1: an opposed check to "grab" the target or "escape" its hold."""

    actor: str
    target: str
    intent: str = "grab"

    def label(self) -> str:
        return f"Grapple ({self.intent})"


@command(NS)
class Release:
    """Let go of a creature the actor holds (resets the pin count, OSE-GRAP-1)."""

    actor: str
    target: str

    def label(self) -> str:
        return "Release"


@command(NS)
class TurnUndead:
    """OSE-TURN-1..4: the Warpriest turns the undead of `group`."""

    actor: str
    group: str

    def label(self) -> str:
        return "Turn Undead"


@command(NS)
class Narrate:
    """Any other action, narrated; `uses` is "main", "move", "full" or "free" (OSE-ECON-1, OSE-LOOSE-1)."""

    actor: str
    text: str = ""
    uses: str = "main"

    def label(self) -> str:
        return "Other action"


@command(NS)
class Splinter:
    """Answer to OSE-SSBS-1: splinter the shield and take no damage, or keep it and roll damage."""

    actor: str
    splinter: bool

    def label(self) -> str:
        return "Splinter the shield" if self.splinter else "Keep the shield"


@command(NS)
class MoraleResult:
    """REF answer to a failed morale check (OSE-MORALE-1): "flee", "surrender" or "fight on"."""

    actor: str
    side: str
    result: str

    def label(self) -> str:
        return f"{self.side}: {self.result}"


@command(NS)
class RollResource:
    """OSE-RES-1: roll a combatant's usage die for `item` (ammunition by default)."""

    target: str
    item: str = "ammo"

    def label(self) -> str:
        return f"Roll usage die ({self.item})"


ACTOR_COMMANDS = (Declare, Done, Move, Withdraw, Flee, Charge, Attack, CompleteSpell, CancelSpell, Manipulate,
                  Grapple, Release, TurnUndead, Narrate)


# --- helpers --------------------------------------------------------------------

def opt(state: State, key: str) -> Any:
    """A setting, falling back to its DEFAULT when the encounter lacks it."""
    val = state.encounter.settings.get(key)
    return DEFAULTS[key] if val is None else val


def sys_of(state: State) -> OseState:
    return state.system


def is_detailed(state: State) -> bool:
    return state.system.profile == "detailed"


def econ_of(state: State, cid: str) -> Econ:
    return state.system.econ.get(cid) or Econ()


def with_econ(state: State, cid: str, **changes: Any) -> State:
    s = state.system
    return state.with_system(econ={**s.econ, cid: replace(s.econ.get(cid) or Econ(), **changes)})


def is_out(c: Combatant) -> bool:
    """Out of the fight: down, fled or surrendered."""
    return c.is_down or c.has_condition(FLED) or c.has_condition(SURRENDERED)


def is_helpless(c: Combatant) -> bool:
    """OSE-COND-1: pinned or helpless creatures take no actions."""
    return c.has_condition(PINNED) or c.has_condition(HELPLESS)


def can_act(c: Combatant) -> bool:
    return not is_out(c) and not is_helpless(c)


def is_turned(state: State, cid: str) -> bool:
    return cid in state.system.turned


def acting_side(state: State) -> str:
    s = state.system
    if s.phase != "act" or not s.order or s.turn >= len(s.order):
        return ""
    return s.order[s.turn]


def current_step(state: State) -> str:
    return STEPS[state.system.step] if is_detailed(state) and state.system.step < len(STEPS) else ""


def rate_ft(state: State, c: Combatant) -> int:
    """OSE-MOVE-1: tactical movement rate, base speed / divisor, in whole squares."""
    speed = int(c.stat("speed", 120) or 0)
    return (speed // max(1, int(opt(state, "move_divisor"))) // 5) * 5


def grid_of(state: State) -> Grid:
    return Grid.from_map(state.encounter.map, str(opt(state, "diagonal")))


def hostile_fn(state: State):
    return lambda a, b: state.hostile(a, b)


def holds_of(state: State, target: str) -> tuple[Hold, ...]:
    return tuple(h for h in state.system.holds if h.target == target)


def name(state: State, cid: str) -> str:
    return state.name(cid)


def nice_item(item: str) -> str:
    return item or "bare hands"


def squares_path(path: Any) -> tuple[Square, ...]:
    return tuple((int(p[0]), int(p[1])) for p in path)
