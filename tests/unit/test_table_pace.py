"""The table's pace (issue 38): no question that changes nothing, one tap where one will do. Runs the App in
CPython on the fake page of test_app_render_cache.py, as a referee's taps reach it."""
from __future__ import annotations

import re
from dataclasses import replace

from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples


def _opened(module, system: str, example: str, steps: int = 0, seed: int = 3):
    """An example, `steps` first allowed options taken (initiative rolled), open in the App."""
    s = Session(examples(system)[example](seed))
    for _ in range(steps):
        o = next(o for o in s.options(s.current()[0]) if o.allowed)
        s.act(replace(o.command, **o.choices[0].values) if o.choices else o.command)
    module.window.location.hash = "#" + storage.encode_link(s)
    app = module.App()
    app.boot()
    return app


def _index(app, label: str) -> int:
    opts = app.desk.session.options(app.desk.page.selected)
    return next(i for i, o in enumerate(opts) if o.label.startswith(label))


def test_under_pressure_a_tap_acts_without_press_on_and_press_on_is_the_button_beside_it__OLOG_PRES_2(app_module):
    app = _opened(app_module, "olog", "two_orcs", steps=1)
    s = app.desk.session
    actor = s.current()[0]
    assert app.desk.page.selected == actor
    attack = next(o for o in s.options(actor) if o.allowed and o.label.startswith("Attack"))
    assert attack.question.endswith("press on?"), "all in one zone: under pressure"
    i = _index(app, attack.label)
    markup = app.desk.slots.written("actions-slot")
    press = re.search(rf'<button[^>]*data-action="alt:{i}"[^>]*>(.*?)</button>', markup)
    assert press, "the other answer is a button beside the option"
    assert re.sub(r"<[^>]+>", " ", press.group(1)).split()[:2] == ["Press", "on"], "it says which answer it is"
    assert re.search(r'alt-p">d\d', press.group(1)) and re.search(r"take d\d", press.group(0)), "and its price"
    option = re.search(rf'<button[^>]*data-action="opt:{i}"[^>]*>(.*?)</button>', markup).group(1)
    assert "Act, then the turn ends" not in option, "the default's consequence is said once, in the hint"
    assert "An action taken without Press On ends the turn" in markup
    steps = len(s.steps)
    app.dispatch("alt", str(i), None)  # Press on, in one tap
    assert len(s.steps) == steps + 1 and app.desk.page.pending is None
    assert any(e.kind == "PressedOn" for e in s.steps[-1].events)
    assert s.current() == (actor,) and s.state.board.actions_left == 1, "pressing on keeps the turn"
    app.dispatch("undo", "", None)
    app.dispatch("opt", str(_index(app, "Defend")), None)  # one tap, the text's default
    assert len(s.steps) == steps + 1 and not any(e.kind == "PressedOn" for e in s.steps[-1].events)
    assert s.current() != (actor,), "not pressing on, the turn ended after the action (OLOG-PRES-2)"
    app.dispatch("undo", "", None)
    app.dispatch("alt", str(i), None)  # pressed on once...
    app.dispatch("undo", "", None)
    app.dispatch("opt", str(_index(app, attack.label)), None)
    assert not any(e.kind == "PressedOn" for e in s.steps[-1].events), "...never remembered: it costs HP"


def test_in_the_move_step_next_ends_the_step_for_the_side_in_one_tap__OSE_ORDER_1(app_module):
    app = _opened(app_module, "ose", "detailed")
    s = app.desk.session
    app.dispatch("opt", str(_index(app, "Roll initiative")), None)
    board = s.state.board
    assert board.phase == "act" and board.step == 0
    side = s.state.get(s.current()[0]).side
    assert len(s.current()) > 1, "several of the side could move"
    opts = s.options(app.desk.page.selected)
    nxt = next(i for i, o in enumerate(opts) if o.key == "next")
    assert opts[nxt].label == "End the MOVE step for the whole side"
    assert 'data-testid="opt-next"' in app.desk.slots.written("actions-slot")
    app.dispatch("opt", str(nxt), None)
    assert s.state.board.step > 0 or s.state.board.order[s.state.board.turn] != side, "the MOVE step is over"
    assert not any(e.kind == "ActorFinished" for e in s.steps[-1].events), "no one's part ended one by one"


def _on(app, name: str):
    """The allowed options of the actions panel's first group, when it is "On <name>"."""
    import importlib
    offers = importlib.import_module("fray.ui.desk.offers")
    menu = offers.selection(app.desk, app.desk.page.selected, app.desk.page.target)[1]
    group, items = menu.groups[0]
    return [it for it in items if it.allowed] if group == f"On {name}" else []


def _next_turn(app) -> None:
    s = app.desk.session
    opts = s.options(app.desk.page.selected)
    app.dispatch("opt", str(next(i for i, o in enumerate(opts) if o.key == "next" and o.allowed)), None)


