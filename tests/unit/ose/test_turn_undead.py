"""OSE Turn Undead with loaded dice: the table, weakest first, destruction, turning time, lock-outs."""
from __future__ import annotations

from fray.engine.model import Side, Weapon
from fray.rules.ose import TURN_TABLE, Attack, EndStep, Move, TurnUndead
from acting import act, kinds, refusal, texts
from ose_kit import CLAW, A, c, fighter, refused, session, start, sys

MACE = Weapon("Mace", "1d6", item="Mace")
DEAD = Side("u", "Crypt", "#553399", "hexagon")


def warpriest(level=2, hands=("Mace", "Holy symbol"), square=None, **kw):
    return fighter("ald", "a", square, weapons=(MACE,), hands=hands, warpriest=True, level=level,
                   favoured_weapon="Mace", **kw)


def undead(cid, hd=1, hp=5, square=None, **kw):
    return fighter(cid, "u", square, hp=hp, weapons=(CLAW,), hands=("", ""), undead=True, hd=hd, group="crypt", **kw)


def crypt(*extra, level=2, profile="loose", settings=None):
    return session(warpriest(level), *extra, sides=(A, DEAD), profile=profile, settings=settings)


def test_only_a_warpriest_holding_the_symbol_or_favoured_weapon_may_turn__OSE_TURN_1():
    s = session(warpriest(hands=("Mace", "")), fighter("bob", "a", warpriest=False), undead("s1"),
                sides=(A, DEAD), profile="loose")
    start(s, 9, 2)
    ill = refusal(s, TurnUndead("bob", "crypt"))
    assert ill.reason == "NOT_A_WARPRIEST" and "OSE-TURN-1" in ill.detail
    act(s, TurnUndead("ald", "crypt"), 1, 1, 1, 1, 2)  # the favoured weapon is enough
    s = session(warpriest(hands=("", "")), undead("s1"), sides=(A, DEAD), profile="loose")
    start(s, 9, 2)
    ill = refusal(s, TurnUndead("ald", "crypt"))
    assert ill.reason == "NO_HOLY_SYMBOL" and "OSE-TURN-1" in ill.detail


def test_the_turning_table_is_a_setting__OSE_TURN_1():
    table = {k: list(v) for k, v in TURN_TABLE.items()}
    table["2"][1] = "5"
    s = crypt(undead("z1", hd=2), settings={"turn_table": table})
    start(s, 9, 2)
    step = act(s, TurnUndead("ald", "crypt"), 2, 3, 1, 1, 1)  # 5 turns a zombie now (default needs 7)
    assert "TurnSucceeded" in kinds(step)


def test_mixed_group_weakest_first_up_to_the_hit_dice_rolled__OSE_TURN_2():
    s = crypt(undead("s1", hp=5), undead("s2", hp=4), undead("z1", hd=2, hp=9),
              undead("gh", hd=2, hp=10, turn_row="2*"))
    start(s, 9, 2)
    # Level 2: skeletons T, zombies 7, ghouls 9. 4+4 = 8 turns skeletons and zombies; 1+2 = 3 Hit Dice.
    step = act(s, TurnUndead("ald", "crypt"), 4, 4, 1, 2, 2, 3)
    assert step.events[0].data["affected"] == ["s2", "s1"]
    assert sorted(sys(s).turned) == ["s1", "s2"]
    assert not c(s, "z1").has_condition("turned") and not c(s, "gh").has_condition("turned")


def test_at_least_one_creature_is_affected__OSE_TURN_2():
    s = crypt(undead("w1", hd=3, hp=12), level=3)
    start(s, 9, 2)
    step = act(s, TurnUndead("ald", "crypt"), 5, 5, 1, 1, 4)  # 10 >= 9, only 2 Hit Dice for a 3 HD wight
    assert step.events[0].data["affected"] == ["w1"] and c(s, "w1").has_condition("turned")


def test_a_d_result_destroys_instead_of_turning__OSE_TURN_2():
    s = crypt(undead("s1"), undead("s2"), level=4)
    start(s, 9, 2)
    step = act(s, TurnUndead("ald", "crypt"), 1, 1, 3, 3)
    assert kinds(step).count("Destroyed") == 2
    assert all(c(s, x).is_down and c(s, x).has_condition("destroyed") for x in ("s1", "s2"))
    assert s.state.outcome == "Victory: Party"


def test_turned_undead_flee_for_secret_minutes_and_an_attack_breaks_it__OSE_TURN_3():
    s = crypt(undead("s1"), undead("s2", hp=4), fighter("bob", "a"))
    start(s, 9, 2)
    step = act(s, TurnUndead("ald", "crypt"), 6, 6, 1, 1, 3, 2)
    secret = [e for e in step.events if e.secret]
    assert len(secret) == 2 and all(e.kind == "TurnDurationRolled" and "minute" in e.text for e in secret)
    act(s, EndStep("bob"))
    ill = refusal(s, Attack("s1", "ald", "Claw"))
    assert ill.reason == "TURNED" and "OSE-TURN-3" in ill.detail
    act(s, EndStep("s1"))
    start(s, 9, 2)
    step = act(s, Attack("bob", "s2", "Sword"), 2)  # even a miss breaks the turning
    assert "TurningBroken" in kinds(step) and "s2" not in sys(s).turned and "s1" in sys(s).turned


