"""The facts of an encounter as frozen values: combatants, sides, map, setup.

No rule logic lives here; rules modules read these values and return new ones
with `dataclasses.replace`. Per-system numbers (level, HD, PHYS, reaction time)
live in `Combatant.stats`, a plain dict that is never mutated in place.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .map_image import MapImage

CombatantId = str
SideId = str
Square = tuple[int, int]

# Weapon kinds: how an attack is made (OSE-STANCE-*, OSE-RANGED-*).
MELEE_KINDS = ("melee", "natural")
RANGED_KINDS = ("bow", "crossbow", "sling", "thrown", "ranged")
WEAPON_KINDS = MELEE_KINDS + RANGED_KINDS
# Weapon qualities named by the texts.
QUALITIES = ("two_handed", "reach", "off_hand", "brace", "small", "piercing", "shield")


@dataclass(frozen=True)
class Weapon:
    """One way a combatant deals damage: a weapon or a natural attack.

    `reach` is in feet (5 = adjacent squares; 10 = a reach weapon). `count` is
    the number of such attacks in one action (OLOG-ATK-1). `item` names the
    inventory item that must be in hand to use it ("" = natural, always ready).
    `range` is a missile's (short, medium, long) in feet, which the referee
    may edit; empty, the system's DEFAULT for the weapon's kind applies.
    """

    name: str
    damage: str = "1d6"
    to_hit: int = 0
    kind: str = "melee"
    reach: int = 5
    count: int = 1
    qualities: tuple[str, ...] = ()
    item: str = ""
    # A missile's short, medium and long range in feet; () = its system's DEFAULT for the kind.
    range: tuple[int, ...] = ()

    @property
    def is_melee(self) -> bool:
        return self.kind in MELEE_KINDS

    @property
    def is_ranged(self) -> bool:
        return self.kind in RANGED_KINDS

    def has(self, quality: str) -> bool:
        return quality in self.qualities


@dataclass(frozen=True)
class Combatant:
    """A creature in the fight, as it is at one moment."""

    id: CombatantId
    name: str
    side: SideId
    hp: int
    max_hp: int
    ac: int = 10
    weapons: tuple[Weapon, ...] = ()
    # What each hand holds: item names, "" for an empty hand (OSE-MANIP-1).
    hands: tuple[str, ...] = ("", "")
    # Carried items, topmost first (OLOG-ITEM-1: position decides the cost).
    inventory: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    # Per-system numbers, the ones its `stat_specs` name (level, hd, dex, speed...).
    stats: dict[str, Any] = field(default_factory=dict)
    # Position: a band index (a field of zones) or a square (grid); None when not placed.
    band: int | None = None
    square: Square | None = None
    notes: str = ""
    # Kept off the players' table display until the referee reveals it (docs/TABLE.md).
    hidden: bool = False

    @property
    def is_down(self) -> bool:
        """CORE-HP-1: at 0 HP or less a combatant cannot act or threaten."""
        return self.hp <= 0

    def stat(self, key: str, default: Any = 0) -> Any:
        return self.stats.get(key, default)

    def has_condition(self, name: str) -> bool:
        return name in self.conditions

    def with_condition(self, name: str) -> "Combatant":
        if name in self.conditions:
            return self
        return replace(self, conditions=self.conditions + (name,))

    def without_condition(self, name: str) -> "Combatant":
        if name not in self.conditions:
            return self
        return replace(self, conditions=tuple(c for c in self.conditions if c != name))

    def holds(self, item: str) -> bool:
        return bool(item) and item in self.hands

    @property
    def free_hands(self) -> int:
        return sum(1 for h in self.hands if not h)

    def weapon(self, name: str) -> Weapon | None:
        for a in self.weapons:
            if a.name == name:
                return a
        return None

    def ready_weapons(self) -> tuple[Weapon, ...]:
        """Weapons usable now: natural attacks, and weapons whose item is in hand."""
        return tuple(a for a in self.weapons if not a.item or self.holds(a.item))


@dataclass(frozen=True)
class Side:
    """A group that fights together (CORE-SIDE-1: hostile unless allied)."""

    id: SideId
    name: str
    colour: str = "#3b6ea8"
    # Colour is never the only signal: each side also has a token shape.
    shape: str = "circle"
    allies: tuple[SideId, ...] = ()
    # OSE-MORALE-1: a morale score (2-12) makes the side subject to morale.
    morale: int | None = None
    is_player: bool = False


@dataclass(frozen=True)
class MapSpec:
    """The tactical grid: size in 5 ft squares, walls drawn by the referee, and a map image under the squares
    (its placement only: the browser keeps its bytes by `image.key`)."""

    width: int = 24
    height: int = 16
    walls: frozenset[Square] = frozenset()
    image: MapImage | None = None


@dataclass(frozen=True)
class Encounter:
    """The starting setup: everything a fight needs before its first command."""

    name: str
    system: str  # a registered system's name (fray/rules/<name>/)
    combatants: tuple[Combatant, ...]
    sides: tuple[Side, ...]
    profile: str = ""  # one of the system's profiles ("" when it has one)
    settings: dict[str, Any] = field(default_factory=dict)
    map: MapSpec = MapSpec()
    bands: int = 6  # OLOG-BAND-1: number of zones
    seed: int = 1
    start_distance: str = "near"  # close, near or far: where setup places the sides (fray/placement.py)

    def side(self, side_id: SideId) -> Side | None:
        for s in self.sides:
            if s.id == side_id:
                return s
        return None


def are_hostile(sides: tuple[Side, ...], a: SideId, b: SideId) -> bool:
    """CORE-SIDE-1: different sides are hostile unless either marks the other allied."""
    if a == b:
        return False
    for s in sides:
        if s.id == a and b in s.allies:
            return False
        if s.id == b and a in s.allies:
            return False
    return True
