"""The quick party: names typed one a line ("Mira: fighter"), read into PCs of the system's classes. Pure.

A first visit has no party saved (issue #53, stop 4). The Setup's quick-party field takes the names, each
with an optional class of the system after a colon (its folder's `creatures` module lists them as `PCS`,
the first being the class of a name given alone). Every line is checked first and each problem is said
with its line; nothing is added until all are right. ui/controllers/roster_ui.py adds the PCs on the
players' side in one edit and saves them to the roster as the party.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Callable

from . import placement, presets, roster
from .engine.limits import COMBATANT_NAME, MAX_COMBATANTS

MAX_LINES = 12
# Other names a referee may write for a class ("wizard" for the magic-user), when the system has that class.
ALIASES = {"wizard": "magic-user", "mage": "magic-user", "magic user": "magic-user", "rogue": "thief",
           "priest": "cleric", "warrior": "fighter"}


@dataclass(frozen=True)
class Member:
    """One PC of the quick party: its name and its class (a key of the system's `PCS`)."""

    name: str
    klass: str


@dataclass(frozen=True)
class LineProblem:
    """Why line `line` (from 1) cannot be read, with what it holds."""

    line: int
    text: str
    why: str

    def __str__(self) -> str:
        return f"Line {self.line}: {self.why}"


def classes(system: str) -> dict[str, dict[str, Any]]:
    """The system's PC classes (class -> combatant body), in its order; none for a system without them."""
    from .rules import SYSTEMS, folder_module
    info = SYSTEMS.get(system)
    if info is None or not info.creatures:
        return {}
    return dict(getattr(folder_module(system, info.creatures), "PCS", {}))


def read(text: str, system: str, room: int = MAX_COMBATANTS) -> tuple[tuple[Member, ...], tuple[LineProblem, ...]]:
    """The members typed in `text` and the problem of each line that cannot be read (then no member is
    meant to be added). `room`: how many more combatants the encounter holds."""
    known = classes(system)
    lines = text.rstrip().split("\n")
    lines = lines[next((i for i, ln in enumerate(lines) if ln.strip()), len(lines)):]  # blank lines at the top
    if not lines:
        return (), (LineProblem(1, "", "write one name a line, e.g. “Mira: fighter”."),)
    members: list[Member] = []
    problems: list[LineProblem] = []
    seen: dict[str, int] = {}
    for n, raw in enumerate(lines, 1):
        if n > MAX_LINES:
            problems.append(LineProblem(n, raw.strip()[:40], f"at most {MAX_LINES} PCs at once: add the others "
                                                           "in a second go."))
            continue
        why, member = _line(raw, known, system, seen)
        if why:
            problems.append(LineProblem(n, raw.strip()[:40], why))
        elif member is not None:
            members.append(member)
            seen[member.name.casefold()] = n
    if not problems and len(members) > room:
        problems.append(LineProblem(len(lines), "", f"the encounter has room for {room} more "
                                                    f"(at most {MAX_COMBATANTS} combatants)."))
    return (tuple(members) if not problems else ()), tuple(problems)


def _line(raw: str, known: dict[str, Any], system: str, seen: dict[str, int]) -> tuple[str, Member | None]:
    name, _, klass = raw.partition(":")
    name, klass = " ".join(name.split()), " ".join(klass.split()).casefold()
    if not raw.strip():
        return "empty: write a name, or remove the line.", None
    if not name:
        return "no name before the colon.", None
    if len(name) > COMBATANT_NAME:
        return f"the name has {len(name)} characters, at most {COMBATANT_NAME}.", None
    if name.casefold() in seen:
        return f"“{name}” is already line {seen[name.casefold()]}: give each PC a name of its own.", None
    if not known:
        return "this system has no classes to start a PC from.", None
    klass = ALIASES.get(klass, klass) if klass not in known else klass
    if klass and klass not in known:
        return f"no class “{raw.partition(':')[2].strip()[:30]}” here: {', '.join(known)}.", None
    return "", Member(name, klass or next(iter(known)))


def add(doc: dict[str, Any], members: tuple[Member, ...], side: str, system: str, rid: Callable[[int], str],
        now_ms: int) -> tuple[dict[str, Any], list[roster.Entry]]:
    """The draft with the members added as PCs on `side` (each placed as setup places anyone), and their
    roster entries (in the party, made for `system`; `rid(i)` names the i-th)."""
    known = classes(system)
    new = copy.deepcopy(doc)
    entries = []
    for i, m in enumerate(members):
        c = copy.deepcopy(known[m.klass])
        c.pop("tags", None)
        c.update(name=m.name, id=presets.next_id({x["id"] for x in new["combatants"]}, m.name), side=side)
        c["notes"] = f"{c['notes']} {m.klass.capitalize()}, from the quick party.".strip()
        new["combatants"].append(placement.placed(new, c))
        entries.append(roster.from_combatant(c, system, rid(i), now_ms, True))
    return new, entries
