"""OSE examples, registry entry, settings for every DEFAULT, and the saved example file."""
from __future__ import annotations

import pathlib

import pytest

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import get
from fray.rules.ose import RULESET
from fray.rules.ose.examples import examples

ROOT = pathlib.Path(__file__).resolve().parents[3]

# Rule ids whose RULES.md text states a DEFAULT: each must be a referee setting.
DEFAULT_RULES = ("OSE-MOVE-1", "OSE-STANCE-5", "OSE-ADV-1", "OSE-GRAP-1", "OSE-TURN-1", "OSE-MORALE-1",
                 "OSE-RES-1")


def test_the_system_is_registered_with_both_profiles__OSE_LOOSE_1():
    assert get("ose") is RULESET and RULESET.profiles == ("loose", "detailed")
    assert RULESET.info.field_view("detailed") == "grid" and RULESET.info.field_view("loose") == "list"


def test_every_default_is_a_setting():
    rules = {s.rule for s in RULESET.settings()}
    assert all(r in rules for r in DEFAULT_RULES)
    keys = [s.key for s in RULESET.settings()]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("name", ["loose", "detailed", "undead", "large"])
def test_examples_survive_a_save_and_load(name):
    enc = examples()[name](5)
    assert enc.seed == 5 and enc.system == "ose"
    s = Session(enc, RULESET)
    again = storage.loads(storage.dumps(s)).session
    assert again.state == s.state


def test_examples_have_what_the_brief_asks():
    loose, detailed, undead, large = (examples()[n](1) for n in ("loose", "detailed", "undead", "large"))
    assert loose.profile == "loose" and len(loose.combatants) == 6
    assert detailed.profile == "detailed" and len(detailed.combatants) == 6
    cs = detailed.combatants
    assert any(c.stat("spells") for c in cs) and any(a.kind == "bow" for c in cs for a in c.weapons)
    assert any(a.has("brace") for c in cs for a in c.weapons) and any(a.has("reach") for c in cs for a in c.weapons)
    assert any("Shield" in c.hands for c in cs) and all(c.square is not None for c in cs)
    rows = {c.stat("turn_row") or c.stat("hd") for c in undead.combatants if c.stat("undead")}
    assert rows == {1, 2, "2*"} and any(c.stat("warpriest") for c in undead.combatants)
    assert len(large.combatants) == 40 and large.profile == "detailed"


def test_the_saved_detailed_example_loads_and_replays__OSE_INIT_2():
    loaded = storage.loads((ROOT / "docs/examples/ose-detailed.json").read_text())
    s = loaded.session
    assert s.encounter.system == "ose" and s.encounter.profile == "detailed"
    assert len(s.steps) >= 10 and s.state.round == 2 and s.state.board.phase == "declare"
    rules = {e.rule for _, e in s.log()}
    assert {"OSE-INIT-2", "OSE-SPELL-1", "OSE-SPELL-2"} <= rules
