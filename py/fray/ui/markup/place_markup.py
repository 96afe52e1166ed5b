"""The setup's placement map as markup: squares for a grid, zones for OLOG, a button a token. Pure.

Drawn in the setup form (ui/controllers/editing.py); the clicks and drags it names are
ui/controllers/place_ui.py's. A token's button carries `data-action="place-pick:<index>"`, a square's or
zone's `data-action="place-drop:<spot>"`, and each its spot in `data-spot` (fray/place_map.py's `Spot.key`), which a drag reads where it ends.
"""
from __future__ import annotations

from typing import Any

from ... import place_map
from ...place_map import PlaceMap, Spot
from .html import Markup, h

RADIUS = {"circle": "50%", "square": "3px"}  # other shapes: rounded corners


def render(doc: dict[str, Any], view: str, picked: int | None, said: str) -> Markup | str:
    """The placement map of the draft, or nothing for a view with no squares nor zones."""
    if view not in ("grid", "bands"):
        return ""
    pm = place_map.place_map(doc, view, picked)
    where = "square" if view == "grid" else "zone"
    how = h("p", {"class_": "muted pm-how", "id": "pm-how"},
            f"Drag a token to a {where}, or tap it and then a {where} (keyboard: Enter on a token, arrows, "
            "Enter; Escape puts it back).")
    say = h("p", {"class_": "pm-say", "role": "status", "aria-live": "polite", "data-testid": "place-say"}, said)
    if not pm.is_drawn:
        body: Any = h("p", {"class_": "muted"}, f"This map ({pm.width} by {pm.height}) is too large to draw "
                                                "here: type each combatant's square in its form below.")
    elif view == "grid":
        body = grid(pm)
    else:
        body = zones(pm)
    tray = ""
    if pm.unplaced and pm.is_drawn:
        tray = h("div", {"class_": "pm-tray", "data-testid": "place-tray"},
                 h("span", {"class_": "muted"}, "Not placed yet: "), [token(t, "") for t in pm.unplaced])
    return h("section", {"class_": "pm", "data-testid": "place-map", "data-view": view,
                         "data-picked": "" if pm.picked is None else str(pm.picked)},
             h("h3", None, "Placement"), how, say, body, tray)


def token(t: place_map.MapToken, spot: str) -> Markup:
    style = f"--c:{t.colour};--r:{RADIUS.get(t.shape, '30%')}"
    return h("button", {"type": "button", "class_": "pm-tok" + (" pm-picked" if t.is_picked else ""),
                        "data-action": f"place-pick:{t.index}", "data-place-token": str(t.index),
                        "data-spot": spot or None, "data-testid": f"place-tok-{t.index}",
                        "aria-pressed": "true" if t.is_picked else "false", "aria-label": t.label,
                        "aria-describedby": "pm-how", "title": t.name, "style": style}, t.initials)


def grid(pm: PlaceMap) -> Markup:
    """Squares row by row: a token's square is its token's button, the others drop buttons."""
    cells = []
    by_square = {}
    for t in pm.tokens:
        if t.spot is not None and t.spot.square is not None:
            by_square.setdefault(t.spot.square, t)
    for y in range(pm.height):
        for x in range(pm.width):
            key = f"sq:{x},{y}"
            t = by_square.get((x, y))
            if t is not None:
                cells.append(token(t, key))
                continue
            wall = (x, y) in pm.walls
            cells.append(h("button", {"type": "button", "class_": "pm-sq" + (" pm-wall" if wall else ""),
                                      "data-action": f"place-drop:{key}", "data-spot": key, "tabindex": "-1",
                                      "data-testid": f"place-sq-{x}-{y}",
                                      "aria-label": f"Square {x},{y}" + (": wall" if wall else "")}))
    return h("div", {"class_": "pm-scroll pm-of-grid"},
             h("div", {"class_": "pm-grid", "role": "group", "style": f"--w:{pm.width}",
                       "aria-label": f"Placement map: {pm.width} by {pm.height} squares, x from 0 left, "
                                     "y from 0 at the top"}, cells))


def zones(pm: PlaceMap) -> Markup:
    """One column a zone, counted from 1 as the field shows them; a zone holds anyone."""
    cols = []
    for z in range(1, pm.zones + 1):
        key = f"zone:{z}"
        here = pm.at(Spot(zone=z))
        cols.append(h("div", {"class_": "pm-zone", "data-spot": key, "data-testid": f"place-zone-{z}"},
                      h("button", {"type": "button", "class_": "pm-zone-head", "data-action": f"place-drop:{key}",
                                   "data-spot": key, "data-testid": f"place-zone-btn-{z}",
                                   "aria-label": f"Zone {z}: {len(here)} here"}, f"Zone {z}"),
                      h("div", {"class_": "pm-zone-toks"}, [token(t, key) for t in here])))
    return h("div", {"class_": "pm-scroll"},
             h("div", {"class_": "pm-zones", "role": "group", "aria-label": f"Placement map: {pm.zones} zones"},
               cols))
