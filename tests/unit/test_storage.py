"""Save files and share links: round trips, and every way a document is refused.

A refused document raises `LoadError` only, with each problem naming its field
path, and builds nothing (the input is not even mutated).
"""
from __future__ import annotations

import base64
import copy
import importlib
import json
import re
import zlib
from dataclasses import dataclass, replace
from typing import Any

import pytest

import duel
from fray import rules
from fray.engine import storage
from fray.engine.commands import Event, command
from fray.engine.dice import ScriptedDice
from fray.engine.referee import Allow, Damage, FreeRoll, Note, Place, SetCondition, SetHp, SetStat
from fray.engine.specs import Setting, StatSpec
from fray.engine.session import Session
from fray.engine.storage import LoadError


# --- test systems -------------------------------------------------------------

@command("richduel")
class Explode:
    """A command whose resolution fails: the replay must report, never crash."""

    actor: str


@command("richduel")
class Tune:
    """A command with the field types the core commands lack."""

    actor: str
    weights: dict[str, Any]
    ratio: float = 1.0
    tags: tuple[str, ...] = ()


class RichDuel(duel.Duel):
    """The duel with a setting and a stat of every kind storage validates."""

    name = "richduel"

    def namespaces(self):
        return ("duel", "richduel", "core")

    def settings(self):
        return super().settings() + (
            Setting("flag", "A flag", False, kind="bool"),
            Setting("mode", "A mode", "a", kind="choice", choices=("a", "b")),
            Setting("motto", "A motto", "", kind="text"),
            Setting("die", "A die", "d6", kind="dice"),
            Setting("table", "A table", {"hit": (1, 2), "name": "x", "on": True}, kind="table"),
            Setting("open", "Unbounded", 0),
        )

    def stats(self):
        return super().stats() + (
            StatSpec("brave", "Brave", False, kind="bool"),
            StatSpec("hit_die", "Hit die", "d8", kind="dice"),
            StatSpec("tags", "Tags", (), kind="list"),
            StatSpec("title", "Title", "", kind="text"),
            StatSpec("any", "Unbounded", 0, minimum=None, maximum=None),
        )

    def check(self, state, cmd):
        if isinstance(cmd, (Explode, Tune)):
            return None
        return super().check(state, cmd)

    def resolve(self, state, cmd, dice):
        if isinstance(cmd, Explode):
            raise ZeroDivisionError("the rules divided by zero")
        if isinstance(cmd, Tune):
            return state, [Event("Tuned", f"tuned to {cmd.ratio}")]
        return super().resolve(state, cmd, dice)


def _register(name, ruleset, profiles=("",)):
    rules.register(name, ruleset, rules.SystemInfo(name, ruleset.title, type(ruleset).__module__, profiles))


def _unregister(name):
    rules.unregister(name)


@pytest.fixture(autouse=True)
def systems():
    """The duel and the rich duel are known systems during each test, and only then."""
    _register("duel", duel.RULESET)
    _register("richduel", RichDuel())
    yield
    _unregister("duel")
    _unregister("richduel")


def played(seed: int = 7) -> Session:
    """A duel with history: three steps done, one undone (on the redo stack)."""
    s = Session(duel.encounter(seed), duel.RULESET)
    s.act(duel.Strike("a1", "b1"))
    s.act(duel.Pass("b1"))
    s.act(Damage("b2", 2, note="falling rock"))
    s.act(duel.Strike("b2", "a1"))
    s.undo()
    return s


def assert_same_session(a: Session, b: Session) -> None:
    assert b.encounter == a.encounter
    assert b.state == a.state
    assert [(st.command, st.dice) for st in b.steps] == [(st.command, st.dice) for st in a.steps]
    assert [st.events for st in b.steps] == [st.events for st in a.steps]
    assert [(st.command, st.dice) for st in b.redo_stack] == [(st.command, st.dice) for st in a.redo_stack]
    assert b.physical_dice == a.physical_dice


# --- round trips --------------------------------------------------------------------

def test_save_file_round_trip_keeps_setup_steps_redo_and_dice_mode__CORE_DICE_3():
    s = played()
    s.physical_dice = True
    text = storage.dumps(s)
    loaded = storage.loads(text)
    assert loaded.dice_mode == "physical"
    assert_same_session(s, loaded.session)
    # the redo stack still redoes the same thing with the same faces
    assert loaded.session.redo().dice == s.redo().dice
    assert loaded.session.state == s.state


def test_indented_save_file_and_bytes_load_the_same():
    s = played()
    assert_same_session(s, storage.loads(storage.dumps(s, indent=2)).session)
    assert_same_session(s, storage.loads(storage.dumps(s).encode("utf-8")).session)
    assert_same_session(s, storage.loads("\ufeff" + storage.dumps(s)).session)


def test_round_trip_of_every_referee_command__CORE_REF_1():
    enc = replace(duel.encounter(), bands=4)
    s = Session(enc)
    for cmd in (SetHp("b1", 3), Damage("b2", 1), Place("a1", band=2), Place("b1", square=(3, 4)),
                SetStat("a1", "level", 5), SetStat("a1", "mood", ("calm", 2)), SetCondition("b1", "prone"),
                SetCondition("b1", "prone", on=False), Allow(duel.Strike("b1", "a1")), FreeRoll("2d6+1", "luck"),
                Note("the bridge sways")):
        s.act(cmd)
    loaded = storage.loads(storage.dumps(s)).session
    assert_same_session(s, loaded)


