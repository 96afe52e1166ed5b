"""`python -m fray`: the command line (check, replay, show); see fray/cli.py."""
import os
import sys

from .cli import main

try:
    status = main()
    sys.stdout.flush()
except BrokenPipeError:  # `python -m fray replay x.json | head`: the reader left early
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    status = 0
sys.exit(status)
