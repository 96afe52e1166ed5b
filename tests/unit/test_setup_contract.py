"""What the API saves, the API opens (issue 13, docs/API.md "What an encounter may hold").

`Session(...)` refuses, when it is made, any setup a save file could not hold,
with the loader's own message (field path, value, allowed range); and anything
it accepts comes back from `storage.dumps` then `storage.loads` identical: the
same encounter, the same log, the same state. The property test draws
encounters from the full allowed ranges (boundaries included) of all three
systems (1,000 with FRAY_LONG=1, as in CI); test_setup_sweep.py draws 10,000 more
from the same ranges with a seeded generator, which costs a tenth as much a setup.
"""
from __future__ import annotations

import os
import string
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fray.engine import limits as L, storage
from fray.engine.commands import IllegalCommand
from fray.engine.encounter_io import SetupError
from fray.engine.model import QUALITIES, WEAPON_KINDS, Combatant, Encounter, MapSpec, Side, Weapon
from fray.engine.referee import Damage, SetCondition, SetHp, SetStat
from fray.engine.session import Session
from fray.rules import get

LONG = os.environ.get("FRAY_LONG") == "1"
EXAMPLES = 1_000 if LONG else 150

PARTY, FOES = Side("party", "Party", "#3b6ea8", is_player=True), Side("foes", "Foes", "#a83b3b", "square")


def setup(system: str = "olog", sides=(PARTY, FOES), **hero) -> Encounter:
    brak = Combatant(**{"id": "brak", "name": "Brak", "side": "party", "hp": 10, "max_hp": 10, "band": 2,
                        "weapons": (Weapon("Sword", "1d8"),), **hero})
    orc = Combatant("orc", "Orc", "foes", 6, 6, band=2)
    return Encounter("Contract", system, (brak, orc), tuple(sides))


def refused(enc: Encounter, system: str = "olog") -> list[str]:
    with pytest.raises(SetupError) as err:
        Session(enc, get(system))
    return err.value.problems


# --- the seven setups the issue saw saved and never opened again ------------------------------------

def test_201_combatants_are_refused_at_creation():
    enc = setup()
    many = tuple(replace(enc.combatants[1], id=f"orc{i}") for i in range(L.MAX_COMBATANTS))
    problems = refused(replace(enc, combatants=enc.combatants[:1] + many))
    assert problems == ["encounter.combatants: too many combatants (201, at most 200)"]


def test_an_81_character_name_is_refused_at_creation():
    assert refused(setup(name="x" * 81)) == [
        "encounter.combatants[0].name: too long (81 characters, at most 80)"]


def test_a_colour_given_as_a_word_is_refused_at_creation():
    blue = replace(PARTY, colour="blue")
    assert refused(setup(sides=(blue, FOES))) == ['encounter.sides[0].colour: "blue" is not a colour like #3b6ea8']


def test_11_attacks_in_one_action_are_refused_at_creation():
    problems = refused(setup(weapons=(Weapon("Claws", "1d3", count=11),)))
    assert problems == ["encounter.combatants[0].weapons[0].count: 11 is out of range (1 to 10)"]


def test_200000_hp_is_refused_at_creation():
    assert refused(setup(max_hp=200_000, hp=200_000)) == [
        "encounter.combatants[0].max_hp: 200000 is out of range (1 to 100000)",
        "encounter.combatants[0].hp: 200000 is out of range (-100000 to 100000)"]


def test_an_id_with_a_space_is_refused_at_creation():
    assert refused(setup(id="brak the bold")) == [
        'encounter.combatants[0].id: "brak the bold" is not a valid id (letters, digits, _ . -)']


def test_level_40_is_refused_at_creation():
    assert refused(setup(stats={"level": 40})) == ["encounter.combatants[0].stats.level: 40 is out of range (0 to 30)"]


def test_a_name_with_a_broken_escape_is_refused_at_creation():
    """A lone surrogate cannot be written as UTF-8: the file would never save."""
    problems = refused(setup(name="Br\ud800k"))
    assert problems and "unpaired surrogate" in problems[0]


