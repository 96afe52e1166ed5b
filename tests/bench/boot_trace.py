"""Where a later visit's start goes (issue #57): one Chromium trace of the OSE detailed example, as a table.

`python3 tests/bench/boot_trace.py [--rounds 1] [--raw trace.json] [--ab DIR]` rebuilds the app zip,
makes a first visit (the OSE detailed example opened from Setup, its painted start stored, the start-up
snapshot made: tests/bench/paint_bench.py), a second visit, and traces the third (Playwright's
`browser.start_tracing`: devtools.timeline, v8, wasm, user timing and service worker categories). It prints:
the navigation and each head request (start, end, served by the service worker or not); the main thread's
work by kind and file (script compile and evaluation per file, the wasm compile and instantiate, style,
layout, paint, garbage collection); the service worker thread's work; and the start-up stages' marks
(static/boot/boot.js, the interpreter module, py/main.py, ui/app.py), with what lies between them: PyScript's
own, Pyodide's own (restore, instantiate), the engine's (service worker start, script compile). With `--ab DIR`
it traces nothing: it times later visits of DIR (another checkout, `main` say, built) and of this worktree,
interleaved (A B B A ...), and prints each stage's median before and after. Asserts nothing.
"""
from __future__ import annotations

import argparse
import collections
import json
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests" / "bench")]

import server  # noqa: E402  (tools/server.py)
import setup  # noqa: E402  (tools/setup.py)
from paint_bench import READY, _first_visit, _visit  # noqa: E402  (tests/bench/paint_bench.py)

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute", "v8.wasm",
              "disabled-by-default-v8.compile", "blink.user_timing", "loading", "ServiceWorker", "toplevel",
              "disabled-by-default-devtools.timeline.stack"]
