"""OLOG through the Session: undo/redo of pressure rolls, save/load, the saved example."""
from __future__ import annotations

import pathlib
from dataclasses import replace

import pytest

from fray.engine import storage
from fray.engine.dice import ScriptedDice
from fray.engine.referee import Allow, Damage
from fray.engine.session import Session
from fray.rules.olog import (RULESET, Attack as AttackCmd, Defend, EndTurn, Move, Reorder, RollInitiative,
                             SetCount, Strategise)
from fray.rules.olog.examples import examples, two_orcs

from acting import kinds
from olog_support import EXAMPLE_PATH, skirmish_document, skirmish_session

ROOT = pathlib.Path(__file__).resolve().parents[3]


def test_undo_a_pressure_roll_and_redo_gives_the_same_faces__OLOG_PRES_3():
    s = Session(two_orcs(11), RULESET)
    s.act(RollInitiative(), ScriptedDice([15]))
    before = s.state
    step = s.act(AttackCmd("brak", "orc1", "Sword", press_on=True))  # the app's seeded dice
    assert "PressedOn" in kinds(step) and len(step.dice) >= 2
    after = s.state
    s.undo()
    assert s.state == before and s.can_redo
    again = s.redo()
    assert again.dice == step.dice and s.state == after
    # undoing and acting afresh does not re-roll either: faces follow the roll counter
    s.undo()
    fresh = s.act(AttackCmd("brak", "orc1", "Sword", press_on=True))
    assert fresh.dice == step.dice and s.state == after


def test_save_and_load_keeps_changed_settings_and_every_step__OLOG_PRES_4():
    enc = replace(examples()["skirmish"](5), settings={"olog_pressure_round": "down", "olog_allow_repeat": True,
                                                       "olog_npc_init_base": 8})
    s = Session(enc, RULESET)
    s.act(RollInitiative())
    s.act(Reorder(tuple(RULESET.order(s.state))))
    s.act(SetCount("gob1", 3))
    for _ in range(6):
        actor = s.current()[0]
        s.act(Defend(actor, press_on=True) if RULESET.needs_press_on(s.state, actor) else Defend(actor))
        if s.current() == (actor,):
            s.act(EndTurn(actor))
    s.act(Damage("gob3", 2, "a falling rock"))
    s.undo()  # leaves one step on the redo stack
    text = storage.dumps(s)
    loaded = storage.loads(text).session
    assert loaded.encounter.settings["olog_pressure_round"] == "down"
    assert loaded.encounter.settings["olog_npc_init_base"] == 8
    assert loaded.state == s.state
    assert [st.events for st in loaded.steps] == [st.events for st in s.steps]
    assert loaded.can_redo and loaded.redo().command == Damage("gob3", 2, "a falling rock")
    assert storage.decode_link(storage.encode_link(s)).session.state == s.state


def test_load_rejects_a_bad_olog_setting_naming_it():
    doc = storage.dump(Session(two_orcs(1), RULESET))
    doc["encounter"]["settings"]["olog_pressure_round"] = "sideways"
    with pytest.raises(storage.LoadError) as err:
        storage.load(doc)
    assert "encounter.settings.olog_pressure_round" in str(err.value)


def test_saved_skirmish_example_loads_and_is_current():
    text = (ROOT / EXAMPLE_PATH).read_text(encoding="utf-8")
    assert text == skirmish_document(), "regenerate with: python3 tests/unit/support/olog_support.py"
    session = storage.loads(text).session
    assert session.state == skirmish_session().state
    assert len(session.steps) == 8 and session.encounter.settings["olog_item_middle"] == "extended"
    assert session.current() == ("gob1",) and session.state.get("gob2").is_down
    pressed = [e for _, e in session.log() if e.kind == "PressedOn"]
    assert len(pressed) == 2 and pressed[1].rolls[0].expr == "d4+1"  # the chief's marked bonus (OLOG-PRES-6)


def test_allow_override_still_checks_that_things_exist():
    s = Session(two_orcs(1), RULESET)
    s.act(RollInitiative())
    assert s.check(Allow(AttackCmd("brak", "nobody", "Sword"))).reason == "NO_SUCH_COMBATANT"
    assert s.check(Allow(Move("brak", 3))) is None  # two zones: the rule is waived
    # CORE-REF-1: an allowed action naming a zone or a direction that does not exist changes nothing, logged.
    for cmd, why in ((Move("brak", 9), "Zone"), (Strategise("brak", "sideways"), "sideways")):
        before = s.state
        step = s.act(Allow(cmd))
        assert [e.kind for e in step.events] == ["OverrideFailed"] and why in step.events[0].text
        assert s.state.board == before.board and s.state.combatants == before.combatants
