"""The tactical grid: its view model and its SVG, and the taps, drags, keys and strokes that drive it.

Everything here runs in CPython: the pointer handler is driven with small fake
DOM objects (an SVG whose screen matrix is 4 px per unit, so a square is 40 px).
"""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

from fray.engine import geometry as geo
from fray.engine import paths
from fray.engine.commands import Choice, Option
from fray.engine.dice import ScriptedDice
from fray.engine.referee import Allow, Place, SetHp, SetWalls
from fray.engine.session import Session
from fray.rules import get
from fray.rules.ogre.examples import orc_and_pc
from fray.rules.ose import Withdraw
from fray.rules.ose.examples import detailed, large
from fray.ui.field.field_ui import FieldUi
from fray.ui.field.field_views import FieldContext, field_view
from fray.ui.field.grid import GridView, base_layer
from fray.views.panels import system_view
from fray.views.grid import grid_model, token_at
from fray.views.grid_path import PreviewRequest, plan_path
from fray.views.models import initials

OSE = get("ose")
OGRE = get("ogre")


# --- helpers ---------------------------------------------------------------------------------

def ose_started(enc=None) -> Session:
    """The OSE detailed example after initiative: the Party acts, MOVE step; Brak at (4, 5)."""
    s = Session(enc or detailed(), OSE)
    nxt = next(o for o in OSE.options(s.state, "brak") if o.key == "next")
    s.act(nxt.command)
    assert s.current() == ("brak", "mira", "hal")
    return s


def ctx_for(s: Session, selected: str | None, ui: FieldUi | None = None, pending=None) -> FieldContext:
    state = s.state
    return FieldContext(state, s.ruleset, system_view(state.encounter.system).panel(state), selected,
                        s.current(), pending=pending,
                        options=s.ruleset.options(state, selected) if selected else [],
                        ui=ui if ui is not None else FieldUi())


def apply(s: Session, action) -> None:
    assert action is not None and action.command is not None, action
    s.act(action.command)


def bodies_of(s: Session):
    return s.ruleset.grid.bodies(s.state)


def hostile(s: Session):
    return lambda a, b: s.state.hostile(a, b)


def grid_of(s: Session, diagonal: str = "5") -> geo.Grid:
    return geo.Grid.from_map(s.state.encounter.map, diagonal)


class Classes:
    def __init__(self):
        self.names = set()

    def add(self, n):
        self.names.add(n)

    def remove(self, n):
        self.names.discard(n)


class El:
    def __init__(self, attrs=None, parent=None, svg=None):
        self.attrs = dict(attrs or {})
        self.innerHTML = ""
        self.outerHTML = ""
        self.classList = Classes()
        self.svg = svg

    def getAttribute(self, k):
        return self.attrs.get(k)

    def setAttribute(self, k, v):
        self.attrs[k] = v

    def closest(self, sel):
        if sel == "#grid-svg":
            return self.svg
        if sel == "[data-token]":
            return self if "data-token" in self.attrs else None
        return None


class Matrix:
    a = d = 4.0
    e = f = 0.0


class Svg(El):
    def getScreenCTM(self):
        return Matrix()


class Root:
    """The field slot: finds the SVG, the overlay groups, the notes and tokens."""

    def __init__(self):
        self.svg = Svg()
        self.svg.svg = self.svg
        self.parts = {"#grid-svg": self.svg, "#grid-under": El(), "#grid-over": El(), "#grid-notes": El(),
                      '[data-testid="grid-zoom"]': El(), '[data-testid="grid-zoom-out"]': El(),
                      '[data-testid="grid-zoom-fit"]': El(), '[data-testid="grid-zoom-in"]': El()}
        self.tokens = {}
        self.captured = set()

    def querySelector(self, sel):
        if sel in self.parts:
            return self.parts[sel]
        m = re.fullmatch(r'\[data-token="(.+)"\]', sel)
        if m:
            return self.tokens.setdefault(m.group(1), El({"data-token": m.group(1)}, svg=self.svg))
        return None

    def setPointerCapture(self, pid):
        self.captured.add(pid)

    def releasePointerCapture(self, pid):
        self.captured.discard(pid)


class Ev:
    def __init__(self, kind, root, sq=None, *, tok=None, pid=1, t=0.0, shift=False, ptype="mouse", xy=None,
                 delta=0.0):
        self.type = kind
        self.currentTarget = root
        x, y = xy if xy is not None else ((sq[0] * 10 + 5) * 4, (sq[1] * 10 + 5) * 4)
        self.clientX, self.clientY = x, y
        self.pointerId = pid
        self.button = 0
        self.shiftKey = shift
        self.pointerType = ptype
        self.timeStamp = t
        self.deltaY = delta
        self.target = El({"data-token": tok}, svg=root.svg) if tok else El(svg=root.svg)
        self.prevented = False

    def preventDefault(self):
        self.prevented = True


def drag(view, ctx, root, tok, frm, to, shift=False):
    """Press on `frm` (on token `tok` if given), move through to `to`, release: the view's last answer."""
    view.pointer(ctx, Ev("pointerdown", root, frm, tok=tok, t=0))
    xs = geo.line(frm, to)
    for sq in xs[1:]:
        view.pointer(ctx, Ev("pointermove", root, sq, tok=tok, t=50))
    return view.pointer(ctx, Ev("pointerup", root, to, tok=tok, t=100, shift=shift))


