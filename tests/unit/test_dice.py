"""Dice notation, roll modifiers, seeded and scripted sources (CORE-DICE-1..3)."""
from __future__ import annotations

import collections
import time

import pytest

from fray.engine.dice import (BadFace, DiceError, DiceExpr, NeedDice, Roll, ScriptedDice, SeededDice,
                              is_dice)


# --- CORE-DICE-1: notation ------------------------------------------------------

@pytest.mark.parametrize("text, count, sides, modifier", [
    ("2d6", 2, 6, 0),
    ("d6", 1, 6, 0),
    ("1d8+1", 1, 8, 1),
    ("3d4-2", 3, 4, -2),
    ("d20+10", 1, 20, 10),
    ("7", 0, 0, 7),
    ("0", 0, 0, 0),
    ("-3", 0, 0, -3),
    ("+4", 0, 0, 4),
    ("d5", 1, 5, 0),
    ("d3", 1, 3, 0),
    ("d2", 1, 2, 0),
    ("d1", 1, 1, 0),
    ("1d1+1", 1, 1, 1),
    ("  2d6 + 1  ", 2, 6, 1),
    ("2 d 6 - 1", 2, 6, -1),
    ("\t1d4\n", 1, 4, 0),
    ("2D6", 2, 6, 0),
    ("D12+2", 1, 12, 2),
    ("100d1000", 100, 1000, 0),
    ("d6+10000", 1, 6, 10000),
])
def test_notation_is_parsed__CORE_DICE_1(text, count, sides, modifier):
    e = DiceExpr.parse(text)
    assert (e.count, e.sides, e.modifier) == (count, sides, modifier)
    assert is_dice(text)


@pytest.mark.parametrize("text, shown", [
    ("2d6", "2d6"), ("1d6", "d6"), ("d8+1", "d8+1"), ("3d4-2", "3d4-2"), ("7", "7"), ("-3", "-3"),
    (" 2D6 + 0 ", "2d6"),
])
def test_notation_prints_canonically_and_reparses__CORE_DICE_1(text, shown):
    e = DiceExpr.parse(text)
    assert str(e) == shown
    assert DiceExpr.parse(str(e)) == e


def test_minimum_and_maximum_of_an_expression__CORE_DICE_1():
    assert (DiceExpr.parse("2d6+1").minimum, DiceExpr.parse("2d6+1").maximum) == (3, 13)
    assert (DiceExpr.parse("d4-1").minimum, DiceExpr.parse("d4-1").maximum) == (0, 3)
    assert (DiceExpr.parse("5").minimum, DiceExpr.parse("5").maximum) == (5, 5)
    assert DiceExpr.die(8, 2) == DiceExpr(2, 8, 0)
    assert DiceExpr.parse("d6").plus(2) == DiceExpr.parse("d6+2")


@pytest.mark.parametrize("text", [
    "2x6", "", "   ", "d0", "0d6", "d", "1d6+", "1d", "d6+-1", "2d6d6", "d6 1", "1.5d6", "d6.0",
    "two d six", "2d6+1+1", "++1", "1e3", "d-6", "-1d6", "2d6*2", "⁲d6", "١d6",
    "101d6", "1d1001", "d6+10001", "10001", "-10001",
    "99999999999999999999999d6", "1d99999999999999999999", "d6+99999999999999999999",
])
def test_bad_notation_is_rejected_with_a_message_naming_the_text__CORE_DICE_1(text):
    with pytest.raises(DiceError) as err:
        DiceExpr.parse(text)
    assert f'"{text}"' in str(err.value)
    assert not is_dice(text)


@pytest.mark.parametrize("value", [None, 6, 2.5, ["d6"], b"d6"])
def test_notation_that_is_not_text_is_rejected__CORE_DICE_1(value):
    with pytest.raises(DiceError, match="not dice notation"):
        DiceExpr.parse(value)


def test_huge_digit_strings_are_a_dice_error_not_a_crash__CORE_DICE_1():
    # Python refuses to convert more than 4300 digits with a plain ValueError;
    # notation must still fail as DiceError (storage catches only that).
    for text in ("1d" + "9" * 5000, "9" * 5000 + "d6", "d6+" + "9" * 5000, "9" * 5000):
        with pytest.raises(DiceError) as err:
            DiceExpr.parse(text)
        assert len(str(err.value)) < 200, "the message quotes a shortened text"


def test_long_whitespace_is_rejected_quickly__CORE_DICE_1():
    start = time.perf_counter()
    for text in (" " * 50_000 + "x", " " * 50_000 + "d", "1" + " " * 50_000 + "x"):
        with pytest.raises(DiceError):
            DiceExpr.parse(text)
    assert time.perf_counter() - start < 0.5


