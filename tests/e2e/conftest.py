"""End-to-end fixtures: the real page from a local static server in Chromium.

Every test's page fails the test if it logs a console error, throws, or asks
for anything outside the local server (no network at run time). Tests get the
app already booted (`app`), at desktop and at phone width with touch.
"""
from __future__ import annotations

import os
import pathlib
import re
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOOT_TIMEOUT = 60_000  # ms: Pyodide boots slowly under load; tests wait for data-ready
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
              "device_scale_factor": 2},
}


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

    def allow_console_error(self, pattern: str) -> None:
        self.allowed_errors.append(re.compile(pattern))

    def on_console(self, msg) -> None:
        if msg.type == "error":
            self.console_errors.append(msg.text)

    def on_pageerror(self, err) -> None:
        self.console_errors.append(f"pageerror: {err}")

    def check(self) -> None:
        bad = [e for e in self.console_errors if not any(p.search(e) for p in self.allowed_errors)]
        assert not self.outside, f"requests left the local server: {self.outside}"
        assert not bad, f"console errors: {bad}"


def new_context(browser, base: str, device: str, guard: Guard, **extra):
    ctx = browser.new_context(**VIEWPORTS[device], **extra)
    local = re.escape(base)

    def block(route):
        guard.outside.append(route.request.url)
        route.abort()

    ctx.route(re.compile(rf"^(?!{local}|data:|blob:).*"), block)
    return ctx


def watch(page, guard: Guard):
    page.on("console", guard.on_console)
    page.on("pageerror", guard.on_pageerror)
    page.on("dialog", lambda d: (guard.console_errors.append(f"dialog fired: {d.message}"), d.dismiss()))
    return page


def wait_ready(page) -> None:
    page.wait_for_selector("html[data-ready='true']", state="attached", timeout=BOOT_TIMEOUT)


@pytest.fixture(params=["desktop", "phone"])
def device(request) -> str:
    return request.param


@pytest.fixture
def guard(base_url_local):
    g = Guard(base_url_local)
    yield g
    g.check()


@pytest.fixture
def context(browser, base_url_local, device, guard):
    ctx = new_context(browser, base_url_local, device, guard)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context, guard):
    return watch(context.new_page(), guard)


@pytest.fixture
def app(page, base_url_local):
    """The booted app with a fresh (empty) local storage."""
    page.goto(base_url_local)
    wait_ready(page)
    return page


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