def rects(svg: str, cls: str) -> int:
    return len(re.findall(rf'<rect class="{cls}"', svg))


# --- the model: tokens ---------------------------------------------------------------------

def test_grid_is_the_field_view_of_ose_detailed_and_ogre():
    assert OSE.info.field_view("detailed") == "grid" and OGRE.info.field_view("") == "grid"
    assert isinstance(field_view("grid"), GridView)


def test_tokens_carry_initials_side_colour_and_shape_hp_current_and_selected():
    s = ose_started()
    m = grid_model(s.state, OSE, selected="brak", current=s.current())
    by_id = {t.id: t for t in m.tokens}
    brak, o1 = by_id["brak"], by_id["o1"]
    assert (brak.initials, brak.colour, brak.shape, brak.square) == ("Br", "#3b6ea8", "circle", (4, 5))
    assert (o1.initials, o1.shape, o1.side_name) == ("OS", "diamond", "Orcs")
    assert brak.is_current and brak.is_selected and not o1.is_current and not o1.is_selected
    assert (brak.hp, brak.max_hp) == (10, 10)
    assert "acting now" in brak.label and "selected" in brak.label
    assert [initials(n) for n in ("Goblin 1", "Orc spearman", "Brak", "  ")] == ["G1", "OS", "Br", "?"]


def test_down_token_is_drawn_under_a_standing_one_and_marked():
    s = ose_started()
    s.act(Place("mira", square=(6, 6)))
    from fray.engine.referee import SetHp
    s.act(SetHp("mira", 0))
    m = grid_model(s.state, OSE, selected="brak", current=s.current())
    mira = next(t for t in m.tokens if t.id == "mira")
    assert mira.is_down and m.tokens[0].id == "mira"  # down ones first, drawn underneath
    svg = GridView().render(ctx_for(s, "brak"))
    assert 'class="tok down"' in svg and "down" in mira.label


def test_a_selection_keeps_every_token_in_its_drawing_order_but_lifts_it_over_its_own_square():
    """Selecting someone redraws their token and the last one's, not every token drawn after it; a selected
    creature sharing a square (a down one under a standing one) is drawn, and tapped, on top of it."""
    s = ose_started()
    order = [t.id for t in grid_model(s.state, OSE, current=s.current()).tokens]
    for cid in order:
        assert [t.id for t in grid_model(s.state, OSE, selected=cid, current=s.current()).tokens] == order
    from fray.engine.referee import SetHp
    s.act(SetHp("mira", 0))
    brak_sq = next(t.square for t in grid_model(s.state, OSE).tokens if t.id == "mira")
    s.act(Place("brak", square=brak_sq))  # standing over the fallen Mira
    plain = [t.id for t in grid_model(s.state, OSE).tokens]
    assert plain.index("mira") < plain.index("brak")  # the down one underneath
    lifted = grid_model(s.state, OSE, selected="mira").tokens
    ids = [t.id for t in lifted]
    assert ids.index("mira") == ids.index("brak") + 1
    assert [i for i in ids if i != "mira"] == [i for i in plain if i != "mira"]
    assert token_at(grid_model(s.state, OSE, selected="mira"), brak_sq).id == "mira"
    assert token_at(grid_model(s.state, OSE), brak_sq).id == "brak"


def test_badges_are_small_icons_with_their_words_and_rules_as_titles():
    s = ose_started()
    ctx = ctx_for(s, "brak")
    badges = ctx.panel.badges.get("brak", ())
    svg = GridView().render(ctx)
    for b in badges[:3]:
        assert f"<title>{b.word}" in svg


# --- threat and reach ----------------------------------------------------------------------------

def test_selected_creature_threat_shading_equals_the_engine__OSE_AOO_3():
    s = ose_started()
    for cid in ("brak", "o1", "o2"):
        body = next(b for b in bodies_of(s) if b.id == cid)
        expected = geo.threatened_squares(body, grid_of(s))
        m = grid_model(s.state, OSE, selected=cid)
        assert m.threatened == expected
        svg = GridView().render(ctx_for(s, cid))
        assert rects(svg, "thr") == len(expected) and f'data-count="{len(expected)}"' in svg
        for x, y in expected:
            assert f'<rect class="thr" x="{x * 10}" y="{y * 10}"' in svg


def test_reach_weapon_shades_the_second_ring__OSE_STANCE_3():
    s = ose_started()
    m = grid_model(s.state, OSE, selected="o2")  # the halberdier at (12, 6)
    assert m.reach_ft == 10 and (10, 4) in m.threatened and (14, 8) in m.threatened
    assert len(m.threatened) == 24
    assert "reach 10 ft" in m.threat_note and "OSE-STANCE-3" in m.threat_note


def test_walls_stop_the_threat__OSE_AOO_3():
    s = ose_started()
    s.act(Place("brak", square=(6, 1)))  # beside the wall at x = 7, y 0..3
    m = grid_model(s.state, OSE, selected="brak")
    assert not any(sq[0] == 7 for sq in m.threatened)
    body = next(b for b in bodies_of(s) if b.id == "brak")
    assert m.threatened == geo.threatened_squares(body, grid_of(s))
    assert len(m.threatened) == 5  # 8 around, minus the 3 wall squares


