"""Unit tests for the tactical grid geometry: distances, reach, threat, lines, paths, provocations."""
from __future__ import annotations

import pathlib
import sys

if "fray" not in sys.modules:  # until a shared conftest puts py/ on the path
    _PY = str(pathlib.Path(__file__).resolve().parents[2] / "py")
    if _PY not in sys.path:
        sys.path.insert(0, _PY)

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fray.engine import geometry as geo
from fray.engine import paths
from fray.engine.commands import Reason
from fray.engine.geometry import Body, Grid
from fray.engine.paths import Provocation
from fray.engine.model import Weapon, Combatant, MapSpec, Side, are_hostile

SIDES = (Side("pc", "Party"), Side("orc", "Orcs", allies=("gob",)), Side("gob", "Goblins", allies=("orc",)))


def hostile(a: str, b: str) -> bool:
    return are_hostile(SIDES, a, b)


def pc(id_: str, sq, **kw) -> Body:
    return Body(id_, "pc", sq, **kw)


def orc(id_: str, sq, **kw) -> Body:
    return Body(id_, "orc", sq, **kw)


SWORD = Weapon("sword", kind="melee", reach=5, item="sword")
POLEARM = Weapon("polearm", kind="melee", reach=5, qualities=("reach",), item="polearm")
BOW = Weapon("bow", kind="bow", reach=5, item="bow")
CLAW = Weapon("claw", kind="natural")


# --- Grid ------------------------------------------------------------------------

def test_grid_from_map_keeps_size_walls_and_diagonal_rule():
    g = Grid.from_map(MapSpec(4, 3, frozenset({(1, 1)})), diagonal="5-10-5")
    assert (g.width, g.height, g.diagonal) == (4, 3, "5-10-5")
    assert g.in_bounds((0, 0)) and g.in_bounds((3, 2))
    assert not g.in_bounds((4, 0)) and not g.in_bounds((0, 3)) and not g.in_bounds((-1, 0))
    assert g.is_wall((1, 1)) and not g.is_wall((1, 2))


def test_grid_rejects_unknown_diagonal_rule_and_empty_size():
    with pytest.raises(ValueError, match="5-5-5"):
        Grid(3, 3, diagonal="5-5-5")
    with pytest.raises(ValueError):
        Grid(0, 3)


# --- body_of -------------------------------------------------------------------

def test_body_of_sword_in_hand_threatens_adjacent__OSE_AOO_3():
    c = Combatant("f", "Fighter", "pc", 8, 8, weapons=(SWORD,), hands=("sword", ""), square=(2, 3))
    assert geo.body_of(c) == Body("f", "pc", (2, 3), reach=1, threatens=True)


def test_body_of_reach_weapon_reaches_two_squares__OSE_STANCE_3():
    c = Combatant("p", "Pikeman", "pc", 8, 8, weapons=(POLEARM,), hands=("polearm", "polearm"), square=(0, 0))
    assert geo.body_of(c).reach == 2
    long_spear = Weapon("long spear", reach=10, item="spear")
    c2 = Combatant("s", "Spear", "pc", 8, 8, weapons=(long_spear,), hands=("spear", ""), square=(0, 0))
    assert geo.body_of(c2).reach == 2


def test_body_of_creature_own_reach_counts__OSE_AOO_3():
    giant = Combatant("g", "Giant", "orc", 30, 30, weapons=(CLAW,), stats={"reach_ft": 15}, square=(5, 5))
    b = geo.body_of(giant)
    assert (b.reach, b.threatens) == (3, True)


def test_body_of_unarmed_or_bow_only_threatens_nothing__OSE_AOO_1():
    sheathed = Combatant("f", "F", "pc", 8, 8, weapons=(SWORD,), hands=("", ""), inventory=("sword",), square=(1, 1))
    archer = Combatant("a", "A", "pc", 8, 8, weapons=(BOW,), hands=("bow", "bow"), square=(1, 1))
    assert geo.body_of(sheathed).threatens is False
    assert geo.body_of(archer).threatens is False


def test_body_of_down_flat_footed_or_unplaced__OGRE_AOO_1():
    down = Combatant("o", "Orc", "orc", 0, 6, weapons=(CLAW,), square=(1, 1))
    b = geo.body_of(down)
    assert (b.threatens, b.is_down) == (False, True)
    ready = Combatant("o", "Orc", "orc", 6, 6, weapons=(CLAW,), square=(1, 1))
    assert geo.body_of(ready, can_act=False).threatens is False  # flat-footed: No Opportunity
    assert geo.body_of(Combatant("x", "X", "pc", 5, 5)) is None