# Timing as the page saw it: the navigation, each request with whether the service worker answered it, the marks.
PAGE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const files = performance.getEntriesByType('resource').map(e => ({
    path: new URL(e.name).pathname, start: e.startTime, worker: e.workerStart, response: e.responseStart,
    end: e.responseEnd, size: e.decodedBodySize, type: e.initiatorType}));
  const marks = {};
  for (const e of performance.getEntriesByType('mark')) {
    const name = e.name.startsWith('fray-stage:') ? e.name.slice(11) : e.name;
    if (!(name in marks)) marks[name] = e.startTime;
  }
  const paint = performance.getEntriesByName('first-contentful-paint');
  return {nav: {worker: nav.workerStart, fetch: nav.fetchStart, request: nav.requestStart,
                response: nav.responseStart, html: nav.responseEnd, interactive: nav.domInteractive,
                dcl_start: nav.domContentLoadedEventStart, dcl: nav.domContentLoadedEventEnd},
          fcp: paint.length ? paint[0].startTime : null, files, marks,
          snapshot: document.documentElement.dataset.snapshot || null,
          wasm: document.documentElement.dataset.wasm || null};
}"""
# Main-thread trace events worth a row, by name: (label, how a row is keyed).
KINDS = {
    "EvaluateScript": "script evaluation", "v8.compile": "script compile", "v8.compileModule": "module compile",
    "v8.evaluateModule": "module evaluation", "v8.produceModuleCache": "code cache", "v8.produceCache": "code cache",
    "ParseHTML": "HTML parse", "ParseAuthorStyleSheet": "style sheet parse", "UpdateLayoutTree": "style",
    "Layout": "layout", "Paint": "paint", "PrePaint": "paint", "Layerize": "paint", "Commit": "paint",
    "MinorGC": "GC", "MajorGC": "GC", "V8.GC_SCAVENGER": "GC", "V8.GC_MARK_COMPACTOR": "GC",
    "FunctionCall": "function call", "TimerFire": "timer", "FireAnimationFrame": "animation frame",
    "RunMicrotasks": "microtasks", "EventDispatch": "event", "ResourceReceivedData": "network data",
    "wasm.CompileLazy": "wasm compile", "wasm.SyncCompile": "wasm compile", "wasm.AsyncCompile": "wasm compile",
    "v8.wasm.streamFromResponseCallback": "wasm compile", "v8.wasm.compileConsume": "wasm compile",
    "v8.wasm.compiledModule": "wasm compile", "v8.wasm.finishedStreaming": "wasm compile",
    "wasm.SyncInstantiate": "wasm instantiate", "wasm.InstantiateModule": "wasm instantiate",
    "v8.wasm.instantiate": "wasm instantiate",
}


def _url(ev: dict) -> str:
    args = ev.get("args") or {}
    data = args.get("data") or args
    for key in ("url", "fileName", "scriptName", "sourceURL"):
        if isinstance(data, dict) and data.get(key):
            return str(data[key]).split("?")[0].rsplit("/", 1)[-1]
    return ""


def threads(events: list[dict]) -> dict:
    """(pid, tid) -> thread name."""
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name"}


def analyse(events: list[dict], page: dict) -> dict:
    """The trace's main thread and service worker thread, on the page's clock (ms since navigation)."""
    names = threads(events)
    ready = [e for e in events if e.get("name") == "fray-ready" and e.get("ph") in ("R", "I", "n", "b", "e")]
    if not ready:
        raise SystemExit("the trace holds no fray-ready mark (blink.user_timing)")
    pid = ready[0]["pid"]
    zero = ready[0]["ts"] / 1000 - page["marks"]["fray-ready"]  # trace ms at the navigation's start
    main = next(tid for (p, tid), n in names.items() if p == pid and n == "CrRendererMain")
    workers = {tid for (p, tid), n in names.items() if "ServiceWorker" in n or n.startswith("DedicatedWorker")}
    rows: dict = collections.defaultdict(lambda: [0.0, 0, None])  # (thread, kind, file) -> [ms, count, first start]
    for e in events:
        if e.get("ph") != "X" or e.get("name") not in KINDS:
            continue
        where = "main" if (e["pid"], e["tid"]) == (pid, main) else (
            names.get((e["pid"], e["tid"]), "?") if e["tid"] in workers or e["pid"] == pid else None)
        if where is None:
            continue
        at = e["ts"] / 1000 - zero
        if at < -50 or at > page["marks"]["fray-ready"] + 50:
            continue
        row = rows[(where, KINDS[e["name"]], e["name"], _url(e))]
        row[0] += e.get("dur", 0) / 1000
        row[1] += 1
        row[2] = at if row[2] is None else min(row[2], at)
    # Top-level main-thread tasks only (nested events counted above too): how busy the thread was.
    spans: list[list[float]] = []  # the main thread's top-level events: [start, ms]
    for e in sorted((e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) == (pid, main)),
                    key=lambda e: e["ts"]):
        at, ms = e["ts"] / 1000 - zero, e.get("dur", 0) / 1000
        if not spans or at >= spans[-1][0] + spans[-1][1]:
            spans.append([at, ms])
    return {"rows": {"|".join(k): v for k, v in rows.items()}, "main_busy": _busy({"trace": {"spans": spans}}, 0.0, page["marks"]["fray-ready"]), "spans": spans,
            "tasks": long_tasks(events, pid, main, zero, page["marks"]["fray-ready"]),
            "threads": sorted({n for (p, _), n in names.items() if p == pid})}


def long_tasks(events: list[dict], pid: int, main: int, zero: float, end: float) -> list:
    """The main thread's top-level tasks of 8 ms or more before ready, in order: [start, ms, what took most of it]."""
    mine = sorted((e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) == (pid, main)),
                  key=lambda e: e["ts"])
    out = []
    until = 0
    for i, task in enumerate(mine):
        if task["ts"] < until:
            continue  # inside the last top-level task
        until = task["ts"] + task.get("dur", 0)
        at, ms = task["ts"] / 1000 - zero, task.get("dur", 0) / 1000
        if ms < 8 or not -50 <= at <= end:
            continue
        inner = collections.Counter()
        for e in mine[i + 1:]:
            if e["ts"] >= until:
                break
            if e["name"] in KINDS and e["name"] not in ("RunMicrotasks",):
                inner[f"{e['name']} {_url(e)}".strip()] += e.get("dur", 0) / 1000
        out.append([at, ms, "; ".join(f"{k} {v:.0f}" for k, v in inner.most_common(3))])
    return out


