"""Runs inside Pyodide under Node (tools/pycompile.mjs): writes bytecode zips.

stdlib: the modules the page imports as it starts (STARTUP) become sourceless
.pyc, so the page does not compile them; the rest stays source, which is about
half the size of bytecode on the wire and is compiled only if ever imported.
app: the fray package with its sources and unchecked-hash .pyc in __pycache__,
so tracebacks keep source lines and no timestamp check can invalidate them.
Bytecode is compiled without column tables (PYTHONNODEBUGRANGES, set by
pycompile.mjs): a quarter smaller; tracebacks keep file and line, lose the ^^^ marks.
"""
import importlib.util
import os
import sys
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

STDLIB_PREFIX = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip/"

# Top-level standard modules and packages that the page imports while it starts
# (sys.modules after boot, the same for every system: Pyodide's and PyScript's own
# imports included) or that Fray's modules import: these ship precompiled.
# tests/e2e/test_startup.py fails if the page starts by compiling one from source.
STARTUP = frozenset({
    "__future__", "_colorize", "_opcode_metadata", "_py_warnings", "_pyodide", "_ssl", "_weakrefset",
    "annotationlib", "ast", "asyncio", "base64", "bisect", "bz2", "codeop", "collections", "compression",
    "concurrent", "contextlib", "contextvars", "copy", "copyreg", "dataclasses", "dis", "encodings", "enum",
    "fnmatch", "functools", "glob", "hashlib", "heapq", "html", "importlib", "inspect", "json", "keyword",
    "linecache", "locale", "logging", "lzma", "opcode", "operator", "pathlib", "pyodide", "random", "re",
    "reprlib", "selectors", "shutil", "signal", "socket", "ssl", "string", "struct", "subprocess", "tempfile",
    "textwrap", "threading", "token", "tokenize", "traceback", "types", "typing", "warnings", "weakref",
    "zipfile",
})
APP_PREFIX = "/home/pyodide/"  # where pyscript.toml unpacks the archive


def pyc(source: bytes, filename: str) -> bytes:
    code = compile(source, filename, "exec", dont_inherit=True)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def build_stdlib(src: str, out: str) -> None:
    count = kept = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            top = info.filename.split("/")[0].removesuffix(".py")
            if info.filename.endswith(".py") and top in STARTUP:
                zout.writestr(info.filename[:-3] + ".pyc", pyc(data, STDLIB_PREFIX + info.filename))
                count += 1
            else:
                kept += info.filename.endswith(".py")
                zout.writestr(info, data)
    print(f"stdlib: {count} start-up modules compiled for Python {sys.version.split()[0]}, {kept} kept as source")


def build_app(root: str, out: str) -> None:
    tag = sys.implementation.cache_tag
    count = 0
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, "fray")):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if not name.endswith(".py"):
                    continue
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root)
                with open(full, "rb") as f:
                    data = f.read()
                zout.writestr(rel, data)
                cached = os.path.join(os.path.dirname(rel), "__pycache__", f"{name[:-3]}.{tag}.pyc")
                zout.writestr(cached, pyc(data, APP_PREFIX + rel))
                count += 1
    print(f"app: {count} modules compiled")


if MODE == "stdlib":  # noqa: F821 (set by pycompile.mjs)
    build_stdlib(SRC, OUT)  # noqa: F821
else:
    build_app(SRC, OUT)  # noqa: F821