# --- distances -------------------------------------------------------------------

def test_chebyshev_distance_and_adjacency():
    assert geo.chebyshev((0, 0), (3, 5)) == 5
    assert geo.distance_squares((7, 2), (4, 1)) == 3
    assert geo.is_adjacent((2, 2), (3, 3)) and geo.is_adjacent((2, 2), (2, 1))
    assert not geo.is_adjacent((2, 2), (2, 2)) and not geo.is_adjacent((2, 2), (4, 2))


@pytest.mark.parametrize("b, five, alternating", [
    ((6, 0), 30, 30),   # straight only: the rules agree
    ((1, 1), 5, 5),     # first diagonal costs 5
    ((2, 2), 10, 15),   # 5 + 10
    ((4, 4), 20, 30),   # 5 + 10 + 5 + 10
    ((3, 5), 25, 30),   # 3 diagonals (5 + 10 + 5) + 2 straight (10)
])
def test_distance_ft_under_both_diagonal_rules(b, five, alternating):
    assert geo.distance_ft((0, 0), b, "5") == five
    assert geo.distance_ft((0, 0), b, "5-10-5") == alternating
    assert geo.distance_ft(b, (0, 0), "5-10-5") == alternating


def test_path_cost_alternates_diagonals_over_the_whole_path():
    diag_straight_diag = [(0, 0), (1, 1), (2, 1), (3, 2)]
    assert geo.path_cost_ft(diag_straight_diag, "5") == 15
    assert geo.path_cost_ft(diag_straight_diag, "5-10-5") == 20  # 5 + 5 + 10: the straight step keeps the count
    four_diagonals = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]
    assert geo.path_cost_ft(four_diagonals, "5-10-5") == 30
    assert geo.path_cost_ft([(0, 0), (1, 0), (2, 0)], "5-10-5") == 10
    assert geo.path_cost_ft([(3, 3)]) == 0
    with pytest.raises(ValueError, match=r"\(0, 0\) -> \(2, 0\)"):
        geo.path_cost_ft([(0, 0), (2, 0)])


# --- line ------------------------------------------------------------------------

def test_line_is_inclusive_and_symmetric():
    assert geo.line((0, 0), (3, 0)) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert geo.line((0, 0), (2, 2)) == [(0, 0), (1, 1), (2, 2)]
    # y = x/4 rounded: 0, 0.25, 0.5 (tie: larger), 0.75, 1
    assert geo.line((0, 0), (4, 1)) == [(0, 0), (1, 0), (2, 1), (3, 1), (4, 1)]
    assert geo.line((4, 1), (0, 0)) == [(4, 1), (3, 1), (2, 1), (1, 0), (0, 0)]
    # steep: x = 1 + y/4 rounded
    assert geo.line((1, 0), (2, 4)) == [(1, 0), (1, 1), (2, 2), (2, 3), (2, 4)]
    assert geo.line((5, 5), (5, 5)) == [(5, 5)]


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.integers(-9, 9), st.integers(-9, 9)), st.tuples(st.integers(-9, 9), st.integers(-9, 9)))
def test_line_property_reversible_and_a_chain_of_steps(a, b):
    pts = geo.line(a, b)
    assert pts[0] == a and pts[-1] == b
    assert geo.line(b, a) == pts[::-1]
    assert len(pts) == geo.chebyshev(a, b) + 1
    assert all(geo.is_adjacent(p, q) for p, q in zip(pts, pts[1:]))


# --- one-square moves ----------------------------------------------------------

def test_neighbours_at_corner_and_centre__OGRE_MOVE_1():
    g = Grid(3, 3)
    assert geo.neighbours(g, (0, 0)) == [(1, 0), (0, 1), (1, 1)]
    assert len(geo.neighbours(g, (1, 1))) == 8
    assert geo.neighbours(g, (2, 2)) == [(2, 1), (1, 2), (1, 1)]


