"""The field views' transient state: one mutable record, a declared field per thing a view keeps.

The views change it in place between redraws (a pointer move must not rebuild
the page): the page holds one (`Page.field_ui`, ui/desk/page.py) and hands it to
the views as `FieldContext.ui` (ui/field/field_views.py). None means "not set": a
view sets the field when it first needs it and resets it to None to drop it.
Pure: no browser imports.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

WHOLE_MAP = (1.0, 0.0, 0.0)  # the grid's camera before a view is set: zoom 1, the top-left corner


@dataclass
class FieldUi:
    """What the field views remember between drawings (ui/field/grid.py, ui/field/grid_pointer.py, ui/field/bands.py,
    ui/field/before_fight.py), and what the app takes from them (ui/page/render.py, ui/controllers/play.py)."""

    # --- the grid: the map it was drawn for, the camera -----------------------------------------
    size: tuple[int, int] | None = None  # (width, height) of the map last drawn: another size forgets the squares
    view: tuple[float, float, float] | None = None  # (zoom, x, y): the viewBox's scale and top-left corner
    follow: bool | None = None  # Follow: recentre on the actor after each step; None until the first view
    followed: tuple[str, tuple[int, int]] | None = None  # (id, square) of the actor last followed
    # --- the grid: what the pointer and the keys point at ----------------------------------------
    hover: tuple[int, int] | None = None  # the square under the pointer (or the cursor)
    cursor: tuple[int, int] | None = None  # the keyboard cursor, once an arrow moved it
    info: tuple[int, int] | None = None  # the square whose details are shown (long press, a tap with no mover)
    # The path preview: {"mover": id, "points": [square, ...]}, with "place": True for a referee
    # placement and "drag": True while a token is dragged.
    path: dict[str, Any] | None = None
    # --- the grid: modes and gestures ---------------------------------------------------------------
    walls: bool = False  # Edit walls: taps and strokes draw or erase walls
    wp: bool = False  # Waypoints: taps add stops to the path
    stroke: dict[str, Any] | None = None  # a wall stroke being drawn: {"erase", "squares", "last"}
    press: dict[str, Any] | None = None  # the pointer held down: id, start, time, square, token, kind ("", drag, ...)
    ptrs: dict[int, tuple[float, float]] | None = None  # pointer id -> (clientX, clientY) of the pointers down
    pinch: dict[str, float] | None = None  # a two-finger pinch: {"d": the fingers' first distance, "zoom": then}
    # --- the grid: what was patched in place since the last full drawing ---------------------------
    gen: int = 0  # bumped when the viewBox, the toolbar or a dragged token is patched: the markup then differs
    frame: bool = False  # an overlay refresh waits for the next animation frame
    patched: dict[str, Any] | None = None  # part id -> the markup a hover patched in, for the app to take
    # --- the other views ------------------------------------------------------------------------------
    band_drag: dict[str, Any] | None = None  # the bands' token being dragged: {"id", "x", "y", "moved"}
    ogre_before: dict[str, Any] | None = None  # what was typed in Ogre's before-the-fight form

    @property
    def camera(self) -> tuple[float, float, float]:
        """The view, or the whole map before one is set."""
        return WHOLE_MAP if self.view is None else self.view

    @property
    def zoom(self) -> float:
        """The camera's zoom (1 before a view is set)."""
        return self.camera[0]

    def copy(self) -> FieldUi:
        """A shallow copy: the fields' values are shared, as a dict's copy would share them."""
        return replace(self)
