"""Drawing the page: every panel from the session and the page state.

`render` rebuilds each panel only when its inputs changed (`Desk.memo`) and
writes it only when its markup differs (ui/dom/patch.py). What the page offers
(the selected actor's options and their numbers) comes from the per-state
offers (ui/desk/offers.py), which clicks and keys read too. Only the dispatcher
(ui/desk/desk.py `App.redraw`) calls it, once after each handler.
"""
from __future__ import annotations

from ... import catalogue
from ...rules import titles
from ...engine.conditions import condition_words
from ...engine.clock import clock_text
from ...views.quick_condition import duration_choices, library
from ...views.panels import last_result, log_lines
from ...views import effect_targets
from ...views.welcome import choice, choices
from . import review, setup_form
from ..markup import effect_markup, guide, panels, quick_dialog, table_editor
from ..desk.desk import Desk
from ..field.field_views import SPATIAL_NEEDS
from ..markup.html import Markup, h, part
from ..desk.offers import field_context, follow, panel, per_state, selection, views
from ..desk.operations import draft_doc
from ..dom.patch import focus_first, next_frame
from ..dom.screen import is_phone
from ..markup.table_markup import hide_button

LOG_LIMIT = 200
NEED_LABELS = {
    "path": "Choose the destination on the map (the path shows where attacks of opportunity would fire).",
    "square": "Choose a square on the map.",
    "band": "Choose a zone in the field.",
    "target": "Choose a target in the field.",
    "few": "Tick a few, then cast on them.",
}


# Scrolls the result card into view when a step put it above the screen (a long action list scrolled down
# to "End turn"). The phone's strip is fixed above the tabs and needs no scrolling; there the actions' top
# (who acts now, the turn's end, first on a phone) is brought back under the header when a step left the
# list scrolled past it (issue 38: the next "End the MOVE step" was a scroll away).
SHOW_RESULT = r"""
return () => {
  const card = document.querySelector("#result-slot .result");
  if (card && card.offsetParent !== null) {
    const box = card.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight - 40) card.scrollIntoView({block: "nearest"});
    return;
  }
  const panel = document.querySelector("#actions-slot .panel.actions");
  if (!panel || panel.offsetParent === null) return;
  const bar = document.querySelector("#header-slot .topbar");
  const under = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  const top = panel.getBoundingClientRect().top;
  if (top < under) window.scrollBy(0, top - under - 6);
};
"""


# A tab opened anew on a phone opens at its top: the page's scroll is the window's, shared by the four
# tabs, and the Act tab opened by a tap on a row far down the order was scrolled past its options (issue #53).
# A control the drawing focused in the new tab (a question asked) is left where the focus brought it.
TAB_TOP = r"""
return () => {
  const f = document.activeElement;
  if (f && f !== document.body && !f.closest("#tabs-slot") && f.getClientRects().length > 0) return;
  window.scrollTo(0, 0);
};
"""

# A foe just targeted (issue #53, stop 5): the first option on it is brought into view, at every size, between
# the sticky header and what is fixed or stuck at the bottom (a phone's tabs and result strip, the turn's end
# from a tablet up), scrolling the least: the actions' top stays where it can.
SHOW_TARGET = r"""
return () => {
  const group = document.querySelector("#actions-slot .group.on-target");
  if (!group || group.getClientRects().length === 0) return;
  const first = group.querySelector("button.act") || group;
  const shown = el => el && el.getClientRects().length > 0;
  const bar = document.querySelector("#header-slot .topbar");
  const sticky = el => ["sticky", "fixed"].includes(getComputedStyle(el).position);
  const top = shown(bar) && sticky(bar) ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  let bottom = window.innerHeight;
  const g = group.getBoundingClientRect(), b = first.getBoundingClientRect();
  for (const el of document.querySelectorAll("#tabs-slot, #result-strip, #actions-slot .turn-end")) {
    if (!shown(el) || !sticky(el)) continue;
    // Held at the screen's foot, an action below it is under it; the turn's end (after the options) is
    // held there once the scroll brings the actions up, wherever it stands now.
    const r = el.getBoundingClientRect();
    const at = el.matches(".turn-end") ? window.innerHeight - r.height : r.top;
    if (at > window.innerHeight / 2 && at < bottom) bottom = at;
  }
  let delta = 0;
  // (a button's height to spare: its odds are written after the paint, a line more: ui/page/odds_ui.py)
  if (b.bottom > bottom) delta = Math.min(b.bottom - bottom + 8 + b.height, g.top - top - 6);
  if (g.top < top) delta = g.top - top - 6;
  if (delta === 0) return;
  let box = group.parentElement;
  while (box && box !== document.body) {
    const y = getComputedStyle(box).overflowY;
    if ((y === "auto" || y === "scroll") && box.scrollHeight > box.clientHeight) break;
    box = box.parentElement;
  }
  if (box && box !== document.body) box.scrollTop += delta; else window.scrollBy(0, delta);
};
"""


def need_label(need: str) -> str:
    """The prompt for an option's need ("path", "number:distance"...)."""
    return NEED_LABELS.get(need.split(":")[0], need.split(":")[-1].replace("_", " ").capitalize())


