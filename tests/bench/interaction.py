"""Input to next paint, as the browser measures it: the interaction part of the page bench.

Used by tests/bench/page_bench.py (`--only clicks`). For each view (bands: OLOG,
grid: OSE detailed, grid + ruler: Ogre), in the 40-combatant encounters opened
by share link, it gives trusted input through Playwright (`page.mouse` with the
move before each click; `page.touchscreen.tap` at phone width) and reads:

- **input to next paint** from Event Timing (a `PerformanceObserver` of type
  `event`, `durationThreshold: 16`, entries grouped by `interactionId`, the
  largest duration of each group): input delay + handlers + style + layout +
  paint. An interaction with no entry took under 16 ms and counts as 0 here
  (shown as "<16" when a percentile falls there);
- **the handler part**: from the input event's timestamp to the end of the last
  DOM change it causes (a MutationObserver; deferred work in a timeout or an
  animation frame included), for the range under 16 ms that Event Timing does
  not report;
- state-changing acts (an attack with its dice, a move along a path, an undo)
  and the frames of a drag across the grid (Event Timing leaves `pointermove`
  out: the intervals of an animation-frame loop during the drag, 16.7 ms when
  no frame is missed);
- unthrottled and at 4× CPU throttle (`Emulation.setCPUThrottlingRate` through
  a CDP session), the phone-class stand-in;
- a trace breakdown per view of ten selection clicks (`browser.start_tracing`
  with the devtools.timeline categories): handlers, style, layout, paint, raster.
"""
from __future__ import annotations

import json
import pathlib
import tempfile

# Before the page's own scripts: every Event Timing entry and every DOM mutation, timestamped.
PROBE = """
(() => {
  const log = window.__ix = { entries: [], muts: [], inputs: [] };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) log.entries.push({ id: e.interactionId || 0, name: e.name,
        start: e.startTime, dur: e.duration, ps: e.processingStart, pe: e.processingEnd });
    }).observe({ type: "event", durationThreshold: 16, buffered: true });
  } catch (err) { log.unsupported = String(err); }
  for (const kind of ["pointerdown", "pointerup", "click", "touchstart", "touchend", "keydown"]) {
    addEventListener(kind, (ev) => { if (ev.isTrusted) log.inputs.push(ev.timeStamp); }, true);
  }
  log.records = 0; log.added = 0;
  // The odds written into the action buttons after the tap has painted (ui/page/odds_ui.py, in tasks of their own)
  // are not the tap's handler: records made only by them do not move the handler's end.
  const odds = (r) => (r.type === "attributes" && (r.attributeName || "").startsWith("data-odds"))
    || (() => { const t = r.target.nodeType === 1 ? r.target : r.target.parentElement;
                return !!(t && t.closest && t.closest("span.odds, #odds-pop")); })();
  new MutationObserver((list) => {
    if (list.every(odds)) return;
    log.muts.push(performance.now());
    log.records += list.length;
    for (const r of list) log.added += r.addedNodes.length;
  })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  log.reset = () => { log.entries.length = 0; log.muts.length = 0; log.inputs.length = 0; log.records = 0;
                      log.added = 0; };
})();
"""

# Waits for the frame after the input to be painted and its Event Timing entries to be delivered
# (they are queued after presentation), plus a little for deferred work; then returns the log.
SETTLE = """async () => {
  const raf = () => new Promise(r => requestAnimationFrame(() => r()));
  await raf(); await raf(); await new Promise(r => setTimeout(r, 30)); await raf();
  const log = window.__ix;
  return { entries: log.entries.slice(), muts: log.muts.slice(), inputs: log.inputs.slice(),
           records: log.records, added: log.added };
}"""

