"""The one registry of rule systems: a `SystemInfo` a system, each system's
package imported only when it is first used (start-up imports only the
active one, PERF-NOTES).

Adding a system is one package under fray/rules/ (the same module names as
the others: ARCHITECTURE.md) plus one `SystemInfo` here; the editor, the
views and the page derive their lists from this table, and the conformance
test plays every registered system.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from ..engine.ruleset import Lookup, Ruleset, install_default


@dataclass(frozen=True)
class SystemInfo:
    """What the page needs to know of a system before importing it."""

    name: str
    title: str
    module: str
    profiles: tuple[str, ...] = ("",)
    # The field each profile plays on ("bands", "grid", "list"); the first
    # entry is the default for a profile not listed.
    field_views: tuple[tuple[str, str], ...] = (("", "bands"),)
    # More views shown with the field, in order ("declarations", "before", "ruler").
    extra_views: tuple[str, ...] = ()

    def field_view(self, profile: str) -> str:
        return dict(self.field_views).get(profile, self.field_views[0][1])


SYSTEMS: dict[str, SystemInfo] = {
    "olog": SystemInfo("olog", "OLOG: Combat and Pressure", "fray.rules.olog",
                       field_views=(("", "bands"),)),
    "ose": SystemInfo("ose", "OSE house rules: Combat and Tactical Actions", "fray.rules.ose",
                      profiles=("loose", "detailed"),
                      # OSE-LOOSE-1: loose combat is a plain list; detailed plays on the grid.
                      field_views=(("loose", "list"), ("detailed", "grid")),
                      extra_views=("declarations",)),  # OSE-DECL-1
    "ogre": SystemInfo("ogre", "Ogre Character Codex: Combat Sequence", "fray.rules.ogre",
                       field_views=(("", "grid"),),
                       extra_views=("before", "ruler")),  # OGRE-SUR-1, OGRE-SEG-1
}

_loaded: dict[str, Ruleset] = {}


class UnknownSystem(KeyError):
    pass


def info(system: str) -> SystemInfo:
    if system not in SYSTEMS:
        raise UnknownSystem(system)
    return SYSTEMS[system]


def get(system: str) -> Ruleset:
    """The ruleset of a system, importing its package on first use."""
    rs = _loaded.get(system)
    if rs is None:
        module = importlib.import_module(info(system).module)
        rs = module.RULESET
        _loaded[system] = rs
    return rs


def register(system: str, ruleset: Ruleset, system_info: SystemInfo | None = None) -> None:
    """Register a ruleset object directly (tests, experiments); its SystemInfo
    is read off the ruleset unless one is given."""
    SYSTEMS[system] = system_info or SystemInfo(
        system, ruleset.title, type(ruleset).__module__, tuple(ruleset.profiles),
        field_views=tuple((p, ruleset.field_view_for(p)) for p in ruleset.profiles),
        extra_views=ruleset.extra_views(ruleset.profiles[0]))
    _loaded[system] = ruleset


def unregister(system: str) -> None:
    SYSTEMS.pop(system, None)
    _loaded.pop(system, None)


def examples(system: str) -> dict:
    """A system's ready-made encounters: name -> builder(seed) (imported on demand)."""
    try:
        module = importlib.import_module(info(system).module + ".examples")
    except ImportError:
        return {}
    return module.examples()


def titles() -> dict[str, str]:
    return {k: v.title for k, v in SYSTEMS.items()}


#: The one lookup of every system, installed as the engine's default so that
#: `storage.load(doc)` and `Session(encounter)` find a system by its name.
RULESETS = Lookup(get, lambda: SYSTEMS.keys())
install_default(RULESETS)
