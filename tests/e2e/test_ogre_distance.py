"""Ogre's starting distance comes from the Spot result (issue #53 stop 6, OGRE-SUR-1): an Ogre fight built from
the welcome says so at Setup's close/near/far (which only places the sides until then), and once Before the fight
is confirmed the grid shows the groups at that distance; one undo puts them back where Setup had them."""
from __future__ import annotations

import os

from helpers import blank_from_welcome, show
from playwright.sync_api import expect
from test_spell_targets import shots

SHOTS = os.environ.get("FRAY_SHOTS")

COLUMNS = """() => Object.fromEntries(Array.from(document.querySelectorAll('[data-testid="grid"] [data-token]'))
  .map(t => [t.dataset.token, Math.round((parseFloat(t.getAttribute('transform').slice(10)) - 5) / 10)]))"""


def gap(page, pc: str) -> int:
    """Squares between the PC and the nearest orc on the field's grid."""
    cols = page.evaluate(COLUMNS)
    return min(abs(cols[pc] - x) for k, x in cols.items() if k != pc)


def test_an_ogre_fight_starts_at_the_spot_distance_seen_on_the_grid__OGRE_SUR_1(first_visit):
    page = first_visit
    blank_from_welcome(page, "ogre")
    own = page.get_by_test_id("start-distance-own")
    expect(own).to_contain_text("the fight starts at the Spot result's distance, set in Before the fight")
    expect(own).to_contain_text("until then the sides stand this far apart")
    page.get_by_test_id("start-distance").select_option("far")
    if SHOTS:
        shots(page, "ogre-distance-setup", "start-distance-own")
    expect(page.get_by_test_id("place-tok-1")).not_to_have_attribute("data-spot", "sq:7,8")
    page.get_by_test_id("toggle-setup").click()
    expect(page.get_by_test_id("editor")).to_be_hidden()
    show(page, "field")
    expect(page.get_by_test_id("before")).to_be_visible()
    pc = next(k for k in page.evaluate(COLUMNS) if not k.startswith("orc"))
    assert gap(page, pc) == 12, "Setup's far: 60 ft until Before the fight"
    spots = page.get_by_test_id("before").locator("input[data-testid^=spot-]")
    expect(spots).to_have_count(2)  # the party's and the foes' best Spot results
    spots.nth(0).fill("15")
    spots.nth(1).fill("12")
    page.get_by_test_id("before-suggest").click()
    page.get_by_test_id("before-distance").fill("20")
    page.get_by_test_id("before-confirm").click()
    expect(page.get_by_test_id("before-confirmed")).to_contain_text("start 20 ft apart (4 squares)")
    show(page, "field")
    expect(page.get_by_test_id("grid")).to_be_visible()
    assert gap(page, pc) == 4, "the groups 20 ft apart on the grid, as Before the fight says"
    if SHOTS:
        shots(page, "ogre-distance-grid", "grid")
    page.get_by_test_id("undo").click()
    show(page, "field")
    expect(page.get_by_test_id("before-confirmed")).to_have_count(0)
    assert gap(page, pc) == 12
