"""The setup's placement map in the page: a token placed by drag (mouse, touch) or tap-tap.

What a drop means, whether it is allowed and the edit it makes are fray/place_map.py's; ui/markup/place_markup.py
draws the map (squares for a grid, zones for OLOG); this module turns gestures into that edit through the
setup's draft
(ui/desk/operations.py `edit`: validated, applied, undone by Undo like any setup edit). Tap-tap: a tap (or
Enter) on a token picks it up, a tap on a square or zone puts it there, Escape puts it back; arrows move the
keyboard's focus over the squares. What happens is said in the map's live region.
"""
from __future__ import annotations

from typing import Any

from ... import place_map
from ...place_map import Spot
from ...rules import SYSTEMS
from ...rules import get as get_ruleset
from .actions import Actions
from ..desk.desk import Desk
from ..desk.operations import draft_doc, edit
from ..dom.patch import attr

clicks = Actions("click")
DRAG_PX = {"mouse": 5, "pen": 6, "touch": 10}


def view_of(desk: Desk, doc: dict[str, Any]) -> str:
    """The draft's field view: "grid" (OSE detailed, Ogre), "bands" (OLOG), or another (no map)."""
    ruleset = get_ruleset(doc["system"]) if doc.get("system") in SYSTEMS else desk.session.ruleset
    return ruleset.info.field_view(doc.get("profile", ""))


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
