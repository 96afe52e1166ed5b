"""The page modules in the start-up snapshot (py/fray/ui/preimport.py, issue 36).

Each case runs in a fresh interpreter, as the worker that makes the snapshot does: there is no
`pyscript` there, and the page modules must still import, then find the page's real objects once
the page has them."""
from __future__ import annotations

import pathlib
import subprocess
import sys
import textwrap

PY = pathlib.Path(__file__).resolve().parents[2] / "py"


def run(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          cwd=PY, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_the_page_modules_import_where_there_is_no_page_and_then_use_the_pages_objects():
    out = run("""
        import sys, types
        from fray.ui import preimport
        done = preimport.import_page_modules()
        # The worker's stand-ins are gone from sys.modules: the page imports its real pyscript.
        print("app" in " ".join(done), "render" in " ".join(done), "pyscript" in sys.modules)
        from fray.ui import app
        from fray.ui.page import render
        print(type(app.window).__name__, type(render.document).__name__ if hasattr(render, "document") else "-")
        # The page: its own pyscript, then start-up settles the stand-ins.
        page = types.ModuleType("pyscript"); ffi = types.ModuleType("pyscript.ffi")
        page.window, page.document, page.__path__, page.ffi = object(), object(), [], ffi
        ffi.create_proxy = ffi.to_js = ffi.is_none = lambda *a, **k: "real"
        sys.modules.update({"pyscript": page, "pyscript.ffi": ffi})
        n = preimport.settle()
        left = [(m, k) for m, mod in list(sys.modules.items()) if m.startswith("fray.ui")
                for k, v in vars(mod).items() if type(v) is preimport.StandIn]
        print(n > 20, app.window is page.window, app.is_none(None), left, preimport.settle())
    """)
    lines = out.splitlines()
    assert lines[0] == "True True False"
    assert lines[1].startswith("StandIn")
    assert lines[2] == "True True real [] 0"


def test_a_stand_in_kept_out_of_sight_forwards_to_the_real_object_and_refuses_before_it():
    out = run("""
        import sys, types
        from fray.ui import preimport
        win = preimport.StandIn("pyscript.window")
        try:
            win.document
        except RuntimeError as e:
            print("refused:", e)
        page = types.ModuleType("pyscript"); ffi = types.ModuleType("pyscript.ffi")
        page.window = types.SimpleNamespace(title="Fray"); page.document, page.__path__, page.ffi = object(), [], ffi
        ffi.create_proxy = ffi.to_js = ffi.is_none = len
        sys.modules.update({"pyscript": page, "pyscript.ffi": ffi})
        preimport.settle()
        print(win.title, preimport.StandIn("pyscript.ffi.is_none")([1, 2]))
    """)
    assert out.splitlines() == ["refused: pyscript.window is used before the page is there", "Fray 2"]


def test_everything_the_snapshot_holds_imports_where_there_is_no_page():
    """The snapshot worker's imports, and tools/pycompile.py's recording of the dataclasses' code: the page
    modules against stand-ins, then every other module of Fray (the three systems among them)."""
    out = run("""
        import sys
        from fray.ui import preimport
        preimport.import_everything()
        names = set(sys.modules)
        print(all(n in names for n in ("fray.ui.app", "fray.rules.olog.commands", "fray.rules.ose.combat",
                                        "fray.rules.ogre.segment", "fray.views.grid", "fray.engine.odds")),
              "fray.cli" in names, "pyscript" in names)
    """)
    assert out == "True False False"
