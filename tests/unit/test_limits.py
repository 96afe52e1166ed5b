"""Every limit on an encounter is in one place (engine/limits.py) and is the
one the loader applies (issue 13, docs/API.md "what an encounter may hold")."""
from __future__ import annotations

import pathlib
from dataclasses import replace

import pytest

from fray.engine import limits, storage
from fray.engine.encounter_io import check_encounter
from fray.engine.model import Combatant, Encounter, Side, Weapon
from fray.rules import get

ROOT = pathlib.Path(__file__).resolve().parents[2]
PARTY, FOES = Side("party", "Party", "#3b6ea8", is_player=True), Side("foes", "Foes", "#a83b3b", "square")


def encounter(**combatant) -> Encounter:
    hero = Combatant(**{"id": "brak", "name": "Brak", "side": "party", "hp": 10, "max_hp": 10, "band": 2,
                        "weapons": (Weapon("Sword", "1d8"),), **combatant})
    orc = Combatant("orc", "Orc", "foes", 6, 6, band=2)
    return Encounter("Limits", "olog", (hero, orc), (PARTY, FOES))


def test_api_md_lists_every_limit_as_the_module_states_it():
    text = (ROOT / "docs" / "API.md").read_text()
    for field, allowed in limits.table():
        assert f"| `{field}` | {allowed} |" in text, f"docs/API.md does not list {field}"


@pytest.mark.parametrize("change,where", [
    ({"name": "x" * (limits.COMBATANT_NAME + 1)}, "encounter.combatants[0].name: too long (81 characters, at most 80)"),
    ({"max_hp": limits.MAX_HP[1] + 100_000, "hp": 10}, "encounter.combatants[0].max_hp: 200000 is out of range (1 to 100000)"),
    ({"id": "has space"}, "encounter.combatants[0].id"),
    ({"weapons": (Weapon("Sword", "1d8"),) * (limits.MAX_WEAPONS + 1)},
     "encounter.combatants[0].weapons: expected a list of at most 16 weapons"),
])
def test_a_setup_past_a_limit_gets_the_loaders_message(change, where):
    _, problems = check_encounter(encounter(**change), get("olog"))
    assert any(p.startswith(where) for p in problems), problems


def test_a_setup_within_the_limits_passes_and_is_what_its_file_loads_as():
    enc = encounter(name="x" * limits.COMBATANT_NAME, max_hp=limits.MAX_HP[1], hp=limits.HP[1])
    enc = replace(enc, settings=get("olog").default_settings())  # as a Session writes them in
    rebuilt, problems = check_encounter(enc, get("olog"))
    assert problems == [] and rebuilt == enc
