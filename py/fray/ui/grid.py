"""The tactical grid field (OSE detailed, Ogre): one SVG string of squares, walls, tokens, threat and a path preview.

Draws `views.grid.GridModel`. The board is a pattern plus only the special
squares (walls, threatened, path), never a node per empty cell; the board and
walls are cached per map, tokens per token. Pointer events arrive through the
app (`pointer(ctx, event)`); hovering, dragging, panning and zooming update a
few nodes of the drawn SVG directly (the viewBox, two overlay groups, the
notes) instead of redrawing the page for every pixel. A `data-gen` counter in
the markup makes the app's next full redraw replace what was patched.

Interactions: tap a token to select it; with a mover selected, tap a square to
preview the path and tap it again to go; shift-click (or the Waypoints toggle)
adds a stop; drag a token to move it (someone else's token, or one with no move
now: a referee placement, logged); wheel or pinch zooms, dragging the empty map
pans; long press shows a square's details; the Walls toggle paints walls (a
logged, undoable referee command). Arrows move a cursor, Enter acts on it.
"""
from __future__ import annotations

import math
from html import escape as _esc
from typing import Any

from ..engine.ruleset import Allow, Place, SetWalls
from ..views.grid import (GridModel, GridToken, PathPreview, PreviewRequest, can_move, commit_command, fmt,
                          grid_model, plan_path)
from .fields import FieldAction, FieldContext, FieldView
from .html import Markup, esc, h, with_rules

S = 10  # SVG units per 5 ft square
MAX_ZOOM = 8.0
LONG_PRESS_MS = 500
DRAG_PX = {"mouse": 5, "pen": 6, "touch": 10}


def _js_is_none() -> Any:
    try:
        from pyscript.ffi import is_none
    except ImportError:  # CPython tests drive the view with plain fakes
        return lambda value: False
    return is_none


_JS_IS_NONE: list = []


def _is_none(value: Any) -> bool:
    """None, or JS null/undefined (which is not None in the page)."""
    if value is None:
        return True
    if not _JS_IS_NONE:
        _JS_IS_NONE.append(_js_is_none())
    return bool(_JS_IS_NONE[0](value))


def _n(v: float) -> str:
    """A coordinate, short: 5 not 5.0, 2.5 not 2.50."""
    return str(int(v)) if v == int(v) else f"{v:.2f}".rstrip("0")


# --- token shapes (colour is never alone: each side also has a shape) ------------------------

def _poly(points) -> str:
    return "M" + "L".join(f"{_n(round(x, 2))} {_n(round(y, 2))}" for x, y in points) + "Z"


def _regular(n: int, r: float, start: float) -> list[tuple[float, float]]:
    return [(r * math.cos(start + 2 * math.pi * k / n), r * math.sin(start + 2 * math.pi * k / n)) for k in range(n)]


def _star(r_out: float, r_in: float) -> list[tuple[float, float]]:
    pts = []
    for k in range(10):
        r = r_out if k % 2 == 0 else r_in
        a = -math.pi / 2 + math.pi * k / 5
        pts.append((r * math.cos(a), r * math.sin(a)))
    return pts


SHAPES = {
    "circle": '<circle class="body" r="3.5"',
    "square": '<rect class="body" x="-3.1" y="-3.1" width="6.2" height="6.2" rx="0.6"',
    "diamond": f'<path class="body" d="{_poly([(0, -4), (4, 0), (0, 4), (-4, 0)])}"',
    "triangle": f'<path class="body" d="{_poly([(0, -4), (3.9, 3), (-3.9, 3)])}"',
    "hexagon": f'<path class="body" d="{_poly(_regular(6, 3.8, -math.pi / 2))}"',
    "star": f'<path class="body" d="{_poly(_star(4.2, 1.9))}"',
}
TEXT_DY = {"triangle": 1.1, "star": 0.5}


# --- the drawing -----------------------------------------------------------------------------

_BASE: dict[Any, str] = {}
_TOKENS: dict[GridToken, str] = {}


def forget() -> None:
    """Drop the drawing caches and the model's memos (benchmarks of a cold first draw)."""
    from ..views import grid as model
    _BASE.clear()
    _TOKENS.clear()
    _ETHR[0], _ETHR[1] = None, ""
    model.forget()


def base_layer(m: GridModel) -> str:
    """Defs, the board (one pattern-filled rect) and the walls (merged runs): cached per map."""
    key = m.map
    cached = _BASE.get(key)
    if cached is not None:
        return cached
    w, hgt = m.width * S, m.height * S
    runs = []
    by_row: dict[int, list[int]] = {}
    for x, y in m.walls:
        by_row.setdefault(y, []).append(x)
    for y in sorted(by_row):
        xs = sorted(by_row[y])
        start = prev = xs[0]
        for x in xs[1:] + [None]:
            if x is not None and x == prev + 1:
                prev = x
                continue
            runs.append(f'<rect x="{start * S}" y="{y * S}" width="{(prev - start + 1) * S}" height="{S}"/>')
            if x is not None:
                start = prev = x
    out = (
        '<defs>'
        f'<pattern id="grid-sq" width="{S}" height="{S}" patternUnits="userSpaceOnUse">'
        f'<path d="M{S} 0H0V{S}" fill="none" stroke="#8a8576" stroke-opacity="0.45" stroke-width="0.35"/></pattern>'
        '<pattern id="grid-hatch" width="2.4" height="2.4" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><path d="M0 0V2.4" stroke="#b53a2f" stroke-opacity="0.5" '
        'stroke-width="0.7"/></pattern>'
        '</defs>'
        f'<rect class="board" width="{w}" height="{hgt}"/>'
        f'<rect class="board-lines" width="{w}" height="{hgt}" fill="url(#grid-sq)"/>'
        f'<g class="walls" data-testid="walls" data-count="{len(m.walls)}">{"".join(runs)}</g>'
    )
    if len(_BASE) > 8:
        _BASE.clear()
    _BASE[key] = out
    return out


