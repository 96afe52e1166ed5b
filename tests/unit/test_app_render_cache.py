"""The page redraws from caches (App.memo, the order rows, the action buttons):
after any click, what it shows must equal a fresh page's drawing of the same
fight, selection, question and dialog. Runs App in CPython with a small fake
`pyscript` (document, window), so a cache keyed on too little is caught here.
"""
from __future__ import annotations

import importlib
import random
import sys
import types
from dataclasses import replace

import pytest

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples

COMPARED = ("header-slot", "notice-slot", "order-slot", "actions-slot", "dice-slot", "log-slot", "tabs-slot",
            "dialog-slot")


class _Data(dict):
    def __getattr__(self, k):
        return self.get(k)

    def __setattr__(self, k, v):
        self[k] = v


class Element:
    def __init__(self, id_: str = "") -> None:
        self.id = id_
        self.innerHTML = ""
        self.hidden = False
        self.dataset = _Data()

    def addEventListener(self, *args) -> None:
        pass

    def getAttribute(self, name):
        return None

    def querySelector(self, selector):
        return None  # no row elements: list panels are rewritten whole

    def closest(self, selector):
        return None

    def focus(self) -> None:
        pass


class Document:
    def __init__(self) -> None:
        self.elements: dict[str, Element] = {}
        self.title = ""
        self.documentElement = Element("html")
        self.activeElement = None

    def getElementById(self, id_: str) -> Element:
        return self.elements.setdefault(id_, Element(id_))

    def querySelector(self, selector):
        return None

    def addEventListener(self, *args) -> None:
        pass


class Storage(dict):
    def getItem(self, k):
        return self.get(k)

    def setItem(self, k, v) -> None:
        self[k] = v

    def removeItem(self, k) -> None:
        self.pop(k, None)


def fake_window():
    return types.SimpleNamespace(
        localStorage=Storage(), innerWidth=1280, frayBoot=None,
        location=types.SimpleNamespace(hash="", pathname="/", search="", href="http://fray.test/"),
        performance=types.SimpleNamespace(mark=lambda name: None),
        console=types.SimpleNamespace(warn=lambda *a: None),
        history=types.SimpleNamespace(replaceState=lambda *a: None),
        CSS=types.SimpleNamespace(escape=lambda s: s),
        addEventListener=lambda *a: None, setTimeout=lambda *a: None)


@pytest.fixture
def app_module(monkeypatch):
    """fray.ui.app imported against a fake pyscript; a fresh document per test."""
    pyscript = types.ModuleType("pyscript")
    ffi = types.ModuleType("pyscript.ffi")
    ffi.create_proxy = lambda f: f
    ffi.is_none = lambda x: x is None
    ffi.to_js = lambda x, **k: x
    pyscript.document = Document()
    pyscript.window = fake_window()
    pyscript.ffi = ffi
    monkeypatch.setitem(sys.modules, "pyscript", pyscript)
    monkeypatch.setitem(sys.modules, "pyscript.ffi", ffi)
    for name in [n for n in sys.modules if n == "fray.ui.app"]:
        monkeypatch.delitem(sys.modules, name)
    module = importlib.import_module("fray.ui.app")
    yield module
    sys.modules.pop("fray.ui.app", None)


def fresh_drawing(module, app) -> dict[str, str]:
    """What a page that never drew before shows for the same situation."""
    other = module.App()
    for attr in ("session", "selected", "follow_turn", "mode", "tab", "pending", "dialog", "notice", "draft",
                 "problems", "restart_offer", "last_roll", "cursor"):
        setattr(other, attr, getattr(app, attr))
    other.timeline, other.redo_timeline = list(app.timeline), list(app.redo_timeline)
    other.field_ui = dict(app.field_ui)
    other.render()
    return {slot: other._html.get(slot, "") for slot in COMPARED}


def drawing(app) -> dict[str, str]:
    return {slot: app._html.get(slot, "") for slot in COMPARED}


@pytest.mark.parametrize("system,example", [("olog", "skirmish"), ("ose", "detailed"), ("ogre", "orc_and_pc")])
def test_every_click_draws_what_a_fresh_page_would(app_module, system, example):
    enc = examples(system)[example](3)
    module = app_module
    module.window.location.hash = "#" + storage.encode_link(Session(enc))
    app = module.App()
    app.boot()
    assert drawing(app) == fresh_drawing(module, app)
    rng = random.Random(7)
    ids = [c.id for c in app.session.state.combatants]
    for step in range(60):
        kind = rng.choice(["select", "select", "act", "act", "undo", "redo", "help", "rule", "cancel", "dismiss",
                           "tab", "ask"])
        if kind == "select":
            app.dispatch("select", rng.choice(ids), None)
        elif kind == "act":
            plain = [i for i, o in enumerate(app.options) if o.allowed and not o.needs and not o.choices]
            if plain:
                app.choose(rng.choice(plain))
        elif kind == "ask":
            asking = [i for i, o in enumerate(app.options) if o.allowed and (o.needs or o.choices)]
            if asking:
                app.choose(rng.choice(asking))
        elif kind in ("undo", "redo"):
            app.dispatch(kind, "", None)
        elif kind == "help":
            app.dispatch("help", "", None)
        elif kind == "rule":
            app.dispatch("rule", "CORE-REF-1", None)
        elif kind == "cancel":
            app.dispatch("cancel", "", None)
        elif kind == "dismiss":
            app.notice = ("Something to dismiss", "info")
            app.render()
            app.dispatch("dismiss", "", None)
        elif kind == "tab":
            app.dispatch("tab", rng.choice(["field", "order", "act", "log"]), None)
        assert drawing(app) == fresh_drawing(module, app), f"step {step}: {kind} left a stale panel"


def test_a_changed_fight_with_the_same_selection_redraws_the_panels(app_module):
    """Same selection, new state (a referee's damage): the cached order, actions and log must not be reused."""
    module = app_module
    module.window.location.hash = "#" + storage.encode_link(Session(examples("olog")["skirmish"](1)))
    app = module.App()
    app.boot()
    cid = app.selected
    before = drawing(app)
    app.dispatch_form("hp-form", "", {"damage": "1"}, "damage", types.SimpleNamespace(getAttribute=lambda n: cid))
    after = drawing(app)
    assert after["order-slot"] != before["order-slot"] and after["log-slot"] != before["log-slot"]
    assert after == fresh_drawing(module, app)
    app.dispatch("undo", "", None)
    for slot in ("order-slot", "actions-slot", "log-slot"):  # the earlier state draws as it did
        assert drawing(app)[slot] == before[slot]
    assert drawing(app) == fresh_drawing(module, app)
