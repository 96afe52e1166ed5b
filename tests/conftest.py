"""Shared test setup: the engine is imported from py/ as the page does."""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "tools"))
# The unit tests' shared helpers (olog_support, ose_kit, ogre_support, duel) and
# tests/unit itself, so a system's folder can reuse a generic test's helpers.
sys.path.insert(0, str(ROOT / "tests" / "unit"))
sys.path.insert(0, str(ROOT / "tests" / "unit" / "support"))

import pytest  # noqa: E402


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (the whole suite, tools/dev.py test): a browser engine's cross-engine journeys
    run on one worker, which starts that engine once, and so do the tests that share one offline
    visit (test_offline's module fixture)."""
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if "xbrowser" in item.path.parts and "engine" in params:
            item.add_marker(pytest.mark.xdist_group(f"xbrowser-{params['engine']}"))
        elif item.path.name == "test_offline.py":
            item.add_marker(pytest.mark.xdist_group("offline"))
