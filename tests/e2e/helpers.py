"""Small page helpers shared by the e2e journeys (desktop and phone)."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def is_phone(page: Page) -> bool:
    return page.viewport_size["width"] < 760


def show(page: Page, tab: str) -> None:
    """On a phone, switch the bottom bar to a view (field, order, act, log)."""
    if is_phone(page):
        page.get_by_test_id(f"tab-{tab}").click()


def select(page: Page, cid: str) -> None:
    """Look at a combatant's own card and actions: its row's "details" control (a tap on the row during
    someone's turn targets it instead)."""
    show(page, "order")
    page.get_by_test_id(f"look-{cid}").click()


def hp_text(page: Page, cid: str) -> str:
    show(page, "order")
    return page.get_by_test_id(f"order-{cid}").locator(".hp-num").inner_text()


def damage(page: Page, cid: str, amount: int) -> None:
    select(page, cid)
    show(page, "act")
    ref = page.get_by_test_id("referee")
    if ref.get_attribute("open") is None:
        ref.locator("> summary").click()
    page.get_by_test_id("damage-input").fill(str(amount))
    page.get_by_test_id("apply-damage").click()


def roll(page: Page, expr: str) -> str:
    show(page, "order")
    page.get_by_test_id("dice-expr").fill(expr)
    page.get_by_test_id("roll").click()
    last = page.get_by_test_id("last-roll")
    expect(last).not_to_be_empty()
    return last.inner_text()


def undo(page: Page) -> None:
    page.get_by_test_id("undo").click()


def redo(page: Page) -> None:
    page.get_by_test_id("redo").click()


def log_text(page: Page) -> str:
    show(page, "log")
    return page.get_by_test_id("log").inner_text()


def open_setup(page: Page) -> None:
    page.get_by_test_id("toggle-setup").click()
    expect(page.get_by_test_id("editor")).to_be_visible()


def close_setup(page: Page) -> None:
    page.get_by_test_id("toggle-setup").click()
    expect(page.get_by_test_id("editor")).to_be_hidden()


def open_example(page: Page, system: str, name: str) -> None:
    """Open one of a system's ready-made encounters from Setup."""
    open_setup(page)
    page.get_by_test_id("example-select").select_option(f"{system}:{name}")
    expect(page.get_by_test_id("notice-ok")).to_contain_text("example")


def physical_dice(page: Page) -> None:
    show(page, "order")
    page.get_by_test_id("dice-physical").check()


def type_dice(page: Page, faces: dict[int, list[int]]) -> list[str]:
    """Answer every physical-dice prompt: faces[sides] gives the faces to type,
    in order, for dice of that size. Returns the prompts seen ("1d20"...)."""
    seen = []
    dialog = page.get_by_test_id("dice-entry")
    while True:
        if not any(faces.values()):
            # Every face typed: the answer to the last prompt has been drawn (waited for below), so a
            # prompt that is open now is one the test did not expect; no prompt is the end.
            assert not dialog.is_visible(), f"a dice prompt the test did not expect: {dialog.inner_text()!r}"
            return seen
        try:
            dialog.wait_for(state="visible", timeout=1500)
        except Exception:
            return seen
        typed = dialog.get_attribute("data-typed")
        title = dialog.locator("h2").inner_text()
        m = re.match(r"Roll (\d+)d(\d+)", title)
        count, sides = int(m.group(1)), int(m.group(2))
        seen.append(f"{count}d{sides}")
        for i in range(count):
            dialog.get_by_test_id(f"face-{i}").fill(str(faces[sides].pop(0)))
        dialog.get_by_test_id("faces-ok").click()
        # Wait until this prompt is answered: the dialog closes or asks for the next die.
        page.wait_for_function(
            "t => { const d = document.querySelector('[data-testid=dice-entry]');"
            " return !d || d.getAttribute('data-typed') !== t; }", arg=typed)


def option(page: Page, label: str):
    """The action button whose label contains the text."""
    show(page, "act")
    return page.locator("[data-testid=actions] button.act", has_text=label).first


def other_answer(page: Page, label: str):
    """The button beside an option that takes its question's other answer in one tap (OLOG: "Press on")."""
    show(page, "act")
    return page.locator("[data-testid=actions] .act-wrap",
                        has=page.locator("button.act", has_text=label)).first.locator("button.alt")


def next_turn(page: Page) -> None:
    show(page, "act")
    page.get_by_test_id("opt-next").click()


def status(page: Page) -> str:
    return page.get_by_test_id("status").inner_text()


# --- grid and OSE helpers (appended for tests/e2e/test_ose.py) ---------------------------------

def square_xy(page: Page, sq) -> tuple[float, float]:
    """Viewport coordinates of a grid square's centre (10 SVG units a square, viewBox included)."""
    show(page, "field")
    page.get_by_test_id("grid-svg").scroll_into_view_if_needed()
    return tuple(page.evaluate(
        """(s) => { const m = document.querySelector('#grid-svg').getScreenCTM();
                    return [m.a * (s[0] * 10 + 5) + m.e, m.d * (s[1] * 10 + 5) + m.f]; }""", list(sq)))


def tap_square(page: Page, sq) -> None:
    x, y = square_xy(page, sq)
    page.mouse.click(x, y)


def token_at(page: Page, cid: str, sq) -> None:
    """Expect a grid token to stand on a square."""
    show(page, "field")
    expect(page.get_by_test_id(f"tok-{cid}")).to_have_attribute(
        "transform", f"translate({sq[0] * 10 + 5} {sq[1] * 10 + 5})")


def declare(page: Page, cid: str, choice: str) -> None:
    """Tap a choice in OSE's declarations panel: "none", "fd", "brace" or "spell-<n>"."""
    show(page, "field")
    button = page.get_by_test_id(f"decl-{cid}-{choice}")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")


def other_answers(page: Page, label: str) -> None:
    """The "⋯" beside an option whose question has a default (a tap takes the default): ask it instead."""
    show(page, "act")
    wrap = page.locator("[data-testid=actions] .act-wrap", has=page.locator("button.act", has_text=label)).first
    wrap.locator("button.more").click()


def answer(page: Page, text: str) -> None:
    """Pick the answer of the inline question (asked before rolling) whose label contains the text."""
    show(page, "act")
    page.get_by_test_id("ask").locator("button.choice", has_text=text).click()


# The library as IndexedDB holds it (ui/dom/store.py): every record's JSON, read in the page.
STORED = """async () => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open('fray'); r.onsuccess = () => ok(r.result);
                                             r.onerror = () => no(r.error); });
  const tx = db.transaction(['entries', 'roster']);
  const all = s => new Promise(ok => { const q = tx.objectStore(s).getAll(); q.onsuccess = () => ok(q.result); });
  const [entries, roster] = await Promise.all([all('entries'), all('roster')]);
  db.close();
  const read = t => { try { return JSON.parse(t); } catch (e) { return {raw: t}; } };
  return {entries: entries.map(read), roster: roster.map(read),
          current: sessionStorage.getItem('fray.tab.entry')};
}"""


def stored(page: Page) -> dict:
    """{"entries": [library records], "roster": [roster entries], "current": this tab's entry id}."""
    return page.evaluate(STORED)


def saved_doc(page: Page) -> str | None:
    """The autosave of the encounter open in this tab: its library entry's document (the save-file JSON)."""
    got = stored(page)
    rec = next((r for r in got["entries"] if r["id"] == got["current"]), None)
    return None if rec is None else rec["doc"]


# --- the setup's placement map (tests/e2e/test_setup_placement.py, test_build_a_fight.py) ---------------

def centre(page: Page, locator) -> tuple[float, float]:
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Page, source, target, steps: int = 6) -> None:
    """Drag one element onto another: the mouse at desktop, a finger (CDP touch events) on a phone."""
    x0, y0 = centre(page, source)
    target.scroll_into_view_if_needed()
    x0, y0 = centre(page, source)  # scrolling to the target may have moved the source
    box = target.bounding_box()
    drag_by(page, x0, y0, box["x"] + box["width"] / 2 - x0, box["y"] + box["height"] / 2 - y0, steps)


def drag_by(page: Page, x0: float, y0: float, dx: float, dy: float, steps: int = 6) -> None:
    """A drag from (x0, y0) by (dx, dy): the mouse at desktop, a finger (CDP touch events) on a phone."""
    x1, y1 = x0 + dx, y0 + dy
    if not is_phone(page):
        page.mouse.move(x0, y0)
        page.mouse.down()
        for i in range(1, steps + 1):
            page.mouse.move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0, "id": 1}]})
        for i in range(1, steps + 1):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                {"x": x0 + (x1 - x0) * i / steps, "y": y0 + (y1 - y0) * i / steps, "id": 1}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def blank_from_welcome(page: Page, system: str) -> None:
    """A first visit's blank fight of `system` built in Setup: a sample PC against two orcs, on the map."""
    page.get_by_test_id(f"welcome-system-{system}").click()
    page.get_by_test_id("welcome-blank").click()
    expect(page.get_by_test_id("editor-start")).to_be_visible()
    page.get_by_test_id("add-Sample PC").click()
    page.get_by_test_id("add-Orc").click()
    page.get_by_test_id("add-Orc").click()
    expect(page.get_by_test_id("place-map").locator(".pm-tok")).to_have_count(3)
