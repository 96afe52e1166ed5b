"""A spell on several targets picks a few, not only one or all (issue 53, stop 9): the option lists whom the
spell may touch (`Option.few`), the referee ticks a few (by name, or a side or zone in one tap, as in the
effect dialog) and the spell lands on those only, in the one step that completes it (one undo)."""
from __future__ import annotations

from dataclasses import replace

from acting import act
from ose_kit import fighter, session as ose_session, start as ose_start

from fray.engine.session import Session
from fray.rules.olog import RULESET as OLOG, CastSpell, RollInitiative
from fray.rules.olog.examples import skirmish
from fray.rules.ose import CompleteSpell, Declare, Done
from fray.engine.referee import Place
from fray.views.effect_targets import few_now, few_ticked, groups, picks, toggle


def ose_caster(*foes: str) -> Session:
    s = ose_session(fighter("mira", "a", (2, 2), hp=4, spells=("Magic Missile (1d6+1 each)",)),
                    *(fighter(g, "b", (12, 2 + 2 * i), hp=6) for i, g in enumerate(foes)))
    act(s, Declare("mira", "spell", "Magic Missile (1d6+1 each)"))
    ose_start(s, 9, 2)
    act(s, Done("mira"))  # on to the Magic step
    return s


def complete(s: Session):
    return next(o for o in s.options("mira") if isinstance(o.command, CompleteSpell))


def test_ose_magic_missile_on_two_of_three_goblins_lands_on_those_only_in_one_step__OSE_SPELL_2():
    s = ose_caster("g1", "g2", "g3")
    offered = complete(s)
    assert offered.few == ("g1", "g2", "g3"), "whom the spell may touch, nearest first"
    assert [c.label for c in offered.choices] == ["On every foe (3)", "On G1", "On G2", "On G3"]
    ticked = few_ticked(offered.few, {"t:g3": "on", "t:g1": "on", "t:mira": "on", "op": "apply"})
    assert ticked == ("g1", "g3"), "only the spell's possible targets, in their order"
    act(s, replace(offered.command, targets=ticked), 2, 5)
    assert [s.state.get(g).hp for g in ("g1", "g2", "g3")] == [3, 6, 0]
    s.undo()
    assert [s.state.get(g).hp for g in ("g1", "g2", "g3")] == [6, 6, 6] and "mira" in s.state.board.casting, \
        "one undo takes the whole cast back"


def test_ose_with_two_foes_every_one_and_each_one_already_cover_a_few__OSE_SPELL_2():
    assert complete(ose_caster("g1", "g2")).few == ()


def olog_skirmish() -> Session:
    enc = skirmish(1)
    cs = tuple(replace(c, stats={**c.stats, "spells": ("Firebolt (1d6 each)",)}) if c.id == "mira" else c
               for c in enc.combatants)
    s = Session(replace(enc, combatants=cs), OLOG)
    act(s, RollInitiative(), 1, 20)  # Brak rolls 1, Mira 20 (d20 + level + modifier): Mira first
    assert s.state.board.actor == "mira"
    return s


def test_olog_a_spell_on_a_few_foes_is_one_more_option_that_asks_whom__OLOG_SPELL_1():
    s = olog_skirmish()
    few = next(o for o in s.options("mira") if o.label == "Cast Firebolt on a few foes… (extended)")
    assert few.allowed and few.needs == ("few:targets",) and few.few == ("gob1", "gob2", "gob3", "chief")
    step = act(s, replace(few.command, targets=("gob1", "chief")), 3, 4)
    assert (s.state.get("gob1").hp, s.state.get("gob2").hp, s.state.get("chief").hp) == (1, 5, 5)
    assert "Mira casts Firebolt on Goblin 1, Goblin chief" in step.events[0].text
    s.undo()
    assert (s.state.get("gob1").hp, s.state.get("chief").hp) == (4, 9)


def test_a_spells_few_are_ticked_by_zone_or_side_in_one_tap_among_its_targets_only__OLOG_BAND_1():
    s = olog_skirmish()
    few = ("gob1", "gob2", "chief")  # the archer left out: not among those the spell may touch
    keys = {g.key: g.members for g in groups(s.state, "mira", few)}
    assert keys == {"side:goblins": ("gob1", "gob2", "chief"), "zone:2": ("gob1", "gob2"), "zone:3": ("chief",)}
    assert "side:party" not in keys, "the caster's side holds none of the spell's targets"
    assert toggle(s.state, "mira", ("chief",), "zone:2", few) == ("chief", "gob1", "gob2")
    assert toggle(s.state, "mira", ("gob1", "gob2", "chief"), "zone:2", few) == ("chief",), "a second tap unticks"
    assert [(t.id, t.ticked) for t in picks(s.state, few, ("gob2",))] == [
        ("gob1", False), ("gob2", True), ("chief", False)]


def test_the_few_are_ticked_only_once_press_on_is_answered__OLOG_PRES_2():
    s = olog_skirmish()
    act(s, Place("gob1", band=0))  # a goblin in Mira's zone: an extended action needs Press On (OLOG-PRES-7)
    few = next(o for o in s.options("mira") if o.label.startswith("Cast Firebolt on a few foes…"))
    assert [c.values for c in few.choices] == [{"press_on": True}], "Press On is asked first"
    assert not few_now(few), "the targets are not ticked beside Press On: the question comes before any die"
    assert few_now(replace(few, command=replace(few.command, press_on=True), choices=()))


