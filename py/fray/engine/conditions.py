"""What a condition does: the named ones every system knows, and the standard effects a referee's own carry.

A condition is a word on a combatant (`Combatant.conditions`). Some words the
rules act on: an asleep, held or helpless combatant may only pass
(`INCAPACITATING`); an entangled one may not move (`IMMOBILE`). A condition
may also carry a modifier in its own words, "AC +2" or "to-hit -1" ("Shield
(AC +4)", "Bane: to-hit -1"), and the library's named ones carry theirs
("blessed": to-hit +1); a referee's own condition saying "no actions" or "no
movement" does what it says. Each system adds its attack and defence through
`modifiers` (OLOG's attack roll and AC, OSE's to-hit and effective AC, Ogre's
combat skill and Defense). The library (`LIBRARY`) is what the page offers in
one tap, each with what it does. Pure: no browser imports.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from typing import Any

from .commands import Illegal, Reason
from .model import Combatant
from .state import State

# Conditions that allow no action (the referee's words, any case): the combatant may only pass or answer.
INCAPACITATING = frozenset(("asleep", "held", "helpless", "paralysed", "paralyzed", "unconscious"))
# Conditions that allow no movement: the combatant may act where it stands.
IMMOBILE = frozenset(("entangled", "immobile", "rooted", "stuck", "webbed"))

_MOD = re.compile(r"\b(ac|to[- ]?hit)\s*:?\s*([+\-−])\s*(\d{1,2})\b", re.IGNORECASE)


@dataclass(frozen=True)
class Mods:
    """What a combatant's conditions add: to its AC (Ogre: Defense) and to its attack rolls."""

    ac: int = 0
    to_hit: int = 0

    def __bool__(self) -> bool:
        return bool(self.ac or self.to_hit)

    def words(self) -> str:
        """ "AC +2, to-hit -1" (for the log's reasons)."""
        parts = ([f"AC {self.ac:+d}"] if self.ac else []) + ([f"to-hit {self.to_hit:+d}"] if self.to_hit else [])
        return ", ".join(parts)


@dataclass(frozen=True)
class Named:
    """A condition of the library: its name, what it does (said on the page) and its modifiers."""

    name: str
    does: str
    mods: Mods = Mods()
    rule: str = ""

    @property
    def word(self) -> str:
        """What the condition is called on the combatant (the rules read these words in lower case)."""
        return self.name.lower()


# The named conditions offered in one tap (the systems add their own, Ruleset.condition_library).
LIBRARY: tuple[Named, ...] = (
    Named("Asleep", "no action but to pass"),
    Named("Held", "no action but to pass"),
    Named("Helpless", "no action but to pass"),
    Named("Entangled", "may act, may not move"),
    Named("Blessed", "to-hit +1", Mods(to_hit=1)),
    Named("Shaken", "to-hit -1", Mods(to_hit=-1)),
    Named("Shielded", "AC +2", Mods(ac=2)),
    Named("Exposed", "AC -2", Mods(ac=-2)),
)
_BY_NAME = {n.name.lower(): n for n in LIBRARY}


def _of_word(word: str) -> Mods:
    named = _BY_NAME.get(word.strip().lower())
    ac = named.mods.ac if named else 0
    hit = named.mods.to_hit if named else 0
    for m in _MOD.finditer(word):
        n = int(m.group(3)) * (-1 if m.group(2) in "-−" else 1)
        if m.group(1).lower() == "ac":
            ac += n
        else:
            hit += n
    return Mods(ac, hit)


_CACHE: dict[tuple[str, ...], Mods] = {}


def modifiers(c: Combatant) -> Mods:
    """The sum of what `c`'s conditions add to its AC and to-hit (none: Mods())."""
    if not c.conditions:
        return Mods()
    got = _CACHE.get(c.conditions)
    if got is None:
        ac = hit = 0
        for word in c.conditions:
            m = _of_word(word)
            ac, hit = ac + m.ac, hit + m.to_hit
        got = _CACHE[c.conditions] = Mods(ac, hit)
        if len(_CACHE) > 4096:
            _CACHE.clear()
    return got


def incapacitating(c: Combatant) -> str | None:
    """The first condition of `c` that allows no action (a word of `INCAPACITATING`, or the referee's own
    saying "no action": "Frozen (no actions)"), or None."""
    return next((x for x in c.conditions if x.strip().lower() in INCAPACITATING or "no action" in x.lower()), None)


