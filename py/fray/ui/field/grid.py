"""The tactical grid field (OSE detailed, Ogre): one SVG of squares, walls, tokens, threat and a path preview.

Draws `views.grid.GridModel` with the layers of ui/field/grid_svg.py; pointer
gestures are ui/field/grid_pointer.py's. Hovering, dragging, panning and zooming
patch a few nodes of the drawn SVG in place (`refresh`, `set_view`: the
viewBox, two overlay groups, the notes) instead of redrawing the page for
every pixel. The overlays a hover patched are handed back to the app
(`ui.patched`), which compares its next drawing with them; what else is
patched (the viewBox, the toolbar, a dragged token) bumps a `data-gen`
counter in the markup, so the app's next redraw writes the map whole.

Interactions: tap a token to select it; with a mover selected, tap a square to
preview the path and tap it again to go; shift-click (or the Waypoints toggle)
adds a stop; drag a token to move it (someone else's token, or one with no move
now: a referee placement, logged); wheel or pinch zooms, dragging the empty map
pans; long press shows a square's details; the Walls toggle paints walls (a
logged, undoable referee command). Arrows move a cursor, Enter acts on it.
"""
from __future__ import annotations

from ...engine.referee import Allow, Place, SetWalls
from ...views.grid import GridModel, grid_model
from ...views.grid_path import PathPreview, PreviewRequest, can_move, commit_command, fmt, plan_path
from .field_views import FieldAction, FieldContext, FieldView
from .grid_pointer import GridCamera, GridPointer, _is_none
from .grid_svg import (MAX_ZOOM, S, _n, base_layer, forget, notes, over_layer, threat_layer, token_svg, toolbar,
                       under_layer)
from ..markup.html import Markup, part, region

__all__ = ["GridView", "VIEW_FACTORY", "base_layer", "forget"]


