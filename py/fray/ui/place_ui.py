"""The setup's placement map in the page: its markup, and a token placed by drag (mouse, touch) or tap-tap.

What a drop means, whether it is allowed and the edit it makes are fray/place_map.py's; this module draws
the map (squares for a grid, zones for OLOG), and turns gestures into that edit through the setup's draft
(ui/operations.py `edit`: validated, applied, undone by Undo like any setup edit). Tap-tap: a tap (or
Enter) on a token picks it up, a tap on a square or zone puts it there, Escape puts it back; arrows move the
keyboard's focus over the squares. What happens is said in the map's live region.
"""
from __future__ import annotations

from typing import Any

from .. import place_map
from ..place_map import PlaceMap, Spot
from ..rules import SYSTEMS
from ..rules import get as get_ruleset
from .actions import Actions
from .desk import Desk
from .html import Markup, h
from .operations import draft_doc, edit
from .patch import attr

clicks = Actions("click")
DRAG_PX = {"mouse": 5, "pen": 6, "touch": 10}
RADIUS = {"circle": "50%", "square": "3px"}  # other shapes: rounded corners


def view_of(desk: Desk, doc: dict[str, Any]) -> str:
    """The draft's field view: "grid" (OSE detailed, Ogre), "bands" (OLOG), or another (no map)."""
    ruleset = get_ruleset(doc["system"]) if doc.get("system") in SYSTEMS else desk.session.ruleset
    return ruleset.field_view_for(doc.get("profile", ""))


# --- drawing ----------------------------------------------------------------------------------------

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


# --- dropping ---------------------------------------------------------------------------------------------

def say(desk: Desk, text: str) -> None:
    desk.setup.said = text


def put(desk: Desk, index: int, spot: Spot) -> None:
    """Drop combatant `index` on `spot`: an edit of the draft, or a refusal said in the map."""
    doc = draft_doc(desk)
    view = view_of(desk, doc)
    if place_map.is_unmoved(doc, index, spot, view):
        desk.setup.picked = None
        say(desk, f"{doc['combatants'][index].get('name', '')} stays on {spot.words}.")
        return
    try:
        new = place_map.drop(doc, index, spot, view)
    except place_map.Refused as exc:
        say(desk, str(exc))
        return
    edit(desk, lambda d: new)
    if desk.page.problems:  # the loader refused the setup: the draft is unchanged, the summary says why
        say(desk, f"Not placed: {desk.page.problems[0]}")
        return
    desk.setup.picked = None
    say(desk, place_map.placed_words(new, index, spot))
    desk.focus = f'[data-testid="place-tok-{index}"]'  # the keyboard stays on the token it moved


@clicks("place-pick")
def _pick(desk: Desk, name: str, arg: str, target) -> None:
    """A tap on a token: pick it up; on the one held, put it back; with another held, drop that one here."""
    i = int(arg)
    doc = draft_doc(desk)
    held = desk.setup.picked
    if held is not None and not 0 <= held < len(doc["combatants"]):
        held = desk.setup.picked = None
    if held is None:
        if 0 <= i < len(doc["combatants"]):
            desk.setup.picked = i
            say(desk, place_map.picked_words(doc, i, view_of(desk, doc)))
        return
    if held == i:
        cancel(desk)
        return
    spot = attr(target, "data-spot")
    if spot:
        put(desk, held, Spot.parse(spot))
    else:  # a token not on the map (the tray): pick it instead
        desk.setup.picked = i
        say(desk, place_map.picked_words(doc, i, view_of(desk, doc)))


@clicks("place-drop")
def _drop(desk: Desk, name: str, arg: str, target) -> None:
    """A tap on a square or zone: the token held goes there."""
    held = desk.setup.picked
    if held is None:
        where = "square" if arg.startswith("sq:") else "zone"
        say(desk, f"Tap a token first, then the {where} to put it on.")
        return
    put(desk, held, Spot.parse(arg))


