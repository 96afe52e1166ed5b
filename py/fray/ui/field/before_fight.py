"""Ogre's "before the fight" dialog (OGRE-SUR-1), shown above the field until the count starts.

The referee types each group's best Spot (and Stalk) result, picks the
terrain and says who has ranged attacks; the engine suggests the starting
distance and who is surprised (+ reaction time), and the referee confirms or
overrides it (REF) with the ruleset's `BeforeTheFight` command, which logs
both the suggestion and any override. The numbers typed so far live in the
view's transient state (`FieldContext.ui`), never in the encounter.
"""
from __future__ import annotations

from typing import Any

from ...engine.model import Side
from ...engine.state import State
from ...rules.ogre import BeforeTheFight, OgreState, RollInitiative, has_ranged
from ...views.ogre import surprise_dialog
from .field_views import FieldAction, FieldContext, FieldView
from ..markup.html import Markup, h, with_rules
from ..markup.panels import side_mark

FORM = "before"


def groups(state: State) -> tuple[Side, ...]:
    """The groups that can take part: every side with someone standing."""
    return tuple(s for s in state.sides if any(not c.is_down for c in state.on_side(s.id)))


def parse_whole(raw: str) -> int | None:
    try:
        return int(raw.strip())
    except (ValueError, AttributeError):
        return None


