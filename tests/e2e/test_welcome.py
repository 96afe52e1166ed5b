"""A first visit that shows the way (issue #33), at desktop and phone width.

A browser that has kept nothing opens on the welcome (a dialog, the focus in it, Esc closes it): one tap
chooses the rules, a second starts a blank fight in Setup or opens that system's example, and the library is
one tap; once an encounter is kept, the next visit opens it without the welcome. The help explains the screen
(the order list, the actions and the result card), not only the keys. UI behaviour: no rule ids.

The other journeys start on the demo fight: the harness turns the welcome off (harness.WELCOME_OFF); these
tests turn it on for the page they use (`first_visit`) and off again after.
"""
from __future__ import annotations

import json

import pytest
from helpers import is_phone, stored
from playwright.sync_api import Page, expect

from axe_playwright_python.sync_playwright import Axe

LINES = {
    "olog": "Initiative counts, two actions, pressure, distance bands",
    "ose": "Side initiative, declarations, loose or detailed combat on a square grid",
    "ogre": "A segment count: actions resolve segments after they are declared",
}
SMALL_TARGETS = """(root) => Array.from(document.querySelectorAll(root + ' button, ' + root + ' summary'))
  .map(e => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
  .filter(([, r]) => r.width && r.height && (r.width < 44 || r.height < 44))
  .map(([t, r]) => `${t} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
OVERFLOW = """(root) => { const box = document.querySelector(root + ' .modal-box');
  const r = box.getBoundingClientRect();
  return [box.scrollWidth > box.clientWidth + 1, r.left < 0 || r.right > window.innerWidth + 0.5]; }"""


def serious_axe_problems(page: Page) -> list[str]:
    """axe-core's serious or critical violations in the page as it is (test_a11y.py's bar)."""
    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in found if v["impact"] in ("serious", "critical")]


def encounter(page: Page) -> dict:
    got = stored(page)
    rec = next(r for r in got["entries"] if r["id"] == got["current"])
    return json.loads(rec["doc"])["encounter"]


def unfold(page: Page, testid: str) -> None:
    """An area of the help: a folded section on a phone (tap it open), said at once where there is room."""
    summary = page.get_by_test_id(testid).locator("summary")
    if is_phone(page):
        summary.click()
    else:
        expect(summary).to_have_count(0)


def fits_and_taps(page: Page, root: str) -> None:
    """The dialog fits the screen across, and on a phone every button and section is at least 44 px."""
    assert page.evaluate(OVERFLOW, root) == [False, False]
    if is_phone(page):
        assert page.evaluate(SMALL_TARGETS, root) == []


def test_a_first_visit_shows_the_welcome_with_the_focus_in_it_and_esc_leaves_the_demo(first_visit):
    page = first_visit
    welcome = page.get_by_test_id("welcome")
    expect(welcome).to_be_visible()
    expect(page.get_by_role("dialog", name="Welcome to Fray")).to_be_visible()
    for system, line in LINES.items():
        expect(page.get_by_test_id(f"welcome-system-{system}")).to_contain_text(line)
    expect(page.get_by_test_id("welcome-system-olog")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => !!document.activeElement.closest('[data-testid=welcome]')")
    fits_and_taps(page, "[data-testid=welcome]")
    assert serious_axe_problems(page) == []
    page.keyboard.press("Escape")
    expect(welcome).to_have_count(0)
    expect(page.get_by_test_id("encounter-name")).to_have_text("New encounter")
    assert encounter(page)["system"] == "olog"


def test_ose_then_a_blank_fight_is_an_empty_ose_setup_in_two_taps(first_visit):
    page = first_visit
    page.get_by_test_id("welcome-system-ose").click()  # tap 1
    expect(page.get_by_test_id("welcome-blank")).to_contain_text("Start a blank OSE fight")
    page.get_by_test_id("welcome-blank").click()  # tap 2
    expect(page.get_by_test_id("welcome")).to_have_count(0)
    expect(page.get_by_test_id("toggle-setup")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("editor-start")).to_be_visible()
    expect(page.get_by_test_id("notice-ok")).to_contain_text("A new OSE encounter is open in Setup")
    enc = encounter(page)
    assert (enc["system"], enc["profile"], enc["combatants"]) == ("ose", "detailed", [])
    assert len(stored(page)["entries"]) == 1, "the untouched demo is not kept beside it"


def test_ogre_then_its_example_opens_the_ogre_example_in_two_taps(first_visit):
    page = first_visit
    page.get_by_test_id("welcome-system-ogre").click()
    expect(page.get_by_test_id("welcome-example")).to_contain_text("Open an Ogre example")
    page.get_by_test_id("welcome-example").click()
    expect(page.get_by_test_id("welcome")).to_have_count(0)
    expect(page.get_by_test_id("notice-ok")).to_contain_text("Opened the example “orc and pc”")
    assert encounter(page)["system"] == "ogre"
    expect(page.get_by_test_id("toggle-setup")).to_have_attribute("aria-pressed", "false")


def test_the_library_is_one_tap_from_the_welcome(first_visit):
    page = first_visit
    page.get_by_test_id("welcome-library").click()
    expect(page.get_by_test_id("library")).to_be_visible()
    expect(page.get_by_test_id("welcome")).to_have_count(0)
    expect(page.get_by_test_id("lib-new-ose")).to_be_visible()


def test_a_second_visit_opens_the_encounter_kept_without_the_welcome(first_visit, warm_contexts, device):
    page = first_visit
    page.get_by_test_id("welcome-system-ose").click()
    page.get_by_test_id("welcome-blank").click()
    expect(page.get_by_test_id("toggle-setup")).to_have_attribute("aria-pressed", "true")
    kept = stored(page)["current"]
    warm_contexts.restart(page, device, clear=False)  # as a reload: the library stays
    expect(page.get_by_test_id("app")).to_be_visible()
    expect(page.get_by_test_id("welcome")).to_have_count(0)
    assert stored(page)["current"] == kept and encounter(page)["system"] == "ose"


def test_the_help_explains_the_order_list_the_actions_and_how_to_start(first_visit):
    page = first_visit
    page.get_by_test_id("welcome-close").click()
    expect(page.get_by_test_id("welcome")).to_have_count(0)
    page.get_by_test_id("help").click()
    help_ = page.get_by_test_id("help-dialog")
    expect(page.get_by_role("dialog", name="Help")).to_be_visible()
    expect(help_.get_by_test_id("help-keys")).to_contain_text("Pick the n-th action")  # open at first
    unfold(page, "help-order")
    expect(help_.get_by_test_id("help-order")).to_contain_text("tapping another row makes it the target")
    expect(help_.get_by_test_id("help-order")).to_contain_text("quick HP")
    unfold(page, "help-actions")
    expect(help_.get_by_test_id("help-actions")).to_contain_text("The result card shows the last step")
    page.get_by_test_id("help-start").locator("summary").click()
    expect(help_.get_by_test_id("help-start")).to_contain_text("New OSE encounter")
    fits_and_taps(page, "[data-testid=help-dialog]")
    assert serious_axe_problems(page) == []
    page.get_by_test_id("help-welcome").click()  # the welcome again, from the help
    expect(page.get_by_test_id("welcome")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("welcome")).to_have_count(0)
