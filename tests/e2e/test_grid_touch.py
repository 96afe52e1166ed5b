"""The tactical grid on a phone (issue 14, "Grid on touch"), with real touch input.

At 390x844 with touch: the first view is zoomed in so each token's hit area
is at least 44 CSS px; two fingers pinch the zoom; Fit frames every token;
Follow recentres on the actor after it steps; holding a finger on a square
opens its menu while the finger is still down; a drag never fires a tap.
Touches go through CDP `Input.dispatchTouchEvent` (page.touchscreen only taps).
"""
from __future__ import annotations

import pathlib
import re

import pytest
from harness import opened_app
from helpers import show
from playwright.sync_api import expect

import fray.rules  # noqa: F401  (the rulesets the example names)
from fray.engine import storage

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = storage.loads((ROOT / "docs" / "examples" / "ose-detailed.json").read_text()).session


@pytest.fixture
def phone(warm_contexts, guard, request):
    """The OSE detailed example opened by share link on a 390x844 touch phone, on the field tab."""
    opened = opened_app(warm_contexts, "phone", guard, request, link=storage.encode_link(EXAMPLE))
    page = next(opened)
    show(page, "field")
    expect(page.get_by_test_id("grid-svg")).to_be_visible()
    yield page
    next(opened, None)


_CDP: dict = {}


