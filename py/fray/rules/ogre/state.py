"""Ogre's tables and frozen records: action categories, the default action menu, each combatant's timeline.

The ruleset folds commands into an `OgreState` kept in
`State.board`; views read the same records. Nothing here rolls or decides:
these are the facts the count is made of, plus the small derived ones
(reaction time, flat-footed, defense) every other Ogre module needs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...engine.conditions import modifiers
from ...engine.commands import Code
from ...engine.model import Combatant, Square
from ...engine.specs import Setting, StatSpec
from ...engine.state import State

# OGRE-CAT-1: the nine initiative categories, quickest first.
CATEGORIES = ("Instantaneous", "Immediate", "Quick", "Short", "Standard", "Long", "Very Long", "Slow",
              "Very Slow")
# OGRE-CAT-1 (DEFAULT except Standard and Instantaneous): segments each category takes.
DEFAULT_DURATIONS = {"Instantaneous": 0, "Immediate": 1, "Quick": 2, "Short": 5, "Standard": 10, "Long": 20,
                     "Very Long": 40, "Slow": 80, "Very Slow": 160}
# OGRE-REACT-1: the penalty a reaction of each category gives the current action.
REACTION_PENALTY = {"Instantaneous": 0, "Immediate": -1, "Quick": -2, "Short": -4, "Standard": -8, "Long": -16,
                    "Very Long": -32, "Slow": -64, "Very Slow": -128}
SEGMENT_SECONDS = 0.5  # OGRE-SEG-1

# Paces of movement (Maneuver): distance per move action as a multiple of speed; the
# text names the paces and the charge bonuses, not the distances, so they are a setting.
PACES = ("walk", "hustle", "run", "dash", "sprint")
DEFAULT_PACE_MULTIPLES = {"walk": 1, "hustle": 2, "run": 3, "dash": 4, "sprint": 5}
# OGRE-CHARGE-1: damage bonus of a charge at each pace.
CHARGE_BONUS = {"walk": 0, "hustle": 2, "run": 4, "dash": 6, "sprint": 16}

# OGRE-SUR-1: feet seen per 3 points of Spot; gentle hills from the text, the rest DEFAULT.
DEFAULT_TERRAIN_FT = {"gentle hills": 10, "open plain": 20, "rugged hills": 5, "light forest": 5,
                      "dense forest": 3, "underground": 3}

FAST_DC = 15  # OGRE-FAST-1: an action with no check needs a DC 15 Dexterity check when hurried
FAST_PENALTY = -8  # OGRE-FAST-1: modified by the Dexterity bonus


@dataclass(frozen=True)
class MenuAction:
    """One entry of the text's list of actions (OGRE-LIST-1)."""

    key: str
    label: str
    category: str
    help: str
    check: str = ""  # the stat of the action's own check ("ride"), "" when it has none
    dc: int = 0
    provokes: bool = False  # OGRE-AOO-1: a non-combat act that provokes in a threatened square
    needs_item: str = ""  # "held" | "carried" | "": draw takes a carried item, drop/sheathe a held one
    requires: str = ""  # a condition the actor must have ("prone" to stand up)
    forbids: str = ""  # a condition that makes it pointless ("prone" to drop prone)