def trace_visit(browser, base: str, raw_out: str | None = None, trace: bool = True) -> dict:
    """The third visit of a new context (the first stores the painted start and the snapshot), traced or not."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script("window.frayWelcome = false;")
    try:
        _first_visit(ctx, base, True)
        _visit(ctx, base)
        page = ctx.new_page()
        if trace:
            browser.start_tracing(page=page, categories=CATEGORIES)
        page.goto(base)
        page.wait_for_selector(READY, state="attached", timeout=120_000)
        page.wait_for_timeout(300)
        raw = browser.stop_tracing() if trace else None
        info = page.evaluate(PAGE)
        page.close()
    finally:
        ctx.close()
    if raw is None:
        return info
    if raw_out:
        pathlib.Path(raw_out).write_bytes(raw)
    events = json.loads(raw)
    events = events["traceEvents"] if isinstance(events, dict) else events
    info["trace"] = analyse(events, info)
    return info


STAGES = (  # (label, from mark, to mark, whose time)
    ("navigation to the html's last byte", None, "html", "engine (service worker start, cache read)"),
    ("html to DOMContentLoaded (head files, parse)", "html", "DOMContentLoaded", "engine + boot.js"),
    ("DOMContentLoaded to the painted frame", "DOMContentLoaded", "fray-painted", "engine (frame)"),
    ("PyScript set-up (core module, config, plugins)", "fray-painted", "Loading Pyodide", "PyScript"),
    ("PyScript: interpreter module import", "Loading Pyodide", "Loading Storage", "PyScript + engine"),
    ("PyScript: its IndexedDB storage", "Loading Storage", "Loaded Storage", "PyScript"),
    ("to the interpreter module's start", "Loaded Storage", "Starting Python", "PyScript"),
    ("snapshot read from the cache", "Starting Python", "Snapshot read", "engine (cache)"),
    ("wasm instantiate + snapshot restore", "Snapshot read", "Snapshot restored", "Pyodide"),
    ("app mounted, random reseeded", "Snapshot restored", "Loaded interpreter", "Fray's loader"),
    ("PyScript's Python bootstrap (pyscript package, hooks)", "Loaded interpreter", "Loaded Pyodide", "PyScript"),
    ("PyScript's codeBeforeRun (writes, imports pyscript)", "Loaded Pyodide", "main.py", "PyScript"),
    ("py/main.py: fray.ui.app imported, page settled", "main.py", "Python imports done", "Fray"),
    ("App built", "Python imports done", "App built", "Fray"),
    ("library read", "App built", "Library read", "Fray"),
    ("first drawing", "Library read", "fray-ready", "Fray"),
)


def _at(v: dict, name: str | None) -> float | None:
    if name is None:
        return 0.0
    if name in ("html", "DOMContentLoaded"):
        return v["nav"]["html" if name == "html" else "dcl"]
    return v["marks"].get(name)


def _took(visits: list[dict], a: str | None, b: str) -> float | None:
    spans = [(_at(v, a), _at(v, b)) for v in visits]
    spans = [(x, y) for x, y in spans if x is not None and y is not None]
    return statistics.median(y - x for x, y in spans) if spans else None


def ab_table(before: list[dict], after: list[dict]) -> str:
    """Each stage's median, before and after, from visits interleaved in one run."""
    lines = [f"A/B, {len(before)} later visits each, interleaved (medians, ms){'':14} before  after  after/before"]
    for label, a, b, _ in STAGES + (("codeBeforeRun + py/main.py to its imports", "Loaded Pyodide",
                                     "Python imports done", ""), ("ready", None, "fray-ready", ""), ("fight drawn", None, "fray-drawn", ""),
                                    ("its frame (fray-painted)", None, "fray-painted", "")):
        x, y = _took(before, a, b), _took(after, a, b)
        if x is not None and y is not None:
            lines.append(f"  {label:70} {x:6.0f} {y:6.0f}  {y / x if x else float('nan'):5.2f}")
    return "\n".join(lines)


def _busy(v: dict, start: float, end: float) -> float:
    """How long the main thread ran tasks between start and end (ms)."""
    return sum(max(0.0, min(end, at + ms) - max(start, at)) for at, ms in v["trace"]["spans"])


def stage_table(visits: list[dict]) -> list[str]:
    at = _at
    lines = [f"{'stage (medians over ' + str(len(visits)) + ' visits, ms)':58} {'from':>6} {'took':>6} "
             f"{'busy':>5}  whose (busy: the main thread's tasks in it)"]
    for label, a, b, who in STAGES:
        spans = [(at(v, a), at(v, b)) for v in visits]
        spans = [(x, y) for x, y in spans if x is not None and y is not None]
        if spans:
            busy = statistics.median(_busy(v, _at(v, a), _at(v, b)) for v in visits
                                     if "trace" in v and _at(v, a) is not None and _at(v, b) is not None) \
                if any("trace" in v for v in visits) else float("nan")
            lines.append(f"{label:58} {statistics.median(x for x, _ in spans):6.0f} "
                         f"{statistics.median(y - x for x, y in spans):6.0f} {busy:5.0f}  {who}")
    return lines


