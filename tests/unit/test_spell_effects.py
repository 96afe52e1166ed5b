"""Spells that do what they say (issue 34): a roster entry "Magic Missile (1d6+1 each)" or "Sleep (asleep for
1 min)" carries its effect; completing the spell (OSE's Magic step, Ogre's cast resolving, OLOG's cast) asks
only for its targets, and the damage, healing and timed condition land inside that one step, which one undo
takes back. An effect never ends a step or a turn by itself."""
from __future__ import annotations

import pytest
from acting import act
from ogre_support import advance_to, orc, pc, start
from ose_kit import fighter, session as ose_session, start as ose_start

from fray.engine import storage
from fray.engine.dice import ScriptedDice
from fray.engine.referee import Damage, Effect
from fray.engine.session import Session
from fray.engine.spells import SpellEffect, spell_effect
from fray.rules.ogre import commands as oc
from fray.rules.olog import RULESET as OLOG, CastSpell, RollInitiative
from fray.rules.olog.examples import two_orcs
from fray.rules.ose import CompleteSpell, Declare, Done, EndStep


@pytest.mark.parametrize("entry, name, effect", [
    ("Magic Missile (1d6+1 each)", "Magic Missile", SpellEffect("1d6+1", each=True)),
    ("Cure Light Wounds (1d6+1 heal)", "Cure Light Wounds", SpellEffect("1d6+1", heal=True)),
    ("Sleep (asleep for 1 min)", "Sleep", SpellEffect(condition="asleep", lasts="1 min")),
    ("Burning Hands (1d8, burning for 2 rounds)", "Burning Hands", SpellEffect("1d8", condition="burning",
                                                                               lasts="2 rounds")),
    ("Hold Person (Held)", "Hold Person", SpellEffect(condition="held")),
])
def test_a_roster_entry_carries_its_spells_effect__CORE_REF_1(entry, name, effect):
    assert spell_effect(entry) == (name, effect)


@pytest.mark.parametrize("entry", ["Sleep", "Light (a torch's worth)", "Odd (1d6, 2d6)", "Odd (1d6 twice)", "X ()"])
def test_an_entry_without_a_readable_effect_is_only_a_name_narrated_as_before__CORE_REF_1(entry):
    assert spell_effect(entry) == (entry, None)


# --- OSE: the Magic step -------------------------------------------------------------------------------

def ose_caster(*spells: str) -> Session:
    s = ose_session(fighter("mira", "a", (2, 2), hp=4, spells=spells), fighter("ann", "a", (2, 4), hp=10),
                    fighter("g1", "b", (12, 2), hp=6), fighter("g2", "b", (12, 4), hp=6))
    act(s, Declare("mira", "spell", spells[0]))
    ose_start(s, 9, 2)
    act(s, Done("mira"))
    act(s, Done("ann"))  # on to the Magic step (nothing to shoot)
    assert s.state.board.step == 2
    return s


def test_ose_magic_missile_asks_only_for_targets_and_hits_each_with_its_own_roll__OSE_SPELL_2():
    s = ose_caster("Magic Missile (1d6+1 each)")
    offered = next(o for o in s.options("mira") if isinstance(o.command, CompleteSpell))
    assert offered.label == "Complete Magic Missile" and offered.hint == "1d6+1 damage each"
    assert [c.label for c in offered.choices] == ["On every foe (2)", "On G1", "On G2"]
    every = offered.choices[0].values
    step = act(s, CompleteSpell("mira", **every), 2, 5)
    assert s.state.get("g1").hp == 3 and s.state.get("g2").hp == 0
    assert [e.kind for e in step.events][:2] == ["SpellCast", "EffectApplied"]
    s.undo()
    assert s.state.get("g1").hp == 6 and "mira" in s.state.board.casting, "one undo: the spell and its effect"


@pytest.mark.parametrize("said", ["Magic Missile", "magic  missile", "Magic Missile (1d6+1 each)"])
def test_ose_a_spell_with_an_effect_is_declared_by_its_name__OSE_SPELL_5__OSE_DECL_1(said):
    s = ose_session(fighter("mira", "a", (2, 2), hp=4, spells=("Magic Missile (1d6+1 each)", "Sleep")),
                    fighter("g1", "b", (12, 2), hp=6))
    assert s.check(Declare("mira", "spell", said)) is None
    step = act(s, Declare("mira", "spell", said))
    assert step.events[0].text == "Mira declares to cast Magic Missile (1d6+1 each)"
    assert s.state.board.declared["mira"] == ("spell", "Magic Missile (1d6+1 each)")
    refused = s.check(Declare("mira", "spell", "Magic"))
    assert refused is not None and "no spell 'Magic' memorised" in refused.detail


