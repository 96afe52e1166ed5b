"""Fray's two commands for a newcomer, plus the benchmarks.

    python3 tools/dev.py serve [--port 8000]   set up, then serve the app locally
    python3 tools/dev.py test [pytest args]    set up, then run every test
    python3 tools/dev.py bench [page bench args]   engine and page benchmarks (--rounds, --clicks, --only ...)
    python3 tools/dev.py shots                 screenshots of every view into docs/screenshots/

Everything is installed on first use: the pinned runtime into static/vendor/
(tools/setup.py) and the test packages into .venv/. Needs Python 3.11+, npm and
Node, and for tests Chromium (Debian's `chromium`, or $CHROMIUM).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import urllib.request
import venv

ROOT = pathlib.Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
REQS = ROOT / "tests" / "requirements.txt"
sys.path.insert(0, str(ROOT / "tools"))

import setup  # noqa: E402  (tools/setup.py, standard library only)


def venv_python() -> pathlib.Path:
    return VENV / "bin" / "python"


def ensure_venv() -> pathlib.Path:
    """A virtualenv with the pinned test packages; reinstalled when they change."""
    py = venv_python()
    if not py.exists():
        print("[dev] creating .venv", flush=True)
        try:
            venv.EnvBuilder(with_pip=True).create(VENV)
        except (subprocess.CalledProcessError, OSError):
            # Debian's python3 without python3-venv has no ensurepip: bootstrap
            # pip from its wheel on PyPI instead.
            shutil.rmtree(VENV, ignore_errors=True)
            venv.EnvBuilder(with_pip=False).create(VENV)
            bootstrap_pip(py)
    marker = VENV / ".fray-requirements"
    want = hashlib.sha256(REQS.read_bytes()).hexdigest()
    if not marker.exists() or marker.read_text() != want:
        print("[dev] installing test packages into .venv", flush=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "-r", str(REQS)], check=True)
        marker.write_text(want)
    return py


def bootstrap_pip(py: pathlib.Path) -> None:
    with urllib.request.urlopen("https://pypi.org/pypi/pip/json", timeout=60) as r:
        info = json.load(r)
    wheel = next(u for u in info["urls"] if u["filename"].endswith(".whl"))
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / wheel["filename"]
        with urllib.request.urlopen(wheel["url"], timeout=120) as r:
            data = r.read()
        if hashlib.sha256(data).hexdigest() != wheel["digests"]["sha256"]:
            sys.exit("[dev] pip wheel from PyPI failed its sha256 check")
        path.write_bytes(data)
        subprocess.run([str(py), str(path / "pip"), "install", "-q", str(path)], check=True)


def prepare() -> None:
    try:
        setup.setup_vendor()
        setup.build_app()
    except setup.SetupError as exc:
        sys.exit(f"[setup] ERROR: {exc}")


def cmd_serve(args: argparse.Namespace) -> int:
    prepare()
    import server

    def rebuild(path: str) -> None:
        # Edits under py/fray/ show up on reload: repack when the zip is asked for.
        if path.startswith("/static/build/fray.zip"):
            try:
                setup.build_app()
            except setup.SetupError as exc:
                print(f"[setup] ERROR: {exc}", file=sys.stderr)
        # The service worker checks its file list on each visit: any edited file
        # (HTML, CSS, Python) gives a new version, so the next reload gets it.
        if path.startswith(("/static/build/sw-assets.js", "/static/build/build-id.js")):
            try:
                setup.build_app()
            except setup.SetupError as exc:
                print(f"[setup] ERROR: {exc}", file=sys.stderr)

    server.Handler.before_request = staticmethod(rebuild)
    srv = server.start(args.port, host=args.host, quiet=not args.verbose)
    host = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    print(f"Fray is served at http://{host}:{srv.server_port}/  (Ctrl+C to stop)", flush=True)
    try:
        srv.serve_forever_event.wait()
    except KeyboardInterrupt:
        pass
    return 0


def find_chromium() -> str | None:
    for cand in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                 shutil.which("chromium-browser"), shutil.which("google-chrome")):
        if cand and pathlib.Path(cand).exists():
            return cand
    return None


def cmd_test(args: argparse.Namespace, extra: list[str]) -> int:
    py = ensure_venv()
    prepare()
    env = dict(os.environ)
    chromium = find_chromium()
    if chromium:
        env["CHROMIUM"] = chromium
    # Options alone (-x, -k ...) still run the whole suite; a path narrows it.
    has_path = any(not a.startswith("-") and (ROOT / a.split("::")[0]).exists() for a in extra)
    # tests/xbrowser: the cross-engine journeys, once each in Chromium, Firefox and WebKit.
    targets = [] if has_path else ["tests/unit", "tests/e2e", "tests/xbrowser"]
    # The whole suite runs in parallel test workers (pytest-xdist), one per core by default
    # ($FRAY_WORKERS to change it, 0 for none); a browser engine's journeys stay on one worker
    # (xdist groups). It prints its 15 slowest tests at the end.
    workers = os.environ.get("FRAY_WORKERS", str(max(2, os.cpu_count() or 2)))
    wants_workers = not has_path and workers != "0" and not any(a == "-n" or a.startswith("-n") for a in extra)
    parallel = ["-n", workers, "--dist", "loadgroup", "--durations=15"] if wants_workers else []
    cmd = [str(py), "-m", "pytest", *targets, *parallel, *extra]
    print("[dev] " + " ".join(cmd[1:]), flush=True)
    return subprocess.run(cmd, cwd=ROOT, env=env).returncode


def cmd_shots(args: argparse.Namespace, extra: list[str]) -> int:
    """Screenshots of every view at the four widths (the layout test's states), into docs/screenshots/."""
    out = ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    os.environ["FRAY_SHOTS"] = str(out)
    cmd_test(args, ["tests/e2e/test_layout.py", "-q", *extra])
    return 0 if any(out.glob("*.png")) else 1


def cmd_bench(args: argparse.Namespace, extra: list[str]) -> int:
    py = ensure_venv()
    prepare()
    env = dict(os.environ)
    chromium = find_chromium()
    if chromium:
        env["CHROMIUM"] = chromium
    out = ROOT / "bench-results"
    out.mkdir(exist_ok=True)
    # The arguments README.md shows (--rounds, --clicks, --only ...) are the page bench's; the engine
    # benchmarks (pytest-benchmark) run first unless --only leaves out "pytest".
    only = next((a.split("=", 1)[1] for a in extra if a.startswith("--only=")), None)
    if only is None and "--only" in extra[:-1]:
        only = extra[extra.index("--only") + 1]
    parts = set(only.split(",")) if only else None
    code = 0
    if parts is None or "pytest" in parts:
        code = subprocess.run([str(py), "-m", "pytest", "tests/bench", "-q", "--benchmark-only",
                               f"--benchmark-json={out / 'engine.json'}"], cwd=ROOT, env=env).returncode
    if parts is not None:
        parts.discard("pytest")
        if not parts:
            return code
        extra = [a for a in extra if not a.startswith("--only=")]
        if "--only" in extra:
            i = extra.index("--only")
            extra[i + 1] = ",".join(sorted(parts))
    page = ROOT / "tests" / "bench" / "page_bench.py"
    if page.exists():
        code |= subprocess.run([str(py), str(page), "--out", str(out / "page.json"), *extra],
                               cwd=ROOT, env=env).returncode
    return code


def main() -> int:
    ap = argparse.ArgumentParser(description="Fray: serve the app or run its tests")
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve", help="set up and serve the app locally")
    s.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--verbose", action="store_true")
    sub.add_parser("test", help="set up and run all tests (extra args go to pytest)")
    sub.add_parser("bench", help="run the engine and page benchmarks (extra args go to tests/bench/page_bench.py: "
                                 "--rounds N --clicks N --only startup,engines,clicks,engine,pytest)")
    sub.add_parser("shots", help="screenshots of every view at 390/768/1280/1920 px into docs/screenshots/")
    args, extra = ap.parse_known_args()
    if args.cmd == "serve":
        return cmd_serve(args)
    if args.cmd == "test":
        return cmd_test(args, extra)
    if args.cmd == "shots":
        return cmd_shots(args, extra)
    return cmd_bench(args, extra)


if __name__ == "__main__":
    sys.exit(main())
