"""One JSON format for save files, autosave and share links.

A document is {"format": 1, "app": "fray", "encounter": {...}, "steps": [...],
"redo": [...], "dice_mode": "app"|"physical"}; each step is a command and the
faces it rolled. `load` validates every field and raises one error type,
`LoadError`, listing every problem with its path
(`combatants[2].attacks[0].damage: "2x6" is not dice notation`); nothing is
built unless the whole document is sound. Share links carry the same JSON,
zlib-compressed and base64url-encoded, in the URL fragment.
"""
from __future__ import annotations

import base64
import binascii
import json
import math
import re
import zlib
from dataclasses import dataclass
from typing import Any

from .commands import CommandFormatError, from_json, key_text as _key, kind_of as _kind, to_json
from .dice import DiceError, DiceExpr
from .model import ATTACK_KINDS, QUALITIES, Attack, Combatant, Encounter, MapSpec, Side
from .ruleset import Ruleset, Setting, StatSpec
from .session import ReplayError, Session

FORMAT = 1
LINK_PREFIX = "e="
MAX_TEXT = 5_000_000  # characters: far beyond any real encounter
MAX_COMBATANTS = 200
MAX_SIDES = 12
MAX_STEPS = 100_000
SHAPES = ("circle", "square", "diamond", "triangle", "hexagon", "star")
_ID = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


class LoadError(ValueError):
    """A document that cannot be loaded; `problems` lists each with its path."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        head = problems[0] if problems else "unreadable"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(head + more)


@dataclass
class Loaded:
    """What a document holds, ready to become a session."""

    session: Session
    dice_mode: str = "app"


# --- writing -------------------------------------------------------------------

def encounter_to_json(enc: Encounter) -> dict[str, Any]:
    return {
        "name": enc.name,
        "system": enc.system,
        "profile": enc.profile,
        "seed": enc.seed,
        "bands": enc.bands,
        "settings": _plain(enc.settings),
        "map": {"width": enc.map.width, "height": enc.map.height,
                "walls": sorted([list(w) for w in enc.map.walls])},
        "sides": [{"id": s.id, "name": s.name, "colour": s.colour, "shape": s.shape,
                   "allies": list(s.allies), "morale": s.morale, "is_player": s.is_player}
                  for s in enc.sides],
        "combatants": [combatant_to_json(c) for c in enc.combatants],
    }


def combatant_to_json(c: Combatant) -> dict[str, Any]:
    return {
        "id": c.id, "name": c.name, "side": c.side, "hp": c.hp, "max_hp": c.max_hp, "ac": c.ac,
        "attacks": [{"name": a.name, "damage": a.damage, "to_hit": a.to_hit, "kind": a.kind,
                     "reach": a.reach, "count": a.count, "qualities": list(a.qualities), "item": a.item}
                    for a in c.attacks],
        "hands": list(c.hands), "inventory": list(c.inventory), "conditions": list(c.conditions),
        "stats": _plain(c.stats), "band": c.band,
        "square": list(c.square) if c.square is not None else None, "notes": c.notes,
    }


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def dump(session: Session, dice_mode: str | None = None) -> dict[str, Any]:
    """The whole session as one JSON-ready document."""
    mode = dice_mode or ("physical" if session.physical_dice else "app")
    return {
        "format": FORMAT,
        "app": "fray",
        "encounter": encounter_to_json(session.encounter),
        "steps": [{"command": to_json(s.command), "dice": list(s.dice)} for s in session.steps],
        "redo": [{"command": to_json(s.command), "dice": list(s.dice)} for s in reversed(session.redo_stack)],
        "dice_mode": mode,
    }


def dumps(session: Session, indent: int | None = None) -> str:
    return json.dumps(dump(session), indent=indent, ensure_ascii=False, separators=None if indent else (",", ":"))


def encode_link(session: Session) -> str:
    """The URL fragment (without '#') that carries the whole session."""
    raw = json.dumps(dump(session), separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    packed = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")
    return LINK_PREFIX + packed


# --- reading -------------------------------------------------------------------

def _show(value: Any) -> str:
    """A value as a message quotes it: short text in quotes, anything else by kind
    (a repr of a 5 MB string or a 900-deep list has no place in a message)."""
    if isinstance(value, str) and len(value) <= 40:
        return repr(value)
    if value is None or isinstance(value, bool) or (isinstance(value, int) and abs(value) < 10**12):
        return repr(value)
    return _kind(value)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_json(text: str | bytes) -> Any:
    """JSON text to data, turning every way it can fail into LoadError."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LoadError([f"file: not UTF-8 text (byte {exc.start})"]) from None
    if not isinstance(text, str):
        raise LoadError(["file: not text"])
    if len(text) > MAX_TEXT:
        raise LoadError([f"file: too large ({len(text)} characters)"])
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise LoadError(["file: nested too deeply to be an encounter"]) from None
    except ValueError as exc:
        raise LoadError([f"file: not valid JSON ({exc})"]) from None