def cancel(desk: Desk) -> bool:
    """Escape: put the token held back (True if one was held)."""
    held = desk.setup.picked
    if held is None or desk.page.mode != "setup":
        return False
    desk.setup.picked = None
    doc = draft_doc(desk)
    name = doc["combatants"][held].get("name", "") if 0 <= held < len(doc["combatants"]) else "The token"
    say(desk, f"{name} put back where it was.")
    desk.focus = f'[data-testid="place-tok-{held}"]'
    return True


def arrow(desk: Desk, event) -> bool:
    """An arrow key on the map: the focus moves one square (or zone), to put the token held there."""
    el = event.target.closest("[data-spot]")
    if el is None or _none(el) or _none(event.target.closest(".pm")):
        return False
    doc = draft_doc(desk)
    view = view_of(desk, doc)
    pm = place_map.place_map(doc, view, desk.setup.picked)
    nxt = place_map.neighbour(Spot.parse(attr(el, "data-spot")), str(event.key), pm)
    event.preventDefault()
    desk.spare_field()
    if nxt.square is not None:
        t = pm.at(nxt)
        desk.focus = f'[data-testid="place-tok-{t[0].index}"]' if t else \
            f'[data-testid="place-sq-{nxt.square[0]}-{nxt.square[1]}"]'
    else:
        desk.focus = f'[data-testid="place-zone-btn-{nxt.zone}"]'
    return True


# --- dragging ---------------------------------------------------------------------------------------------

def pointer(desk: Desk, event) -> bool | None:
    """A pointer event in the setup: a token dragged follows the pointer and is dropped where it is let go.
    False (nothing to save or draw) for every event but the drop."""
    kind = str(event.type)
    drag = desk.setup.drag
    if kind == "pointerdown":
        el = event.target.closest("[data-place-token]")
        if _none(el) or (event.button is not None and int(event.button) != 0):
            return False
        desk.setup.drag = {"i": int(attr(el, "data-place-token")), "pid": int(event.pointerId), "el": el,
                           "x": float(event.clientX), "y": float(event.clientY), "moved": False, "over": None,
                           "ptype": str(event.pointerType or "mouse")}
        return False
    if drag is None or int(event.pointerId) != drag["pid"]:
        return False
    dx, dy = float(event.clientX) - drag["x"], float(event.clientY) - drag["y"]
    if kind == "pointermove":
        if not drag["moved"]:
            if abs(dx) + abs(dy) < DRAG_PX.get(drag["ptype"], 6):
                return False
            drag["moved"] = True
            drag["el"].classList.add("pm-dragging")
        event.preventDefault()
        drag["el"].style.transform = f"translate({dx:.0f}px, {dy:.0f}px)"
        _mark(drag, _spot_el(event))
        return False
    desk.setup.drag = None
    under = _spot_el(event) if kind == "pointerup" else None  # before the token takes pointer events again
    _mark(drag, None)
    drag["el"].classList.remove("pm-dragging")
    drag["el"].style.transform = ""
    if not drag["moved"]:
        return False  # a tap: its click picks the token up
    if under is None:
        say(desk, "Dropped outside the map: nothing moved.")
        desk.spare_field()
        return None
    put(desk, drag["i"], Spot.parse(attr(under, "data-spot")))
    return None


def _spot_el(event) -> Any:
    from pyscript import document

    el = document.elementFromPoint(float(event.clientX), float(event.clientY))
    if _none(el):
        return None
    found = el.closest(".pm [data-spot]")
    return None if _none(found) else found


def _mark(drag: dict[str, Any], el: Any) -> None:
    """The square or zone under a dragged token, outlined."""
    if drag["over"] is not None:
        drag["over"].classList.remove("pm-over")
    drag["over"] = el
    if el is not None:
        el.classList.add("pm-over")


def _none(value: Any) -> bool:
    if value is None:
        return True
    from pyscript.ffi import is_none
    return bool(is_none(value))