def test_a_creature_without_a_melee_weapon_in_hand_threatens_nothing__OSE_AOO_1():
    s = ose_started()
    m = grid_model(s.state, OSE, selected="hal")  # a shortbow in hand
    assert m.threatened == frozenset()
    assert "threatens no square" in m.threat_note and "OSE-AOO-1" in m.threat_note
    assert rects(GridView().render(ctx_for(s, "hal")), "thr") == 0


def test_ranged_attacks_noted_as_blocked_with_an_enemy_within_5_ft__OSE_RANGED_1():
    s = ose_started()
    assert grid_model(s.state, OSE, selected="hal").ranged_note == ""
    s.act(Place("o1", square=(3, 4)))  # next to Hal at (2, 4)
    m = grid_model(s.state, OSE, selected="hal")
    hal = next(b for b in bodies_of(s) if b.id == "hal")
    assert geo.adjacent_enemies(hal, bodies_of(s), hostile(s)) == ("o1",)
    assert m.ranged_blocked == ("Orc spearman",)
    assert m.ranged_note == "No ranged attack for Hal: Orc spearman is within 5 ft (OSE-RANGED-1)"
    assert 'data-testid="ranged-note"' in GridView().render(ctx_for(s, "hal"))
    # Brak has no ranged attack: no note even with an enemy beside him.
    s.act(Place("o1", square=(5, 5)))
    assert grid_model(s.state, OSE, selected="brak").ranged_note == ""


# --- distances ----------------------------------------------------------------------------------

def test_hover_distance_in_feet_follows_the_diagonal_setting():
    s = ose_started()
    m = grid_model(s.state, OSE, selected="brak", hover=(6, 7))  # two diagonal steps from (4, 5)
    assert (m.hover_ft, m.hover_note) == (10, "(6, 7): 10 ft from Brak")
    enc = detailed()
    enc = replace(enc, settings={**enc.settings, "diagonal": "5-10-5"})
    s2 = ose_started(enc)
    assert grid_model(s2.state, OSE, selected="brak", hover=(6, 7)).hover_ft == 15
    assert grid_model(s2.state, OSE, selected="brak", hover=(99, 7)).hover is None


# --- the SVG ----------------------------------------------------------------------------------

def test_no_node_per_empty_square_on_a_40_by_40_map():
    enc = replace(large(), map=replace(large().map, width=40, height=40))
    s = Session(enc, OSE)
    svg = GridView().render(ctx_for(s, "p1"))
    assert svg.count('fill="url(#grid-sq)"') == 1  # the squares are one pattern
    body = next(b for b in bodies_of(s) if b.id == "p1")
    special = len(geo.threatened_squares(body, grid_of(s)))
    assert svg.count("<rect") <= 4 + special + 2 * len(enc.combatants)
    assert svg.count("<rect") < 200 and svg.count("<") < 40 * 40  # far fewer nodes than cells


def test_walls_are_drawn_as_merged_runs():
    s = ose_started()
    m = grid_model(s.state, OSE)
    layer = base_layer(m)
    # (7, 0..3) and (8, 8..11): 8 wall squares, 8 one-square rows, no row longer than 1 square here
    assert 'data-count="8"' in layer and layer.count('height="10"/>') == 8
    enc = replace(detailed(), map=replace(detailed().map, walls=frozenset({(x, 2) for x in range(3, 9)})))
    m2 = grid_model(Session(enc, OSE).state, OSE)
    assert base_layer(m2).count('<rect x="30" y="20" width="60" height="10"/>') == 1


def test_names_are_escaped_in_the_svg_and_the_notes():
    enc = detailed()
    evil = '<img src=x onerror="alert(1)">&'
    cs = tuple(replace(c, name=evil) if c.id == "o1" else c for c in enc.combatants)
    s = ose_started(replace(enc, combatants=cs))
    ui = FieldUi()
    view = GridView()
    ctx = ctx_for(s, "brak", ui)
    view.tap(ctx, (12, 4), None)
    out = view.render(ctx_for(s, "brak", ui))
    assert evil not in out and "<img" not in out
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;" in out
    assert "provokes &lt;img" in out


# --- path preview -------------------------------------------------------------------------------

def test_path_preview_marks_every_provoking_square_and_names_the_attackers__OSE_AOO_1():
    s = ose_started()
    req = PreviewRequest("brak", ((12, 4),))
    p = plan_path(s.state, OSE, req, options=OSE.options(s.state, "brak"))
    me = next(b for b in bodies_of(s) if b.id == "brak")
    path = paths.path_through(grid_of(s), [(4, 5), (12, 4)], me, bodies_of(s), hostile(s))
    assert list(p.squares) == path
    expected = paths.provocations(path, me, bodies_of(s), hostile(s), grid=grid_of(s))
    assert [(pr.square, pr.attackers) for pr in p.provocations] == [(e.square, e.attackers) for e in expected]
    assert expected  # the route passes the orcs' reach
    x0, y0 = expected[0].square
    assert p.provocations[0].text == f"Leaving ({x0}, {y0}) provokes Orc spearman, Orc halberdier (OSE-AOO-1)"
    assert (p.cost_ft, p.allowance_ft, p.problem) == (40, 80, "")
    ui = FieldUi(path={"mover": "brak", "points": [(12, 4)]})
    svg = GridView().render(ctx_for(s, "brak", ui))
    for e in expected:
        x, y = e.square
        marker = re.search(rf'<g class="aoo" data-testid="aoo-{x}-{y}" data-attackers="([^"]*)"[^>]*>'
                           rf'<title>([^<]*)</title>', svg)
        assert marker, (x, y)
        assert marker.group(1) == " ".join(e.attackers)
        assert marker.group(2) == f"Leaving ({x}, {y}) provokes Orc spearman, Orc halberdier (OSE-AOO-1)"
    assert svg.count('<g class="aoo"') == len(expected)
    assert 'data-testid="aoo-list"' in svg and "40/80 ft" in svg
    assert len(grid_model(s.state, OSE, selected="brak", preview=req).enemy_threat) > 0


