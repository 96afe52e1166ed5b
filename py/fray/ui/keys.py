"""The keyboard: shortcuts looked up in tables (UI.md's "Keyboard").

Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo; Esc cancels; `?` shows the
shortcuts, N takes the "next" action, 1-9 pick the n-th action (or answer the
question being asked), arrows move the grid cursor and Enter/Space act on it.
Keys go to the page unless the focus is where text is typed.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from pyscript.ffi import is_none

from . import play
from .editing import load_example
from .patch import attr
from .render import field_context, views

if TYPE_CHECKING:
    from .app import App

BROWSE_KEYS = ("ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown")
TEXT_FREE_INPUTS = ("radio", "checkbox", "button", "submit", "color")  # inputs that take no typed text


def _help(app: App, event) -> None:
    app.set(dialog=("help",))
    app.render(field=False)


def _next(app: App, event) -> None:
    if app.page.mode != "play":
        return
    menu_next = next((i for i, o in enumerate(app.options) if o.key == "next" and o.allowed), None)
    if menu_next is not None:
        event.preventDefault()
        play.choose(app, menu_next)


def _digit(app: App, event) -> None:
    """1-9: answer the question being asked, else pick the n-th action."""
    if app.page.mode != "play":
        return
    n = int(str(event.key))
    pending = app.page.pending
    if pending is not None and pending[1].choices:
        if n <= len(pending[1].choices):
            event.preventDefault()
            play.answer(app, n - 1)
        return
    if n in app.numbers:
        event.preventDefault()
        play.choose(app, app.numbers[n])


def _field_key(app: App, event) -> None:
    """Arrows anywhere in the field; Enter/Space only on the field itself, so the
    field's own buttons keep their native activation."""
    key = str(event.key)
    target_id = str(event.target.id)
    in_field = target_id == "field-slot" or not is_none(event.target.closest("#field-slot"))
    if (key.startswith("Arrow") and in_field) or target_id == "field-slot":
        result = views(app)[0].key(field_context(app), key)
        if result is not None:
            event.preventDefault()
            play.apply_field(app, result)


CTRL_KEYS: dict[str, Callable[[App, bool], None]] = {  # key -> fn(app, shift)
    "z": lambda app, shift: play.redo(app) if shift else play.undo(app),
    "y": lambda app, shift: play.redo(app),
}
PLAIN_KEYS: dict[str, Callable] = {"?": _help, "n": _next, "N": _next, "Enter": _field_key, " ": _field_key,
                                   **{str(d): _digit for d in range(1, 10)},
                                   **{k: _field_key for k in ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight")}}


def _browse_examples(app: App, event, key: str) -> bool:
    """A closed select fires "change" on every arrow key: browse first, open on
    Enter. True if the key was the Enter that opened an example."""
    if key in BROWSE_KEYS and not event.altKey:
        app.set(browsing_examples=True)
    elif key == "Enter" and app.page.browsing_examples:
        event.preventDefault()
        app.set(browsing_examples=False)
        system, _, example = str(event.target.value).partition(":")
        if example:
            load_example(app, system, example)
        return True
    return False


def on_key(app: App, event) -> None:
    key = str(event.key)
    tag = str(event.target.tagName).lower() if not is_none(event.target.tagName) else ""
    # Radios and checkboxes take only arrows and Space, so N, digits and Ctrl+Z still work there.
    typing = tag in ("textarea", "select") or (tag == "input" and attr(event.target, "type") not in TEXT_FREE_INPUTS)
    ctrl = bool(event.ctrlKey or event.metaKey)
    if ctrl and not typing and key.lower() in CTRL_KEYS:
        event.preventDefault()
        CTRL_KEYS[key.lower()](app, bool(event.shiftKey))
        return
    if attr(event.target, "data-action") == "example" and _browse_examples(app, event, key):
        return
    if key == "Escape":
        play.cancel(app)
        return
    if typing or ctrl or event.altKey or app.page.dialog is not None:
        return
    handler = PLAIN_KEYS.get(key)
    if handler is not None:
        handler(app, event)
