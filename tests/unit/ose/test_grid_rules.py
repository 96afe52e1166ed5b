"""OSE's rules on the grid's geometry, without a session: brace strikes and charge paths (movement), and
attacks from behind, from the second rank and next to an enemy (combat)."""
from __future__ import annotations

from fray.engine import geometry as geo
from fray.engine import paths
from fray.engine.geometry import Body, Grid
from fray.engine.paths import Provocation
from fray.rules.ose.combat import back_attack, is_directly_behind, ranged_blocked_by, second_rank_ok
from fray.rules.ose.movement import brace_strikes, charge_path
from test_geometry import hostile, orc, pc


# --- brace strikes on a charge -------------------------------------------------------

def test_charge_provokes_only_bracing_enemies_when_entering_their_reach__OSE_CHARGE_1():
    g = Grid(10, 5)
    bystander = orc("N", (3, 1))  # threatens x 2..4, y 0..2
    target = orc("T", (7, 2))     # threatens x 6..8, y 1..3
    path = [(x, 2) for x in range(7)]
    mover = pc("m", (0, 2))
    walk = paths.provocations(path, mover, [bystander, target], hostile, grid=g)
    assert [p.index for p in walk] == [2, 3, 4]
    assert brace_strikes(path, mover, [bystander, target], hostile, frozenset(), grid=g) == []
    assert brace_strikes(path, mover, [bystander, target], hostile, frozenset({"T"}), grid=g) == [
        Provocation(5, (5, 2), ("T",))]
    assert brace_strikes(path, mover, [bystander, target], hostile, frozenset({"N", "T"}), grid=g) == [
        Provocation(1, (1, 2), ("N",)), Provocation(5, (5, 2), ("T",))]


# --- charges (the search behind a charge plan) -----------------------------------------------------------------------

def test_charge_picks_nearest_by_movement_not_straight_distance__OSE_CHARGE_1():
    # Wall x=2, y 0..8 (gap at y 9). A is 3 squares away in a straight line but
    # 85 ft of movement around the wall; B is 6 squares away and 25 ft of movement.
    g = Grid(10, 10, frozenset((2, y) for y in range(9)))
    a, b = orc("A", (3, 0)), orc("B", (0, 6))
    mover = pc("m", (0, 0))
    assert geo.chebyshev((0, 0), a.square) < geo.chebyshev((0, 0), b.square)
    target, path = charge_path(g, (0, 0), mover, [a, b], hostile, weapon_reach=1, max_ft=100)
    assert target == "B" and path[0] == (0, 0) and path[-1] == (0, 5)
    assert geo.path_cost_ft(path) == 25
    target, path = charge_path(g, (0, 0), mover, [a], hostile, weapon_reach=1, max_ft=100)
    assert target == "A" and geo.path_cost_ft(path) == 85 and geo.is_adjacent(path[-1], a.square)
    assert charge_path(g, (0, 0), mover, [a], hostile, weapon_reach=1, max_ft=80) is None


def test_charge_needs_at_least_15_ft__OSE_CHARGE_1():
    g = Grid(8, 3)
    mover = pc("m", (0, 0))
    assert charge_path(g, (0, 0), mover, [orc("E", (3, 0))], hostile, weapon_reach=1, max_ft=80) is None
    assert charge_path(g, (0, 0), mover, [orc("E", (4, 0))], hostile, weapon_reach=1, max_ft=80) == (
        "E", [(0, 0), (1, 0), (2, 0), (3, 0)])
    assert charge_path(g, (0, 0), mover, [orc("E", (4, 0))], hostile, weapon_reach=1, max_ft=10) is None


def test_charge_with_reach_weapon_stops_two_squares_short__OSE_CHARGE_1_OSE_STANCE_3():
    g = Grid(8, 3)
    mover = pc("m", (0, 0), reach=2)
    target, path = charge_path(g, (0, 0), mover, [orc("E", (5, 0))], hostile, weapon_reach=2, max_ft=80)
    assert (target, path[-1], geo.path_cost_ft(path)) == ("E", (3, 0), 15)


def test_charge_ties_go_to_lowest_id_and_skip_down_and_allies__OSE_CHARGE_1():
    g = Grid(9, 9)
    mover = pc("m", (4, 4))
    bodies = [orc("z", (0, 4)), orc("b", (8, 4)), orc("a", (4, 6), is_down=True, threatens=False), pc("c", (4, 1))]
    target, path = charge_path(g, (4, 4), mover, bodies, hostile, weapon_reach=1, max_ft=80)
    assert target == "b" and geo.path_cost_ft(path) == 15


