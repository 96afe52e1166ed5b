"""What the referee types is refused or trimmed at its own field, in words (issue #53): copies past the cap
say so beside the field with the cap and why; a condition's duration or an empty condition name is refused
beside the condition's field, never in the notice bar and never with an internal id. The page runs in
CPython on the fake `pyscript` of test_app_render_cache.py."""
from __future__ import annotations

from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples


def _open(module, system: str = "olog", name: str = "skirmish"):
    module.window.location.hash = "#" + storage.encode_link(Session(examples(system)[name](3)))
    app = module.App()
    app.boot()
    return app


class Typed:
    def __init__(self, value: str) -> None:
        self.value = value


def test_500_copies_are_40_and_the_field_says_so_with_the_cap_and_why(app_module):
    from fray.ui.controllers import roster_ui
    app = _open(app_module)
    app.dispatch("mode", "setup", None)
    app.handle(lambda d: roster_ui._count(d, "", Typed("500")), "roster-count", say_refused=False)
    form = app.desk.slots.written("editor-slot")
    why = form[form.index('data-testid="roster-count-why"'):]
    why = why[:why.index("</span>")]
    assert "500 is more than 40" in why and "at most 200" in why
    assert 'aria-describedby="roster-count-why"' in form
    assert app.desk.roster.count == 40
    app.handle(lambda d: roster_ui._count(d, "", Typed("12")), "roster-count", say_refused=False)
    assert app.desk.roster.count == 12 and 'data-testid="roster-count-why"' not in app.desk.slots.written("editor-slot")


class Form:
    def __init__(self, cid: str) -> None:
        self.cid = cid

    def getAttribute(self, name: str) -> str | None:
        return self.cid if name == "data-id" else None


def _mira(module):
    app = _open(module)
    cid = app.desk.session.state.combatants[0].id
    app.dispatch("select", cid, None)
    return app, cid


def test_a_duration_past_the_clock_is_refused_beside_the_condition_in_words__CORE_TIME_1(app_module):
    app, cid = _mira(app_module)
    before = len(app.desk.session.steps)
    app.dispatch_form("cond-form", "", {"condition": "Stunned", "lasts": "99999"}, "", Form(cid))
    assert len(app.desk.session.steps) == before
    actions = app.desk.slots.written("actions-slot")
    why = actions[actions.index('data-testid="cond-why"'):]
    why = why[:why.index("</span>")]
    assert "A duration is a whole number of rounds from 1 to 10000" in why
    assert ".conditions" not in actions and f"{cid}." not in why, "no internal id"
    assert 'value="99999"' in actions and 'value="Stunned"' in actions, "what was typed is kept"
    assert "duration" not in app.desk.slots.written("notice-slot")
    app.dispatch_form("cond-form", "", {"condition": "Stunned", "lasts": "2"}, "", Form(cid))
    assert "Stunned" in app.desk.session.state.get(cid).conditions
    assert 'data-testid="cond-why"' not in app.desk.slots.written("actions-slot")


def test_a_duration_that_is_no_duration_is_refused_at_the_field_not_the_notice_bar__CORE_TIME_1(app_module):
    app, cid = _mira(app_module)
    app.dispatch_form("cond-form", "", {"condition": "Stunned", "lasts": "soon"}, "", Form(cid))
    actions = app.desk.slots.written("actions-slot")
    assert 'data-testid="cond-why"' in actions and "leave the duration empty" in actions
    assert "soon" not in app.desk.slots.written("notice-slot")


def test_an_empty_condition_name_says_why_at_the_field(app_module):
    app, cid = _mira(app_module)
    before = len(app.desk.session.steps)
    app.dispatch_form("cond-form", "", {"condition": "  ", "lasts": "3"}, "", Form(cid))
    actions = app.desk.slots.written("actions-slot")
    assert "a condition needs a name" in actions
    name = actions[actions.index('data-testid="cond-name"'):]
    assert 'aria-invalid="true"' in name[:name.index(">")]
    assert len(app.desk.session.steps) == before


def test_the_quick_dialog_says_a_refused_duration_without_the_internal_id__CORE_TIME_1(app_module):
    app, cid = _mira(app_module)
    app.dispatch("hp", cid, None)
    app.dispatch_form("qcond", cid, {"for": "99999", "custom": "Dazed"}, "add", None)
    dialog = app.desk.page.dialog
    assert dialog is not None and dialog.cond_problem.startswith("A duration is a whole number")
    assert ".conditions" not in dialog.cond_problem


