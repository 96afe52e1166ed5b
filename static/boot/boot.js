// Fray's loading and error screens: the only page logic outside Python.
// It shows start-up progress while Pyodide loads and, if the runtime cannot
// load, a readable error that says what to run instead of a blank page.
// Once the app is on screen it registers the service worker (sw.js at the
// site root) that keeps every file for offline use; never before, so it does
// not compete with the first start. A few seconds after the first visit is on
// screen (at once on a later one) it has a worker make the start-up memory
// snapshot the next visit starts from (static/boot/snapshot-worker.mjs).
// On a later visit it paints the referee's last fight before Python is up
// (`paint`, called from index.html right after the app root): the markup that
// py/fray/ui/page/paint.py stored in local storage for this build, inert and marked
// as starting until Python's first drawing takes it over in place (`ready`).
// A tap on it meanwhile is kept and applied then, on the very element it hit
// if that is still the same, or visibly refused; never lost silently.
(function () {
  "use strict";
  var STAGES = [
    // [event text prefix, fraction of the bar, label shown]
    ["Loading Pyodide", 0.1, "Loading the Python runtime"],
    ["Loading Storage", 0.15, "Loading the Python runtime"],
    ["Loading interpreter", 0.2, "Starting Python"],
    ["Starting Python", 0.25, "Starting Python"],
    ["Loaded interpreter", 0.7, "Python is ready"],
    ["Loading files", 0.75, "Loading Fray"],
    ["Loaded files", 0.85, "Loading Fray"],
    ["Loaded Pyodide", 0.9, "Opening the combat table"],
    ["Opening", 0.95, "Opening the combat table"],
  ];
  var done = false;
  var best = 0;
  var swDone;
  // Resolves with the registration once the service worker is active, or null
  // (no service worker here: file://, an insecure origin, or install failed).
  var swActive = new Promise(function (resolve) { swDone = resolve; });
  var snapDone;
  // Resolves with what became of the start-up snapshot on this visit: "restored"
  // (this visit started from it), "stored" (made for the next visit), "present",
  // "skipped", "failed: ..." (the page starts the normal way).
  var snapshot = new Promise(function (resolve) { snapDone = resolve; });
  var repeatVisit = !!(navigator.serviceWorker && navigator.serviceWorker.controller);
  // A later visit: the start-up snapshot and the app zip are read from the cache while the page is
  // still parsing, not once PyScript has set up (static/vendor/pyodide/fray-pyodide.mjs takes them).
  var early = null;
  if (repeatVisit && window.caches && window.fetch) {
    try {
      var base = document.baseURI;
      early = {
        app: fetch(new URL("static/build/fray.zip", base).href).then(function (r) {
          if (!r.ok) throw new Error("static/build/fray.zip: HTTP " + r.status);
          return r.arrayBuffer();
        }),
        snapshot: caches.match(new URL("static/build/fray.snapshot", base).href).then(function (r) {
          return r ? r.arrayBuffer().then(function (b) { return { build: r.headers.get("X-Fray-Build"), bytes: b }; })
                   : null;
        }),
      };
      early.app.catch(function () {});
      early.snapshot.catch(function () {});
      try { performance.mark("fray-stage:Cache read begun"); } catch (e) { /* no User Timing */ }
    } catch (e) { early = null; }
  }
  // Pyodide's wasm (10 MB). On a later visit it is compiled from the start, while PyScript sets up: Pyodide
  // would compile it only once PyScript has loaded it (200-400 ms in), and WebKit compiles the whole module
  // on every visit before Python starts (issue 36); the loader hands Pyodide this module instead of
  // fetching and compiling again. On a first visit it is only preloaded, as Pyodide fetches it (mode cors,
  // same-origin credentials): compiling it this early there competes with the page's own start on a
  // two-core machine, and the bench found first visits no faster.
  // When a painted start is coming (issue #57), the compile waits for its first frame (`whenParsed`): its
  // streaming ran on the main thread in chunks (v8.wasm.compileConsume, 100-200 ms) before that frame.
  var WASM_URL = new URL("static/vendor/pyodide/pyodide.asm.wasm", document.baseURI).href;
  var wasm = null;
  var canCompile = repeatVisit && window.WebAssembly && WebAssembly.compileStreaming && window.fetch;
  function compileWasm() {
    try {
      wasm = WebAssembly.compileStreaming(fetch(WASM_URL, { mode: "cors", credentials: "same-origin" }));
      wasm.catch(function () {});  // the loader falls back to Pyodide's own fetch
    } catch (e) { wasm = null; }
    if (window.frayBoot) window.frayBoot.wasm = wasm;
  }
  var paintLikely = false;
  try { paintLikely = !/^#(e=|table)/.test(location.hash) && localStorage.getItem("fray.paint") !== null; } catch (e) { /* none */ }
  if (canCompile && !paintLikely) compileWasm();
  // The files start-up reads with fetch() (PyScript its config and main.py, Pyodide the standard library and,
  // on a first visit, its wasm; the loader the app zip), asked for here as the page begins and handed to the
  // first fetch() of each, rather than preloaded in index.html: WebKit's fetch() never takes a
  // `<link rel=preload as=fetch>` response, and a first visit fetched each of them twice (issue #57: 2.3 MB
  // and the wasm's 3.5 MB more on an iPad's first download). Each is handed once; a fetch() that finds its
  // early answer failed asks again.
  var EARLY = ["pyscript.toml", "py/main.py", "static/vendor/pyodide/python_stdlib.pyc.zip"];
  if (!early) EARLY.push("static/build/fray.zip");  // a later visit reads the app zip above
  if (!canCompile) EARLY.push("static/vendor/pyodide/pyodide.asm.wasm");
  var handed = {};  // absolute URL -> the promise of its response, until a fetch() takes it
  var realFetch = window.fetch;
  function urlOf(input) {
    try { return new URL(typeof input === "string" || input instanceof URL ? input : input.url, document.baseURI).href; }
    catch (e) { return null; }
  }
  function handedFetch(input, init) {
    var url = urlOf(input);
    var answer = url && handed[url];
    if (!answer || (init && init.method && init.method !== "GET")) return realFetch.apply(this, arguments);
    delete handed[url];
    if (Object.keys(handed).length === 0 && window.fetch === handedFetch) window.fetch = realFetch;
    var self = this, args = arguments;
    return answer.then(function (r) { return r.ok ? r : realFetch.apply(self, args); },
                       function () { return realFetch.apply(self, args); });
  }
  if (window.fetch) {
    for (var k = 0; k < EARLY.length; k++) {
      var url = new URL(EARLY[k], document.baseURI).href;
      try {
        handed[url] = realFetch(url, { mode: "cors", credentials: "same-origin" });
        handed[url].catch(function () {});  // the taker asks again
      } catch (err) { /* asked for when needed */ }
    }
    window.fetch = handedFetch;
  } else if (!canCompile) {
    var preload = document.createElement("link");
    preload.rel = "preload";
    preload.as = "fetch";
    preload.crossOrigin = "anonymous";
    preload.href = WASM_URL;
    document.head.appendChild(preload);
  }
  var FIRST_VISIT_DELAY_MS = 3000;
  var PAINT_KEY = "fray.paint";  // py/fray/ui/page/paint.py
  var PAINT_VERSION = 1;
  var NOTE_MS = 6000;  // how long a note about a tap made while starting stays
  var starting = false;  // a painted page is on screen and Python is not up yet
  var taps = [];  // {el, html, label}: taps on the painted page, applied once Python is up
  var noteTimer = null;

  function el(id) { return document.getElementById(id); }

  function progress(text) {
    // Each start-up stage as a User Timing mark: the page bench's boot breakdown (issue 36).
    try { performance.mark("fray-stage:" + String(text)); } catch (e) { /* no User Timing */ }
    if (done) return;
    for (var i = 0; i < STAGES.length; i++) {
      if (String(text).indexOf(STAGES[i][0]) === 0 && STAGES[i][1] > best) {
        best = STAGES[i][1];
        var bar = el("boot-bar");
        if (bar) { bar.value = Math.round(best * 100); }
        var label = el("boot-stage");
        if (label) { label.textContent = STAGES[i][2] + "…"; }
      }
    }
  }

  // --- the painted start ---------------------------------------------------------------
  function readPaint() {
    var raw = null;
    try { raw = localStorage.getItem(PAINT_KEY); } catch (e) { return null; }
    if (raw === null) return null;
    var entry = null;
    try { entry = JSON.parse(raw); } catch (e) { entry = null; }
    var build = self.FRAY_BUILD;
    if (!entry || entry.v !== PAINT_VERSION || typeof entry.html !== "string" || !entry.html ||
        typeof build !== "string" || !build || entry.build !== build) {
      // Corrupt, of another version or of another build: never drawn, and not kept.
      try { localStorage.removeItem(PAINT_KEY); } catch (e) { /* nothing kept here */ }
      return null;
    }
    return entry;
  }

  function paint() {
    var app = el("app");
    if (!app || window.frayBoot.served !== null) return false;
    window.frayBoot.served = app.innerHTML;
    // A share link opens another encounter, the table display another page: nothing to paint.
    if (/^#(e=|table)/.test(location.hash)) return false;
    var entry = readPaint();
    if (!entry) return false;
    app.innerHTML = entry.html;
    app.inert = true;
    app.setAttribute("aria-busy", "true");
    app.hidden = false;
    document.documentElement.dataset.painted = "starting";
    var boot = el("boot");
    if (boot) boot.hidden = true;
    say("Starting…", "starting", false);
    starting = true;
    window.frayBoot.painted = true;
    document.addEventListener("click", onTap, true);
    document.addEventListener("keydown", onKey, true);
    try { performance.mark("fray-drawn"); } catch (e) { /* no User Timing */ }
    return true;
  }

  function say(text, state, fade) {
    var note = el("boot-starting");
    if (!note) return;
    if (noteTimer !== null) { clearTimeout(noteTimer); noteTimer = null; }
    note.textContent = text;
    note.dataset.state = state;
    note.hidden = false;
    if (fade) noteTimer = setTimeout(function () { note.hidden = true; noteTimer = null; }, NOTE_MS);
  }

  function label(target) {
    var text = (target.getAttribute("aria-label") || target.textContent || "").replace(/\s+/g, " ").trim();
    return text.length > 40 ? text.slice(0, 39) + "…" : text;
  }

  // What a tap on the painted page hit: the page is inert (no focus, no hit testing), so it is made
  // hit-testable for the one lookup.
  function hitAt(app, x, y) {
    app.inert = false;
    var hit = document.elementFromPoint(x, y);
    app.inert = true;
    return hit && app.contains(hit) ? hit : null;
  }

  // A tap kept for later is a click on a button-like action outside the field and the setup map (those
  // are pointer gestures there, not clicks); anything else is refused at once, visibly.
  function keepable(target) {
    if (!target) return false;
    var tag = target.tagName.toLowerCase();
    if (tag === "form" || tag === "select" || tag === "input" || tag === "textarea") return false;
    if (target.closest("#field-slot, #editor-slot, #ruler-slot")) return false;
    return !target.disabled && taps.length < 3;
  }

  function onTap(e) {
    if (!starting) return;
    var app = el("app");
    var hit = hitAt(app, e.clientX, e.clientY);
    if (!hit) return;
    e.preventDefault();
    e.stopPropagation();
    var target = hit.closest("[data-action]");
    if (keepable(target)) {
      var name = label(target);
      taps.push({ el: target, html: target.outerHTML, label: name });
      say("Starting… “" + name + "” will be done in a moment.", "queued", false);
    } else {
      say("Still starting — tap again in a moment.", "refused", false);
    }
  }

  function onKey(e) {
    if (!starting || e.key === "Tab" || e.key === "Shift" || e.key === "Control" || e.key === "Alt" ||
        e.key === "Meta") return;
    say("Still starting — press the key again in a moment.", "refused", false);
  }

  // Python's first drawing has taken the painted page over: it is live. Each kept tap is applied on the
  // element it hit if that element is still in the page and unchanged, else refused, saying so.
  function takeOver() {
    if (!starting) return;
    starting = false;
    document.removeEventListener("click", onTap, true);
    document.removeEventListener("keydown", onKey, true);
    var app = el("app");
    app.inert = false;
    app.removeAttribute("aria-busy");
    delete document.documentElement.dataset.painted;
    var kept = taps;
    taps = [];
    var lost = [];
    for (var i = 0; i < kept.length; i++) {
      var t = kept[i];
      if (t.el.isConnected && t.el.outerHTML === t.html && !t.el.disabled) {
        t.el.click();
      } else {
        lost.push("“" + t.label + "”");
      }
    }
    var note = el("boot-starting");
    if (lost.length) {
      say("Not done: " + lost.join(", ") + " (tapped while Fray was starting, and the page changed). " +
          "Tap again.", "refused", true);
    } else if (note) {
      note.hidden = true;
    }
  }

  function fail(reason) {
    if (done) return;
    done = true;
    if (starting) {
      // Python did not start: the painted page goes, the error takes its place.
      starting = false;
      document.removeEventListener("click", onTap, true);
      document.removeEventListener("keydown", onKey, true);
      if (el("app")) el("app").hidden = true;
      if (el("boot-starting")) el("boot-starting").hidden = true;
      if (el("boot")) el("boot").hidden = false;
    }
    document.documentElement.dataset.bootError = "true";
    // A file in <head> can fail before <body> is parsed: show the error once it is.
    if (!el("boot-error")) {
      document.addEventListener("DOMContentLoaded", function () { done = false; fail(reason); });
      return;
    }
    var box = el("boot-error");
    var detail = el("boot-error-detail");
    if (detail) { detail.textContent = reason; }
    if (box) { box.hidden = false; }
    var loading = el("boot-loading");
    if (loading) { loading.hidden = true; }
  }

  function registerServiceWorker() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) { swDone(null); return; }
    navigator.serviceWorker.register("./sw.js", { updateViaCache: "none" }).then(function (reg) {
      if (!reg) { swDone(null); return; } // service workers blocked (a browser setting, a test)
      var worker = reg.active ? null : (reg.installing || reg.waiting);
      if (!worker) { swDone(reg); return; }
      worker.addEventListener("statechange", function () {
        if (worker.state === "activated") { swDone(reg); }
        if (worker.state === "redundant") { swDone(null); }
      });
    }, function (err) {
      console.warn("Fray: offline use is not available here (" + err + ").");
      swDone(null);
    });
  }

  function makeSnapshotLater(reg) {
    var state = document.documentElement.dataset.snapshot;  // set by the interpreter module
    var off = null;
    try { off = localStorage.getItem("fray.snapshot.off"); } catch (e) { off = "no storage"; }
    if (state) { snapDone(state); return; }
    // A second Python in a worker for a few seconds: not on small devices.
    var small = navigator.deviceMemory !== undefined && navigator.deviceMemory < 4;
    if (!reg || off || small || !window.Worker || !window.caches) { snapDone("skipped"); return; }
    caches.match(new URL("./static/build/fray.snapshot", location.href).href).then(function (hit) {
      if (hit) { snapDone("present"); return; }
      // On the first visit the service worker has just cached every file: let the
      // page settle, then build the snapshot, so the next visit already starts from it.
      setTimeout(function () {
        afterFirstPaint(function () {
          // Made in one worker, checked in a second once the first is gone (issue #57): never two
          // interpreters beside the page's at once.
          snapshotWorker("make", null, function (made) {
            snapshotWorker({ bytes: made.bytes, build: made.build }, [made.bytes.buffer], function () {
              snapDone("failed: the check answered nothing");
            });
          });
        });
      }, repeatVisit ? 0 : FIRST_VISIT_DELAY_MS);
    }, function () { snapDone("skipped"); });
  }

  // One worker of static/boot/snapshot-worker.mjs asked one thing: a text is the outcome ("stored",
  // "skipped: ...", "failed: ..."), anything else (the bytes made) goes to `then`. Ended on its answer.
  function snapshotWorker(ask, transfer, then) {
    var worker = new Worker("./static/boot/snapshot-worker.mjs", { type: "module" });
    worker.onmessage = function (e) {
      worker.terminate();
      if (typeof e.data === "string") snapDone(e.data); else then(e.data);
    };
    worker.onerror = function (e) { snapDone("failed: " + (e.message || "worker error")); worker.terminate(); };
    worker.postMessage(ask, transfer || []);
  }

  function afterFirstPaint(fn) {
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        if (window.requestIdleCallback) { requestIdleCallback(fn, { timeout: 2000 }); } else { setTimeout(fn, 100); }
      });
    });
  }

  // PyScript's start (its module, which sets up and then starts Python): once the body is parsed, as a
  // deferred module script would run, or on a later visit that painted the last fight, only once that
  // fight's first frame is on screen (issue #57: its module evaluation and set-up, some 200 ms, ran
  // before the first frame).
  var PYSCRIPT_URL = "./static/vendor/pyscript/core.js";
  function startPyScript() {
    var s = document.createElement("script");
    s.type = "module";
    s.src = PYSCRIPT_URL;
    s.onerror = function () { window.frayBoot.runtimeMissing("static/vendor/pyscript/core.js"); };
    document.head.appendChild(s);
  }
  function whenParsed() {
    if (!window.frayBoot.painted) {
      if (canCompile && !wasm) compileWasm();
      startPyScript();
      return;
    }
    requestAnimationFrame(function () {
      setTimeout(function () {
        // The frame with the painted fight has been made (the page bench's "fight's frame").
        try { performance.mark("fray-painted"); } catch (e) { /* no User Timing */ }
        if (canCompile && !wasm) compileWasm();
        startPyScript();
      }, 0);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", whenParsed);

  window.frayBoot = {
    progress: progress,
    fail: fail,
    paint: paint,
    served: null,  // the app root's markup as served (py/fray/ui/page/paint.py composes the stored markup in it)
    painted: false,  // this visit started from a painted page
    ready: function () {
      done = true;
      takeOver();
      afterFirstPaint(registerServiceWorker);
      swActive.then(function (reg) { afterFirstPaint(function () { makeSnapshotLater(reg); }); });
    },
    serviceWorker: swActive,
    snapshot: snapshot,
    early: early,  // taken by the loader: {app, snapshot} read early on a later visit, or null
    wasm: wasm,  // taken by the loader: Pyodide's wasm module compiling since the page began, or null
    handed: handed,  // the early answers not yet taken by a fetch() (see EARLY)
    runtimeMissing: function (what) {
      fail("The Python runtime could not be loaded (" + what + " is missing). " +
           "Run `python3 tools/dev.py serve` from the project folder: it fetches and " +
           "verifies the pinned runtime into static/vendor/ and serves the app.");
    },
  };

  addEventListener("py:progress", function (e) { progress(e.detail); });
  addEventListener("fray:progress", function (e) { progress(e.detail); });
  addEventListener("error", function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href)) {
      window.frayBoot.runtimeMissing(t.src || t.href);
    } else if (!document.documentElement.dataset.ready) {
      fail("Fray could not start: " + (e.message || "unknown error") + ".");
    }
  }, true);
  addEventListener("unhandledrejection", function (e) {
    if (document.documentElement.dataset.ready) return;
    var msg = (e.reason && (e.reason.message || e.reason)) || "unknown error";
    if (/fetch|wasm|import|404|Failed to load/i.test(String(msg))) {
      window.frayBoot.runtimeMissing("a runtime file");
    } else {
      fail("Fray could not start: " + msg);
    }
  });
})();
