"""Quick HP (issue 38): tap a combatant's hit points (its row's bar, or "± HP" on its actions) and type
−N, +N or the new value; each change is one referee step (CORE-REF-1), in the result card and the log,
and undo takes it back. Nonsense is refused at the field and changes nothing."""
from __future__ import annotations

from helpers import is_phone, open_example, show, undo
from playwright.sync_api import expect


def hp_of(page, cid: str):
    return page.get_by_test_id(f"hp-{cid}").locator(".hp-num")


def quick_hp(page, cid: str, typed: str) -> None:
    show(page, "order")
    page.get_by_test_id(f"hp-{cid}").click()
    field = page.get_by_test_id("hp-change")
    expect(field).to_be_focused()
    field.fill(typed)
    field.press("Enter")


def test_damage_heal_and_a_new_value_each_one_step_that_undo_takes_back__CORE_REF_1(app):
    open_example(app, "olog", "two_orcs")
    show(app, "order")
    expect(hp_of(app, "orc1")).to_have_text("6/6")
    quick_hp(app, "orc1", "-4")
    expect(app.get_by_test_id("hp-dialog")).to_have_count(0)
    show(app, "order")
    expect(hp_of(app, "orc1")).to_have_text("2/6")
    result = app.get_by_test_id("result-strip" if is_phone(app) else "result")
    expect(result).to_contain_text("6 → 2 / 6 HP")
    quick_hp(app, "orc1", "+1")
    show(app, "order")
    expect(hp_of(app, "orc1")).to_have_text("3/6")
    quick_hp(app, "orc1", "5")
    show(app, "order")
    expect(hp_of(app, "orc1")).to_have_text("5/6")
    undo(app)
    undo(app)
    show(app, "order")
    expect(hp_of(app, "orc1")).to_have_text("2/6")


def test_nonsense_is_refused_at_the_field_and_changes_nothing__CORE_REF_1(app):
    open_example(app, "olog", "two_orcs")
    for typed in ("abc", "+-3", "1000000000"):
        quick_hp(app, "orc1", typed)
        problem = app.get_by_test_id("hp-problem")
        expect(problem).to_be_visible()
        expect(app.get_by_test_id("hp-change")).to_have_value(typed)  # what was typed is kept to fix
        app.keyboard.press("Escape")
        expect(app.get_by_test_id("hp-dialog")).to_have_count(0)
    show(app, "order")
    expect(hp_of(app, "orc1")).to_have_text("6/6")


def test_the_actions_have_their_own_quick_hp_button(app):
    open_example(app, "olog", "two_orcs")
    show(app, "act")
    app.get_by_test_id("hp-quick").click()
    expect(app.get_by_test_id("hp-dialog")).to_contain_text("HP")
    app.get_by_test_id("hp-change").fill("-1")
    app.get_by_test_id("hp-apply").click()
    expect(app.get_by_test_id("hp-dialog")).to_have_count(0)
