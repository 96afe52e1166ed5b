"""The tactical grid's pointer gestures: tap, drag a token, pan, pinch and wheel zoom, long press, paint walls.

A mixin of `GridView` (ui/field/grid.py), kept apart from what the view draws and
what its buttons and keys do. Pointer events arrive through the app
(`pointer(ctx, event)`); hovering, dragging, panning and zooming update a few
nodes of the drawn SVG directly (through the view's `refresh` and `set_view`)
instead of redrawing the page for every pixel. A gesture ends as a
`FieldAction` (a tap, a move, a placement, a stroke of walls) or nothing.
"""
from __future__ import annotations

import math
from typing import Any

from ...engine.referee import SetWalls
from ...views.grid_path import can_move
from ...views.grid import uncut
from ...views.move_toward import nearest_foe
from .field_views import FieldAction, FieldContext
from .grid_svg import MAX_ZOOM, S, _n

LONG_PRESS_MS = 500
DRAG_PX = {"mouse": 5, "pen": 6, "touch": 10}
PHONE_PX = 760  # the CSS breakpoint of the one-column layout
TOUCH_SQUARE_PX = 48  # a phone's default square: over the 44 px tap target, with room for borders


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


def _window() -> Any:
    """The browser's window, or None under CPython (the unit tests)."""
    try:
        from js import window
    except ImportError:
        return None
    return window


_SCHEDULING: list[Any] = []


def _input_waiting() -> bool:
    """A press, a release or a key waiting to be handled (Chromium's navigator.scheduling.isInputPending;
    pointer moves do not count); False where the browser cannot tell."""
    if not _SCHEDULING:
        win = _window()
        nav = getattr(win, "navigator", None) if win is not None else None
        sched = getattr(nav, "scheduling", None) if nav is not None and not _is_none(nav) else None
        ok = sched is not None and not _is_none(sched) and not _is_none(getattr(sched, "isInputPending", None))
        _SCHEDULING.append(sched if ok else None)
    sched = _SCHEDULING[0]
    return sched is not None and bool(sched.isInputPending())


class _Hold:
    """The long press's timer: one pyscript proxy for the page's life, and the press it waits on.

    Firing dispatches a synthetic `contextmenu` at the pressed element, so the app's own pointer
    listener opens the square's menu (`GridPointer._context`) while the finger is still down."""

    proxy: Any = None
    timer: Any = None
    target: Any = None
    xy: tuple[float, float] = (0.0, 0.0)

    @classmethod
    def start(cls, target, x: float, y: float) -> None:
        cls.cancel()
        window = _window()
        if window is None:
            return
        if cls.proxy is None:
            from pyscript.ffi import create_proxy
            cls.proxy = create_proxy(cls.fire)
        cls.target, cls.xy = target, (x, y)
        cls.timer = window.setTimeout(cls.proxy, LONG_PRESS_MS)

    @classmethod
    def cancel(cls) -> None:
        if cls.timer is not None:
            window = _window()
            if window is not None:
                window.clearTimeout(cls.timer)
        cls.timer = cls.target = None

    @classmethod
    def fire(cls, *_) -> None:
        target, (x, y) = cls.target, cls.xy
        cls.timer = cls.target = None
        window = _window()
        if target is None or window is None or not bool(target.isConnected):
            return
        from pyscript.ffi import to_js
        opts = to_js({"bubbles": True, "cancelable": True, "clientX": x, "clientY": y},
                     dict_converter=window.Object.fromEntries)
        target.dispatchEvent(window.MouseEvent.new("contextmenu", opts))


