"""The dispatcher: every handler run once, then one autosave and one redraw; the work left for after the paint.

`Dispatcher` (the App's part that runs handlers: ui/app.py) refuses what a read-only tab may not do (before
the handler), autosaves if the history changed, and redraws once (`redraw`: the table display, the page, the
library, the players' view), the field only if what it draws from changed. `PanelLater` draws a selection's
action panel once the tap has painted (`Soon`), and `when_idle` runs the warming (ui/page/warm.py) in idle time.
"""
from __future__ import annotations

import asyncio
import traceback
from typing import Any, Callable

from pyscript import window
from pyscript.ffi import create_proxy, is_none, to_js

from .desk import entries
from .page import drawing, map_images, paint, render, warm
from .desk.desk import Desk
from .desk.page import field_inputs

# While another tab has the encounter, only looking, the library and taking over are allowed.
# Every library action ("lib-...") is allowed too; "outside" is what another tab, a lock or a promise says
# (ui/desk/desk.py `run`), and "link" a share link pasted into the address bar.
ALLOWED_READ_ONLY = frozenset((
    "library", "take-over", "cancel", "dismiss", "help", "rule", "tab", "select", "save", "export-log", "share",
    "copy-share", "outside", "link", "review", "review-at", "review-now", "recap", "recap-players", "recap-export"))
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

    def __init__(self, app: "Dispatcher") -> None:
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

    def __init__(self, app: "Dispatcher") -> None:
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


class Dispatcher:
    """The desk, the dispatcher that runs every handler, and the one redraw after it."""

    def __init__(self) -> None:
        self.desk = Desk(run=self.handle)
        self.warmer = warm.Warmer(self.desk, later=self.when_idle, soon=Soon(self))  # made between taps
        self.warmer.pending = input_pending()
        self._depth = 0  # > 0 while a handler runs: a handler it calls is part of its work
        self._idle_proxy = self._idle_options = None  # (made at the first request: `when_idle`)
        self._listening: list[tuple[Any, str, Any, bool]] = []  # (target, event, proxy, capture): `close` ends
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
        map_images.ensure(desk)  # a map image read from the browser's store: drawn by a redraw when ready
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

    def listen(self, target, kind: str, fn, capture: bool = False) -> None:
        proxy = create_proxy(fn)
        self._listening.append((target, kind, proxy, capture))
        target.addEventListener(kind, proxy, capture)

    def close(self) -> None:
        """Let go of all this App holds in the page (listeners, channels, lock, databases, work) for another App."""
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
        map_images.close()
