"""Placement that needs no typing (issue #33): the setup's placement map, at desktop (mouse) and on a phone
(touch). A token dragged to a square or zone lands there (an edit of the setup, undone by Undo); a square
someone holds refuses the drop and says why; tap-tap and the keyboard (Enter, arrows, Enter; Escape puts it
back) do the same, announced in the map's live region; zones count from 1 as the field shows them."""
from __future__ import annotations

import os
import pathlib

import pytest
from harness import opened_app
from helpers import drag, is_phone, open_setup
from playwright.sync_api import Page, expect

SHOTS = os.environ.get("FRAY_SHOTS")


def fits(page: Page) -> None:
    width, vw = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= vw, (width, vw)


def new_ose_with_two_orcs(page: Page) -> None:
    page.get_by_test_id("library-open").click()
    page.get_by_test_id("lib-new-ose").click()
    expect(page.get_by_test_id("place-map")).to_be_visible()
    page.get_by_test_id("add-Orc").click()
    page.get_by_test_id("add-Orc").click()
    expect(page.get_by_test_id("place-tok-1")).to_be_visible()


def spot(page: Page, i: int) -> str:
    return page.get_by_test_id(f"place-tok-{i}").get_attribute("data-spot")


def test_a_token_dragged_to_a_free_square_lands_there_and_undo_takes_it_back(app):
    new_ose_with_two_orcs(app)
    start = spot(app, 0)  # near the party by default (issue #53 stop 6): (7, y)
    x, y = (int(v) for v in start[3:].split(","))
    drag(app, app.get_by_test_id("place-tok-0"), app.get_by_test_id(f"place-sq-{x - 2}-{y - 2}"))
    say = app.get_by_test_id("place-say")
    expect(say).to_have_text(f"Orc placed on square {x - 2},{y - 2}.")
    expect(app.locator('[data-path="combatants/0/square"]')).to_have_value(f"{x - 2},{y - 2}")
    assert spot(app, 0) == f"sq:{x - 2},{y - 2}"
    # Onto Orc 2's square: refused, with why; nothing moves.
    other = spot(app, 1)
    drag(app, app.get_by_test_id("place-tok-0"), app.get_by_test_id("place-tok-1"))
    expect(say).to_contain_text(f"Orc 2 stands on square {other[3:]}: Orc stays where it was.")
    assert spot(app, 0) == f"sq:{x - 2},{y - 2}"
    fits(app)
    app.get_by_test_id("undo").click()
    expect(app.get_by_test_id("place-tok-0")).to_have_attribute("data-spot", start)


def test_tap_a_token_then_a_square_and_escape_puts_one_back(app):
    new_ose_with_two_orcs(app)
    tok = app.get_by_test_id("place-tok-0")
    start = spot(app, 0)
    x, y = (int(v) for v in start[3:].split(","))
    tok.click()
    say = app.get_by_test_id("place-say")
    expect(say).to_contain_text("Orc picked up: tap a square")
    expect(tok).to_have_attribute("aria-pressed", "true")
    app.keyboard.press("Escape")
    expect(say).to_have_text("Orc put back where it was.")
    expect(tok).to_have_attribute("aria-pressed", "false")
    tok.click()
    app.get_by_test_id(f"place-sq-{x}-{y - 3}").click()
    expect(say).to_have_text(f"Orc placed on square {x},{y - 3}.")
    assert spot(app, 0) == f"sq:{x},{y - 3}"


def test_the_keyboard_picks_up_moves_with_arrows_and_puts_down(app):
    if is_phone(app):
        return  # the keyboard's journey: desktop only
    new_ose_with_two_orcs(app)
    start = spot(app, 0)
    x, y = (int(v) for v in start[3:].split(","))
    app.get_by_test_id("place-tok-0").focus()
    app.keyboard.press("Enter")
    expect(app.get_by_test_id("place-say")).to_contain_text("picked up")
    app.keyboard.press("ArrowLeft")
    expect(app.get_by_test_id(f"place-sq-{x - 1}-{y}")).to_be_focused()
    app.keyboard.press("ArrowLeft")
    app.keyboard.press("ArrowUp")
    expect(app.get_by_test_id(f"place-sq-{x - 2}-{y - 1}")).to_be_focused()
    app.keyboard.press("Enter")
    expect(app.get_by_test_id("place-say")).to_have_text(f"Orc placed on square {x - 2},{y - 1}.")
    expect(app.get_by_test_id("place-tok-0")).to_be_focused()


def test_on_olog_zones_a_token_goes_to_a_zone_counted_from_1(app):
    open_setup(app)  # the demo: Mira in zone 3
    mira = app.get_by_test_id("place-tok-0")
    expect(mira).to_have_attribute("data-spot", "zone:3")
    drag(app, mira, app.get_by_test_id("place-zone-btn-2"))
    expect(app.get_by_test_id("place-say")).to_have_text("Mira placed on zone 2.")
    app.get_by_test_id("cb-0").locator("summary").click()
    expect(app.locator('[data-path="combatants/0/band"]')).to_have_value("2")
    app.get_by_test_id("place-tok-0").click()
    app.get_by_test_id("place-zone-btn-1").click()
    expect(app.get_by_test_id("place-say")).to_have_text("Mira placed on zone 1.")
    expect(app.locator('[data-path="combatants/0/band"]')).to_have_value("1")
    fits(app)


# --- the map at four widths (tests/e2e/test_layout.py's sizes; FRAY_SHOTS=DIR keeps a screenshot of each) ---

SHOT_SYSTEMS = {"ose": "detailed", "olog": "skirmish"}


@pytest.fixture
def in_setup(warm_contexts, guard, request, system, size):
    """The system's example opened by its share link at this width, in Setup."""
    from test_layout import fresh_link, layout_device

    yield from opened_app(warm_contexts, layout_device(size), guard, request,
                          link=fresh_link(system, SHOT_SYSTEMS[system]))


@pytest.mark.parametrize("size", ["phone", "tablet", "laptop", "desktop"])
@pytest.mark.parametrize("system", list(SHOT_SYSTEMS))
def test_the_map_holds_at_every_width_with_tokens_a_finger_can_take(in_setup, system, size):
    from test_layout import SIZES, problems

    page = in_setup
    open_setup(page)
    pm = page.get_by_test_id("place-map")
    pm.scroll_into_view_if_needed()
    expect(pm.locator(".pm-tok").first).to_be_visible()
    touch = size in ("phone", "tablet")
    sizes = page.evaluate("() => [...document.querySelectorAll('.pm-tok, .pm-sq, .pm-zone-head')]"
                          ".map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })")
    least = min(min(w, h) for w, h in sizes)
    assert least >= (44 if touch else 24), least
    box = pm.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["viewport"]["width"], box
    scroll = pm.locator(".pm-scroll").bounding_box()
    assert scroll["x"] + scroll["width"] <= box["x"] + box["width"] + 1, (scroll, box)
    found = [p for p in problems(page, size) if "pm-" in p or "place" in p or "sideways" in p or "wider" in p]
    assert not found, found
    if SHOTS:
        pathlib.Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(pathlib.Path(SHOTS) / f"place-{system}-{size}.png"), scale="css")