def test_neighbours_skip_walls_and_diagonal_squeeze__OGRE_MOVE_1():
    g = Grid(4, 4, frozenset({(2, 1), (1, 2)}))
    # E and S are walls; SE (2, 2) would squeeze between them.
    assert geo.neighbours(g, (1, 1)) == [(1, 0), (0, 1), (2, 0), (0, 2), (0, 0)]


def test_is_valid_step():
    g = Grid(4, 4, frozenset({(2, 1), (1, 2)}))
    assert geo.is_valid_step(g, (1, 1), (1, 0))
    assert geo.is_valid_step(g, (1, 1), (2, 0))   # diagonal past one wall corner is fine
    assert not geo.is_valid_step(g, (1, 1), (2, 2))  # between two walls
    assert not geo.is_valid_step(g, (1, 1), (2, 1))  # into a wall
    assert not geo.is_valid_step(g, (1, 1), (1, 3))  # not adjacent
    assert not geo.is_valid_step(g, (0, 0), (-1, 0))  # off the board
    assert not geo.is_valid_step(g, (1, 1), (0, 0), blocked={(0, 0)})


# --- threatened squares ------------------------------------------------------

def test_reach_one_threatens_the_eight_around_and_three_in_a_corner__OSE_AOO_3():
    g = Grid(5, 5)
    assert geo.threatened_squares(orc("o", (2, 2)), g) == {
        (1, 1), (2, 1), (3, 1), (1, 2), (3, 2), (1, 3), (2, 3), (3, 3)}
    assert geo.threatened_squares(orc("o", (0, 0)), g) == {(1, 0), (0, 1), (1, 1)}


def test_reach_weapon_adds_the_ring_at_distance_two__OSE_STANCE_3():
    g = Grid(5, 5)
    area = geo.threatened_squares(orc("p", (2, 2), reach=2), g)
    assert len(area) == 24  # the whole 5x5 board but its own square
    ring = {(x, y) for x in range(5) for y in range(5) if max(abs(x - 2), abs(y - 2)) == 2}
    assert len(ring) == 16 and ring <= area
    assert geo.threatened_squares(orc("p", (0, 0), reach=2), g) == {
        (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)}


def test_creature_own_reach_three__OSE_AOO_3():
    area = geo.threatened_squares(orc("g", (3, 3), reach=3), Grid(8, 8))
    assert len(area) == 7 * 7 - 1 and (0, 0) in area and (6, 6) in area and (7, 7) not in area


def test_walls_block_threat_behind_them__OSE_AOO_3():
    # Wall column x=1, y=1..3; a pike at (0, 2) cannot reach past it.
    g = Grid(5, 5, frozenset({(1, 1), (1, 2), (1, 3)}))
    area = geo.threatened_squares(orc("p", (0, 2), reach=2), g)
    # (1, 0) is reached by the line through (0, 1); every x=2 square lies behind the wall.
    assert area == {(0, 0), (0, 1), (0, 3), (0, 4), (1, 0), (1, 4)}


def test_reach_does_not_squeeze_between_two_walls__OSE_AOO_3():
    g = Grid(4, 4, frozenset({(2, 1), (1, 2)}))
    area = geo.threatened_squares(orc("o", (1, 1)), g)
    assert (2, 2) not in area and (0, 0) in area and (2, 0) in area
    assert len(area) == 5


def test_down_or_unarmed_body_threatens_nothing__OSE_AOO_1():
    g = Grid(5, 5)
    assert geo.threatened_squares(orc("o", (2, 2), threatens=False, is_down=True), g) == frozenset()
    assert geo.threatened_squares(orc("o", (2, 2), threatens=False), g) == frozenset()


def test_threateners_are_hostile_ids_in_sorted_order__OSE_AOO_1():
    bodies = [orc("o2", (4, 2)), Body("g1", "gob", (3, 1)), orc("o1", (2, 2)), pc("f", (3, 3))]
    assert geo.threateners((3, 2), "pc", bodies, hostile) == ("g1", "o1", "o2")
    assert geo.threateners((3, 2), "orc", bodies, hostile) == ("f",)  # goblins are the orcs' allies
    assert geo.threateners((0, 0), "pc", bodies, hostile) == ()


def test_threateners_respect_walls_when_given_a_grid__OSE_AOO_3():
    bodies = [orc("p", (0, 2), reach=2)]
    g = Grid(5, 5, frozenset({(1, 1), (1, 2), (1, 3)}))
    assert geo.threateners((2, 2), "pc", bodies, hostile) == ("p",)
    assert geo.threateners((2, 2), "pc", bodies, hostile, grid=g) == ()