def loads(text: str | bytes) -> Loaded:
    """Load a save file or autosave; raises LoadError and builds nothing on failure."""
    return load(parse_json(text))


def decode_link(fragment: str) -> Loaded:
    """Load a share link's fragment ("#e=..." or "e=..."); LoadError if tampered."""
    if not isinstance(fragment, str):
        raise LoadError(["share link: not text"])
    frag = fragment[1:] if fragment.startswith("#") else fragment
    if not frag.startswith(LINK_PREFIX):
        raise LoadError(["share link: it does not carry an encounter (expected #e=...)"])
    data = frag[len(LINK_PREFIX):]
    if len(data) > MAX_TEXT:
        raise LoadError(["share link: too long"])
    if not re.fullmatch(r"[A-Za-z0-9_-]*", data):
        raise LoadError(["share link: it contains characters a Fray link never has; it was altered or cut"])
    try:
        packed = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_TEXT)
        if inflater.unconsumed_tail or inflater.unused_data or not inflater.eof:
            raise LoadError(["share link: truncated or corrupt (the data does not end where it should)"])
    except (binascii.Error, ValueError, zlib.error) as exc:
        if isinstance(exc, LoadError):
            raise
        raise LoadError(["share link: truncated or corrupt (it could not be unpacked)"]) from None
    try:
        return load(parse_json(raw))
    except LoadError as exc:
        raise LoadError([f"share link: {p}" for p in exc.problems]) from None


def load(doc: Any) -> Loaded:
    """Validate a parsed document and replay it into a session."""
    problems: list[str] = []
    if not isinstance(doc, dict):
        raise LoadError([f"file: expected a Fray encounter object, got {_kind(doc)}"])
    fmt = doc.get("format")
    if type(fmt) is not int or fmt != FORMAT:  # true == 1 and 1.0 == 1 in Python
        raise LoadError([f"format: {_show(fmt)} is not a format this version reads (expected {FORMAT})"])
    for key in doc:
        if key not in ("format", "app", "encounter", "steps", "redo", "dice_mode"):
            problems.append(f"{_key(key)}: not a field of a Fray file")
    problems.extend(_unencodable(doc))
    dice_mode = doc.get("dice_mode", "app")
    if dice_mode not in ("app", "physical"):
        problems.append(f'dice_mode: {_show(dice_mode)} is not "app" or "physical"')
    enc_doc = doc.get("encounter")
    encounter, ruleset = encounter_from_json(enc_doc, problems, "encounter")
    steps = _steps(doc.get("steps", []), "steps", problems, ruleset)
    redo = _steps(doc.get("redo", []), "redo", problems, ruleset)
    if problems or encounter is None or ruleset is None:
        raise LoadError(problems or ["encounter: missing"])
    try:
        session = Session.replay(encounter, steps, redo, ruleset=ruleset)
    except ReplayError as exc:
        raise LoadError([str(exc)]) from None
    except RecursionError:
        raise LoadError(["steps: nested too deeply"]) from None
    except Exception as exc:  # a step the rules cannot resolve: report, never crash
        raise LoadError([f"steps: could not be replayed ({type(exc).__name__}: {exc})"]) from None
    session.physical_dice = dice_mode == "physical"
    return Loaded(session, dice_mode)


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


def _steps(raw: Any, path: str, problems: list[str], ruleset: Ruleset | None) -> list:
    if not isinstance(raw, list):
        problems.append(f"{path}: expected a list, got {_kind(raw)}")
        return []
    if len(raw) > MAX_STEPS:
        problems.append(f"{path}: too many steps ({len(raw)})")
        return []
    if ruleset is None:
        return []
    out = []
    for i, item in enumerate(raw):
        p = f"{path}[{i}]"
        if not isinstance(item, dict):
            problems.append(f"{p}: expected an object, got {_kind(item)}")
            continue
        for key in item:
            if key not in ("command", "dice"):
                problems.append(f"{p}.{_key(key)}: not a field of a step")
        try:
            cmd = from_json(item.get("command"), ruleset.namespaces(), f"{p}.command")
        except CommandFormatError as exc:
            problems.append(str(exc))
            continue
        except RecursionError:
            problems.append(f"{p}.command: nested too deeply")
            continue
        faces = item.get("dice", [])
        if not isinstance(faces, list) or len(faces) > 1000 or not all(
                isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 1000 for f in faces):
            problems.append(f"{p}.dice: expected a list of die faces (whole numbers 1-1000)")
            continue
        out.append((cmd, tuple(faces)))
        if len(problems) > 50:
            break
    return out


