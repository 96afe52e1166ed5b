"""Cross-engine journeys: the real page from a local server in Chromium, Firefox and WebKit.

The server is tools/server.py's with test-only additions (site_server.py): a hook first in index.html's
<head> that records console errors, uncaught exceptions and unhandled rejections (every journey fails if
it recorded anything, in every engine), and an "offline" switch that drops every connection.

Each engine starts once per run; each journey gets a fresh, empty profile, except the three fights
(one per system), which open the app again, storage emptied, in a page the engine keeps
(`Pages.open_kept`): a boot in a fresh profile is what the boot, share link, offline and phone
journeys check. A browser that is not
installed skips its journeys with the reason, unless FRAY_REQUIRE_BROWSERS=1 (set by .ci/run where it
can install them), which turns the skip into a failure.
"""
from __future__ import annotations

import os
import pathlib
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(pathlib.Path(__file__).parent))

import drivers  # noqa: E402
from drivers import DESKTOP, ENGINES, PHONE  # noqa: E402,F401
from site_server import make_server  # noqa: E402

@pytest.fixture(scope="session")
def site():
    import setup
    setup.setup_vendor()
    setup.build_app()
    srv = make_server()
    yield srv
    srv.shutdown()


STARTED: dict[str, float] = {}


@pytest.fixture(scope="session", params=ENGINES)
def engine(request):
    """One engine at a time: pytest runs every journey of an engine, then closes it before the next."""
    name = request.param
    why = drivers.missing(name)
    if why:
        if os.environ.get("FRAY_REQUIRE_BROWSERS") == "1":
            pytest.fail(f"{why}; FRAY_REQUIRE_BROWSERS=1 asks for every engine")
        pytest.skip(why)
    t0 = time.time()
    # Chromium: pytest-playwright's own Playwright (the e2e tests share it): one sync Playwright a process.
    eng = drivers.launch(name, request.getfixturevalue("playwright") if name == "chromium" else None)
    STARTED[name] = time.time() - t0
    yield eng
    kept = KEPT.pop(name, None)
    if kept is not None:
        kept.close()
    eng.close()


# Lets the App go, empties the origin's storage as a new profile has it (local and session storage,
# IndexedDB; the HTTP cache and the service worker stay, as on a referee's device) and opens a new App in
# the same interpreter, as start-up opens it.
# Where emptying IndexedDB does not end within 5 s (seen in WebKit: a journey waited out the driver's 120 s
# script timeout), it is given up and the journey gets a fresh profile instead.
REOPEN = """async () => {
  window.frayRestart.close(true);
  localStorage.clear();
  const empty = (async () => {
    const dbs = indexedDB.databases ? await indexedDB.databases() : [];
    await Promise.all(dbs.map(d => new Promise((res, rej) => { const q = indexedDB.deleteDatabase(d.name);
      q.onsuccess = () => res(); q.onerror = () => rej(new Error("could not delete " + d.name)); })));
  })();
  await Promise.race([empty, new Promise((_, rej) => setTimeout(() => rej(new Error("IndexedDB not emptied in 5 s")), 5000))]);
  (window.__xbErrors || []).length = 0;
  window.frayRestart.open();
}"""

# Each engine's kept page: the desktop journeys that are not about boot, offline or a second browser
# open the app again in it (REOPEN) instead of a new profile booting cold: engine name -> Page.
KEPT: dict[str, object] = {}


class Pages:
    """Opens pages in fresh profiles of one engine and, at the end, fails on what must not happen."""

    def __init__(self, engine, site):
        self.engine, self.site, self.opened = engine, site, []
        self.allowed: list[str] = []
        self.kept = None  # the engine's kept page, when this journey uses it

    def open(self, size=DESKTOP, touch: bool = False, url: str | None = None, ready: bool = True):
        p = self.engine.new_page(self.site.base, *size, touch=touch)
        self.opened.append(p)
        if url is not False:
            p.goto(url or self.site.base)
            if ready:
                p.boot_s = p.wait_ready()
        return p

    def open_kept(self):
        """The app at desktop size with empty storage, in the engine's kept page: opened again there
        (REOPEN, a fraction of a second) where that page is still at the app, else booted in a fresh
        profile and kept for the next journey."""
        p = KEPT.get(self.engine.name)
        if p is not None:
            try:
                p.errors_seen.clear()
                p.native_errors.clear()
                p.outside.clear()
                p.js("() => document.documentElement.removeAttribute('data-ready')")
                p.js(REOPEN)
                p.boot_s = p.wait_ready()
            except Exception:  # noqa: BLE001  (a page that died or left the app: a new one)
                self.drop_kept()
                p = None
        if p is None:
            p = self.open()
            self.opened.remove(p)
            KEPT[self.engine.name] = p
        self.kept = p
        return p

    def drop_kept(self) -> None:
        p = KEPT.pop(self.engine.name, None)
        if p is not None:
            try:
                p.close()
            except Exception:
                pass

    def check(self) -> None:
        problems = []
        for p in self.opened + ([self.kept] if self.kept is not None else []):
            try:
                errs = p.errors()
            except Exception as exc:  # a closed page: what it had gathered
                errs = p.errors_seen + p.native_errors + [f"(could not read the page's errors: {exc})"]
            bad = [e for e in errs if not any(a in e for a in self.allowed)]
            if bad:
                problems.append(f"[{p.engine}] console errors or uncaught exceptions: {bad}")
            if p.outside:
                problems.append(f"[{p.engine}] requests left the local server: {p.outside}")
        assert not problems, "\n".join(problems)

    def close(self) -> None:
        for p in self.opened:
            try:
                p.close()
            except Exception:
                pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report on the test item, so `pages` knows at teardown whether its journey failed."""
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)


@pytest.fixture
def pages(engine, site, request):
    ps = Pages(engine, site)
    site.offline = False
    ok = False
    try:
        yield ps
        ps.check()
        ok = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.passed
    finally:
        site.offline = False
        ps.close()
        if ps.kept is not None and not ok:
            ps.drop_kept()  # a journey that failed leaves no page to the next one
        if getattr(engine, "crashed", None):
            # A renderer died: the rerun (tests/conftest.py) and the journeys after it get a new browser.
            # What Chromium printed last goes to the report's captured output and the run's summary.
            print(drivers.browser_log.record_crash(f"xbrowser: {request.node.nodeid}, at {engine.crashed}"),
                  file=sys.stderr)
            ps.drop_kept()
            engine.relaunch()
