"""The referee's side of the table display: its channel, the header's buttons, the players' view.

Each referee tab has a key of its own (kept in sessionStorage, so a reload
keeps it) and one BroadcastChannel named by it, so two referee tabs on two
encounters never cross-talk. "Open table display" opens `#table=KEY` in a
second window (ui/table_display.py draws it). The tab sends nothing until a
table window says hello; from then on every redraw sends the players' view
(views/table_view.py) when it changed. Only that view crosses the channel.
Cheap at start-up: the view and markup modules are imported on first use.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none

from .actions import Actions

if TYPE_CHECKING:
    from .app import App

clicks = Actions("click")
KEY_ITEM = "fray-table-key"
CHANNEL_PREFIX = "fray-table:"
CSS = "./static/css/table.css"


def channel_name(key: str) -> str:
    return CHANNEL_PREFIX + key


def tab_key() -> str:
    """This tab's table key: made once, kept through reloads (sessionStorage is per tab)."""
    try:
        key = window.sessionStorage.getItem(KEY_ITEM)
    except Exception:  # storage refused (a privacy mode): a key for this page's life
        key = None
    if key is None or is_none(key) or not str(key).isalnum():
        import os
        key = os.urandom(8).hex()  # a name, not a roll: the dice stay in engine/dice.py
        try:
            window.sessionStorage.setItem(KEY_ITEM, key)
        except Exception:
            pass
    return str(key)


def load_css() -> None:
    """The table display's stylesheet, added on first use (the referee's start-up does not load it)."""
    if is_none(document.getElementById("table-css")):
        link = document.createElement("link")
        link.id = "table-css"
        link.rel = "stylesheet"
        link.href = CSS
        document.head.appendChild(link)


def build_view(app: App) -> dict[str, Any]:
    """The players' view of the referee's fight now (memoised on the state)."""
    from ..rules import titles
    from ..views.table_view import table_view
    from .render import panel
    s = app.session
    enc = s.encounter
    title = titles().get(enc.system, enc.system) + (f" · {enc.profile}" if enc.profile else "")
    return app.memo("table-view", (s.state, len(s.steps)), lambda: table_view(
        s.state, s.steps, s.ruleset.field_view_for(enc.profile), s.ruleset.extra_views(enc.profile), title,
        panel(app)))  # the panel the referee's page draws from (memoised): built once for both


