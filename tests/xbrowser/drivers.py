"""A thin adapter over three browser drivers, so each journey is written once.

    Chromium  Playwright (Debian's chromium)                       tests/e2e's driver
    Firefox   WebDriver BiDi, spoken directly over a WebSocket      Debian's firefox-esr
    WebKit    classic WebDriver (Selenium) to WebKitWebDriver       Debian's webkit2gtk-driver, under Xvfb

Every driver gives the same few primitives: run a JavaScript function in the
page (its result comes back as JSON), a real pointer click or tap at viewport
coordinates, navigation, and a fresh, empty browser "profile" per page (a
Playwright context, a Firefox user context, a new WebKit session). Everything
else (clicking an element, filling a field, waiting) is built on those in
`Page`, the same way in each engine.

Console errors and uncaught exceptions are collected by a hook that the test
server puts first in index.html's <head> (see site_server.py): WebKitWebDriver has
no console log endpoint, so the hook is the one source the three engines share.
Where a driver also reports errors natively (Playwright's console events, BiDi's
log.entryAdded) those are collected too.
"""
from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import warnings

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "e2e"))
import browser_log  # noqa: E402,F401  (tests/e2e/browser_log.py: for the `pages` fixture's crash report)

ENGINES = ("chromium", "firefox", "webkit")
DESKTOP = (1280, 800)  # every journey's size; WebKit's phone journey is the one at PHONE
PHONE = (390, 844)
BOOT_TIMEOUT = 90.0  # s: Pyodide boots slowly under load, WebKit's first boot most of all

# The hook's errors live in sessionStorage too, so a reload does not lose them.
READ_ERRORS = "() => (window.__xbErrors || []).slice()"
OUTSIDE = """(base) => performance.getEntriesByType('resource').map(e => e.name)
    .filter(u => !u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:'))"""


class DriverError(AssertionError):
    pass


# --- Chromium: Playwright ----------------------------------------------------------------------

