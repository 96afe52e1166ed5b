"""Odds-ready times in the page (CORE-ODDS-1): for the 40-combatant benchmark encounters in headless Chromium,
how long after a tap until the selected combatant's odds are all on its buttons (ui/page/odds_ui.py sets
`#actions-slot[data-odds=ready]`). Target: p95 <= 150 ms.

Two figures per system:
- **taps**: a trusted tap on each combatant's order-row details control (a first selection of each in that state), from the
  pointerdown to the panel saying ready;
- **acting**: the combatant who acts now, in a state the page has not seen: a tap on Redo after an Undo
  (the redone step is a new state, and the page selects whoever acts in it), from the pointerdown to ready;
- **opening**: the same at start-up, from the first paint (`fray-ready`) to ready (boot work competes).
Run: python3 tests/bench/odds_page_bench.py [--openings 7] [--taps 40]. Asserts nothing.
"""
from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "py"), str(ROOT / "tests" / "bench")]

import server  # noqa: E402  (tools/server.py)
from fray.engine import storage  # noqa: E402
from interaction import pct  # noqa: E402
from page_bench import launch  # noqa: E402

PROBE = r"""
window.__odds = {tap: null, ready: []};
document.addEventListener("pointerdown", () => { window.__odds.tap = performance.now(); }, true);
const watch = () => new MutationObserver((records) => {
  for (const r of records) {
    if (r.target.id === "actions-slot" && r.target.dataset.odds === "ready") window.__odds.ready.push(performance.now());
  }
}).observe(document.documentElement, {subtree: true, attributes: true, attributeFilter: ["data-odds"]});
if (document.documentElement) watch(); else document.addEventListener("DOMContentLoaded", watch);
"""
ACTING = """() => {
  const r = performance.getEntriesByName('fray-ready');
  const start = r.length ? r[r.length - 1].startTime : 0;
  const after = window.__odds.ready.filter((t) => t >= start);
  return after.length ? after[0] - start : null;
}"""


def sessions():
    sys.path.insert(0, str(ROOT / "tests" / "bench"))
    from test_bench_odds import SESSIONS
    return {name: make() for name, make in SESSIONS.items()}


def acting_times(page, link: str, openings: int) -> list[float]:
    out = []
    for i in range(openings):
        if i:
            page.evaluate("() => window.frayRestart.close()")
            page.evaluate("(l) => history.replaceState(null, '', '#' + l)", link)
            page.evaluate("() => { performance.clearMarks('fray-ready'); window.__odds.ready = [];"
                          " window.frayRestart.open(); }")
            page.wait_for_selector("html[data-ready='true']", state="attached", timeout=120_000)
        page.wait_for_function(ACTING, timeout=60_000)
        out.append(page.evaluate(ACTING))
    return out


def timed_tap(page, selector: str) -> float:
    """Tap `selector` (trusted input); milliseconds from the pointerdown to the odds of the selected being ready."""
    page.wait_for_function("() => document.querySelector('#actions-slot').dataset.odds === 'ready'", timeout=60_000)
    page.evaluate("() => { window.__odds.ready = []; window.__odds.tap = null; }")
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("() => window.__odds.tap !== null && window.__odds.ready.some((t) => t > window.__odds.tap)",
                           timeout=60_000)
    return page.evaluate("() => window.__odds.ready.find((t) => t > window.__odds.tap) - window.__odds.tap")


WORK = "() => parseFloat(document.querySelector('#actions-slot').dataset.oddsWork || 'NaN')"


def redo_times(page, rounds: int) -> tuple[list[float], list[float]]:
    """(tap to ready, the Python work in it) for each redo."""
    out, work = [], []
    for _ in range(rounds):
        page.get_by_test_id("undo").click()
        out.append(timed_tap(page, "[data-testid=redo]"))
        work.append(page.evaluate(WORK))
    return out, work


def tap_times(page, session, taps: int) -> list[float]:
    out = []
    ids = [c.id for c in session.state.combatants]
    dismiss = page.locator("#notice-slot [data-action=dismiss]")
    if dismiss.count():
        dismiss.click()  # the notice bar stays over the top of the page: a row scrolled under it is not tapped
    for who in ids[:taps]:
        if page.locator(f"[data-testid=order-{who}].selected").count():
            continue  # selected already: a tap changes nothing
        # The row's details control selects it (a tap on the row itself makes a foe the actor's target).
        row = page.locator(f"[data-testid=order-{who}] button.look")
        if not row.count():
            continue
        row.scroll_into_view_if_needed()
        page.wait_for_function("() => document.querySelector('#actions-slot').dataset.odds === 'ready'",
                               timeout=60_000)
        page.evaluate("() => { window.__odds.ready = []; window.__odds.tap = null; }")
        box = row.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function("() => window.__odds.tap !== null && window.__odds.ready.some((t) => t > window.__odds.tap)",
                               timeout=30_000)
        out.append(page.evaluate("() => window.__odds.ready.find((t) => t > window.__odds.tap) - window.__odds.tap"))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openings", type=int, default=7)
    ap.add_argument("--taps", type=int, default=40)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    srv = server.start()
    base = f"http://127.0.0.1:{srv.server_port}/"
    with sync_playwright() as pw:
        browser = launch(pw)
        for name, session in sessions().items():
            ctx = browser.new_context(viewport={"width": 1280, "height": 800})
            ctx.add_init_script(PROBE)
            ctx.add_init_script("window.frayTestHooks = true;")
            ctx.add_init_script("try { localStorage.setItem('fray.snapshot.off', 'bench'); } catch (e) {}")
            page = ctx.new_page()
            link = storage.encode_link(session)
            page.goto(base + "#" + link)
            page.wait_for_selector("html[data-ready='true']", state="attached", timeout=120_000)
            opening = acting_times(page, link, args.openings)
            page.wait_for_timeout(2000)  # let the start-up's own background work end
            acting, work = redo_times(page, args.openings)
            taps = tap_times(page, session, args.taps)
            who = ", ".join(session.current()[:3]) + ("…" if len(session.current()) > 3 else "")
            print(f"{name}: acting now ({who}), tap on Redo to ready: p50 {pct(acting, .5):.0f} ms, "
                  f"p95 {pct(acting, .95):.0f} ms (n={len(acting)}; of which working out the odds p50 "
                  f"{pct(work, .5):.0f} ms, p95 {pct(work, .95):.0f}); at opening: p50 {pct(opening, .5):.0f} ms, "
                  f"p95 {pct(opening, .95):.0f} ms; taps on the others: p50 {pct(taps, .5):.0f} ms, "
                  f"p95 {pct(taps, .95):.0f} ms, max {max(taps):.0f} ms (n={len(taps)})", flush=True)
            ctx.close()
        browser.close()
    srv.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
