"""The tactical grid in the page (OSE detailed, Ogre): threat shading as the engine computes it, a dragged
move that names every attack of opportunity before it is committed, tap twice to move, referee placements,
walls, the keyboard cursor, and undo (OSE-AOO-1, OSE-AOO-3, OSE-STANCE-3, OSE-RANGED-1, OGRE-AOO-1)."""
from __future__ import annotations

import json
import re

from helpers import is_phone, log_text, next_turn, physical_dice, select, show, type_dice, undo
from playwright.sync_api import expect

from fray.engine import geometry as geo
from fray.engine import paths
from fray.engine import storage
from fray.engine.dice import ScriptedDice
from fray.engine.session import Session
from fray.rules import get
from fray.rules.ogre.examples import orc_and_pc
from fray.rules.ose.examples import detailed

OSE = get("ose")
OGRE = get("ogre")


def ose_session() -> Session:
    """The OSE detailed example after initiative: the Party acts in the MOVE step, Brak at (4, 5)."""
    s = Session(detailed(), OSE)
    s.act(next(o for o in OSE.options(s.state, "brak") if o.key == "next").command)
    assert s.current()[0] == "brak"
    return s


def open_session(page, s: Session, tmp_path, name: str = "fight.fray.json") -> None:
    path = tmp_path / name
    path.write_text(storage.dumps(s))
    page.locator("#file-input").set_input_files(str(path))
    expect(page.get_by_test_id("notice-ok")).to_contain_text("Opened")
    show(page, "field")
    expect(page.get_by_test_id("grid-svg")).to_be_visible()
    if is_phone(page):  # a phone opens close on the actor (test_grid_touch.py): these run on the whole map
        page.get_by_test_id("grid-zoom").click()
        expect(page.get_by_test_id("grid-zoom")).to_have_text("100%")


def square_xy(page, sq) -> tuple[float, float]:
    """Viewport coordinates of a square's centre (10 SVG units a square, viewBox included)."""
    page.get_by_test_id("grid-svg").scroll_into_view_if_needed()
    return tuple(page.evaluate(
        """(s) => { const m = document.querySelector('#grid-svg').getScreenCTM();
                    return [m.a * (s[0] * 10 + 5) + m.e, m.d * (s[1] * 10 + 5) + m.f]; }""", list(sq)))