def test_entering_a_threatened_square_does_not_provoke__OSE_AOO_1():
    s = ose_started()
    p = plan_path(s.state, OSE, PreviewRequest("brak", ((10, 5),)))  # ends beside the spearman
    assert p.squares[-1] == (10, 5) and p.provocations == ()
    svg = GridView().render(ctx_for(s, "brak", FieldUi(path={"mover": "brak", "points": [(10, 5)]})))
    assert 'data-testid="aoo-none"' in svg and 'class="aoo"' not in svg


def test_withdraw_leaves_its_first_square_safely__OSE_WD_1():
    s = ose_started()
    s.act(Place("brak", square=(10, 5)))  # beside the spearman
    wd = next(o for o in OSE.options(s.state, "brak") if isinstance(o.command, Withdraw))
    p = plan_path(s.state, OSE, PreviewRequest("brak", ((5, 5),)), pending=wd)
    assert p.kind == "withdraw" and p.via_pending and p.squares[0] == (10, 5)
    assert all(pr.index > 0 for pr in p.provocations)  # (10, 5) itself is free to leave
    plain = plan_path(s.state, OSE, PreviewRequest("brak", ((5, 5),)))
    assert plain.kind == "move" and plain.provocations[0].square == (10, 5)


def test_a_path_is_previewed_for_an_option_that_asks_a_question_and_kept_for_the_same_request__OSE_AOO_1():
    """An option with choices (a dict of values each) is no obstacle to the preview's memo: the same request
    in the same state gives the very same preview; another request a new one."""
    s = ose_started()
    move = next(o for o in OSE.options(s.state, "brak") if o.group == "Move" and "path" in o.needs)
    asking = replace(move, choices=(Choice("Carefully", {"path": ()}), Choice("At a run", {"path": ()})))
    req = PreviewRequest("brak", ((12, 4),))
    first = plan_path(s.state, OSE, req, pending=asking, options=[asking])
    assert first is not None and first.squares and first.provocations
    assert plan_path(s.state, OSE, req, pending=asking, options=[asking]) is first
    assert plan_path(s.state, OSE, PreviewRequest("brak", ((10, 5),)), pending=asking, options=[asking]) is not first


def test_waypoints_force_the_path_through_them_and_shift_tap_adds_them():
    s = ose_started()
    view, ui = GridView(), FieldUi()
    ctx = ctx_for(s, "brak", ui)
    view.render(ctx)
    view.tap(ctx, (4, 9), None)
    view.tap(ctx, (9, 9), None, shift=True)
    assert ui.path["points"] == [(4, 9), (9, 9)]
    p = view.preview(ctx_for(s, "brak", ui))
    assert (4, 9) in p.squares and p.squares[-1] == (9, 9) and p.waypoints == ((4, 9),)
    view.act(ctx, "grid-drop-point", "")
    assert ui.path["points"] == [(9, 9)]


def test_a_path_over_the_allowance_shows_the_engines_reason_and_allow_anyway():
    s = ose_started()
    ui = FieldUi(path={"mover": "brak", "points": [(15, 0), (15, 11)]})  # 26 squares: 130 ft
    s.act(Place("brak", square=(0, 0)))
    ctx = ctx_for(s, "brak", ui)
    p = GridView().preview(ctx)
    assert p.cost_ft > 80 and p.is_over and "(OSE-MOVE-1)" in p.problem
    out = GridView().render(ctx)
    assert 'data-testid="path-problem"' in out and 'data-testid="grid-allow"' in out
    action = GridView().act(ctx, "grid-allow", "")
    assert isinstance(action.command, Allow)


def test_no_way_through_is_said_plainly():
    s = ose_started()
    p = plan_path(s.state, OSE, PreviewRequest("brak", ((7, 1),)))  # a wall square
    assert p.squares == () and p.problem.startswith("No way for Brak to (7, 1)")


# --- committing: tap twice, drag, pending -------------------------------------------------------

def test_tap_previews_and_a_second_tap_on_the_same_square_commits_the_move__OSE_AOO_1():
    s = ose_started()
    view, ui = GridView(), FieldUi()
    ctx = ctx_for(s, "brak", ui)
    view.render(ctx)
    first = view.tap(ctx, (9, 7), None)
    assert first.redraw and first.command is None and ui.path["points"] == [(9, 7)]
    ctx = ctx_for(s, "brak", ui)
    second = view.tap(ctx, (9, 7), None)
    assert second.command is not None and second.command.path[0] == (4, 5) and second.command.path[-1] == (9, 7)
    s.act(second.command)
    assert s.state.get("brak").square == (9, 7)
    s.undo()
    assert s.state.get("brak").square == (4, 5)


