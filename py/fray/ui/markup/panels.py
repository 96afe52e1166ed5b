"""The shell's panels as HTML strings: header, order, actions, dice, log, dialogs.

Pure functions of view models (no browser imports). Every clickable thing
carries `data-action`; the app listens once per panel and dispatches on it.
"""
from __future__ import annotations

import re

from dataclasses import dataclass

from ...engine.cache import Cache
from ...engine.model import Side
from ...views.models import Badge, OrderRow, SystemPanel
from ...views.effect_targets import Group, Target
from ...views.panels import ActionMenu, LogLine, StepResult
from .effect_markup import few_form
from .html import Markup, h, join, part, region, with_rules

SHAPE_GLYPH = {"circle": "●", "square": "■", "diamond": "◆", "triangle": "▲", "hexagon": "⬢", "star": "★"}


def side_mark(side: Side | None) -> Markup:
    """A side's colour AND shape (colour is never alone, UI principle 6)."""
    if side is None:
        return Markup("")
    return h("span", {"class_": "side-mark", "style": f"color:{side.colour}", "aria-hidden": "true",
                      "title": side.name}, SHAPE_GLYPH.get(side.shape, "●"))


def badge(b: Badge) -> Markup:
    title = b.title or b.word
    if b.rule and b.rule not in title:
        title += f" ({b.rule})"
    return h("span", {"class_": f"badge tone-{b.tone}", "title": title},
             h("span", {"aria-hidden": "true"}, b.icon), " ", b.said)


def hp_bar(hp: int, max_hp: int) -> Markup:
    frac = 0 if max_hp <= 0 else max(0.0, min(1.0, hp / max_hp))
    tone = "ok" if frac > 0.5 else "warn" if frac > 0.25 else "danger"
    return h("span", {"class_": "hp", "title": f"{hp}/{max_hp} HP"},
             h("span", {"class_": "hp-bar", "role": "img", "aria-label": f"{hp} of {max_hp} hit points"},
               h("span", {"class_": f"hp-fill {tone}", "style": f"width:{frac * 100:.0f}%"})),
             h("span", {"class_": "hp-num"}, f"{hp}/{max_hp}"))


@dataclass(frozen=True)
class HeaderModel:
    name: str
    system_title: str
    status: str
    can_undo: bool
    can_redo: bool
    outcome: str
    mode: str  # "play" | "setup"
    dice_mode: str
    clock: str = ""  # the in-game time since the fight began, in the system's clock (Ruleset.clock.label)
    clock_title: str = ""


def header(m: HeaderModel) -> Markup:
    return h("header", {"class_": "topbar"},
             h("div", {"class_": "brand"}, h("span", {"class_": "logo", "aria-hidden": "true"}, "⚔"), "Fray"),
             h("div", {"class_": "title"},
               h("h1", {"class_": "enc-name", "data-testid": "encounter-name", "title": f"{m.name} · {m.system_title}"},
                 m.name),
               h("span", {"class_": "sys"}, m.system_title),
               h("span", {"class_": "status", "data-testid": "status", "title": m.status}, m.status),
               h("span", {"class_": "clock", "data-testid": "clock", "title": m.clock_title},
                 h("span", {"aria-hidden": "true"}, "◷ "), m.clock) if m.clock else "",
               h("span", {"class_": "outcome", "data-testid": "outcome", "role": "status", "title": m.outcome},
                 short_outcome(m.outcome)) if m.outcome else ""),
             h("div", {"class_": "tools", "role": "toolbar", "aria-label": "Encounter"},
               h("button", {"type": "button", "data-action": "undo", "data-testid": "undo",
                            "disabled": not m.can_undo, "title": "Undo (Ctrl+Z)", "aria-label": "Undo"}, "↶",
                 h("span", {"class_": "lbl"}, " Undo")),
               h("button", {"type": "button", "data-action": "redo", "data-testid": "redo",
                            "disabled": not m.can_redo, "title": "Redo (Ctrl+Shift+Z)", "aria-label": "Redo"}, "↷",
                 h("span", {"class_": "lbl"}, " Redo")),
               h("button", {"type": "button", "data-action": "mode:setup" if m.mode == "play" else "mode:play",
                            "data-testid": "toggle-setup", "aria-pressed": "true" if m.mode == "setup" else "false"},
                 "Setup" if m.mode == "play" else "Back to the fight"),
               h("button", {"type": "button", "data-action": "library", "data-testid": "library-open",
                            "title": "Every saved encounter", "aria-label": "Library"}, "≡",
                 h("span", {"class_": "lbl"}, " Library")),
               h("button", {"type": "button", "data-action": "save", "data-testid": "save"}, "Save"),
               h("button", {"type": "button", "data-action": "open", "data-testid": "open"}, "Open"),
               h("button", {"type": "button", "data-action": "share", "data-testid": "share"}, "Share"),
               h("button", {"type": "button", "data-action": "table-open", "data-testid": "table-open", "class_": "tool-table",
                            "title": "Open the players' table display in another window"},
                 "Table", h("span", {"class_": "lbl"}, " display")),
               h("button", {"type": "button", "data-action": "players-view", "data-testid": "players-view-toggle",
                            "class_": "tool-table",
                            "title": "Show this window as the players see it"},
                 "Players", h("span", {"class_": "lbl"}, "' view")),
               h("button", {"type": "button", "data-action": "phones", "data-testid": "phones-open", "class_": "tool-table",
                            "title": "Pair the players' phones: each shows the fight and its own character"}, "Phones")
               if m.mode == "play" else "",  # in setup the header holds "Back to the fight": no room at 768 px
               h("button", {"type": "button", "data-action": "help", "data-testid": "help",
                            "aria-label": "Help", "title": "Help: the screen, starting a fight, shortcuts (?)"}, "?")))