class GridCamera:
    """Zoom and pan as `ui.view = (zoom, x, y)`: the viewBox's scale and top-left corner.

    A phone's first view zooms in so a square (a token's hit area) is at least 44 CSS px,
    centred on the actor; Fit frames every placed token; Follow recentres on the actor after
    each step."""

    def _phone_zoom(self, ctx) -> float:
        """The zoom that makes a square TOUCH_SQUARE_PX on this screen; 1 off a phone."""
        window = _window()
        if window is None or int(window.innerWidth) >= PHONE_PX:
            return 1.0
        m = ctx.state.encounter.map
        width = float(window.innerWidth) - 16  # the layout's padding and the map's border
        height = float(window.innerHeight) * 0.7  # .grid-svg's max-height on a phone
        square = min(width / m.width, height / m.height)
        return min(MAX_ZOOM, max(1.0, TOUCH_SQUARE_PX / square))

    def _actor(self, ctx):
        """Who the view keeps in sight: the current actor, else the selected creature."""
        for cid in tuple(ctx.current) + ((ctx.selected,) if ctx.selected else ()):
            c = ctx.state.find(cid)
            if c is not None and c.square is not None:
                return c
        return None

    def _placed(self, ctx) -> list[tuple[int, int]]:
        return [tuple(c.square) for c in ctx.state.combatants if c.square is not None]

    def default_view(self, ctx) -> tuple[float, float, float]:
        """The whole map; on a phone, zoomed in on the actor with its nearest foe in sight (or the tokens' centre)."""
        zoom = self._phone_zoom(ctx)
        if zoom <= 1.0:
            return (1.0, 0.0, 0.0)
        c = self._actor(ctx)
        squares = self._with_foe(ctx, c) if c is not None else self._placed(ctx)
        if not squares:
            return (zoom, 0.0, 0.0)
        x0, x1 = min(x for x, _ in squares), max(x for x, _ in squares) + 1
        y0, y1 = min(y for _, y in squares), max(y for _, y in squares) + 1
        if c is None:
            return self._centred(ctx, zoom, ((x0 + x1) * S / 2, (y0 + y1) * S / 2))
        # Issue #53, stop 7: the actor's nearest foe in sight too where it fits, never below the zoom that keeps
        # a square a finger's size (44 px: the tokens stay targets).
        return self._in_sight(ctx, zoom, c, lean=True)

    def _with_foe(self, ctx, c) -> list[tuple[int, int]]:
        """The actor's square and its nearest standing foe's (the long move's first target)."""
        foe = nearest_foe(ctx.state, c.id)
        return [tuple(c.square)] + ([tuple(ctx.state.get(foe).square)] if foe is not None else [])

    def _in_sight(self, ctx, zoom: float, c, lean: bool = False) -> tuple[float, float, float]:
        """The view at `zoom` centred on the actor, shifted just enough that its nearest foe is in sight too,
        with a square of margin, when both fit (issue #53, stop 7)."""
        m = ctx.state.encounter.map
        _, vx, vy = self._centred(ctx, zoom, (c.square[0] * S + S / 2, c.square[1] * S + S / 2))
        squares = self._with_foe(ctx, c)
        x0, x1 = min(x for x, _ in squares) - 1, max(x for x, _ in squares) + 2
        y0, y1 = min(y for _, y in squares) - 1, max(y for _, y in squares) + 2
        vw, vh = m.width * S / zoom, m.height * S / zoom
        # Both in sight where they fit; where they do not, as far toward the foe as keeps the actor (and a
        # square around it) in sight: the way to the foe is on screen, the tokens stay a finger's size.
        ax0, ax1 = (c.square[0] - 1) * S, (c.square[0] + 2) * S
        ay0, ay1 = (c.square[1] - 1) * S, (c.square[1] + 2) * S
        fits = (x1 - x0) * S <= vw + 1e-6 and (y1 - y0) * S <= vh + 1e-6
        if fits or lean:  # `lean`: the first view; Follow only shifts where both fit
            vx = min(max(vx, x1 * S - vw), x0 * S) if (x1 - x0) * S <= vw + 1e-6 else \
                (min(x1 * S - vw, ax0) if squares[-1][0] > c.square[0] else max(x0 * S, ax1 - vw))
            vy = min(max(vy, y1 * S - vh), y0 * S) if (y1 - y0) * S <= vh + 1e-6 else \
                (min(y1 * S - vh, ay0) if squares[-1][1] > c.square[1] else max(y0 * S, ay1 - vh))
        return self._whole(ctx, zoom, *self._clamp(ctx, zoom, vx, vy), keep=tuple(c.square))

    def _centred(self, ctx, zoom: float, pt: tuple[float, float]) -> tuple[float, float, float]:
        m = ctx.state.encounter.map
        return self._whole(ctx, zoom, *self._clamp(ctx, zoom, pt[0] - m.width * S / zoom / 2,
                                                    pt[1] - m.height * S / zoom / 2))

    def _whole(self, ctx, zoom: float, vx: float, vy: float, keep: tuple[int, ...] = ()) -> tuple[float, float, float]:
        """The view moved as little as it takes for its edges to cut no token (views/grid.py `uncut`): a token
        at the edge of a phone's zoomed view shows whole or not at all, the actor's whole (issue 53)."""
        m, placed = ctx.state.encounter.map, self._placed(ctx)
        x = uncut(vx / S, m.width / zoom, m.width, {q[0] for q in placed}, keep[:1])
        y = uncut(vy / S, m.height / zoom, m.height, {q[1] for q in placed}, keep[1:])
        return (zoom, x * S, y * S)

    def fit_tokens(self, ctx) -> None:
        """The smallest view (the map's shape) holding every placed token with a square of margin."""
        squares = self._placed(ctx)
        if not squares:
            ctx.ui.view = (1.0, 0.0, 0.0)
            return
        m = ctx.state.encounter.map
        x0, x1 = min(x for x, _ in squares) - 1, max(x for x, _ in squares) + 2
        y0, y1 = min(y for _, y in squares) - 1, max(y for _, y in squares) + 2
        zoom = max(1.0, min(MAX_ZOOM, m.width / (x1 - x0), m.height / (y1 - y0)))
        ctx.ui.view = self._centred(ctx, zoom, ((x0 + x1) * S / 2, (y0 + y1) * S / 2))

    def follow(self, ctx) -> None:
        """With Follow on, recentre on the actor when it changes or steps (not while the referee pans), its
        nearest foe kept in sight when both fit."""
        c = self._actor(ctx)
        key = None if c is None else (c.id, tuple(c.square))
        if key == ctx.ui.followed:
            return
        ctx.ui.followed = key
        if c is not None and ctx.ui.follow:
            ctx.ui.view = self._in_sight(ctx, ctx.ui.zoom, c)

    def zoom_to(self, ctx, zoom: float, about: tuple[float, float] | None = None) -> None:
        """Zoom keeping the SVG point `about` where it is on screen (the centre by default)."""
        m = ctx.state.encounter.map
        w, hgt = m.width * S, m.height * S
        z0, vx, vy = ctx.ui.camera
        z1 = max(1.0, min(MAX_ZOOM, zoom))
        if about is None:
            about = (vx + w / z0 / 2, vy + hgt / z0 / 2)
        rx, ry = (about[0] - vx) / (w / z0), (about[1] - vy) / (hgt / z0)
        nx, ny = about[0] - rx * w / z1, about[1] - ry * hgt / z1
        ctx.ui.view = (z1, *self._clamp(ctx, z1, nx, ny))

    def pan_by(self, ctx, dx: float, dy: float) -> None:
        z, vx, vy = ctx.ui.camera
        ctx.ui.view = (z, *self._clamp(ctx, z, vx + dx, vy + dy))

    def _clamp(self, ctx, z: float, vx: float, vy: float) -> tuple[float, float]:
        m = ctx.state.encounter.map
        w, hgt = m.width * S, m.height * S
        return (max(0.0, min(w - w / z, vx)), max(0.0, min(hgt - hgt / z, vy)))


