"""The session: act, undo, redo, replay, physical dice, and a Hypothesis state
machine over the duel and every importable real system.

Invariants checked after every step of the machines and seeded playouts:
undo restores exactly the previous state; redo gives the same faces and
events; save then load gives an equal session; the log is the concatenation
of the steps' events; no state is mutated after the fact. FRAY_LONG=1 raises
the step counts for CI (>= 10,000 random steps across systems and seeds).
"""
from __future__ import annotations

import copy
import dataclasses
import importlib
import os
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition, rule,
                                 run_state_machine_as_test)

import duel
from fray import rules
from fray.engine import storage
from fray.engine.commands import Command, IllegalCommand
from fray.engine.dice import NeedDice, ScriptedDice, SeededDice
from fray.engine.referee import Allow, Damage, FreeRoll, Heal, Note, SetCondition, SetHp
from fray.engine.session import ReplayError, Session, SetupChange, Step

LONG = os.environ.get("FRAY_LONG") == "1"


# --- systems under test -------------------------------------------------------------

class duel_registered:
    """The duel as a known system (storage looks systems up by name)."""

    def __enter__(self):
        self.had = rules.SYSTEMS.get("duel")
        rules.register("duel", duel.RULESET)

    def __exit__(self, *exc):
        if self.had is None:
            rules.unregister("duel")


@pytest.fixture
def duel_system():
    with duel_registered():
        yield duel.RULESET


def duel_examples():
    return {"three": duel.encounter}


def real_systems() -> dict[str, dict]:
    """name -> {example name: builder(seed)} for every real system importable now."""
    found = {}
    for name in ("olog", "ose", "ogre"):
        try:
            importlib.import_module(f"fray.rules.{name}")
            ex = importlib.import_module(f"fray.rules.{name}_examples").examples()
        except ImportError:
            continue
        if not isinstance(ex, dict):
            ex = {str(i): e for i, e in enumerate(ex)}
        found[name] = ex
    return found


def build(example, seed: int):
    return example(seed) if callable(example) else replace(example, seed=seed)


# --- the harness: a session plus an independent model of its history ---------------

def allowed_commands(session: Session) -> list[Command]:
    """Every command the page could send now without asking the referee for a
    field: allowed options of the current actors, one per answer of a question."""
    out = []
    for actor in session.current():
        for o in session.options(actor):
            if not o.allowed or o.needs:
                continue
            if o.choices:
                out.extend(dataclasses.replace(o.command, **c.values) for c in o.choices)
            else:
                out.append(o.command)
    return out


def forbidden_commands(session: Session) -> list[Command]:
    return [o.command for a in session.current() for o in session.options(a)
            if not o.allowed and not o.needs and not o.choices]


def referee_commands(session: Session, pick) -> Command:
    c = pick(session.state.combatants)
    return pick([Damage(c.id, pick([0, 1, 3, 50])), Heal(c.id, pick([1, 5])), SetHp(c.id, pick([-1, 0, 1, c.max_hp])),
                 SetCondition(c.id, "dazed", pick([True, False])), Note("the torch gutters"),
                 FreeRoll(pick(["d20", "2d6+1", "d5"]), "wandering monster")])


