"""Start-up stays lean: what tools/setup.py precompiles is what the page imports.

The standard library ships precompiled only for the modules the page imports
as it starts (tools/pycompile.py STARTUP); the rest ships as source, smaller on
the wire. If a change makes the page import another standard module at start,
it would be compiled from source on every visit: this test names it, so it can
be added to STARTUP (or imported lazily).
"""
from __future__ import annotations

import json
import pathlib
import re
import time

import pytest
from harness import wait_ready

ROOT = pathlib.Path(__file__).resolve().parents[2]

SOURCE_MODULES = """async () => {
  const { whenDefined } = await import("./static/vendor/pyscript/core.js");
  const py = (await whenDefined("py")).interpreter;
  return JSON.parse(py.runPython(`
import json, sys
json.dumps(sorted(name for name, m in list(sys.modules.items())
                  if (getattr(getattr(m, "__spec__", None), "origin", None) or "").startswith("/lib/python")
                  and getattr(m.__spec__, "origin", "").endswith(".py")))`));
}"""

# Fray's own modules: where each came from (issue 36: imported from the app zip as it is, as bytecode).
APP_ORIGINS = """async () => {
  const { whenDefined } = await import("./static/vendor/pyscript/core.js");
  const py = (await whenDefined("py")).interpreter;
  return JSON.parse(py.runPython(`
import json, sys
json.dumps({name: getattr(getattr(m, "__spec__", None), "origin", None) for name, m in list(sys.modules.items())
            if name in ("fray", "pyscript") or name.startswith(("fray.", "pyscript."))})`));
}"""


@pytest.mark.parametrize("device", ["desktop"])
@pytest.mark.parametrize("example", ["", "ose:detailed", "ogre:orc_and_pc"])
def test_the_page_starts_without_compiling_a_standard_module(page, base_url_local, example):
    page.goto(base_url_local)
    wait_ready(page)
    if example:
        # Another system's modules: open its example, then start afresh on it (autosave).
        page.get_by_test_id("toggle-setup").click()
        page.get_by_test_id("example-select").select_option(example)
        page.get_by_test_id("notice-ok").wait_for()
        page.reload()
        wait_ready(page)
    assert page.evaluate(SOURCE_MODULES) == []
    origins = page.evaluate(APP_ORIGINS)
    assert len(origins) > 50, origins  # the page runs on Fray's modules and PyScript's...
    assert "pyscript.display" in origins
    compiled = {n: o for n, o in origins.items() if o is not None  # None: a namespace package (fray.views)
                and not n.startswith("pyscript.js_modules")  # made by PyScript from JS modules, not files
                and not (o.startswith(("/home/pyodide/fray.zip/", "/home/pyodide/fray-later.zip/"))
                         and o.endswith(".pyc"))}
    # ...each from the zips' .pyc (PyScript's too: its core writes them as source at every start)
    assert compiled == {}, "imported from elsewhere than the app zip's bytecode"
    assert page.evaluate("performance.getEntriesByName('fray-ready').length") == 1
    # No dataclass compiled its methods as the page started: each used the code recorded at packing.
    made = json.loads(page.evaluate(ON_DEMAND, "import json; from fray import dccache; "
                                                "json.dumps([dccache.installed, dccache.missed])"))
    assert made[0] > 100 and made[1] == [], made


@pytest.mark.parametrize("device", ["desktop"])
def test_python_starts_on_the_pages_own_stack_not_a_switched_one(page, base_url_local):
    """Issue #57: Chromium's renderer crashed at start (1 in ~40 first visits) while Python ran on a
    WebAssembly stack-switching (JSPI) stack; Fray needs none, so Pyodide is started without it, and the
    browser's own API is left as it was."""
    had = page.evaluate("'Suspending' in WebAssembly")
    page.goto(base_url_local)
    wait_ready(page)
    switched = page.evaluate("""async () => {
      const { whenDefined } = await import("./static/vendor/pyscript/core.js");
      return (await whenDefined("py")).interpreter._module.jspiSupported; }""")
    assert switched is False
    assert page.evaluate("'Suspending' in WebAssembly") == had


def preloads() -> list[str]:
    html = (ROOT / "index.html").read_text()
    return re.findall(r'<link rel="(?:module)?preload" href="\./([^"]+)"', html)


def early_fetches() -> list[str]:
    """The files static/boot/boot.js asks for as the page begins and hands to the fetch() that wants each
    (its EARLY list; not preloads, which WebKit's fetch() never takes: issue #57)."""
    js = (ROOT / "static/boot/boot.js").read_text()
    return re.findall(r'"((?:static|py)/[^"]+|pyscript\.toml)"', js[js.index("var EARLY"):js.index("var handed")])


def test_every_preloaded_file_exists_and_is_kept_offline(base_url_local):
    import offline

    listed = set(offline.sw_assets()["files"])
    assert len(preloads()) >= 6 and len(early_fetches()) == 5
    for rel in preloads() + early_fetches():
        assert (ROOT / rel).is_file(), f"index.html preloads {rel}, which setup did not produce (a new pin?)"
        assert rel in listed, f"{rel} is preloaded but not cached by the service worker"