def test_a_turn_starts_aimed_at_the_only_foe_so_an_attack_is_one_tap__OLOG_ATK_1(app_module):
    app = _opened(app_module, "olog", "two_orcs", steps=1)
    s = app.desk.session
    actor = s.current()[0]
    assert actor.startswith("orc"), "seed 3: an orc acts first, and Brak is its one foe"
    assert app.desk.page.target == "brak"
    assert "Target: " in app.desk.slots.written("actions-slot")
    first = _on(app, "Brak")
    assert first and first[0].label.startswith("Attack Brak")
    before = s.state.get("brak").hp
    app.dispatch("opt", str(first[0].index), None)  # the one tap of the attack
    assert any(e.kind in ("Hit", "Miss", "Attack", "Damage") or "Brak" in e.text for e in s.steps[-1].events)
    assert s.steps[-1].command.target == "brak" and s.state.get("brak").hp <= before
    app.dispatch("look", "brak", None)  # looking at a card aims at nothing
    assert app.desk.page.selected == "brak" and app.desk.page.target is None


def test_the_next_turn_is_aimed_at_the_foe_last_attacked_while_in_reach__OLOG_ATK_1(app_module):
    import importlib
    offers = importlib.import_module("fray.ui.desk.offers")
    app = _opened(app_module, "olog", "eight_humans", steps=1)
    s = app.desk.session
    for _ in range(40):  # to Brak's turn
        if s.current() == ("brak",):
            break
        _next_turn(app)
    assert s.current() == ("brak",)
    state = s.state
    foes = [cid for cid, _ in offers.selection(app.desk, "brak")[1].targets
            if state.hostile(state.get("brak"), state.get(cid))]
    assert len(foes) > 1 and app.desk.page.target is None, "several foes: no guess"
    foe = foes[-1]
    app.dispatch("target", foe, None)
    attack = _on(app, state.get(foe).name)[0]
    app.dispatch("opt", str(attack.index), None)
    for _ in range(60):  # the turn ends, the others act, and Brak's comes again
        if s.current() == ("brak",) and s.state.round > state.round:
            break
        _next_turn(app)
    assert s.current() == ("brak",) and s.state.round > state.round
    if foe in dict(offers.selection(app.desk, "brak")[1].targets):
        assert app.desk.page.target == foe, "aimed again at the foe Brak attacked last"
    else:
        assert app.desk.page.target != foe


def test_ogre_a_declaration_tap_also_counts_on_to_the_next_event_and_one_undo_takes_both_back__OGRE_SEG_1(
        app_module):
    app = _opened(app_module, "ogre", "three_vs_three")
    s = app.desk.session
    app.dispatch("opt", str(_index(app, "Roll initiative")), None)
    assert s.state.board.segment > 0 and s.current(), "no Advance tap: the count is at the first to declare"
    assert s.steps[-1].command.chained()
    segment, n = s.state.board.segment, len(s.steps)
    declared = 0
    for _ in range(len(s.current())):  # everyone due now declares; the last declaration moves the count on
        who = s.current()[0]
        opts = s.options(app.desk.page.selected)
        assert app.desk.page.selected == who
        app.dispatch("opt", str(next(i for i, o in enumerate(opts) if o.allowed and o.label.startswith(
            ("Attack", "Move", "Charge")))), None)
        declared += 1
        if s.state.board.segment != segment:
            break
    assert s.state.board.segment > segment, "the count went on by itself"
    assert len(s.steps) == n + declared + 1 and s.steps[-1].command.chained()
    assert "Segment" in app.desk.slots.written("result-slot"), "the result card says where the count went"
    app.dispatch("undo", "", None)
    assert len(s.steps) == n + declared - 1 and s.state.board.segment == segment, "one undo: both back"
    assert app.desk.page.selected in s.current()


def test_press_on_at_its_minimum_says_its_figure_beside_the_option_and_the_reason_in_its_title__OLOG_PRES_2(
        app_module):
    """Four foes in reach: pressing on costs 4, the most a d4 rolls. The narrow button beside the option says
    "4, the minimum"; the bracketed reason went past the button and covered the option at 390 px (#53)."""
    from fray.rules.olog import examples as olog
    for seed in range(1, 40):  # a seed where Brak, facing the four, acts first
        e = olog.two_orcs(seed)
        orc = next(c for c in e.combatants if c.id == "orc1")
        e = replace(e, combatants=e.combatants + tuple(replace(orc, id=f"orc{n}", name=f"Orc {n}") for n in (3, 4)))
        s = Session(e)
        o = next(o for o in s.options(s.current()[0]) if o.allowed)  # roll initiative
        s.act(replace(o.command, **o.choices[0].values) if o.choices else o.command)
        if s.current() == ("brak",):
            break
    app_module.window.location.hash = "#" + storage.encode_link(s)
    app = app_module.App()
    app.boot()
    actor = app.desk.session.current()[0]
    attack = next(o for o in app.desk.session.options(actor) if o.allowed and o.label.startswith("Attack"))
    i = _index(app, attack.label)
    press = re.search(rf'<button[^>]*data-action="alt:{i}"[^>]*>(.*?)</button>',
                      app.desk.slots.written("actions-slot"))
    price = re.search(r'alt-p">([^<]*)<', press.group(1)).group(1)
    assert "(" not in price and len(price) <= 16, price
    assert "the minimum (" in press.group(0), "the whole reason is still in its title and label"