MENU: tuple[MenuAction, ...] = (
    MenuAction("cease_concentration", "Cease concentration", "Instantaneous",
               "Stop concentrating on a skill or an active spell."),
    MenuAction("drop_item", "Drop an item", "Immediate", "Drop a held item in your space or an adjacent one.",
               needs_item="held"),
    MenuAction("drop_prone", "Drop prone", "Immediate", "Drop to a prone position in your space.",
               forbids="prone"),
    MenuAction("speak", "Speak", "Immediate", "A few sentences at most."),
    MenuAction("fast_mount", "Fast mount or dismount", "Immediate",
               "DC 20 Ride check; on a failure it takes a Short action instead.", check="ride", dc=20),
    MenuAction("draw", "Draw a weapon", "Short", "Draw a weapon or weapon-like object carried in easy reach.",
               needs_item="carried"),
    MenuAction("sheathe", "Sheathe a weapon", "Short", "Put a held weapon away to free a hand.",
               needs_item="held"),
    MenuAction("shield", "Ready or loose a shield", "Short", "Strap a shield on, or unstrap and drop it."),
    MenuAction("manipulate", "Manipulate an item", "Short",
               "Retrieve or stow an item, pick one up, move a heavy object, open a door."),
    MenuAction("redirect_spell", "Direct or redirect a spell", "Short",
               "Redirect an active spell; no attack of opportunity, no concentration."),
    MenuAction("stand_up", "Stand up", "Short", "Stand up from prone; provokes attacks of opportunity.",
               provokes=True, requires="prone"),
    MenuAction("mount", "Mount or dismount", "Short", "Mount or dismount a steed."),
    MenuAction("dismiss_spell", "Dismiss a spell", "Short", "End one of your active spells."),
    MenuAction("aid_another", "Aid another", "Standard", "Help another with a skill."),
    MenuAction("use_item", "Use an item", "Standard", "Use an item useful in combat."),
    MenuAction("extinguish", "Extinguish flames", "Long", "Roll on the floor to put out the flames.",
               requires="on fire"),
)
MENU_BY_KEY = {m.key: m for m in MENU}

# OGRE-MOVE-1: the movement actions and their categories.
MOVES = {"quick": ("Quick move", "Quick"), "short": ("Short move", "Short"), "move": ("Move", "Standard"),
         "difficult": ("Difficult move", "Long")}
# OGRE-FOLLOW-1: following as a reaction, by category.
FOLLOWS = {"quick": ("Quick follow", "Quick"), "short": ("Short follow", "Short"),
           "standard": ("Follow", "Standard")}
# OGRE-READY-1: what a readied action waits for.
TRIGGERS = {
    "declare": "the target declares an action",
    "cast": "the target starts a spell",
    "attack": "the target's attack is about to land",
    "move": "the target is about to move",
    "charge": "a foe charges into reach",
    "manual": "the referee says so",
}


# Every DEFAULT of the OGRE rules, as referee settings saved with the encounter.
SETTINGS: tuple[Setting, ...] = (
    Setting("durations", "Segments per action category", dict(DEFAULT_DURATIONS), kind="table",
            rule="OGRE-CAT-1", help="Instantaneous 0 and Standard 10 come from the text; the rest are defaults."),
    Setting("reaction_base", "Reaction time before the Dexterity bonus", 10, rule="OGRE-INIT-1",
            minimum=0, maximum=40, help="Reaction time = this - DEX bonus, unless a combatant has its own."),
    Setting("surprise_penalty", "Surprised: added to reaction time", 10, rule="OGRE-SUR-1",
            minimum=0, maximum=100),
    Setting("terrain_ft", "Feet seen per 3 points of Spot, by terrain", dict(DEFAULT_TERRAIN_FT),
            kind="table", rule="OGRE-SUR-1", help="Gentle hills (10 ft) is the text's; the rest are defaults."),
    Setting("simultaneous", "Actions resolving on the same segment", "together", kind="choice",
            choices=("together", "in order"), rule="OGRE-ACT-1",
            help="together: all roll against the state at the start of the segment and damage lands "
                 "after the last; in order: each lands as it resolves, earliest declared first."),
    Setting("reactions_stack", "Several reactions' penalties add up", True, kind="bool",
            rule="OGRE-REACT-1", help="Off: only the worst penalty applies."),
    Setting("change_target_penalty", "Attack of opportunity with the pending attack on another target",
            2, rule="OGRE-AOO-2", minimum=0, maximum=20, help="Subtracted from the attack roll."),
    Setting("concentration_dc", "Concentration check after damage: DC this + damage", 10,
            rule="OGRE-BREAK-1", minimum=0, maximum=50),
    Setting("paces", "Move distance per action at each pace (x speed)", dict(DEFAULT_PACE_MULTIPLES),
            kind="table", rule="OGRE-MOVE-1",
            help="'Any speed' is the fastest pace; a charge's pace sets its damage bonus (OGRE-CHARGE-1)."),
    Setting("diagonal", "Diagonal moves cost", "5", kind="choice", choices=("5", "5-10-5"),
            rule="OGRE-MOVE-1"),
    Setting("count_on", "After the segment's last declaration, count on to the next event", True, kind="bool",
            rule="OGRE-SEG-1", help="Off: the count waits for the referee's Advance (a pause to react, break "
                                    "or delay before the next event)."),
    # docs/RULESETS.md "The table display": declarations are the referee's until they resolve.
    Setting("table_declarations", "Table display: players see a declared action", "when it resolves",
            kind="choice", choices=("when it resolves", "when declared"), rule="OGRE-ACT-1",
            help="when declared: the players' table display shows every declaration at once."),
)


