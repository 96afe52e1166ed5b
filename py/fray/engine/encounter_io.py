"""An encounter's JSON form, read field by field against the limits.

`encounter_to_json` writes the setup; `encounter_from_json` validates and
builds it, appending each problem with its field path, the value and the
allowed range (`combatants[2].weapons[0].damage: "2x6" is not dice
notation`). The numbers themselves are in engine/limits.py; `check_encounter`
holds a built Encounter to the same rules, so anything a Session accepts is
what a save file of it loads back as. Settings and stats are read by
engine/specs.py.
"""
from __future__ import annotations

import math
import re
from typing import Any, Iterator

from .commands import key_text as _key, kind_of as _kind
from .dice import DiceError, DiceExpr
from .model import WEAPON_KINDS, QUALITIES, Combatant, Encounter, MapSpec, Side, Weapon
from . import limits as L, map_image
from .ruleset import Lookup, Ruleset, default_lookup
from .specs import StatSpec, plain as _plain, read_settings, read_stats, shown as _show

MAX_COMBATANTS, MAX_SIDES, SHAPES, _ID, _COLOUR = L.MAX_COMBATANTS, L.MAX_SIDES, L.SHAPES, L.ID, L.COLOUR
START_DISTANCES = L.START_DISTANCES


def objects(raw: list, path: str, problems: list[str]) -> Iterator[tuple[int, str, dict]]:
    """(index, path, item) for each object of a list; anything else is a problem named by its path."""
    for i, item in enumerate(raw):
        p = f"{path}[{i}]"
        if isinstance(item, dict):
            yield i, p, item
        else:
            problems.append(f"{p}: expected an object, got {_kind(item)}")


def encounter_to_json(enc: Encounter) -> dict[str, Any]:
    out = {
        "name": enc.name,
        "system": enc.system,
        "profile": enc.profile,
        "seed": enc.seed,
        "bands": enc.bands,
        "settings": _plain(enc.settings),
        "map": _map_json(enc.map),
        "sides": [{"id": s.id, "name": s.name, "colour": s.colour, "shape": s.shape,
                   "allies": list(s.allies), "morale": s.morale, "is_player": s.is_player}
                  for s in enc.sides],
        "combatants": [combatant_to_json(c) for c in enc.combatants],
    }
    if enc.start_distance != "near":  # written only when not the default: an older file stays as it was
        out["start_distance"] = enc.start_distance
    return out


def _map_json(spec: MapSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"width": spec.width, "height": spec.height,
                           "walls": sorted([list(w) for w in spec.walls])}
    if spec.image is not None:  # written only when there is one: a file without stays as it was
        out["image"] = map_image.to_json(spec.image)
    return out


def weapon_to_json(a: Weapon) -> dict[str, Any]:
    out = {"name": a.name, "damage": a.damage, "to_hit": a.to_hit, "kind": a.kind,
           "reach": a.reach, "count": a.count, "qualities": list(a.qualities), "item": a.item}
    if a.range:  # written only when the referee set one: older files and the DEFAULT stay as they were
        out["range"] = list(a.range)
    return out


def combatant_to_json(c: Combatant) -> dict[str, Any]:
    doc = {
        "id": c.id, "name": c.name, "side": c.side, "hp": c.hp, "max_hp": c.max_hp, "ac": c.ac,
        "weapons": [weapon_to_json(a) for a in c.weapons],
        "hands": list(c.hands), "inventory": list(c.inventory), "conditions": list(c.conditions),
        "stats": _plain(c.stats), "band": c.band,
        "square": list(c.square) if c.square is not None else None, "notes": c.notes,
    }
    if c.hidden:  # written only when set, so files of unhidden fights stay as they were
        doc["hidden"] = True
    return doc


