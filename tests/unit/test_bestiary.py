"""The starter bestiary (#33): at least twenty creatures a system, each a valid roster entry of its system
that loads as a save file's combatant, found by name or tag, added as numbered copies, and able to fight
under its system's rules: every weapon it holds is offered and resolves, and a seeded random fight
(fray.playout's chooser) against a standard PC plays every offered option."""
from __future__ import annotations

import re
from collections import Counter

import pytest

import fray.rules  # noqa: F401  (installs the systems the loader looks up)
from fray import bestiary, playout, presets, roster
from fray.engine import spells, storage
from fray.engine.session import Session
from fray.rules import SYSTEMS

ENTRIES = bestiary.entries()
IDS = [e["id"] for e in ENTRIES]
STEPS = 60
FIGHTS = [(1, 1), (2, 2), (1, 3)] + [(2, seed) for seed in range(4, 12)]  # three, then more until every weapon is used
# The names other tests (and referees' saved encounters) already use.
KEPT = {"olog": {"Cave rat", "Wolf", "Bandit", "Cave bear"}, "ose": {"Giant rat", "Wolf", "Bandit", "Restless bones"},
        "ogre": {"Giant rat", "Wolf", "Bandit", "Boar"}}
# The keys each system's rules read (its StatSpecs): a bestiary stat outside them is read by no code.
OWN_KEYS = {s: {spec.key for spec in fray.rules.get(s).stats()} for s in SYSTEMS}


def by_id(rid: str) -> dict:
    return next(e for e in ENTRIES if e["id"] == rid)


def test_at_least_twenty_creatures_a_system_each_under_a_stable_unique_id():
    count = Counter(e["system"] for e in ENTRIES)
    assert set(count) == set(SYSTEMS) and all(n >= 20 for n in count.values()), count
    assert len(set(IDS)) == len(IDS)
    for e in ENTRIES:
        assert e["id"] == f"starter-{e['system']}-{bestiary.slug(e['name'])}" and bestiary.is_starter(e["id"])
        assert re.fullmatch(r"[a-z0-9-]+", e["id"])
    for system, names in KEPT.items():
        assert names <= {e["name"] for e in ENTRIES if e["system"] == system}, system


def test_each_creature_keeps_its_source_tags_and_only_its_systems_stats():
    for e in ENTRIES:
        assert e["source"].startswith("Starter bestiary (Fray)") and e["tags"], e["id"]
        assert e["combatant"]["notes"].startswith("Starter bestiary (Fray), for the "), e["id"]
        assert set(e["combatant"]["stats"]) <= OWN_KEYS[e["system"]], (e["id"], e["combatant"]["stats"])
        for w in e["combatant"]["weapons"]:
            assert "count" not in w or e["system"] == "olog", f"{e['id']}: only OLOG reads count (OLOG-ATK-1)"
            assert not w.get("item") or w["item"] in e["combatant"]["hands"] + e["combatant"]["inventory"], \
                f"{e['id']}: {w['name']} is neither held nor carried"


@pytest.mark.parametrize("rid", IDS)
def test_every_creature_passes_roster_and_storage_validation(rid):
    e = by_id(rid)
    checked, problems = roster.check_entry(e, rid)
    assert problems == [] and checked is not None
    assert checked["tags"] == e["tags"] and checked["source"] == e["source"]
    doc = _encounter(e, 1)
    loaded = storage.load({"format": 1, "encounter": doc, "steps": []})
    names = [c.name for c in loaded.session.encounter.combatants]
    assert names[-2:] == [f"{e['name']} 1", f"{e['name']} 2"]


def test_roster_entries_refuse_bad_tags_and_sources():
    e = dict(by_id("starter-ose-wolf"))
    for bad in ({"tags": "animal"}, {"tags": ["two words"]}, {"tags": [""]}, {"tags": ["x" * 25]},
                {"tags": ["a"] * 13}, {"source": 3}, {"source": "x" * 201}):
        entry, problems = roster.check_entry({**e, **bad}, "entries[0]")
        assert entry is None and problems and problems[0].startswith(f"entries[0].{next(iter(bad))}:"), bad
    plain = {k: v for k, v in e.items() if k not in ("tags", "source")}
    entry, problems = roster.check_entry(plain, "entries[0]")
    assert problems == [] and "tags" not in entry and "source" not in entry  # older files read as they were


def test_search_matches_every_word_in_the_name_or_a_tag():
    assert roster.matches(by_id("starter-ose-ghoul"), "undead")
    assert roster.matches(by_id("starter-ose-giant-rat"), "GIANT rat")
    assert roster.matches(by_id("starter-ose-giant-rat"), "rat vermin")
    assert roster.matches(by_id("starter-ose-giant-rat"), "  ")
    assert not roster.matches(by_id("starter-ose-giant-rat"), "rat undead")
    assert roster.matches({"name": "Goblin", "system": "ose"}, "gob")  # a saved entry has no tags
    undead = {e["name"] for e in roster.search(ENTRIES, "undead", "ose")}
    assert {"Skeleton", "Zombie", "Ghoul", "Restless bones"} <= undead and "Wolf" not in undead
    animals = roster.search(ENTRIES, "animal", "ogre")
    assert {"Wolf", "Boar", "Bear"} <= {e["name"] for e in animals} and {e["system"] for e in animals} == {"ogre"}