def test_turning_ends_after_its_minutes__OSE_TURN_3():
    s = crypt(undead("s1"), settings={"rounds_per_minute": 1})
    start(s, 9, 2)
    act(s, TurnUndead("ald", "crypt"), 6, 6, 1, 1, 1)  # one minute = one round here
    assert sys(s).turned == {"s1": ("ald", 1)}
    act(s, EndStep("s1"))
    step = start(s, 9, 2)
    assert "TurningEnded" in kinds(step) and not c(s, "s1").has_condition("turned")


def test_a_failed_attempt_locks_the_warpriest_out_of_that_group__OSE_TURN_4():
    s = crypt(undead("z1", hd=2), undead("z2", hd=2), level=1)  # zombies need 9 at level 1
    start(s, 9, 2)
    step = act(s, TurnUndead("ald", "crypt"), 3, 3)
    assert "TurnFailed" in kinds(step) and "24 hours" in texts(step)[0]
    act(s, EndStep())
    start(s, 9, 2)
    ill = refusal(s, TurnUndead("ald", "crypt"))
    assert ill.reason == "TURN_LOCKED" and "OSE-TURN-4" in ill.detail


def test_after_a_success_the_warpriest_may_keep_turning_the_rest__OSE_TURN_4():
    s = session(warpriest(2, square=(3, 5)), undead("s1", square=(9, 5)), undead("z1", hd=2, square=(9, 7)),
                sides=(A, DEAD))
    start(s, 9, 2)
    assert [x for x in s.current()] == ["ald"]
    act(s, EndStep())  # MOVE -> MAGIC (turning is a Main action of the MAGIC step)
    act(s, TurnUndead("ald", "crypt"), 4, 4, 1, 1, 2)  # 8: skeleton (T) and zombie (7); 2 HD: the skeleton only
    assert refused(s, TurnUndead("ald", "crypt")) in ("MAIN_USED", "NOT_YOUR_TURN")
    while sys(s).phase == "act":
        act(s, EndStep())
    start(s, 9, 2)
    act(s, EndStep())
    step = act(s, TurnUndead("ald", "crypt"), 4, 4, 2, 2, 3)
    assert step.events[0].data["affected"] == ["z1"]


def test_turned_undead_may_still_move_away__OSE_TURN_3():
    s = session(warpriest(2, square=(3, 5)), undead("s1", square=(9, 5)), sides=(A, DEAD))
    start(s, 9, 2)
    act(s, EndStep())
    act(s, TurnUndead("ald", "crypt"), 6, 6, 1, 1, 4)
    assert sys(s).order[sys(s).turn] == "u"
    act(s, Move("s1", ((9, 5), (10, 5), (11, 5))))
    assert c(s, "s1").square == (11, 5)
    body = next(b for b in s.ruleset.grid.bodies(s.state) if b.id == "s1")
    assert not body.threatens  # fleeing, it threatens no one


def test_a_turned_undead_may_not_move_closer_or_sideways_and_is_offered_the_way_away__OSE_TURN_3():
    s = session(warpriest(2, square=(3, 5)), undead("s1", square=(9, 5)), sides=(A, DEAD))
    start(s, 9, 2)
    act(s, EndStep())
    act(s, TurnUndead("ald", "crypt"), 6, 6, 1, 1, 4)
    closer = refusal(s, Move("s1", ((9, 5), (8, 5))))
    assert closer.reason == "NOT_AWAY" and "OSE-TURN-3" in closer.detail and "closer" in closer.detail
    sideways = refusal(s, Move("s1", ((9, 5), (9, 6))))  # chebyshev-equal: no farther away
    assert sideways.reason == "NOT_AWAY" and "same distance" in sideways.detail
    move = next(o for o in s.options("s1") if isinstance(o.command, Move))
    assert move.rule == "OSE-TURN-3" and "farther from Ald" in move.hint
    paths = s.ruleset.grid.suggest_paths(s.state, "s1", Move("s1"))
    assert paths and paths[0][1] == "away from Ald"
    far = paths[0][2]
    assert far[-1][0] > 9 and s.check(Move("s1", far)) is None
    assert all(s.check(Move("s1", p)) is None for _, _, p in paths)  # every suggestion is a legal flight


def test_the_referee_sees_the_rounds_a_turning_has_left_and_the_players_do_not__OSE_TURN_3():
    from fray.cli import show_lines
    from fray.engine.conditions import condition_words, public_conditions
    from fray.rules.ose import RULESET
    from fray.views.table_view import table_view
    s = crypt(undead("s1"))
    start(s, 9, 2)
    act(s, TurnUndead("ald", "crypt"), 6, 6, 1, 1, 2)  # 2 minutes of 6 rounds: rounds 1 to 12
    assert condition_words(RULESET, s.state)["s1"] == ("turned · 12 rounds left",)
    assert public_conditions(RULESET, s.state)["s1"] == ("turned",)
    assert any("[turned · 12 rounds left]" in line for line in show_lines(s))
    view = table_view(s.state, s.steps, "grid")
    assert "rounds left" not in str(view) and "turned" in str(view)
    act(s, EndStep("s1"))
    start(s, 9, 2)
    assert condition_words(RULESET, s.state)["s1"] == ("turned · 11 rounds left",)