def encounter_from_json(doc: Any, problems: list[str], path: str = "encounter"
                        ) -> tuple[Encounter | None, Ruleset | None]:
    """Validate and build an Encounter; every problem is appended with its path."""
    from ..rules import SYSTEMS, get as get_ruleset

    if not isinstance(doc, dict):
        problems.append(f"{path}: expected an object, got {_kind(doc)}")
        return None, None
    start = len(problems)
    v = _Validator(problems, path)
    known = ("name", "system", "profile", "seed", "bands", "settings", "map", "sides", "combatants")
    for key in doc:
        if key not in known:
            problems.append(f"{path}.{_key(key)}: not a field of an encounter")
    name = v.text(doc, "name", default="Encounter", limit=80)
    system = doc.get("system")
    if not isinstance(system, str) or system not in SYSTEMS:
        problems.append(f"{path}.system: {_show(system)} is not a system Fray knows ({', '.join(SYSTEMS)})")
        return None, None
    ruleset = get_ruleset(system)
    profile = doc.get("profile", ruleset.profiles[0])
    if profile not in ruleset.profiles:
        problems.append(f"{path}.profile: {_show(profile)} is not a profile of {system} "
                        f"({', '.join(repr(p) for p in ruleset.profiles)})")
    seed = v.integer(doc, "seed", default=1, lo=0, hi=2**31 - 1)
    bands = v.integer(doc, "bands", default=6, lo=1, hi=50)
    settings = _settings(doc.get("settings", {}), ruleset.settings(), f"{path}.settings", problems)
    spec = _map(doc.get("map", {}), f"{path}.map", problems)
    sides = _sides(doc.get("sides"), f"{path}.sides", problems)
    side_ids = {s.id for s in sides}
    combatants = _combatants(doc.get("combatants"), f"{path}.combatants", problems, side_ids,
                             ruleset.stats(), spec, bands)
    if len(problems) > start:
        return None, ruleset
    return Encounter(name=name, system=system, profile=profile, combatants=tuple(combatants),
                     sides=tuple(sides), settings=settings, map=spec, bands=bands, seed=seed), ruleset


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


def _settings(raw: Any, specs: tuple[Setting, ...], path: str, problems: list[str]) -> dict[str, Any]:
    out = {s.key: s.default for s in specs}
    if not isinstance(raw, dict):
        problems.append(f"{path}: expected an object, got {_kind(raw)}")
        return out
    by_key = {s.key: s for s in specs}
    for key, val in raw.items():
        spec = by_key.get(key)
        if spec is None:
            problems.append(f"{path}.{_key(key)}: not a setting of this system")
            continue
        msg = _check_setting(spec, val)
        if msg:
            problems.append(f"{path}.{_key(key)}: {msg}")
        else:
            out[key] = _shaped(val, spec.default) if spec.kind == "table" else val
    return out


def _shaped(val: Any, default: Any) -> Any:
    """A validated table with the default's containers: JSON has only lists,
    so a tuple row came back as a list and the setup no longer equalled itself."""
    if isinstance(default, dict):
        return {k: _shaped(v, default[k]) for k, v in val.items()}
    if isinstance(default, (list, tuple)):
        return type(default)(_shaped(a, b) for a, b in zip(val, default))
    return val


def _check_setting(spec: Setting, val: Any) -> str:
    if spec.kind == "int":
        if isinstance(val, bool) or not isinstance(val, int):
            return f"expected a whole number, got {_kind(val)}"
        lo = spec.minimum if spec.minimum is not None else -10**6
        hi = spec.maximum if spec.maximum is not None else 10**6
        if not lo <= val <= hi:
            return f"{val} is out of range ({lo} to {hi})"
    elif spec.kind == "bool":
        if not isinstance(val, bool):
            return f"expected true or false, got {_kind(val)}"
    elif spec.kind == "choice":
        if val not in spec.choices:
            return f"{_show(val)} is not one of {', '.join(repr(c) for c in spec.choices)}"
    elif spec.kind == "text":
        if not isinstance(val, str) or len(val) > 500:
            return "expected text of at most 500 characters"
    elif spec.kind == "dice":
        try:
            DiceExpr.parse(val)
        except DiceError as exc:
            return str(exc)
    elif spec.kind == "table":
        if not _is_table(val, spec.default):
            return "expected a table shaped like the default one"
    return ""


