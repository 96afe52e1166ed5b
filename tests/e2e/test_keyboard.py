"""Keyboard-only journeys, one per system, at desktop and at phone width (a phone with a keyboard): no mouse
click and no tap anywhere. Tab and Shift+Tab reach every control, Enter and Space press them, arrows change a
select or a radio group, `?` shows the shortcuts, digits pick the n-th action or the n-th answer, N is the next
turn, arrows move the OLOG actor a zone or the grid cursor, Enter previews and commits a move, Escape cancels,
Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo, and the Save button reached by Tab downloads the file
(UI.md "Keyboard"; OLOG-PRES-2, OLOG-MOVE-1, OSE-DECL-1, OSE-INIT-1, OGRE-ACT-1).
"""
from __future__ import annotations

import json

import pytest
from helpers import is_phone
from playwright.sync_api import Page, expect

MAX_TABS = 120


def focused(page: Page, selector: str) -> bool:
    return page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector)


def tab_to(page: Page, selector: str, back: bool = False) -> None:
    """Press Tab (or Shift+Tab) until the focus is on an element matching the selector."""
    for _ in range(MAX_TABS):
        if focused(page, selector):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    where = page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
    raise AssertionError(f"Tab never reached {selector}; the focus is on {where}")


def press(page: Page, selector: str, key: str = "Enter", back: bool = False) -> None:
    tab_to(page, selector, back)
    page.keyboard.press(key)


def view(page: Page, tab: str) -> None:
    """On a phone, switch the bottom bar's view with the keyboard (it comes last in the page: Shift+Tab)."""
    if is_phone(page):
        press(page, f"[data-testid=tab-{tab}]", back=True)
        expect(page.locator("#layout")).to_have_attribute("data-tab", tab)


def number_of(page: Page, label: str) -> str:
    """The digit shown on the action whose label contains the text (read, not clicked)."""
    button = page.locator("[data-testid=actions] button.act", has_text=label).first
    return button.locator(".key").text_content()


def type_faces(page: Page, *faces: int) -> None:
    """Answer the dice-entry dialogs by typing: the focus starts in the first face; Enter submits."""
    for face in faces:
        dialog = page.get_by_test_id("dice-entry")
        expect(dialog).to_be_visible()
        typed = dialog.get_attribute("data-typed")
        expect(dialog.get_by_test_id("face-0")).to_be_focused()
        page.keyboard.type(str(face))
        page.keyboard.press("Enter")
        page.wait_for_function(
            "t => { const d = document.querySelector('[data-testid=dice-entry]');"
            " return !d || d.getAttribute('data-typed') !== t; }", arg=typed)


def hp(page: Page, cid: str) -> str:
    return page.get_by_test_id(f"order-{cid}").locator(".hp-num").text_content()


def status(page: Page) -> str:
    return page.get_by_test_id("status").text_content()


def open_example(page: Page, label: str) -> None:
    """Setup (Tab, Enter), then the examples select: Alt+Down opens its list, Down walks it without opening
    anything, Enter opens the one chosen; the page is back in play."""
    press(page, "[data-testid=toggle-setup]")
    expect(page.get_by_test_id("editor")).to_be_visible()
    tab_to(page, "[data-testid=example-select]")
    labels = page.get_by_test_id("example-select").locator("option").all_text_contents()
    page.keyboard.press("Alt+ArrowDown")
    for _ in range(labels.index(label)):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("notice-ok")).to_contain_text("example")
    expect(page.get_by_test_id("editor")).to_be_hidden()


def save(page: Page, tmp_path) -> dict:
    """Reach Save with Tab (from the top of the page) and press Enter: the file downloads."""
    page.keyboard.press("Escape")
    with page.expect_download() as dl:
        press(page, "[data-testid=save]", back=True)
    path = tmp_path / dl.value.suggested_filename
    dl.value.save_as(path)
    return json.loads(path.read_text(encoding="utf-8"))


def no_clicks(page: Page) -> None:
    """Fail the test if anything was clicked or tapped by a pointer during the journey."""
    page.evaluate("""() => { window.__pointer = 0;
        for (const k of ['pointerdown', 'mousedown', 'touchstart'])
          document.addEventListener(k, e => { if (e.isTrusted) window.__pointer++; }, true); }""")


def clicks(page: Page) -> int:
    return page.evaluate("window.__pointer")


