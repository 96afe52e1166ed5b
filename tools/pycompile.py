"""Runs inside Pyodide under Node (tools/pycompile.mjs): writes bytecode zips.

stdlib: the modules the page imports as it starts (STARTUP) become sourceless
.pyc without docstrings (but Pyodide's own), so the page does not compile them; they alone are in the zip loaded before
Python starts. The rest go to a second zip, fetched only if one is ever imported,
each as whichever is smaller (mostly source, about half the size of bytecode on
the wire, compiled only if ever imported).
app: the fray package as unchecked-hash .pyc, no sources (the page imports
straight from the zip, as zipimport reads them; no timestamp check can
invalidate them; tracebacks name file and line), without docstrings but the
decorated classes' (without_docstrings).
The zips stay deflated: the wire's gzip (tools/server.py, GitHub Pages) leaves
.zip files as they are, so a stored zip would go out 3x larger (issue #57).
Bytecode is compiled without column tables (PYTHONNODEBUGRANGES, set by
pycompile.mjs): a quarter smaller; tracebacks keep file and line, lose the ^^^ marks.
"""
import ast
import importlib.util
import json
import os
import sys
import zipfile
import zlib
from importlib._bootstrap_external import _code_to_hash_pyc

STDLIB_PREFIX = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip/"

# The standard modules the page imports while it starts (sys.modules after boot,
# the same for every system, Pyodide's and PyScript's own imports included), and
# those Fray's modules import later (hashlib; difflib, on the first list patched by splices; fractions
# and numbers, for the odds worked out in idle time after start; pkgutil, for the snapshot worker's walk): these ship precompiled, the rest as
# source. tests/e2e/test_startup.py fails if the page starts by compiling one from
# source, naming it: add it here (or import it lazily).
STARTUP = frozenset({
    "__future__", "_colorize", "_opcode_metadata", "_py_warnings", "_pyodide", "_pyodide._base",
    "_pyodide._core_docs", "_pyodide._future_helper", "_pyodide._importhook", "_pyodide.docs_argspec",
    "_pyodide.docstring", "_pyodide.jsbind", "_ssl", "_weakrefset", "annotationlib", "ast", "asyncio",
    "asyncio.base_events", "asyncio.base_futures", "asyncio.base_subprocess", "asyncio.base_tasks",
    "asyncio.constants", "asyncio.coroutines", "asyncio.events", "asyncio.exceptions", "asyncio.format_helpers",
    "asyncio.futures", "asyncio.graph", "asyncio.locks", "asyncio.log", "asyncio.mixins", "asyncio.protocols",
    "asyncio.queues", "asyncio.runners", "asyncio.selector_events", "asyncio.sslproto", "asyncio.staggered",
    "asyncio.streams", "asyncio.subprocess", "asyncio.taskgroups", "asyncio.tasks", "asyncio.threads",
    "asyncio.timeouts", "asyncio.transports", "asyncio.trsock", "asyncio.unix_events", "base64", "bisect",
    "bz2", "codeop", "collections", "compression", "compression._common", "compression._common._streams",
    "compression.zstd", "compression.zstd._zstdfile", "concurrent", "concurrent.futures",
    "concurrent.futures._base", "contextlib", "contextvars", "copy", "copyreg", "dataclasses", "difflib", "dis",
    "encodings", "encodings.aliases", "encodings.cp437", "encodings.utf_8", "enum", "fnmatch", "fractions", "functools",
    "glob", "hashlib", "heapq", "html", "html.entities", "importlib", "importlib._abc", "importlib.abc",
    "inspect", "json", "json.decoder", "json.encoder", "json.scanner", "keyword", "linecache", "locale",
    "logging", "lzma", "numbers", "opcode", "operator", "pathlib", "pathlib._os", "pyodide", "pyodide._package_loader",
    "pyodide._state", "pyodide.code", "pyodide.common", "pyodide.ffi", "pyodide.webloop", "pkgutil", "random", "re",
    "re._casefix", "re._compiler", "re._constants", "re._parser", "reprlib", "selectors", "shutil", "signal",
    "socket", "ssl", "string", "struct", "subprocess", "tempfile", "textwrap", "threading", "token", "tokenize",
    "traceback", "types", "typing", "warnings", "weakref", "zipfile", "zipfile._path", "zipfile._path.glob"
})
# Standard modules that cannot work or are never used in a browser page: left out
# of the zip (about 0.45 MB on the wire). A module of Fray importing one fails
# tests/unit/test_architecture.py; an e2e run boots and plays every system.
DROPPED = frozenset({
    "multiprocessing", "_pyrepl", "unittest", "doctest", "pdb", "pydoc", "pydoc_data", "xmlrpc", "wsgiref",
    "imaplib", "poplib", "smtplib", "ftplib", "nntplib", "mailbox", "pickletools", "tabnanny", "webbrowser",
    "antigravity", "this", "__hello__", "__phello__", "turtle", "zipapp", "cProfile", "profile", "pstats",
    "trace", "idlelib", "lib2to3", "ensurepip", "venv", "tkinter", "turtledemo",
})
# Where the page puts the second standard library zip (py/fray/ui/ondemand.py, tools/fray-pyodide.template.mjs).
REST_PREFIX = f"/lib/python{sys.version_info.major}{sys.version_info.minor}-rest.zip/"
APP_PREFIX = "/home/pyodide/fray.zip/"  # where the page imports the app from (tools/fray-pyodide.template.mjs)
# The app modules a first visit does not import before it is ready (sys.modules at ready on the welcome,
# issue #57: 0.33 MB of the 1.05): the systems other than the one a first visit opens on, their views,
# the phones', the command line's. They go to a second zip, fetched in idle time after ready on a first
# visit, at start on a later one (from the offline cache), and at once if one is imported before
# (py/fray/ui/ondemand.py). tests/e2e/test_startup.py fails if the welcome imports one before ready.
LATER_PACKAGES = ("fray.rules.ose", "fray.rules.ogre")  # all but the package itself and its system.py
LATER_MODULES = frozenset({
    "fray.views.ose", "fray.views.ose_recap", "fray.views.ogre", "fray.views.phone_protocol", "fray.views.phone_view",
    "fray.ui.field.grid", "fray.ui.field.ruler", "fray.ui.field.declarations", "fray.ui.field.before_fight",
    "fray.rules.olog.examples", "fray.rules.olog.creatures", "fray.cli", "fray.pairing", "fray.playout",
    "fray.__main__", "pyscript.web", "pyscript.fs", "pyscript.media",
})
LATER_PREFIX = "/home/pyodide/fray-later.zip/"  # where the page puts the second zip (py/fray/ui/ondemand.py)
LATER_LIST = "fray/later.json"  # in the first zip: the second zip's modules


