"""A selection paints first what marks it, and its action panel once that has painted (ui/dispatch.py
`PanelLater`, issue 38): the panel drawn then is what a drawing in one go would show; a redraw in
between draws it; a tap on the panel of the selection before does nothing but draw it. Runs App in
CPython against the fake `pyscript` of test_app_render_cache, with a page that can ask for a task after
the paint (window.Function) whose tasks the test runs by hand."""
from __future__ import annotations

import importlib

from test_app_render_cache import app_module, fresh_drawing  # noqa: F401  (the fixture)

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples


class Page:
    """What the page's JS functions were asked: tasks after the paint (SOON_JS), slots written afresh."""

    def __init__(self) -> None:
        self.tasks: list[tuple] = []
        self.fresh: list[str] = []

    def function(self, source: str):
        if "afterPaint" in source:
            return lambda: (lambda fn, after: self.tasks.append((fn, after)))
        if "replaceChildren" in source:  # ui/dom/patch.py MORPH_JS: count -1 writes the slot afresh
            def morph(el, html, edits=None, count=None):
                if count == -1:
                    self.fresh.append(el.id)
                return True
            return lambda: morph
        return lambda: (lambda *a: None)

    def run_tasks(self) -> None:
        tasks, self.tasks = self.tasks, []
        for fn, _ in tasks:
            fn()


class Event:
    def __init__(self, kind: str = "click", target=None) -> None:
        self.stopped = self.prevented = False
        self.type = kind
        self.target = target

    def preventDefault(self) -> None:
        self.prevented = True

    def stopPropagation(self) -> None:
        self.stopped = True


def _open(module, page: Page):
    module.window.Function = page.function
    module.window.requestAnimationFrame = lambda fn: None
    module.window.clearTimeout = lambda *a: None
    module.window.location.hash = "#" + storage.encode_link(Session(examples("olog")["skirmish"](1)))
    app = module.App()
    app.boot()
    page.run_tasks()  # whatever start-up asked for
    return app


def _other(app) -> str:
    sel = app.desk.page.selected
    state = app.desk.session.state
    now = app.desk.session.current()
    # Someone who does not act now and is not a foe of the actor: a tap selects them (no target).
    return next(c.id for c in state.combatants if c.id != sel and c.id not in now)


def test_a_selection_draws_its_action_panel_after_the_paint_as_a_whole_drawing_would(app_module):  # noqa: F811
    page = Page()
    app = _open(app_module, page)
    before = app.desk.slots.written("actions-slot")
    who = _other(app)
    app.dispatch("look", who, None)
    assert app.desk.page.selected == who
    assert f'data-id="{who}"' in app.desk.slots.written("order-slot")  # the order marks it at once
    assert app.desk.slots.written("actions-slot") == before, "the panel waits for the paint"
    assert app.later.waiting and [after for _, after in page.tasks] == [True]
    page.run_tasks()
    assert not app.later.waiting
    assert app.desk.slots.written("actions-slot") == fresh_drawing(app_module, app)["actions-slot"]
    assert page.fresh == ["actions-slot"], "written with new elements, none edited in place"


def test_a_redraw_before_the_paint_draws_the_panel_and_the_task_then_does_nothing(app_module):  # noqa: F811
    page = Page()
    app = _open(app_module, page)
    app.dispatch("look", _other(app), None)
    app.dispatch("help", "", None)  # a dialog: a whole drawing, panel and all
    assert not app.later.waiting
    drawn = app.desk.slots.written("actions-slot")
    assert drawn == fresh_drawing(app_module, app)["actions-slot"]
    page.run_tasks()
    assert app.desk.slots.written("actions-slot") == drawn and page.fresh == []


def test_a_tap_on_the_panel_of_the_selection_before_draws_the_new_one_and_does_nothing_else(app_module):  # noqa: F811,E501
    page = Page()
    app = _open(app_module, page)
    history = len(app.desk.session.history)
    app.dispatch("look", _other(app), None)
    event = Event()
    app.later.stale(event)  # the capture listener on #actions-slot, before the app's own click handler
    assert event.prevented and event.stopped
    assert not app.later.waiting
    assert app.desk.slots.written("actions-slot") == fresh_drawing(app_module, app)["actions-slot"]
    assert len(app.desk.session.history) == history
    later = Event()
    app.later.stale(later)  # once drawn, taps on the panel go through
    assert not (later.prevented or later.stopped)


class Summary:
    """A tap's target inside a section's <summary> (the Referee tools)."""

    def closest(self, selector: str):
        return self if selector == "summary" else None


def test_opening_a_section_of_the_panel_before_it_is_drawn_goes_through(app_module):  # noqa: F811
    """Opening or closing a section acts on no one: the toggle happens, and the new panel keeps it open
    (ui/dom/patch.py Slots.fresh); the panel is still drawn in its task."""
    page = Page()
    app = _open(app_module, page)
    app.dispatch("look", _other(app), None)
    event = Event("click", Summary())
    app.later.stale(event)
    assert not (event.prevented or event.stopped)
    assert app.later.waiting
    page.run_tasks()
    assert not app.later.waiting
    assert app.desk.slots.written("actions-slot") == fresh_drawing(app_module, app)["actions-slot"]


def test_without_a_task_after_the_paint_the_panel_is_drawn_at_once(app_module):  # noqa: F811
    module = app_module
    module.window.location.hash = "#" + storage.encode_link(Session(examples("olog")["skirmish"](1)))
    app = module.App()  # the fake window has no Function: nothing can wait for a paint
    app.boot()
    app.dispatch("look", _other(app), None)
    assert not app.later.waiting
    assert app.desk.slots.written("actions-slot") == fresh_drawing(module, app)["actions-slot"]
    assert importlib.import_module("fray.ui.desk.desk").Desk().panel_later is False
