"""The first visit's welcome: whether this is one, and the systems it offers with their blank fight and example.

Pure: the page (ui/controllers/welcome.py) asks `is_first_visit` with what its storage
holds, and draws `CHOICES` (ui/markup/guide.py); a tap names a system, whose
`SystemChoice` says which new-encounter path and which example it opens.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class SystemChoice:
    """One system the welcome offers: its short name, one line on what it is, the profile a blank fight
    starts in (the library's "New … encounter", presets.NEW_ENCOUNTER) and the example it opens."""

    system: str
    name: str
    line: str
    profile: str
    example: str
    example_name: str


CHOICES: tuple[SystemChoice, ...] = (
    SystemChoice("olog", "OLOG", "Initiative counts, two actions, pressure, distance bands.", "", "two_orcs",
                 "Two orcs"),
    SystemChoice("ose", "OSE", "Side initiative, declarations, loose or detailed combat on a square grid.",
                 "detailed", "detailed", "A detailed fight on the grid"),
    SystemChoice("ogre", "Ogre", "A segment count: actions resolve segments after they are declared.", "",
                 "orc_and_pc", "An orc and a PC"),
)
DEFAULT = CHOICES[0].system


def choice(system: str) -> SystemChoice:
    """The welcome's choice for `system`; the first (OLOG) for a name it does not offer."""
    return next((c for c in CHOICES if c.system == system), CHOICES[0])


def is_first_visit(records: Iterable[object], old_autosave: bool, link: bool) -> bool:
    """A browser that has never kept an encounter here: no library entry (none in the trash, none set aside
    as broken either), no old single autosave slot (moved or set aside), and no share link being opened."""
    return not link and not old_autosave and not any(True for _ in records)
