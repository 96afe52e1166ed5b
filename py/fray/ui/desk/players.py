"""The players' view of the referee's fight now (views/table_view.py), memoised on the state.

The table display's channel sends it (ui/dom/table_channel.py), the players' overlay draws it
(ui/page/drawing.py) and "Export image" saves it (ui/controllers/table_link.py): one view for all three.
"""
from __future__ import annotations

from typing import Any

from . import offers
from .desk import Desk
from .odds_work import finished


def build_view(desk: Desk) -> dict[str, Any] | None:
    """The players' view of the referee's fight now (memoised on the state)."""
    from ...rules import titles
    from ...views.table_view import table_view
    from ...views.table_view import table_odds
    s = desk.session
    if s is None:
        return None
    enc = s.encounter
    title = titles().get(enc.system, enc.system) + (f" · {enc.profile}" if enc.profile else "")
    odds = table_odds(s.state, *finished(desk)) if s.state.setting("table_odds", "nobody") != "nobody" \
        else None
    return desk.memo("table-view", (s.state, len(s.steps), repr(odds)), lambda: table_view(
        s.state, s.steps, s.ruleset.info.field_view(enc.profile), s.ruleset.info.extra_views, title,
        offers.panel(desk), odds))  # the panel the referee's page draws from (memoised): built once for both
