"""The fight in review in the page's dialog slot (issue #56): the timeline at its step, with the field views
drawn for that past state, or the summary; the markup is ui/markup/review_markup.py's, the actions
ui/controllers/review_ui.py's."""
from __future__ import annotations

from ...engine.session import Session
from ...views.panels import system_view
from ...views.recap import recap
from ..desk.desk import Desk
from ..field.field_ui import FieldUi
from ..field.field_views import FieldContext, views_for
from ..markup.html import Markup, unmarked
from ..markup.review_markup import IDS, clamp, summary, timeline

KINDS = ("review", "recap")


def past_field(session: Session, step: int, panel=None) -> Markup:
    """The field views (and Ogre's ruler) drawn for the state after `step`, with nobody selected; their ids
    and test handles taken out so that they never stand for the live field's. `panel`: the system's panel
    for that state, when the caller has it."""
    state, rs = session.state_at(step), session.ruleset
    panel = panel if panel is not None else system_view(state.encounter.system).panel(state)
    ctx = FieldContext(state, rs, panel, None, rs.current(state), ui=FieldUi())
    out = []
    for view in views_for(rs, session.encounter.profile):
        if view.slot == "phase-slot":
            continue  # a question of the moment (declarations, before the fight), not the field
        out.append(IDS.sub("", unmarked(view.render(ctx))))
    return Markup("".join(out))


def dialog(desk: Desk) -> str:
    """The review's dialog markup for the page's dialog slot (ui/page/render.py), or ""."""
    d = desk.page.dialog
    if d is None or d.kind not in KINDS:
        return ""
    s = desk.session
    if d.kind == "review":  # the figures (its falls) once per fight, not once per step of the slider
        step = clamp(s, d.step)
        state = s.state_at(step)
        panel = system_view(state.encounter.system).panel(state)  # the past state's, for field and order
        return timeline(s, step, desk.memo("recap", (s.state,), lambda: recap(s)), past_field(s, step, panel),
                        panel)
    return summary(s, players=d.players, step=d.step)
