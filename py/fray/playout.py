"""Seeded random fights over a system's examples, and a digest of how each one went.

A playout opens an example, then picks a random allowed option of whoever acts
(a random answer to its question, a path or a spell where it needs one) until
the fight has an outcome or a step limit. Every option the engine offers as
allowed must apply; the invariants every system shares are checked on the way
(HP never above max (CORE-HP-1), undo and redo restore the very state, a save
loads back to the same state). The digest is a hash of the save file, every
log line and the final HP, so two Pythons (CPython in the tests, Pyodide's in
the page) that play the same seed must give the same digest.

Pure and standard library only: the page imports it under `?selftest=1`. The
chooser is a splitmix64 stream, not `random` (only engine/dice.py rolls), and
the dice are the session's own seeded dice.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any, Callable

from .engine import storage
from .engine.commands import Command, Option
from .engine.session import Session, Step
from .engine.state import State
from .rules import examples, get

MASK = (1 << 64) - 1
WEIGHTS = {"Attack": 6.0, "Move": 2.0, "Turn": 2.0, "Referee": 0.0}  # referee overrides are not played
SPELLS = ("Sleep", "Light", "Bless")


class PlayoutError(AssertionError):
    """A broken invariant or an offered option that did not apply (message: system, example, seed, step)."""


class Chooser:
    """A deterministic stream of choices (splitmix64): the same seed picks the same options on any Python."""

    def __init__(self, seed: int) -> None:
        self.state = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n if n > 0 else 0

    def pick(self, items: list | tuple) -> Any:
        return items[self.below(len(items))]

    def chance(self, p: float) -> bool:
        return self.below(1_000_000) < int(p * 1_000_000)

    def weighted(self, items: list, weights: list[float]) -> Any:
        scaled = [int(w * 1000) for w in weights]
        total = sum(scaled)
        if total <= 0:
            return self.pick(items)
        r = self.below(total)
        for item, w in zip(items, scaled):
            if r < w:
                return item
            r -= w
        return items[-1]


@dataclass(frozen=True)
class Result:
    """How one playout went: the digest two interpreters must agree on, and what a failure message shows."""

    system: str
    example: str
    seed: int
    steps: int
    outcome: str
    round: int
    hp: dict[str, int]
    digest: str

    def to_json(self) -> dict[str, Any]:
        return {"system": self.system, "example": self.example, "seed": self.seed, "steps": self.steps,
                "outcome": self.outcome, "round": self.round, "hp": self.hp, "digest": self.digest}


def _path(session: Session, cmd: Command, rng: Chooser) -> tuple | None:
    """A path the page could draw for a move command (one of the ruleset's suggestions), or None."""
    state = session.state
    grid = session.ruleset.grid
    if grid is None or state.get(cmd.actor).square is None:
        return None
    paths = [p for _, _, p in grid.suggest_paths(state, cmd.actor, cmd)]
    return tuple(tuple(sq) for sq in rng.pick(paths)) if paths else None


def fill(session: Session, option: Option, rng: Chooser) -> Command | None:
    """A complete command for an option: a random answer to its question and what the page would fill in
    for each need; None when some need cannot be met here."""
    cmd = option.command
    if option.choices:
        cmd = replace(cmd, **rng.pick(option.choices).values)
    for need in option.needs:
        name = need.split(":")[-1]
        if name == "path":
            path = _path(session, cmd, rng)
            if path is None:
                return None
            cmd = replace(cmd, path=path)
        elif name == "spell":
            cmd = replace(cmd, spell=rng.pick(SPELLS))
        elif name == "level":
            cmd = replace(cmd, level=rng.below(4))
        elif name in ("text", "note"):
            cmd = replace(cmd, **{name: "tries something"})
        else:
            return None
    return cmd


def choose(session: Session, rng: Chooser) -> Command | None:
    """A random allowed option of a random current actor, weighted toward attacks so fights end."""
    actor = rng.pick(session.current())
    allowed = [o for o in session.options(actor) if o.allowed]
    if not allowed:
        return None
    for _ in range(12):
        groups = sorted({o.group for o in allowed})
        weights = [WEIGHTS.get(g, 1.0) for g in groups]
        group = rng.weighted(groups, weights) if any(weights) else rng.pick(groups)
        cmd = fill(session, rng.pick([o for o in allowed if o.group == group]), rng)
        if cmd is not None:
            return cmd
    return next((o.command for o in allowed if not o.needs and not o.choices), None)


def play(system: str, example: str, seed: int, max_steps: int = 300, *,
         observe: Callable[[Session, State, Command, Step], None] | None = None,
         interject: Callable[[Session, Chooser], Command | None] | None = None) -> Session:
    """Play one seeded fight; raises PlayoutError naming the step when an invariant breaks.

    `observe(session, before, command, step)` runs after every step (a
    conformance test's per-system invariants); `interject(session, rng)` may
    return a referee command to play instead of an actor's, as a referee at a
    real table steps in now and then (None: play on)."""
    rng = Chooser(seed * 1_000_003 + sum(map(ord, system + example)))
    build = examples(system)[example]
    session = Session(build(seed), get(system))

    def fail(step: int, what: str) -> PlayoutError:
        return PlayoutError(f"{system}/{example} seed {seed}, step {step}: {what}")

    for step_no in range(max_steps):
        state = session.state
        if state.outcome:
            break
        if not session.current():
            raise fail(step_no, f"nobody acts and there is no outcome (round {state.round})")
        cmd = interject(session, rng) if interject is not None else None
        if cmd is not None and session.check(cmd) is not None:
            cmd = None
        if cmd is None:
            cmd = choose(session, rng)
        if cmd is None:
            raise fail(step_no, f"{session.current()} have no allowed option that applies")
        try:
            step = session.act(cmd)
        except Exception as exc:  # an option offered as allowed must apply
            raise fail(step_no, f"offered {type(cmd).__name__} failed: {type(exc).__name__}: {exc}") from exc
        if observe is not None:
            observe(session, state, cmd, step)
        after = session.state
        for c in after.combatants:
            if c.hp > c.max_hp:
                raise fail(step_no, f"{c.name} has {c.hp}/{c.max_hp} HP (CORE-HP-1)")
        if step_no % 11 == 0:
            session.undo()
            if session.state != state:
                raise fail(step_no, "undo did not restore the previous state")
            session.redo()
            if session.state != after:
                raise fail(step_no, "redo did not restore the same state")
    again = storage.loads(storage.dumps(session)).session
    if again.state != session.state:
        raise fail(len(session.steps), "the saved fight does not load back to the same state")
    return session


def digest(session: Session) -> str:
    """A hash of the save file, every log line with its faces and rule, and the final HP and outcome."""
    h = hashlib.sha256(storage.dumps(session).encode("utf-8"))
    for i, e in session.log():
        h.update(f"\n{i}|{e.kind}|{e.rule}|{e.text}".encode("utf-8"))
    state = session.state
    final = {"round": state.round, "outcome": state.outcome, "rolls": state.rolls,
             "hp": [[c.id, c.hp, list(c.conditions)] for c in state.combatants]}
    h.update(json.dumps(final, sort_keys=True).encode("utf-8"))
    return h.hexdigest()


def run(system: str, example: str, seed: int, max_steps: int = 300) -> Result:
    """Play one fight and summarise it."""
    s = play(system, example, seed, max_steps)
    state = s.state
    return Result(system, example, seed, len(s.steps), state.outcome, state.round,
                  {c.id: c.hp for c in state.combatants}, digest(s))


def run_many(cases: list[tuple[str, str, int]], max_steps: int = 300) -> list[dict[str, Any]]:
    """Several playouts as plain data (the page hands this to JavaScript as JSON); a broken invariant is
    reported in its case's `error` instead of stopping the others."""
    out = []
    for system, example, seed in cases:
        try:
            out.append(run(system, example, int(seed), max_steps).to_json())
        except PlayoutError as exc:
            out.append({"system": system, "example": example, "seed": seed, "error": str(exc)})
    return out
