"""The fight in review: per combatant and per side figures read from the one history (issue #56).

Generic: every figure comes from the session's steps, their events and the
states between them, so it holds for every system. Hit points are read from
the states (what a step took or gave back), split by the `DamageTaken` events
of the step (who dealt it); hits and misses are the `AttackHit` and
`AttackMissed` events; a fall is a step after which a combatant is down and
before which it was not. What only one system knows (OSE's XP and ammunition,
OSE-RES-1) comes from its view's `recap` hook. `public` gives the players'
summary: the secrets the table display keeps out stay out (views/table_view.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.commands import Event
from ..engine.session import Session
from ..engine.state import State
from .panels import system_view
from .table_view import hp_word, public_secrets

HIT, MISS, TAKEN, CAST = "AttackHit", "AttackMissed", "DamageTaken", "SpellCast"


@dataclass(frozen=True)
class Fall:
    """One time a combatant went down: the step after which it was down, the clock then, and by whom."""

    step: int
    clock: int
    by: str  # a combatant's id, "" for the referee or no one


@dataclass(frozen=True)
class Figures:
    """One combatant's fight. `hp` is its hit points after each step (index 0: the start)."""

    id: str
    name: str
    side: str
    pc: bool
    max_hp: int
    dealt: int
    taken: int
    healed: int
    hits: int
    misses: int
    falls: tuple[Fall, ...]
    conditions: tuple[str, ...]  # gained during the fight, in order, each once
    secret_conditions: tuple[str, ...]  # those of them the players never see
    spells: tuple[str, ...]  # every spell cast, in order
    hp: tuple[int, ...]
    hp_words: bool = False  # the players' summary: HP as words (views/table_view.hp_word), figures withheld

    @property
    def down(self) -> bool:
        return self.hp[-1] <= 0

    @property
    def down_at(self) -> int | None:
        """The step of the fall that kept it down (None: standing at the end)."""
        return self.falls[-1].step if self.falls and self.down else None

    @property
    def downed_by(self) -> str | None:
        return self.falls[-1].by if self.falls and self.down else None

    @property
    def hp_word(self) -> str:
        return hp_word(self.hp[-1], self.max_hp)


@dataclass(frozen=True)
class SideFigures:
    """One side's fight: how many it fielded, how many went down (falls) and are down at the end."""

    id: str
    name: str
    colour: str
    fielded: int
    falls: int
    down: int
    dealt: int


@dataclass(frozen=True)
class SystemRecap:
    """What a system's view adds to the summary: JSON figures (OSE's `xp`, `ammo`) and lines to show."""

    figures: dict[str, Any] = field(default_factory=dict)
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Recap:
    """The summary of a fight at one moment (during it, or at its end)."""

    name: str
    system: str
    title: str
    steps: int
    clock: int  # the system's clock at the end: rounds (Ogre: segments)
    clock_unit: str  # "round" | "segment"
    clock_label: str  # in-game time, "" when the system gives a tick no length
    outcome: str
    combatants: tuple[Figures, ...]
    sides: tuple[SideFigures, ...]
    system_recap: SystemRecap
    log: tuple[tuple[int, str], ...]  # (step, line), oldest first
    public: bool = False

    def get(self, cid: str) -> Figures:
        return next(f for f in self.combatants if f.id == cid)

    def name_of(self, cid: str | None) -> str:
        if not cid:
            return "the referee" if cid == "" else ""
        return next((f.name for f in self.combatants if f.id == cid), cid)

    @property
    def clock_words(self) -> str:
        return f"{self.clock} {self.clock_unit}" + ("" if self.clock == 1 else "s")

    def to_json(self) -> dict[str, Any]:
        """The command line's `--json` (python -m fray recap): per combatant by id, and the fight's."""
        fight: dict[str, Any] = {"name": self.name, "system": self.system, "steps": self.steps,
                                 f"{self.clock_unit}s": self.clock, "outcome": self.outcome}
        fight.update(self.system_recap.figures)
        return {
            "fight": fight,
            "combatants": {f.id: {
                "name": f.name, "side": f.side, "dealt": f.dealt, "taken": f.taken, "healed": f.healed,
                "hits": f.hits, "misses": f.misses, "down_at": f.down_at, "downed_by": f.downed_by or None,
                "falls": [{"step": x.step, f"{self.clock_unit}": x.clock, "by": x.by or None} for x in f.falls],
                "conditions": list(f.conditions), "spells": list(f.spells), "hp": f.hp[-1], "max_hp": f.max_hp,
            } for f in self.combatants},
            "sides": {s.id: {"name": s.name, "fielded": s.fielded, "falls": s.falls, "down": s.down,
                             "dealt": s.dealt} for s in self.sides},
        }


def _actor_of(step_command: Any, state: State) -> str:
    actor = getattr(step_command, "actor", "")
    return actor if isinstance(actor, str) and actor and state.has(actor) else ""


