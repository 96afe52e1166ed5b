"""Fuzzing the file format: thousands of malformed save files and share links.

Property: `storage.loads` / `storage.decode_link` either load (and then the
session saves and loads back the same) or raise `storage.LoadError` whose every
problem names a field path (or "file:" / "share link:"); never any other
exception. Junk is generated from scratch and made by mutating valid documents
of the duel and of every real system that is importable. FRAY_LONG=1 runs ten
times as many examples.
"""
from __future__ import annotations

import base64
import copy
import dataclasses
import functools
import importlib
import json
import os
import re
import zlib

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import duel
from fray import rules
from fray.engine import storage
from fray.engine.session import Session
from fray.engine.storage import LoadError

LONG = os.environ.get("FRAY_LONG") == "1"
SCALE = 10 if LONG else 1


def fuzz(n: int):
    return settings(max_examples=n * SCALE, deadline=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example])


@pytest.fixture(scope="module", autouse=True)
def duel_system():
    had = "duel" in rules.SYSTEMS
    rules.register("duel", duel.RULESET)
    yield
    if not had:
        rules.unregister("duel")


# --- valid documents to start from ---------------------------------------------------

def _play(session: Session, steps: int) -> Session:
    for _ in range(steps):
        cmds = []
        for actor in session.current():
            for o in session.options(actor):
                if o.allowed and not o.needs:
                    cmds += [dataclasses.replace(o.command, **c.values) for c in o.choices] or [o.command]
        if not cmds or session.state.outcome:
            break
        session.act(cmds[len(session.steps) * 7 % len(cmds)])
    if session.steps:
        session.undo()
    return session


@functools.lru_cache(maxsize=None)
def _bases() -> tuple[str, ...]:
    """Save files (as JSON text) of played fights: the duel and each real system's examples."""
    out = [storage.dumps(_play(Session(duel.encounter(), duel.RULESET), 6))]
    for name in ("olog", "ose", "ogre"):
        try:
            importlib.import_module(f"fray.rules.{name}")
            examples = importlib.import_module(f"fray.rules.{name}_examples").examples()
        except ImportError:
            continue
        items = examples.values() if isinstance(examples, dict) else examples
        for build in list(items)[:2]:
            enc = build(5) if callable(build) else build
            out.append(storage.dumps(_play(Session(enc), 8)))
    return tuple(out)


def bases() -> list[dict]:
    return [json.loads(t) for t in _bases()]


# --- the property ---------------------------------------------------------------------

TOP = ("file", "format", "app", "dice_mode", "encounter", "steps", "redo")  # every top-level field of a document
PATH = re.compile(r"^(?:%s)(?:[.\[:]|$)" % "|".join(TOP))


def assert_named(exc: LoadError, link: bool = False) -> None:
    assert exc.problems, "a LoadError lists at least one problem"
    for p in exc.problems:
        assert isinstance(p, str) and len(p) < 2000, p[:200]
        if link:
            assert p.startswith("share link: "), p
            p = p[len("share link: "):]
            if not PATH.match(p) and not p.endswith("not a field of a Fray file"):
                # a link's own faults name the link, not a field
                assert p.startswith(("it does not carry", "too long", "it contains", "truncated", "not text")), p
                continue
        assert PATH.match(p) or p.endswith(": not a field of a Fray file"), f"no field path in {p!r}"


def accepted_round_trips(loaded) -> None:
    """What loads can be saved (as UTF-8), shared, and loaded back the same."""
    again = storage.loads(storage.dumps(loaded.session).encode("utf-8")).session
    assert storage.decode_link(storage.encode_link(loaded.session)).session.state == loaded.session.state
    assert again.state == loaded.session.state
    assert [(s.command, s.dice) for s in again.steps] == [(s.command, s.dice) for s in loaded.session.steps]


def check_file(data) -> str:
    try:
        loaded = storage.loads(data)
    except LoadError as exc:
        assert_named(exc)
        return "refused"
    accepted_round_trips(loaded)
    return "loaded"


def check_doc(doc) -> str:
    try:
        text = json.dumps(doc)
    except (ValueError, RecursionError):
        return "unserialisable"
    return check_file(text)


def check_link(fragment) -> str:
    try:
        loaded = storage.decode_link(fragment)
    except LoadError as exc:
        assert_named(exc, link=True)
        return "refused"
    accepted_round_trips(loaded)
    return "loaded"


# --- building blocks ---------------------------------------------------------------------

def deep_list(n: int):
    v: list = []
    for _ in range(n):
        v = [v]
    return v


