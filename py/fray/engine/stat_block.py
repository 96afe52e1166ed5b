"""A pasted stat block as read, field by field: what each part of the text gave, refused or left unread.

Each system's reader (`rules/<system>/stat_block.py`) fills these records; the
front (`fray/stat_blocks.py`) finds the reader and holds the result to the
save file's limits. A `Field` keeps the words it was read from and where they
are in the block's text, so the referee can fix that part and have the block
read again; a field whose value cannot be used carries its `problem` instead,
and nothing is added while any field has one. Pure: no system, no browser.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable

from . import limits as L
from .dice import DiceError, DiceExpr

MAX_TEXT = 200_000    # characters pasted at once
MAX_BLOCKS = L.MAX_COMBATANTS


class PasteError(ValueError):
    """A paste that is not stat blocks at all (binary junk, too long, too many blocks)."""


@dataclass(frozen=True)
class Field:
    """One thing read from a block: `key` is where it goes in the combatant ("ac", "weapons", "stats.hd")
    or "name" / "count"; `value` its save-file value (None when refused, with `problem` saying why)."""

    key: str
    label: str
    value: Any
    text: str
    start: int = 0
    end: int = 0
    problem: str = ""
    # Also written in the creature's notes, as its text ("ML 7 (9)", "TT R (C)").
    note: bool = False


@dataclass(frozen=True)
class Block:
    """One creature's block: its fields in the order read, the parts not understood, and any problem
    of the whole block (no creature in it)."""

    text: str
    fields: tuple[Field, ...] = ()
    unread: tuple[str, ...] = ()
    problem: str = ""
    # The dice a copy's hit points are rolled from, when the block gives Hit Dice ("1d8-1").
    hp_dice: str = ""

    def get(self, key: str, default: Any = None) -> Any:
        for f in self.fields:
            if f.key == key and not f.problem:
                return f.value
        return default

    def field(self, key: str) -> Field | None:
        return next((f for f in self.fields if f.key == key), None)

    @property
    def name(self) -> str:
        return self.get("name", "") or "Creature"

    @property
    def count(self) -> int:
        return self.get("count", 1)

    @property
    def problems(self) -> list[str]:
        """Every reason the block cannot be added, each at its field ("AC: ...")."""
        return ([self.problem] if self.problem else []) + [f"{f.label}: {f.problem}" for f in self.fields if f.problem]

    @property
    def ok(self) -> bool:
        return not self.problems

    def combatant(self) -> dict[str, Any]:
        """The creature in the save file's combatant form (without id, side or place)."""
        hp = self.get("hp", 1)
        out: dict[str, Any] = {"name": self.name, "hp": hp, "max_hp": hp, "ac": self.get("ac", 10),
                               "weapons": [], "hands": ["", ""], "inventory": [], "conditions": [], "stats": {},
                               "notes": ""}
        kept, notes = [], []
        for f in self.fields:
            if f.note:
                kept.append(f.text)
            if f.problem:
                continue
            if f.key.startswith("stats."):
                out["stats"][f.key[6:]] = f.value
            elif f.key == "weapons":
                out["weapons"].extend(f.value)
            elif f.key == "notes":
                notes.append(f.value)
            elif f.key in ("ac", "hands", "inventory"):
                out[f.key] = f.value
        out["notes"] = "\n".join(([" · ".join(kept)] if kept else []) + notes)[:L.NOTES]
        return out

    def fixed(self, start: int, end: int, text: str) -> str:
        """The block's text with the part at [start, end) replaced: what the referee's fix reads again."""
        return self.text[:start] + text + self.text[end:]

    def with_problem(self, key: str, problem: str) -> "Block":
        """The block with `problem` set on the field `key` (added if the block has none)."""
        if self.field(key) is None:
            return replace(self, fields=self.fields + (Field(key, key, None, "", problem=problem),))
        return replace(self, fields=tuple(replace(f, problem=f.problem or problem) if f.key == key else f
                                          for f in self.fields))