# --- rolling: totals, modifiers, logging ----------------------------------------

def test_roll_sums_faces_and_modifier__CORE_DICE_3():
    d = ScriptedDice([3, 5])
    r = d.roll("2d6+1", "damage")
    assert r == Roll("2d6+1", (3, 5), (3, 5), 9, "damage")
    assert r.describe() == "2d6+1 [3, 5] = 9"
    assert d.used == [3, 5] and d.rolls == [r]


def test_negative_modifier_may_take_a_total_below_one__CORE_DICE_1():
    r = ScriptedDice([1]).roll("d4-2")
    assert r.total == -1 and r.describe() == "d4-2 [1] = -1"


def test_flat_number_rolls_no_dice__CORE_DICE_1():
    d = ScriptedDice([])
    r = d.roll("7", "fixed")
    assert (r.faces, r.total, r.describe()) == ((), 7, "7 = 7")
    assert d.used == []


def test_keeping_the_higher_of_a_fixed_number_is_just_the_number__CORE_DICE_2():
    r = ScriptedDice([]).roll("7", keep="high", minimum=9)
    assert (r.keep, r.faces, r.total, r.raised) == ("", (), 9, True)
    assert r.describe() == "7 raised to minimum 9 = 9"


def test_roll_accepts_a_parsed_expression():
    r = ScriptedDice([4]).roll(DiceExpr(1, 6, 2))
    assert (r.expr, r.total) == ("d6+2", 6)


def test_advantage_keeps_the_higher_and_logs_both_sets__CORE_DICE_2():
    r = ScriptedDice([2, 1, 6, 3]).roll("2d6", "attack", keep="high")
    assert r.keep == "high"
    assert r.faces == (2, 1, 6, 3), "both face sets are recorded"
    assert r.kept == (6, 3)
    assert r.total == 9
    assert r.describe() == "2d6 twice [2, 1] [6, 3], higher kept = 9"


def test_disadvantage_keeps_the_lower_and_logs_both_sets__CORE_DICE_2():
    r = ScriptedDice([5, 2]).roll("d20+1", "crossbow", keep="low")
    assert (r.keep, r.faces, r.kept, r.total) == ("low", (5, 2), (2,), 3)
    assert r.describe() == "d20+1 twice [5] [2], lower kept = 3"


def test_keep_compares_sums_not_single_faces__CORE_DICE_2():
    # [6, 1] sums to 7, [4, 4] to 8: "higher" is the larger total.
    r = ScriptedDice([6, 1, 4, 4]).roll("2d6", keep="high")
    assert r.kept == (4, 4) and r.total == 8


def test_unknown_keep_mode_is_refused_not_treated_as_lower__CORE_DICE_2():
    with pytest.raises(ValueError, match="keep"):
        ScriptedDice([1, 6]).roll("d6", keep="hi")


def test_minimum_result_raises_a_low_total_and_says_so__CORE_DICE_2():
    r = ScriptedDice([1]).roll("d4", "pressure", minimum=2)
    assert (r.total, r.raised, r.minimum) == (2, True, 2)
    assert r.faces == (1,), "the face actually rolled stays in the record"
    assert r.describe() == "d4 [1] raised to minimum 2 = 2"


def test_minimum_result_leaves_a_higher_total_alone__CORE_DICE_2():
    r = ScriptedDice([3]).roll("d4", "pressure", minimum=2)
    assert (r.total, r.raised) == (3, False)
    assert r.describe() == "d4 [3] = 3"


def test_keep_and_minimum_combine__CORE_DICE_2():
    r = ScriptedDice([1, 2]).roll("d6", keep="low", minimum=3)
    assert (r.kept, r.total, r.raised) == ((1,), 3, True)
    assert r.describe() == "d6 twice [1] [2], lower kept raised to minimum 3 = 3"


# --- sources ----------------------------------------------------------------------

def test_scripted_dice_raise_need_dice_when_empty__CORE_DICE_3():
    d = ScriptedDice([4])
    with pytest.raises(NeedDice) as need:
        d.roll("3d6", "fireball")
    assert (need.value.sides, need.value.count, need.value.purpose, need.value.expr) == (6, 2, "fireball", "3d6")
    assert "roll 2d6 for fireball" in str(need.value)


def test_need_dice_names_the_expression_when_there_is_no_purpose__CORE_DICE_3():
    with pytest.raises(NeedDice, match="for d8"):
        ScriptedDice().roll("d8")


