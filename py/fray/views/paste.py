"""The paste dialog's view model: the stat blocks read, each a card of rows (the words, what they gave, why refused).

The setup editor's "Paste stat blocks" (ui/controllers/paste_ui.py handles it,
ui/markup/paste_markup.py draws it) keeps a `PasteState`; `cards` turns the blocks
read (fray/stat_blocks.py) into what the page shows: one row per part of the
text, with the values read from it and the problem at it, so the referee can
fix that part where it is refused; the parts left unread beside.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.stat_block import Block


@dataclass
class PasteState:
    """The dialog's state: open or not, the text pasted, the blocks read from it and the copies asked of
    each, whether copies roll their hit points, the paste's own problem and the last report."""

    open: bool = False
    text: str = ""
    blocks: list[Block] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)
    added: set[int] = field(default_factory=set)
    roll: bool = False
    error: str = ""
    report: str = ""

    def count(self, i: int) -> int:
        return self.counts.get(i, self.blocks[i].count)

    def clear(self) -> None:
        self.text, self.blocks, self.counts, self.added, self.error, self.report = "", [], {}, set(), "", ""


@dataclass(frozen=True)
class Row:
    """One part of a block's text: the words (what the referee fixes), the values read from it, and why
    a value is refused ("" when none is). `start`/`end` locate the words in the block; a missing field
    has both at the block's end (what is typed there is added on a line of its own)."""

    words: str
    values: tuple[tuple[str, str], ...]
    problem: str
    start: int
    end: int


@dataclass(frozen=True)
class Card:
    """One creature as read: its name, copies, rows, the unread parts, the block's own problem."""

    index: int
    name: str
    count: int
    rows: tuple[Row, ...]
    unread: tuple[str, ...]
    problem: str
    ok: bool
    added: bool
    summary: str


def shown(key: str, value: Any) -> str:
    """A value as the card shows it: weapons one by one ("2 × Claw 1d3, +1"), others as they are."""
    if value is None:
        return "—"
    if key == "weapons":
        return "; ".join((f"{w['count']} × " if w.get("count", 1) > 1 else "") + f"{w['name']} {w['damage']}"
                         + (f", {w['to_hit']:+d}" if w.get("to_hit") else "") for w in value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def rows(block: Block) -> tuple[Row, ...]:
    """The block's parts in the order of the text, the fields read from each part together."""
    by_span: dict[tuple[int, int], list] = {}
    for f in block.fields:
        if f.key in ("name", "count"):
            continue
        span = (f.start, f.end) if f.text else (len(block.text), len(block.text))
        by_span.setdefault(span, []).append(f)
    out = []
    for (start, end), fields in sorted(by_span.items()):
        words = fields[0].text
        values = tuple((f.label, shown(f.key, f.value)) for f in fields)
        problem = "; ".join(f"{f.label}: {f.problem}" if len(fields) > 1 else f.problem for f in fields
                            if f.problem)
        out.append(Row(words, values, problem, start, end))
    return tuple(out)


def summary(block: Block, count: int) -> str:
    """One line: "3 × Goblin · HP 3 · AC 13 · Weapon 1d6"; a value refused or missing is "?"."""
    def value(key: str) -> str:
        return "?" if block.get(key) is None else str(block.get(key))
    weapons = block.field("weapons")
    attacks = "attacks to fix" if weapons is not None and weapons.problem else \
        shown("weapons", weapons.value) if weapons is not None else "no weapons"
    return f"{count} × {block.name} · HP {value('hp')} · AC {value('ac')} · {attacks}"


def cards(state: PasteState) -> tuple[Card, ...]:
    return tuple(Card(i, b.name, state.count(i), rows(b), b.unread, b.problem, b.ok, i in state.added,
                      summary(b, state.count(i)))
                 for i, b in enumerate(state.blocks))


def ready(state: PasteState) -> list[int]:
    """The blocks "Add all" adds: read without a problem and not added yet."""
    return [i for i, b in enumerate(state.blocks) if b.ok and i not in state.added]
