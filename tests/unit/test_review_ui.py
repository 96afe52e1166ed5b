"""The fight in review on the page (issue #56), run in CPython against the fake page of
test_app_render_cache.py: the timeline shows a past step read-only (its HP, its result card) and never
changes the live fight or its history; the slider, a tap and the keys move it; "Back to now" closes it;
the summary draws its charts and downloads both recaps; a read-only tab may look too."""
from __future__ import annotations

import importlib
import types

from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray import playout
from fray.engine import storage
from fray.engine.referee import Damage
from fray.engine.session import Session
from fray.rules import examples, get


def _open(module, session: Session):
    module.window.location.hash = "#" + storage.encode_link(session)
    app = module.App()
    app.boot()
    return app


def fought() -> Session:
    s = Session(examples("olog")["two_orcs"](3), get("olog"))
    s.act(Damage("orc1", 2))
    s.act(Damage("orc1", 9))
    s.act(Damage("brak", 1))
    return s


def dialog(app) -> str:
    return app.desk.slots.written("dialog-slot")


def opened(app) -> tuple[str, int, bool]:
    """The open dialog's kind, step and players' flag (ui/desk/page.py `Dialog`)."""
    d = app.desk.page.dialog
    return d.kind, d.step, d.players


def test_the_timeline_shows_a_past_step_read_only_and_back_to_now_leaves_the_fight_as_it_was(app_module):
    app = _open(app_module, fought())
    state, history = app.desk.session.state, app.desk.session.history
    app.dispatch("review", "", None)
    assert 'data-step="3"' in dialog(app) and "Step 3 of 3" in dialog(app)
    app.dispatch("review-at", "1", None)
    shown = dialog(app)
    assert 'data-step="1"' in shown and "6 → 4 / 6 HP" in shown  # that step's result card
    assert "4/6" in shown and 'inert' in shown  # the order as it was, not to be acted on
    assert 'data-action="review-at:0"' in shown and 'data-action="review-at:2"' in shown
    app.dispatch("review-now", "", None)
    assert dialog(app) == "" and app.desk.page.dialog is None
    assert app.desk.session.state is state and app.desk.session.history == history


def test_the_slider_and_the_keys_move_the_timeline_within_the_fight(app_module):
    app = _open(app_module, fought())
    app.dispatch("review", "", None)
    review = importlib.import_module("fray.ui.controllers.review_ui")
    app.handle(lambda d: review.changes.get("review-at")(d, "", types.SimpleNamespace(value="2")), "review-at")
    assert opened(app) == ("review", 2, False)
    for key, step in (("ArrowLeft", 1), ("Home", 0), ("ArrowLeft", 0), ("End", 3), ("ArrowRight", 3)):
        assert review.on_key(app.desk, key, typing=False)
        assert opened(app) == ("review", step, False)
    assert not review.on_key(app.desk, "ArrowLeft", typing=True)  # the focused slider moves itself
    app.dispatch("review-at", "99", None)
    assert opened(app) == ("review", 3, False)


def test_the_timeline_marks_each_fall_to_jump_to__CORE_HP_1(app_module):
    app = _open(app_module, fought())
    app.dispatch("review", "", None)
    assert 'data-action="review-at:2"' in dialog(app) and "Orc 1 · 2" in dialog(app)


def test_the_summary_draws_the_charts_and_downloads_both_recaps(app_module, monkeypatch):
    app = _open(app_module, playout.play("ose", "detailed", 4, max_steps=80))
    review = importlib.import_module("fray.ui.controllers.review_ui")
    got = []
    monkeypatch.setattr(review, "download", lambda text, name, mime: got.append((name, mime, text)))
    app.dispatch("recap", "", None)
    shown = dialog(app)
    assert 'data-testid="recap-bars"' in shown and shown.count('class="hp-chart"') == 6
    app.dispatch("recap-export", "html", None)
    app.dispatch("recap-export", "md", None)
    assert [(n.rsplit("-", 1)[-1], m) for n, m, _ in got] == [("recap.html", "text/html"), ("recap.md", "text/markdown")]
    assert got[0][2].startswith("<!doctype html>") and "<script" not in got[0][2]
    app.handle(lambda d: review.changes.get("recap-players")(d, "", types.SimpleNamespace(checked=True)),
               "recap-players")
    assert "players&#x27; view" in dialog(app)
    app.dispatch("recap-export", "html", None)
    assert got[-1][0].endswith("-players-recap.html") and "(players' view)" in got[-1][2]


def test_a_read_only_tab_may_review_and_sum_up(app_module):
    app = _open(app_module, fought())
    app.desk.read_only = True
    app.dispatch("review", "", None)
    assert opened(app) == ("review", 3, False)
    app.dispatch("recap", "", None)
    assert opened(app) == ("recap", 3, False)


def test_the_table_display_shows_the_players_summary_when_the_fight_ends(app_module):
    from fray.ui.markup.table_markup import page
    ended = playout.play("olog", "skirmish", 1)
    assert ended.state.outcome
    app = _open(app_module, ended)
    players = importlib.import_module("fray.ui.desk.players")
    view = players.build_view(app.desk)  # what the referee's tab sends to the table window
    shown = page(view)
    assert 'data-testid="table-recap"' in shown and 'class="dmg-bars"' in shown
    assert shown.count('class="hp-chart"') == 6 and "-3/4" not in shown  # a monster's HP as a word
    going = _open(app_module, fought())
    assert "recap" not in players.build_view(going.desk)


def test_a_summary_from_the_channel_is_checked_and_escaped():
    from fray.ui.markup.recap_table import section
    assert section({}) == "" and section({"recap": "junk"}) == ""
    shown = section({"recap": {"combatants": [{"name": "<img src=x>", "hp": [3, "a", None], "falls": [[9, 1], "x"],
                                               "max_hp": True}, "junk"], "sides": "no", "lines": [1, "<b>"]}})
    assert "<img" not in shown and "&lt;img src=x&gt;" in shown and "&lt;b&gt;" in shown
