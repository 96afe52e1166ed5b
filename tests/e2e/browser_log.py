"""What Chromium itself printed, kept per test worker, so that a renderer crash's report says why.

Playwright logs a browser's stdout and stderr under the debug name `pw:browser`; with DEBUG_FILE set its
driver writes that log to the file instead of its own stderr. tests/conftest.py turns this on for each
worker (`enable`) before any Playwright starts; the crash handlers (tests/e2e/harness.py,
tests/xbrowser) put the log's last lines in the failure they report (`tail`)."""
from __future__ import annotations

import os
import pathlib
import tempfile

_FILE: pathlib.Path | None = None


def enable() -> None:
    """Send this process's Playwright browser log to a file of its own (one per pytest-xdist worker)."""
    global _FILE
    if "DEBUG_FILE" in os.environ and os.environ.get("FRAY_BROWSER_LOG") != "1":
        return  # somebody asked for their own log: leave it (a worker inherits ours, and makes its own)
    os.environ["FRAY_BROWSER_LOG"] = "1"
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _FILE = pathlib.Path(tempfile.gettempdir()) / f"fray-browser-{os.getpid()}-{worker}.log"
    debug = os.environ.get("DEBUG", "")
    os.environ["DEBUG"] = ",".join(p for p in (debug, "pw:browser") if p)
    os.environ["DEBUG_FILE"] = str(_FILE)


def tail(lines: int = 25) -> str:
    """The browser log's last lines that the browser wrote (its stderr and stdout), or why there are none."""
    if _FILE is None:
        return "(no browser log: DEBUG_FILE was set outside the tests)"
    try:
        text = _FILE.read_text(errors="replace")
    except OSError as exc:
        return f"(no browser log: {exc})"
    said = [ln for ln in text.splitlines() if ("[err]" in ln or "[out]" in ln) and "dbus" not in ln]
    return "\n".join(said[-lines:]) or "(the browser printed nothing)"


def record_crash(where: str) -> str:
    """A crash's report (where, and what Chromium printed last), kept for the end of the run too: a crash
    whose rerun passes leaves no failure to read, and CI's output is all a later reader has.
    tests/conftest.py prints what was kept (`kept`) in the run's summary."""
    report = f"{where} (worker {os.environ.get('PYTEST_XDIST_WORKER', 'main')}); what Chromium printed last:\n{tail()}"
    folder = os.environ.get("FRAY_CRASH_DIR")
    if folder:
        try:
            fd, _ = tempfile.mkstemp(prefix="crash-", suffix=".txt", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(report + "\n")
        except OSError:
            pass
    return report


def kept() -> list[str]:
    """The crash reports this run kept, oldest first."""
    folder = os.environ.get("FRAY_CRASH_DIR")
    if not folder or not os.path.isdir(folder):
        return []
    files = sorted(pathlib.Path(folder).glob("crash-*.txt"), key=lambda p: p.stat().st_mtime)
    return [p.read_text(errors="replace") for p in files]