def test_the_few_are_one_more_answer_beside_every_one_and_each_one__OSE_SPELL_2():
    offered = complete(ose_caster("g1", "g2", "g3"))
    assert few_now(offered)
    assert not few_now(replace(offered, few=())), "no few to tick: the choices alone"


# --- Ogre: declared on a few now, landing on all ticked when the cast resolves (OGRE-READY-1) -------------

def ogre_shaman():
    from ogre_support import orc, pc, start, advance_to
    mage = orc("shaman", caster=True, spells=("Magic Missile (1d4+1 each)",))
    s = start(mage, pc("brak", (6, 4)), pc("mira", (7, 5)), pc("ada", (8, 4)), initiative=[4, 8, 8, 8])
    advance_to(s, 14)  # the shaman declares (OGRE-EX-1)
    return s


def ogre_few(s: Session):
    return next(o for o in s.options("shaman") if o.label == "Cast Magic Missile on a few foes…")


def cast_resolves(s: Session, *faces: int):
    """The party waits (Delay) until the shaman's cast resolves; returns that step."""
    from fray.engine.dice import ScriptedDice
    from fray.rules.ogre import commands as oc
    for _ in range(20):
        waiting = next((oc.Delay(p, None) for p in ("brak", "mira", "ada") if s.check(oc.Delay(p, None)) is None),
                       None)
        step = act(s, waiting) if waiting else s.act(oc.Advance(), ScriptedDice(list(faces)))
        if any(e.kind == "SpellCast" for e in step.events):
            return step
    raise AssertionError("the cast never resolved")


def test_ogre_a_spell_on_each_is_declared_on_a_few_ticked_and_lands_on_all_of_them__OGRE_READY_1():
    from fray.rules.ogre import commands as oc
    from fray.views.ogre import ruler
    s = ogre_shaman()
    few = ogre_few(s)
    assert few.allowed and few.needs == ("few:targets",) and few.few == ("brak", "mira", "ada"), "nearest first"
    assert few.default == 0 and few.choices[0].values == {"category": "Standard"}, "one tap: a Standard spell"
    assert not few_now(few) and few_now(replace(few, choices=())), "the length is answered before the ticking"
    ticked = few_ticked(few.few, {"t:ada": "on", "t:brak": "on", "t:shaman": "on"})
    act(s, replace(few.command, category="Standard", targets=ticked))
    a = s.state.board.fighter("shaman").action
    assert a.targets == ("brak", "ada") and a.label == "Cast Magic Missile (1d4+1 each) on Brak, Ada"
    lane = next(ln for ln in ruler(s.state).lanes if any(b.label == a.label for b in ln.bars))
    assert any("on Brak, Ada" in b.title for b in lane.bars), "the ruler says whom the cast will land on"
    hp = {p: s.state.get(p).hp for p in ("brak", "mira", "ada")}
    step = cast_resolves(s, 2, 3)
    assert "Shaman completes Magic Missile on Brak, Ada" in next(e.text for e in step.events if e.kind == "SpellCast")
    assert {p: hp[p] - s.state.get(p).hp for p in hp} == {"brak": 3, "mira": 0, "ada": 4}, "1d4+1 each ticked"
    s.undo()
    assert {p: s.state.get(p).hp for p in hp} == hp, "one undo takes the resolution back"
    assert isinstance(s.steps[-1].command, (oc.Delay, oc.Advance))


def test_ogre_a_cast_on_a_few_survives_save_and_load_and_an_older_single_target_still_reads__OGRE_READY_1():
    from fray.engine import storage
    from fray.engine.commands import from_json, to_json
    from fray.rules.ogre import RULESET as OGRE, commands as oc
    s = ogre_shaman()
    act(s, oc.Cast("shaman", "Magic Missile (1d4+1 each)", targets=("mira", "ada")))
    again = storage.loads(storage.dumps(s)).session
    assert again.state.board.fighter("shaman").action.targets == ("mira", "ada")
    old = {k: v for k, v in to_json(oc.Cast("shaman", "Magic Missile (1d4+1 each)", target="brak")).items()
           if k != "targets"}  # a file written before a cast could name a few
    cmd = from_json(old, OGRE.namespaces())
    assert cmd.on == ("brak",)
    s = ogre_shaman()
    act(s, cmd)
    assert s.state.board.fighter("shaman").action.targets == ("brak",)
    hp = s.state.get("brak").hp
    cast_resolves(s, 2)
    assert s.state.get("brak").hp == hp - 3


def test_ogre_a_spell_without_each_is_not_offered_on_a_few__OGRE_READY_1():
    from ogre_support import orc, pc, start, advance_to
    mage = orc("shaman", caster=True, spells=("Firebolt (2d6)",))
    s = start(mage, pc("brak"), pc("mira", (7, 5)), initiative=[4, 8, 8])
    advance_to(s, 14)
    labels = [o.label for o in s.options("shaman") if o.group == "Magic"]
    assert "Cast Firebolt on Brak" in labels and not any("a few" in lb for lb in labels)
