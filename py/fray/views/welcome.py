"""The first visit's welcome: whether this is one, and the systems it offers with their blank fight and example.

Pure: the page (ui/controllers/welcome.py) asks `is_first_visit` with what its storage
holds, and draws `choices()` (ui/markup/guide.py); a tap names a system, whose
`SystemChoice` says which new-encounter path and which example it opens.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..rules import SYSTEMS, default_system


@dataclass(frozen=True)
class SystemChoice:
    """One system the welcome offers: its short name, one line on what it is, the profile a blank fight
    starts in (the library's "New … encounter", presets.new_encounters) and the example it opens."""

    system: str
    name: str
    line: str
    profile: str
    example: str
    example_name: str
    start_help: str = ""  # the help's "Starting a fight" line


def choices() -> tuple[SystemChoice, ...]:
    """Every registered system, in its order, as its descriptor describes it (fray/rules/<name>/system.py)."""
    return tuple(SystemChoice(s, i.label, i.line, i.start_profile, i.example, i.example_name, i.start_help)
                 for s, i in SYSTEMS.items())


def default() -> str:
    """The system chosen at first: the first in order."""
    return default_system()


def choice(system: str) -> SystemChoice:
    """The welcome's choice for `system`; the first for a name it does not offer."""
    offered = choices()
    return next((c for c in offered if c.system == system), offered[0])


def is_first_visit(records: Iterable[object], old_autosave: bool, link: bool) -> bool:
    """A browser that has never kept an encounter here: no library entry (none in the trash, none set aside
    as broken either), no old single autosave slot (moved or set aside), and no share link being opened."""
    return not link and not old_autosave and not any(True for _ in records)
