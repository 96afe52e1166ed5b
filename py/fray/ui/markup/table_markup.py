"""The players' table display drawn as markup: a view from views/table_view.py → HTML and SVG.

The table window draws what the referee's tab sent, so every value here is
treated as untrusted: text is escaped (`h`), numbers are coerced, colours must
be `#rrggbb`, and a field of the wrong type reads as empty. The same markup is
the referee's own "players' view" and, as one SVG document, the exported image.
Pure: no browser imports, tested in CPython.
"""
from __future__ import annotations

import re
from typing import Any

from .html import Markup, h, join

CELL = 48  # grid square in SVG units: the SVG scales to fit the screen
ZONE_W, TOKEN_H, HEAD_H = 260, 64, 56
LANE_H, NAME_W, RULER_W = 56, 220, 1100
_COLOUR = re.compile(r"^#[0-9a-fA-F]{3,8}$")
TONES = {"unhurt": "ok", "hurt": "warn", "bloodied": "warn", "near death": "danger", "down": "danger"}


def text(value: Any, limit: int = 200) -> str:
    return value[:limit] if isinstance(value, str) else ""


def number(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**6 else default


def items(value: Any, limit: int = 500) -> list[dict]:
    return [v for v in value[:limit] if isinstance(v, dict)] if isinstance(value, list) else []


def word(value: Any) -> str:
    """A class-name part: letters only."""
    return re.sub(r"[^a-z]", "", text(value, 20))


def colour(value: Any, default: str = "#8a96a3") -> str:
    return value if isinstance(value, str) and _COLOUR.match(value) else default


def sides(view: dict) -> dict[str, dict]:
    return {text(s.get("id")): s for s in items(view.get("sides"))}


# --- the page ----------------------------------------------------------------------------------

def waiting(message: str = "Waiting for the referee…") -> Markup:
    return h("div", {"class_": "tv tv-waiting", "data-testid": "table-waiting", "role": "status"},
             h("p", {"class_": "tv-wait-title"}, "Fray · table display"),
             h("p", {"class_": "tv-wait-text"}, message),
             h("p", {"class_": "tv-wait-hint"}, "Keep the referee's Fray tab open in this browser; "
                                                "this window follows it."))


def head(view: dict, controls: bool = True) -> Markup:
    outcome = text(view.get("outcome"))
    tools = ""
    if controls:
        tools = h("div", {"class_": "tv-tools"},
                  h("button", {"type": "button", "data-action": "table-fullscreen", "data-testid": "table-fullscreen"},
                    "Fullscreen"),
                  h("button", {"type": "button", "data-action": "table-export", "data-testid": "table-export"},
                    "Export image"))
    return h("header", {"class_": "tv-head"},
             h("h1", {"class_": "tv-name", "data-testid": "table-name"}, text(view.get("name"))),
             h("span", {"class_": "tv-status", "data-testid": "table-status"}, text(view.get("status"))),
             h("span", {"class_": "tv-outcome", "data-testid": "table-outcome"}, outcome) if outcome else "",
             tools)


def field(view: dict) -> Markup:
    """The active system's field: bands, grid or a list of cards, and Ogre's ruler below the grid."""
    kind = text(view.get("field"))
    parts = []
    if kind == "grid" and isinstance(view.get("grid"), dict):
        parts.append(h("div", {"class_": "tv-pane tv-grid"}, grid_svg(view["grid"], sides(view))))
    elif kind == "bands" and isinstance(view.get("bands"), dict):
        parts.append(h("div", {"class_": "tv-pane tv-bands"}, bands_html(view["bands"], sides(view))))
    else:
        parts.append(h("div", {"class_": "tv-pane tv-cards"}, cards(view)))
    if isinstance(view.get("ruler"), dict):
        parts.append(h("div", {"class_": "tv-pane tv-ruler"}, ruler_svg(view["ruler"], sides(view))))
    return h("section", {"class_": f"tv-field tv-field-{word(kind)}" + (" has-ruler" if len(parts) > 1 else ""),
                         "data-testid": "table-field", "data-action": "table-fullscreen",
                         "title": "Click for fullscreen"}, parts)


def order(view: dict) -> Markup:
    sd = sides(view)
    rows = []
    for r in items(view.get("order")):
        if r.get("kind") == "side":
            rows.append(h("li", {"class_": "tv-side-row"}, text(r.get("name")),
                          h("span", {"class_": "tv-detail"}, " " + text(r.get("detail"))) if r.get("detail") else ""))
            continue
        side = sd.get(text(r.get("side")), {})
        hp = text(r.get("hp"), 40)
        tone = TONES.get(hp, "pc")
        marks = [h("span", {"class_": "tv-cond"}, text(c, 60)) for c in (r.get("conditions") or [])[:12]
                 if isinstance(c, str)]
        marks += [h("span", {"class_": "tv-cond"}, text(b.get("icon"), 4) + " " + text(b.get("word"), 80))
                  for b in items(r.get("badges"), 12) if text(b.get("word")) not in (r.get("conditions") or [])]
        rows.append(h("li", {"class_": "tv-row" + (" is-current" if r.get("current") is True else "")
                             + (" is-down" if r.get("down") is True else ""),
                             "data-testid": "table-order-row", "data-id": text(r.get("id"), 80),
                             "aria-current": "true" if r.get("current") is True else None},
                      h("span", {"class_": "tv-mark", "style": f"color:{colour(side.get('colour'))}",
                                 "aria-hidden": "true"}, "▶" if r.get("current") is True else "●"),
                      h("span", {"class_": "tv-who"}, text(r.get("name"))),
                      h("span", {"class_": f"tv-hp tone-{tone}", "data-testid": "table-hp"}, hp),
                      h("span", {"class_": "tv-detail"}, text(r.get("detail"))) if r.get("detail") else "",
                      h("span", {"class_": "tv-conds"}, marks) if marks else ""))
    return h("ol", {"class_": "tv-order", "data-testid": "table-order", "aria-label": "Order"}, rows)


def odds_html(view: dict) -> Markup | str:
    """The acting combatant's options with their odds, when the referee shows them (CORE-ODDS-1)."""
    odds = view.get("odds")
    if not isinstance(odds, dict):
        return ""
    rows = [h("li", {}, h("span", {"class_": "tv-odds-what"}, text(o.get("label"), 120)),
              h("span", {"class_": "tv-odds-fig"}, text(o.get("figure"), 80)))
            for o in items(odds.get("options"), 30)]
    if not rows:
        return ""
    return h("section", {"class_": "tv-odds", "data-testid": "table-odds"},
             h("h2", {}, "Odds for ", text(odds.get("who"))), h("ul", {}, rows))


def side_panel(view: dict) -> Markup:
    decl = items(view.get("declarations"))
    decl_html = ""
    if decl:
        decl_html = h("section", {"class_": "tv-decl", "data-testid": "table-declarations"},
                      h("h2", {}, "Declared"),
                      h("ul", {}, [h("li", {}, text(d.get("name")), ": ", text(d.get("text"))) for d in decl]))
    log = [text(x, 300) for x in (view.get("log") or [])[:12] if isinstance(x, str)] \
        if isinstance(view.get("log"), list) else []
    return h("aside", {"class_": "tv-sidebar"}, order(view), decl_html, odds_html(view),
             h("section", {"class_": "tv-log"}, h("h2", {}, "Last moves"),
               h("ol", {"data-testid": "table-log"}, [h("li", {}, line) for line in log])))


def page(view: dict, controls: bool = True) -> Markup:
    """The whole table display for one view."""
    return h("div", {"class_": "tv", "data-testid": "table-view", "data-system": text(view.get("system"), 20)},
             head(view, controls), h("div", {"class_": "tv-body"}, field(view), side_panel(view)))


# --- the fields as SVG ---------------------------------------------------------------------------

def _shape(shape: str, cx: float, cy: float, r: float, fill: str, cls: str) -> Markup:
    attrs = {"class_": cls, "fill": fill}
    if shape == "square":
        return h("rect", {**attrs, "x": f"{cx - r:.1f}", "y": f"{cy - r:.1f}", "width": f"{2 * r:.1f}",
                          "height": f"{2 * r:.1f}", "rx": "4"})
    if shape in ("diamond", "triangle", "hexagon", "star"):
        if shape == "diamond":
            pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
        elif shape == "triangle":
            pts = [(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)]
        else:
            import math
            n = 6 if shape == "hexagon" else 10
            pts = [(cx + (r if shape == "hexagon" or k % 2 == 0 else r * 0.5) * math.sin(2 * math.pi * k / n),
                    cy - (r if shape == "hexagon" or k % 2 == 0 else r * 0.5) * math.cos(2 * math.pi * k / n))
                   for k in range(n)]
        return h("polygon", {**attrs, "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)})
    return h("circle", {**attrs, "cx": f"{cx:.1f}", "cy": f"{cy:.1f}", "r": f"{r:.1f}"})


def token(t: dict, sd: dict[str, dict], cx: float, cy: float, r: float, label: bool = False,
          mark: bool = True) -> Markup:
    side = sd.get(text(t.get("side")), {})
    cls = "tv-token" + (" is-current" if t.get("current") is True else "") + (" is-down" if t.get("down") is True else "")
    parts = [h("title", {}, f"{text(t.get('name'))} · {text(t.get('hp'), 40)}")]
    if t.get("current") is True and mark:  # a chip shows the current actor by its own border
        parts.append(h("circle", {"class_": "tv-halo", "cx": f"{cx:.1f}", "cy": f"{cy:.1f}", "r": f"{r + 6:.1f}"}))
    parts.append(_shape(text(side.get("shape"), 20), cx, cy, r, colour(side.get("colour")), "tv-body-shape"))
    parts.append(h("text", {"class_": "tv-letters", "x": f"{cx:.1f}", "y": f"{cy:.1f}",
                            "font-size": f"{r * 0.9:.0f}"}, text(t.get("letters"), 4)))
    if t.get("down") is True:
        parts.append(h("path", {"class_": "tv-cross", "d": f"M{cx - r:.1f},{cy - r:.1f}L{cx + r:.1f},{cy + r:.1f}"
                                                           f"M{cx + r:.1f},{cy - r:.1f}L{cx - r:.1f},{cy + r:.1f}"}))
    if label:
        parts.append(h("text", {"class_": "tv-tname", "x": f"{cx + r + 10:.1f}", "y": f"{cy - 4:.1f}"},
                       text(t.get("name"), 40)))
        parts.append(h("text", {"class_": "tv-thp", "x": f"{cx + r + 10:.1f}", "y": f"{cy + 20:.1f}"},
                       text(t.get("hp"), 40)))
    if not mark:  # drawn inside an element that carries the token's test id (a band's chip)
        return h("g", {"class_": cls}, parts)
    return h("g", {"class_": cls, "data-testid": "table-token", "data-id": text(t.get("id"), 80),
                   "data-square": ",".join(str(number(v)) for v in t.get("square", [])[:2])
                   if isinstance(t.get("square"), list) else None}, parts)


def _svg(width: int, height: int, parts: list, cls: str) -> Markup:
    return h("svg", {"class_": cls, "xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {width} {height}",
                     "preserveAspectRatio": "xMidYMid meet", "role": "img"}, parts)


def grid_svg(g: dict, sd: dict[str, dict]) -> Markup:
    w = max(1, min(200, number(g.get("width"), 1)))
    hgt = max(1, min(200, number(g.get("height"), 1)))
    parts = [h("rect", {"class_": "tv-board", "x": "0", "y": "0", "width": str(w * CELL), "height": str(hgt * CELL)})]
    lines = [f"M{x * CELL},0V{hgt * CELL}" for x in range(1, w)] + [f"M0,{y * CELL}H{w * CELL}" for y in range(1, hgt)]
    parts.append(h("path", {"class_": "tv-lines", "d": "".join(lines)}))
    walls = []
    for wall in (g.get("walls") or [])[:w * hgt] if isinstance(g.get("walls"), list) else []:
        if isinstance(wall, list) and len(wall) == 2:
            walls.append(f"M{number(wall[0]) * CELL},{number(wall[1]) * CELL}h{CELL}v{CELL}h-{CELL}z")
    if walls:
        parts.append(h("path", {"class_": "tv-wall", "d": "".join(walls), "data-testid": "table-walls"}))
    for t in items(g.get("tokens")):
        sq = t.get("square")
        if not (isinstance(sq, list) and len(sq) == 2):
            continue
        x, y = number(sq[0]), number(sq[1])
        parts.append(token(t, sd, (x + 0.5) * CELL, (y + 0.5) * CELL, CELL * 0.4))
    return _svg(w * CELL, hgt * CELL, parts, "tv-svg")


def bands_html(b: dict, sd: dict[str, dict]) -> Markup:
    """OLOG's zones as columns (rows on a portrait screen), each token a large chip: name and HP word."""
    zones = items(b.get("zones"), 20)
    cols = []
    for i, z in enumerate(zones):
        chips = []
        for t in items(z.get("tokens")):
            cls = "tv-chip" + (" is-current" if t.get("current") is True else "") \
                + (" is-down" if t.get("down") is True else "")
            chips.append(h("div", {"class_": cls, "data-testid": "table-token", "data-id": text(t.get("id"), 80)},
                           h("svg", {"class_": "tv-chip-mark", "viewBox": "0 0 40 40", "aria-hidden": "true"},
                             token(t, sd, 20, 20, 16, mark=False)),
                           h("span", {"class_": "tv-chip-name"}, text(t.get("name"))),
                           h("span", {"class_": "tv-chip-hp"}, text(t.get("hp"), 40))))
        cols.append(h("section", {"class_": "tv-zone-col", "data-zone": str(i)},
                      h("h3", {"class_": "tv-zone-title"}, text(z.get("label"), 30)),
                      h("div", {"class_": "tv-zone-tokens"}, chips)))
    return h("div", {"class_": "tv-bands-grid", "style": f"--zones:{max(1, len(zones))}",
                     "data-testid": "table-bands"}, cols)


def bands_svg(b: dict, sd: dict[str, dict]) -> Markup:
    """The zones as SVG, for the exported image."""
    zones = items(b.get("zones"), 20)
    n = max(1, len(zones))
    tallest = max([len(items(z.get("tokens"))) for z in zones] + [3])
    height = HEAD_H + tallest * TOKEN_H + 16
    parts = []
    for i, z in enumerate(zones):
        x = i * ZONE_W
        parts.append(h("rect", {"class_": "tv-zone" + (" odd" if i % 2 else ""), "x": str(x), "y": "0",
                                "width": str(ZONE_W), "height": str(height)}))
        parts.append(h("text", {"class_": "tv-zone-label", "x": str(x + ZONE_W // 2), "y": "36"},
                       text(z.get("label"), 30)))
        parts.append(h("g", {"data-zone": str(i)}, [token(t, sd, x + 34, HEAD_H + k * TOKEN_H + TOKEN_H / 2, 22,
                                                          label=True) for k, t in enumerate(items(z.get("tokens")))]))
    return _svg(n * ZONE_W, height, parts, "tv-svg")


def ruler_svg(r: dict, sd: dict[str, dict]) -> Markup:
    start, end, now = number(r.get("start")), number(r.get("end"), 30), number(r.get("now"))
    span = max(1, end - start)
    lanes = items(r.get("lanes"), 60)

    def x(seg: int) -> float:
        return NAME_W + (max(start, min(end, seg)) - start) * RULER_W / span

    height = 40 + max(1, len(lanes)) * LANE_H
    parts = [h("rect", {"class_": "tv-board", "x": "0", "y": "0", "width": str(NAME_W + RULER_W + 20),
                        "height": str(height)})]
    for seg in range(start - start % 5, end + 1, 5):
        if seg < start:
            continue
        parts.append(h("path", {"class_": "tv-tick", "d": f"M{x(seg):.1f},28V{height}"}))
        if seg % 10 == 0:
            parts.append(h("text", {"class_": "tv-tick-label", "x": f"{x(seg):.1f}", "y": "22"}, str(seg)))
    for i, lane in enumerate(lanes):
        y = 40 + i * LANE_H
        side = sd.get(text(lane.get("side")), {})
        cls = "tv-lane" + (" is-current" if lane.get("current") is True else "") \
            + (" is-down" if lane.get("down") is True else "")
        bits = [h("text", {"class_": "tv-lane-name", "x": "12", "y": f"{y + LANE_H * 0.62:.1f}",
                           "fill": colour(side.get("colour"), "#e8eef5")}, text(lane.get("name"), 30))]
        flat = lane.get("flat")
        if isinstance(flat, list) and len(flat) == 2:
            bits.append(h("rect", {"class_": "tv-flat", "x": f"{x(number(flat[0])):.1f}", "y": str(y + 8),
                                   "width": f"{max(0.0, x(number(flat[1])) - x(number(flat[0]))):.1f}",
                                   "height": str(LANE_H - 16)}))
        for bar in items(lane.get("bars"), 40):
            b0 = number(bar.get("start"))
            b1 = number(bar.get("end"), end) if bar.get("end") is not None else end
            x0, x1 = x(b0), x(b1)
            bits.append(h("g", {"class_": f"tv-bar state-{word(bar.get('state'))} kind-{word(bar.get('kind'))}"},
                          h("rect", {"x": f"{x0:.1f}", "y": str(y + 10), "width": f"{max(4.0, x1 - x0):.1f}",
                                     "height": str(LANE_H - 20), "rx": "6"}),
                          h("text", {"x": f"{x0 + 8:.1f}", "y": f"{y + LANE_H * 0.62:.1f}"},
                            text(bar.get("label"), 40))))
        parts.append(h("g", {"class_": cls, "data-testid": "table-lane", "data-id": text(lane.get("id"), 80)}, bits))
    parts.append(h("path", {"class_": "tv-now", "d": f"M{x(now):.1f},24V{height}", "data-testid": "table-now"}))
    return _svg(NAME_W + RULER_W + 20, height, parts, "tv-svg")


def cards(view: dict) -> Markup:
    """OSE's loose profile has no map: the combatants as large cards."""
    sd = sides(view)
    out = []
    for r in items(view.get("order")):
        if r.get("kind") != "combatant":
            continue
        side = sd.get(text(r.get("side")), {})
        out.append(h("div", {"class_": "tv-card" + (" is-current" if r.get("current") is True else "")
                             + (" is-down" if r.get("down") is True else ""), "data-testid": "table-card",
                             "data-id": text(r.get("id"), 80), "style": f"border-color:{colour(side.get('colour'))}"},
                     h("span", {"class_": "tv-who"}, text(r.get("name"))),
                     h("span", {"class_": "tv-hp"}, text(r.get("hp"), 40))))
    return h("div", {"class_": "tv-card-list"}, out)


# --- the recap image ---------------------------------------------------------------------------

def export_svg(view: dict) -> str:
    """The table view as one standalone SVG document (a recap to keep): title, field, order and log."""
    sd = sides(view)
    kind = text(view.get("field"))
    fields = []
    if kind == "grid" and isinstance(view.get("grid"), dict):
        fields.append(grid_svg(view["grid"], sd))
    elif kind == "bands" and isinstance(view.get("bands"), dict):
        fields.append(bands_svg(view["bands"], sd))
    if isinstance(view.get("ruler"), dict):
        fields.append(ruler_svg(view["ruler"], sd))
    width, top, side_w = 1600, 90, 420
    field_h = 900 // max(1, len(fields))
    nested = [Markup(f.replace("<svg ", f'<svg x="20" y="{top + i * field_h}" width="{width - side_w - 40}" '
                                         f'height="{field_h - 10}" ', 1)) for i, f in enumerate(fields)]
    lines = []
    y = top + 20
    for r in items(view.get("order")):
        label = text(r.get("name")) + ("" if r.get("kind") == "side" else f" · {text(r.get('hp'), 40)}")
        lines.append(h("text", {"class_": "tv-x-row" + (" is-current" if r.get("current") is True else ""),
                                "x": str(width - side_w), "y": str(y)}, ("▶ " if r.get("current") is True else "")
                       + label))
        y += 34
    y += 20
    for line in [text(x, 120) for x in (view.get("log") or [])[:8] if isinstance(x, str)] \
            if isinstance(view.get("log"), list) else []:
        lines.append(h("text", {"class_": "tv-x-log", "x": str(width - side_w), "y": str(y)}, line))
        y += 26
    style = ("text{font-family:sans-serif;fill:#f2f5f8}.tv-board{fill:#1b232c}.tv-lines,.tv-tick{stroke:#3a4653;"
             "fill:none}.tv-wall{fill:#8b95a1}.tv-zone{fill:#18202a}.tv-zone.odd{fill:#202a35}"
             ".tv-zone-label{font-size:26px;text-anchor:middle}.tv-letters{text-anchor:middle;"
             "dominant-baseline:central;fill:#fff;font-weight:700}.tv-halo{fill:none;stroke:#ffd34d;stroke-width:5}"
             ".tv-cross{stroke:#fff;stroke-width:4}.tv-tname{font-size:22px}.tv-thp{font-size:18px;fill:#c6d0da}"
             ".tv-bar rect{fill:#4d7fb8}.tv-bar.state-resolved rect{fill:#55606c}.tv-bar text{font-size:18px}"
             ".tv-flat{fill:#3a3320}.tv-now{stroke:#ffd34d;stroke-width:4}.tv-lane-name{font-size:22px}"
             ".tv-tick-label{font-size:16px}.tv-x-row{font-size:26px}.tv-x-row.is-current{fill:#ffd34d}"
             ".tv-x-log{font-size:18px;fill:#c6d0da}.is-down{opacity:.55}")
    return str(h("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(width), "height": "1000",
                         "viewBox": f"0 0 {width} 1000"},
                 h("style", {}, Markup(style)), h("rect", {"width": str(width), "height": "1000", "fill": "#10161d"}),
                 h("text", {"x": "20", "y": "50", "font-size": "36"}, text(view.get("name"))),
                 h("text", {"x": "20", "y": "80", "font-size": "22", "fill": "#c6d0da"}, text(view.get("status"))),
                 join(nested), join(lines)))


def hide_button(cid: str, hidden: bool) -> str:
    """The referee's toggle: keep a combatant off the table display until revealed."""
    return h("button", {"type": "button", "class_": "hide-toggle" + (" is-hidden" if hidden else ""),
                        "data-action": f"hide:{cid}", "data-testid": "hide-toggle", "aria-pressed": str(hidden).lower(),
                        "title": "Hidden combatants are absent from the players' table display"},
             "Reveal on the table display" if hidden else "Hide from the table display")
