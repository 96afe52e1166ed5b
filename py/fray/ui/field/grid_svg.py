"""The tactical grid's drawing: SVG markup for the board, walls, tokens, threat, the path preview and notes.

Pure strings from a `views.grid.GridModel`. The board is a pattern plus only
the special squares (walls, threatened, path), never a node per empty cell;
the board and walls are cached per map, tokens per token. ui/field/grid.py puts the
layers together and patches the overlays in place on hover and drag.
"""
from __future__ import annotations

import math
from html import escape as _esc

from ...engine.cache import Cache
from ...views.grid import GridModel, GridToken
from ...views.grid_path import PathPreview, commit_command
from . import map_layer
from .field_ui import FieldUi
from ..markup.html import Markup, esc, h, with_rules

S = 10  # SVG units per 5 ft square
MAX_ZOOM = 8.0
# More squares than this across the field and each is drawn a few pixels wide (200 across: 1.5 px at 1280 px):
# the toolbar says so and offers to zoom to the tokens (issue #53).
TINY_ACROSS = 60


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

_BASE = Cache(8)  # per map
_TOKENS = Cache(600)  # per token model


def forget() -> None:
    """Drop the drawing caches and the model's memos (benchmarks of a cold first draw)."""
    from ...views import grid as model
    _BASE.cache_clear()
    _TOKENS.cache_clear()
    _ETHR[0], _ETHR[1] = None, ""
    model.forget()


def base_layer(m: GridModel) -> str:
    """Defs, the board (one pattern-filled rect), the map image and the walls (merged runs): cached per map
    and the image's URL (ready after the first drawing when it is read from the browser's store)."""
    return _BASE.get((m.map, map_layer.url(m.map)), lambda: _base_layer(m))


def _base_layer(m: GridModel) -> str:
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
        + map_layer.image_svg(m.map, S) +
        f'<rect class="board-lines" width="{w}" height="{hgt}" fill="url(#grid-sq)"/>'
        f'<g class="walls" data-testid="walls" data-count="{len(m.walls)}">{"".join(runs)}</g>'
    )
    return out


def token_svg(t: GridToken) -> str:
    """A token's group: its shape, initials, HP ring, badges and a square-sized tap target (per model)."""
    return _TOKENS.get(t, lambda: _token_svg(t))


def _token_svg(t: GridToken) -> str:
    x, y = t.square
    cls = "tok" + (" cur" if t.is_current else "") + (" sel" if t.is_selected else "") + (" down" if t.is_down else "")
    parts = [f'<g class="{cls}" data-token="{_esc(t.id)}" data-testid="tok-{_esc(t.id)}" '
             f'transform="translate({x * S + S // 2} {y * S + S // 2})"><title>{_esc(t.label)}</title>'
             # The tap target is the whole square, not only the drawn shape (44 px on a phone).
             f'<rect class="hit" x="-{S // 2}" y="-{S // 2}" width="{S}" height="{S}"/>']
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
    return "".join(parts)


def _rect(sq, cls: str, inset: float = 0.0, extra: str = "") -> str:
    return (f'<rect class="{cls}" x="{_n(sq[0] * S + inset)}" y="{_n(sq[1] * S + inset)}" '
            f'width="{_n(S - 2 * inset)}" height="{_n(S - 2 * inset)}"{extra}/>')


def _centre(sq) -> str:
    return f"{sq[0] * S + S // 2},{sq[1] * S + S // 2}"


def threat_layer(m: GridModel) -> str:
    rects = "".join(_rect(sq, "thr") for sq in sorted(m.threatened))
    return f'<g id="grid-threat" class="threat" data-testid="threat" data-count="{len(m.threatened)}">{rects}</g>'


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


def over_layer(m: GridModel, ui: FieldUi) -> str:
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
    stroke = ui.stroke
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


def notes(m: GridModel, ui: FieldUi) -> Markup:
    """The text under the map: threat, ranged, the path with every attack of opportunity named."""
    parts = []
    if ui.walls:
        parts.append(h("p", {"class_": "g-mode", "data-testid": "walls-note"},
                       with_rules("Editing walls: tap or drag over squares to draw; start on a wall to erase. "
                                  "Each stroke is one step of the log and can be undone (CORE-REF-1).")))
    if m.threat_note:
        parts.append(h("p", {"class_": "g-sel", "data-testid": "threat-note"}, with_rules(m.threat_note)))
    if m.ranged_note:
        parts.append(h("p", {"class_": "g-ranged tone-warn", "data-testid": "ranged-note"},
                       h("span", {"aria-hidden": "true"}, "➶ "), with_rules(m.ranged_note)))
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
    if p is None and not ui.walls:
        parts.append(h("p", {"class_": "g-help muted"},
                       "Tap a token to select it. " + (
                           "Tap a square to see the path, tap it again to move; shift-click or Waypoints adds "
                           "a stop. " if m.move_ready else "")
                       + "Drag a token to move it (another's: a referee placement). Long press: square details."))
    return h("div", {"class_": "grid-notes", "id": "grid-notes", "data-testid": "grid-notes"}, parts)