def test_round_trip_with_every_setting_and_stat_kind():
    enc = replace(duel.encounter(), system="richduel",
                  settings={"bonus": 1, "flag": True, "mode": "b", "motto": "Onward", "die": "2d4",
                            "table": {"hit": (3, 4), "name": "y", "on": False}, "open": 12})
    cs = list(enc.combatants)
    cs[0] = replace(cs[0], stats={"level": 3, "brave": True, "hit_die": "d10", "tags": ("elf", "archer"),
                                  "title": "Captain", "any": -999})
    enc = replace(enc, combatants=tuple(cs))
    s = Session(enc)
    s.act(duel.Strike("a1", "b1"))
    loaded = storage.loads(storage.dumps(s)).session
    assert_same_session(s, loaded)
    assert loaded.encounter.combatants[0].stats["tags"] == ("elf", "archer")
    assert loaded.encounter.settings["table"]["hit"] == (3, 4), "rows keep the default's tuple shape"


def test_missing_settings_take_their_defaults_on_load():
    doc = storage.dump(Session(replace(duel.encounter(), system="richduel")))
    doc["encounter"]["settings"] = {}
    enc = storage.load(doc).session.encounter
    assert enc.settings == RichDuel().default_settings()


def test_share_link_round_trip__CORE_DICE_3():
    s = played()
    link = storage.encode_link(s)
    assert link.startswith("e=") and re.fullmatch(r"e=[A-Za-z0-9_-]+", link)
    assert_same_session(s, storage.decode_link(link).session)
    assert_same_session(s, storage.decode_link("#" + link).session)


def _real_systems():
    out = []
    for name in ("olog", "ose", "ogre"):
        try:
            importlib.import_module(f"fray.rules.{name}")
            ex = importlib.import_module(f"fray.rules.{name}_examples")
        except ImportError:
            continue
        found = ex.examples()
        items = found.items() if isinstance(found, dict) else enumerate(found)
        out.extend(pytest.param(name, e, id=f"{name}-{key}") for key, e in items)
    return out or [pytest.param(None, None, marks=pytest.mark.skip("no real system importable yet"))]


@pytest.mark.parametrize("system, encounter", _real_systems())
def test_real_system_examples_round_trip(system, encounter):
    s = Session(encounter(3) if callable(encounter) else encounter)
    ruleset = s.ruleset
    # play a few allowed options so the file has steps and a redo
    for _ in range(12):
        actors = ruleset.current(s.state)
        opts = [o for a in actors for o in ruleset.options(s.state, a) if o.allowed and not o.needs
                and not o.choices]
        if not opts or s.state.outcome:
            break
        s.act(opts[0].command)
    if s.steps:
        s.undo()
    assert_same_session(s, storage.loads(storage.dumps(s)).session)
    assert_same_session(s, storage.decode_link(storage.encode_link(s)).session)


# --- validation: every problem names its field -----------------------------------

DELETE = object()
_PATH = re.compile(r"\.?([A-Za-z_]+)|\[(\d+)\]")
PATH_START = re.compile(r"^(share link: )?(file|format|dice_mode|encounter|steps|redo|[A-Za-z_]+)([.\[:])")


def edit(doc: dict, path: str, value) -> dict:
    """Set (or delete) the value at a dotted path like 'encounter.sides[1].id'."""
    keys = [int(i) if i else k for k, i in _PATH.findall(path)]
    node = doc
    for k in keys[:-1]:
        node = node[k]
    if value is DELETE:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return doc


def base_doc(system: str = "duel") -> dict:
    s = Session(replace(duel.encounter(), system=system))
    s.act(duel.Strike("a1", "b1"))
    s.act(duel.Pass("b1"))
    s.undo()
    return storage.dump(s)


def strike(actor="a1", target="b1"):
    return {"type": "Strike", "actor": actor, "target": target}