class Harness:
    """Drives a session and checks it against snapshots taken independently."""

    def __init__(self, session: Session, full_checks: bool = True):
        self.s = session
        self.full_checks = full_checks
        self.snapshots = [copy.deepcopy(session.state)]  # the state after each step, by value
        self.undone: list[tuple[object, Step]] = []  # (state before the undo, undone step)

    def act(self, cmd: Command, dice=None) -> Step:
        n = len(self.s.steps)
        step = self.s.act(cmd, dice)
        assert len(self.s.steps) == n + 1 and self.s.steps[-1] is step
        assert not self.s.can_redo, "a new act clears the redo stack"
        self.snapshots.append(copy.deepcopy(self.s.state))
        self.undone.clear()
        return step

    def act_physical(self, cmd: Command, face) -> Step:
        """CORE-DICE-3: the referee types each face when asked; nothing changes
        until every face is in, and the typed faces are recorded as rolled."""
        typed: list[int] = []
        while True:
            before = (self.s.state, len(self.s.steps), len(self.s.redo_stack))
            try:
                step = self.act(cmd, ScriptedDice(typed))
            except NeedDice as need:
                assert (self.s.state, len(self.s.steps), len(self.s.redo_stack)) == before
                assert need.count >= 1 and need.sides >= 1
                typed.extend(face(need.sides) for _ in range(need.count))
                continue
            assert step.dice == tuple(typed)
            faces = [f for e in step.events for r in e.rolls for f in r.faces]
            assert faces == list(step.dice[:len(faces)]), "the log shows the typed faces"
            return step

    def refuse(self, cmd: Command) -> None:
        before = (self.s.state, list(self.s.steps), list(self.s.redo_stack))
        with pytest.raises(IllegalCommand):
            self.s.act(cmd)
        assert (self.s.state, self.s.steps, self.s.redo_stack) == before

    def undo(self) -> None:
        before = self.s.state
        step = self.s.undo()
        self.snapshots.pop()
        assert self.s.state == self.snapshots[-1], "undo restores exactly the previous state"
        self.undone.append((before, step))
        assert self.s.redo_stack[-1] is step

    def redo(self) -> None:
        state, step = self.undone.pop()
        again = self.s.redo()
        assert (again.command, again.dice) == (step.command, step.dice)
        assert again.events == step.events, "redo gives the same faces and the same events"
        assert self.s.state == state
        self.snapshots.append(copy.deepcopy(self.s.state))

    def save_load(self, link: bool = False) -> None:
        s = self.s
        loaded = storage.decode_link(storage.encode_link(s)) if link else storage.loads(storage.dumps(s))
        t = loaded.session
        assert t.encounter == s.encounter
        assert t.state == s.state
        assert [(x.command, x.dice, x.events) for x in t.steps] == [(x.command, x.dice, x.events) for x in s.steps]
        assert [(x.command, x.dice) for x in t.redo_stack] == [(x.command, x.dice) for x in s.redo_stack]
        assert t.physical_dice == s.physical_dice
        self.s = t

    def check(self) -> None:
        s = self.s
        assert len(s.steps) + 1 == len(self.snapshots)
        assert s.state == self.snapshots[-1]
        assert list(s.log()) == [(i, e) for i, st_ in enumerate(s.steps, 1) for e in st_.events], \
            "the log is the concatenation of the steps' events"
        assert s.state.rolls == sum(len(x.dice) for x in s.steps), "the dice counter counts every face"
        assert s.can_undo == bool(s.steps) and s.can_redo == bool(s.redo_stack)
        # nothing earlier was mutated in place (stats dicts, system records...)
        indices = range(len(self.snapshots)) if self.full_checks else (0, len(self.snapshots) - 1)
        for i in indices:
            assert s.state_at(i) == self.snapshots[i], f"state {i} changed after the fact"


# --- plain session behaviour -----------------------------------------------------------

def fresh(seed: int = 7) -> Session:
    return Session(duel.encounter(seed), duel.RULESET)


def test_act_appends_a_step_with_its_faces_and_events__CORE_DICE_3():
    s = fresh()
    step = s.act(duel.Strike("a1", "b1"), ScriptedDice([6]))
    assert step.command == duel.Strike("a1", "b1") and step.dice == (6,)
    assert [e.kind for e in step.events] == ["Struck", "DamageTaken"]
    assert s.state.get("b1").hp == 2 and s.state.rolls == 1
    assert s.current() == ("b1",)
    assert s.state_at(0) == s.initial and s.initial.get("b1").hp == 8


def test_undo_and_redo_walk_the_history():
    s = fresh()
    assert s.undo() is None and s.redo() is None
    s.act(duel.Strike("a1", "b1"))
    s.act(duel.Pass("b1"))
    after_two = s.state
    undone = s.undo()
    assert undone.command == duel.Pass("b1") and s.can_redo and len(s.steps) == 1
    assert s.current() == ("b1",)
    redone = s.redo()
    assert redone.command == undone.command and s.state == after_two and not s.can_redo