# The per-combatant numbers Ogre reads.
STATS: tuple[StatSpec, ...] = (
    StatSpec("dex", "DEX bonus", 0, rule="OGRE-INIT-1", minimum=-10, maximum=20),
    StatSpec("reaction", "Reaction time (0 = 10 - DEX)", 0, rule="OGRE-INIT-1", minimum=0, maximum=60),
    StatSpec("skill", "Combat skill (0 = the attack's to-hit)", 0, rule="OGRE-ATK-1", minimum=-50, maximum=100),
    StatSpec("defense", "Defense (0 = AC)", 0, rule="OGRE-ATK-1", minimum=0, maximum=100),
    StatSpec("defense_dex", "Dex part of Defense (lost while flat-footed)", 0, rule="OGRE-FF-1",
             minimum=0, maximum=50),
    StatSpec("speed", "Speed (ft)", 30, rule="OGRE-MOVE-1", minimum=0, maximum=300),
    StatSpec("concentration", "Concentration bonus", 0, rule="OGRE-BREAK-1", minimum=-50, maximum=100),
    StatSpec("spellcraft", "Spellcraft bonus", 0, rule="OGRE-READY-1", minimum=-50, maximum=100),
    StatSpec("ride", "Ride bonus", 0, rule="OGRE-LIST-1", minimum=-50, maximum=100),
    StatSpec("caster", "Casts spells", False, kind="bool", rule="OGRE-READY-1"),
    # a spell with its effect in brackets, "Firebolt (2d6)" (engine/spells.py): cast in two taps, on a foe
    StatSpec("spells", "Spells known", (), kind="list", rule="OGRE-READY-1"),
)


# --- records ---------------------------------------------------------------------

@dataclass(frozen=True)
class Action:
    """A declared action, from its declaration to its resolution (OGRE-ACT-1).

    `uid` numbers declarations so a test (or the log) can follow one through;
    `resolves` is None for a readied action, which waits for its trigger
    (OGRE-READY-1). `modifier` is the tempo's effect on the action's check
    (OGRE-FAST-1, OGRE-SLOW-1); `penalty` the reactions taken since (OGRE-REACT-1).
    """

    uid: int
    kind: str  # attack | move | withdraw | charge | act | cast | ready
    label: str
    base: str  # category before any hurry or care
    category: str
    declared: int
    resolves: int | None
    tempo: int = 0  # -1 fast, 0, +1 or +2 categories slower
    modifier: int = 0
    penalty: int = 0
    target: str = ""
    weapon: str = ""
    path: tuple[Square, ...] = ()
    move: str = ""  # quick | short | move | difficult
    act: str = ""  # a MENU key
    item: str = ""
    trigger: str = ""  # ready: a TRIGGERS key
    inner: str = ""  # ready: attack | counterspell
    spell: str = ""
    level: int = 0
    concentration: bool = False
    targets: tuple[str, ...] = ()  # cast: the few ticked it lands on (`target` is the first)

    @property
    def is_offensive(self) -> bool:
        """An attack that an attack of opportunity may resolve early (OGRE-AOO-2)."""
        return self.kind == "attack"

    @property
    def check_bonus(self) -> int:
        return self.modifier + self.penalty


