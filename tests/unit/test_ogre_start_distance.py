"""Ogre's starting distance comes from the Spot result (issue 53, stop 6; OGRE-SUR-1): Setup's close, near or far
says it only places the sides until Before the fight, and Before the fight puts the groups at the Spot result's
distance whatever Setup chose."""
from __future__ import annotations

from dataclasses import replace

from acting import act

from fray.engine.session import Session
from fray.rules import SYSTEMS
from fray.rules.ogre import RULESET
from fray.rules.ogre import commands as oc
from fray.rules.ogre.examples import three_vs_three
from fray.ui.markup.editor import distance_select


def gap(s: Session) -> int:
    """Squares between the two groups' nearest members, across the field (5 ft a square)."""
    party = [c.square for c in s.state.combatants if c.side == "party"]
    orcs = [c.square for c in s.state.combatants if c.side == "orcs"]
    return min(abs(a[0] - b[0]) for a in party for b in orcs)


def test_ogres_setup_says_its_distance_comes_from_the_spot_result_in_before_the_fight__OGRE_SUR_1():
    shown = str(distance_select({"start_distance": "close"}, "grid", SYSTEMS["ogre"].start_distance))
    assert "Spot result" in shown and "Before the fight" in shown and "OGRE-SUR-1" in shown
    assert 'aria-describedby="start-distance-own"' in shown, "the choice is read with what it means here"
    assert "until then the sides stand this far apart" in shown
    for other in ("ose", "olog"):
        assert SYSTEMS[other].start_distance == "", f"{other}: Setup's choice is where the fight starts"
        assert "start-distance-own" not in str(distance_select({}, "grid", SYSTEMS[other].start_distance))


def test_before_the_fight_places_the_groups_at_the_spot_distance_not_setups__OGRE_SUR_1():
    s = Session(replace(three_vs_three(), start_distance="close"), RULESET)
    assert gap(s) == 9
    act(s, oc.BeforeTheFight(("party", "orcs"), (15, 12), distance_ft=40))
    assert gap(s) == 8, "40 ft: eight squares between the groups' fronts, not Setup's close"
    s.undo()
    assert gap(s) == 9, "one undo puts them back where Setup had them"
