"""Odds: the outcome distribution of a command, from the real rules on the real state (CORE-ODDS-1).

No second model of the rules: `odds` resolves the command itself with a dice
source that hands out a branch's fixed faces, then face 1 of every die the
resolution asks for past them, noting each such die as a branch point whose
other faces are tried later: each resolution runs to a leaf, every face of
every die is a branch, each weighted exactly (integer counts over a common
denominator, a `Fraction` once summed). Leaves with the same
result (the same HP, the same distinct events, the same roll totals) are
merged. Past a budget of branches (or of time) the answer is a seeded sample
that says so ("≈", its size); `exact=True` enumerates everything, up to a hard
cap. What is resolved is `Ruleset.consequence`: the command's own resolution,
or, where a system resolves a declaration later (Ogre), that resolution. A
system that cuts it into pieces (`Ruleset.consequence_steps`) has each piece
resolved once per state it starts from (engine/odds_steps.py): a branch goes
on from where its faces last led, and equal states reached by other faces go
on as one; the branches, their order and their count are the same.
"""
from __future__ import annotations

import math
from itertools import compress
from operator import is_not
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from .cache import Cache, cached
from .commands import Command, Event, Illegal, words
from .dice import BadFace, Dice, DiceError, SeededDice
from .odds_steps import ATTACK_KINDS, QUIET_KINDS, FaceError, Node, Steps, summary  # noqa: F401 (the kinds)
from .state import State

Dist = tuple[tuple[int, Fraction], ...]  # value -> chance, values ascending, chances summing to 1

MAX_EXACT_BRANCHES = 200_000   # exact on request still stops somewhere: a clear error past this
MAX_SAMPLES = 100_000          # sampling is never unbounded
# QUIET_KINDS (odds_steps.py): events that every branch of a resolution may log whatever the dice, not what
# tells outcomes apart; ATTACK_KINDS: an attack rolled, whatever came of it.


_BEFORE = Cache(8)  # actor -> its state's combatants as a summary compares the branches with (same state)


class OddsError(ValueError):
    """Odds that cannot be computed: a bad die or expression, or more branches than exact allows."""


@dataclass(frozen=True)
class Budget:
    """How far exact enumeration goes before sampling takes over, and how much sampling."""

    branches: int = 4000        # resolutions run while enumerating
    seconds: float = 1.0
    samples: int = 2000         # resolutions sampled past the budget (at most MAX_SAMPLES)
    sample_seconds: float = 2.0  # and never longer than this (the sample is then smaller)


PAGE_BUDGET = Budget(branches=1500, seconds=0.1, samples=300, sample_seconds=0.06)


@dataclass(frozen=True)
class Odds:
    """What a command may lead to, each chance a Fraction (sampled: a frequency).

    `outcomes`: the distinct results (the events that differ between branches,
    in words: "Attack hit", "Attack missed · Move stopped"), likeliest first.
    `dealt`/`taken`: damage the actor deals to others / takes. `down`: each
    standing combatant's chance to be down after. `hp`: expected HP after, for
    those whose HP may change. `rolls`: the total of each roll by purpose.
    """

    command: Command
    actor: str
    exact: bool
    samples: int                       # 0 when exact
    branches: int                      # resolutions run
    outcomes: tuple[tuple[str, Fraction], ...]
    dealt: Dist
    taken: Dist
    down: tuple[tuple[str, Fraction], ...]
    hp: tuple[tuple[str, Fraction], ...]
    rolls: tuple[tuple[str, Dist], ...] = ()
    everyone: Dist = ()                # HP lost by all combatants together
    attacked: Dist = ()                # attacks rolled against the actor (on a path: attacks of opportunity)
    names: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def approx(self) -> bool:
        return not self.exact

    def chance(self, label: str) -> Fraction:
        """The chance of every outcome whose label contains `label` ("hit")."""
        return sum((p for k, p in self.outcomes if label.lower() in k.lower()), Fraction(0))

    def roll(self, purpose: str) -> Dist:
        """The distribution of the first roll whose purpose contains `purpose`."""
        for k, d in self.rolls:
            if purpose.lower() in k.lower():
                return d
        return ()


def mean(dist: Dist) -> Fraction:
    return sum((v * p for v, p in dist), Fraction(0))


class _Leaf:
    """The branches that led to one result: their weights as counts per denominator (1/den each), summed
    as integers and made Fractions once at the end."""

    __slots__ = ("parts", "kinds", "diff", "rolls", "attacked")

    def __init__(self, den: int, kinds: tuple[str, ...], diff: tuple[tuple[int, int, bool], ...],
                 rolls: tuple[tuple[str, int], ...], attacked: int = 0) -> None:
        self.parts = {den: 1}    # denominator -> how many branches of weight 1/denominator
        self.kinds = kinds
        self.diff = diff         # (index, HP, down) of each combatant whose HP or state changed
        self.rolls = rolls
        self.attacked = attacked