def test_a_new_act_after_undo_clears_redo():
    s = fresh()
    s.act(duel.Strike("a1", "b1"))
    s.act(duel.Pass("b1"))
    s.undo()
    s.act(duel.Strike("b1", "a1"))
    assert not s.can_redo and s.redo() is None


def test_undo_then_redo_gives_the_same_faces_and_events__CORE_DICE_3():
    s = fresh()
    first = s.act(duel.Strike("a1", "b1"))
    state = s.state
    s.undo()
    again = s.redo()
    assert (again.dice, again.events) == (first.dice, first.events)
    assert s.state == state


def test_undo_then_acting_again_rolls_the_same_faces_no_rerolls_by_undoing__CORE_DICE_3():
    s = fresh(seed=12)
    faces = [s.act(duel.Strike("a1", "b1")).dice]
    for _ in range(5):
        s.undo()
        faces.append(s.act(duel.Strike("a1", "b1")).dice)
    assert len(set(faces)) == 1


def test_seeded_faces_follow_the_dice_counter_in_the_state__CORE_DICE_3():
    s = fresh(seed=4)
    s.act(duel.Strike("a1", "b1"))
    s.act(duel.Strike("b1", "a1"))
    expected = SeededDice(4, counter=s.state.rolls).roll("1d4").faces
    assert s.act(duel.Strike("b2", "a1")).dice == expected


def test_an_illegal_command_changes_nothing():
    s = fresh()
    s.act(duel.Strike("a1", "b1"))
    s.act(duel.Pass("b1"))
    s.undo()
    before = (s.state, list(s.steps), list(s.redo_stack))
    with pytest.raises(IllegalCommand) as err:
        s.act(duel.Strike("a1", "b2"))
    assert err.value.illegal.reason == "NOT_YOUR_TURN"
    assert str(err.value) == "It is not Ann's turn"
    assert (s.state, s.steps, s.redo_stack) == before


def test_allow_resolves_a_forbidden_command_and_is_logged__CORE_REF_1():
    s = fresh()
    assert s.check(duel.Strike("b2", "a1")) is not None
    step = s.act(Allow(duel.Strike("b2", "a1")), ScriptedDice([3]))
    assert step.events[0].kind == "Overridden" and step.events[0].rule == "CORE-REF-1"
    assert s.state.get("a1").hp == 7
    assert s.undo().command == Allow(duel.Strike("b2", "a1"))


def test_physical_dice_ask_for_faces_and_record_them_the_same_way__CORE_DICE_3():
    s = fresh()
    s.physical_dice = True
    with pytest.raises(NeedDice) as need:
        s.act(duel.Strike("a1", "b1"), ScriptedDice([]))
    assert (need.value.sides, need.value.count, need.value.purpose) == (8, 1, "damage")
    assert not s.steps and s.state == s.initial
    step = s.act(duel.Strike("a1", "b1"), ScriptedDice([7]))
    assert step.dice == (7,)
    assert step.events[0].rolls[0].faces == (7,) and "[7]" in step.events[0].text
    assert s.state.rolls == 1
    # undo and redo keep the typed face, not a software roll
    s.undo()
    assert s.redo().dice == (7,)


def test_a_typed_face_the_die_cannot_show_is_refused_and_changes_nothing__CORE_DICE_3():
    from fray.engine.dice import BadFace
    s = fresh()
    with pytest.raises(BadFace):
        s.act(duel.Strike("a1", "b1"), ScriptedDice([9]))
    assert not s.steps


def test_log_numbers_events_by_step():
    s = fresh()
    s.act(Note("one"))
    s.act(duel.Strike("a1", "b1"), ScriptedDice([1]))
    assert [(i, e.kind) for i, e in s.log()] == [(1, "Noted"), (2, "Struck"), (2, "DamageTaken")]


def test_session_finds_its_ruleset_by_system_name(duel_system):
    assert Session(duel.encounter()).ruleset is duel_system


