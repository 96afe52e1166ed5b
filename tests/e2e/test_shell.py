"""The referee's shell: build, roll, damage, undo/redo, reload, save/open, share,
bad files and links, user text shown as text (CORE-HP-1, CORE-REF-1, CORE-DICE-3)."""
from __future__ import annotations

import json
import re

from harness import wait_ready
from helpers import close_setup, damage, hp_text, log_text, open_setup, redo, roll, select, show, undo
from playwright.sync_api import expect


def build_four(page):
    """The default encounter has three combatants; add a goblin to make four."""
    open_setup(page)
    page.get_by_test_id("add-Goblin").click()
    expect(page.locator("[data-testid^=cb-]").filter(has=page.locator("summary"))).to_have_count(4)
    close_setup(page)
    show(page, "order")
    expect(page.locator("[data-testid^=order-]").filter(has=page.locator("button.pick"))).to_have_count(4)


def test_build_roll_damage_undo_redo_and_reload__CORE_HP_1_CORE_DICE_3(app):
    build_four(app)
    text = roll(app, "2d6+1")
    assert re.search(r"2d6\+1 \[\d, \d\] = \d+", text), text
    assert "Rolled 2d6+1" in log_text(app)
    damage(app, "orc-1", 4)
    assert hp_text(app, "orc-1") == "2/6"
    assert "Orc 1 takes 4 damage" in log_text(app)
    undo(app)
    assert hp_text(app, "orc-1") == "6/6"
    redo(app)
    assert hp_text(app, "orc-1") == "2/6"
    app.reload()
    wait_ready(app)
    assert hp_text(app, "orc-1") == "2/6"
    show(app, "order")
    expect(app.locator("[data-testid^=order-]").filter(has=app.locator("button.pick"))).to_have_count(4)


def test_damage_to_zero_marks_down__CORE_HP_1(app):
    damage(app, "orc-2", 6)
    show(app, "order")
    expect(app.get_by_test_id("order-orc-2")).to_have_class(re.compile(r"\bdown\b"))
    assert "Orc 2 is down" in log_text(app)


def test_save_file_then_open_it_in_a_fresh_context(app, fresh_page, base_url_local, tmp_path):
    damage(app, "orc-1", 5)
    with app.expect_download() as dl:
        app.get_by_test_id("save").click()
    path = tmp_path / "fight.fray.json"
    dl.value.save_as(path)
    doc = json.loads(path.read_text())
    assert doc["format"] == 1 and doc["steps"][-1]["command"]["type"] == "Damage"
    other = fresh_page()
    other.goto(base_url_local)
    wait_ready(other)
    assert hp_text(other, "orc-1") == "6/6"
    other.locator("#file-input").set_input_files(str(path))
    expect(other.get_by_test_id("notice-ok")).to_contain_text("Opened")
    assert hp_text(other, "orc-1") == "1/6"
    undo(other)  # opening a file is undoable: the previous encounter comes back
    assert hp_text(other, "orc-1") == "6/6"


def test_share_link_opens_in_a_fresh_context(app, fresh_page):
    damage(app, "mira", 3)
    app.get_by_test_id("share").click()
    url = app.get_by_test_id("share-url").input_value()
    assert "#e=" in url
    other = fresh_page()
    other.goto(url)
    wait_ready(other)
    assert hp_text(other, "mira") == "9/12"
    assert "#e=" not in other.url  # the fragment is consumed; the autosave holds it now


def test_malformed_file_shows_every_problem_and_changes_nothing(app, tmp_path):
    damage(app, "orc-1", 2)
    bad = {"format": 1, "encounter": {"name": "Broken", "system": "olog", "sides": [{"id": "a", "name": "A"}],
                                      "combatants": [{"id": "x", "name": "X", "side": "a", "hp": 3, "max_hp": 3,
                                                      "weapons": [{"name": "Claw", "damage": "2x6"}]}]},
           "steps": []}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    app.locator("#file-input").set_input_files(str(path))
    err = app.get_by_test_id("notice-error")
    expect(err).to_contain_text('combatants[0].weapons[0].damage: "2x6" is not dice notation')
    expect(err).to_contain_text("unchanged")
    assert hp_text(app, "orc-1") == "4/6"
    undo(app)  # undo still works on the untouched encounter
    assert hp_text(app, "orc-1") == "6/6"
    (tmp_path / "junk.json").write_bytes(b"\xff\xfe not json")
    app.locator("#file-input").set_input_files(str(tmp_path / "junk.json"))
    expect(app.get_by_test_id("notice-error")).to_contain_text("not UTF-8")


def test_tampered_share_link_shows_an_error_and_keeps_the_encounter(app, base_url_local):
    damage(app, "orc-2", 1)
    app.get_by_test_id("share").click()
    url = app.get_by_test_id("share-url").input_value()
    head, frag = url.split("#e=")
    tampered = head + "#e=" + frag[:len(frag) // 2] + ("A" if frag[len(frag) // 2] != "A" else "B") \
        + frag[len(frag) // 2 + 1:-8]
    app.goto(tampered)
    wait_ready(app)
    expect(app.get_by_test_id("notice-error")).to_contain_text("share link")
    assert hp_text(app, "orc-2") == "5/6"  # the autosaved encounter is still there
    undo(app)
    assert hp_text(app, "orc-2") == "6/6"


def test_names_with_html_are_shown_as_text(app):
    payload = '<img src=x onerror="alert(1)">'
    open_setup(app)
    app.get_by_test_id("cb-0").locator("summary").click()
    name = app.get_by_test_id("cb-name-0")
    name.fill(payload)
    name.press("Enter")
    name.blur()
    close_setup(app)
    show(app, "order")
    expect(app.get_by_test_id("order-mira")).to_contain_text(payload)
    assert app.locator("#app img").count() == 0


def test_browsing_examples_with_arrow_keys_opens_only_on_enter(app):
    """A closed select fires a change on every arrow key: browsing must not
    replace the encounter at each step (the referee opens one with Enter)."""
    open_setup(app)
    select = app.get_by_test_id("example-select")
    select.focus()
    app.keyboard.press("ArrowDown")
    app.keyboard.press("ArrowDown")
    expect(app.get_by_test_id("notice-info")).to_contain_text("Press Enter")
    expect(app.get_by_test_id("encounter-name")).to_have_text("New encounter")
    app.keyboard.press("Enter")
    expect(app.get_by_test_id("notice-ok")).to_contain_text("example")
    expect(app.get_by_test_id("encounter-name")).not_to_have_text("New encounter")
    undo(app)  # one undo returns to the encounter before: only one example was opened
    expect(app.get_by_test_id("encounter-name")).to_have_text("New encounter")
