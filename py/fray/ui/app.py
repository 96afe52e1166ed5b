"""The page's wiring: start-up, every browser event bound to its handler, and the one redraw.

The App holds the desk (ui/desk/desk.py: the session, the page state, storage,
each feature's state) and the dispatcher. A click, a submitted form or a
changed control names its action in `data-action="name:arg"`; the name is
looked up in the dispatch tables of the controllers (ui/controllers/: play.py,
editing.py, files.py, library_ui.py, roster_ui.py, table_link.py and welcome.py), else offered to the
field views; keys go through ui/controllers/keys.py. Every handler receives the desk,
changes it and returns; `App.handle` then, once: refuses what a read-only
tab may not do (before the handler), autosaves if the history changed, and
redraws (`App.redraw`: the page, the library, the table display, the idle
warming). No rule decisions here: options, reasons and results come from
the engine.
"""
from __future__ import annotations

import asyncio
import json
import sys
import traceback
from typing import Any, Callable

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none, to_js

from . import preimport
from .controllers import (editing, files, keys, library_ui, paste_ui, place_ui, play, roster_ui,
                          table_link, welcome)
from .desk import entries, offers
from .field import field_views, grid_pointer
from .desk.players import build_view
from .page import drawing, paint, render, table_display, warm
from .controllers.actions import Actions
from .desk.desk import Desk
from .desk.page import field_inputs
from .dom.patch import attr
from .dom.table_channel import TableChannel

CLICKS = Actions.join(play.clicks, editing.clicks, files.clicks, library_ui.clicks, roster_ui.clicks,
                      table_link.clicks, welcome.clicks, place_ui.clicks, paste_ui.clicks)
FORMS = Actions.join(play.forms, library_ui.forms)
CHANGES = Actions.join(play.changes, editing.changes, roster_ui.changes, paste_ui.changes)
POINTER_EVENTS = ("pointerdown", "pointermove", "pointerup", "pointercancel", "wheel", "contextmenu")
# While another tab has the encounter, only looking, the library and taking over are allowed.
# Every library action ("lib-...") is allowed too; "outside" is what another tab, a lock or a promise says
# (ui/desk/desk.py `run`), and "link" a share link pasted into the address bar.
ALLOWED_READ_ONLY = frozenset((
    "library", "take-over", "cancel", "dismiss", "help", "rule", "tab", "select", "save", "export-log", "share",
    "copy-share", "outside", "link"))
Handler = Callable[[Desk], Any]
IDLE_TIMEOUT_MS = 200  # the idle work runs at least this often, idle period or not (ui/page/warm.py's parts are short)


SOON_JS = r"""
return (fn, afterPaint) => {
  const post = (globalThis.scheduler && scheduler.postTask)
    ? () => scheduler.postTask(fn, {priority: "user-visible"})
    : () => { const c = new MessageChannel(); c.port1.onmessage = () => fn(); c.port2.postMessage(0); };
  if (afterPaint) requestAnimationFrame(() => setTimeout(post, 0)); else post();
};
"""


class Soon:
    """Runs a function in a task of its own soon (scheduler.postTask, else a MessageChannel message), after
    the next frame has painted when asked: the odds a tap queued (ui/page/warm.py) never delay its paint."""

    def __init__(self, app: "App") -> None:
        self.app = app
        self.fn: Any = None
        self.proxy: Any = None
        self.js: Any = None

    def __call__(self, fn, after_paint: bool = False) -> None:
        if self.proxy is None:
            self.proxy = create_proxy(self.run)
            make = getattr(window, "Function", None)  # absent only in the CPython tests' fake window
            self.js = make(SOON_JS)() if make is not None else None
        self.fn = fn
        if self.js is not None:
            self.js(self.proxy, bool(after_paint))
        else:
            window.setTimeout(self.proxy, 0)

    def run(self, *_) -> None:
        if self.app.closed:
            return
        try:
            self.fn()
        except Exception:  # a background part failed: drop the rest, say so in the console
            self.app.warmer.queue = []
            window.console.warn("Fray: " + traceback.format_exc())


