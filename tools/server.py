"""A small static file server for the repo root, used by `dev.py serve`, the
e2e tests and the benchmarks. Like GitHub Pages it serves gzip when the browser
accepts it, with correct types for .mjs, .wasm and .toml."""
from __future__ import annotations

import gzip
import http.server
import io
import os
import pathlib
import socket
import threading
import time
from functools import partial

ROOT = pathlib.Path(__file__).resolve().parent.parent

TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".toml": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".py": "text/plain; charset=utf-8",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
}
COMPRESSIBLE = (".js", ".mjs", ".wasm", ".css", ".html", ".json", ".toml", ".py", ".svg", ".webmanifest", ".md")
_gzip_cache: dict[tuple[str, float], bytes] = {}


class _Counting:
    """The response stream, counting every byte written (headers and body)."""

    def __init__(self, raw) -> None:
        self.raw = raw
        self.count = 0

    def write(self, data) -> int:
        self.count += len(data)
        return self.raw.write(data)

    def __getattr__(self, name):
        return getattr(self.raw, name)


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    quiet = True
    before_request = None  # optional hook(path), e.g. repack the app in dev

    def setup(self) -> None:
        super().setup()
        self.wfile = _Counting(self.wfile)

    def handle_one_request(self) -> None:
        # Each response's size on the wire (as sent: gzip when accepted) goes to
        # the server's byte log, which the benchmarks and offline tests read.
        self.wfile.count = 0
        self.path = ""
        super().handle_one_request()
        if self.path:
            self.server.record(self.path, self.wfile.count)

    def do_GET(self) -> None:
        if self.before_request:
            self.before_request(self.path)
        super().do_GET()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)

    def send_head(self):
        path = pathlib.Path(self.translate_path(self.path))
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and path.suffix in COMPRESSIBLE):
            return super().send_head()
        stat = path.stat()
        if self.headers.get("If-Modified-Since") == self.date_time_string(int(stat.st_mtime)):
            self.send_response(304)
            self.end_headers()
            return None
        key = (str(path), stat.st_mtime)
        body = _gzip_cache.get(key)
        if body is None:
            body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
            _gzip_cache[key] = body
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return io.BytesIO(body)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.serve_forever_event = threading.Event()  # set never; serve waits on it
        self.sent: list[tuple[str, int, float]] = []  # (request path, bytes sent, time.time() when done)
        self._sent_lock = threading.Lock()

    def handle_error(self, request, client_address) -> None:
        # A browser that goes away mid-response (a test closing its page while the
        # service worker is still caching) is not an error worth a traceback.
        import sys
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)

    def record(self, path: str, nbytes: int) -> None:
        with self._sent_lock:
            self.sent.append((path, nbytes, time.time()))

    def take_sent(self) -> list[tuple[str, int, float]]:
        """The requests served since the last call, with their sizes on the wire."""
        with self._sent_lock:
            out, self.sent = self.sent, []
        return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(port: int = 0, host: str = "127.0.0.1", root: pathlib.Path = ROOT, quiet: bool = True) -> Server:
    """Serve root in a background thread; returns the server (its port in .server_port)."""
    handler = partial(Handler, directory=str(root))
    Handler.quiet = quiet
    server = Server((host, port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


if __name__ == "__main__":
    srv = start(int(os.environ.get("PORT", "8000")), quiet=False)
    print(f"http://127.0.0.1:{srv.server_port}/")
    srv.serve_forever_event.wait()