def _is_table(val: Any, default: Any, depth: int = 0) -> bool:
    """A referee-edited table must keep the default's shape and value kinds."""
    if depth > 6:
        return False
    if isinstance(default, dict):
        return (isinstance(val, dict) and set(val) == set(default)
                and all(_is_table(val[k], default[k], depth + 1) for k in default))
    if isinstance(default, (list, tuple)):
        return (isinstance(val, list) and len(val) == len(default)
                and all(_is_table(a, b, depth + 1) for a, b in zip(val, default)))
    if isinstance(default, bool):
        return isinstance(val, bool)
    if isinstance(default, int):
        return isinstance(val, int) and not isinstance(val, bool) and abs(val) <= 10**6
    if isinstance(default, str):
        return isinstance(val, str) and len(val) <= 40
    return val is None


def _map(raw: Any, path: str, problems: list[str]) -> MapSpec:
    if not isinstance(raw, dict):
        problems.append(f"{path}: expected an object, got {_kind(raw)}")
        return MapSpec()
    v = _Validator(problems, path)
    w = v.integer(raw, "width", default=24, lo=4, hi=200)
    h = v.integer(raw, "height", default=16, lo=4, hi=200)
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
    return MapSpec(w, h, frozenset(walls))


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
    for i, s in enumerate(raw):
        p = f"{path}[{i}]"
        if not isinstance(s, dict):
            problems.append(f"{p}: expected an object, got {_kind(s)}")
            continue
        v = _Validator(problems, p)
        sid = v.text(s, "id", limit=40)
        if sid and not _ID.match(sid):
            v.bad("id", f'"{sid}" is not a valid id (letters, digits, _ . -)')
        if sid in seen:
            v.bad("id", f'"{sid}" is used by another side')
        seen.add(sid)
        colour = v.text(s, "colour", default="#3b6ea8", limit=7)
        if colour and not _COLOUR.match(colour):
            v.bad("colour", f'"{colour}" is not a colour like #3b6ea8')
        shape = s.get("shape", "circle")
        if shape not in SHAPES:
            v.bad("shape", f"{_show(shape)} is not one of {', '.join(SHAPES)}")
        morale = s.get("morale")
        if morale is not None and (isinstance(morale, bool) or not isinstance(morale, int) or not 2 <= morale <= 12):
            v.bad("morale", f"{_kind(morale)} is not a morale score from 2 to 12 (or null)")
            morale = None
        out.append(Side(id=sid, name=v.text(s, "name", limit=60), colour=colour, shape=shape,
                        allies=v.text_list(s, "allies", limit=MAX_SIDES, item_limit=40), morale=morale,
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
    for i, c in enumerate(raw):
        p = f"{path}[{i}]"
        if not isinstance(c, dict):
            problems.append(f"{p}: expected an object, got {_kind(c)}")
            continue
        v = _Validator(problems, p)
        for key in c:
            if key not in ("id", "name", "side", "hp", "max_hp", "ac", "attacks", "hands", "inventory",
                           "conditions", "stats", "band", "square", "notes"):
                problems.append(f"{p}.{_key(key)}: not a field of a combatant")
        cid = v.text(c, "id", limit=40)
        if cid and not _ID.match(cid):
            v.bad("id", f'"{cid}" is not a valid id (letters, digits, _ . -)')
        if cid in seen:
            v.bad("id", f'"{cid}" is used by another combatant')
        seen.add(cid)
        side = v.text(c, "side", limit=40)
        if side and side not in side_ids:
            v.bad("side", f'"{side}" is not one of the sides')
        max_hp = v.integer(c, "max_hp", lo=1, hi=100000)
        hp = v.integer(c, "hp", default=max_hp, lo=-100000, hi=100000)
        ac = v.integer(c, "ac", default=10, lo=-100, hi=100)
        attacks = _attacks(c.get("attacks", []), f"{p}.attacks", problems)
        hands = v.text_list(c, "hands", limit=4, item_limit=80) if "hands" in c else ("", "")
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
        stats = _stats(c.get("stats", {}), f"{p}.stats", problems, by_key)
        out.append(Combatant(
            id=cid, name=v.text(c, "name", limit=80), side=side, hp=hp, max_hp=max_hp, ac=ac,
            attacks=tuple(attacks), hands=tuple(hands), inventory=v.text_list(c, "inventory", limit=60),
            conditions=v.text_list(c, "conditions", limit=20, item_limit=40), stats=stats,
            band=band, square=square, notes=v.text(c, "notes", default="", limit=2000)))
        if len(problems) > 100:
            problems.append(f"{path}: stopped after 100 problems")
            break
    return out


def _attacks(raw: Any, path: str, problems: list[str]) -> list[Attack]:
    if not isinstance(raw, list) or len(raw) > 16:
        problems.append(f"{path}: expected a list of at most 16 attacks, got {_kind(raw)}")
        return []
    out = []
    for i, a in enumerate(raw):
        p = f"{path}[{i}]"
        if not isinstance(a, dict):
            problems.append(f"{p}: expected an object, got {_kind(a)}")
            continue
        v = _Validator(problems, p)
        for key in a:
            if key not in ("name", "damage", "to_hit", "kind", "reach", "count", "qualities", "item"):
                problems.append(f"{p}.{_key(key)}: not a field of an attack")
        damage = v.text(a, "damage", default="1d6", limit=40)
        try:
            DiceExpr.parse(damage)
        except DiceError:
            v.bad("damage", f'"{damage}" is not dice notation')
        kind = a.get("kind", "melee")
        if kind not in ATTACK_KINDS:
            v.bad("kind", f"{_show(kind)} is not one of {', '.join(ATTACK_KINDS)}")
            kind = "melee"
        qualities = v.text_list(a, "qualities", limit=len(QUALITIES), item_limit=20)
        for q in qualities:
            if q not in QUALITIES:
                v.bad("qualities", f"{_show(q)} is not one of {', '.join(QUALITIES)}")
        reach = v.integer(a, "reach", default=5, lo=0, hi=100)
        if reach % 5:
            v.bad("reach", f"{reach} ft is not a multiple of 5 ft")
        out.append(Attack(name=v.text(a, "name", limit=60), damage=damage,
                          to_hit=v.integer(a, "to_hit", default=0, lo=-50, hi=50), kind=kind, reach=reach,
                          count=v.integer(a, "count", default=1, lo=1, hi=10), qualities=qualities,
                          item=v.text(a, "item", default="", limit=80)))
    return out


def _stats(raw: Any, path: str, problems: list[str], specs: dict[str, StatSpec]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        problems.append(f"{path}: expected an object, got {_kind(raw)}")
        return {}
    if len(raw) > 60:
        problems.append(f"{path}: too many stats ({len(raw)})")
        return {}
    out: dict[str, Any] = {}
    for key, val in raw.items():
        spec = specs.get(key)
        p = f"{path}.{_key(key)}"
        if spec is None or spec.kind in ("text",):
            if not (val is None or isinstance(val, (bool, int, str))) or (isinstance(val, str) and len(val) > 200) \
                    or (isinstance(val, int) and not isinstance(val, bool) and abs(val) > 10**6):
                problems.append(f"{p}: expected a number, true/false or short text, got {_kind(val)}")
                continue
        elif spec.kind == "int":
            if val is None and spec.default is None:
                out[key] = None  # an optional number left blank (e.g. OLOG init: use the default)
                continue
            if isinstance(val, bool) or not isinstance(val, int):
                problems.append(f"{p}: expected a whole number, got {_kind(val)}")
                continue
            lo = spec.minimum if spec.minimum is not None else -10**6
            hi = spec.maximum if spec.maximum is not None else 10**6
            if not lo <= val <= hi:
                problems.append(f"{p}: {val} is out of range ({lo} to {hi})")
                continue
        elif spec.kind == "bool":
            if not isinstance(val, bool):
                problems.append(f"{p}: expected true or false, got {_kind(val)}")
                continue
        elif spec.kind == "dice":
            try:
                DiceExpr.parse(val)
            except DiceError:
                problems.append(f'{p}: {_kind(val)} is not dice notation')
                continue
        elif spec.kind == "list":
            if not isinstance(val, list) or len(val) > 60 or not all(isinstance(x, str) and len(x) <= 80 for x in val):
                problems.append(f"{p}: expected a list of short texts")
                continue
            val = tuple(val)
        out[key] = val
    return out