# (path, value, the problem that must be listed, verbatim)
FIELD_CASES = [
    ("format", 2, "format: 2 is not a format this version reads (expected 1)"),
    ("format", True, "format: True is not a format this version reads (expected 1)"),
    ("format", 1.0, "format: the number 1.0 is not a format this version reads (expected 1)"),
    ("format", "1", "format: '1' is not a format this version reads (expected 1)"),
    ("format", DELETE, 'format: missing: not a Fray save file (a Fray file starts with "format": 1)'),
    ("sneaky", 1, "sneaky: not a field of a Fray file"),
    ("dice_mode", "loaded", "dice_mode: 'loaded' is not \"app\" or \"physical\""),
    ("dice_mode", [], "dice_mode: a list is not \"app\" or \"physical\""),
    ("encounter", DELETE, "encounter: expected an object, got null"),
    ("encounter", ["duel"], "encounter: expected an object, got a list"),
    ("encounter.weather", "rain", "encounter.weather: not a field of an encounter"),
    ("encounter.name", 5, "encounter.name: expected text, got the number 5"),
    ("encounter.name", "x" * 81, "encounter.name: too long (81 characters, at most 80)"),
    ("encounter.name", "Bad \ud800 name", "encounter.name: text with an unpaired surrogate (a broken \\u escape) "
     "cannot be saved"),
    ("encounter.combatants[1].notes", "\udfff", "encounter.combatants[1].notes: text with an unpaired surrogate"),
    ("encounter.system", "chess", "encounter.system: 'chess' is not a system Fray knows"),
    ("encounter.system", ["duel"], "encounter.system: a list is not a system Fray knows"),
    ("encounter.system", {"duel": 1}, "encounter.system: an object is not a system Fray knows"),
    ("encounter.system", DELETE, "encounter.system: None is not a system Fray knows"),
    ("encounter.profile", "loose", "encounter.profile: 'loose' is not a profile of duel ('')"),
    ("encounter.seed", -1, "encounter.seed: -1 is out of range (0 to 2147483647)"),
    ("encounter.seed", "7", 'encounter.seed: expected a whole number, got the text "7"'),
    ("encounter.seed", 1.5, "encounter.seed: expected a whole number, got the number 1.5"),
    ("encounter.seed", 10 ** 30, f"encounter.seed: {10 ** 30} is out of range (0 to 2147483647)"),
    ("encounter.seed", None, "encounter.seed: missing"),
    ("encounter.bands", 0, "encounter.bands: 0 is out of range (1 to 50)"),
    ("encounter.settings", [], "encounter.settings: expected an object, got a list"),
    ("encounter.settings.speed", 1, "encounter.settings.speed: not a setting of this system"),
    ("encounter.settings.bonus", 9, "encounter.settings.bonus: 9 is out of range (-5 to 5)"),
    ("encounter.settings.bonus", True, "encounter.settings.bonus: expected a whole number, got true/false"),
    ("encounter.settings.bonus", 1.0, "encounter.settings.bonus: expected a whole number, got the number 1.0"),
    ("encounter.map", 3, "encounter.map: expected an object, got the number 3"),
    ("encounter.map.width", 3, "encounter.map.width: 3 is out of range (4 to 200)"),
    ("encounter.map.height", None, "encounter.map.height: missing"),
    ("encounter.map.height", "16", 'encounter.map.height: expected a whole number, got the text "16"'),
    ("encounter.map.walls", "x", "encounter.map.walls: expected a list of squares [x, y] on the map"),
    ("encounter.map.walls", [[0, 0]] * 385, "encounter.map.walls: expected a list of squares [x, y] on the map"),
    ("encounter.map.walls", [[1, 1], [24, 0]], "encounter.map.walls[1]: a list is not a square on a 24x16 map"),
    ("encounter.map.walls", [[1, True]], "encounter.map.walls[0]: a list is not a square on a 24x16 map"),
    ("encounter.map.walls", [7], "encounter.map.walls[0]: the number 7 is not a square on a 24x16 map"),
    ("encounter.sides", [], "encounter.sides: expected a list of at least one side, got an empty list"),
    ("encounter.sides", DELETE, "encounter.sides: expected a list of at least one side, got null"),
    ("encounter.sides", [{"id": f"s{i}", "name": "S"} for i in range(13)],
     "encounter.sides: too many sides (13, at most 12)"),
    ("encounter.sides[1]", "b", 'encounter.sides[1]: expected an object, got the text "b"'),
    ("encounter.sides[1].id", DELETE, "encounter.sides[1].id: missing"),
    ("encounter.sides[1].id", "b b", 'encounter.sides[1].id: "b b" is not a valid id (letters, digits, _ . -)'),
    ("encounter.sides[1].id", "a", 'encounter.sides[1].id: "a" is used by another side'),
    ("encounter.sides[0].colour", "red", 'encounter.sides[0].colour: "red" is not a colour like #3b6ea8'),
    ("encounter.sides[0].colour", 0x3366aa, "encounter.sides[0].colour: expected text, got the number 3368618"),
    ("encounter.sides[0].shape", "blob",
     "encounter.sides[0].shape: 'blob' is not one of circle, square, diamond, triangle, hexagon, star"),
    ("encounter.sides[0].morale", 13, "encounter.sides[0].morale: the number 13 is not a morale score from 2 to 12 (or null)"),
    ("encounter.sides[0].morale", True, "encounter.sides[0].morale: true/false is not a morale score from 2 to 12 (or null)"),
    ("encounter.sides[0].name", DELETE, "encounter.sides[0].name: missing"),
    ("encounter.sides[0].name", "n" * 61, "encounter.sides[0].name: too long (61 characters, at most 60)"),
    ("encounter.sides[0].allies", "b", 'encounter.sides[0].allies: expected a list, got the text "b"'),
    ("encounter.sides[0].allies", ["z"], "encounter.sides[0].allies: 'z' is not a side"),
    ("encounter.sides[0].allies", [1], "encounter.sides[0].allies[0]: expected text of at most 40 characters"),
    ("encounter.sides[0].allies", ["b"] * 13, "encounter.sides[0].allies: too many items (13, at most 12)"),
    ("encounter.sides[0].is_player", "yes", 'encounter.sides[0].is_player: expected true or false, got the text "yes"'),
    ("encounter.sides[0].flag", 1, "encounter.sides[0].flag: not a field of a side"),
    ("encounter.combatants", {}, "encounter.combatants: expected a list, got an object"),
    ("encounter.combatants", DELETE, "encounter.combatants: expected a list, got null"),
    ("encounter.combatants[1]", 7, "encounter.combatants[1]: expected an object, got the number 7"),
    ("encounter.combatants[1].speed", 7, "encounter.combatants[1].speed: not a field of a combatant"),
    ("encounter.combatants[1].id", DELETE, "encounter.combatants[1].id: missing"),
    ("encounter.combatants[1].id", "b 1", 'encounter.combatants[1].id: "b 1" is not a valid id (letters, digits, _ . -)'),
    ("encounter.combatants[1].id", "a1", 'encounter.combatants[1].id: "a1" is used by another combatant'),
    ("encounter.combatants[1].id", "x" * 41, "encounter.combatants[1].id: too long (41 characters, at most 40)"),
    ("encounter.combatants[1].side", "z", 'encounter.combatants[1].side: "z" is not one of the sides'),
    ("encounter.combatants[1].side", DELETE, "encounter.combatants[1].side: missing"),
    ("encounter.combatants[1].max_hp", 0, "encounter.combatants[1].max_hp: 0 is out of range (1 to 100000)"),
    ("encounter.combatants[1].max_hp", DELETE, "encounter.combatants[1].max_hp: missing"),
    ("encounter.combatants[1].hp", "8", 'encounter.combatants[1].hp: expected a whole number, got the text "8"'),
    ("encounter.combatants[1].hp", -200000, "encounter.combatants[1].hp: -200000 is out of range (-100000 to 100000)"),
    ("encounter.combatants[1].hp", 1e308,
     f"encounter.combatants[1].hp: {int(1e308)} is out of range (-100000 to 100000)"),
    ("encounter.combatants[1].ac", 101, "encounter.combatants[1].ac: 101 is out of range (-100 to 100)"),
    ("encounter.combatants[1].weapons", "club",
     'encounter.combatants[1].weapons: expected a list of at most 16 weapons, got the text "club"'),
    ("encounter.combatants[1].weapons", [{"name": "x"}] * 17,
     "encounter.combatants[1].weapons: expected a list of at most 16 weapons, got a list"),
    ("encounter.combatants[1].weapons[0]", None, "encounter.combatants[1].weapons[0]: expected an object, got null"),
    ("encounter.combatants[2].weapons[0].damage", "2x6",
     'encounter.combatants[2].weapons[0].damage: "2x6" is not dice notation'),
    ("encounter.combatants[2].weapons[0].damage", "d0",
     'encounter.combatants[2].weapons[0].damage: "d0" is not dice notation'),
    ("encounter.combatants[2].weapons[0].damage", 6,
     "encounter.combatants[2].weapons[0].damage: expected text, got the number 6"),
    ("encounter.combatants[2].weapons[0].kind", "laser",
     "encounter.combatants[2].weapons[0].kind: 'laser' is not one of melee, natural, bow, crossbow, sling, "
     "thrown, ranged"),
    ("encounter.combatants[2].weapons[0].qualities", ["sharp"],
     "encounter.combatants[2].weapons[0].qualities: 'sharp' is not one of two_handed, reach, off_hand, brace, "
     "small, piercing, shield"),
    ("encounter.combatants[2].weapons[0].qualities", "reach",
     'encounter.combatants[2].weapons[0].qualities: expected a list, got the text "reach"'),
    ("encounter.combatants[2].weapons[0].reach", 7, "encounter.combatants[2].weapons[0].reach: 7 ft is not a multiple of 5 ft"),
    ("encounter.combatants[2].weapons[0].reach", 105,
     "encounter.combatants[2].weapons[0].reach: 105 is out of range (0 to 100)"),
    ("encounter.combatants[2].weapons[0].to_hit", 51, "encounter.combatants[2].weapons[0].to_hit: 51 is out of range (-50 to 50)"),
    ("encounter.combatants[2].weapons[0].count", 0, "encounter.combatants[2].weapons[0].count: 0 is out of range (1 to 10)"),
    ("encounter.combatants[2].weapons[0].item", 5, "encounter.combatants[2].weapons[0].item: expected text, got the number 5"),
    ("encounter.combatants[2].weapons[0].name", DELETE, "encounter.combatants[2].weapons[0].name: missing"),
    ("encounter.combatants[2].weapons[0].sharp", 1, "encounter.combatants[2].weapons[0].sharp: not a field of a weapon"),
    ("encounter.combatants[1].hands", ["a", "b", "c", "d", "e"],
     "encounter.combatants[1].hands: too many items (5, at most 4)"),
    ("encounter.combatants[1].band", 99, "encounter.combatants[1].band: the number 99 is not a zone from 0 to 5"),
    ("encounter.combatants[1].band", True, "encounter.combatants[1].band: true/false is not a zone from 0 to 5"),
    ("encounter.combatants[1].square", [1], "encounter.combatants[1].square: expected a square [x, y], got a list"),
    ("encounter.combatants[1].square", "b2", 'encounter.combatants[1].square: expected a square [x, y], got the text "b2"'),
    ("encounter.combatants[1].square", [99, 0], "encounter.combatants[1].square: [99, 0] is off the 24x16 map"),
    ("encounter.combatants[1].square", [0, -1], "encounter.combatants[1].square: [0, -1] is off the 24x16 map"),
    ("encounter.combatants[1].stats", [], "encounter.combatants[1].stats: expected an object, got a list"),
    ("encounter.combatants[1].stats", {f"k{i}": 1 for i in range(61)}, "encounter.combatants[1].stats: too many stats (61)"),
    ("encounter.combatants[1].stats.level", "x", 'encounter.combatants[1].stats.level: expected a whole number, got the text "x"'),
    ("encounter.combatants[1].stats.level", 21, "encounter.combatants[1].stats.level: 21 is out of range (0 to 20)"),
    ("encounter.combatants[1].stats.mood", [1],
     "encounter.combatants[1].stats.mood: expected a number, true/false or short text, got a list"),
    ("encounter.combatants[1].stats.mood", 10 ** 7,
     "encounter.combatants[1].stats.mood: expected a number, true/false or short text, got the number 10000000"),
    ("encounter.combatants[1].name", DELETE, "encounter.combatants[1].name: missing"),
    ("encounter.combatants[1].inventory", [1], "encounter.combatants[1].inventory[0]: expected text of at most 80 characters"),
    ("encounter.combatants[1].conditions", "prone", 'encounter.combatants[1].conditions: expected a list, got the text "prone"'),
    ("encounter.combatants[1].notes", "x" * 2001, "encounter.combatants[1].notes: too long (2001 characters, at most 2000)"),
    ("steps", "x", 'steps: expected a list, got the text "x"'),
    ("steps", [1] * 100_001, "steps: too many steps (100001)"),
    ("steps[0]", 1, "steps[0]: expected an object, got the number 1"),
    ("steps[0].command", DELETE, 'steps[0].command: expected an object with a "type"'),
    ("steps[0].command.type", "Fly", "steps[0].command.type: 'Fly' is not a command of duel, core"),
    ("steps[0].command.type", 3, "steps[0].command.type: the number 3 is not a command of duel, core"),
    ("steps[0].command.speed", 3, "steps[0].command.speed: Strike has no field 'speed'"),
    ("steps[0].command.target", DELETE, "steps[0].command.target: missing"),
    ("steps[0].command.target", 5, "steps[0].command.target: expected text, got the number 5"),
    ("steps[0].command.target", "t" * 2001, "steps[0].command.target: text too long (2001 characters)"),
    ("steps[0].dice", "6", "steps[0].dice: expected a list of die faces (whole numbers 1-1000)"),
    ("steps[0].dice", [0], "steps[0].dice: expected a list of die faces (whole numbers 1-1000)"),
    ("steps[0].dice", [True], "steps[0].dice: expected a list of die faces (whole numbers 1-1000)"),
    ("steps[0].dice", [1] * 1001, "steps[0].dice: expected a list of die faces (whole numbers 1-1000)"),
    ("steps[0].when", "now", "steps[0].when: not a field of a step"),
    ("steps[0].dice", [], "steps[0].dice: too few dice recorded (needed a d8)"),
    ("steps[0].dice", DELETE, "steps[0].dice: too few dice recorded (needed a d8)"),
    ("steps[0].dice", [9], "steps[0].dice: 9 is not a face of a d8 (damage)"),
    ("steps[0].dice", [3, 3], "steps[0].dice: 1 more dice recorded than the step rolls"),
    ("steps[0].command", strike("b1", "a1"), "steps[0]: Strike is not allowed here: It is not Bob's turn"),
    ("steps[0].command", {"type": "SetHp", "target": "zz", "hp": 1},
     "steps[0]: SetHp is not allowed here: There is no combatant 'zz'"),
    ("steps[0].command", {"type": "SetHp", "target": "b1", "hp": 10 ** 10},
     "steps[0].command.hp: 10000000000 is out of range"),
    ("steps[0].command", {"type": "SetHp", "target": "b1", "hp": "3"},
     'steps[0].command.hp: expected a whole number, got the text "3"'),
    ("steps[0].command", {"type": "Place", "target": "b1", "square": [1]},
     "steps[0].command.square: expected 2 items, got 1"),
    ("steps[0].command", {"type": "Place", "target": "b1", "square": "a1"},
     'steps[0].command.square: expected a list, got the text "a1"'),
    ("steps[0].command", {"type": "Place", "target": "b1", "band": True},
     "steps[0].command.band: expected a whole number, got true/false"),
    ("steps[0].command", {"type": "SetCondition", "target": "b1", "condition": "prone", "on": "yes"},
     'steps[0].command.on: expected true or false, got the text "yes"'),
    ("steps[0].command", {"type": "SetStat", "target": "b1", "key": "k", "value": [[[[[[[[[[[1]]]]]]]]]]]},
     "steps[0].command.value[0][0][0][0][0][0][0][0][0]: nested too deeply"),
    ("steps[0].command", {"type": "Allow", "command": {"type": "Strike", "actor": "b1"}},
     "steps[0].command.command.target: missing"),
    ("steps[0].command", {"type": "Allow", "command": 5}, 'steps[0].command.command: expected an object with a "type"'),
    ("steps[0].command", {"type": "Allow", "command": {"type": "Allow", "command": strike()}},
     "steps[0]: Allow is not allowed here: Allow an action, not another override"),
    ("steps[0].command", {"type": "FreeRoll", "expr": "2x6"},
     'steps[0]: FreeRoll is not allowed here: "2x6" is not dice notation (expected NdS, NdS+K, NdS-K or K, e.g. 2d6+1)'),
    ("redo", {}, "redo: expected a list, got an object"),
    ("redo[0]", [], "redo[0]: expected an object, got a list"),
    ("redo[0].command.actor", 1, "redo[0].command.actor: expected text, got the number 1"),
    ("redo[0].dice", [1], "redo[0].dice: 1 more dice recorded than the step rolls"),
    ("redo[0].command", strike("b1", "b2"), "redo[0]: Strike is not allowed here: Bea is already down"),
]


