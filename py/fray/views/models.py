"""The plain records every panel is drawn from, shared by all systems.

Each system's view module (the one its descriptor names as `view`)
exposes `SystemView` hooks that turn a State into these records; the page
(`ui/`) only draws them. Everything here is pure data, tested under CPython.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..engine.cache import cached
from ..engine.state import State


@cached(1024)
def initials(name: str) -> str:
    """Token letters: "Goblin 1" -> "G1", "Orc spearman" -> "OS", "Brak" -> "Br"."""
    words = [w for w in re.split(r"[\s_-]+", name.strip()) if w]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].title()
    last = words[-1]
    if last.isdigit():
        return (words[0][0] + last)[:3].upper()
    return (words[0][0] + last[0]).upper()


@dataclass(frozen=True)
class Badge:
    """A state shown on a token and in the order list: icon AND word (UI
    principle 6: colour is never alone), with the rule id it comes from."""

    icon: str  # one character or short glyph, e.g. "⚔", "✦", "‖" (glyphs DejaVu Sans has: no emoji, which many machines lack)
    word: str  # "pressure 2", "casting", "flat-footed"
    title: str = ""  # the sentence shown on hover/tap
    rule: str = ""
    tone: str = "info"  # "info" | "warn" | "danger" | "ok"
    left: str = ""  # a timed state's time left, in the system's clock ("2 rounds left", "until its next turn")
    left_secret: bool = False  # the time left is the referee's alone (turned undead's secret minutes, OSE-TURN-3)

    @property
    def said(self) -> str:
        """The word with the time left, as the referee's page says it."""
        return f"{self.word} · {self.left}" if self.left else self.word


@dataclass(frozen=True)
class OrderRow:
    """One line of the order/turn panel: a side header or a combatant."""

    kind: str  # "side" | "combatant"
    id: str
    name: str
    detail: str = ""  # "init 17", "d12: 9", "segment 14"
    side: str = ""
    is_current: bool = False
    is_down: bool = False
    hp: int | None = None
    max_hp: int | None = None
    badges: tuple[Badge, ...] = ()
    draggable: bool = False  # the referee may drag it to reorder (OLOG-INIT-4)


@dataclass(frozen=True)
class Hint:
    """A line on the actor's card that saves the referee a computation, e.g.
    "Under pressure from 2: pressing on costs d4 (min 2)" (OLOG-PRES-4/5)."""

    text: str
    rule: str = ""
    tone: str = "info"


@dataclass(frozen=True)
class SystemPanel:
    """What the shell shows around the field for the current state."""

    status: str  # header line: "Round 2 · Party acts · MISSILE step"
    order: tuple[OrderRow, ...]
    hints: dict[str, tuple[Hint, ...]] = field(default_factory=dict)  # per actor id
    badges: dict[str, tuple[Badge, ...]] = field(default_factory=dict)  # per combatant id
    phase: str = ""  # a short word for tests and styling: "declare", "act", "advance"...
    extra: dict[str, Any] = field(default_factory=dict)


class SystemView:
    """Hooks a system's view module implements; defaults suit a simple system."""

    def panel(self, state: State) -> SystemPanel:
        rows = tuple(
            OrderRow("combatant", c.id, c.name, side=c.side, is_down=c.is_down, hp=c.hp, max_hp=c.max_hp)
            for c in state.combatants)
        return SystemPanel(status=f"Round {state.round}", order=rows)

    # --- the players' table display (views/table_view.py) ---------------------------------
    def table_status(self, state: State) -> str:
        """The table's status line when the panel's would say too much ("" = the panel's own)."""
        return ""

    def declarations_public(self, state: State) -> bool:
        """Whether the table sees a monster's declared action before it resolves."""
        return True

    def spoken_declarations(self, state: State) -> dict[str, tuple[str, str]]:
        """Declarations made aloud at the table, to show as they are made: id -> (action, spell)."""
        return {}

    # --- the fight's summary (views/recap.py) ------------------------------------------------
    def recap(self, first: State, last: State, events: tuple) -> Any:
        """The system's own figures for the summary, from the first and last states and every
        (step, event) between them: a `views.recap.SystemRecap` (OSE: XP and ammunition, OSE-RES-1)."""
        from .recap import SystemRecap
        return SystemRecap()
