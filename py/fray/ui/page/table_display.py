"""The table window (`#table=KEY`): the players' screen, read-only, fed by the referee's tab.

The same index.html boots as usual; `app.start` sees the hash and starts this
instead of the referee's page, so no encounter, autosave or history lives
here: only the last players' view received on the tab's BroadcastChannel
(ui/controllers/table_link.py opens it). On load it says hello and the referee's tab answers with
the current view (a reload re-syncs at once); it says hello again every few
seconds, and shows "waiting for the referee" when the referee's tab says bye
or stops answering. A message that is malformed or of another version is
ignored and logged with console.info; its text is never shown.
"""
from __future__ import annotations

import json
from typing import Any

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none

from ...views.table_view import VERSION, message, read_message
from ..markup import table_markup
from ..dom.table_channel import channel_name, load_css
from ..dom.screen import download, toggle_fullscreen

HELLO_MS = 2000  # how often the table asks again
GONE_MS = 6000  # no answer for this long: the referee's tab is gone


class TablePage:
    """The table window: its channel, the last view and what is drawn."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.view: dict[str, Any] | None = None
        self.seq = -1
        self.heard = 0.0  # performance.now() of the last message from the referee
        self.drawn: dict[str, str] = {}
        self._proxies: list[Any] = []
        self.root = document.createElement("div")
        self.root.id = "table-root"
        self.root.className = "table-root"
        self.root.setAttribute("data-testid", "table-root")
        document.body.appendChild(self.root)
        self.channel = window.BroadcastChannel.new(channel_name(key))

    def _listen(self, target, kind: str, fn) -> None:
        proxy = create_proxy(fn)
        self._proxies.append(proxy)
        target.addEventListener(kind, proxy)

    def start(self) -> None:
        self._listen(self.channel, "message", self.on_message)
        self._listen(self.root, "click", self.on_click)
        self._listen(window, "pagehide", lambda *_: self.post("bye"))
        self.show_waiting()
        self.post("hello")
        proxy = create_proxy(lambda *_: self.tick())
        self._proxies.append(proxy)
        window.setInterval(proxy, HELLO_MS)

    def post(self, kind: str) -> None:
        msg = message(kind)
        msg["from"] = "table"
        self.channel.postMessage(json.dumps(msg))

    def tick(self) -> None:
        self.post("hello")
        if self.view is not None and float(window.performance.now()) - self.heard > GONE_MS:
            self.view = None
            self.show_waiting("The referee's tab stopped answering. Waiting for the referee…")

    def on_message(self, event) -> None:
        data = event.data
        msg, why = read_message(data if isinstance(data, str) else None if is_none(data) else data)
        if msg is None:
            window.console.info(f"Fray table display: ignored a message: {why}")
            return
        if msg.get("from") == "table":
            return  # another table window's hello or bye
        self.heard = float(window.performance.now())
        if msg["type"] == "bye":
            self.view = None
            self.seq = -1
            self.show_waiting("The referee's tab was closed. Waiting for the referee…")
            return
        if msg["type"] != "view":
            return
        try:
            self.draw(msg["view"])
        except Exception as exc:  # a view this page cannot draw: keep what is shown
            window.console.info(f"Fray table display: ignored a view it could not draw ({type(exc).__name__})")
            return
        self.view = msg["view"]
        self.seq = msg["seq"]

    def show_waiting(self, text: str = "Waiting for the referee…") -> None:
        self.drawn = {}
        self.root.innerHTML = str(table_markup.waiting(text))
        document.documentElement.dataset.table = "waiting"

    def draw(self, view: dict[str, Any]) -> None:
        """Write the parts that changed (header, field, sidebar), each as one string."""
        parts = {"head": table_markup.head(view), "field": table_markup.field(view),
                 "side": table_markup.side_panel(view)}
        if not self.drawn:
            self.root.innerHTML = (f'<div class="tv" data-testid="table-view">'
                                   f'<div id="tv-head"></div><div class="tv-body">'
                                   f'<div id="tv-field" class="tv-field-slot"></div>'
                                   f'<div id="tv-side" class="tv-side-slot"></div></div></div>')
        for name, markup in parts.items():
            if self.drawn.get(name) != markup:
                document.getElementById(f"tv-{name}").innerHTML = str(markup)
                self.drawn[name] = markup
        document.title = f"Fray table · {table_markup.text(view.get('name'))}"
        document.documentElement.dataset.table = "live"
        document.documentElement.dataset.tableSeq = str(self.seq + 1)

    def on_click(self, event) -> None:
        target = event.target.closest("[data-action]")
        if is_none(target):
            return
        action = str(target.getAttribute("data-action"))
        if action == "table-fullscreen":
            toggle_fullscreen()
        elif action == "table-export" and self.view is not None:
            download(table_markup.export_svg(self.view), table_markup.text(self.view.get("name")) or "table")


_page: TablePage | None = None


def start_table() -> None:
    """Boot as the table window: its stylesheet, its root, hello to the referee's tab, ready."""
    global _page
    key = str(window.location.hash)[len("#table"):].lstrip("=")
    if not key.isalnum():
        key = "default"
    load_css()
    document.documentElement.dataset.mode = "table"
    boot = document.getElementById("boot")
    if not is_none(boot):
        boot.hidden = True
    _page = TablePage(key)
    _page.start()
    document.title = "Fray table display"
    document.documentElement.dataset.ready = "true"
    window.performance.mark("fray-ready")
    ready = getattr(window, "frayBoot", None)
    if ready is not None and not is_none(ready):
        ready.ready()
    window.console.info(f"Fray table display: listening for the referee (format {VERSION})")
