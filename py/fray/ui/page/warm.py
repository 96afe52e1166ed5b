"""Between taps, the page makes ready what a selection will draw.

A tap on a name costs the rules for that combatant the first time in a fight's
state: their options, the menu, the action panel, their order row. Taps that
follow on the same combatant reuse them (ui/desk/offers.py's per-state caches), but
the first tap on each is slow, and after every step there is a new state.

`Warmer` fills those caches in the page's idle time instead: after a drawing
with a new state it queues the combatants (those acting now first, then the
order), and works through them in small parts (one combatant's options, then
their menu, then their panel and row) in background tasks of about
`BUDGET_MS` each, back to back while the browser's idle period lasts (at
most `IDLE_MAX_MS`), stopping as soon as input is pending, so an input that
arrives meanwhile waits at most one part.
A tap then finds what it needs already made. A new state drops what was queued
for the old one. The warming writes nothing to the page: it only computes the
same values, with the same keys, that the drawing would compute on the tap.

After those acting now, before the rest of the order, come the selected
combatant's odds (ui/page/odds_ui.py, CORE-ODDS-1): the one part that writes, into
the action buttons' odds spans, and that comes back (`AGAIN`) until every
option has its odds; a tap's pace comes first. A new selection in a state
already warmed queues just its odds, in the same place.
Once they are at the front they do not wait for idle periods (one callback per
period left most of the time unused): they run in tasks of `ODDS_MS` one after
another, and input goes between any two.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Iterator

from . import odds_ui, render
from ..desk.desk import Desk
from ..desk.offers import selection

BUDGET_MS = 4.0  # a background part's share of the main thread: input waits at most about this long
ODDS_MS = 4.0  # a task of odds (ui/page/odds_ui.py): the selected combatant's, one task after another
IDLE_MAX_MS = 45.0  # parts run back to back while the browser's idle period lasts, never longer than this


def parts(desk: Desk, cid: str) -> Iterator[Callable[[], Any]]:
    """The work a tap on `cid` would do in this state, in parts, each computed into its cache."""
    yield lambda: selection(desk, cid)[0]  # the options: the rules' part, the longest
    yield lambda: selection(desk, cid)  # the menu and its numbers
    yield lambda: render.idle_actions(desk, cid, selection(desk, cid)[1])
    yield lambda: render.order_rows(desk, cid)


def _rest(part: Callable[[], Any]) -> Callable[[], Any]:
    """A part for someone not acting now: the selected combatant's odds go before it."""
    def run():
        return part()
    run.rest = True  # type: ignore[attr-defined]
    return run


class Warmer:
    """The queue of parts for the state last drawn, run a little at a time while the page is idle."""

    def __init__(self, desk: Desk, later: Callable[[Callable[[], None]], None] | None = None,
                 soon: Callable[[Callable[[], None], bool], None] | None = None) -> None:
        self.desk = desk
        self.state: Any = None
        self.queue: list[Callable[[], Any]] = []
        self.later = later  # schedules a background task (ui/dispatch.py: the browser's idle callback)
        self.soon = soon  # runs a task soon, after the next paint if asked (ui/dispatch.py: postTask after a frame)
        self.waiting = False
        self.hurrying = False
        self.odds_for: Any = None  # (state, selection) whose odds are queued
        self.pending: Callable[[], bool] | None = None  # input waiting (ui/dispatch.py: isInputPending): yield now

    def after_render(self) -> None:
        """Queue the combatants of a state not seen before; the selected one is made already. The
        selected combatant's odds go after those acting now (a new selection in the same state queues just
        those, in the same place)."""
        s = self.desk.session
        state = s.state
        odds_ui.show(self.desk)  # the figures known for what was just drawn (a rewritten panel gets them again)
        sel = odds_ui.wanted(self.desk)
        if state is self.state:
            if sel is not None and self.odds_for != (state, sel):
                self.odds_for = (state, sel)
                # After what a tap on those acting now would need, before the rest of the order.
                at = next((i for i, part in enumerate(self.queue) if getattr(part, "rest", False)), len(self.queue))
                self.queue.insert(at, odds_ui.part(self.desk, sel, self.input_waiting))
                self.schedule(painted=False)
            return
        self.state = state
        sel = self.desk.page.selected
        first = [cid for cid in s.current() if cid != sel]
        rest = [c.id for c in state.combatants if c.id != sel and c.id not in first]
        self.queue = [part for cid in first for part in parts(self.desk, cid)]
        wanted = odds_ui.wanted(self.desk)
        if wanted is not None:
            # The odds come after the warming of those acting now: a tap on one of them that finds their
            # panel made costs a few milliseconds, one that finds it cold costs tens (the page bench's
            # selection taps), and odds are worth less than a tap's pace (issue 37: "the tap-latency
            # figures do not get worse"). The rest of the order, a big fight's most, waits behind the odds.
            self.odds_for = (state, wanted)
            self.queue.append(odds_ui.part(self.desk, wanted, self.input_waiting))
        self.queue += [_rest(part) for cid in rest for part in parts(self.desk, cid)]
        self.schedule(painted=False)

    def input_waiting(self) -> bool:
        return self.pending is not None and self.pending()

    def schedule(self, painted: bool = True) -> None:
        """Ask for the next run: odds at the front go in tasks of their own one after another (`soon`;
        the first after the next paint when `painted` is false), the warming in the browser's idle time."""
        if not self.queue:
            return
        if getattr(self.queue[0], "odds", False) and self.soon is not None:
            if not self.hurrying:
                self.hurrying = True
                self.soon(self.run_soon, not painted)
        elif not self.waiting and self.later is not None:
            self.waiting = True
            self.later(self.run)

    def run_soon(self, *_) -> None:
        self.hurrying = False
        self.work(ODDS_MS)

    def run(self, budget_ms: float = BUDGET_MS) -> None:
        """Run queued parts for about `budget_ms`, then yield to the page (and come back)."""
        self.waiting = False
        self.work(budget_ms)

    def work(self, budget_ms: float) -> None:
        if self.desk.session is None or self.desk.session.state is not self.state:
            self.queue = []  # a new state: the next drawing queues it
            return
        end = time.perf_counter() + budget_ms / 1000
        while self.queue:
            part = self.queue.pop(0)
            if part() is odds_ui.AGAIN:
                self.queue.insert(0, part)
            if time.perf_counter() >= end or (self.pending is not None and self.pending()):
                break
        self.schedule()

    def finish(self) -> None:
        """Run everything queued now (tests)."""
        while self.queue:
            self.run(budget_ms=1e9)
