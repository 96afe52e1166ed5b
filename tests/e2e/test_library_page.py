"""The referee's library in the page: no journey loses an encounter the referee did not delete.

A share link or a file opens as a new entry and the encounter that was open keeps every step and its undo;
two tabs on one encounter never mix their saves (the later tab is read-only until it takes over); export all,
then an empty browser, then import gives back every entry and roster entry identical; the old single
autosave slot becomes the first entry; storage that refuses a write is reported once and play goes on; a
damaged entry is set aside and the rest opens; names are text. Steps are the referee's damage
(CORE-HP-1) and undo; the log keeps every one (CORE-DICE-3).
"""
from __future__ import annotations

import json

import pytest
from harness import wait_ready, watch
from helpers import damage, hp_text, is_phone, open_example, redo, saved_doc, stored, undo
from playwright.sync_api import Page, expect

import fray.rules  # noqa: F401 (the systems a document names)
from fray import presets
from fray.engine import storage

IMG = '<img src=x onerror="alert(1)">'


def open_library(page: Page) -> None:
    page.get_by_test_id("library-open").click()
    expect(page.get_by_test_id("library")).to_be_visible()


def hp_of(page: Page, cid: str):
    """The HP shown in the order row, read without switching tabs (a read-only tab's bar is inert)."""
    return page.get_by_test_id(f"order-{cid}").locator(".hp-num")


def fits(page: Page) -> None:
    width, vw = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= vw, (width, vw)


def test_a_share_link_becomes_a_new_entry_and_the_first_encounter_keeps_its_steps_and_undo__CORE_HP_1(
        app, guard):
    damage(app, "orc-1", 2)
    damage(app, "orc-2", 1)
    undo(app)  # one step to redo: the redo list is part of what must survive
    first = stored(app)["current"]
    before = saved_doc(app)
    assert [s["command"]["type"] for s in json.loads(before)["redo"]] == ["Damage"]
    app.get_by_test_id("share").click()
    url = app.get_by_test_id("share-url").input_value()
    app.keyboard.press("Escape")
    other = watch(app.context.new_page(), guard)
    other.goto(url)
    wait_ready(other)
    expect(other.get_by_test_id("notice-ok")).to_contain_text("Opened the shared encounter")
    got = stored(other)
    assert got["current"] != first and len(got["entries"]) == 2
    assert next(r for r in got["entries"] if r["id"] == first)["doc"] == before  # unchanged, byte for byte
    # The first tab still has it; closed, the library opens it in the second tab with its undo and redo.
    app.close()
    open_library(other)
    expect(other.get_by_test_id(f"lib-entry-{first}")).to_contain_text("New encounter")
    other.get_by_test_id(f"lib-open-{first}").click()
    expect(other.get_by_test_id("library")).to_have_count(0)
    assert hp_text(other, "orc-1") == "4/6" and hp_text(other, "orc-2") == "6/6"
    redo(other)
    assert hp_text(other, "orc-2") == "5/6"
    undo(other)
    undo(other)
    assert hp_text(other, "orc-1") == "6/6"


@pytest.mark.parametrize("device", ["desktop"])
def test_two_tabs_on_one_encounter_lose_no_step_and_the_later_one_is_read_only_until_it_takes_over__CORE_HP_1(
        app, guard):
    damage(app, "orc-1", 1)
    second = watch(app.context.new_page(), guard)
    second.goto(app.url)
    wait_ready(second)
    expect(second.get_by_test_id("readonly-banner")).to_be_visible()
    expect(hp_of(second, "orc-1")).to_have_text("5/6")
    # Steps in the first tab show in the second as they are saved; the second changes nothing.
    damage(app, "orc-1", 1)
    expect(hp_of(second, "orc-1")).to_have_text("4/6")
    second.keyboard.press("Control+z")
    expect(hp_of(app, "orc-1")).to_have_text("4/6")
    expect(hp_of(second, "orc-1")).to_have_text("4/6")
    # Take over: the first tab turns read-only, the second goes on from the last saved step.
    second.get_by_test_id("take-over").click()
    expect(second.get_by_test_id("readonly-banner")).to_have_count(0)
    expect(app.get_by_test_id("readonly-banner")).to_be_visible()
    damage(second, "orc-1", 1)
    expect(hp_of(app, "orc-1")).to_have_text("3/6")
    doc = json.loads(saved_doc(second))
    assert [s["command"]["type"] for s in doc["steps"]] == ["Damage", "Damage", "Damage"]
    assert len(stored(second)["entries"]) == 1  # one entry, never two halves
    # The second tab closes: the first reads the entry again and may change it, from the last step on.
    second.close()
    expect(app.get_by_test_id("readonly-banner")).to_have_count(0)
    expect(app.get_by_test_id("notice-ok")).to_contain_text("let go of this encounter")
    damage(app, "orc-1", 1)
    expect(hp_of(app, "orc-1")).to_have_text("2/6")
    assert len(json.loads(saved_doc(app))["steps"]) == 4


