"""The paste dialog as markup: the text box, then each creature read as a card of rows beside its unread parts.

Pure functions of the view model (views/paste.py); every text the referee
pasted or typed goes through `h`, which escapes it. ui/controllers/paste_ui.py handles
its actions; ui/editing.py shows it under the roster picker.
"""
from __future__ import annotations

from ...views.paste import Card, PasteState, Row, cards, ready
from .html import Markup, h

MAX_COPIES = 40


def panel(state: PasteState, system_title: str) -> Markup:
    """The dialog: closed, one button; open, the text box, the paste's problem, and each creature's card."""
    toggle = h("button", {"type": "button", "data-action": "paste-open", "data-testid": "paste-open",
                          "aria-expanded": "true" if state.open else "false", "class_": "paste-toggle"},
               "Paste stat blocks" if not state.open else "Close the pasted stat blocks")
    if not state.open:
        return h("div", {"class_": "paste", "data-testid": "paste"}, toggle)
    todo = ready(state)
    head = h("div", {"class_": "paste-in"},
             h("label", {"class_": "f paste-text"},
               h("span", None, f"Stat blocks ({system_title}): one or several, as the adventure prints them"),
               h("textarea", {"data-action": "paste-text", "data-testid": "paste-text", "rows": "5",
                              "spellcheck": "false", "aria-describedby": "paste-hint",
                              "placeholder": "Goblin (3): AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), "
                                             "THAC0 19 [0], MV 60' (20'), ML 7"}, state.text)),
             h("p", {"class_": "muted", "id": "paste-hint"},
               "Nothing is added until you say so: each creature is shown field by field, with what was not "
               "understood beside it (docs/ROSTER.md lists the forms)."),
             h("div", {"class_": "row"},
               h("button", {"type": "button", "data-action": "paste-read", "data-testid": "paste-read"}, "Read"),
               h("label", {"class_": "chk"},
                 h("input", {"type": "checkbox", "data-action": "paste-roll", "data-testid": "paste-roll",
                             "checked": state.roll}), "Roll each copy's hit points from its Hit Dice"),
               h("button", {"type": "button", "data-action": "paste-add-all", "data-testid": "paste-add-all",
                            "class_": "primary"}, f"Add all {len(todo)} to the encounter") if len(todo) > 1 else ""))
    error = h("p", {"class_": "problems", "role": "alert", "data-testid": "paste-error"}, state.error) \
        if state.error else ""
    report = h("p", {"class_": "roster-report", "role": "status", "data-testid": "paste-report"}, state.report) \
        if state.report else ""
    return h("section", {"class_": "paste", "data-testid": "paste", "aria-label": "Paste stat blocks"},
             toggle, head, error, report,
             h("ol", {"class_": "paste-cards", "data-testid": "paste-cards"},
               [card(c, len(state.blocks) <= 2) for c in cards(state)]))


def card(c: Card, unfolded: bool = True) -> Markup:
    """A creature's card: name and copies, its summary, its parts read (folded when several creatures are
    read and this one is ready; a refused one always unfolded), the unread parts, its buttons."""
    i = c.index
    status = ("added" if c.added else "ready" if c.ok else "refused")
    body = h("table", {"class_": "paste-fields"},
             h("thead", None, h("tr", None, h("th", {"scope": "col"}, "Text"), h("th", {"scope": "col"}, "Read as"))),
             h("tbody", None, [row(i, j, r) for j, r in enumerate(c.rows)]))
    unread = h("div", {"class_": "paste-unread", "data-testid": f"paste-unread-{i}"},
               h("h4", None, f"Not understood ({len(c.unread)})"),
               h("ul", None, [h("li", None, u) for u in c.unread]) if c.unread else
               h("p", {"class_": "muted"}, "Every part was read."))
    problem = h("p", {"class_": "problems", "role": "alert"}, c.problem) if c.problem else ""
    actions = h("div", {"class_": "row"},
                h("button", {"type": "button", "data-action": f"paste-add:{i}", "data-testid": f"paste-add-{i}",
                             "disabled": not c.ok, "aria-label": f"Add {c.count} × {c.name} to the encounter"},
                  "Add to the encounter" if not c.added else "Add again"),
                h("button", {"type": "button", "data-action": f"paste-roster:{i}", "data-testid": f"paste-roster-{i}",
                             "disabled": not c.ok, "class_": "small"}, "Save to roster"))
    return h("li", {"class_": f"paste-card {status}", "data-testid": f"paste-card-{i}"},
             h("div", {"class_": "paste-head"},
               h("label", {"class_": "f"}, h("span", None, "Name"),
                 h("input", {"type": "text", "value": c.name, "maxlength": "80", "data-action": f"paste-name:{i}",
                             "data-testid": f"paste-name-{i}", "aria-label": f"Name of creature {i + 1}"})),
               h("label", {"class_": "f"}, h("span", None, "Copies"),
                 h("input", {"type": "number", "min": "1", "max": str(MAX_COPIES), "value": str(c.count),
                             "inputmode": "numeric", "data-action": f"paste-count:{i}",
                             "data-testid": f"paste-count-{i}", "aria-label": f"Copies of {c.name}"})),
               h("p", {"class_": "paste-summary", "data-testid": f"paste-summary-{i}"},
                 ("Added · " if c.added else "") + c.summary)),
             problem,
             h("div", {"class_": "paste-body"},
               h("details", {"class_": "paste-more", "open": unfolded or not c.ok, "data-testid": f"paste-more-{i}"},
                 h("summary", None, f"Read field by field ({len(c.rows)} parts)"), body), unread), actions)


def row(i: int, j: int, r: Row) -> Markup:
    values = h("ul", {"class_": "paste-values"}, [h("li", None, h("b", None, label), " ", value)
                                                  for label, value in r.values])
    return h("tr", {"class_": "refused" if r.problem else "", "data-testid": f"paste-row-{i}-{j}"},
             h("td", None, h("input", {"type": "text", "value": r.words, "maxlength": "400",
                                       "data-action": f"paste-fix:{i}:{r.start}:{r.end}",
                                       "data-testid": f"paste-fix-{i}-{j}",
                                       "placeholder": "type the missing part (HP 6)" if not r.words else "",
                                       "aria-invalid": "true" if r.problem else "false",
                                       "aria-label": f"Text read as {', '.join(v[0] for v in r.values)}"})),
             h("td", None, values, h("p", {"class_": "why", "role": "alert"}, r.problem) if r.problem else ""))
