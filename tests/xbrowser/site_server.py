"""The local server for the cross-engine journeys and the page bench: tools/server.py's, plus
- a hook, first in index.html's <head> before the page's own scripts, that records console.error calls,
  uncaught errors and unhandled rejections (in sessionStorage too, so a reload keeps them), and the time
  of each start-up stage the page announces (py:progress / fray:progress events);
- an "offline" switch: while on, every connection is dropped unanswered, as with no network;
- /__xb/phone-WxH.html: the app in an iframe of W x H at the top left corner (for a browser whose
  window cannot be made that small).
"""
from __future__ import annotations

import io
import pathlib
import re
import socket
import sys
import threading
from functools import partial

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

HOOK = """<script>/* xbrowser test hook: first script of the page */(function () {
  window.frayTestHooks = true;  // window.frayRestart (ui/app.py install_restart): a journey's kept page
  window.frayWelcome = false;  // the journeys start on the demo fight, not the first visit's welcome (ui/controllers/welcome.py)
  var K = "__xbErrors", errs = [];
  try { errs = JSON.parse(sessionStorage.getItem(K) || "[]"); } catch (e) {}
  window.__xbErrors = errs;
  function rec(s) { errs.push(String(s).slice(0, 1500)); try { sessionStorage.setItem(K, JSON.stringify(errs)); } catch (e) {} }
  var ce = console.error;
  console.error = function () { rec("console.error: " + Array.prototype.map.call(arguments, String).join(" ")); return ce.apply(console, arguments); };
  addEventListener("error", function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href)) { rec("failed to load: " + (t.src || t.href)); return; }
    rec("uncaught: " + (e.message || e.type) + " at " + (e.filename || "?") + ":" + (e.lineno || "?"));
  }, true);
  addEventListener("unhandledrejection", function (e) {
    var r = e.reason; rec("unhandled rejection: " + (r && (r.stack || r.message) || r));
  });
  var stages = window.__xbStages = [];
  function stage(e) { stages.push([Math.round(performance.now()), String(e.detail)]); }
  addEventListener("py:progress", stage);
  addEventListener("fray:progress", stage);
  // The page's warnings (the loader says so when a snapshot or the early wasm could not be used) and each
  // WebAssembly compile/instantiate the boot makes, timed (tests/bench/engine_boot.py): WebKitWebDriver
  // has no console or timeline of its own to read them from.
  var warns = window.__xbWarns = [];
  var cw = console.warn;
  console.warn = function () { warns.push(Array.prototype.map.call(arguments, String).join(" ").slice(0, 500)); return cw.apply(console, arguments); };
  var wasm = window.__xbWasm = [];
  if (window.WebAssembly) ["compile", "compileStreaming", "instantiate", "instantiateStreaming"].forEach(function (k) {
    var f = WebAssembly[k];
    if (typeof f !== "function") return;
    WebAssembly[k] = function () {
      var row = {fn: k, start: performance.now(), end: null, arg: (arguments[0] instanceof WebAssembly.Module) ? "module" : "bytes"};
      wasm.push(row);
      var p = f.apply(WebAssembly, arguments);
      p.then(function () { row.end = performance.now(); }, function (e) { row.end = performance.now(); row.error = String(e); });
      return p;
    };
  });
})();</script>"""

# A phone-sized frame, for a browser whose window cannot be made that narrow (WebKitGTK's MiniBrowser
# stops at about 450 px): the app in an iframe of exactly that size at the page's top left corner.
PHONE_FRAME = """<!doctype html><meta charset="utf-8"><title>phone frame</title>
<style>html, body { margin: 0; padding: 0; } iframe { border: 0; display: block; }</style>
<iframe id="phone" width="{w}" height="{h}"></iframe>
<script>document.getElementById("phone").src = decodeURIComponent(location.hash.slice(1)) || "/";</script>"""



def _inject(html: bytes) -> bytes:
    i = html.index(b"<head>") + len(b"<head>")
    return html[:i] + b"\n" + HOOK.encode() + html[i:]


def make_server(root: pathlib.Path = ROOT):
    """Start it on a free port, serving `root` (another build of the site: tests/bench/engine_boot.py --against);
    .base is its URL, .offline its switch."""
    import server as srvmod

    class Handler(srvmod.Handler):
        def handle_one_request(self) -> None:
            if self.server.offline:
                self.close_connection = True
                try:
                    self.rfile.readline(65537)
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                self.path = ""
                return
            super().handle_one_request()

        def send_head(self):
            path = self.path.split("?", 1)[0].split("#", 1)[0]
            if path.startswith("/__xb/phone-"):
                w, h = (int(v) for v in re.match(r"/__xb/phone-(\d+)x(\d+)\.html$", path).groups())
                return self._send(PHONE_FRAME.replace("{w}", str(w)).replace("{h}", str(h)).encode())
            if path in ("/", "/index.html"):
                return self._send(_inject((root / "index.html").read_bytes()))
            return super().send_head()

        def _send(self, body: bytes):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

    srv = srvmod.Server(("127.0.0.1", 0), partial(Handler, directory=str(root)))
    srv.offline = False
    srv.base = f"http://127.0.0.1:{srv.server_port}/"
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv
