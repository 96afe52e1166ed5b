"""The branches of a resolution cut into pieces, each piece resolved once per state it starts from (CORE-ODDS-1).

A system may cut its consequence into pieces (`Ruleset.consequence_steps`):
the state once what rolls no die is done, then `step(state, events, dice)`
over and over, each piece going on from the state alone. Then a branch of the
odds (its faces, face 1 for every die past them, engine/odds.py) need not be
resolved from the start: `Steps.walk` follows the pieces already resolved
for those faces and resolves only the new ones, from the state where they
start. States that are equal, field for field (`same`), reached by other
faces (every face of an attack roll that hits, before the damage), are one
`Node`: what follows is resolved once for them all. Each piece is still
resolved by the rules; only the same piece from the same state is not
resolved again.
"""
from __future__ import annotations

from typing import Any, Callable

from .commands import Event
from .dice import Dice

QUIET_KINDS = frozenset({"DamageRolled", "DamageTaken", "Rolled"})  # logged whatever the dice (odds.py)
ATTACK_KINDS = frozenset({"AttackHit", "AttackMissed"})
MAX_PIECES = 10000  # pieces on one branch: a system whose work never drains is an error, as in its own loop

Step = Callable[[Any, list[Event], Dice], Any]  # (state, events, dice) -> the next state, None when done


class FaceError(ValueError):
    """A die with no faces (odds.py words it as an OddsError)."""


class Node:
    """A state where one piece ends and the next begins: what the next piece led to, by its faces."""

    __slots__ = ("state", "first", "children", "done", "diff")

    def __init__(self, state: Any) -> None:
        self.state = state
        self.first: Die | Edge | None = None  # the next piece's first die, or its one outcome if it rolls none
        self.children: dict[int, list[Node]] = {}  # the distinct states it led to, by their combatants (id)
        self.done = False      # nothing left to do: a leaf
        self.diff: tuple | None = None  # a leaf's changes, worked out once (odds.py)


class Die:
    """A die a piece rolls: its faces tried so far, each leading to the next die or to the piece's end."""

    __slots__ = ("sides", "next")

    def __init__(self, sides: int) -> None:
        self.sides = sides
        self.next: dict[int, Die | Edge] = {}


class Edge:
    """A piece resolved for some faces: the state it ends in, and what its events say for the odds."""

    __slots__ = ("node", "kinds", "rolls", "attacked")

    def __init__(self, node: Node, kinds: tuple, rolls: tuple, attacked: int) -> None:
        self.node, self.kinds, self.rolls, self.attacked = node, kinds, rolls, attacked


def kind(e: Event) -> str:
    """An event's kind, with the outcome its data names (Ogre's "ActionResolved": done, failed...)."""
    outcome = e.data.get("outcome") if e.data else None
    return f"{e.kind}:{outcome}" if isinstance(outcome, str) and outcome else e.kind


def summary(events: list[Event], actor: str) -> tuple[tuple, tuple, int]:
    """What tells outcomes apart in these events: the kinds that are not logged whatever the dice, the roll
    totals by purpose (each once, first first), the attacks rolled against `actor` by others."""
    kinds = tuple(dict.fromkeys(kind(e) for e in events if e.kind not in QUIET_KINDS))
    rolls = tuple(dict.fromkeys((r.purpose or "roll", r.total) for e in events for r in e.rolls))
    attacked = sum(1 for e in events if e.kind in ATTACK_KINDS and e.target == actor and e.actor != actor)
    return kinds, rolls, attacked


def then(first: tuple, more: tuple) -> tuple:
    """The distinct items of `first` then `more`, first seen first (as dict.fromkeys over both)."""
    if not first:
        return more
    for k in more:  # a few items each: a loop costs less than a generator
        if k not in first:
            first += (k,)
    return first


class _Faces(Dice):
    """The given faces from `start`, then face 1 of every die past them; notes each die's faces and sides."""

    def __init__(self, given: tuple[int, ...], start: int) -> None:
        super().__init__()
        self.given, self.at = given, start
        self.seq: list[int] = []
        self.sides: list[int] = []

    def face(self, sides: int, purpose: str, expr: str, remaining: int) -> int:
        if sides < 1:
            raise FaceError(f'"{expr}": a die has at least one face ({purpose or "roll"})')
        i = self.at + len(self.seq)
        f = self.given[i] if i < len(self.given) else 1
        self.seq.append(f)
        self.sides.append(sides)
        return f


