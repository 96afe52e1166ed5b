"""The lock this tab holds on its library entry, and the channel it hears other tabs on (ui/desk/tabs.py uses it).

Plain bookkeeping: which entry's Web Lock is held or asked for, how to let it
go, the newest request (an older one's answer is ignored), and the callbacks
for another tab's message and for a lock the other tab let go.
"""
from __future__ import annotations

from typing import Any, Callable


class Keeper:
    """The lock this tab holds (or waits for) and the channel it listens on."""

    def __init__(self) -> None:
        self.held = ""  # the entry whose lock is held
        self.wanted = ""  # the entry whose lock was asked for last (held, or the answer is on its way)
        self.release: Any = None  # resolves the held lock's promise (lets it go)
        self.token: object = None  # the latest request: an older one's answer is ignored
        self.channel: Any = None
        self.proxies: list[Any] = []
        self.on_message: Callable[[dict], None] = lambda msg: None
        # The other tab let go (closed, or opened another entry): this one reads the entry again and goes on.
        self.on_free: Callable[[str, Callable[[], None]], None] = lambda rid, done: done()

    def let_go(self) -> None:
        if self.release is not None:
            try:
                self.release()
            except Exception:
                pass
        self.release, self.held, self.wanted = None, "", ""

    def close(self) -> None:
        """Let the lock go, ignore every answer still on its way, stop hearing other tabs (App.close)."""
        self.let_go()
        self.token = object()
        self.on_message = lambda msg: None
        if self.channel is not None:
            self.channel.close()
            self.channel = None