def test_threat_map_unions_areas_with_ids__OSE_AOO_1():
    g = Grid(7, 5)
    m = geo.threat_map([orc("o2", (4, 2)), orc("o1", (2, 2)), pc("f", (6, 4))], g, "pc", hostile)
    assert len(m) == 8 + 8 - 3
    assert m[(3, 2)] == ("o1", "o2") and m[(3, 1)] == ("o1", "o2")
    assert m[(1, 1)] == ("o1",) and m[(5, 3)] == ("o2",)
    assert (2, 2) not in m and (6, 3) not in m  # own squares; the ally threatens nothing for its side


def test_threat_map_agrees_with_threateners_everywhere():
    g = Grid(9, 9, frozenset({(4, 3), (4, 4), (4, 5)}))
    bodies = [orc("a", (2, 4), reach=2), orc("b", (6, 4)), Body("c", "gob", (5, 5), reach=3), pc("d", (3, 3))]
    m = geo.threat_map(bodies, g, "pc", hostile)
    for x in range(9):
        for y in range(9):
            assert m.get((x, y), ()) == geo.threateners((x, y), "pc", bodies, hostile, grid=g)


# --- shortest paths ----------------------------------------------------------

MOVER = pc("m", (0, 0))


def test_shortest_path_straight_and_trivial():
    g = Grid(5, 5)
    assert paths.shortest_path(g, (0, 0), (3, 0), MOVER, [], hostile) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert paths.shortest_path(g, (2, 2), (2, 2), MOVER, [], hostile) == [(2, 2)]
    assert paths.shortest_path(g, (0, 0), (5, 0), MOVER, [], hostile) is None  # off the board


def test_shortest_path_goes_around_a_wall_deterministically():
    g = Grid(6, 6, frozenset({(2, 0), (2, 1), (2, 2), (2, 3)}))
    p = paths.shortest_path(g, (0, 0), (4, 0), MOVER, [], hostile)
    # Down to x=2 below the wall (y 4), up again: 4 + 4 steps.
    assert geo.path_cost_ft(p) == 40 and p[0] == (0, 0) and p[-1] == (4, 0)
    assert any(sq[0] == 2 and sq[1] >= 4 for sq in p)
    assert not set(p) & g.walls
    assert all(geo.is_valid_step(g, a, b) for a, b in zip(p, p[1:]))
    assert paths.shortest_path(g, (0, 0), (4, 0), MOVER, [], hostile) == p
    assert paths.shortest_path(g, (0, 0), (2, 0), MOVER, [], hostile) is None  # a wall is no goal


def test_shortest_path_never_cuts_a_corner_between_two_walls():
    g = Grid(4, 4, frozenset({(2, 1), (1, 2)}))
    p = paths.shortest_path(g, (1, 1), (2, 2), MOVER, [], hostile)
    assert geo.path_cost_ft(p) == 15 and len(p) == 4  # around, not 5 ft through the gap
    sealed = Grid(3, 3, frozenset({(1, 0), (0, 1)}))
    assert paths.shortest_path(sealed, (0, 0), (1, 1), MOVER, [], hostile) is None


@pytest.mark.parametrize("goal, five, alternating", [((4, 4), 20, 30), ((3, 1), 15, 15), ((2, 2), 10, 15), ((5, 2), 25, 30)])
def test_shortest_path_cost_under_both_diagonal_rules(goal, five, alternating):
    for rule, expected in (("5", five), ("5-10-5", alternating)):
        g = Grid(8, 8, diagonal=rule)
        p = paths.shortest_path(g, (0, 0), goal, MOVER, [], hostile)
        assert geo.path_cost_ft(p, rule) == expected


def test_shortest_path_max_ft_uses_the_5_10_5_cost():
    # (2, 2) is two diagonals: 5 + 10 = 15 ft, not the 10 ft of the "5" rule.
    g = Grid(6, 6, diagonal="5-10-5")
    p = paths.shortest_path(g, (0, 0), (2, 2), MOVER, [], hostile, max_ft=15)
    assert geo.path_cost_ft(p, "5-10-5") == 15
    assert paths.shortest_path(g, (0, 0), (2, 2), MOVER, [], hostile, max_ft=10) is None


