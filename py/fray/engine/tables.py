"""`Handlers`: a dispatch table from command class to function, filled by decorators."""
from __future__ import annotations

from typing import Any


class Handlers:
    """A dispatch table from command class to function, filled by decorators:

        checks = Handlers("check")
        @checks(Move, Charge)
        def check_move(state, cmd): ...

    `table.get(cmd)` is the function for the command's class (None if none),
    so a ruleset looks commands up instead of running an isinstance chain."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.table: dict[type, Any] = {}

    def __call__(self, *classes: type):
        def register(fn):
            for cls in classes:
                if cls in self.table:
                    raise ValueError(f"{self.name}: {cls.__name__} has two handlers")
                self.table[cls] = fn
            return fn
        return register

    def get(self, cmd: Any):
        return self.table.get(type(cmd))

    def __contains__(self, cls: type) -> bool:
        return cls in self.table
