"""End-to-end harness (the fixtures, hooks and helpers tests/e2e/conftest.py exposes): the real page from a local static server in Chromium.

Every test's page fails the test if it logs a console error, throws, or asks
for anything outside the local server (no network at run time). Tests get the
app already booted (`app`), at desktop and at phone width with touch.

`app` is the app newly opened with empty storage, in one booted page per device and test worker: the
page's Python lets its App go and starts a new one (ui/app.py `install_restart`, present only where
the tests' init script asks for it), with the origin's storage cleared in between. That is a fraction
of a second per test where a reload is one to three. A test may still reload or navigate that page
(an autosave that a reload restores), and a page that failed a test, crashed or was closed is replaced
by a new one: a second visit in the same browser context (runtime from the HTTP cache and the service
worker; these contexts make no start-up snapshot). The first visit itself, and the snapshot boot, are
what `page`, the boot tests, test_startup and test_offline check, each in a new, empty context.
"""
from __future__ import annotations

import os
import pathlib
import re
import shutil

import pytest

import browser_log

ROOT = pathlib.Path(__file__).resolve().parents[2]
# A renderer process that died: Playwright's own words for it, and the guard's (the test is rerun, as any
# failed browser journey is: tests/conftest.py; its device gets a new context first).
CRASH_MARK = "Page crashed"
BOOT_TIMEOUT = 60_000  # ms: Pyodide boots slowly under load; tests wait for data-ready
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
              "device_scale_factor": 2},
}
WELCOME_OFF = "window.frayWelcome = false;"
# Other widths, opened in a device's context and booted page with the viewport resized (test_layout's
# tablet in the phone's touch context, its 1920 px desktop in the desktop's): name -> (device, viewport).
WIDTHS: dict[str, tuple[str, dict]] = {}


def home(device: str) -> str:
    """The device whose browser context and booted page `device` uses."""
    return WIDTHS[device][0] if device in WIDTHS else device


def viewport(device: str) -> dict:
    return WIDTHS[device][1] if device in WIDTHS else VIEWPORTS[device]["viewport"]


