"""The OLOG distance-band field: a row of zones, tokens stacked in each.

Draws `views.olog.bands` (OLOG-BAND-1) as columns; every token under pressure
carries a marker with the count (OLOG-PRES-1). The current actor moves by
tapping a highlighted zone, by dragging its token, or with the arrow keys,
which all pick the actor's own Move option (so Press On is asked first);
dragging any other token is a referee placement, logged (CORE-REF-1).
"""
from __future__ import annotations

from ...engine.cache import Cache
from ...engine.referee import Place
from ...views.olog import BandColumn, BandToken, bands
from .field_views import FieldAction, FieldContext, FieldView
from ..markup.html import Markup, h, part, region
from ..markup.panels import SHAPE_GLYPH, badge


def move_option(ctx: FieldContext, band: int) -> int | None:
    """The index of the selected actor's Move option to `band`, if offered."""
    for i, o in enumerate(ctx.options):
        if getattr(o.command, "band", None) == band and o.group == "Move" \
                and getattr(o.command, "actor", None) == ctx.selected:
            return i
    return None


# The markup last drawn for each zone and token, by index and id, with the model it was drawn from:
# compared by identity first (a state's tokens are built once, views/olog.py), then by value, so
# neither 40 frozen models are hashed nor unchanged zones rebuilt on a selection.
_COLUMNS = Cache(2000)
_TOKENS = Cache(2000)
_STACKS = Cache(2000)  # a zone's tokens: kept when only its label changes
_HEADS = Cache(2000)  # a zone's head by what it shows


def _kept(cache: Cache, key, model, build) -> Markup:
    return cache.get(key, lambda: build(model), same=(model,), equal=True)


