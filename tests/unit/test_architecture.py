"""Architecture guards (STYLE.md): browser imports only in ui/, randomness only
in engine/dice.py, the pure layers on the standard library, layers importing
downwards, every module shipped to the browser, and the runtime's integrity check."""
from __future__ import annotations

import ast
import hashlib
import base64
import pathlib
import sys
import tomllib
import zipfile

import pytest

import setup  # tools/setup.py (tests/conftest.py puts tools/ on sys.path)

ROOT = pathlib.Path(__file__).resolve().parents[2]
PY = ROOT / "py"
FRAY = PY / "fray"
BROWSER = {"js", "pyodide", "pyscript"}
PURE_LAYERS = ("engine", "rules", "views")


def modules() -> list[pathlib.Path]:
    return sorted(p for p in FRAY.rglob("*.py") if "__pycache__" not in p.parts)


def rel(p: pathlib.Path) -> str:
    return p.relative_to(PY).as_posix()


def package_of(p: pathlib.Path) -> list[str]:
    """The dotted package a module lives in, as parts: ['fray', 'engine']."""
    return list(p.relative_to(PY).parent.parts)


def imported(p: pathlib.Path) -> list[tuple[str, int]]:
    """Absolute names of every module a file imports (import, from-import,
    relative from-import resolved, importlib.import_module/__import__ of a
    constant), with line numbers. Imports inside functions count too."""
    tree = ast.parse(p.read_text(encoding="utf-8"), str(p))
    out: list[tuple[str, int]] = []
    pkg = package_of(p)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg[: len(pkg) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
                out.append((mod, node.lineno))
                if not node.module:  # from . import x: x is a module of the package
                    out += [(f"{mod}.{a.name}", node.lineno) for a in node.names]
            else:
                out.append((node.module or "", node.lineno))
                out += [(f"{node.module}.{a.name}", node.lineno) for a in node.names]
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                out.append((node.args[0].value, node.lineno))
    return out


def top(name: str) -> str:
    return name.split(".")[0]


def test_the_import_scanner_sees_every_form(tmp_path):
    """The guards below are only as good as this scanner."""
    pkg = tmp_path / "fray" / "engine"
    pkg.mkdir(parents=True)
    f = pkg / "x.py"
    f.write_text("import js\nfrom pyscript import when\nimport os.path as p\nfrom . import dice\n"
                 "from ..rules import olog\nfrom ..views.models import Badge\n"
                 "def later():\n    import pyodide.ffi\n    importlib.import_module('random')\n")
    names = {n for n, _ in imported_from(f, tmp_path)}
    assert {"js", "pyscript", "os.path", "fray.engine", "fray.engine.dice", "fray.rules", "fray.views.models",
            "pyodide.ffi", "random"} <= names


def imported_from(p: pathlib.Path, root: pathlib.Path):
    global PY
    saved, PY = PY, root
    try:
        return imported(p)
    finally:
        PY = saved


def test_every_module_is_found():
    names = {rel(p) for p in modules()}
    assert {"fray/engine/dice.py", "fray/engine/session.py", "fray/engine/storage.py", "fray/rules/__init__.py",
            "fray/ui/app.py"} <= names


@pytest.mark.parametrize("path", [p for p in modules() if "ui" not in p.relative_to(FRAY).parts[:1]], ids=rel)
def test_nothing_outside_ui_imports_the_browser(path):
    bad = [(n, line) for n, line in imported(path) if top(n) in BROWSER]
    assert not bad, f"{rel(path)} imports browser modules {bad}; only fray/ui/ may (STYLE.md)"


@pytest.mark.parametrize("path", modules(), ids=rel)
def test_only_the_dice_module_imports_random(path):
    if rel(path) == "fray/engine/dice.py":
        assert any(n == "random" for n, _ in imported(path))
        return
    bad = [(n, line) for n, line in imported(path) if top(n) in ("random", "secrets")]
    assert not bad, f"{rel(path)} imports {bad}: every roll goes through fray.engine.dice (CORE-DICE-3)"


@pytest.mark.parametrize("path", [p for p in modules() if p.relative_to(FRAY).parts[0] in PURE_LAYERS], ids=rel)
def test_pure_layers_use_only_the_standard_library_and_fray(path):
    allowed = set(sys.stdlib_module_names) | {"fray", "__future__"}
    bad = [(n, line) for n, line in imported(path) if top(n) not in allowed]
    assert not bad, f"{rel(path)} imports {bad}: engine, rules and views are standard library only"


def dropped_stdlib() -> frozenset[str]:
    """The standard modules tools/pycompile.py leaves out of the page's stdlib zip."""
    tree = ast.parse((ROOT / "tools" / "pycompile.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "DROPPED" for t in node.targets):
            return frozenset(ast.literal_eval(node.value.args[0]))
    raise AssertionError("tools/pycompile.py has no DROPPED set")


def test_the_stdlib_left_out_of_the_page_keeps_what_fray_and_pyscript_need():
    dropped = dropped_stdlib()
    assert {"multiprocessing", "unittest", "pdb"} <= dropped
    assert not dropped & {"asyncio", "json", "dataclasses", "random", "zlib", "base64", "re", "typing", "inspect",
                          "email", "html", "importlib", "encodings", "argparse"}


@pytest.mark.parametrize("path", modules(), ids=rel)
def test_no_module_imports_a_standard_module_the_page_leaves_out(path):
    bad = [(n, line) for n, line in imported(path) if top(n) in dropped_stdlib()]
    assert not bad, f"{rel(path)} imports {bad}, which tools/pycompile.py leaves out of the page's stdlib"


LAYER_FORBIDS = {
    # The engine knows no system: a Session is handed its ruleset, the loader a lookup.
    "engine": ("fray.rules", "fray.views", "fray.ui", "fray.playout", "fray.presets", "fray.cli"),
    "rules": ("fray.views", "fray.ui"),
    "views": ("fray.ui",),
}


@pytest.mark.parametrize("path", [p for p in modules() if p.relative_to(FRAY).parts[0] in LAYER_FORBIDS], ids=rel)
def test_imports_point_down_the_layers(path):
    layer = path.relative_to(FRAY).parts[0]
    bad = [(n, line) for n, line in imported(path) if n.startswith(LAYER_FORBIDS[layer])]
    assert not bad, f"{rel(path)} ({layer}) imports {bad}: ui -> views -> rules -> engine (DESIGN.md)"


# The ui's floors (docs/ARCHITECTURE.md), top first: a ui module imports its own floor and those below it.
# Folders on one floor stand side by side and import neither each other.
UI_FLOORS = (("",), ("page",), ("controllers",), ("desk",), ("field", "dom"), ("markup",))
UI = FRAY / "ui"


def ui_floor(dotted: str) -> tuple[int, str] | None:
    """(floor, folder) of a name under fray.ui ("fray.ui.desk.offers" -> (3, "desk")); None outside the ui."""
    parts = dotted.split(".")
    if parts[:2] != ["fray", "ui"]:
        return None
    folder = parts[2] if len(parts) > 3 or (len(parts) == 3 and (UI / parts[2]).is_dir()) else ""
    return next((i, folder) for i, floor in enumerate(UI_FLOORS) if folder in floor)


def upward(source: str, name: str) -> bool:
    """Whether ui module `source` importing `name` points up the floors (or across to a folder beside it)."""
    here, there = ui_floor(source), ui_floor(name)
    return there is not None and here != there and (there[0] < here[0] or there[0] == here[0])


def test_the_floor_guard_sees_an_upward_and_a_sideways_import():
    assert upward("fray.ui.controllers.play", "fray.ui.page.render")
    assert upward("fray.ui.markup.panels", "fray.ui.desk")
    assert upward("fray.ui.field.grid", "fray.ui.dom.patch")  # side by side: neither imports the other
    assert upward("fray.ui.desk.offers", "fray.ui.app")
    assert not upward("fray.ui.page.render", "fray.ui.desk.offers")
    assert not upward("fray.ui.desk.desk", "fray.ui.desk.page")  # the desk's page state, not the page/ floor
    assert not upward("fray.ui.app", "fray.ui.controllers.play") and not upward("fray.ui.app", "fray.views.odds")


def test_every_ui_folder_is_a_floor():
    folders = sorted(p.name for p in UI.iterdir() if p.is_dir() and p.name != "__pycache__")
    placed = {f for floor in UI_FLOORS for f in floor if f}
    assert set(folders) == placed, f"ui/ folders {sorted(set(folders) ^ placed)}: place each on a floor (UI_FLOORS)"


@pytest.mark.parametrize("path", [p for p in modules() if p.relative_to(FRAY).parts[0] == "ui"], ids=rel)
def test_ui_imports_point_down_the_floors(path):
    source = ".".join(path.relative_to(PY).with_suffix("").parts)  # a package's own: "fray.ui.page.__init__"
    bad = [(n, line) for n, line in imported(path) if upward(source, n)]
    assert not bad, f"{rel(path)} imports {bad}: ui/ -> page/ -> controllers/ -> desk/ -> field/, dom/ -> markup/"


def test_the_architecture_map_shows_the_ui_floors_the_guard_checks():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "| `" in line]
    for i, floor in enumerate(UI_FLOORS):
        for folder in floor:
            cell = f"| {i + 1} | `{folder}/` |" if folder else f"| {i + 1} | `ui/` |"
            assert any(line.startswith(cell) for line in rows), f"docs/ARCHITECTURE.md has no row {cell}"


def test_the_engine_modules_import_each_other_without_a_circle():
    """One concept per module, dependencies one way: no engine module reaches back to one that imports it."""
    engine = {rel(p): p for p in modules() if p.relative_to(FRAY).parts[0] == "engine"}
    name_of = {f"fray.engine.{pathlib.Path(r).stem}": r for r in engine}
    deps = {r: {name_of[n] for n, _ in imported(p) if n in name_of and name_of[n] != r} for r, p in engine.items()}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(d == goal or (d not in seen and not seen.add(d) and reaches(d, goal, seen)) for d in deps[start])

    circles = sorted(r for r in deps if reaches(r, r, set()))
    assert not circles, f"engine modules in an import circle: {circles}"


@pytest.mark.parametrize("path", modules(), ids=rel)
def test_every_module_opens_with_a_docstring_and_stays_small(path):
    text = path.read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(text))
    assert doc and doc.splitlines()[0].strip(), f"{rel(path)}: the first line of the docstring says what it holds"
    lines = text.count("\n")
    assert lines <= 1500, f"{rel(path)} has {lines} lines: split it (a 4,000-line module is STYLE.md's anti-pattern)"


# --- shipping to the browser --------------------------------------------------------------

def test_the_app_archive_is_imported_from_the_zip_not_unpacked():
    """The loader puts static/build/fray.zip on sys.path as one file (issue 36: unpacking its 250 files
    through PyScript's [files] cost 170-400 ms of every start)."""
    config = tomllib.loads((ROOT / "pyscript.toml").read_text())
    assert "files" not in config
    loader = (ROOT / "tools" / "fray-pyodide.template.mjs").read_text()
    assert 'APP_URL = site + "static/build/fray.zip"' in loader and "sys.path.insert(0" in loader
    assert setup.APP_ZIP == ROOT / "static" / "build" / "fray.zip"
    assert setup.APP_SRC == FRAY


def test_the_app_archive_is_built_from_every_module():
    listed = {rel(p) for p in setup.app_sources()}
    assert listed == {rel(p) for p in modules()}
    assert all("__pycache__" not in p.parts for p in setup.app_sources())


def test_a_fresh_app_archive_holds_every_module_as_bytecode_only():
    if not setup.APP_ZIP.exists() or not setup.app_zip_is_fresh():
        pytest.skip("static/build/fray.zip is missing or stale: run python3 tools/setup.py --app-only")
    with zipfile.ZipFile(setup.APP_ZIP) as z, zipfile.ZipFile(setup.LATER_ZIP) as later:
        names = set(z.namelist()) | set(later.namelist())  # issue #57: some only after ready
    for p in modules():
        r = pathlib.PurePosixPath(rel(p))
        # Where its source would be, where zipimport looks for it (it never reads __pycache__) ...
        assert str(r.with_suffix(".pyc")) in names, f"{r} has no precompiled .pyc in fray.zip or fray-later.zip"
        # ... and no source: a third of the zip on the wire, before a first visit is ready (issue 36).
        assert str(r) not in names, f"{r} ships its source in fray.zip"


def test_freshness_follows_the_sources(tmp_path, monkeypatch):
    """A zip stamped with the current fingerprint is fresh; touching a source makes it stale."""
    src = tmp_path / "py" / "fray"
    src.mkdir(parents=True)
    (src / "__init__.py").write_text('"""x."""\n')
    monkeypatch.setattr(setup, "APP_SRC", src)
    monkeypatch.setattr(setup, "APP_ZIP", tmp_path / "fray.zip")
    assert not setup.app_zip_is_fresh()
    (tmp_path / "fray-later.zip").write_bytes(b"")  # the modules fetched after ready (issue #57)
    with zipfile.ZipFile(setup.APP_ZIP, "w") as z:
        z.writestr("fray/__init__.py", '"""x."""\n')
        z.comment = setup.app_fingerprint().encode()
    assert setup.app_zip_is_fresh()
    (src / "new.py").write_text('"""y."""\n')
    assert not setup.app_zip_is_fresh()


# --- the runtime's integrity check ----------------------------------------------------------

def test_integrity_check_rejects_a_tampered_tarball():
    good = b"the pinned release"
    pin = {"name": "pyodide", "version": "0.0.0",
           "integrity": "sha512-" + base64.b64encode(hashlib.sha512(b"other bytes").digest()).decode()}
    with pytest.raises(setup.SetupError) as err:
        setup.verify_tarball(good, pin, "pyodide-0.0.0.tgz")
    assert "integrity check failed for pyodide-0.0.0.tgz" in str(err.value)
    assert "nothing was installed" in str(err.value)


def test_integrity_check_accepts_the_pinned_tarball():
    data = b"the pinned release"
    pin = {"name": "pyodide", "version": "0.0.0", "integrity": setup.sri_sha512(data)}
    assert setup.verify_tarball(data, pin, "pyodide-0.0.0.tgz") is None
    assert pin["integrity"] == "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def test_every_pin_has_a_sha512_integrity():
    for pin in setup.load_pins():
        assert pin["integrity"].startswith("sha512-") and len(base64.b64decode(pin["integrity"][7:])) == 64


# --- docs stay honest -------------------------------------------------------------------------

def python_blocks(markdown: str) -> list[str]:
    """The ```python fenced blocks of a Markdown text, in order."""
    import re
    return re.findall(r"^```python\n(.*?)^```", markdown, re.M | re.S)


def test_python_blocks_are_found():
    assert python_blocks("x\n```python\na = 1\n```\n```text\nno\n```\n```python\nb = 2\n```\n") == ["a = 1\n", "b = 2\n"]


def test_api_doc_example_runs(capsys):
    """Every ```python block of docs/API.md runs, in order, in one namespace."""
    pytest.importorskip("fray.rules.olog")
    blocks = python_blocks((ROOT / "docs" / "API.md").read_text(encoding="utf-8"))
    assert len(blocks) >= 5
    namespace: dict = {"__name__": "api_doc"}
    for i, block in enumerate(blocks):
        code = compile(block, f"docs/API.md[python block {i + 1}]", "exec")
        exec(code, namespace)
    assert "step 2  Brak presses on" in capsys.readouterr().out


SYSTEMS = ("olog", "ose", "ogre")
# The modules every system's package holds (docs/ARCHITECTURE.md); a system may add its own beside them.
CORE_MODULES = ("__init__", "check", "commands", "examples", "options", "reasons", "resolve", "ruleset", "state")
# The public names those modules define in every system, functions with the same parameters (docs/RULESETS.md).
SHARED_NAMES = {
    "__init__": ("RULESET", "INFO", "Reason"),
    "check": ("check",),
    "options": ("options", "referee_options"),
    "reasons": ("Reason",),
    "resolve": ("resolves", "settle"),
    "state": ("SETTINGS", "STATS", "Phase"),
    "examples": ("examples",),
}


def test_rules_hold_one_package_per_system_with_the_same_modules():
    """One shape for every system (ARCHITECTURE.md): rules/<system>/ with the same core modules."""
    rules = FRAY / "rules"
    flat = sorted(p.name for p in rules.glob("*.py") if p.name != "__init__.py")
    assert flat == [], f"rules/ holds flat modules {flat}: each belongs in its system's package"
    from fray.rules import SYSTEMS as REGISTERED
    assert set(REGISTERED) == set(SYSTEMS)
    for system in SYSTEMS:
        pkg = rules / system
        assert (pkg / "__init__.py").exists(), f"rules/{system}/ is not a package"
        have = {p.stem for p in pkg.glob("*.py")}
        assert set(CORE_MODULES) <= have, f"rules/{system}/ lacks {sorted(set(CORE_MODULES) - have)}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_system_defines_the_same_public_names_with_the_same_parameters(system):
    import importlib
    import inspect
    first = {}
    for module, names in SHARED_NAMES.items():
        for s in (SYSTEMS[0], system):
            m = importlib.import_module(f"fray.rules.{s}" + ("" if module == "__init__" else f".{module}"))
            for name in names:
                assert hasattr(m, name), f"fray.rules.{s}.{module} has no {name} (docs/RULESETS.md)"
                value = getattr(m, name)
                if inspect.isfunction(value):
                    params = tuple(inspect.signature(value).parameters)
                    first.setdefault((module, name), params)
                    assert params == first[(module, name)], \
                        f"fray.rules.{s}.{module}.{name}{params}: the other systems take {first[(module, name)]}"
    pkg = importlib.import_module(f"fray.rules.{system}")
    assert pkg.Reason is importlib.import_module(f"fray.rules.{system}.reasons").Reason


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_ruleset_declares_tables_and_hooks_and_keeps_the_template(system):
    """check and resolve are the base Ruleset's (the template); a system declares its tables and hooks."""
    import importlib
    from fray.engine.ruleset import Ruleset
    from fray.engine.tables import Handlers
    rs = importlib.import_module(f"fray.rules.{system}").RULESET
    state = importlib.import_module(f"fray.rules.{system}.state")
    for hook in ("check", "resolve"):
        assert getattr(type(rs), hook) is getattr(Ruleset, hook), f"{system} overrides Ruleset.{hook}"
    assert rs.setting_specs is state.SETTINGS and rs.stat_specs is state.STATS
    assert isinstance(rs.resolves, Handlers) and callable(rs.checks)
    assert type(rs).settle is not Ruleset.settle, f"{system} declares no settle hook"


# --- typed reasons and public surfaces ----------------------------------------------------

TYPED_REASONS = sorted([*(FRAY / "rules").glob("*/*.py"), FRAY / "engine" / "ruleset.py",
                        FRAY / "engine" / "referee.py", FRAY / "engine" / "geometry.py"])


def untyped_refusals(path: pathlib.Path) -> list[int]:
    """Lines where `Illegal(...)` is given a bare string (or nothing) for its reason, not an enum member."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Illegal":
            reason = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "reason"), None)
            if not isinstance(reason, ast.Attribute):
                out.append(node.lineno)
    return out


def test_the_typed_reason_scanner_sees_a_bare_string(tmp_path):
    f = tmp_path / "x.py"
    f.write_text('Illegal("TOO_FAR", "x")\nIllegal(Reason.OUT_OF_RANGE, "x")\nIllegal(reason="NO", detail="x")\n')
    assert untyped_refusals(f) == [1, 3]


@pytest.mark.parametrize("path", TYPED_REASONS, ids=rel)
def test_every_refusal_takes_a_reason_enum_member(path):
    """Issue #12: reasons are enum members (the core's `Reason`, a system's own), so synonyms cannot creep back."""
    assert not untyped_refusals(path), f"{rel(path)}: Illegal() with a bare code at lines {untyped_refusals(path)}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_system_reasons_do_not_repeat_the_core_codes(system):
    import importlib
    from fray.engine.commands import Reason as Core
    Reason = importlib.import_module(f"fray.rules.{system}").Reason
    assert not {r.value for r in Reason} & {r.value for r in Core}, "a shared code belongs to the core Reason only"


@pytest.mark.parametrize("system,path", [(s, p) for s in SYSTEMS for p in modules()
                                         if p.relative_to(FRAY).parts[:2] != ("rules", s)],
                         ids=lambda v: v if isinstance(v, str) else rel(v))
def test_only_a_system_package_reaches_past_its_public_surface(system, path):
    """Views, ui and tools import `fray.rules.<system>` (the names in its __all__), never its modules
    (its `examples` excepted: the registry's example encounters, loaded by name)."""
    import importlib
    public = set(importlib.import_module(f"fray.rules.{system}").__all__)
    prefix = f"fray.rules.{system}."
    bad = [(n, line) for n, line in imported(path)
           if n.startswith(prefix) and n != prefix + "examples" and n.split(".")[3] not in public]
    assert not bad, f"{rel(path)} imports {system} internals {bad}: use `from fray.rules.{system} import ...`"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_public_surface_is_deliberate(system):
    import importlib
    pkg = importlib.import_module(f"fray.rules.{system}")
    assert {"RULESET", "INFO", "Reason", "Phase", "RollInitiative"} <= set(pkg.__all__)
    assert all(hasattr(pkg, name) for name in pkg.__all__)


# --- a system named only by its folder and its descriptor (issue #51) --------------------------------------

def dotted(p: pathlib.Path) -> str:
    return ".".join(p.relative_to(PY).with_suffix("").parts)


def imported_names(p: pathlib.Path) -> set[str]:
    """`imported`, with the names a relative from-import takes from a package ("from ..rules import ogre")."""
    out = {n for n, _ in imported(p)}
    pkg = package_of(p)
    for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level and node.module:
            base = ".".join(pkg[: len(pkg) - node.level + 1] + [node.module])
            out |= {f"{base}.{a.name}" for a in node.names}
    return out


def system_modules() -> dict[str, set[str]]:
    """Each system's own modules outside rules/: those its descriptor alone names (its view, its field
    views; the grid, which two name, is generic), and the modules only those import (views/ose_recap.py)."""
    from fray.rules import SYSTEMS as REGISTERED
    named = {s: {i.view, *dict(i.view_modules).values()} - {""} for s, i in REGISTERED.items()}
    imports = {dotted(p): imported_names(p) for p in modules()}
    out = {}
    for s in named:
        own = {m for m in named[s] if not any(m in named[o] for o in named if o != s)}
        out[s] = own | {m for m in imports if m not in own and any(m in imports[o] for o in own)
                        and all(i in own for i, names in imports.items() if m in names)}
    return out


def test_a_system_is_named_only_by_its_folder_its_descriptor_and_the_modules_it_names():
    """Outside rules/, a system's package is imported only by the view and field modules its descriptor
    names (and their own helpers), and no generic module imports those: it finds them through the descriptor
    (docs/ARCHITECTURE.md, "Where a system is named")."""
    mods = system_modules()
    assert mods["olog"] == {"fray.views.olog", "fray.ui.field.bands"}
    assert "fray.views.ose_recap" in mods["ose"] and "fray.ui.field.grid" not in mods["ose"]
    bad = []
    for path in modules():
        name = dotted(path)
        for s, own in mods.items():
            if name in own or name.startswith(f"fray.rules.{s}."):
                continue
            bad += [(name, n) for n in imported_names(path)
                    if n == f"fray.rules.{s}" or n.startswith(f"fray.rules.{s}.") or n in own]
    assert not bad, f"generic modules import a system by name: {bad}"


@pytest.mark.parametrize("path", modules(), ids=rel)
def test_every_module_stays_under_600_lines_and_classes_under_300(path):
    """Issue #12's limits, for every module in py/fray."""
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") <= 600, f"{rel(path)} has {text.count(chr(10))} lines"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            size = node.end_lineno - node.lineno + 1
            assert size <= 300, f"{rel(path)}: class {node.name} has {size} lines"


ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"


def test_the_architecture_map_names_every_module_and_only_real_ones():
    """docs/ARCHITECTURE.md is the map of the code as it is: every module under
    py/fray is in it, and every py/fray path it names exists."""
    import re
    text = ARCHITECTURE.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:engine|rules|views|ui)/[a-z_/]+\.py|[a-z_]+\.py)`", text))
    missing = [rel(p) for p in modules() if p.name != "__init__.py"
               and str(p.relative_to(FRAY)) not in named and p.name not in named]
    assert not missing, f"docs/ARCHITECTURE.md does not place {missing}"
    ghosts = [n for n in named if "/" in n and not (FRAY / n).exists()]
    assert not ghosts, f"docs/ARCHITECTURE.md names modules that do not exist: {ghosts}"


@pytest.mark.parametrize("layer,forbidden", sorted(LAYER_FORBIDS.items()))
def test_the_architecture_map_states_the_layer_rules_the_guard_checks(layer, forbidden):
    text = ARCHITECTURE.read_text(encoding="utf-8")
    line = next((l for l in text.splitlines() if l.startswith(f"| `{layer}/`")), "")
    assert line, f"docs/ARCHITECTURE.md has no row for {layer}/"
    for name in forbidden:
        assert f"`{name.removeprefix('fray.')}`" in line, f"the {layer}/ row does not say it never imports {name}"