def render(desk: Desk, field: bool = True) -> None:
    """Redraw what changed; `field=False` when a click changed neither the
    fight nor the selection (a dialog, a notice), so the field views are not
    redrawn."""
    s, slots, memo = desk.session, desk.slots, desk.memo
    state = s.state
    if desk.page.selected is None:
        follow(desk)
    page = desk.page
    shown = panel(desk)
    enc = s.encounter
    title = titles().get(enc.system, enc.system)
    if enc.profile:
        title += f" · {enc.profile}"
    rs = s.ruleset
    clock = rs.clock.label(state)
    clock_title = (f"In-game time since the fight began ({clock_text(rs.clock.tick_seconds)} a {rs.clock.unit})"
                   if rs.clock.tick_seconds else "This round's turns so far") if clock else ""
    head = panels.HeaderModel(enc.name, title, shown.status, s.can_undo, s.can_redo,
                              state.outcome or rs.unready(state), page.mode,
                              "physical" if s.physical_dice else "app", clock, clock_title)
    slots.html("header-slot", memo("header", tuple(vars(head).values()), lambda: panels.header(head)))
    text, tone = page.notice
    slots.html("notice-slot", memo("notice", (text, tone), lambda: panels.notice(text, tone)))
    slots.data("layout", "tab", page.tab)
    if desk.shown_tab and page.tab != desk.shown_tab and is_phone():
        next_frame(TAB_TOP)
    desk.shown_tab = page.tab
    slots.data("layout", "mode", page.mode)
    slots.data("layout", "view", s.ruleset.info.field_view(enc.profile))
    setup_form.draw(desk)
    sel, target = page.selected, page.target

    slots.rows("order-slot", "ol", memo("order", (state, sel, target), lambda: order_rows(desk, sel, target)),
               panels.order_list)
    if not desk.panel_later:  # (a selection's panel: once the tap has painted, ui/dispatch.py `PanelLater`)
        draw_actions(desk)
    dice_mode = "physical" if s.physical_dice else "sides" if s.hand_sides else "app"
    dice = (dice_mode, page.last_roll,
            tuple((side.id, side.name, side.id in s.hand_sides) for side in enc.sides) if s.hand_sides else ())
    slots.html("dice-slot", memo("dice", dice, lambda: panels.dice_panel(*dice)))

    def log():
        return panels.log_panel(log_lines(s, LOG_LIMIT), sum(len(st.events) for st in s.steps))

    slots.html("log-slot", memo("log", (s, state), log))
    result = memo("result", (s, state), lambda: last_result(s))
    slots.html("result-slot", memo("result-card", (result,), lambda: panels.result_card(result, "result")))
    slots.html("result-strip", memo("result-strip", (result,), lambda: panels.result_card(result, "result-strip")))
    if result is not None and result is not desk.shown_result:
        next_frame(SHOW_RESULT)  # a new step: its result where the referee looks, scrolled into view if need be
    desk.shown_result = result
    if field:
        ctx = field_context(desk)
        drawn = {"field-slot": "", "phase-slot": "", "ruler-slot": ""}
        for view in views(desk):
            drawn[view.slot] += view.render(ctx)
        patched, page.field_ui.patched = page.field_ui.patched, None  # a hover's patches since (ui/field/grid.py)
        if patched:
            slots.amend("field-slot", patched)
        for slot, markup in drawn.items():
            slots.html(slot, markup)
        for view in views(desk):
            if view.after_write:
                next_frame(view.after_write)
    slots.html("tabs-slot", memo("tabs", (page.tab,), lambda: panels.tabs(page.tab)))
    if not slots.dialog("dialog-slot", dialog_html(desk)) and page.pending is not None \
            and desk.asked != page.pending:
        focus_first("[data-testid=ask] button.choice, [data-testid=ask] input")
    desk.asked = page.pending
    if desk.focus:
        focus_first(desk.focus)
        desk.focus = ""
    slots.title(f"Fray · {enc.name}")


def draw_actions(desk: Desk, afresh: bool = False) -> None:
    """The action panel of the selected combatant (the options on its target first); `afresh`: its
    elements made anew rather than edited in place (ui/dom/patch.py `Slots.fresh`)."""
    page, state = desk.page, desk.session.state
    sel, target = page.selected, page.target
    menu = selection(desk, sel, target)[1]
    if page.pending is None:
        actions = idle_actions(desk, sel, menu, target)
    else:
        actions = desk.memo("actions", (state, sel, target, page.pending, page.unfolded, remembered(desk, sel)),
                            lambda: actions_html(desk, menu, sel, page.pending))
    if afresh:
        desk.slots.fresh("actions-slot", actions)
    else:
        desk.slots.html("actions-slot", actions)
    if desk.reveal_target:
        desk.reveal_target = False
        if target:
            next_frame(SHOW_TARGET)


def idle_actions(desk: Desk, sel: str | None, menu, target: str | None = None) -> Markup:
    """The action panel of `sel` (the options on `target` first) with no question asked (per state)."""
    answers = remembered(desk, sel)
    return per_state(desk, "actions", (sel, target, desk.page.unfolded, answers, cond_refused(desk)),
                     lambda: actions_html(desk, menu, sel, None))