class BandsView(FieldView):
    name = "bands"

    @property
    def after_write(self) -> str:
        """After each drawing, scroll the row so the selected token's zone shows: on a phone six zones do
        not fit, and the one that matters stays in view."""
        return SCROLL_TO_SELECTED

    def render(self, ctx: FieldContext) -> Markup:
        m = bands(ctx.state, ctx.selected)
        legend = h("ul", {"class_": "legend", "aria-label": "Sides"},
                   [h("li", None, h("span", {"style": f"color:{k.colour}", "aria-hidden": "true"},
                                    SHAPE_GLYPH.get(k.shape, "●")), " ", k.name) for k in m.legend])
        cols = [self.column(col) for col in m.columns]
        unplaced = ""
        if m.unplaced:
            unplaced = h("div", {"class_": "unplaced"}, h("h3", None, "Not placed yet (drag into a zone)"),
                         BandsView.stack(m.unplaced))
        note = h("p", {"class_": "muted band-note"},
                 f"Zones are about {m.zone_ft} ft apart. Labels are distances from the selected creature "
                 "(same zone Close, 1 Near, 2-4 Far, 5+ Distant).")
        return h("div", {"class_": "bands-field", "data-testid": "bands"},
                 legend, h("div", {"class_": "bands", "role": "list", "aria-label": "Zones"}, cols), unplaced, note)

    # Zones and tokens are drawn from frozen models and kept: a click that changes
    # one token rebuilds only that token's string (and its zone's), not all 40.
    @staticmethod
    def column(col: BandColumn) -> Markup:
        return _kept(_COLUMNS, col.index, col, BandsView.build_column)

    @staticmethod
    def token(t: BandToken) -> Markup:
        return _kept(_TOKENS, t.id, t, BandsView.build_token)

    @staticmethod
    def build_column(col: BandColumn) -> Markup:
        """A zone whose own element never changes on a selection: what does (its distance label, hover
        text, reach and "Move here") is in its head and move parts, and its tokens are a region, so
        a selection writes the heads and the two tokens whose flags changed, not every zone whole
        (the zone's look follows its head's classes, static/css/fray.css)."""
        i = col.index
        return h("div", {"class_": "zone", "role": "listitem", "data-zone": str(i), "data-testid": f"zone-{i}"},
                 BandsView.head(col),
                 _kept(_STACKS, i, col.tokens, BandsView.stack))

    @staticmethod
    def head(col: BandColumn) -> Markup:
        key = (col.index, col.label, col.title, col.distance, col.is_reach, col.is_move_target)
        return _HEADS.get(key, lambda: BandsView.build_head(col))

    @staticmethod
    def build_head(col: BandColumn) -> Markup:
        """A zone's head and move parts: the same for every selection standing at the same distance
        (a selection tap finds most zones' heads made already)."""
        i = col.index
        cls = "zone-head"
        if col.is_reach:
            cls += " reach"
        if col.is_move_target:
            cls += " target"
        move = ""
        if col.is_move_target:
            move = h("button", {"type": "button", "class_": "move-here", "data-action": f"zone:{i}",
                                "data-testid": f"move-to-{i}"}, "Move here")
        distance = "" if col.distance is None else (
            "its zone" if col.distance == 0 else f"{col.distance} zone{'s' if col.distance != 1 else ''}")
        head = h("header", {"id": f"zh-{i}", "class_": cls, "title": col.title},
                 h("span", {"class_": "sr-only"}, col.title),
                 h("span", {"class_": "zone-label", "aria-hidden": "true"}, col.label),
                 h("span", {"class_": "zone-num", "aria-hidden": "true"},
                   f"Zone {i + 1}" if col.distance is not None else distance))
        return Markup(part(f"zh-{i}", head) + part(f"zm-{i}", h("div", {"id": f"zm-{i}", "class_": "zone-move"}, move)))

    @staticmethod
    def stack(tokens: tuple[BandToken, ...]) -> Markup:
        return h("div", {"class_": "stack", "data-region": True}, region(BandsView.token(t) for t in tokens))

    @staticmethod
    def build_token(t: BandToken) -> Markup:
        cls = "token"
        for flag, name in ((t.is_current, "current"), (t.is_selected, "selected"), (t.is_down, "down"),
                           (t.pressure > 0, "pressed")):
            if flag:
                cls += " " + name
        frac = 0 if t.max_hp <= 0 else max(0.0, min(1.0, t.hp / t.max_hp))
        label = f"{t.name}, {t.side_name}, {t.hp} of {t.max_hp} HP"
        if t.pressure:
            label += f", {t.pressure_text}"
        if t.is_current:
            label += ", acting now"
        if t.is_down:
            label += ", down"
        marker = ""
        if t.pressure:
            marker = h("span", {"class_": "pressure", "title": t.pressure_text,
                                "data-testid": f"pressure-{t.id}"},
                       h("span", {"aria-hidden": "true"}, "⚔"), str(t.pressure))
        return h("button", {"type": "button", "class_": cls, "data-action": f"token:{t.id}",
                            "data-token": t.id, "data-testid": f"token-{t.id}", "title": t.title,
                            "aria-label": label, "aria-pressed": "true" if t.is_selected else "false"},
                 h("span", {"class_": f"disc shape-{t.shape}", "style": f"--side:{t.colour}", "aria-hidden": "true"},
                   t.initials),
                 h("span", {"class_": "tok-body"},
                   h("span", {"class_": "tok-name", "title": t.name}, t.name),
                   h("span", {"class_": "tok-hp"},
                     h("span", {"class_": "hp-bar"}, h("span", {"class_": "hp-fill " + (
                         "ok" if frac > 0.5 else "warn" if frac > 0.25 else "danger"),
                         "style": f"width:{frac * 100:.0f}%"})), f" {t.hp}/{t.max_hp}"),
                   h("span", {"class_": "badges"}, [badge(b) for b in t.badges if not b.word.startswith("pressure")])),
                 marker)

    # --- interaction ---------------------------------------------------------
    def act(self, ctx: FieldContext, action: str, arg: str) -> FieldAction | None:
        if action == "zone":
            return self.move_to(ctx, int(arg))
        return None

    def move_to(self, ctx: FieldContext, band: int) -> FieldAction:
        i = move_option(ctx, band)
        if i is None:
            return FieldAction(message=f"The selected combatant cannot move to zone {band + 1} now.")
        return FieldAction(choose=i)

    def key(self, ctx: FieldContext, key: str) -> FieldAction | None:
        if ctx.selected is None or not ctx.state.has(ctx.selected):
            return None
        c = ctx.state.get(ctx.selected)
        if c.band is None:
            return None
        if key == "ArrowLeft":
            return self.move_to(ctx, c.band - 1)
        if key == "ArrowRight":
            return self.move_to(ctx, c.band + 1)
        return None

    def pointer(self, ctx: FieldContext, event) -> FieldAction | None:
        """Drag a token to another zone (mouse, pen or touch)."""
        from pyscript import document
        from pyscript.ffi import is_none

        kind = str(event.type)
        drag = ctx.ui.band_drag
        if kind == "pointerdown":
            tok = event.target.closest("[data-token]")
            if is_none(tok):
                return None
            cid = str(tok.getAttribute("data-token"))
            ctx.ui.band_drag = {"id": cid, "x": float(event.clientX), "y": float(event.clientY), "moved": False}
            return None
        if drag is None:
            return None
        if kind == "pointermove":
            if abs(float(event.clientX) - drag["x"]) + abs(float(event.clientY) - drag["y"]) > 12:
                if not drag["moved"]:
                    drag["moved"] = True
                    document.getElementById("field-slot").classList.add("dragging")
            return None
        ctx.ui.band_drag = None
        document.getElementById("field-slot").classList.remove("dragging")
        if kind != "pointerup" or not drag["moved"]:
            return None
        under = document.elementFromPoint(event.clientX, event.clientY)
        zone = None if is_none(under) else under.closest("[data-zone]")
        if zone is None or is_none(zone):
            return None
        band = int(str(zone.getAttribute("data-zone")))
        cid = drag["id"]
        c = ctx.state.get(cid)
        if c.band == band:
            return None
        if cid == ctx.selected and cid in ctx.current:
            i = move_option(ctx, band)
            if i is not None and ctx.options[i].allowed:
                return FieldAction(choose=i)
        # Anyone else, or a move the rules don't offer: the referee places the token (logged).
        return FieldAction(command=Place(cid, band=band))


VIEW_FACTORY = BandsView


# Bring the zone of the selected token into the visible part of the bands row (none selected, or the row
# hidden on a phone's other tab: nothing to do).
SCROLL_TO_SELECTED = r"""
return () => {
  const row = document.querySelector("#field-slot .bands");
  const token = document.querySelector("#field-slot .bands .token.selected");
  if (!row || !token || row.clientWidth === 0) return;
  const zone = token.closest(".zone");
  if (!zone) return;
  const left = zone.offsetLeft - row.offsetLeft, right = left + zone.offsetWidth;
  if (left < row.scrollLeft || right > row.scrollLeft + row.clientWidth) row.scrollLeft = Math.max(0, left - 8);
};
"""
