"""The odds on the action buttons (ui/page/odds_ui.py, CORE-ODDS-1): off the tap's path, in idle parts, per selection."""
from __future__ import annotations

import importlib

import pytest

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples

from test_app_render_cache import app_module  # noqa: F401  (the fixture: App against a fake pyscript)


def booted(module, system: str, example: str):
    module.window.location.hash = "#" + storage.encode_link(Session(examples(system)[example](3)))
    app = module.App()
    app.boot()
    return app


@pytest.mark.parametrize("system,example", [("olog", "skirmish"), ("ose", "detailed"), ("ogre", "orc_and_pc")])
def test_the_selected_combatants_odds_come_first_in_idle_time_and_cover_every_plain_option__CORE_ODDS_1(
        app_module, system, example):  # noqa: F811
    module = app_module
    app = booted(module, system, example)
    odds_ui = importlib.import_module("fray.ui.page.odds_ui")
    views = importlib.import_module("fray.views.odds")
    sel = app.desk.page.selected
    assert sel is not None
    job = odds_ui.job_of(app.desk, sel)
    assert not job.done, "a tap (here: the first drawing) never waits for odds"
    app.warmer.run(budget_ms=1.0)  # one idle slice: a few options at most
    app.warmer.finish()
    assert job.finished
    offers = importlib.import_module("fray.ui.desk.offers")
    plain = {i for i, o in enumerate(offers.options(app.desk)) if views.option_command(o) is not None}
    assert set(job.done) == plain  # every figure says something, but an initiative die's raw faces: nothing
    assert all(bool(oo.figure) is (oo.label != "Roll initiative") for oo in job.done.values())
    markup = app.desk.slots._html["actions-slot"]
    assert all(f'data-testid="odds-{i}"' in markup for i in plain)


def test_a_new_selection_puts_its_odds_first_and_an_old_state_drops_them__CORE_ODDS_1(app_module):  # noqa: F811
    module = app_module
    app = booted(module, "ogre", "orc_and_pc")
    app.warmer.finish()
    other = next(c.id for c in app.desk.session.state.combatants if c.id != app.desk.page.selected)
    app.dispatch("select", other, None)
    odds_ui = importlib.import_module("fray.ui.page.odds_ui")
    assert app.warmer.queue and app.warmer.odds_for == (app.desk.session.state, other)
    app.warmer.finish()
    assert odds_ui.job_of(app.desk, other).finished


def test_a_selection_with_no_option_to_weigh_is_ready_too__CORE_ODDS_1(app_module, monkeypatch):  # noqa: F811
    module = app_module
    app = booted(module, "olog", "skirmish")
    odds_ui = importlib.import_module("fray.ui.page.odds_ui")
    shown = []
    monkeypatch.setattr(odds_ui, "_shower", lambda: lambda text: shown.append(text))
    work = importlib.import_module("fray.ui.desk.odds_work")  # the odds worked out, kept per state
    monkeypatch.setattr(work, "option_command", lambda option: None)  # nothing to weigh
    other = next(c.id for c in app.desk.session.state.combatants if c.id != app.desk.page.selected)
    app.dispatch("select", other, None)
    assert shown and ", false, " in shown[-1]  # drawn: working
    app.warmer.finish()
    assert shown[-1].startswith("[[], true, ")  # then ready, with no figure


@pytest.mark.parametrize("system,example", [("olog", "skirmish"), ("olog", "eight_humans")])
def test_the_odds_wait_for_those_acting_now_not_for_the_whole_order__CORE_ODDS_1(app_module, system, example):  # noqa: F811
    """A big fight's order is most of the warming: the odds on the panel the referee looks at come before it
    (in a slow browser they waited behind every combatant: 15 s and more)."""
    app = booted(app_module, system, example)
    s = app.desk.session
    acting = set(s.current()) - {app.desk.page.selected}
    queue = app.warmer.queue
    at = next(i for i, part in enumerate(queue) if getattr(part, "odds", False))
    assert at == 4 * len(acting), "the odds come right after the warming of those acting now"
    assert len(queue) - at - 1 == 4 * (len(s.state.combatants) - len(acting) - 1), "the rest of the order after"
    other = next(c.id for c in s.state.combatants if c.id not in acting and c.id != app.desk.page.selected)
    app.warmer.run(budget_ms=0.0)  # one part
    app.dispatch("look", other, None)  # a look at someone else before the warming is done
    assert app.desk.page.selected == other
    queue = app.warmer.queue
    odds = [i for i, part in enumerate(queue) if getattr(part, "odds", False)]
    rest = [i for i, part in enumerate(queue) if getattr(part, "rest", False)]
    assert odds and rest and odds[-1] < rest[0], "a new selection's odds go before the rest of the order too"
