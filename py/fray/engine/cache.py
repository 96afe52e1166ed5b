"""The one helper for module-level caches: `Cache` for derived values, `cached` for pure functions.

A value derived from frozen records (states, combatants, maps never change)
can be kept and handed out again. Every module-level cache, the page's kept
markup included, is one of these two, bounded, and listed here, so `clear_all`
empties them all (a test that wants a cold start, a page that frees memory).
"""
from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

T = TypeVar("T")
_MISSING = object()
_ALL: list[Any] = []  # every Cache and cached function, for clear_all


class Cache:
    """At most `size` derived values by key, emptied when full. An entry may be
    kept with the objects it was derived from (`same`): it is found again only
    while the caller passes those very objects (compared by identity, so a
    large tuple of combatants is never hashed or compared field by field)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: dict[Any, tuple[tuple, Any]] = {}
        _ALL.append(self)

    def get(self, key: Any, make: Callable[[], T], same: tuple = (), equal: bool | tuple[bool, ...] = False) -> T:
        """The value kept for `key` if it was made from the objects `same`, else `make()`, kept. With
        `equal` (for all of `same`, or one flag each), objects equal to those (compared after identity)
        count as the same: a new frozen model that draws as the old one did reuses its markup, and a key
        that cannot be hashed (options holding lists) can be kept in `same` instead of `key`."""
        entry = self._entries.get(key, _MISSING)
        if entry is not _MISSING:
            kept, value = entry
            flags = equal if isinstance(equal, tuple) else (equal,) * len(same)
            if len(kept) == len(same) and all(a is b or (e and a == b) for a, b, e in zip(kept, same, flags)):
                return value
        if len(self._entries) >= self.size:
            self._entries.clear()
        value = make()
        self._entries[key] = (same, value)
        return value

    def __len__(self) -> int:
        return len(self._entries)

    def cache_clear(self) -> None:
        self._entries.clear()


def cached(size: int | None) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A pure function of hashable arguments, its results kept (at most `size`;
    None: every one, for a small closed set such as reach offsets)."""
    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        kept = functools.lru_cache(maxsize=size)(fn)
        _ALL.append(kept)
        return kept
    return wrap


def clear_all() -> None:
    """Empty every module-level cache."""
    for cache in _ALL:
        cache.cache_clear()
