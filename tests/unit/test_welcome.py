"""A first visit that shows the way (issue #33): a browser that has kept nothing opens on a welcome that offers
each system with one line on what it is, then a blank fight (empty, in Setup) or the system's example in one
more tap, or the library; any visit after that opens the encounter kept, without it. The help explains the
screen area by area and how to start a fight, besides the shortcuts. The page runs in CPython on the fake
`pyscript` of test_app_render_cache.py. UI behaviour: no rule ids."""
from __future__ import annotations

import re

import pytest
from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray import library
from fray.engine import storage
from fray.engine.session import Session
from fray.rules import SYSTEMS, examples
from fray.views.welcome import choice, choices, default, is_first_visit


# --- what counts as a first visit ------------------------------------------------------------------

def _record(rid: str = "e1", **extra) -> dict:
    doc = storage.dumps(Session(examples("olog")["two_orcs"](1)))
    rec = library.make_record(rid, doc, {"name": "Two orcs", "system": "olog"}, 0, "new")
    rec.update(extra)
    return rec


def test_a_browser_that_kept_nothing_is_a_first_visit():
    assert is_first_visit([], old_autosave=False, link=False)
    assert is_first_visit(iter(()), old_autosave=False, link=False)


@pytest.mark.parametrize("kept", [{}, {"deleted": 1}, {"broken": "unreadable"}])
def test_any_entry_kept_here_even_in_the_trash_or_set_aside_is_not_a_first_visit(kept):
    assert not is_first_visit([_record(**kept)], old_autosave=False, link=False)


def test_the_old_autosave_slot_or_a_share_link_is_not_a_first_visit():
    assert not is_first_visit([], old_autosave=True, link=False)
    assert not is_first_visit([], old_autosave=False, link=True)


# --- what the welcome offers -------------------------------------------------------------------------

def test_the_welcome_offers_every_system_with_a_blank_fight_and_an_example_that_exist():
    offered = choices()
    assert [c.system for c in offered] == list(SYSTEMS) and default() == "olog"
    for c in offered:
        assert c.profile in SYSTEMS[c.system].profiles
        assert c.example in examples(c.system)
        assert choice(c.system) == c
    assert choice("nonsense") == offered[0] and choice("") == offered[0]
    lines = {c.system: c.line for c in offered}
    assert lines["olog"].startswith("Initiative counts, two actions, pressure, distance bands")
    assert lines["ose"].startswith("Side initiative, declarations, loose or detailed combat on a square grid")
    assert lines["ogre"].startswith("A segment count: actions resolve segments after they are declared")


# --- the page ------------------------------------------------------------------------------------------

def _first_visit(module, welcome=None):
    if welcome is not None:
        module.window.frayWelcome = welcome
    app = module.App()
    app.boot()
    return app


def test_a_first_visit_opens_the_welcome_as_a_dialog_over_the_demo(app_module):
    app = _first_visit(app_module)
    assert (app.desk.page.dialog.kind, app.desk.page.dialog.system) == ("welcome", "olog")
    dialog = app.desk.slots.written("dialog-slot")
    assert 'role="dialog"' in dialog and 'aria-labelledby="welcome-t"' in dialog and 'id="welcome-t"' in dialog
    for testid in ("welcome", "welcome-system-olog", "welcome-system-ose", "welcome-system-ogre", "welcome-blank",
                   "welcome-example", "welcome-library", "welcome-close"):
        assert f'data-testid="{testid}"' in dialog, testid
    assert 'data-testid="welcome-system-olog" aria-pressed="true"' in dialog
    assert app.desk.session.encounter.system == "olog" and len(app.desk.store.records) == 1


def test_the_browser_tests_turn_the_welcome_off_and_the_demo_opens_as_before(app_module):
    app = _first_visit(app_module, welcome=False)
    assert app.desk.page.dialog is None and app.desk.slots.written("dialog-slot") == ""


def test_a_share_link_opens_without_the_welcome(app_module):
    app_module.window.location.hash = "#" + storage.encode_link(Session(examples("ose")["detailed"](3)))
    app = _first_visit(app_module)
    assert app.desk.page.dialog is None and app.desk.session.encounter.system == "ose"


def test_a_second_visit_opens_the_encounter_kept_without_the_welcome(app_module):
    first = _first_visit(app_module)
    kept = dict(first.desk.store.records)
    again = app_module.App()
    again.desk.store.records.update(kept)
    again.boot()
    assert again.desk.page.dialog is None and again.desk.entry_id in kept


def test_ose_then_blank_is_an_empty_ose_fight_in_setup_and_the_untouched_demo_is_not_kept(app_module):
    app = _first_visit(app_module)
    demo = app.desk.entry_id
    app.dispatch("welcome-system", "ose", None)
    assert (app.desk.page.dialog.kind, app.desk.page.dialog.system) == ("welcome", "ose")
    dialog = app.desk.slots.written("dialog-slot")
    assert "Start a blank OSE fight" in dialog and "Open an OSE example" in dialog
    assert 'data-action="welcome-blank:ose"' in dialog
    app.dispatch("welcome-blank", "ose", None)
    enc = app.desk.session.encounter
    assert (enc.system, enc.profile) == ("ose", "detailed") and enc.combatants == ()
    assert app.desk.page.mode == "setup" and app.desk.page.dialog is None
    assert list(app.desk.store.records) == [app.desk.entry_id] and demo not in app.desk.store.records
    assert "in Setup" in app.desk.slots.written("notice-slot")


def test_ogre_then_example_opens_the_ogre_example_and_undo_returns_to_the_demo(app_module):
    app = _first_visit(app_module)
    app.dispatch("welcome-system", "ogre", None)
    app.dispatch("welcome-example", "ogre", None)
    s = app.desk.session
    assert s.encounter.system == "ogre" and app.desk.page.dialog is None and app.desk.page.mode == "play"
    example = examples("ogre")["orc_and_pc"](s.encounter.seed)
    assert s.encounter.name == example.name and s.encounter.combatants == example.combatants
    assert len(app.desk.store.records) == 1
    app.dispatch("undo", "", None)
    assert app.desk.session.encounter.system == "olog"


def test_escape_or_close_leaves_the_demo_and_the_library_is_one_tap(app_module):
    app = _first_visit(app_module)
    app.dispatch("cancel", "", None)
    assert app.desk.page.dialog is None and app.desk.session.encounter.system == "olog"
    again = _first_visit(app_module)
    again.dispatch("library", "", None)
    assert again.desk.page.dialog.kind == "library" and again.desk.slots.written("dialog-slot") == ""


def test_the_help_explains_each_area_how_to_start_and_the_shortcuts_and_opens_the_welcome(app_module):
    app = _first_visit(app_module, welcome=False)
    app.dispatch("help", "", None)
    text = re.sub(r"<[^>]+>", " ", app.desk.slots.written("dialog-slot"))
    for area in ("Header", "Order", "Field", "Actions", "Dice", "Log", "Starting a fight", "Keyboard shortcuts"):
        assert area in text, area
    assert "tapping another row makes it the target" in text and "quick HP" in text
    assert "result card" in text and "Pick the n-th action" in text
    for system in ("New OLOG encounter", "New OSE encounter", "New Ogre encounter"):
        assert system in text
    app.dispatch("welcome-system", "", None)
    assert (app.desk.page.dialog.kind, app.desk.page.dialog.system) == ("welcome", "olog")
