"""A fourth system is one folder: dropped into fray/rules/, it is in every list, with no edit elsewhere (issue #51).

The folder (tests/unit/fixtures/fourth_system/tag/) holds a package and its
descriptor (`system.py`); the test puts it where the registry looks for
systems and finds it in the welcome, "New encounter", the editor's System
list, the roster's filter, the bestiary, and a save file that round-trips.
"""
from __future__ import annotations

import pathlib
import re
import shutil
import sys

import pytest

from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray import bestiary, presets, rules
from fray.engine import commands, storage
from fray.engine.session import Session
from fray.views import panels, welcome
from fray.ui.desk.page import Dialog

FOLDER = pathlib.Path(__file__).parent / "fixtures" / "fourth_system"


@pytest.fixture
def tag(tmp_path):
    """The folder copied into a directory on fray.rules' path, as if dropped into py/fray/rules/."""
    shutil.copytree(FOLDER / "tag", tmp_path / "tag")
    rules.__path__.append(str(tmp_path))
    rules.discover()
    try:
        yield rules.info("tag")
    finally:
        rules.__path__.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == "fray.rules.tag" or n.startswith("fray.rules.tag.")]:
            del sys.modules[name]
        panels._VIEWS.pop("tag", None)
        commands._REGISTRY.pop("tag", None)  # its command classes go with its modules
        rules.discover()


def test_the_folder_alone_registers_the_system_last_in_order(tag):
    assert list(rules.SYSTEMS) == ["olog", "ose", "ogre", "tag"]
    assert rules.get("tag").title == "Tag: a test of one folder" and rules.get("tag").info is tag
    assert "tag" in rules.RULESETS


def test_without_the_folder_there_is_no_such_system():
    assert "tag" not in rules.SYSTEMS
    with pytest.raises(rules.UnknownSystem):
        rules.info("tag")


def test_the_welcome_and_new_encounter_offer_it(tag):
    offered = welcome.choice("tag")
    assert (offered.name, offered.line, offered.example) == ("Tag", "Touch a foe and it is out.", "two_kids")
    assert offered.example in rules.examples("tag")
    assert ("tag", "", "Tag", "Everyone runs; a touch puts a foe out.") in presets.new_encounters()


def test_the_bestiary_holds_its_creatures(tag):
    kid = next(e for e in bestiary.entries() if e["system"] == "tag")
    assert kid["id"] == "starter-tag-fast-kid" and "Rules of the playground" in kid["source"]


def test_a_save_file_of_it_opens_unchanged(tag):
    s = Session(rules.examples("tag")["two_kids"](3))
    s.act(s.ruleset.options(s.state, "bob")[0].command)
    again = storage.loads(storage.dumps(s)).session
    assert again.encounter == s.encounter and again.state.get("ann").is_down
    assert storage.dumps(again) == storage.dumps(s)


def test_the_page_offers_it_in_new_encounter_the_editor_and_the_roster_filter(app_module, tag):
    app = app_module.App()
    app.boot()
    app.dispatch("library", "", None)
    assert "New Tag encounter" in app.desk.slots.written("library-slot")
    app.dispatch("lib-new", "tag:", None)
    assert app.desk.session.encounter.system == "tag" and app.desk.page.mode == "setup"
    form = app.desk.slots.written("editor-slot")
    assert '<option value="tag:fast"' in form and "Tag fast" in form
    assert re.search(r'<option value="tag"[ >]', form), "the roster's filter offers the system"
    assert "Fast kid" in form, "the roster lists its starter creature, filtered to the encounter's system"


def test_the_welcome_offers_it_and_opens_its_example(app_module, tag):
    app = app_module.App()
    app.boot()
    app.desk.set(dialog=Dialog("welcome", system=rules.default_system()))
    app.redraw()
    assert 'data-testid="welcome-system-tag"' in app.desk.slots.written("dialog-slot")
    app.dispatch("welcome-system", "tag", None)
    assert "Two kids" in app.desk.slots.written("dialog-slot"), "its example is offered once it is chosen"
    app.dispatch("welcome-example", "tag", None)
    assert app.desk.session.encounter.name == "Two kids" and app.desk.session.encounter.system == "tag"


def test_the_help_says_how_to_start_a_fight_in_it(app_module, tag):
    app = app_module.App()
    app.boot()
    app.desk.set(dialog=Dialog("help"))
    app.redraw()
    shown = app.desk.slots.written("dialog-slot")
    assert "<dt>Tag</dt>" in shown and "New Tag encounter: two sides of kids" in shown
    assert "<dt>OLOG</dt>" in shown and "New OSE encounter" in shown, "each system's line, from its descriptor"