@dataclass(frozen=True)
class Mark:
    """A past stretch or moment of a combatant's timeline, for the ruler and the log.

    kind: "action" (outcome resolved/broken/failed/fired), "delay", "reaction"
    (a tick at `start` with its `penalty`), "stun".
    """

    kind: str
    start: int
    end: int
    label: str
    category: str = ""
    tempo: int = 0
    outcome: str = ""
    penalty: int = 0


@dataclass(frozen=True)
class Fighter:
    """One combatant's place in the count.

    `due` is the segment of its next declaration (its initiative at first,
    OGRE-INIT-1; the resolution segment after an action, OGRE-ACT-1); None
    while an action is pending, or while delaying without a planned segment.
    """

    id: str
    reaction: int
    surprised: bool = False
    initiative: int | None = None
    due: int | None = None
    action: Action | None = None
    delaying: bool = False
    delay_from: int | None = None
    delayed_at: int | None = None  # the segment of its last Delay: it declares nothing there (OGRE-DELAY-1)
    stunned_until: int | None = None
    marks: tuple[Mark, ...] = ()


@dataclass(frozen=True)
class Surprise:
    """The referee's confirmed answer to "before the fight" (OGRE-SUR-1)."""

    distance_ft: int
    surprised: tuple[str, ...]
    suggested_distance_ft: int
    suggested_surprised: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Work:
    """A piece of the current segment still to resolve, kept in the state so a
    prompt (an attack of opportunity, a follow, a counterspell) can pause it.

    kinds: resolve (triggers, then act), act, walk (a path with the provocations
    left in `stops`), end (the action is done), follow_offer, fire (a readied
    action), charge_hit, flush (damage held for simultaneity lands), damage (a declared attack
    hit: its damage, then the action is done).
    """

    kind: str
    actor: str
    uid: int = 0
    path: tuple[Square, ...] = ()
    stops: tuple[tuple[int, tuple[str, ...]], ...] = ()
    exempt: tuple[str, ...] = ()
    struck: tuple[str, ...] = ()  # who took an attack of opportunity on this walk
    other: str = ""
    cause: str = ""


@dataclass(frozen=True)
class Held:
    """Damage rolled on a segment, landing once every action of the segment has resolved (OGRE-ACT-1)."""

    target: str
    amount: int
    source: str
    text: str


class Phase(Code):
    """Where an Ogre fight is: setting up (surprise, before initiative), then the
    count (str-valued, so `state.board.phase == "fight"` still holds)."""

    SETUP = "setup"
    FIGHT = "fight"


@dataclass(frozen=True)
class OgreState:
    """Ogre's part of the State: the count and every combatant's timeline."""

    phase: Phase = Phase.SETUP  # SETUP before initiative, then FIGHT
    segment: int = 0
    fighters: tuple[Fighter, ...] = ()
    work: tuple[Work, ...] = ()
    held: tuple[Held, ...] = ()
    serial: int = 0
    surprise: Surprise | None = None
    asked: tuple[tuple[str, str, int], ...] = ()  # OGRE-AOO-2: (foe, mover, segment), asked once a segment
    standing: tuple[tuple[str, str], ...] = ()  # OGRE-AOO-2: (combatant id or "side:" id, "pending" | "decline")
    _index: dict[str, int] = field(init=False, compare=False, repr=False)
    _indexed: tuple = field(init=False, compare=False, repr=False)  # the fighters `_index` was made from

    def __post_init__(self) -> None:
        if self.__dict__.get("_indexed") is self.fighters:
            return  # a copy with other fields changed (engine.state.evolve): the index still holds
        object.__setattr__(self, "_index", {f.id: i for i, f in enumerate(self.fighters)})
        object.__setattr__(self, "_indexed", self.fighters)

    def fighter(self, cid: str) -> Fighter:
        return self.fighters[self._index[cid]]

    def has(self, cid: str) -> bool:
        return cid in self._index

    def with_fighter(self, f: Fighter) -> tuple[Fighter, ...]:
        i = self._index[f.id]
        return self.fighters[:i] + (f,) + self.fighters[i + 1:]

    def put(self, f: Fighter) -> "OgreState":
        """A copy with `f` in its fighter's place: the same ids in the same order, so the index carries over
        (no __post_init__ to rebuild it: this runs on every branch of the odds)."""
        fighters = self.with_fighter(f)
        new = object.__new__(OgreState)
        d = new.__dict__
        d.update(self.__dict__)
        d["fighters"] = fighters
        d["_indexed"] = fighters
        d.pop("_memo", None)
        return new


