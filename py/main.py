"""Entry point that PyScript runs: start the Fray page."""
import js

js.performance.mark("fray-stage:main.py")  # PyScript's own bootstrap ends here (tests/bench/boot_trace.py)
from fray.ui import app  # noqa: E402  (after the mark: the import is Fray's part of the start)

app.start()
