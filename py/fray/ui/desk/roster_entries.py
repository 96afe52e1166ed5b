"""The referee's roster as the page reads it: the entries that read (`own`), and the party a draft would get.

The picker's drawing (ui/page/setup_form.py, ui/markup/roster_markup.py) and the roster's handlers
(ui/controllers/roster_ui.py, paste_ui.py) read the same entries.
"""
from __future__ import annotations

from typing import Any

from ... import roster
from .desk import Desk


def own(desk: Desk) -> list[dict[str, Any]]:
    """The referee's roster entries (the ones that read; a damaged one is reported when imported)."""
    out = []
    for key, raw in sorted(desk.store.roster.items()):
        entry, problems = roster.check_entry(raw, key)
        if entry is not None:
            out.append(entry)
    return out


def party_count(desk: Desk, doc: dict[str, Any]) -> int:
    """How many of the saved party (PCs of the roster, for the draft's system) "Add the party" adds."""
    return len(roster.party(own(desk), doc.get("system", "")))