@pytest.mark.parametrize("device", ["desktop"])
def test_export_all_then_an_empty_browser_then_import_gives_back_every_entry_identical(app, fresh_page, tmp_path):
    damage(app, "orc-1", 3)
    open_library(app)
    app.get_by_test_id("lib-new-olog").click()  # empty, in Setup
    app.get_by_test_id("add-to-side").select_option("foes")
    app.get_by_test_id("add-Orc").click()
    app.get_by_test_id("add-to-side").select_option("party")
    app.get_by_test_id("add-Sample PC").click()
    app.get_by_test_id("cb-0").locator("summary").click()
    app.get_by_test_id("roster-save-0").click()
    expect(app.get_by_test_id("roster-report")).to_contain_text("Saved “Orc” in the roster")
    app.get_by_test_id("toggle-setup").click()
    damage(app, "mira-1", 2)
    open_library(app)
    rid = stored(app)["current"]
    app.get_by_test_id(f"lib-delete-{rid}").click()  # the trash is exported too
    expect(app.get_by_test_id(f"trash-{rid}")).to_have_count(1)
    before = stored(app)
    with app.expect_download() as dl:
        app.get_by_test_id("lib-export").click()
    path = tmp_path / "backup.json"
    dl.value.save_as(path)
    other = fresh_page()
    other.goto(app.url)
    wait_ready(other)
    open_library(other)
    other.locator("#import-input").set_input_files(str(path))
    expect(other.get_by_test_id("lib-report")).to_contain_text("Imported 2 entries and 1 roster entries")
    after = stored(other)
    by_id = {r["id"]: r for r in after["entries"]}
    assert len(before["entries"]) == 2 and len(after["entries"]) == 3  # the fresh browser's own entry is kept beside them
    for rec in before["entries"]:
        assert by_id[rec["id"]] == rec
    assert after["roster"] == before["roster"]


MIGRATE = """(doc) => {
  if (!sessionStorage.getItem('seeded')) { localStorage.setItem('fray.autosave', doc);
                                           sessionStorage.setItem('seeded', '1'); }
}"""


@pytest.mark.parametrize("device", ["desktop"])
def test_the_old_autosave_slot_becomes_the_first_library_entry(visit, base_url_local):
    page = visit
    enc = presets.blank_encounter("olog")
    enc["name"] = "Last week's fight"
    enc["combatants"][1]["hp"] = 2
    text = storage.dumps(storage.load({"format": 1, "encounter": enc, "steps": []}).session)
    page.add_init_script(f"({MIGRATE})({json.dumps(text)})")
    page.goto(base_url_local)
    wait_ready(page)
    expect(page.get_by_test_id("encounter-name")).to_have_text("Last week's fight")
    assert hp_text(page, "orc-1") == "2/6"
    got = stored(page)
    assert [r["origin"] for r in got["entries"]] == ["migrated"] and got["entries"][0]["doc"] == text
    assert page.evaluate("localStorage.getItem('fray.autosave')") is None
    assert page.evaluate("localStorage.getItem('fray.autosave.migrated')") == text  # set aside, not deleted
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("encounter-name")).to_have_text("Last week's fight")
    assert len(stored(page)["entries"]) == 1


