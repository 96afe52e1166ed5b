"""The turn's end stays on screen (issue 38): the action panel marks a short group holding the "next"
action (`.turn-end`: End turn; Done and End step), which the page keeps stuck to the screen's bottom from a
tablet up and first on a phone. A longer one (Ogre's Advance, Advance one segment, Delay...) is not marked:
stuck or first it would cover the options or push them off the screen. Runs the App in CPython on the fake
page of test_app_render_cache.py."""
from __future__ import annotations

import re
from dataclasses import replace

from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples


def _panel(module, system: str, example: str, steps: int = 1) -> str:
    s = Session(examples(system)[example](3))
    for _ in range(steps):  # initiative (or the first step) taken, so someone acts
        o = next(o for a in s.current() for o in s.options(a) if o.allowed and o.key == "next")
        s.act(replace(o.command, **o.choices[0].values) if o.choices else o.command)
    module.window.location.hash = "#" + storage.encode_link(s)
    app = module.App()
    app.boot()
    return app.desk.slots.written("actions-slot")


def _groups(markup: str) -> dict[str, str]:
    return {m.group(2): m.group(1) for m in re.finditer(r'<div class="(group[^"]*)" role="group" aria-label="([^"]+)"',
                                                         markup)}


def test_olog_end_turn_is_the_turns_end__OLOG_ACT_1(app_module):
    groups = _groups(_panel(app_module, "olog", "skirmish"))
    assert groups.get("Turn") == "group turn-end", groups
    assert [g for g, c in groups.items() if "turn-end" in c] == ["Turn"]


def test_ose_done_and_end_step_are_the_turns_end__OSE_ORDER_1(app_module):
    markup = _panel(app_module, "ose", "detailed", steps=2)
    assert 'data-testid="opt-next"' in markup
    assert _groups(markup).get("Turn") == "group turn-end", _groups(markup)


def test_ogres_turn_group_is_marked_while_short_and_not_once_delay_joins_it__OGRE_SEG_1(app_module):
    # Before the fight: Roll initiative alone; then Advance and Advance one segment; then Delay too.
    marks = [_groups(_panel(app_module, "ogre", "orc_and_pc", steps)).get("Turn") for steps in (0, 1, 2)]
    assert marks == ["group turn-end", "group turn-end", "group"], marks
    turn = _panel(app_module, "ogre", "orc_and_pc", 2).split('aria-label="Turn"', 1)[1]
    assert ">Delay<" in turn and "Advance one segment" in turn
