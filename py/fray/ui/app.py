"""The page's start-up: the App (its binding and its dispatcher) built, the library read, the first drawing.

The App holds the desk (ui/desk/desk.py: the session, the page state, storage,
each feature's state). It is its two parts: the binding (ui/binding.py: every
browser event to its handler in the controllers' dispatch tables, ui/controllers/,
else the field views) and the dispatcher (ui/dispatch.py: every handler receives
the desk, changes it and returns; `handle` then, once, refuses what a read-only
tab may not do, autosaves if the history changed, and redraws: the page, the
library, the table display, the idle warming). Start-up (`start`) opens it on
the page, or the table display, and the test hooks where asked. No rule
decisions here: options, reasons and results come from the engine.
"""
from __future__ import annotations

import asyncio
import json
import sys
import traceback

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none, to_js

from . import preimport
from .binding import Binding
from .controllers import library_ui, welcome
from .desk import entries
from .dispatch import Dispatcher
from .field import field_views, grid_pointer
from .desk.players import build_view
from .page import paint, table_display
from .dom.table_channel import TableChannel


class App(Binding, Dispatcher):
    """The desk, the binding of the page's events (ui/binding.py) and the dispatcher that runs every
    handler and redraws once after it (ui/dispatch.py)."""

    def __init__(self) -> None:
        super().__init__()
        self._edits: list[tuple[str, ...]] = []  # setup fields changed, not yet applied

    def boot(self) -> None:
        desk = self.desk
        welcome.greet(desk, entries.restore(desk))  # a first visit: the welcome, over the demo fight
        desk.table = TableChannel(lambda: build_view(desk))
        self.bind()
        document.getElementById("boot").hidden = True
        document.getElementById("app").hidden = False  # before drawing: a dialog (the welcome) gets the focus
        self.redraw()
        document.title = f"Fray · {desk.session.encounter.name}"
        document.documentElement.dataset.ready = "true"
        window.performance.mark("fray-ready")
        self.painter.go_live()  # boot.js told: a painted page is live (taps made while it started applied or refused)


_app: App | None = None


def start() -> None:
    preimport.settle()  # the page's own objects where the start-up snapshot's modules hold stand-ins
    window.performance.mark("fray-stage:Python imports done")  # the page bench's boot breakdown (issue 36)
    if str(window.location.hash).startswith("#table"):  # the players' table display
        table_display.start_table()
        return
    if "selftest=1" in str(window.location.search):
        install_selftest()
    hooks = getattr(window, "frayTestHooks", None)
    if hooks is not None and not is_none(hooks) and bool(hooks):
        install_restart()
    asyncio.ensure_future(open_app())


async def open_app() -> None:
    """A new App on this page: the library read, then the first drawing (start-up does this once)."""
    global _app
    _app = App()
    window.performance.mark("fray-stage:App built")
    try:
        await library_ui.prepare(_app.desk)  # the library is read before the first drawing
    except Exception:
        window.console.warn("Fray: the library did not open: " + traceback.format_exc())
    window.performance.mark("fray-stage:Library read")
    _app.boot()


def install_restart() -> None:
    """Only where the page was opened with `window.frayTestHooks` set (the e2e tests' init script):
    `window.frayRestart.close(clear)` lets the App go and puts the page back as it was served (its
    session storage cleared unless `clear` is false);
    `window.frayRestart.open()` then starts a new App in it, as start-up does, reading storage afresh.
    Between the two the tests clear the origin's storage: a test gets a newly opened app in an already
    booted interpreter, in a fraction of a reload's time. Not part of the normal start-up."""
    served = paint.served()  # as served, not as painted (static/boot/boot.js)

    def close(clear=True, *_) -> None:
        if _app is not None:
            _app.close()
        grid_pointer.forget()
        field_views.forget()
        document.documentElement.removeAttribute("data-ready")
        el = document.getElementById("app")
        el.hidden = True
        el.innerHTML = served
        if clear is True:  # else the tab's session storage stays, as through a reload
            window.sessionStorage.clear()
        window.history.replaceState(None, "", str(window.location.pathname) + str(window.location.search))
        window.scrollTo(0, 0)

    def reopen(*_) -> None:
        asyncio.ensure_future(open_app())

    window.frayRestart = to_js({"close": create_proxy(close), "open": create_proxy(reopen)},
                               dict_converter=window.Object.fromEntries)


def install_selftest() -> None:
    """Only with `?selftest=1` in the URL: `window.frayPlayout(casesJson, maxSteps)` plays seeded random
    fights in this page's Python and returns their digests as JSON (tests/e2e/test_in_page_playouts.py
    compares them with CPython's). Not part of the normal start-up."""
    from .. import playout  # the test playouts: not part of the normal start-up

    def run(cases, max_steps) -> str:
        return json.dumps({"python": sys.version, "results": playout.run_many(json.loads(str(cases)),
                                                                               int(max_steps))})

    window.frayPlayout = create_proxy(run)
