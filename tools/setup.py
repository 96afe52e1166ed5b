"""Fetch, verify and prepare everything the page loads that is not committed.

Steps (each skipped when its output is already present and valid):
1. `npm pack` each pinned package of tools/vendor.json from the npm registry,
   refuse it unless its sha512 matches the pinned integrity, and unpack only the
   listed files into static/vendor/<dest>/.
2. Precompile Pyodide's standard library to .pyc with Pyodide's own interpreter
   run under Node (the wasm's Python version decides the bytecode), writing
   static/vendor/pyodide/python_stdlib.pyc.zip: CPython then skips compiling
   ~200 modules from source at every start. Only the modules the page imports
   as it starts go there; the others go to python_stdlib-rest.zip, which the
   page fetches if one is ever imported (py/fray/ui/ondemand.py).
3. Write static/vendor/pyodide/fray-pyodide.mjs (from tools/fray-pyodide.template.mjs),
   the `interpreter` module named in pyscript.toml: it loads the vendored
   pyodide.mjs with that stdlib and an inline lock file, so start-up fetches
   neither python_stdlib.zip nor the lock, and on repeat visits restores the
   memory snapshot made on this device (see the template).
4. Pack py/fray (unchecked-hash .pyc from the same interpreter, no sources)
   into static/build/fray.zip, which the page imports from as it is (zipimport),
   and the modules a first visit imports only after ready into fray-later.zip.
5. Write static/build/sw-assets.js (tools/offline.py): the files the service
   worker (sw.js) caches for offline use, and a version hashed from their bytes.

Run: python3 tools/setup.py [--force] [--app-only]
Only the standard library is used, so this runs before any virtualenv exists.
"""
from __future__ import annotations

import argparse
import base64
import fnmatch
import hashlib
import io
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

import offline  # tools/offline.py: the service worker's file list and version

ROOT = pathlib.Path(__file__).resolve().parent.parent
PINS = ROOT / "tools" / "vendor.json"
VENDOR = ROOT / "static" / "vendor"
BUILD = ROOT / "static" / "build"
APP_SRC = ROOT / "py" / "fray"
APP_ZIP = BUILD / "fray.zip"
LATER_ZIP = BUILD / "fray-later.zip"  # the app modules a first visit imports after ready (tools/pycompile.py LATER)
STAMP = VENDOR / "vendor-stamp.json"
CACHE = pathlib.Path(os.environ.get("FRAY_CACHE", pathlib.Path.home() / ".cache" / "fray"))
COMPILER = ROOT / "tools" / "pycompile.mjs"
LOADER_TEMPLATE = ROOT / "tools" / "fray-pyodide.template.mjs"
STDLIB_REST = "python_stdlib-rest.zip"  # the standard modules the page does not import as it starts


class SetupError(Exception):
    """A setup step that cannot go on; the message says why and what to do."""


def log(msg: str) -> None:
    print(f"[setup] {msg}", flush=True)


# --- integrity -------------------------------------------------------------

