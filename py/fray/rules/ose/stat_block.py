"""The OSE / B/X stat block as printed: "Goblin (3): AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), THAC0 19 [0]...".

`read_stat_blocks(text)` reads every block of a paste into `engine.stat_block`
records: the name and a count in brackets; AC (the bracketed ascending figure,
or 19 − a descending one); Hit Dice and the hit points in brackets (else the
average of the dice, which a copy may roll instead); every attack with its
count, name, damage and rider; the attack bonus (THAC0's bracketed figure, or
19 − THAC0, or the Hit Dice's row of the monster attack table); movement (its
first figure, feet); saves, morale, alignment, XP, number appearing and
treasure, kept in the stats and the notes. Any other part is listed unread.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from ...engine import limits as L
from ...engine.stat_block import (DAMAGE, Block, Field, checked_text, name_fields, parts, ranged, split_blocks,
                                  weapon)

_KEYS = (("ac", r"armou?r class|ac"), ("hd", r"hit dice|hd"), ("hp", r"hit points|hp"),
         ("att", r"attacks?|att"), ("thac0", r"thac0"), ("mv", r"movement|move|mv"),
         ("sv", r"saving throws?|saves?(?: as)?|sv"), ("ml", r"morale|ml"), ("al", r"alignment|al"),
         ("xp", r"xp"), ("na", r"number appearing|no\.? appearing|na"), ("tt", r"treasure type|treasure|tt"),
         ("undead", r"undead(?=\s*(?:[:.–—-]|$))"))
KEY = re.compile(r"^(?:" + "|".join(f"(?P<{k}>{p})" for k, p in _KEYS) + r")(?![a-z0-9])\s*:?\s*(?P<val>.*)$",
                 re.I | re.S)
ITEM = re.compile(r"^(?:(?P<n>\d+)\s*(?:[×xX*]\s*|\s(?=[A-Za-z])))?(?P<name>[^()]+?)\s*(?:\((?P<inner>[^)]*)\))?\s*$")
# The monster attack table: (Hit Dice up to, attack bonus): up to 1 HD +0, 1+ to 2 +1, ... 21+ HD +14.
_ATTACK = ((1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6), (9, 7), (11, 8), (13, 9), (15, 10), (17, 11),
           (19, 12), (21, 13))
NEXT_ATTACK = re.compile(r"^(?:\d+\s*[×xX*]|or\b|and\b)", re.I)


def key_of(line: str) -> str:
    """The field a line begins with ("ac", "hd", "att"...), or "" for none."""
    m = KEY.match(line)
    return next(k for k, _ in _KEYS if m.group(k) is not None) if m else ""


def starts_field(line: str) -> bool:
    return bool(key_of(line))


def read_stat_blocks(text: Any) -> list[Block]:
    """Every block of a paste, read field by field (PasteError for what is not text or is too much)."""
    text = checked_text(text)
    return [read_block(block) for _, block in split_blocks(text, key_of)]


def read_block(text: str) -> Block:
    """One block: its fields, its unread parts, its problem when no creature is in it."""
    fields: list[Field] = []
    unread: list[str] = []
    first, _, _ = text.partition("\n")
    head, sep, rest = first.partition(":")
    body_start = 0
    if not starts_field(first.strip()):
        if sep and starts_field(rest.strip()):
            fields += name_fields(head, 0)
            body_start = len(head) + 1
        else:
            fields += name_fields(first, 0)
            body_start = len(first) + 1
        if not fields:
            unread.append(first.strip())
    keyed: list[tuple[str, int, int, str, str]] = []  # (key, start, end, part text, value)
    for start, end, part in _parts(text, body_start):
        m = KEY.match(part)
        if m:
            key = key_of(part)
            if any(k == key for k, *_ in keyed):
                unread.append(f"{part} (a second {m.group(key)})")
            else:
                keyed.append((key, start, end, part, m.group("val").strip()))
        elif keyed and keyed[-1][0] == "att" and NEXT_ATTACK.match(part):
            key, s, _, whole, val = keyed[-1]
            keyed[-1] = (key, s, end, text[s:end], text[s:end][len(whole) - len(val):])
        else:
            unread.append(part)
    for key, start, end, part, val in keyed:
        got = _READERS[key](val, part, start, end)
        fields += got[0]
        unread += got[1]
    hd = next((f for f in fields if f.key == "stats.hd" and not f.problem), None)
    fields = _with_bonus(fields, hd)
    if not any(f.key in ("ac", "stats.hd", "hp", "weapons") for f in fields):
        return Block(text, tuple(fields), tuple(unread), "no AC, HD, hit points or attacks: not a stat block")
    if not any(f.key == "hp" for f in fields):
        fields.append(Field("hp", "HP", None, "", problem="no hit points and no Hit Dice to roll them from"))
    return Block(text, tuple(fields), tuple(unread), hp_dice=_hp_dice(fields))


def _parts(text: str, start: int):
    """The body's parts: a line that begins with a field parted at its commas, any other line (a
    description, a special ability) whole."""
    pos = start
    for line in text[start:].split("\n"):
        if (key_of(line.strip()) and key_of(line.strip()) != "undead") or NEXT_ATTACK.match(line.strip()):
            yield from parts(line, pos)
        elif line.strip():
            lead = len(line) - len(line.lstrip())
            yield pos + lead, pos + len(line.rstrip()), line.strip()
        pos += len(line) + 1


def _field(key: str, label: str, value: Any, part: str, start: int, end: int, problem: str = "",
           note: bool = False) -> Field:
    return Field(key, label, None if problem else value, part, start, end, problem, note)


def _ac(val: str, part: str, s: int, e: int) -> tuple[list[Field], list[str]]:
    m = re.match(r"^(?P<d>[+-]?\d[\d,]*)?\s*(?:\[\s*(?P<a>[+-]?\d[\d,]*)\s*\])?\s*(?P<rest>.*)$", val, re.S)
    if not m or (m.group("d") is None and m.group("a") is None):
        return [_field("ac", "AC", None, part, s, e, f'"{val[:40]}" is not an armour class (AC 6 [13])')], []
    if m.group("a") is not None:
        ac = int(m.group("a").replace(",", ""))
        problem = ranged("AC", ac, L.AC)
    else:
        ac = 19 - int(m.group("d").replace(",", ""))  # descending AC only: ascending is 19 − it
        problem = ranged("AC", ac, L.AC) and f"descending AC {m.group('d')} is ascending {ac:,}, out of range " \
                                            f"({L.AC[0]} to {L.AC[1]})"
    return [_field("ac", "AC", ac, part, s, e, problem)], _rest(m.group("rest"))


def _rest(text: str) -> list[str]:
    return [text.strip()] if text.strip() else []


def _hd(val: str, part: str, s: int, e: int) -> tuple[list[Field], list[str]]:
    m = re.match(r"^(?:(?P<num>\d+)\s*/\s*(?P<den>\d+)|(?P<n>\d+)\s*(?:(?P<sign>[+-])\s*(?P<mod>\d+))?)\s*\**\s*"
                 r"(?:\(\s*(?:(?P<hp>\d[\d,]*)\s*hp|hp\s*(?P<hp2>\d[\d,]*))\s*\))?\s*(?P<rest>.*)$", val, re.I | re.S)
    if not m:
        return [_field("stats.hd", "HD", None, part, s, e, f'"{val[:40]}" is not Hit Dice (HD 2+1 (10hp))')], []
    if m.group("num"):
        hd, dice = 0, "1d4"  # HD 1/2: half a die, rolled as 1d4
    else:
        hd = int(m.group("n"))
        mod = int(m.group("mod") or 0) * (-1 if m.group("sign") == "-" else 1)
        dice = f"{hd}d8" + (f"{mod:+d}" if mod else "") if hd else "1d4"
    out = [_field("stats.hd", "HD", hd, part, s, e, ranged("HD", hd, (0, 30)))]
    hp_text = m.group("hp") or m.group("hp2")
    if hp_text is not None:
        hp = int(hp_text.replace(",", ""))
        out.append(_field("hp", "HP", hp, part, s, e, ranged("HP", hp, L.MAX_HP)))
    elif 1 <= hd <= 100:
        hp = max(1, int(hd * 4.5 + (int(m.group("mod") or 0) * (-1 if m.group("sign") == "-" else 1))))
        out.append(_field("hp", f"HP (average of {dice})", hp, part, s, e, ranged("HP", hp, L.MAX_HP)))
    elif not hd:
        out.append(_field("hp", "HP (average of 1d4)", 2, part, s, e))
    return out, _rest(m.group("rest"))


def _hp(val: str, part: str, s: int, e: int) -> tuple[list[Field], list[str]]:
    m = re.match(r"^(?P<hp>-?\d[\d,]*)\b\s*(?P<rest>.*)$", val, re.S)
    if not m:
        return [_field("hp", "HP", None, part, s, e, f'"{val[:40]}" is not a number of hit points')], []
    hp = int(m.group("hp").replace(",", ""))
    return [_field("hp", "HP", hp, part, s, e, ranged("HP", hp, L.MAX_HP))], _rest(m.group("rest"))


def _att(val: str, part: str, s: int, e: int) -> tuple[list[Field], list[str]]:
    weapons, problems, notes = [], [], []
    items = [i.strip() for i in re.split(r",|\bor\b|\band\b|;", re.sub(r"\([^)]*\)", _hidden, val)) if i.strip()]
    items = [i.replace("\0", ",").replace("\1", "or").replace("\2", "and").replace("\3", ";") for i in items]
    for item in items:
        m = ITEM.match(item)
        if not m:
            problems.append(f'"{item[:40]}" is not an attack (2 × claw (1d3))')
            continue
        name, inner = m.group("name").strip(), (m.group("inner") or "").strip()
        d = DAMAGE.match(inner)
        if not d:
            problems.append(f'{name}: "{inner[:40]}" is not dice notation (write the damage first, as in '
                            f'"1d3 + {inner[:20]}" or "0 + {inner[:20]}")' if inner else
                            f"{name}: no damage dice (1 × {name} (1d6))")
            continue
        rider = re.sub(r"^(?:\+|plus\b)\s*", "", d.group(2).strip())
        shown = f"{name} ({rider})" if rider and len(name) + len(rider) + 3 <= L.WEAPON_NAME else name
        w, problem = weapon(shown, d.group(1), int(m.group("n") or 1))
        if rider:
            notes.append(f"{w['name'].split(' (')[0]}: {rider}")
        weapons.append(w)
        if problem:
            problems.append(problem)
    if len(weapons) > L.MAX_WEAPONS:
        problems.append(f"{len(weapons)} attacks: at most {L.MAX_WEAPONS}")
    if not weapons and not problems:
        problems.append("no attack read (Att 1 × weapon (1d6))")
    out = [_field("weapons", "Attacks", weapons, part, s, e, "; ".join(problems))]
    if notes and not problems:
        out.append(Field("notes", "Riders", "; ".join(notes), part, s, e))
    return out, []


def _hidden(m: re.Match) -> str:
    """A bracket with its separators masked, so that a rider's "or" parts no attacks."""
    return re.sub(r"\bor\b", "\1", re.sub(r"\band\b", "\2", m.group(0))).replace(",", "\0").replace(";", "\3")


