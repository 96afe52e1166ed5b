"""The setup editor in the page (issue #33): a bad value is refused at its own field with the reason beside
it and a link from the summary; "Back to the fight" right after typing one asks before dropping it; zones
count from 1 as the field does; a renamed weapon is what the hands hold. The encounter is the demo (Mira, 12
HP, and two orcs); HP is the referee's to set (CORE-HP-1)."""
from __future__ import annotations

import json
import re

from helpers import close_setup, hp_text, open_setup, saved_doc, show
from playwright.sync_api import Page, expect

HP = '[data-path="combatants/0/hp"]'
DICE = '[data-path="combatants/0/weapons/0/damage"]'


def fits(page: Page) -> None:
    width, vw = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= vw, (width, vw)


def open_mira(page: Page) -> None:
    open_setup(page)
    page.get_by_test_id("cb-0").locator("summary").click()


def test_bad_values_are_refused_at_their_fields_and_leaving_asks_first__CORE_HP_1(app, tmp_path):
    open_mira(app)
    hp = app.locator(HP)
    hp.fill("-5")
    hp.press("Tab")
    why = app.get_by_test_id("why-combatants/0/hp")
    expect(why).to_contain_text("HP must be 0 to 12")
    expect(hp).to_have_attribute("aria-invalid", "true")
    expect(hp).to_have_attribute("aria-describedby", "f-combatants-0-hp-why")
    expect(hp).to_have_value("-5")
    expect(app.get_by_test_id("cb-0")).to_contain_text("12/12 HP")  # the encounter keeps its own
    dice = app.locator(DICE)
    dice.fill("2x6")
    dice.press("Tab")
    expect(app.get_by_test_id("why-combatants/0/weapons/0/damage")).to_contain_text("not dice notation")
    problems = app.get_by_test_id("editor-problems")
    expect(problems).to_contain_text("2 values were not applied")
    problems.get_by_role("link", name="Mira · HP").click()
    expect(hp).to_be_focused()
    expect(app.get_by_test_id("outcome")).to_have_count(0)  # nobody has won: Mira is not down
    fits(app)
    app.screenshot(path=str(tmp_path / "refused.png"), full_page=True)
    # Fixed, then a half-typed value and straight to "Back to the fight": asked, not dropped.
    hp.fill("9")
    hp.press("Tab")
    expect(app.get_by_test_id("why-combatants/0/hp")).to_have_count(0)
    app.locator(HP).fill("99")
    app.get_by_test_id("toggle-setup").click()
    expect(app.get_by_test_id("leave-ask")).to_be_visible()
    expect(app.get_by_test_id("why-combatants/0/hp")).to_contain_text("HP must be 0 to 12")
    app.get_by_test_id("setup-keep").click()
    expect(app.get_by_test_id("leave-ask")).to_have_count(0)
    expect(app.get_by_test_id("editor")).to_be_visible()
    app.get_by_test_id("toggle-setup").click()
    app.get_by_test_id("setup-discard").click()
    expect(app.get_by_test_id("editor")).to_be_hidden()
    assert hp_text(app, "mira") == "9/12"  # the good edit applied, the bad ones not
    app.get_by_test_id("undo").click()
    assert hp_text(app, "mira") == "12/12"


def test_zones_count_from_1_and_a_renamed_weapon_is_what_mira_holds(app):
    open_mira(app)
    zone = app.locator('[data-path="combatants/0/band"]')
    expect(zone).to_have_value("3")  # the demo's zone index 2: "Zone 3" on the field
    expect(app.get_by_test_id("cb-0")).to_contain_text("Zone (1 to 6)")
    zone.fill("1")
    zone.press("Tab")
    name = app.locator('[data-path="combatants/0/weapons/0/name"]')
    name.fill("Moonblade")
    name.press("Tab")
    expect(app.locator('[data-path="combatants/0/hands"]')).to_have_value(re.compile(r"^Moonblade\b"))
    expect(app.locator('[data-path="combatants/0/weapons/0/item"]')).to_have_value("Moonblade")
    close_setup(app)
    mira = json.loads(saved_doc(app))["encounter"]["combatants"][0]
    assert mira["hands"][0] == "Moonblade" and "Longsword" not in json.dumps(mira)
    show(app, "field")
    expect(app.locator("[data-testid=field-slot], #field-slot").first).to_contain_text("Zone 1")
