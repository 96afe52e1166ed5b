"""The library's records: metadata, the list order, the trash, backups and imports that never overwrite."""
from __future__ import annotations

import json

import pytest

from fray import library, presets
from fray.engine import storage
from fray.rules import examples

NOW = 1_800_000_000_000


def session_text(name="Goblin ambush", damage=0):
    doc = {"format": 1, "encounter": presets.blank_encounter("olog"), "steps": []}
    doc["encounter"]["name"] = name
    s = storage.load(doc).session
    return s, storage.dumps(s)


def record(rid="e1", name="Goblin ambush", changed=NOW):
    s, text = session_text(name)
    rec = library.make_record(rid, text, library.describe(s, "Round 1 · Mira's turn"), changed)
    return rec


def test_an_entry_names_its_system_round_and_a_one_line_summary():
    rec = record()
    assert rec["name"] == "Goblin ambush" and rec["system"] == "olog" and rec["round"] == "Round 1"
    assert rec["summary"] == "3 of 3 standing (Party 1, Orcs 2) · 0 steps"
    assert library.open_record(rec).session.encounter.name == "Goblin ambush"


def test_the_list_shows_the_last_changed_first_and_hides_the_trash():
    a, b, c = record("a", changed=NOW - 10), record("b", changed=NOW), record("c", changed=NOW - 5)
    c = library.deleted(c, NOW)
    assert [r["id"] for r in library.shown([a, b, c])] == ["b", "a"]
    assert [r["id"] for r in library.trash([a, b, c], NOW)] == ["c"]


def test_the_trash_keeps_an_entry_seven_days_and_restores_it_unchanged():
    rec = record()
    gone = library.deleted(rec, NOW)
    six_days = NOW + 6 * library.DAY_MS
    assert library.trash([gone], six_days) and not library.expired(gone, six_days)
    back = library.restored(gone, six_days)
    assert back["doc"] == rec["doc"] and library.shown([back])
    assert library.expired(gone, NOW + 8 * library.DAY_MS)


def test_rename_changes_the_list_line_and_the_document():
    rec = library.renamed(record(), "  Bridge   fight ", NOW + 1)
    assert rec["name"] == "Bridge fight"
    assert library.open_record(rec).session.encounter.name == "Bridge fight"
    with pytest.raises(ValueError):
        library.renamed(rec, "   ", NOW)


def test_a_duplicate_is_its_own_entry_with_the_same_fight():
    rec = record()
    dup = library.copy_of(rec, "e2", NOW + 5)
    assert dup["id"] == "e2" and dup["name"] == "Goblin ambush (copy)" and dup["origin"] == "copy"
    assert rec["name"] == "Goblin ambush"  # the original is untouched
    assert json.loads(dup["doc"])["steps"] == json.loads(rec["doc"])["steps"]


def test_a_damaged_record_is_set_aside_with_a_reason_not_dropped():
    rec = library.check_record(["not", "a", "record"], "7")
    assert rec["broken"] and rec["id"] == "broken-7" and "not" in rec["doc"]
    half = {**record(), "doc": '{"format": 1, "encounter": {"name": "half a fi'}
    with pytest.raises(storage.LoadError):
        library.open_record(half)
    aside = library.set_aside(half, "not valid JSON")
    assert aside["broken"] == "not valid JSON" and aside["doc"] == half["doc"]


def test_a_backup_round_trips_every_entry_byte_for_byte():
    recs = [record("a"), library.deleted(record("b", "Second"), NOW), {**record("c"), "doc": "{broken", "broken": "x"}]
    text = library.dump_backup(library.backup(recs, [{"id": "r1"}], NOW))
    incoming = library.read_import(text)
    assert incoming.is_backup and incoming.roster == [{"id": "r1"}]
    by_id = {r["id"]: r for r in incoming.records}
    for r in recs:
        assert by_id[r["id"]]["doc"] == r["doc"]
        assert {k: by_id[r["id"]][k] for k in library.RECORD_FIELDS} == r


def test_an_import_never_overwrites_an_entry_with_the_same_id():
    existing = {"a"}
    incoming = library.read_import(library.dump_backup(library.backup([record("a")], [], NOW)))
    rec, problem = library.check_incoming(incoming.records[0], 0)
    assert problem == ""
    added = library.adopt_incoming(rec, existing, NOW + 1)
    assert added["id"] != "a" and added["doc"] == record("a")["doc"]