def encounter_from_json(doc: Any, problems: list[str], path: str = "encounter",
                        rulesets: Lookup | None = None) -> tuple[Encounter | None, Ruleset | None]:
    """Validate and build an Encounter; every problem is appended with its path."""
    rulesets = rulesets if rulesets is not None else default_lookup()
    if not isinstance(doc, dict):
        problems.append(f"{path}: expected an object, got {_kind(doc)}")
        return None, None
    start = len(problems)
    v = _Validator(problems, path)
    known = ("name", "system", "profile", "seed", "bands", "settings", "map", "sides", "combatants",
             "start_distance")
    for key in doc:
        if key not in known:
            problems.append(f"{path}.{_key(key)}: not a field of an encounter")
    name = v.text(doc, "name", default="Encounter", limit=L.ENCOUNTER_NAME)
    system = doc.get("system")
    if not isinstance(system, str) or system not in rulesets:
        problems.append(f"{path}.system: {_show(system)} is not a system Fray knows ({', '.join(rulesets.names())})")
        return None, None
    ruleset = rulesets[system]
    profile = doc.get("profile", ruleset.profiles[0])
    if profile not in ruleset.profiles:
        problems.append(f"{path}.profile: {_show(profile)} is not a profile of {system} "
                        f"({', '.join(repr(p) for p in ruleset.profiles)})")
    seed = v.integer(doc, "seed", default=1, lo=L.SEED[0], hi=L.SEED[1])
    bands = v.integer(doc, "bands", default=6, lo=L.BANDS[0], hi=L.BANDS[1])
    start_distance = doc.get("start_distance", "near")
    if start_distance not in START_DISTANCES:
        problems.append(f"{path}.start_distance: {_show(start_distance)} is not a starting distance "
                        f"({', '.join(START_DISTANCES)})")
    settings = read_settings(doc.get("settings", {}), ruleset.settings(), f"{path}.settings", problems)
    spec = _map(doc.get("map", {}), f"{path}.map", problems)
    sides = _sides(doc.get("sides"), f"{path}.sides", problems)
    side_ids = {s.id for s in sides}
    combatants = _combatants(doc.get("combatants"), f"{path}.combatants", problems, side_ids,
                             ruleset.stats(), spec, bands)
    if len(problems) > start:
        return None, ruleset
    return Encounter(name=name, system=system, profile=profile, combatants=tuple(combatants),
                     sides=tuple(sides), settings=settings, map=spec, bands=bands, seed=seed,
                     start_distance=start_distance), ruleset


class _Validator:
    """Reads one object's fields, recording a problem (with its path) per bad field."""

    def __init__(self, problems: list[str], path: str):
        self.problems = problems
        self.path = path

    def bad(self, key: str, msg: str) -> None:
        self.problems.append(f"{self.path}.{key}: {msg}")

    def text(self, d: dict, key: str, default: str | None = None, limit: int = 200) -> str:
        val = d.get(key, default)
        if val is None:
            self.bad(key, "missing")
            return ""
        if not isinstance(val, str):
            self.bad(key, f"expected text, got {_kind(val)}")
            return ""
        if len(val) > limit:
            self.bad(key, f"too long ({len(val)} characters, at most {limit})")
            return val[:limit]
        return val

    def integer(self, d: dict, key: str, default: int | None = None, lo: int = -10**6, hi: int = 10**6) -> int:
        val = d.get(key, default)
        if val is None:
            self.bad(key, "missing")
            return lo
        if isinstance(val, bool) or not isinstance(val, int):
            if isinstance(val, float) and val.is_integer() and math.isfinite(val):
                val = int(val)
            else:
                self.bad(key, f"expected a whole number, got {_kind(val)}")
                return lo if lo > 0 else 0
        if not lo <= val <= hi:
            self.bad(key, f"{val} is out of range ({lo} to {hi})")
            return max(lo, min(hi, val))
        return val

    def boolean(self, d: dict, key: str, default: bool = False) -> bool:
        val = d.get(key, default)
        if not isinstance(val, bool):
            self.bad(key, f"expected true or false, got {_kind(val)}")
            return default
        return val

    def text_list(self, d: dict, key: str, limit: int = 50, item_limit: int = 80) -> tuple[str, ...]:
        val = d.get(key, [])
        if not isinstance(val, list):
            self.bad(key, f"expected a list, got {_kind(val)}")
            return ()
        if len(val) > limit:
            self.bad(key, f"too many items ({len(val)}, at most {limit})")
            return ()
        out = []
        for i, item in enumerate(val):
            if not isinstance(item, str) or len(item) > item_limit:
                self.problems.append(f"{self.path}.{key}[{i}]: expected text of at most {item_limit} characters")
            else:
                out.append(item)
        return tuple(out)

    def square(self, d: dict, key: str) -> tuple[int, int] | None:
        val = d.get(key)
        if val is None:
            return None
        if (not isinstance(val, list) or len(val) != 2
                or not all(isinstance(n, int) and not isinstance(n, bool) for n in val)):
            self.bad(key, f"expected a square [x, y], got {_kind(val)}")
            return None
        return (val[0], val[1])


