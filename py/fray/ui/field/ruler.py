"""The Ogre segment ruler: time left to right, a lane per combatant, drawn below the field.

Draws `views.ogre.ruler` as one HTML string: an axis of segments labelled
every 5 with their seconds (OGRE-SEG-1), the cursor at now, each lane's
hatched flat-footed stretch (OGRE-FF-1), each declared action as a bar from
declaration to resolution with its category (OGRE-ACT-1, OGRE-CAT-1), fast
and careful actions marked with an icon and a word (OGRE-FAST-1,
OGRE-SLOW-1), reactions as ticks with their penalty (OGRE-REACT-1), delays
dashed and readies open-ended (OGRE-DELAY-1, OGRE-READY-1), and the next
resolution highlighted. Positions are percentages of the window, so the
ruler fills its box on a wide screen and scrolls sideways (at a minimum
width per segment, CSS) on a narrow one. Clicking a lane or a bar selects
that combatant; the lane names are buttons (Tab, Enter).
"""
from __future__ import annotations

from ...engine.model import Side
from ...rules.ogre import REACTION_PENALTY, OgreState, seconds
from ...views.ogre import RulerBar, RulerLane, RulerMark, RulerModel, ruler
from .field_views import FieldAction, FieldContext, FieldView
from ..markup.html import Markup, h, part, region
from ..markup.panels import SHAPE_GLYPH

# Width buckets (px) for the container queries that swap a bar's full label for
# its compact one when the bar is too narrow (CSS: .rl-bar.fit-N).
FIT_BUCKETS = (80, 120, 160, 200, 240, 280, 320, 400)
CHAR_PX = 6.6  # an average character of the bar font (0.78rem), generous
STATE_WORD = {"resolved": "resolved", "broken": "broken", "failed": "failed", "fired": "fired", "lost": "lost",
              "pending": "under way"}
STATE_ICON = {"broken": "✖", "failed": "✖", "lost": "✖", "fired": "⚑"}
KIND_ICON = {"ready": "⚑", "delay": "‖", "stun": "✺"}  # glyphs common fonts have (no emoji)
FF_ICON = "◔"
NOW_LABEL_SEGMENTS = 5  # axis labels this close to now hide under the "now" tag


def fit_bucket(text: str) -> int:
    """The smallest bucket (px) that holds `text` in a bar, for the compact-label query."""
    need = len(text) * CHAR_PX + 16
    for b in FIT_BUCKETS:
        if need <= b:
            return b
    return FIT_BUCKETS[-1]


def tempo_tag(bar: RulerBar) -> str:
    """Fast and careful actions: an icon AND a word (UI principle 6)."""
    if bar.fast:
        return "» fast"
    if bar.slow:
        return f"« slow +{4 * bar.slow}"
    return ""


class Ruler:
    """Geometry of one model: segment -> percent of the window."""

    def __init__(self, m: RulerModel) -> None:
        self.m = m
        self.n = max(1, m.end - m.start)

    def x(self, segment: int) -> float:
        return max(0.0, min(100.0, (segment - self.m.start) * 100.0 / self.n))

    def span(self, start: int, end: int | None) -> tuple[float, float]:
        left = self.x(start)
        right = 100.0 if end is None else self.x(end)
        return left, max(0.0, right - left)


def next_due(m: RulerModel) -> list[tuple[str, RulerBar]]:
    """The bars that resolve next (several when simultaneous, OGRE-ACT-1), with their lane's name."""
    return [(lane.name, b) for lane in m.lanes for b in lane.bars if b.is_next]


def lane_detail(lane: RulerLane, now: int) -> str:
    """A lane's few words under its name: what it does next, and when."""
    if lane.is_down:
        return "✖ down"
    for b in lane.bars:
        if b.state != "pending":
            continue
        if b.kind == "stun":
            return f"✺ stunned to {b.end}"
        if b.kind == "delay":
            return "‖ delaying" + (f" to {b.end}" if b.end is not None else "")
        if b.kind == "ready":
            return "⚑ ready"
        return f"acts at {b.end}" + (" »" if b.fast else " «" if b.slow else "")
    if lane.due is not None:
        return "◆ declares now" if lane.due <= now else f"declares at {lane.due}"
    return lane.summary


