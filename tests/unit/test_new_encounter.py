"""Blank means blank (issue #33): the library's "New encounter" opens an empty encounter of the system
tapped, in Setup, with the saved party one tap away; an encounter with nobody, or one side only, is drawn
without a winner and no action of the system is taken until two sides each have a combatant. The page runs
in CPython on the fake `pyscript` of test_app_render_cache.py."""
from __future__ import annotations

import pytest
from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray import presets, roster
from fray.engine import storage
from fray.engine.commands import IllegalCommand, Reason
from fray.engine.session import Session
from fray.rules import examples


def _open(module):
    module.window.location.hash = "#" + storage.encode_link(Session(examples("olog")["skirmish"](3)))
    app = module.App()
    app.boot()
    return app


def empty_session(system: str, profile: str = "") -> Session:
    return storage.load({"format": 1, "encounter": presets.empty_encounter(system, profile), "steps": []}).session


# --- the engine: nobody, or one side, is no fight yet ------------------------------------------------

@pytest.mark.parametrize("system, profile", [("olog", ""), ("ose", "detailed"), ("ose", "loose"), ("ogre", "")])
def test_an_encounter_with_nobody_is_no_fight_yet_and_saves_and_opens(system, profile):
    s = empty_session(system, profile)
    assert s.state.combatants == () and s.state.outcome == ""
    assert "No combatants yet" in s.ruleset.unready(s.state)
    again = storage.loads(storage.dumps(s)).session
    assert again.encounter == s.encounter


@pytest.mark.parametrize("system, profile", [("olog", ""), ("ose", "detailed"), ("ogre", "")])
def test_one_side_alone_has_not_won_and_may_not_act_until_a_foe_is_added(system, profile):
    doc = presets.empty_encounter(system, profile)
    doc["combatants"] = [presets.preset("Sample PC", "mira", "party")]
    s = storage.load({"format": 1, "encounter": doc, "steps": []}).session
    assert s.state.outcome == "", "no side wins a fight that has not started"
    why = s.ruleset.unready(s.state)
    assert "two sides" in why
    offered = [o for o in s.options("mira") if o.command is not None and type(o.command).namespace == system]
    assert offered and not any(o.allowed for o in offered)
    held = [o for o in offered if o.why == why]
    assert held, "what would be allowed says why it is not"
    with pytest.raises(IllegalCommand) as refused:
        s.act(held[0].command)
    assert refused.value.illegal.reason == Reason.NOT_STARTED
    doc["combatants"].append(presets.preset("Orc", "orc-1", "foes"))
    ready = storage.load({"format": 1, "encounter": doc, "steps": []}).session
    assert ready.ruleset.unready(ready.state) == ""
    assert any(o.allowed for c in ready.current() for o in ready.options(c))


# --- the library's New encounter ------------------------------------------------------------------

def test_the_library_offers_each_system_in_one_tap_with_a_line_on_what_it_is(app_module):
    app = _open(app_module)
    app.dispatch("library", "", None)
    dialog = app.desk.slots.written("library-slot")
    for system, profile, label, line in presets.new_encounters():
        assert f'data-action="lib-new:{system}:{profile}"' in dialog and f"New {label} encounter" in dialog
        assert line in dialog
    assert len(presets.new_encounters()) == 3


@pytest.mark.parametrize("system, profile", [("olog", ""), ("ose", "detailed"), ("ogre", "")])
def test_new_encounter_is_empty_in_the_system_tapped_and_opens_in_setup(app_module, system, profile):
    app = _open(app_module)
    before = app.desk.entry_id
    app.dispatch("lib-new", f"{system}:{profile}", None)
    enc = app.desk.session.encounter
    assert (enc.system, enc.profile) == (system, profile)
    assert enc.combatants == () and [s.name for s in enc.sides] == ["Party", "Foes"]
    assert enc.sides[0].is_player and not enc.sides[1].is_player
    assert app.desk.page.mode == "setup" and app.desk.entry_id != before
    assert before in app.desk.store.records, "the previous encounter stays in the library"
    header = app.desk.slots.written("header-slot")
    assert "No combatants yet" in header and "wins" not in header and "Victory" not in header
    form = app.desk.slots.written("editor-slot")
    assert "Combatants (0)" in form and 'data-testid="editor-start"' in form
    assert "Something went wrong" not in app.desk.slots.written("notice-slot")


def test_the_saved_party_is_offered_in_one_tap_and_added(app_module):
    app = _open(app_module)
    for i, (cid, name) in enumerate((("mira", "Mira"), ("brak", "Brak"), ("sela", "Sela"))):
        pc = presets.preset("Sample PC", cid, "party")
        pc["name"] = name
        app.desk.store.put_roster(roster.from_combatant(pc, "", f"r{i}", 0, True))
    app.dispatch("lib-new", "ogre:", None)
    form = app.desk.slots.written("editor-slot")
    start = form[form.index('data-testid="editor-start"'):]
    assert 'data-testid="start-party"' in start and "Add the party (3)" in start
    assert "disabled" not in start[:start.index("</button>")]
    app.dispatch("roster-party", "", None)
    enc = app.desk.session.encounter
    assert sorted(c.name for c in enc.combatants) == ["Brak", "Mira", "Sela"]
    assert {c.side for c in enc.combatants} == {"party"}
    assert "two sides" in app.desk.slots.written("header-slot")


def test_add_the_party_is_never_a_dead_button(app_module):
    app = _open(app_module)
    app.dispatch("lib-new", "olog:", None)
    form = app.desk.slots.written("editor-slot")
    button = form[form.index('data-testid="roster-party"') - 80:]
    button = button[:button.index("</button>")]
    assert "Add the party (0)" in button and "disabled" not in button
    app.dispatch("roster-party", "", None)
    assert "No party saved yet" in app.desk.roster.report and "Save to roster" in app.desk.roster.report


def test_the_party_counted_is_the_encounters_systems_whatever_the_pickers_filter(app_module):
    app = _open(app_module)
    pc = presets.preset("Sample PC", "mira", "party")
    entry = roster.from_combatant(pc, "olog", "r1", 0, True)  # an OLOG-only PC
    app.desk.store.put_roster(entry)
    app.dispatch("lib-new", "olog:", None)
    app.desk.roster.system = "ogre"  # the picker shows Ogre's creatures
    app.dispatch("mode", "setup", None)
    assert "Add the party (1)" in app.desk.slots.written("editor-slot")