def _case_id(case):
    path, value, _ = case
    shown = "DELETE" if value is DELETE else repr(value)[:20]
    return f"{path}={shown}"


def _prepare(doc: dict, path: str) -> None:
    """A few cases need a neighbouring change to reach their check."""
    if path == "redo[0].command":
        # Bea is down before the redo, so striking her is refused
        doc["steps"].append({"command": {"type": "SetHp", "target": "b2", "hp": 0}, "dice": []})


@pytest.mark.parametrize("case", FIELD_CASES, ids=_case_id)
def test_every_bad_field_is_named_with_its_path(case):
    path, value, message = case
    doc = base_doc()
    _prepare(doc, path)
    edit(doc, path, value)
    before = copy.deepcopy(doc)
    with pytest.raises(LoadError) as err:
        storage.load(doc)
    problems = err.value.problems
    assert any(p == message or p.startswith(message) for p in problems), problems
    for p in problems:
        assert PATH_START.match(p), f"problem without a path: {p!r}"
    assert doc == before, "loading must not change the document"


RICH_CASES = [
    ("encounter.settings.flag", "yes", 'encounter.settings.flag: expected true or false, got the text "yes"'),
    ("encounter.settings.mode", "c", "encounter.settings.mode: 'c' is not one of 'a', 'b'"),
    ("encounter.settings.mode", ["a"], "encounter.settings.mode: a list is not one of 'a', 'b'"),
    ("encounter.settings.motto", 5, "encounter.settings.motto: expected text of at most 500 characters"),
    ("encounter.settings.motto", "m" * 501, "encounter.settings.motto: expected text of at most 500 characters"),
    ("encounter.settings.die", "2x6", 'encounter.settings.die: "2x6" is not dice notation'),
    ("encounter.settings.die", "1d" + "9" * 5000, 'encounter.settings.die: "1d99999999'),
    ("encounter.settings.die", 6, "encounter.settings.die: 6 is not dice notation"),
    ("encounter.settings.table", {"hit": [1, 2]}, "encounter.settings.table: expected a table shaped like the default one"),
    ("encounter.settings.table", {"hit": [1, 2, 3], "name": "x", "on": True},
     "encounter.settings.table: expected a table shaped like the default one"),
    ("encounter.settings.table", {"hit": [1, True], "name": "x", "on": True},
     "encounter.settings.table: expected a table shaped like the default one"),
    ("encounter.settings.table", {"hit": [1, 10 ** 7], "name": "x", "on": True},
     "encounter.settings.table: expected a table shaped like the default one"),
    ("encounter.settings.table", {"hit": [1, 2], "name": "x" * 41, "on": True},
     "encounter.settings.table: expected a table shaped like the default one"),
    ("encounter.settings.open", 10 ** 6 + 1, "encounter.settings.open: 1000001 is out of range (-1000000 to 1000000)"),
    ("encounter.combatants[0].stats.brave", "y", 'encounter.combatants[0].stats.brave: expected true or false, got the text "y"'),
    ("encounter.combatants[0].stats.hit_die", "2x6", 'encounter.combatants[0].stats.hit_die: the text "2x6" is not dice notation'),
    ("encounter.combatants[0].stats.hit_die", "9" * 5000 + "d6",
     'encounter.combatants[0].stats.hit_die: the text "99999999'),
    ("encounter.combatants[0].stats.tags", "x", "encounter.combatants[0].stats.tags: expected a list of short texts"),
    ("encounter.combatants[0].stats.tags", ["t" * 81], "encounter.combatants[0].stats.tags: expected a list of short texts"),
    ("encounter.combatants[0].stats.title", [1],
     "encounter.combatants[0].stats.title: expected a number, true/false or short text, got a list"),
    ("encounter.combatants[0].stats.any", 10 ** 6 + 1,
     "encounter.combatants[0].stats.any: 1000001 is out of range (-1000000 to 1000000)"),
    ("steps[0].command", {"type": "Explode", "actor": "a1"},
     "steps: a step the rules could not replay (the rules divided by zero)"),
    ("steps[0].command", {"type": "Tune", "actor": "a1", "weights": "heavy"},
     'steps[0].command.weights: expected an object, got the text "heavy"'),
    ("steps[0].command", {"type": "Tune", "actor": "a1", "weights": {"k": "x" * 2001}},
     "steps[0].command.weights.k: text too long"),
    ("steps[0].command", {"type": "Tune", "actor": "a1", "weights": {}, "ratio": "1"},
     'steps[0].command.ratio: expected a number, got the text "1"'),
    ("steps[0].command", {"type": "Tune", "actor": "a1", "weights": {}, "ratio": 10 ** 400},
     "steps[0].command.ratio: the number 10000000000000000000... is not a finite number"),
    ("steps[0].command", {"type": "Tune", "actor": "a1", "weights": {}, "tags": ["a", 1]},
     "steps[0].command.tags[1]: expected text, got the number 1"),
    ("steps[0].command", {"type": "Tune", "actor": "a1", "weights": {}, "tags": ["t"] * 10_001},
     "steps[0].command.tags: too many items (10001)"),
]