def path_box(p: PathPreview, ui: FieldUi) -> Markup:
    bad = p.problem or (f"{p.cost_ft} ft is more than the {p.allowance_ft} ft {p.mover_name} has left"
                        if p.is_over else "")
    # Blocks, not <p>: innerText (copy, read aloud) gives a <p> a blank line before and after in Chromium
    # and Firefox but not in WebKit; the box shows none (margins are 0), so it reads the same everywhere.
    lines = [h("div", {"class_": "g-sum"}, h("strong", None, p.summary))]
    if bad:
        lines.append(h("div", {"class_": "g-bad tone-danger", "data-testid": "path-problem"},
                       h("span", {"aria-hidden": "true"}, "⊘ "), with_rules(bad)))
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
            lines.append(h("div", {"class_": "g-ok", "data-testid": "aoo-none"}, with_rules(note)))
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


_BARS = Cache(64)


def toolbar(m: GridModel, ui: FieldUi) -> Markup:
    """The map's tools, kept by what they show (a selection leaves them as they were)."""
    key = (m.width, m.height, ui.zoom, bool(ui.wp), bool(ui.walls), bool(ui.follow))
    return _BARS.get(key, lambda: _toolbar(m, ui))


def _toolbar(m: GridModel, ui: FieldUi) -> Markup:
    zoom = ui.zoom

    def toggle(action: str, label: str, on: bool, testid: str, title: str) -> Markup:
        return h("button", {"type": "button", "class_": "small", "data-action": action, "data-testid": testid,
                            "aria-pressed": "true" if on else "false", "title": title}, label)

    return h("div", {"class_": "grid-bar", "id": "grid-bar", "role": "toolbar", "aria-label": "Map tools"},
             toggle("grid-wp", "Waypoints", bool(ui.wp), "grid-wp",
                    "Taps add stops to the path (or hold Shift)"),
             toggle("grid-walls", "Edit walls", bool(ui.walls), "grid-walls",
                    "Draw or erase walls (logged, undoable)"),
             h("span", {"class_": "grow"}),
             h("button", {"type": "button", "class_": "small", "data-action": "grid-zoom:out",
                          "data-testid": "grid-zoom-out", "aria-label": "Zoom out", "disabled": zoom <= 1.0}, "−"),
             h("button", {"type": "button", "class_": "small zoom", "data-action": "grid-zoom:map",
                          "data-testid": "grid-zoom", "title": "Show the whole map"}, f"{round(zoom * 100)}%"),
             h("button", {"type": "button", "class_": "small", "data-action": "grid-zoom:in",
                          "data-testid": "grid-zoom-in", "aria-label": "Zoom in", "disabled": zoom >= MAX_ZOOM}, "+"),
             h("button", {"type": "button", "class_": "small", "data-action": "grid-zoom:fit",
                          "data-testid": "grid-zoom-fit", "title": "Frame every token"}, "Fit"),
             toggle("grid-follow", "Follow", bool(ui.follow), "grid-follow",
                    "Keep the actor centred after each step"),
             h("span", {"class_": "dims muted"}, f"{m.width}×{m.height} squares of 5 ft"),
             tiny_note(m.width, m.height, zoom))


def tiny_note(width: int, height: int, zoom: float) -> Markup | str:
    """On a map too big to read drawn whole, why the squares are specks and the zoom that helps."""
    across = max(width, height) / zoom
    if across <= TINY_ACROSS:
        return ""
    return h("span", {"class_": "g-tiny tone-warn", "data-testid": "grid-tiny", "role": "note"},
             f"{round(across)} squares across: each is drawn a few pixels wide. ",
             h("button", {"type": "button", "class_": "small", "data-action": "grid-zoom:fit",
                          "data-testid": "grid-tiny-fit"}, "Zoom to the tokens"))


# --- the view ----------------------------------------------------------------------------------
