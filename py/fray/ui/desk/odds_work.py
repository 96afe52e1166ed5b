"""The odds of the selected combatant's options (CORE-ODDS-1), worked out per state and selection and kept.

What ui/page/odds_ui.py writes into the action buttons and what the players' table shows
(ui/desk/players.py) read the same `Job`, kept per state (ui/desk/offers.py `per_state`), so an undo
or a tap back finds it made. Nothing here draws.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from ...engine.odds import PAGE_BUDGET, Odds, OddsError, Working
from ...views.move_toward import TOWARD_KEY
from ...views.odds import OptionOdds, figure, option_command, rows
from .desk import Desk
from .offers import current, per_state, selection

SLICE_S = 0.0005  # the engine is asked for this long at a time (at least one resolution), so input is looked for


class Job:
    """The odds of one selection in one state: what is done, what is being worked on, what waits."""

    def __init__(self, desk: Desk, sel: str) -> None:
        s = desk.session
        self.ruleset, self.state, self.seed = s.ruleset, s.state, s.encounter.seed
        options, menu, _ = selection(desk, sel)
        order = [it.index for _, items in (menu.groups if menu else ()) for it in items]
        # Not the long move (views/move_toward.py): its path follows the target, its hint says what it provokes.
        self.waiting = [(i, options[i]) for i in order if i < len(options) and options[i].key != TOWARD_KEY]
        self.done: dict[int, OptionOdds] = {}
        self.items: list[tuple[int, str, str]] = []  # what show() writes: (index, figure, tooltip), made once each
        self.current: tuple[int, Any, Working] | None = None
        self.shown_at = 0.0  # when show() last wrote this job's figures (perf_counter)
        self.worked = 0.0  # seconds spent working on it (the page bench reads it: data-odds-work)

    @property
    def finished(self) -> bool:
        return not self.waiting and self.current is None

    def step(self, seconds: float, pending: Callable[[], bool] | None = None) -> bool:
        """Work for about `seconds`, one resolution at a time, and stop at once when input is `pending`;
        True when some option's odds were finished."""
        start = time.perf_counter()
        end = start + seconds
        finished = False
        while not self.finished and time.perf_counter() < end and not (pending is not None and pending()):
            if self.current is None:
                index, option = self.waiting.pop(0)
                cmd = option_command(option)
                if cmd is None:
                    continue  # refused, or it needs a path or a target first: nothing to show
                self.current = (index, option, Working(self.ruleset, self.state, cmd, PAGE_BUDGET,
                                                       seed=self.seed))
            index, option, job = self.current
            try:
                got = job.work(min(SLICE_S, max(0.0, end - time.perf_counter())))
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
                    oo = self.done[index] = OptionOdds(index, option.label, figure(got), tuple(rows(got)), got)
                    if oo.figure:
                        self.items.append((index, oo.figure, "\n".join((oo.label,) + oo.rows)))
        self.worked += time.perf_counter() - start
        return finished


def job_of(desk: Desk, sel: str) -> Job:
    return per_state(desk, "odds", sel, lambda: Job(desk, sel))


def finished(desk: Desk) -> tuple[str | None, list[tuple[str, str]]]:
    """The selected combatant, when it acts now, and its options' figures once all are worked out (the
    players' table shows them: ui/desk/players.py); else (None, [])."""
    sel = wanted(desk)
    if sel is None or sel not in current(desk):
        return None, []
    job = job_of(desk, sel)
    if not job.finished:
        return None, []
    return sel, [(o.label, o.figure) for _, o in sorted(job.done.items())]


def wanted(desk: Desk) -> str | None:
    """Whose odds the page shows now: the selected combatant's, when no question is being asked."""
    sel = desk.page.selected
    if sel is None or desk.session is None or not desk.session.state.has(sel) or desk.page.pending is not None:
        return None
    return sel