def test_session_fills_in_default_settings():
    enc = replace(duel.encounter(), settings={})
    s = Session(enc, duel.RULESET)
    assert s.encounter.settings == {"bonus": 0} and s.state.setting("bonus") == 0


# --- replay errors name the step ------------------------------------------------------

def recorded(*pairs):
    return [(cmd, tuple(faces)) for cmd, faces in pairs]


@pytest.mark.parametrize("steps, redo, message", [
    (recorded((duel.Strike("a1", "b1"), [3]), (duel.Strike("a1", "b1"), [3])), [],
     "steps[1]: Strike is not allowed here: It is not Ann's turn"),
    (recorded((duel.Strike("a1", "b1"), [])), [], "steps[0].dice: too few dice recorded (needed a d8)"),
    (recorded((duel.Strike("a1", "b1"), [9])), [], "steps[0].dice: 9 is not a face of a d8 (damage)"),
    (recorded((duel.Pass("a1"), [2])), [], "steps[0].dice: 1 more dice recorded than the step rolls"),
    (recorded((Note("x"), []), (SetHp("zz", 1), [])), [], "steps[1]: SetHp is not allowed here: There is no combatant 'zz'"),
    (recorded((duel.Pass("a1"), [])), recorded((duel.Strike("a1", "b1"), [2])),
     "redo[0]: Strike is not allowed here: It is not Ann's turn"),
    (recorded((duel.Pass("a1"), [])), recorded((duel.Pass("b1"), []), (duel.Strike("b2", "a1"), [])),
     "redo[1].dice: too few dice recorded (needed a d4)"),
])
def test_replay_errors_name_the_step(steps, redo, message):
    with pytest.raises(ReplayError) as err:
        Session.replay(duel.encounter(), steps, redo, ruleset=duel.RULESET)
    assert str(err.value) == message


def test_replay_rebuilds_the_same_session_and_redo_stack():
    s = fresh()
    s.act(duel.Strike("a1", "b1"))
    s.act(duel.Strike("b1", "a1"))
    s.act(duel.Pass("b2"))
    s.undo()
    s.undo()
    r = Session.replay(s.encounter, [(x.command, x.dice) for x in s.steps],
                       [(x.command, x.dice) for x in reversed(s.redo_stack)], ruleset=duel.RULESET)
    assert r.state == s.state
    assert [(x.command, x.dice, x.events) for x in r.redo_stack] == \
           [(x.command, x.dice, x.events) for x in s.redo_stack]
    assert r.redo().events == s.redo().events


# --- one history: steps and setup changes ---------------------------------------------

def snapshot(s: Session):
    """Everything a setup change swaps, compared by value (and states by identity)."""
    return (s.encounter, s.ruleset, list(s.steps), list(s.redo_stack), [s.state_at(i) for i in range(len(s.steps) + 1)],
            s.physical_dice)


def edited(s: Session, **changes) -> Session:
    """The session a mid-fight edit of the setup gives: the steps replayed over the new setup."""
    return Session.replay(replace(s.encounter, **changes), [(x.command, x.dice) for x in s.steps],
                          [(x.command, x.dice) for x in reversed(s.redo_stack)], ruleset=s.ruleset)


def test_undo_and_redo_walk_steps_and_setup_changes_in_order():
    s = fresh()
    s.act(duel.Strike("a1", "b1"))
    before = snapshot(s)
    states_before = [s.state_at(0), s.state_at(1)]
    s.adopt(edited(s, name="Renamed"))
    assert s.encounter.name == "Renamed" and len(s.steps) == 1 and s.can_undo
    s.act(duel.Pass("b1"))
    after_two = snapshot(s)
    assert [type(e).__name__ for e in s.history] == ["Step", "SetupChange", "Step"]
    assert s.undo().command == duel.Pass("b1")  # the step after the change first
    assert isinstance(s.undo(), SetupChange)  # then the change: the setup before it, exactly
    assert snapshot(s) == before
    assert [s.state_at(0), s.state_at(1)] == states_before and s.state_at(1) is states_before[1]
    assert s.undo().command == duel.Strike("a1", "b1") and not s.can_undo
    assert s.redo().command == duel.Strike("a1", "b1")
    assert isinstance(s.redo(), SetupChange) and s.encounter.name == "Renamed"
    assert s.redo().command == duel.Pass("b1") and not s.can_redo
    assert snapshot(s)[:4] == after_two[:4] and s.state == after_two[4][-1]


