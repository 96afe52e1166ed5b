"""The setup's placement map: its squares or zones and the tokens on them, what a drop means, whether it is
allowed, and the edit of the draft it makes. Pure.

The documents are the save-file form the setup editor edits (ui/markup/editor.py). A spot is written as the page
writes it in a `data-action`: "sq:3,4" for a square (as the form's "Square x,y" field has it) or "zone:2" for
an OLOG zone counted from 1, as the field and the form show it (stored from 0, the file format). A drop on
a wall or on a square someone else holds is refused with a reason and a sentence; a zone holds anyone.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .views.models import initials

Square = tuple[int, int]
MAX_CELLS = 2500  # squares the map draws (50 x 50): a larger map is placed by typing squares in the form
ARROWS = {"ArrowUp": (0, -1), "ArrowDown": (0, 1), "ArrowLeft": (-1, 0), "ArrowRight": (1, 0)}


class Reason(Enum):
    """Why a drop is refused."""

    NO_SUCH_COMBATANT = "no such combatant"
    BAD_SPOT = "not a square or zone"
    OFF_MAP = "off the map"
    WALL = "a wall"
    OCCUPIED = "occupied"
    NO_SUCH_ZONE = "no such zone"


@dataclass(frozen=True)
class Refusal:
    reason: Reason
    detail: str  # the sentence the page shows and announces


class Refused(ValueError):
    """A drop that cannot be made; `refusal` says why."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.detail)
        self.refusal = refusal


@dataclass(frozen=True)
class Spot:
    """Where a token is dropped: a square, or a zone counted from 1."""

    square: Square | None = None
    zone: int | None = None

    @classmethod
    def parse(cls, text: str) -> Spot:
        """ "sq:3,4" -> Spot(square=(3, 4)); "zone:2" -> Spot(zone=2); ValueError names the text."""
        kind, _, rest = text.partition(":")
        try:
            if kind == "sq":
                x, y = (int(p) for p in rest.split(","))
                return cls(square=(x, y))
            if kind == "zone":
                return cls(zone=int(rest))
        except ValueError:
            pass
        raise ValueError(f"{text!r} is not a square (sq:3,4) or a zone (zone:2)")

    @property
    def key(self) -> str:
        """Its text in the page: the inverse of `parse`."""
        return f"sq:{self.square[0]},{self.square[1]}" if self.square is not None else f"zone:{self.zone}"

    @property
    def words(self) -> str:
        return f"square {self.square[0]},{self.square[1]}" if self.square is not None else f"zone {self.zone}"


@dataclass(frozen=True)
class MapToken:
    """A combatant as the placement map draws it: colour, shape and letters, and where it stands."""

    index: int  # in the draft's combatants
    name: str
    initials: str
    side_name: str
    colour: str
    shape: str
    spot: Spot | None  # None: not on the map yet
    is_picked: bool

    @property
    def label(self) -> str:
        """What a screen reader says for the token's button."""
        where = f"on {self.spot.words}" if self.spot is not None else "not placed"
        act = "picked up: choose where to put it, Escape puts it back" if self.is_picked else \
            "pick up to move"
        return f"{self.name} ({self.side_name}), {where}: {act}"


@dataclass(frozen=True)
class PlaceMap:
    """The whole map: a grid (width x height squares, walls) or zones (`zones` of them), its tokens."""

    view: str  # "grid" or "bands"
    width: int
    height: int
    walls: frozenset[Square]
    zones: int
    tokens: tuple[MapToken, ...]
    picked: int | None

    def at(self, spot: Spot) -> list[MapToken]:
        return [t for t in self.tokens if t.spot == spot]

    @property
    def unplaced(self) -> list[MapToken]:
        return [t for t in self.tokens if t.spot is None]

    @property
    def is_drawn(self) -> bool:
        """False when a grid is too large to draw square by square (typed squares place it then)."""
        return self.view == "bands" or self.width * self.height <= MAX_CELLS


def spot_of(c: dict[str, Any], view: str) -> Spot | None:
    """Where a combatant of the draft stands on this kind of map."""
    if view == "grid":
        sq = c.get("square")
        return Spot(square=(int(sq[0]), int(sq[1]))) if sq else None
    band = c.get("band")
    return Spot(zone=int(band) + 1) if isinstance(band, int) else None


