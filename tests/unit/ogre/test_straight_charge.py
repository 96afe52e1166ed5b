"""Ogre's straight-charge line (OGRE-CHARGE-1): rules/ogre/grid.py straight_charge_ok."""
from __future__ import annotations

import pytest

from fray.rules.ogre.grid import straight_charge_ok


@pytest.mark.parametrize("path, ok", [
    ([(0, 0), (1, 0), (2, 0)], True),                          # 10 ft east
    ([(0, 0), (1, 1), (2, 2), (3, 3)], True),                  # diagonal
    ([(0, 0), (1, 0), (2, 1), (3, 1), (4, 1)], True),          # the line to (4, 1)
    ([(0, 0), (1, 0), (2, 1), (3, 2)], False),                 # line to (3, 2) goes (1, 1), (2, 1)
    ([(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)], False),         # a bend
    ([(0, 0), (1, 0)], False),                                 # only 5 ft
    ([(0, 0), (2, 0), (3, 0)], False),                         # not a chain of steps
])
def test_straight_charge__OGRE_CHARGE_1(path, ok):
    assert straight_charge_ok(path) is ok
