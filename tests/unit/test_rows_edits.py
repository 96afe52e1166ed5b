"""The order list is written row by row from the rows themselves (ui/dom/patch.py `Slots.rows`, issue 38):
after each tap the edits sent to the page are exactly those that cutting the markup apart would give
(ui/markup/html.py `changed_items`), and the markup kept for the slot is the list as a whole drawing writes it.
Runs App in CPython against the fake `pyscript` of test_app_render_cache."""
from __future__ import annotations

import importlib
import random

import pytest
from test_app_render_cache import app_module  # noqa: F401  (the fixture)

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples


@pytest.mark.parametrize("system,example", [("olog", "skirmish"), ("ose", "detailed"), ("ogre", "orc_and_pc")])
def test_the_order_list_edits_are_the_rows_that_changed(app_module, system, example, monkeypatch):  # noqa: F811
    module = app_module
    html = importlib.import_module("fray.ui.markup.html")
    panels = importlib.import_module("fray.ui.markup.panels")
    sent: list[tuple] = []

    def function(source: str):
        def morph(*args):  # ui/dom/patch.py MORPH_JS (el, html, edits, count); the page's other functions too
            if getattr(args[0], "id", None) == "order-slot":
                sent.append(tuple(args[1:]) + (None,) * (4 - len(args)))
            return True
        return lambda: morph

    patch = importlib.import_module("fray.ui.dom.patch")
    cut: list[str] = []
    real = patch.changed_items
    monkeypatch.setattr(patch, "changed_items", lambda old, new: (cut.append(new), real(old, new))[1])
    module.window.Function = function
    module.window.requestAnimationFrame = lambda fn: None
    module.window.location.hash = "#" + storage.encode_link(Session(examples(system)[example](3)))
    app = module.App()
    app.boot()
    ids = [c.id for c in app.desk.session.state.combatants]
    rng = random.Random(5)
    row_edits = 0
    for _ in range(30):
        before = app.desk.slots.written("order-slot")
        sent.clear()
        cut.clear()
        app.dispatch(rng.choice(["select", "look"]), rng.choice(ids), None)
        after = app.desk.slots.written("order-slot")
        assert after == panels.order_list(app.desk.slots._rows["order-slot"])
        if after == before:
            assert sent == []
            continue
        assert len(sent) == 1
        _, edits, count = sent[0]
        assert (edits, count) == tuple(html.changed_items(before, after))
        assert after not in cut, "the rows' edits come from the rows, not from the markup cut apart"
        row_edits += 1
    assert row_edits >= 10
