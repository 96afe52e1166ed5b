"""Fray's page modules in the start-up snapshot, imported where there is no page (issue 36).

The snapshot a later visit starts from is made in a worker (static/boot/snapshot-worker.mjs),
where PyScript's `pyscript` module does not exist, so the page modules (every one imports
`pyscript`) were left out of it and imported at each start. `import_page_modules` imports them
there against stand-ins for the few page objects they bind at import (`pyscript.window`,
`pyscript.document`, `pyscript.ffi`'s functions), then takes the stand-ins out of `sys.modules`
so that the page's real `pyscript` is the one imported there. In the page, `settle` (the
first thing start-up does) puts the real objects where the stand-ins are. A module whose
import uses a page object for real fails in the worker and is simply imported in the page.
A stand-in that was kept somewhere `settle` cannot see forwards to the real object once settled.
"""
from __future__ import annotations

import sys
import types
from typing import Any

from . import ondemand

# What the page modules bind from `pyscript` at import: module -> names.
PAGE_NAMES = {"pyscript": ("window", "document"), "pyscript.ffi": ("create_proxy", "is_none", "to_js")}
_real: dict[str, Any] = {}
settled = 0  # stand-ins replaced at this start: 0 unless it began from a snapshot holding page modules


class StandIn:
    """A page object not there yet: `pyscript.window` in the worker that makes the snapshot."""
    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def _target(self) -> Any:
        try:
            return _real[self.path]
        except KeyError:
            raise RuntimeError(f"{self.path} is used before the page is there") from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target(), name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._target()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<stand-in for {self.path}>"


def import_page_modules(skip: tuple[str, ...] = ("__main__", ".cli", ".playout")) -> list[str]:
    """In the worker: import every module under fray.ui against stand-ins; the names imported."""
    import importlib
    fakes = []
    for modname, names in PAGE_NAMES.items():
        if modname in sys.modules:  # a real page: nothing to stand in for
            return []
        mod = types.ModuleType(modname)
        for name in names:
            setattr(mod, name, StandIn(f"{modname}.{name}"))
        sys.modules[modname] = mod
        fakes.append(modname)
    sys.modules["pyscript"].ffi = sys.modules["pyscript.ffi"]
    sys.modules["pyscript"].__path__ = []  # a package, so `pyscript.ffi` imports
    done = []
    try:
        for name in _every("fray.ui."):
            if name.endswith(skip):
                continue
            try:
                importlib.import_module(name)
                done.append(name)
            except Exception:  # uses the page at import: imported in the page instead
                sys.modules.pop(name, None)
    finally:
        for modname in fakes:
            sys.modules.pop(modname, None)
    return done


def _every(prefix: str) -> list[str]:
    """Every module of Fray under `prefix`: those the walk finds, and those of the app's second zip
    (tools/pycompile.py LATER), which the walk does not see (py/fray/ui/ondemand.py)."""
    import importlib
    import pkgutil  # here, not at the top: the page imports this module and needs neither

    package = importlib.import_module(prefix[:-1])
    walked = [info.name for info in pkgutil.walk_packages(package.__path__, prefix)]
    return walked + sorted(n for n in ondemand.later_names() if n.startswith(prefix) and n not in walked)


def import_everything(skip: tuple[str, ...] = ("__main__", ".cli", ".playout", ".pairing")) -> None:
    """What the start-up snapshot holds, and what tools/pycompile.py imports to record the dataclasses'
    code (fray/dccache.py): the page modules against stand-ins, then every other module of Fray."""
    import importlib

    import_page_modules(skip)
    for name in _every("fray."):
        if name.endswith(skip):
            continue
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # a module that needs the page (pyscript): imported there


def settle() -> int:
    """In the page: the real page objects where the snapshot's modules hold stand-ins; how many."""
    global settled
    if not _real:
        import pyscript
        import pyscript.ffi
        for modname, names in PAGE_NAMES.items():
            mod = sys.modules[modname]
            for name in names:
                _real[f"{modname}.{name}"] = getattr(mod, name)
    count = 0
    for name, mod in list(sys.modules.items()):
        if not name.startswith("fray.ui") or mod is None:
            continue
        for key, value in list(vars(mod).items()):
            if type(value) is StandIn:
                setattr(mod, key, _real[value.path])
                count += 1
    settled += count
    return count
