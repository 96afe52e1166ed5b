"""The painted start (issue 36): on a later visit the referee's last fight is drawn before Python is up.

The markup py/fray/ui/page/paint.py stored with the build id (`fray.paint`) is painted by static/boot/boot.js at
once, inert and marked as starting; Python's first drawing then takes it over in place and finds it
identical. A tap on it meanwhile is applied once Python is up on the very element it hit, or visibly
refused; a stale or corrupt entry is ignored and removed. Nothing leaves the local server (the guard).
"""
from __future__ import annotations

import json

import pytest
from harness import new_context, wait_ready, watch
from helpers import open_example
from playwright.sync_api import expect

pytestmark = pytest.mark.parametrize("device", ["desktop"])

# Before the page's scripts: what the painted page was at once (right after boot.js painted it), every change
# made to it until Python's first drawing had been written (frayBoot.ready is called right after it), and
# what the app root held then. The odds' progress marks (ui/page/odds_ui.py: data-odds on the actions slot) are
# the page's idle work starting, not the drawing: they are left out of both.
WATCH = r"""
(() => {
  let boot;
  window.__paint = null;
  Object.defineProperty(window, "frayBoot", { configurable: true, get() { return boot; }, set(v) {
    boot = v;
    const paint = v.paint, ready = v.ready;
    v.paint = function () {
      const drawn = paint.apply(this, arguments);
      const app = document.getElementById("app"), note = document.getElementById("boot-starting");
      window.__paint = { drawn, html: app.innerHTML, inert: app.inert, busy: app.getAttribute("aria-busy"),
                         hidden: app.hidden, marked: document.documentElement.dataset.painted || null,
                         note: note.hidden ? null : note.textContent, kept: localStorage.getItem("fray.paint") };
      window.__node = document.querySelector("#order-slot li");
      window.__changes = [];
      window.__observer = new MutationObserver((list) => { window.__changes.push(...list); });
      window.__observer.observe(app, { subtree: true, childList: true, attributes: true, characterData: true });
      return drawn;
    };
    v.ready = function () {
      const odds = (m) => m.type === "attributes" && m.attributeName.startsWith("data-odds");
      if (window.__observer) {
        window.__changes.push(...window.__observer.takeRecords());
        window.__observer.disconnect();
        window.__changed = window.__changes.filter((m) => !odds(m)).map((m) =>
          m.type + " " + (m.target.id || m.target.nodeName) + " " + (m.attributeName || ""));
      }
      const app = document.getElementById("app").cloneNode(true);
      const slot = app.querySelector("#actions-slot");
      if (slot) { slot.removeAttribute("data-odds"); slot.removeAttribute("data-odds-work"); }
      window.__firstRender = app.innerHTML;
      return ready.apply(this, arguments);
    };
  }});
})();
"""


def stored(page) -> dict | None:
    text = page.evaluate("localStorage.getItem('fray.paint')")
    return None if text is None else json.loads(text)


def wait_stored(page, needle: str) -> dict:
    """The painted start stored for the fight now open (it is written a moment after a change)."""
    page.wait_for_function("n => (localStorage.getItem('fray.paint') || '').includes(n)", arg=needle,
                           timeout=30_000)
    return stored(page)


def mark(page, name: str):
    return page.evaluate(f"(performance.getEntriesByName('{name}')[0] || {{}}).startTime || null")


@pytest.mark.parametrize("system,example,view", [("ose", "detailed", "grid"), ("olog", "skirmish", "bands")])
def test_a_later_visit_paints_the_last_fight_and_python_takes_it_over_unchanged(page, base_url_local, system,
                                                                                 example, view):
    page.add_init_script(WATCH)
    page.goto(base_url_local)
    wait_ready(page)
    assert page.evaluate("window.__paint.drawn") is False  # a first visit: nothing to paint
    open_example(page, system, example)
    entry = wait_stored(page, f'data-view=\\"{view}\\"')
    assert entry["build"] == page.evaluate("self.FRAY_BUILD") and entry["build"]

    page.reload()
    wait_ready(page)
    painted = page.evaluate("window.__paint")
    assert painted["drawn"] is True
    # Drawn at once, visibly not live yet: inert, busy, marked as starting, a "Starting…" note.
    assert painted["inert"] is True and painted["busy"] == "true" and painted["hidden"] is False
    assert painted["marked"] == "starting" and painted["note"] == "Starting…"
    assert f'data-view="{view}"' in painted["html"] and 'data-testid="order-' in painted["html"]
    drawn, ready = mark(page, "fray-drawn"), mark(page, "fray-ready")
    assert drawn is not None and ready is not None and drawn < ready
    # Python's first drawing found the painted page identical: it changed no node, and kept them all.
    assert page.evaluate("window.__changed") == []
    assert page.evaluate("window.__firstRender") == painted["html"]
    assert page.evaluate("window.__node !== null && window.__node.isConnected")
    # Live now: no longer inert, busy or marked, the note gone.
    assert page.evaluate("""() => { const a = document.getElementById('app');
        return !a.inert && !a.hasAttribute('aria-busy') && !document.documentElement.dataset.painted; }""")
    expect(page.get_by_test_id("boot-starting")).to_be_hidden()
    expect(page.get_by_test_id("boot")).to_be_hidden()


