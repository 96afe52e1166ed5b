"""Subject and target are different taps (issue 38), at laptop and phone size: during Brak's turn a tap on
an orc's chip at the top of the actions (or on its row) makes it the target; Brak stays the subject, his
options on it come first, and one more tap attacks it (with its one question, OLOG-PRES-2); the result is
on screen where the referee looks, without scrolling or changing tab."""
from __future__ import annotations

import re

import pytest
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


# --- issue #53, stop 5: a foe tapped is a target everywhere, its attack in view and one tap away ------------

IN_SIGHT = """(el) => {
  const shown = e => e && e.getClientRects().length > 0;
  const sticky = e => ["sticky", "fixed"].includes(getComputedStyle(e).position);
  const bar = document.querySelector("#header-slot .topbar");
  const top = shown(bar) && sticky(bar) ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  const r = el.getBoundingClientRect();
  let bottom = window.innerHeight;
  for (const e of document.querySelectorAll("#tabs-slot, #result-strip, #actions-slot .turn-end")) {
    if (!shown(e) || !sticky(e)) continue;
    const b = e.getBoundingClientRect();
    const at = e.matches(".turn-end") ? window.innerHeight - b.height : b.top;  // held at the foot
    if (at > window.innerHeight / 2 && at < bottom) bottom = at;
  }
  return {top: r.top, bottom: r.bottom, above: top, below: bottom,
          seen: r.height > 0 && r.top >= top - 1 && r.bottom <= bottom + 1};
}"""


def tap(page, locator) -> None:
    """A finger on a phone (touch events), the mouse at desktop."""
    if is_phone(page):
        locator.tap()
    else:
        locator.click()


def attack_in_sight(page, foe: str):
    """The first option on the targeted foe: shown, not under the header, the result strip or the tabs."""
    group = page.locator(f'[data-testid=actions] .group[aria-label="On {foe}"]')
    first = group.locator("button.act").first
    expect(first).to_be_visible()
    page.wait_for_timeout(100)  # (the scroll runs in the frame after the drawing)
    where = first.evaluate(IN_SIGHT)
    assert where["seen"], f"the attack on {foe} is out of sight: {where}"
    return group


def brak_acts(page, example: str) -> None:
    open_example(page, "olog", example)
    physical_dice(page)
    option(page, "Roll initiative").click()
    type_dice(page, {20: [15]})  # Brak 15 + 2 acts first
    expect(page.get_by_test_id("status")).to_contain_text("Brak's turn")


def test_a_zone_token_tapped_targets_the_foe_with_its_attack_one_tap_away__OLOG_BAND_1_OLOG_ATK_1(app):
    """The bands' token of a foe is a target as its row or a grid token is: Brak stays the subject, Orc 2
    is the target, and the attack on it is on screen (a phone leaves the Field tab for the actions), so
    the next tap attacks it, pressing on (OLOG-PRES-2)."""
    brak_acts(app, "two_orcs")
    show(app, "field")
    tap(app, app.get_by_test_id("token-orc2"))
    if is_phone(app):
        expect(app.get_by_test_id("tab-act")).to_have_attribute("aria-pressed", "true")
    expect(app.get_by_test_id("actions")).to_contain_text("Actions: Brak")
    expect(app.get_by_test_id("target")).to_contain_text("Target: Orc 2")
    expect(app.get_by_test_id("order-orc2")).to_have_class(re.compile(r"\btargeted\b"))
    group = attack_in_sight(app, "Orc 2")
    tap(app, group.locator("button.alt").first)  # Press on, beside the attack: one tap
    type_dice(app, {4: [1], 20: [15], 8: [5]})
    result = app.get_by_test_id("result-strip" if is_phone(app) else "result")
    expect(result).to_contain_text("6 → 1 / 6 HP")
    assert in_view(app, result)


@pytest.fixture
def on_a_tablet(warm_contexts, guard, request):
    """768×1024 by touch: the field above the actions, the turn's end held at the screen's foot."""
    from harness import opened_app
    from test_layout import layout_device
    yield from opened_app(warm_contexts, layout_device("tablet"), guard, request)


def test_a_zone_token_tapped_on_a_tablet_brings_the_attack_up_from_below_the_field__OLOG_ATK_1(on_a_tablet):
    """On a portrait tablet the actions are under the field: a finger on Human 6's token (the field at its
    top) targets it, and the attack on it is brought up into sight, above the turn's end held at the foot."""
    page = on_a_tablet
    brak_acts(page, "eight_humans")
    page.evaluate("window.scrollTo(0, 0)")
    page.get_by_test_id("token-human6").tap()
    expect(page.get_by_test_id("target")).to_contain_text("Target: Human 6")
    group = attack_in_sight(page, "Human 6")
    expect(group.locator("button.act").first).to_contain_text("Attack Human 6")


def test_a_row_far_down_the_order_opens_the_actions_with_the_attack_in_sight__OLOG_ATK_1(app):
    """Eight humans in the order: the last one's row is far down the list (the page scrolled to it). A
    tap on it targets it, and the actions open with the attack on it in sight, not scrolled past (on a
    phone the four tabs share the page's scroll: the Act tab opened 375 px down, its options cut off)."""
    brak_acts(app, "eight_humans")
    show(app, "order")
    row = app.get_by_test_id("order-human8").locator("button.pick")
    row.scroll_into_view_if_needed()
    app.evaluate("window.scrollBy(0, 400)")  # the referee read on down the list
    row.scroll_into_view_if_needed()
    tap(app, row)
    expect(app.get_by_test_id("target")).to_contain_text("Target: Human 8")
    if is_phone(app):
        expect(app.get_by_test_id("tab-act")).to_have_attribute("aria-pressed", "true")
    attack_in_sight(app, "Human 8")


def test_a_tab_opens_at_its_top_on_a_phone(app):
    """The Act tab opened from the bottom bar, the Order tab read far down: the actions start at the top."""
    if not is_phone(app):
        pytest.skip("the tabs are a phone's")
    brak_acts(app, "eight_humans")
    show(app, "order")
    app.get_by_test_id("order-human8").scroll_into_view_if_needed()
    assert app.evaluate("window.scrollY") > 0
    app.get_by_test_id("tab-act").tap()
    app.wait_for_timeout(100)
    expect(app.get_by_test_id("actions")).to_contain_text("Actions: Brak")
    assert app.evaluate("window.scrollY") == 0