def _thac0(val: str, part: str, s: int, e: int) -> tuple[list[Field], list[str]]:
    m = re.match(r"^(?P<t>-?\d+)?\s*(?:\[\s*(?P<b>[+-]?\d+)\s*\])?\s*(?P<rest>.*)$", val, re.S)
    if not m or (m.group("t") is None and m.group("b") is None):
        return [_field("to_hit", "Attack bonus", None, part, s, e, f'"{val[:40]}" is not a THAC0 (THAC0 19 [0])')], []
    bonus = int(m.group("b")) if m.group("b") is not None else 19 - int(m.group("t"))
    return [_field("to_hit", "Attack bonus", bonus, part, s, e, ranged("to-hit", bonus, L.TO_HIT))], \
        _rest(m.group("rest"))


def _mv(val: str, part: str, s: int, e: int) -> tuple[list[Field], list[str]]:
    m = re.match(r"^(?P<ft>\d[\d,]*)\s*(?:'|’|ft\.?|feet)?", val)
    if not m:
        why = f'"{val[:40]}" is not a movement (MV 120\' (40\'))'
        return [_field("stats.speed", "Speed", None, part, s, e, why)], []
    ft = int(m.group("ft").replace(",", ""))
    more = re.sub(r"^\s*\(\s*\d+\s*(?:'|’|ft\.?)?\s*\)", "", val[m.end():]).strip()
    return [_field("stats.speed", "Speed (ft)", ft, part, s, e, ranged("speed", ft, (0, 480)), note=bool(more))], []