@pytest.mark.parametrize("text", ["{not json", json.dumps({"v": 1, "build": "an-older-build", "entry": "x",
                                                          "html": "<p data-testid='stale'>stale</p>"}),
                                  json.dumps({"v": 99, "html": "<p>?</p>"})])
def test_a_stale_or_corrupt_entry_is_ignored_and_removed(page, base_url_local, text):
    page.add_init_script(f"try {{ localStorage.setItem('fray.paint', {json.dumps(text)}); }} catch (e) {{}}")
    page.add_init_script(WATCH)
    page.goto(base_url_local)
    wait_ready(page)
    painted = page.evaluate("window.__paint")
    assert painted["drawn"] is False and painted["kept"] is None and painted["marked"] is None
    assert mark(page, "fray-drawn") is None
    expect(page.get_by_test_id("stale")).to_have_count(0)
    expect(page.get_by_test_id("undo")).to_be_visible()


@pytest.fixture
def held(browser, base_url_local, guard, device):
    """A page whose Python start is held back (py/main.py is not answered until `release()`), so a test
    can tap the painted page while it is starting. Service workers are blocked, so every request is seen."""
    ctx = new_context(browser, base_url_local, device, guard, service_workers="block")
    page = watch(ctx.new_page(), guard)
    page.add_init_script(WATCH)
    waiting: list = []
    state = {"hold": False}

    def on_main(route):
        if state["hold"]:
            waiting.append(route)
        else:
            route.continue_()

    page.route("**/py/main.py", on_main)

    def release():
        state["hold"] = False
        while waiting:
            waiting.pop().continue_()

    def hold():
        state["hold"] = True

    page.hold, page.release = hold, release
    yield page
    release()
    ctx.close()


def painted_and_starting(page, base: str) -> None:
    """Visit once (the fight stored), then come back with Python held: the painted page, starting."""
    page.goto(base)
    wait_ready(page)
    open_example(page, "ose", "detailed")
    wait_stored(page, 'data-view=\\"grid\\"')
    page.hold()
    page.reload(wait_until="commit")
    page.wait_for_selector("html[data-painted='starting']", state="attached")
    expect(page.get_by_test_id("boot-starting")).to_have_text("Starting…")


def tap(page, selector: str) -> None:
    """A real tap at the element's place (Playwright's own click waits for an element that takes events;
    a painted page is inert)."""
    box = page.locator(selector).first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_tap_while_starting_is_applied_once_python_is_up(held, base_url_local):
    page = held
    painted_and_starting(page, base_url_local)
    tap(page, "[data-testid=help]")
    expect(page.get_by_test_id("boot-starting")).to_contain_text("will be done in a moment")
    assert page.evaluate("document.querySelector('#dialog-slot').innerHTML") == ""
    page.release()
    wait_ready(page)
    expect(page.get_by_test_id("help-dialog")).to_be_visible()
    expect(page.get_by_test_id("boot-starting")).to_be_hidden()


def test_a_tap_on_the_field_while_starting_is_refused_visibly(held, base_url_local):
    page = held
    painted_and_starting(page, base_url_local)
    before = page.evaluate("document.querySelector('#order-slot').innerHTML")
    tap(page, "#field-slot svg")
    expect(page.get_by_test_id("boot-starting")).to_have_text("Still starting — tap again in a moment.")
    page.release()
    wait_ready(page)
    assert page.evaluate("document.querySelector('#order-slot').innerHTML") == before  # nothing was applied


def test_a_kept_tap_whose_button_changed_is_refused_not_applied_elsewhere(held, base_url_local):
    page = held
    painted_and_starting(page, base_url_local)
    # The painted help button is not what Python draws (as if the fight had changed in another tab).
    page.evaluate("document.querySelector('[data-testid=help]').setAttribute('title', 'an older help')")
    tap(page, "[data-testid=help]")
    page.release()
    wait_ready(page)
    note = page.get_by_test_id("boot-starting")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Not done")
    assert page.evaluate("document.querySelector('#dialog-slot').innerHTML") == ""
