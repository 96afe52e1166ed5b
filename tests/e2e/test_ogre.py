"""Ogre in the page, desktop and phone, with physical dice: the text's orc-and-PC example on the segment
ruler, the before-the-fight dialog (suggest, override, roll), three against three with a fast attack, a
reaction, an attack of opportunity and an undo, twelve lanes, and selecting from the ruler
(OGRE-EX-1, OGRE-SUR-1, OGRE-FAST-1, OGRE-REACT-1, OGRE-AOO-1, OGRE-AOO-2)."""
from __future__ import annotations

import re

from helpers import (answer, close_setup, open_setup, select, is_phone, other_answers, log_text, next_turn, open_example, option, physical_dice, show,
                     status, tap_square, type_dice, undo)
from playwright.sync_api import expect


def has_class(word: str) -> re.Pattern:
    return re.compile(rf"(^|\s){word}(\s|$)")


def grid_hp(page, cid: str) -> str:
    """HP as the grid token says it (its title), e.g. "Brak (Party), 14/20 HP, at (6, 4)"."""
    show(page, "field")
    return page.get_by_test_id(f"tok-{cid}").locator("title").first.text_content()


def ruler(page):
    show(page, "field")
    return page.get_by_test_id("ruler")


def bar(page, cid: str, i: int = 0):
    return ruler(page).get_by_test_id(f"bar-{cid}-{i}")


def expect_bar(page, cid: str, start: int, end: int | None, i: int = 0, state: str = "pending") -> None:
    """A lane's i-th bar runs from its declaration to its resolution (OGRE-ACT-1)."""
    b = bar(page, cid, i)
    expect(b).to_have_attribute("data-start", str(start))
    expect(b).to_have_attribute("data-end", "" if end is None else str(end))
    expect(b).to_have_attribute("data-state", state)


def choose(page, i: int) -> None:
    """Answer the inline question (asked before rolling) with its i-th choice."""
    show(page, "act")
    page.get_by_test_id("ask").get_by_test_id(f"choice-{i}").click()


def advance(page, faces: dict[int, list[int]] | None = None) -> None:
    next_turn(page)
    type_dice(page, faces or {})


def start_orc_and_pc(page) -> None:
    """The text's example (OGRE-EX-1): orc d10 4 + 10 = 14, Brak d10 8 + 8 = 16."""
    open_example(page, "ogre", "orc_and_pc")
    physical_dice(page)
    show(page, "field")
    expect(page.get_by_test_id("before")).to_be_visible()
    page.get_by_test_id("before-roll").click()  # the dialog's own button: the action panel's Roll initiative
    type_dice(page, {10: [4, 8]})
    expect(page.get_by_test_id("before")).to_have_count(0)  # gone once the count starts


def test_the_texts_orc_and_pc_on_the_ruler__OGRE_EX_1__OGRE_ACT_1__OGRE_FF_1(app):
    start_orc_and_pc(app)
    expect(ruler(app).get_by_test_id("ff-orc")).to_have_attribute("data-end", "14")
    expect(ruler(app).get_by_test_id("ff-brak")).to_have_attribute("data-end", "16")
    # The count goes on by itself to the first declaration, and on after each (OGRE-SEG-1).
    expect(app.get_by_test_id("ruler-cursor")).to_have_attribute("data-segment", "14")
    expect(app.get_by_test_id("ruler-now")).to_contain_text("Orc declares now")
    expect(option(app, "Attack Brak")).to_contain_text("Normal: Standard, 10 seg")  # what a tap declares
    option(app, "Attack Brak").click()  # at normal speed, without asking (OGRE-ATK-1)
    expect(app.get_by_test_id("ask")).to_have_count(0)
    expect(app.get_by_test_id("ruler-now")).to_contain_text("Brak declares now")  # segment 16
    expect(app.get_by_test_id("ruler-cursor")).to_have_attribute("data-segment", "16")
    expect_bar(app, "orc", 14, 24)
    expect(bar(app, "orc")).to_have_class(has_class("next"))
    expect(app.get_by_test_id("ruler-next")).to_contain_text("Next resolution at segment 24")
    expect(app.get_by_test_id("ruler-next")).to_contain_text("Orc: Attack Brak with Axe")
    # Brak's resolves at 26, after the orc's: the count goes on to 24 (not 26) and asks for the orc's dice.
    option(app, "Attack Orc").click()
    expect(app.get_by_test_id("dice-entry")).to_contain_text("d20")
    type_dice(app, {20: [15], 8: [6]})
    log = log_text(app)
    assert "Orc: initiative d10 [4] = 4 + reaction time 10 = 14" in log
    assert "Brak: initiative d10 [8] = 8 + reaction time 8 = 16" in log
    assert "Orc declares Attack Brak with Axe (Standard): resolves at segment 24" in log
    assert "Brak declares Attack Orc with Sword (Standard): resolves at segment 26" in log
    assert "Segment 24" in status(app)
    expect_bar(app, "orc", 14, 24, state="resolved")
    expect_bar(app, "brak", 16, 26)
    expect(bar(app, "brak")).to_have_class(has_class("next"))
    expect(app.get_by_test_id("ruler-now")).to_contain_text("Orc declares now")
    assert "Orc's attack on Brak with Axe: d20 [15] = 15 + 4 = 19 vs Defense 15: hits" in log_text(app)
    assert "14/20 HP" in grid_hp(app, "brak")
    # One undo takes back Brak's declaration and the count it moved on: 16, the orc's attack under way.
    undo(app)
    expect(app.get_by_test_id("ruler-cursor")).to_have_attribute("data-segment", "16")
    expect(app.get_by_test_id("ruler-now")).to_contain_text("Brak declares now")
    expect_bar(app, "orc", 14, 24)
    assert "20/20 HP" in grid_hp(app, "brak")