@pytest.mark.parametrize("case", RICH_CASES, ids=_case_id)
def test_every_bad_setting_and_stat_kind_is_named_with_its_path(case):
    path, value, message = case
    doc = base_doc("richduel")
    edit(doc, path, value)
    before = copy.deepcopy(doc)
    with pytest.raises(LoadError) as err:
        storage.load(doc)
    assert any(p.startswith(message) for p in err.value.problems), err.value.problems
    assert all(len(p) < 400 for p in err.value.problems), "messages quote values briefly"
    assert doc == before


def test_square_on_a_wall_and_a_taken_square_are_refused():
    doc = base_doc()
    enc = doc["encounter"]
    enc["map"]["walls"] = [[2, 2]]
    enc["combatants"][0]["square"] = [1, 1]
    enc["combatants"][1]["square"] = [1, 1]
    enc["combatants"][2]["square"] = [2, 2]
    with pytest.raises(LoadError) as err:
        storage.load(doc)
    assert err.value.problems == ["encounter.combatants[1].square: [1, 1] is taken by a1",
                                  "encounter.combatants[2].square: [2, 2] is a wall"]


def test_every_problem_is_listed_not_only_the_first():
    doc = base_doc()
    edit(doc, "encounter.combatants[0].hp", "lots")
    edit(doc, "encounter.combatants[2].weapons[0].damage", "2x6")
    edit(doc, "encounter.sides[1].colour", "blue")
    with pytest.raises(LoadError) as err:
        storage.load(doc)
    assert err.value.problems == [
        'encounter.sides[1].colour: "blue" is not a colour like #3b6ea8',
        'encounter.combatants[0].hp: expected a whole number, got the text "lots"',
        'encounter.combatants[2].weapons[0].damage: "2x6" is not dice notation',
    ]
    assert str(err.value) == 'encounter.sides[1].colour: "blue" is not a colour like #3b6ea8 (and 2 more)'


