"""Timeline scrubbing on a long fight (issue #56): one step of the review's slider → the next paint.

`review_latency(browser, base, steps, moves)` opens the app on a share link of an OLOG fight of `steps`
steps (the 40-combatant example played at random, tests/bench/page_bench.py `long_fight`), opens the
timeline at its end, focuses the slider and presses the left arrow `moves` times. Each move is timed from
the keydown (its event timestamp) to the first animation frame after the dialog shows the new step (a
MutationObserver on its `data-step`, then requestAnimationFrame): the handler, the past state's field and
order drawn, and the patch. Returns p50/p95/max in ms (target: a frame or two, p95 ≤ 33 ms); asserts
nothing. The page bench's part `review`: `python3 tools/dev.py bench --only review [--review-steps 1000]`.
"""
from __future__ import annotations

import pathlib
import sys

from interaction import pct  # tests/bench/interaction.py: one quantile for every bench

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOOT_TIMEOUT = 120_000
READY = "html[data-ready='true']"
PROBE = """() => {
  window.__rv = [];
  let t0 = 0;
  document.addEventListener('keydown', e => { t0 = e.timeStamp; }, true);
  new MutationObserver(() => { const t = t0; requestAnimationFrame(() => window.__rv.push(performance.now() - t)); })
    .observe(document.getElementById('dialog-slot'), {subtree: true, attributes: true, attributeFilter: ['data-step']});
}"""


def review_latency(browser, base: str, steps: int = 1000, moves: int = 60) -> dict:
    """Slider step → next paint, over `moves` steps back through a fight of `steps` steps (ms)."""
    sys.path[:0] = [str(ROOT / "py")]
    from fray.engine import storage
    from page_bench import long_fight
    link = storage.encode_link(storage.loads(long_fight(steps)).session)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script("window.frayWelcome = false;")
    try:
        page = ctx.new_page()
        page.goto(base + "#" + link)
        page.wait_for_selector(READY, state="attached", timeout=BOOT_TIMEOUT)
        page.get_by_test_id("open-review").click()
        page.get_by_test_id("review").wait_for()
        page.get_by_test_id("review-scrub").focus()
        page.evaluate(PROBE)
        lat: list[float] = []
        for i in range(moves):
            page.keyboard.press("ArrowLeft")
            page.wait_for_function(f"() => window.__rv.length > {i}", timeout=10_000)
        lat = page.evaluate("() => window.__rv")
        shown = page.get_by_test_id("review").get_attribute("data-step")
        return {"steps": steps, "moves": moves, "n": len(lat), "at": shown, "p50": pct(lat, .5),
                "p95": pct(lat, .95), "max": max(lat) if lat else None, "target_p95": 33}
    finally:
        ctx.close()