def test_allies_passable_but_not_an_end_square_enemies_block():
    corridor = Grid(5, 1)
    ally = [pc("a", (2, 0))]
    assert paths.shortest_path(corridor, (0, 0), (4, 0), MOVER, ally, hostile) == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]
    assert paths.shortest_path(corridor, (0, 0), (2, 0), MOVER, ally, hostile) is None
    assert paths.shortest_path(corridor, (0, 0), (4, 0), MOVER, [orc("o", (2, 0))], hostile) is None
    # A down enemy can be stepped over, not stood on.
    down = [orc("o", (2, 0), threatens=False, is_down=True)]
    assert paths.shortest_path(corridor, (0, 0), (4, 0), MOVER, down, hostile) is not None
    assert paths.shortest_path(corridor, (0, 0), (2, 0), MOVER, down, hostile) is None


def test_enemy_in_the_way_is_walked_around():
    g = Grid(5, 3)
    p = paths.shortest_path(g, (0, 1), (4, 1), MOVER, [orc("o", (2, 1))], hostile)
    assert (2, 1) not in p and geo.path_cost_ft(p) == 20


def test_shortest_path_respects_max_ft():
    g = Grid(5, 5)
    assert paths.shortest_path(g, (0, 0), (4, 0), MOVER, [], hostile, max_ft=15) is None
    assert paths.shortest_path(g, (0, 0), (4, 0), MOVER, [], hostile, max_ft=20) is not None


def test_avoid_threat_keeps_out_of_threatened_squares__OSE_AOO_1():
    g = Grid(7, 5)
    bodies = [orc("o", (3, 2))]
    direct = paths.shortest_path(g, (0, 2), (6, 2), MOVER, bodies, hostile)
    assert direct is not None and paths.provocations(direct, MOVER, bodies, hostile, grid=g)
    safe = paths.shortest_path(g, (0, 2), (6, 2), MOVER, bodies, hostile, avoid_threat=True)
    assert geo.path_cost_ft(safe) == 30  # around along row 0 or 4, same 6 steps
    assert not set(safe[1:-1]) & geo.threatened_squares(bodies[0], g)
    assert paths.provocations(safe, MOVER, bodies, hostile, grid=g) == []


def test_avoid_threat_fails_when_the_only_way_runs_through_threat():
    corridor = Grid(9, 1)
    pike = Body("p", "orc", (8, 0), reach=3)  # threatens x 5..7
    assert paths.shortest_path(corridor, (0, 0), (6, 0), MOVER, [pike], hostile, avoid_threat=True) is None
    assert paths.shortest_path(corridor, (0, 0), (5, 0), MOVER, [pike], hostile, avoid_threat=True) is not None


def test_path_through_waypoints_joins_legs():
    g = Grid(6, 6)
    assert paths.path_through(g, [(0, 0), (2, 2), (4, 0)], MOVER, [], hostile) == [(0, 0), (1, 1), (2, 2), (3, 1), (4, 0)]
    assert paths.path_through(g, [(0, 0), (2, 2), (4, 0)], MOVER, [], hostile, max_ft=15) is None
    # An ally may stand on a waypoint in the middle, not on the last one.
    allies = [pc("a", (2, 2))]
    assert paths.path_through(g, [(0, 0), (2, 2), (4, 0)], MOVER, allies, hostile) is not None
    assert paths.path_through(g, [(0, 0), (2, 2)], MOVER, allies, hostile) is None
    assert paths.path_through(g, [(3, 3)], MOVER, [], hostile) == [(3, 3)]


def test_path_through_counts_diagonals_across_legs_under_5_10_5():
    g = Grid(6, 6, diagonal="5-10-5")
    p = paths.path_through(g, [(0, 0), (2, 2), (4, 0)], MOVER, [], hostile)
    assert geo.path_cost_ft(p, "5-10-5") == 30  # 5 + 10 + 5 + 10
    assert paths.path_through(g, [(0, 0), (2, 2), (4, 0)], MOVER, [], hostile, max_ft=25) is None


# --- provocations ----------------------------------------------------------------

def test_leaving_threatened_square_provokes_each_threatener__OSE_AOO_1():
    bodies = [orc("o2", (2, 3)), orc("o1", (2, 1))]
    assert paths.provocations([(1, 2), (0, 2)], pc("m", (1, 2)), bodies, hostile) == [
        Provocation(0, (1, 2), ("o1", "o2"))]


