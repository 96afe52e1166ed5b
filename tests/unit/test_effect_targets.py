"""The effect form's targets (issue 53, stop 8; CORE-REF-1): nobody ticked at first, neither the actor nor the
downed; one tap ticks the actor's foes by side or by zone (OLOG-BAND-1); a bad duration is said at its field."""
from __future__ import annotations

from acting import act

from fray.engine.referee import Damage, Place
from fray.engine.session import Session
from fray.rules.olog import RULESET as OLOG, RollInitiative
from fray.rules.olog.examples import two_orcs
from fray.views.effect_targets import effect_command, groups, targets, toggle


def started() -> Session:
    s = Session(two_orcs(1), OLOG)
    act(s, RollInitiative(), 18)
    return s


def test_the_effect_form_starts_with_nobody_ticked_and_the_downed_last__CORE_REF_1():
    s = started()
    act(s, Damage("orc2", 6))
    shown = targets(s.state, ())
    assert [t.id for t in shown] == ["brak", "orc1", "orc2"] and not any(t.ticked for t in shown)
    assert [t.down for t in shown] == [False, False, True]


def test_one_tap_ticks_the_actors_foes_by_side_leaving_out_the_actor_and_the_downed__CORE_SIDE_1():
    s = started()
    act(s, Damage("orc2", 6))
    by_side = {g.key: g.members for g in groups(s.state, "orc1")}
    assert by_side["side:party"] == ("brak",) and "side:orcs" not in by_side, "the actor and the downed left out"
    assert [g.key for g in groups(s.state, "brak")][0] == "side:orcs", "the actor's foes first"
    assert toggle(s.state, "brak", (), "side:orcs") == ("orc1",)
    assert toggle(s.state, "brak", ("orc1",), "side:orcs") == (), "a second tap unticks them"


def test_one_tap_ticks_the_foes_of_one_zone_nearest_first__OLOG_BAND_1():
    s = started()
    act(s, Place("orc2", band=4))
    zones = [(g.key, g.members) for g in groups(s.state, "brak") if g.key.startswith("zone:")]
    assert zones == [("zone:2", ("orc1",)), ("zone:4", ("orc2",))]
    assert [g.label for g in groups(s.state, "brak")][-1] == "Foes in zone 5 (1)"
    assert toggle(s.state, "brak", ("brak",), "zone:4") == ("brak", "orc2"), "the others ticked stay ticked"


def test_a_bad_duration_is_said_at_its_field_in_words_and_nothing_is_made__CORE_TIME_1():
    s = started()
    cmd, field, why = effect_command(OLOG, s.state, {"t:orc1": "on", "condition": "Slowed", "lasts": "-3"})
    assert cmd is None and field == "lasts"
    assert '"-3" is not a duration' in why and "leave it empty" in why
    cmd, field, why = effect_command(OLOG, s.state, {"dice": "1d6"})
    assert cmd is None and field == "targets" and "Tick whom it touches" in why


def test_the_ticked_targets_and_fields_make_one_effect__CORE_REF_1():
    s = started()
    cmd, _, _ = effect_command(OLOG, s.state, {"t:orc1": "on", "t:orc2": "on", "dice": "2d6", "each": "on",
                                                "condition": "Burning", "lasts": "2", "note": "Fireball"})
    assert (cmd.targets, cmd.dice, cmd.each, cmd.heal, cmd.condition, cmd.lasts, cmd.note) == (
        ("orc1", "orc2"), "2d6", True, False, "Burning", 2, "Fireball")
    assert s.check(cmd) is None
