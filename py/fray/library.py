"""The referee's library of saved encounters: entries, the trash, backups and imports.

An entry is one record: its id, its name, system, round, a one-line summary,
when it was made and last changed, where it came from, and the encounter's
save-file document as text (the same JSON as a file, so an entry is never a
mix of two saves). Deleting moves an entry to the trash, from which it can be
restored for `TRASH_DAYS` days. A backup is one file holding every entry and
the roster; importing one (or a single encounter file) adds entries under new
ids and never overwrites one. A record that does not read is set aside (kept,
marked broken, with the problem), never deleted. Pure: no browser imports;
the page keeps these records in IndexedDB (ui/dom/store.py).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from .engine import storage
from .engine.session import Session

TRASH_DAYS = 7
DAY_MS = 24 * 3600 * 1000
BACKUP_KIND = "backup"
ORIGINS = ("new", "link", "file", "import", "copy", "migrated", "example")
MAX_NAME = 80
RECORD_FIELDS = ("id", "name", "system", "profile", "round", "summary", "steps", "created", "changed", "origin",
                 "deleted", "broken", "doc")

Record = dict[str, Any]
# A map image's key as a document names it (engine/map_image.py); a document kept as text inside another
# (a broken entry's) has its quotes escaped.
IMAGE_KEY = re.compile(r'\\?"key\\?"\s*:\s*\\?"([0-9a-f]{64})\\?"')


class BackupError(ValueError):
    """A file that is neither a Fray backup nor a Fray encounter; the message says what it is."""


def new_id(existing: Iterable[str], now_ms: int) -> str:
    """An entry id not in `existing`, from the time (ids sort by creation)."""
    taken = set(existing)
    base = f"e{now_ms:x}"
    n, out = 0, base
    while out in taken:
        n += 1
        out = f"{base}-{n}"
    return out


def describe(session: Session, status: str) -> dict[str, Any]:
    """An entry's metadata from its session: name, system, the round or segment, a one-line summary.
    `status` is the header's line for the state ("Round 2 · Brak's turn"); its first part is the round."""
    enc = session.encounter
    state = session.state
    standing = sum(1 for c in state.combatants if not c.is_down)
    sides = ", ".join(f"{s.name} {sum(1 for c in state.combatants if c.side == s.id and not c.is_down)}"
                      for s in state.sides)
    summary = f"{standing} of {len(state.combatants)} standing ({sides}) · {len(session.steps)} steps"
    if state.outcome:
        summary = f"{state.outcome} · {summary}"
    return {"name": enc.name[:MAX_NAME], "system": enc.system, "profile": enc.profile,
            "round": (status.split(" · ")[0] if status else f"Round {state.round}")[:60],
            "summary": summary[:200], "steps": len(session.steps)}


def make_record(rid: str, doc_text: str, meta: dict[str, Any], now_ms: int, origin: str = "new") -> Record:
    return {"id": rid, **meta, "created": now_ms, "changed": now_ms, "origin": origin, "deleted": None,
            "broken": "", "doc": doc_text}


def updated(record: Record, doc_text: str, meta: dict[str, Any], now_ms: int) -> Record:
    """The record after an autosave: its document and metadata replaced together."""
    return {**record, **meta, "changed": now_ms, "doc": doc_text, "broken": ""}


def check_record(raw: Any, key: str = "?") -> Record:
    """A stored record as a record; one that is not (a damaged store) comes back set aside, with why."""
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not raw["id"]:
        return {"id": f"broken-{key}", "name": "Unreadable entry", "system": "", "profile": "", "round": "",
                "summary": "", "steps": 0, "created": 0, "changed": 0, "origin": "new", "deleted": None,
                "broken": "the stored entry is not a Fray library record", "doc": _as_text(raw)}
    rec = {k: raw.get(k) for k in RECORD_FIELDS}
    rec["name"] = str(rec["name"] or "Unnamed encounter")[:MAX_NAME]
    for k in ("system", "profile", "round", "summary", "broken", "origin"):
        rec[k] = str(rec[k] or "")
    for k in ("steps", "created", "changed"):
        rec[k] = rec[k] if isinstance(rec[k], (int, float)) and not isinstance(rec[k], bool) else 0
    if not isinstance(rec["deleted"], (int, float)) or isinstance(rec["deleted"], bool):
        rec["deleted"] = None
    if not isinstance(rec["doc"], str):
        rec["doc"] = _as_text(rec["doc"])
        rec["broken"] = rec["broken"] or "the entry holds no encounter document"
    elif not rec["broken"]:
        try:
            json.loads(rec["doc"])
        except ValueError:  # cut off or damaged: seen at once, without replaying every fight
            rec["broken"] = "the saved encounter is cut off or damaged (not valid JSON)"
    return rec


