"""The referee's side of the table display: the players' view, the header's buttons, the hide toggle.

"Open table display" opens `#table=KEY` in a second window (ui/table_display.py
draws it), fed through this tab's channel (ui/table_channel.py) with the view
built here (views/table_view.py). The referee can also show the players' view
over this page. Cheap at start-up: the view and markup modules are imported
on first use.
"""
from __future__ import annotations

from typing import Any

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none, to_js

from ..engine import storage
from . import odds_ui, offers, operations, table_markup
from .actions import Actions
from .desk import Desk
from .html import h
from .table_channel import load_css

clicks = Actions("click")


def build_view(desk: Desk) -> dict[str, Any] | None:
    """The players' view of the referee's fight now (memoised on the state)."""
    from ..rules import titles
    from ..views.table_view import table_view
    from ..views.table_view import table_odds
    s = desk.session
    if s is None:
        return None
    enc = s.encounter
    title = titles().get(enc.system, enc.system) + (f" · {enc.profile}" if enc.profile else "")
    odds = table_odds(s.state, *odds_ui.finished(desk)) if s.state.setting("table_odds", "nobody") != "nobody" \
        else None
    return desk.memo("table-view", (s.state, len(s.steps), repr(odds)), lambda: with_recap(s, table_view(
        s.state, s.steps, s.ruleset.field_view_for(enc.profile), s.ruleset.extra_views(enc.profile), title,
        offers.panel(desk), odds)))  # the panel the referee's page draws from (memoised): built once for both


def with_recap(s, view: dict[str, Any]) -> dict[str, Any]:
    """At the fight's end the table shows its summary too: the players' one (views/recap.py)."""
    from ..views.recap import public, to_table
    return {**view, "recap": to_table(public(s))} if s.state.outcome else view


def draw_players_view(desk: Desk) -> None:
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


# --- the header's buttons and the referee's hide toggle ------------------------------------------

@clicks("table-open")
def open_table(desk: Desk, name: str, arg: str, target) -> None:
    link = desk.table
    if link is None or link.channel is None:
        desk.notify("This browser has no BroadcastChannel: the table display cannot follow this tab.", "error")
        desk.spare_field()
        return
    url = str(window.location.href).split("#")[0] + "#table=" + link.key
    opened = window.open(url, "fray-table-" + link.key)
    if opened is None or is_none(opened):
        desk.notify(f"The browser blocked the new window: open {url} in another window of this browser.", "error")
    else:
        desk.notify("The table display is open in another window: put it on the players' screen.", "ok")
    desk.spare_field()


@clicks("players-view")
def toggle_players_view(desk: Desk, name: str, arg: str, target) -> None:
    load_css()
    desk.set(players_view=not desk.page.players_view)
    desk.spare_field()


@clicks("table-fullscreen")
def fullscreen(desk: Desk, name: str, arg: str, target) -> None:
    toggle_fullscreen()
    desk.spare_field()


@clicks("table-export")
def export(desk: Desk, name: str, arg: str, target) -> None:
    download(table_markup.export_svg(build_view(desk)), desk.session.encounter.name)
    desk.spare_field()


@clicks("hide")
def toggle_hidden(desk: Desk, name: str, arg: str, target) -> None:
    """Hide a combatant from the table display, or reveal it: a setup change (undo takes it back)."""
    doc = storage.encounter_to_json(desk.session.encounter)
    for c in doc["combatants"]:
        if c["id"] == arg:
            hide = not c.get("hidden", False)
            c["hidden"] = hide
            operations.apply_setup(desk, doc)
            desk.set(draft=None)
            desk.notify(f"{c['name']} is {'hidden from' if hide else 'shown on'} the table display.", "ok")
            return


def hide_button(cid: str, hidden: bool) -> str:
    """The referee's toggle: keep a combatant off the table display until revealed."""
    return h("button", {"type": "button", "class_": "hide-toggle" + (" is-hidden" if hidden else ""),
                        "data-action": f"hide:{cid}", "data-testid": "hide-toggle", "aria-pressed": str(hidden).lower(),
                        "title": "Hidden combatants are absent from the players' table display"},
             "Reveal on the table display" if hidden else "Hide from the table display")


def toggle_fullscreen() -> None:
    doc = document
    if not is_none(doc.fullscreenElement):
        doc.exitFullscreen()
        return
    el = doc.documentElement
    if not hasattr(el, "requestFullscreen"):
        return
    promise = el.requestFullscreen()
    if promise is not None and not is_none(promise):
        promise.catch(create_proxy(lambda err: window.console.info(f"Fray: fullscreen refused: {err}")))


def download(svg: str, name: str) -> None:
    """Save the table view as an SVG file (a recap image)."""
    blob = window.Blob.new(to_js([svg]), to_js({"type": "image/svg+xml"}, dict_converter=window.Object.fromEntries))
    url = window.URL.createObjectURL(blob)
    a = document.createElement("a")
    a.href = url
    safe = "".join(ch if ch.isalnum() else "-" for ch in name).strip("-")[:60] or "table"
    a.download = f"fray-{safe}.svg"
    document.body.appendChild(a)
    a.click()
    a.remove()
    window.setTimeout(create_proxy(lambda *_: window.URL.revokeObjectURL(url)), 1000)
