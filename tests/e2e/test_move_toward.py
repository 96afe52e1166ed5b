"""Long moves on the phone grid (issue #53, stop 7), by touch at 390x844: the grid opens on the actor and its
nearest foe, "Move toward <foe> (as far as allowed)" walks the actor there in one tap, one undo takes it back."""
from __future__ import annotations

import os
import pathlib

import pytest
from harness import opened_app
from helpers import show
from playwright.sync_api import expect

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import get
from fray.rules.ose.examples import detailed

OSE = get("ose")
SHOTS = os.environ.get("FRAY_SHOTS", "")  # a folder: the journey's screenshots at 390, 768, 1280 and 1920 px


def party_moves() -> Session:
    """The OSE detailed example after initiative: the Party's MOVE step, Brak at (4, 5), the Orc spearman,
    his nearest foe, at (11, 5): seven squares apart, more than a phone's first view used to show."""
    s = Session(detailed(), OSE)
    s.act(next(o for o in OSE.options(s.state, "brak") if o.key == "next").command)
    assert s.current()[0] == "brak" and s.state.get("brak").square == (4, 5)
    return s


@pytest.fixture
def phone(warm_contexts, guard, request):
    opened = opened_app(warm_contexts, "phone", guard, request, link=storage.encode_link(party_moves()))
    page = next(opened)
    show(page, "field")
    expect(page.get_by_test_id("grid-svg")).to_be_visible()
    yield page
    next(opened, None)


def inside(page, cid: str) -> bool:
    """Is the token's square wholly inside the grid's drawn box?"""
    return page.evaluate("""(cid) => {
        const s = document.querySelector('#grid-svg').getBoundingClientRect();
        const t = document.querySelector(`#grid-svg [data-token="${cid}"]`);
        const r = (t.querySelector('.hit') || t).getBoundingClientRect();
        return r.x >= s.x - 0.5 && r.right <= s.right + 0.5 && r.y >= s.y - 0.5 && r.bottom <= s.bottom + 0.5; }""",
                         cid)


def shoot(page, name: str) -> None:
    if SHOTS:
        pathlib.Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(pathlib.Path(SHOTS) / f"{name}.png"))


def test_a_long_move_toward_the_nearest_foe_is_one_tap_and_one_undo_on_a_phone__OSE_MOVE_1(phone):
    # The first view keeps squares a finger's size (44 px) and leans from Brak toward the Orc spearman, 8
    # squares away: Brak a square from its left edge, the way to the spearman on screen (not the whole map).
    expect(phone.get_by_test_id("tok-brak")).to_be_visible()
    shoot(phone, "moveto-390-field")
    assert inside(phone, "brak")
    x, _, w, _ = (float(v) for v in phone.get_by_test_id("grid-svg").get_attribute("viewBox").split())
    assert x == 30 and w < 160, (x, w)  # Brak stands at column 4 of 16, 10 units a square
    show(phone, "act")
    button = phone.get_by_test_id("opt-toward")
    expect(button).to_contain_text("Move toward Orc spearman")
    expect(button).to_contain_text("30 ft to (10, 4), beside Orc spearman")
    shoot(phone, "moveto-390-act")
    button.tap()
    expect(phone.get_by_test_id("tok-brak")).to_have_attribute("transform", "translate(105 45)")
    phone.get_by_test_id("undo").tap()
    expect(phone.get_by_test_id("tok-brak")).to_have_attribute("transform", "translate(45 55)")
    if SHOTS:
        for width, height in ((768, 1024), (1280, 800), (1920, 1080)):
            phone.set_viewport_size({"width": width, "height": height})
            phone.wait_for_timeout(300)
            phone.get_by_test_id("opt-toward").scroll_into_view_if_needed()
            shoot(phone, f"moveto-{width}")
