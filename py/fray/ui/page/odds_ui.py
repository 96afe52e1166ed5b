"""The odds on the action buttons (CORE-ODDS-1): worked out after the tap has painted, a little at a time.

A tap never waits for odds. After a drawing, ui/page/warm.py puts one part at the
front of its idle queue: the selected combatant's odds, worked out a few
milliseconds at a time (engine/odds.py `Working`, with the page's budget:
`PAGE_BUDGET`), option after option in the order the panel shows them. Each
finished option is written into its button's `span.odds` (the compact figure)
with the whole distribution as the span's tooltip (a long press opens it as
a small popover of text bars: `#odds-pop`), in one crossing into JS;
the actions slot says `data-odds="ready"` once every option has its odds.
What is worked out is kept per state and selection (ui/desk/odds_work.py), so an
undo or a tap back finds it made. The markup of the buttons never holds odds (its spans are
empty): the figures are written after each drawing, so a drawing that keeps
the buttons keeps the figures and one that rewrites them gets them again.
"""
from __future__ import annotations

import json
import time
from typing import Any, Callable

from ..desk.desk import Desk
from ..desk.odds_work import job_of, wanted

CHUNK_S = 0.004  # one idle part's share of the main thread, as ui/page/warm.py's BUDGET_MS
SHOW_EVERY_S = 0.05  # figures written at most this often while the rest are worked out
AGAIN = object()  # what a part returns to be run again (ui/page/warm.py puts it back at the front)

SHOW_JS = r"""
// A long press (contextmenu) on an option opens its whole distribution; the next tap elsewhere closes it.
document.addEventListener("contextmenu", (ev) => {
  const btn = ev.target.closest ? ev.target.closest("#actions-slot button.act") : null;
  const odds = btn ? btn.querySelector("span.odds[title]") : null;
  if (!odds) return;
  ev.preventDefault();
  let pop = document.getElementById("odds-pop");
  if (!pop) {
    pop = document.createElement("pre");
    pop.id = "odds-pop"; pop.className = "odds-pop"; pop.setAttribute("role", "tooltip");
    pop.dataset.testid = "odds-pop";
    document.body.appendChild(pop);
  }
  pop.textContent = odds.title;
  pop.hidden = false;
  const r = btn.getBoundingClientRect(), h = pop.offsetHeight;
  pop.style.left = Math.max(4, Math.min(r.left, innerWidth - pop.offsetWidth - 4)) + "px";
  pop.style.top = (r.bottom + 4 + h < innerHeight ? r.bottom + 4 : Math.max(4, r.top - 4 - h)) + "px";
});
document.addEventListener("pointerdown", (ev) => {
  const pop = document.getElementById("odds-pop");
  if (pop && !pop.hidden && !pop.contains(ev.target)) pop.hidden = true;
}, true);
return (text) => {
  const [items, ready, worked] = JSON.parse(text);
  const slot = document.getElementById("actions-slot");
  if (!slot) return;
  const got = new Map(items.map((it) => [String(it[0]), it]));
  for (const el of slot.querySelectorAll("span.odds")) {
    const it = got.get(el.dataset.i);
    const text = it ? it[1] : "";
    if (el.textContent !== text) el.textContent = text;
    if (it && it[2]) { if (el.title !== it[2]) el.title = it[2]; } else if (el.hasAttribute("title")) el.removeAttribute("title");
  }
  slot.dataset.odds = ready ? "ready" : "working";
  slot.dataset.oddsWork = worked;  // ms of work so far (the page bench reads it)
};
"""
_SHOW: list[Any] = []


def part(desk: Desk, sel: str, pending: Callable[[], bool] | None = None):
    """The idle part that works on `sel`'s odds in the state drawn now; AGAIN until they are all done.
    `pending` says input is waiting (Chromium's isInputPending): the part stops between two resolutions."""
    state = desk.session.state

    def run():
        if desk.session is None or desk.session.state is not state or desk.page.selected != sel:
            return None  # a new state or selection queues its own
        job = job_of(desk, sel)
        # Figures are written as they come, but at most every SHOW_EVERY_S (each write crosses into JS and
        # touches every span), and at once when all are done (or there was nothing to weigh).
        if (job.step(CHUNK_S, pending) and time.perf_counter() - job.shown_at >= SHOW_EVERY_S) or job.finished:
            show(desk)
        if job.finished and desk.table is not None and state.setting("table_odds", "nobody") != "nobody":
            desk.table.before_render()  # the players' table shows the acting combatant's odds (CORE-ODDS-1)
        return None if job.finished else AGAIN
    run.odds = True  # ui/page/warm.py runs it in tasks of its own, not in idle time
    return run


def show(desk: Desk) -> None:
    """Write the figures worked out so far into the action panel's spans (after every drawing too)."""
    sel = wanted(desk)
    items: list = []
    ready = False
    worked = 0.0
    if sel is not None:
        job = job_of(desk, sel)
        items = job.items
        ready = job.finished
        worked = round(job.worked * 1000, 1)
        job.shown_at = time.perf_counter()
    fn = _shower()
    if fn is not None:
        fn(json.dumps([items, ready, worked], ensure_ascii=False))


def _shower():
    if not _SHOW:
        from pyscript import window
        make = getattr(window, "Function", None)  # absent only in the CPython tests' fake window
        _SHOW.append(make(SHOW_JS)() if make is not None else None)
    return _SHOW[0]
