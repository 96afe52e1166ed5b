"""The app's bytecode as tools/pycompile.py writes it for the page (issue #57: fewer bytes before ready)."""
from __future__ import annotations

import marshal
import pathlib
import sys
import traceback
import types

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import pycompile  # noqa: E402  (tools/pycompile.py; run inside Pyodide by pycompile.mjs)

SOURCE = b'''"""A module's docstring."""
from __future__ import annotations
from dataclasses import dataclass


def only_doc():
    """Nothing but a docstring."""


def fails(x):
    """Documented."""
    return 1 / x


@dataclass(frozen=True)
class Kept:
    """A dataclass keeps its docstring: without one, @dataclass builds it with inspect.signature."""
    a: int


class Plain:
    """Dropped."""

    def method(self):
        """Dropped too."""
        return fails(0)
'''


def load(docstrings: bool) -> dict:
    data = pycompile.pyc(SOURCE, "/home/pyodide/fray.zip/fray/sample.py", docstrings=docstrings)
    module = types.ModuleType("fray_pycompile_sample")
    sys.modules[module.__name__] = module  # @dataclass looks its module up
    try:
        exec(marshal.loads(data[16:]), vars(module))  # a .pyc: 16 bytes of header, then the code
    finally:
        del sys.modules[module.__name__]
    return vars(module)


def test_the_app_bytecode_has_no_docstrings_but_a_dataclasss_own():
    ns = load(docstrings=False)
    assert ns.get("__doc__") is None
    assert ns["only_doc"].__doc__ is None and ns["only_doc"]() is None
    assert ns["fails"].__doc__ is None and ns["Plain"].__doc__ is None and ns["Plain"].method.__doc__ is None
    assert ns["Kept"].__doc__.startswith("A dataclass keeps its docstring")
    assert ns["Kept"](1).a == 1
    kept = load(docstrings=True)
    assert kept["__doc__"] == "A module's docstring." and kept["Plain"].method.__doc__ == "Dropped too."


def test_a_traceback_from_bytecode_without_docstrings_names_the_same_file_and_lines():
    def frames(ns: dict) -> list[tuple[str, int]]:
        try:
            ns["Plain"]().method()
        except ZeroDivisionError as err:
            return [(f.filename, f.lineno) for f in traceback.extract_tb(err.__traceback__)[1:]]
        raise AssertionError("no error")

    stripped = frames(load(docstrings=False))
    assert stripped == frames(load(docstrings=True))
    assert stripped == [("/home/pyodide/fray.zip/fray/sample.py", 26), ("/home/pyodide/fray.zip/fray/sample.py", 12)]