def test_ose_sleep_puts_its_targets_asleep_for_a_minute_of_rounds__OSE_SPELL_2__OSE_TURN_3():
    s = ose_caster("Sleep (asleep for 1 min)")
    act(s, CompleteSpell("mira", ("g1", "g2")))
    assert s.state.get("g1").has_condition("asleep")
    assert s.state.timers == (("g1", "asleep", 1 + 6), ("g2", "asleep", 1 + 6))
    back = storage.loads(storage.dumps(s)).session
    assert back.state == s.state


def test_ose_a_healing_spell_is_offered_on_the_casters_side__OSE_SPELL_2():
    s = ose_caster("Cure Light Wounds (1d6+1 heal)")
    offered = next(o for o in s.options("mira") if isinstance(o.command, CompleteSpell))
    assert [c.label for c in offered.choices] == ["On every ally (2)", "On Mira", "On Ann"]


def test_an_effect_applied_in_the_melee_step_does_not_end_the_step__CORE_REF_1__OSE_ORDER_1():
    s = ose_session(fighter("ann", "a", (2, 2)), fighter("gob", "b", (3, 2)))
    ose_start(s, 9, 2)
    while s.state.board.step != 3:
        act(s, EndStep("ann"))
    before = (s.state.board.step, s.state.board.turn, s.current())
    act(s, Effect(("gob",), "1d4", note="Burning oil"), 2)
    act(s, Damage("gob", 1))
    assert (s.state.board.step, s.state.board.turn, s.current()) == before


# --- OLOG: the cast -------------------------------------------------------------------------------------

def test_olog_a_known_spell_with_an_effect_is_one_option_per_target__OLOG_SPELL_1():
    enc = two_orcs(1)
    brak = enc.combatants[0]
    enc = enc.__class__(**{**enc.__dict__, "combatants": (brak.__class__(**{
        **brak.__dict__, "stats": {**brak.stats, "spells": ("Firebolt (1d6)",)}}),) + enc.combatants[1:]})
    s = Session(enc, OLOG)
    act(s, RollInitiative(), 18)
    labels = [o.label for o in s.options("brak") if isinstance(o.command, CastSpell)]
    assert labels == ["Cast a spell… (extended)", "Cast Firebolt on every foe (2) (extended)",
                      "Cast Firebolt on Orc 1 (extended)", "Cast Firebolt on Orc 2 (extended)"]
    opt = next(o for o in s.options("brak") if o.label == "Cast Firebolt on Orc 1 (extended)")
    cmd = opt.command if not opt.choices else opt.command.__class__(
        **{**opt.command.__dict__, **opt.choices[0].values})
    step = act(s, cmd, *([3, 4] if cmd.press_on else [4]))
    assert s.state.get("orc1").hp == 2 and any(e.kind == "SpellCast" for e in step.events)


# --- Ogre: the cast resolves ----------------------------------------------------------------------------

def test_ogre_a_spell_on_a_foe_lands_when_the_cast_resolves__OGRE_READY_1__OGRE_ACT_1():
    mage = orc("orc", caster=True, spells=("Firebolt (2d6)",))
    s = start(mage, pc(), initiative=[4, 8])
    advance_to(s, 14)  # the orc declares (OGRE-EX-1)
    opt = next(o for o in s.options("orc") if o.label == "Cast Firebolt on Brak")
    assert [c.label for c in opt.choices][0].startswith("Standard") and opt.hint == "2d6 damage"
    assert opt.default == 0, "one tap casts it as a Standard spell"
    act(s, oc.Cast("orc", "Firebolt (2d6)", 0, "Standard", "brak"))
    hp = s.state.get("brak").hp
    for _ in range(12):
        if any(e.kind == "EffectApplied" for st in s.steps for e in st.events):
            break
        delay = oc.Delay("brak", None)
        if s.check(delay) is None:
            act(s, delay)  # Brak waits: the cast resolves first
        else:
            s.act(oc.Advance(), ScriptedDice([3, 4]))  # the effect's 2d6, when the cast resolves
    assert s.state.get("brak").hp == hp - 7
