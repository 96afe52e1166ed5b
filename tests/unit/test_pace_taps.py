"""Issue 53, the benchmarks: taps that were bookkeeping, not choices. A turn on a grid starts aimed at the nearest
foe, the foe walked toward stays the target, the long move is near the top of the actions and no token is cut
at a zoomed view's edge. Runs the App in CPython on the fake page of test_app_render_cache.py."""
from __future__ import annotations

import importlib
import re
from dataclasses import replace

from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray.engine import geometry as geo
from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples
from fray.views.grid import uncut


def _opened(module, enc):
    """An encounter open in the App, initiative rolled by a tap on "next" (the Ogre count going on by itself)."""
    module.window.location.hash = "#" + storage.encode_link(Session(enc))
    app = module.App()
    app.boot()
    _next(app)
    return app


def _next(app) -> None:
    offers = importlib.import_module("fray.ui.desk.offers")
    app.dispatch("opt", str(next(i for i, o in enumerate(offers.options(app.desk)) if o.key == "next" and o.allowed)),
                 None)


def _menu(app):
    offers = importlib.import_module("fray.ui.desk.offers")
    return offers.selection(app.desk, app.desk.page.selected, app.desk.page.target)[1]


def _nearest(state, actor: str) -> str:
    me = state.get(actor)
    foes = [c for c in state.combatants if state.hostile(me, c) and not c.is_down]
    return min(foes, key=lambda c: (geo.distance_squares(me.square, c.square),
                                    (c.square[0] - me.square[0]) ** 2 + (c.square[1] - me.square[1]) ** 2)).id


def test_a_first_declaration_on_the_grid_is_aimed_at_the_nearest_foe_so_a_charge_is_one_tap__OGRE_CHARGE_1(
        app_module):
    app = _opened(app_module, examples("ogre")["three_vs_three"](1))
    s = app.desk.session
    actor = app.desk.page.selected
    assert actor in s.current()
    me = s.state.get(actor)
    menu = _menu(app)
    assert len([t for t, _ in menu.targets if s.state.hostile(me, s.state.get(t))]) > 1, "several foes to choose"
    foe = _nearest(s.state, actor)
    assert app.desk.page.target == foe, "no chip to tap first: the turn starts aimed at the nearest foe"
    group, items = menu.groups[0]
    assert group == f"On {s.state.get(foe).name}"
    first = next(it for it in items if it.allowed)
    assert first.label.startswith(f"Charge {s.state.get(foe).name}"), "the charge on it is the first option"
    assert "Target: " in app.desk.slots.written("actions-slot")
    app.dispatch("target", next(t for t, _ in menu.targets if t != foe and s.state.hostile(me, s.state.get(t))), None)
    assert app.desk.page.target != foe, "the referee still picks another foe in one tap"


def _ose_apart():
    """OSE detailed, the sides 25 ft apart as the welcome places them: Brak faces three orcs in a column, each
    with a sword and shield as the starter orc has (no reach weapon holding Brak off)."""
    e = examples("ose")["detailed"](1)
    brak = next(c for c in e.combatants if c.id == "brak")
    at = {"brak": (1, 5), "mira": (1, 6), "hal": (1, 4), "o1": (7, 5), "o2": (7, 4), "o3": (7, 6)}
    return replace(e, combatants=tuple(
        replace(c, square=at[c.id]) if c.side == "party" else
        replace(c, square=at[c.id], weapons=brak.weapons, hands=brak.hands, stats={**c.stats, "ammo_die": ""})
        for c in e.combatants))


def test_the_foe_walked_toward_stays_the_target_into_the_melee_step__OSE_ORDER_1_OSE_MOVE_1(app_module):
    app = _opened(app_module, _ose_apart())
    s = app.desk.session
    assert s.current() and s.state.get(s.current()[0]).side == "party", "seed 1: the Party moves first"
    app.dispatch("select", "brak", None) if app.desk.page.selected != "brak" else None
    app.dispatch("target", "o3", None)  # the referee picks the lower orc, not the nearest
    opts = app.desk.session.options("brak")
    offers = importlib.import_module("fray.ui.desk.offers")
    offered = offers.options(app.desk)
    i = next(i for i, o in enumerate(offered) if o.label == "Move toward Orc crossbowman")
    app.dispatch("opt", str(i), None)
    brak = s.state.get("brak")
    assert geo.distance_squares(brak.square, s.state.get("o3").square) == 1
    assert geo.distance_squares(brak.square, s.state.get("o1").square) == 1, "beside two orcs"
    assert opts  # (the options were Brak's)
    for _ in range(6):  # the rest of the Party's MOVE step, to its MELEE step
        if s.state.board.step and s.current() and "brak" in s.current():
            break
        _next(app)
    assert "brak" in s.current()
    app.dispatch("select", "brak", None) if app.desk.page.selected != "brak" else None
    assert app.desk.page.target == "o3", "aimed at the orc it walked to, not the nearest of the two"
    group, items = _menu(app).groups[0]
    assert group == "On Orc crossbowman" and next(it for it in items if it.allowed).label.startswith("Sword")


