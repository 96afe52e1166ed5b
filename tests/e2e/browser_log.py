"""What Chromium itself printed, kept per test worker, so that a renderer crash's report says why.

Playwright logs a browser's stdout and stderr under the debug name `pw:browser`; with DEBUG_FILE set its
driver writes that log to the file instead of its own stderr. tests/conftest.py turns this on for each
worker (`enable`) before any Playwright starts; the crash handlers (tests/e2e/harness.py,
tests/xbrowser) put the log's last lines in the failure they report (`tail`)."""
from __future__ import annotations

import os
import pathlib
import struct
import tempfile
import time

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


# Where Debian's Chromium keeps a crash's minidump, whatever the profile (crashpad; issue #57 read five there).
DUMPS = pathlib.Path.home() / ".config" / "chromium" / "Crash Reports" / "pending"
SIGNALS = {4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 11: "SIGSEGV"}


def minidump(path: pathlib.Path) -> str:
    """One line from a minidump's exception: the signal, which thread, the instruction's offset in its module,
    the address read and the stack pointer (issue #57: the start-up crashes' stack pointer was outside the
    thread's own stack, in WebAssembly's stack-switching one)."""
    try:
        b = path.read_bytes()
        count, rva = struct.unpack_from("<II", b, 8)
        streams = {t: r for t, _, r in (struct.unpack_from("<III", b, rva + 12 * i) for i in range(count))}
        r = streams[6]  # the exception stream
        tid, code, fault = struct.unpack_from("<I4xI12xQ", b, r)
        ctx = struct.unpack_from("<I", b, r + 164)[0]
        rsp, rip = struct.unpack_from("<Q", b, ctx + 0x98)[0], struct.unpack_from("<Q", b, ctx + 0xF8)[0]
        pid = struct.unpack_from("<I", b, streams[15] + 8)[0] if 15 in streams else None
        where = hex(rip)
        if 4 in streams:
            for k in range(struct.unpack_from("<I", b, streams[4])[0]):
                base, size = struct.unpack_from("<QI", b, streams[4] + 4 + 108 * k)
                if base <= rip < base + size:
                    name = struct.unpack_from("<I", b, streams[4] + 4 + 108 * k + 20)[0]
                    text = b[name + 4: name + 4 + struct.unpack_from("<I", b, name)[0]].decode("utf-16le")
                    where = f"{pathlib.Path(text).name}+{hex(rip - base)}"
        thread = "main thread" if pid == tid else f"thread {tid}"
        return (f"minidump {path.name}: {SIGNALS.get(code, code)} on the renderer's {thread} at {where}, "
                f"reading {hex(fault)}, stack pointer {hex(rsp)}")
    except (OSError, KeyError, struct.error, UnicodeDecodeError) as exc:
        return f"minidump {path.name}: unreadable ({exc})"


def recent_dumps(seconds: float = 120.0) -> list[str]:
    """The minidumps Chromium wrote in the last `seconds`, one line each."""
    try:
        dumps = [p for p in DUMPS.glob("*.dmp") if time.time() - p.stat().st_mtime < seconds]
    except OSError:
        return []
    return [minidump(p) for p in sorted(dumps, key=lambda p: p.stat().st_mtime)]


def record_crash(where: str) -> str:
    """A crash's report (where, and what Chromium printed last), kept for the end of the run too: a crash
    whose rerun passes leaves no failure to read, and CI's output is all a later reader has.
    tests/conftest.py prints what was kept (`kept`) in the run's summary."""
    time.sleep(1.0)  # crashpad writes the dump as the renderer dies
    dumps = "\n".join(recent_dumps())
    report = (f"{where} (worker {os.environ.get('PYTEST_XDIST_WORKER', 'main')}); what Chromium printed last:\n{tail()}"
              + (f"\n{dumps}" if dumps else ""))
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
