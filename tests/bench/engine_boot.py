"""Why a later visit gains (or not) in each browser engine: a first and a later visit, per engine, shown.

    python3 tests/bench/engine_boot.py [--engines firefox,webkit,chromium] [--rounds 1] [--out FILE.json]
                                       [--moz-log nsHttp:3] [--all-files]
                                       [--firefox-pref javascript.options.wasm_caching=true] [--compile]
                                       [--against DIR]  (another build of the site, visited interleaved)

Each engine is driven as tests/xbrowser drives it (tests/xbrowser/drivers.py: Chromium through Playwright,
Firefox through WebDriver BiDi, WebKitGTK through WebKitWebDriver under Xvfb), on the test server
(tests/xbrowser/site_server.py, whose hook times every WebAssembly compile and instantiate the boot makes and
keeps the page's warnings). For a fresh profile it visits the page, waits for the service worker and for the
start-up snapshot the first visit has made (static/boot/snapshot-worker.mjs), lists the Cache Storage, and
visits again. For each visit it prints:
- the page and each runtime file: served by the service worker or not (Resource Timing `workerStart`,
  `transferSize`, `deliveryType`), and which requests reached the server at all (its log);
- the page's own boot marks (static/boot/boot.js `fray-stage:*`, the loader's snapshot read and restore) and
  `data-snapshot` / `data-wasm` (tools/fray-pyodide.template.mjs: restored, failed; early, again);
- each WebAssembly compile or instantiate, with its time: the wasm compiled again on a later visit shows here;
- the snapshot worker's outcome on the first visit ("stored", "failed: ...").
With --moz-log, Firefox runs with MOZ_LOG set to those modules and the lines each wrote are counted
(and the file kept); with nsHttp, for each runtime file the channels Firefox opened against the HTTP
transactions it sent (over the whole run: two visits and the service worker's install). It asserts nothing; the table is what the issue #57 report quotes.

What it showed (issue #57, Firefox 153 ESR and WebKitGTK 2.50 on a loaded 2-core machine):
- Both engines' later visits are controlled by the service worker, get every runtime file from it (no runtime
  request reaches the server but the worker's own update check; Firefox's nsHttp log: the wasm's channels 9,
  sent to the network 2, the first visit and the worker's install), and start from the snapshot the first
  visit made in the snapshot worker (31,457,408 bytes in Cache Storage; data-snapshot=restored).
- Neither engine keeps compiled wasm: three compileStreaming calls of the same response in a row take the
  same time (Firefox 311/333/277 ms, also with javascript.options.wasm_caching=true 373/493/394 ms; WebKit
  245/348/245 ms), from the service worker or the HTTP cache alike. A later visit compiles the 10 MB module
  again (boot.js starts it at the painted frame); amid the page's own start that takes 630-980 ms in Firefox
  and 720-2300 ms in WebKit, and it is the later visit's critical path in both. WebKit also streams the
  service worker's 10 MB response in ~400 ms and runs PyScript's bootstrap on freshly compiled code
  (Loaded interpreter to Python imports done 360-1180 ms, Firefox 60-70 ms). That is the engines' own.
- WebKit's fetch() never takes a <link rel=preload as=fetch> response: a first visit asked the server twice
  for the wasm, fray.zip, python_stdlib.pyc.zip, main.py and pyscript.toml (12.07 MB before ready, Chromium
  and Firefox 6.22 MB). boot.js now fetches the wasm itself (8.52 MB); the others are index.html's preloads.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests" / "xbrowser")]

import drivers  # noqa: E402  (tests/xbrowser/drivers.py)
import site_server  # noqa: E402

TIMEOUT = 120.0

# Everything one visit tells about itself, once ready.
PROBE = """async () => {
  const short = (u) => u.replace(location.origin + '/', '');
  const rt = (e) => ({name: short(e.name) || '(page)', workerStart: Math.round(e.workerStart),
    transferSize: e.transferSize, deliveryType: e.deliveryType === undefined ? '-' : (e.deliveryType || "''"),
    start: Math.round(e.startTime), end: Math.round(e.responseEnd)});
  const files = performance.getEntriesByType('resource')
    .filter(e => e.name.startsWith(location.origin)).map(rt);
  const nav = performance.getEntriesByType('navigation')[0];
  const marks = {};
  for (const m of performance.getEntriesByType('mark')) {
    const n = m.name.startsWith('fray-stage:') ? m.name.slice(11) : m.name;
    if (!(n in marks)) marks[n] = Math.round(m.startTime);
  }
  const d = document.documentElement.dataset;
  return {page: nav ? rt(nav) : null, files, marks, snapshot: d.snapshot || null, wasmPath: d.wasm || null,
    controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
    wasm: (window.__xbWasm || []).map(w => ({fn: w.fn, arg: w.arg, start: Math.round(w.start),
      ms: w.end === null ? null : Math.round(w.end - w.start), error: w.error || null})),
    warns: (window.__xbWarns || []).slice(), errors: (window.__xbErrors || []).slice(),
    ua: navigator.userAgent};
}"""

# After the first visit: the service worker's state and what became of the snapshot (boot.js's promises).
AFTER_FIRST = """async () => {
  const t0 = performance.now();
  const limit = new Promise(r => setTimeout(() => r('timed out'), 100000));
  const reg = await Promise.race([window.frayBoot.serviceWorker, limit]);
  const snap = await Promise.race([window.frayBoot.snapshot, limit]);
  return {sw: reg && reg.active ? reg.active.state : String(reg), snapshot: String(snap),
          waited_ms: Math.round(performance.now() - t0)};
}"""

CACHES = """async () => {
  if (!window.caches) return {error: 'no Cache API'};
  const out = {};
  for (const name of await caches.keys()) {
    const keys = await (await caches.open(name)).keys();
    const snap = keys.find(r => r.url.endsWith('fray.snapshot'));
    let bytes = null;
    if (snap) bytes = (await (await (await caches.open(name)).match(snap)).arrayBuffer()).byteLength;
    out[name] = {entries: keys.length, snapshot_bytes: bytes};
  }
  return out;
}"""

# The runtime's wasm compiled in the page, from the service worker's copy, twice each way: an engine that
# caches compiled code (for compileStreaming of a fetched response) shows a second compile far shorter.
COMPILE = """async () => {
  const url = 'static/vendor/pyodide/pyodide.asm.wasm';
  const out = {};
  for (const k of ['compile_1', 'compile_2']) {
    const b = await (await fetch(url)).arrayBuffer();
    const t = performance.now(); await WebAssembly.compile(b); out[k] = Math.round(performance.now() - t);
  }
  for (const k of ['streaming_1', 'streaming_2']) {
    const t = performance.now(); await WebAssembly.compileStreaming(fetch(url));
    out[k] = Math.round(performance.now() - t);
  }
  // The same from the network and the HTTP cache (a query the service worker does not answer): where an engine
  // keeps compiled code, it is for such responses.
  for (const k of ['http_1', 'http_2', 'http_3']) {
    const t = performance.now(); await WebAssembly.compileStreaming(fetch(url + '?http'));
    out[k] = Math.round(performance.now() - t);
    await new Promise(r => setTimeout(r, 1500));  // an engine may write its cache entry after the compile
  }
  return out;
}"""

FILES = ("(page)", "pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.pyc.zip", "fray.zip", "fray.snapshot",
         "fray-pyodide.mjs")


def visit(page, srv, url: str) -> dict:
    srv.take_sent()
    t0 = time.time()
    page.goto(url)
    page.wait_ready(timeout=TIMEOUT)
    out = page.js(PROBE)
    out["wall_s"] = round(time.time() - t0, 2)
    out["ready"] = out["marks"].get("fray-ready")
    time.sleep(0.3)  # the server logs a response after its last byte
    # Until ready, on the server's clock: the service worker's install (after ready) asks again.
    ready_at = page.js("() => (performance.timeOrigin + performance.getEntriesByName('fray-ready')[0].startTime) / 1000")
    sent = [(p.split("?")[0], n) for p, n, t in srv.take_sent() if t <= ready_at]
    out["server"] = sorted(p for p, _ in sent)
    out["server_bytes"] = sum(n for _, n in sent)
    return out


def one_round(eng, srv, compile_too: bool) -> dict:
    page = eng.new_page(srv.base, *drivers.DESKTOP)
    try:
        first = visit(page, srv, srv.base)
        after = page.js(AFTER_FIRST)
        after["caches"] = page.js(CACHES)
        if compile_too:
            first["compile"] = page.js(COMPILE)
        srv.take_sent()
        later = visit(page, srv, srv.base)
        later["caches"] = page.js(CACHES)
        if compile_too:
            later["compile"] = page.js(COMPILE)
        return {"version": eng.version, "first": first, "after_first": after, "later": later}
    finally:
        page.close()


def describe(name: str, r: dict, all_files: bool = False) -> list[str]:
    out = [f"== {name} ({r['version']})",
           f"  after the first visit: service worker {r['after_first']['sw']}, snapshot "
           f"'{r['after_first']['snapshot']}' (waited {r['after_first']['waited_ms']} ms); "
           f"Cache Storage {json.dumps(r['after_first']['caches'])}"]
    for visit_name in ("first", "later"):
        v = r[visit_name]
        m = v["marks"]
        out.append(f"  {visit_name:5} visit: ready {v['ready']} ms, controlled by the SW: {v['controlled']}, "
                   f"data-snapshot={v['snapshot']}, data-wasm={v['wasmPath']}")
        out.append("    marks (ms): " + ", ".join(f"{k} {t}" for k, t in sorted(m.items(), key=lambda kv: kv[1])))
        for w in v["wasm"]:
            out.append(f"    wasm {w['fn']}({w['arg']}) at {w['start']} ms took {w['ms']} ms"
                       + (f" ERROR {w['error']}" if w["error"] else ""))
        rows = [v["page"]] + v["files"] if v["page"] else v["files"]
        for f in rows:
            base = f["name"].rsplit("/", 1)[-1].split("?")[0] or "(page)"
            if all_files or base in FILES or f["name"] == "(page)":
                out.append(f"    {base:22} workerStart {f['workerStart']:5}  transferSize {f['transferSize']:>9}  "
                           f"deliveryType {f['deliveryType']:>6}  {f['start']:5}->{f['end']:5} ms")
        runtime = [p for p in v["server"] if p.startswith(("/static/vendor/pyodide", "/static/build"))]
        runtime = {p.rsplit("/", 1)[-1]: runtime.count(p) for p in runtime}
        out.append(f"    requests that reached the server before ready: {len(v['server'])}, "
                   f"{v['server_bytes'] / 1e6:.2f} MB on the wire; runtime files (times asked): "
                   f"{runtime or 'none'}")
        if "compile" in v:
            out.append(f"    wasm compiled in the page after ready (ms): {v['compile']}")
        for w in v["warns"]:
            out.append(f"    warning: {w}")
        for e in v["errors"]:
            out.append(f"    error: {e}")
    return out


def summary(name: str, rounds: list[dict]) -> str:
    def med(vals):
        vals = [x for x in vals if x is not None]
        return f"{statistics.median(vals):.0f}" if vals else "-"

    def boot_wasm(v):
        ms = [w["ms"] for w in v["wasm"] if w["ms"] is not None]
        return sum(ms) if ms else None
    return (f"{name:16} first {med([r['first']['ready'] for r in rounds]):>5} ms  later "
            f"{med([r['later']['ready'] for r in rounds]):>5} ms  snapshot made: "
            f"{','.join(r['after_first']['snapshot'][:20] for r in rounds)}  later restored: "
            f"{sum(r['later']['snapshot'] == 'restored' for r in rounds)}/{len(rounds)}  later controlled: "
            f"{sum(r['later']['controlled'] for r in rounds)}/{len(rounds)}  first visit "
            f"{statistics.median(r['first']['server_bytes'] for r in rounds) / 1e6:.2f} MB  boot wasm ms first/later "
            f"{med([boot_wasm(r['first']) for r in rounds])}/{med([boot_wasm(r['later']) for r in rounds])}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default="firefox,webkit")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--compile", action="store_true", help="also compile the wasm in the page after ready")
    ap.add_argument("--moz-log", default="", help="Firefox's MOZ_LOG modules, e.g. nsHttp:3")
    ap.add_argument("--all-files", action="store_true", help="list every file the page loaded, not only the runtime's")
    ap.add_argument("--firefox-pref", action="append", default=[], metavar="NAME=JSON",
                    help="a Firefox preference for this run, e.g. javascript.options.wasm_caching=true")
    ap.add_argument("--against", default="", metavar="DIR", help="another build of the site (e.g. main's, set up "
                    "with tools/setup.py there): each round visits it and this one, interleaved, and both are summed up")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    moz_file = None
    if args.moz_log:
        moz_file = os.path.join(tempfile.mkdtemp(prefix="fray-mozlog-"), "moz")
        os.environ.update(MOZ_LOG=args.moz_log + ",timestamp", MOZ_LOG_FILE=moz_file)
    for pref in args.firefox_pref:
        k, v = pref.split("=", 1)
        drivers.FIREFOX_PREFS[k] = json.loads(v)
    servers = {"": site_server.make_server()}
    if args.against:
        servers = {"this": servers[""], "against": site_server.make_server(pathlib.Path(args.against).resolve())}
    results: dict = {}
    pw = None
    try:
        for name in args.engines.split(","):
            why = drivers.missing(name)
            if why:
                print(f"{name}: skipped: {why}", flush=True)
                continue
            if name == "chromium" and pw is None:
                from playwright.sync_api import sync_playwright
                pw = sync_playwright().start()
            eng = drivers.launch(name, pw)
            try:
                for r in range(args.rounds):
                    labels = list(servers) if r % 2 == 0 else list(servers)[::-1]  # A B, then B A
                    for label in labels:
                        key = f"{name} {label}".strip()
                        one = one_round(eng, servers[label], args.compile)
                        results.setdefault(key, []).append(one)
                        print("\n".join(describe(key, one, args.all_files)), flush=True)
            finally:
                eng.close()
    finally:
        for srv in servers.values():
            srv.shutdown()
        if pw is not None:
            pw.stop()
    print("\nper engine (median over rounds):")
    for name, rounds in results.items():
        print("  " + summary(name, rounds))
    if moz_file:
        logs = sorted(pathlib.Path(moz_file).parent.glob("moz*"))
        counts: dict[str, int] = {}
        for f in logs:
            for line in f.read_text(errors="replace").splitlines():
                m = re.search(r"\]: [A-Z]/(\S+)", line)
                if m:
                    counts[m.group(1)] = counts.get(m.group(1), 0) + 1
        print(f"MOZ_LOG files in {pathlib.Path(moz_file).parent}: {len(logs)}; lines per module: {counts}")
        if "nsHttp" in counts:  # channels opened against HTTP transactions sent: the rest the service worker answered
            text = "\n".join(f.read_text(errors="replace") for f in logs)
            for name in FILES[1:]:
                opened = len(re.findall(r"uri=http\S*/" + re.escape(name) + r"\b", text))
                sent = len(re.findall(r"GET \S*/" + re.escape(name) + r"\b", text))
                print(f"  nsHttp {name:22} channels {opened:3}  sent to the network {sent:3}")
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
