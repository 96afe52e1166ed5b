"""The page holds at every width a referee uses (issue 14): each system's
example in its main states — before initiative, mid-fight with a selection
and its options open, an open dialog, the setup editor — at a phone (390,
touch), a tablet (768, touch), a laptop (1280) and a desktop (1920).

tests/e2e/layout_check.js measures, in the page: no sideways scroll of the
document; no text overflowing its box unless it is a deliberate ellipsis
with the full text in a title; no word broken across lines; every button
and token at least 44x44 px at phone width and 24x24 px elsewhere (WCAG 2.2
target size); no zone, token or ruler "now" clipped by the field. A failure
lists each problem with the element it found it on.

With FRAY_SHOTS=DIR each checked state is also saved as a PNG there
(tools/dev.py shots writes the README's set into docs/screenshots/).
"""
from __future__ import annotations

import os
import pathlib

import pytest
from harness import WIDTHS, opened_app
from helpers import close_setup, open_setup
from playwright.sync_api import expect

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples, get

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CHECK = (HERE / "layout_check.js").read_text()
# The phone and the tablet are touch devices at 2x (conftest's phone context), the others mouse at 1x.
SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}},
    "tablet": {"viewport": {"width": 768, "height": 1024}},
    "laptop": {"viewport": {"width": 1280, "height": 800}},
    "desktop": {"viewport": {"width": 1920, "height": 1080}},
}
# Each system: the fresh example (before initiative) and the saved mid-fight file.
SYSTEMS = {
    "olog": ("skirmish", "olog-skirmish.json"),
    "ose": ("detailed", "ose-detailed.json"),
    "ogre": ("orc_and_pc", "ogre-orc-and-pc.json"),
}
SHOTS = os.environ.get("FRAY_SHOTS")


def fresh_link(system: str, name: str) -> str:
    enc = examples(system)[name](3)
    return storage.encode_link(Session(enc, get(system)))


def saved_link(filename: str) -> str:
    return storage.encode_link(storage.loads((ROOT / "docs" / "examples" / filename).read_text()).session)


def is_phone(size: str) -> bool:
    return size == "phone"


def problems(page, size: str) -> list[str]:
    return page.evaluate(CHECK, {"minTarget": 44 if is_phone(size) else 24,
                                 "width": SIZES[size]["viewport"]["width"]})


def check(page, size: str, where: str, found: dict) -> None:
    page.wait_for_timeout(50)  # let a scroll-into-view settle
    got = problems(page, size)
    if got:
        found[where] = got
    if SHOTS:
        pathlib.Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(pathlib.Path(SHOTS) / f"{where}.png"), scale="css")


def views(page, size: str, where: str, found: dict) -> None:
    """Check the page as it stands; on a phone, each bottom tab in turn."""
    if not is_phone(size):
        check(page, size, where, found)
        return
    for tab in ("field", "order", "act", "log"):
        page.get_by_test_id(f"tab-{tab}").click()
        check(page, size, f"{where}-{tab}", found)


@pytest.fixture(params=list(SIZES))
def size(request) -> str:
    return request.param


def layout_device(size: str) -> str:
    """The e2e device of a width: the laptop is the suite's desktop and the phone its phone; the tablet
    (touch, as an iPad is) is the phone's context at 768 px, the desktop the desktop's at 1920 px."""
    if size in ("laptop", "phone"):
        return {"laptop": "desktop", "phone": "phone"}[size]
    WIDTHS.setdefault(f"layout-{size}", ("phone" if size == "tablet" else "desktop", SIZES[size]["viewport"]))
    return f"layout-{size}"


