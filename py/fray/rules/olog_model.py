"""OLOG's vocabulary: the settings (every DEFAULT), per-combatant stats, the
system's state record, and the commands the page sends (OLOG-*).

The rules that give them meaning are in `olog.py`, which re-exports these names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.commands import command
from ..engine.model import Combatant
from ..engine.ruleset import Setting, StatSpec
from ..engine.state import State
from .olog_pressure import DEFAULTS as _PRESSURE_DEFAULTS, zone_name


# --- settings and stats ------------------------------------------------------------

SETTINGS: tuple[Setting, ...] = (
    Setting("olog_npc_init_base", "NPC count: base + HD", 10, rule="OLOG-INIT-2", minimum=-100, maximum=100,
            help="An NPC's fixed count is this number plus its HD, unless its init stat is set."),
    Setting("olog_tie_pcs_first", "Ties: PCs before NPCs", True, kind="bool", rule="OLOG-INIT-4",
            help="Among equal counts PCs act first, then the referee's order (drag to reorder)."),
    Setting("olog_allow_repeat", "Allow the same action twice in a turn", False, kind="bool", rule="OLOG-ACT-2"),
    Setting("olog_reach_zones", "Reach (zones beyond the creature's own)", 0, rule="OLOG-PRES-1",
            minimum=0, maximum=5, help="0 = same zone; a long-reaching creature reaches one zone more."),
    Setting("olog_action_resolves_if_dropped", "Pressed action resolves even if pressure drops the actor", True,
            kind="bool", rule="OLOG-PRES-3"),
    Setting("olog_pressure_round", "Pressure die: odd faces round", "up", kind="choice", choices=("up", "down"),
            rule="OLOG-PRES-4"),
    Setting("olog_extended_pressure_once", "Extended action: roll pressure once", True, kind="bool",
            rule="OLOG-PRES-7", help="Off: an extended action under pressure rolls pressure for each action."),
    Setting("olog_press_on_each_action", "Press On covers one action", True, kind="bool", rule="OLOG-PRES-8",
            help="Off: one Press On covers the rest of the turn."),
    Setting("olog_defend_bonus", "Defend: AC bonus", 2, rule="OLOG-DEF-1", minimum=0, maximum=20),
    Setting("olog_defend_shield_bonus", "Defend with a shield: AC bonus", 4, rule="OLOG-DEF-1",
            minimum=0, maximum=20),
    Setting("olog_defend_stacks_shield", "Defend bonus stacks with the shield's own AC", True, kind="bool",
            rule="OLOG-DEF-1", help="Off: the shield bonus includes the shield's own AC (shield_ac stat)."),
    Setting("olog_item_middle", "Retrieve from the middle of the pack", "action", kind="choice",
            choices=("action", "extended"), rule="OLOG-ITEM-1"),
    Setting("olog_near_max", "Near: up to this many zones", 1, rule="OLOG-BAND-1", minimum=1, maximum=10),
    Setting("olog_far_max", "Far: up to this many zones (beyond: Distant)", 4, rule="OLOG-BAND-1",
            minimum=1, maximum=20),
    Setting("olog_zone_ft", "Feet between zones", 30, rule="OLOG-BAND-1", minimum=5, maximum=1000),
)
_DEFAULTS: dict[str, Any] = {s.key: s.default for s in SETTINGS}
assert all(_DEFAULTS[k] == v for k, v in _PRESSURE_DEFAULTS.items())

STATS: tuple[StatSpec, ...] = (
    StatSpec("pc", "PC (rolls initiative)", False, kind="bool", rule="OLOG-INIT-1"),
    StatSpec("level", "Level", 1, rule="OLOG-INIT-1", minimum=0, maximum=30),
    StatSpec("init_mod", "Initiative modifier (Check virtues)", 0, rule="OLOG-INIT-1", minimum=-20, maximum=20),
    StatSpec("hd", "HD", 1, rule="OLOG-INIT-2", minimum=0, maximum=50),
    StatSpec("init", "Fixed count (blank: base + HD)", None, rule="OLOG-INIT-2", minimum=-100, maximum=200),
    StatSpec("long_reach", "Long-reaching (threatens the next zone)", False, kind="bool", rule="OLOG-PRES-1"),
    StatSpec("pressure_bonus", "Flat damage bonus adds to pressure", False, kind="bool", rule="OLOG-PRES-6"),
    StatSpec("shields", "Items that count as shields", (), kind="list", rule="OLOG-DEF-1"),
    StatSpec("shield_ac", "Shield's own AC", 1, rule="OLOG-DEF-1", minimum=0, maximum=10),
    StatSpec("caster", "Casts spells", False, kind="bool", rule="OLOG-SPELL-1"),
    StatSpec("spells", "Spells known", (), kind="list", rule="OLOG-SPELL-1"),
)


def opt(state: State, key: str) -> Any:
    """A setting of the encounter, or its DEFAULT when the setup omits it."""
    val = state.encounter.settings.get(key)
    return _DEFAULTS.get(key) if val is None else val


def is_pc(state: State, c: Combatant) -> bool:
    """OLOG-INIT-1: the `pc` stat; when absent, a player side's members are PCs."""
    if "pc" in c.stats:
        return bool(c.stats["pc"])
    side = state.encounter.side(c.side)
    return bool(side and side.is_player)


