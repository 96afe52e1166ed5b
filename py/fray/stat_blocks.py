"""Pasted stat blocks into creatures: the one front over each system's reader, held to the save file's limits.

A system reads its own printed block in `rules/<system>/stat_block.py`,
exported from its package as `read_stat_blocks`; this module finds it through
the registry (`SystemInfo.package`), so nothing here names a system. Each block
it returns is an `engine.stat_block.Block` whose creature has been checked
as a save file's combatant is, every problem set at the field it came from;
`copies` makes the combatants to add (hit points rolled per copy when the
referee asks), `entry` the roster entry, `to_json` the command line's form.
Pure: no browser imports.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import replace
from typing import Any

from . import roster
from .engine import storage
from .engine.dice import SeededDice
from .engine.stat_block import MAX_TEXT, Block, PasteError
from .rules import info

SOURCE = "Pasted stat block"

__all__ = ["Block", "PasteError", "MAX_TEXT", "SOURCE", "read", "reread", "renamed", "copies", "entry", "to_json",
           "accepts"]


def _reader(system: str):
    module = importlib.import_module(info(system).package)
    return getattr(module, "read_stat_blocks", None)


def accepts(system: str) -> bool:
    """Whether the system reads pasted stat blocks."""
    return _reader(system) is not None


def read(system: str, text: Any) -> list[Block]:
    """Every block of a paste read by the system's reader and checked; PasteError for a paste that is not
    stat blocks (not text, too long, too many blocks), naming why."""
    reader = _reader(system)
    if reader is None:
        raise PasteError(f"{info(system).title} reads no stat blocks")
    return [checked(system, b) for b in reader(text)]


def reread(system: str, block: Block, start: int, end: int, text: str) -> Block:
    """The block read again with the part at [start, end) replaced by what the referee typed."""
    found = read(system, block.fixed(start, end, text))
    if not found:
        return replace(block, problem="nothing left to read")
    return found[0]


def renamed(system: str, block: Block, name: str) -> Block:
    """The block read again under the name the referee typed (on a line of its own when it had none)."""
    name = " ".join(name.split()) or "Creature"
    f = block.field("name")
    if f is not None:
        return reread(system, block, f.start, f.end, name)
    return reread(system, block, 0, 0, name + "\n")


def checked(system: str, block: Block) -> Block:
    """The block with its creature held to the save file's limits and its count to the copies one roster
    adds at once, each problem at its field."""
    if block.problem:
        return block
    if block.count > roster.MAX_COPIES:
        block = block.with_problem("count", f"{block.count:,} copies: at most {roster.MAX_COPIES} at once")
    if not block.ok:
        return block
    doc = {"name": "check", "system": system, "sides": [{"id": "s", "name": "S"}],
           "combatants": [{**block.combatant(), "id": "c", "side": "s"}]}
    found: list[str] = []
    storage.encounter_from_json(doc, found, "x")
    for problem in found:
        path, _, why = problem.partition(": ")
        key = _field_key(path.replace("x.combatants[0].", "").replace("x.combatants[0]", ""))
        block = block.with_problem(key, why) if key else replace(block, problem=block.problem or problem)
    return block


def _field_key(path: str) -> str:
    if path.startswith("stats."):
        return path
    head = re.split(r"[.\[]", path, maxsplit=1)[0]
    return {"max_hp": "hp", "hp": "hp", "ac": "ac", "weapons": "weapons", "name": "name"}.get(head, "")


def copies(block: Block, n: int | None = None, roll: bool = False, seed: int = 1) -> list[dict[str, Any]]:
    """n (else the block's count) combatants of the block's creature; with `roll`, each copy's hit points
    rolled from its Hit Dice (seeded), else all as read."""
    n = block.count if n is None else n
    body = block.combatant()
    if not roll or not block.hp_dice:
        return [dict(body) for _ in range(n)]
    dice = SeededDice(seed)
    out = []
    for _ in range(n):
        hp = max(1, dice.roll(block.hp_dice, "hit points").total)
        out.append({**body, "hp": hp, "max_hp": hp})
    return out


def entry(block: Block, system: str, rid: str, now_ms: int) -> roster.Entry:
    """The block's creature as a roster entry (a monster, numbered when added)."""
    e = roster.from_combatant(block.combatant(), system, rid, now_ms)
    e["source"] = SOURCE
    return e


def to_json(block: Block) -> dict[str, Any]:
    """The command line's form: the combatant, its `count` and the `unread` parts (and `problems`, if any)."""
    out = {**block.combatant(), "count": block.count, "unread": list(block.unread)}
    if block.problems:
        out["problems"] = block.problems
    return out