# --- the referee's commands that change the setup hold to the same limits -------------------------

@pytest.mark.parametrize("cmd,message", [
    (SetHp("brak", 200_000), "brak.hp: 200000 is out of range (-100000 to 100000)"),
    (SetStat("brak", "level", 40), "brak.stats.level: 40 is out of range (0 to 30)"),
    (Damage("brak", 10**40), f"brak.amount: {10**40} is out of range (0 to 200000)"),
    (SetCondition("brak", "x" * 41), "brak.conditions: expected text of 1 to 40 characters"),
])
def test_a_referee_command_past_a_limit_is_refused_with_the_loaders_words__CORE_REF_1(cmd, message):
    s = Session(setup(), get("olog"))
    with pytest.raises(IllegalCommand) as err:
        s.act(cmd)
    assert err.value.illegal.detail == message
    assert s.steps == [], "nothing changed"


def test_a_referee_command_at_its_limit_is_saved_and_opened__CORE_REF_1():
    s = Session(setup(), get("olog"))
    for cmd in (SetHp("brak", L.HP[1]), SetStat("brak", "level", 30), SetStat("brak", "luck", ["a", "b"]),
                Damage("orc", L.AMOUNT[1]), SetCondition("brak", "x" * L.CONDITION_TEXT)):
        s.act(cmd)
    back = storage.loads(storage.dumps(s)).session
    assert back.state == s.state and list(back.log()) == list(s.log())


# --- the property: anything Session accepts round-trips ---------------------------------------------

ID_CHARS = string.ascii_letters + string.digits + "_.-"
ids = st.text(ID_CHARS, min_size=1, max_size=8) | st.just("i" * L.ID_TEXT)
# any text a file can hold: quotes, escapes, markup, other scripts, emoji, controls (no lone surrogates)
_TEXT = st.text(st.sampled_from('aZ 0"\\\'<>&/\n\t\x00\x7fé中🐉\u200d\ufeff'), max_size=8)


def text(limit: int) -> st.SearchStrategy[str]:
    """Any text a file can hold (no lone surrogates), the longest allowed included."""
    return _TEXT | st.just("é" * limit)


def ranged(bounds: tuple[int, int]) -> st.SearchStrategy[int]:
    """Any number in a range, its two ends drawn often."""
    lo, hi = bounds
    return st.sampled_from((lo, hi)) | st.integers(lo, hi)


