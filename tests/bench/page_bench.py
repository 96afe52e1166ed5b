"""Page benchmark: Fray in headless Chromium against a bare stock-Pyodide page.

Run by `python3 tools/dev.py bench` (or directly: `python tests/bench/page_bench.py
--out bench-results/page.json [--rounds 5] [--clicks 200] [--only startup,clicks,clicks120,engine]`).
It prints a table and writes JSON. It asserts nothing: whole-page times vary
by ±10 % from run to run on a shared machine, so every comparison is a ratio
measured in this one run, with the pages interleaved (A B B A ...).

(a) start-up: navigation -> `performance.getEntriesByName('fray-ready')`, for
    Fray and for tests/bench/bare.html, cold (new browser context, empty
    caches), warm (a second visit in the same context, after Fray's service
    worker is active and the memory snapshot the first visit makes a few
    seconds in is stored: the second visit starts from it) and later (a third);
    beside ready, for Fray's warm and later visits, "fight drawn": the
    `fray-drawn` mark of the painted start (the last fight's markup drawn by
    static/boot/boot.js before Python is up), or ready when nothing was painted;
(b) clicks: input to next paint as the browser measures it (Event Timing, the
    measure behind INP) on trusted Playwright input, and beside it the handler
    part (input to the end of the last DOM change it causes), over N selection
    taps per view (bands: OLOG, grid: OSE detailed, grid + ruler: Ogre) in the
    40-combatant encounters, alternating order rows and field tokens; at 4×
    CPU throttle too, by touch at phone width, state-changing acts (an attack,
    a move along a path, an undo, a drag across the grid) and a trace
    breakdown per view (tests/bench/interaction.py); and (part `clicks120`,
    `--clicks-120 N` taps per view) the same selection taps in 120-combatant
    encounters, the 40-combatant ones three times over (`grow`; target p95 <= 32 ms); and (part
    `mapimage`) the grid's selection taps with a 1000×1000 PNG under the grid beside the same without it,
    interleaved (tests/bench/map_image_bench.py, issue #55: the image adds at most one frame);
(c) bytes on the wire (as the local server sends them, gzip like GitHub Pages),
    cold and warm, and what the service worker's install fetches;
(e) boot time per browser engine (Chromium, Firefox, WebKit: the drivers of
    tests/xbrowser), cold (a fresh profile) and warm (a second visit in the
    same profile, after the service worker and the start-up snapshot are in),
    interleaved with the bare page in the same engine (ratios), with the
    start-up stages the page announces, the boot's wasm compile on each visit
    and the runtime files a first visit asked for twice (issue #57; the full
    picture per engine: tests/bench/engine_boot.py); an engine that is not
    installed is listed as skipped;
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
from fray.engine.referee import SetHp  # noqa: E402
from interaction import pct  # noqa: E402  (tests/bench/interaction.py: one quantile for every bench)
from fray.engine.session import Session  # noqa: E402

BENCH_DIR = ROOT / "static" / "build" / "bench"
BOOT_TIMEOUT = 120_000
VIEWPORT = {"width": 1280, "height": 800}
TARGETS = {
    "cold_ready_ratio": 0.55, "warm_ready_ratio": 0.45, "repeat_ready_ratio": 0.35, 
    "select_p95_ms": 16.0, "select_4x_p95_ms": 50.0, "acts_p95_ms": 32.0, "acts_4x_p95_ms": 100.0,
    "drag_p95_ms": 32.0, "handler_p95_ms": 4.0, "handler_p99_ms": 8.0,
    "repeat_drawn_ms": 300.0, "engine_ratio": 2.0, "replay_10k_s": 1.0, "cold_bytes_mb": 4.5, "select120_p95_ms": 32.0,
    "fray_cold_ms": 800.0, "fray_repeat_ms": 500.0,  # issue 36: ready on a first visit, on a later one
    "fray_repeat_4x_ms": 1500.0,  # issue 36: a later visit at 4x CPU throttle
}

READY_FN = ("() => { const e = performance.getEntriesByName('fray-ready');"
            " return e.length ? e[0].startTime : null; }")
READY_MS = "performance.getEntriesByName('fray-ready').length ? performance.getEntriesByName('fray-ready')[0].startTime : null"
# The painted start (static/boot/boot.js): when the referee's last fight was drawn, before Python is up (null:
# nothing was painted, the fight is drawn at ready).
DRAWN_MS = "performance.getEntriesByName('fray-drawn').length ? performance.getEntriesByName('fray-drawn')[0].startTime : null"
# The boot breakdown (issue 36): the start-up stages' User Timing marks (static/boot/boot.js marks PyScript's and
# Pyodide's progress as `fray-stage:*`, the loader the snapshot's read and restore, py/main.py its first line,
# ui/app.py its own steps; tests/bench/boot_trace.py traces where each part's time goes).
STAGES_JS = """() => {
  const at = {};
  for (const e of performance.getEntriesByType('mark')) {
    const name = e.name.startsWith('fray-stage:') ? e.name.slice(11) : e.name;
    if (!(name in at)) at[name] = e.startTime;
  }
  const nav = performance.getEntriesByType('navigation')[0];
  if (nav) at['DOMContentLoaded'] = nav.domContentLoadedEventEnd;
  return at;
}"""
# Each part of the boot: (label, from mark, to mark); a part whose marks are missing is left out.
BOOT_PARTS = (
    ("page and boot script (to DOMContentLoaded)", None, "DOMContentLoaded"),
    ("PyScript set-up", "DOMContentLoaded", "Starting Python"),
    ("snapshot read from the cache", "Starting Python", "Snapshot read"),
    ("wasm + interpreter (or snapshot restore)", "Snapshot read", "Loaded interpreter"),
    ("PyScript's Python bootstrap + Fray's imports", "Loaded interpreter", "Python imports done"),
    # ... split where py/main.py's first line marks it (issue #57): PyScript's part, then Fray's.
    ("  of which PyScript's (its prelude, pyscript's import)", "Loaded interpreter", "main.py"),
    ("  of which py/main.py's (fray.ui.app's import, settle)", "main.py", "Python imports done"),
    ("App built + library read", "Python imports done", "Library read"),
    ("first drawing", "Library read", "fray-ready"),
)


def boot_parts(at: dict) -> dict:
    out = {}
    for label, start, end in BOOT_PARTS:
        if end in at and (start is None or start in at):
            out[label] = at[end] - (at[start] if start else 0.0)
    return out

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

    def load(self, ctx, url: str, throttle: float = 1.0) -> float:
        page = ctx.new_page()
        if throttle != 1.0:  # CPU throttling from the first byte (Chrome DevTools' "4x slowdown")
            page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        try:
            page.wait_for_selector("html[data-ready='true']", state="attached", timeout=BOOT_TIMEOUT)
        except Exception:
            raise SystemExit(f"{url} did not become ready; console errors: {errors}") from None
        ms = page.evaluate(READY_MS)
        drawn = page.evaluate(DRAWN_MS)
        self._drawn = float(ms) if drawn is None else float(drawn)
        self._painted = drawn is not None
        # When the page was ready, on the server's clock: what finished later is the service worker's.
        self._ready_epoch = (page.evaluate("performance.timeOrigin") + ms) / 1000
        self._parts = boot_parts(page.evaluate(STAGES_JS))
        self._last_page = page
        return float(ms)

    # (a) + (c) ---------------------------------------------------------------------------------
    def startup(self, rounds: int) -> dict:
        urls = {"fray": self.base, "bare": self.base + "tests/bench/bare.html"}
        res = {k: {"cold": [], "warm": [], "repeat": [], "cold_bytes": [], "warm_bytes": [], "cold_runtime_bytes": [],
                   "warm_runtime_bytes": [], "cold_requests": [], "warm_requests": [], "sw_install_bytes": [],
                   "repeat_from_snapshot": [], "warm_drawn": [], "repeat_drawn": [], "warm_painted": [],
                   "repeat_painted": [], "cold_parts": [], "repeat_parts": [], "repeat_4x": [],
                   "repeat_4x_drawn": []}
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
                res[kind]["cold_parts"].append(self._parts)
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
                res[kind]["warm_drawn"].append(self._drawn)
                res[kind]["warm_painted"].append(self._painted)
                res[kind]["warm_bytes"].append(b)
                res[kind]["warm_runtime_bytes"].append(rb)
                res[kind]["warm_requests"].append(n)
                snap = first_snap
                self._last_page.close()
                repeat = self.load(ctx, urls[kind])
                self.sent()
                res[kind]["repeat"].append(repeat)
                res[kind]["repeat_parts"].append(self._parts)
                res[kind]["repeat_drawn"].append(self._drawn)
                res[kind]["repeat_painted"].append(self._painted)
                res[kind]["repeat_from_snapshot"].append(
                    self._last_page.evaluate("document.documentElement.dataset.snapshot === 'restored'"))
                self._last_page.close()
                # The same later visit on a slower device: 4x CPU throttle (issue 36: ready <= 1.5 s).
                res[kind]["repeat_4x"].append(self.load(ctx, urls[kind], throttle=4.0))
                res[kind]["repeat_4x_drawn"].append(self._drawn)
                self.sent()
                ctx.close()
                print(f"  round {r + 1} {kind:5}: cold {cold:7.0f} ms  warm {warm:7.0f} ms  repeat {repeat:7.0f} ms  "
                      f"(at 4× throttle {res[kind]['repeat_4x'][-1]:5.0f} ms)  "
                      f"bytes {res[kind]['cold_bytes'][-1] / 1e6:5.2f} / {b / 1e6:5.2f} MB"
                      + (f"  (service worker active; snapshot {snap})" if state else "")
                      + (f"  fight drawn warm {res[kind]['warm_drawn'][-1]:.0f} / later {res[kind]['repeat_drawn'][-1]:.0f} ms"
                         if kind == "fray" else ""), flush=True)
        return res

    # (e) ---------------------------------------------------------------------------------------
    def engines(self, rounds: int, pw) -> dict:
        """Per engine, per round, Fray and the bare page interleaved (A B, then B A), each in a fresh profile:
        a first visit, then (Fray: once its service worker and snapshot are in) a later one in the same
        profile. Beside the ready times: which runtime files the first visit asked the server for more than
        once, whether the later visit started from the snapshot, and each wasm compile the boot made (the
        test server's hook, tests/xbrowser/site_server.py): tests/bench/engine_boot.py shows the rest."""
        sys.path.insert(0, str(ROOT / "tests" / "xbrowser"))
        import drivers  # tests/xbrowser/drivers.py: Playwright, Firefox's BiDi, WebKitWebDriver
        import site_server
        srv = site_server.make_server()
        urls = {"fray": srv.base, "bare": srv.base + "tests/bench/bare.html"}
        out: dict = {}
        try:
            for name in drivers.ENGINES:
                why = drivers.missing(name)
                if why:
                    out[name] = {"skipped": why}
                    print(f"  {name:8}: skipped: {why}", flush=True)
                    continue
                eng = drivers.launch(name, pw)
                row = {"version": eng.version, "cold": [], "warm": [], "warm_from_snapshot": [], "cold_stages": [],
                       "warm_stages": [], "bare_cold": [], "bare_warm": [], "cold_twice": [], "warm_wasm_ms": [],
                       "cold_wasm_ms": [], "snapshot_made": []}
                try:
                    for r in range(rounds):
                        for kind in (("fray", "bare") if r % 2 == 0 else ("bare", "fray")):
                            self._engine_visits(eng, srv, urls[kind], kind, row)
                        row["version"] = eng.version  # WebKit's is known once a session is open
                        print(f"  round {r + 1} {name:8}: Fray cold {row['cold'][-1]:6.0f} warm {row['warm'][-1]:6.0f} ms"
                              f"  bare cold {row['bare_cold'][-1]:6.0f} warm {row['bare_warm'][-1]:6.0f} ms"
                              f"  (snapshot {row['snapshot_made'][-1]}, "
                              f"{'restored' if row['warm_from_snapshot'][-1] else 'not used'}; boot wasm compile "
                              f"cold {row['cold_wasm_ms'][-1]:.0f} / warm {row['warm_wasm_ms'][-1]:.0f} ms; "
                              f"asked twice on the first visit: {row['cold_twice'][-1] or 'none'})", flush=True)
                finally:
                    eng.close()
                out[name] = row
        finally:
            srv.shutdown()
        return out

    @staticmethod
    def _engine_visits(eng, srv, url: str, kind: str, row: dict) -> None:
        import drivers
        wasm_ms = ("() => (window.__xbWasm || []).filter(w => w.fn.endsWith('Streaming') && w.end !== null)"
                   ".reduce((t, w) => t + w.end - w.start, 0)")
        page = eng.new_page(srv.base, *drivers.DESKTOP)
        try:
            srv.take_sent()
            page.goto(url)
            page.wait_ready(timeout=BOOT_TIMEOUT / 1000)
            cold = page.js(READY_FN)
            if kind == "bare":
                page.goto(url)
                page.wait_ready(timeout=BOOT_TIMEOUT / 1000)
                row["bare_cold"].append(cold)
                row["bare_warm"].append(page.js(READY_FN))
                return
            time.sleep(0.3)  # the server logs a response after its last byte
            # Until ready, on the server's clock: the service worker's install (after ready) asks again.
            ready_at = page.js("() => (performance.timeOrigin + performance.getEntriesByName('fray-ready')[0]"
                               ".startTime) / 1000")
            asked = [p.split("?")[0] for p, _, t in srv.take_sent() if t <= ready_at]
            row["cold_twice"].append(sorted({p.rsplit("/", 1)[-1] for p in asked if asked.count(p) > 1}))
            row["cold_stages"].append(page.js("() => window.__xbStages || []"))
            row["cold_wasm_ms"].append(page.js(wasm_ms))
            # The second visit comes once the first one's service worker and snapshot are in.
            row["snapshot_made"].append(page.js("""async () => { const t = new Promise(r => setTimeout(r, 90000));
                await Promise.race([window.frayBoot.serviceWorker, t]);
                return String(await Promise.race([window.frayBoot.snapshot, t])); }"""))
            page.goto(url)
            page.wait_ready(timeout=BOOT_TIMEOUT / 1000)
            row["cold"].append(cold)
            row["warm"].append(page.js(READY_FN))
            row["warm_stages"].append(page.js("() => window.__xbStages || []"))
            row["warm_from_snapshot"].append(page.js("() => document.documentElement.dataset.snapshot === 'restored'"))
            row["warm_wasm_ms"].append(page.js(wasm_ms))
            errs = page.errors()
            if errs:
                print(f"  {eng.name:8}: console errors: {errs[:3]}", flush=True)
        finally:
            page.close()

    # (b) ---------------------------------------------------------------------------------------
    def clicks(self, args) -> dict:
        """Input to next paint (Event Timing) and the handler part, per view: tests/bench/interaction.py."""
        import interaction
        return interaction.run(self.browser, self.base, storage.encode_link, click_sessions(), args.clicks,
                               args.throttled_clicks, args.act_rounds, args.phone_clicks,
                               log=lambda s: print(s, flush=True))

    def clicks120(self, args) -> dict:
        """Selection taps in the 120-combatant encounters (the 40 ones three times over), per view:
        input to next paint (Event Timing) and the handler part, unthrottled, mouse at 1280×800."""
        import interaction
        ix = interaction.Interactions(self.browser, self.base, storage.encode_link)
        out: dict = {}
        try:
            # Beside them, in this run (the machine's load moves every figure): the measure's floor and the
            # same taps at 40 combatants, so the 120/40 ratio means something on a shared machine.
            floor = ix.floor(min(args.clicks_120, 40))
            out["floor"] = {"selectfloor": floor}
            print(f"  {'floor':6} selection taps (no app): {interaction.fmt(floor)}", flush=True)
            forty = click_sessions()
            for view, session in click_sessions(copies=3).items():
                out[view] = {}
                for key, ses in (("select40", forty[view]), ("select120", session)):
                    row = ix.selections(ses, args.clicks_120)
                    out[view][key] = row
                    print(f"  {view:6} selection taps, {len(ses.state.combatants)} combatants: "
                          f"{interaction.fmt(row)}", flush=True)
        finally:
            ix.close()
        return out

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
from fray.rules.olog.examples import examples


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
    from fray.rules.olog.examples import examples

    rng = random.Random(seed)
    s = Session(examples()["large"](seed), RULESET)
    while len(s.steps) < steps:
        low = next((c for c in s.state.combatants if c.hp <= 3), None)
        if low is not None:
            s.act(SetHp(low.id, low.max_hp))
            continue
        allowed = [o for a in s.current() for o in s.options(a) if o.allowed]
        weapons = [o for o in allowed if o.group == "Attack"]
        o = rng.choice(weapons if weapons and rng.random() < 0.6 else allowed)
        s.act(replace(o.command, **rng.choice(o.choices).values) if o.choices else o.command)
    return storage.dumps(s)


def grow(enc, copies: int):
    """The encounter `copies` times over: every combatant again with a new id and name ("Orc 3 b"); on a
    grid each copy stands below the last (the map taller by as much, its walls repeated), in bands each
    copy keeps its band. The examples' `large` builders take no count, so the bench grows them."""
    from fray.engine.model import MapSpec

    if copies <= 1:
        return enc
    h = enc.map.height
    cs = []
    for k in range(copies):
        for c in enc.combatants:
            cs.append(c if k == 0 else replace(
                c, id=f"{c.id}{chr(97 + k)}", name=f"{c.name} {chr(97 + k)}",
                square=None if c.square is None else (c.square[0], c.square[1] + k * h)))
    grown = replace(enc, name=f"{enc.name} ×{copies}", combatants=tuple(cs))
    if any(c.square is not None for c in cs):
        walls = frozenset((x, y + k * h) for k in range(copies) for x, y in enc.map.walls)
        grown = replace(grown, map=MapSpec(enc.map.width, h * copies, walls))
    assert len({c.id for c in cs}) == len(cs)
    return grown


def click_sessions(copies: int = 1) -> dict[str, Session]:
    """The three 40-combatant examples (`copies` 3: 120 combatants, see `grow`) a few seeded steps into
    the fight (initiative rolled)."""
    from fray.rules.ogre import examples as ogre_examples
    from fray.rules.olog import examples as olog_examples
    from fray.rules.ose import examples as ose_examples

    out = {}
    for view, enc in (("bands", olog_examples.large(1)), ("grid", ose_examples.large(1)),
                      ("ruler", ogre_examples.large(1))):
        s = Session(grow(enc, copies))
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
            "fray_repeat_4x_ms": statistics.median(st["fray"]["repeat_4x"]),
            "fray_repeat_4x_drawn_ms": statistics.median(st["fray"]["repeat_4x_drawn"]),
            "bare_repeat_4x_ms": statistics.median(st["bare"]["repeat_4x"]),
            "repeat_from_snapshot": sum(st["fray"]["repeat_from_snapshot"]),
            "fray_warm_drawn_ms": statistics.median(st["fray"]["warm_drawn"]),
            "fray_repeat_drawn_ms": statistics.median(st["fray"]["repeat_drawn"]),
            "repeat_painted": sum(st["fray"]["repeat_painted"]),
            "cold_ready_ratio": statistics.median(cold_r), "warm_ready_ratio": statistics.median(warm_r),
            "repeat_ready_ratio": statistics.median(repeat_r),
            "cold_bytes_mb": statistics.median(st["fray"]["cold_bytes"]) / 1e6,
            "warm_bytes_mb": statistics.median(st["fray"]["warm_bytes"]) / 1e6,
            "warm_runtime_bytes": statistics.median(st["fray"]["warm_runtime_bytes"]),
            "sw_install_mb": statistics.median(st["fray"]["sw_install_bytes"]) / 1e6,
            "bare_cold_bytes_mb": statistics.median(st["bare"]["cold_bytes"]) / 1e6,
            "bare_warm_bytes_mb": statistics.median(st["bare"]["warm_bytes"]) / 1e6,
        })
        for visit in ("cold", "repeat"):
            rows = st["fray"].get(f"{visit}_parts", [])
            s[f"boot_{visit}_parts_ms"] = {label: statistics.median(r[label] for r in rows if label in r)
                                          for label, _, _ in BOOT_PARTS if any(label in r for r in rows)}
    for view, row in res.get("clicks120", {}).items():
        for part, c in row.items():
            for q in ("p50", "p95", "p99", "handler_p50", "handler_p95", "handler_p99"):
                s[f"{part}_{view}_{q}_ms"] = c[q]
            for q in ("mutations_p50", "nodes_added_p50"):
                if q in c:
                    s[f"{part}_{view}_{q}"] = c[q]
        if view != "floor":
            s["select120_p95_ms"] = max(s.get("select120_p95_ms", 0.0), row["select120"]["p95"])
            s[f"select120_over_40_{view}_p95"] = row["select120"]["p95"] / max(row["select40"]["p95"], 1.0)
    if "clicks" in res:
        worst: dict[str, float] = {}
        for view, row in res["clicks"].items():
            for part, c in row.items():
                if part == "trace":
                    for k, v in c.items():
                        s[f"trace_{view}_{k}"] = v
                    continue
                for q in ("p50", "p95", "p99", "handler_p50", "handler_p95", "handler_p99"):
                    s[f"{part}_{view}_{q}_ms"] = c[q]
                for q in ("mutations_p50", "nodes_added_p50"):
                    if q in c:
                        s[f"{part}_{view}_{q}"] = c[q]
                if "drag_frames" in c:
                    for q in ("p50", "p95"):
                        s[f"drag{part[4:]}_{view}_{q}_ms"] = c["drag_frames"][q]
        for key, v in list(s.items()):
            if "_floor_" in key:  # the floor is the measure's, not the app's (interaction.FLOOR_PAGE)
                continue
            for part in ("select", "select_4x", "acts", "acts_4x", "drag"):
                for q in ("p95", "handler_p95", "handler_p99"):
                    if key.startswith(part + "_") and key.endswith(f"_{q}_ms") and \
                            key.count("_") == part.count("_") + q.count("_") + 2:
                        worst[f"{part}_{q}_ms"] = max(worst.get(f"{part}_{q}_ms", 0.0), v)
        s.update(worst)
        s["handler_p95_ms"] = worst.get("select_handler_p95_ms", float("nan"))
        s["handler_p99_ms"] = worst.get("select_handler_p99_ms", float("nan"))
    for name, row in res.get("engines", {}).items():
        if row.get("cold"):
            s[f"{name}_cold_ms"] = statistics.median(row["cold"])
            s[f"{name}_warm_ms"] = statistics.median(row["warm"])
            s[f"{name}_version"] = row["version"]
            for k in ("bare_cold", "bare_warm", "cold_wasm_ms", "warm_wasm_ms"):
                if row.get(k):
                    s[f"{name}_{k}"] = statistics.median(row[k])
            if row.get("bare_cold"):  # each visit as a ratio to the bare page's in the same engine and run
                s[f"{name}_cold_ratio"] = s[f"{name}_cold_ms"] / s[f"{name}_bare_cold"]
                s[f"{name}_warm_ratio"] = s[f"{name}_warm_ms"] / s[f"{name}_bare_warm"]
            s[f"{name}_warm_from_snapshot"] = sum(row.get("warm_from_snapshot", []))
            s[f"{name}_cold_twice"] = sorted({f for run in row.get("cold_twice", []) for f in run})
            # Where a cold start goes: the time of each announced stage (median over the rounds).
            stages: dict[str, list[float]] = {}
            for run in row["cold_stages"]:
                for t, text in run:
                    stages.setdefault(text.split(" ")[0] + " " + " ".join(text.split(" ")[1:2]), []).append(t)
            s[f"{name}_cold_stages_ms"] = {k: statistics.median(v) for k, v in stages.items()}
        else:
            s[f"{name}_skipped"] = row.get("skipped", "no rounds")
    if "engine" in res:
        e = res["engine"]
        s["replay_10k_s"] = e["pyodide"]["replay_best_s"]
        s["replay_10k_first_s"] = e["pyodide"]["replay_first_s"]
        s["replay_10k_cpython_s"] = e["cpython"]["replay_best_s"]
        s["playout_pyodide_s"] = e["pyodide"]["playout_s"]
        s["playout_cpython_s"] = e["cpython"]["playout_s"]
        s["engine_ratio"] = max(e["pyodide"]["replay_best_s"] / e["cpython"]["replay_best_s"],
                                e["pyodide"]["playout_s"] / e["cpython"]["playout_s"])
    # A selection tap's target is one frame: no Event Timing entry (under 16 ms) for 95 % of them.
    s["targets"] = {k: {"target": t, "value": s[k], "met": s[k] < t if k == "select_p95_ms" else s[k] <= t}
                    for k, t in TARGETS.items() if k in s}
    return s


