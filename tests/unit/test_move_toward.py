"""The long move in one tap (issue #53, stop 7): "Move toward <foe> (as far as allowed)" on the grid of OSE
detailed and Ogre, cut where the rules cut a drawn path, sent as an ordinary option, one tap and one undo."""
from __future__ import annotations

import importlib
from dataclasses import replace

from fray.engine import geometry as geo
from fray.engine import storage
from fray.engine.dice import ScriptedDice
from fray.engine.referee import Place, SetWalls
from fray.engine.session import Session
from fray.rules import get
from fray.rules.ogre.examples import orc_and_pc
from fray.rules.ose.examples import detailed
from fray.views.move_toward import toward_option

from test_app_render_cache import app_module  # noqa: F401  (the fixture: App against a fake pyscript)

OSE = get("ose")
OGRE = get("ogre")


def ose_started(enc=None) -> Session:
    """The OSE detailed example after initiative: the Party acts, MOVE step; Brak at (4, 5)."""
    s = Session(enc or detailed(), OSE)
    s.act(next(o for o in OSE.options(s.state, "brak") if o.key == "next").command)
    return s


def ogre_started(enc=None) -> Session:
    """Ogre's orc and PC at segment 14, the orc to act (Brak still flat-footed)."""
    s = Session(enc or orc_and_pc(), OGRE)
    s.act(next(o for o in OGRE.options(s.state, "orc") if o.key == "next").command, ScriptedDice([4, 8]))
    s.act(next(o for o in OGRE.options(s.state, "orc") if o.key == "next").command)
    assert s.current() == ("orc",)
    return s


def toward(s: Session, actor: str, target: str | None = None):
    return toward_option(s.state, s.ruleset, actor, s.ruleset.options(s.state, actor), target)


def test_brak_heads_for_the_nearest_foe_and_stops_beside_it_in_one_tap__OSE_MOVE_1():
    s = ose_started()
    o = toward(s, "brak")
    assert o.label == "Move toward Orc spearman" and o.group == "Move" and o.needs == ()
    assert o.command.path[0] == (4, 5) and o.command.path[-1] == (10, 4)
    assert geo.distance_squares(o.command.path[-1], s.state.get("o1").square) == 1
    assert o.hint == "as far as allowed: 30 ft to (10, 4), beside Orc spearman"
    s.act(o.command)
    assert s.state.get("brak").square == (10, 4)
    s.undo()  # one tap, one undo
    assert s.state.get("brak").square == (4, 5)


def test_the_targeted_foe_is_the_one_approached_and_what_it_provokes_is_said__OSE_MOVE_1_OSE_AOO_1():
    s = ose_started()
    o = toward(s, "brak", "o3")
    assert o.label == "Move toward Orc crossbowman"
    assert geo.distance_squares(o.command.path[-1], s.state.get("o3").square) == 1
    assert o.hint.endswith("; provokes Orc halberdier, Orc spearman (OSE-AOO-1)")  # asked when it resolves


def test_a_far_foe_is_approached_as_far_as_the_rate_allows_and_no_farther__OSE_MOVE_1():
    enc = detailed()
    s = ose_started(replace(enc, map=replace(enc.map, width=40)))
    s.act(Place("o1", square=(38, 5)))
    s.act(Place("o2", square=(38, 7)))
    s.act(Place("o3", square=(39, 4)))
    o = toward(s, "brak")
    feet = geo.path_cost_ft(list(o.command.path), "5")
    assert feet == OSE.grid.move_allowance(s.state, "brak", o.command) == 80  # 16 squares, the Move's rate
    assert o.command.path[-1] == (20, 5) and "toward Orc spearman" in o.hint
    assert OSE.check(s.state, o.command) is None


def test_walls_are_walked_around_not_through__OSE_MOVE_1():
    s = ose_started()
    s.act(SetWalls(add=((7, 4), (7, 5), (7, 6))))  # the wall at x = 7 keeps one gap, at (7, 7)
    o = toward(s, "brak")
    assert (7, 7) in o.command.path and not set(o.command.path) & s.state.encounter.map.walls
    assert all(geo.is_adjacent(a, b) for a, b in zip(o.command.path, o.command.path[1:]))
    s.act(SetWalls(add=((7, 7),)))
    assert toward(s, "brak") is None  # walled off: nothing offered


