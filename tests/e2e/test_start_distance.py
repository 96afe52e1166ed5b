"""Fights that do not start 105 feet apart (issue #53 stop 6): a fight built from the welcome asks its
starting distance in Setup (near by default); "close" puts the foes two squares from the party on the field,
and one Undo takes that tap back. DEFAULT distances: OSE's text gives none (tests/unit/test_placement.py)."""
from __future__ import annotations

import os

from helpers import blank_from_welcome, show
from playwright.sync_api import Page, expect

SHOTS = os.environ.get("FRAY_SHOTS")
COLUMNS = """() => Object.fromEntries(Array.from(document.querySelectorAll('[data-testid="grid"] [data-token]'))
  .map(t => [t.dataset.token, Math.round((parseFloat(t.getAttribute('transform').slice(10)) - 5) / 10)]))"""


def columns(page: Page) -> dict[str, int]:
    return {k: int(v[3:].split(",")[0]) for k, v in (
        (t.get_attribute("data-testid"), t.get_attribute("data-spot"))
        for t in page.get_by_test_id("place-map").locator(".pm-tok").all())}


def test_a_fight_from_the_welcome_starts_close_when_setup_says_close(first_visit):
    page = first_visit
    blank_from_welcome(page, "ose")
    pick = page.get_by_test_id("start-distance")
    expect(pick).to_have_value("near")  # what a referee expects: 30 ft
    assert columns(page) == {"place-tok-0": 1, "place-tok-1": 7, "place-tok-2": 7}
    pick.select_option("close")
    expect(page.get_by_test_id("place-tok-1")).to_have_attribute("data-spot", "sq:3,8")
    assert columns(page) == {"place-tok-0": 1, "place-tok-1": 3, "place-tok-2": 3}
    page.get_by_test_id("undo").click()  # one undo takes the one tap back
    expect(page.get_by_test_id("place-tok-1")).to_have_attribute("data-spot", "sq:7,8")
    expect(page.get_by_test_id("start-distance")).to_have_value("near")
    page.get_by_test_id("redo").click()
    expect(page.get_by_test_id("start-distance")).to_have_value("close")
    page.get_by_test_id("toggle-setup").click()
    expect(page.get_by_test_id("editor")).to_be_hidden()
    show(page, "field")
    expect(page.get_by_test_id("grid")).to_be_visible()
    on_field = page.evaluate(COLUMNS)
    assert sorted(on_field.values()) == [1, 3, 3], on_field  # the sides 10 ft apart on the field
    if SHOTS:
        shots(page)


def shots(page: Page) -> None:
    """The field and the Setup's control at this width and the next (768 by touch, 1920 by mouse)."""
    for size in (page.viewport_size, {"width": 768, "height": 1024} if page.viewport_size["width"] < 500
                 else {"width": 1920, "height": 1080}):
        page.set_viewport_size(size)
        show(page, "field")
        page.get_by_test_id("grid").scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/distance-field-{size['width']}.png")
        page.get_by_test_id("toggle-setup").click()
        page.get_by_test_id("start-distance").scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/distance-setup-{size['width']}.png")
        page.get_by_test_id("toggle-setup").click()
