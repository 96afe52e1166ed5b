"""The fight in review as markup (issue #56): the timeline dialog (a scrubber over the history, the field,
order and HP as they were after a step, read-only, with that step's result card) and the summary dialog
(figures, HP charts, damage bars, the two exports). Pure: no browser imports, tested under CPython; the past
field itself is drawn by the field views (ui/page/review.py) and handed in."""
from __future__ import annotations

import re

from ...engine.conditions import condition_words
from ...engine.session import Session
from ...views.panels import last_result, system_view
from ...views.recap import Recap, public, recap
from ...views.recap_export import damage_bars, fall_words, headline, hp_chart, rows, side_lines, HEAD
from . import panels
from .html import Markup, h, unmarked

IDS = re.compile(r'\s(?:id|aria-labelledby|aria-describedby|data-region|data-testid)="[^"]*"')


def clamp(session: Session, step: int) -> int:
    return max(0, min(step, len(session.steps)))


def past_order(session: Session, step: int, panel=None) -> Markup:
    """The order list, HP and conditions after `step`, as the Order panel showed them then."""
    state, rs = session.state_at(step), session.ruleset
    panel = panel if panel is not None else system_view(state.encounter.system).panel(state)
    rows_ = panels.order_rows(panel, {s.id: s for s in state.sides}, None, condition_words(rs, state))
    return Markup(IDS.sub("", unmarked(h("ol", {"class_": "order-list"}, rows_))))


def fall_chips(r: Recap, step: int) -> list[Markup]:
    """A button per fall (and the first step), to jump there: a down is what a referee looks back for."""
    out = []
    for f in r.combatants:
        for x in f.falls:
            out.append((x.step, h("button", {"type": "button", "class_": "chip" + (" on" if x.step == step else ""),
                                             "data-action": f"review-at:{x.step}",
                                             "data-testid": f"review-fall-{f.id}-{x.step}"},
                                  "\u2620 ", f.name, f" · {x.step}")))
    return [m for _, m in sorted(out, key=lambda sm: sm[0])]


def timeline(session: Session, step: int, r: Recap | None = None, field: Markup | str = "", panel=None) -> Markup:
    """The timeline dialog at `step` (0: the setup before any step); `r`, the fight's summary if known;
    `field`, the field views drawn for that step (ui/page/review.py `past_field`), and `panel`, the system's
    panel for that state, when the caller has them."""
    n = len(session.steps)
    step = clamp(session, step)
    state, rs = session.state_at(step), session.ruleset
    where = rs.clock.words(rs.clock.now(state), at=True) if state.round or rs.clock.now(state) else "before the first round"
    said = f"Step {step} of {n}, {where}"
    result = last_result(session, step)
    card = panels.result_card(result, "review-result") if result is not None else h(
        "section", {"class_": "panel result", "data-testid": "review-result"}, h("h2", None, "The start"),
        h("p", None, "The setup, before any step."))
    r = r if r is not None else recap(session)
    panel = panel if panel is not None else system_view(state.encounter.system).panel(state)
    return h("div", {"class_": "modal review", "role": "dialog", "aria-modal": "true", "aria-labelledby": "review-t",
                     "data-testid": "review", "data-step": str(step)},
             h("div", {"class_": "modal-box review-box"},
               h("div", {"class_": "review-head"},
                 h("h2", {"id": "review-t"}, "Timeline ", h("span", {"class_": "muted", "data-testid": "review-where"},
                                                             said)),
                 h("div", {"class_": "row"},
                   h("button", {"type": "button", "data-action": "recap", "data-testid": "review-summary"}, "Summary"),
                   h("button", {"type": "button", "class_": "primary", "data-action": "review-now",
                                "data-testid": "review-now"}, "Back to now"))),
               h("div", {"class_": "scrub"},
                 h("button", {"type": "button", "data-action": f"review-at:{max(0, step - 1)}", "disabled": step <= 0,
                              "aria-label": "One step back", "data-testid": "review-back"}, "\u25c0"),
                 h("input", {"type": "range", "min": "0", "max": str(n), "step": "1", "value": str(step),
                             "id": "review-scrub", "data-action": "review-at", "data-testid": "review-scrub",
                             "aria-label": "Step of the fight", "aria-valuetext": said}),
                 h("button", {"type": "button", "data-action": f"review-at:{min(n, step + 1)}", "disabled": step >= n,
                              "aria-label": "One step forward", "data-testid": "review-forward"}, "\u25b6")),
               h("div", {"class_": "falls", "aria-label": "Falls"}, fall_chips(r, step)) if any(
                   f.falls for f in r.combatants) else "",
               h("p", {"class_": "muted review-note"}, "As it was after this step, read only. "
                 "\u2190 \u2192 step, Home and End go to the ends, Esc goes back to now."),
               h("div", {"class_": "review-body"},
                 card,
                 h("section", {"class_": "panel review-order", "aria-label": "Order then", "inert": True},
                   h("h3", None, "Order"), past_order(session, step, panel)),
                 h("section", {"class_": "review-field", "aria-label": "Field then", "inert": True,
                               "data-testid": "review-field"}, field))))