@pytest.fixture
def at_start(warm_contexts, guard, request, system, size):
    """The system's example opened by its share link, before initiative, at this width."""
    yield from opened_app(warm_contexts, layout_device(size), guard, request,
                          link=fresh_link(system, SYSTEMS[system][0]))


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_view_holds_at_this_width(at_start, warm_contexts, system, size):
    page = at_start
    found: dict[str, list[str]] = {}
    # Before initiative.
    views(page, size, f"{system}-{size}-start", found)
    # Mid-fight, the current actor selected with its options open: the saved example opened by its
    # link, then the page opened again on its autosave, as a reload does.
    warm_contexts.restart(page, layout_device(size), link=saved_link(SYSTEMS[system][1]))
    warm_contexts.restart(page, layout_device(size), clear=False)
    if is_phone(size):
        page.get_by_test_id("tab-order").click()
    # The one whose turn it is, so its moves show on the field too ("Move here" on the bands, the
    # reachable squares on a grid); the first in the order when no one's turn is marked.
    current = page.locator("#order-slot .order-row.current button.pick")
    (current if current.count() else page.locator("[data-testid^=order-] button.pick")).first.click()
    expect(page.get_by_test_id("actions")).to_be_attached()
    views(page, size, f"{system}-{size}-fight", found)
    # A question asked before rolling, where the system has one in its first options.
    ask = page.locator("[data-testid=actions] button.act:not(.refused)").first
    if is_phone(size):
        page.get_by_test_id("tab-act").click()
    if ask.count():
        ask.click()
        views(page, size, f"{system}-{size}-asked", found)
        page.keyboard.press("Escape")
    # An open dialog: the keyboard help.
    if is_phone(size):
        page.get_by_test_id("tab-field").click()
    page.get_by_test_id("help").click()
    dialog = page.locator("dialog[open], [role=dialog]").first
    expect(dialog).to_be_visible()
    check(page, size, f"{system}-{size}-dialog", found)
    page.keyboard.press("Escape")
    # The setup editor.
    open_setup(page)
    check(page, size, f"{system}-{size}-setup", found)
    close_setup(page)
    report = "\n".join(f"{where}:\n  " + "\n  ".join(p[:12]) + (f"\n  ... {len(p) - 12} more" if len(p) > 12 else "")
                       for where, p in found.items())
    assert not found, "layout problems:\n" + report


@pytest.fixture
def skirmish_on_a_phone(warm_contexts, guard, request):
    yield from opened_app(warm_contexts, layout_device("phone"), guard, request,
                          link=saved_link("olog-skirmish.json"))


def test_the_selected_combatants_zone_stays_in_view_on_a_phone(skirmish_on_a_phone):
    """Six zones do not fit a phone: selecting someone in a far zone scrolls the row to it (issue 14)."""
    page = skirmish_on_a_phone
    for cid in ("gob3", "mira"):
        page.get_by_test_id("tab-order").click()
        page.get_by_test_id(f"order-{cid}").locator("button.pick").click()
        page.get_by_test_id("tab-field").click()
        page.wait_for_timeout(100)  # the scroll runs right after the drawing
        seen = page.evaluate("""() => { const row = document.querySelector('#field-slot .bands');
            const zone = document.querySelector('#field-slot .bands .token.selected').closest('.zone');
            const r = row.getBoundingClientRect(), z = zone.getBoundingClientRect();
            return z.left >= r.left - 1 && z.right <= r.right + 1; }""")
        assert seen, f"{cid}'s zone is scrolled out of view"


@pytest.fixture(params=["ose", "ogre"])
def mid_fight_on_a_laptop(warm_contexts, guard, request):
    yield from opened_app(warm_contexts, layout_device("laptop"), guard, request,
                          link=saved_link(SYSTEMS[request.param][1]))


def test_the_grid_and_its_panel_share_a_laptop_screen(mid_fight_on_a_laptop):
    """At 1280x800 the whole grid is on screen together with the OSE declaration sheet above it (its
    Roll initiative and first rows) or the Ogre segment ruler below it (its "now" and first lane) (issue 38)."""
    page = mid_fight_on_a_laptop
    page.evaluate("window.scrollTo(0, 0)")
    grid = page.get_by_test_id("grid-svg").bounding_box()
    assert grid is not None and grid["y"] >= 0 and grid["y"] + grid["height"] <= 800, grid
    other = page.locator("#phase-slot .decl-row, #ruler-slot .lane").first
    box = other.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 800, box


@pytest.fixture
def ose_on_a_tablet(warm_contexts, guard, request):
    yield from opened_app(warm_contexts, layout_device("tablet"), guard, request,
                          link=saved_link(SYSTEMS["ose"][1]))


def test_a_tablets_header_is_one_row_of_tools_over_the_name_and_status(ose_on_a_tablet):
    """At 768 px (an iPad in portrait) the tools keep to one row, with their words dropped as from 1024 px,
    and the encounter's name and status share the row under it: the field starts about 90 px down, not 210
    (issue 38)."""
    page = ose_on_a_tablet
    tops = page.locator("header .tools button:visible").evaluate_all(
        "bs => bs.map(b => Math.round(b.getBoundingClientRect().top))")
    assert len(tops) >= 8 and len(set(tops)) == 1, tops
    name = page.get_by_test_id("encounter-name").bounding_box()
    status = page.get_by_test_id("status").bounding_box()
    assert abs(name["y"] - status["y"]) < 12, (name, status)
    header = page.locator("header.topbar").bounding_box()
    assert header["height"] <= 100, header


