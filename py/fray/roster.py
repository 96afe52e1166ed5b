"""The roster: combatants kept for reuse, numbered copies, the party, and the roster file.

A roster entry is a combatant in the save-file form (without its id, side or
place, which belong to an encounter), with a name, the system it was made for
("" for any), and whether it is a player character of the party. Adding an
entry to an encounter copies it, so editing the roster later changes no
encounter; a PC keeps one combatant id (`cid`) in every encounter, which is
its identity. docs/ROSTER.md documents the file format. Pure: no browser
imports.
"""
from __future__ import annotations

import copy
import json
import re
from typing import Any, Iterable

from . import placement, presets
from .engine import storage

KIND = "roster"
MAX_ENTRIES = 2000
MAX_COPIES = 40
KEPT = ("name", "hp", "max_hp", "ac", "weapons", "hands", "inventory", "conditions", "stats", "notes")
ENTRY_FIELDS = ("id", "name", "system", "pc", "party", "cid", "combatant", "changed", "source", "tags")
MAX_TAGS = 12
TAG_TEXT = 24
SOURCE_TEXT = 200

Entry = dict[str, Any]


class RosterError(ValueError):
    """A roster file or entry that cannot be read; `problems` lists each with its path."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__(problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))


def stem(name: str) -> str:
    """A copy's base name: "Goblin 3" -> "Goblin"."""
    return re.sub(r"\s+\d+$", "", name.strip()) or name.strip()


def from_combatant(c: dict[str, Any], system: str, rid: str, now_ms: int, is_pc: bool = False) -> Entry:
    """A roster entry from a combatant of the editor's draft (its save-file form)."""
    body = {k: copy.deepcopy(c[k]) for k in KEPT if k in c}
    pc = bool(is_pc or body.get("stats", {}).get("pc"))
    if not pc:
        body["name"] = stem(body.get("name", "Combatant"))
    body["hp"] = body.get("max_hp", body.get("hp", 1))  # a fresh copy starts unhurt
    body["conditions"] = []
    return {"id": rid, "name": body.get("name", "Combatant"), "system": system, "pc": pc, "party": pc,
            "cid": c.get("id", "") if pc else "", "combatant": body, "changed": now_ms}


def same(a: Entry, b: Entry) -> bool:
    """The same roster entry (saving it again updates it): a PC by its id, a monster by name and system."""
    if a["pc"] and b["pc"] and a["cid"] and a["cid"] == b["cid"]:
        return True
    return not a["pc"] and not b["pc"] and a["name"].casefold() == b["name"].casefold() and a["system"] == b["system"]


def saved(entries: list[Entry], entry: Entry) -> tuple[list[Entry], bool]:
    """The roster with `entry` saved: an entry it matches is updated (keeping its id), else it is added.
    Returns (entries, updated)."""
    for i, e in enumerate(entries):
        if same(e, entry):
            out = list(entries)
            out[i] = {**entry, "id": e["id"]}
            return out, True
    return list(entries) + [entry], False


def matches(entry: Entry, text: str) -> bool:
    """Whether every word of `text` (any case) is in the entry's name or one of its tags:
    "gob" finds the Goblin, "undead" the Skeleton, "giant rat" and "rat vermin" the Giant rat."""
    name = entry["name"].casefold()
    tags = [str(t).casefold() for t in entry.get("tags", ())]
    return all(w in name or any(w in t for t in tags) for w in text.casefold().split())


def search(entries: Iterable[Entry], text: str = "", system: str = "") -> list[Entry]:
    """Entries that match `text` by name or tag, of `system` or made for any; the party first, then by name."""
    found = [e for e in entries if matches(e, text) and (not system or e["system"] in ("", system))]
    return sorted(found, key=lambda e: (not e["party"], e["name"].casefold(), e["id"]))


def party(entries: Iterable[Entry], system: str = "") -> list[Entry]:
    return [e for e in search(entries, "", system) if e["pc"] and e["party"]]


# --- into an encounter -------------------------------------------------------------------------

def numbered_names(doc: dict[str, Any], base: str, n: int) -> list[str]:
    """The names of n more copies of `base`: "Goblin 1".."Goblin 4", after any numbers already used."""
    used = [int(m.group(1)) for c in doc.get("combatants", [])
            if (m := re.fullmatch(re.escape(base) + r"\s+(\d+)", c.get("name", "")))]
    if any(c.get("name") == base for c in doc.get("combatants", [])):
        used.append(1)
    start = max(used, default=0) + 1
    return [f"{base} {start + i}" for i in range(n)]