def short_outcome(outcome: str) -> str:
    """The header's pill: a fight not ready yet says so in its first words ("No combatants yet"), the whole
    sentence in the pill's tooltip and in Setup's own hint, so the pill keeps one line (issue #53)."""
    head, colon, _ = outcome.partition(": add ")
    return head if colon else outcome


# Markup of rows and buttons drawn before, by their (immutable, hashable) models:
# a click that changes the selection redraws two rows of forty, not forty.
_ROWS = Cache(4000)
_BUTTONS = Cache(4000)


def order(panel: SystemPanel, sides: dict[str, Side], selected: str | None,
          conditions: dict[str, tuple[str, ...]] | None = None) -> Markup:
    return order_list(order_rows(panel, sides, selected, conditions))


def order_rows(panel: SystemPanel, sides: dict[str, Side], selected: str | None,
               conditions: dict[str, tuple[str, ...]] | None = None, target: str | None = None) -> list[Markup]:
    """One <li> per row of the order panel (the page may replace rows one by one)."""
    rows = []
    conds = conditions or {}
    for r in panel.order:
        side, cond, is_sel, is_tgt = sides.get(r.side), conds.get(r.id, ()), r.id == selected, r.id == target
        rows.append(_ROWS.get((r, side, cond, is_sel, is_tgt),
                            lambda: order_row(r, side, r.id if is_sel else None, cond, is_tgt)))
    return rows


def order_list(rows: list[Markup]) -> Markup:
    return h("section", {"class_": "panel order", "aria-label": "Order"},
             h("h2", None, "Order"),
             h("ol", {"class_": "order-list", "data-testid": "order", "data-region": True}, region(rows)))


def order_row(r: OrderRow, side: Side | None, selected: str | None, conditions: tuple[str, ...] = (),
              targeted: bool = False) -> Markup:
    if r.kind == "side":
        return h("li", {"class_": "order-side", "data-testid": f"side-{r.id}"},
                 side_mark(side), h("span", {"class_": "name", "title": r.name}, r.name),
                 h("span", {"class_": "detail", "title": r.detail}, r.detail), [badge(b) for b in r.badges])
    cls = ["order-row"]
    if r.is_current:
        cls.append("current")
    if r.is_down:
        cls.append("down")
    if r.id == selected:
        cls.append("selected")
    if targeted:
        cls.append("targeted")
    move = []
    if r.draggable:
        move = [h("span", {"class_": "reorder"},
                  h("button", {"type": "button", "data-action": f"reorder-up:{r.id}",
                               "aria-label": f"Move {r.name} up in the order"}, "▲"),
                  h("button", {"type": "button", "data-action": f"reorder-down:{r.id}",
                               "aria-label": f"Move {r.name} down in the order"}, "▼"))]
    return h("li", {"class_": " ".join(cls), "data-testid": f"order-{r.id}", "data-id": r.id,
                    "draggable": "true" if r.draggable else None, "aria-current": "true" if r.is_current else None},
             h("button", {"type": "button", "class_": "pick", "data-action": f"select:{r.id}",
                          "aria-pressed": "true" if r.id == selected else "false"},
               h("span", {"class_": "turn-mark", "aria-hidden": "true"}, "▶" if r.is_current else ""),
               side_mark(side), h("span", {"class_": "name", "title": r.name}, r.name),
               h("span", {"class_": "detail", "title": r.detail}, r.detail)),
             h("button", {"type": "button", "class_": "hp-btn", "data-action": f"hp:{r.id}",
                          "data-testid": f"hp-{r.id}", "title": "Change hit points: −N, +N or a new value",
                          "aria-label": f"Hit points of {r.name}: {r.hp} of {r.max_hp}; change them"},
               hp_bar(r.hp, r.max_hp)) if r.hp is not None and r.max_hp else "",
             # Looking at a combatant's own card and actions is its own gesture: a tap on the row during
             # someone's turn targets it (ui/controllers/play.py `select`).
             h("button", {"type": "button", "class_": "look", "data-action": f"look:{r.id}",
                          "data-testid": f"look-{r.id}", "title": f"{r.name}: own actions and card",
                          "aria-label": f"Show {r.name}'s own actions"}, "⋯"),
             h("span", {"class_": "badges"}, [badge(b) for b in r.badges],
               # Conditions the system does not already show as a badge (e.g. set by the referee).
               [h("span", {"class_": "badge cond", "title": f"Condition: {c}"}, c) for c in conditions
                if not any(c.lower() in b.word.lower() for b in r.badges)]), move)


