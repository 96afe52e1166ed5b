"""The fight's shared operations: the setup draft, applying a setup, adopting another encounter.

Used by several handlers (the setup editor, the roster, the library's rename,
the hide toggle, opening an example) and by no drawing. Each changes the
session and the page state and returns: the dispatcher (ui/app.py) autosaves
and redraws after the handler, once.
"""
from __future__ import annotations

from typing import Any, Callable

from ...engine import storage
from ...engine.session import Session
from ..markup import editor
from .desk import Desk
from .offers import follow


def draft_doc(desk: Desk) -> dict[str, Any]:
    """The setup being edited: the draft, else the encounter's own document."""
    draft = desk.page.draft
    return draft if draft is not None else storage.encounter_to_json(desk.session.encounter)


def edit(desk: Desk, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Apply `change` to the draft, then the draft to the fight."""
    try:
        doc = change(draft_doc(desk))
    except editor.EditError as exc:
        desk.set(problems=(str(exc),))
        return
    apply_setup(desk, doc)


def apply_setup(desk: Desk, doc: dict[str, Any]) -> None:
    """Replay the fight's steps over the edited setup and adopt it (undo
    brings the old setup back); if the steps no longer fit, offer a restart."""
    problems: list[str] = []
    enc, ruleset = storage.encounter_from_json(doc, problems)
    if problems or enc is None:  # the draft stays the last valid one: nothing half-made reaches the fight
        desk.set(problems=tuple(problems) or ("encounter: not valid",))
        return
    desk.set(draft=doc, restart_offer=None)
    s = desk.session
    recorded = [(st.command, st.dice) for st in s.steps]
    redo = [(st.command, st.dice) for st in reversed(s.redo_stack)]
    try:
        new = Session.replay(enc, recorded, redo, ruleset=ruleset)
    except Exception as exc:  # a ReplayError, or a rule that no longer holds for the new setup
        desk.set(problems=(f"The fight's {len(recorded)} steps do not fit this setup ({exc}).",), restart_offer=doc)
        return
    new.dice_from(s)
    desk.set(problems=())
    s.adopt(new)
    follow(desk)


def adopt(desk: Desk, new: Session, message: str = "") -> None:
    """Adopt another encounter; undo brings the previous one back."""
    desk.session.adopt(new)
    desk.setup.clear()  # values refused in the old encounter's setup are not this one's
    desk.set(selected=None, follow_turn=True, pending=None, draft=None)
    follow(desk)
    if message:
        desk.notify(message, "ok")
