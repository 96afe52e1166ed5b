"""One JSON format for save files, autosave and share links.

A document is {"format": 1, "app": "fray", "encounter": {...}, "steps": [...],
"redo": [...], "dice_mode": "app"|"physical", "hand_sides": [side ids]}
(hand_sides only when some sides type their own rolls); each step is a command and the
faces it rolled. `load` validates every field and raises one error type,
`LoadError`, listing every problem with its path
(`combatants[2].weapons[0].damage: "2x6" is not dice notation`); nothing is
built unless the whole document is sound. Share links carry the same JSON,
zlib-compressed and base64url-encoded, in the URL fragment.
"""
from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

from .commands import CommandFormatError, from_json, key_text as _key, kind_of as _kind, to_json
# The encounter's own JSON form lives in encounter_io; storage re-exports it for its callers.
from .encounter_io import (MAX_COMBATANTS, MAX_SIDES, SHAPES, _show, _unencodable,  # noqa: F401
                           combatant_to_json, encounter_from_json, encounter_to_json, objects)
from .ruleset import Lookup, Ruleset, default_lookup
from .session import ReplayError, Session

FORMAT = 1
LINK_PREFIX = "e="
MAX_TEXT = 5_000_000  # characters: far beyond any real encounter
MAX_STEPS = 100_000


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







def dump(session: Session, dice_mode: str | None = None) -> dict[str, Any]:
    """The whole session as one JSON-ready document."""
    return _document(session, encounter_to_json(session.encounter), dice_mode)


def _document(session: Session, encounter: Any, dice_mode: str | None = None) -> dict[str, Any]:
    mode = dice_mode or ("physical" if session.physical_dice else "app")
    doc = {
        "format": FORMAT,
        "app": "fray",
        "encounter": encounter,
        "steps": [{"command": to_json(s.command), "dice": list(s.dice)} for s in session.steps],
        "redo": [{"command": to_json(s.command), "dice": list(s.dice)} for s in reversed(session.redo_stack)],
        "dice_mode": mode,
    }
    if session.hand_sides:
        doc["hand_sides"] = sorted(session.hand_sides)
    return doc


# The last encounter written compactly and its JSON text: every autosave of a fight writes the same setup
# (encounters are frozen: the same object is the same setup), so only the steps are turned into JSON again.
_SETUP_TEXT: list[Any] = [None, ""]
_SLOT = '"encounter":null'


def dumps(session: Session, indent: int | None = None) -> str:
    if indent is not None:
        return json.dumps(dump(session), indent=indent, ensure_ascii=False, separators=None if indent else (",", ":"))
    enc = session.encounter
    if _SETUP_TEXT[0] is not enc:
        _SETUP_TEXT[:] = [enc, json.dumps(encounter_to_json(enc), ensure_ascii=False, separators=(",", ":"))]
    text = json.dumps(_document(session, None), ensure_ascii=False, separators=(",", ":"))
    at = text.index(_SLOT)  # the first key after two fixed strings: nothing typed can come before it
    return text[:at] + '"encounter":' + _SETUP_TEXT[1] + text[at + len(_SLOT):]


def encode_link(session: Session) -> str:
    """The URL fragment (without '#') that carries the whole session."""
    raw = json.dumps(dump(session), separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    packed = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")
    return LINK_PREFIX + packed


# --- reading -------------------------------------------------------------------



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
    except json.JSONDecodeError as exc:
        raise LoadError([f"file: not valid JSON at line {exc.lineno}, column {exc.colno} "
                         f"({exc.msg[0].lower() + exc.msg[1:]})"]) from None
    except ValueError as exc:
        if "digits" in str(exc):  # Python's own guard against 4,300-digit numbers
            raise LoadError(["file: a number of more than 4,300 digits, which no field of an encounter "
                             "holds"]) from None
        raise LoadError([f"file: not valid JSON ({exc})"]) from None


def loads(text: str | bytes, rulesets: Lookup | None = None) -> Loaded:
    """Load a save file or autosave; raises LoadError and builds nothing on failure."""
    return load(parse_json(text), rulesets)


def decode_link(fragment: str, rulesets: Lookup | None = None) -> Loaded:
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
        return load(parse_json(raw), rulesets)
    except LoadError as exc:
        raise LoadError([f"share link: {p}" for p in exc.problems]) from None


def load(doc: Any, rulesets: Lookup | None = None) -> Loaded:
    """Validate a parsed document and replay it into a session. `rulesets` is
    the lookup of systems it may name (default: the one fray.rules installs)."""
    problems: list[str] = []
    if not isinstance(doc, dict):
        raise LoadError([f"file: expected a Fray encounter object, got {_kind(doc)}"])
    fmt = doc.get("format")
    if "format" not in doc:
        raise LoadError([f'format: missing: not a Fray save file (a Fray file starts with "format": {FORMAT})'])
    if type(fmt) is not int or fmt != FORMAT:  # true == 1 and 1.0 == 1 in Python
        shown = "null" if fmt is None else _show(fmt)
        raise LoadError([f"format: {shown} is not a format this version reads (expected {FORMAT})"])
    for key in doc:
        if key not in ("format", "app", "encounter", "steps", "redo", "dice_mode", "hand_sides"):
            problems.append(f"{_key(key)}: not a field of a Fray file")
    problems.extend(_unencodable(doc))
    doc = _upgraded(doc, rulesets)
    dice_mode = doc.get("dice_mode", "app")
    if dice_mode not in ("app", "physical"):
        problems.append(f'dice_mode: {_show(dice_mode)} is not "app" or "physical"')
    enc_doc = doc.get("encounter")
    encounter, ruleset = encounter_from_json(enc_doc, problems, "encounter", rulesets)
    hand_sides = _hand_sides(doc.get("hand_sides", []), encounter, problems)
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
        raise LoadError([f"steps: a step the rules could not replay ({exc})" if str(exc)
                         else "steps: a step the rules could not replay"]) from None
    session.physical_dice = dice_mode == "physical"
    session.hand_sides = hand_sides
    return Loaded(session, dice_mode)


def _hand_sides(raw: Any, encounter: Any, problems: list[str]) -> frozenset[str]:
    """The sides that type their own rolls: a list of the encounter's side ids."""
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        problems.append(f"hand_sides: {_show(raw)} is not a list of side ids")
        return frozenset()
    known = {side.id for side in encounter.sides} if encounter is not None else set()
    for i, x in enumerate(raw):
        if encounter is not None and x not in known:
            problems.append(f"hand_sides[{i}]: {_show(x)} is not a side of this encounter")
    return frozenset(x for x in raw if x in known)


def _upgraded(doc: dict, rulesets: Lookup | None) -> dict:
    """The document in today's words: its system's `upgrade` hook rewrites what
    an older version of that system wrote (a stat renamed, a count become a list)."""
    enc = doc.get("encounter")
    system = enc.get("system") if isinstance(enc, dict) else None
    lookup = rulesets if rulesets is not None else default_lookup()
    if not isinstance(system, str) or system not in lookup:
        return doc
    try:
        return lookup[system].upgrade(doc)
    except (KeyError, TypeError, ValueError, AttributeError):
        return doc  # a malformed document: the checks that follow name its problems


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
    for i, p, item in objects(raw, path, problems):
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






















