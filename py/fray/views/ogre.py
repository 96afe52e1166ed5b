"""Ogre's view models: the order panel, the segment ruler, and the before-the-fight dialog.

Pure data from a State; `ui/` draws it. The ruler runs left to right in
segments (OGRE-SEG-1): a lane per combatant with its flat-footed stretch
(OGRE-FF-1), each declared action as a bar from declaration to resolution
(OGRE-ACT-1), reactions as ticks with their penalty (OGRE-REACT-1), delays
and readies drawn apart (OGRE-DELAY-1, OGRE-READY-1), and the cursor at now.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..engine.state import State
from ..rules import ogre
from ..rules.ogre import Action, Fighter, OgreState, SurpriseSuggestion, seconds, suggest, terrains
from .models import Badge, Hint, OrderRow, SystemPanel, SystemView

SHORT = {"Instantaneous": "Inst", "Immediate": "Imm", "Quick": "Qck", "Short": "Sht", "Standard": "Std",
         "Long": "Lng", "Very Long": "VLng", "Slow": "Slow", "Very Slow": "VSlow"}


# --- the segment ruler ----------------------------------------------------------------------

@dataclass(frozen=True)
class RulerTick:
    """A label on the segment axis (every 5 segments), with its time."""

    segment: int
    label: str
    seconds: str
    major: bool  # every 10 segments (5 s)


@dataclass(frozen=True)
class RulerBar:
    """A stretch of a lane: an action from declaration to resolution, a delay, a
    ready (open until its trigger), a stun. `state`: pending | resolved | broken
    | failed | fired | lost."""

    start: int
    end: int | None  # None: open-ended (a ready, or a delay "until I say so")
    kind: str  # action | ready | delay | stun
    label: str
    short: str  # compact label for narrow lanes: "Attack·Std"
    category: str = ""
    state: str = "pending"
    fast: bool = False
    slow: int = 0
    penalty: int = 0  # reactions so far on a pending action
    is_next: bool = False  # the next resolution of the fight
    clipped_left: bool = False
    clipped_right: bool = False
    title: str = ""


@dataclass(frozen=True)
class RulerMark:
    """A reaction: a tick at its segment with the penalty it gave (OGRE-REACT-1)."""

    segment: int
    penalty: int
    label: str
    category: str


@dataclass(frozen=True)
class RulerLane:
    id: str
    name: str
    side: str
    is_current: bool = False
    is_selected: bool = False
    is_down: bool = False
    initiative: int | None = None
    flat_footed: tuple[int, int] | None = None  # [0, initiative): hatched
    bars: tuple[RulerBar, ...] = ()
    reactions: tuple[RulerMark, ...] = ()
    due: int | None = None  # the segment of its next declaration, if known
    summary: str = ""


@dataclass(frozen=True)
class RulerModel:
    start: int
    end: int
    now: int
    ticks: tuple[RulerTick, ...]
    lanes: tuple[RulerLane, ...]
    next_segment: int | None = None
    next_label: str = ""
    selected: str = ""
    seconds: str = ""


def _window(s: OgreState, state: State) -> tuple[int, int]:
    """From 0 while the fight is young; later a window from a little before now."""
    now = s.segment
    far = now
    for f in s.fighters:
        if not ogre.standing(state, f.id):
            continue
        for seg in (f.initiative, f.due, f.action.resolves if f.action else None, f.stunned_until):
            if seg is not None:
                far = max(far, seg)
    if far <= 60:
        return 0, max(30, -(-(far + 5) // 5) * 5)
    start = max(0, (now - 10) // 5 * 5)
    end = min(start + 120, max(start + 40, -(-(far + 5) // 5) * 5))
    return start, end


def _tempo_flags(category: str, base: str) -> tuple[bool, int]:
    d = ogre.CATEGORIES.index(category) - ogre.CATEGORIES.index(base) if base else 0
    return d < 0, max(0, d)


def _bar(a: Action, now: int, start: int, end: int, next_seg: int | None) -> RulerBar:
    fast, slow = _tempo_flags(a.category, a.base)
    kind = "ready" if a.kind == "ready" else "action"
    stop = a.resolves
    pen = f", {a.penalty:+d} from reactions" if a.penalty else ""
    when = "until its trigger" if stop is None else f"resolves at {stop} ({seconds(stop)})"
    return RulerBar(
        a.declared, stop, kind, a.label, f"{a.label.split(' ')[0].rstrip(':')}·{SHORT.get(a.category, '')}",
        a.category, "pending", fast, slow, a.penalty, is_next=stop is not None and stop == next_seg,
        clipped_left=a.declared < start, clipped_right=stop is None or stop > end,
        title=f"{a.label} ({a.category}{', fast' if fast else ''}{', +' + str(4 * slow) if slow else ''}): "
              f"declared at {a.declared}, {when}{pen}")


_RULER: list = [None, None]  # the last state and its ruler with nobody selected


def ruler(state: State, selected: str = "") -> RulerModel:
    """The segment ruler's model: the axis, the cursor at now, one lane per combatant. Built once
    per state (states are frozen); a selection only marks its lane."""
    if _RULER[0] is not state:
        _RULER[1] = _ruler(state)
        _RULER[0] = state
    m: RulerModel = _RULER[1]
    if not selected:
        return m
    return replace(m, selected=selected,
                   lanes=tuple(replace(ln, is_selected=True) if ln.id == selected else ln for ln in m.lanes))


def _ruler(state: State, selected: str = "") -> RulerModel:
    s: OgreState = state.board
    now = s.segment
    start, end = _window(s, state)
    ticks = tuple(RulerTick(k, str(k), seconds(k), k % 10 == 0) for k in range(start, end + 1, 5))
    nxt = ogre.next_event(state) if s.phase == "fight" else None
    next_res = _next_resolution(state)
    current = set(_current(state))
    order = sorted(s.fighters, key=lambda f: (f.initiative if f.initiative is not None else 10**6, f.reaction, f.id))
    lanes = []
    for f in order:
        c = state.get(f.id)
        bars: list[RulerBar] = []
        for m in f.marks:
            if m.kind == "reaction" or m.end < start:
                continue
            mk = "delay" if m.kind == "delay" else "action"
            fast = m.tempo < 0
            bars.append(RulerBar(m.start, m.end, mk, m.label,
                                 f"{m.label.split(' ')[0].rstrip(':')}·{SHORT.get(m.category, '')}" if m.category
                                 else m.label, m.category, m.outcome or "resolved", fast, max(0, m.tempo),
                                 clipped_left=m.start < start, clipped_right=m.end > end,
                                 title=f"{m.label}: {m.start}-{m.end} ({m.outcome})"))
        if f.action is not None:
            bars.append(_bar(f.action, now, start, end, next_res[0] if next_res else None))
        if f.delaying and f.delay_from is not None:
            bars.append(RulerBar(f.delay_from, f.due, "delay", "Delay", "Delay", state="pending",
                                 clipped_left=f.delay_from < start, clipped_right=f.due is None or f.due > end,
                                 title="Delaying: " + (f"declares at {f.due}" if f.due is not None
                                                       else "declares at any later segment")))
        if f.stunned_until is not None and f.stunned_until > now:
            bars.append(RulerBar(now, f.stunned_until, "stun", "Stunned", "Stun", state="pending",
                                 clipped_right=f.stunned_until > end,
                                 title=f"Stunned until segment {f.stunned_until}"))
        reactions = tuple(RulerMark(m.start, m.penalty, m.label, m.category) for m in f.marks
                          if m.kind == "reaction" and start <= m.start <= end)
        flat = (0, f.initiative) if f.initiative is not None and f.initiative > start else None
        if f.initiative is None and s.phase == "setup":
            flat = None
        lanes.append(RulerLane(
            f.id, c.name, c.side, f.id in current, f.id == selected, c.is_down, f.initiative,
            (max(start, flat[0]), flat[1]) if flat else None, tuple(bars), reactions,
            f.due if f.action is None else None, _summary(state, f)))
    label = ""
    if next_res is not None:
        who = ", ".join(state.name(i) for i in next_res[1])
        label = f"Next: {who} resolve{'s' if len(next_res[1]) == 1 else ''} at segment {next_res[0]}"
    return RulerModel(start, end, now, ticks, tuple(lanes), nxt, label, selected, seconds(now))


def _next_resolution(state: State) -> tuple[int, tuple[str, ...]] | None:
    s: OgreState = state.board
    best: int | None = None
    for f in s.fighters:
        if f.action is not None and f.action.resolves is not None and ogre.standing(state, f.id):
            if f.action.resolves >= s.segment and (best is None or f.action.resolves < best):
                best = f.action.resolves
    if best is None:
        return None
    return best, tuple(f.id for f in s.fighters if f.action is not None and f.action.resolves == best
                       and ogre.standing(state, f.id))


def _current(state: State) -> tuple[str, ...]:
    from ..rules.ogre import RULESET
    return RULESET.current(state)


def _summary(state: State, f: Fighter) -> str:
    """One line: what this combatant does next and when (the order panel's detail)."""
    s: OgreState = state.board
    c = state.get(f.id)
    if c.is_down:
        return "down"
    if s.phase == "setup":
        return f"reaction time {ogre.reaction_time(state, c)}" + (" · surprised" if f.surprised else "")
    if ogre.is_stunned(s, f.id):
        return f"stunned until {f.stunned_until}"
    a = f.action
    if a is not None:
        if a.kind == "ready":
            return a.label.lower()
        return f"acts at {a.resolves}: {a.label} ({a.category})"
    if ogre.must_declare(state, f.id):
        return f"declares now (segment {s.segment})"
    if f.delaying:
        return "delaying" + (f" until {f.due}" if f.due is not None else "")
    if f.initiative is not None and s.segment < f.initiative:
        return f"flat-footed until {f.initiative}"
    return f"declares at {f.due}" if f.due is not None else ""


def next_words(state: State) -> str:
    """"next: segment 24 (12.0 s) · Orc's Attack Brak resolves", for the status line."""
    s: OgreState = state.board
    nxt = ogre.next_event(state)
    if nxt is None:
        return "nothing scheduled: advance one segment at a time"
    what = []
    for f in s.fighters:
        if not ogre.standing(state, f.id):
            continue
        name = state.name(f.id)
        if f.action is not None and f.action.resolves == nxt:
            what.append(f"{name}'s {f.action.label} resolves")
        elif f.action is None and f.due == nxt:
            what.append(f"{name} declares")
        if f.stunned_until == nxt:
            what.append(f"{name} recovers")
    return f"next: segment {nxt} ({seconds(nxt)}) · " + ", ".join(what)


def _next_segment(state: State, f: Fighter) -> int:
    s: OgreState = state.board
    if not ogre.standing(state, f.id):
        return 10**9
    if f.action is not None:
        return f.action.resolves if f.action.resolves is not None else 10**8
    if f.due is not None:
        return max(f.due, s.segment)
    return s.segment if not f.delaying else 10**7


# --- the order panel -------------------------------------------------------------------------

def _left(segments: int) -> str:
    """Time left in Ogre's clock, as a timed condition's badge says it (OGRE-SEG-1)."""
    return f"{segments} segment{'s' if segments != 1 else ''} ({segments / 2:g} s) left" if segments > 0 else ""


def badges(state: State, f: Fighter) -> tuple[Badge, ...]:
    """States with an icon and a word (UI principle 6)."""
    s: OgreState = state.board
    c = state.get(f.id)
    out = []
    if c.is_down:
        return (Badge("✖", "down", f"{c.name} is down", "CORE-HP-1", "danger"),)
    if s.phase == "fight" and ogre.is_flat_footed(s, f.id):
        dfn, full = ogre.defense(c, True), ogre.defense(c, False)
        extra = f"; Defense {dfn} instead of {full}" if dfn != full else ""
        out.append(Badge("◔", "flat-footed", f"No Defense, no attacks of opportunity until segment "
                                             f"{f.initiative}{extra}", "OGRE-FF-1", "warn",
                         left=_left(f.initiative - s.segment)))
    if f.surprised:
        out.append(Badge("!", "surprised", "Surprised: reaction time raised", "OGRE-SUR-1", "warn"))
    a = f.action
    if a is not None:
        if a.kind == "ready":
            out.append(Badge("⚑", a.label.lower(), f"Waits for: {ogre.TRIGGERS.get(a.trigger, a.trigger)}",
                             "OGRE-READY-1"))
        if a.concentration:
            out.append(Badge("◎", "concentrating", "Damage calls for a Concentration check", "OGRE-BREAK-1"))
        if a.tempo < 0:
            out.append(Badge("»", "fast", f"Hurried: {a.modifier:+d}", "OGRE-FAST-1"))
        elif a.tempo > 0:
            out.append(Badge("«", "taking time", f"Careful: {a.modifier:+d}", "OGRE-SLOW-1"))
        if a.penalty:
            out.append(Badge("↯", f"{a.penalty:+d}", f"Reactions so far: {a.penalty:+d} to {a.label}",
                             "OGRE-REACT-1", "warn"))
    if f.delaying:
        out.append(Badge("‖", "delaying", "Declares later; the segments waited are lost", "OGRE-DELAY-1"))
    if ogre.is_stunned(s, f.id):
        out.append(Badge("✺", "stunned", f"Stunned until segment {f.stunned_until}", "OGRE-BREAK-1", "danger",
                         left=_left(f.stunned_until - s.segment)))
    return tuple(out)


_UNSET: Any = object()


def hints(state: State, f: Fighter, nr: Any = _UNSET) -> tuple[Hint, ...]:
    """`nr`: the state's next resolution, when the caller has worked it out once for every fighter."""
    s: OgreState = state.board
    out = []
    if nr is _UNSET:
        nr = _next_resolution(state)
    if nr is not None:
        who = ", ".join(f"{state.name(i)}'s {s.fighter(i).action.label}" for i in nr[1])
        out.append(Hint(f"Next resolution: {who} at segment {nr[0]} (in {nr[0] - s.segment})", "OGRE-ACT-1"))
    a = f.action
    if a is not None and a.penalty:
        out.append(Hint(f"Reactions so far: {a.penalty:+d} to {a.label}", "OGRE-REACT-1", "warn"))
    if ogre.must_declare(state, f.id):
        std = ogre.duration(state, "Standard")
        out.append(Hint(f"Declaring at segment {s.segment}: a Standard action resolves at {s.segment + std}",
                        "OGRE-ACT-1"))
    c = state.get(f.id)
    if s.phase == "fight" and ogre.is_flat_footed(s, f.id) and not c.is_down:
        out.append(Hint(f"Flat-footed until segment {f.initiative}: no reactions, no attacks of opportunity",
                        "OGRE-FF-1", "warn"))
    return tuple(out)


class OgreView(SystemView):
    def panel(self, state: State) -> SystemPanel:
        s: OgreState = state.board
        now = f"Segment {s.segment} ({seconds(s.segment)})"
        current = _current(state)
        if state.outcome:
            status, phase = f"{now} · {state.outcome}", "over"
        elif s.phase == "setup":
            status, phase = "Before the fight · surprise, then roll initiative", "setup"
        elif state.prompt is not None:
            status, phase = f"{now} · {state.name(state.prompt.actor)}: {state.prompt.question}", "prompt"
        elif any(ogre.must_declare(state, i) for i in current):
            names = ", ".join(state.name(i) for i in current)
            status, phase = f"{now} · {names} declare{'s' if len(current) == 1 else ''}", "declare"
        else:
            status, phase = f"{now} · {next_words(state)}", "advance"
        fighters = sorted(s.fighters, key=lambda f: (_next_segment(state, f), f.initiative or 0, f.id))
        marks = {f.id: badges(state, f) for f in s.fighters}
        nr = _next_resolution(state)  # (the same for every fighter's hints: once, not forty times)
        rows = []
        for f in fighters:
            c = state.get(f.id)
            rows.append(OrderRow("combatant", f.id, c.name, _summary(state, f), c.side, f.id in current,
                                 c.is_down, c.hp, c.max_hp, marks[f.id]))
        return SystemPanel(status=status, order=tuple(rows),
                           hints={f.id: hints(state, f, nr) for f in s.fighters},
                           badges=marks, phase=phase,
                           extra={"segment": s.segment, "seconds": seconds(s.segment),
                                  "next": ogre.next_event(state) if s.phase == "fight" else None})

    def table_status(self, state: State) -> str:
        """The segment, not the panel's status: that names what resolves next, a declaration."""
        seg = state.board.segment
        return f"Segment {seg} ({seconds(seg)})"

    def declarations_public(self, state: State) -> bool:
        """OGRE-ACT-1: the referee's setting (DEFAULT: a declared action is shown when it resolves)."""
        return state.setting("table_declarations", "when it resolves") == "when declared"

    def ruler(self, state: State, selected: str = "") -> RulerModel:
        return ruler(state, selected)


VIEW = OgreView()


# --- before the fight (OGRE-SUR-1) ------------------------------------------------------------

@dataclass(frozen=True)
class SurpriseDialog:
    """What the dialog shows: the terrains to pick from and the engine's suggestion
    for the numbers typed so far; the referee confirms or overrides (REF)."""

    terrains: tuple[tuple[str, int], ...]
    suggestion: SurpriseSuggestion


def surprise_dialog(state: State, sides: tuple[str, ...], spot: tuple[int, ...], stalk: tuple[int, ...] = (),
                    terrain: str = "gentle hills", ranged: tuple[bool, ...] = ()) -> SurpriseDialog:
    table = terrains(state)
    return SurpriseDialog(tuple(table.items()), suggest(state, sides, spot, stalk, ranged, terrain))
