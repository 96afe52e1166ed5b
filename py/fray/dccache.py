"""Dataclass methods compiled when the app is packed, not as it imports (issue 36).

`@dataclass` writes each class's `__init__`, `__repr__`, `__eq__`... as source
and compiles it as the module imports. Fray has about 150 dataclasses: in the
browser that compiling was 150-400 ms of a first visit's start (a later visit
starts from a snapshot, imports done). When tools/pycompile.py packs the app it
imports every module with Pyodide's own interpreter and records those code
objects in the zip (fray/dataclass_code.bin, keyed by a hash of the source);
`install` then stands in for `exec` in the dataclasses module: the recorded code
when the source matches, compiled as usual when it does not (plain CPython, a
class changed since). Classes with the same fields share one entry.

No `from __future__` import here: `exec` of a source compiles with its caller's
future flags, and the dataclasses module has none.
"""
import builtins
import dataclasses
import hashlib
import marshal
import os
import sys

BIN = "dataclass_code.bin"
_recorded: dict = {}  # what install() put in place
installed = 0  # how many code objects install() put in place (the e2e tests read it)
missed: list[str] = []  # the start of each dataclass source that had no recorded code, compiled here


def key(source: str) -> bytes:
    return hashlib.blake2b(source.encode(), digest_size=12).digest()


def pack(recorded: dict) -> bytes:
    """What tools/pycompile.py writes: the recording, marked with the Python that compiled it."""
    return marshal.dumps((tuple(sys.version_info[:2]), recorded))


def install(data: bytes) -> int:
    """Use the recorded code objects in `data` (from `pack`); how many there are. A recording that
    cannot be read, or was made by another Python, is left unused: every class then compiles."""
    global installed
    try:
        version, recorded = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return 0
    if version != tuple(sys.version_info[:2]) or not isinstance(recorded, dict):
        return 0
    _recorded.clear()
    _recorded.update(recorded)
    installed = len(_recorded)

    def exec_(source, globals=None, locals=None, /):
        if isinstance(source, str):
            code = _recorded.get(key(source))
            if code is None:
                missed.append(source[:300])
            else:
                source = code
        return builtins.exec(source, globals, locals)

    dataclasses.exec = exec_
    return installed



def install_from_package(package) -> int:
    """The recorded code beside the package's modules (in the app zip), if any: how many entries."""
    loader = getattr(package, "__loader__", None)
    try:
        data = loader.get_data(os.path.join(os.path.dirname(package.__file__), BIN))
    except (AttributeError, OSError):
        return 0
    return install(data)


def recorder() -> dict:
    """For tools/pycompile.py: record every dataclass's code as it is made; the dict fills as modules import."""
    recorded: dict = {}

    def exec_(source, globals=None, locals=None, /):
        if isinstance(source, str):
            code = builtins.compile(source, "<string>", "exec", dont_inherit=True)
            recorded[key(source)] = code
            source = code
        return builtins.exec(source, globals, locals)

    dataclasses.exec = exec_
    return recorded