class GridView(GridPointer, GridCamera, FieldView):
    name = "grid"

    # --- state kept in ctx.ui (transient, owned by this view) -------------------------------
    def _sync(self, ctx: FieldContext) -> None:
        """Forget what no longer fits the state: another map size, a path of a creature gone."""
        ui = ctx.ui
        m = ctx.state.encounter.map
        if ui.size != (m.width, m.height):
            if ui.size is not None:  # another map: the old squares mean nothing here
                ui.path = ui.hover = ui.cursor = ui.info = ui.press = ui.stroke = ui.view = ui.followed = None
            ui.size = (m.width, m.height)
        if ui.view is None:  # the first view: the whole map; on a phone, close on the actor and following it
            ui.view = self.default_view(ctx)
            if ui.follow is None:
                ui.follow = ui.view[0] > 1.0
            actor = self._actor(ctx)  # the first view is on the actor already (leaning toward its foe):
            ui.followed = None if actor is None else (actor.id, tuple(actor.square))  # Follow starts from it
        self.follow(ctx)
        path = ui.path
        if path is not None:
            mover = path.get("mover")
            if not ctx.state.has(mover) or ctx.state.get(mover).square is None:
                ui.path = None
            elif not path.get("drag") and mover != ctx.selected:
                ui.path = None  # the selection changed: the preview was the other's

    def request(self, ctx: FieldContext) -> PreviewRequest | None:
        path = ctx.ui.path
        if not path or not path.get("points"):
            return None
        return PreviewRequest(path["mover"], tuple(tuple(p) for p in path["points"]), bool(path.get("place")))

    def model(self, ctx: FieldContext) -> GridModel:
        ui = ctx.ui
        return grid_model(ctx.state, ctx.ruleset, selected=ctx.selected, current=ctx.current,
                          badges=ctx.panel.badges if ctx.panel is not None else {},
                          hover=ui.hover, cursor=ui.cursor or ctx.cursor, preview=self.request(ctx),
                          pending=ctx.pending, options=ctx.options, info=ui.info)

    def viewbox(self, ctx: FieldContext) -> str:
        m = ctx.state.encounter.map
        zoom, vx, vy = ctx.ui.camera
        return f"{_n(round(vx, 2))} {_n(round(vy, 2))} {_n(round(m.width * S / zoom, 2))} " \
               f"{_n(round(m.height * S / zoom, 2))}"

    # --- drawing ----------------------------------------------------------------------------
    def render(self, ctx: FieldContext) -> Markup:
        ctx.ui.frame = False  # this drawing has the latest hover and path: no refresh is due
        self._sync(ctx)
        m = self.model(ctx)
        ui = ctx.ui
        mode = "walls" if ui.walls else "play"
        svg = (f'<svg id="grid-svg" class="grid-svg" data-testid="grid-svg" xmlns="http://www.w3.org/2000/svg" '
               f'viewBox="{self.viewbox(ctx)}" preserveAspectRatio="xMidYMin meet" role="group" '
               f'aria-label="Map: {m.width} by {m.height} squares of 5 ft; {len(m.tokens)} tokens">'
               + base_layer(m) + part("grid-threat", Markup(threat_layer(m)))
               + part("grid-under", Markup(f'<g id="grid-under" class="under">{under_layer(m)}</g>'))
               + '<g class="tokens" data-region="">' + region([Markup(token_svg(t)) for t in m.tokens]) + '</g>'
               + part("grid-over", Markup(f'<g id="grid-over" class="over">{over_layer(m, ui)}</g>')) + '</svg>')
        # The board and walls are the same from tap to tap; the layers, the tokens, the toolbar and the
        # notes are written one by one when only they change (ui/dom/patch.py).
        return Markup(f'<div class="grid-view" data-testid="grid" data-gen="{ui.gen}" data-mode="{mode}">'
                      + part("grid-bar", toolbar(m, ui)) + f'<div class="grid-wrap">{svg}</div>'
                      + part("grid-notes", notes(m, ui)) + '</div>')

    def refresh(self, ctx: FieldContext, root, under_too: bool = True) -> None:
        """Patch the overlays and the notes in place (hover, drag, stroke): at most three DOM writes;
        a hover leaves the path under the tokens as it is. What each part now holds is left in
        `ui.patched` for the app (ui/page/render.py), so its next drawing is compared with what the page
        shows and writes only the parts that then differ, not the whole map after every hover."""
        m = self.model(ctx)
        if ctx.ui.patched is None:
            ctx.ui.patched = {}
        patched = ctx.ui.patched
        under = root.querySelector("#grid-under") if under_too else None
        over = root.querySelector("#grid-over")
        box = root.querySelector("#grid-notes")
        if not _is_none(under):
            inner = under_layer(m)
            under.innerHTML = inner
            patched["grid-under"] = Markup(f'<g id="grid-under" class="under">{inner}</g>')
        if not _is_none(over):
            inner = over_layer(m, ctx.ui)
            over.innerHTML = inner
            patched["grid-over"] = Markup(f'<g id="grid-over" class="over">{inner}</g>')
        if not _is_none(box):
            patched["grid-notes"] = box.outerHTML = notes(m, ctx.ui)

    def set_view(self, ctx: FieldContext, svg, root=None) -> None:
        """Apply zoom and pan as the viewBox alone, and keep the toolbar's zoom figure and buttons true."""
        ctx.ui.gen += 1
        if not _is_none(svg):
            svg.setAttribute("viewBox", self.viewbox(ctx))
        if root is None:
            return
        zoom = ctx.ui.zoom
        label = root.querySelector('[data-testid="grid-zoom"]')
        if not _is_none(label):
            label.textContent = f"{round(zoom * 100)}%"
        for testid, off in (("grid-zoom-out", zoom <= 1.0), ("grid-zoom-in", zoom >= MAX_ZOOM)):
            button = root.querySelector(f'[data-testid="{testid}"]')
            if not _is_none(button):
                button.disabled = off

    # --- actions from buttons -------------------------------------------------------------------
    def act(self, ctx: FieldContext, action: str, arg: str) -> FieldAction | None:
        ui = ctx.ui
        if action == "grid-walls":
            ui.walls = not ui.walls
            ui.stroke = None
            ui.path = None
            return FieldAction(redraw=True)
        if action == "grid-wp":
            ui.wp = not ui.wp
            return FieldAction(redraw=True)
        if action == "grid-zoom":
            z = ui.zoom
            sel = ctx.state.find(ctx.selected) if ctx.selected else None
            about = None
            if arg == "in" and sel is not None and sel.square is not None:
                # Zoom towards the selected creature: keep it under the same spot, bring it into view.
                about = (sel.square[0] * S + S / 2, sel.square[1] * S + S / 2)
            if arg == "fit":
                self.fit_tokens(ctx)
            else:
                self.zoom_to(ctx, 1.0 if arg == "map" else z * 1.5 if arg == "in" else z / 1.5, about)
            return FieldAction(redraw=True)
        if action == "grid-follow":
            ui.follow = not ui.follow
            ui.followed = None  # on: centre the actor now
            self.follow(ctx)
            return FieldAction(redraw=True)
        if action == "grid-cancel":
            ui.path = None
            ui.info = None
            return FieldAction(redraw=True)
        if action == "grid-info-close":
            ui.info = None
            return FieldAction(redraw=True)
        if action == "grid-drop-point":
            path = ui.path
            if path and len(path["points"]) > 1:
                path["points"] = path["points"][:-2] + path["points"][-1:]
            return FieldAction(redraw=True)
        if action == "grid-commit":
            return self.commit(ctx)
        if action == "grid-allow":
            p = self.preview(ctx)
            if p is None or p.command is None or not p.squares:
                return FieldAction(redraw=True)
            ui.path = None
            return FieldAction(command=Allow(p.command))
        if action == "grid-place":
            x, _, y = arg.partition(",")
            if ctx.selected is None:
                return None
            ui.info = None
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
        if ui.walls:
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
        path = ui.path
        active = bool(path) and path.get("mover") == sel and not path.get("place") and not path.get("drag")
        adding = shift or ui.wp
        mover_ok = can_move(ctx.state, ctx.ruleset, sel, pending, ctx.options)
        fallen = tok is not None and ctx.state.has(tok) and ctx.state.get(tok).is_down
        # A fallen creature's square is a square like any other to a mover (its body can be
        # stepped over): the tap previews a move there rather than selecting the body.
        if tok is not None and tok != sel and not (active and adding) and not (fallen and mover_ok):
            ui.path = None
            ui.info = None
            return FieldAction(select=tok)
        if not mover_ok:  # nobody to move: tell about the square (distance, threat, place here)
            ui.info = tuple(sq)
            ui.hover = tuple(sq)
            return FieldAction(redraw=True)
        start = tuple(ctx.state.get(sel).square)
        if tuple(sq) == start and not adding:
            # Tapping the mover itself: drop the preview (or show its square).
            if active:
                ui.path = None
            else:
                ui.info = tuple(sq)
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
        ui.path = {"mover": sel, "points": points}
        ui.info = None
        ui.hover = sq
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
        cur = ui.cursor or ctx.cursor
        if key in steps:
            if cur is None:
                sel = ctx.state.find(ctx.selected) if ctx.selected else None
                cur = tuple(sel.square) if sel is not None and sel.square is not None else (0, 0)
            else:
                dx, dy = steps[key]
                cur = (max(0, min(m.width - 1, cur[0] + dx)), max(0, min(m.height - 1, cur[1] + dy)))
            ui.cursor = cur
            ui.hover = cur
            return FieldAction(redraw=True)
        if key in ("Enter", " ") and cur is not None:
            return self.tap(ctx, tuple(cur), self.token_at(ctx, cur))
        return None


VIEW_FACTORY = GridView