def report(visits: list[dict]) -> str:
    v = visits[-1]
    n = v["nav"]
    out = [f"later visit, OSE detailed example: snapshot {v['snapshot']}, wasm {v['wasm']}, "
           f"ready {statistics.median(x['marks']['fray-ready'] for x in visits):.0f} ms (median of {len(visits)})",
           f"navigation: service worker started {n['worker']:.0f}, request {n['request']:.0f}, "
           f"response {n['response']:.0f}, html {n['html']:.0f}, DOMContentLoaded {n['dcl']:.0f}, "
           f"first contentful paint {v['fcp'] or 0:.0f}", "", *stage_table(visits), "",
           "requests before ready (last visit), ms: start -> end  [sw: answered by the service worker]"]
    for f in sorted(v["files"], key=lambda f: f["start"]):
        if f["start"] <= v["marks"]["fray-ready"]:
            sw = "sw" if f["worker"] > 0 else "  "
            out.append(f"  {f['path'][-48:]:48} {f['start']:6.0f} -> {f['end']:6.0f} ({f['end'] - f['start']:4.0f}) "
                       f"{sw} {f['type']:8} {f['size'] / 1e3:7.0f} kB")
    out += ["", f"trace, main thread busy before ready: {v['trace']['main_busy']:.0f} ms; "
                "work by thread, kind and file (last visit; nested events counted in each):"]
    rows = sorted(v["trace"]["rows"].items(), key=lambda kv: -kv[1][0])
    for key, (ms, count, first) in rows:
        if ms >= 3:
            where, kind, name, url = key.split("|")
            out.append(f"  {where[:14]:14} {kind:18} {name[:30]:30} {url[:32]:32} {ms:6.0f} ms  x{count:<4} "
                       f"first at {first:5.0f}")
    out += ["", "main-thread tasks of 8 ms or more before ready (last visit): start, ms, inside"]
    out += [f"  {at:6.0f} {ms:5.0f}  {what}" for at, ms, what in v["trace"]["tasks"]]
    out.append("renderer threads: " + ", ".join(v["trace"]["threads"]))
    return "\n".join(out)


def warm(base: str) -> None:
    """Every file fetched once, so the server has gzipped it before anything is measured."""
    import offline  # tools/offline.py
    import urllib.request

    for rel in offline.sw_assets()["files"]:
        try:
            with urllib.request.urlopen(urllib.request.Request(base + rel, headers={"Accept-Encoding": "gzip"})) as r:
                r.read()
        except OSError:  # another checkout (--ab) may not have this one
            pass


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1, help="later visits traced (each in a new context)")
    ap.add_argument("--raw", default=None, help="also write the last visit's trace (chrome://tracing, Perfetto)")
    ap.add_argument("--ab", default=None, metavar="DIR", help="A/B: later visits (untraced) of DIR (another "
                    "checkout, built: python3 DIR/tools/setup.py --app-only) and of this worktree, interleaved")
    ap.add_argument("--out", default=str(ROOT / "bench-results" / "boot-trace.json"))
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright
    from page_bench import launch

    setup.build_app()
    srv = server.start()
    base = f"http://127.0.0.1:{srv.server_port}/"
    warm(base)
    other = server.start(root=pathlib.Path(args.ab).resolve()) if args.ab else None
    if other is not None:
        warm(f"http://127.0.0.1:{other.server_port}/")
    visits: list[dict] = []
    before: list[dict] = []
    with sync_playwright() as pw:
        browser = launch(pw)
        for r in range(args.rounds):
            sides = [("after", base), ("before", f"http://127.0.0.1:{other.server_port}/")] if other else [("", base)]
            for side, url in sides if r % 2 == 0 else sides[::-1]:
                v = trace_visit(browser, url, args.raw, trace=other is None)
                (before if side == "before" else visits).append(v)
                print(f"  round {r + 1} {side:6}: ready {v['marks'].get('fray-ready', 0):.0f} ms", flush=True)
        browser.close()
    srv.shutdown()
    if other is not None:
        other.shutdown()
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"after": visits, "before": before} if before else visits, indent=1))
    print(ab_table(before, visits) if before else report(visits))
    return 0


if __name__ == "__main__":
    sys.exit(main())