@pytest.fixture(scope="session")
def base_url_local():
    import server
    import setup

    setup.setup_vendor()
    setup.build_app()
    srv = server.start()
    yield f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    exe = os.environ.get("CHROMIUM")
    if not exe:
        for cand in ("/usr/bin/chromium", shutil.which("chromium") or ""):
            if cand and os.path.exists(cand):
                exe = cand
                break
    args = ["--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--disable-quic", "--disable-default-apps"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")
    opts = {**browser_type_launch_args, "args": args, "headless": True}
    if exe:
        opts["executable_path"] = exe
    return opts


class Guard:
    """Collects what must not happen: console errors, page errors, requests
    that leave the local server."""

    def __init__(self, base: str):
        self.base = base
        self.console_errors: list[str] = []
        self.outside: list[str] = []
        self.allowed_errors: list[re.Pattern] = []
        self.crashed = False

    def allow_console_error(self, pattern: str) -> None:
        self.allowed_errors.append(re.compile(pattern))

    def on_console(self, msg) -> None:
        if msg.type == "error":
            self.console_errors.append(msg.text)

    def on_pageerror(self, err) -> None:
        self.console_errors.append(f"pageerror: {err}")

    def on_crash(self, page) -> None:
        # The renderer process died (CRASH_MARK; the test is rerun in a new context).
        self.crashed = True
        self.console_errors.append(f"{CRASH_MARK}: {page.url}")

    def check(self) -> None:
        bad = [e for e in self.console_errors if not any(p.search(e) for p in self.allowed_errors)]
        assert not self.outside, f"requests left the local server: {self.outside}"
        assert not bad, f"console errors: {bad}"


def new_context(browser, base: str, device: str, guard: Guard | list, **extra):
    """A browser context whose requests outside the local server fail and are recorded in the guard
    (or in the guard that a one-item list holds at the time: a context shared by several tests)."""
    ctx = browser.new_context(**VIEWPORTS[device], **extra)
    # The journeys start on the demo fight, as a first visit did before the welcome (ui/controllers/welcome.py `wanted`);
    # tests/e2e/test_welcome.py turns it on (`welcome_on`).
    ctx.add_init_script(WELCOME_OFF)
    local = re.escape(base)

    def block(route):
        (guard[0] if isinstance(guard, list) else guard).outside.append(route.request.url)
        route.abort()

    ctx.route(re.compile(rf"^(?!{local}|data:|blob:).*"), block)
    return ctx


def watch(page, guard: Guard):
    return watch_shared(page, [guard])


def watch_shared(page, holder: list):
    """Fail the test on what must not happen in this page: its console errors, uncaught errors, a crash, a
    dialog. A page that several tests use in turn reports to the guard the one-item list holds now."""
    page.on("console", lambda msg: holder[0].on_console(msg))
    page.on("pageerror", lambda err: holder[0].on_pageerror(err))
    page.on("crash", lambda: holder[0].on_crash(page))
    page.on("dialog", lambda d: (holder[0].console_errors.append(f"dialog fired: {d.message}"), d.dismiss()))
    return page


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report on the test item, so `app` knows at teardown whether its test failed."""
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)


def wait_ready(page) -> None:
    page.wait_for_selector("html[data-ready='true']", state="attached", timeout=BOOT_TIMEOUT)


@pytest.fixture(params=["desktop", "phone"])
def device(request) -> str:
    return request.param


class Relaunchable:
    """The worker's Chromium (pytest-playwright's `browser`, which this replaces), started again after a
    renderer crash: on CI, a browser whose renderer died has crashed the new pages of the test's reruns
    too, so the rerun and the tests after it get a new browser (`relaunch`)."""

    def __init__(self, launch):
        self._launch = launch
        self._browser = launch()

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def relaunch(self) -> None:
        for w in WARM:
            w.close()
        try:
            self._browser.close()
        except Exception:  # noqa: BLE001  (a browser that is gone already)
            pass
        self._browser = self._launch()


# The worker's WarmContexts (one): closed with the browser it lives in when that browser is relaunched.
WARM: list["WarmContexts"] = []


@pytest.fixture(scope="session")
def browser(launch_browser):
    b = Relaunchable(launch_browser)
    yield b
    b.close()


@pytest.fixture
def guard(base_url_local, browser, request):
    g = Guard(base_url_local)
    yield g
    if g.crashed:
        g.console_errors.append(browser_log.record_crash(f"e2e: {request.node.nodeid}"))
        browser.relaunch()
    g.check()


@pytest.fixture
def context(browser, base_url_local, device, guard):
    ctx = new_context(browser, base_url_local, device, guard)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context, guard):
    return watch(context.new_page(), guard)


class WarmContexts:
    """One browser context per device, kept for the whole run once it has visited the app, and in it
    one booted page that the `app` tests use in turn."""

    def __init__(self, browser, base: str):
        self.browser, self.base, self.made = browser, base, {}
        self.pages: dict[str, object] = {}

    def get(self, device: str, guard: Guard):
        device = home(device)
        if device not in self.made:
            holder = [guard]
            ctx = new_context(self.browser, self.base, device, holder)
            ctx.add_init_script("window.frayTestHooks = true;")  # ui/app.py install_restart
            # No start-up snapshot in these contexts: making one is a second Python in a worker for about
            # 4 s of CPU per context, more than the tests that boot again here would save by it (0.5 s
            # each). The snapshot boot has its own tests, each in a new context (test_offline, test_startup).
            ctx.add_init_script("try { localStorage.setItem('fray.snapshot.off', 'tests'); } catch (e) {}")
            first = watch_shared(ctx.new_page(), holder)
            first.goto(self.base)
            wait_ready(first)
            self.made[device] = (ctx, holder)
            self.pages[device] = first
        ctx, holder = self.made[device]
        holder[0] = guard
        return ctx

    def open_app(self, device: str, guard: Guard, boot: bool = False, link: str = ""):
        """The app newly opened on empty storage (with a share link's encounter when `link` is given: the
        part after "#"): in the device's booted page if it is still there and at the app, else (or with
        `boot`) in a new page that boots as a repeat visit does."""
        ctx = self.get(device, guard)
        page = self.pages.get(home(device))
        if not boot and page is not None and not page.is_closed() and page.url.split("#")[0] == self.base \
                and page.evaluate("() => !!window.frayRestart"):
            self.restart(page, device, link=link)
            return page
        self.drop_page(device)
        page = watch_shared(ctx.new_page(), self.made[home(device)][1])
        self.pages[home(device)] = page
        self.clear_storage(page)
        if page.viewport_size != viewport(device):
            page.set_viewport_size(viewport(device))
        page.goto(self.base + (f"#{link}" if link else ""))
        wait_ready(page)
        return page

    def restart(self, page, device: str, link: str = "", clear: bool = True) -> None:
        """The page as served, the origin's storage empty, a new App opened in the page's Python, as
        start-up opens it (with the share link `link` in the address). With `clear=False` the storage
        stays, as through a reload: the new App opens the autosave."""
        page.evaluate("clear => window.frayRestart.close(clear)", clear)
        if clear:
            self.clear_storage(page)
        page.unroute_all(behavior="ignoreErrors")
        size = viewport(device)
        if page.viewport_size != size:
            page.set_viewport_size(size)
        page.mouse.move(0, 0)  # nothing left hovered by the last test
        if link:
            page.evaluate("link => history.replaceState(null, '', '#' + link)", link)
        page.evaluate("() => { window.frayRestart.open(); }")
        wait_ready(page)

    def after(self, device: str, page, failed: bool) -> None:
        """After a test: the pages it opened closed; its own page too if the test failed."""
        ctx = self.made.get(home(device), (None,))[0]
        if ctx is None:
            return
        for other in list(ctx.pages):  # a second tab, a table window
            if other is not self.pages.get(home(device)):
                other.close()
        if failed:
            self.drop_page(device)

    def drop_page(self, device: str) -> None:
        page = self.pages.pop(home(device), None)
        if page is not None and not page.is_closed():
            page.close()

    def clear_storage(self, page) -> None:
        """What a test may leave behind in the origin's storage, gone: local storage and IndexedDB (the
        HTTP cache, the service worker and the snapshot in Cache Storage stay, as on a referee's device)."""
        origin = self.base.rstrip("/")
        cdp = page.context.new_cdp_session(page)
        try:
            cdp.send("Storage.clearDataForOrigin",
                     {"origin": origin, "storageTypes": "local_storage,indexeddb,websql,file_systems"})
        finally:
            cdp.detach()

    def forget(self, device: str) -> None:
        """Close a device's context after a page in it crashed, so the next test starts from a new one."""
        self.pages.pop(home(device), None)
        made = self.made.pop(home(device), None)
        if made is not None:
            made[0].close()

    def close(self) -> None:
        """Every context closed (at the end, or before the browser is relaunched after a crash)."""
        for ctx, _ in self.made.values():
            try:
                ctx.close()
            except Exception:  # noqa: BLE001  (its browser died)
                pass
        self.made.clear()
        self.pages.clear()