def token_svg(t: GridToken) -> str:
    cached = _TOKENS.get(t)
    if cached is not None:
        return cached
    x, y = t.square
    cls = "tok" + (" cur" if t.is_current else "") + (" sel" if t.is_selected else "") + (" down" if t.is_down else "")
    parts = [f'<g class="{cls}" data-token="{_esc(t.id)}" data-testid="tok-{_esc(t.id)}" '
             f'transform="translate({x * S + S // 2} {y * S + S // 2})"><title>{_esc(t.label)}</title>']
    if t.is_current:
        parts.append('<rect class="cur-bg" x="-4.8" y="-4.8" width="9.6" height="9.6" rx="1.2"/>')
    if t.is_selected:
        parts.append('<rect class="sel-ring" x="-4.6" y="-4.6" width="9.2" height="9.2" rx="1.6"/>')
    frac = 0.0 if t.max_hp <= 0 else max(0.0, min(1.0, t.hp / t.max_hp))
    tone = "ok" if frac > 0.5 else "warn" if frac > 0.25 else "danger"
    parts.append('<circle class="hp-bg" r="4.3"/>')
    if frac > 0:
        parts.append(f'<circle class="hp {tone}" r="4.3" pathLength="100" '
                     f'stroke-dasharray="{round(frac * 100, 1)} 100" transform="rotate(-90)"/>')
    colour = "#8d8d8d" if t.is_down else t.colour
    parts.append(f'{SHAPES.get(t.shape, SHAPES["circle"])} fill="{_esc(colour)}"/>')
    size = "3.2" if len(t.initials) <= 2 else "2.5"
    parts.append(f'<text class="ini" y="{TEXT_DY.get(t.shape, 0)}" font-size="{size}">{_esc(t.initials)}</text>')
    if t.is_down:
        parts.append('<path class="x" d="M-3 -3L3 3M3 -3L-3 3"/>')
    for i, b in enumerate(t.badges[:3]):
        title = b.title or b.word
        if b.rule and b.rule not in title:
            title += f" ({b.rule})"
        parts.append(f'<g class="bdg tone-{_esc(b.tone)}" transform="translate({_n(3.5 - i * 3.5)} -3.6)">'
                     f'<title>{_esc(b.word)}: {_esc(title)}</title><circle r="1.75"/>'
                     f'<text font-size="2.3" y="0.1">{_esc(b.icon)}</text></g>')
    if len(t.badges) > 3:
        parts.append(f'<text class="bdg-more" x="-3.6" y="-3.2" font-size="1.9">+{len(t.badges) - 3}</text>')
    parts.append('</g>')
    out = "".join(parts)
    if len(_TOKENS) > 600:
        _TOKENS.clear()
    _TOKENS[t] = out
    return out


def _rect(sq, cls: str, inset: float = 0.0, extra: str = "") -> str:
    return (f'<rect class="{cls}" x="{_n(sq[0] * S + inset)}" y="{_n(sq[1] * S + inset)}" '
            f'width="{_n(S - 2 * inset)}" height="{_n(S - 2 * inset)}"{extra}/>')


def _centre(sq) -> str:
    return f"{sq[0] * S + S // 2},{sq[1] * S + S // 2}"


def threat_layer(m: GridModel) -> str:
    rects = "".join(_rect(sq, "thr") for sq in sorted(m.threatened))
    return f'<g class="threat" data-testid="threat" data-count="{len(m.threatened)}">{rects}</g>'


_ETHR: list = [None, ""]


def under_layer(m: GridModel) -> str:
    """What lies under the tokens: the enemies' threat and the path line."""
    out = []
    if m.enemy_threat:
        if _ETHR[0] is not m.enemy_threat:  # the same area while the state stays: drawn once
            _ETHR[0] = m.enemy_threat
            _ETHR[1] = "".join(f"M{x * S} {y * S}h{S}v{S}h-{S}z" for x, y in sorted(m.enemy_threat))
        d = _ETHR[1]
        out.append(f'<path class="ethr" data-testid="enemy-threat" data-count="{len(m.enemy_threat)}" d="{d}"/>')
    p = m.path
    if p is not None:
        bad = bool(p.problem) or p.is_over
        if p.kind == "place":
            out.append(f'<polyline class="path place" points="{_centre(p.start)} {_centre(p.dest)}"/>')
        elif p.squares:
            pts = " ".join(_centre(s) for s in p.squares)
            out.append(f'<polyline class="path{" bad" if bad else ""}{" " + p.kind}" data-testid="path-line" '
                       f'data-steps="{len(p.squares) - 1}" points="{pts}"/>')
        for wp in p.waypoints:
            out.append(f'<circle class="wp" cx="{wp[0] * S + S // 2}" cy="{wp[1] * S + S // 2}" r="1.5"/>')
        if p.dest is not None:
            out.append(_rect(p.dest, "dest" + (" bad" if bad else ""), 0.6, ' data-testid="path-dest"'))
    return "".join(out)


