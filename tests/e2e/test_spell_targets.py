"""A spell on several targets picks a few, not only one or all (issue 53, stop 9): the question that asks on whom
offers every foe, each foe, and a few ticked (a side in one tap, a name unticked), then one tap casts it on those;
each takes its own roll in the one step that completes it, and one undo takes the whole cast back. The OSE
example's Mira casts the spells it carries in the bracket form ("Magic Missile (1d6+1 each)")."""
from __future__ import annotations

import os

from helpers import declare, log_text, open_example, physical_dice, select, show, type_dice, undo
from playwright.sync_api import expect

SHOTS = os.environ.get("FRAY_SHOTS")


def shots(page, name: str, testid: str) -> None:
    """`testid` in view at this width and the next (768 by touch, 1920 by mouse), into $FRAY_SHOTS."""
    size = page.viewport_size
    for w, hgt in ((size["width"], size["height"]), (768, 1024) if size["width"] < 500 else (1920, 1080)):
        page.set_viewport_size({"width": w, "height": hgt})
        page.get_by_test_id(testid).scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/{name}-{w}.png")
    page.set_viewport_size(size)


def hp(page, cid: str) -> str:
    show(page, "order")
    return page.get_by_test_id(f"order-{cid}").locator(".hp-num").inner_text()


def complete(page, spell: int, name: str) -> None:
    """The loose example: Mira declares her `spell`-th, the Party acts first, then "Complete <name>"."""
    open_example(page, "ose", "loose")
    physical_dice(page)
    declare(page, "mira", f"spell-{spell}")
    show(page, "field")
    page.get_by_test_id("decl-go").click()
    type_dice(page, {12: [9, 4]})  # the Party acts first
    select(page, "mira")
    show(page, "act")
    page.locator("[data-testid=actions] button.act", has_text=f"Complete {name}").first.click()


def test_ose_magic_missile_on_two_goblins_of_three_ticked_one_step_one_undo__OSE_SPELL_2__CORE_REF_1(app):
    complete(app, 1, "Magic Missile")
    ask = app.get_by_test_id("ask")
    expect(ask.locator("button.choice", has_text="On every foe (3)")).to_be_visible()
    few = ask.get_by_test_id("few")
    few.get_by_test_id("few-side-goblins").click()  # one tap ticks the three goblins
    for g in ("g1", "g2", "g3"):
        expect(app.get_by_test_id(f"few-t-{g}")).to_be_checked()
    app.get_by_test_id("few-t-g2").uncheck()
    if SHOTS:
        shots(app, "spell-few", "ask")
    app.get_by_test_id("few-apply").click()
    type_dice(app, {6: [1, 2]})  # one d6 a goblin ticked: 2 and 3 damage
    assert [hp(app, g) for g in ("g1", "g2", "g3")] == ["2/4", "3/3", "0/3"]
    assert "Magic Missile on Goblin 1, Goblin 3" in log_text(app)
    expect(app.get_by_test_id("ask")).to_have_count(0)
    undo(app)  # the spell and its damage are one step
    expect(app.get_by_test_id("order-g1").locator(".hp-num")).to_have_text("4/4")
    expect(app.get_by_test_id("order-g3").locator(".hp-num")).to_have_text("3/3")


def test_a_spell_cast_on_nobody_ticked_is_said_and_changes_nothing__OSE_SPELL_2(app):
    complete(app, 0, "Sleep")
    app.get_by_test_id("few-apply").click()
    expect(app.get_by_test_id("notice-error")).to_contain_text("Tick whom the spell touches first")
    expect(app.get_by_test_id("ask")).to_be_visible()
    app.get_by_test_id("few-t-g3").check()
    app.get_by_test_id("few-apply").click()
    assert "Sleep on Goblin 3" in log_text(app)
    show(app, "order")
    expect(app.get_by_test_id("order-g3")).to_contain_text("asleep")
    expect(app.get_by_test_id("order-g1")).not_to_contain_text("asleep")
