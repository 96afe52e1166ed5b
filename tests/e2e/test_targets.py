"""Subject and target are different taps (issue 38), at laptop and phone size: during Brak's turn a tap on
an orc's chip at the top of the actions (or on its row) makes it the target; Brak stays the subject, his
options on it come first, and one more tap attacks it (with its one question, OLOG-PRES-2); the result is
on screen where the referee looks, without scrolling or changing tab."""
from __future__ import annotations

import re

from helpers import is_phone, open_example, option, physical_dice, select, show, type_dice
from playwright.sync_api import expect


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    view = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= view["height"]


def test_a_chip_targets_the_orc_and_one_more_tap_attacks_it__OLOG_ATK_1_OLOG_PRES_2(app):
    open_example(app, "olog", "two_orcs")
    physical_dice(app)
    option(app, "Roll initiative").click()
    type_dice(app, {20: [15]})  # Brak 15 + 2 acts first
    expect(app.get_by_test_id("status")).to_contain_text("Brak's turn")
    show(app, "act")
    taps = 0
    app.get_by_test_id("target-orc2").click()
    taps += 1
    actions = app.get_by_test_id("actions")
    expect(actions).to_contain_text("Actions: Brak")  # the subject stays
    expect(app.get_by_test_id("target")).to_contain_text("Target: Orc 2")
    expect(actions.locator(".group h3").first).to_have_text("On Orc 2")
    expect(app.get_by_test_id("order-orc2")).to_have_class(re.compile(r"\btargeted\b"))
    # Press On (OLOG-PRES-2) is the button beside the attack: the attack and its answer are one tap.
    actions.locator(".group").first.locator("button.alt").first.click()
    taps += 1
    type_dice(app, {4: [1], 20: [15], 8: [5]})
    result = app.get_by_test_id("result-strip" if is_phone(app) else "result")
    expect(result).to_contain_text("Orc 2")
    expect(result).to_contain_text("6 → 1 / 6 HP")
    assert in_view(app, result), "the result is where the referee looks, without scrolling"
    assert taps == 2  # target, attack pressing on: no question, no tab, no scroll
    # Brak cannot attack twice (OLOG-ACT-2): nothing is left to do to Orc 2, so the target is let go (the
    # chips offer the foes left); the row's details control looks at the orc itself.
    expect(app.get_by_test_id("target")).to_have_count(0)
    select(app, "orc2")
    show(app, "act")
    expect(app.get_by_test_id("actions")).to_contain_text("Actions: Orc 2 (not their turn)")


def test_the_referee_tools_stay_open_as_the_referee_taps_one_combatant_after_another(app):
    """The action panel of a new selection is drawn a frame after the tap (issue 38, ui/app.py PanelLater)
    with new elements: a section the referee opened stays open, and a tap on its summary in that frame
    is not lost."""
    open_example(app, "olog", "two_orcs")
    select(app, "orc1")
    show(app, "act")
    ref = app.get_by_test_id("referee")
    ref.locator("> summary").click()
    expect(ref).to_have_attribute("open", "")
    for cid in ("orc2", "brak", "orc1"):
        select(app, cid)
        show(app, "act")
        expect(app.get_by_test_id("actions")).to_contain_text(
            {"orc1": "Orc 1", "orc2": "Orc 2", "brak": "Brak"}[cid])
        expect(app.get_by_test_id("referee")).to_have_attribute("open", "")
        expect(app.get_by_test_id("damage-input")).to_be_visible()