# The centre of the first element a CSS selector finds. Where that point is not on the element (out of view
# in the window or in a scrolling box around it, or under the phone's tab bar), the element is scrolled to
# the centre first, as Playwright's scroll_into_view_if_needed does, and the scroll is let paint.
POINT = """async (sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const on = (r) => { const t = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                      return !!t && (t === el || el.contains(t)); };
  let r = el.getBoundingClientRect();
  if (!on(r)) {
    el.scrollIntoView({ block: "center", inline: "center" });
    const raf = () => new Promise(res => requestAnimationFrame(() => res()));
    await raf(); await raf(); await new Promise(res => setTimeout(res, 30)); await raf();
    r = el.getBoundingClientRect();
  }
  if (r.width <= 0 || r.height <= 0) return null;
  return [r.x + r.width / 2, r.y + r.height / 2];
}"""
RESET = "() => window.__ix.reset()"

# The floor of the measure: a page with no framework and no Python, 40 buttons, and a click that moves one
# class from the last button to this one. What its taps take is what this browser on this machine takes to
# deliver an input, run a trivial handler, restyle two elements and present a frame.
FLOOR_PAGE = """<!doctype html><meta charset="utf-8"><title>floor</title>
<style>body { font: 16px system-ui, sans-serif; margin: 8px; }
ul { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(4, 1fr); gap: 6px; }
button { width: 100%; padding: 12px; font: inherit; } .sel { outline: 3px solid #b80; background: #fe8; }</style>
<ul id="l"></ul><script>
const l = document.getElementById("l"); let last = null;
for (let i = 0; i < 40; i++) { const li = document.createElement("li"), b = document.createElement("button");
  b.id = "b" + i; b.textContent = "Combatant " + (i + 1); li.append(b); l.append(li); }
l.addEventListener("click", (e) => { const b = e.target.closest("button"); if (!b) return;
  if (last) last.classList.remove("sel"); b.classList.add("sel"); last = b; });
</script>"""

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "cc", "gpu",
                    "disabled-by-default-devtools.timeline.frame"]


def pct(values: list[float], q: float) -> float:
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def summary(inp: list[float], handler: list[float]) -> dict:
    """Percentiles of input to next paint (0 = no Event Timing entry: under 16 ms) and of the handler part."""
    return {"n": len(inp), "under_16": sum(1 for v in inp if v < 16),
            "p50": pct(inp, .5), "p95": pct(inp, .95), "p99": pct(inp, .99), "max": max(inp) if inp else None,
            "handler_p50": pct(handler, .5), "handler_p95": pct(handler, .95), "handler_p99": pct(handler, .99)}


def read(log: dict) -> tuple[float, float | None, float]:
    READ_COUNTS.append((log.get("records", 0), log.get("added", 0)))
    mine = [e for e in log["entries"] if e["id"] and e.get("ps") is not None]
    if mine:  # the interaction's first event: how long its input waited for the main thread
        first = min(mine, key=lambda e: e["start"])
        DELAYS.append(first["ps"] - first["start"])
    return _read(log)


READ_COUNTS: list[tuple[int, int]] = []  # (mutation records, nodes added) of each input read
LAST: dict[str, list[float]] = {}  # the last `selections`' own figures (inp, handler), to pool several runs
DELAYS: list[float] = []  # each measured tap's input delay (Event Timing processingStart - startTime), ms


def _read(log: dict) -> tuple[float, float | None, float]:
    """(input to next paint of the interaction, its handler part, the worst pointermove frame)."""
    by_id: dict[int, float] = {}
    moves = [0.0]
    for e in log["entries"]:
        if e["id"]:
            by_id[e["id"]] = max(by_id.get(e["id"], 0.0), e["dur"])
        elif e["name"] == "pointermove":
            moves.append(e["dur"])
    inp = max(by_id.values()) if by_id else 0.0
    handler = None
    if log["inputs"] and log["muts"]:
        handler = max(0.0, max(log["muts"]) - min(log["inputs"]))
    return inp, handler, max(moves)