@pytest.fixture(scope="session")
def warm_contexts(browser, base_url_local):
    w = WarmContexts(browser, base_url_local)
    WARM.append(w)
    yield w
    w.close()


def opened_app(warm_contexts, device: str, guard: Guard, request, boot: bool = False, link: str = ""):
    """The fixtures' body: the app opened in the device's page (WarmContexts.open_app), and after the
    test, the pages it opened closed and its page dropped if it failed."""
    try:
        page = warm_contexts.open_app(device, guard, boot=boot, link=link)
    except Exception:
        # A renderer that died while booting: its rerun (tests/conftest.py) starts in a new context, not
        # in this one (the code after the yield below never runs for a setup that failed).
        if guard.crashed:
            warm_contexts.forget(device)
        else:
            warm_contexts.drop_page(device)
        raise
    yield page
    if guard.crashed:
        warm_contexts.forget(device)
        return
    rep = getattr(request.node, "rep_call", None)
    warm_contexts.after(device, page, failed=rep is None or rep.failed or bool(guard.console_errors))


@pytest.fixture
def app(warm_contexts, device, guard, request):
    """The app newly opened with empty storage (local storage, IndexedDB, session storage)."""
    yield from opened_app(warm_contexts, device, guard, request)


@pytest.fixture
def first_visit(app, warm_contexts, device):
    """The app opened on empty storage with the welcome on, as a referee's first visit has it."""
    app.evaluate("window.frayWelcome = true")
    warm_contexts.restart(app, device)
    yield app
    if not app.is_closed():
        app.evaluate("window.frayWelcome = false")


@pytest.fixture
def booted_app(warm_contexts, device, guard, request):
    """`app` in a page that has just booted (a repeat visit): for the tests of what start-up does."""
    yield from opened_app(warm_contexts, device, guard, request, boot=True)


@pytest.fixture
def visit(warm_contexts, device, guard):
    """A new page, not yet at the app, in the device's browser context that has visited it before, with
    the origin's storage empty: for a test that sets something up before the page's scripts run (an
    init script) and then opens the app, as a referee's repeat visit does. The device's booted page is
    closed first, so that no other tab of the origin is open."""
    ctx = warm_contexts.get(device, guard)
    warm_contexts.drop_page(device)
    page = watch(ctx.new_page(), guard)
    warm_contexts.clear_storage(page)
    yield page
    page.close()
    if guard.crashed:
        warm_contexts.forget(device)


@pytest.fixture
def fresh_page(browser, base_url_local, device, guard):
    """Open another page in a new, empty browser context (another device)."""
    contexts = []

    def make():
        ctx = new_context(browser, base_url_local, device, guard)
        contexts.append(ctx)
        return watch(ctx.new_page(), guard)

    yield make
    for c in contexts:
        c.close()
