"""The quick dialog of a combatant (tap its hit points): its HP changed in one field, its conditions set in one
tap each, for a duration in the system's clock (issues 38 and 34; CORE-REF-1).

Pure functions of view models (no browser imports), as ui/markup/panels.py.
"""
from __future__ import annotations

from dataclasses import dataclass

from .html import Markup, h


@dataclass(frozen=True)
class QuickConditions:
    """The quick dialog's conditions: those on the combatant now (words with time left), the library's
    (name, what it does), the durations (value, label), the one chosen, and a refusal said at the field."""

    now: tuple[str, ...]
    library: tuple[tuple[str, str, str], ...]  # (name, the word set, what it does)
    durations: tuple[tuple[str, str], ...]
    chosen: str | None = None  # None: not chosen yet (the first is the default; "" is "until removed")
    problem: str = ""
    typed: str = ""


def quick_conditions(cid: str, q: QuickConditions) -> Markup:
    """One tap on a condition of the library sets it for the duration chosen (the first is the default);
    the referee's own words and a secret one through the field below (CORE-REF-1)."""
    chosen = q.chosen if q.chosen is not None and any(v == q.chosen for v, _ in q.durations) \
        else q.durations[0][0]
    now = [h("li", None, w, " ", h("button", {"type": "button", "data-action": f"uncond:{cid}:{i}",
                                              "data-testid": f"qcond-remove-{i}", "aria-label": f"Remove {w}"}, "×"))
           for i, w in enumerate(q.now)]
    return h("form", {"class_": "qcond", "data-action": f"qcond:{cid}", "data-testid": "qcond"},
             h("h3", None, "Conditions"),
             h("ul", {"class_": "conds", "data-testid": "qcond-now"}, now) if now else "",
             h("label", {"class_": "qcond-for"}, "For ",
               h("select", {"name": "for", "data-testid": "qcond-for"},
                 [h("option", {"value": v, "selected": v == chosen}, label) for v, label in q.durations])),
             h("div", {"class_": "qcond-lib", "role": "group", "aria-label": "Set a condition"},
               [h("button", {"type": "submit", "name": "op", "value": f"lib:{word}", "title": does,
                             "data-testid": f"qcond-{word.replace(' ', '-')}"},
                  name, h("span", {"class_": "does"}, does)) for name, word, does in q.library]),
             h("div", {"class_": "qcond-own"},
               h("label", None, "Own ", h("input", {"type": "text", "name": "custom", "maxlength": "40",
                                                    "value": q.typed, "placeholder": "Bane (to-hit -1)",
                                                    "list": "condition-names", "data-testid": "qcond-custom",
                                                    "aria-invalid": "true" if q.problem else None,
                                                    "aria-describedby": "qcond-problem" if q.problem else None})),
               h("label", None, h("input", {"type": "checkbox", "name": "secret", "data-testid": "qcond-secret"}),
                 " secret"),
               h("button", {"type": "submit", "name": "op", "value": "own", "data-testid": "qcond-add"}, "Add")),
             h("p", {"class_": "why", "id": "qcond-problem", "role": "alert", "data-testid": "qcond-problem"},
               q.problem) if q.problem else "")


def hp_dialog(cid: str, name: str, hp: int, max_hp: int, typed: str = "", problem: str = "",
              conditions: QuickConditions | None = None) -> Markup:
    """Quick HP: one field for −N (damage), +N (healing) or the new value; a refusal said at the field; and
    the combatant's conditions, one tap each (`quick_conditions`)."""
    return h("div", {"class_": "modal", "role": "dialog", "aria-modal": "true", "aria-labelledby": "hp-t",
                     "data-testid": "hp-dialog"},
             h("div", {"class_": "modal-box"},
               h("form", {"class_": "hp-quick", "data-action": f"hp-quick:{cid}"},
                 h("h2", {"id": "hp-t"}, f"{name}: {hp}/{max_hp} HP"),
                 h("label", {"for": "hp-change"}, "Damage (−N), healing (+N) or new hit points"),
                 h("input", {"id": "hp-change", "name": "change", "value": typed, "autocomplete": "off",
                             "inputmode": "text", "maxlength": "12", "placeholder": "−5, +3 or 12",
                             "data-testid": "hp-change", "aria-invalid": "true" if problem else None,
                             "aria-describedby": "hp-problem" if problem else None}),
                 h("p", {"class_": "why", "id": "hp-problem", "role": "alert", "data-testid": "hp-problem"}, problem)
                 if problem else "",
                 h("div", {"class_": "row"},
                   h("button", {"type": "submit", "data-testid": "hp-apply"}, "Apply"),
                   h("button", {"type": "button", "data-action": "cancel"}, "Cancel"))),
               quick_conditions(cid, conditions) if conditions is not None else ""))
