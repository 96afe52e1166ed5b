"""Quick HP (issue 38): what the referee types after tapping a combatant's HP becomes one referee step
(CORE-REF-1), or is refused with a sentence and changes nothing."""
from __future__ import annotations

import pytest

from fray.engine.referee import Damage, Heal, SetHp
from fray.views.hp_change import read_change


@pytest.mark.parametrize("typed, want", [
    ("-5", Damage("w1", 5)), ("\u22125", Damage("w1", 5)), (" - 7 ", Damage("w1", 7)),
    ("+3", Heal("w1", 3)), ("12", SetHp("w1", 12)), ("0", SetHp("w1", 0)),
])
def test_a_typed_change_is_one_referee_command_CORE_REF_1(typed, want):
    cmd, problem = read_change("w1", typed)
    assert cmd == want and problem == ""


@pytest.mark.parametrize("typed, says", [
    ("abc", "is not a change of hit points"), ("+-3", "is not a change of hit points"),
    ("", "Type −N"), ("3.5", "is not a change"), ("-1000000", "too large"), ("999999999", "too large"),
    ("1e9", "is not a change"), ("--2", "is not a change"),
])
def test_nonsense_is_refused_with_what_to_type_CORE_REF_1(typed, says):
    cmd, problem = read_change("w1", typed)
    assert cmd is None and says in problem


def test_the_refusal_quotes_what_was_typed_as_text_not_markup():
    cmd, problem = read_change("w1", "<b>x</b>")
    assert cmd is None and "<b>x</b>" in problem  # shown by the page as text (panels escape it)
