"""`GridRules`: the queries of a tactical grid, an object a system with a grid declares (`Ruleset.grid`).

A system without a grid declares none (`Ruleset.grid` is None). The grid's view, its path preview and the
seeded playouts ask these; the geometry they work on is generic (engine/geometry.py, engine/paths.py), the
rules differ: who threatens, who is braced, how far a command may move, which paths a move may take, and the
rule ids the grid cites.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Mapping

from .commands import Command
from .state import State

if TYPE_CHECKING:  # the geometry is imported when a grid is first asked, as before
    from .geometry import Body


class GridRules:
    """The grid queries a system answers; each system with a grid subclasses it. The defaults are the
    bare geometry: every placed creature as a body, nobody braced, no allowance, no ready-made paths."""

    # The rule ids the grid view cites: "aoo", "threat", "withdraw", and where the system has them "brace",
    # "ranged", "reach_weapon"; "no_threat" is its sentence for a creature that threatens nothing.
    rule_ids: Mapping[str, str] = MappingProxyType({})

    def bodies(self, state: State) -> list[Body]:
        """The grid's view of every placed creature: who threatens and how far. Systems refine it
        (flat-footed, pinned)."""
        from .geometry import body_of
        return [b for c in state.combatants if (b := body_of(c)) is not None]

    def braced(self, state: State) -> frozenset[str]:
        """Who stands braced against a charge (the grid's charge preview); nobody unless the system says."""
        return frozenset()

    def move_allowance(self, state: State, actor: str, cmd: Command) -> int | None:
        """Feet the actor may still move with this command (the grid's path preview compares against it);
        None when the system does not say."""
        return None

    def suggest_paths(self, state: State, actor: str, command: Command | None = None) -> list:
        """Ready-made grid paths for an actor, (kind, label, path) each; for a command that needs a path,
        only paths it can take (playout, conformance tests, the preview)."""
        return []