def test_nothing_is_offered_beside_the_foe_or_with_no_move_left__OSE_MOVE_1():
    s = ose_started()
    s.act(Place("brak", square=(10, 5)))
    assert toward(s, "brak", "o1") is None  # already beside the spearman
    assert toward(s, "brak") is None  # the nearest foe is the spearman too


def test_an_ogre_move_toward_brak_is_a_declared_move_of_the_kind_that_fits__OGRE_MOVE_1():
    s = ogre_started()
    s.act(Place("orc", square=(11, 7)))
    o = toward(s, "orc")
    assert o.label == "Move toward Brak" and o.rule == "OGRE-MOVE-1"
    assert o.command.kind == "short" and o.command.path[0] == (11, 7)
    assert geo.distance_squares(o.command.path[-1], s.state.get("brak").square) == 1
    assert OGRE.check(s.state, o.command) is None


def test_a_far_ogre_move_is_cut_at_the_longest_move_kind__OGRE_MOVE_1():
    enc = orc_and_pc()
    s = ogre_started(replace(enc, map=replace(enc.map, width=40)))
    s.act(Place("orc", square=(0, 7)))
    s.act(Place("brak", square=(39, 0)))  # 195 ft away
    o = toward(s, "orc")
    feet = geo.path_cost_ft(list(o.command.path), "5")
    assert o.command.kind == "move" and feet == OGRE.grid.move_allowance(s.state, "orc", o.command)
    assert feet == 150 and geo.distance_squares(o.command.path[-1], (39, 0)) > 1
    assert OGRE.check(s.state, o.command) is None


def test_the_action_panel_offers_it_and_one_tap_moves_and_one_undo_takes_it_back__OSE_MOVE_1(app_module):  # noqa: F811
    app_module.window.location.hash = "#" + storage.encode_link(ose_started())  # the Party moves
    app = app_module.App()
    app.boot()
    offers = importlib.import_module("fray.ui.desk.offers")
    app.dispatch("select", "brak", None)
    app.dispatch("target", "o3", None)
    i, o = next((i, o) for i, o in enumerate(offers.options(app.desk)) if o.key == "toward")
    assert o.label == "Move toward Orc crossbowman"
    assert f'data-action="opt:{i}"' in app.desk.slots._html["actions-slot"]
    start = app.desk.session.state.get("brak").square
    app.dispatch("opt", str(i), None)
    assert app.desk.session.state.get("brak").square != start
    app.dispatch("undo", "", None)
    assert app.desk.session.state.get("brak").square == start


def test_a_phone_opens_the_grid_on_the_actor_and_its_nearest_foe_not_the_whole_map__OSE_MOVE_1(monkeypatch):
    import types
    from fray.ui.field import grid_pointer
    from fray.ui.field.field_ui import FieldUi
    from fray.ui.field.field_views import FieldContext
    from fray.ui.field.grid import GridView
    from fray.views.panels import system_view
    monkeypatch.setattr(grid_pointer, "_window", lambda: types.SimpleNamespace(innerWidth=390, innerHeight=844))
    s = ose_started()
    state = s.state
    ctx = FieldContext(state, OSE, system_view("ose").panel(state), "brak", s.current(),
                       options=OSE.options(state, "brak"), ui=FieldUi())
    GridView().render(ctx)  # the first view, then Follow (on, on a phone) recentring on the actor
    zoom, vx, vy = ctx.ui.view
    assert ctx.ui.follow
    assert zoom == GridView()._phone_zoom(ctx), "squares a finger's size (44 px): every token stays a target"
    width, height = 16 * 10 / zoom, 12 * 10 / zoom  # the map is 16 by 12 squares of 10 units
    bx, by = state.get("brak").square  # Brak at (4, 5), the Orc spearman at (11, 5): 8 squares, 7.8 in view
    assert vx <= bx * 10 and (bx + 1) * 10 <= vx + width and vy <= by * 10 and (by + 1) * 10 <= vy + height
    assert vx == (bx - 1) * 10, "as far toward the spearman as keeps Brak and a square behind him in sight"
    ox = state.get("o1").square[0]
    assert ox * 10 < vx + width + 10, "the view ends within a square of the spearman: the way to him is on screen"