class Interactions:
    """One page per width, booted once by share link; each measurement opens its encounter again in it
    as start-up does (a new App in the booted page, storage cleared: ui/app.py install_restart), so the
    boot's own work is measured by the start-up part of the bench, not paid again before every part."""

    def __init__(self, browser, base: str, link) -> None:
        self.browser = browser
        self.base = base
        self.link = link  # Session -> "#..." share link fragment
        self.pages: dict[bool, tuple] = {}  # phone? -> (context, page, CDP session)

    def open(self, session, phone: bool = False, throttle: float = 1.0, stock=None):
        """The page at `session`; `stock(page)`, when given, fills the emptied storage before the App opens
        (tests/bench/map_image_bench.py: the map image's bytes)."""
        made = self.pages.get(phone)
        if made is None or made[1].is_closed():
            ctx = self.browser.new_context(viewport=PHONE if phone else DESKTOP, has_touch=phone,
                                           is_mobile=phone)
            ctx.add_init_script(PROBE)
            ctx.add_init_script("window.frayTestHooks = true;")
            # No start-up snapshot: on a first visit the page makes one a few seconds in, a second Python
            # booting in a worker for seconds, which would run beside the first view's taps on two cores.
            ctx.add_init_script("try { localStorage.setItem('fray.snapshot.off', 'bench'); } catch (e) {}")
            page = ctx.new_page()
            page.goto(self.base + "#" + self.link(session))
            page.wait_for_selector("html[data-ready='true']", state="attached", timeout=120_000)
            made = self.pages[phone] = (ctx, page, ctx.new_cdp_session(page))
            booted = True
        else:
            booted = False
        if not booted or stock is not None:
            ctx, page, cdp = made
            page.evaluate("() => window.frayRestart.close()")
            cdp.send("Storage.clearDataForOrigin", {"origin": self.base.rstrip("/"),
                                                     "storageTypes": "local_storage,indexeddb"})
            if stock is not None:
                stock(page)
            page.evaluate("(l) => history.replaceState(null, '', '#' + l)", self.link(session))
            page.evaluate("() => { window.frayRestart.open(); }")
            page.wait_for_selector("html[data-ready='true']", state="attached", timeout=120_000)
        made[2].send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        page.evaluate(SETTLE)
        return made[2], page

    def close(self) -> None:
        for ctx, _, _ in self.pages.values():
            ctx.close()
        self.pages.clear()

    # --- one input, measured ------------------------------------------------------------------
    def point(self, page, selector: str) -> tuple[float, float] | None:
        """The centre of the first element `selector` finds, scrolled into view first where it is not
        (in every scrolling box around it), once what was scrolled has painted: one call into the page
        for a CSS selector; Playwright's own locator for its text selectors (":has-text")."""
        if ":has-text" not in selector:
            xy = page.evaluate(POINT, selector)
            return tuple(xy) if xy else None
        loc = page.locator(selector).first
        if not loc.count():
            return None
        try:
            loc.scroll_into_view_if_needed(timeout=5000)
        except Exception:
            return None
        box = loc.bounding_box()
        if not box or box["width"] <= 0:
            return None
        page.evaluate(SETTLE)
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def tap(self, page, xy, phone: bool, settled: bool = False) -> tuple[float, float | None, float]:
        """One trusted tap at `xy` and what it cost. What the last tap (or a scroll) left is painted first:
        that tap's own read waited for it, as `point` does for a scroll; otherwise (`settled` false) it
        is waited for here."""
        page.evaluate(RESET if settled else "async () => { await (" + SETTLE + ")(); window.__ix.reset(); }")
        if phone:
            page.touchscreen.tap(*xy)
        else:
            page.mouse.move(*xy)
            page.mouse.click(*xy)
        return read(page.evaluate(SETTLE))

    def tap_on(self, page, selector: str, phone: bool):
        xy = self.point(page, selector)
        return None if xy is None else self.tap(page, xy, phone, settled=True)

    # --- selection taps ---------------------------------------------------------------------------
    def selections(self, session, n: int, phone: bool = False, throttle: float = 1.0, stock=None,
                   drawn: str = "") -> dict:
        """`n` selection taps; `stock` fills the storage first (`open`), `drawn` is a selector waited for
        before the first tap."""
        cdp, page = self.open(session, phone, throttle, stock)
        if drawn:
            page.wait_for_selector(drawn, state="attached", timeout=60_000)
            page.evaluate(SETTLE)
        ids = [c.id for c in session.state.combatants]
        inp, handler, kinds = [], [], {}
        READ_COUNTS.clear()
        DELAYS.clear()
        try:
            for i in range(n):
                who = ids[(i * 7) % len(ids)]
                field = i % 2 == 1
                kind = "field" if field else "order"
                if phone:  # the order list and the field are tabs of their own on a phone
                    tab = "field" if field else "order"
                    if page.locator(f"[data-testid=tab-{tab}][aria-pressed=true]").count() == 0:
                        r = self.tap_on(page, f"[data-testid=tab-{tab}]", phone)
                        if r is not None:
                            inp.append(r[0])
                            if r[1] is not None:
                                handler.append(r[1])
                            kinds.setdefault("tab", []).append(r[0])
                sel = (f"#field-slot [data-testid=tok-{who}], #field-slot [data-action='token:{who}']" if field
                       else f"[data-testid=order-{who}] button.pick")
                r = self.tap_on(page, sel, phone)
                if r is None and field:
                    kind = "order"
                    r = self.tap_on(page, f"[data-testid=order-{who}] button.pick", phone)
                if r is None:
                    continue
                inp.append(r[0])
                if r[1] is not None:
                    handler.append(r[1])
                kinds.setdefault(kind, []).append(r[0])
            errors = page.evaluate("() => document.querySelectorAll('[data-testid=notice-error]').length")
        finally:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        out = summary(inp, handler)
        LAST.update(inp=inp, handler=handler)
        out["error_notices"] = errors
        if READ_COUNTS:  # load-independent: DOM mutation records and nodes created per tap
            out["mutations_p50"] = pct([float(a) for a, _ in READ_COUNTS], .5)
            out["nodes_added_p50"] = pct([float(b) for _, b in READ_COUNTS], .5)
        if DELAYS:  # the part of input to paint spent waiting for the main thread (background work, a busy page)
            out["input_delay_p50"], out["input_delay_p95"] = pct(DELAYS, .5), pct(DELAYS, .95)
        out["by_kind"] = {k: {"n": len(v), "p50": pct(v, .5), "p95": pct(v, .95)} for k, v in kinds.items()}
        return out

    # --- the floor ---------------------------------------------------------------------------------
    def floor(self, n: int, throttle: float = 1.0) -> dict:
        """The same taps, measured the same way, on FLOOR_PAGE (no app): the least this measure can show."""
        ctx = self.browser.new_context(viewport=DESKTOP)
        try:
            page = ctx.new_page()
            page.set_content(FLOOR_PAGE)
            page.evaluate(PROBE)
            cdp = ctx.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            page.evaluate(SETTLE)
            inp, handler = [], []
            for i in range(n):
                r = self.tap_on(page, f"#b{(i * 7) % 40}", False)
                if r is not None:
                    inp.append(r[0])
                    if r[1] is not None:
                        handler.append(r[1])
            return summary(inp, handler)
        finally:
            ctx.close()

    # --- state-changing acts ------------------------------------------------------------------------
    def acts(self, session, rounds: int, grid: bool, throttle: float = 1.0) -> dict:
        """Per round: the current actor's first attack (its questions answered, dice rolled by the app),
        undo; on a grid also a move along a path (tap a square, tap it again), undo, and a drag of a
        token across the grid (its pointermove frames), undo."""
        cdp, page = self.open(session, False, throttle)
        inp, handler, frames, kinds = [], [], [], {}

        def note(kind, r):
            if r is None:
                return False
            inp.append(r[0])
            if r[1] is not None:
                handler.append(r[1])
            kinds.setdefault(kind, []).append(r[0])
            return True

        def current_id():
            return page.evaluate("""() => { const r = document.querySelector('#order-slot li.current[data-id]')
                || document.querySelector('#order-slot [data-id].current'); return r ? r.dataset.id : null; }""")

        try:
            for _ in range(rounds):
                cur = current_id()
                if cur:
                    note("select", self.tap_on(page, f"[data-testid=order-{cur}] button.pick", False))
                # An attack: the first offered (not refused) action of the Attack group, its questions answered.
                attack = page.locator("#actions-slot button.act:not(.refused):not([disabled])",
                                      has_text="Attack").first
                if attack.count() and note("attack", self.tap_on(page, "#actions-slot button.act:not(.refused)"
                                                                     ":not([disabled]):has-text('Attack')", False)):
                    for _ in range(4):  # a question (press on? which weapon?), a target on the field
                        if page.locator("[data-testid=ask] button.choice").count():
                            note("answer", self.tap_on(page, "[data-testid=ask] button.choice", False))
                        elif page.locator("#dialog-slot [data-testid=dice-entry]").count():
                            break  # physical dice are not used here
                        else:
                            break
                    note("undo", self.tap_on(page, "[data-testid=undo]:not([disabled])", False))
                if grid and cur:
                    sq = page.evaluate("""(id) => { const t = document.querySelector('[data-testid=tok-' + id + ']');
                        if (!t) return null; const m = /translate\\(([-\\d.]+) ([-\\d.]+)\\)/.exec(
                        t.getAttribute('transform')); return m ? [Math.floor(+m[1] / 10), Math.floor(+m[2] / 10)] : null; }""",
                                       cur)
                    if sq:
                        free = self.free_square(page, sq)
                        if free:
                            xy = self.square_xy(page, free)
                            note("path preview", self.tap(page, xy, False))
                            if note("move", self.tap(page, xy, False)):
                                note("undo", self.tap_on(page, "[data-testid=undo]:not([disabled])", False))
                        frames.extend(self.drag(page, sq))
                        if page.locator("[data-testid=grid-commit]").count():
                            note("drop", self.tap_on(page, "[data-testid=grid-cancel]", False))
                        note("undo", self.tap_on(page, "[data-testid=undo]:not([disabled])", False))
        finally:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        out = summary(inp, handler)
        out["by_kind"] = {k: {"n": len(v), "p50": pct(v, .5), "p95": pct(v, .95)} for k, v in kinds.items()}
        if frames:
            out["drag_frames"] = {"n": len(frames), "late": sum(1 for v in frames if v > 25),
                                  "p50": pct(frames, .5), "p95": pct(frames, .95), "max": max(frames)}
        return out

    def square_xy(self, page, sq) -> tuple[float, float]:
        page.locator("#grid-svg").scroll_into_view_if_needed()
        return tuple(page.evaluate(
            """(s) => { const m = document.querySelector('#grid-svg').getScreenCTM();
                        return [m.a * (s[0] * 10 + 5) + m.e, m.d * (s[1] * 10 + 5) + m.f]; }""", list(sq)))

    def free_square(self, page, sq):
        """A square two or three steps from `sq` with no token and no wall (the move's destination)."""
        taken = set(map(tuple, page.evaluate("""() => [...document.querySelectorAll('#grid-svg [data-token]')]
            .map(t => /translate\\(([-\\d.]+) ([-\\d.]+)\\)/.exec(t.getAttribute('transform')))
            .filter(Boolean).map(m => [Math.floor(+m[1] / 10), Math.floor(+m[2] / 10)])""")))
        for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2), (2, 2), (-2, -2), (3, 0), (-3, 0)):
            c = (sq[0] + dx, sq[1] + dy)
            if c not in taken and c[0] >= 0 and c[1] >= 0:
                return c
        return None

    def drag(self, page, sq) -> list[float]:
        """Drag the token at `sq` across six squares in 24 moves: the frame intervals meanwhile (Event
        Timing leaves pointermove out, so an animation-frame loop times it: 16.7 ms = every frame on time)."""
        x0, y0 = self.square_xy(page, sq)
        x1, y1 = self.square_xy(page, (sq[0] + 6, sq[1]))
        page.evaluate(SETTLE)
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.evaluate("""() => { const f = window.__frames = []; window.__framing = true;
            const loop = (t) => { f.push(t); if (window.__framing) requestAnimationFrame(loop); };
            requestAnimationFrame(loop); }""")
        for k in range(1, 25):
            page.mouse.move(x0 + (x1 - x0) * k / 24, y0 + (y1 - y0) * k / 24)
        page.evaluate(SETTLE)
        times = page.evaluate("() => { window.__framing = false; return window.__frames; }")
        page.mouse.up()
        page.evaluate(SETTLE)
        return [b - a for a, b in zip(times, times[1:])]

    # --- trace ------------------------------------------------------------------------------------
    def trace(self, session, n: int = 10, stock=None, drawn: str = "") -> dict:
        """Where ten selection clicks' time goes on the main thread (ms per click), from a Chrome trace
        (`stock` and `drawn` as in `selections`)."""
        _, page = self.open(session, stock=stock)
        if drawn:
            page.wait_for_selector(drawn, state="attached", timeout=60_000)
            page.evaluate(SETTLE)
        ids = [c.id for c in session.state.combatants]
        points = []
        for i in range(n):
            who = ids[(i * 7) % len(ids)]
            sel = (f"#field-slot [data-testid=tok-{who}], #field-slot [data-action='token:{who}']" if i % 2
                   else f"[data-testid=order-{who}] button.pick")
            points.append(sel)
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "trace.json"
            xys = []
            self.browser.start_tracing(page=page, path=str(path), categories=TRACE_CATEGORIES)
            try:
                for sel in points:
                    xy = self.point(page, sel) or self.point(page, sel.split(", ")[0])
                    if xy:
                        self.tap(page, xy, False)
                        xys.append(xy)
            finally:
                self.browser.stop_tracing()
            data = json.loads(path.read_text())
        return breakdown(data.get("traceEvents", data) if isinstance(data, dict) else data, max(1, len(xys)))