class Steps:
    """The pieces of one command's resolution resolved so far, from `state` (what rolls no die done, its
    events `shared`). `walk` is one branch, from the start or from where an earlier branch's die was rolled."""

    def __init__(self, state: Any, shared: tuple[Event, ...], step: Step, actor: str) -> None:
        self.root = Node(state)
        self.step, self.actor = step, actor
        self.start = (self.root, 0) + summary(list(shared), actor)

    def walk(self, given: tuple[int, ...], start: tuple | None = None) -> tuple[Node, tuple, tuple, int, list]:
        """The branch of faces `given` (then face 1 of every die past them), from `start` (a piece's start
        as `walk` gave it for one of those dice; None: the beginning): the node it ends at, the summary of
        all its events (kinds, rolls, attacked) and, for each die past the given faces, (its sides, the start
        of its piece)."""
        node, at, kinds, rolls, attacked = start or self.start
        n = len(given)
        new: list[tuple[int, tuple]] = []
        for _ in range(MAX_PIECES):
            if node.done:
                return node, kinds, rolls, attacked, new
            here = None
            i = at
            x = node.first
            while x.__class__ is Die:
                if i < n:
                    x = x.next.get(given[i])
                else:
                    if here is None:
                        here = (node, at, kinds, rolls, attacked)
                    new.append((x.sides, here))
                    x = x.next.get(1)
                i += 1
            if x is None:  # these faces are new to this piece: resolve it
                if here is not None:
                    del new[len(new) - (i - max(at, n)):]
                x = self._resolve(node, given, at)
                if x is None:
                    return node, kinds, rolls, attacked, new
                x, sides = x
                i = at + len(sides)
                if i > n:
                    here = (node, at, kinds, rolls, attacked)
                    new.extend((k, here) for k in sides[max(0, n - at):])
            if x.kinds:
                kinds = then(kinds, x.kinds)
            if x.rolls:
                rolls = then(rolls, x.rolls)
            attacked += x.attacked
            node, at = x.node, i
        raise RuntimeError(f"more than {MAX_PIECES} pieces of work on one branch: the work does not drain")

    def _resolve(self, node: Node, given: tuple[int, ...], at: int) -> tuple[Edge, list[int]] | None:
        """The node's next piece for the faces from `at` (face 1 past them), noted; None when nothing is left."""
        dice = _Faces(given, at)
        events: list[Event] = []
        new = self.step(node.state, events, dice)
        if new is None:
            node.done = True
            return None
        edge = Edge(self._child(node, new), *summary(events, self.actor))
        if not dice.seq:
            node.first = edge
            return edge, []
        seq, sides = dice.seq, dice.sides
        x = node.first
        if x is None:
            x = node.first = Die(sides[0])
        for k in range(len(seq) - 1):
            y = x.next.get(seq[k])
            if y is None:
                y = x.next[seq[k]] = Die(sides[k + 1])
            x = y
        x.next[seq[-1]] = edge
        return edge, sides

    @staticmethod
    def _child(node: Node, state: Any) -> Node:
        """The node of `state`: one already reached from `node` if equal to it, else a new one. Compared with
        those whose combatants are the very same tuple (a piece that changes none keeps it; one that does
        makes its own, equal or not, rarely worth comparing): a state kept by a node keeps its id taken."""
        kin = node.children.setdefault(id(state.combatants), [])
        for other in kin:
            if same(other.state, state):
                return other
        new = Node(state)
        kin.append(new)
        return new


def same(a: Any, b: Any) -> bool:
    """Equal, field for field, whatever a record leaves out of its own == (those derived from the others,
    not set by its __init__, excepted): what one state leads to, the other does."""
    if a is b:
        return True
    t = type(a)
    if t is not type(b):
        return False
    if t is tuple or t is list:
        if len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if x is not y and not same(x, y):
                return False
        return True
    if t is dict:
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    got = _FIELDS.get(t)
    if got is None:
        spec = getattr(t, "__dataclass_fields__", None)
        names = tuple(f.name for f in spec.values() if f.init) if spec is not None else ()
        got = _FIELDS[t] = (names, frozenset(names))
    fields, names = got
    if not fields:
        return a == b
    da, db = getattr(a, "__dict__", None), getattr(b, "__dict__", None)
    if da is None or db is None or not (da.keys() >= names and db.keys() >= names):
        da, db = {f: getattr(a, f) for f in fields}, {f: getattr(b, f) for f in fields}  # slots, or set elsewhere
    for f in fields:
        x, y = da[f], db[f]
        if x is not y and not same(x, y):
            return False
    return True


_FIELDS: dict[type, tuple] = {}  # each record class's fields set by its __init__, as a tuple and a set (none: no record)
