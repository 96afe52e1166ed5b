"""OSE's declaration step as one panel above the field: every combatant's pre-initiative choice in one tap.

During the declaration step (OSE-DECL-1) each combatant that can act gets a
row, grouped by side: Nothing, one button per prepared spell (a drop-down when
there are many), Full Defense and Brace. A tap acts at once with the `Declare`
command the engine offered (logged, undoable); a refused choice is greyed and
its reason is written under the row, with "Allow anyway" for the referee
(CORE-REF-1). A reason every row shares (Full Defense in the loose profile) is
said once in the header. Round 1 shows the referee's surprise toggles
(OSE-SUR-1) and the panel ends with the button that rolls initiative. Once
initiative is rolled the declarations are locked: a one-line read-only strip
says what was declared this round. Pure: no browser imports.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...engine.commands import Option
from ...engine.model import Combatant
from ...engine.referee import Allow
from ...engine.state import State
from ...rules.ose import OseState
from ...views.ose import VIEW, DeclChoice, DeclRow
from .field_views import FieldAction, FieldContext, FieldView
from ..markup.html import Markup, h, join, with_rules
from ..markup.panels import side_mark

SPELL_BUTTONS = 4  # more prepared spells than this: a drop-down instead of a row of buttons
KINDS = ("none", "spell", "fd", "brace")
# Small inline icons: a shield (Full Defense) and a planted spear (Brace) draw the same on every device.
_SVG = ('<svg class="ico-svg" viewBox="0 0 16 16" width="1em" height="1em" aria-hidden="true" focusable="false">'
        '{}</svg>')
ICON = {"spell": Markup("✦"), "none": Markup("–"),
        "fd": Markup(_SVG.format('<path d="M8 1 14 3v5c0 3.4-2.7 5.9-6 7-3.3-1.1-6-3.6-6-7V3z" fill="currentColor"/>')),
        "brace": Markup(_SVG.format('<path d="M3.5 13.5 12 5" stroke="currentColor" stroke-width="1.8" fill="none"/>'
                                    '<path d="M10 2.5 14.5 1.5 13.5 6z" fill="currentColor"/>'
                                    '<path d="M1 15h9" stroke="currentColor" stroke-width="1.6"/>'))}
WORD = {"spell": "Spell", "fd": "Full Defense", "brace": "Brace"}
LOCKED_WORD = {"full_defense": "Full Defense", "brace": "Brace"}


@dataclass(frozen=True)
class Refusal:
    """A greyed choice's reason as a row shows it; `allow` holds the overrides as (what, action argument),
    `what` naming the spell when the row has several."""

    text: str
    allow: tuple[tuple[str, str], ...] = ()


def choice_of(row: DeclRow, kind: str, n: int) -> DeclChoice | None:
    """The choice a button stands for: "none", the n-th spell, "fd" or "brace"."""
    if kind == "none":
        return row.clear
    if kind == "spell":
        return row.spells[n] if 0 <= n < len(row.spells) else None
    if kind == "fd":
        return row.full_defense
    if kind == "brace":
        return row.brace
    return None


def action_arg(kind: str, n: int, cid: str) -> str:
    """The data-action argument of a choice: the id goes last, so an id holding ':' stays whole."""
    return f"{kind}:{n}:{cid}"


def parse_arg(arg: str) -> tuple[str, int, str] | None:
    kind, _, rest = arg.partition(":")
    n, _, cid = rest.partition(":")
    if kind not in KINDS or not n.isdigit() or not cid:
        return None
    return kind, int(n), cid


def shared_reasons(rows: list[DeclRow]) -> dict[str, str]:
    """One sentence refusing a choice to every row alike (Full Defense and Brace in the loose profile): the
    header says it once, and the rows leave out a button nobody could press (fast to fill, OSE-LOOSE-1)."""
    out = {}
    if len(rows) < 2:
        return out
    for kind, pick in (("fd", lambda r: r.full_defense), ("brace", lambda r: r.brace)):
        whys = {None if pick(r) is None or pick(r).allowed else pick(r).why for r in rows}
        if len(whys) == 1 and None not in whys:
            out[kind] = whys.pop()
    return out


def common_reasons(rows: list[DeclRow], shared: dict[str, str]) -> dict[str, tuple[str, tuple[DeclRow, ...]]]:
    """A refusal several rows share word for word (Brace refused to five of seven for holding no brace
    weapon): said once above the sides, with an "Allow" per row named, instead of under each row."""
    out = {}
    for kind, pick in (("fd", lambda r: r.full_defense), ("brace", lambda r: r.brace)):
        if kind in shared:
            continue
        by_text: dict[str, list[DeclRow]] = {}
        for r in rows:
            ch = pick(r)
            if ch is not None and not ch.allowed:
                by_text.setdefault(short_why(kind, ch.why, r.name), []).append(r)
        text, many = max(by_text.items(), key=lambda kv: len(kv[1]), default=("", []))
        if len(many) >= 2:
            out[kind] = (text, tuple(many))
    return out


def refusals(row: DeclRow, shared: dict[str, str], common: dict | None = None) -> list[Refusal]:
    """The reasons written under a row, one per refused kind of choice (shared and common ones left to the
    header)."""
    common = common or {}
    out = []
    if row.spells and not row.spell_allowed:
        allow = (("", action_arg("spell", 0, row.id)),) if len(row.spells) == 1 else tuple(
            (ch.label.removeprefix("Cast "), action_arg("spell", i, row.id)) for i, ch in enumerate(row.spells))
        out.append(Refusal(short_why("spell", row.spell_why, row.name), allow))
    for kind, ch in (("fd", row.full_defense), ("brace", row.brace)):
        if ch is not None and not ch.allowed and kind not in shared \
                and not (kind in common and row in common[kind][1]):
            out.append(Refusal(short_why(kind, ch.why, row.name), (("", action_arg(kind, 0, row.id)),)))
    return out


def short_why(kind: str, why: str, name: str) -> str:
    """The engine's sentence under its row: "Brace: holds no weapon..." rather than repeating the row's name."""
    if why.startswith(name + " "):
        why = why[len(name) + 1:]
    return f"{WORD[kind]}: {why}"


def _button(label: str, icon: str, ch: DeclChoice, arg: str, testid: str, title: str = "") -> Markup:
    return h("button", {"type": "button", "class_": "decl-btn" + (" on" if ch.selected else ""),
                        "data-action": f"decl:{arg}", "data-testid": testid,
                        "aria-pressed": "true" if ch.selected else "false", "disabled": not ch.allowed,
                        "title": ch.why or title or None},
             h("span", {"aria-hidden": "true", "class_": "ico"}, icon), h("span", {"class_": "lbl"}, label))


def spells_html(row: DeclRow) -> Markup:
    if not row.spells:
        # The greyed button says why itself (the engine's sentence names an empty spell).
        return h("button", {"type": "button", "class_": "decl-btn", "disabled": True,
                            "data-testid": f"decl-{row.id}-spell", "title": f"{row.name} has no spells prepared"},
                 h("span", {"aria-hidden": "true", "class_": "ico"}, ICON["spell"]), h("span", {"class_": "lbl"},
                                                                                         "No spells"))
    if len(row.spells) <= SPELL_BUTTONS:
        return Markup("".join(
            _button(ch.label.removeprefix("Cast "), ICON["spell"], ch, action_arg("spell", i, row.id),
                    f"decl-{row.id}-spell-{i}", f"Cast {ch.label.removeprefix('Cast ')} (OSE-DECL-1)")
            for i, ch in enumerate(row.spells)))
    chosen = next((i for i, ch in enumerate(row.spells) if ch.selected), None)
    opts = [h("option", {"value": "", "selected": chosen is None}, "✦ Cast a spell…")]
    for i, ch in enumerate(row.spells):
        opts.append(h("option", {"value": action_arg("spell", i, row.id), "selected": chosen == i,
                                 "disabled": not ch.allowed}, ch.label.removeprefix("Cast ")))
    return h("select", {"class_": "decl-select" + (" on" if chosen is not None else ""),
                        "data-action": "decl-pick", "data-testid": f"decl-{row.id}-spells",
                        "aria-label": f"{row.name}: spell to cast", "disabled": not row.spell_allowed}, opts)


def has_choice(row: DeclRow, shared: dict[str, str]) -> bool:
    """Whether the row offers anything besides "Nothing": a choice allowed, or one to allow anyway."""
    live = [ch for ch in (*row.spells, row.full_defense, row.brace) if ch is not None and ch.allowed]
    return bool(row.declared or live or refusals(row, shared))


def row_html(row: DeclRow, shared: dict[str, str], common: dict | None = None) -> Markup:
    if not has_choice(row, shared):
        # Nothing it could declare (no spells; Full Defense and Brace refused to all): one quiet line.
        return h("li", {"class_": "decl-row idle", "data-testid": f"decl-{row.id}", "data-declared": ""},
                 h("div", {"class_": "decl-who"}, h("strong", {"title": row.name}, row.name),
                   h("span", {"class_": "decl-now", "data-testid": f"decl-now-{row.id}"},
                     "nothing to declare (no spells prepared)" if not row.spells else "nothing to declare")))
    now = row.declared or "nothing"
    why = [h("p", {"class_": "why"}, with_rules(r.text),
             [[" ", h("button", {"type": "button", "class_": "allow", "data-action": f"decl-allow:{arg}",
                                 "title": "The referee allows it anyway (logged, CORE-REF-1)",
                                 "aria-label": f"Allow {what or r.text.split(':')[0]} anyway"},
                       f"Allow {what}".strip())]
              for what, arg in r.allow]) for r in refusals(row, shared, common)]
    return h("li", {"class_": "decl-row" + (" set" if row.declared else ""), "data-testid": f"decl-{row.id}",
                    "data-declared": row.declared},
             h("div", {"class_": "decl-who"}, h("strong", {"title": row.name}, row.name),
               h("span", {"class_": "decl-now", "data-testid": f"decl-now-{row.id}"},
                 "✎ " + now if row.declared else now)),
             h("div", {"class_": "decl-choices", "role": "group", "aria-label": f"{row.name} declares"},
               _button("Nothing", ICON["none"], row.clear, action_arg("none", 0, row.id), f"decl-{row.id}-none"),
               spells_html(row),
               _button("Full Defense", ICON["fd"], row.full_defense, action_arg("fd", 0, row.id),
                       f"decl-{row.id}-fd", "Attacks against it have disadvantage (OSE-FD-1)")
               if row.full_defense and "fd" not in shared else "",
               _button("Brace", ICON["brace"], row.brace, action_arg("brace", 0, row.id), f"decl-{row.id}-brace",
                       "A free double-damage attack on a charger (OSE-BRACE-1)")
               if row.brace and "brace" not in shared else ""),
             why)


def idle_word(c: Combatant) -> str:
    """Why a combatant has no row to fill: what the page already shows of it (down, its conditions)."""
    if c.is_down:
        return "down"
    return ", ".join(c.conditions) or "cannot act"


def find_option(options: list[Option], type_name: str, **fields: object) -> int | None:
    """The index of the offered option with this command type (and field values), if any."""
    for i, o in enumerate(options):
        if o.command.type_name == type_name and all(getattr(o.command, k, None) == v for k, v in fields.items()):
            return i
    return None


def panel_html(ctx: FieldContext, rows: list[DeclRow]) -> Markup:
    state = ctx.state
    shared = shared_reasons(rows)
    common = common_reasons(rows, shared)
    by_side: dict[str, list[DeclRow]] = {}
    for r in rows:
        by_side.setdefault(r.side, []).append(r)
    has_row = {r.id for r in rows}
    sides = []
    for side in state.sides:
        members = state.on_side(side.id)
        if not members:
            continue
        surprise = ""
        i = find_option(ctx.options, "Surprise", side=side.id)
        if i is not None:
            o = ctx.options[i]
            on = isinstance(state.board, OseState) and side.id in state.board.surprised
            surprise = h("button", {"type": "button", "class_": "small decl-surprise" + (" on" if on else ""),
                                    "data-action": f"decl-opt:{i}", "data-testid": f"decl-surprise-{side.id}",
                                    "aria-pressed": "true" if on else "false", "disabled": not o.allowed,
                                    "title": f"{o.label} (referee's call, OSE-SUR-1)"},
                         "☑ Surprised" if on else "☐ Surprised")
        idle = [h("li", {"class_": "decl-row idle", "data-testid": f"decl-{c.id}"},
                  h("div", {"class_": "decl-who"}, h("strong", {"title": c.name}, c.name),
                    h("span", {"class_": "decl-now"}, idle_word(c))))
                for c in members if c.id not in has_row]
        sides.append(h("section", {"class_": "decl-side", "data-testid": f"decl-side-{side.id}",
                                   "aria-label": side.name},
                       h("h3", None, side_mark(side), " ", side.name, " ", surprise),
                       h("ul", {"class_": "decl-rows"}, [row_html(r, shared, common) for r in by_side.get(side.id, [])],
                         idle)))
    notes = [h("p", {"class_": "why", "data-testid": f"decl-shared-{kind}"},
               with_rules(why if why.startswith(WORD[kind]) else f"{WORD[kind]}: {why}"))
             for kind, why in shared.items()]
    notes += [h("p", {"class_": "why decl-common", "data-testid": f"decl-common-{kind}"},
                with_rules(text), " · Allow anyway for ",
                join(h("button", {"type": "button", "class_": "allow", "data-action": f"decl-allow:{action_arg(kind, 0, r.id)}",
                                  "title": "The referee allows it anyway (logged, CORE-REF-1)",
                                  "aria-label": f"Allow {WORD[kind]} for {r.name} anyway"}, r.name)
                     for r in many))
              for kind, (text, many) in common.items()]
    go = ""
    i = next((k for k, o in enumerate(ctx.options) if o.key == "next"), None)
    if i is not None:
        o = ctx.options[i]
        # In the header, so the page does not jump when the tall panel gives way to the field.
        go = h("button", {"type": "button", "class_": "decl-go", "data-action": f"decl-opt:{i}",
                          "data-testid": "decl-go", "disabled": not o.allowed,
                          "title": o.why or "Locks every declaration (OSE-DECL-1); key N"}, o.label)
    count = sum(1 for r in rows if r.declared)
    return h("section", {"class_": "panel decl", "data-testid": "declarations", "aria-label": "Declarations"},
             h("header", {"class_": "decl-head"},
               h("h2", None, "Declare before initiative ", with_rules("OSE-DECL-1")),
               h("span", {"class_": "muted decl-count", "data-testid": "decl-count"},
                 f"{count} of {len(rows)} declared"), go),
             h("div", {"class_": "decl-body"}, notes, sides))


def locked_html(state: State) -> Markup:
    """After initiative: what was declared this round, read-only (OSE-DECL-1: it cannot change now)."""
    declared = state.board.declared if isinstance(state.board, OseState) else {}
    items = []
    for c in state.combatants:
        if c.id not in declared:
            continue
        action, spell = declared[c.id]
        icon = {"spell": ICON["spell"], "full_defense": ICON["fd"], "brace": ICON["brace"]}.get(action, "")
        what = f"casts {spell}" if action == "spell" else LOCKED_WORD.get(action, action)
        items.append(h("li", {"data-testid": f"locked-{c.id}"}, h("span", {"aria-hidden": "true"}, icon), " ",
                       h("strong", None, c.name), f": {what}"))
    if not items:
        return Markup("")
    return h("div", {"class_": "decl-locked", "data-testid": "declarations-locked", "role": "note"},
             h("span", {"class_": "lock"}, "Declared this round, locked ", with_rules("OSE-DECL-1"), ":"),
             h("ul", None, items))


class DeclarationsView(FieldView):
    """The declaration step above the OSE field (phase slot)."""

    name = "declarations"
    slot = "phase-slot"

    def render(self, ctx: FieldContext) -> Markup:
        s = ctx.state.board
        if ctx.state.outcome or getattr(s, "phase", "") not in ("declare", "act"):
            return Markup("")
        if s.phase == "act":
            return locked_html(ctx.state)
        return panel_html(ctx, VIEW.declarations(ctx.state))

    def act(self, ctx: FieldContext, action: str, arg: str) -> FieldAction | None:
        if action == "decl-opt":
            # Roll initiative / mark a side surprised: the selected actor's own option (asks first if it must).
            return FieldAction(choose=int(arg)) if arg.isdigit() else None
        if action not in ("decl", "decl-pick", "decl-allow"):
            return None
        parsed = parse_arg(arg)
        if parsed is None:
            return FieldAction(redraw=True) if action == "decl-pick" else None
        kind, n, cid = parsed
        row = next((r for r in VIEW.declarations(ctx.state) if r.id == cid), None)
        ch = None if row is None else choice_of(row, kind, n)
        if ch is None:
            return FieldAction(message="Declarations are locked once initiative is rolled (OSE-DECL-1).",
                               redraw=True)
        if action == "decl-allow":
            return FieldAction(command=Allow(ch.command))
        if not ch.allowed:
            return FieldAction(message=ch.why, redraw=True)
        return FieldAction(command=ch.command)


VIEW_FACTORY = DeclarationsView