class _Frame:
    """At most one overlay refresh per animation frame while the pointer moves (hover, drag, a wall
    stroke): each move only records what to draw; the frame draws the latest. Under CPython (no
    window) the refresh is immediate."""

    proxy: Any = None
    pending = False
    job: Any = None  # (view, ctx, root, under_too)

    @classmethod
    def ask(cls, view, ctx, root, under_too: bool) -> None:
        win = _window()
        if win is None:
            view.refresh(ctx, root, under_too)
            return
        under_too = under_too or bool(cls.job and cls.pending and cls.job[3])
        cls.job = (view, ctx, root, under_too)
        ctx.ui.frame = True  # a full redraw before the frame draws everything and drops it
        if cls.pending:
            return
        if cls.proxy is None:
            from pyscript.ffi import create_proxy
            cls.proxy = create_proxy(cls.fire)
        cls.pending = True
        win.requestAnimationFrame(cls.proxy)

    @classmethod
    def fire(cls, *_) -> None:
        cls.pending = False
        if cls.job is None:
            return
        if _input_waiting():
            # A tap (or key) came after the move: it goes first, and its drawing has the latest hover
            # (it clears `ui.frame`); what is still due is drawn a frame later. The bench's taps move
            # the mouse onto a token and press at once: a hover drawn first (6 to 15 ms at 120
            # combatants) made the press wait that long (issue 38).
            cls.pending = True
            _window().requestAnimationFrame(cls.proxy)
            return
        job, cls.job = cls.job, None
        view, ctx, root, under_too = job
        if ctx.ui.frame:
            ctx.ui.frame = False
            view.refresh(ctx, root, under_too)


