"""Acting on a session with loaded dice and reading what a step did: the helpers every system's tests share."""
from __future__ import annotations

from fray.engine.commands import Command, Event, Illegal
from fray.engine.dice import ScriptedDice
from fray.engine.session import Session, Step


def act(session: Session, cmd: Command, *faces: int) -> Step:
    """Apply a command with exactly these die faces: running out fails (NeedDice), and so does a face left over."""
    dice = ScriptedDice(list(faces))
    step = session.act(cmd, dice)
    assert dice.exhausted, f"{len(dice.queue)} loaded faces left unused by {cmd}: {dice.queue}"
    return step


def kinds(step: Step) -> list[str]:
    """The kinds of the step's events, in order."""
    return [e.kind for e in step.events]


def texts(step: Step) -> list[str]:
    """The log sentences of the step's events, in order."""
    return [e.text for e in step.events]


def first_event(step: Step, kind: str) -> Event:
    """The step's first event of this kind (fails when there is none)."""
    for e in step.events:
        if e.kind == kind:
            return e
    raise AssertionError(f"no {kind} in {kinds(step)}")


def refusal(session: Session, cmd: Command) -> Illegal:
    """Why the session refuses this command (fails when it is allowed)."""
    illegal = session.check(cmd)
    assert illegal is not None, f"{cmd} was allowed"
    return illegal
