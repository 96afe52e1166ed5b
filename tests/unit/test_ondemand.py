"""The second standard library zip's finder (py/fray/ui/ondemand.py, issue 36), under CPython:
a module of the zip imports after the zip is fetched once; a package split between the start-up
zip and the second one finds its other submodules there; a name the zip lacks fetches nothing."""
from __future__ import annotations

import importlib
import shutil
import sys
import zipfile

import pytest

from fray.ui import ondemand


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A start-up folder holding package `splitpkg` (its __init__ only) on sys.path, and a built
    second zip with `restmod`, `restpkg.sub` and `splitpkg.extra`, not yet "fetched"."""
    start = tmp_path / "start"
    (start / "splitpkg").mkdir(parents=True)
    (start / "splitpkg" / "__init__.py").write_text("WHERE = 'start'\n")
    built = tmp_path / "built.zip"
    with zipfile.ZipFile(built, "w") as z:
        z.writestr("restmod.py", "VALUE = 41 + 1\n")
        z.writestr("restpkg/__init__.py", "")
        z.writestr("restpkg/sub.py", "from . import helper\nVALUE = helper.X * 2\n")
        z.writestr("restpkg/helper.py", "X = 21\n")
        z.writestr("splitpkg/extra.py", "VALUE = 'rest'\n")
    monkeypatch.syspath_prepend(str(start))
    names = ["restmod", "restpkg", "restpkg.sub", "restpkg.helper", "splitpkg.extra"]
    fetched = []
    path = str(tmp_path / "rest.zip")

    def load():
        fetched.append(path)
        shutil.copy(built, path)

    saved_meta = list(sys.meta_path)
    finder = ondemand.install(path, names, load)
    yield finder, fetched
    sys.meta_path[:] = saved_meta
    for name in [n for n in sys.modules if n.split(".")[0] in ("restmod", "restpkg", "splitpkg")]:
        del sys.modules[name]


def test_a_module_of_the_second_zip_imports_after_one_fetch(site):
    finder, fetched = site
    assert fetched == []
    assert importlib.import_module("restmod").VALUE == 42
    assert importlib.import_module("restpkg.sub").VALUE == 42  # and its sibling, through the package's path
    assert importlib.import_module("splitpkg").WHERE == "start"
    assert importlib.import_module("splitpkg.extra").VALUE == "rest"  # a split package's submodule
    assert len(fetched) == 1 and finder.loads == 1


def test_a_name_the_zip_lacks_is_not_fetched_for(site):
    finder, fetched = site
    with pytest.raises(ImportError):
        importlib.import_module("no_such_module_anywhere")
    assert fetched == [] and finder.loads == 0


def test_a_zip_that_cannot_be_fetched_fails_the_import_plainly(tmp_path, monkeypatch):
    saved_meta = list(sys.meta_path)
    try:
        ondemand.install(str(tmp_path / "never.zip"), ["restmod_unfetchable"], lambda: None)
        with pytest.raises(ImportError):
            importlib.import_module("restmod_unfetchable")
    finally:
        sys.meta_path[:] = saved_meta


def test_installing_again_replaces_the_finder_of_a_restored_snapshot(tmp_path):
    saved_meta = list(sys.meta_path)
    try:
        first = ondemand.install(str(tmp_path / "r.zip"), ["a"], lambda: None)
        second = ondemand.install(str(tmp_path / "r.zip"), ["b"], lambda: None)
        assert first not in sys.meta_path and sys.meta_path[-1] is second
        assert ondemand.finder(str(tmp_path / "r.zip")) is second
    finally:
        sys.meta_path[:] = saved_meta
