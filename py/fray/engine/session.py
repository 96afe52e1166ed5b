"""An encounter's history: the setup plus the list of applied steps.

`act` checks, resolves and appends; `undo` moves the last step to the redo
stack; `redo` re-applies it with the very faces it rolled. Every state along
the way is kept (states share their unchanged parts), so undo is instant and
the log is simply every step's events.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator

from .commands import Command, Event, Illegal, IllegalCommand, Option
from .dice import BadFace, Dice, NeedDice, ScriptedDice, SeededDice
from .model import Encounter
from .ruleset import Allow, Ruleset
from .state import State


@dataclass(frozen=True)
class Step:
    """One applied command with every face it rolled and the events it made."""

    command: Command
    dice: tuple[int, ...]
    events: tuple[Event, ...]


class ReplayError(ValueError):
    """A recorded step that no longer applies (index and reason in the message)."""


class Session:
    """The referee's fight: the setup, the steps, the redo stack."""

    def __init__(self, encounter: Encounter, ruleset: Ruleset | None = None) -> None:
        if ruleset is None:
            from ..rules import get as get_ruleset
            ruleset = get_ruleset(encounter.system)
        self.ruleset = ruleset
        # Every setting the system has is written into the setup: a file
        # loaded back fills in the defaults, so without this the same fight
        # was a different encounter before and after a save.
        defaults = ruleset.default_settings()
        if any(k not in encounter.settings for k in defaults):
            encounter = replace(encounter, settings={**defaults, **encounter.settings})
        self.encounter = encounter
        self.steps: list[Step] = []
        self.redo_stack: list[Step] = []
        first = ruleset.begin(encounter)
        # The outcome is computed after every step; the start needs it too (a
        # setup with no hostile sides standing is decided before any command).
        self._states: list[State] = [replace(first, outcome=ruleset.outcome(first))]
        self.physical_dice = False

    # --- reading ---------------------------------------------------------
    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def initial(self) -> State:
        return self._states[0]

    def state_at(self, index: int) -> State:
        """The state after `index` steps."""
        return self._states[index]

    @property
    def can_undo(self) -> bool:
        return bool(self.steps)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def log(self) -> Iterator[tuple[int, Event]]:
        """Every event, oldest first, with the number of its step (1-based)."""
        for i, step in enumerate(self.steps, 1):
            for e in step.events:
                yield i, e

    def options(self, actor: str) -> list[Option]:
        return self.ruleset.options(self.state, actor)

    def current(self) -> tuple[str, ...]:
        return self.ruleset.current(self.state)

    def check(self, cmd: Command) -> Illegal | None:
        if isinstance(cmd, Allow):
            return self.ruleset.check_referee(self.state, cmd)
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
        return step

    def _apply(self, state: State, cmd: Command, dice: Dice | None) -> tuple[Step, State]:
        if dice is None:
            dice = SeededDice(self.encounter.seed, state.rolls)
        new_state, events = self.ruleset.resolve(state, cmd, dice)
        new_state = replace(new_state, rolls=state.rolls + len(dice.used),
                            outcome=self.ruleset.outcome(new_state))
        return Step(cmd, tuple(dice.used), tuple(events)), new_state

    def undo(self) -> Step | None:
        if not self.steps:
            return None
        step = self.steps.pop()
        self._states.pop()
        self.redo_stack.append(step)
        return step

    def redo(self) -> Step | None:
        """Re-apply the last undone step with the faces it rolled before."""
        if not self.redo_stack:
            return None
        step = self.redo_stack.pop()
        replayed, state = self._apply(self.state, step.command, ScriptedDice(step.dice))
        self.steps.append(replayed)
        self._states.append(state)
        return replayed

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
        state = session.state
        pending = []
        for i, (cmd, faces) in enumerate(redo):
            step, state = session._recorded(state, cmd, faces, f"redo[{i}]")
            pending.append(step)
        session.redo_stack = pending[::-1]
        return session

    def _recorded(self, state: State, cmd: Command, faces: tuple[int, ...], path: str) -> tuple[Step, State]:
        """Apply one recorded step to `state`, or raise ReplayError naming `path`."""
        if isinstance(cmd, Allow):
            illegal = self.ruleset.check_referee(state, cmd)
        else:
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