def _number(key: str, label: str, bounds: tuple[int, int]) -> Callable:
    def read(val: str, part: str, s: int, e: int) -> tuple[list[Field], list[str]]:
        m = re.match(r"^(?P<n>\d[\d,]*)\b", val)
        if not m:
            return [_field(key, label, None, part, s, e, f'"{val[:40]}" is not a number', note=True)], []
        n = int(m.group("n").replace(",", ""))
        return [_field(key, label, n, part, s, e, ranged(label, n, bounds), note=True)], []
    return read


def _text(key: str, label: str) -> Callable:
    def read(val: str, part: str, s: int, e: int) -> tuple[list[Field], list[str]]:
        problem = "" if val and len(val) <= L.STAT_TEXT else f"1 to {L.STAT_TEXT} characters"
        return [_field(key, label, val, part, s, e, problem, note=True)], []
    return read


def _undead(val: str, part: str, s: int, e: int) -> tuple[list[Field], list[str]]:
    """OSE-TURN-1: a block's "Undead" line (the books' tag of skeletons, zombies, ghouls...) makes the
    creature one a Warpriest turns; the line itself is kept in the notes."""
    return [_field("stats.undead", "Undead", True, part, s, e, note=True)], []


_READERS: dict[str, Callable] = {
    "ac": _ac, "hd": _hd, "hp": _hp, "att": _att, "thac0": _thac0, "mv": _mv,
    "sv": _text("stats.saves", "Saves"), "ml": _number("stats.morale", "Morale", (2, 12)),
    "al": _text("stats.alignment", "Alignment"), "xp": _number("stats.xp", "XP", (0, 10**6)),
    "na": _text("stats.appearing", "Number appearing"), "tt": _text("stats.treasure", "Treasure"),
    "undead": _undead,
}


