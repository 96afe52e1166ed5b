"""Page benchmark: Fray in headless Chromium against a bare stock-Pyodide page.

Run by `python3 tools/dev.py bench` (or directly: `python tests/bench/page_bench.py
--out bench-results/page.json [--rounds 5] [--clicks 200] [--only startup,clicks,engine]`).
It prints a table and writes JSON. It asserts nothing: whole-page times vary
by ±10 % from run to run on a shared machine, so every comparison is a ratio
measured in this one run, with the pages interleaved (A B B A ...).

(a) start-up: navigation -> `performance.getEntriesByName('fray-ready')`, for
    Fray and for tests/bench/bare.html, cold (new browser context, empty
    caches), warm (a second visit in the same context, after Fray's service
    worker is active and the memory snapshot the first visit makes a few
    seconds in is stored: the second visit starts from it) and later (a third);
(b) clicks: in-page latency from the input event to the DOM mutation it causes
    (a capture listener + MutationObserver injected before the page's scripts),
    over N clicks in a 40-combatant encounter opened by share link, for the
    bands (OLOG), grid (OSE detailed) and ruler (Ogre) views;
(c) bytes on the wire (as the local server sends them, gzip like GitHub Pages),
    cold and warm, and what the service worker's install fetches;
(d) the same engine workload (replaying a 10,000-step OLOG fight with
    `storage.loads`, and random playouts) in Pyodide, run through PyScript's
    own interpreter (`whenDefined("py")`), and in this CPython.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import pathlib
import platform
import random
import shutil
import statistics
import sys
import tarfile
import time
from dataclasses import replace

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "py")]

import server  # noqa: E402  (tools/server.py)
import setup  # noqa: E402  (tools/setup.py)
from fray.engine import storage  # noqa: E402
from fray.engine.ruleset import SetHp  # noqa: E402
from fray.engine.session import Session  # noqa: E402

BENCH_DIR = ROOT / "static" / "build" / "bench"
BOOT_TIMEOUT = 120_000
VIEWPORT = {"width": 1280, "height": 800}
TARGETS = {
    "cold_ready_ratio": 0.55, "warm_ready_ratio": 0.45, "repeat_ready_ratio": 0.35, "click_p95_ms": 2.0, "click_p99_ms": 5.0,
    "engine_ratio": 2.0, "replay_10k_s": 1.0, "cold_bytes_mb": 7.0,
}

# --- in-page probes -------------------------------------------------------------------------------

# Every input event and every DOM mutation, timestamped, from before the page's
# own scripts run: a click's latency is from the last input event before a
# mutation to that mutation (the MutationObserver runs right after the handler
# that changed the DOM returns), and to the next animation frame.
PROBE = """
(() => {
  const log = window.__probe = { events: [], muts: [], frames: [] };
  for (const kind of ["pointerdown", "pointerup", "click", "keydown"]) {
    addEventListener(kind, () => { log.events.push(performance.now()); }, true);
  }
  new MutationObserver(() => {
    const t = performance.now();
    log.muts.push(t);
    requestAnimationFrame(() => log.frames.push(performance.now()));
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();
"""

READY_MS = "performance.getEntriesByName('fray-ready').length ? performance.getEntriesByName('fray-ready')[0].startTime : null"

# Resolves when Fray's service worker is active (null when there is none).
SW_ACTIVE = """async () => {
  if (!('serviceWorker' in navigator)) return null;
  const boot = window.frayBoot;
  if (boot && boot.serviceWorker) { const r = await boot.serviceWorker; return r ? r.active.state : null; }
  return null;
}"""


def chromium() -> str | None:
    for cand in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if cand and pathlib.Path(cand).exists():
            return cand
    return None


def launch(pw):
    args = ["--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--disable-quic", "--disable-default-apps"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")
    exe = chromium()
    return pw.chromium.launch(headless=True, args=args, **({"executable_path": exe} if exe else {}))


def stock_stdlib() -> None:
    """The stock python_stdlib.zip for the bare page, from the verified npm tarball."""
    out = BENCH_DIR / "python_stdlib.zip"
    if out.exists():
        return
    pin = next(p for p in setup.load_pins() if p["name"] == "pyodide")
    data = setup.fetch_tarball(pin)  # cached and sha512-checked by setup
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        member = tar.extractfile("package/python_stdlib.zip")
        assert member is not None
        BENCH_DIR.mkdir(parents=True, exist_ok=True)
        out.write_bytes(member.read())


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation."""
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


class Bench:
    def __init__(self, srv, browser, base: str) -> None:
        self.srv = srv
        self.browser = browser
        self.base = base

    def sent(self, until: float | None = None) -> tuple[int, int, int]:
        """(all bytes, runtime bytes under static/vendor/, requests) since the last call; with
        `until` (epoch seconds), only responses finished by then (the rest stay for the next call)."""
        time.sleep(0.3)  # the server logs a response after its last byte is written
        rows = self.srv.take_sent()
        if until is not None:
            later = [r for r in rows if r[2] > until]
            rows = [r for r in rows if r[2] <= until]
            with self.srv._sent_lock:
                self.srv.sent[:0] = later
        return (sum(n for _, n, _ in rows), sum(n for p, n, _ in rows if p.startswith("/static/vendor/")), len(rows))

    def load(self, ctx, url: str) -> float:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        try:
            page.wait_for_selector("html[data-ready='true']", state="attached", timeout=BOOT_TIMEOUT)
        except Exception:
            raise SystemExit(f"{url} did not become ready; console errors: {errors}") from None
        ms = page.evaluate(READY_MS)
        # When the page was ready, on the server's clock: what finished later is the service worker's.
        self._ready_epoch = (page.evaluate("performance.timeOrigin") + ms) / 1000
        self._last_page = page
        return float(ms)

    # (a) + (c) ---------------------------------------------------------------------------------
    def startup(self, rounds: int) -> dict:
        urls = {"fray": self.base, "bare": self.base + "tests/bench/bare.html"}
        res = {k: {"cold": [], "warm": [], "repeat": [], "cold_bytes": [], "warm_bytes": [], "cold_runtime_bytes": [],
                   "warm_runtime_bytes": [], "cold_requests": [], "warm_requests": [], "sw_install_bytes": [],
                   "repeat_from_snapshot": []}
               for k in urls}
        for r in range(rounds):
            order = ["fray", "bare"] if r % 2 == 0 else ["bare", "fray"]
            for kind in order:
                self.srv.take_sent()
                ctx = self.browser.new_context(viewport=VIEWPORT)
                cold = self.load(ctx, urls[kind])
                b, rb, n = self.sent(until=self._ready_epoch)
                res[kind]["cold"].append(cold)
                res[kind]["cold_bytes"].append(b)
                res[kind]["cold_runtime_bytes"].append(rb)
                res[kind]["cold_requests"].append(n)
                # A second visit comes later: let the service worker (if any) finish installing,
                # and Fray make its start-up snapshot (a few seconds after the first visit).
                state = self._last_page.evaluate(SW_ACTIVE)
                first_snap = self._last_page.evaluate("() => window.frayBoot ? window.frayBoot.snapshot : null")
                b, _, _ = self.sent()
                res[kind]["sw_install_bytes"].append(b if state else 0)
                self._last_page.close()
                warm = self.load(ctx, urls[kind])
                b, rb, n = self.sent(until=self._ready_epoch)
                res[kind]["warm"].append(warm)
                res[kind]["warm_bytes"].append(b)
                res[kind]["warm_runtime_bytes"].append(rb)
                res[kind]["warm_requests"].append(n)
                snap = first_snap
                self._last_page.close()
                repeat = self.load(ctx, urls[kind])
                self.sent()
                res[kind]["repeat"].append(repeat)
                res[kind]["repeat_from_snapshot"].append(
                    self._last_page.evaluate("document.documentElement.dataset.snapshot === 'restored'"))
                ctx.close()
                print(f"  round {r + 1} {kind:5}: cold {cold:7.0f} ms  warm {warm:7.0f} ms  repeat {repeat:7.0f} ms  "
                      f"bytes {res[kind]['cold_bytes'][-1] / 1e6:5.2f} / {b / 1e6:5.2f} MB"
                      + (f"  (service worker active; snapshot {snap})" if state else ""), flush=True)
        return res

    # (b) ---------------------------------------------------------------------------------------
    def clicks(self, n: int) -> dict:
        out = {}
        for view, session in click_sessions().items():
            ctx = self.browser.new_context(viewport=VIEWPORT)
            ctx.add_init_script(PROBE)
            page = ctx.new_page()
            page.goto(self.base + "#" + storage.encode_link(session))
            page.wait_for_selector("html[data-ready='true']", state="attached", timeout=BOOT_TIMEOUT)
            ids = [c.id for c in session.state.combatants]
            lat, frames, missing = [], [], 0
            kinds: dict[str, list[float]] = {}
            for i in range(n):
                page.evaluate("() => { const p = window.__probe; p.events = []; p.muts = []; p.frames = []; }")
                kind = self.click_one(page, view, ids, i)
                page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                probe = page.evaluate("() => window.__probe")
                ms = latency(probe["events"], probe["muts"])
                if ms is None:
                    missing += 1
                    continue
                lat.append(ms)
                kinds.setdefault(kind, []).append(ms)
                if probe["frames"]:
                    frames.append(max(probe["frames"]) - max(e for e in probe["events"] if e <= max(probe["muts"])))
            errors = page.evaluate("() => document.querySelectorAll('[data-testid=notice-error]').length")
            ctx.close()
            out[view] = {"n": len(lat), "no_change": missing, "p50": pct(lat, .5), "p95": pct(lat, .95),
                         "p99": pct(lat, .99), "max": max(lat) if lat else None,
                         "frame_p50": pct(frames, .5), "frame_p95": pct(frames, .95), "error_notices": errors,
                         "by_kind": {k: {"n": len(v), "p50": pct(v, .5), "p95": pct(v, .95)} for k, v in kinds.items()}}
            print(f"  {view:6}: p50 {out[view]['p50']:.2f} ms  p95 {out[view]['p95']:.2f}  p99 {out[view]['p99']:.2f}"
                  f"  ({len(lat)} clicks, {missing} without a change)", flush=True)
        return out

    def click_one(self, page, view: str, ids: list[str], i: int) -> str:
        """One click that re-renders: pick a combatant in the order list, tap one in the field,
        open a rule's text, close it, or press a refused action (its reason is shown)."""
        step = i % 5
        who = ids[(i * 7) % len(ids)]
        if step in (0, 2):
            page.locator(f"[data-testid=order-{who}] button.pick").click()
            return "order"
        if step == 1:
            tok = page.locator(f"#field-slot [data-action='token:{who}'], #field-slot [data-testid=tok-{who}]").first
            if tok.count():
                tok.click()
                return "field"
            page.locator(f"[data-testid=order-{who}] button.pick").click()
            return "order"
        if step == 3:
            rule = page.locator("#actions-slot button.rule, #log-slot button.rule, #field-slot button.rule").first
            if rule.count():
                rule.click()
                return "dialog"
            page.get_by_test_id("help").click()
            return "dialog"
        if page.locator("#dialog-slot [data-action=cancel]").count():
            page.locator("#dialog-slot [data-action=cancel]").first.click()
            return "dialog"
        refused = page.locator("#actions-slot button.act.refused").first
        if refused.count():
            refused.click()
            return "action"
        page.locator(f"[data-testid=order-{ids[(i * 11) % len(ids)]}] button.pick").click()
        return "order"

    # (d) ---------------------------------------------------------------------------------------
    def engine(self, fight: str, seeds: list[int]) -> dict:
        ctx = self.browser.new_context(viewport=VIEWPORT)
        page = ctx.new_page()
        page.goto(self.base)
        page.wait_for_selector("html[data-ready='true']", state="attached", timeout=BOOT_TIMEOUT)
        page.set_default_timeout(600_000)
        in_page = page.evaluate("""async ([code, fight, seeds]) => {
          const { whenDefined } = await import("./static/vendor/pyscript/core.js");
          const py = (await whenDefined("py")).interpreter;
          py.globals.set("FIGHT", fight);
          py.globals.set("SEEDS", seeds.join(","));
          py.runPython(code);
          return JSON.parse(py.runPython("import json; json.dumps(run_workload(FIGHT, [int(s) for s in SEEDS.split(',')]))"));
        }""", [WORKLOAD, fight, seeds])
        ctx.close()
        ns: dict = {}
        exec(compile(WORKLOAD, "workload", "exec"), ns)
        native = ns["run_workload"](fight, seeds)
        return {"pyodide": in_page, "cpython": native, "cpython_version": platform.python_version()}


# The engine workload, run unchanged by Pyodide in the page and by CPython here.
WORKLOAD = r'''
import random, sys, time
from dataclasses import replace
from fray.engine import storage
from fray.engine.session import Session
from fray.rules.olog import RULESET
from fray.rules.olog_examples import examples


def playout(seed, limit=300):
    rng = random.Random(seed)
    s = Session(examples()["large"](seed), RULESET)
    for n in range(limit):
        if s.state.outcome:
            return n
        allowed = [o for a in s.current() for o in s.options(a) if o.allowed]
        attacks = [o for o in allowed if o.group == "Attack"]
        o = rng.choice(attacks if attacks and rng.random() < 0.6 else allowed)
        cmd = o.command
        if o.choices:
            cmd = replace(cmd, **rng.choice(o.choices).values)
        s.act(cmd)
    return limit


def run_workload(fight, seeds):
    out = {"python": sys.version.split()[0]}
    times = []
    for _ in range(3):
        t = time.perf_counter()
        steps = len(storage.loads(fight).session.steps)
        times.append(time.perf_counter() - t)
    out["replay_steps"] = steps
    out["replay_first_s"] = times[0]
    out["replay_best_s"] = min(times)
    t = time.perf_counter()
    out["playout_steps"] = sum(playout(s) for s in seeds)
    out["playout_s"] = time.perf_counter() - t
    return out
'''


def long_fight(steps: int = 10_000, seed: int = 7) -> str:
    """A saved OLOG fight of `steps` steps: the 40-combatant example played at random,
    the referee setting a combatant's HP back to full when it falls to 3 (so it never ends)."""
    from fray.rules.olog import RULESET
    from fray.rules.olog_examples import examples

    rng = random.Random(seed)
    s = Session(examples()["large"](seed), RULESET)
    while len(s.steps) < steps:
        low = next((c for c in s.state.combatants if c.hp <= 3), None)
        if low is not None:
            s.act(SetHp(low.id, low.max_hp))
            continue
        allowed = [o for a in s.current() for o in s.options(a) if o.allowed]
        attacks = [o for o in allowed if o.group == "Attack"]
        o = rng.choice(attacks if attacks and rng.random() < 0.6 else allowed)
        s.act(replace(o.command, **rng.choice(o.choices).values) if o.choices else o.command)
    return storage.dumps(s)


def click_sessions() -> dict[str, Session]:
    """The three 40-combatant examples a few seeded steps into the fight (initiative rolled)."""
    from fray.rules import ogre_examples, olog_examples, ose_examples

    out = {}
    for view, enc in (("bands", olog_examples.large(1)), ("grid", ose_examples.large(1)),
                      ("ruler", ogre_examples.large(1))):
        s = Session(enc)
        rng = random.Random(3)
        for _ in range(12):
            if s.state.outcome:
                break
            opts = [o for a in s.current() for o in s.options(a) if o.allowed and not o.needs]
            init = [o for o in opts if "nitiative" in o.label]
            if not opts:
                break
            o = init[0] if init else rng.choice(opts)
            s.act(replace(o.command, **rng.choice(o.choices).values) if o.choices else o.command)
        out[view] = s
    return out


def latency(events: list[float], muts: list[float]) -> float | None:
    """From each input event to the first DOM mutation after it (the MutationObserver runs as
    soon as the handler that changed the DOM returns); the click's latency is the largest.
    Later mutations (a deferred scroll) are the frame's business, not the handler's."""
    best = None
    ends = sorted(events)[1:] + [float("inf")]
    for e, nxt in zip(sorted(events), ends):
        after = [m for m in muts if e <= m < nxt]
        if after:
            d = min(after) - e
            best = d if best is None else max(best, d)
    return best


def warm_server(base: str) -> None:
    """Fetch every file once so the server has gzipped it (GitHub Pages' CDN has too):
    the first page measured must not pay the local server's compression."""
    import offline
    import urllib.request

    for rel in offline.sw_assets()["files"] + ["static/build/bench/python_stdlib.zip", "tests/bench/bare.html",
                                                "static/vendor/pyodide/pyodide-lock.json"]:
        req = urllib.request.Request(base + rel, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req) as r:
            r.read()


def machine() -> dict:
    try:
        load = os.getloadavg()
    except OSError:
        load = (float("nan"),) * 3
    return {"cpus": os.cpu_count(), "loadavg": [round(x, 2) for x in load], "python": platform.python_version(),
            "platform": platform.platform()}


def summarise(res: dict) -> dict:
    s: dict = {}
    if "startup" in res:
        st = res["startup"]
        med = {k: {m: statistics.median(v[m]) for m in ("cold", "warm", "repeat")} for k, v in st.items()}
        # Ratios per round (same round = same machine load), then their median.
        cold_r = [f / b for f, b in zip(st["fray"]["cold"], st["bare"]["cold"])]
        warm_r = [f / b for f, b in zip(st["fray"]["warm"], st["bare"]["warm"])]
        repeat_r = [f / b for f, b in zip(st["fray"]["repeat"], st["bare"]["repeat"])]
        s.update({
            "fray_cold_ms": med["fray"]["cold"], "bare_cold_ms": med["bare"]["cold"],
            "fray_warm_ms": med["fray"]["warm"], "bare_warm_ms": med["bare"]["warm"],
            "fray_repeat_ms": med["fray"]["repeat"], "bare_repeat_ms": med["bare"]["repeat"],
            "repeat_from_snapshot": sum(st["fray"]["repeat_from_snapshot"]),
            "cold_ready_ratio": statistics.median(cold_r), "warm_ready_ratio": statistics.median(warm_r),
            "repeat_ready_ratio": statistics.median(repeat_r),
            "cold_bytes_mb": statistics.median(st["fray"]["cold_bytes"]) / 1e6,
            "warm_bytes_mb": statistics.median(st["fray"]["warm_bytes"]) / 1e6,
            "warm_runtime_bytes": statistics.median(st["fray"]["warm_runtime_bytes"]),
            "sw_install_mb": statistics.median(st["fray"]["sw_install_bytes"]) / 1e6,
            "bare_cold_bytes_mb": statistics.median(st["bare"]["cold_bytes"]) / 1e6,
            "bare_warm_bytes_mb": statistics.median(st["bare"]["warm_bytes"]) / 1e6,
        })
    if "clicks" in res:
        for view, c in res["clicks"].items():
            s[f"click_{view}_p50_ms"] = c["p50"]
            s[f"click_{view}_p95_ms"] = c["p95"]
            s[f"click_{view}_p99_ms"] = c["p99"]
        s["click_p95_ms"] = max(c["p95"] for c in res["clicks"].values())
        s["click_p99_ms"] = max(c["p99"] for c in res["clicks"].values())
    if "engine" in res:
        e = res["engine"]
        s["replay_10k_s"] = e["pyodide"]["replay_best_s"]
        s["replay_10k_first_s"] = e["pyodide"]["replay_first_s"]
        s["replay_10k_cpython_s"] = e["cpython"]["replay_best_s"]
        s["playout_pyodide_s"] = e["pyodide"]["playout_s"]
        s["playout_cpython_s"] = e["cpython"]["playout_s"]
        s["engine_ratio"] = max(e["pyodide"]["replay_best_s"] / e["cpython"]["replay_best_s"],
                                e["pyodide"]["playout_s"] / e["cpython"]["playout_s"])
    s["targets"] = {k: {"target": t, "value": s[k], "met": s[k] <= t} for k, t in TARGETS.items() if k in s}
    return s


def table(s: dict, mach: dict) -> str:
    rows = [("machine", f"{mach['cpus']} CPUs, load average {mach['loadavg']}", "")]

    def add(label, key, fmt, target=None):
        if key in s:
            t = TARGETS.get(target or key)
            mark = "" if t is None else (f"≤ {t}  " + ("met" if s[key] <= t else "MISSED"))
            rows.append((label, fmt.format(s[key]), mark))

    add("Fray cold ready (median)", "fray_cold_ms", "{:.0f} ms")
    add("bare Pyodide cold ready", "bare_cold_ms", "{:.0f} ms")
    add("cold ready ratio Fray/bare", "cold_ready_ratio", "{:.2f}")
    add("Fray warm ready (median)", "fray_warm_ms", "{:.0f} ms")
    add("bare Pyodide warm ready", "bare_warm_ms", "{:.0f} ms")
    add("warm ready ratio Fray/bare", "warm_ready_ratio", "{:.2f}")
    add("Fray later visits (snapshot)", "fray_repeat_ms", "{:.0f} ms")
    add("bare Pyodide later visits", "bare_repeat_ms", "{:.0f} ms")
    add("later-visit ratio Fray/bare", "repeat_ready_ratio", "{:.2f}")
    add("later visits started from a snapshot", "repeat_from_snapshot", "{:.0f} of the rounds")
    add("Fray cold bytes (gzip)", "cold_bytes_mb", "{:.2f} MB")
    add("Fray warm bytes", "warm_bytes_mb", "{:.3f} MB")
    add("Fray warm runtime bytes", "warm_runtime_bytes", "{:.0f} B")
    add("service worker install", "sw_install_mb", "{:.2f} MB")
    add("bare cold / warm bytes", "bare_cold_bytes_mb", "{:.2f} MB")
    for view in ("bands", "grid", "ruler"):
        for q in ("p50", "p95", "p99"):
            add(f"click→DOM {view} {q}", f"click_{view}_{q}_ms", "{:.2f} ms",
                {"p95": "click_p95_ms", "p99": "click_p99_ms"}.get(q, "-"))
    add("replay 10k steps, Pyodide (best of 3)", "replay_10k_s", "{:.2f} s")
    add("replay 10k steps, Pyodide (first)", "replay_10k_first_s", "{:.2f} s")
    add("replay 10k steps, CPython (best of 3)", "replay_10k_cpython_s", "{:.2f} s")
    add("random playouts, Pyodide", "playout_pyodide_s", "{:.2f} s")
    add("random playouts, CPython", "playout_cpython_s", "{:.2f} s")
    add("engine ratio Pyodide/CPython (worst)", "engine_ratio", "{:.2f}")
    w = max(len(r[0]) for r in rows)
    v = max(len(r[1]) for r in rows)
    return "\n".join(f"{a:<{w}}  {b:>{v}}  {c}" for a, b, c in rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "bench-results" / "page.json"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--clicks", type=int, default=200)
    ap.add_argument("--only", default="startup,clicks,engine")
    args = ap.parse_args(argv)
    parts = set(args.only.split(","))
    from playwright.sync_api import sync_playwright

    setup.setup_vendor()
    setup.build_app()
    stock_stdlib()
    srv = server.start()
    base = f"http://127.0.0.1:{srv.server_port}/"
    warm_server(base)
    res: dict = {"machine_before": machine()}
    with sync_playwright() as pw:
        browser = launch(pw)
        bench = Bench(srv, browser, base)
        if "startup" in parts:
            print(f"start-up, {args.rounds} rounds interleaved:", flush=True)
            res["startup"] = bench.startup(args.rounds)
        if "clicks" in parts:
            print(f"clicks, {args.clicks} per view:", flush=True)
            res["clicks"] = bench.clicks(args.clicks)
        if "engine" in parts:
            print("engine workload (replay of a 10,000-step OLOG fight, random playouts):", flush=True)
            res["engine"] = bench.engine(long_fight(), [1, 2, 3])
        browser.close()
    srv.shutdown()
    res["machine_after"] = machine()
    res["summary"] = summarise(res)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1))
    print()
    print(table(res["summary"], res["machine_before"]))
    print(f"\nwritten to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
