"""The painted start of a later visit on the OSE detailed example (issue #57): how soon the fight is on screen.

`painted_start(browser, base, rounds)` runs, per round and interleaved with the bare stock-Pyodide page
(tests/bench/bare.html, visited twice the same way): a first visit in an empty context, the OSE detailed
example opened from Setup, its painted start stored (`fray.paint` holds the grid) and the start-up snapshot
made; then a later visit, where it reads the navigation's timing (the service worker's start, the page's
response, DOMContentLoaded), the `fray-drawn` mark (static/boot/boot.js put the stored markup in the page),
the first contentful paint (the browser's own: the first frame with content), `fray-ready`, and when each
file the page's head waits for came. The page bench's part `paint`:
`python3 tests/bench/page_bench.py --only paint --rounds 3`. Asserts nothing.
"""
from __future__ import annotations

import statistics

BOOT_TIMEOUT = 120_000
READY = "html[data-ready='true']"
TIMES = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const mark = n => { const e = performance.getEntriesByName(n); return e.length ? e[0].startTime : null; };
  const res = {};
  for (const e of performance.getEntriesByType('resource')) {
    const path = new URL(e.name).pathname;
    if (/\\.(css|js)$/.test(path) && e.startTime < nav.domContentLoadedEventEnd)
      res[path] = [e.startTime, e.responseEnd];
  }
  return {worker: nav.workerStart, request: nav.requestStart, response: nav.responseStart, html: nav.responseEnd,
          interactive: nav.domInteractive, dcl: nav.domContentLoadedEventEnd, bytes: nav.decodedBodySize,
          drawn: mark('fray-drawn'), frame: mark('fray-painted'), fcp: mark('first-contentful-paint'),
          ready: mark('fray-ready'), snapshot: document.documentElement.dataset.snapshot || null, files: res};
}"""
STORED = "() => (localStorage.getItem('fray.paint') || '').includes('data-view=\\\\\"grid\\\\\"')"
SNAPSHOT = """async () => { const t = new Promise(r => setTimeout(r, 90000));
  if (!window.frayBoot) return null;
  await Promise.race([window.frayBoot.serviceWorker, t]); return await Promise.race([window.frayBoot.snapshot, t]); }"""


def _visit(ctx, url: str) -> dict:
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=BOOT_TIMEOUT)
    page.wait_for_timeout(200)  # the first contentful paint is reported a frame later
    out = page.evaluate(TIMES)
    page.close()
    return out


def _first_visit(ctx, url: str, fray: bool) -> None:
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=BOOT_TIMEOUT)
    if fray:
        page.get_by_test_id("toggle-setup").click()
        page.get_by_test_id("example-select").select_option("ose:detailed")
        page.get_by_test_id("notice-ok").wait_for()
        page.wait_for_function(STORED, timeout=30_000)
    page.evaluate(SNAPSHOT)
    page.close()


def painted_start(browser, base: str, rounds: int = 3, log=print) -> dict:
    urls = {"fray": base, "bare": base + "tests/bench/bare.html"}
    out: dict = {k: [] for k in urls}
    for r in range(rounds):
        for kind in (["fray", "bare"] if r % 2 == 0 else ["bare", "fray"]):
            ctx = browser.new_context(viewport={"width": 1280, "height": 800})
            ctx.add_init_script("window.frayWelcome = false;")
            try:
                _first_visit(ctx, urls[kind], kind == "fray")
                _visit(ctx, urls[kind])  # the second visit; the third is the one measured
                t = _visit(ctx, urls[kind])
            finally:
                ctx.close()
            out[kind].append(t)
            log(f"  round {r + 1} {kind:5}: worker start {t['worker']:5.0f}  html {t['html']:5.0f}  "
                f"DOMContentLoaded {t['dcl']:5.0f}  fight drawn {t['drawn'] or 0:5.0f}  "
                f"its frame {t['frame'] or 0:5.0f}  first contentful paint {t['fcp'] or 0:5.0f}  "
                f"ready {t['ready'] or 0:6.0f} ms  "
                f"(html {t['bytes'] / 1e3:.0f} kB)")
    return out


def summary(res: dict) -> str:
    def med(kind: str, key: str) -> float:
        return statistics.median(t[key] or 0 for t in res[kind])
    lines = ["later visit, OSE detailed example (medians, ms):   fray    bare"]
    for key, label in (("worker", "service worker started"), ("html", "html received"), ("dcl", "DOMContentLoaded"),
                       ("drawn", "fight drawn (fray-drawn)"), ("frame", "its frame made (fray-painted)"),
                       ("fcp", "first contentful paint"), ("ready", "ready")):
        lines.append(f"  {label:38} {med('fray', key):7.0f} {med('bare', key):7.0f}")
    fcp, dcl = med("fray", "fcp"), med("bare", "dcl")
    lines.append(f"  fight on screen / bare page's DOMContentLoaded: {fcp / dcl:.2f}; ready ratio "
                 f"{med('fray', 'ready') / med('bare', 'ready'):.2f}")
    files = res["fray"][-1]["files"]
    for path, (start, end) in sorted(files.items(), key=lambda kv: kv[1][0]):
        lines.append(f"  head file {path:50} {start:6.0f} -> {end:6.0f}")
    return "\n".join(lines)
