"""A player's phone: the table display's public view, plus what its own PC may know of itself.

The phone is sent exactly the table display's `table_view` (views/table_view.py decides what is secret; nothing here
decides it again) and, for the PC the referee paired it with, `me`: that PC's row of the public
order (its HP, its conditions with their time left), whether it acts now (`turn`), its options
that may be proposed now with their odds figures where the referee's page has worked them out, and
the faces the referee asks of it (`ask`, docs/PHONES.md). A PC that is hidden, gone or not a PC
gets no `me`. While its player may still pick the PC, `party` lists the PCs it may claim. Pure: tested under CPython (tests/unit/test_phone_view.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..engine.commands import Option
from ..engine.state import State
from .odds import CERTAIN
from .table_view import _Secrets, _current

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
    `pc` acts now; only allowed ones that need nothing more typed or picked (a spell, a count, a square:
    the referee's page asks those), that `pc` itself takes (not the referee's own offers: surprise, a
    condition, memory restored), none naming a hidden combatant."""
    if pc not in _current(state):
        return []
    sec = _Secrets(state)
    out = [(i, o.label) for i, o in enumerate(options) if o.allowed and not o.needs and sec.shows(o.label)
           and getattr(o.command, "actor", None) == pc]
    return out[:MAX_OPTIONS]


def phone_view(state: State, table: dict[str, Any], pc: str | None, offered: Iterable[tuple[int, str]] = (),
               figures: dict[str, str] | None = None, ask: Ask | None = None,
               party: Iterable[tuple[str, str]] = ()) -> dict[str, Any]:
    """The phone's whole view: {"table": `table`, the public view the table display is sent (`table_view`,
    as the referee's page built it), "me": its PC's part or None, "party": the PCs (id, name) its player
    may pick, its own left out}; `offered` is `proposable` for this state, `figures` the odds figures by
    option label the referee's page has worked out."""
    row = next((r for r in table.get("order", ()) if r.get("kind") == "combatant" and r.get("id") == pc
                and r.get("pc")), None)
    me = None
    if row is not None:
        figures = figures or {}
        me = {"id": row["id"], "name": row["name"], "hp": row["hp"], "conditions": list(row["conditions"]),
              "down": row["down"], "turn": pc in _current(state),
              "options": [] if ask is not None and ask.pc == pc else  # a die to roll first: one thing at a time
              [{"index": i, "label": label, "figure": _figure(figures.get(label, ""))} for i, label in offered],
              "ask": None if ask is None or ask.pc != pc else
              {"id": ask.id, "sides": ask.sides, "count": ask.count, "words": ask.words()}}
    return {"table": table, "me": me, "party": [{"id": cid, "name": name} for cid, name in party if cid != pc]}


def _figure(fig: str) -> str:
    return "" if fig == CERTAIN else fig
