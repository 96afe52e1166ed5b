"""The starter bestiary: ordinary creatures for each system, written for Fray, offered in the roster picker.

These are plain roster entries (fray/roster.py) with stats in each system's
own terms, and only the keys its rules read (docs/RULESETS.md). Each system
keeps its own in its folder (the module its descriptor names as `creatures`,
built with the helpers here); this module gathers them.

Each entry keeps its `source` and its `tags` (animal, undead, humanoid...),
which the picker's search matches. Nothing here is taken from a published
book: these are the generic animals, folk and monsters any referee would stat
alike. A weapon that takes both hands is listed in both hands.
"""
from __future__ import annotations

from typing import Any

SOURCE = "Starter bestiary (Fray)"


def weapon(name: str, damage: str, to_hit: int = 0, kind: str = "natural", **more: Any) -> dict[str, Any]:
    """A natural attack (or, with `kind`, any weapon) with a reach of 5 ft."""
    return {"name": name, "damage": damage, "to_hit": to_hit, "kind": kind, "reach": 5, **more}


def held(name: str, damage: str, to_hit: int = 0, kind: str = "melee", **more: Any) -> dict[str, Any]:
    """A weapon that is an item (its name) to hold in hand."""
    return weapon(name, damage, to_hit, kind, item=name, **more)


def creature(name: str, hp: int, ac: int, weapons: list, stats: dict, tags: str, hands=("", ""), inventory=(),
             note: str = "") -> dict[str, Any]:
    """A creature's roster body, with its tags (the search's words, a space apart)."""
    return {"name": name, "hp": hp, "max_hp": hp, "ac": ac, "weapons": weapons, "hands": list(hands),
            "inventory": list(inventory), "conditions": [], "stats": stats, "notes": note, "tags": tags.split()}


def slug(name: str) -> str:
    """An id's last part: "Giant rat" -> "giant-rat"."""
    return name.lower().replace(" ", "-")


def entries() -> list[dict[str, Any]]:
    """Every starter creature as a roster entry (ids "starter-<system>-<slug>", never stored)."""
    from .rules import SYSTEMS, folder_module
    out = []
    for system, info in SYSTEMS.items():
        book = info.book or info.title
        for c in folder_module(system, info.creatures).CREATURES if info.creatures else ():
            body = {k: v for k, v in c.items() if k != "tags"}
            body["notes"] = f"{SOURCE}, for the {book}." + (f" {c['notes']}" if c["notes"] else "")
            out.append({"id": f"starter-{system}-{slug(c['name'])}", "name": c["name"], "system": system,
                        "pc": False, "party": False, "cid": "", "combatant": body, "changed": 0,
                        "source": f"{SOURCE}: {book}", "tags": list(c["tags"])})
    return out


def is_starter(entry_id: str) -> bool:
    return entry_id.startswith("starter-")