def test_moving_into_a_threatened_square_does_not_provoke__OSE_AOO_1_OGRE_AOO_1():
    bodies = [orc("o1", (2, 1)), orc("o2", (2, 3))]
    assert paths.provocations([(0, 2), (1, 2)], pc("m", (0, 2)), bodies, hostile) == []


def test_path_through_two_threatened_areas_provokes_in_order__OSE_AOO_1_OGRE_AOO_1():
    g = Grid(8, 6)
    axe = orc("A", (2, 1))            # threatens x 1..3, y 0..2
    pike = orc("B", (5, 3), reach=2)  # threatens x 3..7, y 1..5
    path = [(x, 2) for x in range(8)]
    mover = pc("m", (0, 2))
    expected = [
        Provocation(1, (1, 2), ("A",)),
        Provocation(2, (2, 2), ("A",)),
        Provocation(3, (3, 2), ("A", "B")),
        Provocation(4, (4, 2), ("B",)),
        Provocation(5, (5, 2), ("B",)),
        Provocation(6, (6, 2), ("B",)),
    ]
    assert paths.provocations(path, mover, [pike, axe], hostile, grid=g) == expected
    fast = geo.threat_map([pike, axe], g, "pc", hostile)
    assert paths.provocations(path, mover, [pike, axe], hostile, threats=fast) == expected


def test_first_provocation_index_is_where_a_hit_stops_the_move__OSE_AOO_2():
    path = [(0, 2), (1, 2), (2, 2), (3, 2)]
    first = paths.first_provocation(path, pc("m", (0, 2)), [orc("A", (2, 1))], hostile)
    assert first == Provocation(1, (1, 2), ("A",))
    assert path[: first.index + 1] == [(0, 2), (1, 2)]  # a hit puts the mover back on (1, 2)
    assert paths.first_provocation(path[:2], pc("m", (0, 2)), [orc("A", (2, 1))], hostile) is None


def test_withdraw_frees_the_first_square_only__OSE_WD_1_OGRE_WD_1():
    pike = orc("p", (3, 2), reach=2)
    path = [(2, 2), (1, 2), (0, 2)]  # (2, 2) and (1, 2) are both within the pike's reach
    mover = pc("m", (2, 2))
    assert paths.provocations(path, mover, [pike], hostile) == [
        Provocation(0, (2, 2), ("p",)), Provocation(1, (1, 2), ("p",))]
    assert paths.provocations(path, mover, [pike], hostile, withdraw=True) == [Provocation(1, (1, 2), ("p",))]


def test_threat_entries_report_entering_the_reach_of_the_named_bodies_only():
    a, b = orc("A", (4, 0)), orc("B", (4, 3), reach=2)
    path = [(0, 1), (1, 1), (2, 1), (3, 1)]
    assert paths.threat_entries(path, pc("m", (0, 1)), [a, b], hostile, frozenset({"A", "B"})) == [
        Provocation(1, (1, 1), ("B",)), Provocation(2, (2, 1), ("A",))]
    assert paths.threat_entries(path, pc("m", (0, 1)), [a, b], hostile, frozenset({"A"})) == [
        Provocation(2, (2, 1), ("A",))]
    assert paths.threat_entries(path[:1], pc("m", (0, 1)), [a, b], hostile, frozenset({"A"})) == []


def test_follower_and_target_do_not_provoke_each_other__OGRE_FOLLOW_1():
    target, other = orc("O", (2, 1)), orc("P", (2, 3))
    follower = pc("F", (1, 2))
    # The follower steps after its target: the target's threat is ignored, the other orc's is not.
    assert paths.provocations([(1, 2), (0, 2)], follower, [target, other], hostile, exempt=frozenset({"O", "F"})) == [
        Provocation(0, (1, 2), ("P",))]
    # The target moves away from the follower: the follower does not strike, a second PC does.
    g2 = pc("G", (3, 2))
    moving = orc("O", (2, 2))
    assert paths.provocations([(2, 2), (2, 3)], moving, [follower, g2], hostile, exempt=frozenset({"F"})) == [
        Provocation(0, (2, 2), ("G",))]


