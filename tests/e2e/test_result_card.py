"""The last step's result where the referee looks: beside the actions on a laptop, in a strip above the
bottom tabs on a phone, whatever tab is shown; every die with its faces, hit or miss, damage, the HP after
and who went down, with the rule ids; it stays until the next step, and an undo shows the step before."""
from __future__ import annotations

import pytest
from helpers import is_phone, open_example, option, other_answer, physical_dice, show, type_dice, undo
from playwright.sync_api import expect


def shown_result(page):
    """The result as the referee sees it at this size: the card in the actions column, or the phone's strip."""
    return page.get_by_test_id("result-strip" if is_phone(page) else "result")


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    view = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= view["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= view["width"] + 1


def test_an_attack_shows_its_dice_hit_damage_and_hp_where_the_referee_looks__OLOG_ATK_1_OLOG_PRES_2(app):
    open_example(app, "olog", "two_orcs")
    physical_dice(app)
    expect(shown_result(app)).to_have_count(0)  # nothing has happened yet
    option(app, "Roll initiative").click()
    type_dice(app, {20: [15]})
    card = shown_result(app)
    expect(card).to_contain_text("initiative")
    other_answer(app, "Attack Orc 1").click()  # press on (OLOG-PRES-2)
    type_dice(app, {4: [1], 20: [15], 8: [5]})
    card = shown_result(app)
    expect(card).to_contain_text("Orc 1")
    expect(card).to_contain_text("[15]")  # the d20's face
    expect(card).to_contain_text("6 → 1 / 6 HP")  # the orc's hit points, before and after
    expect(card).to_contain_text("12 → 10 / 12 HP")  # Brak paid the pressure
    expect(card.locator(".rule").first).to_be_visible()  # the rule ids, as chips
    for tab in ("field", "order", "act", "log"):  # in every tab of the phone, and on the laptop as it is
        show(app, tab)
        assert in_view(app, card), f"the result is off screen in the {tab} view"
    undo(app)
    expect(shown_result(app)).to_contain_text("initiative")  # the step before is the last now


def test_a_combatant_taken_down_is_announced__OLOG_ATK_1(app):
    open_example(app, "olog", "two_orcs")
    physical_dice(app)
    option(app, "Roll initiative").click()
    type_dice(app, {20: [15]})
    other_answer(app, "Attack Orc 1").click()  # press on
    type_dice(app, {4: [1], 20: [20], 8: [8]})
    card = shown_result(app)
    expect(card.get_by_test_id(("result-strip" if is_phone(app) else "result") + "-down")).to_contain_text(
        "Orc 1 is down")
    assert in_view(app, card)


@pytest.mark.parametrize("device", ["desktop"])
def test_a_long_step_leaves_the_actions_on_the_laptop_screen__OLOG_INIT_1_OLOG_INIT_4(app):
    """Initiative for six (each roll a line, with its dice and rule) was a card as tall as the screen's
    upper half, and the actor's options and "End turn" sat below the fold at 1280x800: the events now scroll
    in their own box beside the actions, and the hit points and who went down stay outside it."""
    open_example(app, "olog", "skirmish")
    option(app, "Roll initiative").click()
    card = shown_result(app)
    expect(card).to_contain_text("Round 1 begins")
    events = card.locator(".res-lines")
    assert events.evaluate("e => e.scrollHeight > e.clientHeight + 4"), "six initiative lines fit without a box?"
    for testid in ("opt-0", "opt-1", "opt-next"):  # wholly on the screen (the actions may draw a frame later)
        expect(app.get_by_test_id(testid)).to_be_in_viewport(ratio=1)
    # The box scrolls by keyboard too: it takes the focus, and End brings its last line into view (Chromium
    # animates a keyboard scroll: waited for, not read at once).
    events.focus()
    app.keyboard.press("End")
    app.wait_for_function("e => e.scrollTop > 0 && e.scrollTop + e.clientHeight >= e.scrollHeight - 2",
                          arg=events.element_handle(), timeout=5000)
    expect(events.locator("li").last).to_contain_text("turn")
