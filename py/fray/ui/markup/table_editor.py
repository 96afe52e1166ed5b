"""The editor of a table setting (OSE's Turn Undead table, OSE-TURN-1) as a dialog: a grid of small inputs.

Rows are the table's keys (undead Hit Dice), columns the positions in each row
(Warpriest level 1, 2, ... the last column being "and above"). Every cell is an
ordinary editor field, `data-path="settings/<key>/<row>/<col>"`, so a change
goes through the same draft and validation as the rest of the setup (a step
that Undo takes back). Cells the rules could not read are flagged in the
dialog; the table is still saved, and the rules treat such a cell as "-"
(cannot turn). Pure: no browser imports.
"""
from __future__ import annotations

import copy
from typing import Any

from ...engine.specs import Setting
from ...rules import SYSTEMS
from .html import Markup, h, with_rules

LEGEND = "A number is the 2d6 roll needed; T turns, D destroys, - cannot turn."


def table_setting(system: str, key: str) -> Setting | None:
    """The table setting `key` of a system, or None."""
    if system not in SYSTEMS:
        return None
    from ...rules import get

    return next((s for s in get(system).settings() if s.key == key and s.kind == "table"), None)


def with_table(doc: dict[str, Any], key: str) -> dict[str, Any]:
    """The draft with the table written out (its default when absent), so every cell has a path to edit."""
    spec = table_setting(doc.get("system", ""), key)
    if spec is None or key in doc.get("settings", {}):
        return doc
    new = copy.deepcopy(doc)
    new.setdefault("settings", {})[key] = {r: list(v) for r, v in spec.default.items()}
    return new


def cell_problem(value: Any) -> str:
    """Why the rules cannot use a cell ("" when they can): they read T, D, - or a 2d6 target (as OSE-TURN-1's
    `ose_turn.entry` does, which counts anything else as "-")."""
    text = str(value).strip().upper()
    if text in ("T", "D", "-"):
        return ""
    if not text.isdigit():
        return f'"{value}" is not a number, T, D or -: it counts as - (cannot turn)'
    if not 2 <= int(text) <= 12:
        return f"{text} cannot be rolled on 2d6"
    return ""


def columns(default: dict[str, Any]) -> list[str]:
    n = max((len(v) for v in default.values()), default=0)
    return [str(i + 1) + ("+" if i == n - 1 else "") for i in range(n)]


def render(doc: dict[str, Any], key: str, problems: list[str]) -> Markup:
    """The dialog for the table setting `key` of the draft `doc`."""
    spec = table_setting(doc.get("system", ""), key)
    if spec is None:
        return Markup("")
    table = doc.get("settings", {}).get(key, spec.default)
    cols = columns(spec.default)
    head = h("tr", None, h("th", {"scope": "col", "class_": "corner"}, "HD \\ level"),
             [h("th", {"scope": "col"}, c) for c in cols])
    rows, bad = [], []
    for row in spec.default:
        cells = []
        values = table.get(row, spec.default[row])
        for i, _ in enumerate(cols):
            value = values[i] if i < len(values) else ""
            problem = cell_problem(value)
            if problem:
                bad.append(f"HD {row}, level {cols[i]}: {problem}")
            cells.append(h("td", None, h("input", {
                "type": "text", "class_": "cell" + (" bad" if problem else ""), "value": str(value),
                "data-path": f"settings/{key}/{row}/{i}", "data-kind": "text", "data-testid": f"cell-{row}-{i}",
                "maxlength": "3", "size": "2", "autocomplete": "off", "spellcheck": "false",
                "aria-label": f"Undead of {row} Hit Dice against a level {cols[i]} Warpriest",
                "aria-invalid": "true" if problem else None, "title": problem or None})))
        rows.append(h("tr", None, h("th", {"scope": "row"}, row), cells))
    warn = h("ul", {"class_": "problems", "role": "alert", "data-testid": "table-problems"},
             [h("li", None, p) for p in problems + bad]) if problems or bad else ""
    return h("div", {"class_": "modal", "role": "dialog", "aria-modal": "true", "aria-labelledby": "table-t",
                     "data-testid": "table-dialog"},
             h("div", {"class_": "modal-box table-box"},
               h("h2", {"id": "table-t"}, spec.label),
               warn,
               h("div", {"class_": "table-scroll"},
                 h("table", {"class_": "turn-table", "data-testid": "turn-table"}, h("thead", None, head),
                   h("tbody", None, rows))),
               # After the cells, so the dialog opens with the focus in the first one.
               h("p", {"class_": "muted"}, LEGEND, " ", with_rules(spec.rule) if spec.rule else "",
                 " Each change is saved with the encounter (Undo takes it back)."),
               h("div", {"class_": "row"},
                 h("button", {"type": "button", "data-action": "cancel", "data-testid": "table-done"}, "Done"))))