def _map(raw: Any, path: str, problems: list[str]) -> MapSpec:
    if not isinstance(raw, dict):
        problems.append(f"{path}: expected an object, got {_kind(raw)}")
        return MapSpec()
    v = _Validator(problems, path)
    w = v.integer(raw, "width", default=24, lo=L.MAP_SIZE[0], hi=L.MAP_SIZE[1])
    h = v.integer(raw, "height", default=16, lo=L.MAP_SIZE[0], hi=L.MAP_SIZE[1])
    walls_raw = raw.get("walls", [])
    walls = set()
    if not isinstance(walls_raw, list) or len(walls_raw) > w * h:
        problems.append(f"{path}.walls: expected a list of squares [x, y] on the map")
    else:
        for i, sq in enumerate(walls_raw):
            if (not isinstance(sq, list) or len(sq) != 2
                    or not all(isinstance(n, int) and not isinstance(n, bool) for n in sq)
                    or not (0 <= sq[0] < w and 0 <= sq[1] < h)):
                problems.append(f"{path}.walls[{i}]: {_kind(sq)} is not a square on a {w}x{h} map")
                break
            walls.add((sq[0], sq[1]))
    image = None if raw.get("image") is None else map_image.from_json(raw["image"], f"{path}.image", problems)
    return MapSpec(w, h, frozenset(walls), image)


def _sides(raw: Any, path: str, problems: list[str]) -> list[Side]:
    if not isinstance(raw, list) or not raw:
        got = "an empty list" if raw == [] else _kind(raw)
        problems.append(f"{path}: expected a list of at least one side, got {got}")
        return []
    if len(raw) > MAX_SIDES:
        problems.append(f"{path}: too many sides ({len(raw)}, at most {MAX_SIDES})")
        return []
    out: list[Side] = []
    seen: set[str] = set()
    for i, p, s in objects(raw, path, problems):
        v = _Validator(problems, p)
        sid = v.text(s, "id", limit=L.ID_TEXT)
        if sid and not _ID.match(sid):
            v.bad("id", f'"{sid}" is not a valid id (letters, digits, _ . -)')
        if sid in seen:
            v.bad("id", f'"{sid}" is used by another side')
        seen.add(sid)
        colour = v.text(s, "colour", default="#3b6ea8", limit=L.COLOUR_TEXT)
        if colour and not _COLOUR.match(colour):
            v.bad("colour", f'"{colour}" is not a colour like #3b6ea8')
        shape = s.get("shape", "circle")
        if shape not in SHAPES:
            v.bad("shape", f"{_show(shape)} is not one of {', '.join(SHAPES)}")
        morale = s.get("morale")
        if morale is not None and (isinstance(morale, bool) or not isinstance(morale, int) or not 2 <= morale <= 12):
            v.bad("morale", f"{_kind(morale)} is not a morale score from 2 to 12 (or null)")
            morale = None
        out.append(Side(id=sid, name=v.text(s, "name", limit=L.SIDE_NAME), colour=colour, shape=shape,
                        allies=v.text_list(s, "allies", limit=L.MAX_SIDES, item_limit=L.ID_TEXT), morale=morale,
                        is_player=v.boolean(s, "is_player")))
        for key in s:
            if key not in ("id", "name", "colour", "shape", "allies", "morale", "is_player"):
                problems.append(f"{p}.{_key(key)}: not a field of a side")
    ids = {s.id for s in out}
    for i, s in enumerate(out):
        for a in s.allies:
            if a not in ids:
                problems.append(f"{path}[{i}].allies: {a!r} is not a side")
    return out