class _Faces(Dice):
    """The faces of a branch, then the first face of every die asked for past them, each noted as a branch
    point (its position and sides): one resolution runs a branch straight to a leaf. Checks each die."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        super().__init__()
        self.given = faces
        self.seq: list[int] = []            # every face handed out, in order
        self.points: list[tuple[int, int]] = []  # (position in seq, sides) of each die past the given faces

    def face(self, sides: int, purpose: str, expr: str, remaining: int) -> int:
        if sides < 1:
            raise OddsError(f'"{expr}": a die has at least one face ({purpose or "roll"})')
        seq = self.seq
        n = len(seq)
        if n < len(self.given):
            f = self.given[n]
        else:
            self.points.append((n, sides))
            f = 1
        seq.append(f)
        return f


def consequence_of(ruleset: Any) -> Callable[[State, Command, Any], tuple[State, list[Event]]]:
    hook = getattr(ruleset, "consequence", None)
    return hook if hook is not None else ruleset.resolve


def odds(ruleset: Any, state: State, cmd: Command, budget: Budget = Budget(), exact: bool = False,
         seed: int = 0, actor: str | None = None) -> Odds | Illegal:
    """The outcome distribution of `cmd` in `state` (CORE-ODDS-1), or the refusal if it is illegal.

    Raises OddsError for a die with no faces or an invalid expression met on the way, and when
    `exact` would pass MAX_EXACT_BRANCHES."""
    job = Working(ruleset, state, cmd, budget, exact, seed, actor)
    while job.result is None:
        job.work(3600.0)
    return job.result


class Working:
    """Odds being worked out a little at a time (the page works on them in idle moments between taps):
    `work(seconds)` goes on for about that long and returns the result once there is one. The budget's
    time counts only the time spent working, however it is cut up."""

    def __init__(self, ruleset: Any, state: State, cmd: Command, budget: Budget = Budget(),
                 exact: bool = False, seed: int = 0, actor: str | None = None) -> None:
        self.state, self.cmd, self.budget, self.exact, self.seed = state, cmd, budget, exact, seed
        self.actor = actor or getattr(cmd, "actor", "") or ""
        self.resolve = consequence_of(ruleset)
        self.stepwise = getattr(ruleset, "consequence_steps", None)  # made into self.steps on the first work
        self.steps: Steps | None = None
        self.result: Odds | Illegal | None = ruleset.check(state, cmd)
        # A branch's faces so far, 1/its weight, and where its walk starts (pieces: see Steps.walk).
        self.stack: list[tuple[tuple[int, ...], int, Any]] = [((), 1, None)]
        self.merged: dict[tuple, _Leaf] = {}
        self.runs = 0
        self.spent = 0.0       # seconds worked while enumerating
        self.sampling = False
        self.samples = 0
        self.sample_spent = 0.0

    def _run(self, dice) -> tuple[State, list[Event]]:
        try:
            return self.resolve(self.state, self.cmd, dice)
        except DiceError as exc:
            raise OddsError(str(exc)) from None
        except (BadFace, FaceError) as exc:  # a source that meets a 0-face die in a roll
            raise OddsError(str(exc)) from None

    def _walk(self, prefix: tuple[int, ...], start: Any) -> tuple[Node, tuple, tuple, int, list]:
        try:
            return self.steps.walk(prefix, start)
        except (DiceError, BadFace, FaceError) as exc:
            raise OddsError(str(exc)) from None

    def _start(self) -> None:
        """The pieces, if the system cuts its consequence into pieces (asked where the consequence would be)."""
        stepwise, self.stepwise = self.stepwise, None
        try:
            got = stepwise(self.state, self.cmd)
        except DiceError as exc:
            raise OddsError(str(exc)) from None
        if got is not None:
            state, shared, step = got
            self.steps = Steps(state, shared, step, self.actor)

    def work(self, seconds: float) -> Odds | Illegal | None:
        """Work for about `seconds` (at least one resolution); the result when there is one, else None."""
        if self.result is not None:
            return self.result
        start = time.perf_counter()
        end = start + seconds
        if not self.sampling:
            self._enumerate(end)
            self.spent += time.perf_counter() - start
        else:
            self._sample(end)
            self.sample_spent += time.perf_counter() - start
        return self.result

    def _enumerate(self, end: float) -> None:
        """Depth first over the faces the resolution asks for."""
        limit = MAX_EXACT_BRANCHES if self.exact else self.budget.branches
        stack = self.stack
        if self.stepwise is not None:
            self._start()
        started = time.perf_counter()
        n = 0
        while stack:
            out_of_time = (not self.exact and n and self.spent + (time.perf_counter() - started) > self.budget.seconds
                           and self.runs + len(stack) >= self.budget.samples)  # else finishing costs less than a sample
            if self.runs >= limit or out_of_time:
                if self.exact:
                    raise OddsError(f"more than {MAX_EXACT_BRANCHES} branches: too many for exact odds")
                self.sampling, self.merged = True, {}  # past the budget: a seeded sample instead
                self.steps = None
                return
            if n and time.perf_counter() > end:  # after every resolution: one can cost milliseconds in the page
                return
            prefix, den, start = stack.pop()
            if self.steps is not None:
                node, kinds, rolls, attacked, new = self._walk(prefix, start)
                n += 1
                leaf = den
                for k, _ in new:
                    leaf *= k
                if node.diff is None:
                    node.diff = self._diff(node.state)
                self._merge(leaf, (kinds, node.diff, rolls, attacked))
            else:
                dice = _Faces(prefix)
                state, events = self._run(dice)
                n += 1
                new = [(k, None) for _, k in dice.points]
                leaf = den
                for k, _ in new:
                    leaf *= k
                self._add(leaf, state, events)
            # Counted as the resolutions of re-running every branch point from the start: the same count,
            # budget and sampling as stopping at each new die and trying each of its faces.
            self.runs += 1 + len(new)
            if new:
                if self.runs - 1 >= limit:
                    if self.exact:
                        raise OddsError(f"more than {MAX_EXACT_BRANCHES} branches: too many for exact odds")
                    self.runs, self.sampling, self.merged = limit, True, {}  # where stopping at each die stops
                    self.steps = None
                    return
                # Depth first in the same order: the untried faces of the deepest die come off the stack first.
                # The dice past the given faces follow them, each at face 1.
                head = prefix
                for k, start in new:
                    den *= k
                    stack.extend((head + (f,), den, start) for f in range(k, 1, -1))
                    head += (1,)
        self.steps = None
        self.result = self._summary()

    def _sample(self, end: float) -> None:
        """Seeded resolutions, each of weight 1/n; bounded in count and in time (at least 30)."""
        n = max(1, min(self.budget.samples, MAX_SAMPLES))
        started = time.perf_counter()
        got = []
        while self.samples < n:
            dice = SeededDice(self.seed * 1_000_003 + self.samples + 1, self.state.rolls)
            got.append(self._run(dice))
            self.samples += 1
            self.runs += 1
            now = time.perf_counter()
            if self.samples >= 30 and self.sample_spent + (now - started) > self.budget.sample_seconds:
                break
            if now > end:
                break
        for new, events in got:
            self._add(1, new, events)  # counted now; weighed 1/samples at the end
        if self.samples >= n or self.sample_spent + (time.perf_counter() - started) > self.budget.sample_seconds \
                and self.samples >= 30:
            for leaf in self.merged.values():
                leaf.parts = {self.samples: leaf.parts[1]}
            self.result = self._summary()

    def _add(self, den: int, new: State, events: list[Event]) -> None:
        kinds, rolls, attacked = summary(events, self.actor)
        self._merge(den, (kinds, self._diff(new), rolls, attacked))

    def _diff(self, new: State) -> tuple:
        """(index, HP, down) of each combatant whose HP or standing changed."""
        state = self.state
        if new.combatants is state.combatants:  # states never reorder combatants; unchanged ones are the same objects
            return ()
        now, was = new.combatants, state.combatants
        # Which changed, in C (40 combatants a leaf, a few changed); then whether HP or standing did.
        return tuple((i, now[i].hp, now[i].is_down) for i in compress(range(len(now)), map(is_not, now, was))
                     if now[i].hp != was[i].hp or now[i].is_down != was[i].is_down)

    def _merge(self, den: int, key: tuple) -> None:
        """One branch of weight 1/den whose result is `key`: (kinds, diff, rolls, attacked)."""
        leaf = self.merged.get(key)
        if leaf is None:
            self.merged[key] = _Leaf(den, *key)
        else:
            parts = leaf.parts
            parts[den] = parts.get(den, 0) + 1

    def _summary(self) -> Odds:
        return _summarise(self.state, self.cmd, self.actor, list(self.merged.values()), self.runs, self.samples)


def _before(state: State, actor: str) -> tuple:
    """What a summary compares the branches with, the same for every command of `actor` in `state`."""
    ids = [c.id for c in state.combatants]
    a = ids.index(actor) if actor in ids else -1
    hostile = {i for i, c in enumerate(state.combatants) if a >= 0 and state.hostile(actor, c.id)}
    return (ids, [c.hp for c in state.combatants], [c.is_down for c in state.combatants], a, hostile,
            {c.id: c.name for c in state.combatants})


def _summarise(state: State, cmd: Command, actor: str, leaves: list[_Leaf], runs: int, samples: int) -> Odds:
    ids, before, was_down, a, hostile, names = _BEFORE.get(actor, lambda: _before(state, actor), same=(state,))
    # Integer weights over one common denominator: the sums stay exact and cost little.
    den = math.lcm(*{d for leaf in leaves for d in leaf.parts}) if leaves else 1
    weights = []
    for leaf in leaves:
        parts = leaf.parts
        if len(parts) == 1:  # most leaves: one denominator
            for d, count in parts.items():
                weights.append(count * (den // d))
        else:
            weights.append(sum(count * (den // d) for d, count in parts.items()))
    by_kinds: dict[tuple[str, ...], int] = {}  # the weight of each list of kinds, first met first
    for leaf, w in zip(leaves, weights):
        by_kinds[leaf.kinds] = by_kinds.get(leaf.kinds, 0) + w
    # Only the events that differ between branches tell outcomes apart.
    kinds = list(by_kinds)
    common = set(kinds[0]).intersection(*kinds[1:]) if kinds else set()
    if len({tuple(k for k in ks if k not in common) for ks in kinds}) <= 1:
        common = set()  # one outcome: say what it is
    outcomes: dict[str, int] = {}
    for ks, w in by_kinds.items():
        label = " · ".join(_words(k) for k in ks if k not in common) or "No effect"
        outcomes[label] = outcomes.get(label, 0) + w
    by_diff: dict[tuple, int] = {}  # leaves with the same changes weigh together (first met first)
    attacks: dict[int, int] = {}
    rolls: dict[str, dict[int, int]] = {}
    for leaf, w in zip(leaves, weights):
        by_diff[leaf.diff] = by_diff.get(leaf.diff, 0) + w
        attacks[leaf.attacked] = attacks.get(leaf.attacked, 0) + w
        seen = set()
        for purpose, total in leaf.rolls:
            if purpose in seen:
                continue  # the first roll of each purpose (a second is another distribution's business)
            seen.add(purpose)
            r = rolls.get(purpose)
            if r is None:
                r = rolls[purpose] = {}
            r[total] = r.get(total, 0) + w
    dealt: dict[int, int] = {}
    taken: dict[int, int] = {}
    everyone: dict[int, int] = {}
    downs: dict[int, int] = {}
    hp_sum: dict[int, int] = {}
    moved: set[int] = set()
    for diff, w in by_diff.items():
        e = d = t = 0
        for i, hp, is_down in diff:
            lost = max(0, before[i] - hp)
            e += lost
            if i in hostile:
                d += lost
            if i == a:
                t = lost
            if is_down and not was_down[i]:
                downs[i] = downs.get(i, 0) + w
            if hp != before[i]:
                moved.add(i)
            hp_sum[i] = hp_sum.get(i, 0) + w * (hp - before[i])
        everyone[e] = everyone.get(e, 0) + w
        dealt[d] = dealt.get(d, 0) + w
        taken[t] = taken.get(t, 0) + w

    def dist(d: dict[int, int]) -> Dist:
        return tuple((k, _fraction(v, den)) for k, v in sorted(d.items()))

    return Odds(cmd, actor, samples == 0, samples, runs,
                tuple(sorted(((k, _fraction(v, den)) for k, v in outcomes.items()), key=lambda kv: (-kv[1], kv[0]))),
                dist(dealt), dist(taken),
                tuple((ids[i], _fraction(downs[i], den)) for i in sorted(downs)),
                tuple((ids[i], before[i] + _fraction(hp_sum[i], den)) for i in sorted(moved)),
                tuple((k, dist(v)) for k, v in rolls.items() if sum(v.values()) == den), dist(everyone), dist(attacks), dict(names))


@cached(4096)
def _fraction(n: int, d: int) -> Fraction:
    """Fraction(n, d), kept: the same few chances come back in every summary (a Fraction never changes)."""
    return Fraction(n, d)


@cached(256)
def _words(kind: str) -> str:
    kind, _, outcome = kind.partition(":")
    text = words(kind).lower().capitalize()
    return f"{text} ({outcome})" if outcome else text