def test_the_preloads_are_used_not_fetched_twice(browser):
    """A preload whose mode differs from the real fetch (crossorigin, credentials) is wasted:
    the file would come down twice."""
    import server

    srv = server.start()
    base = f"http://127.0.0.1:{srv.server_port}/"
    ctx = browser.new_context(service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(base)
        wait_ready(page)
        wasm_used = page.evaluate("() => document.documentElement.dataset.wasm")
        page_handed = page.evaluate("() => Object.keys(window.frayBoot.handed)")
        time.sleep(0.3)  # the server logs a response after its last byte
        paths = [p for p, _, _ in srv.take_sent()]
    finally:
        ctx.close()
        srv.shutdown()
    twice = sorted({p for p in paths if paths.count(p) > 1})
    assert not twice, f"fetched more than once: {twice}"
    # A first visit: Pyodide's wasm is asked for by boot.js and compiled by Pyodide (fetched once).
    assert "/static/vendor/pyodide/pyodide.asm.wasm" in paths and wasm_used is None
    assert {"/" + rel for rel in preloads() + early_fetches()} <= set(paths)
    # Every early answer was taken by the fetch() that wanted it.
    assert page_handed == [], f"asked for early and never taken: {page_handed}"


ON_DEMAND = """async (code) => {
  const { whenDefined } = await import("./static/vendor/pyscript/core.js");
  const py = (await whenDefined("py")).interpreter;
  return py.runPython(code);
}"""
LOADS = "from fray.ui import ondemand; ondemand.finder(ondemand.rest_path()).loads"
PRESENT = "from fray.ui import ondemand; ondemand.finder(ondemand.rest_path()).present()"
LATER_LOADS = "from fray.ui import ondemand; ondemand.finder(ondemand.later_path()).loads"
MISSING = "try:\n    import no_such_module_anywhere\n    r = 'imported'\nexcept ImportError:\n    r = 'refused'\nr"


@pytest.fixture
def fresh_site(browser):
    import server

    srv = server.start()
    ctx = browser.new_context()
    try:
        yield srv, f"http://127.0.0.1:{srv.server_port}/", ctx
    finally:
        ctx.close()
        srv.shutdown()


def test_standard_modules_not_imported_at_start_come_on_first_use(fresh_site):
    """Issue 36: the standard modules the page does not import as it starts are in a second zip,
    not fetched before ready. A module of it still imports, fetched then, once."""
    srv, base, ctx = fresh_site
    page = ctx.new_page()
    page.goto(base)
    wait_ready(page)
    ready = (page.evaluate("performance.timeOrigin + performance.getEntriesByName('fray-ready')[0].startTime")
             / 1000)
    time.sleep(0.3)  # the server logs a response after its last byte
    # (after ready, the service worker's install fetches every file, the second zip too, for offline use)
    before_ready = [p for p, _, t in srv.take_sent() if t <= ready]
    assert "/static/vendor/pyodide/python_stdlib.pyc.zip" in before_ready
    assert "/static/vendor/pyodide/python_stdlib-rest.zip" not in before_ready
    assert "/static/build/fray.zip" in before_ready and "/static/build/fray-later.zip" not in before_ready
    assert page.evaluate(ON_DEMAND, LATER_LOADS) == 0  # the welcome imports none of the app's second zip
    assert page.evaluate(ON_DEMAND, LOADS) == 0  # Fray itself needs none of them
    # A module of the second zip, a codec of a package split between the zips, a submodule of a split
    # package: each works, from one fetch.
    assert page.evaluate(ON_DEMAND, "import statistics; statistics.median([3, 1, 2])") == 2
    assert page.evaluate(ON_DEMAND, "'ж'.encode('koi8_r').hex()") == "d6"
    assert page.evaluate(ON_DEMAND, "import email.message; type(email.message.Message()).__name__") == "Message"
    assert page.evaluate(ON_DEMAND, LOADS) == 1
    assert page.evaluate(ON_DEMAND, MISSING) == "refused"  # a module that is nowhere: no fetch, ImportError
    assert page.evaluate(ON_DEMAND, LOADS) == 1


def test_the_second_standard_zip_is_in_place_for_an_offline_import(fresh_site):
    srv, base, ctx = fresh_site
    page = ctx.new_page()
    page.goto(base)
    wait_ready(page)
    # Fetched in idle time a few seconds after ready (and kept by the service worker).
    deadline = time.time() + 30
    while not page.evaluate(ON_DEMAND, PRESENT) and time.time() < deadline:
        time.sleep(0.5)
    assert page.evaluate(ON_DEMAND, PRESENT)
    ctx.set_offline(True)
    assert page.evaluate(ON_DEMAND, "import statistics; statistics.median([5, 1, 9])") == 5
    assert page.evaluate(ON_DEMAND, LOADS) == 0  # it was there: no fetch at import


def test_a_system_the_first_visit_did_not_open_comes_after_ready_and_its_example_opens_at_once(fresh_site):
    """Issue #57: the app modules a first visit does not import before ready (the systems but the one it
    opens on, tools/pycompile.py LATER) are in a second zip, fetched after ready; a tap on another
    system's example right after ready still opens it (the zip fetched then, once)."""
    from playwright.sync_api import expect

    srv, base, ctx = fresh_site
    page = ctx.new_page()
    page.goto(base)
    wait_ready(page)
    page.get_by_test_id("welcome-system-ogre").click()
    page.get_by_test_id("welcome-example").click()
    expect(page.get_by_test_id("notice-ok")).to_contain_text("Opened the example")
    assert page.evaluate(ON_DEMAND, LATER_LOADS) <= 1
    origin = page.evaluate(ON_DEMAND, "import sys; sys.modules['fray.rules.ogre.check'].__spec__.origin")
    assert origin == "/home/pyodide/fray-later.zip/fray/rules/ogre/check.pyc"
