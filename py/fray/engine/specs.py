"""A system's settings and per-combatant stats: `Setting`, `StatSpec`, and the checks a value must pass.

The loader (engine/encounter_io.py) reads an encounter's settings and stats
with `read_settings` and `read_stats`; a referee's `SetStat` (engine/referee.py)
is held to the same limits through `stat_problems`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .commands import key_text as _key, kind_of as _kind
from .dice import DiceError, DiceExpr
from . import limits as L


@dataclass(frozen=True)
class Setting:
    """A referee setting: every RULES.md DEFAULT is one, saved with the encounter."""

    key: str
    label: str
    default: Any
    kind: str = "int"  # "int" | "bool" | "choice" | "text" | "table"
    choices: tuple[str, ...] = ()
    rule: str = ""
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None


# Settings every system has, after its own (Ruleset.settings).
TABLE_ODDS = ("nobody", "the players' side", "every side")
CORE_SETTINGS: tuple[Setting, ...] = (
    Setting("table_odds", "Table display: odds for", "nobody", kind="choice", choices=TABLE_ODDS,
            rule="CORE-ODDS-1", help="The odds of the options of whoever acts now, on the players' table "
                                     "display, for these sides' combatants."),
)


@dataclass(frozen=True)
class StatSpec:
    """A per-combatant number or flag a system needs (OLOG level, OSE PHYS...)."""

    key: str
    label: str
    default: Any = 0
    kind: str = "int"  # "int" | "bool" | "text" | "dice" | "list"
    rule: str = ""
    minimum: int | None = -1000
    maximum: int | None = 1000


def plain(value: Any) -> Any:
    """A value as JSON holds it: tuples as lists, all the way down."""
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def shown(value: Any) -> str:
    """A value as a message quotes it: short text in quotes, anything else by kind
    (a repr of a 5 MB string or a 900-deep list has no place in a message)."""
    if isinstance(value, str) and len(value) <= 40:
        return repr(value)
    if value is None or isinstance(value, bool) or (isinstance(value, int) and abs(value) < 10**12):
        return repr(value)
    return _kind(value)


def read_settings(raw: Any, specs: tuple[Setting, ...], path: str, problems: list[str]) -> dict[str, Any]:
    """An encounter's settings read against the system's specs; each problem appended with its path."""
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
        msg = setting_problem(spec, val)
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


def setting_problem(spec: Setting, val: Any) -> str:
    """Why `val` cannot be the setting, or ""."""
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
            return f"{shown(val)} is not one of {', '.join(repr(c) for c in spec.choices)}"
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


def read_stats(raw: Any, path: str, problems: list[str], specs: dict[str, StatSpec]) -> dict[str, Any]:
    """A combatant's stats read against the system's specs; each problem appended with its path."""
    if not isinstance(raw, dict):
        problems.append(f"{path}: expected an object, got {_kind(raw)}")
        return {}
    if len(raw) > L.MAX_STATS:
        problems.append(f"{path}: too many stats ({len(raw)})")
        return {}
    out: dict[str, Any] = {}
    for key, val in raw.items():
        spec = specs.get(key)
        p = f"{path}.{_key(key)}"
        if spec is None or spec.kind in ("text",):
            if not (val is None or isinstance(val, (bool, int, str))) or (isinstance(val, str) and len(val) > L.STAT_TEXT) \
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
            if not isinstance(val, list) or len(val) > L.STAT_LIST or not all(isinstance(x, str) and len(x) <= L.ITEM_TEXT for x in val):
                problems.append(f"{p}: expected a list of short texts")
                continue
            val = tuple(val)
        out[key] = val
    return out


def stat_problems(key: str, value: Any, specs: tuple[StatSpec, ...], path: str, count: int = 1) -> list[str]:
    """The loader's problems with one stat value (a referee's SetStat is held
    to them), `count` being how many stats the combatant would then have."""
    problems: list[str] = []
    if count > L.MAX_STATS:
        return [f"{path}: too many stats ({count})"]
    by_key = {s.key: s for s in specs}
    if key in by_key:  # a stat of the system's own; any other plain value is the referee's
        read_stats({key: plain(value)}, path, problems, by_key)
    return problems
