"""Fray: a combat table for tabletop referees (OLOG, OSE house rules, Ogre)."""
import sys as _sys

from fray import dccache as _dccache

__version__ = "0.1.0"

_dccache.install_from_package(_sys.modules[__name__])  # in the browser: dataclass code made at packing
