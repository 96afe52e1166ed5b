"""The quick party (issue #53, stop 4): names one a line, each with a class of the system, read and added."""
from __future__ import annotations

import pytest

import fray.rules  # noqa: F401  (installs the systems the loader looks up)
from fray import presets, quick_party, roster
from fray.engine import spells, storage
from fray.engine.limits import COMBATANT_NAME
from fray.engine.session import Session
from fray.rules import SYSTEMS

NOW = 1_800_000_000_000


def members(text, system="ose"):
    got, problems = quick_party.read(text, system)
    assert not problems, problems
    return got


def why(text, system="ose", room=60):
    got, problems = quick_party.read(text, system, room)
    assert got == ()  # nothing is meant to be added while a line is wrong
    return {p.line: p.why for p in problems}


def test_names_with_and_without_a_class_are_read_in_order():
    got = members("Mira: fighter\nBrak: Cleric\n  Sela  \nHal : wizard\n")
    assert [(m.name, m.klass) for m in got] == [("Mira", "fighter"), ("Brak", "cleric"), ("Sela", "fighter"),
                                                ("Hal", "magic-user")]


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_system_offers_the_four_classes(system):
    assert list(quick_party.classes(system)) == ["fighter", "cleric", "magic-user", "thief"]


def test_each_bad_line_is_named_and_nothing_is_added():
    problems = why("Mira: fighter\n\nBrak: bard\n: cleric\n" + "x" * (COMBATANT_NAME + 1) + "\nMira")
    assert set(problems) == {2, 3, 4, 5, 6}
    assert "empty" in problems[2]
    assert "“bard”" in problems[3] and "fighter, cleric, magic-user, thief" in problems[3]
    assert "no name" in problems[4]
    assert f"at most {COMBATANT_NAME}" in problems[5]
    assert "already line 1" in problems[6]


def test_more_than_twelve_lines_are_refused_from_the_thirteenth():
    text = "\n".join(f"Pc{i}" for i in range(1, 15))
    assert set(why(text)) == {13, 14}
    assert len(members("\n".join(f"Pc{i}" for i in range(1, 13)))) == 12


def test_nothing_typed_and_no_room_are_said():
    assert "one name a line" in why("  \n \n")[1]
    assert "room for 1 more" in why("Mira\nBrak", room=1)[2]


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_party_joins_the_players_side_loads_and_is_saved_as_the_party(system):
    doc = presets.empty_encounter(system, SYSTEMS[system].start_profile)
    got = members("Mira: fighter\nBrak: cleric\nSela: magic-user\nHal: thief", system)
    new, entries = quick_party.add(doc, got, "party", system, lambda i: f"r{i}", NOW)
    assert [c["name"] for c in new["combatants"]] == ["Mira", "Brak", "Sela", "Hal"]
    assert {c["side"] for c in new["combatants"]} == {"party"} and doc["combatants"] == []
    problems: list[str] = []
    enc, _ = storage.encounter_from_json(new, problems)
    assert not problems and enc is not None
    assert [e["name"] for e in roster.party(entries, system)] == ["Brak", "Hal", "Mira", "Sela"]
    assert [e["cid"] for e in entries] == [c["id"] for c in new["combatants"]]
    assert len({tuple(c["square"]) for c in new["combatants"]}) == 4  # each placed on its own square


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_casters_spells_say_what_they_do(system):
    doc = presets.empty_encounter(system, SYSTEMS[system].start_profile)
    doc, _ = quick_party.add(doc, members("Brak: cleric\nSela: magic-user", system), "party", system, str, NOW)
    enc, ruleset = storage.encounter_from_json(doc, [])
    state = Session(enc, ruleset=ruleset).state
    said = []
    for body in quick_party.classes(system).values():
        for entry in body["stats"].get("spells", ()):
            name, effect = spells.spell_effect(entry)
            if effect is not None and effect.lasts:
                assert ruleset.duration(state, effect.lasts) > 0
            said.append(effect is not None)
    assert said.count(True) >= 2  # the cleric's healing and the magic-user's missile at least


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_each_class_holds_only_stats_its_system_reads(system):
    own = {spec.key for spec in fray.rules.get(system).stats()}
    for klass, body in quick_party.classes(system).items():
        assert set(body["stats"]) <= own, (klass, set(body["stats"]) - own)
