"""The page redraws from caches (App.memo, the order rows, the action buttons):
after any click, what it shows must equal a fresh page's drawing of the same
fight, selection, question and dialog. Runs App in CPython with a small fake
`pyscript` (document, window), so a cache keyed on too little is caught here.
"""
from __future__ import annotations

import importlib
import random
import re
import sys
import types
from dataclasses import replace

import pytest

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples

COMPARED = ("header-slot", "notice-slot", "order-slot", "actions-slot", "dice-slot", "log-slot", "result-slot", "result-strip", "tabs-slot",
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

    def querySelectorAll(self, selector):
        return []

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
    # Every ui module is imported afresh, so the ones that hold `document` and `window` get this test's
    # fakes; afterwards the modules other tests imported are put back as they were.
    saved = {n: m for n, m in sys.modules.items() if n.startswith("fray.ui.")}
    for name in saved:
        del sys.modules[name]
    try:
        yield importlib.import_module("fray.ui.app")
    finally:
        import fray.ui as package
        for name in [n for n in sys.modules if n.startswith("fray.ui.")]:
            del sys.modules[name]
            if name.count(".") == 2 and name not in saved and hasattr(package, name.rsplit(".", 1)[1]):
                delattr(package, name.rsplit(".", 1)[1])
        for name, m in saved.items():
            sys.modules[name] = m
            if name.count(".") == 2:
                setattr(package, name.rsplit(".", 1)[1], m)


def fresh_drawing(module, app) -> dict[str, str]:
    """What a page that never drew before shows for the same situation."""
    other = module.App()
    other.desk.session = app.desk.session
    other.desk.page = replace(app.desk.page, field_ui=app.desk.page.field_ui.copy())
    other.redraw()
    return {slot: other.desk.slots.written(slot) for slot in COMPARED}


def offered(app):
    """The selected combatant's options as the page offers them (a click names one by its index)."""
    return importlib.import_module("fray.ui.desk.offers").options(app.desk)


def drawing(app) -> dict[str, str]:
    return {slot: app.desk.slots.written(slot) for slot in COMPARED}


@pytest.mark.parametrize("system,example", [("olog", "skirmish"), ("ose", "detailed"), ("ogre", "orc_and_pc")])
def test_every_click_draws_what_a_fresh_page_would(app_module, system, example, monkeypatch):
    enc = examples(system)[example](3)
    module = app_module
    monkeypatch.setattr(importlib.import_module("fray.ui.markup.panels"), "FOLD_OVER", 0)  # folds in these small fights
    play = importlib.import_module("fray.ui.controllers.play")
    offers = importlib.import_module("fray.ui.desk.offers")
    module.window.location.hash = "#" + storage.encode_link(Session(enc))
    app = module.App()
    app.boot()
    assert drawing(app) == fresh_drawing(module, app)
    rng = random.Random(7)
    ids = [c.id for c in app.desk.session.state.combatants]
    for step in range(60):
        kind = rng.choice(["select", "select", "act", "act", "undo", "redo", "help", "rule", "cancel", "dismiss",
                           "tab", "ask", "fold"])
        if kind == "select":
            app.dispatch("select", rng.choice(ids), None)
        elif kind == "act":
            plain = [i for i, o in enumerate(offers.options(app.desk)) if o.allowed and not o.needs and not o.choices]
            if plain:
                i = rng.choice(plain)
                app.handle(lambda d: play.choose(d, i))
        elif kind == "ask":
            asking = [i for i, o in enumerate(offers.options(app.desk)) if o.allowed and (o.needs or o.choices)]
            if asking:
                i = rng.choice(asking)
                app.handle(lambda d: play.choose(d, i))
        elif kind in ("undo", "redo"):
            app.dispatch(kind, "", None)
        elif kind == "help":
            app.dispatch("help", "", None)
        elif kind == "rule":
            app.dispatch("rule", "CORE-REF-1", None)
        elif kind == "cancel":
            app.dispatch("cancel", "", None)
        elif kind == "dismiss":
            app.handle(lambda d: d.notify("Something to dismiss", "info"))
            app.dispatch("dismiss", "", None)
        elif kind == "tab":
            app.dispatch("tab", rng.choice(["field", "order", "act", "log"]), None)
        elif kind == "fold":  # a group's refused options shown or hidden (panels.FOLD_OVER is lowered below)
            app.dispatch("fold", rng.choice(["Attack", "Move", "Turn"]), None)
        assert drawing(app) == fresh_drawing(module, app), f"step {step}: {kind} left a stale panel"


def test_a_changed_fight_with_the_same_selection_redraws_the_panels(app_module):
    """Same selection, new state (a referee's damage): the cached order, actions and log must not be reused."""
    module = app_module
    module.window.location.hash = "#" + storage.encode_link(Session(examples("olog")["skirmish"](1)))
    app = module.App()
    app.boot()
    cid = app.desk.page.selected
    before = drawing(app)
    app.dispatch_form("hp-form", "", {"damage": "1"}, "damage", types.SimpleNamespace(getAttribute=lambda n: cid))
    after = drawing(app)
    assert after["order-slot"] != before["order-slot"] and after["log-slot"] != before["log-slot"]
    assert after == fresh_drawing(module, app)
    app.dispatch("undo", "", None)
    for slot in ("order-slot", "actions-slot", "log-slot"):  # the earlier state draws as it did
        assert drawing(app)[slot] == before[slot]
    assert drawing(app) == fresh_drawing(module, app)


def test_a_setup_edit_and_an_opened_example_are_undone_and_redone_in_order(app_module):
    """One history: a step, a setup edited mid-fight, another encounter opened; undo walks back through all
    three (each setup exactly as it was) and redo forward again, each drawing what a fresh page would."""
    module = app_module
    module.window.location.hash = "#" + storage.encode_link(Session(examples("olog")["skirmish"](1)))
    app = module.App()
    app.boot()
    cid = app.desk.page.selected
    app.dispatch_form("hp-form", "", {"damage": "1"}, "damage", types.SimpleNamespace(getAttribute=lambda n: cid))
    hurt = app.desk.session.state
    app.dispatch("mode", "setup", None)
    app.edit_later("name", "text", "Renamed")
    assert app.desk.session.encounter.name == "Renamed" and len(app.desk.session.steps) == 1
    app.dispatch("mode", "play", None)
    editing = importlib.import_module("fray.ui.controllers.editing")
    app.handle(lambda d: editing.load_example(d, "ose", "detailed"))
    assert app.desk.session.encounter.system == "ose" and app.desk.session.steps == []
    drawn = []
    for _ in range(3):
        drawn.append(drawing(app))
        assert drawing(app) == fresh_drawing(module, app)
        app.dispatch("undo", "", None)
    assert app.desk.session.encounter.system == "olog" and app.desk.session.steps == [] and not app.desk.session.can_undo
    undo_button = re.search(r'<button[^>]*data-testid="undo"[^>]*>', drawing(app)["header-slot"]).group(0)
    assert "disabled" in undo_button
    for expected in reversed(drawn):
        app.dispatch("redo", "", None)
        assert drawing(app) == fresh_drawing(module, app)
        assert drawing(app)["order-slot"] == expected["order-slot"]
    assert app.desk.session.encounter.system == "ose" and not app.desk.session.can_redo
    app.dispatch("undo", "", None)
    app.dispatch("undo", "", None)
    assert app.desk.session.state == hurt and app.desk.session.encounter.name != "Renamed"



class CountingRules:
    """A ruleset wrapper that counts `options` calls (the rules' work a tap can cost)."""

    def __init__(self, inner) -> None:
        self.inner, self.calls = inner, 0

    def options(self, state, cid):
        self.calls += 1
        return self.inner.options(state, cid)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.mark.parametrize("system,example", [("olog", "skirmish"), ("ose", "detailed"), ("ogre", "orc_and_pc")])
def test_idle_time_makes_every_selection_ready_and_the_same_as_drawn_on_the_tap(app_module, system, example):
    """Once the page has been idle (ui/page/warm.py's background parts), a tap on anyone computes no
    rules, and draws exactly what a fresh page draws for that selection. A step queues its new state."""
    module = app_module
    module.window.location.hash = "#" + storage.encode_link(Session(examples(system)[example](3)))
    app = module.App()
    app.boot()
    ids = [c.id for c in app.desk.session.state.combatants]
    assert len(app.warmer.queue) >= len(ids) - 1, "the drawn state queues everyone but the selected"
    app.warmer.finish()
    counting = CountingRules(app.desk.session.ruleset)
    app.desk.session.ruleset = counting
    try:
        for cid in ids:
            before = counting.calls
            app.dispatch("select", cid, None)
            assert counting.calls == before, f"the tap on {cid} computed options after idle time"
            assert drawing(app) == fresh_drawing(module, app), f"selecting {cid} after idle time"
    finally:
        app.desk.session.ruleset = counting.inner
    state = app.desk.session.state
    offers = importlib.import_module("fray.ui.desk.offers")
    plain = [i for i, o in enumerate(offers.options(app.desk)) if o.allowed and not o.needs and not o.choices]
    assert plain, "the last selected has a plain option to take"
    play = importlib.import_module("fray.ui.controllers.play")
    app.handle(lambda d: play.choose(d, plain[0]))
    assert app.desk.session.state is not state and app.warmer.state is app.desk.session.state and app.warmer.queue


def test_a_redraw_that_changes_two_rows_of_forty_writes_those_two_and_nothing_else(app_module):
    """A slot's regions (ui/markup/html.py `region`: the order rows, the tokens, the lanes) are written
    item by item, only the items that changed; anything else that changed writes the slot whole."""
    from fray.ui.markup.html import h, region, unmarked
    from fray.ui.dom.patch import changed_items

    def order(rows, title="Order"):
        return h("section", None, h("h2", None, title),
                 h("ol", {"data-region": True}, region(h("li", {"data-id": f"r{i}"}, r) for i, r in enumerate(rows))))

    rows = [f"Orc {i}" for i in range(40)]
    before = order(rows)
    after = order(rows[:3] + ["Orc 3 (selected)"] + rows[4:9] + ["<b>Brak</b>"] + rows[10:])
    edits, count = changed_items(before, after)
    assert count == 1 and edits == [0, 3, '<li data-id="r3">Orc 3 (selected)</li>',
                                    0, 9, '<li data-id="r9">&lt;b&gt;Brak&lt;/b&gt;</li>']  # typed text stays text
    assert changed_items(before, order(rows, title="Order (round 2)")) is None  # outside the rows: whole
    # One row fewer, one more on top: a splice each ([index, how many removed], the items put there).
    assert changed_items(before, order(rows[:-1])) == ([0, [39, 1], ""], 1)
    def log(lines):
        return h("ol", {"data-region": True}, region(h("li", {"data-key": ln}, ln) for ln in lines))

    lines = [f"event {i}" for i in range(200, 0, -1)]  # newest first, as the log shows them
    # Two new lines on top and the two oldest past the limit dropped: two splices, nothing else written.
    assert changed_items(log(lines), log(["event 202", "event 201"] + lines[:-2])) == (
        [0, [198, 2], "", 0, [0, 0], '<li data-key="event 202">event 202</li><li data-key="event 201">event 201</li>'], 1)
    assert changed_items(None, before) is None and changed_items(before, before) == ([], 1)
    assert "<!--" not in unmarked(after) and unmarked(after).count("<li") == 40


def test_a_selection_on_the_bands_writes_the_zone_heads_and_two_tokens_not_every_zone(app_module):
    """OLOG-BAND-1: every zone's label is a distance from the selected creature, so a selection
    changes every zone's head; it must not rewrite every zone with its tokens. The zones stay put and
    only their heads (label, hover text, reach, "Move here") and the two tokens whose flags changed are
    written; the page shows what a fresh page draws."""
    from fray.ui.markup.html import unmarked
    from fray.ui.dom.patch import changed_items

    module = app_module
    module.window.location.hash = "#" + storage.encode_link(Session(examples("olog")["skirmish"](1)))
    app = module.App()
    app.boot()
    state = app.desk.session.state
    first, other = app.desk.page.selected, None
    for c in state.combatants:
        if c.band is not None and c.band != state.get(first).band:
            other = c.id
            break
    assert first and other
    before = app.desk.slots.written("field-slot")
    app.dispatch("look", other, None)
    after = app.desk.slots.written("field-slot")
    assert after != before
    edits, count = changed_items(before, after)
    written = edits[2::3]
    assert count == len(re.findall(r'class="stack"', unmarked(after)))  # one region per zone's stack
    assert not [w for w in written if 'class="zone"' in w]  # no zone rewritten whole
    tokens = [re.search(r'data-token="([^"]+)"', w).group(1) for w in written if w.startswith("<button")]
    assert sorted(tokens) == sorted([first, other])
    heads = [w for w in written if w.startswith("<header")]
    assert heads and all('class="zone-head' in w for w in heads)
    assert any("Close" in w for w in heads)  # the new selection's own zone is now "Close"
    other_page = module.App()
    other_page.desk.session = app.desk.session
    other_page.desk.page = replace(app.desk.page, field_ui=app.desk.page.field_ui.copy())
    other_page.redraw()
    assert unmarked(other_page.desk.slots.written("field-slot")) == unmarked(after)


@pytest.mark.parametrize("system,example", [("olog", "skirmish"), ("ose", "detailed"), ("ogre", "orc_and_pc")])
def test_an_undo_finds_the_selection_it_returns_to_ready(app_module, system, example):
    """An undo returns to the state before the step, so the selected combatant's
    options, menu and panel that state already gave are used again, not worked out anew; and the page
    then draws what a fresh page draws."""
    module = app_module
    module.window.location.hash = "#" + storage.encode_link(Session(examples(system)[example](3)))
    app = module.App()
    app.boot()
    state = app.desk.session.state
    plain = [i for i, o in enumerate(offered(app)) if o.allowed and not o.needs and not o.choices]
    assert plain, "the selected combatant has a plain option to take"
    play = importlib.import_module("fray.ui.controllers.play")
    app.handle(lambda d: play.choose(d, plain[0]))
    assert app.desk.session.state is not state
    counting = CountingRules(app.desk.session.ruleset)
    app.desk.session.ruleset = counting
    try:
        app.dispatch("undo", "", None)
        assert app.desk.session.state is state
        assert counting.calls == 0, "the undo worked out the options of a state it had drawn already"
    finally:
        app.desk.session.ruleset = counting.inner
    assert drawing(app) == fresh_drawing(module, app)


def _off_turn(module, system: str):
    """An App on the 40-combatant example of `system`, initiative rolled, and a combatant whose turn it is
    not, with more refused attacks than panels.FOLD_OVER."""
    s = Session(examples(system)["large"](1))
    rng = random.Random(3)
    for _ in range(12):  # a few seeded steps in (as the page bench's encounters are)
        opts = [o for a in s.current() for o in s.options(a) if o.allowed and not o.needs]
        init = [o for o in opts if "nitiative" in o.label]
        o = init[0] if init else rng.choice(opts)
        s.act(replace(o.command, **rng.choice(o.choices).values) if o.choices else o.command)
    module.window.location.hash = "#" + storage.encode_link(s)
    app = module.App()
    app.boot()
    who = next(c.id for c in app.desk.session.state.combatants[::-1] if c.id not in app.desk.session.current())
    app.dispatch("look", who, None)
    return app, who


def test_an_off_turn_combatant_says_why_once_and_folds_its_refused_attacks__OLOG_INIT_4_CORE_REF_1(app_module):
    """In a fight of forty, a goblin whose turn it is not has some sixty options, every one refused
    for the same reason. Its panel says the reason once, above them (each refused option is described by
    it), and folds the fifty-odd attacks behind one button that counts them; shown, each has its own
    "Allow anyway" (CORE-REF-1), which acts. The referee's unfolding stays for the next selection."""
    module = app_module
    app, who = _off_turn(module, "olog")
    name = app.desk.session.state.get(who).name
    markup = app.desk.slots.written("actions-slot")
    attacks = [i for i, o in enumerate(offered(app)) if o.group == "Attack"]
    assert len(attacks) > 40 and not any(offered(app)[i].allowed for i in attacks)
    why = offered(app)[attacks[0]].why
    assert f"not {name}'s" in why and "OLOG-INIT-4" in why
    assert markup.count(f"not {name}&#x27;s") == 1, "the shared reason is said once"
    assert f' Show {len(attacks)} not allowed now</button>' in markup
    assert 'aria-expanded="false"' in markup and not [i for i in attacks if f'data-action="opt:{i}"' in markup]
    refused = re.findall(r'<button[^>]*class="act refused"[^>]*>', markup)
    assert refused and all('aria-describedby="why-all"' in b for b in refused)
    assert drawing(app) == fresh_drawing(module, app)

    app.dispatch("fold", "Attack", None)
    shown = app.desk.slots.written("actions-slot")
    assert f" Hide the {len(attacks)} not allowed now</button>" in shown and 'aria-expanded="true"' in shown
    for i in attacks:
        assert f'data-action="opt:{i}"' in shown and f'data-action="allow:{i}"' in shown
    assert shown.count(f"not {name}&#x27;s") == 1
    assert drawing(app) == fresh_drawing(module, app)

    other = next(c.id for c in app.desk.session.state.combatants if c.id not in app.desk.session.current() and c.id != who
                 and sum(o.group == "Attack" for o in app.desk.session.options(c.id)) > 3)
    app.dispatch("look", other, None)
    assert "Hide the " in app.desk.slots.written("actions-slot"), "unfolded stays unfolded for the next selection"
    app.dispatch("look", who, None)
    steps = len(app.desk.session.steps)
    app.dispatch("allow", str(attacks[0]), None)
    assert len(app.desk.session.steps) == steps + 1 or app.desk.page.pending is not None or app.desk.page.dialog is not None
    app.dispatch("fold", "Attack", None)
    assert 'aria-expanded="false"' in app.desk.slots.written("actions-slot")


def test_the_current_actor_keeps_its_allowed_attacks_and_each_refused_ones_reason__OLOG_BAND_1(app_module):
    """Folding hides only what is refused: the actor whose turn it is sees every attack it may make, numbered
    for the keys; its refused ones (out of reach, each its own distance) come under the fold, each with
    its own reason once shown."""
    module = app_module
    app, _ = _off_turn(module, "olog")
    actor = app.desk.session.current()[0]
    app.dispatch("select", actor, None)
    allowed = [i for i, o in enumerate(offered(app)) if o.group == "Attack" and o.allowed]
    refused = [i for i, o in enumerate(offered(app)) if o.group == "Attack" and not o.allowed]
    assert allowed and len(refused) > 3
    markup = app.desk.slots.written("actions-slot")
    assert all(f'data-action="opt:{i}"' in markup for i in allowed)
    assert 'id="why-all"' not in markup and f" Show {len(refused)} not allowed now</button>" in markup
    app.dispatch("fold", "Attack", None)
    shown = app.desk.slots.written("actions-slot")
    for i in refused:
        assert f'aria-describedby="why-{i}"' in shown and f'id="why-{i}"' in shown
    assert "OLOG-BAND-1" in shown
