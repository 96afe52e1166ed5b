"""What the page says where the referee looks (issue #53), at desktop (1280 px) and phone (390 px, touch)
width: an empty encounter's header pill keeps one line; a 200 × 200 map drawn whole says its squares are
specks and zooms to the tokens in one tap. UI behaviour: no rule ids."""
from __future__ import annotations

from helpers import close_setup, open_example, open_setup, show
from playwright.sync_api import Page, expect


def test_an_empty_encounters_pill_keeps_one_line_in_the_header(app: Page):
    app.get_by_test_id("library-open").click()
    app.get_by_test_id("lib-new-olog").click()  # empty, in Setup
    expect(app.get_by_test_id("editor-start")).to_be_visible()
    pill = app.get_by_test_id("outcome")
    expect(pill).to_have_text("No combatants yet")
    expect(pill).to_have_attribute("title", "No combatants yet: add them in Setup (the fight starts with "
                                            "someone on each of two sides)")
    line = pill.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 20")
    box = pill.bounding_box()
    assert box["height"] < 1.8 * line + 4, (box, line)  # one line, not four
    header = app.locator("header.topbar").bounding_box()
    assert box["x"] + box["width"] <= header["x"] + header["width"] + 0.5, (box, header)
    if app.viewport_size["width"] >= 1024:
        assert header["height"] <= 64, header


def test_a_200_by_200_map_says_its_squares_are_specks_and_zooms_to_the_tokens(app: Page):
    open_example(app, "ose", "detailed")
    open_setup(app)
    for path in ("map/width", "map/height"):
        size = app.locator(f'[data-path="{path}"]')
        size.fill("200")
        size.press("Tab")
    expect(app.locator('[data-path="map/height"]')).to_have_value("200")
    close_setup(app)
    show(app, "field")
    if app.get_by_test_id("grid-zoom").inner_text() != "100%":  # the phone opens on the actor: the whole map
        app.get_by_test_id("grid-zoom").click()
    note = app.get_by_test_id("grid-tiny")
    expect(note).to_contain_text("200 squares across: each is drawn a few pixels wide")
    app.get_by_test_id("grid-tiny-fit").click()
    expect(note).to_have_count(0)
    assert app.get_by_test_id("grid-zoom").inner_text() != "100%"


def test_rule_chips_are_at_least_24_px_targets_on_a_phone(app: Page):
    """WCAG 2.2 2.5.8 (target size): #53 measured 15 to 18 px chips at phone width."""
    open_example(app, "ose", "detailed")  # before initiative: OSE-DECL-1 and OSE-BRACE-1 chips in the panel
    show(app, "field")  # the declarations, on a phone in the Field tab
    chips = app.locator("button.rule:visible")
    expect(chips.first).to_be_visible()
    sizes = chips.evaluate_all("els => els.map(e => { const r = e.getBoundingClientRect(); "
                               "return [e.textContent, Math.round(r.width), Math.round(r.height)]; })")
    assert sizes
    if app.viewport_size["width"] < 760:
        small = [s for s in sizes if s[1] < 24 or s[2] < 24]
        assert small == [], small
