"""The odds on the action buttons (CORE-ODDS-1): worked out after the tap has painted, a little at a time.

A tap never waits for odds. After a drawing, ui/warm.py puts one part at the
front of its idle queue: the selected combatant's odds, worked out a few
milliseconds at a time (engine/odds.py `Working`, with the page's budget:
`PAGE_BUDGET`), option after option in the order the panel shows them. Each
finished option is written into its button's `span.odds` (the compact figure)
with the whole distribution as the span's tooltip, in one crossing into JS;
the actions slot says `data-odds="ready"` once every option has its odds.
What is worked out is kept per state and selection, so an undo or a tap back
finds it made. The markup of the buttons never holds odds (its spans are
empty): the figures are written after each drawing, so a drawing that keeps
the buttons keeps the figures and one that rewrites them gets them again.
"""
from __future__ import annotations

import json
import time
from typing import Any

from ..engine.odds import PAGE_BUDGET, Odds, OddsError, Working
from ..views.odds import OptionOdds, figure, option_command, rows
from .desk import Desk
from .offers import per_state, selection

CHUNK_S = 0.004  # one idle part's share of the main thread, as ui/warm.py's BUDGET_MS
AGAIN = object()  # what a part returns to be run again (ui/warm.py puts it back at the front)

SHOW_JS = r"""
return (text) => {
  const [items, ready] = JSON.parse(text);
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
};
"""
_SHOW: list[Any] = []


class Job:
    """The odds of one selection in one state: what is done, what is being worked on, what waits."""

    def __init__(self, desk: Desk, sel: str) -> None:
        s = desk.session
        self.ruleset, self.state, self.seed = s.ruleset, s.state, s.encounter.seed
        options, menu, _ = selection(desk, sel)
        order = [it.index for _, items in (menu.groups if menu else ()) for it in items]
        self.waiting = [(i, options[i]) for i in order if i < len(options)]
        self.done: dict[int, OptionOdds] = {}
        self.current: tuple[int, Any, Working] | None = None

    @property
    def finished(self) -> bool:
        return not self.waiting and self.current is None

    def step(self, seconds: float) -> bool:
        """Work for about `seconds`; True when some option's odds were finished."""
        end = time.perf_counter() + seconds
        finished = False
        while not self.finished and time.perf_counter() < end:
            if self.current is None:
                index, option = self.waiting.pop(0)
                cmd = option_command(option)
                if cmd is None:
                    continue  # refused, or it needs a path or a target first: nothing to show
                self.current = (index, option, Working(self.ruleset, self.state, cmd, PAGE_BUDGET,
                                                       seed=self.seed))
            index, option, job = self.current
            try:
                got = job.work(max(0.0, end - time.perf_counter()))
            except OddsError as exc:
                got = None
                self.done[index] = OptionOdds(index, option.label, "", (), None, str(exc))
                self.current = None
                finished = True
                continue
            if got is not None:
                self.current = None
                finished = True
                if isinstance(got, Odds):
                    self.done[index] = OptionOdds(index, option.label, figure(got), tuple(rows(got)), got)
        return finished


def job_of(desk: Desk, sel: str) -> Job:
    return per_state(desk, "odds", sel, lambda: Job(desk, sel))


def part(desk: Desk, sel: str):
    """The idle part that works on `sel`'s odds in the state drawn now; AGAIN until they are all done."""
    state = desk.session.state

    def run():
        if desk.session is None or desk.session.state is not state or desk.page.selected != sel:
            return None  # a new state or selection queues its own
        job = job_of(desk, sel)
        if job.step(CHUNK_S) or job.finished:  # finished with nothing new (no option with odds): say ready
            show(desk)
        return None if job.finished else AGAIN
    run.odds = True  # ui/warm.py runs it in tasks of its own, not in idle time
    return run


def wanted(desk: Desk) -> str | None:
    """Whose odds the page shows now: the selected combatant's, when no question is being asked."""
    sel = desk.page.selected
    if sel is None or desk.session is None or not desk.session.state.has(sel) or desk.page.pending is not None:
        return None
    return sel


def show(desk: Desk) -> None:
    """Write the figures worked out so far into the action panel's spans (after every drawing too)."""
    sel = wanted(desk)
    items: list = []
    ready = False
    if sel is not None:
        job = job_of(desk, sel)
        items = [(i, oo.figure, "\n".join((oo.label,) + oo.rows)) for i, oo in job.done.items() if oo.figure]
        ready = job.finished
    fn = _shower()
    if fn is not None:
        fn(json.dumps([items, ready], ensure_ascii=False))


def _shower():
    if not _SHOW:
        from pyscript import window
        make = getattr(window, "Function", None)  # absent only in the CPython tests' fake window
        _SHOW.append(make(SHOW_JS)() if make is not None else None)
    return _SHOW[0]