FULL = """(() => {
  const real = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (...args) {
    if (window.__full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return real.apply(this, args);
  };
})();"""


@pytest.mark.parametrize("device", ["desktop"])
def test_full_storage_is_said_once_and_play_goes_on__CORE_HP_1(visit, base_url_local):
    page = visit
    page.add_init_script(FULL)
    page.goto(base_url_local)
    wait_ready(page)
    damage(page, "orc-1", 1)
    page.evaluate("window.__full = true")
    damage(page, "orc-1", 1)
    err = page.get_by_test_id("notice-error")
    expect(err).to_contain_text("Autosave failed (QuotaExceededError")
    expect(err).to_contain_text("use Save to keep this encounter")
    err.get_by_role("button", name="Dismiss").click()
    damage(page, "orc-1", 1)  # still failing: not said again
    assert hp_text(page, "orc-1") == "3/6"
    expect(page.get_by_test_id("notice-error")).to_have_count(0)
    undo(page)
    assert hp_text(page, "orc-1") == "4/6"
    page.evaluate("window.__full = false")
    damage(page, "orc-2", 2)
    doc = json.loads(saved_doc(page))
    assert len(doc["steps"]) == 3  # the whole fight, saved once storage works again


BREAK_ONE = """async () => {
  const db = await new Promise(ok => { const r = indexedDB.open('fray'); r.onsuccess = () => ok(r.result); });
  await new Promise(ok => { const tx = db.transaction('entries', 'readwrite');
    tx.objectStore('entries').put('{"id": "x", "doc": "{\\\\"format\\\\": 1, \\\\"encounter\\\\": {\\\\"na"}', 'x');
    tx.objectStore('entries').put('not json at all', 'y');
    tx.oncomplete = ok; });
  db.close();
}"""


def test_the_library_at_every_width_renames_duplicates_deletes_and_restores_with_names_as_text(app, tmp_path):
    damage(app, "orc-1", 1)
    rid = stored(app)["current"]
    open_library(app)
    entry = app.get_by_test_id(f"lib-entry-{rid}")
    expect(entry).to_contain_text("1 steps")
    expect(entry).to_contain_text("open here")
    app.get_by_test_id(f"lib-rename-{rid}").click()
    app.get_by_test_id(f"lib-name-input-{rid}").fill(IMG)
    app.get_by_test_id(f"lib-rename-ok-{rid}").click()
    expect(app.get_by_test_id(f"lib-name-{rid}")).to_have_text(IMG)
    assert app.locator("#library-slot img, #app img").count() == 0
    expect(app.get_by_test_id("encounter-name")).to_have_text(IMG)
    app.get_by_test_id(f"lib-dup-{rid}").click()
    expect(app.locator("[data-testid^=lib-entry-]")).to_have_count(2)
    copy = next(r for r in stored(app)["entries"] if r["id"] != rid)
    assert copy["name"] == IMG + " (copy)" and json.loads(copy["doc"])["steps"] == json.loads(saved_doc(app))["steps"]
    app.get_by_test_id(f"lib-delete-{copy['id']}").click()
    expect(app.locator("[data-testid^=lib-entry-]")).to_have_count(1)
    app.get_by_test_id("lib-trash").locator("summary").click()
    expect(app.get_by_test_id(f"trash-{copy['id']}")).to_contain_text("restorable for 7 more days")
    fits(app)
    app.screenshot(path=str(tmp_path / "library.png"), full_page=True)
    app.get_by_test_id(f"restore-{copy['id']}").click()
    expect(app.locator("[data-testid^=lib-entry-]")).to_have_count(2)
    fits(app)
    # A damaged entry is set aside (shown, kept) and everything else still opens.
    app.evaluate(BREAK_ONE)
    app.reload()
    wait_ready(app)
    assert hp_text(app, "orc-1") == "5/6"
    open_library(app)
    expect(app.get_by_test_id("lib-broken-x")).to_contain_text("set aside")
    expect(app.get_by_test_id("lib-broken-y")).to_contain_text("set aside")
    kept = stored(app)["entries"]
    assert {r.get("id") for r in kept} >= {"x", rid, copy["id"]}
    assert {"raw": "not json at all"} in kept  # set aside, not deleted
    if is_phone(app):
        app.screenshot(path=str(tmp_path / "library-phone.png"))


