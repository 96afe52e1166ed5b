"""The page's own state: everything the page shows beyond the fight itself.

One frozen value, changed only by `dataclasses.replace` (`App.set`), so a
render reads one consistent value and a test can copy the whole page by
copying it. The fight (setup, steps, history) lives in the engine's Session.
Each field the field views draw from is declared so (`DRAWN_IN_FIELD`): the
dispatcher redraws the field only when one of them, or the fight, changed.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ...engine.commands import Option
from ..field.field_ui import FieldUi

MODES = ("play", "setup")
TABS = ("field", "order", "act", "log")  # the phone's bottom bar; the desktop shows them all
DRAWN_IN_FIELD = {"field": True}  # a field's metadata: the field views draw from it (ui/dispatch.py `Dispatcher._marks`)


@dataclass(frozen=True)
class Dialog:
    """The open dialog: which one (`kind`) and what it shows, each by its name; the fields of other kinds
    keep their defaults."""

    kind: str  # "help", "welcome", "share", "rule", "dice", "hp", "effect", "table", "library", "review" or "recap"
    system: str = ""  # welcome: the system chosen
    url: str = ""  # share: the link, and whether it was copied
    copied: bool = False
    rule: str = ""  # rule: the rule id shown
    need: Any = None  # dice: what the rules ask the referee's dice for (NeedDice), the command waiting on them,
    command: Any = None  # and the faces typed so far
    faces: tuple[int, ...] = ()
    answer: str = ""  # dice: the question the tap answered and its answer, said above the faces (OLOG-PRES-2)
    combatant: str = ""  # hp: whose hit points and conditions
    typed: str = ""  # hp: the HP change typed, and why it was refused
    problem: str = ""
    cond_typed: str = ""  # hp: the condition typed, and why it was refused
    cond_problem: str = ""
    ticked: tuple[str, ...] = ()  # effect: the targets ticked, what was typed in its fields, the field at fault
    fields: tuple[tuple[str, str], ...] = ()
    bad: str = ""
    key: str = ""  # table: the setting whose table is edited
    step: int = 0  # review: the step the timeline shows; recap: the step it was opened at (its charts mark it)
    players: bool = False  # recap: the players' summary (ui/controllers/review_ui.py)


@dataclass(frozen=True)
class Page:
    """Selection, mode, tab, the question being asked, the dialog, the notice,
    the setup draft and the field views' scratch space."""

    selected: str | None = field(default=None, metadata=DRAWN_IN_FIELD)
    follow_turn: bool = True  # selection follows whose turn it is until the referee picks someone
    # A foe tapped during the selected actor's turn: the actor's options on it come first (ui/controllers/play.py
    # `select`); cleared when the subject changes.
    target: str | None = None
    mode: str = field(default="play", metadata=DRAWN_IN_FIELD)  # "play" or "setup" (the encounter editor)
    tab: str = field(default="field", metadata=DRAWN_IN_FIELD)  # the field is drawn when its tab shows
    # (option index, option) whose question or place is asked
    pending: tuple[int, Option] | None = field(default=None, metadata=DRAWN_IN_FIELD)
    dialog: Dialog | None = None  # the open dialog, if any
    notice: tuple[str, str] = ("", "info")  # (text, tone: "info", "ok" or "error")
    draft: dict[str, Any] | None = None  # the setup being edited, as its JSON document
    problems: tuple[str, ...] = ()  # why the draft does not apply
    restart_offer: dict[str, Any] | None = None  # a draft the steps do not fit: offered as a restart
    last_roll: str = ""  # the free roll's result shown in the dice panel
    cursor: tuple[int, int] | None = field(default=None, metadata=DRAWN_IN_FIELD)  # the grid's keyboard cursor
    # The field views' own transient state (hover, path preview, zoom): the
    # views mutate this record in place between redraws (a pointer move must not
    # rebuild the page), so it is the one part of the page that is not frozen. A field view's action changes it
    # in place: the dispatcher counts that as a change of the field (ui/controllers/play.py `apply_field`).
    field_ui: FieldUi = field(default_factory=FieldUi, metadata=DRAWN_IN_FIELD)
    browsing_examples: bool = False  # arrows move through the examples list: open on Enter, not on change
    players_view: bool = False  # the table display drawn over this page (ui/controllers/table_link.py)
    # The action groups whose refused options the referee unfolded (ui/markup/panels.py `fold`): kept across
    # selections, as a preference ("show me why not" for every attack list), until folded again.
    unfolded: frozenset[str] = frozenset()
    cond_for: str | None = None  # the quick dialog's duration last chosen (views/quick_condition.py), kept as a preference
    # The referee's condition form refused: (the fight's state then, combatant, the name typed, the duration typed,
    # why), said at its field while the fight stays in that state (a step, undo or another encounter drops it).
    cond_refused: tuple[Any, str, str, str, str] | None = None


def showing(page: Page, kind: str) -> bool:
    """Whether the dialog of this kind is open."""
    return page.dialog is not None and page.dialog.kind == kind


FIELD_INPUTS = tuple(f.name for f in fields(Page) if f.metadata.get("field"))


def field_inputs(page: Page) -> tuple:
    """The page's values the field views draw from (`DRAWN_IN_FIELD`), in a fixed order. `field_ui` changes in
    place (Esc drops a previewed path), so each of its fields counts too; a view's change inside one of them
    comes through ui/controllers/play.py `apply_field`."""
    return tuple(getattr(page, name) for name in FIELD_INPUTS) + tuple(vars(page.field_ui).values())
