"""Ogre's "How fast?" has a default: a tap on an attack declares it at normal speed without asking
(OGRE-ATK-1, OGRE-FAST-1); the option's own "⋯" asks the question, and the combatant's last answer is
the next tap's, shown on the button. Runs the page's App in CPython (test_app_render_cache's fake page)."""
from __future__ import annotations

import importlib

from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples


def _to_first_attack(app):
    """Take "next" until the selected combatant is offered an allowed attack; its option index."""
    offers = importlib.import_module("fray.ui.desk.offers")
    for _ in range(30):
        opts = offers.options(app.desk)
        attack = next((i for i, o in enumerate(opts) if o.group == "Attack" and o.allowed and o.question), None)
        if attack is not None:
            return attack, opts[attack]
        nxt = next(i for i, o in enumerate(opts) if o.key == "next" and o.allowed)
        app.dispatch("opt", str(nxt), None)
    raise AssertionError("no attack offered")


def _declared(app):
    """The last step the referee took (not one the count took by itself after it)."""
    return next(st.command for st in reversed(app.desk.session.steps) if not st.command.chained())


def test_a_tap_declares_at_normal_speed_and_the_other_speeds_are_one_tap_away__OGRE_ATK_1_OGRE_FAST_1(app_module):
    module = app_module
    module.window.location.hash = "#" + storage.encode_link(Session(examples("ogre")["orc_and_pc"](3)))
    app = module.App()
    app.boot()
    i, option = _to_first_attack(app)
    assert option.question == "How fast?" and option.default == 0
    actions = app.desk.slots.written("actions-slot")
    assert f'data-action="ask:{i}"' in actions and "Normal: Standard" in actions  # the answer a tap gives
    steps = len(app.desk.session.steps)
    app.dispatch("opt", str(i), None)
    assert app.desk.page.pending is None  # nothing asked: declared, and the count went on (OGRE-SEG-1)
    assert len(app.desk.session.steps) == steps + 1 + sum(st.command.chained() for st in app.desk.session.steps[steps:])
    assert _declared(app).tempo == 0
    app.dispatch("undo", "", None)
    app.dispatch("ask", str(i), None)  # "⋯": the question, as before
    assert app.desk.page.pending is not None and "How fast?" in app.desk.slots.written("actions-slot")
    fast = next(n for n, c in enumerate(app.desk.page.pending[1].choices) if c.values == {"tempo": -1})
    app.dispatch("choose", str(fast), None)
    assert _declared(app).tempo == -1
    app.dispatch("undo", "", None)
    assert "Fast: " in app.desk.slots.written("actions-slot")  # the last answer is the next tap's, and says so
    app.dispatch("opt", str(i), None)
    assert _declared(app).tempo == -1 and app.desk.page.pending is None