def test_a_pending_move_option_is_filled_with_the_path():
    s = ose_started()
    move = next(o for o in OSE.options(s.state, "brak") if o.group == "Move" and "path" in o.needs)
    view, ui = GridView(), FieldUi()
    ctx = ctx_for(s, "brak", ui, pending=move)
    view.tap(ctx, (6, 8), None)
    action = view.tap(ctx_for(s, "brak", ui, pending=move), (6, 8), None)
    assert action.fill is not None and action.fill["path"][-1] == (6, 8) and action.command is None


def test_tapping_another_token_selects_it():
    s = ose_started()
    view, ui = GridView(), FieldUi(path={"mover": "brak", "points": [(8, 8)]})
    action = view.tap(ctx_for(s, "brak", ui), (11, 5), "o1")
    assert action.select == "o1" and ui.path is None


def test_tapping_a_fallen_creatures_square_previews_a_move_there_not_a_selection__OSE_MOVE_1():
    s = ose_started()
    s.act(Place("o1", square=(7, 5)))
    s.act(SetHp("o1", 0))
    view, ui = GridView(), FieldUi()
    action = view.tap(ctx_for(s, "brak", ui), (7, 5), "o1")
    assert action.select is None and ui.path == {"mover": "brak", "points": [(7, 5)]}
    p = view.preview(ctx_for(s, "brak", ui))
    assert p.problem.startswith("No way for Brak to (7, 5)")  # the body is stepped over, not stood on
    # As a waypoint it is a square like any other: the path goes over the body.
    view.tap(ctx_for(s, "brak", ui), (9, 5), None, shift=True)
    p = view.preview(ctx_for(s, "brak", ui))
    assert (7, 5) in p.squares and p.squares[-1] == (9, 5) and not p.problem
    # With nobody to move, the tap still selects the body (to look at it, or for the referee).
    assert GridView().tap(ctx_for(s, None, FieldUi()), (7, 5), "o1").select == "o1"


def test_dragging_the_actors_own_token_moves_it_by_the_rules():
    s = ose_started()
    view, ui, root = GridView(), FieldUi(), Root()
    ctx = ctx_for(s, "brak", ui)
    view.render(ctx)
    action = drag(view, ctx, root, "brak", (4, 5), (6, 3))
    assert action.command.__class__.__name__ == "Move" and action.command.path[-1] == (6, 3)
    assert root.tokens["brak"].attrs["transform"].startswith("translate(")  # it followed the pointer
    apply(s, action)
    assert s.state.get("brak").square == (6, 3)


def test_dragging_another_token_is_a_referee_placement__CORE_REF_1():
    s = ose_started()
    view, ui, root = GridView(), FieldUi(), Root()
    ctx = ctx_for(s, "brak", ui)
    view.render(ctx)
    view.pointer(ctx, Ev("pointerdown", root, (11, 5), tok="o1"))
    view.pointer(ctx, Ev("pointermove", root, (11, 7), tok="o1"))
    assert ui.path == {"mover": "o1", "points": [(11, 7)], "place": True, "drag": True}
    assert "Place Orc spearman at (11, 7)" in root.parts["#grid-notes"].outerHTML
    action = view.pointer(ctx, Ev("pointerup", root, (11, 7), tok="o1"))
    assert action.command == Place("o1", square=(11, 7))
    apply(s, action)
    assert s.state.get("o1").square == (11, 7)
    assert any("Referee places Orc spearman" in e.text and e.rule == "CORE-REF-1" for e in s.steps[-1].events)


def test_a_drop_on_its_own_square_does_nothing():
    s = ose_started()
    view, ui, root = GridView(), FieldUi(), Root()
    ctx = ctx_for(s, "brak", ui)
    view.pointer(ctx, Ev("pointerdown", root, (11, 5), tok="o1"))
    view.pointer(ctx, Ev("pointermove", root, (12, 5), tok="o1"))
    view.pointer(ctx, Ev("pointermove", root, (11, 5), tok="o1"))
    action = view.pointer(ctx, Ev("pointerup", root, (11, 5), tok="o1"))
    assert action.command is None and ui.path is None


def test_a_pointer_tap_on_an_empty_square_previews_and_a_long_press_shows_the_square():
    s = ose_started()
    view, ui, root = GridView(), FieldUi(), Root()
    ctx = ctx_for(s, "brak", ui)
    view.pointer(ctx, Ev("pointerdown", root, (9, 2), t=0))
    assert view.pointer(ctx, Ev("pointerup", root, (9, 2), t=80)).redraw
    assert ui.path["points"] == [(9, 2)]
    view.pointer(ctx, Ev("pointerdown", root, (10, 6), t=1000))
    view.pointer(ctx, Ev("pointerup", root, (10, 6), t=1700))  # held 700 ms
    m = view.model(ctx_for(s, "brak", ui))
    assert m.info.square == (10, 6)
    assert "Threatened, for Brak, by Orc spearman, Orc halberdier (OSE-AOO-3)" in m.info.lines
    assert "30 ft from Brak" in m.info.lines and m.info.can_place == "brak"


