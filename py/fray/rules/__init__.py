"""The one registry of rule systems: each system is one folder here, described by its `system.py`.

A system is a package under fray/rules/ (the same module names as the
others: ARCHITECTURE.md) whose `system.py` declares its `SystemInfo`: the
only description of it the rest of Fray reads. The registry finds the
folders itself, and reads only their descriptors at start; a system's
package is imported when it is first used (start-up imports only the
active one, PERF-NOTES). The welcome, "New encounter", the editor, the
roster's filter, the bestiary and the loader all derive their lists from
`SYSTEMS`; nothing outside a system's folder names it.
"""
from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import pkgutil
import sys
from dataclasses import dataclass
from typing import Any

from ..engine.ruleset import Lookup, Ruleset, install_default


@dataclass(frozen=True)
class SystemInfo:
    """A system as the page knows it before importing it: its names, its lines, its start, its views."""

    name: str
    title: str
    module: str = ""  # the package ("fray.rules.<name>" when empty)
    profiles: tuple[str, ...] = ("",)
    # The field each profile plays on ("bands", "grid", "list"); the first
    # entry is the default for a profile not listed.
    field_views: tuple[tuple[str, str], ...] = (("", "list"),)
    # More views shown with the field, in order ("declarations", "before", "ruler").
    extra_views: tuple[str, ...] = ()
    short: str = ""  # the short name the lists show ("OLOG"; the name when empty)
    order: int = 100  # where the system stands in every list (the first is the default)
    line: str = ""  # the welcome's one line on what the system is
    new_line: str = ""  # the library's "New encounter" line (the welcome's when empty)
    start_help: str = ""  # the help's "Starting a fight" line for the system (none when empty)
    profile_labels: tuple[str, ...] = ()  # the editor's label of each profile (the short name when empty)
    start_profile: str = ""  # the profile a new encounter starts in
    example: str = ""  # the example the welcome opens (a name in the system's `examples`)
    example_name: str = ""
    book: str = ""  # the rules text, as the bestiary's notes cite it
    creatures: str = ""  # the folder's module of starter creatures (its `CREATURES`), or none
    # The system's view hooks (a module whose `VIEW` is a views.models.SystemView), or "" for the
    # plain hooks: a system says which, none is assumed.
    view: str = ""
    # Where each of its field views is drawn: name -> module whose `VIEW_FACTORY` makes it ("list" is built in).
    view_modules: tuple[tuple[str, str], ...] = ()
    # How the system sets the starting distance itself, said at Setup's choice (issue #53, stop 6), which then
    # places the sides only until then; empty: Setup's close, near or far is where the fight starts.
    start_distance: str = ""

    @property
    def package(self) -> str:
        return self.module or f"{__name__}.{self.name}"

    @property
    def label(self) -> str:
        return self.short or self.name

    def field_view(self, profile: str) -> str:
        return dict(self.field_views).get(profile, self.field_views[0][1])

    def choices(self) -> tuple[tuple[str, str, str], ...]:
        """(system, profile, label) of each profile: the editor's System list."""
        labels = self.profile_labels or (self.label,) * len(self.profiles)
        return tuple((self.name, p, lab) for p, lab in zip(self.profiles, labels))


class UnknownSystem(KeyError):
    pass


SYSTEMS: dict[str, SystemInfo] = {}
_loaded: dict[str, Ruleset] = {}
_added: dict[str, SystemInfo] = {}  # registered by hand (tests, experiments), not found in a folder


def _descriptor(name: str) -> SystemInfo | None:
    """The `INFO` of rules/<name>/system.py, read without importing the system's package."""
    full = f"{__name__}.{name}.system"
    mod = sys.modules.get(full)
    if mod is None:
        spec = importlib.machinery.PathFinder.find_spec(full, [os.path.join(p, name) for p in __path__])
        if spec is None:
            return None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[full] = mod
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            sys.modules.pop(full, None)
            raise
    return getattr(mod, "INFO", None)


def discover() -> None:
    """Fill `SYSTEMS` from the folders under fray/rules/ (and those registered by hand), in their order."""
    found = {m.name: _descriptor(m.name) for m in pkgutil.iter_modules(__path__) if m.ispkg}
    found = {k: v for k, v in found.items() if v is not None}
    found.update(_added)
    SYSTEMS.clear()
    SYSTEMS.update(sorted(found.items(), key=lambda kv: (kv[1].order, kv[0])))
    for gone in set(_loaded) - set(SYSTEMS):
        del _loaded[gone]


def info(system: str) -> SystemInfo:
    if system not in SYSTEMS:
        raise UnknownSystem(system)
    return SYSTEMS[system]


def default_system() -> str:
    """The system a new browser and a nameless entry start in: the first in order."""
    return next(iter(SYSTEMS))


def get(system: str) -> Ruleset:
    """The ruleset of a system, importing its package on first use."""
    rs = _loaded.get(system)
    if rs is None:
        module = importlib.import_module(info(system).package)
        rs = module.RULESET
        _loaded[system] = rs
    return rs


def register(system: str, ruleset: Ruleset, system_info: SystemInfo | None = None) -> None:
    """Register a ruleset object directly (tests, experiments) with its descriptor: the one given, else
    the ruleset's own, else a plain one (one profile, played on the list); the ruleset keeps it as `info`."""
    system_info = system_info or ruleset.info or SystemInfo(system, ruleset.title, type(ruleset).__module__,
                                                             tuple(ruleset.profiles))
    if ruleset.info is None:
        ruleset.info = system_info
    _added[system] = system_info
    discover()
    _loaded[system] = ruleset


def unregister(system: str) -> None:
    _added.pop(system, None)
    _loaded.pop(system, None)
    discover()


def examples(system: str) -> dict:
    """A system's ready-made encounters: name -> builder(seed) (imported on demand)."""
    try:
        module = importlib.import_module(info(system).package + ".examples")
    except ImportError:
        return {}
    return module.examples()


def folder_module(system: str, name: str) -> Any:
    """A module of a system's folder that its descriptor names (its creatures...), imported on demand."""
    return importlib.import_module(f"{info(system).package}.{name}")


def titles() -> dict[str, str]:
    return {k: v.title for k, v in SYSTEMS.items()}


discover()
#: The one lookup of every system, installed as the engine's default so that
#: `storage.load(doc)` and `Session(encounter)` find a system by its name.
RULESETS = Lookup(get, lambda: SYSTEMS.keys())
install_default(RULESETS)