def test_a_single_encounter_file_imports_as_one_entry():
    s, text = session_text("From a file")
    incoming = library.read_import(text)
    assert not incoming.is_backup and len(incoming.records) == 1
    rec, problem = library.check_incoming(incoming.records[0], 0)
    assert problem == "" and rec["system"] == "olog"


def test_a_bad_entry_in_a_backup_is_set_aside_and_named():
    good = record("a")
    bad = {**record("b"), "doc": json.dumps({"format": 1, "encounter": {"name": "X", "system": "nope"}})}
    incoming = library.read_import(library.dump_backup(library.backup([good, bad], [], NOW)))
    results = [library.check_incoming(r, i) for i, r in enumerate(incoming.records)]
    assert results[0][1] == ""
    assert "nope" in results[1][1] and results[1][0]["broken"]


@pytest.mark.parametrize("text,why", [
    ('{"name": "some other app"}', "not a Fray backup or encounter"),
    ('{"app": "other", "entries": []}', "some other program"),
    ('not json', "not valid JSON"),
    ('{"format": 1, "app": "fray", "kind": "roster", "entries": []}', "roster file"),
    ('{"format": 9, "app": "fray", "kind": "backup", "entries": []}', "format"),
])
def test_a_foreign_file_gets_a_clear_message(text, why):
    with pytest.raises(library.BackupError, match=why):
        library.read_import(text, "x.json")


def test_ids_are_new_and_sort_by_time():
    assert library.new_id({"e1"}, 255) == "eff"
    assert library.new_id({"eff"}, 255) == "eff-1"


def test_the_last_change_is_told_in_words():
    assert library.when(NOW, NOW) == "just now"
    assert library.when(NOW - 5 * 60_000, NOW) == "5 min ago"
    assert library.when(NOW - 2 * library.DAY_MS, NOW) == "2 days ago"


def test_every_example_describes_itself():
    for system in ("olog", "ose", "ogre"):
        for name, build in examples(system).items():
            s = storage.load({"format": 1, "encounter": storage.encounter_to_json(build(1)), "steps": []}).session
            meta = library.describe(s, "")
            assert meta["system"] == system and meta["round"].startswith("Round")


def test_a_record_whose_document_is_cut_off_is_seen_as_broken_when_read():
    rec = library.check_record({**record(), "doc": '{"format": 1, "encounter": {"na'}, "k")
    assert "cut off" in rec["broken"] and rec["doc"].startswith('{"format"')


def test_the_list_shows_names_as_text_and_marks_the_entry_open_here():
    from fray.ui.markup import library_view
    evil = {**record("a"), "name": '<img src=x onerror="alert(1)">'}
    other = library.deleted(record("b", "Gone"), NOW)
    line = library_view.StorageLine(True, "", 2e6, 3e9, "granted")
    html = library_view.dialog([evil, other], NOW, "a", "", line, (3, 10), "")
    assert "<img" not in html and "&lt;img src=x" in html
    assert 'data-testid="lib-entry-a"' in html and "open here" in html
    assert "Trash (1)" in html and 'value="3"' in html
    assert "using 2.0 MB of 3.0 GB allowed · persistent storage: granted" in html
    memory = library_view.storage_text(library_view.StorageLine(False, "no IndexedDB", None, None, ""))
    assert memory.startswith("Kept in memory only (no IndexedDB)")


def test_the_images_the_library_keeps_are_those_its_entries_name_the_trash_included():
    from dataclasses import replace

    from fray.engine import map_image
    from fray.engine.session import Session
    from fray.rules import get as get_ruleset
    from fray.rules.ose.examples import detailed
    keys = ("a" * 64, "b" * 64, "c" * 64)
    enc = detailed(1)

    def saved(rid: str, key: str) -> library.Record:
        image = map_image.MapImage("image/png", 100, 100, key=key)
        s = Session(replace(enc, map=replace(enc.map, image=image)), ruleset=get_ruleset("ose"))
        return library.make_record(rid, storage.dumps(s), library.describe(s, ""), NOW)
    kept, trashed = saved("e1", keys[0]), library.deleted(saved("e2", keys[1]), NOW)
    # A damaged entry keeps its document as text, quotes escaped: its image is kept for it too.
    broken = library.set_aside({**record("e3"), "doc": json.dumps(saved("e3", keys[2])["doc"])}, "cut off")
    assert library.image_keys([kept, trashed, broken, record("e4")]) == set(keys)
    assert library.image_keys([kept, record("e4")]) == {keys[0]}  # e2 deleted for good: its image goes
    assert library.image_keys([record("e4")]) == set()