@pytest.mark.parametrize("device", ["desktop"])
def test_a_backup_of_a_thousand_entries_imports_with_a_progress_bar(app, tmp_path):
    from fray import library
    enc = presets.blank_encounter("olog")
    text = storage.dumps(storage.load({"format": 1, "encounter": enc, "steps": []}).session)
    meta = {"name": "Fight", "system": "olog", "profile": "", "round": "Round 0", "summary": "", "steps": 0}
    recs = [library.make_record(f"e{i:04d}", text, {**meta, "name": f"Fight {i}"}, 1_700_000_000_000 + i)
            for i in range(1000)]
    path = tmp_path / "big.backup.json"
    path.write_text(library.dump_backup(library.backup(recs, [], 1_700_000_000_000)))
    open_library(app)
    app.locator("#import-input").set_input_files(str(path))
    expect(app.get_by_test_id("import-progress")).to_be_attached()
    expect(app.get_by_test_id("lib-report")).to_contain_text("Imported 1000 entries", timeout=120_000)
    expect(app.get_by_test_id("import-progress")).to_have_count(0)
    assert len(stored(app)["entries"]) == 1001


@pytest.mark.parametrize("device", ["desktop"])
def test_opening_an_example_keeps_the_encounter_it_replaces_in_the_library__CORE_HP_1(app):
    damage(app, "orc-1", 2)
    before = saved_doc(app)
    open_example(app, "ose", "detailed")
    expect(app.get_by_test_id("notice-ok")).to_contain_text("also kept in the Library")
    app.reload()
    wait_ready(app)
    got = stored(app)
    # After the reload the example is open, and the encounter it replaced is an entry of its own, step and all.
    assert json.loads(saved_doc(app))["encounter"]["system"] == "ose"
    kept = [r for r in got["entries"] if r["id"] != got["current"]]
    assert [r["doc"] for r in kept] == [before], kept
    open_library(app)
    app.get_by_test_id(f"lib-open-{kept[0]['id']}").click()
    expect(app.get_by_test_id("library")).to_have_count(0)
    assert hp_text(app, "orc-1") == "4/6"


@pytest.mark.parametrize("system", ["olog", "ose", "ogre"])
def test_new_encounter_is_blank_in_the_system_chosen_and_the_page_copes_with_nobody(app, system, tmp_path):
    open_library(app)
    expect(app.get_by_test_id(f"lib-new-{system}")).to_be_visible()
    for other in ("olog", "ose", "ogre"):  # each system one tap, with a line on what it is
        expect(app.locator(f"#lib-new-{other}-d")).not_to_be_empty()
    app.get_by_test_id(f"lib-new-{system}").click()
    expect(app.get_by_test_id("library")).to_have_count(0)
    expect(app.get_by_test_id("editor")).to_be_visible()  # straight into Setup
    expect(app.get_by_test_id("editor-start")).to_contain_text("Nobody here yet")
    expect(app.get_by_test_id("start-party")).to_be_enabled()
    expect(app.get_by_test_id("editor")).to_contain_text("Combatants (0)")
    expect(app.get_by_test_id("outcome")).to_contain_text("No combatants yet")
    fits(app)
    app.screenshot(path=str(tmp_path / f"new-{system}.png"), full_page=True)
    app.get_by_test_id("toggle-setup").click()
    expect(app.get_by_test_id("editor")).to_be_hidden()
    expect(app.get_by_test_id("status")).to_be_visible()
    expect(app.get_by_test_id("outcome")).not_to_contain_text("win")
    expect(app.get_by_test_id("notice-error")).to_have_count(0)
    doc = json.loads(saved_doc(app))["encounter"]
    assert doc["combatants"] == [] and [s["name"] for s in doc["sides"]] == ["Party", "Foes"]
    assert doc["system"] == system