CATEGORIES = {
    "handlers": ("EventDispatch", "FunctionCall", "TimerFire", "FireAnimationFrame", "RunMicrotasks",
                 "v8.callFunction", "V8.Execute"),
    "style": ("UpdateLayoutTree", "RecalculateStyles", "ScheduleStyleRecalculation", "InvalidateLayout"),
    "layout": ("Layout", "UpdateLayerTree"),
    "paint": ("PrePaint", "Paint", "PaintImage", "Layerize", "CompositeLayers", "Commit", "UpdateLayer"),
    "parse": ("ParseHTML", "ParseAuthorStyleSheet"),
    "raster": ("RasterTask", "Rasterize", "GPUTask"),
}


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[list[float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _length(spans) -> float:
    return sum(b - a for a, b in spans)


def _minus(spans, cut) -> float:
    """Length of `spans` not covered by `cut` (both unions)."""
    total = _length(spans)
    for a, b in spans:
        for c, d in cut:
            lo, hi = max(a, c), min(b, d)
            if hi > lo:
                total -= hi - lo
    return total


def breakdown(events: list[dict], clicks: int) -> dict:
    """ms per click by kind: the renderer's main thread (handlers less the style, layout and parsing
    they forced), raster on any thread."""
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e.get("pid"), e.get("tid"))] = e.get("args", {}).get("name", "")
    main = {k for k, v in names.items() if v == "CrRendererMain"}
    spans: dict[str, list[tuple[float, float]]] = {k: [] for k in CATEGORIES}
    for e in events:
        if e.get("ph") != "X" or "dur" not in e:
            continue
        key = (e.get("pid"), e.get("tid"))
        for cat, which in CATEGORIES.items():
            if e.get("name") in which and (cat == "raster" or key in main):
                spans[cat].append((e["ts"] / 1000, (e["ts"] + e["dur"]) / 1000))
    restyled = laid_out = 0
    for e in events:
        if e.get("ph") != "X" or (e.get("pid"), e.get("tid")) not in main:
            continue
        args = e.get("args") or {}
        if e.get("name") == "UpdateLayoutTree":
            restyled += int((args.get("elementCount") or args.get("data", {}).get("elementCount") or 0))
        elif e.get("name") == "Layout":
            laid_out += int((args.get("beginData") or {}).get("dirtyObjects") or 0)
    u = {k: _union(v) for k, v in spans.items()}
    inner = _union(u["style"] + u["layout"] + u["parse"] + u["paint"])
    out = {"handlers": _minus(u["handlers"], inner) / clicks}
    for k in ("style", "layout", "paint", "parse", "raster"):
        out[k] = _length(u[k]) / clicks
    # Load-independent: how much of the page each click restyles and lays out.
    out["restyled_elements"] = restyled / clicks
    out["layout_objects"] = laid_out / clicks
    out["clicks"] = clicks
    return out