def test_flat_footed_or_down_enemy_gives_no_attack_of_opportunity__OGRE_AOO_1():
    flat = orc("o", (1, 0), threatens=False)
    down = orc("d", (1, 1), threatens=False, is_down=True)
    assert paths.provocations([(0, 0), (0, 1), (0, 2)], pc("m", (0, 0)), [flat, down], hostile) == []


def test_walls_shield_the_mover_from_threat_when_a_grid_is_given__OSE_AOO_3():
    g = Grid(5, 5, frozenset({(1, 1), (1, 2), (1, 3)}))
    pike = orc("p", (0, 2), reach=2)
    path = [(2, 1), (2, 2), (2, 3)]
    assert paths.provocations(path, pc("m", (2, 1)), [pike], hostile, grid=g) == []
    assert len(paths.provocations(path, pc("m", (2, 1)), [pike], hostile)) == 2  # no grid: reach alone


# --- shared path check, lines, adjacency, every square within a move ---------------------

def test_path_problem_gives_core_reasons():
    g = Grid(5, 5, frozenset({(2, 0)}))
    assert geo.path_problem(g, (0, 0), [(0, 0), (1, 0), (1, 1)]) is None
    assert geo.path_problem(g, None, [(0, 0), (1, 0)], who="Brak").reason == Reason.NOT_PLACED
    assert geo.path_problem(g, (0, 0), [(0, 0)]).reason == Reason.NO_PATH
    assert geo.path_problem(g, (0, 0), [(1, 0), (1, 1)]).reason == Reason.BAD_PATH  # not from the start
    assert geo.path_problem(g, (1, 0), [(1, 0), (2, 0)]).reason == Reason.BAD_PATH  # into a wall
    assert geo.path_problem(g, (0, 0), [(0, 0), (0, 2)]).reason == Reason.BAD_PATH  # not adjacent
    bad = geo.path_problem(g, (0, 0), [(0, 0), (0, 1)], {(0, 1)}, who="Brak", rule="X-1")
    assert bad.reason == "BAD_PATH" and bad.detail.startswith("Brak cannot step") and bad.detail.endswith("(X-1)")


def test_line_clear_sees_past_nothing_that_stops_it():
    assert geo.line_clear((0, 0), (3, 0), lambda s: False)
    assert not geo.line_clear((0, 0), (3, 0), lambda s: s == (2, 0))
    assert geo.line_clear((0, 0), (3, 0), lambda s: s == (3, 0))  # the ends never stop it
    assert geo.line_clear((0, 2), (2, 1), lambda s: s == (1, 2))  # one of the two roundings is free
    walled = Grid(5, 5, frozenset({(0, 1), (1, 0)}))
    assert not geo.line_clear((0, 0), (1, 1), lambda s: False, walled)  # a diagonal squeeze between walls


def test_adjacent_enemies_are_standing_hostile_neighbours():
    me = pc("a", (2, 2))
    bodies = [orc("o", (3, 3)), pc("f", (3, 2)), orc("d", (2, 3), is_down=True), orc("far", (4, 2)),
              orc("z", (1, 1), threatens=False)]
    assert geo.adjacent_enemies(me, bodies, hostile) == ("o", "z")


def test_reachable_gives_the_cheapest_walk_to_every_square():
    g = Grid(6, 3, frozenset({(2, 0), (2, 1)}))
    reach = paths.Reachable(g, (0, 0), {(1, 2)}, max_ft=40)
    assert (0, 0) in reach and reach.cost((0, 0)) == 0
    assert (1, 2) not in reach  # blocked
    assert reach.cost((3, 0)) == 20 and reach.path((3, 0)) == [(0, 0), (1, 1), (2, 2), (3, 1), (3, 0)]
    assert geo.path_cost_ft(reach.path((3, 1))) == reach.cost((3, 1))
    assert (5, 0) not in paths.Reachable(g, (0, 0), max_ft=10)


# --- properties ------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["5", "5-10-5"]), st.integers(0, 7), st.integers(0, 7), st.integers(0, 7), st.integers(0, 7))
def test_open_grid_path_costs_the_distance(rule, x0, y0, x1, y1):
    g = Grid(8, 8, diagonal=rule)
    p = paths.shortest_path(g, (x0, y0), (x1, y1), MOVER, [], hostile)
    assert geo.path_cost_ft(p, rule) == geo.distance_ft((x0, y0), (x1, y1), rule)
