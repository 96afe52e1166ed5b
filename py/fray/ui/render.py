"""Drawing the page: every panel from the session and the page state.

`render` rebuilds each panel only when its inputs changed (`App.memo`) and
writes it only when its markup differs (ui/patch.py). It also leaves on the
app what the drawn page offers (the selected actor's options and their
numbers), which clicks and keys refer to by index.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import catalogue
from ..rules import titles
from ..views.panels import action_menu, log_lines, numbered, system_view
from . import editing, panels, table_editor
from .field_views import FieldContext, FieldView, views_for
from .html import Markup
from .patch import focus_first
from .play import SPATIAL_NEEDS, follow
from .table_link import hide_button

if TYPE_CHECKING:
    from .app import App

LOG_LIMIT = 200
NEED_LABELS = {
    "path": "Choose the destination on the map (the path shows where attacks of opportunity would fire).",
    "square": "Choose a square on the map.",
    "band": "Choose a zone in the field.",
    "target": "Choose a target in the field.",
}


def need_label(need: str) -> str:
    """The prompt for an option's need ("path", "number:distance"...)."""
    return NEED_LABELS.get(need.split(":")[0], need.split(":")[-1].replace("_", " ").capitalize())


def per_state(app: App, name: str, key, make):
    """What `make()` gave for this key in this state: a selection, a dialog or a hover never recomputes
    a combatant's options or menu the state already gave (states are frozen: a new step, a new cache;
    the last few states keep theirs, so an undo finds them)."""
    cache = app.state_caches.of(app.session.state).setdefault(name, {})
    value = cache.get(key, cache)
    if value is cache:
        value = cache[key] = make()
    return value


def panel(app: App):
    """The system's panel for this state (kept with the last few states: an undo finds it made)."""
    s = app.session
    return per_state(app, "panel", s.encounter.system, lambda: system_view(s.encounter.system).panel(s.state))


def current(app: App) -> tuple[str, ...]:
    s = app.session
    return per_state(app, "current", None, s.current)


def views(app: App) -> tuple[FieldView, ...]:
    """The field view of the encounter's profile, then its extra views."""
    s = app.session
    return views_for(s.ruleset, s.encounter.profile)


def field_context(app: App) -> FieldContext:
    s, page = app.session, app.page
    return FieldContext(state=s.state, ruleset=s.ruleset, panel=panel(app), selected=page.selected,
                        current=current(app), pending=page.pending[1] if page.pending else None,
                        options=app.options, cursor=page.cursor, ui=page.field_ui)


def render(app: App, field: bool = True) -> None:
    """Redraw what changed; `field=False` when a click changed neither the
    fight nor the selection (a dialog, a notice), so the field views are not
    redrawn."""
    s, slots, memo = app.session, app.slots, app.memo
    state = s.state
    if app.page.selected is None:
        follow(app)
    page = app.page
    shown = panel(app)
    enc = s.encounter
    title = titles().get(enc.system, enc.system)
    if enc.profile:
        title += f" · {enc.profile}"
    head = panels.HeaderModel(enc.name, title, shown.status, s.can_undo, s.can_redo,
                              state.outcome, page.mode, "physical" if s.physical_dice else "app")
    slots.html("header-slot", memo("header", tuple(vars(head).values()), lambda: panels.header(head)))
    text, tone = page.notice
    slots.html("notice-slot", memo("notice", (text, tone), lambda: panels.notice(text, tone)))
    slots.data("layout", "tab", page.tab)
    slots.data("layout", "mode", page.mode)
    slots.data("layout", "view", s.ruleset.field_view_for(enc.profile))
    editing.draw(app)
    sel = page.selected

    slots.rows("order-slot", "ol", memo("order", (state, sel), lambda: order_rows(app, sel)), panels.order_list)
    app.options, menu, app.numbers = selection(app, sel)
    if page.pending is None:
        actions = idle_actions(app, sel, menu)
    else:
        actions = memo("actions", (state, sel, page.pending, page.unfolded),
                       lambda: actions_html(app, menu, sel, page.pending))
    slots.html("actions-slot", actions)
    dice = ("physical" if s.physical_dice else "app", page.last_roll)
    slots.html("dice-slot", memo("dice", dice, lambda: panels.dice_panel(*dice)))

    def log():
        return panels.log_panel(log_lines(s, LOG_LIMIT), sum(len(st.events) for st in s.steps))

    slots.html("log-slot", memo("log", (s, state), log))
    if field:
        ctx = field_context(app)
        drawn = {"field-slot": "", "phase-slot": "", "ruler-slot": ""}
        for view in views(app):
            drawn[view.slot] += view.render(ctx)
        patched = page.field_ui.pop("patched", None)  # what a hover patched in place since (ui/grid.py)
        if patched:
            slots.amend("field-slot", patched)
        for slot, markup in drawn.items():
            slots.html(slot, markup)
    slots.html("tabs-slot", memo("tabs", (page.tab,), lambda: panels.tabs(page.tab)))
    if not slots.dialog("dialog-slot", dialog_html(app)) and page.pending is not None \
            and app.asked != page.pending:
        focus_first("[data-testid=ask] button.choice, [data-testid=ask] input")
    app.asked = page.pending
    slots.title(f"Fray · {enc.name}")