def over_layer(m: GridModel, ui: dict) -> str:
    """Above the tokens: provocation markers, the cost label, hover, cursor, info and wall strokes."""
    out = []
    p = m.path
    if p is not None:
        for pr in p.provocations:
            x, y = pr.square
            out.append(f'<g class="aoo{" brace" if pr.brace else ""}" data-testid="aoo-{x}-{y}" '
                       f'data-attackers="{esc(" ".join(pr.attackers))}" '
                       f'transform="translate({x * S + S // 2} {y * S + S // 2})">'
                       f'<title>{esc(pr.text)}</title>'
                       '<path d="M0 -3.4L3.3 2.6H-3.3Z"/><text y="1.35" font-size="3.6">!</text></g>')
        if p.dest is not None and (p.squares or p.kind == "place"):
            dx, dy = p.dest
            label = "place" if p.kind == "place" else (
                f"{p.cost_ft}/{p.allowance_ft} ft" if p.allowance_ft is not None else f"{p.cost_ft} ft")
            ty = dy * S - 1.2 if dy > 0 else dy * S + S + 3.2
            out.append(f'<text class="cost{" bad" if (p.problem or p.is_over) else ""}" x="{dx * S + S // 2}" '
                       f'y="{_n(ty)}">{esc(label)}</text>')
    stroke = ui.get("stroke")
    if stroke:
        cls = "stroke erase" if stroke["erase"] else "stroke add"
        out.extend(_rect(sq, cls) for sq in stroke["squares"])
    if m.info is not None:
        out.append(_rect(m.info.square, "info-sq", 0.3))
    if m.hover is not None:
        hx, hy = m.hover
        out.append(_rect(m.hover, "hov", 0.2))
        if m.hover_ft and (p is None or p.dest != m.hover):  # the cost label says it there
            ty = hy * S - 1.2 if hy > 0 else hy * S + S + 3.2
            out.append(f'<text class="hov-t" x="{hx * S + S // 2}" y="{_n(ty)}">{m.hover_ft} ft</text>')
    if m.cursor is not None:
        out.append(_rect(m.cursor, "cursor", 0.5, ' data-testid="grid-cursor"'))
    return "".join(out)


def notes(m: GridModel, ui: dict) -> Markup:
    """The text under the map: threat, ranged, the path with every attack of opportunity named."""
    parts = []
    if ui.get("walls"):
        parts.append(h("p", {"class_": "g-mode", "data-testid": "walls-note"},
                       with_rules("Editing walls: tap or drag over squares to draw; start on a wall to erase. "
                                  "Each stroke is one step of the log and can be undone (CORE-REF-1).")))
    if m.threat_note:
        parts.append(h("p", {"class_": "g-sel", "data-testid": "threat-note"}, with_rules(m.threat_note)))
    if m.ranged_note:
        parts.append(h("p", {"class_": "g-ranged tone-warn", "data-testid": "ranged-note"},
                       h("span", {"aria-hidden": "true"}, "🏹 "), with_rules(m.ranged_note)))
    p = m.path
    if p is not None:
        parts.append(path_box(p, ui))
    if m.info is not None:
        buttons = []
        if m.info.can_place:
            buttons.append(h("button", {"type": "button", "class_": "small", "data-testid": "grid-place",
                                        "data-action": f"grid-place:{m.info.square[0]},{m.info.square[1]}"},
                             "Place the selected creature here (referee)"))
        buttons.append(h("button", {"type": "button", "class_": "small", "data-action": "grid-info-close"}, "Close"))
        parts.append(h("div", {"class_": "g-info", "data-testid": "grid-info"},
                       h("ul", None, [h("li", None, with_rules(line)) for line in m.info.lines]), buttons))
    parts.append(h("p", {"class_": "g-hover muted", "data-testid": "grid-hover", "aria-live": "polite"},
                   m.hover_note or ""))
    if p is None and not ui.get("walls"):
        parts.append(h("p", {"class_": "g-help muted"},
                       "Tap a token to select it. " + (
                           "Tap a square to see the path, tap it again to move; shift-click or Waypoints adds "
                           "a stop. " if m.move_ready else "")
                       + "Drag a token to move it (another's: a referee placement). Long press: square details."))
    return h("div", {"class_": "grid-notes", "id": "grid-notes", "data-testid": "grid-notes"}, parts)