def summary(session: Session, players: bool = False, step: int | None = None) -> Markup:
    """The summary dialog: the headline, sides and the system's lines, damage bars, each combatant's HP
    over the fight, the figures table, and the two exports; `players`: the players' summary."""
    r = recap(session)
    r = public(session, r) if players else r
    charts = [h("figure", {"class_": "hp-fig", "data-testid": f"hp-chart-{f.id}"},
                h("figcaption", None, h("strong", None, f.name), " ",
                  f.hp_word if f.hp_words else f"{f.hp[-1]}/{f.max_hp}",
                  (" · down " + fall_words(r, f, f.falls[-1])) if f.down_at is not None else ""),
                Markup(hp_chart(r, f, at=step))) for f in r.combatants]
    table = h("div", {"class_": "scroll"}, h("table", {"class_": "recap-table", "data-testid": "recap-table"},
              h("thead", None, h("tr", None, [h("th", {"scope": "col"}, x) for x in HEAD])),
              h("tbody", None, [h("tr", None, [h("th" if k == 0 else "td", {"scope": "row"} if k == 0 else
                                                 {"class_": "n"} if 3 <= k <= 7 else None, v)
                                               for k, v in enumerate(row)]) for row in rows(r)])))
    return h("div", {"class_": "modal review", "role": "dialog", "aria-modal": "true", "aria-labelledby": "recap-t",
                     "data-testid": "recap"},
             h("div", {"class_": "modal-box review-box"},
               h("div", {"class_": "review-head"},
                 h("h2", {"id": "recap-t"}, "Summary", " (players' view)" if players else ""),
                 h("div", {"class_": "row"},
                   h("button", {"type": "button", "data-action": "review-at:" + str(len(session.steps)),
                                "data-testid": "recap-timeline"}, "Timeline"),
                   h("button", {"type": "button", "class_": "primary", "data-action": "review-now",
                                "data-testid": "recap-close"}, "Back to now"))),
               h("p", {"class_": "headline", "data-testid": "recap-headline"}, headline(r)),
               h("ul", {"class_": "recap-lines"}, [h("li", None, x) for x in side_lines(r) + list(r.system_recap.lines)]),
               h("div", {"class_": "row"},
                 h("button", {"type": "button", "data-action": "recap-export:html", "data-testid": "recap-html"},
                   "Download HTML"),
                 h("button", {"type": "button", "data-action": "recap-export:md", "data-testid": "recap-md"},
                   "Download Markdown"),
                 h("label", {"class_": "check"},
                   h("input", {"type": "checkbox", "data-action": "recap-players", "checked": players,
                               "data-testid": "recap-players"}), " Players' view")),
               h("h3", None, "Damage dealt"),
               h("div", {"class_": "recap-bars", "data-testid": "recap-bars"}, Markup(damage_bars(r))),
               h("h3", None, "Hit points over the fight"),
               h("div", {"class_": "recap-charts"}, charts),
               h("h3", None, "Every combatant"), table))