def test_a_flood_of_problems_is_cut_short():
    doc = base_doc()
    c = doc["encounter"]["combatants"][1]
    doc["encounter"]["combatants"] = [dict(c, id=f"c{i}", hp="x", ac="y") for i in range(200)]
    with pytest.raises(LoadError) as err:
        storage.load(doc)
    assert err.value.problems[-1] == "encounter.combatants: stopped after 100 problems"
    assert len(err.value.problems) < 110


def test_too_many_combatants_is_refused():
    doc = base_doc()
    c = doc["encounter"]["combatants"][1]
    doc["encounter"]["combatants"] = [dict(c, id=f"c{i}") for i in range(201)]
    with pytest.raises(LoadError, match=r"encounter.combatants: too many combatants \(201, at most 200\)"):
        storage.load(doc)


@pytest.mark.parametrize("text, message", [
    (b"\xff\xfe{}", "file: not UTF-8 text (byte 0)"),
    (b'{"format": 1, "x": "\xe9"}', "file: not UTF-8 text (byte 20)"),
    (5, "file: not text"),
    (None, "file: not text"),
    ("", "file: not valid JSON"),
    ("{", "file: not valid JSON"),
    ('{"format": NaN}', "file: not valid JSON (NaN is not a number JSON allows)"),
    ('{"format": Infinity}', "file: not valid JSON (Infinity is not a number JSON allows)"),
    ("[" * 10000 + "]" * 10000, "file: nested too deeply to be an encounter"),
    ("1" * 5000, "file: a number of more than 4,300 digits, which no field of an encounter holds"),
    ("[]", "file: expected a Fray encounter object, got a list"),
    ('"fray"', 'file: expected a Fray encounter object, got the text "fray"'),
    (" " * (storage.MAX_TEXT + 1), "file: too large (5000001 characters)"),
])
def test_unreadable_files_are_refused_with_a_file_message(text, message):
    with pytest.raises(LoadError) as err:
        storage.loads(text)
    assert err.value.problems[0].startswith(message), err.value.problems