def tap_square(page, sq) -> None:
    """A finger tap on a phone, a click on the desktop."""
    x, y = square_xy(page, sq)
    if is_phone(page):
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def token_square(page, cid: str) -> tuple[int, int]:
    t = page.get_by_test_id(f"tok-{cid}").get_attribute("transform")
    x, y = (float(v) for v in re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", t).groups())
    return int(x // 10), int(y // 10)


def body(state, cid: str):
    return next(b for b in OSE.grid.bodies(state) if b.id == cid)


def test_selected_creature_shading_is_the_engines_threatened_area__OSE_AOO_3_OSE_STANCE_3(app, tmp_path):
    s = ose_session()
    open_session(app, s, tmp_path)
    grid = geo.Grid.from_map(s.state.encounter.map)
    brak = geo.threatened_squares(body(s.state, "brak"), grid)
    expect(app.locator("[data-testid=threat] rect.thr")).to_have_count(len(brak))
    expect(app.get_by_test_id("threat-note")).to_contain_text("Brak threatens 8 squares (reach 5 ft")
    # The halberdier's reach weapon threatens the second ring too (OSE-STANCE-3).
    # A tap on the halberdier's token during Brak's turn would target it: its own card is looked at.
    select(app, "o2")
    show(app, "field")
    halberd = geo.threatened_squares(body(s.state, "o2"), grid)
    assert len(halberd) == 24
    expect(app.locator("[data-testid=threat] rect.thr")).to_have_count(len(halberd))
    expect(app.get_by_test_id("threat-note")).to_contain_text("reach 10 ft")
    expect(app.get_by_test_id("threat-note")).to_contain_text("OSE-STANCE-3")
    shaded = {(int(float(r.get_attribute("x")) // 10), int(float(r.get_attribute("y")) // 10))
              for r in app.locator("[data-testid=threat] rect.thr").all()}
    assert shaded == set(halberd)


def test_dragging_through_threat_warns_naming_the_attackers_then_commit_and_undo__OSE_AOO_1(app, tmp_path):
    s = ose_session()
    open_session(app, s, tmp_path)
    physical_dice(app)
    show(app, "field")
    me = body(s.state, "brak")
    grid = geo.Grid.from_map(s.state.encounter.map)
    path = paths.path_through(grid, [(4, 5), (12, 4)], me, OSE.grid.bodies(s.state), s.state.hostile)
    expected = paths.provocations(path, me, OSE.grid.bodies(s.state), s.state.hostile, grid=grid)
    assert expected, "the route must pass the orcs' reach"
    x0, y0 = square_xy(app, (4, 5))
    x1, y1 = square_xy(app, (12, 4))
    app.mouse.move(x0, y0)
    app.mouse.down()
    app.mouse.move(x1, y1, steps=12)
    # Before anything is committed: a marker on each square where an attack would fire, attackers named.
    for p in expected:
        marker = app.get_by_test_id(f"aoo-{p.square[0]}-{p.square[1]}")
        expect(marker).to_have_attribute("data-attackers", " ".join(p.attackers))
        expect(marker.locator("title")).to_have_text(
            f"Leaving ({p.square[0]}, {p.square[1]}) provokes Orc spearman, Orc halberdier (OSE-AOO-1)")
    expect(app.locator("g.aoo")).to_have_count(len(expected))
    items = app.get_by_test_id("aoo-list").locator("li")
    expect(items).to_have_count(len(expected))
    expect(items.first).to_contain_text(
        f"Leaving ({expected[0].square[0]}, {expected[0].square[1]}) provokes Orc spearman, Orc halberdier")
    expect(app.get_by_test_id("grid-path")).to_contain_text("40 ft of 80 ft")
    assert "Brak moves" not in app.evaluate("document.querySelector('[data-testid=log]').textContent")
    app.mouse.up()
    for p in expected:
        for _ in p.attackers:  # each threatening orc is asked first (OSE-AOO-4); the default, attack, is one tap
            next_turn(app)
            type_dice(app, {20: [1]})  # and misses
    show(app, "field")
    expect(app.get_by_test_id("tok-brak")).to_have_attribute("transform", "translate(125 45)")
    log = log_text(app)
    assert "Brak moves" in log and "Orc spearman" in log
    for _ in range(1 + sum(len(p.attackers) for p in expected)):  # each answer is a step, then the move
        undo(app)
    show(app, "field")
    expect(app.get_by_test_id("tok-brak")).to_have_attribute("transform", "translate(45 55)")


def test_tap_a_square_to_preview_and_again_to_move__OSE_AOO_1(app, tmp_path):
    s = ose_session()
    open_session(app, s, tmp_path)
    tap_square(app, (9, 7))
    expect(app.get_by_test_id("grid-path")).to_contain_text("Move: Brak to (9, 7)")
    expect(app.get_by_test_id("aoo-none")).to_contain_text("No attack of opportunity on this path")
    expect(app.get_by_test_id("path-line")).to_have_attribute("data-steps", "5")
    assert token_square(app, "brak") == (4, 5)  # nothing moved yet
    tap_square(app, (9, 7))
    expect(app.get_by_test_id("tok-brak")).to_have_attribute("transform", "translate(95 75)")
    expect(app.get_by_test_id("grid-path")).to_have_count(0)
    undo(app)
    show(app, "field")
    expect(app.get_by_test_id("tok-brak")).to_have_attribute("transform", "translate(45 55)")


def test_dragging_an_enemy_is_a_logged_placement_and_blocks_the_bow__OSE_RANGED_1(app, tmp_path):
    s = ose_session()
    open_session(app, s, tmp_path)
    x0, y0 = square_xy(app, (11, 5))
    x1, y1 = square_xy(app, (3, 4))  # beside Hal at (2, 4)
    app.mouse.move(x0, y0)
    app.mouse.down()
    app.mouse.move(x1, y1, steps=10)
    expect(app.get_by_test_id("grid-path")).to_contain_text("Place Orc spearman at (3, 4)")
    app.mouse.up()
    expect(app.get_by_test_id("tok-o1")).to_have_attribute("transform", "translate(35 45)")
    assert "Referee places Orc spearman at square (3, 4)" in log_text(app)
    show(app, "field")
    app.get_by_test_id("tok-hal").click()
    expect(app.get_by_test_id("ranged-note")).to_contain_text(
        "No ranged attack for Hal: Orc spearman is within 5 ft (OSE-RANGED-1)")
    undo(app)
    show(app, "field")
    expect(app.get_by_test_id("tok-o1")).to_have_attribute("transform", "translate(115 55)")
    expect(app.get_by_test_id("ranged-note")).to_have_count(0)


def test_painting_walls_is_one_undoable_step(app, tmp_path):
    s = ose_session()
    open_session(app, s, tmp_path)
    walls = app.get_by_test_id("walls")
    expect(walls).to_have_attribute("data-count", "8")
    app.get_by_test_id("grid-walls").click()
    expect(app.get_by_test_id("walls-note")).to_be_visible()
    x0, y0 = square_xy(app, (2, 9))
    x1, y1 = square_xy(app, (5, 9))
    app.mouse.move(x0, y0)
    app.mouse.down()
    app.mouse.move(x1, y1, steps=8)
    app.mouse.up()
    expect(walls).to_have_attribute("data-count", "12")
    assert "Referee draws 4 wall squares" in log_text(app)
    undo(app)
    show(app, "field")
    expect(app.get_by_test_id("walls")).to_have_attribute("data-count", "8")


def test_keyboard_cursor_previews_and_enter_moves(app, tmp_path):
    s = ose_session()
    open_session(app, s, tmp_path)
    app.locator("#field-slot").focus()
    for key in ["ArrowRight"] + ["ArrowRight"] * 3 + ["ArrowDown"]:
        app.keyboard.press(key)
    expect(app.get_by_test_id("grid-cursor")).to_have_attribute("x", "70.5")
    expect(app.get_by_test_id("grid-hover")).to_contain_text("(7, 6): 15 ft from Brak")
    app.keyboard.press("Enter")
    expect(app.get_by_test_id("grid-path")).to_contain_text("Move: Brak to (7, 6)")
    app.keyboard.press("Enter")
    expect(app.get_by_test_id("tok-brak")).to_have_attribute("transform", "translate(75 65)")


def test_a_flat_footed_foe_provokes_nothing__OGRE_AOO_1(app, tmp_path):
    s = Session(orc_and_pc(), OGRE)
    s.act(next(o for o in OGRE.options(s.state, "orc") if o.key == "next").command, ScriptedDice([4, 8]))
    s.act(next(o for o in OGRE.options(s.state, "orc") if o.key == "next").command)  # segment 14: the orc acts
    assert s.current() == ("orc",)
    open_session(app, s, tmp_path, "ogre.fray.json")
    tap_square(app, (2, 4))  # away from Brak, who is flat-footed until 16
    expect(app.get_by_test_id("grid-path")).to_contain_text("Orc to (2, 4)")
    expect(app.get_by_test_id("aoo-none")).to_contain_text("OGRE-AOO-1")
    expect(app.locator("g.aoo")).to_have_count(0)
    doc = json.loads(storage.dumps(s))
    assert doc["encounter"]["system"] == "ogre"
