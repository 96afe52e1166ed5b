"""The page's wiring: start-up, and every browser event bound to its handler.

The App holds the session (the fight and its one history, in the engine),
the page state (ui/page.py, one frozen value) and the slots it draws into
(ui/patch.py). A click, a submitted form or a changed control names its
action in `data-action="name:arg"`; the name is looked up in the dispatch
tables of ui/play.py, ui/editing.py and ui/files.py, else offered to the
field views. Keys go through ui/keys.py, drawing through ui/render.py.
No rule decisions here: options, reasons and results come from the engine.
"""
from __future__ import annotations

import traceback
from dataclasses import replace
from typing import Any

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none

from ..engine.commands import Option
from ..engine.session import Session
from . import editing, files, keys, library_ui, play, render, roster_ui, table_link, warm
from .actions import Actions
from .page import Page
from .patch import Memo, Slots, StateCaches, attr

CLICKS = Actions.join(play.clicks, editing.clicks, files.clicks, library_ui.clicks, roster_ui.clicks,
                      table_link.clicks)
FORMS = Actions.join(play.forms, library_ui.forms)
CHANGES = Actions.join(play.changes, editing.changes, roster_ui.changes)
POINTER_EVENTS = ("pointerdown", "pointermove", "pointerup", "pointercancel", "wheel", "contextmenu")


def guarded(fn):
    """Event handlers never leave the page dead: report the error, keep the encounter."""
    def wrapper(self, *args):
        try:
            return fn(self, *args)
        except Exception as exc:
            window.console.warn("Fray: " + traceback.format_exc())
            self.notify(f"Something went wrong ({type(exc).__name__}: {exc}); the encounter is unchanged.",
                        "error")
            self.render()
    return wrapper