# --- derived facts -------------------------------------------------------------------

def table(state: State, key: str, default: dict[str, Any]) -> dict[str, Any]:
    value = state.setting(key)
    return value if isinstance(value, dict) and set(value) == set(default) else default


def duration(state: State, category: str) -> int:
    """OGRE-CAT-1: segments a category takes (never negative, so the count never goes back)."""
    return max(0, int(table(state, "durations", DEFAULT_DURATIONS)[category]))


def shifted(category: str, tempo: int) -> str:
    """The category `tempo` steps slower (negative: quicker), kept within the nine."""
    i = CATEGORIES.index(category) + tempo
    return CATEGORIES[max(0, min(len(CATEGORIES) - 1, i))]


def dex(c: Combatant) -> int:
    return int(c.stat("dex", 0) or 0)


def reaction_time(state: State, c: Combatant) -> int:
    """OGRE-INIT-1: the combatant's own `reaction`, else DEFAULT 10 - DEX bonus."""
    own = int(c.stat("reaction", 0) or 0)
    if own > 0:
        return own
    return int(state.setting("reaction_base", 10)) - dex(c)


def tempo_modifier(c: Combatant, tempo: int) -> int:
    """OGRE-FAST-1: -8 + DEX when hurried; OGRE-SLOW-1: +4 / +8 when taking one / two categories more."""
    if tempo < 0:
        return FAST_PENALTY + dex(c)
    return 4 * tempo


def is_flat_footed(system: OgreState, cid: str) -> bool:
    """OGRE-FF-1: flat-footed (No Defense, No Opportunity) until the initiative segment."""
    if not system.has(cid):
        return True
    f = system.fighter(cid)
    return f.initiative is None or system.segment < f.initiative


def is_stunned(system: OgreState, cid: str) -> bool:
    f = system.fighter(cid)
    return f.stunned_until is not None and system.segment < f.stunned_until


def defense(c: Combatant, flat_footed: bool) -> int:
    """OGRE-ATK-1: stat `defense` (else AC); OGRE-FF-1: No Defense removes its Dex part."""
    base = (int(c.stat("defense", 0) or 0) or c.ac) + modifiers(c).ac  # conditions (engine/conditions.py)
    return base - (int(c.stat("defense_dex", 0) or 0) if flat_footed else 0)


def speed_ft(c: Combatant) -> int:
    return int(c.stats.get("speed", 30) if c.stats.get("speed") is not None else 30)


def pace_multiples(state: State) -> dict[str, int]:
    return table(state, "paces", DEFAULT_PACE_MULTIPLES)


def max_move_ft(state: State, c: Combatant) -> int:
    """OGRE-MOVE-1: "any speed" is the fastest pace."""
    return speed_ft(c) * max(1, max(int(v) for v in pace_multiples(state).values()))


def pace_of(state: State, c: Combatant, feet: int) -> str:
    """The slowest pace that covers `feet` in one action (OGRE-CHARGE-1 bonus)."""
    mult = pace_multiples(state)
    for p in sorted(PACES, key=lambda p: int(mult[p])):
        if speed_ft(c) * int(mult[p]) >= feet:
            return p
    return max(PACES, key=lambda p: int(mult[p]))


def combat_skill(c: Combatant, attack_to_hit: int) -> int:
    """OGRE-ATK-1: the combatant's `skill` stat, else the attack's own to-hit."""
    own = c.stats.get("skill")
    return (int(own) if own else attack_to_hit) + modifiers(c).to_hit  # conditions (engine/conditions.py)


def seconds(segment: int) -> str:
    """OGRE-SEG-1: "8.0 s" for segment 16."""
    return f"{segment * SEGMENT_SECONDS:.1f} s"
