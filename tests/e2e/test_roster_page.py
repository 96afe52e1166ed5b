"""The roster in the setup editor: save a combatant, add numbered copies to a new encounter, the party,
search and filter, at desktop and phone width. Copies are ordinary combatants with their own HP
(CORE-HP-1) on their own side (CORE-SIDE-1)."""
from __future__ import annotations

from harness import wait_ready
from helpers import close_setup, open_setup, show, stored
from playwright.sync_api import Page, expect


def fits(page: Page) -> None:
    width, vw = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= vw, (width, vw)


def order_names(page: Page) -> list[str]:
    show(page, "order")
    return [t.strip() for t in page.locator("[data-testid=order] .order-row .name").all_inner_texts()]


def test_save_a_combatant_add_four_numbered_copies_to_a_new_encounter_and_reload__CORE_HP_1_CORE_SIDE_1(
        app, tmp_path):
    open_setup(app)
    app.get_by_test_id("add-to-side").select_option("orcs")
    app.get_by_test_id("add-Goblin").click()
    goblin = app.locator("[data-testid^=cb-]").filter(has=app.locator("summary")).last
    goblin.locator("summary").click()
    goblin.locator("[data-testid^=roster-save-]").click()
    expect(app.get_by_test_id("roster-report")).to_contain_text("Saved “Goblin” in the roster")
    app.get_by_test_id("cb-0").locator("summary").click()
    app.get_by_test_id("roster-save-0").click()  # Mira, a PC: the party
    expect(app.get_by_test_id("roster-report")).to_contain_text("(in the party)")
    entries = {e["name"]: e for e in stored(app)["roster"]}
    assert set(entries) == {"Goblin", "Mira"} and entries["Mira"]["pc"] and entries["Mira"]["cid"] == "mira"
    close_setup(app)
    # A new encounter from the library; then the goblin four times, numbered, and the party.
    app.get_by_test_id("library-open").click()
    app.get_by_test_id("lib-new-olog").click()  # empty, and open in Setup
    expect(app.get_by_test_id("editor")).to_be_visible()
    expect(app.get_by_test_id("start-party")).to_have_text("Add the party (1)")
    expect(app.get_by_test_id("roster-party")).to_have_text("Add the party (1)")
    search = app.get_by_test_id("roster-search")
    search.fill("gob")
    search.press("Enter")
    gid = entries["Goblin"]["id"]
    expect(app.get_by_test_id(f"roster-{gid}")).to_be_visible()
    expect(app.get_by_test_id("roster-list")).not_to_contain_text("Wolf")
    count = app.get_by_test_id("roster-count")
    count.fill("4")
    count.press("Enter")
    expect(app.get_by_test_id("roster-count")).to_have_value("4")
    app.get_by_test_id(f"roster-add-{gid}").click()
    expect(app.get_by_test_id("roster-report")).to_contain_text("Added 4 × Goblin")
    app.get_by_test_id("roster-party").click()
    expect(app.get_by_test_id("roster-report")).to_contain_text("Added the party: Mira")
    fits(app)
    app.screenshot(path=str(tmp_path / "roster.png"), full_page=True)
    close_setup(app)
    names = order_names(app)
    assert [n for n in names if n.startswith("Goblin")] == ["Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4"]
    app.reload()
    wait_ready(app)
    names = order_names(app)
    assert [n for n in names if n.startswith("Goblin")] == ["Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4"]
    expect(app.get_by_test_id("order-mira")).to_be_visible()
    show(app, "order")
    expect(app.get_by_test_id("order-goblin-4").locator(".hp-num")).to_have_text("4/4")


def test_the_picker_filters_by_system_and_offers_the_starter_bestiary(app):
    open_setup(app)
    picker = app.get_by_test_id("roster")
    expect(picker.get_by_test_id("roster-starter-olog-wolf")).to_be_visible()  # the encounter's system first
    expect(picker.get_by_test_id("roster-starter-ose-wolf")).to_have_count(0)
    app.get_by_test_id("roster-system").select_option("ose")
    expect(picker.get_by_test_id("roster-starter-ose-wolf")).to_be_visible()
    expect(picker.get_by_test_id("roster-starter-olog-wolf")).to_have_count(0)
    search = app.get_by_test_id("roster-search")
    search.fill("undead")  # a tag, not a name (#33)
    search.press("Enter")
    expect(picker.get_by_test_id("roster-starter-ose-skeleton")).to_contain_text("undead")
    expect(picker.get_by_test_id("roster-starter-ose-ghoul")).to_be_visible()
    expect(picker.get_by_test_id("roster-starter-ose-wolf")).to_have_count(0)
    search.fill("")
    search.press("Enter")
    expect(picker.get_by_test_id("roster-starter-ose-wolf")).to_be_visible()
    app.get_by_test_id("roster-system").select_option("")
    expect(picker.get_by_test_id("roster-starter-ogre-boar")).to_be_visible()
    fits(app)
