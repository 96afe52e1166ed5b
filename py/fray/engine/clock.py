"""The clock a system declares: the ticks a timed condition lasts (rounds of 10 s; Ogre's half-second segments).

A `Clock` is a value on the ruleset (`Ruleset.clock`): what one tick is
called and how long it lasts, where the count stands in a state, its next
stop, durations and ticks in words, the header's in-game time, and, for
systems with turns, the turns a combatant has begun (a condition may last
until someone's next turn). A system whose clock reads its own board
subclasses it in its folder.
"""
from __future__ import annotations

from dataclasses import dataclass

from .state import State


def clock_text(seconds: float) -> str:
    """In-game time as a referee says it: "20 s", "7.5 s" under a minute, else "1:10" or "1:05:30"."""
    if seconds < 60:
        return f"{seconds:g} s"
    half = "½" if seconds != int(seconds) else ""
    h_, rest = divmod(int(seconds), 3600)
    m_, s_ = divmod(rest, 60)
    return (f"{h_}:{m_:02d}:{s_:02d}" if h_ else f"{m_}:{s_:02d}") + half


@dataclass(frozen=True)
class Clock:
    """Rounds, by default, of no stated length."""

    unit: str = "round"  # what one tick is called
    tick_seconds: float = 0.0  # in-game seconds a tick lasts (0: the text does not say)

    def now(self, state: State) -> int:
        """Where the count stands, in ticks: the round."""
        return state.round

    def next_tick(self, state: State) -> int:
        """The clock's next stop: the next round."""
        return self.now(state) + 1

    def words(self, ticks: int, at: bool = False) -> str:
        """A number of ticks in words ("2 rounds"), or with `at` the tick itself ("round 3")."""
        if at:
            return f"{self.unit} {ticks}"
        return f"{ticks} {self.unit}" + ("" if ticks == 1 else "s")

    def minute_ticks(self, state: State) -> int:
        """Ticks in an in-game minute (0: a tick has no length)."""
        return round(60 / self.tick_seconds) if self.tick_seconds else 0

    def label(self, state: State) -> str:
        """The header's clock: the in-game time since the fight began ("20 s", "1:10"; CORE-TIME-1), or ""."""
        return clock_text(60 / self.minute_ticks(state) * (state.round - 1)) if state.round and self.tick_seconds \
            else ""

    def turns(self, state: State, who: str) -> tuple[int, bool] | None:
        """Turn-based systems: how many turns `who` has begun so far, and whether one is on now (a condition
        may last until the start or the end of someone's next turn). None: the system has no turns."""
        return None

    def turn_word(self, state: State) -> str:
        """What one of `turns` is called ("turn")."""
        return "turn"