def pyc(source: bytes, filename: str, docstrings: bool = True) -> bytes:
    tree = source if docstrings else without_docstrings(ast.parse(source, filename))
    code = compile(tree, filename, "exec", dont_inherit=True)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def without_docstrings(tree: ast.Module) -> ast.Module:
    """The docstrings of modules and functions out of `tree` (issue #57: 0.13 MB of fray.zip on the wire),
    and those of undecorated classes: a dataclass with no docstring (@dataclass, @command...) has one
    made at import with inspect.signature, slower. Nothing of Fray reads `__doc__`; every other node
    keeps its line, so tracebacks still name file and line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.decorator_list:
            continue
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and is_docstring(node.body[0]):
            doc = node.body.pop(0)
            if not node.body:
                node.body.append(ast.copy_location(ast.Pass(), doc))
    return tree


def copied(info: zipfile.ZipInfo) -> zipfile.ZipInfo:
    """A fresh entry for a file of Pyodide's zip: its own flags and sizes describe the original's data (a
    copied folder entry kept them, which zipimport read as a bad local header once the offsets moved)."""
    out = zipfile.ZipInfo(info.filename, info.date_time)
    out.external_attr = info.external_attr
    out.compress_type = zipfile.ZIP_DEFLATED
    return out


def stripped(module: str, at_start: bool) -> bool:
    """Whether a standard module's bytecode goes without docstrings: those imported at start (issue #57:
    1.130 -> 0.949 MB on the wire), but Pyodide's own packages, which read theirs (`_pyodide.docstring`
    documents the JS proxies' methods with them). The rest zip's stay as they are (help() is there)."""
    return at_start and module.split(".")[0] not in ("_pyodide", "pyodide")


def build_stdlib(src: str, out: str, rest: str) -> None:
    """Two zips: `out`, what the page imports as it starts (STARTUP, and every data file), loaded
    before Python starts; `rest`, every other module, fetched only when one is first imported
    (py/fray/ui/ondemand.py; issue 36: 1.2 MB less on the wire before a first visit is ready)."""
    count = kept = dropped = later = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout, \
            zipfile.ZipFile(rest, "w", zipfile.ZIP_DEFLATED) as zrest:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename.split("/")[0].removesuffix(".py") in DROPPED:
                dropped += 1
                continue
            if not info.filename.endswith(".py"):
                zout.writestr(copied(info), data)
                if info.is_dir():
                    zrest.writestr(copied(info), data)  # a package split between the zips is a folder in both
                continue
            module = info.filename.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            target = zout if module in STARTUP else zrest
            later += target is zrest
            prefix = STDLIB_PREFIX if target is zout else REST_PREFIX
            code = pyc(data, prefix + info.filename, docstrings=not stripped(module, target is zout))
            # Start-up modules always precompiled; the others whichever is smaller on the wire
            # (bytecode wins for data-heavy modules such as the codec tables).
            if module in STARTUP or len(zlib.compress(code)) < len(zlib.compress(data)):
                target.writestr(info.filename[:-3] + ".pyc", code)
                count += 1
            else:
                target.writestr(copied(info), data)
                kept += 1
    print(f"stdlib: {count} modules compiled for Python {sys.version.split()[0]} (all {len(STARTUP)} imported at "
          f"start), {kept} kept as source, {later} in the zip loaded on first use, "
          f"{dropped} files of browser-useless modules left out")


def later(module: str) -> bool:
    """Whether a module of the app goes to the zip fetched after ready (LATER)."""
    if module.endswith(".system") or module in LATER_PACKAGES:
        return False  # the registry reads every system's descriptor at start (fray/rules/__init__.py)
    return module in LATER_MODULES or module.startswith(tuple(p + "." for p in LATER_PACKAGES))


def build_app(root: str, out: str) -> None:
    """The app as the page imports it, from the zip itself (zipimport, as the standard library): each
    module's bytecode where its source would be (zipimport reads a sourceless `.pyc` there, never
    `__pycache__`). No sources (issue 36: they were 0.43 MB of the 1.25 MB on the wire); tracebacks
    keep each frame's file and line, to be read in py/. The modules a first visit does not import
    before ready (`later`) go to a second zip, `out` + ".later" (setup names it), listed in the
    first as LATER_LIST (py/fray/ui/ondemand.py)."""
    sources = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, "fray")):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                with open(os.path.join(root, rel), "rb") as f:
                    sources.append((rel, f.read(), False))
    # PyScript's own package, which its core writes as source at every start and would compile:
    # found here first on sys.path, imported as bytecode (issue 36).
    extra = json.loads(EXTRA_JSON)  # noqa: F821 (set by pycompile.mjs)
    sources += [(rel, text.encode("utf-8"), True) for rel, text in sorted(extra.items()) if rel.endswith(".py")]
    first, second = {}, {}
    for rel, data, docstrings in sources:
        module = rel[:-3].removesuffix("/__init__").replace("/", ".")
        zip_for, prefix = (second, LATER_PREFIX) if later(module) else (first, APP_PREFIX)
        zip_for[rel[:-3] + ".pyc"] = (module, pyc(data, prefix + rel, docstrings=docstrings))
    # The dataclasses' code is recorded from every module at once (one zip, as the snapshot worker has both).
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, (_, code) in {**first, **second}.items():
            zout.writestr(name, code)
    recorded, packed = record_dataclasses(out)
    for path, entries in ((out, first), (out + ".later", second)):
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
            for name, (_, code) in entries.items():
                zout.writestr(name, code)
            if entries is first:
                zout.writestr("fray/dataclass_code.bin", packed)  # py/fray/dccache.py BIN
                zout.writestr(LATER_LIST, json.dumps(sorted(m for m, _ in second.values())))
    print(f"app: {len(sources) - len(extra)} modules compiled, and {len(extra)} of PyScript's; "
          f"{len(second)} in the zip fetched after ready; {len(recorded)} dataclasses' methods recorded")


def record_dataclasses(zip_path: str) -> tuple[dict, bytes]:
    """Import every module of the packed app, as the snapshot worker does (the page modules against
    stand-ins, py/fray/ui/preimport.py), recording the code each @dataclass compiles (py/fray/dccache.py)."""
    sys.path.insert(0, zip_path)
    from fray import dccache
    recorded = dccache.recorder()
    from fray.ui import preimport
    preimport.import_everything()
    return recorded, dccache.pack(recorded)


if __name__ == "__main__":  # run by pycompile.mjs (imported by the unit tests)
    if MODE == "stdlib":  # noqa: F821 (set by pycompile.mjs)
        build_stdlib(SRC, OUT, REST)  # noqa: F821
    else:
        build_app(SRC, OUT)  # noqa: F821