def test_contextmenu_shows_the_square_and_is_not_a_tap():
    s = ose_started()
    view, ui, root = GridView(), FieldUi(), Root()
    ctx = ctx_for(s, "brak", ui)
    view.pointer(ctx, Ev("pointerdown", root, (3, 3), ptype="touch"))
    menu = Ev("contextmenu", root, (3, 3))
    assert view.pointer(ctx, menu).redraw and menu.prevented and ui.info == (3, 3)
    assert view.pointer(ctx, Ev("pointerup", root, (3, 3), ptype="touch", t=600)) is None
    assert ui.path is None


# --- hover, zoom and pan patch the drawing in place ----------------------------------------------

def test_hover_patches_the_overlays_and_the_next_render_replaces_them():
    """A hover patches the overlay and the notes in place, and hands back what they now hold: the app's
    record of the slot then matches the page, so its next drawing writes only parts that differ from
    what is shown (issue 20), never leaves a patched part stale, and the map is not written whole."""
    from fray.ui.markup.html import pieces, with_parts

    s = ose_started()
    view, ui, root = GridView(), FieldUi(), Root()
    ctx = ctx_for(s, "brak", ui)
    before = view.render(ctx)
    gen = ui.gen
    assert view.pointer(ctx, Ev("pointermove", root, (6, 7))) is None  # no page redraw for a hover
    assert ui.hover == (6, 7) and "10 ft" in root.parts["#grid-over"].innerHTML
    assert "(6, 7): 10 ft from Brak" in root.parts["#grid-notes"].outerHTML
    assert ui.gen == gen  # nothing the app does not know of was patched
    patched, ui.patched = ui.patched, None
    assert patched is not None
    assert patched["grid-over"].endswith(root.parts["#grid-over"].innerHTML + "</g>")
    assert patched["grid-notes"] == root.parts["#grid-notes"].outerHTML
    shown = with_parts(before, patched)  # the app's record of the slot (ui/dom/patch.py Slots.amend)
    assert shown != before and shown == view.render(ctx)  # the same hover: the page already shows it
    ui.hover = None  # moved off the map: the next drawing differs in the two overlays, nothing else
    now = view.render(ctx)
    assert pieces(now)[:2] == pieces(shown)[:2]
    assert [k for (k, a), (_, b) in zip(pieces(now)[2], pieces(shown)[2]) if a != b] == ["grid-over", "grid-notes"]
    view.pointer(ctx, Ev("pointermove", root, (6, 7)))
    assert ui.patched
    ui.patched = None
    view.pointer(ctx, Ev("pointermove", root, (6, 7), xy=((6 * 10 + 7) * 4, (7 * 10 + 2) * 4)))
    assert ui.patched is None and ui.gen == gen  # same square: nothing patched


def test_wheel_zooms_about_the_pointer_by_the_viewbox_alone():
    s = ose_started()
    view, ui, root = GridView(), FieldUi(), Root()
    ctx = ctx_for(s, "brak", ui)
    view.render(ctx)
    ev = Ev("wheel", root, xy=(0, 0), delta=-100)
    assert view.pointer(ctx, ev) is None and ev.prevented
    zoom, vx, vy = ui.view
    assert zoom == pytest.approx(1.2) and (vx, vy) == (0.0, 0.0)  # the top-left corner stays put
    assert root.svg.attrs["viewBox"] == f"0 0 {160 / 1.2:.2f} {120 / 1.2:.2f}".replace(".00", "")
    assert root.parts['[data-testid="grid-zoom"]'].textContent == "120%"  # the toolbar follows
    assert root.parts['[data-testid="grid-zoom-out"]'].disabled is False
    for _ in range(30):
        view.pointer(ctx, Ev("wheel", root, (15, 11), delta=-100))
    assert ui.view[0] == 8.0 and root.parts['[data-testid="grid-zoom-in"]'].disabled is True
    assert view.act(ctx, "grid-zoom", "map").redraw and ui.view == (1.0, 0.0, 0.0)


def test_dragging_the_empty_map_pans_when_zoomed():
    s = ose_started()
    view, ui, root = GridView(), FieldUi(), Root()
    ctx = ctx_for(s, "brak", ui)
    view.act(ctx, "grid-zoom", "in")
    z, vx, vy = ui.view
    view.pointer(ctx, Ev("pointerdown", root, (8, 8)))
    view.pointer(ctx, Ev("pointermove", root, (6, 8)))
    action = view.pointer(ctx, Ev("pointerup", root, (6, 8)))
    assert ui.view[1] == pytest.approx(vx + 20) and ui.path is None and action.command is None


def test_pinch_zooms():
    s = ose_started()
    view, ui, root = GridView(), FieldUi(), Root()
    ctx = ctx_for(s, "brak", ui)
    view.pointer(ctx, Ev("pointerdown", root, xy=(100, 100), pid=1, ptype="touch"))
    view.pointer(ctx, Ev("pointerdown", root, xy=(200, 100), pid=2, ptype="touch"))
    view.pointer(ctx, Ev("pointermove", root, xy=(300, 100), pid=2, ptype="touch"))
    assert ui.view[0] == pytest.approx(2.0)
    view.pointer(ctx, Ev("pointerup", root, xy=(300, 100), pid=2, ptype="touch"))
    assert view.pointer(ctx, Ev("pointerup", root, xy=(100, 100), pid=1, ptype="touch")) is None
    assert ui.press is None and ui.path is None


