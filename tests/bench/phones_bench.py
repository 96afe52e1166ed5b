"""Phones bench (issue 54, docs/PHONES.md): a referee's step → every phone's DOM updated, and a phone's start.

    python tests/bench/phones_bench.py [--phones 4] [--steps 40] [--throttle 4]

Latency: the referee's page and `--phones` phones (390 px, touch) in one Chromium, paired by the text
fallback over the machine's own network addresses (no STUN); the referee alternates undo and redo by
keyboard `--steps` times; each step is timed from the referee's keydown (event timestamp, epoch clock) to
the last phone's first mutation of its view (a MutationObserver there, same clock): p50/p95/max in ms
(target p95 ≤ 100 ms with 4 phones).

Start: a phone at `--throttle`× CPU (DevTools' CPU throttling) opening its link, on a first visit (a new
context: nothing cached) and a later one (the same context again): from navigation to its answer shown
(what the phone does before the referee reads it), and from the answer accepted to the fight shown (the
connection and the first view). The referee's pasting is the person's time and is left out. Asserts
nothing: benchmarks measure, tests decide.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests" / "bench"), str(ROOT / "tests" / "e2e"), str(ROOT / "py")]
from interaction import pct  # noqa: E402  (tests/bench/interaction.py: one quantile for every bench)

BOOT_TIMEOUT = 90_000
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
KEYDOWN = """() => { window.__t0 = [];
  document.addEventListener('keydown', e => window.__t0.push(performance.timeOrigin + e.timeStamp), true); }"""
MUTATED = """() => { window.__t1 = [];
  new MutationObserver(() => window.__t1.push(performance.timeOrigin + performance.now()))
    .observe(document.getElementById('view'), {subtree: true, childList: true, characterData: true}); }"""
ANSWER = "[data-testid=phone-answer]"


def offer(ref, old: str = "") -> str:
    ref.wait_for_function("old => { const b = document.querySelector('[data-testid=phones-offer]');"
                          " return b && /phone\\.html#/.test(b.value) && b.value !== old; }", arg=old, timeout=20_000)
    return ref.get_by_test_id("phones-offer").input_value()


def join(ref, page, url: str, n: int) -> dict:
    """Open the phone at `url`, paste its answer on the referee's page; the times of its parts (ms)."""
    t0 = time.perf_counter()
    page.goto(url)
    page.wait_for_function(f"() => /^[A-Za-z0-9_-]{{60,}}$/.test(document.querySelector('{ANSWER}').value)",
                           timeout=20_000)
    answered = time.perf_counter()
    ref.get_by_test_id("phones-answer").fill(page.locator(ANSWER).input_value())
    pasted = time.perf_counter()
    ref.get_by_test_id("phones-connect").click()
    page.get_by_test_id("table-view").wait_for(timeout=20_000)
    shown = time.perf_counter()
    assert ref.get_by_test_id("phones-status").nth(n - 1).inner_text() == "connected"
    return {"to_answer": (answered - t0) * 1000, "to_fight": (shown - pasted) * 1000}


def run(browser, base: str, phones: int, steps: int, throttle: float) -> dict:
    from phones_kit import fight_link
    ref_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ref_ctx.add_init_script("window.frayWelcome = false;")
    contexts = [ref_ctx]
    try:
        ref = ref_ctx.new_page()
        ref.goto(base + "#" + fight_link())
        ref.wait_for_selector("html[data-ready='true']", state="attached", timeout=BOOT_TIMEOUT)
        ref.get_by_test_id("phones-open").click()
        starts = {}
        url = offer(ref)
        # A phone's start, throttled: first visit in a new context, then a later visit in the same one.
        ctx = browser.new_context(**PHONE)
        contexts.append(ctx)
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        starts["first"] = join(ref, page, url, 1)
        ref.get_by_test_id("phones-again").first.click()
        url = offer(ref, url)
        page.goto("about:blank")
        starts["later"] = join(ref, page, url, 1)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        pages = [page]
        for n in range(2, phones + 1):
            url = offer(ref, url)
            c = browser.new_context(**PHONE)
            contexts.append(c)
            p = c.new_page()
            join(ref, p, url, n)
            pages.append(p)
        ref.get_by_test_id("phones-close").click()
        ref.locator("body").press("n")
        ref.locator("body").press("n")
        ref.evaluate(KEYDOWN)
        for p in pages:
            p.evaluate(MUTATED)
        lat, missing = [], 0
        for i in range(steps):
            ref.evaluate("() => { window.__t0 = []; }")
            for p in pages:
                p.evaluate("() => { window.__t1 = []; }")
            ref.keyboard.press("Control+z" if i % 2 == 0 else "Control+Shift+z")
            try:
                for p in pages:
                    p.wait_for_function("() => window.__t1.length > 0", timeout=5000)
            except Exception:
                missing += 1
                continue
            t0 = ref.evaluate("() => window.__t0[0]")
            t1 = max(p.evaluate("() => window.__t1[0]") for p in pages)
            lat.append(t1 - t0)
        return {"phones": phones, "steps": steps, "n": len(lat), "no_change": missing, "p50": pct(lat, .5),
                "p95": pct(lat, .95), "max": max(lat) if lat else None, "target_p95": 100, "throttle": throttle,
                "start": starts}
    finally:
        for c in contexts:
            c.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phones", type=int, default=4)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--throttle", type=float, default=4)
    ap.add_argument("--out", default=str(ROOT / "bench-results" / "phones.json"))
    args = ap.parse_args(argv)
    import server
    import setup
    from page_bench import chromium
    from playwright.sync_api import sync_playwright
    setup.setup_vendor()
    setup.build_app()
    srv = server.start()
    base = f"http://127.0.0.1:{srv.server_port}/"
    flags = ["--disable-gpu", "--no-first-run", "--disable-quic", "--disable-background-networking", "--no-sandbox",
             "--disable-features=WebRtcHideLocalIpsWithMdns"]  # no mDNS names: no multicast query sent
    try:
        with sync_playwright() as pw:
            exe = chromium()
            browser = pw.chromium.launch(headless=True, args=flags, **({"executable_path": exe} if exe else {}))
            res = run(browser, base, args.phones, args.steps, args.throttle)
            browser.close()
    finally:
        srv.shutdown()
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1))
    s = res["start"]
    print(f"phones: referee step → every phone's DOM ({res['phones']} phones), p50 {res['p50']:.1f} ms, "
          f"p95 {res['p95']:.1f} ms (target ≤ 100), max {res['max']:.1f} ({res['n']} steps, "
          f"{res['no_change']} without a change)")
    for visit in ("first", "later"):
        print(f"phone start at {res['throttle']:g}x CPU, {visit} visit: link → answer shown "
              f"{s[visit]['to_answer']:.0f} ms; answer accepted → fight shown {s[visit]['to_fight']:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