# --- the system's own record --------------------------------------------------------

@dataclass(frozen=True)
class OlogState:
    """Counts, the order among ties and whose turn it is, with what is left of it."""

    phase: str = "initiative"  # "initiative" until RollInitiative, then "fight"
    counts: tuple[tuple[str, int], ...] = ()  # OLOG-INIT-3: persist all fight
    ranks: tuple[str, ...] = ()  # the tie order (OLOG-INIT-4)
    pending: tuple[tuple[str, int], ...] = ()  # Strategise deltas for next round (OLOG-STRAT-1)
    acted: tuple[str, ...] = ()  # who has had (or skipped) a turn this round
    actor: str = ""
    turn: int = 0  # turns started so far: tells one turn from the next
    actions_left: int = 0
    used: tuple[str, ...] = ()  # action kinds used this turn (OLOG-ACT-2)
    split_attack: str = ""  # the attack whose remaining attacks may follow (OLOG-ATK-1)
    attacks_left: int = 0
    ending: bool = False  # no Press On under pressure: the turn ends after this action (OLOG-PRES-2)
    pressed: bool = False  # pressed on this turn (matters when Press On covers the turn)
    defending: tuple[tuple[str, int], ...] = ()  # AC bonus until that creature's next turn (OLOG-DEF-1)
    rolls: tuple[tuple[str, str], ...] = ()  # how each count came about, for the order tooltip

    def count(self, cid: str) -> int | None:
        for k, v in self.counts:
            if k == cid:
                return v
        return None

    def delta(self, cid: str) -> int:
        return sum(v for k, v in self.pending if k == cid)

    def defence(self, cid: str) -> int:
        return sum(v for k, v in self.defending if k == cid)

    def how(self, cid: str) -> str:
        for k, v in self.rolls:
            if k == cid:
                return v
        return ""


# --- commands -----------------------------------------------------------------------

@command("olog")
class RollInitiative:
    """Roll the PCs' counts and set the NPCs' (OLOG-INIT-1, OLOG-INIT-2); starts round 1."""

    def label(self) -> str:
        return "Roll initiative"


@command("olog")
class Move:
    """Move one zone toward or away (OLOG-MOVE-1)."""

    actor: str
    band: int
    press_on: bool | None = None

    def label(self) -> str:
        return f"Move to {zone_name(self.band)}"


@command("olog")
class Attack:
    """One attack with the named attack (OLOG-ATK-1)."""

    actor: str
    target: str
    attack: str
    press_on: bool | None = None

    def label(self) -> str:
        return f"Attack {self.target} with {self.attack}"


@command("olog")
class Defend:
    """+2 AC until the actor's next turn, +4 with a shield in hand (OLOG-DEF-1)."""

    actor: str
    press_on: bool | None = None

    def label(self) -> str:
        return "Defend"


@command("olog")
class CastSpell:
    """Cast a spell, named as text; the referee narrates its effect (OLOG-SPELL-1, extended)."""

    actor: str
    spell: str = ""
    press_on: bool | None = None

    def label(self) -> str:
        return f"Cast {self.spell or 'a spell'}"


@command("olog")
class Retrieve:
    """Take an item from the pack into a hand, swapping what the hand held (OLOG-ITEM-1).
    `hand` -1 means the first empty hand."""

    actor: str
    item: str
    hand: int = -1
    press_on: bool | None = None

    def label(self) -> str:
        return f"Retrieve {self.item}"


@command("olog")
class Strategise:
    """Move the actor's own count 1d6 "up" or "down" from next round (OLOG-STRAT-1)."""

    actor: str
    direction: str = "up"
    press_on: bool | None = None

    def label(self) -> str:
        return f"Strategise ({self.direction})"


@command("olog")
class EndTurn:
    actor: str

    def label(self) -> str:
        return "End turn"


@command("olog")
class SetCount:
    """Referee: set a combatant's count now (OLOG-INIT-3, CORE-REF-1)."""

    target: str
    count: int

    def label(self) -> str:
        return f"Set count to {self.count}"


@command("olog")
class Reorder:
    """Referee: the order of all combatants, as dragged; only ties may change (OLOG-INIT-4)."""

    order: tuple[str, ...]

    def label(self) -> str:
        return "Reorder"


ACTIONS = (Move, Attack, Defend, CastSpell, Retrieve, Strategise, EndTurn)
KIND = {Move: "move", Attack: "attack", Defend: "defend", CastSpell: "cast", Retrieve: "retrieve",
        Strategise: "strategise"}
PAST_TENSE = {"move": "moved", "attack": "attacked", "defend": "defended", "cast": "cast a spell",
        "retrieve": "retrieved an item", "strategise": "strategised"}