def can_act(c: Combatant) -> bool:
    """CORE-COND-1: whether `c` can take an action at all: not down, and no condition that allows none. One
    that cannot threatens nobody, exerts no pressure, makes no attack of opportunity, brace or reaction; it is
    asked only what concerns itself (a save, a morale or concentration check). Every system asks this."""
    return not c.is_down and incapacitating(c) is None


def condition_refusal(c: Combatant, moving: bool) -> Illegal | None:
    """Why `c`'s conditions refuse an action of it: none at all (`INCAPACITATING`), or a move (`IMMOBILE`)."""
    if not c.conditions:
        return None
    cond = incapacitating(c)
    if cond is not None:
        return Illegal(Reason.INCAPACITATED, f"{c.name} is {cond}: no action but to pass while it lasts")
    cond = immobile(c) if moving else None
    if cond is not None:
        return Illegal(Reason.IMMOBILE, f"{c.name} is {cond}: it may act where it stands, not move")
    return None


def immobile(c: Combatant) -> str | None:
    """The first condition of `c` that allows no movement (`IMMOBILE`, or "no movement" in its words)."""
    return next((x for x in c.conditions if x.strip().lower() in IMMOBILE or "no move" in x.lower()), None)


# --- conditions in words, with their time left ---------------------------------------------------

def until_words(state: State, edge: str, who: str, turn: str = "turn") -> str:
    """"until the start of Brak's next turn" (a turn timer's end, in words; a "-step" edge: "step")."""
    name = state.get(who).name if state.has(who) else who
    edge, turn = (edge[:-5], "step") if edge.endswith("-step") else (edge, turn)
    return f"until the {edge} of {name}'s next {turn}"


TURN_EDGES = ("start", "end", "start-step", "end-step")  # a turn timer's edge: a turn's, or a step's (CORE-TIME-1)


def turn_count(ruleset: Any, state: State, edge: str, who: str) -> tuple[int, bool] | None:
    """What a turn timer counts (CORE-TIME-1): `who`'s turns (`Ruleset.turns`), or for a "-step" edge the finer
    steps where the system has them (`Ruleset.steps`, OSE detailed); None where there are none."""
    if edge.endswith("-step"):  # a system whose turns have steps declares `steps`, counted as `turns` is
        steps = getattr(ruleset, "steps", None)
        return steps(state, who) if steps is not None else None
    return ruleset.turns(state, who)


def secret_times(ruleset: Any, state: State) -> tuple[tuple[str, str, int], ...]:
    """The rules' own timed states whose time is the referee's secret (OSE-TURN-3: turned undead flee 1d4
    minutes, rolled secretly): (combatant, condition, the tick it ends at), from the system's `secret_times`."""
    own = getattr(ruleset, "secret_times", None)  # a system whose rules time a condition themselves declares it
    return own(state) if own is not None else ()


def condition_words(ruleset: Any, state: State, *, public: bool = False) -> dict[str, tuple[str, ...]]:
    """Each combatant's conditions as its badges say them, a timed one with its time left in the system's
    clock ("Asleep · 2 rounds left"; Ogre: segments and seconds), in the order of `conditions`. The time of
    the rules' own secret timings ("turned · 3 rounds left") only for the referee, not with `public`."""
    ends = {(cid, cond): at for cid, cond, at in state.timers}
    if not public:
        ends.update(((cid, cond), at) for cid, cond, at in secret_times(ruleset, state))
    now = ruleset.clock(state) if ends else 0
    out: dict[str, tuple[str, ...]] = {}
    for c in state.combatants:
        if c.conditions:
            out[c.id] = tuple(_said(ruleset, state, cond, ends.get((c.id, cond)), now)
                              + (" · secret" if (c.id, cond) in state.secret else "") for cond in c.conditions)
    return out


def _said(ruleset: Any, state: State, cond: str, at: Any, now: int) -> str:
    if at is None:
        return cond
    if isinstance(at, int):
        return f"{cond} · {ruleset.clock_words(max(0, at - now))} left"
    return f"{cond} · {until_words(state, at[0], at[1], ruleset.turn_word(state))}"


def public_conditions(ruleset: Any, state: State) -> dict[str, tuple[str, ...]]:
    """`condition_words` without the referee's secret ones, nor the secret time of the rules' own timings:
    what the players' display may show."""
    words = condition_words(ruleset, state, public=True)
    if not state.secret:
        return words
    out = {}
    for c in state.combatants:
        shown = tuple(w for cond, w in zip(c.conditions, words.get(c.id, ())) if (c.id, cond) not in state.secret)
        if shown:
            out[c.id] = shown
    return out