def test_olog_by_keyboard_only__OLOG_PRES_2_OLOG_MOVE_1(app, tmp_path):
    no_clicks(app)
    # ? shows the shortcuts; Esc closes them.
    app.keyboard.press("?")
    expect(app.get_by_test_id("help-dialog")).to_contain_text("Pick the n-th action")
    app.keyboard.press("Escape")
    expect(app.get_by_test_id("help-dialog")).to_have_count(0)
    open_example(app, "OLOG · two orcs")
    # The dice: "I roll my dice" with the arrow key in the radio group.
    view(app, "order")
    tab_to(app, "[data-testid=dice-app]")
    app.keyboard.press("ArrowRight")
    expect(app.get_by_test_id("dice-physical")).to_be_checked()
    # N rolls initiative; the referee types Brak's d20.
    app.keyboard.press("N")
    type_faces(app, 15)
    expect(app.get_by_test_id("status")).to_contain_text("Brak's turn")
    # A digit would take "Attack Orc 1" at the text's default (no Press On); Press On is the button beside
    # it, the next Tab stop: Enter presses on, declared before any die (OLOG-PRES-2).
    view(app, "act")
    tab_to(app, '[data-testid=actions] button.alt[aria-label^="Attack Orc 1"]')
    assert app.get_by_test_id("dice-entry").count() == 0
    app.keyboard.press("Enter")
    type_faces(app, 1, 15, 5)  # d4 pressure (min 2), d20 to hit, d8 damage
    assert hp(app, "brak") == "10/12" and hp(app, "orc1") == "1/6"
    # Escape cancels a question (Set count asks for the number).
    app.keyboard.press(number_of(app, "Set count"))
    expect(app.get_by_test_id("ask")).to_be_visible()
    app.keyboard.press("Escape")
    expect(app.get_by_test_id("ask")).to_have_count(0)
    # The arrow key moves Brak a zone: under pressure, at the default, so the turn ends after it.
    view(app, "field")
    tab_to(app, "[data-testid=token-brak]")
    zone = app.get_by_test_id("token-brak").evaluate("t => t.closest('[data-zone]').dataset.zone")
    app.keyboard.press("ArrowRight")
    expect(app.get_by_test_id(f"zone-{int(zone) + 1}").get_by_test_id("token-brak")).to_have_count(1)
    expect(app.get_by_test_id("status")).to_contain_text("Orc 1's turn")
    # Undo and redo from the keyboard (Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y).
    app.keyboard.press("Control+z")
    expect(app.get_by_test_id(f"zone-{zone}").get_by_test_id("token-brak")).to_have_count(1)
    app.keyboard.press("Control+Shift+z")
    expect(app.get_by_test_id(f"zone-{int(zone) + 1}").get_by_test_id("token-brak")).to_have_count(1)
    app.keyboard.press("Control+z")
    app.keyboard.press("Control+y")
    expect(app.get_by_test_id("status")).to_contain_text("Orc 1's turn")
    # N ends Orc 1's turn.
    app.keyboard.press("N")
    expect(app.get_by_test_id("status")).to_contain_text("Orc 2's turn")
    doc = save(app, tmp_path)
    assert doc["encounter"]["name"] == "Two orcs" and len(doc["steps"]) == 4
    assert clicks(app) == 0


def test_ose_detailed_by_keyboard_only__OSE_DECL_1_OSE_INIT_1(app, tmp_path):
    no_clicks(app)
    open_example(app, "OSE · detailed")
    # Declare with Tab and Space in the panel: Mira will cast Sleep.
    view(app, "field")
    press(app, "[data-testid=decl-mira-spell-0]", " ")
    expect(app.get_by_test_id("decl-now-mira")).to_have_text("✎ Sleep (asleep for 10 min)")
    # N rolls initiative (the panel's button is the next option).
    app.keyboard.press("N")
    expect(app.get_by_test_id("status")).to_have_text("Round 1 · Party acts · MOVE step")
    log = app.get_by_test_id("log").text_content()
    assert "Mira begins casting Sleep (asleep for 10 min)" in log
    # The grid cursor: Tab to the field, arrows, Enter previews the path, Enter moves.
    view(app, "field")
    tab_to(app, "#field-slot")
    start = app.get_by_test_id("tok-brak").get_attribute("transform")
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowDown"):
        app.keyboard.press(key)
    expect(app.get_by_test_id("grid-cursor")).to_be_visible()
    app.keyboard.press("Enter")
    expect(app.get_by_test_id("grid-path")).to_contain_text("Move: Brak to")
    app.keyboard.press("Escape")  # cancel the preview
    expect(app.get_by_test_id("grid-path")).to_have_count(0)
    app.keyboard.press("Enter")
    expect(app.get_by_test_id("grid-path")).to_contain_text("Move: Brak to")
    app.keyboard.press("Enter")
    expect(app.get_by_test_id("tok-brak")).not_to_have_attribute("transform", start)
    moved = app.get_by_test_id("tok-brak").get_attribute("transform")
    # Undo the move, redo it.
    app.keyboard.press("Control+z")
    expect(app.get_by_test_id("tok-brak")).to_have_attribute("transform", start)
    app.keyboard.press("Control+Shift+z")
    expect(app.get_by_test_id("tok-brak")).to_have_attribute("transform", moved)
    doc = save(app, tmp_path)
    assert [s["command"]["type"] for s in doc["steps"]][-1] == "Move"
    assert clicks(app) == 0


