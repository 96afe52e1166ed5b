"""Issue 53's benchmarks on the page: "Move toward <foe>" in view with no scroll on a fight's first view (OSE
detailed and Ogre, 390 px by touch and 1280 by mouse), and no token cut at the edge of the phone's zoomed grid."""
from __future__ import annotations

from dataclasses import replace

import pytest
from harness import opened_app
from helpers import is_phone, show
from playwright.sync_api import expect

from fray.engine import storage
from fray.engine.model import MapSpec
from fray.engine.session import Session
from fray.rules import get
from fray.rules.ogre.examples import three_vs_three
from fray.rules.ose.examples import detailed

OSE = get("ose")

# Is the element on screen where a finger or the mouse would find it: inside the viewport, and on top there (not
# under the result strip or the tab bar)?
ON_SCREEN = """(el) => {
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.bottom <= 0 || r.top >= innerHeight) return false;
  const x = r.x + r.width / 2, y = r.y + Math.min(r.height, 40) / 2;
  if (y >= innerHeight) return false;
  const t = document.elementFromPoint(x, y);
  return !!t && (t === el || el.contains(t));
}"""

# Tokens the grid's box cuts: part of the token's square inside it, part outside.
CUT = """() => {
  const s = document.querySelector('#grid-svg').getBoundingClientRect();
  return [...document.querySelectorAll('#grid-svg [data-token]')].filter(t => {
    const r = (t.querySelector('.hit') || t).getBoundingClientRect();
    const inside = r.x >= s.x - 0.5 && r.right <= s.right + 0.5 && r.y >= s.y - 0.5 && r.bottom <= s.bottom + 0.5;
    const outside = r.right <= s.x + 0.5 || r.x >= s.right - 0.5 || r.bottom <= s.y + 0.5 || r.y >= s.bottom - 0.5;
    return !inside && !outside; }).map(t => t.dataset.token);
}"""


def ose_started(enc=None) -> Session:
    """An OSE fight after initiative: the Party's MOVE step."""
    s = Session(enc or detailed(), OSE)
    s.act(next(o for o in OSE.options(s.state, s.state.combatants[0].id) if o.key == "next").command)
    return s


def welcome_like():
    """The fight a new user builds from the welcome: a 24 x 16 map, the party in column 1, the orcs 30 ft away
    in column 7 (the phone's first view, 7.8 squares wide from the map's edge, cut the four orcs)."""
    e = detailed()
    at = {"brak": (1, 7), "mira": (1, 8), "hal": (1, 9), "o1": (7, 8), "o2": (7, 7), "o3": (7, 9)}
    return replace(e, map=MapSpec(24, 16), combatants=tuple(replace(c, square=at[c.id]) for c in e.combatants))


def _open(warm_contexts, device, guard, request, session):
    return opened_app(warm_contexts, device, guard, request, link=storage.encode_link(session))


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_move_toward_is_on_screen_with_no_scroll_on_an_ose_fights_first_view__OSE_MOVE_1(
        warm_contexts, guard, request, device):
    opened = _open(warm_contexts, device, guard, request, ose_started())
    page = next(opened)
    try:
        show(page, "act")
        button = page.get_by_test_id("opt-toward")
        expect(button).to_contain_text("Move toward Orc spearman")
        page.wait_for_timeout(200)
        assert page.evaluate("() => scrollY") == 0 or is_phone(page)
        assert button.evaluate(ON_SCREEN), "the long move is on the first screen of the actions, not below it"
    finally:
        next(opened, None)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_move_toward_is_on_screen_with_no_scroll_when_an_ogre_fight_begins__OGRE_MOVE_1(
        warm_contexts, guard, request, device):
    opened = _open(warm_contexts, device, guard, request, Session(three_vs_three()))
    page = next(opened)
    try:
        roll = page.get_by_test_id("before-roll")
        if roll.count() and roll.is_visible():
            roll.click()
        else:
            show(page, "act")
            page.get_by_test_id("opt-next").click()
        expect(page.get_by_test_id("status")).to_contain_text("declare")
        show(page, "act")
        page.evaluate("() => window.scrollTo(0, 0)") if not is_phone(page) else None
        button = page.get_by_test_id("opt-toward")
        expect(button).to_contain_text("Move toward")
        page.wait_for_timeout(200)
        assert button.evaluate(ON_SCREEN), "the long move is on the first screen of the actions, not below it"
    finally:
        next(opened, None)


@pytest.mark.parametrize("which", ["detailed", "welcome"])
def test_no_token_is_cut_at_the_edge_of_the_phones_grid(warm_contexts, guard, request, which):
    enc = detailed() if which == "detailed" else welcome_like()
    for session in (Session(enc, OSE), ose_started(enc)):  # before initiative, and the Party's MOVE step
        opened = opened_app(warm_contexts, "phone", guard, request, link=storage.encode_link(session))
        page = next(opened)
        try:
            show(page, "field")
            expect(page.get_by_test_id("grid-svg")).to_be_visible()
            page.get_by_test_id("grid-svg").scroll_into_view_if_needed()
            page.wait_for_timeout(200)
            assert float(page.get_by_test_id("grid-svg").get_attribute("viewBox").split()[2]) < enc.map.width * 10, "zoomed in"
            assert page.evaluate(CUT) == [], "a token at the view's edge shows whole or not at all"
        finally:
            next(opened, None)