def sri_sha512(data: bytes) -> str:
    """The npm/SRI form of a sha512 digest: 'sha512-<base64>'."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def verify_tarball(data: bytes, pin: dict, label: str) -> None:
    """Refuse a tarball whose sha512 is not the pinned one."""
    got = sri_sha512(data)
    if got != pin["integrity"]:
        raise SetupError(
            f"integrity check failed for {label}: expected {pin['integrity']}, got {got}. "
            "The download is corrupt or not the pinned release; nothing was installed. "
            "Delete the cached tarball (" + str(CACHE) + ") and run setup again."
        )


def load_pins() -> list[dict]:
    return json.loads(PINS.read_text())["packages"]


def tarball_name(pin: dict) -> str:
    return pin["name"].lstrip("@").replace("/", "-") + "-" + pin["version"] + ".tgz"


def fetch_tarball(pin: dict) -> bytes:
    """The pinned tarball, from the local cache or `npm pack`, verified."""
    CACHE.mkdir(parents=True, exist_ok=True)
    cached = CACHE / tarball_name(pin)
    if cached.exists():
        data = cached.read_bytes()
        if sri_sha512(data) == pin["integrity"]:
            return data
        log(f"cached {cached.name} does not match its pin; fetching again")
        cached.unlink()
    npm = shutil.which("npm")
    if not npm:
        raise SetupError("npm is needed to fetch the pinned runtime (apt-get install npm)")
    with tempfile.TemporaryDirectory() as tmp:
        spec = f"{pin['name']}@{pin['version']}"
        log(f"npm pack {spec}")
        proc = subprocess.run([npm, "pack", spec, "--pack-destination", tmp, "--silent"],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise SetupError(f"npm pack {spec} failed:\n{proc.stderr.strip()}")
        files = list(pathlib.Path(tmp).glob("*.tgz"))
        if len(files) != 1:
            raise SetupError(f"npm pack {spec} produced {len(files)} tarballs")
        data = files[0].read_bytes()
    verify_tarball(data, pin, tarball_name(pin))
    cached.write_bytes(data)
    return data


def extract(data: bytes, pin: dict, dest: pathlib.Path) -> list[str]:
    """Unpack the pinned files (globs allowed) of a verified tarball into dest."""
    unmatched = set(pin["files"])
    out: list[str] = []
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            if not member.isfile() or member.name.endswith(".map"):
                continue
            hits = {p for p in pin["files"] if fnmatch.fnmatchcase(member.name, p)}
            if not hits:
                continue
            unmatched -= hits
            name = member.name.rsplit("/", 1)[-1]
            fileobj = tar.extractfile(member)
            assert fileobj is not None
            (dest / name).write_bytes(fileobj.read())
            out.append(name)
    if unmatched:
        raise SetupError(f"{pin['name']}@{pin['version']} has no file matching {sorted(unmatched)}")
    return sorted(out)


# --- stamp: what is installed, to do nothing when it is already right -------

def file_digest(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def setup_fingerprint() -> str:
    """Changes when the pins or the preparation code change."""
    h = hashlib.sha256()
    for p in (PINS, pathlib.Path(__file__), COMPILER, COMPILER.with_suffix(".py"), LOADER_TEMPLATE):
        h.update(p.read_bytes())
    return h.hexdigest()


def vendor_is_valid() -> bool:
    if not STAMP.exists():
        return False
    try:
        stamp = json.loads(STAMP.read_text())
    except ValueError:
        return False
    if stamp.get("fingerprint") != setup_fingerprint():
        return False
    for rel, digest in stamp.get("files", {}).items():
        p = VENDOR / rel
        if not p.exists() or file_digest(p) != digest:
            return False
    return True


def write_stamp(vendor: pathlib.Path = VENDOR) -> None:
    stamp = vendor / STAMP.name
    files = {str(p.relative_to(vendor)): file_digest(p)
             for p in sorted(vendor.rglob("*")) if p.is_file() and p != stamp}
    stamp.write_text(json.dumps({"fingerprint": setup_fingerprint(), "files": files}, indent=1))


# --- node: Pyodide's own interpreter compiles bytecode ----------------------

def run_compiler(*args: str, vendor: pathlib.Path = VENDOR) -> None:
    node = shutil.which("node")
    if not node:
        raise SetupError("node is needed to precompile Python for Pyodide (apt-get install nodejs)")
    proc = subprocess.run([node, str(COMPILER), str(vendor / "pyodide"), *args],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SetupError("precompiling with Pyodide failed:\n" + proc.stdout + proc.stderr)
    for line in proc.stdout.splitlines():
        log(line)


def startup_modules() -> list[str]:
    """tools/pycompile.py's STARTUP: the standard modules the page imports at start."""
    import ast

    tree = ast.parse(COMPILER.with_suffix(".py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "STARTUP" for t in node.targets):
            return sorted(ast.literal_eval(node.value.args[0]))
    raise SetupError("tools/pycompile.py has no STARTUP set")


def rest_modules(vendor: pathlib.Path = VENDOR) -> list[str]:
    """The standard modules in the zip loaded on first use (tools/pycompile.py build_stdlib)."""
    with zipfile.ZipFile(vendor / "pyodide" / STDLIB_REST) as z:
        return sorted({n.rsplit(".", 1)[0].removesuffix("/__init__").replace("/", ".")
                       for n in z.namelist() if n.endswith((".py", ".pyc"))})


def write_loader(vendor: pathlib.Path = VENDOR) -> None:
    lock = json.loads((vendor / "pyodide" / "pyodide-lock.json").read_text())
    # Fray loads no packages: an empty package list keeps the lock tiny.
    small = json.dumps({"info": lock["info"], "packages": {}})
    (vendor / "pyodide" / "fray-pyodide.mjs").write_text(
        LOADER_TEMPLATE.read_text().replace("__LOCK__", json.dumps(small))
        .replace("__STARTUP__", json.dumps(startup_modules()))
        .replace("__ON_DEMAND__", json.dumps(rest_modules(vendor))))


def setup_vendor(force: bool = False) -> None:
    if not force and vendor_is_valid():
        log("runtime in static/vendor/ is present and valid; nothing to do")
        return
    # Prepared beside static/vendor/ and swapped in at the end, so a server
    # already serving the old runtime (another test run) never sees half of one.
    staging = VENDOR.with_name(f"vendor.new-{os.getpid()}")
    if staging.exists():
        shutil.rmtree(staging)
    try:
        for pin in load_pins():
            data = fetch_tarball(pin)
            names = extract(data, pin, staging / pin["dest"])
            log(f"{pin['name']}@{pin['version']}: verified, {len(names)} files")
        run_compiler("stdlib", str(staging / "pyodide" / "python_stdlib.zip"),
                     str(staging / "pyodide" / "python_stdlib.pyc.zip"), vendor=staging)
        # The page loads the precompiled zip and the inline lock, not these.
        (staging / "pyodide" / "python_stdlib.zip").unlink()
        write_loader(staging)
        write_stamp(staging)
        old = VENDOR.with_name(f"vendor.old-{os.getpid()}")
        if VENDOR.exists():
            VENDOR.rename(old)
        staging.rename(VENDOR)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    offline.write_sw_assets()
    log("runtime ready in static/vendor/")


# --- the app archive ---------------------------------------------------------

def app_sources() -> list[pathlib.Path]:
    return sorted(p for p in APP_SRC.rglob("*.py") if "__pycache__" not in p.parts)


def app_fingerprint() -> str:
    h = hashlib.sha256(setup_fingerprint().encode())
    for p in app_sources():
        h.update(str(p.relative_to(APP_SRC.parent)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def app_zip_is_fresh() -> bool:
    if not APP_ZIP.exists() or not APP_ZIP.with_name(LATER_ZIP.name).exists():
        return False
    try:
        with zipfile.ZipFile(APP_ZIP) as z:
            return z.comment.decode() == app_fingerprint()
    except (zipfile.BadZipFile, UnicodeDecodeError):
        return False


def pyscript_sources(vendor: pathlib.Path = VENDOR) -> dict[str, str]:
    """PyScript's own Python package as its core writes it to the file system at every start
    ({"pyscript/__init__.py": source, ...}), read from the vendored core-*.js: the app zip carries
    it precompiled, first on sys.path, so no start compiles it (issue 36: 30-60 ms of each start)."""
    marker = '{pyscript:{"__init__.py"'
    for core in sorted((vendor / "pyscript").glob("core-*.js")):
        text = core.read_text(encoding="utf-8")
        start = text.find(marker)
        if start < 0:
            continue
        depth, in_str, esc = 0, False, False
        for end in range(start, len(text)):
            c = text[end]
            if in_str:
                esc, in_str = (False, in_str) if esc else (c == "\\", c != '"')
                continue
            if c == '"':
                in_str = True
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    break
        tree = json.loads('{"pyscript"' + text[start + len("{pyscript"):end + 1])
        out: dict[str, str] = {}

        def walk(node: dict, prefix: str) -> None:
            for name, value in node.items():
                if isinstance(value, str):
                    out[prefix + name] = value
                else:
                    walk(value, prefix + name + "/")

        walk(tree, "")
        return out
    raise SetupError("PyScript's Python package was not found in static/vendor/pyscript/core-*.js (a new pin?)")


def build_app(force: bool = False) -> pathlib.Path:
    """Pack py/fray into static/build/fray.zip as .pyc, one where each source would be."""
    if not force and app_zip_is_fresh():
        offline.write_sw_assets()
        return APP_ZIP
    BUILD.mkdir(parents=True, exist_ok=True)
    tmp = APP_ZIP.with_name(f"fray.zip.{os.getpid()}.tmp")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as extra:
        json.dump(pyscript_sources(), extra)
    try:
        run_compiler("app", str(APP_SRC.parent), str(tmp), extra.name)
    finally:
        os.unlink(extra.name)
    with zipfile.ZipFile(tmp, "a") as z:
        z.comment = app_fingerprint().encode()
    later = APP_ZIP.with_name(LATER_ZIP.name)
    pathlib.Path(f"{tmp}.later").replace(later)
    tmp.replace(APP_ZIP)
    log(f"app packed: {APP_ZIP.relative_to(ROOT)} ({APP_ZIP.stat().st_size // 1024} KB), "
        f"{later.name} after ready ({later.stat().st_size // 1024} KB)")
    offline.write_sw_assets()
    return APP_ZIP


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--force", action="store_true", help="fetch and rebuild even when valid")
    ap.add_argument("--app-only", action="store_true", help="only repack py/fray")
    args = ap.parse_args(argv)
    try:
        if not args.app_only:
            setup_vendor(force=args.force)
        build_app(force=args.force)
    except SetupError as exc:
        print(f"[setup] ERROR: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