def forget() -> None:
    """Drop a long press and a frame's refresh still waiting (a new App in the page: ui/app.py)."""
    _Hold.cancel()
    _Frame.job = None


class GridPointer:
    """Pointer gestures over the grid's SVG. Needs from the view: `_sync`,
    `refresh`, `set_view`, `zoom_to`, `pan_by`, `commit`, `tap`, `token_at`
    and `_occupied`."""

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
        z = ctx.ui.zoom
        factor = 1.2 if float(event.deltaY) < 0 else 1 / 1.2
        self.zoom_to(ctx, z * factor, pt)
        self.set_view(ctx, svg, event.currentTarget)
        return None

    def _context(self, ctx, svg, event) -> FieldAction | None:
        if not self._inside(event):
            return None
        event.preventDefault()
        sq, _ = self._square(svg, event)
        press = ctx.ui.press
        if press is not None:
            press["kind"] = "info"  # the release of this long press does nothing more
        ctx.ui.info = sq
        return FieldAction(redraw=True)

    def _down(self, ctx, root, svg, event) -> FieldAction | None:
        ui = ctx.ui
        if not self._inside(event):
            return None
        pid = int(event.pointerId)
        if ui.ptrs is None:
            ui.ptrs = {}
        ptrs = ui.ptrs
        ptrs[pid] = (float(event.clientX), float(event.clientY))
        if len(ptrs) >= 2:  # a second finger: pinch zoom, nothing else
            (x1, y1), (x2, y2) = list(ptrs.values())[:2]
            ui.pinch = {"d": math.hypot(x2 - x1, y2 - y1) or 1.0, "zoom": ui.zoom}
            self._drop_press(ctx, root)
            return None
        if event.button is not None and int(event.button) != 0:
            return None
        sq, _ = self._square(svg, event)
        tok_el = event.target.closest("[data-token]")
        tok = None if _is_none(tok_el) else str(tok_el.getAttribute("data-token"))
        ui.press = {"id": pid, "x": float(event.clientX), "y": float(event.clientY),
                    "t": float(event.timeStamp), "sq": sq, "tok": tok, "kind": "",
                    "ptype": str(event.pointerType or "mouse"), "shift": bool(event.shiftKey)}
        try:
            root.setPointerCapture(pid)
        except Exception:
            pass
        if not ui.walls:  # a real hold: the menu opens while the finger is still down
            _Hold.start(event.target, float(event.clientX), float(event.clientY))
        if ui.walls:
            m = ctx.state.encounter.map
            if 0 <= sq[0] < m.width and 0 <= sq[1] < m.height:
                ui.press["kind"] = "paint"
                ui.stroke = {"erase": sq in m.walls, "squares": [sq], "last": sq}
                self.refresh(ctx, root)
        return None

    def _drop_press(self, ctx, root) -> None:
        _Hold.cancel()
        press, ctx.ui.press = ctx.ui.press, None
        ctx.ui.stroke = None
        if press and press.get("kind") == "drag":
            ctx.ui.path = None

    def _move(self, ctx, root, svg, event) -> FieldAction | None:
        ui = ctx.ui
        pid = int(event.pointerId)
        ptrs = ui.ptrs or {}
        if pid in ptrs:
            ptrs[pid] = (float(event.clientX), float(event.clientY))
        pinch = ui.pinch
        if pinch is not None and len(ptrs) >= 2:
            (x1, y1), (x2, y2) = list(ptrs.values())[:2]
            mid = type("P", (), {"clientX": (x1 + x2) / 2, "clientY": (y1 + y2) / 2})()
            _, pt = self._square(svg, mid)
            self.zoom_to(ctx, pinch["zoom"] * math.hypot(x2 - x1, y2 - y1) / pinch["d"], pt)
            self.set_view(ctx, svg, root)
            return None
        press = ui.press
        sq, pt = self._square(svg, event)
        if press is None:
            if str(event.pointerType or "mouse") == "touch" or not self._inside(event):
                return None
            m = ctx.state.encounter.map
            hover = sq if (0 <= sq[0] < m.width and 0 <= sq[1] < m.height) else None
            if hover != ui.hover:
                ui.hover = hover
                _Frame.ask(self, ctx, root, False)
            return None
        if press["id"] != pid:
            return None
        dx, dy = float(event.clientX) - press["x"], float(event.clientY) - press["y"]
        if not press["kind"]:
            if abs(dx) + abs(dy) < DRAG_PX.get(press["ptype"], 6):
                return None
            press["kind"] = "drag" if press["tok"] is not None else "pan"
            _Hold.cancel()  # a drag is never a long press, nor a tap
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
        stroke = ctx.ui.stroke
        m = ctx.state.encounter.map
        if stroke is None or sq == stroke["last"]:
            return None
        from ...engine.geometry import line
        for s in line(stroke["last"], sq)[1:]:
            if 0 <= s[0] < m.width and 0 <= s[1] < m.height and s not in stroke["squares"]:
                stroke["squares"].append(s)
        stroke["last"] = sq
        _Frame.ask(self, ctx, root, True)
        return None

    def _drag(self, ctx, root, svg, press, sq, pt) -> None:
        ui = ctx.ui
        tok = press["tok"]
        el = root.querySelector(f'[data-token="{tok}"]') if '"' not in tok and "\\" not in tok else None
        if not _is_none(el):
            el.setAttribute("transform", f"translate({_n(round(pt[0], 1))} {_n(round(pt[1], 1))})")
            el.classList.add("dragging")
            ui.gen += 1  # the token is off its square: the next drawing writes it back
        m = ctx.state.encounter.map
        if not (0 <= sq[0] < m.width and 0 <= sq[1] < m.height):
            return None
        path = ui.path
        if path is not None and path.get("drag") and path["points"] == [sq]:
            return None
        c = ctx.state.get(tok)
        if c.square is not None and tuple(c.square) == sq:
            ui.path = None
        else:
            own = tok == ctx.selected
            movable = can_move(ctx.state, ctx.ruleset, tok, ctx.pending if own else None,
                               ctx.options if own else None)
            ui.path = {"mover": tok, "points": [sq], "place": not movable, "drag": True}
        ui.hover = sq
        _Frame.ask(self, ctx, root, True)  # the path preview: at most once a frame
        return None

    def _up(self, ctx, root, svg, event, cancelled: bool) -> FieldAction | None:
        ui = ctx.ui
        pid = int(event.pointerId)
        ptrs = ui.ptrs or {}
        ptrs.pop(pid, None)
        if ui.pinch is not None:
            if len(ptrs) < 2:
                ui.pinch = None
                ui.press = None
                return FieldAction(redraw=True)  # the toolbar's zoom figure
            return None
        press = ui.press
        if press is None or press["id"] != pid:
            return None
        _Hold.cancel()
        ui.press = None
        try:
            root.releasePointerCapture(pid)
        except Exception:
            pass
        kind = press["kind"]
        if cancelled:
            ui.stroke = None
            if kind == "drag":
                ui.path = None
            return FieldAction(redraw=True) if kind in ("drag", "paint") else None
        if kind == "paint":
            return self._commit_stroke(ctx)
        if kind == "drag":
            path = ui.path
            if not path or not path.get("drag"):
                return FieldAction(redraw=True)  # dropped where it started
            result = self.commit(ctx)
            ui.path = None  # a refused drop says why in the notice; the token goes back
            return result if (result.command is not None or result.fill is not None) else \
                FieldAction(message=result.message, redraw=True)
        if kind == "pan":
            return FieldAction(redraw=True)
        if kind == "info":
            return None
        sq = press["sq"]
        if float(event.timeStamp) - press["t"] >= LONG_PRESS_MS:
            ui.info = sq
            return FieldAction(redraw=True)
        tok = press["tok"] or self.token_at(ctx, sq)
        return self.tap(ctx, sq, tok, shift=press["shift"] or bool(event.shiftKey))

    def _commit_stroke(self, ctx) -> FieldAction | None:
        stroke, ctx.ui.stroke = ctx.ui.stroke, None
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