def recap(session: Session, upto: int | None = None) -> Recap:
    """The summary of the fight after `upto` steps (default: all of them)."""
    n = len(session.steps) if upto is None else max(0, min(upto, len(session.steps)))
    ruleset = session.ruleset
    first, last = session.state_at(0), session.state_at(n)
    ids = [c.id for c in first.combatants]
    dealt = dict.fromkeys(ids, 0)
    taken, healed, hits, misses = dict(dealt), dict(dealt), dict(dealt), dict(dealt)
    falls: dict[str, list[Fall]] = {i: [] for i in ids}
    gained: dict[str, list[str]] = {i: [] for i in ids}
    secret: dict[str, set[str]] = {i: set() for i in ids}
    spells: dict[str, list[str]] = {i: [] for i in ids}
    hp: dict[str, list[int]] = {c.id: [c.hp] for c in first.combatants}
    events: list[tuple[int, Event]] = []
    before = first
    for i in range(1, n + 1):
        step, after = session.steps[i - 1], session.state_at(i)
        hurt: dict[str, int] = {}
        last_source: dict[str, str] = {}
        for e in step.events:
            events.append((i, e))
            if e.kind == TAKEN and e.target in taken:
                amount = e.data.get("amount", 0) if isinstance(e.data, dict) else 0
                hurt[e.target] = hurt.get(e.target, 0) + amount
                if e.actor in dealt and e.actor != e.target:
                    dealt[e.actor] += amount
                if e.actor:
                    last_source[e.target] = e.actor
            elif e.kind == HIT and e.actor in hits:
                hits[e.actor] += 1
            elif e.kind == MISS and e.actor in misses:
                misses[e.actor] += 1
            elif e.kind == CAST and e.actor in spells:
                spell = e.data.get("spell") if isinstance(e.data, dict) else ""
                spells[e.actor].append(str(spell or "a spell"))
        same = len(before.combatants) == len(after.combatants) == len(ids)  # no step adds or reorders anyone
        for k, cid in enumerate(ids):
            old, new = (before.combatants[k], after.combatants[k]) if same else (None, None)
            if old is None or old.id != cid or new.id != cid:
                old, new = before.find(cid), after.find(cid)
            if old is new or old is None or new is None:  # a step changes few combatants: the rest are the same objects
                hp[cid].append(hp[cid][-1])
                continue
            hp[cid].append(new.hp)
            # What the step's events say it took, and the rest of the change (a value set, a destruction,
            # healing) read from the states: healed - taken is always the change itself.
            logged, change = hurt.get(cid, 0), new.hp - old.hp
            healed[cid] += max(0, change + logged)
            taken[cid] += logged + max(0, -(change + logged))
            if new.is_down and not old.is_down:
                by = last_source.get(cid) or _actor_of(step.command, after)
                falls[cid].append(Fall(i, ruleset.clock.now(after), by))
            for cond in new.conditions:
                if cond not in old.conditions and cond not in gained[cid]:
                    gained[cid].append(cond)
                if (cid, cond) in after.secret:
                    secret[cid].add(cond)
        before = after
    sec = public_secrets(last)
    figures = tuple(Figures(
        c.id, c.name, c.side, c.id in sec.pcs, last.get(c.id).max_hp, dealt[c.id], taken[c.id], healed[c.id],
        hits[c.id], misses[c.id], tuple(falls[c.id]), tuple(gained[c.id]),
        tuple(x for x in gained[c.id] if x in secret[c.id]), tuple(spells[c.id]), tuple(hp[c.id]))
        for c in first.combatants)
    sides = tuple(SideFigures(
        s.id, s.name, s.colour, sum(1 for f in figures if f.side == s.id),
        sum(len(f.falls) for f in figures if f.side == s.id), sum(1 for f in figures if f.side == s.id and f.down),
        sum(f.dealt for f in figures if f.side == s.id)) for s in last.sides)
    view = system_view(last.encounter.system)
    enc = session.encounter
    return Recap(enc.name, enc.system, ruleset.title, n, ruleset.clock.now(last), ruleset.clock.unit,
                 ruleset.clock.label(last), last.outcome, figures, sides, view.recap(first, last, tuple(events)),
                 tuple((i, _line(e)) for i, e in events))


def _line(e: Event) -> str:
    dice = "; ".join(d for d in (r.describe() for r in e.rolls) if d not in e.text)
    return e.text + (f"  ({dice})" if dice else "") + (" (secret)" if e.secret else "")