def _with_bonus(fields: list[Field], hd: Field | None) -> list[Field]:
    """Every attack with the block's attack bonus: THAC0's, else the Hit Dice's row of the attack table."""
    bonus = next((f for f in fields if f.key == "to_hit"), None)
    if bonus is None and hd is not None:
        plus = bool(re.search(r"\d\s*\+\s*\d", hd.text))
        to_hit = next(b for top, b in _ATTACK + ((10**6, 14),) if hd.value + plus / 2 <= top)
        fields.append(Field("to_hit", "Attack bonus (from HD)", to_hit, hd.text, hd.start, hd.end))
        bonus = fields[-1]
    if bonus is None or bonus.problem:
        return fields
    return [Field(f.key, f.label, [{**w, "to_hit": bonus.value} for w in f.value], f.text, f.start, f.end)
            if f.key == "weapons" and not f.problem else f for f in fields]


def _hp_dice(fields: list[Field]) -> str:
    hd = next((f for f in fields if f.key == "stats.hd" and not f.problem), None)
    if hd is None:
        return ""
    m = re.search(r"(\d+)\s*([+-])\s*(\d+)", hd.text)
    if hd.value == 0:
        return "1d4"
    return f"{hd.value}d8" + (f"{m.group(2)}{m.group(3)}" if m else "") if hd.value <= 100 else ""