def test_a_refused_file_leaves_the_open_session_and_registry_alone():
    s = played()
    state, steps, redo = s.state, list(s.steps), list(s.redo_stack)
    systems = dict(rules.SYSTEMS)
    doc = storage.dump(s)
    edit(doc, "encounter.combatants[2].weapons[0].damage", "2x6")
    with pytest.raises(LoadError):
        storage.load(doc)
    assert (s.state, s.steps, s.redo_stack) == (state, steps, redo)
    assert rules.SYSTEMS == systems


def test_a_redo_entry_that_cannot_apply_is_refused_at_load_not_at_redo():
    """Before the fix, the file loaded and the redo button raised BadFace."""
    s = played()
    doc = storage.dump(s)
    doc["redo"][0]["dice"] = [99]
    with pytest.raises(LoadError, match=r"^redo\[0\]\.dice: 99 is not a face of a d4"):
        storage.load(doc)


# --- share links ----------------------------------------------------------------------

def _link_of(payload: bytes) -> str:
    return "e=" + base64.urlsafe_b64encode(payload).decode().rstrip("=")


def _share_cases():
    link = storage.encode_link(played())
    body = link[2:]
    mid = len(body) // 2
    flipped = body[:mid] + ("A" if body[mid] != "A" else "B") + body[mid + 1:]
    return [
        ("tampered", "e=" + flipped),
        ("truncated", link[:-10]),
        ("truncated to half", link[: len(link) // 2]),
        ("extra characters", link + "AAAA"),
        ("extra character", link + "A"),
        ("extra text", link + "hello"),
        ("wrong prefix", "x=" + body),
        ("no prefix", body),
        ("empty", ""),
        ("empty payload", "e="),
        ("not base64", "e=" + body[:20] + "!!" + body[22:]),
        ("padding", link + "=="),
        ("spaces", "e=" + body[:10] + " " + body[10:]),
        ("not zlib", _link_of(b"this is not compressed at all")),
        ("zlib of non-JSON", _link_of(zlib.compress(b"hello, world"))),
        ("zlib of a list", _link_of(zlib.compress(b"[1, 2, 3]"))),
        ("zlib of invalid UTF-8", _link_of(zlib.compress(b"\xff\xfe\xfd"))),
        ("zlib bomb", _link_of(zlib.compress(b" " * (storage.MAX_TEXT + 10), 9))),
        ("two streams", _link_of(zlib.compress(b"{}") + zlib.compress(b"{}"))),
        ("not text", 12345),
    ]


@pytest.mark.parametrize("label, fragment", _share_cases(), ids=lambda v: v if isinstance(v, str) and len(v) < 30 else "")
def test_bad_share_links_are_refused_with_a_share_link_message(label, fragment):
    with pytest.raises(LoadError) as err:
        storage.decode_link(fragment)
    assert all(p.startswith("share link:") for p in err.value.problems), err.value.problems
    assert str(err.value).startswith("share link:")


def test_share_link_with_a_bad_document_names_the_field():
    doc = storage.dump(played())
    edit(doc, "encounter.combatants[2].weapons[0].damage", "2x6")
    with pytest.raises(LoadError) as err:
        storage.decode_link(_link_of(zlib.compress(json.dumps(doc).encode())))
    assert err.value.problems == ['share link: encounter.combatants[2].weapons[0].damage: "2x6" is not dice notation']


def test_any_single_character_change_is_refused_or_changes_nothing():
    """A changed character either breaks the link or only touches base64
    padding bits; it never loads a different fight."""
    s = Session(duel.encounter())
    s.act(duel.Strike("a1", "b1"))
    link = storage.encode_link(s)
    original = storage.dump(s)
    alphabet = "AZaz09-_"
    for i in range(2, len(link)):
        for ch in alphabet:
            if ch == link[i]:
                continue
            changed = link[:i] + ch + link[i + 1:]
            try:
                loaded = storage.decode_link(changed)
            except LoadError as exc:
                assert str(exc).startswith("share link:")
            else:
                assert storage.dump(loaded.session) == original, (i, ch)


def test_long_keys_and_type_names_are_shortened_in_messages():
    doc = base_doc()
    doc["encounter"]["k" * 100_000] = 1
    doc["steps"][0]["command"]["type"] = "T" * 100_000
    with pytest.raises(LoadError) as err:
        storage.load(doc)
    assert err.value.problems == [f"encounter.{'k' * 40}...: not a field of an encounter",
                                  'steps[0].command.type: the text "TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT" '
                                  "is not a command of duel, core"]


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" + "0" * 400 + ".0"])
def test_a_number_json_reads_as_infinity_is_refused_not_saved_as_infinity(number):
    """json.loads turns 1e400 into inf and json.dumps writes it back as the
    non-JSON `Infinity`: such a file loaded once and could never be loaded again."""
    doc = base_doc()
    doc["steps"] = [{"command": {"type": "SetStat", "target": "a1", "key": "luck", "value": "@"}, "dice": []}]
    with pytest.raises(LoadError) as err:
        storage.loads(json.dumps(doc).replace('"@"', number))
    assert err.value.problems == ["steps[0].command.value: the number inf is not a finite number"
                                  if number != "-1e400" else
                                  "steps[0].command.value: the number -inf is not a finite number"]


def test_a_tuned_command_round_trips():
    s = Session(replace(duel.encounter(), system="richduel"))
    s.act(Tune("a1", {"k": 1, "deep": {"x": [1, "y"]}}, 0.25, ("a", "b")))
    loaded = storage.loads(storage.dumps(s)).session
    assert loaded.steps[0].command == Tune("a1", {"k": 1, "deep": {"x": (1, "y")}}, 0.25, ("a", "b"))


def test_a_share_link_past_the_size_limit_is_refused():
    with pytest.raises(LoadError, match="^share link: too long$"):
        storage.decode_link("e=" + "A" * (storage.MAX_TEXT + 1))


def test_a_command_nested_past_the_stack_is_refused_with_its_path():
    inner = {"type": "Pass", "actor": "a1"}
    for _ in range(3000):
        inner = {"type": "Allow", "command": inner}
    doc = base_doc()
    doc["steps"][0]["command"] = inner  # a parsed document: no JSON depth limit on the way in
    with pytest.raises(LoadError) as err:
        storage.load(doc)
    assert err.value.problems == ["steps[0].command: nested too deeply"]


def test_unpaired_surrogates_are_refused_because_no_save_or_link_could_hold_them():
    """JSON's \\ud800 escape decodes to a lone surrogate: such a file loaded, then
    every save (UTF-8) and every share link raised UnicodeEncodeError."""
    text = storage.dumps(played())
    text = text.replace('"level":2', '"lev\\udc00el":2').replace('"Test duel"', '"\\ud83d\\ude00 duel"')
    with pytest.raises(LoadError) as err:
        storage.loads(text)
    assert err.value.problems == [
        "encounter.combatants[0].stats: a key with an unpaired surrogate (a broken \\u escape) cannot be saved"]
    # a proper pair is one character (an emoji) and loads
    fine = storage.loads(text.replace('lev\\udc00el', 'level')).session
    assert fine.encounter.name == "\U0001F600 duel"
    assert storage.decode_link(storage.encode_link(fine)).session.encounter.name == "\U0001F600 duel"


def test_the_compact_document_is_the_document_whatever_the_setup_says_and_however_often_written():
    """storage.dumps keeps the last setup's JSON text (an autosave writes the same setup after every step):
    its text is exactly json.dumps of storage.dump, for every example and after each step, with odd text in
    the setup ("encounter":null typed into a name) and after the setup changes."""
    import json as _json
    import random as _random

    from fray.rules import examples as _examples

    rng = _random.Random(5)
    for system in ("olog", "ose", "ogre"):
        for name, make in _examples(system).items():
            s = Session(make(1))
            s = Session(replace(s.encounter, name='"encounter":null \\u2028 é'))
            for _ in range(6):
                want = _json.dumps(storage.dump(s), ensure_ascii=False, separators=(",", ":"))
                assert storage.dumps(s) == want, (system, name)
                assert storage.loads(storage.dumps(s)).session.state == s.state
                opts = [o for a in s.current() for o in s.options(a) if o.allowed and not o.needs]
                if not opts or s.state.outcome:
                    break
                o = rng.choice(opts)
                s.act(replace(o.command, **rng.choice(o.choices).values) if o.choices else o.command)
