"""The fight in review (issue #56): a short fight in each system, then the timeline scrubbed back to a down
and forward again (a tap, the keys, a drag or a touch on the slider), back to now in one tap; the summary
with its charts; both recaps downloaded, and the HTML one opened in a fresh page with no network, showing
its charts. Screenshots of the timeline and the summary at 390, 768 and 1280 px go to docs/screenshots/review/."""
from __future__ import annotations

import pathlib

import pytest
from harness import opened_app
from helpers import damage, is_phone, open_example, show
from playwright.sync_api import expect

SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "review"
FIGHTS = {  # system: (example, the foe struck twice and downed, a PC struck once, combatants)
    "olog": ("two_orcs", "orc1", "brak", 3),
    "ose": ("loose", "g1", "brak", 6),
    "ogre": ("orc_and_pc", "orc", "brak", 2),
}


def short_fight(page, system: str) -> int:
    """Open the example and fight a little through the page: the rules' next step where one is offered,
    the foe hurt, then downed, a PC hurt. Returns the step at which the foe went down."""
    example, foe, pc, _ = FIGHTS[system]
    open_example(page, system, example)
    page.keyboard.press("Escape")
    damage(page, foe, 1)
    damage(page, foe, 50)
    damage(page, pc, 1)
    return 2


def open_review(page):
    show(page, "log")
    page.get_by_test_id("open-review").click()
    review = page.get_by_test_id("review")
    expect(review).to_be_visible()
    return review


@pytest.mark.parametrize("system", ["olog", "ose", "ogre"])
def test_a_short_fight_reviewed_step_by_step_then_summed_up_and_exported(app, system, fresh_page, tmp_path):
    down = short_fight(app, system)
    _, foe, pc, count = FIGHTS[system]
    review = open_review(app)
    expect(review).to_have_attribute("data-step", "3")
    # Back to the down: its chip, then its result card says so and the order shows it down then.
    review.get_by_test_id(f"review-fall-{foe}-{down}").click()
    expect(review).to_have_attribute("data-step", str(down))
    expect(review.get_by_test_id("review-result")).to_contain_text("is down")
    # One step back with the keyboard on the slider: the foe was still up then.
    review.get_by_test_id("review-scrub").focus()
    app.keyboard.press("ArrowLeft")
    expect(review).to_have_attribute("data-step", str(down - 1))
    expect(review.get_by_test_id("review-result")).not_to_contain_text("is down")
    # Forward again with the step button, then to the end by the slider (a touch on a phone, a drag here).
    review.get_by_test_id("review-forward").click()
    expect(review).to_have_attribute("data-step", str(down))
    box = review.get_by_test_id("review-scrub").bounding_box()
    if is_phone(app):
        app.touchscreen.tap(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    else:
        app.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        app.mouse.down()
        app.mouse.move(box["x"] + box["width"] - 1, box["y"] + box["height"] / 2, steps=5)
        app.mouse.up()
    expect(review).to_have_attribute("data-step", "3")
    # The live fight was never touched: back to now in one tap, the three steps still there to undo.
    review.get_by_test_id("review-now").click()
    expect(app.get_by_test_id("review")).to_have_count(0)
    expect(app.get_by_test_id("undo")).to_be_enabled()
    # The summary: its bars and one chart per combatant; both files downloaded.
    show(app, "log")
    app.get_by_test_id("open-recap").click()
    recap = app.get_by_test_id("recap")
    expect(recap.locator(".dmg-bars")).to_be_visible()
    expect(recap.locator(".hp-chart")).to_have_count(count)
    expect(recap.get_by_test_id(f"hp-chart-{foe}")).to_contain_text("down at step 2")
    with app.expect_download() as dl:
        recap.get_by_test_id("recap-html").click()
    html = tmp_path / "recap.html"
    dl.value.save_as(html)
    with app.expect_download() as dl:
        recap.get_by_test_id("recap-md").click()
    md = tmp_path / "recap.md"
    dl.value.save_as(md)
    assert md.read_text(encoding="utf-8").startswith("# ") and "| Combatant |" in md.read_text(encoding="utf-8")
    # The HTML recap in a fresh browser with no network: every chart drawn, the figures there.
    other = fresh_page()
    other.context.set_offline(True)
    other.set_content(html.read_text(encoding="utf-8"))  # the file as it is, nothing else reachable
    expect(other.locator("svg.dmg-bars")).to_be_visible()
    expect(other.locator("svg.hp-chart")).to_have_count(count)
    assert other.locator("svg.hp-chart").first.bounding_box()["height"] > 10
    expect(other.locator("table")).to_contain_text("Dealt")
    assert other.evaluate("document.scripts.length") == 0
    recap.get_by_test_id("recap-close").click()
    expect(app.get_by_test_id("recap")).to_have_count(0)


FOUGHT_STEPS = 72  # the seeded skirmish below, played out (an OLOG turn with only "End turn" left ends by itself)
WIDTH_SHOTS = {"phone": [(390, 844)], "desktop": [(1280, 800), (768, 1024)]}


@pytest.fixture
def fought_app(warm_contexts, device, guard, request):
    """The app opened on a share link of a random OLOG skirmish played to its end (5 falls)."""
    from fray import playout
    from fray.engine import storage
    link = storage.encode_link(playout.play("olog", "skirmish", 1))  # "e=...", the address's hash
    yield from opened_app(warm_contexts, device, guard, request, link=link)


def test_screenshots_of_the_timeline_and_the_summary(fought_app, device):
    app = fought_app
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = app.viewport_size
    try:
        for w, hgt in WIDTH_SHOTS[device]:
            app.set_viewport_size({"width": w, "height": hgt})
            show(app, "log")
            buttons = [app.get_by_test_id(t) for t in ("export-log", "open-review", "open-recap")]
            for b in buttons:  # the log's three buttons side by side, none cut off at this width
                box = b.bounding_box()
                assert box is not None and box["x"] + box["width"] <= w, (w, box)
            app.get_by_test_id("open-review").scroll_into_view_if_needed()
            app.screenshot(path=str(SHOTS / f"log-buttons-{w}.png"))
            review = open_review(app)
            expect(review).to_have_attribute("data-step", str(FOUGHT_STEPS))  # it opens on the last step
            review.locator(".falls .chip").first.click()
            expect(review.get_by_test_id("review-result")).to_contain_text("is down")
            app.screenshot(path=str(SHOTS / f"timeline-{w}.png"))
            review.get_by_test_id("review-summary").click()
            expect(app.get_by_test_id("recap").locator(".dmg-bars rect").first).to_be_visible()
            app.screenshot(path=str(SHOTS / f"summary-{w}.png"))
            app.get_by_test_id("recap-close").click()
            expect(app.get_by_test_id("recap")).to_have_count(0)
    finally:
        app.set_viewport_size(size)


@pytest.mark.parametrize("device", ["desktop"])  # the phone has no room for the players' view over its page
def test_the_players_view_shows_the_summary_when_the_fight_ends(fought_app):
    app = fought_app
    app.get_by_test_id("players-view-toggle").click()
    recap = app.get_by_test_id("players-view").get_by_test_id("table-recap")
    expect(recap.locator("svg.dmg-bars")).to_be_visible()
    expect(recap.locator("svg.hp-chart")).to_have_count(6)
    assert "-3/4" not in recap.inner_text()  # a monster's HP stays a word, as on the rest of the display
    recap.scroll_into_view_if_needed()
    app.screenshot(path=str(SHOTS / "table-summary-1280.png"))
    app.get_by_test_id("players-view-close").click()
