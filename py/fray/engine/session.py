"""An encounter's history: the setup plus the list of applied steps.

`act` checks, resolves and appends; `undo` moves the last step to the redo
stack; `redo` re-applies it with the very faces it rolled. Every state along
the way is kept (states share their unchanged parts), so undo is instant and
the log is simply every step's events.

The referee may also change the setup mid-fight (an edit that replays the
steps, a restart, or another encounter opened from a file, a link or an
example). `adopt` records that as a `SetupChange` in the same history as the
steps, so undo and redo walk both in the order they happened, and undoing a
setup change brings back the previous setup exactly (its steps, states, redo
and ruleset are kept as they were, never re-read from JSON).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator

from .commands import Command, Event, Illegal, IllegalCommand, Option
from .dice import BadFace, Dice, MixedDice, NeedDice, ScriptedDice, SeededDice
from .encounter_io import SetupError, check_encounter
from .model import Encounter
from .ruleset import Ruleset, default_lookup
from .state import State


@dataclass(frozen=True)
class Step:
    """One applied command with every face it rolled and the events it made."""

    command: Command
    dice: tuple[int, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Fold:
    """One setup and everything folded over it: what a setup change swaps."""

    encounter: Encounter
    ruleset: Ruleset
    steps: tuple[Step, ...]
    redo: tuple[Step, ...]  # the redo stack, its next step last
    states: tuple[State, ...]
    physical_dice: bool
    hand_sides: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SetupChange:
    """A history entry: the setup in force before and after the change."""

    before: Fold
    after: Fold


Entry = Step | SetupChange  # one entry of the history: a command step or a setup change


class ReplayError(ValueError):
    """A recorded step that no longer applies (index and reason in the message)."""


class Session:
    """The referee's fight: the setup, the steps, the redo stack, and one
    history of entries (steps and setup changes) that undo and redo walk."""

    def __init__(self, encounter: Encounter, ruleset: Ruleset | None = None) -> None:
        """Start a fight. Raises `SetupError` (its `problems` in the
        loader's words: field path, value, allowed range) for a setup a save
        file could not hold; engine/limits.py has every limit."""
        if ruleset is None:  # the installed registry's ruleset for the encounter's system
            ruleset = default_lookup()[encounter.system]
        self.ruleset = ruleset
        # Every setting the system has is written into the setup: a file
        # loaded back fills in the defaults, so without this the same fight
        # was a different encounter before and after a save.
        defaults = ruleset.default_settings()
        if any(k not in encounter.settings for k in defaults):
            encounter = replace(encounter, settings={**defaults, **encounter.settings})
        # What the API saves, the API opens: a setup outside the
        # limits is refused here, with the loader's own messages, rather
        # than saved into a file that cannot be opened again. The session
        # keeps the encounter in the form its file loads back as.
        encounter, problems = check_encounter(encounter, ruleset)
        if problems:
            raise SetupError(problems)
        self.encounter = encounter
        self.steps: list[Step] = []
        self.redo_stack: list[Step] = []
        first = ruleset.begin(encounter)
        # The outcome is computed after every step; the start needs it too (a
        # setup with no hostile sides standing is decided before any command).
        self._states: list[State] = [replace(first, outcome=ruleset.decided(first))]
        self.physical_dice = False  # every die typed by the referee (CORE-DICE-3)
        self.hand_sides: frozenset[str] = frozenset()  # else the sides whose own rolls are typed
        self._done: list[Entry] = []  # the history, oldest first
        self._undone: list[Entry] = []  # what undo took back, the next to redo last

    # --- reading ---------------------------------------------------------
    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def initial(self) -> State:
        return self._states[0]

    def dice_for(self, faces: list[int] | tuple[int, ...] = ()) -> Dice | None:
        """Where the next step's faces come from, given those typed so far: the app's own (None),
        every die typed, or typed for the rolls of the `hand_sides` and the app's for the rest."""
        if self.physical_dice:
            return ScriptedDice(faces)
        if not self.hand_sides:
            return None
        return MixedDice(self.encounter.seed, self.state.rolls, faces, self.rolled_by_hand)

    def dice_from(self, other: "Session") -> None:
        """Who rolls, as in `other` (a setup edited, a restart): its sides still here keep typing."""
        self.physical_dice = other.physical_dice
        ids = {side.id for side in self.encounter.sides}
        self.hand_sides = frozenset(x for x in other.hand_sides if x in ids)

    def rolled_by_hand(self, by: str) -> bool:
        """Whether a roll made by `by` (a combatant's or a side's id) is typed by a person."""
        if self.physical_dice or by in self.hand_sides:
            return True
        state = self.state
        return bool(by) and state.has(by) and state.get(by).side in self.hand_sides

    def reopened(self) -> "Session":
        """This session as its save file opens again (`replay`), without replaying it: the same setup,
        steps, redo steps and states, and a history of the steps alone (a setup change, an example
        adopted in this tab, are not entries a file keeps). The copy shares the states; it is read only."""
        other = object.__new__(Session)
        other.__dict__.update(self.__dict__)
        other.steps, other.redo_stack = list(self.steps), list(self.redo_stack)
        other._states = list(self._states)
        other._done, other._undone = list(self.steps), list(self.redo_stack)
        return other

    def state_at(self, index: int) -> State:
        """The state after `index` steps."""
        return self._states[index]

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    @property
    def history(self) -> tuple[Entry, ...]:
        """Every entry undo can take back, oldest first."""
        return tuple(self._done)

    @property
    def undone(self) -> tuple[Entry, ...]:
        """Every entry redo can bring back, the next one last."""
        return tuple(self._undone)

    def log(self) -> Iterator[tuple[int, Event]]:
        """Every event, oldest first, with the number of its step (1-based)."""
        for i, step in enumerate(self.steps, 1):
            for e in step.events:
                yield i, e

    def options(self, actor: str) -> list[Option]:
        return self.ruleset.options(self.state, actor)

    def current(self) -> tuple[str, ...]:
        return self.ruleset.current(self.state)

    def where(self) -> dict:
        """Where the fight is now (round, phase, who acts, the system's own place): `Ruleset.where`."""
        return self.ruleset.where(self.state)

    def check(self, cmd: Command) -> Illegal | None:
        return self.ruleset.check(self.state, cmd)

    # --- changing --------------------------------------------------------
    def act(self, cmd: Command, dice: Dice | None = None) -> Step:
        """Check, resolve and append a command. Raises IllegalCommand (nothing
        changes) or NeedDice when physical dice must be typed first."""
        illegal = self.check(cmd)
        if illegal is not None:
            raise IllegalCommand(illegal)
        step, state = self._apply(self.state, cmd, dice)
        self.steps.append(step)
        self._states.append(state)
        self.redo_stack.clear()
        self._done.append(step)
        self._undone.clear()
        return step

    def _apply(self, state: State, cmd: Command, dice: Dice | None) -> tuple[Step, State]:
        if dice is None:
            dice = SeededDice(self.encounter.seed, state.rolls)
        new_state, events = self.ruleset.resolve(state, cmd, dice)
        new_state = replace(new_state, rolls=state.rolls + len(dice.used),
                            outcome=self.ruleset.decided(new_state))
        return Step(cmd, tuple(dice.used), tuple(events)), new_state

    def undo(self) -> Entry | None:
        """Take back the last entry: a step goes to the redo stack; a setup
        change brings back the setup before it as it was."""
        if not self._done:
            return None
        entry = self._done.pop()
        while isinstance(entry, Step) and entry.command.chained() and self._done and isinstance(self._done[-1], Step):
            # A step the app took by itself goes back with the one that led to it.
            self.steps.pop()
            self._states.pop()
            self.redo_stack.append(entry)
            self._undone.append(entry)
            entry = self._done.pop()
        if isinstance(entry, SetupChange):
            # The setup being left is kept as it is now, so redo returns to it.
            entry = SetupChange(entry.before, self._fold())
            self._restore(entry.before)
        else:
            self.steps.pop()
            self._states.pop()
            self.redo_stack.append(entry)
        self._undone.append(entry)
        return entry

    def redo(self) -> Entry | None:
        """Bring back the last undone entry: a step is re-applied with the
        faces it rolled before; a setup change returns to the setup after it."""
        if not self._undone:
            return None
        entry = self._undone.pop()
        if isinstance(entry, SetupChange):
            entry = SetupChange(self._fold(), entry.after)
            self._restore(entry.after)
        else:
            step = self.redo_stack.pop()
            entry, state = self._apply(self.state, step.command, ScriptedDice(step.dice))
            self.steps.append(entry)
            self._states.append(state)
        self._done.append(entry)
        if self._undone and isinstance(self._undone[-1], Step) and self._undone[-1].command.chained():
            self.redo()  # the step the app took by itself after this one comes back with it
        return entry

    # --- changing the setup ------------------------------------------------
    def adopt(self, other: "Session") -> SetupChange:
        """Make `other`'s setup this session's (its steps, redo, states,
        ruleset and dice mode), as one history entry that undo takes back.
        `other` is a session built for the purpose (a setup edited and its
        steps replayed, a restart, an opened file); its own history is not
        taken over, so one undo returns to the encounter before."""
        change = SetupChange(self._fold(), other._fold())
        self._restore(change.after)
        self._done.append(change)
        self._undone.clear()
        return change

    def _fold(self) -> Fold:
        return Fold(self.encounter, self.ruleset, tuple(self.steps), tuple(self.redo_stack),
                    tuple(self._states), self.physical_dice, self.hand_sides)

    def _restore(self, fold: Fold) -> None:
        self.encounter = fold.encounter
        self.ruleset = fold.ruleset
        self.steps = list(fold.steps)
        self.redo_stack = list(fold.redo)
        self._states = list(fold.states)
        self.physical_dice = fold.physical_dice
        self.hand_sides = fold.hand_sides

    # --- rebuilding from a save file ---------------------------------------
    @classmethod
    def replay(cls, encounter: Encounter, recorded: list[tuple[Command, tuple[int, ...]]],
               redo: list[tuple[Command, tuple[int, ...]]] = (), ruleset: Ruleset | None = None) -> "Session":
        """Fold recorded commands over the setup with their recorded faces.
        Each step must still be legal and use exactly its faces. The redo
        steps are checked the same way from the last state (and then dropped
        from the history), so a file whose redo cannot apply is refused at
        load rather than failing when the referee presses redo."""
        session = cls(encounter, ruleset)
        for i, (cmd, faces) in enumerate(recorded):
            step, state = session._recorded(session.state, cmd, faces, f"steps[{i}]")
            session.steps.append(step)
            session._states.append(state)
        session._done = list(session.steps)
        state = session.state
        pending = []
        for i, (cmd, faces) in enumerate(redo):
            step, state = session._recorded(state, cmd, faces, f"redo[{i}]")
            pending.append(step)
        session.redo_stack = pending[::-1]
        session._undone = list(session.redo_stack)
        return session

    def _recorded(self, state: State, cmd: Command, faces: tuple[int, ...], path: str) -> tuple[Step, State]:
        """Apply one recorded step to `state`, or raise ReplayError naming `path`."""
        illegal = self.ruleset.check(state, cmd)
        if illegal is not None:
            raise ReplayError(f"{path}: {cmd.type_name} is not allowed here: {illegal.detail}")
        dice = ScriptedDice(faces)
        try:
            step, new_state = self._apply(state, cmd, dice)
        except NeedDice as need:
            raise ReplayError(f"{path}.dice: too few dice recorded (needed a d{need.sides})") from None
        except BadFace as exc:
            raise ReplayError(f"{path}.dice: {exc}") from None
        if not dice.exhausted:
            raise ReplayError(f"{path}.dice: {len(dice.queue)} more dice recorded than the step rolls")
        return step, new_state
