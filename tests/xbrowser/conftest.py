"""Cross-engine journeys: the real page from a local server in Chromium, Firefox and WebKit.

The server is tools/server.py's with test-only additions (site_server.py): a hook first in index.html's
<head> that records console errors, uncaught exceptions and unhandled rejections (every journey fails if
it recorded anything, in every engine), and an "offline" switch that drops every connection.

Each engine starts once per run; each journey gets a fresh, empty profile. A browser that is not
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
    eng.close()


class Pages:
    """Opens pages in fresh profiles of one engine and, at the end, fails on what must not happen."""

    def __init__(self, engine, site):
        self.engine, self.site, self.opened = engine, site, []
        self.allowed: list[str] = []

    def open(self, size=DESKTOP, touch: bool = False, url: str | None = None, ready: bool = True):
        p = self.engine.new_page(self.site.base, *size, touch=touch)
        self.opened.append(p)
        if url is not False:
            p.goto(url or self.site.base)
            if ready:
                p.boot_s = p.wait_ready()
        return p

    def check(self) -> None:
        problems = []
        for p in self.opened:
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


@pytest.fixture
def pages(engine, site):
    ps = Pages(engine, site)
    site.offline = False
    try:
        yield ps
        ps.check()
    finally:
        site.offline = False
        ps.close()
