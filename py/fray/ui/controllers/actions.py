"""Dispatch tables: from a `data-action` name to the function that handles it.

Each ui module that handles actions fills its own tables with a decorator
(`@clicks("undo", "redo")`); the app joins them and looks a name up once,
instead of a chain of string comparisons. A name handled twice is an error
at import, so two modules cannot silently fight over an action.
"""
from __future__ import annotations

from typing import Callable


class Actions:
    """Action name -> handler, filled by decorating the handlers."""

    def __init__(self, kind: str) -> None:
        self.kind = kind  # "click", "form" or "change": what the handlers receive
        self._by_name: dict[str, Callable] = {}

    def __call__(self, *names: str) -> Callable[[Callable], Callable]:
        def add(fn: Callable) -> Callable:
            for name in names:
                self._add(name, fn)
            return fn
        return add

    def _add(self, name: str, fn: Callable) -> None:
        if name in self._by_name:
            raise ValueError(f"{self.kind} action {name!r} is handled twice")
        self._by_name[name] = fn

    def get(self, name: str) -> Callable | None:
        return self._by_name.get(name)

    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    @classmethod
    def join(cls, *tables: "Actions") -> "Actions":
        """One table holding every table's actions (all of one kind)."""
        joined = cls(tables[0].kind)
        for table in tables:
            assert table.kind == joined.kind, (table.kind, joined.kind)
            for name, fn in table._by_name.items():
                joined._add(name, fn)
        return joined
