"""The painted start's storage rules (ui/page/paint.py) and its first drawing made aside.

The stored entry is kept only for one build and under a size cap; a corrupt, foreign or stale entry reads
as nothing (the page starts the normal way) and never raises; a write the browser refuses removes the stale
entry. The markup made aside is what a new visit's first drawing writes, slot by slot, whatever the live
page shows (a selection, a dialog, a notice).
"""
from __future__ import annotations

import importlib
import json

import pytest

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples

from test_app_render_cache import COMPARED, Storage, app_module  # noqa: F401  (the fake pyscript fixture)


@pytest.fixture
def paint(app_module):  # noqa: F811
    return importlib.import_module("fray.ui.page.paint")


def test_an_entry_round_trips_for_its_own_build(paint):
    text = paint.encode("b1", "e7", "<div>fight</div>")
    entry = paint.decode(text, "b1")
    assert entry == {"v": paint.VERSION, "build": "b1", "entry": "e7", "html": "<div>fight</div>"}


def test_an_entry_of_another_build_is_ignored(paint):
    assert paint.decode(paint.encode("old", "e1", "<p>x</p>"), "new") is None


@pytest.mark.parametrize("text", [None, "", "{", "[]", "null", '"text"', '{"v": 1}', '{"v": 2, "build": "b"}',
                                  json.dumps({"v": 1, "build": "b", "html": 5}),
                                  json.dumps({"v": 1, "build": "b", "html": ""}), "\x00\xff garbage"])
def test_a_corrupt_entry_reads_as_nothing_and_never_raises(paint, text):
    assert paint.decode(text, "b") is None


def test_no_build_id_means_nothing_is_kept_or_read(paint):
    assert paint.encode("", "e1", "<p>x</p>") is None
    assert paint.decode(paint.encode("b", "e1", "<p>x</p>"), "") is None


def test_markup_over_the_cap_is_not_kept_and_removes_the_stale_entry(paint):
    local = Storage()
    assert paint.store(local, paint.encode("b", "e1", "<p>old</p>"))
    big = "<p>" + "x" * paint.CAP_CHARS + "</p>"
    assert paint.encode("b", "e1", big) is None
    assert not paint.store(local, paint.encode("b", "e1", big))
    assert paint.PAINT_KEY not in local
    assert paint.decode(json.dumps({"v": 1, "build": "b", "entry": "", "html": big}), "b") is None


def test_a_refused_write_drops_the_stale_entry_silently(paint):
    class Full(Storage):
        def setItem(self, k, v):
            raise RuntimeError("QuotaExceededError")

    local = Full()
    local[paint.PAINT_KEY] = "stale"
    assert paint.store(local, paint.encode("b", "e1", "<p>new</p>")) is False
    assert paint.PAINT_KEY not in local

    class Broken(Full):
        def removeItem(self, k):
            raise RuntimeError("SecurityError")

    assert paint.store(Broken(), "x") is False  # no storage at all: nothing raised


@pytest.mark.parametrize("system,example", [("olog", "skirmish"), ("ose", "detailed"), ("ogre", "orc_and_pc")])
def test_the_drawing_made_aside_is_a_new_visits_first_drawing(app_module, paint, system, example):  # noqa: F811
    module = app_module
    module.window.location.hash = "#" + storage.encode_link(Session(examples(system)[example](3)))
    app = module.App()
    app.boot()
    # A setup change in this tab's history (an example adopted): undo has it here, a reopened save does not.
    app.handle(lambda d: d.session.adopt(Session(examples(system)[example](4))))
    assert app.desk.session.can_undo
    # The referee looks around: another combatant selected, the help open, a notice shown.
    others = [c.id for c in app.desk.session.state.combatants if c.id != app.desk.page.selected]
    app.dispatch("select", others[-1], None)
    app.dispatch("help", "", None)
    app.handle(lambda d: d.notify("Something said", "info"))
    live, written = app.desk.page, {slot: app.desk.slots.written(slot) for slot in COMPARED}
    aside = paint.first_drawing(app.desk).slots()
    # A new visit of the same saved fight: a fresh App, no link, the same session.
    module.window.location.hash = ""
    fresh = module.App()
    fresh.desk.session = storage.loads(storage.dumps(app.desk.session)).session
    fresh.redraw()
    for slot in COMPARED + ("field-slot", "phase-slot", "ruler-slot", "editor-slot"):
        assert aside.get(slot, "") == fresh.desk.slots.written(slot), slot
    # ... and the live page was left as it was.
    assert app.desk.page is live and live.dialog.kind == "help"
    assert {slot: app.desk.slots.written(slot) for slot in COMPARED} == written
    assert aside["dialog-slot"] == "" and aside["notice-slot"] != written["notice-slot"]


def test_a_reopened_session_is_what_its_save_opens_as():
    session = Session(examples("olog")["skirmish"](3))
    session.adopt(Session(examples("olog")["skirmish"](5)))
    again = storage.loads(storage.dumps(session)).session
    reopened = session.reopened()
    assert (reopened.can_undo, reopened.can_redo) == (again.can_undo, again.can_redo) == (False, False)
    assert session.can_undo  # the live session is left as it was
    assert reopened.state == again.state and storage.dumps(reopened) == storage.dumps(session)
