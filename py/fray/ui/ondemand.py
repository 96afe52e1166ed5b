"""The modules the page does not import as it starts, loaded on first use (issue 36, #57).

tools/pycompile.py splits Pyodide's standard library in two: the modules the
page imports as it starts go in the zip Pyodide loads before Python runs; the
rest (email, xml, http, statistics, the other codecs: 1.2 MB on the wire) go in
a second zip that a first visit does not fetch before it is ready. Nothing of
Fray imports one, but a module that does (a new feature, a codec, a library
function importing lazily) must still work: this finder, last on
`sys.meta_path`, finds a module of the second zip there, after having it
fetched (once, synchronously, by the loader's `load` function) if it is not on
the file system yet. The loader also fetches it in idle time after ready, so an
import made offline finds it in place. The app is split the same way
(tools/pycompile.py LATER: the systems a first visit does not open, 0.33 MB):
its second zip is fetched after ready on a first visit, at start on a later one.

Pure Python apart from `load`, which the loader passes in: tested under CPython.
"""
from __future__ import annotations

import os
import sys
import zipimport
from collections.abc import Callable, Iterable


class OnDemandZip:
    """A meta path finder for the modules `names` of the zip at `path`."""

    def __init__(self, path: str, names: Iterable[str], load: Callable[[], None]) -> None:
        self.path = path
        self.names = frozenset(names)
        self.load = load
        self.loads = 0  # how many times the zip had to be fetched for an import (the e2e tests read it)
        self._importers: dict[str, zipimport.zipimporter] = {}

    def present(self) -> bool:
        return os.path.exists(self.path)

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname not in self.names:
            return None
        if not self.present():
            self.load()
            self.loads += 1
            self._importers.clear()
            if not self.present():
                return None  # the loader could not fetch it: the import fails as it would have
        # A module's folder in the zip (a package may be split: encodings.utf_8 at start, encodings.koi8_r here).
        parent = fullname.rpartition(".")[0]
        prefix = self.path + "/" + (parent.replace(".", "/") + "/" if parent else "")
        importer = self._importers.get(prefix)
        if importer is None:
            importer = self._importers[prefix] = zipimport.zipimporter(prefix)
        return importer.find_spec(fullname)

    def invalidate_caches(self) -> None:
        self._importers.clear()


def install(path: str, names: Iterable[str], load: Callable[[], None]) -> OnDemandZip:
    """Put a finder for the zip at `path` last on sys.meta_path, replacing one made earlier
    (a restored start-up snapshot holds the finder of the interpreter it was made from)."""
    sys.meta_path[:] = [f for f in sys.meta_path if not (isinstance(f, OnDemandZip) and f.path == path)]
    finder = OnDemandZip(path, names, load)
    sys.meta_path.append(finder)
    return finder


def finder(path: str) -> OnDemandZip | None:
    return next((f for f in sys.meta_path if isinstance(f, OnDemandZip) and f.path == path), None)


def rest_path() -> str:
    """Where the page puts the second zip (tools/pycompile.py REST_PREFIX)."""
    return f"/lib/python{sys.version_info.major}{sys.version_info.minor}-rest.zip"


def later_path() -> str:
    """Where the page puts the app's second zip (tools/pycompile.py LATER_PREFIX)."""
    return "/home/pyodide/fray-later.zip"


def later_names() -> list[str]:
    """The app modules in its second zip, as the first lists them (tools/pycompile.py LATER_LIST); none
    when the app is not packed (plain CPython)."""
    import json

    import fray

    loader = getattr(fray, "__loader__", None)
    try:
        return json.loads(loader.get_data(os.path.join(os.path.dirname(fray.__file__), "later.json")))
    except (AttributeError, OSError, ValueError):
        return []


def install_page(names_json: str) -> list[str]:
    """The page's finders, of the standard library's second zip and the app's (issue #57): the loader
    (tools/fray-pyodide.template.mjs) fetches a zip and writes it when `frayOnDemand.load(path)` asks."""
    import json

    def loader(path: str) -> Callable[[], None]:
        def load() -> None:
            import js

            js.frayOnDemand.load(path)

        return load

    rest = install(rest_path(), json.loads(names_json), loader(rest_path()))
    app = install(later_path(), later_names(), loader(later_path()))
    return [rest.path, app.path]
