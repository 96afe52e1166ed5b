"""A real party on a first visit (issue #53, stop 4), at desktop (1280, mouse) and on a phone (390, touch).

From the welcome, a blank OSE fight, the quick party's field under "Add the party": three names, one a line,
each with a class after a colon. A wrong line is said at the field with its number and nothing is added;
fixed, one tap adds the three PCs on the players' side (one undo takes them back) and saves them to the
roster as the party; four orcs from the bestiary, and the fight starts. UI behaviour: CORE-SIDE-1 for the
sides standing apart.
"""
from __future__ import annotations

import json
import re

import pytest
from helpers import is_phone, stored
from playwright.sync_api import Page, expect

TYPED = "Mira: fighter\nBrak: cleric\nSela: wizard"


@pytest.fixture
def first_visit(app: Page, warm_contexts, device):
    """The app opened on empty storage with the welcome on, as a referee's first visit has it."""
    app.evaluate("window.frayWelcome = true")
    warm_contexts.restart(app, device)
    yield app
    if not app.is_closed():
        app.evaluate("window.frayWelcome = false")


def tap(page: Page, testid: str) -> None:
    el = page.get_by_test_id(testid)
    if is_phone(page):
        el.scroll_into_view_if_needed()
        el.tap()
    else:
        el.click()


def saved(page: Page) -> dict:
    got = stored(page)
    rec = next(r for r in got["entries"] if r["id"] == got["current"])
    return json.loads(rec["doc"])["encounter"]


def test_a_quick_party_of_three_then_four_orcs_and_the_fight_starts__CORE_SIDE_1(first_visit):
    page = first_visit
    tap(page, "welcome-system-ose")
    tap(page, "welcome-blank")
    expect(page.get_by_test_id("editor-start")).to_be_visible()
    box = page.get_by_test_id("quick-party-text")
    expect(page.get_by_test_id("quick-party")).to_contain_text("fighter, cleric, magic-user, thief")
    box.fill("Mira: fighter\n\nBrak: bard")
    tap(page, "quick-party-add")
    why = page.get_by_test_id("quick-party-why")
    expect(why).to_contain_text("Line 2: empty")
    expect(why).to_contain_text("Line 3: no class “bard” here")
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(box).to_have_value("Mira: fighter\n\nBrak: bard")  # what was typed is kept to be fixed
    assert saved(page)["combatants"] == [] and stored(page)["roster"] == [], "nothing added while a line is wrong"
    box.fill(TYPED)
    tap(page, "quick-party-add")
    expect(page.get_by_test_id("quick-party-report")).to_contain_text(
        "Added the party and saved it in the roster: Mira, Brak, Sela.")
    expect(page.get_by_test_id("place-map").locator(".pm-tok")).to_have_count(3)
    assert sorted(e["name"] for e in stored(page)["roster"]) == ["Brak", "Mira", "Sela"]
    tap(page, "undo")  # one undo takes the three back
    expect(page.get_by_test_id("place-map").locator(".pm-tok")).to_have_count(0)
    tap(page, "redo")
    expect(page.get_by_test_id("place-map").locator(".pm-tok")).to_have_count(3)
    expect(page.get_by_test_id("roster-party")).to_have_text("Add the party (3)")
    count = page.get_by_test_id("roster-count")
    tap(page, "roster-count")
    count.fill("4")
    count.press("Enter")
    tap(page, "roster-add-starter-ose-orc")
    expect(page.get_by_test_id("place-map").locator(".pm-tok")).to_have_count(7)
    tap(page, "toggle-setup")
    expect(page.get_by_test_id("editor")).to_be_hidden()
    if is_phone(page):
        tap(page, "tab-act")
    tap(page, "opt-next")
    expect(page.get_by_test_id("status")).to_have_text(re.compile(r"^Round 1 · "))
    people = saved(page)["combatants"]
    pcs = [c for c in people if c["side"] == "party"]
    assert [(c["name"], c["notes"]) for c in pcs] == [
        ("Mira", "Fighter, from the quick party."), ("Brak", "Cleric, from the quick party."),
        ("Sela", "Magic-user, from the quick party.")]
    assert pcs[2]["stats"]["spells"] == ["Magic Missile (1d6+1 each)", "Sleep (asleep for 10 min)"]
    orcs = [c for c in people if c["side"] != "party"]
    assert len(orcs) == 4
    assert not any(max(abs(p["square"][0] - o["square"][0]), abs(p["square"][1] - o["square"][1])) <= 1
                   for p in pcs for o in orcs)