def cond_refused(desk: Desk) -> tuple[str, str, str, str] | None:
    """The referee's condition refused in this very state: (combatant, name, duration typed, why), else None."""
    refused = desk.page.cond_refused
    return refused[1:] if refused is not None and refused[0] is desk.session.state else None


def remembered(desk: Desk, sel: str | None) -> tuple[tuple[str, int], ...]:
    """The answers `sel` last gave to questions with a default (ui/controllers/play.py `default_choice`)."""
    return tuple(sorted((q, i) for (who, q), i in desk.remembered.items() if who == sel))


def order_rows(desk: Desk, sel: str | None, target: str | None = None) -> list[str]:
    """The order list's rows with `sel` selected and `target` marked (each row's markup is kept per row:
    panels.order_rows)."""
    state = desk.session.state
    conditions = condition_words(desk.session.ruleset, state)
    return panels.order_rows(panel(desk), {sd.id: sd for sd in state.sides}, sel, conditions, target)


def actions_html(desk: Desk, menu, sel: str | None, pending) -> Markup:
    """The action panel: the menu, the question being asked (`pending`), the referee's tools for `sel`."""
    state = desk.session.state
    ask = None
    if pending is not None:
        index, o = pending
        need = o.needs[0] if o.needs else ""
        if need and need not in SPATIAL_NEEDS and ":" not in need:
            need = f"text:{need}"
        # A spell's few ticked once its question is answered (a length, Press On): headed by what it casts.
        heading = o.label if o.few and not o.choices else o.question or o.label
        ask = panels.AskModel(index, heading, tuple((c.label, c.detail) for c in o.choices),
                              need, need_label(need), *few_model(desk, o))
    referee = ""
    if sel and state.has(sel):
        c = state.get(sel)
        rs = desk.session.ruleset
        words = condition_words(rs, state).get(c.id, ())
        refused = cond_refused(desk)
        refused = refused[1:] if refused is not None and refused[0] == c.id else None
        referee = Markup(panels.referee_tools(c.name, c.id, c.hp, c.max_hp, words, rs.clock.unit + "s",
                                              refused) + part("ref-hide", h("span", {"id": "ref-hide"}, hide_button(c.id, c.hidden))))
    return panels.actions(menu, ask, referee, desk.page.unfolded, remembered(desk, sel))


def few_model(desk: Desk, o) -> tuple[tuple, tuple]:
    """A spell's possible targets to tick a few of, and its side and zone taps (issue 53, stop 9), when they
    answer the question asked now: the need "few:targets", or beside choices that each name targets (not
    beside Press On, asked first: OLOG-PRES-2). Nobody is ticked at first, as in the effect dialog."""
    if not effect_targets.few_now(o):
        return (), ()
    state, actor = desk.session.state, getattr(o.command, "actor", "")
    return (effect_targets.picks(state, o.few, tuple(getattr(o.command, "targets", ()))),
            tuple(g for g in effect_targets.groups(state, actor, o.few) if len(g.members) > 1))


def dialog_html(desk: Desk) -> str:
    d = desk.page.dialog
    if d is None:
        return ""
    kind = d.kind
    if kind == "help":
        return guide.help_dialog(choices(), wide=not is_phone())
    if kind == "welcome":
        return guide.welcome_dialog(choices(), choice(d.system))
    if kind == "share":
        return panels.share_dialog(d.url, d.copied)
    if kind == "rule":
        return panels.rule_popover(d.rule, catalogue.text(d.rule))
    if kind == "dice":
        need = d.need
        return panels.dice_entry(need.purpose or need.expr, need.count, need.sides, len(d.faces), d.answer)
    if kind == "hp":
        state = desk.session.state
        if not state.has(d.combatant):
            return ""
        c = state.get(d.combatant)
        rs = desk.session.ruleset
        quick = quick_dialog.QuickConditions(condition_words(rs, state).get(c.id, ()),
                                       tuple((n.name, n.word, n.does) for n in library(rs)),
                                       duration_choices(rs, state), desk.page.cond_for, d.cond_problem, d.cond_typed)
        return quick_dialog.hp_dialog(c.id, c.name, c.hp, c.max_hp, d.typed, d.problem, quick)
    if kind == "effect":
        return effect_html(desk, d)
    if kind == "table":
        return table_editor.render(draft_doc(desk), d.key, list(desk.page.problems))
    return review.dialog(desk)


def effect_html(desk: Desk, d) -> str:
    """The effect dialog of the actor `d.combatant`: its targets ticked as `d.ticked`, what was typed kept."""
    state, rs = desk.session.state, desk.session.ruleset
    actor = d.combatant
    name = state.get(actor).name if state.has(actor) else "nobody"
    return effect_markup.effect_dialog(name, effect_targets.targets(state, d.ticked),
                                       effect_targets.groups(state, actor), rs.clock.unit + "s",
                                       dict(d.fields), d.bad, d.problem)