def pct(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".") + "%"


class RulerView(FieldView):
    name = "ruler"
    slot = "ruler-slot"

    @property
    def after_write(self) -> str:
        """After each drawing, scroll the ruler's box so the cursor shows (phones)."""
        return SCROLL_TO_NOW

    # --- drawing -------------------------------------------------------------------------
    def render(self, ctx: FieldContext) -> Markup:
        state = ctx.state
        if not isinstance(state.board, OgreState):  # no segment count to draw
            return Markup("")
        m = ruler(state, ctx.selected or "")
        g = Ruler(m)
        sides = {s.id: s for s in state.sides}
        setup = ctx.ruleset.phase(state) == "setup"
        rows = [self.kept(("axis", m.start, m.end, m.now, m.seconds, m.ticks), lambda: self.axis(m, g))]
        rows += [self.lane_cached(ctx, m, g, lane, sides.get(lane.side)) for lane in m.lanes]
        due = next_due(m)
        overlay = part("rl-over", self.kept(("overlay", m.start, m.end, m.now, m.ticks, due[0][1].end if due else None),
                                            lambda: self.overlay(m, g)))
        body = h("div", {"class_": "rl-scroll", "data-testid": "ruler-scroll"},
                 h("div", {"class_": "rl-grid", "style": f"--n:{g.n}"},
                   h("div", {"class_": "rl-lanes", "data-region": True}, region(rows), overlay)))
        return h("section", {"class_": "panel ruler-box" + (" setup" if setup else ""), "data-testid": "ruler",
                             "aria-label": "Segment ruler", "data-start": m.start, "data-end": m.end,
                             "data-now": m.now, "data-next": "" if m.next_segment is None else m.next_segment},
                 part("rl-head", self.header(ctx, m, setup)), body, self.kept(("legend",), self.legend))

    def header(self, ctx: FieldContext, m: RulerModel, setup: bool) -> Markup:
        """Now and next, in words: the one-glance answer to "who acts, and when"."""
        if setup:
            now = h("span", {"class_": "rl-now-txt", "data-testid": "ruler-now"},
                    "Before the fight: the count starts at segment 0 when initiative is rolled (OGRE-SEG-1)")
            return h("header", {"class_": "rl-head", "id": "rl-head"}, h("h2", None, "Segment ruler"), now)
        names = [l.name for l in m.lanes if l.is_current]
        phase = ctx.panel.phase
        if phase == "declare" and names:
            doing = f"{', '.join(names)} declare{'s' if len(names) == 1 else ''} now"
        elif phase == "prompt" and names:
            doing = f"{names[0]} must answer"
        elif phase == "over":
            doing = "the fight is over"
        elif m.next_segment is not None:
            doing = f"nothing to declare: Advance (N) goes to segment {m.next_segment}"
        else:
            doing = "nothing scheduled: Advance (N) counts one segment"
        now = h("span", {"class_": "rl-now-txt", "data-testid": "ruler-now"},
                h("strong", None, f"Segment {m.now}"), f" · {m.seconds} · {doing}")
        nxt = ""
        due = next_due(m)
        if due:
            seg = due[0][1].end
            what = "; ".join(f"{name}: {b.label}" for name, b in due)
            together = " (simultaneous)" if len(due) > 1 else ""
            nxt = h("span", {"class_": "rl-next-txt", "data-testid": "ruler-next"},
                    h("span", {"aria-hidden": "true"}, "▶ "), f"Next resolution at segment {seg} ",
                    h("span", {"class_": "rl-in"}, f"(in {seg - m.now}, {seconds(seg)})"), f": {what}{together}")
        elif m.next_segment is not None:
            nxt = h("span", {"class_": "rl-next-txt", "data-testid": "ruler-next"},
                    h("span", {"aria-hidden": "true"}, "▶ "), f"Next event at segment {m.next_segment}")
        return h("header", {"class_": "rl-head", "id": "rl-head"}, h("h2", None, "Segment ruler"), now, nxt)

    def axis(self, m: RulerModel, g: Ruler) -> Markup:
        ticks = []
        for t in m.ticks:
            near = abs(t.segment - m.now) < NOW_LABEL_SEGMENTS
            ticks.append(h("span", {"class_": "rl-tick" + (" major" if t.major else "") + (" near" if near else ""),
                                    "style": f"left:{pct(g.x(t.segment))}"},
                           h("b", None, t.label), h("small", None, t.seconds)))
        marks = [h("span", {"class_": "rl-now-tag", "style": f"left:{pct(g.x(m.now))}"},
                   h("b", None, f"now {m.now}"), h("small", None, m.seconds))]
        return h("div", {"class_": "rl-row rl-axis", "aria-hidden": "true"},
                 h("div", {"class_": "rl-name rl-corner"}, "segment", h("small", None, "seconds")),
                 h("div", {"class_": "rl-track"}, ticks, marks))

    def overlay(self, m: RulerModel, g: Ruler) -> Markup:
        """Grid lines every 5 segments, the next resolution and the cursor, across all lanes."""
        lines = [h("span", {"class_": "rl-line" + (" major" if t.major else ""),
                            "style": f"left:{pct(g.x(t.segment))}"}) for t in m.ticks]
        nxt = ""
        due = next_due(m)
        if due:
            seg = due[0][1].end
            if seg is not None and m.start <= seg <= m.end:
                nxt = h("span", {"class_": "rl-nextline", "style": f"left:{pct(g.x(seg))}",
                                 "data-testid": "ruler-nextline", "data-segment": seg})
        cursor = h("span", {"class_": "rl-cursor", "style": f"left:{pct(g.x(m.now))}", "data-testid": "ruler-cursor",
                            "data-segment": m.now})
        return h("div", {"class_": "rl-over", "id": "rl-over", "aria-hidden": "true"}, lines, nxt, cursor)

    _lanes: dict = {}
    _parts: dict = {}  # the axis, the overlay and the key by what they show: the same for every selection

    def kept(self, key: tuple, make) -> Markup:
        cache = RulerView._parts
        out = cache.get(key)
        if out is None:
            if len(cache) > 200:
                cache.clear()
            out = cache[key] = make()
        return out

    def lane_cached(self, ctx: FieldContext, m: RulerModel, g: Ruler, lane: RulerLane,
                    side: Side | None) -> Markup:
        """A lane's markup, kept while its model, the ruler's span and now stay the same: a selection
        rebuilds the two lanes whose selection changed, not forty."""
        key = (lane, m.start, m.end, m.now, g.n, side)
        cache = RulerView._lanes
        out = cache.get(key)
        if out is None:
            if len(cache) > 400:
                cache.clear()
            out = cache[key] = self.lane(ctx, m, g, lane, side)
        return out

    def lane(self, ctx: FieldContext, m: RulerModel, g: Ruler, lane: RulerLane, side: Side | None) -> Markup:
        cls = ["rl-row", "lane"]
        for flag, word in ((lane.is_current, "current"), (lane.is_selected, "selected"), (lane.is_down, "down")):
            if flag:
                cls.append(word)
        colour = side.colour if side else "#5d6670"
        glyph = SHAPE_GLYPH.get(side.shape, "●") if side else "●"
        label = f"{lane.name}, {side.name if side else lane.side}"
        if lane.initiative is not None:
            label += f", initiative {lane.initiative}"
        if lane.summary:
            label += f": {lane.summary}"
        if lane.is_current:
            label += ", acting now"
        detail = lane_detail(lane, m.now)
        name = h("button", {"type": "button", "class_": "rl-name", "data-action": f"lane:{lane.id}",
                            "data-testid": f"lane-btn-{lane.id}", "aria-pressed": "true" if lane.is_selected
                            else "false", "aria-label": label, "title": label},
                 h("span", {"class_": "rl-turn", "aria-hidden": "true"}, "▶" if lane.is_current else ""),
                 h("span", {"class_": "side-mark", "style": f"color:{colour}", "aria-hidden": "true"}, glyph),
                 h("span", {"class_": "rl-who"}, h("span", {"class_": "rl-nm"}, lane.name),
                   h("span", {"class_": "rl-sum"}, detail)))
        items = []
        if lane.flat_footed is not None:
            a, b = lane.flat_footed
            left, width = g.span(a, b)
            if width > 0:
                items.append(h("div", {"class_": "rl-ff" + (" past" if b <= m.now else ""), "style": f"left:{pct(left)};width:{pct(width)}",
                                       "data-start": a, "data-end": b, "data-testid": f"ff-{lane.id}",
                                       "title": f"{lane.name} is flat-footed until segment {b}: No Defense, "
                                                f"no attacks of opportunity (OGRE-FF-1)"},
                                   h("span", {"aria-hidden": "true"}, FF_ICON),
                                   h("span", {"class_": "rl-ff-txt"}, " flat-footed")))
        for i, bar in enumerate(lane.bars):
            items.append(self.bar(lane, bar, g, m.now, i))
        items += self.reactions(lane, g)
        if lane.due is not None and m.start <= lane.due <= m.end and not lane.is_down \
                and not any(b.kind == "delay" and b.state == "pending" for b in lane.bars):
            now = lane.due <= m.now
            items.append(h("span", {"class_": "rl-due" + (" now" if now else ""), "style": f"left:{pct(g.x(lane.due))}",
                                    "data-testid": f"due-{lane.id}", "data-segment": lane.due,
                                    "title": f"{lane.name} declares {'now' if now else 'at segment ' + str(lane.due)} "
                                             f"(OGRE-ACT-1)"},
                               h("span", {"aria-hidden": "true"}, "◆"),
                               h("span", {"class_": "rl-due-txt"}, " declares now") if now else ""))
        track = h("div", {"class_": "rl-track", "data-action": f"lane:{lane.id}"}, items)
        return h("div", {"class_": " ".join(cls), "data-testid": f"lane-{lane.id}", "data-lane": lane.id,
                         "style": f"--side:{colour}"}, name, track)

    def bar(self, lane: RulerLane, bar: RulerBar, g: Ruler, now: int, i: int) -> Markup:
        left, width = g.span(bar.start, bar.end)
        cls = ["rl-bar", f"k-{bar.kind}", f"s-{bar.state}"]
        if bar.end is None:
            cls.append("open")
        if bar.is_next:
            cls.append("next")
        if bar.fast:
            cls.append("fast")
        if bar.slow:
            cls.append("slow")
        if bar.clipped_left:
            cls.append("clip-l")
        if bar.clipped_right:
            cls.append("clip-r")
        tag = tempo_tag(bar)
        icon = KIND_ICON.get(bar.kind, "") or STATE_ICON.get(bar.state, "")
        if bar.is_next:
            icon = "▶"
        pen = f"↯{bar.penalty:+d}" if bar.penalty else ""
        full_parts = [bar.label]
        if bar.category and bar.kind != "delay":
            full_parts.append(bar.category)
        if tag:
            full_parts.append(tag)
        if pen:
            full_parts.append(pen)
        if bar.state not in ("pending", "resolved"):
            full_parts.append(STATE_WORD.get(bar.state, bar.state))
        full = " · ".join(full_parts)
        # Narrower: the action alone (its target matters more than its category), then the compact label.
        mid = " ".join(x for x in ("»" if bar.fast else "«" if bar.slow else "", bar.label, pen) if x)
        short = bar.short + (" »" if bar.fast else " «" if bar.slow else "")
        cls.append(f"fit-{fit_bucket((icon + ' ' if icon else '') + full)}")
        style = f"left:{pct(left)};width:{pct(width)}"
        if bar.state == "pending" and bar.start < now:
            stop = bar.end if bar.end is not None else max(now, g.m.end)
            done = (min(now, stop) - bar.start) * 100.0 / max(1, stop - bar.start)
            style += f";--done:{pct(done)}"
        when = "until its trigger" if bar.end is None else f"to {bar.end}"
        title = bar.title or f"{bar.label}: {bar.start} {when}"
        if tag and tag not in title:
            title += f" ({tag})"
        if bar.state not in ("pending",):
            title += f" [{STATE_WORD.get(bar.state, bar.state)}]"
        if bar.is_next:
            title += " - the next resolution"
        return h("div", {"class_": " ".join(cls), "style": style, "data-action": f"lane:{lane.id}",
                         "data-testid": f"bar-{lane.id}-{i}", "data-start": bar.start,
                         "data-end": "" if bar.end is None else bar.end, "data-kind": bar.kind,
                         "data-state": bar.state, "title": title},
                 h("span", {"class_": "rl-ico", "aria-hidden": "true"}, icon) if icon else "",
                 h("span", {"class_": "lbl-full"}, full),
                 h("span", {"class_": "lbl-mid", "aria-hidden": "true"}, mid),
                 h("span", {"class_": "lbl-short", "aria-hidden": "true"}, short + (f" {pen}" if pen else "")))

    def reactions(self, lane: RulerLane, g: Ruler) -> list[Markup]:
        """OGRE-REACT-1: one tick per segment with reactions, their penalties stacked in the label."""
        by_seg: dict[int, list[RulerMark]] = {}
        for r in lane.reactions:
            by_seg.setdefault(r.segment, []).append(r)
        out = []
        for seg, marks in sorted(by_seg.items()):
            text = " ".join(f"{r.penalty:+d}" if r.penalty else "±0" for r in marks)
            title = "; ".join(f"{r.label} ({r.category} reaction, {r.penalty:+d} to the current action)"
                              for r in marks) + f" at segment {seg} (OGRE-REACT-1)"
            # Past the middle its label reads leftwards from the tick, so it stays inside its lane (issue 53).
            flip = " flip" if g.x(seg) > 50 else ""
            out.append(h("span", {"class_": "rl-react" + flip, "style": f"left:{pct(g.x(seg))}",
                                  "data-testid": f"react-{lane.id}-{seg}", "data-segment": seg, "title": title},
                         h("span", {"class_": "rl-react-txt"}, h("span", {"aria-hidden": "true"}, "↯"), text)))
        return out

    def legend(self) -> Markup:
        items = (("rl-k-ff", "flat-footed"), ("rl-k-bar", "action: declared → resolves"),
                 ("rl-k-next", "▶ next to resolve"), ("rl-k-fast", "» fast / « slow"),
                 ("rl-k-react", f"↯ reaction (penalty {REACTION_PENALTY['Quick']:+d}…)"),
                 ("rl-k-due", "◆ declares"), ("rl-k-delay", "‖ delay"), ("rl-k-ready", "⚑ ready (until its trigger)"),
                 ("rl-k-now", "now"))
        return h("ul", {"class_": "rl-legend", "aria-label": "Key"},
                 [h("li", None, h("span", {"class_": f"rl-sw {k}", "aria-hidden": "true"}), " ", t)
                  for k, t in items])

    # --- interaction ---------------------------------------------------------------------------
    def act(self, ctx: FieldContext, action: str, arg: str) -> FieldAction | None:
        if action == "lane" and ctx.state.has(arg):
            return FieldAction(select=arg)
        return None


# Bring the cursor into the visible part of the ruler once each time it stands at a new segment (a step is
# patched into the ruler, not drawn afresh: the box notes the segment it last scrolled to, so a selection
# leaves the referee's own scrolling alone). Gone, or hidden on a phone's other tab: the next drawing tries.
SCROLL_TO_NOW = r"""
return () => {
  const box = document.querySelector("#ruler-slot .rl-scroll");
  if (!box || box.clientWidth === 0) return;
  const cursor = box.querySelector(".rl-cursor"), name = box.querySelector(".rl-name");
  if (!cursor || !name) return;
  const segment = cursor.getAttribute("data-segment");
  if (box.getAttribute("data-scrolled") === segment) return;
  box.setAttribute("data-scrolled", segment);
  const names = name.offsetWidth;
  const x = cursor.getBoundingClientRect().left - box.getBoundingClientRect().left + box.scrollLeft;
  if (x < box.scrollLeft + names + 24 || x > box.scrollLeft + box.clientWidth - 24) {
    box.scrollLeft = Math.max(0, x - names - 48);
  }
};
"""

VIEW_FACTORY = RulerView
