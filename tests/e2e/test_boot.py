"""The page boots from vendored files only, shows progress, and fails readably."""
from harness import BOOT_TIMEOUT, wait_ready
from playwright.sync_api import expect


def test_app_boots_and_shows_its_main_screen(booted_app):
    app = booted_app
    expect(app.get_by_test_id("app")).to_be_visible()
    expect(app.get_by_test_id("boot")).to_be_hidden()
    assert app.evaluate("performance.getEntriesByName('fray-ready').length") == 1
    expect(app.locator("html")).to_have_attribute("data-ready", "true")


def test_loading_screen_shows_progress_before_python_is_ready(page, base_url_local):
    # Hold the wasm back so the loading screen can be seen before boot.
    held = []
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(base_url_local)
    expect(page.get_by_test_id("boot")).to_be_visible()
    expect(page.locator("#boot-loading")).to_contain_text("Fray")
    expect(page.locator("#boot-bar")).to_be_visible()
    assert page.locator("html").get_attribute("data-ready") is None
    page.wait_for_function("() => window.__held || true")
    for route in held:
        route.continue_()
    page.unroute("**/pyodide.asm.wasm")
    if not held:  # the preload may have raced the route; the page must still boot
        pass
    wait_ready(page)
    expect(page.get_by_test_id("boot")).to_be_hidden()


def test_error_screen_says_what_to_run_when_runtime_is_missing(page, base_url_local, guard):
    guard.allow_console_error(r"404|Failed to load|runtime")
    page.route("**/static/vendor/**", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(base_url_local)
    err = page.get_by_test_id("boot-error")
    expect(err).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(err).to_contain_text("python3 tools/dev.py serve")
    expect(page.locator("#boot-loading")).to_be_hidden()
    assert page.locator("html").get_attribute("data-ready") is None