def run(browser, base: str, link, sessions: dict, clicks: int, throttled_clicks: int, act_rounds: int,
        phone_clicks: int, log=print) -> dict:
    """Every measurement for every view: {view: {...}}."""
    ix = Interactions(browser, base, link)
    out: dict = {}
    row = {"select": ix.floor(min(clicks, 40))}
    log(f"  {'floor':6} selection taps: {fmt(row['select'])}")
    if throttled_clicks:
        row["select_4x"] = ix.floor(min(throttled_clicks, 20), throttle=4.0)
        log(f"  {'floor':6} selection taps, 4× throttle: {fmt(row['select_4x'])}")
    out["floor"] = row
    for view, session in sessions.items():
        row: dict = {}
        row["select"] = ix.selections(session, clicks)
        log(f"  {view:6} selection taps: {fmt(row['select'])}")
        if throttled_clicks:
            row["select_4x"] = ix.selections(session, throttled_clicks, throttle=4.0)
            log(f"  {view:6} selection taps, 4× throttle: {fmt(row['select_4x'])}")
        if phone_clicks:
            row["select_phone"] = ix.selections(session, phone_clicks, phone=True)
            log(f"  {view:6} phone taps (390 px, touch): {fmt(row['select_phone'])}")
        if act_rounds:
            grid = view in ("grid", "ruler")
            row["acts"] = ix.acts(session, act_rounds, grid)
            log(f"  {view:6} state-changing acts: {fmt(row['acts'])}" + drag_fmt(row["acts"]))
            row["acts_4x"] = ix.acts(session, max(1, act_rounds // 2), grid, throttle=4.0)
            log(f"  {view:6} state-changing acts, 4× throttle: {fmt(row['acts_4x'])}" + drag_fmt(row["acts_4x"]))
        row["trace"] = ix.trace(session)
        log(f"  {view:6} trace, ms per click: " + ", ".join(f"{k} {v:.1f}" for k, v in row["trace"].items()
                                                             if k != "clicks"))
        out[view] = row
    ix.close()
    return out


def shown(v: float) -> str:
    return "<16" if v < 16 else f"{v:.0f}"


def fmt(s: dict) -> str:
    return (f"p50 {shown(s['p50'])} ms  p95 {shown(s['p95'])}  p99 {shown(s['p99'])}  "
            f"({s['n']} taps, {s['under_16']} under 16 ms); handler p50 {s['handler_p50']:.1f} "
            f"p95 {s['handler_p95']:.1f} p99 {s['handler_p99']:.1f} ms"
            + (f"; DOM per tap (p50): {s['mutations_p50']:.0f} mutation records, {s['nodes_added_p50']:.0f} nodes "
               f"created" if "mutations_p50" in s else "")
            + (f"; input delay p50 {s['input_delay_p50']:.1f} p95 {s['input_delay_p95']:.1f} ms"
               if "input_delay_p50" in s else ""))


def drag_fmt(s: dict) -> str:
    d = s.get("drag_frames")
    return "" if not d else f"; drag frame intervals p50 {d['p50']:.0f} p95 {d['p95']:.0f} ms ({d['n']} frames)"