class BeforeView(FieldView):
    name = "before"
    slot = "phase-slot"

    # --- drawing -------------------------------------------------------------------------
    def render(self, ctx: FieldContext) -> Markup:
        state = ctx.state
        if ctx.ruleset.phase(state) != "setup":  # the ruleset's phase hook (OGRE-SUR-1: before the count)
            ctx.ui.ogre_before = None  # the count has started: the numbers typed are spent
            return Markup("")
        sides = groups(state)
        if len(sides) < 2:
            return Markup("")
        typed: dict[str, Any] = ctx.ui.ogre_before or {}
        board: OgreState = state.board
        confirmed = board.surprise
        parts = [h("h2", None, "Before the fight",
                   h("span", {"class_": "muted small-txt"}, " distance and surprise "), with_rules("OGRE-SUR-1"))]
        if confirmed is not None:
            parts.append(self.confirmed(state, confirmed))
        form = self.form_html(ctx, sides, typed)
        if confirmed is not None:
            form = h("details", {"class_": "bf-change"},
                     h("summary", {"data-testid": "before-change"}, "Change the Spot results or the decision"), form)
        parts.append(form)
        roll = next((i for i, o in enumerate(ctx.options) if isinstance(o.command, RollInitiative) and o.allowed),
                    None)
        if roll is not None:
            parts.append(h("p", {"class_": "bf-go"},
                           h("button", {"type": "button", "data-action": f"before-roll:{roll}",
                                        "data-testid": "before-roll"}, "Roll initiative: start the count"),
                           h("span", {"class_": "muted"}, " or skip this if both groups are already aware")
                           if confirmed is None else ""))
        return h("section", {"class_": "panel before", "data-testid": "before", "aria-label": "Before the fight"},
                 parts)

    def confirmed(self, state: State, s) -> Markup:
        names = ", ".join(self.side_name(state, x) for x in s.surprised) or "nobody"
        squares = s.distance_ft // 5
        overridden = s.distance_ft != s.suggested_distance_ft or tuple(s.surprised) != tuple(s.suggested_surprised)
        pen = state.setting("surprise_penalty", 10)
        return h("div", {"class_": "bf-done", "data-testid": "before-confirmed"},
                 h("p", None, h("strong", None, "Decided: "),
                   f"start {s.distance_ft} ft apart ({squares} squares); surprised: {names}",
                   f" (+{pen} reaction time)" if s.surprised else "",
                   h("span", {"class_": "muted"}, " · referee's override") if overridden else ""),
                 h("p", {"class_": "muted"}, with_rules(s.reason)) if s.reason else "",
                 h("p", {"class_": "muted"}, "Place the groups on the map at that distance, then roll initiative."))

    def form_html(self, ctx: FieldContext, sides: tuple[Side, ...], typed: dict[str, Any]) -> Markup:
        state = ctx.state
        rows = []
        for i, side in enumerate(sides):
            ranged = typed.get("ranged", {}).get(side.id, has_ranged(state, side.id))
            rows.append(h("tr", {"data-testid": f"before-{side.id}"},
                          h("th", {"scope": "row"}, side_mark(side), " ", side.name),
                          h("td", None, h("input", {"type": "number", "name": f"spot-{i}", "inputmode": "numeric",
                                                    "value": typed.get("spot", {}).get(side.id, ""),
                                                    "aria-label": f"{side.name}: best Spot result",
                                                    "data-testid": f"spot-{side.id}", "required": True})),
                          h("td", None, h("input", {"type": "number", "name": f"stalk-{i}", "inputmode": "numeric",
                                                    "value": typed.get("stalk", {}).get(side.id, ""),
                                                    "aria-label": f"{side.name}: best Stalk result (optional)",
                                                    "data-testid": f"stalk-{side.id}", "placeholder": "-"})),
                          h("td", None, h("select", {"name": f"ranged-{i}", "data-testid": f"ranged-{side.id}",
                                                     "aria-label": f"{side.name}: has ranged attacks"},
                                          h("option", {"value": "yes", "selected": bool(ranged)}, "yes"),
                                          h("option", {"value": "no", "selected": not ranged}, "no")))))
        terrain = typed.get("terrain", "gentle hills")
        table = surprise_dialog(state, tuple(s.id for s in sides), (0,) * len(sides), terrain=terrain).terrains
        terrain_sel = h("label", {"class_": "bf-terrain"}, "Terrain ",
                        h("select", {"name": "terrain", "data-testid": "terrain"},
                          [h("option", {"value": name, "selected": name == terrain},
                             f"{name} ({ft} ft per 3 points)") for name, ft in table]))
        inputs = h("table", {"class_": "bf-table"},
                   h("thead", None, h("tr", None, h("th", None, "Group"), h("th", None, "Spot"),
                                      h("th", None, "Stalk"), h("th", None, "Ranged"))),
                   h("tbody", None, rows))
        suggestion = self.suggestion(ctx, sides, typed)
        return h("form", {"class_": "bf-form", "data-action": FORM, "data-testid": "before-form",
                          "novalidate": True},
                 inputs, terrain_sel,
                 h("p", {"class_": "bf-buttons"},
                   h("button", {"type": "submit", "value": "suggest", "data-testid": "before-suggest"},
                     "Suggest"),
                   h("span", {"class_": "muted"}, " the engine's reading of these numbers")),
                 suggestion)

    def suggestion(self, ctx: FieldContext, sides: tuple[Side, ...], typed: dict[str, Any]) -> Markup:
        """The engine's suggestion for the numbers typed, with the override fields pre-filled."""
        if not typed.get("ok"):
            return h("p", {"class_": "muted bf-wait"}, "Type each group's best Spot result, then Suggest.")
        state = ctx.state
        ids = tuple(s.id for s in sides)
        d = surprise_dialog(state, ids, tuple(typed["spot"][x] for x in ids),
                            tuple(typed["stalk"].get(x, 0) for x in ids) if typed.get("stalk") else (),
                            typed.get("terrain", "gentle hills"), tuple(typed["ranged"][x] for x in ids))
        sug = d.suggestion
        names = ", ".join(self.side_name(state, x) for x in sug.surprised) or "nobody"
        sights = [h("li", None, f"{g.name}: Spot {g.spot} sees {g.sees_ft} ft"
                    + (f", Stalk {g.stalk}" if g.stalk else "") + (", ranged" if g.ranged else ", melee only"))
                  for g in sug.groups]
        override = []
        for i, side in enumerate(sides):
            on = side.id in sug.surprised
            override.append(h("label", {"class_": "bf-sur"}, side_mark(side), f" {side.name} surprised ",
                              h("select", {"name": f"surprised-{i}", "data-testid": f"surprised-{side.id}"},
                                h("option", {"value": "yes", "selected": on}, "yes"),
                                h("option", {"value": "no", "selected": not on}, "no")),
                              h("input", {"type": "hidden", "name": f"sug-surprised-{i}",
                                          "value": "yes" if on else "no"})))
        pen = state.setting("surprise_penalty", 10)
        return h("div", {"class_": "bf-suggest", "data-testid": "before-suggestion"},
                 h("p", None, h("strong", None, "Engine suggests: "),
                   h("span", {"data-testid": "suggested"},
                     f"start at {sug.distance_ft} ft; surprised: {names}"
                     + (f" (+{pen} reaction time)" if sug.surprised else "")), "."),
                 h("ul", {"class_": "bf-sights"}, sights),
                 h("p", {"class_": "muted"}, with_rules(sug.reason)),
                 h("fieldset", {"class_": "bf-override"},
                   h("legend", None, "The referee decides (change to override; the log records it)"),
                   h("label", {"class_": "bf-dist"}, "Starting distance ",
                     h("input", {"type": "number", "name": "distance", "value": sug.distance_ft, "min": 0,
                                 "inputmode": "numeric", "data-testid": "before-distance"}), " ft"),
                   h("input", {"type": "hidden", "name": "sug-distance", "value": sug.distance_ft}),
                   override),
                 h("p", {"class_": "bf-buttons"},
                   h("button", {"type": "submit", "value": "confirm", "class_": "primary",
                                "data-testid": "before-confirm"}, "Confirm")))

    @staticmethod
    def side_name(state: State, sid: str) -> str:
        side = state.encounter.side(sid)
        return side.name if side else sid

    # --- interaction ---------------------------------------------------------------------------
    def act(self, ctx: FieldContext, action: str, arg: str) -> FieldAction | None:
        if action == "before-roll":
            return FieldAction(choose=int(arg))
        return None

    def form(self, ctx: FieldContext, name: str, arg: str, values: dict[str, str], op: str) -> FieldAction | None:
        """Suggest (keep the numbers, show the engine's reading) or Confirm (act)."""
        if name != FORM or ctx.ruleset.phase(ctx.state) != "setup":
            return None
        sides = groups(ctx.state)
        typed: dict[str, Any] = {"spot": {}, "stalk": {}, "ranged": {}}
        problems = []
        for i, side in enumerate(sides):
            spot = parse_whole(values.get(f"spot-{i}", ""))
            if spot is None:
                problems.append(f"{side.name}'s best Spot result must be a whole number")
            else:
                typed["spot"][side.id] = spot
            raw = values.get(f"stalk-{i}", "").strip()
            if raw:
                stalk = parse_whole(raw)
                if stalk is None:
                    problems.append(f"{side.name}'s Stalk result must be a whole number (or empty)")
                else:
                    typed["stalk"][side.id] = stalk
            typed["ranged"][side.id] = values.get(f"ranged-{i}", "no") == "yes"
        terrain = values.get("terrain", "gentle hills")
        typed["terrain"] = terrain
        typed["ok"] = not problems
        ctx.ui.ogre_before = typed  # the form keeps what was typed, even when it is not complete
        if problems:
            return FieldAction(message="; ".join(problems) + " (OGRE-SUR-1).")
        if op != "confirm" or "sug-distance" not in values:
            return FieldAction(redraw=True)
        ids = tuple(s.id for s in sides)
        distance = parse_whole(values.get("distance", ""))
        if distance is None or distance < 0:
            return FieldAction(message="The starting distance must be a whole number of feet, 0 or more (OGRE-SUR-1).")
        suggested_distance = parse_whole(values.get("sug-distance", ""))
        chosen = tuple(x for i, x in enumerate(ids) if values.get(f"surprised-{i}") == "yes")
        suggested = tuple(x for i, x in enumerate(ids) if values.get(f"sug-surprised-{i}") == "yes")
        stalk = tuple(typed["stalk"].get(x, 0) for x in ids) if typed["stalk"] else ()
        cmd = BeforeTheFight(ids, tuple(typed["spot"][x] for x in ids), stalk,
                             tuple(typed["ranged"][x] for x in ids), terrain,
                             surprised=None if set(chosen) == set(suggested) else chosen,
                             distance_ft=None if distance == suggested_distance else distance)
        return FieldAction(command=cmd)


VIEW_FACTORY = BeforeView
