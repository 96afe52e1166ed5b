"""The registry of rule systems: one module a system, imported only when used.

Adding a system is one module under fray/rules/ plus one line here; the
conformance test plays every registered system.
"""
from __future__ import annotations

import importlib

from ..engine.ruleset import Ruleset

# system name -> (module, title, profiles)
SYSTEMS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "olog": ("fray.rules.olog", "OLOG: Combat and Pressure", ("",)),
    "ose": ("fray.rules.ose", "OSE house rules: Combat and Tactical Actions", ("loose", "detailed")),
    "ogre": ("fray.rules.ogre", "Ogre Character Codex: Combat Sequence", ("",)),
}

_loaded: dict[str, Ruleset] = {}


class UnknownSystem(KeyError):
    pass


def get(system: str) -> Ruleset:
    """The ruleset of a system, importing its module on first use (start-up
    imports only the active system, PERF-NOTES)."""
    rs = _loaded.get(system)
    if rs is None:
        if system not in SYSTEMS:
            raise UnknownSystem(system)
        module = importlib.import_module(SYSTEMS[system][0])
        rs = module.RULESET
        _loaded[system] = rs
    return rs


def register(system: str, ruleset: Ruleset) -> None:
    """Register a ruleset object directly (tests, experiments)."""
    _loaded[system] = ruleset


def examples(system: str) -> dict:
    """A system's ready-made encounters: name -> builder(seed) (imported on demand)."""
    if system not in SYSTEMS:
        raise UnknownSystem(system)
    try:
        module = importlib.import_module(SYSTEMS[system][0] + "_examples")
    except ImportError:
        return {}
    return module.examples()


def titles() -> dict[str, str]:
    return {k: v[1] for k, v in SYSTEMS.items()}
