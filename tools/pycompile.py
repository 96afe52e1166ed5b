"""Runs inside Pyodide under Node (tools/pycompile.mjs): writes bytecode zips.

stdlib: every .py of Pyodide's stdlib zip becomes a sourceless .pyc, so the page
imports the ~200 start-up modules without compiling them.
app: the fray package with its sources and unchecked-hash .pyc in __pycache__,
so tracebacks keep source lines and no timestamp check can invalidate them.
"""
import importlib.util
import os
import sys
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

STDLIB_PREFIX = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip/"
APP_PREFIX = "/home/pyodide/"  # where pyscript.toml unpacks the archive


def pyc(source: bytes, filename: str) -> bytes:
    code = compile(source, filename, "exec", dont_inherit=True)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def build_stdlib(src: str, out: str) -> None:
    count = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename.endswith(".py"):
                zout.writestr(info.filename[:-3] + ".pyc", pyc(data, STDLIB_PREFIX + info.filename))
                count += 1
            else:
                zout.writestr(info, data)
    print(f"stdlib: {count} modules compiled for Python {sys.version.split()[0]}")


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
