"""The state of a fight at one moment: the fold of the commands over the setup."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Iterator

from .model import Combatant, CombatantId, Encounter, Side, are_hostile


@dataclass(frozen=True)
class Prompt:
    """A decision the rules wait for before anything else happens (e.g. splinter
    the shield? use the pending attack or react?). While set, only the prompted
    actor's answers (offered by the ruleset's options) are legal."""

    actor: CombatantId
    question: str
    rule: str = ""
    kind: str = ""
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class State:
    """Everything the rules need now. `board` is the ruleset's own frozen
    record (turn order, counts, declarations); `rolls` is how many dice faces
    have been rolled so far (the seeded dice counter, CORE-DICE-3)."""

    encounter: Encounter
    combatants: tuple[Combatant, ...]
    round: int = 0
    rolls: int = 0
    board: Any = None
    prompt: Prompt | None = None
    outcome: str = ""
    # Timed conditions (the referee's SetCondition with `lasts` or `until`): (combatant, condition, the tick
    # of the system's clock, Ruleset.clock, at which it ends; or ("start"|"end", whose turn, the turns that
    # combatant had begun when it was set), Ruleset.turns).
    timers: tuple[tuple[str, str, Any], ...] = ()
    secret: frozenset[tuple[str, str]] = frozenset()  # (combatant, condition) the players never see
    _index: dict[str, int] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {c.id: i for i, c in enumerate(self.combatants)})

    # --- lookups ---------------------------------------------------------
    def get(self, cid: CombatantId) -> Combatant:
        return self.combatants[self._index[cid]]

    def find(self, cid: CombatantId) -> Combatant | None:
        i = self._index.get(cid)
        return None if i is None else self.combatants[i]

    def has(self, cid: CombatantId) -> bool:
        return cid in self._index

    @property
    def sides(self) -> tuple[Side, ...]:
        return self.encounter.sides

    @property
    def settings(self) -> dict[str, Any]:
        return self.encounter.settings

    def setting(self, key: str, default: Any = None) -> Any:
        return self.encounter.settings.get(key, default)

    def hostile(self, a: Combatant | str, b: Combatant | str) -> bool:
        """CORE-SIDE-1 between two combatants (or side ids)."""
        sa = a if isinstance(a, str) else a.side
        sb = b if isinstance(b, str) else b.side
        return are_hostile(self.encounter.sides, sa, sb)

    def enemies_of(self, c: Combatant) -> Iterator[Combatant]:
        for o in self.combatants:
            if o.id != c.id and self.hostile(c, o):
                yield o

    def standing(self) -> Iterator[Combatant]:
        return (c for c in self.combatants if not c.is_down)

    def on_side(self, side: str) -> tuple[Combatant, ...]:
        return tuple(c for c in self.combatants if c.side == side)

    def name(self, cid: CombatantId) -> str:
        c = self.find(cid)
        return c.name if c else cid

    # --- updates (new states; nothing mutates) ----------------------------
    # These run on every step (a 10,000-step replay calls them ~100,000 times), so
    # they copy the frozen record directly instead of dataclasses.replace: the
    # combatants keep their order, so the id index carries over unchanged.
    def with_combatant(self, c: Combatant) -> "State":
        i = self._index[c.id]
        return _evolve_state(self, combatants=self.combatants[:i] + (c,) + self.combatants[i + 1:])

    def with_combatants(self, changed: Iterable[Combatant]) -> "State":
        lst = list(self.combatants)
        for c in changed:
            lst[self._index[c.id]] = c
        return _evolve_state(self, combatants=tuple(lst))

    def update(self, cid: CombatantId, **changes: Any) -> "State":
        return self.with_combatant(replace(self.get(cid), **changes))

    def with_board(self, **changes: Any) -> "State":
        return _evolve_state(self, board=evolve(self.board, **changes))

    def with_board_record(self, board: Any) -> "State":
        """The state with the system's record replaced by `board` (made by the system, already whole)."""
        return _evolve_state(self, board=board)

    def memo(self, key: str, make: Any) -> Any:
        """A value derived from the combatants alone (e.g. who stands in which
        zone), computed once and kept by the next states for as long as the
        combatants and the encounter stay the same (states never change)."""
        cache = self.__dict__.get("_memo")
        if cache is None:
            cache = {}
            object.__setattr__(self, "_memo", cache)
        if key not in cache:
            cache[key] = make(self)
        return cache[key]


def evolve(record: Any, **changes: Any) -> Any:
    """A copy of a frozen dataclass with some fields changed, without the
    generated __init__ (its __post_init__, if any, still runs): for records
    whose fields need no conversion or check (the systems' own records).
    Unknown field names are refused like replace()."""
    new = _copy(record, changes)
    post = getattr(new, "__post_init__", None)
    if post is not None:
        post()
    return new


def _evolve_state(state: State, **changes: Any) -> State:
    """evolve() for State: its index (id -> position) carries over, since no
    update reorders the combatants; so do its memos while the combatants and
    the encounter are the same objects."""
    new = _copy(state, changes)
    if "combatants" not in changes and "encounter" not in changes and "_memo" in state.__dict__:
        new.__dict__["_memo"] = state.__dict__["_memo"]
    return new


_NAMES: dict[type, frozenset[str]] = {}  # each record class's public field names (classes are few and live on)


def _copy(record: Any, changes: dict[str, Any]) -> Any:
    cls = type(record)
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = frozenset(k for k in cls.__dataclass_fields__ if not k.startswith("_"))
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field {next(k for k in changes if k not in names)!r}")
    new = object.__new__(cls)
    d = new.__dict__
    d.update(record.__dict__)
    if "_memo" in d:
        del d["_memo"]
    d.update(changes)
    return new
