"""Dataclass methods compiled at packing time (py/fray/dccache.py, issue 36), under CPython: a class
whose generated source was recorded uses the recorded code, one that was not compiles as usual, and
both behave as plain dataclasses."""
from __future__ import annotations

import dataclasses
import marshal

import pytest

from fray import dccache


@pytest.fixture
def restore_exec():
    had = "exec" in vars(dataclasses)
    saved = vars(dataclasses).get("exec")
    yield
    if had:
        dataclasses.exec = saved
    else:
        vars(dataclasses).pop("exec", None)


def make(name: str, fields: tuple[str, ...], frozen: bool = True):
    return dataclasses.make_dataclass(name, [(f, int) for f in fields], frozen=frozen)


def test_recorded_code_is_used_once_and_the_class_behaves_the_same(restore_exec):
    recorded = dccache.recorder()
    first = make("Point", ("x", "y"))
    assert len(recorded) >= 1
    data = dccache.pack(recorded)
    assert dccache.install(data) == len(recorded)
    before = len(dccache.missed)
    again = make("Point", ("x", "y"))  # the same source: the recorded code, no compiling
    twin = make("Twin", ("x", "y"))  # another class of the same fields: the same source, the same code
    assert len(dccache.missed) == before
    assert repr(twin(3, 4)) == "Twin(x=3, y=4)" and twin(3, 4) != again(3, 4)
    assert again(1, 2) == again(1, 2) and repr(again(1, 2)) == repr(first(1, 2)) == "Point(x=1, y=2)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        again(1, 2).x = 3


def test_a_class_not_recorded_compiles_as_usual(restore_exec):
    recorded = dccache.recorder()
    make("Point", ("x", "y"))
    dccache.install(dccache.pack(recorded))
    before = len(dccache.missed)
    other = make("Other", ("a", "b", "c"), frozen=False)  # another source: compiled here
    assert len(dccache.missed) > before  # (one source per class, or per method before Python 3.13)
    o = other(1, 2, 3)
    o.a = 5
    assert repr(o) == "Other(a=5, b=2, c=3)"


def test_a_package_without_recorded_code_installs_nothing(tmp_path):
    import fray

    assert dccache.install_from_package(fray) == 0  # plain CPython: py/fray has no dataclass_code.bin


@pytest.mark.parametrize("data", [b"", b"not marshal data", marshal.dumps(((2, 7), {})), marshal.dumps([1, 2])])
def test_a_recording_that_cannot_be_used_is_ignored(restore_exec, data):
    """Corrupt, or made by another Python: nothing installed, every class compiles as usual."""
    before = len(dccache.missed)
    assert dccache.install(data) == 0
    assert repr(make("Plain", ("a",))(1)) == "Plain(a=1)"
    assert len(dccache.missed) == before