def test_before_the_fight_suggests_and_the_referee_overrides__OGRE_SUR_1(app):
    open_example(app, "ogre", "three_vs_three")
    show(app, "field")
    dialog = app.get_by_test_id("before")
    expect(dialog).to_contain_text("Type each group's best Spot result")
    expect(app.get_by_test_id("ranged-party")).to_have_value("yes")  # Mira's bow
    app.get_by_test_id("spot-party").fill("15")
    app.get_by_test_id("spot-orcs").fill("12")
    app.get_by_test_id("before-suggest").click()
    expect(app.get_by_test_id("suggested")).to_have_text("start at 50 ft; surprised: Orcs (+10 reaction time)")
    # The referee decides otherwise: 30 ft and nobody surprised.
    app.get_by_test_id("before-distance").fill("30")
    app.get_by_test_id("surprised-orcs").select_option("no")
    app.get_by_test_id("before-confirm").click()
    expect(app.get_by_test_id("before-confirmed")).to_contain_text("start 30 ft apart (6 squares); surprised: nobody")
    expect(app.get_by_test_id("before-confirmed")).to_contain_text("referee's override")
    log = log_text(app)
    assert "Suggested: start at 50 ft, surprised: Orcs" in log
    assert "Referee decides: start at 30 ft, surprised: nobody" in log
    undo(app)
    show(app, "field")
    expect(app.get_by_test_id("before-confirmed")).to_have_count(0)


