"""The setup's roster picker as markup: search, the system filter, copies, the entries found, the party. Pure.

ui/page/setup_form.py hands it what the roster holds (ui/desk/roster_entries.py) and the starter bestiary;
the taps are ui/controllers/roster_ui.py's.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ... import bestiary, roster
from .html import Markup, h

SHOWN = 60  # entries listed at once (search narrows the rest)


def picker(found: Sequence[dict[str, Any]], *, saved: int, starters: int, systems: Mapping[str, str],
           system: str, query: str, count: int, count_why: str, report: str, party: int, shows_report: bool = True
           ) -> Markup:
    """The picker: the entries `found` (the first SHOWN), `saved` and `starters` counted in its title, the
    filter's `systems` (name -> short label, in order; `system` chosen, "" all), the search `query`, the
    copies to add (`count_why`: why it is not what was typed), the last report (unless `shows_report` is
    false: with nobody in the encounter it is said under the start's "Add the party") and "Add the party"
    (`party` members)."""
    names = dict(systems)  # short: the picker fits a phone
    options = [h("option", {"value": "", "selected": system == ""}, "All systems")] + \
        [h("option", {"value": s, "selected": s == system}, names.get(s, s)) for s in systems]
    rows = []
    for e in found[:SHOWN]:
        c = e["combatant"]
        tag = "starter" if bestiary.is_starter(e["id"]) else ("PC" if e["pc"] else "")
        rows.append(h("li", {"class_": "roster-row", "data-testid": f"roster-{e['id']}"},
                      h("span", {"class_": "roster-name"}, e["name"]),
                      h("span", {"class_": "muted"}, f" {names.get(e['system'], 'any system')} · "
                                                     f"HP {c.get('max_hp', '?')} · AC {c.get('ac', '?')}"
                                                     + (f" · {tag}" if tag else "")
                                                     + (f" · {', '.join(e['tags'])}" if e.get("tags") else "")),
                      h("span", {"class_": "row"},
                        h("button", {"type": "button", "data-action": f"roster-add:{e['id']}",
                                     "data-testid": f"roster-add-{e['id']}",
                                     "aria-label": f"Add {e['name']}"}, "Add"),
                        "" if bestiary.is_starter(e["id"]) else
                        h("button", {"type": "button", "data-action": f"roster-remove:{e['id']}", "class_": "small danger",
                                     "aria-label": f"Remove {e['name']} from the roster"}, "×"))))
    more = h("p", {"class_": "muted"}, f"{len(found) - SHOWN} more: search to narrow the list.") \
        if len(found) > SHOWN else ""
    return h("details", {"class_": "roster", "data-testid": "roster", "open": True},
             h("summary", None, f"Roster ({saved} saved, {starters} starter creatures)"),
             h("div", {"class_": "roster-tools"},
               h("label", {"class_": "f"}, h("span", None, "Search"),
                 h("input", {"type": "search", "data-action": "roster-search", "value": query,
                             "data-testid": "roster-search", "placeholder": "Name or tag (undead…)",
                             "aria-label": "Search the roster by name or tag",
                             "maxlength": "80"})),
               h("label", {"class_": "f"}, h("span", None, "System"),
                 h("select", {"data-action": "roster-system", "data-testid": "roster-system",
                              "aria-label": "Roster system"}, options)),
               h("label", {"class_": "f f-invalid" if count_why else "f"}, h("span", None, "Copies"),
                 h("input", {"type": "number", "min": "1", "max": str(roster.MAX_COPIES), "value": str(count),
                             "data-action": "roster-count", "data-testid": "roster-count", "inputmode": "numeric",
                             "aria-label": "How many copies to add",
                             "aria-describedby": "roster-count-why" if count_why else None}),
                 h("span", {"class_": "f-why", "id": "roster-count-why", "data-testid": "roster-count-why"},
                   count_why) if count_why else ""),
               party_button(party, "roster-party")),
             report_line(report, "roster-report") if shows_report else "",
             h("ul", {"class_": "roster-list", "data-testid": "roster-list"}, rows) if rows
             else h("p", {"class_": "muted"}, "Nothing in the roster matches."),
             more,
             h("div", {"class_": "row"},
               h("button", {"type": "button", "data-action": "roster-export", "data-testid": "roster-export",
                            "class_": "small"}, "Export the roster"),
               h("button", {"type": "button", "data-action": "roster-import", "data-testid": "roster-import",
                            "class_": "small"}, "Import a roster…")))


def report_line(text: str, testid: str) -> Markup | str:
    """The roster's last report; with nobody in the encounter it is said under the start's "Add the party"."""
    return h("p", {"class_": "roster-report", "role": "status", "data-testid": testid}, text) if text else ""


def party_button(n: int, testid: str) -> Markup:
    """Never disabled: with no party saved yet, a tap says how to make one."""
    return h("button", {"type": "button", "data-action": "roster-party", "data-testid": testid,
                        "title": "Add every saved PC of the party" if n else
                        "No party saved yet: a tap says how to save one"}, f"Add the party ({n})")


def quick_party(text: str, problems: Sequence[str], classes: Sequence[str]) -> Markup:
    """The first visit's quick party (issue #53): names one a line, each with one of the system's `classes`
    after a colon; the `problems` of the last try are said at the field, one a line."""
    kinds = ", ".join(classes)
    wrong = bool(problems)
    return h("div", {"class_": "quick-party", "data-testid": "quick-party"},
             h("label", {"class_": "f f-invalid" if wrong else "f"},
               h("span", None, f"Quick party: one name a line, a class after a colon ({kinds})"),
               h("textarea", {"data-action": "quick-party-text", "data-testid": "quick-party-text", "rows": "4",
                              "maxlength": "2000", "spellcheck": "false", "aria-invalid": "true" if wrong else None,
                              "aria-describedby": "quick-party-why" if wrong else None,
                              "placeholder": "Mira: fighter\nBrak: cleric\nSela"}, text)),
             h("div", {"id": "quick-party-why", "data-testid": "quick-party-why", "role": "alert"},
               [h("p", {"class_": "f-why"}, p) for p in problems]) if wrong else "",
             h("button", {"type": "button", "data-action": "quick-party", "data-testid": "quick-party-add"},
               "Add them and save them as the party"))
