"""Odds on every option (CORE-ODDS-1): after a tap has painted, each action button of the selected combatant
gets its compact figure, and its tooltip the whole distribution, in every system at every width."""
from __future__ import annotations

import os
import re

import pytest
from helpers import open_example, option, show
from playwright.sync_api import expect

SHOTS = os.environ.get("FRAY_ODDS_SHOTS", "")  # a folder: screenshots of the action panel with odds


def odds_ready(page):
    show(page, "act")
    expect(page.locator("#actions-slot")).to_have_attribute("data-odds", "ready", timeout=15000)


def start(page, system: str) -> None:
    if system == "ogre":
        show(page, "field")
        page.get_by_test_id("before-roll").click()
    else:
        option(page, "Roll initiative").click()


@pytest.mark.parametrize("system,example,attack", [("olog", "two_orcs", "Attack Orc 1"),
                                                   ("ose", "loose", "→"),
                                                   ("ogre", "orc_and_pc", "Attack")])
def test_odds_appear_on_the_options_after_the_tap__CORE_ODDS_1(app, system, example, attack):
    open_example(app, system, example)
    show(app, "act")
    odds_ready(app)
    start(app, system)
    odds_ready(app)
    figures = app.locator("[data-testid=actions] button.act:not(.refused) span.odds")
    assert figures.count() >= 1
    texts = [t for t in figures.all_inner_texts() if t.strip()]
    # a figure, or (Ogre) why none can be given yet: a declaration whose path first asks an opponent
    assert texts and all(re.search(r"%|certain|avg|\d|^asks first: ", t) for t in texts), texts
    hit = app.locator("[data-testid=actions] button.act:not(.refused)", has_text=attack).first
    if hit.count():
        figure = hit.locator("span.odds")
        expect(figure).to_contain_text("%")
        tip = figure.get_attribute("title") or ""
        assert ("exact (" in tip or "≈" in tip) and "%" in tip, tip
        hit.dispatch_event("contextmenu")  # a long press: the whole distribution, as text bars
        pop = app.get_by_test_id("odds-pop")
        expect(pop).to_be_visible()
        expect(pop).to_contain_text("%")
        expect(pop).to_contain_text("█")
        if SHOTS:
            app.screenshot(path=os.path.join(SHOTS, f"odds-pop-{system}-{app.viewport_size['width']}.png"))
        app.mouse.click(2, 2)
        expect(pop).to_be_hidden()
    if SHOTS:
        app.locator("[data-testid=actions]").screenshot(
            path=os.path.join(SHOTS, f"odds-{system}-{app.viewport_size['width']}.png"))