def public(session: Session, r: Recap | None = None) -> Recap:
    """The players' summary: no hidden combatant, no monster HP figure (a word instead, as the table
    display shows it), no secret condition, and the log written for players (views/table_view.py)."""
    from .table_view import player_line
    r = r if r is not None else recap(session)
    last = session.state_at(r.steps)
    sec = public_secrets(last)
    shown = []
    for f in r.combatants:
        if f.id in sec.hidden:
            continue
        conditions = tuple(c for c in f.conditions if c not in f.secret_conditions)
        if f.pc:
            shown.append(replace(f, conditions=conditions, secret_conditions=()))
        else:
            shown.append(replace(f, conditions=conditions, secret_conditions=(), taken=0, healed=0,
                                 hp=tuple(_word_level(h, f.max_hp) for h in f.hp), max_hp=4, hp_words=True))
    kept = {f.id for f in shown}
    sides = tuple(replace(s, fielded=sum(1 for f in shown if f.side == s.id),
                          falls=sum(len(f.falls) for f in shown if f.side == s.id),
                          down=sum(1 for f in shown if f.side == s.id and f.down),
                          dealt=sum(f.dealt for f in shown if f.side == s.id)) for s in r.sides)
    public_view = system_view(last.encounter.system).declarations_public(last)
    log = []
    for i in range(1, r.steps + 1):
        for e in session.steps[i - 1].events:
            line = player_line(last, e, sec, public_view)
            if line:
                log.append((i, line))
    shown = [replace(f, falls=tuple(x if x.by in kept or not x.by else replace(x, by="") for x in f.falls))
             for f in shown]
    own = r.system_recap  # the system's lines, as the table shows any text: none that names a hidden one
    figures = {k: {i: x for i, x in v.items() if i not in sec.hidden} if isinstance(v, dict) else v
               for k, v in own.figures.items()}
    own = SystemRecap(figures, tuple(line for line in own.lines if sec.shows(line)))
    return replace(r, combatants=tuple(shown), sides=sides, log=tuple(log), public=True, system_recap=own,
                   outcome=r.outcome if sec.shows(r.outcome) else "")


def _word_level(hp: int, max_hp: int) -> int:
    """A monster's HP as the players' chart draws it: 4 unhurt, 3 hurt, 2 bloodied, 1 near death, 0 down."""
    return 4 - ("unhurt", "hurt", "bloodied", "near death", "down").index(hp_word(hp, max_hp))


# --- the players' summary on the table display (views/table_view.py's message, ui/markup/recap_table.py) --

TABLE_POINTS = 120  # HP points per combatant sent to the table window


def to_table(r: Recap) -> dict[str, Any]:
    """A players' summary as the table channel carries it: plain JSON, HP thinned to `TABLE_POINTS`."""
    from bisect import bisect_left
    from .recap_export import headline, side_lines, thinned
    drawn = {f.id: thinned(f.hp, TABLE_POINTS) for f in r.combatants}
    return {"headline": headline(r), "lines": side_lines(r) + list(r.system_recap.lines),
            "clock_unit": r.clock_unit,
            "sides": [{"id": s.id, "name": s.name, "colour": s.colour} for s in r.sides],
            "combatants": [{"id": f.id, "name": f.name, "side": f.side, "dealt": f.dealt, "max_hp": f.max_hp,
                            "words": f.hp_words, "hp": [v for _, v in drawn[f.id]],
                            # where each fall is among the points drawn, and its round (or segment)
                            "falls": [[bisect_left([i for i, _ in drawn[f.id]], x.step), x.clock] for x in f.falls]}
                           for f in r.combatants]}


def from_table(data: Any) -> Recap | None:
    """The summary a table window received, every field checked (it came over a channel), or None."""
    if not isinstance(data, dict) or not isinstance(data.get("combatants"), list):
        return None

    def num(v: Any) -> int:
        return v if isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10**6 else 0

    def txt(v: Any, limit: int = 120) -> str:
        return v[:limit] if isinstance(v, str) else ""

    figures = []
    for c in data["combatants"][:200]:
        if not isinstance(c, dict):
            continue
        hp = tuple(num(v) for v in c.get("hp", [])[:TABLE_POINTS + 2]) if isinstance(c.get("hp"), list) else ()
        falls = tuple(Fall(min(num(x[0]), len(hp) - 1), num(x[1]), "") for x in c.get("falls", [])[:20]
                      if isinstance(x, list) and len(x) == 2) if hp and isinstance(c.get("falls"), list) else ()
        figures.append(Figures(txt(c.get("id"), 40), txt(c.get("name")), txt(c.get("side"), 40), False,
                               max(1, num(c.get("max_hp"))), num(c.get("dealt")), 0, 0, 0, 0, falls, (), (), (),
                               hp or (0,), hp_words=c.get("words") is True))
    sides = tuple(SideFigures(txt(s.get("id"), 40), txt(s.get("name")), txt(s.get("colour"), 9), 0, 0, 0, 0)
                  for s in data.get("sides", [])[:20] if isinstance(s, dict)) if isinstance(data.get("sides"), list) else ()
    lines = tuple(txt(x, 300) for x in data.get("lines", [])[:12]) if isinstance(data.get("lines"), list) else ()
    unit = txt(data.get("clock_unit"), 20) or "round"
    return Recap("", "", txt(data.get("headline"), 300), 0, 0, unit, "", "", tuple(figures), sides,
                 SystemRecap({}, lines), (), public=True)