class App:
    """The session, the page state, the slots, and what the last drawing offered."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.page = Page()
        self.slots = Slots()
        self.memo = Memo()
        self.state_caches = StateCaches()  # per-state options, menus, panels (render.per_state)
        self.options: list[Option] = []  # the selected actor's options as drawn (clicks name them by index)
        self.numbers: dict[int, int] = {}  # shortcut number -> option index, as drawn
        self.asked: Any = None  # the question last focused (focus moves to a new one once)
        self.table: table_link.TableLink | None = None  # the channel to the table display (issue 18)
        self.store = None  # the library (ui/store.py), opened by library_ui.prepare before boot
        self.entry_id = ""  # the library entry this tab has open
        self.read_only = False  # another tab has this encounter (ui/tabs.py)
        self.warmer = warm.Warmer(self, later=self.when_idle)  # what the next taps need, made between taps
        self._idle_proxy: Any = None
        self._listening: list[tuple[Any, str, Any]] = []  # (target, event, proxy): App.close removes them
        self.closed = False  # let go of the page (App.close): its idle work and late callbacks do nothing

    # --- what every module uses ------------------------------------------------------
    def set(self, **changes: Any) -> None:
        """Change the page state (a new frozen value)."""
        self.page = replace(self.page, **changes)

    def notify(self, text: str, tone: str = "info") -> None:
        self.set(notice=(text, tone))

    def render(self, field: bool = True) -> None:
        if self.table is not None:
            self.table.before_render()  # the players' screen first: it waits on nothing the referee's page draws
        render.render(self, field)
        library_ui.draw(self)
        if self.table is not None:
            self.table.after_render()
        self.warmer.after_render()

    def when_idle(self, fn) -> None:
        """Run `fn` when the page is idle (requestIdleCallback; a timeout where there is none, as in WebKit)."""
        if self._idle_proxy is None:
            def run(*_):
                if self.closed:
                    return
                try:
                    self._idle_fn()
                except Exception:  # a background part failed: drop the rest, say so in the console
                    self.warmer.queue = []
                    window.console.warn("Fray: " + traceback.format_exc())
            self._idle_proxy = create_proxy(run)
        self._idle_fn = fn
        idle = getattr(window, "requestIdleCallback", None)
        if idle is not None and not is_none(idle):
            window.requestIdleCallback(self._idle_proxy)
        else:
            window.setTimeout(self._idle_proxy, 20)

    def panel(self):
        return render.panel(self)

    def autosave(self) -> None:
        files.autosave(self)

    def is_phone(self) -> bool:
        return int(window.innerWidth) < 760  # the CSS breakpoint of the one-column layout

    # --- start-up ---------------------------------------------------------------------
    def boot(self) -> None:
        files.restore(self)
        self.table = table_link.TableLink(self)
        self.bind()
        self.render()
        document.getElementById("boot").hidden = True
        document.getElementById("app").hidden = False
        document.title = f"Fray · {self.session.encounter.name}"
        document.documentElement.dataset.ready = "true"
        window.performance.mark("fray-ready")
        boot = getattr(window, "frayBoot", None)
        if boot is not None and not is_none(boot):
            boot.ready()

    def listen(self, target, kind: str, fn) -> None:
        proxy = create_proxy(fn)
        self._listening.append((target, kind, proxy))
        target.addEventListener(kind, proxy)

    def close(self) -> None:
        """Let go of what this App holds in the page: its listeners, the table channel, the library's
        channel, lock and database, and its background work. The page is then free for another App (the
        e2e tests open each test's App in one booted page: `install_restart`)."""
        self.closed = True
        self.warmer.queue = []
        for target, kind, proxy in self._listening:
            target.removeEventListener(kind, proxy)
        self._listening.clear()
        if self.table is not None:
            self.table.close()
        keeper = getattr(self, "keeper", None)
        if keeper is not None:
            keeper.close()
        if self.store is not None:
            self.store.close()

    def bind(self) -> None:
        root = self.slots.el("app")
        self.listen(root, "click", self.on_click)
        self.listen(root, "submit", self.on_submit)
        self.listen(root, "change", self.on_change)
        self.listen(document, "keydown", self.on_key)
        self.listen(window, "hashchange", self.on_hashchange)
        self.listen(self.slots.el("file-input"), "change", self.on_file)
        self.listen(self.slots.el("import-input"), "change", lambda e: library_ui.on_import_file(self, e))
        self.listen(self.slots.el("roster-input"), "change", lambda e: roster_ui.on_import_file(self, e))
        order = self.slots.el("order-slot")
        self.listen(order, "dragstart", self.on_dragstart)
        self.listen(order, "dragover", self.on_dragover)
        self.listen(order, "drop", self.on_drop)
        fld = self.slots.el("field-slot")
        for kind in POINTER_EVENTS:
            self.listen(fld, kind, self.on_pointer)

    # --- dispatch -------------------------------------------------------------------------
    def dispatch(self, name: str, arg: str, target) -> None:
        """A clicked `data-action`: its handler, else the field view that knows it."""
        if library_ui.refused(self, name):
            return
        handler = CLICKS.get(name)
        if handler is not None:
            handler(self, name, arg, target)
            return
        self.ask_views(lambda view, ctx: view.act(ctx, name, arg))

    def dispatch_form(self, name: str, arg: str, values: dict[str, str], op: str, form) -> None:
        """A submitted form: its handler, else a field view's own form (e.g. Ogre's before-the-fight)."""
        if library_ui.refused(self, name):
            return
        handler = FORMS.get(name)
        if handler is not None:
            handler(self, arg, values, op, form)
            return
        self.ask_views(lambda view, ctx: view.form(ctx, name, arg, values, op))

    def ask_views(self, ask) -> None:
        """Offer an action to the field views in turn; the first that takes it says what to do."""
        ctx = render.field_context(self)
        for view in render.views(self):
            result = ask(view, ctx)
            if result is not None:
                play.apply_field(self, result)
                return

    # --- events ---------------------------------------------------------------------------
    @guarded
    def on_click(self, event) -> None:
        if attr(event.target, "data-action") == "example":
            self.set(browsing_examples=False)  # a pointer opens the list: choosing opens at once
        target = event.target.closest("[data-action]")
        if is_none(target):
            return
        tag = str(target.tagName).lower()
        if tag in ("form", "select") or (tag == "input" and str(target.type) not in ("button", "submit")):
            return
        name, _, arg = attr(target, "data-action").partition(":")
        if tag == "a":
            event.preventDefault()
        self.dispatch(name, arg, target)

    @guarded
    def on_submit(self, event) -> None:
        event.preventDefault()
        form = event.target
        name, _, arg = attr(form, "data-action").partition(":")
        submitter = event.submitter
        op = "" if is_none(submitter) else str(submitter.value or "")
        values = {str(el.name): str(el.value) for el in form.elements if el.name}
        self.dispatch_form(name, arg, values, op, form)

    @guarded
    def on_change(self, event) -> None:
        t = event.target
        if self.read_only:
            return
        path = attr(t, "data-path")
        if path:
            kind = attr(t, "data-kind") or "text"
            checkbox = str(t.type) == "checkbox"
            raw = ("true" if t.checked else "false") if checkbox else str(t.value)
            if not is_none(t.closest("#dialog-slot, #editor-slot")):
                # A dialog's field (a table cell) or a setup field: let the focus reach where the referee
                # sent it (Tab, a click on the next cell) before the redraw, which then keeps it there.
                window.setTimeout(create_proxy(lambda *_: self.edit_later(str(path), kind, raw)), 0)
                return
            editing.edit_field(self, str(path), kind, raw)
            return
        action = attr(t, "data-action")
        if not action:
            return
        name, _, arg = action.partition(":")
        handler = CHANGES.get(name)
        if handler is not None:
            handler(self, arg, t)
        else:  # a view's own drop-down (e.g. OSE's spell list): its act() receives the chosen value
            self.ask_views(lambda view, ctx: view.act(ctx, name, str(t.value)))

    @guarded
    def edit_later(self, path: str, kind: str, raw: str) -> None:
        editing.edit_field(self, path, kind, raw)

    @guarded
    def on_key(self, event) -> None:
        if self.read_only and str(event.key) != "Escape":
            return
        keys.on_key(self, event)

    @guarded
    def on_hashchange(self, event) -> None:
        """A share link pasted into this tab: open it (undo returns here)."""
        self.set(dialog=None)
        loaded = files.take_link(self)
        if loaded is not None:
            files.open_link(self, loaded)
        else:
            self.render()

    @guarded
    def on_pointer(self, event) -> None:
        if self.read_only:
            return
        handler = getattr(render.views(self)[0], "pointer", None)
        if handler is None:
            return
        result = handler(render.field_context(self), event)
        if result is not None:
            play.apply_field(self, result)

    def on_dragstart(self, event) -> None:
        row = event.target.closest("[data-id]")
        if not is_none(row):
            event.dataTransfer.setData("text/plain", attr(row, "data-id"))

    def on_dragover(self, event) -> None:
        event.preventDefault()

    @guarded
    def on_drop(self, event) -> None:
        event.preventDefault()
        moved = str(event.dataTransfer.getData("text/plain"))
        if self.read_only:
            return
        row = event.target.closest("[data-id]")
        if is_none(row) or not moved:
            return
        play.reorder(self, moved, attr(row, "data-id"))

    def on_file(self, event) -> None:
        chosen = event.target.files
        if chosen.length:
            import asyncio
            asyncio.ensure_future(files.read_file(self, chosen.item(0)))
        event.target.value = ""


_app: App | None = None


def start() -> None:
    if str(window.location.hash).startswith("#table"):  # the players' table display (issue 18)
        from . import table_display
        table_display.start_table()
        return
    if "selftest=1" in str(window.location.search):
        install_selftest()
    hooks = getattr(window, "frayTestHooks", None)
    if hooks is not None and not is_none(hooks) and bool(hooks):
        install_restart()
    import asyncio
    asyncio.ensure_future(open_app())


async def open_app() -> None:
    """A new App on this page: the library read, then the first drawing (start-up does this once)."""
    global _app
    _app = App()
    try:
        await library_ui.prepare(_app)  # the library is read before the first drawing
    except Exception:
        window.console.warn("Fray: the library did not open: " + traceback.format_exc())
    _app.boot()


def install_restart() -> None:
    """Only where the page was opened with `window.frayTestHooks` set (the e2e tests' init script):
    `window.frayRestart.close(clear)` lets the App go and puts the page back as it was served (its
    session storage cleared unless `clear` is false);
    `window.frayRestart.open()` then starts a new App in it, as start-up does, reading storage afresh.
    Between the two the tests clear the origin's storage: a test gets a newly opened app in an already
    booted interpreter, in a fraction of a reload's time. Not part of the normal start-up."""
    import asyncio

    from pyscript.ffi import to_js

    from . import field_views, grid_pointer

    served = str(document.getElementById("app").innerHTML)

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
    import json
    import sys

    from .. import playout

    def run(cases, max_steps) -> str:
        return json.dumps({"python": sys.version, "results": playout.run_many(json.loads(str(cases)),
                                                                               int(max_steps))})

    window.frayPlayout = create_proxy(run)