def idle_budget(deadline) -> float:
    """Milliseconds the idle work may take: the idle period's own length (a callback asked for inside one
    runs only in the next), at most warm.IDLE_MAX_MS; ui/page/warm.py yields at once to pending input."""
    left = getattr(deadline, "timeRemaining", None) if deadline is not None else None
    if left is None or is_none(left):
        return warm.BUDGET_MS
    return max(warm.BUDGET_MS, min(warm.IDLE_MAX_MS, float(deadline.timeRemaining()) - 1))


def input_pending():
    """A test for input waiting to be handled (Chromium's navigator.scheduling.isInputPending), or None."""
    nav = getattr(window, "navigator", None)
    scheduling = getattr(nav, "scheduling", None) if nav is not None and not is_none(nav) else None
    if scheduling is None or is_none(scheduling) or is_none(getattr(scheduling, "isInputPending", None)):
        return None
    return lambda: bool(scheduling.isInputPending())


class PanelLater:
    """A tap that only selects (or targets) someone (ui/controllers/play.py `select`, `desk.panel_later`) paints first
    what marks the selection: the order row, the token, the lane, the zones' distances. The action panel,
    the most of such a tap's drawing in a big fight (the menu's markup, its writing, its restyling: issue
    38, a tap paints within two frames at 120 combatants), and the warming after it are drawn in a task
    of their own once that frame has painted (`Soon`), unless a drawing before then draws them. The panel
    is then written with new elements (ui/dom/patch.py `Slots.fresh`): a button found on the panel before
    (a test's handle) is gone, never another option. A tap or a form on the panel before it is drawn
    (the one frame between) draws it and does nothing: its option was the selection before's."""

    def __init__(self, app: "App") -> None:
        self.app = app
        self.waiting = False  # a panel is left to draw
        self.soon = Soon(app)
        self.guarded = False

    def drawn(self, desk: Desk) -> None:
        """After a drawing (which left the panel out if `desk.panel_later`: ui/page/render.py): ask for the panel's
        task, or (the panel drawn) warm at once. Where no task after the paint can be had (the CPython tests'
        fake window), the panel is drawn now."""
        later, desk.panel_later = desk.panel_later, False
        if later and getattr(window, "Function", None) is None:
            render.draw_actions(desk)
            later = False
        if not later:
            self.waiting = False
            self.app.warmer.after_render()
            return
        if not self.guarded:  # a tap on the panel before it is drawn (capture: before the app's own listeners)
            self.guarded = True
            for kind in ("click", "submit", "change"):
                self.app.listen(desk.slots.el("actions-slot"), kind, self.stale, capture=True)
        if not self.waiting:
            self.waiting = True
            self.soon(self.draw, True)

    def draw(self) -> None:
        app = self.app
        if app.closed or not self.waiting or app.desk.session is None:
            return
        self.waiting = False
        try:
            render.draw_actions(app.desk, afresh=True)
        except Exception as exc:
            app._failed(exc)
            return
        app.warmer.after_render()

    def stale(self, event) -> None:
        if self.waiting:
            target = getattr(event, "target", None)
            if str(getattr(event, "type", "")) == "click" and target is not None and not is_none(target) \
                    and hasattr(target, "closest") and not is_none(target.closest("summary")):
                return  # opening or closing a section acts on no one: the new panel keeps it (Slots.fresh)
            event.preventDefault()
            event.stopPropagation()
            self.draw()


