"""The browser journeys' fixtures and hooks, for pytest. They live in tests/e2e/harness.py, a plain module
the journeys also import their helpers from (`from harness import wait_ready`): under
--import-mode=importlib (pytest.ini) the fixtures and the journeys then share one module and its state
(WIDTHS, the Guard class) instead of two copies."""
from harness import *  # noqa: F401,F403  (fixtures, hooks and helpers: pytest finds them here)