def selection(app: App, sel: str | None):
    """What selecting `sel` offers in this state: its options, their menu, the menu's shortcut numbers
    (per state: computed once, by the tap that selects it or by ui/warm.py before it)."""
    s = app.session
    state = s.state
    options = per_state(app, "options", sel, lambda: (
        s.ruleset.options(state, sel) + system_view(s.encounter.system).referee(state, sel)) if sel else [])
    menu = per_state(app, "menu", sel, lambda: action_menu(s.ruleset, state, sel, panel(app), options))
    return options, menu, per_state(app, "numbers", sel, lambda: numbered(menu))


def idle_actions(app: App, sel: str | None, menu) -> Markup:
    """The action panel of `sel` with no question asked (per state)."""
    return per_state(app, "actions", (sel, app.page.unfolded), lambda: actions_html(app, menu, sel, None))


def order_rows(app: App, sel: str | None) -> list[str]:
    """The order list's rows with `sel` selected (each row's markup is kept per row: panels.order_rows)."""
    state = app.session.state
    conditions = {c.id: c.conditions for c in state.combatants if c.conditions}
    return panels.order_rows(panel(app), {sd.id: sd for sd in state.sides}, sel, conditions)


def actions_html(app: App, menu, sel: str | None, pending) -> Markup:
    """The action panel: the menu, the question being asked (`pending`), the referee's tools for `sel`."""
    state = app.session.state
    ask = None
    if pending is not None:
        index, o = pending
        need = o.needs[0] if o.needs else ""
        if need and need not in SPATIAL_NEEDS and ":" not in need:
            need = f"text:{need}"
        ask = panels.AskModel(index, o.question or o.label, tuple((c.label, c.detail) for c in o.choices),
                              need, need_label(need))
    referee = ""
    if sel and state.has(sel):
        c = state.get(sel)
        referee = Markup(panels.referee_tools(c.name, c.id, c.hp, c.max_hp, c.conditions) + hide_button(c.id, c.hidden))
    return panels.actions(menu, ask, referee, app.page.unfolded)


def dialog_html(app: App) -> str:
    d = app.page.dialog
    if d is None:
        return ""
    kind = d[0]
    if kind == "help":
        return panels.help_dialog()
    if kind == "share":
        return panels.share_dialog(d[1], d[2])
    if kind == "rule":
        return panels.rule_popover(d[1], catalogue.text(d[1]))
    if kind == "dice":
        need = d[1]
        return panels.dice_entry(need.purpose or need.expr, need.count, need.sides, len(d[3]))
    if kind == "table":
        return table_editor.render(editing.draft_doc(app), d[1], list(app.page.problems))
    return ""
