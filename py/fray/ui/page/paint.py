"""The painted start: the referee's last fight kept as markup, for the next visit to draw before Python is up.

After the history changes (and once a visit, if nothing was painted from this
build), a moment later and when the page is idle (at once when the page is
hidden or left), the page's first drawing of the saved fight is made aside
and stored in local storage (`fray.paint`) with the build it comes from
(static/build/build-id.js, written by tools/offline.py). On the next visit
static/boot/boot.js puts that markup into the app root before PyScript
loads, inert and marked as starting; Python's first drawing then morphs the
same nodes (ui/dom/patch.py) and finds nothing to change.

What is stored is not the live page (a selection, a dialog, the odds written
in, a zoomed map) but what the first drawing of a new visit shows for the
saved fight: `first_drawing` draws it with a fresh page state into a
`Recorder`, whose slots are then written into the page as served (boot.js
kept it) in one call into JS. A markup too large for the cap, a build with
no id, a write the browser refuses: the stale entry is removed, nothing said.
"""
from __future__ import annotations

import json
import traceback
from typing import Any

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none, to_js

from . import drawing
from ..desk.desk import Desk
from ..markup.html import unmarked
from ..dom.patch import Slots, offstage

PAINT_KEY = "fray.paint"
VERSION = 1
CAP_CHARS = 1_500_000  # ~3 MB as the browser counts it (UTF-16): well inside local storage's 5 MB
DELAY_MS = 1500  # after the last change: a run of taps stores once, never on a tap's path
IDLE_TIMEOUT_MS = 2000

# The page as served with each slot's markup written in, as one string (a template's content is inert:
# nothing in it loads or runs).
COMPOSE_JS = r"""
return (served, slots, attrs) => {
  const t = document.createElement("template");
  t.innerHTML = served;
  const root = t.content;
  for (const [id, html] of slots) {
    const e = root.getElementById(id);
    if (!e) return null;
    e.innerHTML = html;
  }
  for (const [id, name, value] of attrs) {
    const e = root.getElementById(id);
    if (!e) return null;
    e.dataset[name] = value;
  }
  return t.innerHTML;
};
"""


# --- the stored entry (pure: tests/unit/test_paint.py) ---------------------------------------------

def encode(build: str, entry_id: str, html: str, cap: int = CAP_CHARS) -> str | None:
    """The stored entry's text, or None when it must not be kept (no build id, no markup, too large)."""
    if not build or not html or len(html) > cap:
        return None
    return json.dumps({"v": VERSION, "build": build, "entry": entry_id, "html": html}, separators=(",", ":"))


def decode(text: Any, build: str) -> dict | None:
    """The stored entry if it is whole, of this version and of this build; None otherwise (corrupt, foreign,
    stale: the caller removes it). Never raises."""
    if not isinstance(text, str) or not build:
        return None
    try:
        entry = json.loads(text)
    except ValueError:
        return None
    if not isinstance(entry, dict) or entry.get("v") != VERSION or entry.get("build") != build:
        return None
    if not isinstance(entry.get("html"), str) or not entry["html"] or len(entry["html"]) > CAP_CHARS:
        return None
    return entry


def store(storage: Any, text: str | None) -> bool:
    """Keep `text` under PAINT_KEY; None or a refused write removes the stale entry. True if kept."""
    try:
        if text is not None:
            storage.setItem(PAINT_KEY, text)
            return True
    except Exception:  # the quota, a browser that keeps nothing: no painted start, nothing said
        pass
    try:
        storage.removeItem(PAINT_KEY)
    except Exception:
        pass
    return False


# --- the first drawing, made aside ------------------------------------------------------------------

class Recorder(Slots):
    """Slots that keep the markup each slot would get, and write nothing into the page."""

    def __init__(self) -> None:
        super().__init__()
        self.attrs: dict[tuple[str, str], str] = {}

    def el(self, id_: str):
        raise RuntimeError(f"the first drawing made aside reached for #{id_}")

    def html(self, slot: str, markup: str) -> bool:
        old = self._html.get(slot)
        self._html[slot] = str(markup)
        return old != markup

    def form(self, slot: str, markup: str) -> None:
        self.html(slot, markup)

    def fresh(self, slot: str, markup: str) -> bool:
        return self.html(slot, markup)

    def rows(self, slot: str, container: str, rows: list[str], wrap) -> None:
        self.html(slot, wrap(rows))

    def dialog(self, slot: str, markup: str) -> bool:
        self.html(slot, markup)
        return False  # nothing is focused

    def clear(self, slot: str) -> None:
        self._html[slot] = ""

    def amend(self, slot: str, parts: dict[str, str]) -> None:
        pass

    def data(self, id_: str, name: str, value: str) -> None:
        self.attrs[(id_, name)] = value

    def title(self, text: str) -> None:
        pass

    def slots(self) -> dict[str, str]:
        return dict(self._html)