def _combatants(raw: Any, path: str, problems: list[str], side_ids: set[str], stat_specs: tuple[StatSpec, ...],
                spec: MapSpec, bands: int) -> list[Combatant]:
    if not isinstance(raw, list):
        problems.append(f"{path}: expected a list, got {_kind(raw)}")
        return []
    if len(raw) > MAX_COMBATANTS:
        problems.append(f"{path}: too many combatants ({len(raw)}, at most {MAX_COMBATANTS})")
        return []
    out: list[Combatant] = []
    seen: set[str] = set()
    squares: dict[tuple[int, int], str] = {}
    by_key = {s.key: s for s in stat_specs}
    for i, p, c in objects(raw, path, problems):
        v = _Validator(problems, p)
        for key in c:
            if key not in ("id", "name", "side", "hp", "max_hp", "ac", "weapons", "attacks", "hands", "inventory",
                           "conditions", "stats", "band", "square", "notes", "hidden"):
                problems.append(f"{p}.{_key(key)}: not a field of a combatant")
        cid = v.text(c, "id", limit=L.ID_TEXT)
        if cid and not _ID.match(cid):
            v.bad("id", f'"{cid}" is not a valid id (letters, digits, _ . -)')
        if cid in seen:
            v.bad("id", f'"{cid}" is used by another combatant')
        seen.add(cid)
        side = v.text(c, "side", limit=L.ID_TEXT)
        if side and side not in side_ids:
            v.bad("side", f'"{side}" is not one of the sides')
        max_hp = v.integer(c, "max_hp", lo=L.MAX_HP[0], hi=L.MAX_HP[1])
        hp = v.integer(c, "hp", default=max_hp, lo=L.HP[0], hi=L.HP[1])
        ac = v.integer(c, "ac", default=10, lo=L.AC[0], hi=L.AC[1])
        # "attacks" is the key files written before the Weapon rename use.
        key = "attacks" if "attacks" in c and "weapons" not in c else "weapons"
        weapons = _weapons(c.get(key, []), f"{p}.{key}", problems)
        hands = v.text_list(c, "hands", limit=L.MAX_HANDS, item_limit=L.ITEM_TEXT) if "hands" in c else ("", "")
        band = c.get("band")
        if band is not None and (isinstance(band, bool) or not isinstance(band, int) or not 0 <= band < bands):
            v.bad("band", f"{_kind(band)} is not a zone from 0 to {bands - 1}")
            band = None
        square = v.square(c, "square")
        if square is not None:
            if not (0 <= square[0] < spec.width and 0 <= square[1] < spec.height):
                v.bad("square", f"{list(square)} is off the {spec.width}x{spec.height} map")
            elif square in spec.walls:
                v.bad("square", f"{list(square)} is a wall")
            elif square in squares:
                v.bad("square", f"{list(square)} is taken by {squares[square]}")
            else:
                squares[square] = cid
        stats = read_stats(c.get("stats", {}), f"{p}.stats", problems, by_key)
        out.append(Combatant(
            id=cid, name=v.text(c, "name", limit=L.COMBATANT_NAME), side=side, hp=hp, max_hp=max_hp, ac=ac,
            weapons=tuple(weapons), hands=tuple(hands), inventory=v.text_list(c, "inventory", limit=L.MAX_INVENTORY, item_limit=L.ITEM_TEXT),
            conditions=v.text_list(c, "conditions", limit=L.MAX_CONDITIONS, item_limit=L.CONDITION_TEXT), stats=stats,
            band=band, square=square, notes=v.text(c, "notes", default="", limit=L.NOTES),
            hidden=v.boolean(c, "hidden")))
        if len(problems) > 100:
            problems.append(f"{path}: stopped after 100 problems")
            break
    return out