def test_a_new_step_after_undoing_a_setup_change_clears_redo():
    s = fresh()
    s.act(duel.Strike("a1", "b1"))
    s.adopt(Session(replace(s.encounter, name="Restarted"), duel.RULESET))  # a restart: no steps
    assert s.steps == [] and s.can_undo
    s.undo()
    assert s.can_redo and s.encounter.name != "Restarted"
    s.act(duel.Pass("b1"))
    assert not s.can_redo and s.redo() is None and len(s.steps) == 2


def test_adopting_another_encounter_keeps_the_ruleset_and_dice_mode_for_undo(duel_system):
    s = fresh()
    s.physical_dice = True
    s.act(duel.Strike("a1", "b1"), ScriptedDice([3]))
    before = snapshot(s)
    other = Session(rules.examples("olog")["skirmish"](1))  # another system and ruleset
    s.adopt(other)
    assert s.ruleset is other.ruleset and s.encounter.system == "olog" and not s.physical_dice
    assert s.steps == [] and s.state is other.state
    s.undo()
    assert snapshot(s) == before and s.ruleset is duel.RULESET
    # The save file holds the current setup's steps and redo, as before.
    doc = storage.dump(s)
    assert doc["encounter"]["system"] == "duel" and len(doc["steps"]) == 1 and doc["redo"] == []
    s.redo()
    assert storage.dump(s)["encounter"]["system"] == "olog"


def test_undoing_a_setup_change_keeps_the_steps_undone_after_it_for_redo():
    s = fresh()
    s.adopt(edited(s, name="Edited"))
    s.act(duel.Strike("a1", "b1"))
    s.undo()  # the step: on the edited setup's redo stack
    s.undo()  # the change
    assert s.redo_stack == [] and s.encounter.name != "Edited"
    s.redo()
    assert s.encounter.name == "Edited" and len(s.redo_stack) == 1
    assert s.redo().command == duel.Strike("a1", "b1") and s.state.get("b1").hp < s.initial.get("b1").hp


def test_a_loaded_session_can_undo_its_recorded_steps_and_redo_its_recorded_redo():
    s = fresh()
    s.act(duel.Strike("a1", "b1"))
    s.act(duel.Pass("b1"))
    s.undo()
    r = Session.replay(s.encounter, [(x.command, x.dice) for x in s.steps],
                       [(x.command, x.dice) for x in reversed(s.redo_stack)], ruleset=duel.RULESET)
    assert list(r.history) == r.steps and list(r.undone) == r.redo_stack
    assert r.redo().command == duel.Pass("b1")


# --- Hypothesis state machines ----------------------------------------------------------

