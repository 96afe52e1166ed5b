"""Start-up stays lean: what tools/setup.py precompiles is what the page imports.

The standard library ships precompiled only for the modules the page imports
as it starts (tools/pycompile.py STARTUP); the rest ships as source, smaller on
the wire. If a change makes the page import another standard module at start,
it would be compiled from source on every visit: this test names it, so it can
be added to STARTUP (or imported lazily).
"""
from __future__ import annotations

import pytest
from conftest import wait_ready

SOURCE_MODULES = """async () => {
  const { whenDefined } = await import("./static/vendor/pyscript/core.js");
  const py = (await whenDefined("py")).interpreter;
  return JSON.parse(py.runPython(`
import json, sys
json.dumps(sorted(name for name, m in list(sys.modules.items())
                  if (getattr(getattr(m, "__spec__", None), "origin", None) or "").startswith("/lib/python")
                  and getattr(m.__spec__, "origin", "").endswith(".py")))`));
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
    assert page.evaluate("performance.getEntriesByName('fray-ready').length") == 1
