"""The fight's summary on the players' table display when the fight ends (issue #56): the damage bars and
each combatant's HP over the fight, from the players' summary the referee's tab sent (views/recap.py
`to_table`), every field checked again here (`from_table`) and every name escaped."""
from __future__ import annotations

from typing import Any

from ...views.recap import from_table
from ...views.recap_export import damage_bars, hp_chart
from .html import Markup, h


def section(view: dict[str, Any]) -> Markup | str:
    """The summary section of a table view, or "" while the fight goes on."""
    r = from_table(view.get("recap"))
    if r is None:
        return ""
    charts = [h("figure", {"class_": "hp-fig"}, h("figcaption", None, h("strong", None, f.name), " ",
                                                  f.hp_word if f.hp_words else f"{f.hp[-1]}/{f.max_hp}"),
                Markup(hp_chart(r, f))) for f in r.combatants]
    return h("section", {"class_": "tv-recap", "data-testid": "table-recap", "aria-label": "Summary"},
             h("h2", None, "The fight in review"), h("p", None, r.title),
             h("ul", None, [h("li", None, line) for line in r.system_recap.lines]),
             h("h3", None, "Damage dealt"), h("div", {"class_": "recap-bars"}, Markup(damage_bars(r))),
             h("h3", None, "Hit points over the fight"), h("div", {"class_": "recap-charts"}, charts))