class SessionMachine(RuleBasedStateMachine):
    """Random acts, physical-dice acts, referee overrides, undo, redo, save/load."""

    system = "duel"
    examples: dict = {}
    allow_forbidden = True

    def __init__(self):
        super().__init__()
        self.h: Harness | None = None

    @initialize(data=st.data())
    def start(self, data):
        name = data.draw(st.sampled_from(sorted(self.examples)), label="example")
        seed = data.draw(st.integers(0, 2 ** 31 - 1), label="seed")
        ruleset = rules.get(self.system)
        self.h = Harness(Session(build(self.examples[name], seed), ruleset))

    @rule(data=st.data())
    def act(self, data):
        cmds = allowed_commands(self.h.s)
        if cmds:
            self.h.act(data.draw(st.sampled_from(cmds), label="command"))

    @rule(data=st.data())
    def act_with_physical_dice(self, data):
        cmds = allowed_commands(self.h.s)
        if cmds:
            cmd = data.draw(st.sampled_from(cmds), label="command")
            self.h.act_physical(cmd, lambda sides: data.draw(st.integers(1, sides), label=f"d{sides}"))

    @rule(data=st.data())
    def referee(self, data):
        cmd = referee_commands(self.h.s, lambda xs: data.draw(st.sampled_from(list(xs))))
        self.h.act(cmd)

    @rule(data=st.data())
    def override(self, data):
        cmds = forbidden_commands(self.h.s) if self.allow_forbidden else []
        if cmds:
            cmd = data.draw(st.sampled_from(cmds), label="forbidden")
            self.h.refuse(cmd)
            self.h.act(Allow(cmd))

    @precondition(lambda self: self.h is not None and self.h.s.can_undo)
    @rule()
    def undo(self):
        self.h.undo()

    @precondition(lambda self: self.h is not None and self.h.s.can_redo)
    @rule()
    def redo(self):
        self.h.redo()

    @rule(link=st.booleans())
    def save_and_load(self, link):
        self.h.save_load(link)

    @invariant()
    def consistent(self):
        if self.h is not None:
            self.h.check()


def machine_settings(examples: int, steps: int) -> settings:
    return settings(max_examples=examples, stateful_step_count=steps, deadline=None,
                    suppress_health_check=list(HealthCheck), print_blob=True)


def test_state_machine_over_the_duel():
    machine = type("DuelMachine", (SessionMachine,), {"system": "duel", "examples": duel_examples()})
    with duel_registered():
        run_state_machine_as_test(machine, settings=machine_settings(200 if LONG else 40, 50 if LONG else 25))


REAL = real_systems()


@pytest.mark.parametrize("system", sorted(REAL) or [pytest.param("none", marks=pytest.mark.skip("no real system yet"))])
def test_state_machine_over_a_real_system(system):
    machine = type(f"{system.title()}Machine", (SessionMachine,),
                   {"system": system, "examples": REAL[system], "allow_forbidden": False})
    run_state_machine_as_test(machine, settings=machine_settings(150 if LONG else 12, 40 if LONG else 20))


# --- seeded playouts: many steps, reproducible by seed -----------------------------------

def playout(session: Session, seed: int, steps: int) -> Harness:
    """Random legal play with undo/redo/save-load mixed in; returns the harness."""
    rng = random.Random(seed)
    h = Harness(session, full_checks=False)
    for n in range(steps):
        roll = rng.random()
        s = h.s
        if roll < 0.10 and s.can_undo:
            h.undo()
        elif roll < 0.16 and s.can_redo:
            h.redo()
        elif roll < 0.18:
            h.save_load(link=rng.random() < 0.5)
        elif roll < 0.22:
            h.act(referee_commands(s, rng.choice))
        else:
            cmds = allowed_commands(s)
            if not cmds or s.state.outcome:
                if s.can_undo:
                    for _ in range(rng.randint(1, min(10, len(s.steps)))):
                        h.undo()
                continue
            cmd = rng.choice(cmds)
            if roll < 0.30:
                h.act_physical(cmd, lambda sides: rng.randint(1, sides))
            else:
                h.act(cmd)
        if n % 25 == 0:
            h.check()
    h.check()
    return h


def _playout_cases():
    seeds = range(5) if LONG else range(2)
    cases = [pytest.param("duel", "three", seed, id=f"duel-{seed}") for seed in seeds]
    for system, examples in sorted(REAL.items()):
        for name in sorted(examples):
            cases += [pytest.param(system, name, seed, id=f"{system}-{name}-{seed}") for seed in seeds]
    return cases


@pytest.mark.parametrize("system, example, seed", _playout_cases())
def test_seeded_playout_keeps_every_invariant(system, example, seed):
    steps = 400 if LONG else 60
    with duel_registered():
        examples = duel_examples() if system == "duel" else REAL[system]
        session = Session(build(examples[example], seed), rules.get(system))
        h = playout(session, seed, steps)
    assert h.s.steps or h.s.redo_stack or steps < 5
