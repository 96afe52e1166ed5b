// Fray's loading and error screens: the only page logic outside Python.
// It shows start-up progress while Pyodide loads and, if the runtime cannot
// load, a readable error that says what to run instead of a blank page.
// Once the app is on screen it registers the service worker (sw.js at the
// site root) that keeps every file for offline use; never before, so it does
// not compete with the first start. A few seconds after the first visit is on
// screen (at once on a later one) it has a worker make the start-up memory
// snapshot the next visit starts from (static/boot/snapshot-worker.mjs).
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
  var FIRST_VISIT_DELAY_MS = 3000;

  function el(id) { return document.getElementById(id); }

  function progress(text) {
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

  function fail(reason) {
    if (done) return;
    done = true;
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
          var worker = new Worker("./static/boot/snapshot-worker.mjs", { type: "module" });
          worker.onmessage = function (e) { snapDone(String(e.data)); worker.terminate(); };
          worker.onerror = function (e) { snapDone("failed: " + (e.message || "worker error")); worker.terminate(); };
          worker.postMessage("make");
        });
      }, repeatVisit ? 0 : FIRST_VISIT_DELAY_MS);
    }, function () { snapDone("skipped"); });
  }

  function afterFirstPaint(fn) {
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        if (window.requestIdleCallback) { requestIdleCallback(fn, { timeout: 2000 }); } else { setTimeout(fn, 100); }
      });
    });
  }

  window.frayBoot = {
    progress: progress,
    fail: fail,
    ready: function () {
      done = true;
      afterFirstPaint(registerServiceWorker);
      swActive.then(function (reg) { afterFirstPaint(function () { makeSnapshotLater(reg); }); });
    },
    serviceWorker: swActive,
    snapshot: snapshot,
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