NASTY = [None, True, False, 0, -1, 1, 7, 2 ** 31, 10 ** 30, -10 ** 30, 1e308, -1e308, 0.5, -0.0, "", "x" * 5000,
         "9" * 5000, "2x6", "d0", "\x00", "é\u202e", "\ud800", "#e=", [], {}, [None], [1, 2], {"type": "Strike"},
         {"a": {"b": {"c": [1]}}}, deep_list(300), list(range(2000)), ["a"] * 300]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 40, 10 ** 40) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30) | st.sampled_from(["duel", "olog", "ose", "ogre", "e=", "2d6", "1", "Strike", "a1"]),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(
        st.sampled_from(["format", "encounter", "steps", "redo", "system", "sides", "combatants", "id", "hp",
                         "type", "command", "dice", "name"]) | st.text(max_size=8), children, max_size=5),
    max_leaves=30)
nasty_values = st.sampled_from(NASTY) | json_values


def paths(doc, prefix=()) -> list[tuple]:
    """Every path into a document (keys and indices), long lists sampled."""
    out = [prefix] if prefix else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, prefix + (k,))
    elif isinstance(doc, list):
        idx = range(len(doc)) if len(doc) <= 8 else [0, 1, len(doc) // 2, len(doc) - 1]
        for i in idx:
            out += paths(doc[i], prefix + (i,))
    return out


def get(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def put(doc, path, value):
    get(doc, path[:-1])[path[-1]] = value


def drop(doc, path):
    parent = get(doc, path[:-1])
    del parent[path[-1]]


# --- Hypothesis: junk from scratch ----------------------------------------------------------

@fuzz(150)
@given(json_values)
@example({"format": 1})
@example({"format": 1, "encounter": {"system": ["duel"]}})
@example({"format": 1, "encounter": {"system": "duel", "sides": {}, "combatants": "x"}, "steps": {}})
def test_any_json_value_as_a_file_is_loaded_or_refused_with_a_path(value):
    check_doc(value)


@fuzz(150)
@given(st.fixed_dictionaries({"format": st.just(1)}, optional={
    "encounter": st.fixed_dictionaries({"system": st.sampled_from(["duel", "olog", "ose", "ogre", "chess"])},
                                       optional={k: nasty_values for k in ("name", "profile", "seed", "bands",
                                                                              "settings", "map", "sides",
                                                                              "combatants")}),
    "steps": nasty_values, "redo": nasty_values, "dice_mode": nasty_values}))
def test_documents_of_the_right_outline_with_junk_fields(doc):
    check_doc(doc)


@fuzz(100)
@given(st.binary(max_size=300))
@example(b"\xff\xfe\x00{")
@example(b'{"format": 1, "encounter": "\xc3\x28"}')
def test_random_bytes_as_a_file(data):
    check_file(data)


# --- Hypothesis: mutations of valid documents -------------------------------------------------

@fuzz(300)
@given(st.data())
def test_a_valid_document_with_one_field_changed(data):
    doc = data.draw(st.sampled_from(bases()), label="base")
    doc = copy.deepcopy(doc)
    path = data.draw(st.sampled_from(paths(doc)), label="path")
    how = data.draw(st.sampled_from(["replace", "drop", "wrap", "extra key"]), label="how")
    if how == "replace":
        put(doc, path, data.draw(nasty_values, label="value"))
    elif how == "drop":
        drop(doc, path)
    elif how == "wrap":
        put(doc, path, [get(doc, path)])
    else:
        target = get(doc, path)
        if isinstance(target, dict):
            target[data.draw(st.text(max_size=6), label="key")] = data.draw(nasty_values, label="value")
    check_doc(doc)


@fuzz(200)
@given(st.data())
def test_a_valid_document_with_two_values_swapped_or_duplicated(data):
    doc = copy.deepcopy(data.draw(st.sampled_from(bases()), label="base"))
    ps = paths(doc)
    a = data.draw(st.sampled_from(ps), label="a")
    b = data.draw(st.sampled_from(ps), label="b")
    if a[: len(b)] == b or b[: len(a)] == a:
        return
    va, vb = copy.deepcopy(get(doc, a)), copy.deepcopy(get(doc, b))
    put(doc, a, vb)
    if data.draw(st.booleans(), label="swap"):
        put(doc, b, va)
    check_doc(doc)


@fuzz(150)
@given(st.data())
def test_a_valid_document_with_a_list_reshaped(data):
    doc = copy.deepcopy(data.draw(st.sampled_from(bases()), label="base"))
    lists = [p for p in paths(doc) if isinstance(get(doc, p), list) and get(doc, p)]
    if not lists:
        return
    p = data.draw(st.sampled_from(lists), label="list")
    items = get(doc, p)
    how = data.draw(st.sampled_from(["duplicate", "reverse", "truncate", "repeat"]), label="how")
    if how == "duplicate":
        items.append(copy.deepcopy(items[0]))
    elif how == "reverse":
        items.reverse()
    elif how == "truncate":
        del items[data.draw(st.integers(0, len(items) - 1)):]
    else:
        put(doc, p, items * data.draw(st.integers(2, 60)))
    check_doc(doc)


@fuzz(150)
@given(st.data())
def test_the_text_of_a_valid_file_cut_or_spliced(data):
    text = data.draw(st.sampled_from(_bases()), label="base")
    i = data.draw(st.integers(0, len(text)), label="at")
    how = data.draw(st.sampled_from(["cut", "insert", "delete", "replace-number"]), label="how")
    if how == "cut":
        text = text[:i]
    elif how == "insert":
        text = text[:i] + data.draw(st.text(min_size=1, max_size=4), label="ins") + text[i:]
    elif how == "delete":
        text = text[:i] + text[i + 1:]
    else:
        text = re.sub(r"\b\d+\b", data.draw(st.sampled_from(["9" * 5000, "1e400", "-1e400", "1.5", "10" * 20, "-0"])),
                      text, count=1 + i % 5)
    check_file(text)


# --- Hypothesis: share links ----------------------------------------------------------------------

def links() -> list[str]:
    return ["e=" + base64.urlsafe_b64encode(zlib.compress(t.encode(), 9)).decode().rstrip("=") for t in _bases()]


@fuzz(200)
@given(st.data())
def test_a_valid_share_link_altered(data):
    link = data.draw(st.sampled_from(links()), label="link")
    i = data.draw(st.integers(0, len(link)), label="at")
    how = data.draw(st.sampled_from(["cut", "flip", "insert", "delete", "append", "prefix"]), label="how")
    alphabet = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ #%")
    if how == "cut":
        link = link[:i]
    elif how == "flip":
        link = link[:i] + data.draw(alphabet) + link[i + 1:]
    elif how == "insert":
        link = link[:i] + data.draw(alphabet) + link[i:]
    elif how == "delete":
        link = link[:i] + link[i + 1:]
    elif how == "append":
        link = link + data.draw(st.text(alphabet, min_size=1, max_size=8))
    else:
        link = data.draw(st.sampled_from(["#", "#e=", "e", "E=", "f=", ""])) + link[2:]
    check_link(link)


@fuzz(100)
@given(st.binary(max_size=200))
def test_random_bytes_as_a_share_link(data):
    check_link("e=" + base64.urlsafe_b64encode(data).decode().rstrip("="))
    check_link("e=" + base64.urlsafe_b64encode(zlib.compress(data)).decode().rstrip("="))


@fuzz(100)
@given(st.data())
def test_a_mutated_document_packed_as_a_share_link(data):
    doc = copy.deepcopy(data.draw(st.sampled_from(bases()), label="base"))
    path = data.draw(st.sampled_from(paths(doc)), label="path")
    put(doc, path, data.draw(nasty_values, label="value"))
    try:
        raw = json.dumps(doc).encode()
    except (ValueError, RecursionError):
        return
    check_link("e=" + base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("="))


@fuzz(60)
@given(st.text(max_size=60))
def test_any_text_as_a_share_link(text):
    check_link(text)
    check_link("e=" + text)


# --- exhaustive sweeps: every field, every wrong type, every deletion ---------------------------

SWEEP = [None, True, -1, 10 ** 30, 1e308, "", "x" * 3000, "9" * 5000, [], {}, deep_list(200), [None] * 3]


def test_every_field_of_every_base_with_every_wrong_type_and_deleted():
    """The hand-made corpus: each field of each valid document replaced by each
    kind of wrong value, and each field deleted."""
    counts = {"refused": 0, "loaded": 0, "unserialisable": 0}
    for n, base in enumerate(bases()):
        every = paths(base)
        # the duel fully; each real system's documents sampled (all with FRAY_LONG=1)
        chosen = every if LONG or n == 0 else every[:: max(1, len(every) // 40)]
        for path in chosen:
            for value in SWEEP:
                doc = copy.deepcopy(base)
                put(doc, path, value)
                counts[check_doc(doc)] += 1
            doc = copy.deepcopy(base)
            drop(doc, path)
            counts[check_doc(doc)] += 1
    assert counts["refused"] >= 1000, counts
    assert counts["loaded"] > 0, "some changes are harmless (a name, a note)"


# --- hand-written cases ---------------------------------------------------------------------------

def duel_doc() -> dict:
    return copy.deepcopy(bases()[0])


def with_(path: str, value):
    doc = duel_doc()
    keys = [int(k) if k.isdigit() else k for k in re.findall(r"[^.\[\]]+", path)]
    put(doc, keys, value)
    return doc


HAND = {
    "10,000 combatants": lambda: with_("encounter.combatants", [{"id": f"c{i}", "name": "C", "side": "a", "hp": 1,
                                                               "max_hp": 1} for i in range(10_000)]),
    "10,000 sides": lambda: with_("encounter.sides", [{"id": f"s{i}", "name": "S"} for i in range(10_000)]),
    "10,000 steps of junk": lambda: with_("steps", [{"command": {"type": "Nope"}}] * 10_000),
    "100,001 steps": lambda: with_("steps", [0] * 100_001),
    "10,000 weapons": lambda: with_("encounter.combatants[0].weapons", [{"name": "a"}] * 10_000),
    "10,000 walls": lambda: with_("encounter.map.walls", [[1, 1]] * 10_000),
    "10,000 dice": lambda: with_("steps[0].dice", [1] * 10_000),
    "negative HP": lambda: with_("encounter.combatants[0].hp", -5),
    "negative max HP": lambda: with_("encounter.combatants[0].max_hp", -5),
    "HP 10**30": lambda: with_("encounter.combatants[0].hp", 10 ** 30),
    "HP 1e308": lambda: with_("encounter.combatants[0].hp", 1e308),
    "seed 1e308": lambda: with_("encounter.seed", 1e308),
    "unknown system": lambda: with_("encounter.system", "d&d"),
    "system null": lambda: with_("encounter.system", None),
    "system object": lambda: with_("encounter.system", {"olog": True}),
    "format 2": lambda: with_("format", 2),
    "format text": lambda: with_("format", "1"),
    "deep command": lambda: with_("steps[0].command", functools.reduce(lambda c, _: {"type": "Allow", "command": c},
                                                                        range(400), {"type": "Pass", "actor": "a1"})),
    "deep stat": lambda: with_("encounter.combatants[0].stats.level", deep_list(900)),
    "deep setting": lambda: with_("encounter.settings.bonus", deep_list(900)),
    "deep system": lambda: with_("encounter.system", deep_list(900)),
    "deep format": lambda: with_("format", deep_list(900)),
    "long system name": lambda: with_("encounter.system", "s" * 1_000_000),
    "long id": lambda: with_("encounter.combatants[0].id", "i" * 1_000_000),
    "dice notation 5000 digits": lambda: with_("encounter.combatants[0].weapons[0].damage", "1d" + "9" * 5000),
    "dice notation of blanks": lambda: with_("encounter.combatants[0].weapons[0].damage", " " * 30_000 + "x"),
    "SetStat deep value": lambda: with_("steps[0].command", {"type": "SetStat", "target": "a1", "key": "k",
                                                              "value": deep_list(500)}),
    "FreeRoll huge notation": lambda: with_("steps[0].command", {"type": "FreeRoll", "expr": "9" * 2000}),
}


@pytest.mark.parametrize("name", sorted(HAND))
def test_hand_written_cases(name):
    check_doc(HAND[name]())


@pytest.mark.parametrize("text", [
    "[" * 10_000, "[" * 10_000 + "]" * 10_000, "{" * 10_000, '{"a":' * 10_000,
    '{"format": 1, "encounter": ' + "[" * 5000 + "]" * 5000 + "}",
    "9" * 5000, '{"format": ' + "9" * 5000 + "}", '{"format": 1e400}', '{"format": -Infinity}', '{"format": NaN}',
    "\x00" * 100, "\ufeff", "\ufeff\ufeff{}", '{"format": 1}' * 3, '{"format": 1, "format": 2}',
    '{"format": 1, "encounter": {"system": "duel", "name": "\\ud800"}}',
])
def test_hand_written_texts(text):
    check_file(text)


@pytest.mark.parametrize("data", [b"\xff" * 100, b"\xc3\x28", bytes(range(256)), b"\xef\xbb\xbf{}",
                                  "{}".encode("utf-16"), b"\x1f\x8b\x08\x00"])
def test_non_utf8_and_binary_files(data):
    check_file(data)


def test_truncated_share_links_at_every_length():
    link = links()[0]
    for n in range(len(link)):
        check_link(link[:n])


def test_a_share_link_that_inflates_past_the_limit_is_refused():
    bomb = zlib.compress(b"[" + b"0," * (storage.MAX_TEXT // 2 + 10) + b"0]", 9)
    with pytest.raises(LoadError, match="^share link: truncated or corrupt"):
        storage.decode_link("e=" + base64.urlsafe_b64encode(bomb).decode().rstrip("="))


def test_the_corpus_is_large_enough():
    """At least 1,000 malformed inputs: the sweep alone refuses more (asserted
    there); the generated tests add their max_examples (about 1,800)."""
    assert sum(len(paths(b)) for b in bases()) * (len(SWEEP) + 1) >= 1000