def _as_text(value: Any) -> str:
    try:
        return value if isinstance(value, str) else json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def set_aside(record: Record, problem: str) -> Record:
    """A record whose document does not load: kept as it is, marked broken (shown, never deleted)."""
    return {**record, "broken": problem[:500] or "the encounter could not be read"}


def open_record(record: Record) -> storage.Loaded:
    """The record's encounter, or LoadError (the caller sets the record aside)."""
    if record.get("broken") and not record.get("doc"):
        raise storage.LoadError([record["broken"]])
    return storage.loads(record["doc"])


# --- the list ---------------------------------------------------------------------------------

def shown(records: Iterable[Record]) -> list[Record]:
    """The library's list: entries not in the trash, the last changed first."""
    return sorted((r for r in records if r.get("deleted") is None), key=lambda r: (-r["changed"], r["id"]))


def trash(records: Iterable[Record], now_ms: int) -> list[Record]:
    """The trash still restorable, the last deleted first."""
    return sorted((r for r in records if r.get("deleted") is not None and not expired(r, now_ms)),
                  key=lambda r: (-r["deleted"], r["id"]))


def image_keys(records: Iterable[Record]) -> set[str]:
    """The map images (by key) the entries name, the trash's included (an entry restored keeps its image):
    the images the browser must keep."""
    return {key for r in records if isinstance(r.get("doc"), str) for key in IMAGE_KEY.findall(r["doc"])}


def expired(record: Record, now_ms: int) -> bool:
    """In the trash for longer than TRASH_DAYS days (then it may be purged)."""
    return record.get("deleted") is not None and now_ms - record["deleted"] > TRASH_DAYS * DAY_MS


def deleted(record: Record, now_ms: int) -> Record:
    return {**record, "deleted": now_ms}


def restored(record: Record, now_ms: int) -> Record:
    return {**record, "deleted": None, "changed": now_ms}


def renamed(record: Record, name: str, now_ms: int) -> Record:
    """The record with a new name, in its list line and in its document (so a file saved later carries it)."""
    name = " ".join(name.split())[:MAX_NAME]
    if not name:
        raise ValueError("a name is needed")
    doc = record["doc"]
    try:
        data = json.loads(doc)
        data["encounter"]["name"] = name
        doc = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, KeyError, TypeError):
        pass  # a broken document keeps its text; the list line still changes
    return {**record, "name": name, "doc": doc, "changed": now_ms}


def copy_of(record: Record, rid: str, now_ms: int) -> Record:
    """A duplicate under a new id: its own document, named "... (copy)"."""
    out = renamed({**record}, f"{record['name']} (copy)"[:MAX_NAME], now_ms)
    return {**out, "id": rid, "created": now_ms, "changed": now_ms, "origin": "copy", "deleted": None}