def touch(page, kind: str, points) -> None:
    """One CDP touch event (one session a page: a touch sequence lives in its session)."""
    cdp = _CDP.get(id(page))
    if cdp is None or _CDP.get("page") is not page:
        _CDP.clear()
        cdp = _CDP[id(page)] = page.context.new_cdp_session(page)
        _CDP["page"] = page
    cdp.send("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


def into_view(page) -> None:
    """The whole map on screen, clear of the bottom tabs (the declarations sit above it)."""
    page.evaluate("() => document.querySelector('#grid-svg').scrollIntoView({block: 'center'})")
    page.wait_for_timeout(50)


def square_xy(page, sq) -> tuple[float, float]:
    into_view(page)
    return tuple(page.evaluate(
        """(s) => { const m = document.querySelector('#grid-svg').getScreenCTM();
                    return [m.a * (s[0] * 10 + 5) + m.e, m.d * (s[1] * 10 + 5) + m.f]; }""", list(sq)))


def view(page) -> tuple[float, float, float, float]:
    return tuple(float(v) for v in page.get_by_test_id("grid-svg").get_attribute("viewBox").split())


def token_boxes(page) -> dict[str, dict]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#grid-svg [data-token]')]
        .map(t => { const r = (t.querySelector('.hit') || t).getBoundingClientRect();
                    return [t.dataset.token, {x: r.x, y: r.y, w: r.width, h: r.height}]; }))""")


def svg_box(page) -> dict:
    return page.evaluate("""() => { const r = document.querySelector('#grid-svg').getBoundingClientRect();
                                    return {x: r.x, y: r.y, w: r.width, h: r.height}; }""")


def empty_square_in_view(page, near) -> tuple[int, int]:
    """A free, wall-less square in the current view, near `near`."""
    st = EXAMPLE.state
    taken = {tuple(c.square) for c in st.combatants if c.square is not None} | set(st.encounter.map.walls)
    vx, vy, vw, vh = view(page)
    cands = [(x, y) for x in range(int(vx // 10) + 1, int((vx + vw) // 10) - 1)
             for y in range(int(vy // 10) + 1, int((vy + vh) // 10) - 1) if (x, y) not in taken]
    return min(cands, key=lambda s: abs(s[0] - near[0]) + abs(s[1] - near[1]))


def test_default_phone_view_gives_every_token_a_44px_target(phone):
    boxes = token_boxes(phone)
    assert len(boxes) == len([c for c in EXAMPLE.state.combatants if c.square is not None])
    for cid, r in boxes.items():
        assert r["w"] >= 44 and r["h"] >= 44, f"{cid}: {r}"
    # Centred on the current actor (Brak, at (8, 5)) unless the map's edge stops it.
    vx, vy, vw, vh = view(phone)
    assert vw < 160 and abs(vx + vw / 2 - 85) < 0.5 or vx in (0, 160 - vw)
    for name in ("grid-zoom-out", "grid-zoom-in", "grid-zoom-fit", "grid-follow"):
        r = phone.get_by_test_id(name).bounding_box()
        assert r["height"] >= 44, name
    expect(phone.get_by_test_id("grid-follow")).to_have_attribute("aria-pressed", "true")


def test_two_finger_pinch_changes_the_zoom(phone):
    before = view(phone)[2]
    into_view(phone)
    box = svg_box(phone)
    cx, cy = box["x"] + box["w"] / 2, box["y"] + min(box["h"], 500) / 2
    touch(phone, "touchStart", [(cx - 40, cy), (cx + 40, cy)])
    for step in range(1, 6):
        touch(phone, "touchMove", [(cx - 40 - 12 * step, cy), (cx + 40 + 12 * step, cy)])
    touch(phone, "touchEnd", [])
    after = view(phone)[2]
    assert after < before * 0.75  # fingers apart: closer in (a narrower viewBox)
    expect(phone.get_by_test_id("grid-zoom")).not_to_have_text(re.compile(r"^%s%%$" % round(1600 / before)))


def test_fit_frames_every_token(phone):
    phone.get_by_test_id("grid-zoom-fit").click()
    box = svg_box(phone)
    for cid, r in token_boxes(phone).items():
        assert box["x"] - 0.5 <= r["x"] and r["x"] + r["w"] <= box["x"] + box["w"] + 0.5, cid
        assert box["y"] - 0.5 <= r["y"] and r["y"] + r["h"] <= box["y"] + box["h"] + 0.5, cid


def test_follow_recentres_on_the_actor_after_a_move(phone):
    # Select Brak (the actor), look elsewhere, then drag his token one square: the view comes back to him.
    show(phone, "order")
    phone.get_by_test_id("order-brak").locator("button.pick").click()
    show(phone, "field")
    phone.get_by_test_id("grid-zoom-in").click()
    start = empty_square_in_view(phone, (8, 5))
    x0, y0 = square_xy(phone, start)
    touch(phone, "touchStart", [(x0, y0)])
    for k in range(1, 8):
        touch(phone, "touchMove", [(x0 + 20 * k, y0 + 14 * k)])
    touch(phone, "touchEnd", [])
    panned = view(phone)
    vx, vy, vw, vh = panned
    assert abs(vx + vw / 2 - 85) > 5 or abs(vy + vh / 2 - 55) > 5, "the pan moved the view off Brak"
    dest = next(s for s in ((9, 5), (8, 4), (7, 5), (8, 6))
                if s not in {tuple(c.square) for c in EXAMPLE.state.combatants})
    x0, y0 = square_xy(phone, (8, 5))
    x1, y1 = square_xy(phone, dest)
    touch(phone, "touchStart", [(x0, y0)])
    for k in range(1, 6):
        touch(phone, "touchMove", [(x0 + (x1 - x0) * k / 5, y0 + (y1 - y0) * k / 5)])
    touch(phone, "touchEnd", [])
    expect(phone.get_by_test_id("tok-brak")).to_have_attribute(
        "transform", f"translate({dest[0] * 10 + 5} {dest[1] * 10 + 5})")
    vx, vy, vw, vh = view(phone)
    cx, cy = dest[0] * 10 + 5, dest[1] * 10 + 5
    assert vx == pytest.approx(max(0, min(160 - vw, cx - vw / 2)), abs=0.05)
    assert vy == pytest.approx(max(0, min(120 - vh, cy - vh / 2)), abs=0.05)


def test_a_held_press_opens_the_square_menu_before_release(phone):
    sq = empty_square_in_view(phone, (7, 7))
    x, y = square_xy(phone, sq)
    touch(phone, "touchStart", [(x, y)])
    expect(phone.get_by_test_id("grid-info")).to_be_visible(timeout=2000)  # still held
    touch(phone, "touchEnd", [])
    expect(phone.get_by_test_id("grid-info")).to_be_visible()
    assert not phone.get_by_test_id("grid-path").count()


def test_a_drag_never_taps(phone):
    show(phone, "order")
    phone.get_by_test_id("order-brak").locator("button.pick").click()  # a tap would preview a path
    show(phone, "field")
    sq = empty_square_in_view(phone, (7, 7))
    x, y = square_xy(phone, sq)
    before = view(phone)
    touch(phone, "touchStart", [(x, y)])
    for k in range(1, 6):
        touch(phone, "touchMove", [(x - 15 * k, y - 10 * k)])
    touch(phone, "touchEnd", [])
    phone.wait_for_timeout(700)  # past the hold: the cancelled timer must not fire either
    assert view(phone) != before  # it panned
    assert not phone.get_by_test_id("grid-path").count() and not phone.get_by_test_id("grid-info").count()