class App:
    """The desk, the dispatcher that runs every handler, and the one redraw after it."""

    def __init__(self) -> None:
        self.desk = Desk(run=self.handle)
        self.warmer = warm.Warmer(self.desk, later=self.when_idle, soon=Soon(self))  # made between taps
        self.warmer.pending = input_pending()
        self._depth = 0  # > 0 while a handler runs: a handler it calls is part of its work
        self._edits: list[tuple[str, ...]] = []  # setup fields changed, not yet applied
        self._idle_proxy = self._idle_options = None  # (made at the first request: `when_idle`)
        self._listening: list[tuple[Any, str, Any, bool]] = []  # (target, event, proxy, capture): App.close ends
        self.closed = False  # let go of the page (App.close): its idle work and late callbacks do nothing
        self.painter = paint.Painter(self)  # the next visit's painted start (ui/page/paint.py)
        self.later = PanelLater(self)  # a selection's action panel, drawn once the tap has painted

    # --- the dispatcher ---------------------------------------------------------------------
    def handle(self, fn: Handler, name: str = "outside", say_refused: bool = True) -> None:
        """Run one handler: refuse it in a read-only tab (unless it only looks), then, once, autosave if the
        history changed and redraw. A handler returns nothing, False when the event was not its (a key
        of no meaning, a pointer move): nothing is saved or drawn then, or a coroutine: it is awaited
        after the redraw, and followed by another save and redraw."""
        desk = self.desk
        if self.closed:
            return
        if self._depth:  # called from inside a handler (a lock granted at once): part of that handler's work
            self._start(fn(desk))
            return
        if desk.read_only and name not in ALLOWED_READ_ONLY and not name.startswith("lib-"):
            if say_refused:
                desk.notify("This encounter is open in another tab: take over here to change it.", "info")
                self.redraw(field=False)
            return
        before = self._marks()
        desk.field_acted = desk.panel_later = False
        self._depth += 1
        try:
            result = fn(desk)
        except Exception as exc:
            self._failed(exc)
            return
        finally:
            self._depth -= 1
        if result is False:
            return
        self._after(before)
        self._start(result)

    def _start(self, result: Any) -> None:
        if asyncio.iscoroutine(result):
            asyncio.ensure_future(self._finish(result))

    async def _finish(self, work) -> None:
        """A handler's awaited part (a file read, the library reloaded, another tab's save): then the same
        save and redraw as after any handler (the field only if the fight or the selection changed)."""
        before = self._marks()
        try:
            await work
        except Exception as exc:
            if not self.closed:
                self._failed(exc)
            return
        if not self.closed:
            self._after(before)

    def _marks(self) -> tuple[tuple, tuple]:
        """(the history, what the field draws from: the fight, the page's `DRAWN_IN_FIELD`), before and after."""
        desk = self.desk
        s = desk.session
        if s is None:
            return (None,), (None,)
        history = (s, len(s.history), len(s.undone), s.state, s.encounter, s.physical_dice, s.hand_sides)
        return history, (s, s.state, s.encounter) + field_inputs(desk.page)

    def _after(self, before: tuple[tuple, tuple]) -> None:
        """Once: autosave if the history changed; redraw, the field only if what it draws from changed."""
        history, fielded = self._marks()
        desk = self.desk
        # The same session with another history: save it. (Another session altogether is an entry opened
        # or read as another tab saved it: already stored.)
        if desk.session is not None and history[0] is before[0][0] and any(
                a is not b for a, b in zip(history[1:], before[0][1:])):
            entries.autosave(desk)
        changed = any(a is not b and a != b for a, b in zip(fielded, before[1]))
        self.redraw(field=changed or desk.field_acted)
        desk.field_acted = False
        self.painter.note()

    def _failed(self, exc: Exception) -> None:
        """A handler failed: say so, keep the encounter, leave the page alive."""
        window.console.warn("Fray: " + traceback.format_exc())
        self.desk.notify(f"Something went wrong ({type(exc).__name__}: {exc}); the encounter is unchanged.", "error")
        self.redraw()

    def redraw(self, field: bool = True) -> None:
        """The one redraw, after each handler: the table display first (it waits on nothing the referee's
        page draws), the page, the library and banner, the players' view, then the idle warming (`PanelLater`)."""
        desk = self.desk
        if desk.session is None or self.closed:
            return
        if desk.table is not None:
            desk.table.before_render()
        drawing.draw(desk, field)
        self.later.drawn(desk)

    def when_idle(self, fn) -> None:
        """Run `fn` when the page is idle (requestIdleCallback; a timeout where there is none, as in WebKit)."""
        if self._idle_proxy is None:
            def run(deadline=None, *_):
                if self.closed:
                    return
                try:
                    # The idle period's own length, a part at a time (ui/page/warm.py yields at once to pending
                    # input): a callback asked for inside one runs only in the next, so a fixed 4 ms per
                    # period left most of an idle page unused (the odds of a busy actor took seconds).
                    self._idle_fn(idle_budget(deadline))
                except Exception:  # a background part failed: drop the rest, say so in the console
                    self.warmer.queue = []
                    window.console.warn("Fray: " + traceback.format_exc())
            self._idle_proxy = create_proxy(run)
        self._idle_fn = fn
        idle = getattr(window, "requestIdleCallback", None)
        if idle is not None and not is_none(idle):
            # With a timeout: on a busy machine (a CI runner, a tablet with other tabs) idle periods can be
            # rare enough that the warming, and the odds behind it, waited tens of seconds.
            if self._idle_options is None:
                self._idle_options = to_js({"timeout": IDLE_TIMEOUT_MS}, dict_converter=window.Object.fromEntries)
            window.requestIdleCallback(self._idle_proxy, self._idle_options)
        else:
            window.setTimeout(self._idle_proxy, 20)

    # --- start-up ---------------------------------------------------------------------
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

    def listen(self, target, kind: str, fn, capture: bool = False) -> None:
        proxy = create_proxy(fn)
        self._listening.append((target, kind, proxy, capture))
        target.addEventListener(kind, proxy, capture)

    def close(self) -> None:
        """Let go of what this App holds in the page: its listeners, the table channel, the library's
        channel, lock and database, and its background work. The page is then free for another App (the
        e2e tests open each test's App in one booted page: `install_restart`)."""
        self.closed = True
        self.warmer.queue = []
        for target, kind, proxy, capture in self._listening:
            target.removeEventListener(kind, proxy, capture)
        self._listening.clear()
        desk = self.desk
        if desk.table is not None:
            desk.table.close()
        desk.keeper.close()
        desk.store.close()

    def bind(self) -> None:
        slots = self.desk.slots
        root = slots.el("app")
        self.listen(root, "click", self.on_click)
        self.listen(root, "submit", self.on_submit)
        self.listen(root, "change", self.on_change)
        self.listen(document, "keydown", self.on_key)
        self.listen(window, "hashchange", self.on_hashchange)
        self.listen(slots.el("file-input"), "change", self.on_file)
        self.listen(slots.el("import-input"), "change",
                    lambda e: self.handle(lambda d: library_ui.on_import_file(d, e), "lib-import"))
        self.listen(slots.el("roster-input"), "change",
                    lambda e: self.handle(lambda d: roster_ui.on_import_file(d, e), "roster-import"))
        order = slots.el("order-slot")
        self.listen(order, "dragstart", self.on_dragstart)
        self.listen(order, "dragover", self.on_dragover)
        self.listen(order, "drop", self.on_drop)
        for slot in (slots.el("field-slot"), slots.el("editor-slot")):  # the field; the placement map's drags
            for kind in POINTER_EVENTS:
                self.listen(slot, kind, self.on_pointer)

    # --- from an event to its handler ------------------------------------------------------------
    def dispatch(self, name: str, arg: str, target) -> None:
        """A clicked `data-action`: its handler, else the field view that knows it."""
        handler = CLICKS.get(name)
        if handler is not None:
            self.handle(lambda d: handler(d, name, arg, target), name)
        else:
            self.handle(lambda d: ask_views(d, lambda view, ctx: view.act(ctx, name, arg)), name)

    def dispatch_form(self, name: str, arg: str, values: dict[str, str], op: str, form) -> None:
        """A submitted form: its handler, else a field view's own form (e.g. Ogre's before-the-fight)."""
        handler = FORMS.get(name)
        if handler is not None:
            self.handle(lambda d: handler(d, arg, values, op, form), name)
        else:
            self.handle(lambda d: ask_views(d, lambda view, ctx: view.form(ctx, name, arg, values, op)), name)

    def edit_later(self, *edit: str) -> None:
        """Apply a setup field's change, and those waiting (before a click too: "Back to the fight" sees each
        applied or refused, never left behind)."""
        waiting, self._edits = self._edits + ([edit] if edit else []), []
        for path, kind, raw in waiting:
            self.handle(lambda d, p=path, k=kind, r=raw: editing.edit_field(d, p, k, r), "edit", say_refused=False)

    # --- events ---------------------------------------------------------------------------
    def on_click(self, event) -> None:
        self.edit_later()
        if attr(event.target, "data-action") == "example":
            self.desk.set(browsing_examples=False)  # a pointer opens the list: choosing opens at once
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

    def on_submit(self, event) -> None:
        event.preventDefault()
        form = event.target
        name, _, arg = attr(form, "data-action").partition(":")
        submitter = event.submitter
        op = "" if is_none(submitter) else str(submitter.value or "")
        # A checkbox or radio button counts only when checked, as the browser's own form data has it.
        values = {str(el.name): str(el.value) for el in form.elements
                  if el.name and not (str(el.type) in ("checkbox", "radio") and not el.checked)}
        self.dispatch_form(name, arg, values, op, form)

    def on_change(self, event) -> None:
        t = event.target
        path = attr(t, "data-path")
        if path:
            kind = attr(t, "data-kind") or "text"
            checkbox = str(t.type) == "checkbox"
            raw = ("true" if t.checked else "false") if checkbox else str(t.value)
            if not is_none(t.closest("#dialog-slot, #editor-slot")):
                # A dialog's field (a table cell) or a setup field: let the focus reach where the referee
                # sent it (Tab, a click on the next cell) before the redraw, which then keeps it there.
                self._edits.append((str(path), kind, raw))
                window.setTimeout(create_proxy(lambda *_: self.edit_later()), 0)
                return
            self.edit_later(str(path), kind, raw)
            return
        action = attr(t, "data-action")
        if not action:
            return
        name, _, arg = action.partition(":")
        handler = CHANGES.get(name)
        if handler is not None:
            self.handle(lambda d: handler(d, arg, t), name, say_refused=False)
        else:  # a view's own drop-down (e.g. OSE's spell list): its act() receives the chosen value
            self.handle(lambda d: ask_views(d, lambda view, ctx: view.act(ctx, name, str(t.value))), name,
                        say_refused=False)

    def on_key(self, event) -> None:
        name = "cancel" if str(event.key) == "Escape" else "key"
        self.handle(lambda d: keys.on_key(d, event), name, say_refused=False)

    def on_hashchange(self, event) -> None:
        """A share link pasted into this tab: open it (undo returns here)."""
        def opened(desk: Desk) -> None:
            desk.set(dialog=None)
            loaded = entries.take_link(desk)
            if loaded is not None:
                files.open_link(desk, loaded)
        self.handle(opened, "link")

    def on_pointer(self, event) -> None:
        self.handle(lambda d: pointed(d, event), "pointer", say_refused=False)

    def on_dragstart(self, event) -> None:
        row = event.target.closest("[data-id]")
        if not is_none(row):
            event.dataTransfer.setData("text/plain", attr(row, "data-id"))

    def on_dragover(self, event) -> None:
        event.preventDefault()

    def on_drop(self, event) -> None:
        event.preventDefault()
        moved = str(event.dataTransfer.getData("text/plain"))
        row = event.target.closest("[data-id]")
        if is_none(row) or not moved:
            return
        self.handle(lambda d: play.reorder(d, moved, attr(row, "data-id")), "reorder", say_refused=False)

    def on_file(self, event) -> None:
        chosen = event.target.files
        file = chosen.item(0) if chosen.length else None
        event.target.value = ""
        if file is not None:
            self.handle(lambda d: files.read_file(d, file), "open")


def ask_views(desk: Desk, ask) -> bool | None:
    """Offer an action to the field views in turn; the first that takes it says what to do. False (nothing
    to save or draw) when none takes it."""
    ctx = offers.field_context(desk)
    for view in offers.views(desk):
        result = ask(view, ctx)
        if result is not None:
            play.apply_field(desk, result)
            return None
    return False


def pointed(desk: Desk, event) -> bool | None:
    """A pointer event on the field: the field view's gesture, if it makes one (most moves do not); in the
    setup, the placement map's drag (ui/controllers/place_ui.py)."""
    if attr(event.currentTarget, "id") == "editor-slot":
        return place_ui.pointer(desk, event)
    handler = getattr(offers.views(desk)[0], "pointer", None)
    if handler is None:
        return False
    result = handler(offers.field_context(desk), event)
    if result is None:
        return False
    play.apply_field(desk, result)
    return None


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