def test_four_numbered_copies_of_a_starter_creature_follow_the_orcs_already_there__CORE_HP_1():
    doc = roster.add_copies(presets.blank_encounter("ose", "detailed"), by_id("starter-ose-orc"), 4, "orcs")
    doc = roster.add_copies(doc, by_id("starter-ose-orc"), 1, "orcs")
    names = [c["name"] for c in doc["combatants"]]
    assert names == ["Mira"] + [f"Orc {n}" for n in range(1, 8)]  # the blank encounter's Orc 1 and 2, then 3-7
    assert all(c["notes"].startswith("Starter bestiary (Fray)") for c in doc["combatants"][3:])
    session = storage.load({"format": 1, "encounter": doc, "steps": []}).session
    ids = [c.id for c in session.encounter.combatants]
    assert len(set(ids)) == len(ids)


# --- a fight per creature ---------------------------------------------------------------------------

def _encounter(e: dict, layout: int) -> dict:
    """The system's blank encounter with its orcs replaced by two numbered copies of the creature facing the
    sample PC: side by side with her (layout 1) or a few squares off (layout 2; OLOG: the next zone)."""
    system = e["system"]
    doc = presets.blank_encounter(system, "detailed" if system == "ose" else "")
    doc["combatants"] = [c for c in doc["combatants"] if c["side"] == "party"]
    doc = roster.add_copies(doc, e, 2, "orcs")
    mira, one, two = doc["combatants"]
    mira["square"], mira["band"] = [5, 5], 2
    gap = 1 if layout == 1 else 4
    one["square"], two["square"] = [5 + gap, 5], [5 + gap, 6]
    one["band"] = two["band"] = 2 if layout == 1 else 3
    return doc


def _held_at_start(session: Session, cid: str) -> set[str]:
    return {w.name for w in session.state.get(cid).ready_weapons()}


def _fight(e: dict, layout: int, seed: int) -> tuple[set[str], set[str], int]:
    """Play a short seeded fight; every attack the creature is offered with a weapon it has not yet used, while
    its hands hold what they held at the start, is also played then undone (a weapon that needs the hands
    changed first, say a two-handed club beside a torch, is not usable as written). Returns (weapons ready
    at the start, weapons whose attacks applied, steps)."""
    session = storage.load({"format": 1, "encounter": _encounter(e, layout), "steps": []}).session
    mine = [c.id for c in session.encounter.combatants if c.side == "orcs"]
    ready = _held_at_start(session, mine[0])
    hands = session.state.get(mine[0]).hands
    used: set[str] = set()
    rng = playout.Chooser(seed)
    for step in range(STEPS):
        if session.state.outcome or not session.current():
            break
        for actor in session.current():
            if actor not in mine or session.state.get(actor).hands != hands:
                continue  # a weapon counts as used only as the creature holds it at the start
            for o in session.options(actor):
                weapon = getattr(o.command, "weapon", "")
                if not o.allowed or not weapon or weapon in used or getattr(o.command, "actor", "") != actor:
                    continue
                cmd = playout.fill(session, o, rng)
                if cmd is None:
                    continue
                before = session.state
                try:
                    session.act(cmd)
                except Exception as exc:  # an attack its system cannot resolve
                    raise AssertionError(f"{e['id']}: offered {o.label} failed: {type(exc).__name__}: {exc}")
                session.undo()
                assert session.state == before
                used.add(weapon)
        cmd = playout.choose(session, rng)
        assert cmd is not None, f"{e['id']}: {session.current()} have no allowed option (step {step})"
        try:
            session.act(cmd)
        except Exception as exc:
            raise AssertionError(f"{e['id']} step {step}: offered {cmd!r} failed: {type(exc).__name__}: {exc}")
        for c in session.state.combatants:
            assert c.hp <= c.max_hp, f"{c.name} has {c.hp}/{c.max_hp} HP (CORE-HP-1)"
    again = storage.loads(storage.dumps(session)).session
    assert again.state == session.state, f"{e['id']}: the fight does not load back"
    return ready, used, len(session.steps)


@pytest.mark.parametrize("rid", IDS)
def test_every_creature_fights_under_its_systems_rules__OLOG_ATK_1__OSE_ATK_1__OGRE_ATK_1(rid):
    e = by_id(rid)
    ready, used, steps = set(), set(), 0
    for n, (layout, seed) in enumerate(FIGHTS):
        if n >= 3 and ready <= used:
            break
        r, u, played = _fight(e, layout, seed)
        ready, used, steps = ready | r, used | u, steps + played
    assert ready, f"{rid} holds no weapon it can use"
    assert ready <= used, f"{rid}: never offered an attack with {sorted(ready - used)}"
    assert steps >= 10


def test_the_ose_casters_spells_say_what_they_do_in_brackets__OSE_SPELL_5():
    casters = [e for e in ENTRIES if e["system"] == "ose" and e["combatant"]["stats"].get("spells")]
    assert casters
    for e in casters:
        for entry in e["combatant"]["stats"]["spells"]:
            assert spells.spell_effect(entry)[1] is not None, (e["name"], entry)