@dataclass(frozen=True)
class AskModel:
    """An inline question before rolling (UI principle 2) or a value to supply."""

    index: int
    question: str
    choices: tuple[tuple[str, str], ...]
    need: str = ""  # "number:field", "text:field", "path", "square", "band", "few:targets"
    need_label: str = ""
    few: tuple[Target, ...] = ()  # a spell's possible targets, a few of them ticked (issue 53, stop 9)
    groups: tuple[Group, ...] = ()


# A group's refused options are folded behind one button once there are more than this many: in a fight of
# forty, a goblin that is not on its turn has fifty-odd attacks, each refused for the same reason.
FOLD_OVER = 3


def actions(menu: ActionMenu | None, ask: AskModel | None, referee: Markup,
            unfolded: frozenset[str] = frozenset(), answers: tuple[tuple[str, int], ...] = ()) -> Markup:
    """The action panel. `answers`: (question, choice) the selected combatant last gave to questions that
    have a default; a tap on such an option answers the same again."""
    if menu is None:
        return h("section", {"class_": "panel actions", "aria-label": "Actions"},
                 h("h2", None, "Actions"), h("p", {"class_": "muted"}, "Select a combatant."), referee)
    body = []
    if menu.prompt:
        body.append(h("div", {"class_": "prompt", "role": "alert", "data-testid": "prompt"},
                      with_rules(menu.prompt), " ", with_rules(menu.prompt_rule) if menu.prompt_rule else ""))
    hints = [h("p", {"class_": f"hint tone-{hint.tone}", "data-testid": "hint"}, with_rules(hint.text))
             for hint in menu.hints]
    if len(menu.targets) > 1 or (menu.targets and not menu.target):
        body.append(h("div", {"class_": "target-strip", "role": "group", "aria-label": "Targets",
                              "data-testid": "targets"},
                      h("span", {"class_": "muted"}, "On:"),
                      [h("button", {"type": "button", "class_": "target-chip", "data-action": f"target:{tid}",
                                    "data-testid": f"target-{tid}",
                                    "aria-pressed": "true" if tid == menu.target else "false"}, name)
                       for tid, name in menu.targets]))
    if menu.target:
        mine = any(g == f"On {menu.target_name}" for g, _ in menu.groups)
        body.append(h("p", {"class_": "target-line", "data-testid": "target"},
                      h("span", {"class_": "target-mark", "aria-hidden": "true"}, "◎"), " Target: ",
                      h("strong", None, menu.target_name),
                      "" if mine else f" (nothing {menu.actor_name} can do to them now)", " ",
                      h("button", {"type": "button", "class_": "untarget", "data-action": "untarget",
                                   "data-testid": "untarget", "aria-label": f"Clear the target {menu.target_name}"},
                        "✕"), target_style(menu.target)))
    # One reason for every refused option (a combatant whose turn it is not): said once, above them all.
    reasons = [it.why for _, items in menu.groups for it in items if not it.allowed]
    common = reasons[0] if len(reasons) > 1 and len(set(reasons)) == 1 else ""
    if common:
        body.append(h("p", {"class_": "why why-all", "data-testid": "why-all"},
                      "Not allowed now: ", h("span", {"id": "why-all"}, with_rules(common))))
    if ask is not None:
        body.append(ask_box(ask))
    for group, items in menu.groups:
        refused = [it for it in items if not it.allowed]
        folding = len(refused) > FOLD_OVER
        buttons = []
        given = dict(answers)
        for it in items:
            if not (folding and not it.allowed):
                picked = given.get(it.question, it.default) if it.default >= 0 else -1
                picked = picked if 0 <= picked < len(it.choices) else it.default
                buttons.append(_BUTTONS.get((it, "all" if common and not it.allowed else "", picked),
                                            lambda: action_button(it, "why-all" if common else "", picked)))
        # A short group with the turn's end ("next", N) stays on screen (static/css/fray.css `.turn-end`):
        # stuck to the bottom from a tablet up, first on a phone. A longer one (Ogre's Advance, Advance one
        # segment, Delay...) would cover the options or push them off the screen.
        shown = [it for it in items if not (folding and not it.allowed)]
        ends = len(shown) <= 2 and any(it.key == "next" for it in shown)
        if folding:
            buttons.append(fold(group, refused, group in unfolded, "why-all" if common else ""))
        cls = "group turn-end" if ends else "group on-target" if menu.target and group == f"On {menu.target_name}" \
            else "group"
        body.append(h("div", {"class_": cls, "role": "group",
                              "aria-label": group}, h("h3", None, group), buttons))
        if hints and not (group == f"On {menu.target_name}" and menu.target):
            body[-1:-1] = hints  # the actor's state lines, after what it can do to its target (issue 53: no scroll)
            hints = []
    body += hints
    title = f"Actions: {menu.actor_name}" + ("" if menu.is_current else " (not their turn)")
    # Two parts and the referee's tools (their own parts and region): a new selection writes the menu and the
    # few fields that name the combatant, not the effect form's row of every combatant (issue 38, 120 of them).
    return h("section", {"class_": "panel actions", "aria-label": "Actions", "data-testid": "actions"},
             part("act-main", h("div", {"id": "act-main", "class_": "act-main"}, h("h2", None, title, " ", join(badge(b) for b in menu.badges),
               h("button", {"type": "button", "class_": "hp-quick-btn", "data-action": f"hp:{menu.actor}",
                            "data-testid": "hp-quick", "title": f"{menu.actor_name}: hit points and conditions"},
                 "± HP / cond."),
               h("button", {"type": "button", "class_": "hp-quick-btn", "data-action": f"effect:{menu.actor}",
                            "data-testid": "effect-open", "title": "One effect on several: a spell, an item, a ruling"},
                 "Effect…"),
               h("button", {"type": "button", "class_": "hp-quick-btn", "data-action": f"hp:{menu.target}",
                            "data-testid": "hp-quick-target",
                            "title": f"{menu.target_name}: hit points and conditions"}, f"± {menu.target_name}")
               if menu.target and menu.target != menu.actor else ""), body)), referee)