def add_copies(doc: dict[str, Any], entry: Entry, n: int, side: str) -> dict[str, Any]:
    """The draft with n numbered copies of a monster (or the one PC, under its own id) on `side`."""
    if not 1 <= n <= MAX_COPIES:
        raise ValueError(f"between 1 and {MAX_COPIES} copies")
    new = copy.deepcopy(doc)
    if entry["pc"]:
        return _add_pc(new, entry, side)
    names = numbered_names(new, entry["combatant"].get("name", entry["name"]), n) if n > 1 or _has(new, entry) \
        else [entry["combatant"].get("name", entry["name"])]
    for name in names:
        ids = {c["id"] for c in new["combatants"]}
        c = _copy(entry, presets.next_id(ids, stem(name)), side)
        c["name"] = name
        new["combatants"].append(placement.placed(new, c))
    return new


def add_party(doc: dict[str, Any], entries: Iterable[Entry], side: str) -> tuple[dict[str, Any], list[str]]:
    """The draft with every party PC not already in it; returns (draft, names added)."""
    new = copy.deepcopy(doc)
    added = []
    for e in entries:
        if e["pc"] and e["party"] and not any(c["id"] == e["cid"] for c in new["combatants"]):
            new = _add_pc(new, e, side)
            added.append(e["name"])
    return new, added


def _has(doc: dict[str, Any], entry: Entry) -> bool:
    base = entry["combatant"].get("name", entry["name"])
    return any(stem(c.get("name", "")) == base for c in doc.get("combatants", []))


def _add_pc(new: dict[str, Any], entry: Entry, side: str) -> dict[str, Any]:
    ids = {c["id"] for c in new["combatants"]}
    cid = entry["cid"] if entry["cid"] and entry["cid"] not in ids else presets.next_id(ids, entry["name"])
    new["combatants"].append(placement.placed(new, _copy(entry, cid, side)))
    return new


def _copy(entry: Entry, cid: str, side: str) -> dict[str, Any]:
    c = copy.deepcopy(entry["combatant"])
    c.update(id=cid, side=side)
    c.setdefault("conditions", [])
    c.setdefault("notes", "")
    return c


# --- the file ----------------------------------------------------------------------------------

def dump(entries: Iterable[Entry]) -> str:
    return json.dumps({"format": 1, "app": "fray", "kind": KIND, "entries": list(entries)}, ensure_ascii=False,
                      indent=1)