def test_ogre_by_keyboard_only__OGRE_ACT_1(app, tmp_path):
    no_clicks(app)
    open_example(app, "Ogre · orc and pc")
    app.keyboard.press("N")  # roll initiative
    expect(app.get_by_test_id("status")).to_contain_text("Brak declares")
    app.keyboard.press("N")  # advance to Brak's initiative
    expect(app.get_by_test_id("status")).to_contain_text("Segment 16")
    app.keyboard.press(number_of(app, "Attack Orc"))  # declared at normal speed, nothing asked
    view(app, "field")
    expect(app.locator(".rl-bar")).to_have_count(1)
    # A lane name is a button: Tab to the orc's lane and Enter selects the orc.
    press(app, "[data-testid=lane-btn-orc]")
    expect(app.get_by_test_id("lane-btn-orc")).to_have_attribute("aria-pressed", "true")
    app.keyboard.press("Control+z")
    expect(app.locator(".rl-bar")).to_have_count(0)
    app.keyboard.press("Control+y")
    expect(app.locator(".rl-bar")).to_have_count(1)
    app.keyboard.press("N")  # advance to the next event
    doc = save(app, tmp_path)
    assert doc["encounter"]["system"] == "ogre" and len(doc["steps"]) >= 4
    assert clicks(app) == 0


def test_skip_link_then_t_targets_the_next_foe_and_h_changes_its_hp__CORE_REF_1(app):
    """The first Tab reaches "Skip to the actions"; Enter puts the focus on the first action. T makes the
    actor's next foe its target (its options first), T again the next one; H opens quick HP for the target,
    −3 Enter is one undoable step."""
    no_clicks(app)
    open_example(app, "OLOG · two orcs")
    app.keyboard.press("N")  # initiative: Brak (app dice) or an orc acts
    expect(app.get_by_test_id("status")).to_contain_text("turn")
    assert app.evaluate("""() => [...document.querySelectorAll('button, a[href], input, select, textarea')]
        .find(e => e.offsetParent !== null || e.matches('.skip-link'))?.dataset.testid""") == "skip", \
        "the skip link is the page's first stop"
    tab_to(app, "[data-testid=skip]", back=True)
    app.keyboard.press("Enter")
    expect(app.locator("#layout")).to_have_attribute("data-tab", "act")
    assert focused(app, "#actions-slot button"), "the focus is in the actions"
    app.keyboard.press("Escape")
    app.keyboard.press("t")
    target = app.get_by_test_id("target")
    expect(target).to_contain_text("Target: ")
    first = target.locator("strong").text_content()
    expect(app.get_by_test_id("actions").locator(".group h3").first).to_have_text(f"On {first}")
    app.keyboard.press("h")
    field = app.get_by_test_id("hp-change")
    expect(field).to_be_focused()
    expect(app.get_by_test_id("hp-dialog")).to_contain_text(first)
    app.keyboard.type("-3")
    app.keyboard.press("Enter")
    expect(app.get_by_test_id("hp-dialog")).to_have_count(0)
    expect(app.get_by_test_id("result" if not is_phone(app) else "result-strip")).to_contain_text(first)
    assert clicks(app) == 0


OBSCURED = """() => { const a = document.activeElement;
  if (!a || !a.closest('#actions-slot')) return null;
  const g = document.querySelector('.act-main > .group.turn-end');
  if (!g || getComputedStyle(g).position !== 'sticky' || g.contains(a)) return null;
  return a.getBoundingClientRect().bottom > g.getBoundingClientRect().top + 1; }"""


def test_tab_never_leaves_an_option_under_the_turns_end_stuck_to_the_screens_bottom__OLOG_ACT_1(app):
    """From a tablet up the group with End turn sticks to the bottom of the screen (issue 38); an option the
    focus moves to is scrolled above it, never left under it (WCAG 2.4.11, focus not obscured)."""
    if is_phone(app):
        pytest.skip("on a phone the group comes first and does not stick")
    open_example(app, "OLOG · skirmish")
    app.keyboard.press("N")
    expect(app.get_by_test_id("status")).to_contain_text("turn")
    checked = []
    for _ in range(MAX_TABS):
        app.keyboard.press("Tab")
        got = app.evaluate(OBSCURED)
        if got is not None:
            checked.append(got)
        if len(checked) >= 6:
            break
    assert len(checked) >= 3, "Tab reached too few of the options below the fold to check"
    assert not any(checked), f"{sum(checked)} of {len(checked)} focused options were under the Turn group"
