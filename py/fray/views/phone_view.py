"""A player's phone: the table display's public view, plus what its own PC may know of itself.

The phone is sent exactly `table_view` (views/table_view.py decides what is secret; nothing here
decides it again) and, for the PC the referee paired it with, `me`: that PC's row of the public
order (its HP, its conditions with their time left), whether it acts now (`turn`), its options
that may be proposed now with their odds figures where the referee's page has worked them out, and
the faces the referee asks of it (`ask`, docs/PHONES.md). A PC that is hidden, gone or not a PC
gets no `me`. Pure: tested under CPython (tests/unit/test_phone_view.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..engine.commands import Option
from ..engine.state import State
from .odds import CERTAIN
from .table_view import _Secrets, _current, table_view

MAX_OPTIONS = 24  # options a phone lists: the rest stay on the referee's page


@dataclass(frozen=True)
class Ask:
    """Faces the referee's page waits for from one PC's player: `count` d`sides` for `purpose`."""
    id: int
    pc: str
    sides: int
    count: int
    purpose: str

    def words(self) -> str:
        """"d20 to hit Orc 1": the die and what it is for, as the phone says it."""
        n = f"{self.count}d{self.sides}" if self.count > 1 else f"d{self.sides}"
        return f"{n} {self.purpose}".strip()


def proposable(state: State, pc: str, options: Iterable[Option]) -> list[tuple[int, str]]:
    """The options a phone may propose for `pc` now, by their index in the referee's list: none unless
    `pc` acts now; only allowed ones, none naming a hidden combatant."""
    if pc not in _current(state):
        return []
    sec = _Secrets(state)
    out = [(i, o.label) for i, o in enumerate(options) if o.allowed and sec.shows(o.label)]
    return out[:MAX_OPTIONS]


def phone_view(state: State, steps: Iterable = (), pc: str | None = None, field: str = "list",
               extra: tuple[str, ...] = (), title: str = "", panel=None, offered: Iterable[tuple[int, str]] = (),
               figures: dict[str, str] | None = None, ask: Ask | None = None) -> dict[str, Any]:
    """The phone's whole view: {"table": the public view, "me": its PC's part or None}; `offered` is
    `proposable` for this state, `figures` the odds figures by option label the referee's page has."""
    table = table_view(state, steps, field, extra, title, panel)
    row = next((r for r in table["order"] if r["kind"] == "combatant" and r["id"] == pc and r["pc"]), None)
    me = None
    if row is not None:
        figures = figures or {}
        me = {"id": row["id"], "name": row["name"], "hp": row["hp"], "conditions": list(row["conditions"]),
              "down": row["down"], "turn": pc in _current(state),
              "options": [{"index": i, "label": label, "figure": _figure(figures.get(label, ""))}
                          for i, label in offered],
              "ask": None if ask is None or ask.pc != pc else
              {"id": ask.id, "sides": ask.sides, "count": ask.count, "words": ask.words()}}
    return {"table": table, "me": me}


def _figure(fig: str) -> str:
    return "" if fig == CERTAIN else fig