class TableLink:
    """The channel to this tab's table windows and what was last sent on it."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.key = tab_key()
        self.listening = False  # a table window said hello: send every change
        self.sent = ""  # the last view sent, as JSON
        self.seq = 0
        self._proxies: list[Any] = []
        self.channel = None
        try:
            self.channel = window.BroadcastChannel.new(channel_name(self.key))
        except Exception:  # no BroadcastChannel: the table display is not offered
            return
        self._listen(self.channel, "message", self.on_message)
        self._listen(window, "pagehide", lambda *_: self.post({"fray": "table", "v": self._version(),
                                                                "type": "bye"}))

    def _listen(self, target, kind: str, fn) -> None:
        proxy = create_proxy(fn)
        self._proxies.append((target, kind, proxy))
        target.addEventListener(kind, proxy)

    def close(self) -> None:
        """Stop listening and close the channel (App.close)."""
        for target, kind, proxy in self._proxies:
            target.removeEventListener(kind, proxy)
        self._proxies.clear()
        if self.channel is not None:
            self.channel.close()
            self.channel = None

    @staticmethod
    def _version() -> int:
        from ..views.table_view import VERSION
        return VERSION

    def post(self, msg: dict[str, Any]) -> None:
        if self.channel is not None:
            self.channel.postMessage(json.dumps(msg, separators=(",", ":")))

    def on_message(self, event) -> None:
        from ..views.table_view import read_message
        msg, why = read_message(event.data if isinstance(event.data, str) else None)
        if msg is None:
            window.console.info(f"Fray: ignored a message on the table channel: {why}")
            return
        if msg["type"] == "hello":
            self.listening = True
            self.send(force=True)
        elif msg["type"] == "bye" and msg.get("from") == "table":
            self.listening = False  # another table window still open says hello again within seconds

    def send(self, force: bool = False) -> None:
        """Send the players' view if a table listens and it changed (or when asked for it)."""
        if self.channel is None or not (self.listening or force) or self.app.session is None:
            return
        from ..views.table_view import message
        view = build_view(self.app)
        text = json.dumps(view, separators=(",", ":"), sort_keys=True)
        if text == self.sent and not force:
            return
        self.sent = text
        self.seq += 1
        self.post(message("view", view, self.seq))

    def before_render(self) -> None:
        """Before each redraw of the referee's page: send the table its view (it depends on the fight only)."""
        try:
            self.send()
        except Exception as exc:  # the table display must never break the referee's page
            window.console.warn(f"Fray: the table display was not updated ({type(exc).__name__}: {exc})")

    def after_render(self) -> None:
        """After each redraw of the referee's page: the players' view, if it is open."""
        try:
            self.draw_players_view()
        except Exception as exc:
            window.console.warn(f"Fray: the players' view was not drawn ({type(exc).__name__}: {exc})")

    def draw_players_view(self) -> None:
        app = self.app
        if not app.page.players_view:
            app.slots.clear("players-slot")
            return
        from .html import h
        from .table_markup import page
        view = build_view(app)
        markup = app.memo("players-view", (view,), lambda: h(
            "div", {"class_": "players-overlay", "data-testid": "players-view", "role": "dialog",
                    "aria-label": "Players' view"},
            h("button", {"type": "button", "class_": "tv-close", "data-action": "players-view",
                         "data-testid": "players-view-close"}, "Back to the referee's view"),
            page(view)))
        app.slots.html("players-slot", markup)


# --- the header's buttons and the referee's hide toggle ------------------------------------------

@clicks("table-open")
def open_table(app: App, name: str, arg: str, target) -> None:
    link: TableLink = app.table
    if link.channel is None:
        app.notify("This browser has no BroadcastChannel: the table display cannot follow this tab.", "error")
        app.render(field=False)
        return
    url = str(window.location.href).split("#")[0] + "#table=" + link.key
    opened = window.open(url, "fray-table-" + link.key)
    if opened is None or is_none(opened):
        app.notify(f"The browser blocked the new window: open {url} in another window of this browser.", "error")
    else:
        app.notify("The table display is open in another window: put it on the players' screen.", "ok")
    app.render(field=False)


@clicks("players-view")
def toggle_players_view(app: App, name: str, arg: str, target) -> None:
    load_css()
    app.set(players_view=not app.page.players_view)
    app.render(field=False)


@clicks("table-fullscreen")
def fullscreen(app: App, name: str, arg: str, target) -> None:
    toggle_fullscreen()


@clicks("table-export")
def export(app: App, name: str, arg: str, target) -> None:
    from .table_markup import export_svg
    download(export_svg(build_view(app)), app.session.encounter.name)


@clicks("hide")
def toggle_hidden(app: App, name: str, arg: str, target) -> None:
    """Hide a combatant from the table display, or reveal it: a setup change (undo takes it back)."""
    from ..engine import storage
    from . import editing
    doc = storage.encounter_to_json(app.session.encounter)
    for c in doc["combatants"]:
        if c["id"] == arg:
            hide = not c.get("hidden", False)
            c["hidden"] = hide
            editing.apply_setup(app, doc)
            app.set(draft=None)
            app.notify(f"{c['name']} is {'hidden from' if hide else 'shown on'} the table display.", "ok")
            app.render(field=False)
            return


def hide_button(cid: str, hidden: bool) -> str:
    """The referee's toggle: keep a combatant off the table display until revealed."""
    from .html import h
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
    from pyscript.ffi import to_js
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