def target_style(cid: str) -> Markup:
    """Marks the target's token on the field (grid, zones, ruler) without redrawing the field: a rule for
    its id, drawn with the actions that name it (ids the selector cannot spell are left unmarked)."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", cid):
        return Markup("")
    return Markup(f"<style>#field-slot [data-token={cid}] .hit{{fill:var(--target-fill);stroke:var(--target);"
                  f"stroke-width:.9;stroke-dasharray:2 1}}"
                  f"#field-slot button[data-token={cid}]{{outline:3px dashed var(--target);outline-offset:1px}}"
                  f"[data-testid=lane-btn-{cid}]{{box-shadow:inset 0 0 0 2px var(--target)}}</style>")


def fold(group: str, refused: list, shown: bool, said: str = "") -> Markup:
    """A group's refused options behind one button ("Show 56 not allowed now"), each still with its reason
    and its "Allow anyway" once shown. A reason they all share is said once, above them, shown or not
    (`said`: the id of the panel's own line that already says it)."""
    reasons = {it.why for it in refused}
    shared = refused[0].why if len(reasons) == 1 and refused[0].why and not said else ""
    slug = group.lower().replace(" ", "-")
    why_id = said or (f"why-{slug}" if shared else "")
    toggle = h("button", {"type": "button", "class_": "fold", "data-action": f"fold:{group}",
                          "data-testid": f"fold-{slug}", "aria-expanded": "true" if shown else "false",
                          "aria-controls": f"folded-{slug}"},
               h("span", {"aria-hidden": "true"}, "▾" if shown else "▸"), " ",
               f"{'Hide the' if shown else 'Show'} {len(refused)} not allowed now")
    parts = [toggle]
    if shared:
        parts.append(h("p", {"class_": "why", "id": f"why-{slug}"}, with_rules(shared)))
    if shown:
        parts.append(h("div", {"class_": "folded", "id": f"folded-{slug}"},
                       [_BUTTONS.get((it, why_id) if why_id else it,
                                lambda: action_button(it, why_id)) for it in refused]))
    return h("div", {"class_": "fold-wrap", "data-key": f"fold-{slug}"}, parts)


def action_button(it, why_id: str = "", picked: int = -1) -> Markup:
    """One option; a refused one with its reason and "Allow anyway" (`why_id`: the reason is said once for
    its fold, so this one points to it instead of repeating it). An option whose question has a default
    (`picked`: the answer a tap gives) says that answer, with its other answers one tap away."""
    label = [h("span", {"class_": "key", "aria-hidden": "true"}, str(it.number)) if it.number else "",
             h("span", {"class_": "lbl", "title": it.label}, it.label)]
    alt = picked >= 0 and it.allowed and len(it.choices) == 2  # the other answer is a button beside it
    if picked >= 0 and not alt:
        label.append(h("span", {"class_": "cost"}, it.choices[picked][0]))
    elif it.hint:
        label.append(h("span", {"class_": "cost"}, it.hint))
    if it.allowed:  # its odds are written in after the drawing (ui/page/odds_ui.py), never part of this markup
        label.append(h("span", {"class_": "odds", "data-i": str(it.index), "data-testid": f"odds-{it.index}"}, ""))
    attrs = {"type": "button", "class_": "act" + ("" if it.allowed else " refused"),
             "data-action": f"opt:{it.index}", "data-testid": f"opt-{it.key or it.index}",
             "aria-disabled": "true" if not it.allowed else None,
             "aria-describedby": (why_id or f"why-{it.index}") if not it.allowed else None}
    if it.key == "next":
        attrs["title"] = "N"
    parts = [h("button", attrs, label)]
    if alt:
        # One other answer (OLOG's Press On): this button gives it, in one tap, and says which it is and
        # its price ("Press on" over "d4 (min 2)"); the default's consequence is the panel's hint.
        other = it.choices[1 - picked][0]
        word, _, price = other.partition(":")
        price = price.strip()
        price = price[5:] if price.startswith("take ") else price
        if len(price) > 12:  # "d4 (min 2)" fits the narrow button; a long reason in brackets stays in its title
            price = price.split(" (")[0]
        parts.append(h("button", {"type": "button", "class_": "more alt", "data-action": f"alt:{it.index}",
                                  "data-testid": f"alt-{it.key or it.index}",
                                  "aria-label": f"{it.label}: {other}", "title": f"{it.question} {other}"},
                       h("span", {"class_": "alt-w"}, word), h("span", {"class_": "alt-p"}, price) if price else ""))
    elif picked >= 0 and it.allowed:
        parts.append(h("button", {"type": "button", "class_": "more", "data-action": f"ask:{it.index}",
                                  "data-testid": f"ask-{it.key or it.index}",
                                  "aria-label": f"{it.label}: {it.question} (other answers)",
                                  "title": f"{it.question} (other answers)"}, "⋯"))
    if not it.allowed:
        parts.append(h("p", {"class_": "why", "id": None if why_id else f"why-{it.index}"},
                       "" if why_id else Markup(with_rules(it.why) + " "), h("button", {"type": "button", "class_": "allow", "data-action": f"allow:{it.index}",
                                         "title": "The referee allows it anyway (logged, CORE-REF-1)"},
                              "Allow anyway")))
    return h("div", {"class_": "act-wrap"}, parts)


def ask_box(a: AskModel) -> Markup:
    parts = [h("p", {"class_": "q"}, with_rules(a.question))]
    if a.choices:
        parts.append(h("div", {"class_": "choices"},
                       [h("button", {"type": "button", "class_": "choice", "data-action": f"choose:{i}",
                                     "data-testid": f"choice-{i}"},
                          h("span", {"class_": "lbl", "title": label}, label), h("span", {"class_": "cost"}, detail) if detail else "")
                        for i, (label, detail) in enumerate(a.choices)]))
    if a.few:
        parts.append(few_form(a.few, a.groups, bool(a.choices)))
    elif a.choices:
        pass  # the buttons above are the answers
    elif a.need.startswith(("number:", "text:")):
        kind = "number" if a.need.startswith("number:") else "text"
        parts.append(h("form", {"class_": "need-form", "data-action": "need-submit"},
                       h("label", None, a.need_label or a.need.split(":", 1)[1], " ",
                         h("input", {"type": kind, "name": "value", "data-testid": "need-value", "required": True,
                                     "maxlength": "80" if kind == "text" else None})),
                       h("button", {"type": "submit"}, "OK")))
    else:
        parts.append(h("p", {"class_": "muted"}, a.need_label))
    parts.append(h("button", {"type": "button", "class_": "cancel", "data-action": "cancel"}, "Cancel (Esc)"))
    return h("div", {"class_": "ask", "role": "dialog", "aria-label": "Choose", "data-testid": "ask"}, parts)


def referee_tools(name: str, cid: str, hp: int, max_hp: int, conditions: tuple[str, ...], unit: str = "rounds",
                  refused: tuple[str, str, str] | None = None) -> Markup:
    """The referee's tools for one combatant; `refused`: the condition typed, its duration and why it was not
    added, said beside the form (the name's field marked when it is empty, else the duration's)."""
    typed, lasts, why = refused or ("", "", "")
    bad_name = refused is not None and not typed.strip()
    bad_lasts = refused is not None and not bad_name
    conds = [h("li", None, c, " ", h("button", {"type": "button", "data-action": f"uncond:{cid}:{i}",
                                                  "aria-label": f"Remove {c}"}, "×"))
             for i, c in enumerate(conditions)]
    return h("details", {"class_": "referee", "data-testid": "referee"},
             part("ref-sum", h("summary", {"id": "ref-sum"}, f"Referee: {name}")),
             part("ref-forms", h("div", {"id": "ref-forms", "class_": "ref-forms"},
             h("form", {"class_": "hp-form", "data-action": "hp-form", "data-id": cid},
               h("label", None, "Damage ", h("input", {"type": "number", "name": "damage", "min": "0",
                                                        "max": "10000", "inputmode": "numeric",
                                                        "data-testid": "damage-input"})),
               h("button", {"type": "submit", "name": "op", "value": "damage", "data-testid": "apply-damage"},
                 "Apply damage"),
               h("label", None, "Set HP ", h("input", {"type": "number", "name": "hp", "min": "-10000",
                                                        "max": "10000", "value": str(hp),
                                                        "data-testid": "hp-input"})),
               h("button", {"type": "submit", "name": "op", "value": "sethp", "data-testid": "set-hp"},
                 f"Set (max {max_hp})")),
             h("form", {"class_": "cond-form", "data-action": "cond-form", "data-id": cid},
               h("label", None, "Condition ", h("input", {"type": "text", "name": "condition", "maxlength": "40",
                                                           "list": "condition-names", "data-testid": "cond-name",
                                                           "value": typed or None, **_invalid(bad_name)})),
               h("label", None, f"for ({unit} or minutes, empty: until removed) ",
                 h("input", {"type": "text", "name": "lasts", "maxlength": "20", "autocomplete": "off",
                             "placeholder": f"3 or 3 {unit}", "class_": "cond-lasts", "data-testid": "cond-lasts",
                             "value": lasts or None, **_invalid(bad_lasts)})),
               h("button", {"type": "submit", "data-testid": "cond-add"}, "Add"),
               h("span", {"class_": "f-why", "id": "cond-why", "role": "alert", "data-testid": "cond-why"}, why)
               if refused else ""),
             h("ul", {"class_": "conds"}, conds) if conds else "")))


def _invalid(bad: bool) -> dict[str, str]:
    return {"aria-invalid": "true", "aria-describedby": "cond-why"} if bad else {}


def dice_panel(mode: str, last: str, sides: tuple[tuple[str, str, bool], ...] = ()) -> Markup:
    """The roller, and who rolls (CORE-DICE-3): `mode` "app" | "physical" | "sides"; `sides` (id, name,
    typed by hand) for the per-side choice, shown once some side types its own."""
    def radio(value: str, label: str, testid: str) -> Markup:
        return h("label", None, h("input", {"type": "radio", "name": "dice-mode", "value": value,
                                             "checked": mode == value or (value == "players" and mode == "sides"),
                                             "data-action": f"dice-mode:{value}", "data-testid": testid}),
                 " ", label)

    per_side = ""
    if mode == "sides":
        per_side = h("fieldset", {"class_": "dice-sides", "data-testid": "dice-sides"},
                     h("legend", None, "Typed by hand"),
                     [h("label", None, h("input", {"type": "checkbox", "checked": hand,
                                                   "data-action": f"dice-side:{sid}",
                                                   "data-testid": f"dice-side-{sid}"}), " ", name)
                      for sid, name, hand in sides])
    return h("section", {"class_": "panel dice", "aria-label": "Dice"},
             h("h2", None, "Dice"),
             h("form", {"class_": "roller", "data-action": "roll"},
               h("label", {"class_": "sr-only", "for": "dice-expr"}, "Dice to roll"),
               h("input", {"id": "dice-expr", "name": "expr", "value": "1d20", "maxlength": "20",
                           "data-testid": "dice-expr", "autocomplete": "off", "spellcheck": "false"}),
               h("button", {"type": "submit", "data-testid": "roll"}, "Roll")),
             h("p", {"class_": "last-roll", "data-testid": "last-roll", "aria-live": "polite"}, last),
             h("fieldset", {"class_": "dice-mode"},
               h("legend", None, "Who rolls"),
               radio("app", "App rolls", "dice-app"),
               radio("physical", "I roll my dice", "dice-physical"),
               radio("players", "Players roll theirs", "dice-players")),
             per_side)


_LINES = Cache(4000)


def log_panel(lines: list[LogLine], total: int) -> Markup:
    """The log, newest first. Each line is keyed by its step and its place in that step (a step's events
    never change), and its markup is made once; the list is a region, so a step writes its new lines
    and drops the oldest past the limit, and an undo takes its lines away, without the rest rewritten."""
    items = []
    seen: dict[int, int] = {}
    for ln in lines:
        n = seen[ln.step] = seen.get(ln.step, -1) + 1
        items.append(_LINES.get((ln, n), lambda: log_line(ln, n)))
    more = h("p", {"class_": "muted", "id": "log-more"},
             f"{total - len(lines)} earlier events (export for the whole log)" if total > len(lines) else "")
    return h("section", {"class_": "panel log", "aria-label": "Log"},
             h("h2", None, "Log ", h("button", {"type": "button", "data-action": "export-log",
                                                "data-testid": "export-log", "class_": "small"}, "Export"),
               " ", h("button", {"type": "button", "data-action": "review", "data-testid": "open-review",
                                 "class_": "small"}, "Timeline"),
               " ", h("button", {"type": "button", "data-action": "recap", "data-testid": "open-recap",
                                 "class_": "small"}, "Summary")),
             # role=log on a wrapper: on the <ol> itself it hid the list from screen readers (axe: listitem).
             h("div", {"role": "log", "aria-live": "polite", "aria-label": "Log entries"},
               h("ol", {"class_": "log-list", "data-testid": "log", "data-region": True}, region(items))),
             part("log-more", more))


def log_line(ln: LogLine, n: int) -> Markup:
    return h("li", {"class_": f"log-{ln.kind}", "data-key": f"e{ln.step}-{n}"},
             h("span", {"class_": "step"}, str(ln.step)),
             h("span", {"class_": "text"}, "(secret roll) " if ln.secret else "", with_rules(ln.text)),
             h("span", {"class_": "faces"}, ln.dice) if ln.dice else "",
             with_rules(ln.rule) if ln.rule else "")


def result_card(result: StepResult | None, testid: str) -> Markup:
    """The last step's result where the referee looks (beside the actions; above the tabs on a phone): every
    event with its dice and rule ids, each hit point it changed, and who went down, until the next step."""
    if result is None:
        return Markup("")
    downed = [h("p", {"class_": "res-down", "data-testid": f"{testid}-down"}, "\u2620 ", name, " is down.")
              for name in result.downed]
    def line(ln: LogLine) -> Markup:
        return h("li", {"class_": f"log-{ln.kind}"},
                 h("span", {"class_": "text"}, "(secret roll) " if ln.secret else "", with_rules(ln.text)),
                 h("span", {"class_": "faces"}, ln.dice) if ln.dice else "",
                 with_rules(ln.rule) if ln.rule else "")
    # A morale roll ends a fight as a death does: kept above the events' box, never its hidden 8th line (#53).
    key = [line(ln) for ln in result.lines if is_morale(ln)]
    lines = [line(ln) for ln in result.lines if not is_morale(ln)]
    hp = [h("li", {"class_": "res-hp" + (" down" if c.after <= 0 or c.downed else "")},
            h("strong", None, c.name), f" {c.before} \u2192 {c.after} / {c.max_hp} HP",
            " (down)" if c.downed else " (back up)" if c.rose else "") for c in result.hp]
    return h("section", {"class_": "panel result", "data-testid": testid, "data-step": str(result.step),
                         "aria-label": "Last result"},
             h("h2", None, f"Step {result.step}"),
             downed,
             h("ul", {"class_": "res-key", "data-testid": f"{testid}-key"}, key) if key else "",
             # Focusable: beside the actions the list scrolls within a few lines' height (fray.css), so
             # that a long step (initiative, a segment's resolutions) leaves the actions on the screen.
             h("ul", {"class_": "res-lines", "tabindex": "0", "aria-label": f"Events of step {result.step}"},
               lines),
             h("ul", {"class_": "res-hps"}, hp) if hp else "")


def is_morale(ln: LogLine) -> bool:
    """A line of the result card that says a side's or a creature's morale (OSE-MORALE-1, a side's check)."""
    return "MORALE" in ln.rule.upper() or "morale" in ln.text.lower()


def dice_entry(purpose: str, count: int, sides: int, typed: int = 0, answer: str = "") -> Markup:
    """Physical dice: ask the referee for the faces before resolving; `answer`: the question the tap answered
    before any die (OLOG-PRES-2) and its answer."""
    inputs = [h("input", {"type": "number", "name": f"f{i}", "min": "1", "max": str(sides), "required": True,
                          "inputmode": "numeric", "aria-label": f"Die {i + 1} of {count} (d{sides})",
                          "data-testid": f"face-{i}"}) for i in range(count)]
    return h("div", {"class_": "modal", "role": "dialog", "aria-modal": "true", "aria-labelledby": "dice-entry-t",
                     "data-testid": "dice-entry", "data-typed": str(typed)},
             h("form", {"class_": "modal-box", "data-action": "faces"},
               h("h2", {"id": "dice-entry-t"}, f"Roll {count}d{sides}"),
               h("p", None, f"For: {purpose}" if purpose else ""),
               h("p", {"data-testid": "dice-answer"}, answer) if answer else "",
               h("div", {"class_": "faces-in"}, inputs),
               h("div", {"class_": "row"}, h("button", {"type": "submit", "data-testid": "faces-ok"}, "Use these"),
                 h("button", {"type": "button", "data-action": "cancel"}, "Cancel"))))


def share_dialog(url: str, copied: bool) -> Markup:
    return h("div", {"class_": "modal", "role": "dialog", "aria-modal": "true", "aria-labelledby": "share-t",
                     "data-testid": "share-dialog"},
             h("div", {"class_": "modal-box"},
               h("h2", {"id": "share-t"}, "Share this encounter"),
               h("p", None, "The link carries the whole encounter and its history; nothing is uploaded."),
               h("textarea", {"readonly": True, "rows": "4", "data-testid": "share-url", "aria-label": "Share link"},
                 url),
               h("p", {"role": "status"}, "Copied to the clipboard." if copied else ""),
               h("div", {"class_": "row"},
                 h("button", {"type": "button", "data-action": "copy-share"}, "Copy"),
                 h("button", {"type": "button", "data-action": "cancel"}, "Close"))))


def rule_popover(rule_id: str, text: str) -> Markup:
    return h("div", {"class_": "modal", "role": "dialog", "aria-modal": "true", "aria-labelledby": "rule-t",
                     "data-testid": "rule-dialog"},
             h("div", {"class_": "modal-box"},
               h("h2", {"id": "rule-t"}, rule_id), h("p", None, text or "No text in the catalogue."),
               h("button", {"type": "button", "data-action": "cancel"}, "Close")))


def notice(text: str, tone: str) -> Markup:
    if not text:
        return Markup("")
    return h("div", {"class_": f"notice tone-{tone}", "data-testid": f"notice-{tone}"},
             h("span", None, with_rules(text)),
             h("button", {"type": "button", "data-action": "dismiss", "aria-label": "Dismiss"}, "×"))


def tabs(active: str) -> Markup:
    """The phone's bottom bar (UI.md: Field, Order, Act, Log)."""
    items = (("field", "Field"), ("order", "Order"), ("act", "Act"), ("log", "Log"))
    return h("nav", {"class_": "tabs", "aria-label": "Views"},
             [h("button", {"type": "button", "data-action": f"tab:{k}", "data-testid": f"tab-{k}",
                           "aria-pressed": "true" if k == active else "false"}, label) for k, label in items])
