"""The ui's wiring: handlers receive the desk and return; one dispatcher (ui/dispatch.py `App.handle`) refuses
what a read-only tab may not do, autosaves once when the history changed, and redraws once.

The first tests read the ui's import graph (no module imports the App, no cycle, no import hidden inside a
function, one place that draws); the others run the App in CPython against the fake `pyscript` of
test_app_render_cache.py and check what the referee would see: a refused change says why and changes
nothing, a step is saved once, a failing handler leaves the encounter as it was.
"""
from __future__ import annotations

import ast
import importlib
import pathlib

from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples

UI = pathlib.Path(__file__).resolve().parents[2] / "py" / "fray" / "ui"
MAIN = UI.parents[1] / "main.py"


def _modules() -> dict[str, pathlib.Path]:
    """Each ui module by its dotted name under fray.ui ("app", "controllers.play"), packages aside."""
    return {".".join(p.relative_to(UI).with_suffix("").parts): p for p in sorted(UI.rglob("*.py"))
            if p.name != "__init__.py" and "__pycache__" not in p.parts}


def _ui_imports() -> dict[str, list[tuple[str, bool]]]:
    """Each ui module -> the ui modules it imports, each with whether the import is inside a function."""
    modules = _modules()
    out: dict[str, list[tuple[str, bool]]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inner = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                 for n in ast.walk(f)}
        package = name.split(".")[:-1]
        found = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level and node.level <= len(package) + 1:
                base = package[: len(package) - node.level + 1] + (node.module.split(".") if node.module else [])
                for mod in (".".join(base + [a.name]) for a in node.names):
                    target = mod if mod in modules else ".".join(base)
                    if target in modules:
                        found.append((target, id(node) in inner))
        out[name] = found
    return out


def test_no_ui_module_imports_the_app_and_only_main_starts_it():
    graph = _ui_imports()
    assert [m for m, deps in graph.items() if any(d == "app" for d, _ in deps)] == []
    assert "from fray.ui import app" in MAIN.read_text(encoding="utf-8")


def test_the_ui_imports_form_no_cycle_and_none_hides_inside_a_function():
    graph = {m: {d for d, _ in deps} for m, deps in _ui_imports().items()}
    assert [(m, d) for m, deps in _ui_imports().items() for d, inner in deps if inner] == []
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, f"import cycle: {' -> '.join(path + (m,))}"
        if m in done:
            return
        for d in graph.get(m, ()):
            visit(d, path + (m,))
        done.add(m)

    for m in graph:
        visit(m, ())


def test_the_page_is_drawn_from_one_place():
    """Only App.redraw (ui/dispatch.py) calls the drawing; no handler draws, saves or reads feature state off the app."""
    calls = []
    for path in _modules().values():
        text = path.read_text(encoding="utf-8")
        calls += [(path.stem, line.strip()) for line in text.splitlines()
                  if "render.render(" in line or "drawing.draw(" in line or ".redraw(" in line and path.stem not in ("app", "dispatch")]
        assert "getattr(app" not in text and "getattr(desk" not in text, path.stem
        if path.stem not in ("dispatch", "entries"):
            assert "autosave(" not in text, f"{path.stem} saves by itself"
    # ui/page/drawing.py holds the one drawing order; ui/page/paint.py draws it too, but aside, into a Recorder
    # that writes nothing into the page (the painted start).
    assert sorted(calls) == [("dispatch", "drawing.draw(desk, field)"), ("drawing", "render.render(desk, field)"),
                             ("paint", "drawing.draw(aside, True)")]


def _open(module, system: str = "olog", example: str = "skirmish"):
    module.window.location.hash = "#" + storage.encode_link(Session(examples(system)[example](3)))
    app = module.App()
    app.boot()
    return app


def _count_saves(app) -> list[str]:
    saved: list[str] = []
    put = app.desk.store.put

    def counting(rec):
        saved.append(rec["id"])
        put(rec)

    app.desk.store.put = counting
    return saved


def test_a_step_is_saved_once_and_a_selection_or_a_dialog_is_not_saved(app_module):
    app = _open(app_module)
    saved = _count_saves(app)
    offers = importlib.import_module("fray.ui.desk.offers")
    app.dispatch("help", "", None)
    app.dispatch("cancel", "", None)
    other = next(c.id for c in app.desk.session.state.combatants if c.id != app.desk.page.selected)
    app.dispatch("select", other, None)
    assert saved == [], "looking changes no history: nothing is saved"
    plain = next(i for i, o in enumerate(offers.options(app.desk)) if o.allowed and not o.needs and not o.choices)
    app.dispatch("opt", str(plain), None)  # one step, one save
    assert len(app.desk.session.steps) == 1 and saved == [app.desk.entry_id]
    app.dispatch("undo", "", None)
    assert len(app.desk.session.steps) == 0 and len(saved) == 2


def test_a_read_only_tab_refuses_a_change_with_its_reason_and_changes_nothing(app_module):
    app = _open(app_module)
    saved = _count_saves(app)
    offers = importlib.import_module("fray.ui.desk.offers")
    app.desk.read_only = True
    state = app.desk.session.state
    first = next(i for i, o in enumerate(offers.options(app.desk)) if o.allowed)
    app.dispatch("opt", str(first), None)
    assert app.desk.session.state is state and saved == []
    assert "open in another tab" in app.desk.slots.written("notice-slot")
    app.dispatch("help", "", None)  # looking is still allowed
    assert "dialog" in app.desk.slots.written("dialog-slot") or getattr(app.desk.page.dialog, "kind", "") == "help"


def test_a_failing_handler_says_so_and_leaves_the_encounter_as_it_was(app_module):
    app = _open(app_module)
    state = app.desk.session.state

    def broken(desk):
        raise ValueError("a broken handler")

    app.handle(broken, "opt")
    assert app.desk.session.state is state
    notice = app.desk.slots.written("notice-slot")
    assert "Something went wrong" in notice and "a broken handler" in notice and "unchanged" in notice
    app.dispatch("undo", "", None)  # the page still works
    assert app.desk.session.state is state


def test_the_field_is_redrawn_when_what_it_draws_changed_and_spared_when_a_dialog_opens(app_module, monkeypatch):
    """One decision (ui/dispatch.py `App._after`) from the page's fields declared DRAWN_IN_FIELD: Esc dropping a
    previewed path (changed in place in field_ui) redraws the field; opening the help leaves it as it is."""
    app = _open(app_module)
    drawing = importlib.import_module("fray.ui.page.drawing")
    fields: list[bool] = []
    real = drawing.render.render
    monkeypatch.setattr(drawing.render, "render", lambda desk, field=True: (fields.append(field), real(desk, field)))
    app.desk.page.field_ui.path = {"mover": app.desk.page.selected, "points": [(0, 0)]}
    app.dispatch("cancel", "", None)
    assert app.desk.page.field_ui.path is None and fields[-1] is True
    app.dispatch("help", "", None)
    assert getattr(app.desk.page.dialog, "kind", "") == "help" and fields[-1] is False