def test_scripted_dice_refuse_an_impossible_face__CORE_DICE_3():
    for face in (0, 7, -1):
        with pytest.raises(BadFace, match=f"{face} is not a face of a d6"):
            ScriptedDice([face]).roll("d6", "damage")


def test_scripted_dice_report_exhaustion():
    d = ScriptedDice([1, 2])
    assert not d.exhausted
    d.roll("2d4")
    assert d.exhausted


def test_seeded_dice_same_seed_and_counter_give_same_faces__CORE_DICE_3():
    a = SeededDice(99)
    b = SeededDice(99)
    rolls_a = [a.roll("3d6").faces for _ in range(50)]
    rolls_b = [b.roll("3d6").faces for _ in range(50)]
    assert rolls_a == rolls_b
    assert a.counter == 150


def test_seeded_dice_resume_from_a_counter__CORE_DICE_3():
    full = SeededDice(5)
    faces = [full.roll("d20").faces[0] for _ in range(30)]
    resumed = SeededDice(5, counter=10)
    assert [resumed.roll("d20").faces[0] for _ in range(20)] == faces[10:]


def test_seeded_dice_differ_between_seeds():
    a = [SeededDice(1).roll("20d20").faces]
    b = [SeededDice(2).roll("20d20").faces]
    assert a != b


def test_seeded_face_depends_only_on_seed_and_counter_not_on_die_history():
    # A d6 rolled at counter 7 is the same whatever was rolled at 0..6.
    x = SeededDice(11)
    x.roll("7d20")
    y = SeededDice(11)
    y.roll("7d4")
    assert x.roll("d6").faces == y.roll("d6").faces


# --- distributions: every face possible, fair within tolerance ------------------

def _chi_square(counts: collections.Counter, sides: int, n: int) -> float:
    expected = n / sides
    return sum((counts.get(f, 0) - expected) ** 2 / expected for f in range(1, sides + 1))


# 99.99th percentile of chi-square with k-1 degrees of freedom (k = sides).
_CHI_LIMIT = {1: 0.0, 2: 15.1, 3: 18.4, 4: 21.1, 5: 23.5, 6: 25.7, 8: 29.9, 10: 33.7, 12: 37.3, 20: 52.4}


@pytest.mark.parametrize("sides", [1, 2, 3, 4, 5, 6, 8, 10, 12, 20])
def test_seeded_faces_are_in_bounds_and_fair__CORE_DICE_1(sides):
    n = 60_000 if sides == 6 else 12_000
    d = SeededDice(2024 + sides)
    counts = collections.Counter(d.roll(f"d{sides}").total for _ in range(n))
    assert set(counts) == set(range(1, sides + 1)), "every face occurs and no other"
    assert _chi_square(counts, sides, n) <= _CHI_LIMIT[sides]
    for face in range(1, sides + 1):
        assert abs(counts[face] - n / sides) < 0.06 * n / sides + 5 * (n / sides) ** 0.5


def test_sum_of_two_dice_has_the_triangular_shape__CORE_DICE_1():
    n = 36_000
    d = SeededDice(7)
    counts = collections.Counter(d.roll("2d6").total for _ in range(n))
    assert set(counts) == set(range(2, 13))
    for total in range(2, 13):
        expected = n * (6 - abs(total - 7)) / 36
        assert abs(counts[total] - expected) < 5 * expected ** 0.5 + 0.05 * expected


def test_advantage_shifts_the_mean_up_and_disadvantage_down__CORE_DICE_2():
    n = 20_000
    d = SeededDice(3)
    plain = sum(d.roll("d20").total for _ in range(n)) / n
    high = sum(d.roll("d20", keep="high").total for _ in range(n)) / n
    low = sum(d.roll("d20", keep="low").total for _ in range(n)) / n
    # Exact means: 10.5, 13.825, 7.175.
    assert abs(plain - 10.5) < 0.15
    assert abs(high - 13.825) < 0.15
    assert abs(low - 7.175) < 0.15


def test_minimum_bounds_every_total__CORE_DICE_2():
    d = SeededDice(8)
    totals = [d.roll("d4", minimum=2).total for _ in range(4000)]
    assert min(totals) == 2 and max(totals) == 4
    assert totals.count(2) > totals.count(3), "the 1s were raised to 2"


def test_modified_rolls_stay_in_bounds__CORE_DICE_1():
    d = SeededDice(13)
    for text in ("3d6+2", "d8-1", "4d4", "d5+1", "2d3-2"):
        e = DiceExpr.parse(text)
        totals = {d.roll(e).total for _ in range(3000)}
        assert min(totals) == e.minimum and max(totals) == e.maximum, text
