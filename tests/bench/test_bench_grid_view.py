"""Benchmarks of the tactical grid view: the GridModel and the SVG string for 40 creatures on a 40x40 map."""
from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

pytest.importorskip("pytest_benchmark")

from fray.engine.model import MapSpec  # noqa: E402
from fray.engine.session import Session  # noqa: E402
from fray.rules import get  # noqa: E402
from fray.rules.ose.examples import large  # noqa: E402
from fray.ui.field.field_ui import FieldUi  # noqa: E402
from fray.ui.field.field_views import FieldContext  # noqa: E402
from fray.ui.field.grid import GridView  # noqa: E402
from fray.ui.field.grid import forget as forget_all  # noqa: E402
from fray.views.panels import system_view  # noqa: E402
from fray.views.grid import forget, grid_model  # noqa: E402
from fray.views.grid_path import PreviewRequest  # noqa: E402

OSE = get("ose")


def forty() -> Session:
    """OSE's forty-creature battle on a 40x40 map with two wall segments, after initiative (the Party moves)."""
    enc = large()
    walls = frozenset({(14, y) for y in range(4, 30)} | {(x, 33) for x in range(2, 20)})
    enc = replace(enc, map=MapSpec(40, 40, walls))
    assert len(enc.combatants) == 40
    s = Session(enc, OSE)
    nxt = next(o for o in OSE.options(s.state, s.current()[0]) if o.key == "next")
    s.act(nxt.command)
    return s


def context(s: Session, selected: str, ui: FieldUi) -> FieldContext:
    state = s.state
    return FieldContext(state, OSE, system_view("ose").panel(state), selected, s.current(),
                        options=OSE.options(state, selected), ui=ui)


def test_bench_grid_model_40_on_40_cold(benchmark):
    """The model with nothing remembered (a new state after a command): tokens, threat, the mover's options."""
    s = forty()
    sel = s.current()[0]
    m = benchmark.pedantic(grid_model, args=(s.state, OSE), setup=forget, rounds=400, warmup_rounds=5,
                           kwargs={"selected": sel, "current": s.current(), "hover": (20, 20)})
    assert len(m.tokens) == 40 and m.threatened


def test_bench_grid_render_40_on_40_cold(benchmark):
    """The first draw after a command: model, board and walls, every token, no cache to help."""
    s = forty()
    sel = s.current()[0]
    view = GridView()
    ctx = context(s, sel, FieldUi(hover=(20, 20), path={"mover": sel, "points": [(12, 12)]}))
    out = benchmark.pedantic(view.render, args=(ctx,), setup=forget_all, rounds=400, warmup_rounds=5)
    assert out.count('data-token=') == 40


def test_bench_grid_render_40_on_40_selection_and_hover(benchmark):
    """A redraw after a click that changes no preview: model + one SVG string (board and tokens cached)."""
    s = forty()
    sel = s.current()[0]
    view = GridView()
    ui = FieldUi(hover=(20, 20))
    ctx = context(s, sel, ui)
    out = benchmark(view.render, ctx)
    assert out.count('data-token=') == 40 and out.count("<rect") < 300


def test_bench_grid_render_40_on_40_new_path_preview_each_time(benchmark):
    """A tap on a new square: the shortest path, its provocations, the engine's check, and the SVG."""
    s = forty()
    sel = s.current()[0]
    start = s.state.get(sel).square
    view = GridView()
    dests = itertools.cycle([(start[0] + dx, start[1] + dy) for dx, dy in
                             ((8, 0), (6, 3), (8, 4), (5, 6), (7, 2), (4, 5), (8, 1), (6, 6))])
    ui = FieldUi()
    ctx = context(s, sel, ui)

    def tap_and_draw():
        ui.path = {"mover": sel, "points": [next(dests)]}
        return view.render(ctx)

    out = benchmark(tap_and_draw)
    assert 'data-testid="grid-path"' in out


def test_bench_grid_hover_patch(benchmark):
    """A hover over a new square: the model and the two overlay strings, no page redraw."""
    s = forty()
    sel = s.current()[0]
    view = GridView()
    squares = itertools.cycle([(x, 20) for x in range(40)])
    ui = FieldUi(path={"mover": sel, "points": [(12, 12)]})
    ctx = context(s, sel, ui)
    view.render(ctx)

    class Sink:
        innerHTML = outerHTML = ""

    class Root:
        def querySelector(self, sel):
            return Sink()

    root = Root()

    def hover():
        ui.hover = next(squares)
        view.refresh(ctx, root, under_too=False)

    benchmark(hover)
    assert grid_model(s.state, OSE, selected=sel, preview=PreviewRequest(sel, ((12, 12),))).path is not None