DICE = st.sampled_from(("1d6", "1d8", "2d4+1", "d20", "1d4-1", "3", "1d10+2", "2d6"))
WEAPON = st.builds(
    Weapon, name=text(L.WEAPON_NAME), damage=DICE, to_hit=ranged(L.TO_HIT), kind=st.sampled_from(WEAPON_KINDS),
    reach=st.integers(0, L.REACH[1] // 5).map(lambda n: 5 * n), count=ranged(L.COUNT),
    qualities=st.lists(st.sampled_from(QUALITIES), max_size=3, unique=True).map(tuple),
    item=text(L.ITEM_TEXT))
WEAPONS = st.lists(WEAPON, max_size=2).map(tuple) | st.just((Weapon("Dart", "1d4", kind="thrown"),) * L.MAX_WEAPONS)
ITEMS = {n: st.lists(text(L.ITEM_TEXT), max_size=n).map(tuple) for n in (3, L.MAX_HANDS)}
CONDITIONS = st.lists(text(L.CONDITION_TEXT), max_size=3).map(tuple)
NAMES = {n: text(n) for n in (L.ENCOUNTER_NAME, L.SIDE_NAME, L.COMBATANT_NAME, L.NOTES)}
COLOURS = st.builds("#{:06x}".format, st.integers(0, 0xFFFFFF)) | st.just("#ABCDEF")


def stat_values(spec) -> st.SearchStrategy:
    if spec.kind == "int":
        lo = spec.minimum if spec.minimum is not None else -10**6
        hi = spec.maximum if spec.maximum is not None else 10**6
        values = ranged((lo, hi))
        return values | st.none() if spec.default is None else values
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "list":
        return st.lists(text(L.ITEM_TEXT), max_size=3).map(tuple)
    if spec.kind == "dice":
        return DICE
    return text(L.STAT_TEXT)


STATS = {system: st.fixed_dictionaries({}, optional={s.key: stat_values(s) for s in get(system).stats()})
         for system in ("olog", "ose", "ogre")}


@st.composite
def encounters(draw) -> Encounter:
    system = draw(st.sampled_from(("olog", "ose", "ogre")))
    rs = get(system)
    width, height = draw(ranged(L.MAP_SIZE)), draw(ranged(L.MAP_SIZE))
    walls = frozenset(draw(st.lists(st.tuples(st.integers(0, width - 1), st.integers(0, height - 1)), max_size=6)))
    bands = draw(ranged(L.BANDS))
    side_ids = draw(st.lists(ids, min_size=1, max_size=3, unique=True))
    if draw(st.integers(0, 20)) == 0:  # now and then the most sides a setup may have
        side_ids = [f"s{i}" for i in range(L.MAX_SIDES)]
    sides = tuple(Side(sid, draw(NAMES[L.SIDE_NAME]), draw(COLOURS), draw(st.sampled_from(L.SHAPES)),
                       is_player=draw(st.booleans()), morale=draw(st.none() | st.integers(2, 12)),
                       allies=tuple(draw(st.lists(st.sampled_from(side_ids), max_size=2, unique=True))))
                  for sid in side_ids)
    cids = draw(st.lists(ids, max_size=5, unique=True))
    taken: set = set(walls)
    combatants = []
    for cid in cids:
        square = draw(st.none() | st.tuples(st.integers(0, width - 1), st.integers(0, height - 1)))
        if square in taken:
            square = None
        taken.add(square)
        combatants.append(Combatant(
            id=cid, name=draw(NAMES[L.COMBATANT_NAME]), side=draw(st.sampled_from(side_ids)),
            hp=draw(ranged(L.HP)), max_hp=draw(ranged(L.MAX_HP)), ac=draw(ranged(L.AC)), weapons=draw(WEAPONS),
            hands=draw(ITEMS[L.MAX_HANDS]), inventory=draw(ITEMS[3]), conditions=draw(CONDITIONS),
            stats=draw(STATS[system]), band=draw(st.none() | st.integers(0, bands - 1)), square=square,
            notes=draw(NAMES[L.NOTES])))
    return Encounter(name=draw(NAMES[L.ENCOUNTER_NAME]), system=system, profile=draw(st.sampled_from(rs.profiles)),
                     combatants=tuple(combatants), sides=sides, map=MapSpec(width, height, walls), bands=bands,
                     seed=draw(ranged(L.SEED)))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
@given(encounters())
def test_every_setup_session_accepts_saves_and_opens_identically(enc):
    s = Session(enc, get(enc.system))
    back = storage.loads(storage.dumps(s)).session
    assert back.encounter == s.encounter
    assert back.state == s.state
    assert list(back.log()) == list(s.log())


@pytest.mark.parametrize("system", ["olog", "ose", "ogre"])
def test_the_most_a_setup_may_hold_saves_and_opens_identically(system):
    """200 combatants with 16 weapons each on a 200 x 200 map, 12 sides: every count at its limit."""
    sides = tuple(Side(f"s{i}", "é" * L.SIDE_NAME, "#ABCDEF") for i in range(L.MAX_SIDES))
    weapons = tuple(Weapon("w" * L.WEAPON_NAME, "1d6", L.TO_HIT[1], reach=L.REACH[1], count=L.COUNT[1])
                    for _ in range(L.MAX_WEAPONS))
    combatants = tuple(Combatant(f"c{i}", "n" * L.COMBATANT_NAME, f"s{i % L.MAX_SIDES}", L.HP[1], L.MAX_HP[1],
                                 L.AC[0], weapons, square=(i % 200, i // 200 * 3), band=0)
                       for i in range(L.MAX_COMBATANTS))
    enc = Encounter("e" * L.ENCOUNTER_NAME, system, combatants, sides, profile=get(system).profiles[-1],
                    map=MapSpec(L.MAP_SIZE[1], L.MAP_SIZE[1]), bands=L.BANDS[1], seed=L.SEED[1])
    test_every_setup_session_accepts_saves_and_opens_identically.hypothesis.inner_test(enc)


ONE_PAST = [
    ("name", "x" * (L.ENCOUNTER_NAME + 1), "encounter.name: too long"),
    ("seed", L.SEED[1] + 1, "encounter.seed: 2147483648 is out of range"),
    ("seed", L.SEED[0] - 1, "encounter.seed: -1 is out of range"),
    ("bands", L.BANDS[1] + 1, "encounter.bands: 51 is out of range"),
    ("map", MapSpec(L.MAP_SIZE[1] + 1, 16), "encounter.map.width: 201 is out of range"),
    ("map", MapSpec(24, L.MAP_SIZE[0] - 1), "encounter.map.height: 3 is out of range"),
]
ONE_PAST_HERO = [
    ({"id": "x" * (L.ID_TEXT + 1)}, "encounter.combatants[0].id: too long"),
    ({"max_hp": L.MAX_HP[0] - 1, "hp": 1}, "encounter.combatants[0].max_hp: 0 is out of range"),
    ({"hp": L.HP[0] - 1}, "encounter.combatants[0].hp: -100001 is out of range"),
    ({"ac": L.AC[1] + 1}, "encounter.combatants[0].ac: 101 is out of range"),
    ({"hands": ("",) * (L.MAX_HANDS + 1)}, "encounter.combatants[0].hands: too many items"),
    ({"inventory": ("rope",) * (L.MAX_INVENTORY + 1)}, "encounter.combatants[0].inventory: too many items"),
    ({"conditions": ("x" * (L.CONDITION_TEXT + 1),)}, "encounter.combatants[0].conditions[0]"),
    ({"notes": "x" * (L.NOTES + 1)}, "encounter.combatants[0].notes: too long"),
    ({"weapons": (Weapon("Sword"),) * (L.MAX_WEAPONS + 1)}, "encounter.combatants[0].weapons: expected a list"),
    ({"weapons": (Weapon("x" * (L.WEAPON_NAME + 1)),)}, "encounter.combatants[0].weapons[0].name: too long"),
    ({"weapons": (Weapon("Sword", to_hit=L.TO_HIT[1] + 1),)}, "encounter.combatants[0].weapons[0].to_hit: 51"),
    ({"weapons": (Weapon("Sword", reach=L.REACH[1] + 5),)}, "encounter.combatants[0].weapons[0].reach: 105"),
    ({"weapons": (Weapon("Sword", count=L.COUNT[0] - 1),)}, "encounter.combatants[0].weapons[0].count: 0"),
    ({"stats": {"level": -1}}, "encounter.combatants[0].stats.level: -1 is out of range"),
]


@pytest.mark.parametrize("field,value,message", ONE_PAST)
def test_one_past_an_encounter_limit_is_refused_at_creation(field, value, message):
    problems = refused(replace(setup(), **{field: value}))
    assert any(p.startswith(message) for p in problems), problems


@pytest.mark.parametrize("change,message", ONE_PAST_HERO)
def test_one_past_a_combatant_limit_is_refused_at_creation(change, message):
    problems = refused(setup(**change))
    assert any(p.startswith(message) for p in problems), problems


def test_one_past_the_side_limit_is_refused_at_creation():
    sides = (PARTY, FOES) + tuple(Side(f"s{i}", "S") for i in range(L.MAX_SIDES - 1))
    assert refused(setup(sides=sides))[0] == "encounter.sides: too many sides (13, at most 12)"