def checked_text(text: Any) -> str:
    """The pasted text, or PasteError when it is not text a person wrote (bytes that are not UTF-8,
    control characters, too long)."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise PasteError("this is not text (it is not UTF-8): paste the stat block's words") from None
    if not isinstance(text, str):
        raise PasteError("expected text")
    if len(text) > MAX_TEXT:
        raise PasteError(f"{len(text):,} characters: at most {MAX_TEXT:,} at once")
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "")
    junk = sum(1 for ch in text if (ord(ch) < 32 and ch not in "\n\t") or 0xFFF0 <= ord(ch) <= 0xFFFF
               or 0xD800 <= ord(ch) <= 0xDFFF)
    if junk:
        raise PasteError(f"this is not text ({junk} control or unreadable characters): paste the stat block's words")
    if not text.strip():
        raise PasteError("nothing to read: paste one or more stat blocks")
    return text


def split_blocks(text: str, key_of: Callable[[str], str]) -> list[tuple[int, str]]:
    """The blocks of a paste, each with where it starts in `text`. `key_of(line)` names the field a line
    begins with ("" for none). Blank lines part blocks; so does a field line whose field the block already
    has, and a name line (not a field) after a block's fields when fields follow it on its line or the
    next. Any other line stays with its block (read or listed unread). PasteError past MAX_BLOCKS."""
    lines, pos = [], 0
    for line in text.split("\n"):
        lines.append((pos, line.strip()))
        pos += len(line) + 1
    out: list[tuple[int, list[str]]] = []
    seen: set[str] = set()
    open_block = False
    for i, (here, line) in enumerate(lines):
        if not line:
            open_block = False
            continue
        key = key_of(line)
        named = "" if key else key_of(line.partition(":")[2].strip()) if ":" in line else ""
        following = next((nxt for _, nxt in lines[i + 1:] if nxt), "")
        if not open_block or (key and key in seen) or (not key and seen and (named or key_of(following))):
            out.append((here, []))
            seen, open_block = set(), True
        out[-1][1].append(text[here:here + len(text[here:].split("\n", 1)[0])])
        seen |= {k for k in (key, named) if k}
    if len(out) > MAX_BLOCKS:
        raise PasteError(f"{len(out):,} stat blocks: at most {MAX_BLOCKS} at once "
                         f"(an encounter holds at most {L.MAX_COMBATANTS} combatants)")
    return [(start, "\n".join(block)) for start, block in out]


def parts(text: str, offset: int = 0) -> Iterable[tuple[int, int, str]]:
    """The comma-, semicolon- or line-separated parts of a block outside brackets, each with its
    [start, end) in `text` + offset; "1,200" (a number's thousands) is not a separator."""
    depth, start = 0, 0
    for i, ch in enumerate(text + "\n"):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif (ch in ";\n" or (ch == "," and not (0 < i < len(text) - 1 and text[i - 1].isdigit()
                                                   and text[i + 1].isdigit()))) and (depth == 0 or ch == "\n"):
            depth = 0 if ch == "\n" else depth
            yield from _trimmed(text, start, i, offset)
            start = i + 1


def _trimmed(text: str, start: int, end: int, offset: int) -> Iterable[tuple[int, int, str]]:
    chunk = text[start:end]
    lead = len(chunk) - len(chunk.lstrip())
    chunk = chunk.strip()
    if chunk:
        yield start + lead + offset, start + lead + len(chunk) + offset, chunk


def ranged(label: str, value: int, bounds: tuple[int, int]) -> str:
    """"" when `value` is within the save file's `bounds`, else the problem in the field's words."""
    lo, hi = bounds
    return "" if lo <= value <= hi else f"{value:,} is out of range ({lo:,} to {hi:,})"


def dice_problem(text: str) -> str:
    """"" for dice notation the save file takes, else why not."""
    try:
        DiceExpr.parse(text)
    except DiceError as exc:
        return str(exc)
    return "" if len(text) <= L.DAMAGE_TEXT else f"at most {L.DAMAGE_TEXT} characters"


def average_hp(dice: str) -> int:
    """The hit points a copy has when its dice are not rolled: their average, at least 1."""
    d = DiceExpr.parse(dice)
    return max(1, int(d.count * (d.sides + 1) / 2 + d.modifier))


NAME = re.compile(r"^(?P<name>[^:(\[\d][^:(\[]{0,200}?)\s*(?:\((?P<count>[^)]*)\))?\s*:?\s*$")


def name_fields(text: str, start: int) -> list[Field]:
    """The name line's fields: the name, and a count in brackets ("Goblin (3)"), each checked."""
    m = NAME.match(text)
    if not m:
        return []
    name = m.group("name").strip()
    if name.isupper():
        name = name.title()
    out = [Field("name", "Name", name, name, start + m.start("name"), start + m.start("name") + len(name),
                 "" if len(name) <= L.COMBATANT_NAME else f"at most {L.COMBATANT_NAME} characters")]
    if m.group("count") is not None:
        raw = m.group("count").strip().replace(",", "")
        s, e = start + m.start("count"), start + m.end("count")
        if raw.isdigit():
            out.append(Field("count", "Copies", int(raw), m.group("count"), s, e,
                             ranged("Copies", int(raw), (1, L.MAX_COMBATANTS))))
        else:
            out.append(Field("count", "Copies", None, m.group("count"), s, e,
                             f'"{raw[:40]}" is not a number of creatures'))
    return out


# --- weapons, as any system's block names them ------------------------------------------------------------

_KINDS = {"bow": "bow", "shortbow": "bow", "longbow": "bow", "arrow": "bow", "arrows": "bow", "crossbow": "crossbow",
          "sling": "sling", "javelin": "thrown", "dart": "thrown", "darts": "thrown", "rock": "thrown",
          "boulder": "thrown", "spit": "ranged"}
_HELD = ("weapon", "sword", "axe", "spear", "club", "mace", "dagger", "knife", "flail", "hammer", "halberd", "pike",
         "staff", "morningstar", "scimitar", "trident", "polearm", "lance", "pick", "whip", "scythe", "sickle")
_DICE = r"\d*\s*[dD]\s*\d+(?:\s*[+-]\s*\d+)?|\d+(?![\d\s]*[dD])"
DAMAGE = re.compile(rf"^\s*({_DICE})\b\s*(.*)$", re.S)
COMPACT = re.compile(
    rf"^(?:(?P<n1>\d+)\s*[×xX*]\s*)?(?P<name>[A-Za-z][A-Za-z' -]{{0,80}}?)\s+(?:(?P<hit1>[+-]\s*\d+)\s+)?"
    r"\(?(?P<dice>\d*\s*[dD]\s*\d+(?:\s*[+-]\s*\d+)?)\)?"
    rf"(?:\s*[×xX]\s*(?P<n2>\d+))?(?:\s+(?P<hit2>[+-]\s*\d+)\s*to[- ]hit)?"
    rf"(?:\s+(?P<reach>long reach|reach(?:\s*(?P<ft>\d+)\s*(?:ft|')?)?))?\s*$", re.I)


def kind_of(name: str) -> str:
    """How an attack named so is made: a missile's kind, a held weapon's "melee", else a "natural" one."""
    words = re.findall(r"[a-z]+", name.lower())
    for w in words:
        if w in _KINDS:
            return _KINDS[w]
    return "melee" if any(h in w for w in words for h in _HELD) else "natural"


def weapon(name: str, damage: str, count: int = 1, to_hit: int = 0, reach: int = 5) -> tuple[dict[str, Any], str]:
    """A weapon in the save file's form, and the problem with it ("" if none)."""
    name = name.strip()
    name = name[:1].upper() + name[1:]
    damage = re.sub(r"\s+", "", damage).lower()
    out = {"name": name, "damage": damage, "to_hit": to_hit, "kind": kind_of(name), "reach": reach, "count": count}
    problem = (dice_problem(damage) or (f"{name}: at most {L.WEAPON_NAME} characters" if len(name) > L.WEAPON_NAME
                                        else "") or _bounded(f"{name}: {count} attacks", count, L.COUNT)
               or _bounded(f"{name}: to-hit {to_hit:+d}", to_hit, L.TO_HIT)
               or _bounded(f"{name}: reach {reach} ft", reach, L.REACH))
    return out, problem


def _bounded(what: str, value: int, bounds: tuple[int, int]) -> str:
    problem = ranged(what, value, bounds)
    return f"{what}: {problem}" if problem else ""


def compact_weapon(text: str) -> tuple[dict[str, Any], str] | None:
    """A weapon written in a referee's notes ("axe 1d8", "2 × claw 1d4", "spear +1 1d6 reach 10"), with its
    problem; None when the text is not one."""
    m = COMPACT.match(text.strip())
    if not m or m.group("name").strip().lower() in ("hp", "ac", "hd"):
        return None
    count = int(m.group("n1") or m.group("n2") or 1)
    hit = m.group("hit1") or m.group("hit2") or "0"
    reach = 10 if m.group("reach") and not m.group("ft") else int(m.group("ft") or 5)
    return weapon(m.group("name"), m.group("dice"), count, int(hit.replace(" ", "")), reach)


# --- the compact form a referee writes in notes ("Orc (4): HP 6, AC 13, axe 1d8") -------------------------

Spec = tuple[str, str, tuple[int, int]]  # (field key, label, bounds)


def compact_key(keys: dict[str, Spec], flags: dict[str, tuple[str, Any]]) -> Callable[[str], str]:
    """`key_of` for a compact form: the key or flag word a line begins with, or "weapon" for a weapon."""
    words = sorted(list(keys) + list(flags), key=len, reverse=True)
    pattern = re.compile(r"^(" + "|".join(re.escape(w) for w in words) + r")(?![a-z])", re.I)

    def key_of(line: str) -> str:
        first = next(iter(parts(line)), (0, 0, ""))[2]
        m = pattern.match(first)
        return m.group(1).lower() if m else "weapon" if compact_weapon(first) else ""
    return key_of


def read_compact(text: Any, keys: dict[str, Spec], flags: dict[str, tuple[str, Any]]) -> list[Block]:
    """Every block of a paste in a compact form: "Name (N): KEY value, ..., flag, weapon dice, ...", a key
    of `keys` read as a whole number within its bounds, a word of `flags` setting its value, a weapon as
    `compact_weapon` reads it; any other part listed unread."""
    key_of = compact_key(keys, flags)
    return [_compact_block(block, keys, flags, key_of) for _, block in split_blocks(checked_text(text), key_of)]


def _compact_block(text: str, keys: dict[str, Spec], flags: dict[str, tuple[str, Any]],
                   key_of: Callable[[str], str]) -> Block:
    fields: list[Field] = []
    unread: list[str] = []
    first = text.partition("\n")[0]
    head, sep, rest = first.partition(":")
    body = 0
    if not key_of(first.strip()):
        line = head if sep and key_of(rest.strip()) else first
        fields += name_fields(line, 0)
        body = len(line) + 1
        if not fields:
            unread.append(first.strip())
    weapons: list[dict[str, Any]] = []
    span: list[int] = []
    problems: list[str] = []
    for start, end, part in parts(text[body:], body):
        word = key_of(part)
        if word == "weapon":
            w, problem = compact_weapon(part)  # type: ignore[misc]
            weapons.append(w)
            problems += [problem] if problem else []
            span = [span[0] if span else start, end]
        elif word in flags:
            key, value = flags[word]
            fields.append(Field(key, word.capitalize(), value, part, start, end))
            unread += [part[len(word):].strip()] if part[len(word):].strip() else []
        elif word and any(f.key == keys[word][0] for f in fields):
            unread.append(f"{part} (a second {word})")
        elif word:
            fields.append(_number_field(keys[word], part, part[len(word):], start, end))
        else:
            unread.append(part)
    if weapons or problems:
        if len(weapons) > L.MAX_WEAPONS:
            problems.append(f"{len(weapons)} weapons: at most {L.MAX_WEAPONS}")
        fields.append(Field("weapons", "Weapons", None if problems else weapons, text[span[0]:span[1]],
                            span[0], span[1], "; ".join(problems)))
    if not any(f.key in ("hp", "ac", "weapons") for f in fields):
        return Block(text, tuple(fields), tuple(unread), "no HP, AC or weapons: not a stat block")
    if not any(f.key == "hp" for f in fields):
        fields.append(Field("hp", "HP", None, "", problem="no hit points (HP 6)"))
    return Block(text, tuple(fields), tuple(unread))


def _number_field(spec: Spec, part: str, value: str, start: int, end: int) -> Field:
    key, label, bounds = spec
    m = re.match(r"^\s*:?\s*([+-]?\s*\d[\d,]*)\s*(?:ft\.?|feet|'|’|hp)?\s*$", value, re.I)
    if not m:
        return Field(key, label, None, part, start, end, f'"{value.strip()[:40]}" is not a whole number')
    n = int(re.sub(r"[\s,]", "", m.group(1)))
    problem = ranged(label, n, bounds)
    return Field(key, label, None if problem else n, part, start, end, problem)