def test_charge_cost_uses_the_5_10_5_rule__OSE_CHARGE_1():
    g = Grid(9, 9, diagonal="5-10-5")
    target, path = charge_path(g, (0, 0), pc("m", (0, 0)), [orc("E", (5, 5))], hostile, weapon_reach=1, max_ft=80)
    assert target == "E" and geo.path_cost_ft(path, "5-10-5") == 30  # four diagonals to (4, 4)
    assert charge_path(g, (0, 0), pc("m", (0, 0)), [orc("E", (5, 5))], hostile, weapon_reach=1, max_ft=25) is None


# --- attack positions ------------------------------------------------------------

def test_directly_behind_an_orthogonal_engager__OSE_BACK_1():
    target, engager = (5, 5), (6, 5)  # engager east: the west column is behind
    assert all(is_directly_behind(a, target, engager) for a in [(4, 4), (4, 5), (4, 6)])
    assert not any(is_directly_behind(a, target, engager) for a in [(5, 4), (5, 6), (6, 6), (6, 4), (3, 5)])


def test_directly_behind_a_diagonal_engager__OSE_BACK_1():
    target, engager = (5, 5), (6, 4)  # engager north-east: south-west, west and south are behind
    assert all(is_directly_behind(a, target, engager) for a in [(4, 6), (4, 5), (5, 6)])
    assert not any(is_directly_behind(a, target, engager) for a in [(4, 4), (6, 6), (5, 4), (6, 5)])
    assert not is_directly_behind((4, 6), target, (7, 3))  # the engager must be adjacent


def test_back_attack_needs_another_standing_enemy_in_front__OSE_BACK_1():
    t, f = orc("T", (5, 5)), pc("F", (6, 5))
    rogue = pc("R", (4, 5))
    assert back_attack("R", "T", [t, f, rogue], hostile) is True
    assert back_attack("R", "T", [t, pc("R", (5, 4)), f], hostile) is False      # beside, not behind
    assert back_attack("R", "T", [t, rogue], hostile) is False                   # nobody in front
    assert back_attack("R", "T", [t, pc("F", (6, 5), is_down=True, threatens=False), rogue], hostile) is False
    assert back_attack("R", "T", [t, Body("F", "gob", (6, 5)), rogue], hostile) is False  # the orc's ally
    assert back_attack("R", "X", [t, f, rogue], hostile) is False


def test_reach_weapon_attacks_past_an_ally_in_front__OSE_STANCE_3():
    pike = pc("p", (0, 2), reach=2)
    target = (2, 2)
    assert second_rank_ok(pike, target, [pc("f", (1, 2)), orc("o", target)], hostile) is True
    assert second_rank_ok(pike, target, [orc("x", (1, 2)), orc("o", target)], hostile) is False
    assert second_rank_ok(pike, target, [orc("x", (1, 2), is_down=True, threatens=False)], hostile) is True
    walled = Grid(5, 5, frozenset({(1, 2)}))
    assert second_rank_ok(pike, target, [], hostile, grid=walled) is False
    assert second_rank_ok(pc("s", (0, 2)), target, [], hostile) is False   # a sword reaches 1
    assert second_rank_ok(pike, (3, 2), [], hostile) is False              # too far
    assert second_rank_ok(pike, (1, 2), [], hostile) is True               # adjacent is within reach


def test_reach_weapon_knight_move_needs_one_clear_line__OSE_STANCE_3():
    pike = pc("p", (0, 2), reach=2)
    # (2, 1): the line crosses the corner between (1, 1) and (1, 2).
    assert second_rank_ok(pike, (2, 1), [orc("x", (1, 2))], hostile) is True
    walled = Grid(5, 5, frozenset({(1, 1)}))
    assert second_rank_ok(pike, (2, 1), [orc("x", (1, 2))], hostile, grid=walled) is False


def test_ranged_blocked_by_adjacent_enemy_only__OSE_RANGED_1():
    archer = pc("a", (2, 2))
    assert ranged_blocked_by(archer, [orc("o", (3, 3))], hostile) == ("o",)
    assert ranged_blocked_by(archer, [pc("f", (3, 2))], hostile) == ()
    assert ranged_blocked_by(archer, [orc("d", (2, 3), is_down=True, threatens=False)], hostile) == ()
    assert ranged_blocked_by(archer, [orc("far", (4, 2))], hostile) == ()
    # An unarmed enemy still counts: "any opponent within 5 feet".
    assert ranged_blocked_by(archer, [orc("z", (1, 1), threatens=False), Body("g", "gob", (2, 1))], hostile) == (
        "g", "z")
