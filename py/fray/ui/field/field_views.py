"""Field views: the protocol of the views that draw the field, and the table from a view's name to its class.

A field view turns a `FieldContext` into HTML/SVG and maps its own
`data-action`s (a token tapped, a zone chosen, a square clicked) to what the
app should do. "list" is built in; the others are named, with their modules, by the systems' descriptors
(`SystemInfo.view_modules`); the descriptor's `field_view` picks one. Pure: no browser imports.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from ...engine.commands import Option
from ...engine.ruleset import Ruleset
from ...engine.state import State
from ...rules import SYSTEMS
from ...views.models import SystemPanel
from ...views.panels import cards
from .field_ui import FieldUi
from ..markup.html import Markup, h
from ..markup.panels import badge, hp_bar, side_mark

SPATIAL_NEEDS = ("path", "square", "band", "target")  # an option's needs the field fills; others are typed


@dataclass
class FieldContext:
    """What a field view may read to draw itself."""

    state: State
    ruleset: Ruleset
    panel: SystemPanel
    selected: str | None
    current: tuple[str, ...]
    pending: Option | None = None  # an option waiting for a square/band/path
    options: list[Option] = field(default_factory=list)  # the selected actor's options now
    cursor: tuple[int, int] | None = None  # keyboard cursor on a grid
    ui: FieldUi = field(default_factory=FieldUi)  # view-owned transient state (hover, waypoints: ui/field/field_ui.py)


@dataclass(frozen=True)
class FieldAction:
    """What a field view asks the app to do after a click or key."""

    select: str | None = None  # select a combatant
    fill: dict[str, Any] | None = None  # complete the pending option's command with these fields
    command: Any = None  # act with this command (e.g. a referee Place)
    choose: int | None = None  # pick this option of the selected actor (asks its question first)
    message: str = ""  # tell the referee something (e.g. why a square is not reachable)
    redraw: bool = False  # only the field changed (hover, cursor)


class FieldView:
    name = "base"
    slot = "field-slot"  # where the page draws it: "field-slot", "phase-slot" (above) or "ruler-slot" (below)
    # JS source of a function to run in the next animation frame after the view was written (ui/page/render.py
    # hands it to ui/dom/patch.py `next_frame`): work that reads the new layout, such as keeping a selection in view.
    after_write = ""

    def render(self, ctx: FieldContext) -> Markup:
        raise NotImplementedError

    def act(self, ctx: FieldContext, action: str, arg: str) -> FieldAction | None:
        """Handle a data-action from inside the field; None if not ours. (A tapped token,
        `data-action="token:<id>"`, is a selection: ui/controllers/play.py handles it for every view.)"""
        return None

    def key(self, ctx: FieldContext, key: str) -> FieldAction | None:
        """Arrow keys, Enter, Escape while the field has focus."""
        return None

    def form(self, ctx: FieldContext, name: str, arg: str, values: dict[str, str], op: str) -> FieldAction | None:
        """A submitted `<form data-action="name:arg">` of this view: its named fields' values and
        the submit button's value (`op`); None if not ours."""
        return None


class ListField(FieldView):
    """Cards grouped by side: for systems played without a map (OSE loose)."""

    name = "list"

    def render(self, ctx: FieldContext) -> Markup:
        sides = {s.id: s for s in ctx.state.sides}
        cols = []
        for side_id, group in cards(ctx.state, ctx.current, ctx.selected, ctx.panel.badges):
            side = sides.get(side_id)
            items = []
            for c in group:
                cls = "card" + (" current" if c.is_current else "") + (" selected" if c.is_selected else "") \
                    + (" down" if c.is_down else "")
                items.append(h("li", None, h(
                    "button", {"type": "button", "class_": cls, "data-action": f"token:{c.id}",
                               "data-testid": f"token-{c.id}", "aria-pressed": "true" if c.is_selected else "false",
                               "aria-label": f"{c.name}, {c.hp} of {c.max_hp} HP"
                                             + (", acting now" if c.is_current else "")
                                             + (", down" if c.is_down else "")},
                    h("span", {"class_": "card-head"}, side_mark(side), h("strong", {"title": c.name}, c.name),
                      h("span", {"class_": "muted"}, f" AC {c.ac}")),
                    hp_bar(c.hp, c.max_hp),
                    h("span", {"class_": "muted holds"}, c.holds) if c.holds else "",
                    h("span", {"class_": "badges"}, [badge(b) for b in c.badges]))))
            # "Side ..." so the region differs from the same side's declarations (axe: landmark-unique).
            cols.append(h("section", {"class_": "side-col",
                                      "aria-label": f"Side {side.name if side else side_id}"},
                          h("h3", None, side_mark(side), " ", side.name if side else side_id),
                          h("ul", {"class_": "cards"}, items)))
        return h("div", {"class_": "field-list", "data-testid": "field-list"}, cols)


_FACTORIES: dict[str, Callable[[], FieldView]] = {"list": ListField}
_cache: dict[str, FieldView] = {}


def forget() -> None:
    """Drop the views made so far: the next App in the page makes its own (ui/app.py)."""
    _cache.clear()


def views_for(ruleset: Ruleset, profile: str) -> tuple[FieldView, ...]:
    """The field view and the extra views of a ruleset's profile, field first."""
    return (field_view(ruleset.info.field_view(profile)),) + tuple(field_view(n) for n in ruleset.info.extra_views)


def modules() -> dict[str, str]:
    """Each field view's module, by name, as the systems' descriptors declare them (`view_modules`)."""
    return {name: module for info in SYSTEMS.values() for name, module in info.view_modules}


def field_view(name: str) -> FieldView:
    """The field view of that name (a descriptor's `field_view`), imported on first use. A name no
    system declares is an error (KeyError), not a default."""
    view = _cache.get(name)
    if view is None:
        factory = _FACTORIES.get(name)
        if factory is None:
            factory = importlib.import_module(modules()[name]).VIEW_FACTORY
        view = factory()
        _cache[name] = view
    return view