def test_a_200_by_200_map_says_its_squares_are_specks_and_offers_to_zoom_to_the_tokens():
    from types import SimpleNamespace as NS

    from fray.ui.field.grid_svg import _toolbar

    def bar(width: int, height: int, zoom: float) -> str:
        return str(_toolbar(NS(width=width, height=height), NS(zoom=zoom, wp=(), walls=False, follow=False)))
    whole = bar(200, 200, 1.0)
    assert "200 squares across: each is drawn a few pixels wide" in whole
    assert 'data-action="grid-zoom:fit"' in whole[whole.index('data-testid="grid-tiny"'):]
    assert 'data-testid="grid-tiny"' not in bar(200, 200, 8.0), "zoomed in: 25 squares across, readable"
    assert 'data-testid="grid-tiny"' not in bar(30, 20, 1.0)


def test_an_empty_encounters_header_pill_is_its_first_words_the_sentence_in_its_tooltip(app_module):
    app = _open(app_module)
    app.dispatch("lib-new", "olog:", None)
    header = app.desk.slots.written("header-slot")
    pill = header[header.index('data-testid="outcome"'):]
    assert ">No combatants yet</span>" in pill
    assert 'title="No combatants yet: add them in Setup' in pill


def test_add_the_party_with_none_saved_answers_where_it_was_tapped(app_module):
    app = _open(app_module)
    app.dispatch("lib-new", "olog:", None)
    app.dispatch("roster-party", "", None)
    form = app.desk.slots.written("editor-slot")
    start = form[form.index('data-testid="editor-start"'):]
    start = start[:start.index("</div>")]
    assert 'data-testid="start-report"' in start and "No party saved yet" in start
    assert form.count("one tap away in every encounter") == 1, "said once, at the button tapped"
    app.dispatch("add", "Sample PC", None)
    form = app.desk.slots.written("editor-slot")
    assert 'data-testid="start-report"' not in form


def test_a_refused_condition_is_forgotten_when_the_fight_moves_on(app_module):
    app, cid = _mira(app_module)
    app.dispatch_form("cond-form", "", {"condition": "Stunned", "lasts": "99999"}, "", Form(cid))
    assert 'data-testid="cond-why"' in app.desk.slots.written("actions-slot")
    before = len(app.desk.session.steps)
    app.dispatch_form("hp-quick", cid, {"change": "-1"}, "", None)  # a step: the fight is elsewhere now
    assert len(app.desk.session.steps) == before + 1
    app.dispatch("select", cid, None)
    assert 'data-testid="cond-why"' not in app.desk.slots.written("actions-slot")


def test_the_welcomes_notice_goes_when_the_fight_starts(app_module):
    app = _open(app_module)
    app.dispatch("welcome-blank", "ose", None)
    assert "open in Setup" in app.desk.slots.written("notice-slot")
    app.dispatch("add", "Sample PC", None)
    app.dispatch("add", "Orc", None)
    assert "open in Setup" in app.desk.slots.written("notice-slot"), "kept while the referee sets up"
    app.dispatch("mode", "play", None)  # "Back to the fight"
    assert app.desk.page.mode == "play"
    assert "open in Setup" not in app.desk.slots.written("notice-slot")


def test_a_question_with_one_possible_answer_is_not_asked__OSE_SPELL_2(app_module, monkeypatch):
    from fray.engine.commands import Choice, Option
    from fray.rules.ose.commands import CompleteSpell
    from fray.ui.controllers import play
    app = _open(app_module, "ose", "detailed")
    done = []
    one = Option(CompleteSpell("mira"), "Complete Magic Missile", choices=(Choice("On Orc 1", {"targets": ("o1",)}),),
                 question="Mira completes Magic Missile: on whom?")
    two = Option(CompleteSpell("mira"), "Complete Sleep", question="Mira completes Sleep: on whom?",
                 choices=(Choice("On Orc 1", {"targets": ("o1",)}), Choice("On Orc 2", {"targets": ("o2",)})))
    monkeypatch.setattr(play, "options", lambda desk: [one, two])
    monkeypatch.setattr(play, "act", lambda desk, cmd, **kw: done.append(cmd))
    app.handle(lambda d: play.choose(d, 0), "opt")
    assert done == [CompleteSpell("mira", targets=("o1",))], "acted at once, on the only foe"
    app.handle(lambda d: play.choose(d, 1), "opt")
    assert len(done) == 1 and app.desk.page.pending == (1, two), "two answers: asked"


def test_a_morale_roll_on_the_8th_line_stays_in_view_above_the_events__OSE_MORALE_1():
    from fray.ui.markup.panels import result_card
    from fray.views.panels import LogLine, StepResult
    lines = tuple(LogLine(5, f"Orc {i} attacks Brak: miss", "OSE-ATK-1", "event", "d20 [3] = 3") for i in range(8))
    morale = LogLine(5, "Orcs check morale: 2d6 [11] = 11 vs 8: they flee", "OSE-MORALE-1", "event", "2d6 [11] = 11")
    card = str(result_card(StepResult(5, lines + (morale,), ()), "result"))
    key = card.index('data-testid="result-key"')
    assert key < card.index("Orcs check morale") < card.index('class="res-lines"'), "above the scrolled box"
    assert card.count("Orcs check morale") == 1