def place_map(doc: dict[str, Any], view: str, picked: int | None = None) -> PlaceMap:
    """The map of the draft `doc` for its field view ("grid" or "bands"), `picked` the token held."""
    sides = {s["id"]: s for s in doc.get("sides", [])}
    tokens = []
    for i, c in enumerate(doc.get("combatants", [])):
        side = sides.get(c.get("side"), {})
        tokens.append(MapToken(i, c.get("name", ""), initials(c.get("name", "")), side.get("name", c.get("side", "")),
                               side.get("colour", "#777777"), side.get("shape", "circle"), spot_of(c, view),
                               i == picked))
    m = doc.get("map", {})
    return PlaceMap(view, int(m.get("width", 24)), int(m.get("height", 16)),
                    frozenset(tuple(w) for w in m.get("walls", [])), int(doc.get("bands", 6) or 1),
                    tuple(tokens), picked if picked is not None and 0 <= picked < len(tokens) else None)


def check(doc: dict[str, Any], index: int, spot: Spot, view: str) -> Refusal | None:
    """Why combatant `index` may not be dropped on `spot`, or None: broad to narrow."""
    people = doc.get("combatants", [])
    if not 0 <= index < len(people):
        return Refusal(Reason.NO_SUCH_COMBATANT, "That combatant is no longer in the encounter.")
    name = people[index].get("name", "")
    if view == "grid":
        if spot.square is None:
            return Refusal(Reason.BAD_SPOT, "This map has squares: choose a square.")
        x, y = spot.square
        m = doc.get("map", {})
        w, hgt = int(m.get("width", 24)), int(m.get("height", 16))
        if not (0 <= x < w and 0 <= y < hgt):
            return Refusal(Reason.OFF_MAP, f"Square {x},{y} is off the map ({w} by {hgt} squares).")
        if [x, y] in [list(s) for s in m.get("walls", [])]:
            return Refusal(Reason.WALL, f"Square {x},{y} is a wall: {name} stays where it was.")
        for j, other in enumerate(people):
            if j != index and other.get("square") and tuple(other["square"]) == (x, y):
                return Refusal(Reason.OCCUPIED, f"{other.get('name', '')} stands on square {x},{y}: "
                                                f"{name} stays where it was.")
        return None
    if spot.zone is None:
        return Refusal(Reason.BAD_SPOT, "This encounter is in zones: choose a zone.")
    bands = int(doc.get("bands", 6) or 1)
    if not 1 <= spot.zone <= bands:
        return Refusal(Reason.NO_SUCH_ZONE, f"Zones here are 1 to {bands}.")
    return None


def dropped(doc: dict[str, Any], index: int, spot: Spot) -> dict[str, Any]:
    """A copy of doc with combatant `index` on `spot` (trusts its caller: see `drop`)."""
    new = copy.deepcopy(doc)
    c = new["combatants"][index]
    if spot.square is not None:
        c["square"] = [spot.square[0], spot.square[1]]
    else:
        c["band"] = spot.zone - 1  # the file counts zones from 0
    return new


def drop(doc: dict[str, Any], index: int, spot: Spot, view: str) -> dict[str, Any]:
    """The draft with combatant `index` moved to `spot`; `Refused` says why not."""
    refusal = check(doc, index, spot, view)
    if refusal is not None:
        raise Refused(refusal)
    return dropped(doc, index, spot)


def is_unmoved(doc: dict[str, Any], index: int, spot: Spot, view: str) -> bool:
    """The token dropped where it already stands (nothing to edit)."""
    people = doc.get("combatants", [])
    return 0 <= index < len(people) and spot_of(people[index], view) == spot


def placed_words(doc: dict[str, Any], index: int, spot: Spot) -> str:
    """What the page announces after a drop."""
    return f"{doc['combatants'][index].get('name', '')} placed on {spot.words}."


def picked_words(doc: dict[str, Any], index: int, view: str) -> str:
    """What the page announces when a token is picked up."""
    where = "square" if view == "grid" else "zone"
    return f"{doc['combatants'][index].get('name', '')} picked up: tap a {where} to put it there " \
           "(Escape puts it back)."


def neighbour(spot: Spot, key: str, pm: PlaceMap) -> Spot:
    """The spot an arrow key moves the keyboard's focus to, kept on the map."""
    dx, dy = ARROWS.get(key, (0, 0))
    if spot.square is not None:
        x, y = spot.square
        return Spot(square=(max(0, min(pm.width - 1, x + dx)), max(0, min(pm.height - 1, y + dy))))
    z = spot.zone or 1
    return Spot(zone=max(1, min(pm.zones, z + dx + dy)))