# --- keyboard -----------------------------------------------------------------------------------

def test_arrows_move_a_cursor_and_enter_acts_like_a_tap():
    s = ose_started()
    view, ui = GridView(), FieldUi()
    ctx = ctx_for(s, "brak", ui)
    assert view.key(ctx, "ArrowRight").redraw and ui.cursor == (4, 5)  # starts on the selected token
    for _ in range(3):
        view.key(ctx, "ArrowRight")
    assert ui.cursor == (7, 5)
    assert 'data-testid="grid-cursor"' in view.render(ctx)
    view.key(ctx, "Enter")
    assert ui.path["points"] == [(7, 5)]
    assert view.key(ctx_for(s, "brak", ui), "Enter").command.path[-1] == (7, 5)
    ui = FieldUi()
    ctx = ctx_for(s, "brak", ui)
    for k in ["ArrowDown"] + ["ArrowRight"] * 7:
        view.key(ctx, k)
    assert ui.cursor == (11, 5) and view.key(ctx, "Enter").select == "o1"


# --- walls ------------------------------------------------------------------------------------

def test_painting_walls_is_one_logged_undoable_step():
    s = ose_started()
    view, ui, root = GridView(), FieldUi(), Root()
    ctx = ctx_for(s, "brak", ui)
    assert view.act(ctx, "grid-walls", "").redraw and ui.walls
    assert 'data-testid="walls-note"' in view.render(ctx)
    action = drag(view, ctx, root, None, (2, 9), (5, 9))
    assert action.command == SetWalls(add=((2, 9), (3, 9), (4, 9), (5, 9)))
    apply(s, action)
    assert {(2, 9), (5, 9)} <= s.state.encounter.map.walls
    assert any(e.kind == "WallsChanged" and e.rule == "CORE-REF-1" for e in s.steps[-1].events)
    # The new walls shape the threat and the paths at once.
    assert grid_model(s.state, OSE).map.walls == s.state.encounter.map.walls
    s.undo()
    assert (3, 9) not in s.state.encounter.map.walls


def test_a_stroke_starting_on_a_wall_erases_and_creatures_keep_their_squares():
    s = ose_started()
    view, ui, root = GridView(), FieldUi(walls=True), Root()
    ctx = ctx_for(s, "brak", ui)
    action = drag(view, ctx, root, None, (7, 0), (7, 3))
    assert action.command == SetWalls(remove=((7, 0), (7, 1), (7, 2), (7, 3)))
    action = drag(view, ctx, root, None, (3, 5), (5, 5))  # over Brak at (4, 5)
    assert action.command == SetWalls(add=((3, 5), (5, 5))) and "1 square with a creature" in action.message
    one = view.tap(ctx, (4, 5), "brak")
    assert one.command is None and "Brak stands on (4, 5)" in one.message


# --- Ogre ----------------------------------------------------------------------------------------

def test_a_flat_footed_foe_gets_no_attack_of_opportunity_then_does__OGRE_AOO_1():
    s = Session(orc_and_pc(), OGRE)
    nxt = next(o for o in OGRE.options(s.state, "orc") if o.key == "next")
    s.act(nxt.command, ScriptedDice([4, 8]))  # orc 14, Brak 16
    nxt = next(o for o in OGRE.options(s.state, "orc") if o.key == "next")
    s.act(nxt.command)  # segment 14: the orc acts; Brak is still flat-footed
    assert s.current() == ("orc",)
    away = PreviewRequest("orc", ((2, 4),))
    p = plan_path(s.state, OGRE, away)
    assert p.squares[0] == (5, 4) and p.provocations == ()  # Brak (6, 4) threatens nobody yet
    assert p.problem == "" and p.command.kind == "short"  # 15 ft: the first Move kind that fits
    flat_body = next(b for b in OGRE.grid.bodies(s.state) if b.id == "brak")
    assert not flat_body.threatens
    # Once Brak is ready, leaving his reach provokes him.
    ready = replace(s.state, board=replace(s.state.board, segment=16))
    assert next(b for b in OGRE.grid.bodies(ready) if b.id == "brak").threatens
    p2 = plan_path(ready, OGRE, away)
    assert [(pr.square, pr.names, pr.rule) for pr in p2.provocations] == [((5, 4), ("Brak",), "OGRE-AOO-1")]
    assert p2.provocations[0].text == "Leaving (5, 4) provokes Brak (OGRE-AOO-1)"
    one = plan_path(s.state, OGRE, PreviewRequest("orc", ((4, 4),)))
    assert one.command.kind == "quick"  # one square: a quick move


# --- sync --------------------------------------------------------------------------------------

def test_a_preview_belongs_to_its_mover_and_another_map_forgets_it():
    s = ose_started()
    view = GridView()
    ui = FieldUi(path={"mover": "brak", "points": [(8, 8)]}, size=(16, 12))
    view.render(ctx_for(s, "mira", ui))
    assert ui.path is None  # the selection changed
    ui.path, ui.view = {"mover": "brak", "points": [(8, 8)]}, (2.0, 10.0, 10.0)
    enc = replace(detailed(), map=replace(detailed().map, width=20))
    view.render(ctx_for(Session(enc, OSE), "brak", ui))
    assert ui.path is None and ui.view == (1.0, 0.0, 0.0) and ui.size == (20, 12)