def test_the_long_move_comes_second_on_the_target_and_the_actors_state_lines_after_it__OSE_MOVE_1(app_module):
    app = _opened(app_module, _ose_apart())
    s = app.desk.session
    actor = app.desk.page.selected
    assert app.desk.page.target, "aimed (its one charge target, or the nearest foe)"
    name = s.state.get(app.desk.page.target).name
    group, items = _menu(app).groups[0]
    allowed = [it.label for it in items if it.allowed]
    assert group == f"On {name}" and allowed[0].startswith("Charge") and allowed[1] == f"Move toward {name}"
    markup = app.desk.slots.written("actions-slot")
    assert markup.index(f"Move toward {name}") < markup.index('data-testid="hint"'), \
        "what the actor does to its target first, then its movement left, stance..."
    app.dispatch("untarget", "", None)
    menu = _menu(app)
    move = dict(menu.groups)["Move"]
    assert [it.label for it in move if it.allowed][0].startswith("Move toward"), "untargeted: first of Move"
    assert actor == app.desk.page.selected


def test_a_zoomed_view_cuts_no_token_at_its_edges():
    """The welcome's fight at 390 px: a view 7.8 squares wide from the map's left edge cut the orcs in column 7."""
    length = 24 / 3.08
    start = uncut(0.0, length, 24, {1, 7}, keep={1})
    assert 0 < start <= 1 and start + length >= 8, "moved right just enough to show column 7 whole"
    a = uncut(2.5, length, 24, {2, 3, 9, 10}, keep={3})
    for k in (2, 3, 9, 10):
        assert not (k < a < k + 1 or k < a + length < k + 1), f"column {k} is whole or out of the view"
    assert a <= 3 and a + length >= 4, "the actor's column stays in"
    assert uncut(0.0, 24, 24, {0, 23}) == 0.0, "the whole map: nothing to move"
    assert uncut(5.5, length, 24, set()) == 5.5, "no token near the edges: the view stays"


def _fresh(module, enc, width: int):
    module.window.innerWidth = width
    module.window.location.hash = "#" + storage.encode_link(Session(enc))
    app = module.App()
    app.boot()
    return app


def _roll_from_the_field(app, action: str) -> None:
    offers = importlib.import_module("fray.ui.desk.offers")
    i = next(i for i, o in enumerate(offers.options(app.desk)) if o.key == "next" and o.allowed)
    app.dispatch(action, str(i), None)  # the field's own button: OSE's declarations, Ogre's before the fight


def test_on_a_phone_the_fields_roll_initiative_opens_the_actions_of_the_first_actor__OSE_INIT_1(app_module):
    app = _fresh(app_module, _ose_apart(), 390)
    assert app.desk.page.tab == "field", "a phone opens a fight on its field: the declarations and their roll"
    steps = len(app.desk.session.steps)
    _roll_from_the_field(app, "decl-opt")
    assert len(app.desk.session.steps) == steps + 1 and app.desk.session.state.board.phase == "act"
    assert app.desk.page.tab == "act", "the first actor's options, its long move among the first: no tab tap"
    assert 'data-testid="opt-toward"' in app.desk.slots.written("actions-slot")


def test_on_a_phone_the_roll_before_an_ogre_fight_opens_the_actions_of_the_first_declarer__OGRE_INIT_1(app_module):
    app = _fresh(app_module, examples("ogre")["three_vs_three"](1), 390)
    assert app.desk.page.tab == "field"
    _roll_from_the_field(app, "before-roll")
    assert app.desk.session.current(), "the count went on to the first declaration"
    assert app.desk.page.tab == "act"


def test_off_a_phone_the_fields_roll_leaves_the_page_as_it_is__OSE_INIT_1(app_module):
    app = _fresh(app_module, _ose_apart(), 1280)
    tab = app.desk.page.tab
    _roll_from_the_field(app, "decl-opt")
    assert app.desk.session.state.board.phase == "act" and app.desk.page.tab == tab
