"""A condition in two taps: the durations the quick dialog offers in the system's clock, and the command a
tap on one of the library's conditions (or the referee's own words) means.

The durations are what a referee says at the table: a round or three, a minute
where the clock has one (OSE rounds of 10 s, Ogre segments of half a second),
"until the start / the end of <whoever acts now>'s next turn" where the system
has turns (OLOG, OSE), or until removed. A typed duration ("2 min", "3 s") is
read by the ruleset (Ruleset.duration). Pure: no browser imports.
"""
from __future__ import annotations

import re

from ..engine.conditions import Named, turn_count
from ..engine.referee import SetCondition
from ..engine.ruleset import Ruleset
from ..engine.state import State


def duration_choices(rs: Ruleset, state: State) -> tuple[tuple[str, str], ...]:
    """(value, label) of each duration offered, the first the default: a value is a duration
    Ruleset.duration reads ("1", "1 min"), "start:<id>" / "end:<id>" for a turn ("start-step:<id>" for a step), or "" until removed."""
    if rs.clock.unit == "segment":
        out = [(str(n), rs.clock.words(n)) for n in (2, 4, 10, 20)]
    else:
        out = [(str(n), rs.clock.words(n)) for n in (1, 2, 3, 10)]
    if rs.clock.minute_ticks(state):
        out.append(("1 min", f"1 minute ({rs.clock.words(rs.clock.minute_ticks(state))})"))
    acting = next((cid for cid in rs.current(state) if state.has(cid)), None)
    if acting is not None and rs.clock.turns(state, acting) is not None:
        name, turn = state.get(acting).name, rs.clock.turn_word(state)
        out += [(f"start:{acting}", f"until the start of {name}'s next {turn}"),
                (f"end:{acting}", f"until the end of {name}'s next {turn}")]
        if turn_count(rs, state, "start-step", acting) is not None:  # CORE-TIME-1: the finer choice, where a turn has steps
            out.append((f"start-step:{acting}", f"until the start of {name}'s next step"))
    out.append(("", "until removed"))
    return tuple(out)


def in_words(detail: str) -> str:
    """An engine refusal of a condition said at its field: without the file path of the combatant's list
    ("mira-1.conditions: "), which names nothing the referee sees."""
    text = re.sub(r"^[^\s:]+\.conditions: ", "", detail)
    return text[:1].upper() + text[1:]


def library(rs: Ruleset) -> tuple[Named, ...]:
    return rs.condition_library()


def condition_command(rs: Ruleset, state: State, cid: str, name: str, lasting: str,
                      secret: bool = False) -> tuple[SetCondition | None, str]:
    """The step a quick condition means, or (None, why not) said at the field: `lasting` is a value of
    `duration_choices` or a typed duration; the engine checks the rest (the limits, the combatant)."""
    name = " ".join(name.split())[:40]
    if not name:
        return None, "Name the condition (or tap one of the list)."
    lasting = lasting.strip()
    if lasting.startswith(("start:", "end:", "start-step:", "end-step:")):
        return SetCondition(cid, name, True, 0, lasting, secret), ""
    try:
        ticks = rs.duration(state, lasting)
    except ValueError as exc:
        return None, str(exc)
    return SetCondition(cid, name, True, ticks, "", secret), ""
