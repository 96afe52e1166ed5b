"""The channel from a referee's tab to its table windows (the players' display, ui/page/table_display.py).

Each referee tab has a key of its own (kept in sessionStorage, so a reload
keeps it) and one BroadcastChannel named by it, so two referee tabs on two
encounters never cross-talk. The tab sends nothing until a table window says
hello; from then on each redraw sends the players' view when it changed. The
view is built by the function the channel is given (ui/controllers/table_link.py
`build_view`); only that view crosses the channel.
"""
from __future__ import annotations

import json
import os
from typing import Any, Callable

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none

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


def _version() -> int:
    from ...views.table_view import VERSION  # the view modules are imported on first use: cheap start-up
    return VERSION


class TableChannel:
    """The channel to this tab's table windows and what was last sent on it."""

    def __init__(self, build: Callable[[], dict[str, Any] | None]) -> None:
        self.build = build  # the players' view of the fight now (None: no fight yet)
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
        self._listen(window, "pagehide", lambda *_: self.post({"fray": "table", "v": _version(), "type": "bye"}))

    def _listen(self, target, kind: str, fn) -> None:
        proxy = create_proxy(fn)
        self._proxies.append((target, kind, proxy))
        target.addEventListener(kind, proxy)

    def close(self) -> None:
        """Stop listening and close the channel (the App let go of the page)."""
        for target, kind, proxy in self._proxies:
            target.removeEventListener(kind, proxy)
        self._proxies.clear()
        if self.channel is not None:
            self.channel.close()
            self.channel = None

    def post(self, msg: dict[str, Any]) -> None:
        if self.channel is not None:
            self.channel.postMessage(json.dumps(msg, separators=(",", ":")))

    def on_message(self, event) -> None:
        from ...views.table_view import read_message
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
        if self.channel is None or not (self.listening or force):
            return
        from ...views.table_view import message
        view = self.build()
        if view is None:
            return
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