def _weapons(raw: Any, path: str, problems: list[str]) -> list[Weapon]:
    if not isinstance(raw, list) or len(raw) > L.MAX_WEAPONS:
        problems.append(f"{path}: expected a list of at most {L.MAX_WEAPONS} weapons, got {_kind(raw)}")
        return []
    out = []
    for i, p, a in objects(raw, path, problems):
        v = _Validator(problems, p)
        for key in a:
            if key not in ("name", "damage", "to_hit", "kind", "reach", "count", "qualities", "item", "range"):
                problems.append(f"{p}.{_key(key)}: not a field of a weapon")
        damage = v.text(a, "damage", default="1d6", limit=L.DAMAGE_TEXT)
        try:
            DiceExpr.parse(damage)
        except DiceError:
            v.bad("damage", f'"{damage}" is not dice notation')
        kind = a.get("kind", "melee")
        if kind not in WEAPON_KINDS:
            v.bad("kind", f"{_show(kind)} is not one of {', '.join(WEAPON_KINDS)}")
            kind = "melee"
        qualities = v.text_list(a, "qualities", limit=len(QUALITIES), item_limit=L.QUALITY_TEXT)
        for q in qualities:
            if q not in QUALITIES:
                v.bad("qualities", f"{_show(q)} is not one of {', '.join(QUALITIES)}")
        reach = v.integer(a, "reach", default=5, lo=L.REACH[0], hi=L.REACH[1])
        if reach % 5:
            v.bad("reach", f"{reach} ft is not a multiple of 5 ft")
        span = _range(a.get("range", []), f"{p}.range", problems)
        out.append(Weapon(name=v.text(a, "name", limit=L.WEAPON_NAME), damage=damage, range=span,
                          to_hit=v.integer(a, "to_hit", default=0, lo=L.TO_HIT[0], hi=L.TO_HIT[1]), kind=kind, reach=reach,
                          count=v.integer(a, "count", default=1, lo=L.COUNT[0], hi=L.COUNT[1]), qualities=qualities,
                          item=v.text(a, "item", default="", limit=L.ITEM_TEXT)))
    return out


def _range(raw: Any, path: str, problems: list[str]) -> tuple[int, ...]:
    """A missile's (short, medium, long) in feet, or () for the system's DEFAULT."""
    lo, hi = L.RANGE_FT
    if raw == []:
        return ()
    if (not isinstance(raw, list) or len(raw) != 3
            or not all(isinstance(n, int) and not isinstance(n, bool) and lo <= n <= hi for n in raw)
            or not raw[0] <= raw[1] <= raw[2]):
        problems.append(f"{path}: expected short, medium and long range in feet ({lo} to {hi}, none shorter "
                        f"than the one before), got {_show(raw) if not isinstance(raw, list) or len(raw) != 3 else raw}")
        return ()
    return tuple(raw)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _unencodable(doc: dict) -> list[str]:
    """Text that cannot be written back as UTF-8: JSON's "\\ud800" escape
    decodes to a lone surrogate, which loaded fine and then made every save
    and share link fail. One problem per such text (first ten), with its path."""
    found: list[str] = []
    stack: list[tuple[str, Any]] = [(_key(k), v) for k, v in doc.items()]
    while stack and len(found) < 10:
        path, value = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                found.append(f"{path}: text with an unpaired surrogate (a broken \\u escape) cannot be saved")
        elif isinstance(value, dict):
            for k, v in value.items():
                if _SURROGATE.search(k):
                    found.append(f"{path}: a key with an unpaired surrogate (a broken \\u escape) cannot be saved")
                stack.append((f"{path}.{_key(k)}", v))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(value))
    return sorted(found)


class SetupError(ValueError):
    """An encounter outside the limits, refused when it is made: `problems`
    are the loader's own messages (field path, value, allowed range)."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems[:3]) + (f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""))


def check_encounter(enc: Encounter, ruleset: Ruleset | None = None) -> tuple[Encounter, list[str]]:
    """Hold a built encounter to the loader's rules: write it as a save file
    would and read it back. Returns the encounter as a file of it loads (the
    same one when it was already in that form) and the problems, each in the
    loader's words; a setup that passes is one whose save file opens again."""
    problems: list[str] = []
    lookup = Lookup(lambda name: ruleset, lambda: (enc.system,)) if ruleset is not None else None
    try:
        doc = encounter_to_json(enc)
    except (AttributeError, TypeError, ValueError) as exc:  # not even the model's shape
        return enc, [f"encounter: not an encounter Fray can write ({type(exc).__name__}: {exc})"]
    problems.extend(_unencodable({"encounter": doc}))  # what the loader refuses first
    rebuilt, _ = encounter_from_json(doc, problems, "encounter", lookup)
    if problems or rebuilt is None:
        return enc, problems or ["encounter: not valid"]
    return rebuilt, []