TABLETS = {"portrait": {"width": 768, "height": 1024}, "landscape": {"width": 1024, "height": 768}}


@pytest.fixture(params=[(s, o) for s in SYSTEMS for o in TABLETS], ids=lambda p: f"{p[0]}-{p[1]}")
def mid_fight_on_a_tablet(warm_contexts, guard, request):
    system, orientation = request.param
    WIDTHS.setdefault(f"tablet-{orientation}", ("phone", TABLETS[orientation]))  # touch, as an iPad is
    yield from opened_app(warm_contexts, f"tablet-{orientation}", guard, request,
                          link=saved_link(SYSTEMS[system][1]))


def test_the_field_and_the_actors_first_action_share_a_tablets_screen(mid_fight_on_a_tablet):
    """On an iPad in either orientation, the top of the field and the next thing the referee taps (the
    actor's first action, or while OSE's declaration sheet is up, its first declaration) are both on screen
    without scrolling (issue 38: in portrait the actions sat under the field, the order and the Ogre ruler,
    about 900 px down, and OSE's sheet pushed the grid off the screen)."""
    page = mid_fight_on_a_tablet
    page.evaluate("window.scrollTo(0, 0)")
    height = page.viewport_size["height"]
    field = page.locator("#field-slot > *").first.bounding_box()
    assert field is not None and 0 <= field["y"] <= height - 200, field  # 200 px of the field at least
    sheet = page.locator("#phase-slot button")
    first = sheet.first if sheet.count() else page.locator("[data-testid=actions] button.act").first
    expect(first).to_be_visible()
    box = first.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, box


OGRE_SCREENS = {"tablet": {"width": 768, "height": 1024}, "laptop": {"width": 1280, "height": 800},
                "desktop": {"width": 1920, "height": 1080}}


@pytest.fixture(params=list(OGRE_SCREENS))
def ogre_mid_fight(warm_contexts, guard, request):
    size = request.param
    WIDTHS.setdefault(f"ogre-{size}", ("phone" if size == "tablet" else "desktop", OGRE_SCREENS[size]))
    yield from opened_app(warm_contexts, f"ogre-{size}", guard, request, link=saved_link(SYSTEMS["ogre"][1]))


def test_the_field_the_ruler_and_the_first_action_share_the_screen__OGRE_SEG_1(ogre_mid_fight):
    """Issue 53 stop 10: from 768 px the Ogre field, its segment ruler (its heading and a lane at least) and
    the actor's first action are on one screen without scrolling (at 768x1024 the ruler started at y 3190)."""
    page = ogre_mid_fight
    page.evaluate("window.scrollTo(0, 0)")
    height = page.viewport_size["height"]
    field = page.locator("#field-slot > *").first.bounding_box()
    assert field is not None and 0 <= field["y"] <= height - 200, field
    lane = page.locator("[data-testid=ruler] .lane").first
    expect(lane).to_be_visible()
    box = lane.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, box
    first = page.locator("[data-testid=actions] button.act").first
    expect(first).to_be_visible()
    box = first.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, box


def test_a_reaction_mark_stays_inside_its_lane__OGRE_REACT_1(ogre_mid_fight):
    """Issue 53: an Ogre reaction mark ("↯-2") spilled out of its lane on the ruler."""
    page = ogre_mid_fight
    current = page.locator("#order-slot .order-row.current button.pick")
    (current if current.count() else page.locator("[data-testid^=order-] button.pick")).first.click()
    page.locator("[data-testid=actions] button.act", has_text="React").first.click()
    page.get_by_test_id("ask").locator("button", has_text="Quick").first.click()
    marks = page.locator("[data-testid=ruler] .rl-react")
    expect(marks.first).to_be_attached()
    spills = page.evaluate("""() => [...document.querySelectorAll('[data-testid=ruler] .rl-react')].map(m => {
        const lane = m.closest('.lane').getBoundingClientRect(), track = m.closest('.rl-track').getBoundingClientRect();
        const t = m.querySelector('.rl-react-txt').getBoundingClientRect();
        return (t.top < lane.top - 0.5 || t.bottom > lane.bottom + 0.5 || t.left < track.left - 0.5
                || t.right > track.right + 0.5) ? [m.dataset.testid, t.left, t.right, t.top, t.bottom,
                                                   track.left, track.right, lane.top, lane.bottom] : null;
    }).filter(Boolean)""")
    assert spills == [], spills