def path_box(p: PathPreview, ui: dict) -> Markup:
    bad = p.problem or (f"{p.cost_ft} ft is more than the {p.allowance_ft} ft {p.mover_name} has left"
                        if p.is_over else "")
    lines = [h("p", {"class_": "g-sum"}, h("strong", None, p.summary))]
    if bad:
        lines.append(h("p", {"class_": "g-bad tone-danger", "data-testid": "path-problem"},
                       h("span", {"aria-hidden": "true"}, "⛔ "), with_rules(bad)))
    if p.kind != "place" and p.squares:
        if p.provocations:
            lines.append(h("ul", {"class_": "aoo-list", "data-testid": "aoo-list"},
                           [h("li", {"data-square": f"{pr.square[0]},{pr.square[1]}"},
                              h("span", {"class_": "aoo-ico", "aria-hidden": "true"}, "⚠"), " ", with_rules(pr.text))
                            for pr in p.provocations]))
        else:
            note = "No attack of opportunity on this path"
            if p.kind == "withdraw" and p.rule:
                note += f" (withdrawing: the first square left is safe, {p.rule})"
            elif p.rule:
                note += f" ({p.rule})"
            lines.append(h("p", {"class_": "g-ok", "data-testid": "aoo-none"}, with_rules(note)))
    buttons = []
    kind, _ = commit_command(p)
    if kind != "none":
        go = {"place": "Place here", "withdraw": "Withdraw here", "charge": "Charge"}.get(p.kind, "Move here")
        buttons.append(h("button", {"type": "button", "class_": "go", "data-action": "grid-commit",
                                    "data-testid": "grid-commit"},
                         go + ("" if p.kind == "place" else " (or tap the square again)")))
    if bad and p.command is not None and p.kind != "place" and p.squares:
        buttons.append(h("button", {"type": "button", "class_": "small", "data-action": "grid-allow",
                                    "data-testid": "grid-allow",
                                    "title": "The referee allows it anyway (logged, CORE-REF-1)"}, "Allow anyway"))
    if p.waypoints:
        buttons.append(h("button", {"type": "button", "class_": "small", "data-action": "grid-drop-point",
                                    "data-testid": "grid-drop-point"}, "Remove the last stop"))
    buttons.append(h("button", {"type": "button", "class_": "small", "data-action": "grid-cancel",
                                "data-testid": "grid-cancel"}, "Cancel (Esc)"))
    lines.append(h("div", {"class_": "row"}, buttons))
    return h("div", {"class_": "g-path" + (" bad" if bad else ""), "data-testid": "grid-path"}, lines)


def toolbar(m: GridModel, ui: dict) -> Markup:
    zoom = ui.get("view", (1.0, 0.0, 0.0))[0]

    def toggle(action: str, label: str, on: bool, testid: str, title: str) -> Markup:
        return h("button", {"type": "button", "class_": "small", "data-action": action, "data-testid": testid,
                            "aria-pressed": "true" if on else "false", "title": title}, label)

    return h("div", {"class_": "grid-bar", "role": "toolbar", "aria-label": "Map tools"},
             toggle("grid-wp", "Waypoints", bool(ui.get("wp")), "grid-wp",
                    "Taps add stops to the path (or hold Shift)"),
             toggle("grid-walls", "Edit walls", bool(ui.get("walls")), "grid-walls",
                    "Draw or erase walls (logged, undoable)"),
             h("span", {"class_": "grow"}),
             h("button", {"type": "button", "class_": "small", "data-action": "grid-zoom:out",
                          "data-testid": "grid-zoom-out", "aria-label": "Zoom out", "disabled": zoom <= 1.0}, "−"),
             h("span", {"class_": "zoom muted", "data-testid": "grid-zoom"}, f"{round(zoom * 100)}%"),
             h("button", {"type": "button", "class_": "small", "data-action": "grid-zoom:in",
                          "data-testid": "grid-zoom-in", "aria-label": "Zoom in", "disabled": zoom >= MAX_ZOOM}, "+"),
             h("button", {"type": "button", "class_": "small", "data-action": "grid-zoom:fit",
                          "data-testid": "grid-zoom-fit", "disabled": zoom <= 1.0}, "Fit"),
             h("span", {"class_": "dims muted"}, f"{m.width}×{m.height} squares of 5 ft"))


# --- the view ----------------------------------------------------------------------------------