def first_drawing(desk: Desk) -> Recorder:
    """What a new visit's first drawing of `desk`'s saved fight writes: a fresh page state (no selection
    of the referee's, no dialog, notice or odds), the session as its save opens again, the same pure caches."""
    aside = Desk(session=desk.session.reopened(), store=desk.store, keeper=desk.keeper, entry_id=desk.entry_id,
                 memo=desk.memo, state_caches=desk.state_caches, slots=Recorder())
    with offstage():
        drawing.draw(aside, True)
    return aside.slots


# --- in the page ------------------------------------------------------------------------------

def _boot() -> Any:
    boot = getattr(window, "frayBoot", None)
    return None if boot is None or is_none(boot) else boot


def served(fallback: bool = True) -> str:
    """The app root's markup as the page was served (boot.js kept it before painting over it); without
    boot.js's copy, the app root's markup now (a page at start-up) or "" (`fallback=False`)."""
    boot = _boot()
    kept = getattr(boot, "served", None) if boot is not None else None
    if kept is not None and not is_none(kept) and str(kept):
        return str(kept)
    return str(document.getElementById("app").innerHTML) if fallback else ""


def was_painted() -> bool:
    """This visit started from a painted page (boot.js drew `fray.paint`)."""
    boot = _boot()
    got = getattr(boot, "painted", None) if boot is not None else None
    return got is True


def build_id() -> str:
    got = getattr(window, "FRAY_BUILD", None)
    return "" if got is None or is_none(got) else str(got)


class Painter:
    """Stores the painted start a moment after the history changes (debounced, when idle), at once when the
    page is hidden or left."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.last: Any = None  # the marks of what was last stored (or painted at start)
        self.timer: Any = None
        self._fire = create_proxy(self._later)
        self._idle = create_proxy(self._now)
        self._compose: Any = None

    def marks(self) -> tuple:
        s = self.app.desk.session
        if s is None:
            return (None,)
        return (s, len(s.history), len(s.undone), s.state, s.encounter, s.physical_dice, s.hand_sides,
                self.app.desk.entry_id)

    def go_live(self) -> None:
        """At start-up, once the first drawing is on screen: listen for the page going away, store once unless
        this visit was painted, and tell boot.js the page is live (`frayBoot.ready`)."""
        self.app.listen(window, "pagehide", lambda *_: self.flush())
        self.app.listen(document, "visibilitychange",
                        lambda *_: self.flush() if str(document.visibilityState) == "hidden" else None)
        if was_painted():
            self.last = self.marks()
        else:
            self.note()
        boot = _boot()
        if boot is not None:
            boot.ready()

    def note(self) -> None:
        """After each handler: store again soon if the saved fight changed."""
        if self.marks() != self.last:
            self._schedule()

    def _schedule(self) -> None:
        if self.timer is not None:
            window.clearTimeout(self.timer)
        self.timer = window.setTimeout(self._fire, DELAY_MS)

    def _later(self, *_) -> None:
        self.timer = None
        idle = getattr(window, "requestIdleCallback", None)
        if idle is not None and not is_none(idle):
            window.requestIdleCallback(self._idle, to_js({"timeout": IDLE_TIMEOUT_MS},
                                                         dict_converter=window.Object.fromEntries))
        else:
            self._now()

    def flush(self) -> None:
        """The page is hidden or left: store now what is waiting."""
        if self.timer is not None:
            window.clearTimeout(self.timer)
            self.timer = None
            self._now()

    def _now(self, *_) -> None:
        app = self.app
        desk = app.desk
        if app.closed or desk.session is None or desk.read_only:
            return
        marks = self.marks()
        if marks == self.last:
            return
        try:
            html = self.compose(first_drawing(desk))
            store(window.localStorage, encode(build_id(), desk.entry_id, html or ""))
        except Exception:  # never a reason for the page to fail: no painted start next time
            window.console.warn("Fray: the painted start was not stored: " + traceback.format_exc())
            try:
                store(window.localStorage, None)
            except Exception:
                pass
        self.last = marks

    def compose(self, drawn: Recorder) -> str:
        """The app root's markup: the page as served with the drawn slots and data attributes written in."""
        page = served(fallback=False)
        if not page:
            return ""
        if self._compose is None:
            self._compose = window.Function(COMPOSE_JS)()
        slots = [[k, unmarked(v)] for k, v in drawn.slots().items()]  # as ui/dom/patch.py writes them
        attrs = [[i, n, v] for (i, n), v in drawn.attrs.items()]
        got = self._compose(page, to_js(slots), to_js(attrs))
        return "" if got is None or is_none(got) else str(got)
