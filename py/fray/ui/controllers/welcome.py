"""The first visit's welcome in the page: shown at start-up, a system chosen, then a blank fight or an example.

Start-up (ui/app.py) asks `greet` when ui/desk/entries.py `restore` found nothing
kept here (views/welcome.py `is_first_visit`): the welcome opens over the
demo fight a new browser starts with (the first system's). Choosing a system is one tap;
a blank fight (the library's new-encounter path) or the system's example is
the second; the library and closing are one. The demo's own entry, untouched,
makes way for the blank fight rather than staying in the library as clutter.
The help (ui/markup/guide.py) opens the welcome again ("Choose a system…").
"""
from __future__ import annotations

from pyscript import window
from pyscript.ffi import is_none

from ...views.welcome import choice, default
from . import editing, library_ui
from ..desk import entries
from .actions import Actions
from ..desk.desk import Desk
from ..desk.page import Dialog
from ..dom.store import ENTRIES

clicks = Actions("click")


def wanted() -> bool:
    """The welcome is shown unless the page says otherwise: the browser tests set `window.frayWelcome =
    false` before the page's scripts run, so that their journeys start on the demo fight as before
    (tests/e2e/test_welcome.py sets it back to true)."""
    flag = getattr(window, "frayWelcome", None)
    return flag is None or is_none(flag) or flag is not False


def greet(desk: Desk, first_visit: bool) -> None:
    """At start-up: on a first visit, the welcome opens (the focus goes into it as into any dialog)."""
    if first_visit and wanted():
        desk.set(dialog=Dialog("welcome", system=default()))


@clicks("welcome-system")
def _system(desk: Desk, name: str, arg: str, target) -> None:
    """A system chosen (or the welcome opened again from the help): the next tap starts with it."""
    desk.set(dialog=Dialog("welcome", system=choice(arg).system))
    desk.focus = "[data-testid=welcome-blank]"


@clicks("welcome-blank")
def _blank(desk: Desk, name: str, arg: str, target) -> None:
    """A blank fight of the chosen system, empty, in Setup; the untouched demo it replaces is not kept."""
    before, spare = desk.entry_id, entries.is_untouched(desk.session)
    label = library_ui.new_encounter(desk, choice(arg).system, choice(arg).profile)
    if spare and before and before != desk.entry_id:
        desk.store.delete(ENTRIES, before)
    desk.notify(f"A new {label} encounter is open in Setup: add the party, then the foes. "
                "Back to the fight starts it.", "ok")


@clicks("welcome-example")
def _example(desk: Desk, name: str, arg: str, target) -> None:
    """The chosen system's example, in place of the demo (undo returns to it)."""
    picked = choice(arg)
    desk.set(dialog=None)
    editing.load_example(desk, picked.system, picked.example)