def when(ms: float, now_ms: float) -> str:
    """A last-changed time as the list shows it: "just now", "5 min ago", "3 h ago", "2 days ago"."""
    gone = max(0, now_ms - ms) / 1000
    if gone < 60:
        return "just now"
    if gone < 3600:
        return f"{int(gone // 60)} min ago"
    if gone < 86400:
        return f"{int(gone // 3600)} h ago"
    days = int(gone // 86400)
    return "1 day ago" if days == 1 else f"{days} days ago"


# --- backups and imports ------------------------------------------------------------------------

def backup(records: Iterable[Record], roster_entries: list[dict[str, Any]], now_ms: int) -> dict[str, Any]:
    """The whole library (trash included, broken entries as they are) and the roster, as one document."""
    entries = []
    for r in sorted(records, key=lambda r: r["id"]):
        item = {k: r[k] for k in RECORD_FIELDS if k != "doc"}
        try:
            item["document"] = json.loads(r["doc"])
        except ValueError:
            item["document_text"] = r["doc"]  # a broken entry's text, byte for byte
        entries.append(item)
    return {"format": 1, "app": "fray", "kind": BACKUP_KIND, "exported": now_ms, "entries": entries,
            "roster": list(roster_entries)}


def dump_backup(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1)


@dataclass
class Incoming:
    """What a file to import holds: entries to add (each checked), roster entries, and what was wrong."""

    records: list[Record] = field(default_factory=list)
    roster: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    is_backup: bool = False


def read_import(text: str | bytes, name: str = "file") -> Incoming:
    """Parse a backup or a single encounter file into records (not yet checked: see `check_incoming`).
    Raises BackupError for anything else (another program's JSON, not JSON at all)."""
    try:
        data = storage.parse_json(text)
    except storage.LoadError as exc:
        raise BackupError(f"{name} is not a Fray backup or encounter: {exc}") from None
    if not isinstance(data, dict) or data.get("app", "fray") != "fray":
        raise BackupError(f"{name} is not a Fray backup or encounter file (it is some other program's JSON)")
    if data.get("kind") == BACKUP_KIND:
        if data.get("format") != 1 or not isinstance(data.get("entries"), list):
            raise BackupError(f"{name}: a Fray backup of a format this version does not read")
        out = Incoming(is_backup=True)
        for i, item in enumerate(data["entries"]):
            out.records.append(_incoming_record(item, i))
        roster = data.get("roster", [])
        out.roster = roster if isinstance(roster, list) else []
        if not isinstance(roster, list):
            out.problems.append("roster: expected a list of roster entries")
        return out
    if data.get("kind") == "roster":
        raise BackupError(f"{name} is a roster file: import it from the roster in Setup")
    if "encounter" in data:
        return Incoming(records=[_incoming_record({"document": data, "origin": "file"}, 0)])
    raise BackupError(f"{name} is not a Fray backup or encounter file (no entries, no encounter)")


def _incoming_record(item: Any, i: int) -> Record:
    if not isinstance(item, dict):
        return check_record({"id": f"import-{i}", "name": f"Entry {i + 1}", "doc": _as_text(item),
                             "broken": f"entries[{i}]: not an entry"})
    if "document" in item:
        doc = json.dumps(item["document"], ensure_ascii=False, separators=(",", ":"))
    else:
        doc = item.get("document_text", "")
    rec = check_record({**{k: item.get(k) for k in RECORD_FIELDS}, "id": str(item.get("id") or f"import-{i}"),
                        "doc": doc if isinstance(doc, str) else _as_text(doc)})
    return rec


def check_incoming(rec: Record, index: int) -> tuple[Record, str]:
    """One incoming record, loaded to check it: (record with fresh metadata, "") or (set aside, the problem)."""
    if rec.get("broken"):
        return rec, f"entries[{index}] ({rec['name']}): {rec['broken']}"
    try:
        loaded = storage.loads(rec["doc"])
    except storage.LoadError as exc:
        problem = f"entries[{index}] ({rec['name']}): {exc}"
        return set_aside(rec, str(exc)), problem
    enc = loaded.session.encounter
    out = {**rec, "system": enc.system, "profile": enc.profile, "steps": len(loaded.session.steps)}
    if not rec.get("name") or rec["name"] == "Unnamed encounter":
        out["name"] = enc.name[:MAX_NAME]
    return out, ""


def adopt_incoming(rec: Record, existing: set[str], now_ms: int, origin: str = "import") -> Record:
    """An incoming record under an id no entry has (an import never overwrites)."""
    rid = rec["id"] if rec["id"] not in existing and not rec["id"].startswith(("broken-", "import-")) \
        else new_id(existing, now_ms)
    out = {**rec, "id": rid}
    if not out.get("changed"):
        out["changed"] = now_ms
    if not out.get("created"):
        out["created"] = now_ms
    if not out.get("origin") or out["origin"] not in ORIGINS:
        out["origin"] = origin
    return out


def same_document(a: Record, b: Record) -> bool:
    """Two records that hold the same encounter, step for step (an opened link seen before)."""
    try:
        return json.loads(a["doc"]) == json.loads(b["doc"])
    except ValueError:
        return a["doc"] == b["doc"]