def _python_start(stages: dict) -> float:
    """From "Starting Python" to "Loaded interpreter": wasm compile + instantiate + standard library."""
    return stages.get("Loaded interpreter", 0) - stages.get("Starting Python", 0)


def _ms(v, exact: bool = False) -> str:
    if v is None or v != v:
        return "-"
    return "<16" if v < 16 and not exact else f"{v:.0f}"


def table(s: dict, mach: dict) -> str:
    rows = [("machine", f"{mach['cpus']} CPUs, load average {mach['loadavg']}", "")]

    def add(label, key, fmt, target=None):
        if key in s:
            t = TARGETS.get(target or key)
            mark = "" if t is None else (f"≤ {t}  " + ("met" if s[key] <= t else "MISSED"))
            rows.append((label, fmt.format(s[key]), mark))

    add("Fray cold ready (median)", "fray_cold_ms", "{:.0f} ms", "fray_cold_ms")
    add("bare Pyodide cold ready", "bare_cold_ms", "{:.0f} ms")
    add("cold ready ratio Fray/bare", "cold_ready_ratio", "{:.2f}")
    add("Fray warm ready (median)", "fray_warm_ms", "{:.0f} ms")
    add("bare Pyodide warm ready", "bare_warm_ms", "{:.0f} ms")
    add("warm ready ratio Fray/bare", "warm_ready_ratio", "{:.2f}")
    add("Fray later visits (snapshot)", "fray_repeat_ms", "{:.0f} ms", "fray_repeat_ms")
    add("bare Pyodide later visits", "bare_repeat_ms", "{:.0f} ms")
    add("later-visit ratio Fray/bare", "repeat_ready_ratio", "{:.2f}")
    add("later visits started from a snapshot", "repeat_from_snapshot", "{:.0f} of the rounds")
    add("Fray later visit at 4× CPU throttle", "fray_repeat_4x_ms", "{:.0f} ms", "fray_repeat_4x_ms")
    add("Fray later visit at 4× throttle: fight drawn", "fray_repeat_4x_drawn_ms", "{:.0f} ms")
    add("bare Pyodide later visit at 4× throttle", "bare_repeat_4x_ms", "{:.0f} ms")
    add("Fray warm: fight drawn (painted start)", "fray_warm_drawn_ms", "{:.0f} ms")
    add("Fray later visits: fight drawn", "fray_repeat_drawn_ms", "{:.0f} ms", "repeat_drawn_ms")
    add("later visits painted before Python", "repeat_painted", "{:.0f} of the rounds")
    for visit, name in (("cold", "first visit"), ("repeat", "later visit")):
        for label, ms in s.get(f"boot_{visit}_parts_ms", {}).items():
            rows.append((f"  boot, {name}: {label}", f"{ms:.0f} ms", ""))
    for name in ("chromium", "firefox", "webkit"):
        if f"{name}_cold_ms" in s:
            rows.append((f"{name} cold / warm ready ({s[f'{name}_version']})",
                         f"{s[f'{name}_cold_ms']:.0f} / {s[f'{name}_warm_ms']:.0f} ms",
                         f"Python start (cold) {_python_start(s[f'{name}_cold_stages_ms']):.0f} ms"))
            if f"{name}_bare_cold" in s:
                rows.append((f"  {name}: bare Pyodide cold / warm", f"{s[f'{name}_bare_cold']:.0f} / "
                             f"{s[f'{name}_bare_warm']:.0f} ms", f"ratio Fray/bare cold {s[f'{name}_cold_ratio']:.2f}, "
                             f"warm {s[f'{name}_warm_ratio']:.2f}"))
            rows.append((f"  {name}: boot's wasm compile cold / warm", f"{s.get(f'{name}_cold_wasm_ms', 0):.0f} / "
                         f"{s.get(f'{name}_warm_wasm_ms', 0):.0f} ms", f"warm visits from the snapshot: "
                         f"{s[f'{name}_warm_from_snapshot']}; asked twice on a first visit: "
                         f"{', '.join(s[f'{name}_cold_twice']) or 'none'}"))
        elif f"{name}_skipped" in s:
            rows.append((f"{name} cold / warm ready", "skipped", s[f"{name}_skipped"]))
    add("Fray cold bytes (gzip)", "cold_bytes_mb", "{:.2f} MB")
    add("Fray warm bytes", "warm_bytes_mb", "{:.3f} MB")
    add("Fray warm runtime bytes", "warm_runtime_bytes", "{:.0f} B")
    add("service worker install", "sw_install_mb", "{:.2f} MB")
    add("bare cold / warm bytes", "bare_cold_bytes_mb", "{:.2f} MB")
    parts = (("select", "selection taps"), ("select_4x", "selection taps, 4× throttle"),
             ("select_phone", "phone taps (390 px, touch)"), ("acts", "state-changing acts"),
             ("acts_4x", "state-changing acts, 4× throttle"), ("drag", "drag frame intervals"),
             ("drag_4x", "drag frame intervals, 4× throttle"), ("selectfloor", "selection taps (beside the 120 case)"),
             ("select40", "selection taps, 40 combatants (beside 120)"),
             ("select120", "selection taps, 120 combatants"))
    for view in ("floor", "bands", "grid", "ruler"):
        for part, label in parts:
            if f"{part}_{view}_p95_ms" not in s:
                continue
            ip = " / ".join(_ms(s.get(f"{part}_{view}_{q}_ms"), part.startswith("drag"))
                            for q in ("p50", "p95", "p99"))
            hd = " / ".join(f"{s[k]:.1f}" for k in (f"{part}_{view}_handler_{q}_ms" for q in ("p50", "p95", "p99"))
                            if k in s)
            t = None if view == "floor" else TARGETS.get(f"{part}_p95_ms")
            mark = "a page with no app: this measure's floor here" if view == "floor" else "" if t is None else f"p95 ≤ {t:.0f}  " + ("met" if s[f"{part}_{view}_p95_ms"] <= t and
                                                              not (t == 16 and s[f"{part}_{view}_p95_ms"] >= 16)
                                                              else "MISSED")
            what = "p50/p95" if part.startswith("drag") else "input→paint p50/p95/p99"
            rows.append((f"{view} {label}: {what}", ip.removesuffix(" / -") + " ms", mark))
            if hd:
                ht = "select" == part and view != "floor"
                rows.append((f"{view} {label}: handler p50/p95/p99", hd + " ms",
                             (f"p95 ≤ 4, p99 ≤ 8  " + ("met" if s[f"{part}_{view}_handler_p95_ms"] <= 4 and
                                                      s[f"{part}_{view}_handler_p99_ms"] <= 8 else "MISSED"))
                             if ht else ""))
        if f"trace_{view}_handlers" in s:
            rows.append((f"{view} trace, ms per selection click", " ".join(
                f"{k} {s[f'trace_{view}_{k}']:.1f}" for k in ("handlers", "style", "layout", "paint", "parse",
                                                               "raster")), ""))
            if f"trace_{view}_restyled_elements" in s:
                rows.append((f"{view} trace, per selection click",
                             f"{s[f'trace_{view}_restyled_elements']:.0f} elements restyled, "
                             f"{s[f'trace_{view}_layout_objects']:.0f} laid out", ""))
        if f"select_{view}_mutations_p50" in s:
            rows.append((f"{view} DOM per selection tap (p50)", f"{s[f'select_{view}_mutations_p50']:.0f} mutation "
                         f"records, {s[f'select_{view}_nodes_added_p50']:.0f} nodes created", ""))
    for view in ("bands", "grid", "ruler"):
        add(f"{view} selection p95, 120 / 40 combatants (same run)", f"select120_over_40_{view}_p95", "×{:.2f}")
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
    ap.add_argument("--clicks", type=int, default=200, help="selection taps per view (unthrottled)")
    ap.add_argument("--throttled-clicks", type=int, default=None, help="selection taps per view at 4× CPU "
                    "throttle (default: --clicks)")
    ap.add_argument("--phone-clicks", type=int, default=None, help="touch taps per view at 390 px "
                    "(default: --clicks / 4)")
    ap.add_argument("--act-rounds", type=int, default=None, help="rounds of state-changing acts per view "
                    "(attack, undo, path move, undo, drag, undo; default: --clicks / 20)")
    ap.add_argument("--engine-rounds", type=int, default=3, help="cold + warm boots per browser engine")
    ap.add_argument("--clicks-120", type=int, default=None, help="selection taps per view in the "
                    "120-combatant encounters (part clicks120; default: --clicks / 2)")
    ap.add_argument("--only", default="startup,engines,clicks,mapimage,clicks120,table,engine,review")
    ap.add_argument("--review-steps", type=int, default=1000, help="steps of the fight the timeline scrubs")
    ap.add_argument("--table-steps", type=int, default=100, help="referee steps timed to the table display")
    args = ap.parse_args(argv)
    if args.throttled_clicks is None:
        args.throttled_clicks = args.clicks
    if args.phone_clicks is None:
        args.phone_clicks = max(1, args.clicks // 4)
    if args.clicks_120 is None:
        args.clicks_120 = max(1, args.clicks // 2)
    if args.act_rounds is None:
        args.act_rounds = max(1, args.clicks // 20)
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
        if "paint" in parts:
            print(f"painted start of a later visit, OSE detailed example, {args.rounds} rounds interleaved:", flush=True)
            from paint_bench import painted_start, summary  # tests/bench/paint_bench.py (issue #57)
            res["paint"] = painted_start(browser, base, args.rounds, log=lambda s: print(s, flush=True))
            print(summary(res["paint"]), flush=True)
        if "engines" in parts:
            print(f"boot per browser engine, {args.engine_rounds} rounds (cold, then warm in the same profile):",
                  flush=True)
            res["engines"] = bench.engines(args.engine_rounds, pw)
        if "clicks" in parts:
            print(f"clicks: {args.clicks} selection taps per view, {args.throttled_clicks} at 4× throttle, "
                  f"{args.phone_clicks} by touch at 390 px, {args.act_rounds} rounds of acts:", flush=True)
            res["clicks"] = bench.clicks(args)
        if "mapimage" in parts:
            print(f"grid taps with a map image: {args.clicks} selection taps with and without it, interleaved:",
                  flush=True)
            from map_image_bench import map_image_taps  # tests/bench/map_image_bench.py (issue #55)
            res["mapimage"] = map_image_taps(browser, base, storage.encode_link, click_sessions()["grid"], args.clicks,
                                             log=lambda s: print(s, flush=True))
        if "clicks120" in parts:
            print(f"clicks at 120 combatants: {args.clicks_120} selection taps per view:", flush=True)
            res["clicks120"] = bench.clicks120(args)
        if "table" in parts:
            print(f"table display: {args.table_steps} referee steps to the table window's DOM:", flush=True)
            from table_bench import table_latency  # tests/bench/table_bench.py (issue 18)
            res["table"] = table_latency(browser, base, args.table_steps)
        if "review" in parts:
            print(f"timeline: {args.review_steps}-step fight, 60 slider steps to the next paint:", flush=True)
            from review_bench import review_latency  # tests/bench/review_bench.py (issue #56)
            res["review"] = review_latency(browser, base, args.review_steps)
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
    if "table" in res:
        t = res["table"]
        print(f"table display, referee step -> table DOM updated: p50 {t['p50']:.1f} / p95 {t['p95']:.1f} / "
              f"p99 {t['p99']:.1f} ms (target p95 <= {t['target_p95']}; {t['n']} of {t['steps']} steps timed)")
    if "mapimage" in res:
        from map_image_bench import line
        print(line(res["mapimage"]))
    if "review" in res:
        t = res["review"]
        print(f"timeline, one slider step on a {t['steps']}-step fight -> next paint: p50 {t['p50']:.1f} / "
              f"p95 {t['p95']:.1f} ms (target p95 <= {t['target_p95']}; {t['n']} steps timed)")
    print(f"\nwritten to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
