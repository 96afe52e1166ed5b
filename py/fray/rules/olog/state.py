"""OLOG's board: the settings (every DEFAULT), per-combatant stats, the
system's frozen record, and the small queries every other module asks
(the order, what an action costs, Press On, the Defend bonus) (OLOG-*).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.cache import cached
from ...engine.commands import Code, Command
from ...engine.model import Combatant
from ...engine.specs import Setting, StatSpec
from ...engine.state import State
from .commands import Attack, CastSpell, EndTurn, Retrieve
from .pressure import DEFAULTS as _PRESSURE_DEFAULTS, Pressure, pressure_on, reach_zones


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

class Phase(Code):
    """Where an OLOG fight is: before the initiative roll, then fighting (str-valued,
    so `state.board.phase == "fight"` still holds)."""

    INITIATIVE = "initiative"
    FIGHT = "fight"


@dataclass(frozen=True)
class OlogState:
    """Counts, the order among ties and whose turn it is, with what is left of it."""

    phase: Phase = Phase.INITIATIVE  # until RollInitiative, then FIGHT
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


# --- the order (OLOG-INIT-4) ---------------------------------------------------------

def order(state: State) -> tuple[str, ...]:
    """OLOG-INIT-4: highest count first; ties in the referee's order."""
    s: OlogState = state.board
    return _order(s.counts, s.ranks, state.memo("olog.ids", _ids))


def _ids(state: State) -> tuple[str, ...]:
    return tuple(c.id for c in state.combatants)


@cached(64)
def _order(counts: tuple[tuple[str, int], ...], ranks: tuple[str, ...], ids: tuple[str, ...]) -> tuple[str, ...]:
    # Counts change only at initiative, a new round, Strategise or the referee: sort once per change.
    rank = {cid: i for i, cid in enumerate(ranks)}
    by = dict(counts)
    return tuple(sorted(ids, key=lambda i: (-by.get(i, 0), rank.get(i, len(rank)))))


def order_text(state: State) -> str:
    """"Brak 17, Orc 1 11": the standing combatants in order, for the log."""
    s: OlogState = state.board
    return ", ".join(f"{state.name(i)} {s.count(i)}" for i in order(state) if not state.get(i).is_down)


# --- what an action costs (OLOG-ACT-*) --------------------------------------------------

FREE, ACTION, EXTENDED, CONTINUE = "free", "action", "extended", "continue"


def cost(state: State, cmd: Command) -> str:
    """free, action, extended, or continue (the rest of a split attack action)."""
    if isinstance(cmd, EndTurn):
        return FREE
    if isinstance(cmd, CastSpell):
        return EXTENDED  # OLOG-SPELL-1
    if isinstance(cmd, Attack) and is_continuation(state, cmd):
        return CONTINUE
    if isinstance(cmd, Retrieve):
        return item_cost(state, state.get(cmd.actor), cmd.item)
    return ACTION


def has_free_action(c: Combatant) -> bool:
    """OLOG-ACT-3, OLOG-ITEM-1: a free action is open to it (the topmost item to retrieve or swap for)."""
    return bool(c.inventory) and not c.is_down


def item_cost(state: State, c: Combatant, item: str) -> str:
    """OLOG-ITEM-1: topmost free, bottom half extended, the middle a normal
    action (DEFAULT). With an odd count the middle item is not the bottom half."""
    inv = c.inventory
    i = inv.index(item) if item in inv else 0
    if i == 0:
        return FREE
    if i >= len(inv) - len(inv) // 2:
        return EXTENDED
    return EXTENDED if opt(state, "olog_item_middle") == "extended" else ACTION


def is_continuation(state: State, cmd: Command) -> bool:
    """OLOG-ATK-1: a further attack of the split attack action under way."""
    s: OlogState = state.board
    return (isinstance(cmd, Attack) and s.actor == cmd.actor and s.attacks_left > 0
            and s.split_attack == cmd.weapon)


def needs_press_on(state: State, actor: str, p: Pressure | None = None) -> bool:
    """Under pressure, and not already covered by a turn-long Press On (OLOG-PRES-8 off)."""
    s: OlogState = state.board
    p = p or pressure_on(state, actor)
    if not p.is_under:
        return False
    return not (s.pressed and s.actor == actor and not opt(state, "olog_press_on_each_action"))


# --- Defend and reach ---------------------------------------------------------------------

def shield_in_hand(c: Combatant) -> str:
    """OLOG-DEF-1: a held item named in the `shields` stat or containing "shield"."""
    listed = {str(x).lower() for x in (c.stat("shields", ()) or ())}
    for h in c.hands:
        if h and (h.lower() in listed or "shield" in h.lower()):
            return h
    return ""


def defend_bonus(state: State, c: Combatant) -> int:
    """OLOG-DEF-1: +2 AC, +4 with a shield in hand (DEFAULTs), net of the shield's own AC if set so."""
    if not shield_in_hand(c):
        return int(opt(state, "olog_defend_bonus"))
    bonus = int(opt(state, "olog_defend_shield_bonus"))
    if not opt(state, "olog_defend_stacks_shield"):
        bonus -= int(c.stat("shield_ac", 1) or 0)
    return max(0, bonus)


def in_reach(state: State, attacker: Combatant, target: Combatant, weapon_kind: str) -> bool:
    """Melee and natural attacks reach as far as the creature threatens (OLOG-PRES-1); ranged ones any zone."""
    if attacker.band is None or target.band is None:
        return False
    if weapon_kind not in ("melee", "natural"):
        return True
    return abs(attacker.band - target.band) <= reach_zones(state, attacker)
