"""Dice per side (CORE-DICE-3, issue 38 "Dice per side"): the referee chooses which sides type the faces of
their own rolls; the app rolls the rest. A step asks only for the typed sides' dice, the app's faces stay the
same however many times the step is asked again, every face is recorded, and a save keeps the choice."""
from __future__ import annotations

import pytest

from fray.engine import storage
from fray.engine.dice import NeedDice
from fray.engine.session import Session
from fray.rules.olog import RULESET as OLOG, Attack as OlogAttack, RollInitiative as OlogInitiative
from fray.rules.olog.examples import two_orcs
from fray.rules.ose import RULESET as OSE
from fray.rules.ose.commands import RollInitiative as OseInitiative
from fray.rules.ose.examples import loose


def asked(session: Session, cmd, *typed: int) -> NeedDice | None:
    """Apply with the faces typed so far; the NeedDice a person is asked for next, else None (applied)."""
    try:
        session.act(cmd, session.dice_for(list(typed)))
    except NeedDice as need:
        return need
    return None


def test_the_party_types_its_side_initiative_and_the_app_rolls_the_goblins__CORE_DICE_3():
    s = Session(loose(1), OSE)
    s.hand_sides = frozenset({"party"})
    need = asked(s, OseInitiative())
    assert need is not None and need.sides == 12 and "Party" in need.purpose, "only the party's d12 is asked"
    assert asked(s, OseInitiative(), 7) is None
    step = s.steps[-1]
    text = " ".join(e.text for e in step.events)
    assert "Party 7" in text, text
    assert len(step.dice) == 2, "both sides' faces are recorded, the typed one and the app's"
    # Asked again with the face typed, the goblins' face is the one the app would have rolled anyway.
    t = Session(loose(1), OSE)
    t.hand_sides = frozenset({"party"})
    asked(t, OseInitiative(), 7)
    assert t.steps[-1].dice == step.dice


def test_only_the_typed_sides_rolls_are_asked_in_a_fight__CORE_DICE_3():
    s = Session(two_orcs(1), OLOG)
    s.hand_sides = frozenset({"party"})
    need = asked(s, OlogInitiative())
    assert need is not None and need.sides == 20 and "Brak" in need.purpose
    assert asked(s, OlogInitiative(), 18) is None
    # Brak acts (18 + level 2 beats the orcs' fixed initiative); his attack's dice are typed, one roll at a time.
    assert s.current() == ("brak",)
    attack = OlogAttack("brak", "orc1", "Sword", press_on=False)
    need = asked(s, attack)
    assert need is not None and need.sides == 20
    need = asked(s, attack, 19)
    assert need is not None and need.sides == 8, "the damage die next"
    assert asked(s, attack, 19, 4) is None
    assert s.state.get("orc1").hp == 6 - 4


def test_the_orcs_rolls_are_the_apps_while_the_party_types_its_own__CORE_DICE_3():
    s = Session(two_orcs(1), OLOG)
    s.hand_sides = frozenset({"party"})
    assert s.rolled_by_hand("brak") and s.rolled_by_hand("party")
    assert not s.rolled_by_hand("orc1") and not s.rolled_by_hand("orcs") and not s.rolled_by_hand("")
    s.physical_dice = True
    assert s.rolled_by_hand("orc1"), "every die typed overrides the per-side choice"


def test_a_save_keeps_who_rolls_and_replays_the_same_faces__CORE_DICE_3():
    s = Session(two_orcs(1), OLOG)
    s.hand_sides = frozenset({"party"})
    asked(s, OlogInitiative(), 18)
    doc = storage.dump(s)
    assert doc["hand_sides"] == ["party"]
    back = storage.load(doc).session
    assert back.hand_sides == frozenset({"party"}) and back.state == s.state


@pytest.mark.parametrize("raw, says", [
    ("party", "is not a list of side ids"),
    (["goblins"], "hand_sides[0]: 'goblins' is not a side of this encounter"),
])
def test_a_tampered_hand_sides_is_refused_with_its_path__CORE_DICE_3(raw, says):
    doc = storage.dump(Session(two_orcs(1), OLOG))
    doc["hand_sides"] = raw
    with pytest.raises(storage.LoadError) as err:
        storage.load(doc)
    assert any(says in p for p in err.value.problems), err.value.problems


def test_an_edited_setup_keeps_the_sides_still_there__CORE_DICE_3():
    s = Session(two_orcs(1), OLOG)
    s.hand_sides = frozenset({"party", "orcs"})
    other = Session(loose(1), OSE)  # a party, no orcs
    other.dice_from(s)
    assert other.hand_sides == frozenset({"party"})


def test_a_die_asked_at_an_ogre_segment_names_the_pc_who_rolls_it__CORE_DICE_3():
    """An Ogre attack is declared, then rolled when its segment comes, by a command that has no actor (the
    count going on): the die asked still names who rolls it, so a player's phone is asked for it."""
    from fray.playout import Chooser, choose
    from fray.rules import examples, get
    s = Session(examples("ogre")["orc_and_pc"](1), get("ogre"))
    s.hand_sides = frozenset({"party"})
    rng = Chooser(1)
    for _ in range(200):
        cmd, faces = s.ruleset.follow_up(s.state) or choose(s, rng), []
        while (need := asked(s, cmd, *faces)) is not None:
            if not getattr(cmd, "actor", ""):  # the count's own step, resolving a declared roll
                assert need.by == "brak" and "Brak" in need.purpose, (need, need.by)
                return
            assert need.by == "brak"  # Brak's initiative or a roll of his own step: typed as the player says
            faces += [min(need.sides, 3)] * need.count
    raise AssertionError("no die of Brak's asked at a segment in 200 steps")
