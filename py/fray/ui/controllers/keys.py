"""The keyboard: shortcuts looked up in tables (UI.md's "Keyboard").

Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo; Esc cancels; `?` shows the
shortcuts, N takes the "next" action, T targets the actor's next foe, H opens
quick HP (damage, heal, set) for the target, 1-9 pick the n-th action (or answer the
question being asked), arrows move the grid cursor and Enter/Space act on it.
Keys go to the page unless the focus is where text is typed.
"""
from __future__ import annotations

from typing import Callable

from pyscript.ffi import is_none

from ... import place_map
from . import place_ui, play
from ..desk.desk import Desk
from ..desk.page import Dialog
from .editing import load_example
from ..desk.offers import field_context, numbers, options, views
from ..dom.patch import attr

BROWSE_KEYS = ("ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown")
TEXT_FREE_INPUTS = ("radio", "checkbox", "button", "submit", "color")  # inputs that take no typed text


def _help(desk: Desk, event) -> bool:
    desk.set(dialog=Dialog("help"))
    return True


def _next(desk: Desk, event) -> bool:
    if desk.page.mode != "play":
        return False
    menu_next = next((i for i, o in enumerate(options(desk)) if o.key == "next" and o.allowed), None)
    if menu_next is None:
        return False
    event.preventDefault()
    play.choose(desk, menu_next)
    return True


def _digit(desk: Desk, event) -> bool:
    """1-9: answer the question being asked, else pick the n-th action."""
    if desk.page.mode != "play":
        return False
    n = int(str(event.key))
    pending = desk.page.pending
    if pending is not None and pending[1].choices:
        if n > len(pending[1].choices):
            return False
        event.preventDefault()
        play.answer(desk, n - 1)
        return True
    if n not in numbers(desk):
        return False
    event.preventDefault()
    play.choose(desk, numbers(desk)[n])
    return True


def _target(desk: Desk, event) -> bool:
    """T: target the selected actor's next foe."""
    if desk.page.mode != "play" or not play.target_next(desk):
        return False
    event.preventDefault()
    return True


def _hp(desk: Desk, event) -> bool:
    """H: damage, heal or set the hit points of the target (else of the selected combatant)."""
    if desk.page.mode != "play" or not play.open_hp(desk):
        return False
    event.preventDefault()
    return True


def _field_key(desk: Desk, event) -> bool:
    """Arrows anywhere in the field; Enter/Space only on the field itself, so the
    field's own buttons keep their native activation."""
    key = str(event.key)
    target_id = str(event.target.id)
    in_field = target_id == "field-slot" or not is_none(event.target.closest("#field-slot"))
    if not ((key.startswith("Arrow") and in_field) or target_id == "field-slot"):
        return False
    result = views(desk)[0].key(field_context(desk), key)
    if result is None:
        return False
    event.preventDefault()
    play.apply_field(desk, result)
    return True


CTRL_KEYS: dict[str, Callable[[Desk, bool], None]] = {  # key -> fn(desk, shift)
    "z": lambda desk, shift: play.redo(desk) if shift else play.undo(desk),
    "y": lambda desk, shift: play.redo(desk),
}
PLAIN_KEYS: dict[str, Callable] = {"?": _help, "n": _next, "N": _next, "Enter": _field_key, " ": _field_key,
                                   "t": _target, "T": _target, "h": _hp, "H": _hp,
                                   **{str(d): _digit for d in range(1, 10)},
                                   **{k: _field_key for k in ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight")}}


def _browse_examples(desk: Desk, event, key: str) -> bool:
    """A closed select fires "change" on every arrow key: browse first, open on
    Enter. True if the key was the Enter that opened an example."""
    if key in BROWSE_KEYS and not event.altKey:
        desk.set(browsing_examples=True)
    elif key == "Enter" and desk.page.browsing_examples:
        event.preventDefault()
        desk.set(browsing_examples=False)
        system, _, example = str(event.target.value).partition(":")
        if example:
            load_example(desk, system, example)
        return True
    return False


def on_key(desk: Desk, event) -> bool:
    """A key pressed anywhere in the page: its shortcut, if it has one. False when the key is not a shortcut
    here (typed text, a key of no meaning): the dispatcher then neither saves nor redraws."""
    key = str(event.key)
    tag = str(event.target.tagName).lower() if not is_none(event.target.tagName) else ""
    # Radios and checkboxes take only arrows and Space, so N, digits and Ctrl+Z still work there.
    typing = tag in ("textarea", "select") or (tag == "input" and attr(event.target, "type") not in TEXT_FREE_INPUTS)
    ctrl = bool(event.ctrlKey or event.metaKey)
    if ctrl and not typing and key.lower() in CTRL_KEYS:
        event.preventDefault()
        CTRL_KEYS[key.lower()](desk, bool(event.shiftKey))
        return True
    if attr(event.target, "data-action") == "example" and _browse_examples(desk, event, key):
        return True
    if key == "Escape":
        if not place_ui.cancel(desk):  # a token picked up on the placement map goes back first
            play.cancel(desk)
        return True
    if key in place_map.ARROWS and desk.page.mode == "setup" and not typing and place_ui.arrow(desk, event):
        return True
    if typing or ctrl or event.altKey or desk.page.dialog is not None:
        return False
    handler = PLAIN_KEYS.get(key)
    return handler is not None and handler(desk, event)
