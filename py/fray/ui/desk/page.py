"""The page's own state: everything the page shows beyond the fight itself.

One frozen value, changed only by `dataclasses.replace` (`App.set`), so a
render reads one consistent value and a test can copy the whole page by
copying it. The fight (setup, steps, history) lives in the engine's Session.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...engine.commands import Option
from ..field.field_ui import FieldUi

MODES = ("play", "setup")
TABS = ("field", "order", "act", "log")  # the phone's bottom bar; the desktop shows them all


@dataclass(frozen=True)
class Page:
    """Selection, mode, tab, the question being asked, the dialog, the notice,
    the setup draft and the field views' scratch space."""

    selected: str | None = None
    follow_turn: bool = True  # selection follows whose turn it is until the referee picks someone
    # A foe tapped during the selected actor's turn: the actor's options on it come first (ui/controllers/play.py
    # `select`); cleared when the subject changes.
    target: str | None = None
    mode: str = "play"  # "play" or "setup" (the encounter editor)
    tab: str = "field"
    pending: tuple[int, Option] | None = None  # (option index, option) whose question or place is asked
    # The open dialog: ("help",), ("share", url, copied), ("rule", rule id),
    # ("dice", NeedDice, command, faces typed so far) or ("table", settings key).
    dialog: tuple | None = None
    notice: tuple[str, str] = ("", "info")  # (text, tone: "info", "ok" or "error")
    draft: dict[str, Any] | None = None  # the setup being edited, as its JSON document
    problems: tuple[str, ...] = ()  # why the draft does not apply
    restart_offer: dict[str, Any] | None = None  # a draft the steps do not fit: offered as a restart
    last_roll: str = ""  # the free roll's result shown in the dice panel
    cursor: tuple[int, int] | None = None  # the grid's keyboard cursor
    # The field views' own transient state (hover, path preview, zoom): the
    # views mutate this record in place between redraws (a pointer move must not
    # rebuild the page), so it is the one part of the page that is not frozen.
    field_ui: FieldUi = field(default_factory=FieldUi)
    browsing_examples: bool = False  # arrows move through the examples list: open on Enter, not on change
    players_view: bool = False  # the table display drawn over this page (ui/controllers/table_link.py)
    # The action groups whose refused options the referee unfolded (ui/markup/panels.py `fold`): kept across
    # selections, as a preference ("show me why not" for every attack list), until folded again.
    unfolded: frozenset[str] = frozenset()
    cond_for: str | None = None  # the quick dialog's duration last chosen (views/quick_condition.py), kept as a preference