class GridView(FieldView):
    name = "grid"

    # --- state kept in ctx.ui (transient, owned by this view) -------------------------------
    def _sync(self, ctx: FieldContext) -> None:
        """Forget what no longer fits the state: another map size, a path of a creature gone."""
        ui = ctx.ui
        m = ctx.state.encounter.map
        if ui.get("size") != (m.width, m.height):
            if "size" in ui:  # another map: the old squares mean nothing here
                for k in ("path", "hover", "cursor", "info", "press", "stroke", "view"):
                    ui.pop(k, None)
            ui["size"] = (m.width, m.height)
        ui.setdefault("view", (1.0, 0.0, 0.0))
        path = ui.get("path")
        if path is not None:
            mover = path.get("mover")
            if not ctx.state.has(mover) or ctx.state.get(mover).square is None:
                ui.pop("path", None)
            elif not path.get("drag") and mover != ctx.selected:
                ui.pop("path", None)  # the selection changed: the preview was the other's
        ui.setdefault("gen", 0)

    def request(self, ctx: FieldContext) -> PreviewRequest | None:
        path = ctx.ui.get("path")
        if not path or not path.get("points"):
            return None
        return PreviewRequest(path["mover"], tuple(tuple(p) for p in path["points"]), bool(path.get("place")))

    def model(self, ctx: FieldContext) -> GridModel:
        ui = ctx.ui
        return grid_model(ctx.state, ctx.ruleset, selected=ctx.selected, current=ctx.current,
                          badges=ctx.panel.badges if ctx.panel is not None else {},
                          hover=ui.get("hover"), cursor=ui.get("cursor") or ctx.cursor, preview=self.request(ctx),
                          pending=ctx.pending, options=ctx.options, info=ui.get("info"))

    def viewbox(self, ctx: FieldContext) -> str:
        m = ctx.state.encounter.map
        zoom, vx, vy = ctx.ui.get("view", (1.0, 0.0, 0.0))
        return f"{_n(round(vx, 2))} {_n(round(vy, 2))} {_n(round(m.width * S / zoom, 2))} " \
               f"{_n(round(m.height * S / zoom, 2))}"

    # --- drawing ----------------------------------------------------------------------------
    def render(self, ctx: FieldContext) -> Markup:
        self._sync(ctx)
        m = self.model(ctx)
        ui = ctx.ui
        mode = "walls" if ui.get("walls") else "play"
        svg = (f'<svg id="grid-svg" class="grid-svg" data-testid="grid-svg" xmlns="http://www.w3.org/2000/svg" '
               f'viewBox="{self.viewbox(ctx)}" preserveAspectRatio="xMidYMin meet" role="group" '
               f'aria-label="Map: {m.width} by {m.height} squares of 5 ft; {len(m.tokens)} tokens">'
               + base_layer(m) + threat_layer(m)
               + f'<g id="grid-under" class="under">{under_layer(m)}</g>'
               + '<g class="tokens">' + "".join(token_svg(t) for t in m.tokens) + '</g>'
               + f'<g id="grid-over" class="over">{over_layer(m, ui)}</g></svg>')
        return Markup(f'<div class="grid-view" data-testid="grid" data-gen="{ui["gen"]}" data-mode="{mode}">'
                      + toolbar(m, ui) + f'<div class="grid-wrap">{svg}</div>' + notes(m, ui) + '</div>')

    def refresh(self, ctx: FieldContext, root, under_too: bool = True) -> None:
        """Patch the overlays and the notes in place (hover, drag, stroke): at most three DOM writes;
        a hover leaves the path under the tokens as it is."""
        m = self.model(ctx)
        ctx.ui["gen"] = ctx.ui.get("gen", 0) + 1
        under = root.querySelector("#grid-under") if under_too else None
        over = root.querySelector("#grid-over")
        box = root.querySelector("#grid-notes")
        if not _is_none(under):
            under.innerHTML = under_layer(m)
        if not _is_none(over):
            over.innerHTML = over_layer(m, ctx.ui)
        if not _is_none(box):
            box.outerHTML = notes(m, ctx.ui)

    def set_view(self, ctx: FieldContext, svg, root=None) -> None:
        """Apply zoom and pan as the viewBox alone, and keep the toolbar's zoom figure and buttons true."""
        ctx.ui["gen"] = ctx.ui.get("gen", 0) + 1
        if not _is_none(svg):
            svg.setAttribute("viewBox", self.viewbox(ctx))
        if root is None:
            return
        zoom = ctx.ui.get("view", (1.0, 0.0, 0.0))[0]
        label = root.querySelector('[data-testid="grid-zoom"]')
        if not _is_none(label):
            label.textContent = f"{round(zoom * 100)}%"
        for testid, off in (("grid-zoom-out", zoom <= 1.0), ("grid-zoom-fit", zoom <= 1.0),
                            ("grid-zoom-in", zoom >= MAX_ZOOM)):
            button = root.querySelector(f'[data-testid="{testid}"]')
            if not _is_none(button):
                button.disabled = off

    # --- zoom and pan -------------------------------------------------------------------------
    def zoom_to(self, ctx: FieldContext, zoom: float, about: tuple[float, float] | None = None) -> None:
        """Zoom keeping the SVG point `about` where it is on screen (the centre by default)."""
        m = ctx.state.encounter.map
        w, hgt = m.width * S, m.height * S
        z0, vx, vy = ctx.ui.get("view", (1.0, 0.0, 0.0))
        z1 = max(1.0, min(MAX_ZOOM, zoom))
        if about is None:
            about = (vx + w / z0 / 2, vy + hgt / z0 / 2)
        rx, ry = (about[0] - vx) / (w / z0), (about[1] - vy) / (hgt / z0)
        nx, ny = about[0] - rx * w / z1, about[1] - ry * hgt / z1
        ctx.ui["view"] = (z1, *self._clamp(ctx, z1, nx, ny))

    def pan_by(self, ctx: FieldContext, dx: float, dy: float) -> None:
        z, vx, vy = ctx.ui.get("view", (1.0, 0.0, 0.0))
        ctx.ui["view"] = (z, *self._clamp(ctx, z, vx + dx, vy + dy))

    def _clamp(self, ctx: FieldContext, z: float, vx: float, vy: float) -> tuple[float, float]:
        m = ctx.state.encounter.map
        w, hgt = m.width * S, m.height * S
        return (max(0.0, min(w - w / z, vx)), max(0.0, min(hgt - hgt / z, vy)))

    # --- actions from buttons -------------------------------------------------------------------
    def act(self, ctx: FieldContext, action: str, arg: str) -> FieldAction | None:
        ui = ctx.ui
        if action == "token":
            return FieldAction(select=arg)
        if action == "grid-walls":
            ui["walls"] = not ui.get("walls")
            ui.pop("stroke", None)
            ui.pop("path", None)
            return FieldAction(redraw=True)
        if action == "grid-wp":
            ui["wp"] = not ui.get("wp")
            return FieldAction(redraw=True)
        if action == "grid-zoom":
            z = ui.get("view", (1.0, 0.0, 0.0))[0]
            sel = ctx.state.find(ctx.selected) if ctx.selected else None
            about = None
            if arg == "in" and sel is not None and sel.square is not None:
                # Zoom towards the selected creature: keep it under the same spot, bring it into view.
                about = (sel.square[0] * S + S / 2, sel.square[1] * S + S / 2)
            self.zoom_to(ctx, 1.0 if arg == "fit" else z * 1.5 if arg == "in" else z / 1.5, about)
            return FieldAction(redraw=True)
        if action == "grid-cancel":
            ui.pop("path", None)
            ui.pop("info", None)
            return FieldAction(redraw=True)
        if action == "grid-info-close":
            ui.pop("info", None)
            return FieldAction(redraw=True)
        if action == "grid-drop-point":
            path = ui.get("path")
            if path and len(path["points"]) > 1:
                path["points"] = path["points"][:-2] + path["points"][-1:]
            return FieldAction(redraw=True)
        if action == "grid-commit":
            return self.commit(ctx)
        if action == "grid-allow":
            p = self.preview(ctx)
            if p is None or p.command is None or not p.squares:
                return FieldAction(redraw=True)
            ui.pop("path", None)
            return FieldAction(command=Allow(p.command))
        if action == "grid-place":
            x, _, y = arg.partition(",")
            if ctx.selected is None:
                return None
            ui.pop("info", None)
            return FieldAction(command=Place(ctx.selected, square=(int(x), int(y))))
        return None

    def preview(self, ctx: FieldContext) -> PathPreview | None:
        req = self.request(ctx)
        if req is None:
            return None
        return plan_path(ctx.state, ctx.ruleset, req, pending=ctx.pending,
                         options=ctx.options if req.mover == ctx.selected else None)

    def commit(self, ctx: FieldContext) -> FieldAction:
        """Send the previewed move: fill the pending option, or act with the Move option / Place."""
        p = self.preview(ctx)
        if p is None:
            return FieldAction(message="Choose a square first.", redraw=True)
        kind, value = commit_command(p)
        if kind == "none":
            return FieldAction(message=value, redraw=True)
        if kind == "fill":
            return FieldAction(fill=value)
        return FieldAction(command=value)

    # --- taps (pointer, touch, keyboard) --------------------------------------------------------
    def token_at(self, ctx: FieldContext, sq) -> str | None:
        """The creature drawn on top at a square: a standing one before a down one."""
        found, standing = None, False
        for c in ctx.state.combatants:
            if c.square is not None and tuple(c.square) == tuple(sq):
                if found is None or (not c.is_down and not standing):
                    found, standing = c.id, not c.is_down
        return found

    def tap(self, ctx: FieldContext, sq: tuple[int, int], tok: str | None, shift: bool = False) -> FieldAction | None:
        ui = ctx.ui
        m = ctx.state.encounter.map
        if not (0 <= sq[0] < m.width and 0 <= sq[1] < m.height):
            return None
        if ui.get("walls"):
            return self.toggle_wall(ctx, sq)
        pending = ctx.pending
        if pending is not None and pending.needs:
            need, _, fname = pending.needs[0].partition(":")
            fname = fname or need
            if need == "target" and tok is not None:
                return FieldAction(fill={fname: tok})
            if need == "square":
                return FieldAction(fill={fname: tuple(sq)})
        sel = ctx.selected
        path = ui.get("path")
        active = bool(path) and path.get("mover") == sel and not path.get("place") and not path.get("drag")
        adding = shift or bool(ui.get("wp"))
        if tok is not None and tok != sel and not (active and adding):
            ui.pop("path", None)
            ui.pop("info", None)
            return FieldAction(select=tok)
        mover_ok = can_move(ctx.state, ctx.ruleset, sel, pending, ctx.options)
        if not mover_ok:  # nobody to move: tell about the square (distance, threat, place here)
            ui["info"] = tuple(sq)
            ui["hover"] = tuple(sq)
            return FieldAction(redraw=True)
        start = tuple(ctx.state.get(sel).square)
        if tuple(sq) == start and not adding:
            # Tapping the mover itself: drop the preview (or show its square).
            if active:
                ui.pop("path", None)
            else:
                ui["info"] = tuple(sq)
            return FieldAction(redraw=True)
        points = [tuple(p) for p in path["points"]] if active else []
        sq = tuple(sq)
        if points and sq == points[-1] and not adding:
            return self.commit(ctx)
        if adding:
            if not points or points[-1] != sq:
                points.append(sq)
        elif sq in points[:-1]:
            points.remove(sq)  # tapping a stop removes it
        else:
            points = points[:-1] + [sq]
        ui["path"] = {"mover": sel, "points": points}
        ui.pop("info", None)
        ui["hover"] = sq
        return FieldAction(redraw=True)

    def toggle_wall(self, ctx: FieldContext, sq) -> FieldAction:
        sq = tuple(sq)
        if sq in ctx.state.encounter.map.walls:
            return FieldAction(command=SetWalls(remove=(sq,)))
        if self._occupied(ctx, sq):
            return FieldAction(message=f"{ctx.state.name(self.token_at(ctx, sq))} stands on {fmt(sq)}: "
                                       f"move it before drawing a wall there.", redraw=True)
        return FieldAction(command=SetWalls(add=(sq,)))

    def _occupied(self, ctx: FieldContext, sq) -> bool:
        return any(c.square is not None and tuple(c.square) == tuple(sq) and not c.is_down
                   for c in ctx.state.combatants)

    def key(self, ctx: FieldContext, key: str) -> FieldAction | None:
        ui = ctx.ui
        m = ctx.state.encounter.map
        steps = {"ArrowUp": (0, -1), "ArrowDown": (0, 1), "ArrowLeft": (-1, 0), "ArrowRight": (1, 0)}
        cur = ui.get("cursor") or ctx.cursor
        if key in steps:
            if cur is None:
                sel = ctx.state.find(ctx.selected) if ctx.selected else None
                cur = tuple(sel.square) if sel is not None and sel.square is not None else (0, 0)
            else:
                dx, dy = steps[key]
                cur = (max(0, min(m.width - 1, cur[0] + dx)), max(0, min(m.height - 1, cur[1] + dy)))
            ui["cursor"] = cur
            ui["hover"] = cur
            return FieldAction(redraw=True)
        if key in ("Enter", " ") and cur is not None:
            return self.tap(ctx, tuple(cur), self.token_at(ctx, cur))
        return None

    # --- pointer events ---------------------------------------------------------------------------
    def _square(self, svg, event) -> tuple[tuple[int, int], tuple[float, float]]:
        """The square under the pointer, and the point in SVG units (viewBox included)."""
        mt = svg.getScreenCTM()
        x = (float(event.clientX) - float(mt.e)) / float(mt.a)
        y = (float(event.clientY) - float(mt.f)) / float(mt.d)
        return (math.floor(x / S), math.floor(y / S)), (x, y)

    def pointer(self, ctx: FieldContext, event) -> FieldAction | None:
        kind = str(event.type)
        root = event.currentTarget
        svg = root.querySelector("#grid-svg")
        if _is_none(svg):
            return None
        ui = ctx.ui
        self._sync(ctx)
        if kind == "wheel":
            return self._wheel(ctx, svg, event)
        if kind == "contextmenu":
            return self._context(ctx, svg, event)
        if kind == "pointerdown":
            return self._down(ctx, root, svg, event)
        if kind == "pointermove":
            return self._move(ctx, root, svg, event)
        if kind in ("pointerup", "pointercancel"):
            return self._up(ctx, root, svg, event, kind == "pointercancel")
        return None

    def _inside(self, event) -> bool:
        t = event.target
        if _is_none(t):
            return False
        return not _is_none(t.closest("#grid-svg"))

    def _wheel(self, ctx, svg, event) -> FieldAction | None:
        if not self._inside(event):
            return None
        event.preventDefault()
        _, pt = self._square(svg, event)
        z = ctx.ui.get("view", (1.0, 0.0, 0.0))[0]
        factor = 1.2 if float(event.deltaY) < 0 else 1 / 1.2
        self.zoom_to(ctx, z * factor, pt)
        self.set_view(ctx, svg, event.currentTarget)
        return None

    def _context(self, ctx, svg, event) -> FieldAction | None:
        if not self._inside(event):
            return None
        event.preventDefault()
        sq, _ = self._square(svg, event)
        press = ctx.ui.get("press")
        if press is not None:
            press["kind"] = "info"  # the release of this long press does nothing more
        ctx.ui["info"] = sq
        return FieldAction(redraw=True)

    def _down(self, ctx, root, svg, event) -> FieldAction | None:
        ui = ctx.ui
        if not self._inside(event):
            return None
        pid = int(event.pointerId)
        ptrs = ui.setdefault("ptrs", {})
        ptrs[pid] = (float(event.clientX), float(event.clientY))
        if len(ptrs) >= 2:  # a second finger: pinch zoom, nothing else
            (x1, y1), (x2, y2) = list(ptrs.values())[:2]
            ui["pinch"] = {"d": math.hypot(x2 - x1, y2 - y1) or 1.0, "zoom": ui.get("view", (1.0, 0, 0))[0]}
            self._drop_press(ctx, root)
            return None
        if event.button is not None and int(event.button) != 0:
            return None
        sq, _ = self._square(svg, event)
        tok_el = event.target.closest("[data-token]")
        tok = None if _is_none(tok_el) else str(tok_el.getAttribute("data-token"))
        ui["press"] = {"id": pid, "x": float(event.clientX), "y": float(event.clientY),
                       "t": float(event.timeStamp), "sq": sq, "tok": tok, "kind": "",
                       "ptype": str(event.pointerType or "mouse"), "shift": bool(event.shiftKey)}
        try:
            root.setPointerCapture(pid)
        except Exception:
            pass
        if ui.get("walls"):
            m = ctx.state.encounter.map
            if 0 <= sq[0] < m.width and 0 <= sq[1] < m.height:
                ui["press"]["kind"] = "paint"
                ui["stroke"] = {"erase": sq in m.walls, "squares": [sq], "last": sq}
                self.refresh(ctx, root)
        return None

    def _drop_press(self, ctx, root) -> None:
        press = ctx.ui.pop("press", None)
        ctx.ui.pop("stroke", None)
        if press and press.get("kind") == "drag":
            ctx.ui.pop("path", None)

    def _move(self, ctx, root, svg, event) -> FieldAction | None:
        ui = ctx.ui
        pid = int(event.pointerId)
        ptrs = ui.get("ptrs") or {}
        if pid in ptrs:
            ptrs[pid] = (float(event.clientX), float(event.clientY))
        pinch = ui.get("pinch")
        if pinch is not None and len(ptrs) >= 2:
            (x1, y1), (x2, y2) = list(ptrs.values())[:2]
            mid = type("P", (), {"clientX": (x1 + x2) / 2, "clientY": (y1 + y2) / 2})()
            _, pt = self._square(svg, mid)
            self.zoom_to(ctx, pinch["zoom"] * math.hypot(x2 - x1, y2 - y1) / pinch["d"], pt)
            self.set_view(ctx, svg, root)
            return None
        press = ui.get("press")
        sq, pt = self._square(svg, event)
        if press is None:
            if str(event.pointerType or "mouse") == "touch" or not self._inside(event):
                return None
            m = ctx.state.encounter.map
            hover = sq if (0 <= sq[0] < m.width and 0 <= sq[1] < m.height) else None
            if hover != ui.get("hover"):
                ui["hover"] = hover
                self.refresh(ctx, root, under_too=False)
            return None
        if press["id"] != pid:
            return None
        dx, dy = float(event.clientX) - press["x"], float(event.clientY) - press["y"]
        if not press["kind"]:
            if abs(dx) + abs(dy) < DRAG_PX.get(press["ptype"], 6):
                return None
            press["kind"] = "drag" if press["tok"] is not None else "pan"
            press["ox"], press["oy"] = press["x"], press["y"]
        if press["kind"] == "paint":
            return self._paint(ctx, root, sq)
        if press["kind"] == "pan":
            mt = svg.getScreenCTM()
            self.pan_by(ctx, -(float(event.clientX) - press["ox"]) / float(mt.a),
                        -(float(event.clientY) - press["oy"]) / float(mt.d))
            press["ox"], press["oy"] = float(event.clientX), float(event.clientY)
            self.set_view(ctx, svg)
            return None
        if press["kind"] == "drag":
            return self._drag(ctx, root, svg, press, sq, pt)
        return None

    def _paint(self, ctx, root, sq) -> None:
        stroke = ctx.ui.get("stroke")
        m = ctx.state.encounter.map
        if stroke is None or sq == stroke["last"]:
            return None
        from ..engine.geometry import line
        for s in line(stroke["last"], sq)[1:]:
            if 0 <= s[0] < m.width and 0 <= s[1] < m.height and s not in stroke["squares"]:
                stroke["squares"].append(s)
        stroke["last"] = sq
        self.refresh(ctx, root)
        return None

    def _drag(self, ctx, root, svg, press, sq, pt) -> None:
        ui = ctx.ui
        tok = press["tok"]
        el = root.querySelector(f'[data-token="{tok}"]') if '"' not in tok and "\\" not in tok else None
        if not _is_none(el):
            el.setAttribute("transform", f"translate({_n(round(pt[0], 1))} {_n(round(pt[1], 1))})")
            el.classList.add("dragging")
        m = ctx.state.encounter.map
        if not (0 <= sq[0] < m.width and 0 <= sq[1] < m.height):
            return None
        path = ui.get("path")
        if path is not None and path.get("drag") and path["points"] == [sq]:
            return None
        c = ctx.state.get(tok)
        if c.square is not None and tuple(c.square) == sq:
            ui.pop("path", None)
        else:
            own = tok == ctx.selected
            movable = can_move(ctx.state, ctx.ruleset, tok, ctx.pending if own else None,
                               ctx.options if own else None)
            ui["path"] = {"mover": tok, "points": [sq], "place": not movable, "drag": True}
        ui["hover"] = sq
        self.refresh(ctx, root)
        return None

    def _up(self, ctx, root, svg, event, cancelled: bool) -> FieldAction | None:
        ui = ctx.ui
        pid = int(event.pointerId)
        ptrs = ui.get("ptrs") or {}
        ptrs.pop(pid, None)
        if ui.get("pinch") is not None:
            if len(ptrs) < 2:
                ui.pop("pinch", None)
                ui.pop("press", None)
                return FieldAction(redraw=True)  # the toolbar's zoom figure
            return None
        press = ui.get("press")
        if press is None or press["id"] != pid:
            return None
        ui.pop("press", None)
        try:
            root.releasePointerCapture(pid)
        except Exception:
            pass
        kind = press["kind"]
        if cancelled:
            ui.pop("stroke", None)
            if kind == "drag":
                ui.pop("path", None)
            return FieldAction(redraw=True) if kind in ("drag", "paint") else None
        if kind == "paint":
            return self._commit_stroke(ctx)
        if kind == "drag":
            path = ui.get("path")
            if not path or not path.get("drag"):
                return FieldAction(redraw=True)  # dropped where it started
            result = self.commit(ctx)
            ui.pop("path", None)  # a refused drop says why in the notice; the token goes back
            return result if (result.command is not None or result.fill is not None) else \
                FieldAction(message=result.message, redraw=True)
        if kind == "pan":
            return FieldAction(redraw=True)
        if kind == "info":
            return None
        sq = press["sq"]
        if float(event.timeStamp) - press["t"] >= LONG_PRESS_MS:
            ui["info"] = sq
            return FieldAction(redraw=True)
        tok = press["tok"] or self.token_at(ctx, sq)
        return self.tap(ctx, sq, tok, shift=press["shift"] or bool(event.shiftKey))

    def _commit_stroke(self, ctx) -> FieldAction | None:
        stroke = ctx.ui.pop("stroke", None)
        if not stroke:
            return None
        walls = ctx.state.encounter.map.walls
        if stroke["erase"]:
            squares = tuple(sorted(s for s in stroke["squares"] if s in walls))
            return FieldAction(command=SetWalls(remove=squares)) if squares else FieldAction(redraw=True)
        skipped = [s for s in stroke["squares"] if s not in walls and self._occupied(ctx, s)]
        squares = tuple(sorted(s for s in stroke["squares"] if s not in walls and s not in skipped))
        message = (f"{len(skipped)} square{'s' if len(skipped) != 1 else ''} with a creature on "
                   f"{'them' if len(skipped) != 1 else 'it'} left open.") if skipped else ""
        if not squares:
            return FieldAction(message=message, redraw=True)
        return FieldAction(command=SetWalls(add=squares), message=message)


VIEW_FACTORY = GridView
