"""The desk: everything a handler may read and change, and nothing that draws.

Handlers (ui/controllers/play.py, ui/controllers/editing.py, ui/controllers/files.py, ui/controllers/library_ui.py,
ui/controllers/roster_ui.py, ui/controllers/table_link.py) receive the `Desk`, never the App: the
session (the fight and its one history), the page state, the library store
and the entry this tab has open, the read-only flag, and each feature's own
state as a declared field. A handler changes these and returns; the
dispatcher (ui/app.py) then checks nothing was refused, autosaves once if the
history changed, and redraws once. A handler never draws or saves.

What happens outside a handler (a promise resolved, another tab's message,
a lock granted) is handed to the dispatcher with `desk.run(fn)`: it runs
`fn(desk)` as it runs a click's handler, with the same save and redraw after.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ...engine.session import Session
from ...views.paste import PasteState
from .keeper import Keeper
from .page import Page
from ..dom.patch import Memo, Slots, StateCaches
from ..dom.store import Store
from ..dom.table_channel import TableChannel


@dataclass
class LibraryState:
    """The library dialog's own state: the entry being renamed, an import's progress and report, the
    storage used and what the browser answered to persistent storage."""

    renaming: str = ""
    progress: tuple[int, int] | None = None
    report: str = ""
    usage: tuple[Any, Any] | None = None
    persist: str = ""


@dataclass
class RosterState:
    """The setup editor's roster picker: its search, system filter, copies to add and last report."""

    query: str = ""
    system: str | None = None  # None: the draft's own system
    count: int = 1
    count_why: str = ""  # why the copies typed were not taken as typed, said at the field
    report: str = ""
    # The quick party (fray/quick_party.py): the names typed, each wrong line's problem, what was added.
    party_text: str = ""
    party_problems: tuple[str, ...] = ()
    party_report: str = ""


@dataclass
class SetupState:
    """The setup form's values typed but refused (path -> (what was typed, why)), kept at their fields
    until fixed or discarded, whether leaving setup is being asked about, and the placement map's state."""

    refused: dict[str, tuple[str, str]] = field(default_factory=dict)
    leaving: bool = False
    # The placement map (ui/controllers/place_ui.py): the token picked up by a tap (its index in the draft), what the
    # map's live region says, and a token being dragged.
    picked: int | None = None
    said: str = ""
    drag: dict[str, Any] | None = None

    def clear(self) -> None:
        self.refused, self.leaving = {}, False
        self.picked, self.said, self.drag = None, "", None


def _no_runner(fn: Callable[["Desk"], Any]) -> None:
    raise RuntimeError("no dispatcher: the desk is not on a page yet")


@dataclass(eq=False)
class Desk:
    """The session, the page state, storage, and each feature's state."""

    session: Session | None = None
    page: Page = field(default_factory=Page)
    store: Store = field(default_factory=Store)  # a memory store until ui/library_ui.prepare opens IndexedDB
    entry_id: str = ""  # the library entry this tab has open
    read_only: bool = False  # another tab has this encounter (ui/desk/tabs.py)
    library: LibraryState = field(default_factory=LibraryState)
    roster: RosterState = field(default_factory=RosterState)
    setup: SetupState = field(default_factory=SetupState)
    paste: PasteState = field(default_factory=PasteState)  # pasted stat blocks (controllers/paste_ui)
    # The answer each combatant last gave to a question that has a default (Option.default, e.g. Ogre's
    # "How fast?"): (combatant, question) -> choice index, the next tap's answer without asking.
    remembered: dict[tuple[str, str], int] = field(default_factory=dict)
    # Whom each combatant last acted on (ui/desk/offers.py `aim`): its next turn starts aimed at them again.
    aimed: dict[str, str] = field(default_factory=dict)
    keeper: Keeper = field(default_factory=Keeper)  # the entry's lock and the library channel (ui/desk/tabs.py)
    table: TableChannel | None = None  # the channel to the players' table display (ui/controllers/table_link.py)
    phones: Any = None  # the players' phones (ui/desk/phones.py `Phones`), made on the first tap on "Phones"
    # Drawing's memory, shared with the handlers that read what a state offers (ui/desk/offers.py).
    slots: Slots = field(default_factory=Slots)
    memo: Memo = field(default_factory=Memo)
    state_caches: StateCaches = field(default_factory=StateCaches)
    asked: Any = None  # the question last focused (focus moves to a new one once)
    shown_result: Any = None  # the step result last drawn (a new one is scrolled into view once)
    shown_tab: str = ""  # the phone's tab last drawn (a tab opened anew opens at its top)
    reveal_target: bool = False  # a tap just targeted someone: the next action panel brings the options on them into view
    focus: str = ""  # a selector the next drawing focuses once (the skip link's first action)
    # Hands an outside event to the dispatcher (set by ui/app.py): `run(fn)` calls `fn(desk)`, then saves
    # and redraws as after a click.
    run: Callable[[Callable[["Desk"], Any]], None] = _no_runner
    # A field view took the event and changed its own state in place (ui/controllers/play.py `apply_field`):
    # the dispatcher redraws the field (and resets it).
    field_acted: bool = False
    # The handler only changed whom the page shows selected or targeted (ui/controllers/play.py `select`): the
    # dispatcher draws the action panel once the tap has painted (ui/app.py `App.redraw`; it resets this).
    panel_later: bool = False

    def set(self, **changes: Any) -> None:
        """Change the page state (a new frozen value)."""
        self.page = replace(self.page, **changes)

    def notify(self, text: str, tone: str = "info") -> None:
        self.set(notice=(text, tone))