def check_entry(raw: Any, path: str) -> tuple[Entry | None, list[str]]:
    """One roster entry checked field by field (its combatant as a file's would be); (entry, []) or (None, why)."""
    problems: list[str] = []
    if not isinstance(raw, dict):
        return None, [f"{path}: expected a roster entry object"]
    for key in raw:
        if key not in ENTRY_FIELDS:
            problems.append(f"{path}.{key}: not a field of a roster entry")
    rid, name, system = raw.get("id"), raw.get("name"), raw.get("system", "")
    if not isinstance(rid, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{1,60}", rid):
        problems.append(f"{path}.id: expected an id of letters, digits, _ . -")
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        problems.append(f"{path}.name: expected a name of 1 to 80 characters")
    if not isinstance(system, str) or (system and system not in _systems()):
        problems.append(f"{path}.system: {system!r} is not a system Fray knows")
        system = ""
    for flag in ("pc", "party"):
        if not isinstance(raw.get(flag, False), bool):
            problems.append(f"{path}.{flag}: expected true or false")
    cid = raw.get("cid", "")
    if not isinstance(cid, str) or (cid and not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", cid)):
        problems.append(f"{path}.cid: expected a combatant id of letters, digits, _ . -")
    body = raw.get("combatant")
    if not isinstance(body, dict):
        problems.append(f"{path}.combatant: expected a combatant object")
    else:
        body = _upgraded(body, system)
        _check_combatant(body, system or _systems()[0], f"{path}.combatant", problems)
    changed = raw.get("changed", 0)
    if isinstance(changed, bool) or not isinstance(changed, (int, float)):
        problems.append(f"{path}.changed: expected a time in milliseconds")
    source, tags = raw.get("source", ""), raw.get("tags", [])
    if not isinstance(source, str) or len(source) > SOURCE_TEXT:
        problems.append(f"{path}.source: expected text of at most {SOURCE_TEXT} characters")
    if not isinstance(tags, list) or len(tags) > MAX_TAGS or not all(
            isinstance(t, str) and re.fullmatch(r"\S{1,%d}" % TAG_TEXT, t) for t in tags):
        problems.append(f"{path}.tags: expected a list of at most {MAX_TAGS} words of 1 to {TAG_TEXT} characters")
    if problems:
        return None, problems
    entry = {"id": rid, "name": name.strip(), "system": system, "pc": raw.get("pc", False),
             "party": raw.get("party", False), "cid": cid, "combatant": copy.deepcopy(body), "changed": changed}
    if "source" in raw:
        entry["source"] = source
    if "tags" in raw:
        entry["tags"] = list(tags)
    return entry, []


def _upgraded(body: dict[str, Any], system: str) -> dict[str, Any]:
    """The combatant in today's words: its system's `upgrade` hook, as a save file's (an OSE
    caster's slot count saved to the roster before OSE-SPELL-5 becomes its memory list)."""
    from .rules import RULESETS
    if system not in RULESETS:
        return body
    doc = {"encounter": {"system": system, "combatants": [body]}}
    try:
        out = RULESETS[system].upgrade(doc)["encounter"]["combatants"][0]
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return body
    return out if isinstance(out, dict) else body


def _check_combatant(body: dict[str, Any], system: str, path: str, problems: list[str]) -> None:
    """The combatant as the file format reads it: in a one-combatant encounter of its system."""
    for key in ("id", "side", "band", "square"):
        if key in body:
            problems.append(f"{path}.{key}: an encounter's field, not a roster entry's")
    c = {k: v for k, v in body.items() if k not in ("id", "side", "band", "square")}
    enc = {"name": "check", "system": system, "sides": [{"id": "s", "name": "S"}],
           "combatants": [{**c, "id": "c", "side": "s"}]}
    found: list[str] = []
    storage.encounter_from_json(enc, found, "x")
    problems.extend(p.replace("x.combatants[0]", path) for p in found)


def _systems() -> tuple[str, ...]:
    from .rules import SYSTEMS
    return tuple(SYSTEMS)


def load(text: str | bytes, name: str = "file") -> tuple[list[Entry], list[str]]:
    """A roster file's entries: (good entries, problems). An entry with problems is left out and named;
    a file that is not a roster raises RosterError."""
    try:
        data = storage.parse_json(text)
    except storage.LoadError as exc:
        raise RosterError([f"{name}: {exc}"]) from None
    if isinstance(data, dict) and data.get("kind") == "backup":
        data = {"format": 1, "app": "fray", "kind": KIND, "entries": data.get("roster", [])}
    if not isinstance(data, dict) or data.get("app", "fray") != "fray" or data.get("kind") != KIND:
        raise RosterError([f"{name} is not a Fray roster file (expected \"kind\": \"roster\")"])
    if data.get("format") != 1:
        raise RosterError([f"{name}: format {data.get('format')!r} is not one this version reads (expected 1)"])
    raw = data.get("entries")
    if not isinstance(raw, list) or len(raw) > MAX_ENTRIES:
        raise RosterError([f"{name}.entries: expected a list of at most {MAX_ENTRIES} entries"])
    good, problems = [], []
    for i, item in enumerate(raw):
        entry, found = check_entry(item, f"entries[{i}]")
        if entry is None:
            problems.extend(found[:5])
        else:
            good.append(entry)
    return good, problems


def merged(entries: list[Entry], incoming: Iterable[Entry], new_id) -> tuple[list[Entry], int]:
    """Incoming entries added without overwriting: an id already used gets a new one from `new_id(taken)`;
    an entry equal to one already there is skipped. Returns (entries, how many were added)."""
    out = list(entries)
    taken = {e["id"] for e in out}
    added = 0
    for e in incoming:
        if any({**o, "id": ""} == {**e, "id": ""} for o in out):
            continue
        if e["id"] in taken:
            e = {**e, "id": new_id(taken)}
        taken.add(e["id"])
        out.append(e)
        added += 1
    return out, added