def test_a_pending_option_asking_for_a_square_or_a_target_is_filled_by_a_tap():
    s = ose_started()
    view = GridView()
    square = Option(Place("brak"), "Place", needs=("square",))
    assert view.tap(ctx_for(s, "brak", FieldUi(), pending=square), (9, 9), None).fill == {"square": (9, 9)}
    target = Option(Place("brak"), "Pick", needs=("target:target",))
    assert view.tap(ctx_for(s, "brak", FieldUi(), pending=target), (11, 5), "o1").fill == {"target": "o1"}


def test_no_one_to_move_a_tap_tells_about_the_square_and_offers_a_placement__CORE_REF_1():
    s = ose_started()
    view, ui = GridView(), FieldUi()
    ctx = ctx_for(s, "o1", ui)  # not the Orcs' turn: no move option
    assert view.tap(ctx, (9, 9), None).redraw and ui.info == (9, 9) and ui.path is None
    out = view.render(ctx)
    assert 'data-testid="grid-info"' in out and 'data-action="grid-place:9,9"' in out
    assert view.act(ctx, "grid-place", "9,9").command == Place("o1", square=(9, 9))


def test_zoom_buttons_close_in_on_the_selected_creature_and_the_zoom_figure_restores_the_map():
    s = ose_started()
    s.act(Place("brak", square=(14, 10)))  # a far corner
    view, ui = GridView(), FieldUi()
    ctx = ctx_for(s, "brak", ui)
    view.render(ctx)
    for _ in range(3):
        view.act(ctx, "grid-zoom", "in")
    z, vx, vy = ui.view
    assert z == pytest.approx(3.375)
    cx, cy = 145, 105  # Brak's centre in SVG units
    assert vx <= cx <= vx + 160 / z and vy <= cy <= vy + 120 / z
    assert 'viewBox="' + view.viewbox(ctx) + '"' in view.render(ctx) and "338%" in view.render(ctx)
    view.act(ctx, "grid-zoom", "map")
    assert view.viewbox(ctx) == "0 0 160 120"


def test_fit_frames_every_placed_token_with_a_square_of_margin():
    s = ose_started()
    view, ui = GridView(), FieldUi()
    ctx = ctx_for(s, "brak", ui)
    view.render(ctx)
    view.act(ctx, "grid-zoom", "in")
    view.act(ctx, "grid-zoom", "in")
    view.act(ctx, "grid-zoom", "fit")
    z, vx, vy = ui.view
    squares = [tuple(c.square) for c in s.state.combatants if c.square is not None]
    for x, y in squares:  # every token and a square round it is in view
        assert vx <= (x - 1) * 10 + 1e-6 or vx == 0.0
        assert (x + 2) * 10 <= vx + 160 / z + 1e-6 or vx + 160 / z == pytest.approx(160)
        assert vy <= (y - 1) * 10 + 1e-6 or vy == 0.0
        assert (y + 2) * 10 <= vy + 120 / z + 1e-6 or vy + 120 / z == pytest.approx(120)
    xs, ys = [x for x, _ in squares], [y for _, y in squares]
    # The smallest such view: one side of the framed box fills the view (or the whole map shows).
    assert z == pytest.approx(max(1.0, min(16 / (max(xs) - min(xs) + 3), 12 / (max(ys) - min(ys) + 3))))


def test_follow_recentres_on_the_actor_after_it_steps():
    s = ose_started()
    view, ui = GridView(), FieldUi()
    ctx = ctx_for(s, "brak", ui)
    view.render(ctx)
    for _ in range(3):
        view.act(ctx, "grid-zoom", "in")
    assert ui.follow is False  # off by default off a phone
    assert view.act(ctx, "grid-follow", "").redraw and ui.follow
    c = s.state.get("brak")
    z, vx, vy = ui.view
    cx, cy = c.square[0] * 10 + 5, c.square[1] * 10 + 5
    # Centred on the actor, moved by less than a square so that no token is cut by the view's edges (issue 53).
    assert abs(vx + 80 / z - cx) < 10 or vx in (0.0, pytest.approx(160 - 160 / z))
    view.pan_by(ctx, 30, 30)  # the referee looks elsewhere: no step, no recentring
    panned = ui.view
    view.render(ctx)
    assert ui.view == panned
    s.act(Place("brak", square=(9, 6)))  # a step moves the actor: the view follows
    ctx = ctx_for(s, "brak", ui)
    view.render(ctx)
    z, vx, vy = ui.view
    assert abs(vx + 80 / z - 95) < 10 and abs(vy + 60 / z - 65) < 10
    assert 'data-testid="grid-follow"' in view.render(ctx) and 'aria-pressed="true"' in view.render(ctx)


def test_a_token_hit_area_is_its_whole_square():
    s = ose_started()
    out = GridView().render(ctx_for(s, "brak", FieldUi()))
    assert out.count('<rect class="hit" x="-5" y="-5" width="10" height="10"/>') == len(
        [c for c in s.state.combatants if c.square is not None])
