"""The one drawing order: every slot of the referee's page, as the redraw and the painted start draw it.

`draw` is called by the App once after each handler (ui/app.py `App.redraw`, after the table display's
view is sent) and by the painted start, aside (ui/page/paint.py `first_drawing`): the panels
(ui/page/render.py), the library and the read-only banner, then the players' view over the page.
"""
from __future__ import annotations

from pyscript import window

from . import render
from ..desk.desk import Desk
from ..desk.page import showing
from ..desk import entries
from ..desk.players import build_view
from ..markup import library_view, table_markup
from ..markup.html import h


def draw(desk: Desk, field: bool = True) -> None:
    """Every slot, in the page's one order; `field`: the field is drawn too (else it is spared)."""
    render.render(desk, field)
    library(desk)
    players_view(desk)


def library(desk: Desk) -> None:
    """The banner of a read-only tab and the library dialog, in their own slots."""
    banner = library_view.banner(desk.session.encounter.name) if desk.read_only else ""
    desk.slots.html("banner-slot", banner)
    if not showing(desk.page, "library"):
        desk.slots.html("library-slot", "")
        return
    store, state = desk.store, desk.library
    used, quota = state.usage or (None, None)
    line = library_view.StorageLine(store.durable, store.problem, used, quota, state.persist)
    markup = library_view.dialog(list(store.records.values()), entries.now_ms(), desk.entry_id,
                                 state.renaming, line, state.progress, state.report)
    desk.slots.dialog("library-slot", markup)


def players_view(desk: Desk) -> None:
    """After each redraw of the referee's page: the players' view drawn over it, if the referee opened it."""
    if not desk.page.players_view:
        desk.slots.clear("players-slot")
        return
    try:
        view = build_view(desk)
        markup = desk.memo("players-view", (view,), lambda: h(
            "div", {"class_": "players-overlay", "data-testid": "players-view", "role": "dialog",
                    "aria-label": "Players' view"},
            h("button", {"type": "button", "class_": "tv-close", "data-action": "players-view",
                         "data-testid": "players-view-close"}, "Back to the referee's view"),
            table_markup.page(view)))
        desk.slots.html("players-slot", markup)
    except Exception as exc:  # the players' view must never break the referee's page
        window.console.warn(f"Fray: the players' view was not drawn ({type(exc).__name__}: {exc})")
