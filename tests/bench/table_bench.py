"""Table display latency: a referee's step → the table window's DOM updated (issue 18, docs/TABLE.md).

`table_latency(browser, base, steps)` opens the referee's page and the table window it opens (one context,
as a referee would), takes a few steps of an OLOG fight, then alternates undo and redo `steps` times by
keyboard. Each step is timed from the referee's keydown (its event timestamp, on the epoch clock) to the
first mutation of the table window's DOM (a MutationObserver there, same clock): the channel, the table's
parse and its drawing. Returns p50/p95/p99/max in ms (target p95 ≤ 50 ms); asserts nothing.
`tests/bench/page_bench.py` can call it; run alone: `python tests/bench/table_bench.py [--steps 100]`.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
from interaction import pct  # noqa: E402  (tests/bench/interaction.py: one quantile for every bench)

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOOT_TIMEOUT = 90_000
READY = "html[data-ready='true']"

REFEREE_PROBE = """() => {
  window.__t0 = [];
  document.addEventListener('keydown', e => window.__t0.push(performance.timeOrigin + e.timeStamp), true);
}"""
TABLE_PROBE = """() => {
  window.__t1 = [];
  new MutationObserver(() => window.__t1.push(performance.timeOrigin + performance.now()))
    .observe(document.getElementById('table-root'), {subtree: true, childList: true, characterData: true,
                                                     attributes: true});
}"""




def table_latency(browser, base: str, steps: int = 100, example: str = "olog:two_orcs",
                  viewport: dict | None = None) -> dict:
    """Referee step → table DOM updated, over `steps` undo/redo steps (ms)."""
    ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 800})
    ctx.add_init_script("window.frayWelcome = false;")  # straight to Setup, not the first visit's welcome
    try:
        ref = ctx.new_page()
        ref.goto(base)
        ref.wait_for_selector(READY, state="attached", timeout=BOOT_TIMEOUT)
        ref.get_by_test_id("toggle-setup").click()
        ref.get_by_test_id("example-select").select_option(example)
        ref.get_by_test_id("notice-ok").wait_for()
        with ref.expect_popup() as info:
            ref.get_by_test_id("table-open").click()
        table = info.value
        table.wait_for_selector(READY, state="attached", timeout=BOOT_TIMEOUT)
        table.get_by_test_id("table-view").wait_for()
        for _ in range(4):  # a few steps of the fight, so undo and redo have something to walk
            ref.locator("body").press("n")
        ref.evaluate(REFEREE_PROBE)
        table.evaluate(TABLE_PROBE)
        lat: list[float] = []
        missing = 0
        for i in range(steps):
            ref.evaluate("() => { window.__t0 = []; }")
            table.evaluate("() => { window.__t1 = []; }")
            ref.keyboard.press("Control+z" if i % 2 == 0 else "Control+Shift+z")
            try:
                table.wait_for_function("() => window.__t1.length > 0", timeout=5000)
            except Exception:
                missing += 1
                continue
            t0 = ref.evaluate("() => window.__t0[0]")
            t1 = table.evaluate("() => window.__t1[0]")
            if t0 is not None and t1 is not None:
                lat.append(t1 - t0)
        return {"steps": steps, "n": len(lat), "no_change": missing, "p50": pct(lat, .5), "p95": pct(lat, .95),
                "p99": pct(lat, .99), "max": max(lat) if lat else None, "target_p95": 50}
    finally:
        ctx.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--out", default=str(ROOT / "bench-results" / "table.json"))
    args = ap.parse_args(argv)
    sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests" / "bench")]
    import server
    import setup
    from page_bench import launch
    from playwright.sync_api import sync_playwright
    setup.setup_vendor()
    setup.build_app()
    srv = server.start()
    base = f"http://127.0.0.1:{srv.server_port}/"
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            res = table_latency(browser, base, args.steps)
            browser.close()
    finally:
        srv.shutdown()
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1))
    print(f"table display: referee step → table DOM, p50 {res['p50']:.1f} ms, p95 {res['p95']:.1f} ms "
          f"(target ≤ 50), p99 {res['p99']:.1f}, max {res['max']:.1f} ({res['n']} steps, "
          f"{res['no_change']} without a change)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
