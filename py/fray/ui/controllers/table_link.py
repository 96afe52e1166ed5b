"""The referee's side of the table display: the players' view, the header's buttons, the hide toggle.

"Open table display" opens `#table=KEY` in a second window (ui/page/table_display.py
draws it), fed through this tab's channel (ui/dom/table_channel.py) with the players'
view (ui/desk/players.py). The referee can also show the players' view over this
page (drawn by ui/page/drawing.py).
"""
from __future__ import annotations

from pyscript import window
from pyscript.ffi import is_none

from ...engine import storage
from ..desk import operations
from ..desk.players import build_view
from ..markup import table_markup
from .actions import Actions
from ..desk.desk import Desk
from ..dom.screen import download, toggle_fullscreen
from ..dom.table_channel import load_css

clicks = Actions("click")


# --- the header's buttons and the referee's hide toggle ------------------------------------------

@clicks("table-open")
def open_table(desk: Desk, name: str, arg: str, target) -> None:
    link = desk.table
    if link is None or link.channel is None:
        desk.notify("This browser has no BroadcastChannel: the table display cannot follow this tab.", "error")
        return
    url = str(window.location.href).split("#")[0] + "#table=" + link.key
    opened = window.open(url, "fray-table-" + link.key)
    if opened is None or is_none(opened):
        desk.notify(f"The browser blocked the new window: open {url} in another window of this browser.", "error")
    else:
        desk.notify("The table display is open in another window: put it on the players' screen.", "ok")


@clicks("players-view")
def toggle_players_view(desk: Desk, name: str, arg: str, target) -> None:
    load_css()
    desk.set(players_view=not desk.page.players_view)


@clicks("table-fullscreen")
def fullscreen(desk: Desk, name: str, arg: str, target) -> None:
    toggle_fullscreen()


@clicks("table-export")
def export(desk: Desk, name: str, arg: str, target) -> None:
    download(table_markup.export_svg(build_view(desk)), desk.session.encounter.name)


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