def test_three_against_three_fast_attack_reaction_opportunity_and_undo__OGRE_FAST_1__OGRE_REACT_1__OGRE_AOO_1(app):
    open_example(app, "ogre", "three_vs_three")
    physical_dice(app)
    # This referee pauses after each declaration, for reactions: the count waits for Advance (OGRE-SEG-1).
    open_setup(app)
    app.locator("details.ed-settings > summary").click()
    box = app.get_by_role("checkbox", name="After the segment's last declaration, count on to the next event")
    expect(box).to_be_checked()
    box.uncheck()
    expect(app.get_by_test_id("undo")).to_be_enabled()
    close_setup(app)
    # The referee puts Orc 1 next to Brak: select it, tap the square, place it (logged).
    show(app, "field")
    app.get_by_test_id("ruler").get_by_test_id("lane-btn-orc1").click()  # the ruler selects, the grid shows it
    expect(app.get_by_test_id("tok-orc1")).to_have_class(has_class("sel"))
    tap_square(app, (4, 3))
    app.get_by_test_id("grid-place").click()
    assert "Referee places Orc 1 at square (4, 3)" in log_text(app)
    # Initiative: Brak 5+8 = 13, Mira 17, Sable 19, Orc 1 1+10 = 11, Orc 2 19, shaman 20.
    next_turn(app)
    type_dice(app, {10: [5, 10, 10, 1, 10, 10]})
    lanes = ruler(app).locator(".lane")
    expect(lanes).to_have_count(6)
    assert lanes.first.get_attribute("data-lane") == "orc1"  # initiative order: Orc 1 first
    advance(app)  # segment 11: Orc 1 declares a fast attack (OGRE-FAST-1)
    other_answers(app, "Attack Brak")  # "⋯": How fast?
    answer(app, "Fast: Short, 5 seg")
    expect_bar(app, "orc1", 11, 16)
    expect(bar(app, "orc1")).to_contain_text("» fast")
    assert "Orc 1 declares Attack Brak with Axe (Short, fast (-8)): resolves at segment 16" in log_text(app)
    advance(app)  # segment 13: Brak steps away, out of the orc's reach
    option(app, "Quick move").click()
    tap_square(app, (2, 3))
    expect(app.get_by_test_id("aoo-list")).to_contain_text("Orc 1")  # named before the move (OGRE-AOO-1)
    app.get_by_test_id("grid-commit").click()
    expect_bar(app, "brak", 13, 15)
    # A reaction: resolves at once, -2 to the current action (OGRE-REACT-1).
    option(app, "React").click()
    answer(app, "Quick (-2)")
    tick = ruler(app).get_by_test_id("react-brak-13")
    expect(tick).to_contain_text("-2")
    assert "Brak reacts: a defensive reaction (Quick, -2); Quick move now at -2" in log_text(app)
    # Segment 15: Brak leaves a threatened square; Orc 1 is asked before any roll (OGRE-AOO-2).
    advance(app)
    expect(app.get_by_test_id("status")).to_contain_text("Orc 1: Brak leaves a square you threaten")
    option(app, "Attack with Axe as a reaction").click()
    type_dice(app, {20: [18], 8: [5]})
    assert "15/20 HP" in grid_hp(app, "brak")
    expect(ruler(app).get_by_test_id("react-orc1-15")).to_contain_text("-8")
    expect(bar(app, "orc1")).to_contain_text("↯-8")  # the reaction's penalty on the pending fast attack
    log = log_text(app)
    assert "Orc 1's attack of opportunity on Brak with Axe: d20 [18] = 18 + 4 = 22 vs Defense 15: hits" in log
    assert "Orc 1 reacts: attack of opportunity on Brak (Standard, -8)" in log
    # Undo: the question comes back, the tick and the damage go.
    undo(app)
    expect(app.get_by_test_id("status")).to_contain_text("Orc 1: Brak leaves a square you threaten")
    expect(ruler(app).get_by_test_id("react-orc1-15")).to_have_count(0)
    assert "20/20 HP" in grid_hp(app, "brak")
    assert "attack of opportunity on Brak with Axe" not in log_text(app)
    # This time the pending fast attack strikes now, at its -8: it misses and ends there.
    option(app, "Use Attack Brak with Axe on Brak now").click()
    type_dice(app, {20: [12]})
    expect_bar(app, "orc1", 11, 15, state="resolved")
    assert "Orc 1's pending attack, now on Brak with Axe: d20 [12] = 12 + 4 -8 = 8 vs Defense 15: misses" \
        in log_text(app)
    show(app, "field")
    expect(app.get_by_test_id("tok-brak")).to_have_attribute("transform", "translate(25 35)")


def test_lanes_select_and_target_by_click_and_by_keyboard(app):
    """The orc declares first (the text's example): its lane selects it; Brak's lane, tapped or pressed
    during the orc's turn, makes Brak its target (its options on him first) and the orc stays selected
    (issue 38); Brak's own card is his row's "details" control."""
    start_orc_and_pc(app)
    r = ruler(app)
    r.get_by_test_id("lane-btn-orc").click()
    expect(r.get_by_test_id("lane-btn-orc")).to_have_attribute("aria-pressed", "true")
    expect(app.get_by_test_id("tok-orc")).to_have_class(has_class("sel"))
    r.get_by_test_id("lane-btn-brak").focus()
    app.keyboard.press("Enter")
    show(app, "act")
    expect(app.get_by_test_id("target")).to_contain_text("Target: Brak")
    expect(app.get_by_test_id("actions")).to_contain_text("Actions: Orc")
    show(app, "field")
    expect(r.get_by_test_id("lane-btn-orc")).to_have_attribute("aria-pressed", "true")
    select(app, "brak")
    show(app, "field")
    expect(r.get_by_test_id("lane-btn-brak")).to_have_attribute("aria-pressed", "true")
    expect(app.get_by_test_id("tok-brak")).to_have_class(has_class("sel"))
    expect(app.get_by_test_id("lane-brak")).to_have_class(has_class("selected"))


