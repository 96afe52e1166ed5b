"""Shared test setup: the engine is imported from py/ as the page does."""
import os
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "tools"))
# The unit tests' shared helpers (acting, olog_support, ose_kit, ogre_support, duel) and
# tests/unit itself, so a system's folder can reuse a generic test's helpers.
sys.path.insert(0, str(ROOT / "tests" / "unit"))
sys.path.insert(0, str(ROOT / "tests" / "unit" / "support"))
# The browser journeys' harness and helpers (tests/e2e/harness.py, helpers.py); --import-mode=importlib
# (pytest.ini) puts no test's folder on the path itself.
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

import pytest  # noqa: E402

import browser_log  # noqa: E402

# Chromium's own output goes to a file per worker, so that a crashed renderer's failure quotes it.
browser_log.enable()


def pytest_configure(config):
    """The run's folder for crash reports, made once by the process that starts the workers (they inherit
    it), so that the summary can print every worker's."""
    if "PYTEST_XDIST_WORKER" not in os.environ and "FRAY_CRASH_DIR" not in os.environ:
        os.environ["FRAY_CRASH_DIR"] = tempfile.mkdtemp(prefix="fray-crashes-")


def pytest_terminal_summary(terminalreporter):
    """Every renderer crash of the run with what Chromium printed last, rerun or not (a crash whose rerun
    passed leaves no failure to read, and CI's output is all a later reader has)."""
    if "PYTEST_XDIST_WORKER" in os.environ:
        return
    reports = browser_log.kept()
    if reports:
        terminalreporter.section(f"renderer crashes ({len(reports)}), with what Chromium printed last")
        for r in reports:
            terminalreporter.write_line(r)

BROWSER_RERUNS = 2


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (the whole suite, tools/dev.py test): a browser engine's cross-engine journeys
    run on one worker, which starts that engine once, and so do the tests that share one offline
    visit (test_offline's module fixture).

    Every browser journey (tests/e2e, tests/xbrowser) may run twice more after a failure: a browser on a
    loaded machine sometimes dies or misses a wait, and a real fault fails all three runs. A renderer
    that crashed gets its browser started again before the rerun (tests/e2e/harness.py `Relaunchable`,
    tests/xbrowser's `pages`), and the report quotes what Chromium printed (tests/e2e/browser_log.py).
    Unit tests, which run in this process with seeded or replayed data, are never rerun."""
    for item in items:
        if {"e2e", "xbrowser"} & set(item.path.parts):
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS))
        params = getattr(getattr(item, "callspec", None), "params", {})
        if "xbrowser" in item.path.parts and "engine" in params:
            item.add_marker(pytest.mark.xdist_group(f"xbrowser-{params['engine']}"))
        elif item.path.name == "test_offline.py":
            item.add_marker(pytest.mark.xdist_group("offline"))
