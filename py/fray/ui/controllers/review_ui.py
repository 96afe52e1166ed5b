"""The fight in review (issue #56): its actions. The timeline (a dialog of its own over the live fight,
which it never changes) moves to a step by a tap, the slider (drag, arrows, Home, End) or the arrow keys;
"Back to now" and Esc close it. The summary opens from it or from the log, and downloads the HTML and
Markdown recaps (views/recap_export.py); drawn by ui/page/review.py with ui/markup/review_markup.py.
None of them draws: the live field is untouched, and the dispatcher sees no field input changed."""
from __future__ import annotations

from ...views.recap import public, recap
from ...views.recap_export import to_html, to_markdown
from .actions import Actions
from ..desk.desk import Desk
from ..desk.entries import download, safe_name
from ..desk.page import Dialog
from ..markup.review_markup import clamp

clicks = Actions("click")
changes = Actions("change")
STEP_KEYS = {"ArrowLeft": -1, "ArrowRight": 1, "PageUp": -10, "PageDown": 10}


def at(desk: Desk) -> int:
    """The step the review shows (the fight's last when it is not open)."""
    d = desk.page.dialog
    if d is not None and d.kind in ("review", "recap"):
        return d.step
    return len(desk.session.steps)


def go(desk: Desk, step: int) -> None:
    desk.set(dialog=Dialog("review", step=clamp(desk.session, step)))


@clicks("review")
def _open(desk: Desk, name: str, arg: str, target) -> None:
    go(desk, len(desk.session.steps))


@clicks("review-at")
def _at(desk: Desk, name: str, arg: str, target) -> None:
    go(desk, int(arg) if arg.lstrip("-").isdigit() else at(desk))


@changes("review-at")
def _scrub(desk: Desk, arg: str, target) -> None:
    value = str(target.value)
    go(desk, int(value) if value.isdigit() else at(desk))


@clicks("review-now")
def _now(desk: Desk, name: str, arg: str, target) -> None:
    desk.set(dialog=None)


@clicks("recap")
def _summary(desk: Desk, name: str, arg: str, target) -> None:
    desk.set(dialog=Dialog("recap", step=at(desk)))


@changes("recap-players")
def _players(desk: Desk, arg: str, target) -> None:
    desk.set(dialog=Dialog("recap", step=at(desk), players=bool(target.checked)))


@clicks("recap-export")
def _export(desk: Desk, name: str, arg: str, target) -> None:
    s = desk.session
    d = desk.page.dialog
    r = recap(s)
    if d is not None and d.kind == "recap" and d.players:
        r = public(s, r)
    stem = safe_name(s.encounter.name) + ("-players" if r.public else "")
    if arg == "md":
        download(to_markdown(r), f"{stem}-recap.md", "text/markdown")
    else:
        download(to_html(r), f"{stem}-recap.html", "text/html")


def on_key(desk: Desk, key: str, typing: bool) -> bool:
    """Arrows, Page Up/Down, Home and End step through the timeline while it is open (the slider, focused,
    moves itself); True when the key was the review's."""
    d = desk.page.dialog
    if d is None or d.kind != "review" or typing:
        return False
    n = len(desk.session.steps)
    if key in STEP_KEYS:
        go(desk, d.step + STEP_KEYS[key])
    elif key in ("Home", "End"):
        go(desk, 0 if key == "Home" else n)
    else:
        return False
    return True
