"""The Ogre examples: the promised sizes, and the text's own orc and PC (OGRE-EX-1)."""
from __future__ import annotations

import pytest

from fray.engine.session import Session
from fray.rules.ogre import RULESET
from fray.rules.ogre.examples import examples


@pytest.mark.parametrize("name,count", [("orc_and_pc", 2), ("three_vs_three", 6), ("twelve", 12), ("large", 40)])
def test_examples_have_the_promised_size_and_start_in_setup(name, count):
    enc = examples()[name](3)
    assert len(enc.combatants) == count and enc.system == "ogre" and enc.seed == 3
    s = Session(enc, RULESET)
    assert s.state.board.phase == "setup"
    squares = [c.square for c in enc.combatants]
    assert len(set(squares)) == count and all(sq not in enc.map.walls for sq in squares)


def test_the_orc_and_pc_example_matches_the_text__OGRE_EX_1():
    """The orc has reaction time 10, the PC DEX +2 and so reaction time 8 (OGRE-INIT-1 DEFAULT)."""
    s = Session(examples()["orc_and_pc"](1), RULESET)
    assert [f.reaction for f in s.state.board.fighters] == [10, 8]