class ChromiumEngine:
    name = "chromium"

    def __init__(self, exe: str, playwright):
        self._pw, self._exe = playwright, exe
        self.crashed: list[str] = []  # the pages whose renderer died since the browser started
        self._launch()
        self.version = "Chromium " + self._browser.version

    def _launch(self) -> None:
        args = ["--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-quic", "--disable-default-apps"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--no-sandbox")
        self._browser = self._pw.chromium.launch(executable_path=self._exe, headless=True, args=args)

    def relaunch(self) -> None:
        """A new browser after a renderer crash: on CI a browser whose renderer died has crashed every
        new page of the journey's two reruns too, so the rerun gets a browser of its own."""
        try:
            self._browser.close()
        except Exception:  # noqa: BLE001  (a browser that is gone already)
            pass
        self.crashed.clear()
        self._launch()

    def new_page(self, base: str, width: int, height: int, touch: bool = False) -> "Page":
        ctx = self._browser.new_context(viewport={"width": width, "height": height}, has_touch=touch,
                                        is_mobile=touch)
        local = re.escape(base)
        outside: list[str] = []

        def block(route):
            outside.append(route.request.url)
            route.abort()

        ctx.route(re.compile(rf"^(?!{local}|data:|blob:).*"), block)
        pw_page = ctx.new_page()
        page = Page(_PlaywrightTab(ctx, pw_page, touch), self.name, base)
        page.outside = outside
        pw_page.on("console", lambda m: m.type == "error" and page.native_errors.append("console: " + m.text))
        pw_page.on("pageerror", lambda e: page.native_errors.append(f"pageerror: {e}"))

        def crash(_page=None):  # the `pages` fixture relaunches the browser and reports what Chromium said
            self.crashed.append(pw_page.url)
            page.native_errors.append(f"Page crashed at {pw_page.url}")
        pw_page.on("crash", crash)
        return page

    def close(self) -> None:
        self._browser.close()


# WebDriver's code points for the keys the journeys press (the W3C WebDriver "keys" table); a key is
# written as Playwright writes it ("Shift+Tab", "Control+z", "Enter", "t").
WEBDRIVER_KEYS = {"Backspace": "\ue003", "Tab": "\ue004", "Enter": "\ue007", "Shift": "\ue008",
                  "Control": "\ue009", "Alt": "\ue00a", "Escape": "\ue00c", "Space": " ",
                  "ArrowLeft": "\ue012", "ArrowUp": "\ue013", "ArrowRight": "\ue014", "ArrowDown": "\ue015"}


def webdriver_keys(key: str) -> list[str]:
    """ "Shift+Tab" -> the code points pressed together, modifiers first."""
    parts = key.split("+") if key != "+" else ["+"]
    out = []
    for part in parts:
        if part in WEBDRIVER_KEYS:
            out.append(WEBDRIVER_KEYS[part])
        elif len(part) == 1:
            out.append(part)
        else:
            raise DriverError(f"no WebDriver code for the key {part!r}")
    return out


class _PlaywrightTab:
    def __init__(self, ctx, page, touch: bool):
        self.ctx, self.page, self.touch = ctx, page, touch

    def call(self, fn: str, args: list):
        return json.loads(self.page.evaluate(
            f"async (a) => {{ const r = await ({fn})(...a); return JSON.stringify(r === undefined ? null : r); }}",
            args))

    def click_at(self, x: float, y: float) -> None:
        if self.touch:
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def reload(self) -> None:
        self.page.reload()

    def close(self) -> None:
        self.ctx.close()


# --- Firefox: WebDriver BiDi over a WebSocket --------------------------------------------------

FIREFOX_PREFS = {
    # A quiet, automated profile: no first-run pages, updates or telemetry.
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "browser.aboutwelcome.enabled": False,
    "app.update.disabledForTesting": True,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "extensions.update.enabled": False,
    "browser.newtabpage.enabled": False,
    "remote.prefs.recommended": True,
    # No network beyond the local server: everything else goes to a dead proxy.
    "network.proxy.type": 1,
    "network.proxy.http": "127.0.0.1",
    "network.proxy.http_port": 9,
    "network.proxy.ssl": "127.0.0.1",
    "network.proxy.ssl_port": 9,
    "network.proxy.no_proxies_on": "",
    "network.proxy.allow_hijacking_localhost": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "dom.serviceWorkers.enabled": True,
}


class FirefoxEngine:
    name = "firefox"

    def __init__(self, exe: str):
        import websocket  # websocket-client, pinned in tests/requirements.txt (selenium needs it too)
        self._profile = tempfile.mkdtemp(prefix="fray-ff-")
        with open(os.path.join(self._profile, "user.js"), "w") as f:
            for k, v in FIREFOX_PREFS.items():
                f.write(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n")
        env = dict(os.environ, MOZ_HEADLESS="1")
        self._proc = subprocess.Popen([exe, "--headless", "--no-remote", "--profile", self._profile,
                                       "--remote-debugging-port", "0", "about:blank"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
        url, seen = None, []
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self._proc.stderr.readline()
            if not line:
                break
            seen.append(line)
            m = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
            if m:
                url = m.group(1)
                break
        if not url:
            self.close()
            raise DriverError("firefox did not start its WebDriver BiDi server: " + "".join(seen[-5:]))
        threading.Thread(target=lambda: [None for _ in self._proc.stderr], daemon=True).start()
        self._ws = websocket.create_connection(url.rstrip("/") + "/session", timeout=120, suppress_origin=True)
        self._id = 0
        self._events: list[dict] = []
        self._lock = threading.Lock()
        caps = self.send("session.new", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": True}}})
        self.version = "Firefox " + caps["capabilities"]["browserVersion"]
        self.send("session.subscribe", {"events": ["log.entryAdded", "network.beforeRequestSent"]})
        self._pages: dict[str, Page] = {}

    def send(self, method: str, params: dict):
        with self._lock:
            self._id += 1
            mid = self._id
            self._ws.send(json.dumps({"id": mid, "method": method, "params": params}))
            while True:
                msg = json.loads(self._ws.recv())
                if msg.get("id") == mid:
                    if msg.get("type") == "error":
                        raise DriverError(f"BiDi {method}: {msg.get('error')}: {msg.get('message')}")
                    return msg["result"]
                if msg.get("type") == "event":
                    self._event(msg)

    def _event(self, msg: dict) -> None:
        p = msg.get("params", {})
        ctx = p.get("source", {}).get("context") or p.get("context")
        page = self._pages.get(ctx)
        if page is None:
            return
        if msg["method"] == "log.entryAdded" and (p.get("level") == "error" or p.get("type") == "javascript"):
            page.native_errors.append(f"{p.get('type')}: {p.get('text')}")
        elif msg["method"] == "network.beforeRequestSent":
            u = p.get("request", {}).get("url", "")
            if not u.startswith((page.base, "data:", "blob:", "about:")):
                page.outside.append(u)

    def new_page(self, base: str, width: int, height: int, touch: bool = False) -> "Page":
        user = self.send("browser.createUserContext", {})["userContext"]
        ctx = self.send("browsingContext.create", {"type": "tab", "userContext": user})["context"]
        self.send("browsingContext.setViewport", {"context": ctx, "viewport": {"width": width, "height": height}})
        page = Page(_BidiTab(self, ctx, user, touch), self.name, base)
        self._pages[ctx] = page
        return page

    def close(self) -> None:
        try:
            if getattr(self, "_ws", None):
                try:
                    self.send("browser.close", {})
                except Exception:
                    pass
                self._ws.close()
        finally:
            if self._proc.poll() is None:
                self._proc.terminate()
                try:
                    self._proc.wait(10)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
            shutil.rmtree(self._profile, ignore_errors=True)


class _BidiTab:
    def __init__(self, engine: FirefoxEngine, ctx: str, user: str, touch: bool):
        self.e, self.ctx, self.user, self.touch = engine, ctx, user, touch

    def call(self, fn: str, args: list):
        decl = (f"async function (a) {{ const r = await ({fn})(...JSON.parse(a));"
                " return JSON.stringify(r === undefined ? null : r); }")
        res = self.e.send("script.callFunction", {
            "functionDeclaration": decl, "target": {"context": self.ctx}, "awaitPromise": True,
            "arguments": [{"type": "string", "value": json.dumps(args)}], "resultOwnership": "none"})
        if res.get("type") == "exception":
            raise DriverError("in the page: " + res["exceptionDetails"].get("text", "exception"))
        return json.loads(res["result"]["value"])

    def click_at(self, x: float, y: float) -> None:
        kind = "touch" if self.touch else "mouse"
        self.e.send("input.performActions", {"context": self.ctx, "actions": [{
            "type": "pointer", "id": kind, "parameters": {"pointerType": kind}, "actions": [
                {"type": "pointerMove", "x": int(round(x)), "y": int(round(y))},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})

    def press(self, key: str) -> None:
        values = webdriver_keys(key)
        self.e.send("input.performActions", {"context": self.ctx, "actions": [{
            "type": "key", "id": "keyboard", "actions":
                [{"type": "keyDown", "value": v} for v in values]
                + [{"type": "keyUp", "value": v} for v in reversed(values)]}]})

    def goto(self, url: str) -> None:
        self.e.send("browsingContext.navigate", {"context": self.ctx, "url": url, "wait": "complete"})

    def reload(self) -> None:
        self.e.send("browsingContext.reload", {"context": self.ctx, "wait": "complete"})

    def close(self) -> None:
        self.e._pages.pop(self.ctx, None)
        try:
            self.e.send("browsingContext.close", {"context": self.ctx})
            self.e.send("browser.removeUserContext", {"userContext": self.user})
        except DriverError:
            pass


# --- WebKit: Selenium to WebKitWebDriver, under Xvfb --------------------------------------------

SESSION_TIMEOUT = 3.0  # a session starts in 0.2-0.7 s, even under load; a hung one is ended and retried (4 tries)
SESSION_TRIES = 4


def _tree(pid: int) -> list[int]:
    """A process and its descendants (found through /proc), parents first."""
    kids: dict[int, list[int]] = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            kids.setdefault(int(fields[1]), []).append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    order, todo = [], [pid]
    while todo:
        p = todo.pop()
        order.append(p)
        todo.extend(kids.get(p, []))
    return order


def _alive(pid: int) -> bool:
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _end_tree(pid: int) -> None:
    """End a process this run started and its descendants, by their ids."""
    for p in reversed(_tree(pid)):
        try:
            os.kill(p, 9)
        except OSError:
            pass


def _reap(pids: list[int], wait: float = 10.0) -> None:
    """Wait for processes to go (a browser quitting), then end whatever is left."""
    end = time.time() + wait
    while time.time() < end and any(_alive(p) for p in pids):
        time.sleep(0.2)
    for p in pids:
        if _alive(p):
            try:
                os.kill(p, 9)
            except OSError:
                pass


class Xvfb:
    """A private X display for WebKitGTK's MiniBrowser (it has no headless mode of its own)."""

    def __init__(self):
        r, w = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1400x1000x24",
                                      "-nolisten", "tcp"], pass_fds=[w], stderr=subprocess.DEVNULL)
        os.close(w)
        num = b""
        while not num.endswith(b"\n"):
            chunk = os.read(r, 16)
            if not chunk:
                break
            num += chunk
        os.close(r)
        if not num.strip():
            raise DriverError("Xvfb did not start")
        self.display = ":" + num.decode().strip()

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def minibrowser() -> str | None:
    for cand in sorted(pathlib.Path("/usr/lib").glob("*/webkit2gtk-4.*/MiniBrowser")) + \
            sorted(pathlib.Path("/usr/lib").glob("*/webkitgtk-6.*/MiniBrowser")):
        if cand.exists():
            return str(cand)
    return None


class _WebKitDriver:
    """One WebKitWebDriver process, started and answering its status."""

    def __init__(self, exe: str, display: str):
        import urllib.request
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        log = tempfile.NamedTemporaryFile("w+", prefix="webkitdriver-", suffix=".log", delete=False)
        self.log = log.name
        self.proc = subprocess.Popen([exe, f"--port={port}"], stdout=log, stderr=subprocess.STDOUT,
                                     env=dict(os.environ, DISPLAY=display))
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.time() + SESSION_TIMEOUT
        while time.time() < deadline and self.proc.poll() is None:
            try:
                with urllib.request.urlopen(self.url + "/status", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        tail = self.tail()
        self.stop()
        raise DriverError(f"WebKitWebDriver did not answer within {SESSION_TIMEOUT:.0f} s" + tail)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def tail(self) -> str:
        try:
            lines = pathlib.Path(self.log).read_text(errors="replace").strip().splitlines()[-5:]
        except OSError:
            return ""
        return f" (driver log: {' | '.join(lines)})" if lines else ""

    def stop(self) -> None:
        _end_tree(self.proc.pid)
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.unlink(self.log)
        except OSError:
            pass


class WebKitEngine:
    """WebKitGTK's MiniBrowser through WebKitWebDriver, under Xvfb: a driver and its session (a browser with an
    empty, ephemeral profile) per page. The driver is started here and asked for its status before the
    session request: Selenium's own start (a bare TCP probe, then the request) was seen to leave about one
    session in ten, on a loaded machine, accepted by the driver and never answered, with no browser
    started; 80 sessions started this way under the same load had none of that."""
    name = "webkit"

    def __init__(self, driver: str, browser: str):
        self._driver, self._browser = driver, browser
        self._x = Xvfb() if not os.environ.get("DISPLAY") else None
        self.display = self._x.display if self._x else os.environ["DISPLAY"]
        self.version = "WebKitGTK"  # filled in by the first session
        self.touch_supported: bool | None = None
        self._live: set[int] = set()  # the driver processes of open sessions

    def session(self):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        opts = Options()
        opts.binary_location = self._browser
        opts.add_argument("--automation")
        # Nothing leaves the local server: every other request goes to a dead proxy (MiniBrowser's own
        # setting; it holds in automation mode: a request to example.com reached a proxy set this way).
        opts.add_argument("--proxy=http://127.0.0.1:9")
        opts.add_argument("--ignore-host=127.0.0.1")
        opts.add_argument("--ignore-host=localhost")
        # A session starts in well under a second. One that does not start within SESSION_TIMEOUT is given up:
        # its browser (if any) is ended, and the driver too when no other session is open; then another try.
        problems = []
        for attempt in range(SESSION_TRIES):
            try:
                d = _WebKitDriver(self._driver, self.display)
            except DriverError as exc:
                problems.append(f"try {attempt + 1}: {exc}")
                self._stray()
                continue
            box: dict = {}

            def start():
                try:
                    box["driver"] = webdriver.Remote(command_executor=d.url, options=opts)
                except Exception as exc:  # noqa: BLE001  (reported below)
                    box["error"] = exc

            t = threading.Thread(target=start, daemon=True)
            t.start()
            t.join(SESSION_TIMEOUT)
            if "driver" in box:
                drv = box["driver"]
                drv.fray_driver = d
                self._live.add(d.proc.pid)
                self.version = "WebKitGTK " + drv.capabilities.get("browserVersion", "?")
                return drv
            tail = d.tail()
            d.stop()
            t.join(10)
            what = (f"no session within {SESSION_TIMEOUT:.0f} s" if t.is_alive()
                    else f"{type(box.get('error')).__name__}: {box.get('error')}")
            problems.append(f"try {attempt + 1}: {what}" + tail)
            # Said in the run's warnings summary, so that a run shows how often this happens.
            warnings.warn(f"WebKit session try {attempt + 1} given up: {what}", stacklevel=2)
            self._stray()
            time.sleep(0.5)  # the ended browser's processes gone
        raise DriverError("WebKitWebDriver gave no session: " + "; ".join(problems))

    def _stray(self) -> None:
        """End MiniBrowser and WebKit helper processes on this engine's display that no open session owns."""
        owned = {p for pid in self._live for p in _tree(pid)}
        for stat in pathlib.Path("/proc").glob("[0-9]*/environ"):
            try:
                cmd = (stat.parent / "cmdline").read_bytes()
                if b"MiniBrowser" not in cmd and b"WebKit" not in cmd:
                    continue
                if int(stat.parent.name) not in owned and f"DISPLAY={self.display}".encode() in stat.read_bytes().split(b"\0"):
                    os.kill(int(stat.parent.name), 9)
            except (OSError, ValueError):
                continue

    def new_page(self, base: str, width: int, height: int, touch: bool = False) -> "Page":
        drv = self.session()
        tab = _SeleniumTab(self, drv, touch)
        tab.size(width, height)
        tab.base = base
        return Page(tab, self.name, base)

    def close(self) -> None:
        if self._x:
            self._x.close()


class _SeleniumTab:
    def __init__(self, engine: WebKitEngine, drv, touch: bool):
        self.e, self.d, self.touch = engine, drv, touch
        self.d.set_script_timeout(120)

    def size(self, width: int, height: int) -> None:
        """The window so that the page's viewport is width x height (the window adds its own frame).
        A window that cannot be made that small (GTK keeps MiniBrowser's at least ~450 px wide) shows
        the app in an iframe of that size instead (site_server.PHONE_FRAME), at the top left corner, so
        that viewport coordinates are the same inside and out."""
        self.frame = None
        self.d.set_window_rect(0, 0, width, height)
        for _ in range(3):
            w, h = self.call("() => [innerWidth, innerHeight]", [])
            if (w, h) == (width, height):
                return
            r = self.d.get_window_rect()
            self.d.set_window_rect(0, 0, r["width"] + width - w, r["height"] + height - h)
        w, h = self.call("() => [innerWidth, innerHeight]", [])
        if (w, h) != (width, height):
            self.frame = (width, height)
            self.d.set_window_rect(0, 0, max(width, 800), height + 200)

    def goto_framed(self, base: str, url: str) -> None:
        from urllib.parse import quote
        self.d.switch_to.default_content()
        self.d.get(f"{base}__xb/phone-{self.frame[0]}x{self.frame[1]}.html#{quote(url, safe='')}")
        self.d.switch_to.frame(self.d.find_element("id", "phone"))

    def call(self, fn: str, args: list):
        out = self.d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"Promise.resolve().then(() => ({fn})(...JSON.parse(arguments[0])))"
            ".then(r => done(JSON.stringify({ok: r === undefined ? null : r})),"
            " e => done(JSON.stringify({err: String(e && e.stack || e)})));", json.dumps(args))
        out = json.loads(out)
        if "err" in out:
            raise DriverError("in the page: " + out["err"])
        return out["ok"]

    def click_at(self, x: float, y: float) -> None:
        from selenium.webdriver.common.actions import interaction
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.pointer_input import PointerInput
        if self.touch and self.e.touch_supported is not False:
            try:
                ab = ActionBuilder(self.d, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
                ab.pointer_action.move_to_location(int(round(x)), int(round(y))).pointer_down().pointer_up()
                ab.perform()
                self.e.touch_supported = True
                return
            except Exception as exc:  # WebKitGTK may refuse touch pointers: fall back to the mouse
                self.e.touch_supported = False
                self.e.touch_error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        ab = ActionBuilder(self.d)
        ab.pointer_action.move_to_location(int(round(x)), int(round(y))).click()
        ab.perform()

    def press(self, key: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        values = webdriver_keys(key)
        chain = ActionChains(self.d)
        for v in values:
            chain.key_down(v)
        for v in reversed(values):
            chain.key_up(v)
        chain.perform()

    def goto(self, url: str) -> None:
        if self.frame:
            self.goto_framed(self.base, url)
        else:
            self.d.get(url)

    def reload(self) -> None:
        if self.frame:
            raise DriverError("reload inside the phone frame is not supported")
        self.d.refresh()

    def close(self) -> None:
        # quit() returns before MiniBrowser and its web process have gone; the next session is only
        # started once they have (a browser still going down has been seen to stall the next one).
        d = getattr(self.d, "fray_driver", None)
        pids = _tree(d.proc.pid)[1:] if d is not None else []  # its browser's processes
        if d is not None:
            self.e._live.discard(d.proc.pid)
        try:
            self.d.quit()
        except Exception:
            pass
        _reap(pids)
        if d is not None:
            d.stop()


# --- The page, the same in every engine --------------------------------------------------------

class Page:
    """One tab of a fresh browser profile. Selectors are CSS; `tid("x")` is [data-testid=x]."""

    def __init__(self, tab, engine: str, base: str):
        self.tab, self.engine, self.base = tab, engine, base
        self.native_errors: list[str] = []
        self.outside: list[str] = []
        self.errors_seen: list[str] = []  # the hook's, gathered before each navigation

    # primitives
    def js(self, fn: str, *args):
        return self.tab.call(fn, list(args))

    def goto(self, url: str) -> None:
        self._gather()
        self.tab.goto(url)

    def reload(self) -> None:
        self._gather()
        self.tab.reload()

    def close(self) -> None:
        self.tab.close()

    def _gather(self) -> None:
        try:
            errs = self.js(READ_ERRORS) or []
            out = self.js(OUTSIDE, self.base) or []
        except Exception:
            return
        self.errors_seen = sorted(set(self.errors_seen) | set(errs))
        self.outside = sorted(set(self.outside) | set(out))

    def errors(self) -> list[str]:
        self._gather()
        return self.errors_seen + self.native_errors

    # waiting
    def wait(self, fn: str, *args, timeout: float = 10.0, what: str = ""):
        deadline = time.time() + timeout
        last = None
        while True:
            last = self.js(fn, *args)
            if last:
                return last
            if time.time() > deadline:
                raise AssertionError(f"[{self.engine}] timed out after {timeout:.0f} s waiting for "
                                     f"{what or fn}")
            time.sleep(0.05)

    def wait_ready(self, timeout: float = BOOT_TIMEOUT) -> float:
        """Wait for html[data-ready=true]; returns the seconds it took from navigation start."""
        self.wait("() => document.documentElement.dataset.ready === 'true' || document.documentElement"
                  ".dataset.bootError === 'true'", timeout=timeout, what="the app to be ready")
        err = self.js("() => document.documentElement.dataset.bootError === 'true' &&"
                      " (document.getElementById('boot-error-detail') || {}).textContent")
        assert not err, f"[{self.engine}] boot failed: {err}"
        return self.js("() => performance.now()") / 1000

    # elements
    @staticmethod
    def tid(test_id: str) -> str:
        return f"[data-testid={json.dumps(test_id)}]"

    def count(self, sel: str) -> int:
        return self.js("(s) => document.querySelectorAll(s).length", sel)

    def visible(self, sel: str) -> bool:
        return self.js("""(s) => { const e = document.querySelector(s); if (!e) return false;
            const r = e.getBoundingClientRect(); const st = getComputedStyle(e);
            return r.width > 0 && r.height > 0 && st.visibility !== 'hidden'; }""", sel)

    def text(self, sel: str) -> str:
        return self.js("(s) => { const e = document.querySelector(s); return e ? e.innerText : null; }", sel)

    def attr(self, sel: str, name: str):
        return self.js("(s, n) => { const e = document.querySelector(s); return e ? e.getAttribute(n) : null; }",
                       sel, name)

    def value(self, sel: str):
        return self.js("(s) => { const e = document.querySelector(s); return e ? e.value : null; }", sel)

    def expect_text(self, sel: str, want, timeout: float = 10.0) -> str:
        """Wait until the element's text contains `want` (a string) or matches it (a compiled regex)."""
        pattern = want.pattern if isinstance(want, re.Pattern) else re.escape(want)
        try:
            return self.wait("""(s, p) => { const e = document.querySelector(s);
                return e && new RegExp(p).test(e.innerText) ? e.innerText : null; }""", sel, pattern,
                             timeout=timeout, what=f"{sel} to read {want!r}")
        except AssertionError:
            raise AssertionError(f"[{self.engine}] {sel} reads {self.text(sel)!r}, not {want!r}") from None

    def expect_count(self, sel: str, n: int, timeout: float = 10.0) -> None:
        try:
            self.wait("(s, n) => document.querySelectorAll(s).length === n", sel, n, timeout=timeout,
                      what=f"{n} of {sel}")
        except AssertionError:
            raise AssertionError(f"[{self.engine}] {self.count(sel)} of {sel}, not {n}") from None

    def expect_attr(self, sel: str, name: str, value: str, timeout: float = 10.0) -> None:
        try:
            self.wait("(s, n, v) => { const e = document.querySelector(s); return !!e && e.getAttribute(n) === v; }",
                      sel, name, value, timeout=timeout, what=f"{sel} {name}={value!r}")
        except AssertionError:
            raise AssertionError(f"[{self.engine}] {sel} has {name}={self.attr(sel, name)!r}, not {value!r}") \
                from None

    def centre(self, sel: str, timeout: float = 10.0) -> tuple[float, float]:
        """Scroll the element into view and return its centre, once it is the topmost thing there. Two frames
        go by first: what the page does in its next frame (the result card scrolled into view after a step,
        ui/page/render.py) is done before the centre is read, not between the reading and the click."""
        def probe():
            return self.js("""async (s) => {
                await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
                const e = document.querySelector(s); if (!e) return null;
                e.scrollIntoView({block: 'center', inline: 'center'});
                const r = e.getBoundingClientRect(); if (!r.width || !r.height) return null;
                const x = r.left + r.width / 2, y = r.top + r.height / 2;
                const top = document.elementFromPoint(x, y);
                if (!top || !(top === e || e.contains(top) || top.contains(e) && top.tagName === 'LABEL'))
                  return null;
                if (e.disabled) return null;
                return [x, y]; }""", sel)
        deadline = time.time() + timeout
        while True:
            xy = probe()
            if xy:
                return tuple(xy)
            if time.time() > deadline:
                raise AssertionError(f"[{self.engine}] {sel} is not there to click (missing, hidden, "
                                     "covered or disabled)")
            time.sleep(0.05)

    def click(self, sel: str) -> None:
        """A real pointer click (a tap with touch) on the element's centre."""
        x, y = self.centre(sel)
        self.tab.click_at(x, y)

    def click_at(self, x: float, y: float) -> None:
        self.tab.click_at(x, y)

    def press(self, key: str) -> None:
        """A real key press to whatever has the focus ("Enter", "Shift+Tab", "Control+z", "t")."""
        self.tab.press(key)

    def type_keys(self, text: str) -> None:
        for ch in text:
            self.tab.press(ch)

    def focused(self, sel: str) -> bool:
        return self.js("(s) => !!document.activeElement && document.activeElement.matches(s)", sel)

    def fill(self, sel: str, text: str) -> None:
        """Set a field's value and send `input`, like Playwright's fill()."""
        self.centre(sel)
        self.js("""(s, t) => { const e = document.querySelector(s); e.focus();
            const proto = e instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
            Object.getOwnPropertyDescriptor(proto, 'value').set.call(e, t);
            e.dispatchEvent(new Event('input', {bubbles: true})); }""", sel, text)

    def select_option(self, sel: str, value: str) -> None:
        self.centre(sel)
        self.js("""(s, v) => { const e = document.querySelector(s); e.value = v;
            if (e.value !== v) throw new Error('no option ' + v);
            e.dispatchEvent(new Event('input', {bubbles: true}));
            e.dispatchEvent(new Event('change', {bubbles: true})); }""", sel, value)


# --- which engines are here --------------------------------------------------------------------

def executable(name: str) -> str | None:
    if name == "chromium":
        for cand in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
            if cand and os.path.exists(cand):
                return cand
        return None
    if name == "firefox":
        for cand in (os.environ.get("FIREFOX"), shutil.which("firefox-esr"), shutil.which("firefox")):
            if cand and os.path.exists(cand):
                return cand
        return None
    return shutil.which("WebKitWebDriver")


def missing(name: str) -> str | None:
    """Why an engine cannot run here (None: it can)."""
    if name == "chromium":
        return None if executable(name) else "Chromium is not installed (Debian: apt-get install chromium)"
    if name == "firefox":
        return None if executable(name) else "Firefox is not installed (Debian: apt-get install firefox-esr)"
    if not executable(name) or not minibrowser():
        return "WebKitGTK's WebDriver is not installed (Debian: apt-get install webkit2gtk-driver)"
    if not os.environ.get("DISPLAY") and not shutil.which("Xvfb"):
        return "WebKitGTK needs an X display: Xvfb is not installed (Debian: apt-get install xvfb)"
    return None


def launch(name: str, playwright=None):
    """Start an engine (Chromium needs a started sync Playwright)."""
    if name == "chromium":
        return ChromiumEngine(executable(name), playwright)
    if name == "firefox":
        return FirefoxEngine(executable(name))
    return WebKitEngine(executable(name), minibrowser())
