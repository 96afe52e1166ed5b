"""Subject and target are different taps (issue 38). During an actor's turn a tap on a foe (its row or
its token) makes it the actor's target: the actor stays selected, its options on the foe lead the action
panel ("On Goblin 1"), and the next tap acts on it. Looking at the foe's own card is the row's "details"
control; undo and redo bring the subject back to whoever acts. Runs the App in CPython on the fake page
of test_app_render_cache.py."""
from __future__ import annotations

import importlib
from dataclasses import replace

from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples


def _brak_acts(module, seed: int = 3, aimed: bool = False):
    """OLOG's two orcs, initiative rolled: whoever acts first has a foe in reach (all in one zone)."""
    s = Session(examples("olog")["two_orcs"](seed))
    init = next(o for o in s.options(s.current()[0]) if o.allowed)
    s.act(replace(init.command, **init.choices[0].values) if init.choices else init.command)
    module.window.location.hash = "#" + storage.encode_link(s)
    app = module.App()
    app.boot()
    if aimed is False and app.desk.page.target is not None:
        app.dispatch("untarget", "", None)  # a turn starts aimed at its one foe (test_table_pace.py): not here
    return app


def _actor_and_foe(app):
    state, now = app.desk.session.state, app.desk.session.current()
    actor = app.desk.page.selected
    assert actor in now
    mine = state.get(actor).side
    foe = next(c.id for c in state.combatants if c.side != mine and c.id not in now)
    return actor, foe


def test_a_foe_tapped_during_a_turn_is_the_target_and_its_options_lead__OLOG_ATK_1(app_module):
    app = _brak_acts(app_module)
    actor, foe = _actor_and_foe(app)
    name = app.desk.session.state.get(foe).name
    app.dispatch("select", foe, None)  # the row's tap (a token's is "token": the same handler)
    assert app.desk.page.selected == actor, "the actor stays the subject"
    assert app.desk.page.target == foe
    markup = app.desk.slots.written("actions-slot")
    assert f"On {name}" in markup and "Target:" in markup
    first_group = markup.index(f"On {name}")
    assert all(markup.index(g) > first_group for g in ('aria-label="Move"', 'aria-label="Turn"') if g in markup)
    assert "targeted" in app.desk.slots.written("order-slot")
    offers = importlib.import_module("fray.ui.desk.offers")
    menu = offers.selection(app.desk, actor, foe)[1]
    group, items = menu.groups[0]
    assert group == f"On {name}" and items
    assert all(getattr(offers.options(app.desk)[it.index].command, "target", "") == foe for it in items)
    assert offers.numbers(app.desk)[1] in [it.index for it in items if it.allowed] or not any(
        it.allowed for it in items), "key 1 is the first thing to do to the target"

    app.dispatch("select", foe, None)  # a second tap clears it
    assert app.desk.page.target is None and app.desk.page.selected == actor


def test_the_details_control_looks_at_the_foe_and_undo_brings_back_whoever_acts__CORE_REF_1(app_module):
    app = _brak_acts(app_module)
    actor, foe = _actor_and_foe(app)
    app.dispatch("look", foe, None)
    assert app.desk.page.selected == foe and app.desk.page.target is None
    assert "(not their turn)" in app.desk.slots.written("actions-slot")
    offers = importlib.import_module("fray.ui.desk.offers")
    app.dispatch("look", actor, None)
    plain = next(i for i, o in enumerate(offers.options(app.desk)) if o.allowed and not o.needs and not o.choices)
    app.dispatch("opt", str(plain), None)
    app.dispatch("look", foe, None)
    app.dispatch("undo", "", None)
    assert app.desk.page.selected in app.desk.session.current(), "undo: the subject is whoever acts"


def test_one_more_tap_acts_on_the_target__OLOG_ATK_1(app_module):
    """With the foe targeted, the first option on it is one tap away (its question, if any, answered by its
    default or asked once)."""
    app = _brak_acts(app_module)
    actor, foe = _actor_and_foe(app)
    app.dispatch("select", foe, None)
    offers = importlib.import_module("fray.ui.desk.offers")
    menu = offers.selection(app.desk, actor, foe)[1]
    _, items = menu.groups[0]
    allowed = [it for it in items if it.allowed]
    assert allowed, "the foe stands in reach: an attack on it is offered"
    steps = len(app.desk.session.steps)
    app.dispatch("opt", str(allowed[0].index), None)
    pending = app.desk.page.pending
    if pending is not None:  # a question (e.g. OLOG "press on?") asked once
        app.dispatch("choose", "0", None)
    assert len(app.desk.session.steps) == steps + 1
    assert any(e.target == foe for e in app.desk.session.steps[-1].events)


def test_an_ally_the_actor_can_do_nothing_to_is_looked_at_not_targeted(app_module):
    """Orc 1's turn: a tap on Orc 2 (same side, no option of Orc 1's on it) shows Orc 2's own card."""
    for seed in range(1, 40):
        app = _brak_acts(app_module, seed)
        state, actor = app.desk.session.state, app.desk.page.selected
        allies = [c.id for c in state.combatants if c.side == state.get(actor).side and c.id != actor
                  and c.id not in app.desk.session.current()]
        if allies:
            break
    app.dispatch("select", allies[0], None)
    assert app.desk.page.selected == allies[0] and app.desk.page.target is None


def test_the_action_panel_offers_its_targets_as_chips_one_tap_each__OLOG_ATK_1(app_module):
    """Whom the actor can act on are chips at the top of its actions: a tap targets without leaving the
    panel (on a phone, no trip to the Order or Field tab), a second tap clears."""
    app = _brak_acts(app_module)
    actor, foe = _actor_and_foe(app)
    markup = app.desk.slots.written("actions-slot")
    state = app.desk.session.state
    foes = [c.id for c in state.combatants if c.side != state.get(actor).side]
    for f in foes:
        assert f'data-action="target:{f}"' in markup, "each foe in reach has its chip"
    app.dispatch("target", foe, None)
    assert app.desk.page.target == foe and app.desk.page.selected == actor
    assert f"On {state.get(foe).name}" in app.desk.slots.written("actions-slot")
    app.dispatch("target", foe, None)
    assert app.desk.page.target is None


def test_a_token_tapped_in_the_phones_field_tab_opens_the_actions_on_the_target__OLOG_ATK_1(app_module):
    """Issue #53, stop 5: on a phone a foe's token tapped in the Field tab (OLOG's zones, a grid) targets it
    and opens the Act tab, its options first and marked to be brought into sight; the target is no step of
    the history (nothing to undo)."""
    app = _brak_acts(app_module)
    actor, foe = _actor_and_foe(app)
    app_module.window.innerWidth = 390
    try:
        app.dispatch("tab", "field", None)
        steps = len(app.desk.session.steps)
        app.dispatch("token", foe, None)
        page = app.desk.page
        assert (page.selected, page.target, page.tab) == (actor, foe, "act")
        name = app.desk.session.state.get(foe).name
        assert f'class="group on-target" role="group" aria-label="On {name}"' in app.desk.slots.written("actions-slot")
        assert len(app.desk.session.steps) == steps and not app.desk.reveal_target
    finally:
        app_module.window.innerWidth = 1280