def test_twelve_lanes_stay_readable_and_the_ruler_scrolls_inside_its_box__OGRE_SEG_1(app):
    open_example(app, "ogre", "twelve")
    physical_dice(app)
    next_turn(app)
    type_dice(app, {10: [3, 7, 1, 9, 5, 2, 8, 4, 6, 10, 3, 5]})
    r = ruler(app)
    expect(r.locator(".lane")).to_have_count(12)
    heights = r.locator(".lane").evaluate_all("ls => ls.map(l => l.getBoundingClientRect().height)")
    assert all(30 <= h_ <= 46 for h_ in heights), heights  # 44 px touch targets on a phone
    # The page never scrolls sideways; the ruler's own box does when it must.
    assert app.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    box = r.get_by_test_id("ruler-scroll")
    scrolls = box.evaluate("b => b.scrollWidth > b.clientWidth + 1")
    assert scrolls == is_phone(app)


def cursor_in_view(page) -> bool:
    return page.evaluate("""() => { const b = document.querySelector('#ruler-slot .rl-scroll');
        const n = b.querySelector('.rl-name').getBoundingClientRect();
        const c = b.querySelector('.rl-cursor').getBoundingClientRect();
        const r = b.getBoundingClientRect();
        return c.left >= n.right && c.right <= r.right; }""")


def test_a_long_wait_keeps_now_in_view__OGRE_SLOW_1__OGRE_DELAY_1(app):
    """The orc takes its time (Very Long: 14 + 40 = 54), Brak delays: Advance jumps to 54, far to the right of
    a window that still starts at 0; the ruler scrolls itself so the cursor shows."""
    start_orc_and_pc(app)  # the count goes on by itself to 14: the orc declares
    other_answers(app, "Attack Brak")
    answer(app, "Take time: Very Long")
    expect_bar(app, "orc", 14, 54)
    expect(bar(app, "orc")).to_contain_text("« slow +8")
    expect(app.get_by_test_id("ruler-now")).to_contain_text("Brak declares now")  # 16, by itself
    option(app, "Delay").click()
    answer(app, "until I say so")
    expect(bar(app, "brak")).to_have_attribute("data-kind", "delay")
    # Brak may declare at any segment: the count waits for the referee's Advance (OGRE-DELAY-1).
    expect(app.get_by_test_id("ruler-cursor")).to_have_attribute("data-segment", "16")
    advance(app, {20: [3], 8: [1]})
    show(app, "field")  # on a phone the ruler was drawn in a hidden tab: it scrolls when shown
    expect(app.get_by_test_id("ruler-cursor")).to_have_attribute("data-segment", "54")
    expect(app.get_by_test_id("ruler")).to_have_attribute("data-start", "0")
    page_ok = app.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert page_ok
    app.wait_for_function("() => document.querySelector('#ruler-slot .rl-scroll').scrollLeft > 0")
    assert cursor_in_view(app)


def test_a_standing_answer_is_set_from_the_prompt_and_changed_from_the_actions__OGRE_AOO_2(app):
    """Issue 53: "always let it go" from the attack-of-opportunity prompt, for the orc alone; one undo
    brings the question back; the orc's actions offer to be asked again."""
    start_orc_and_pc(app)
    option(app, "Attack Brak").click()  # segment 14; then 16: Brak steps away
    option(app, "Quick move").click()
    tap_square(app, (7, 4))
    app.get_by_test_id("grid-commit").click()
    expect(app.get_by_test_id("status")).to_contain_text("Brak leaves a square you threaten")
    option(app, "Always let it go").click()
    answer(app, "Orc only")
    assert "Attacks of opportunity: Orc always lets it go" in log_text(app)
    undo(app)
    expect(app.get_by_test_id("status")).to_contain_text("Brak leaves a square you threaten")
    assert "always lets it go" not in log_text(app)
    option(app, "Always let it go").click()
    answer(app, "Orc only")
    expect(app.get_by_test_id("status")).not_to_contain_text("Brak leaves a square you threaten")
    if option(app, "Stay").count():
        option(app, "Stay").click()  # the orc may follow Brak (OGRE-FOLLOW-1): it stays
    select(app, "orc")
    expect(option(app, "Ask again about attacks of opportunity")).to_contain_text("now Orc always lets it go")
