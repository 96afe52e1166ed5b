"""The effect form's targets (issue 53, stop 8): foes ticked by side or zone in one tap; nobody at first.
A spell's few targets (stop 9) are ticked the same way, among those the spell may touch."""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.commands import Option
from ..engine.referee import Effect
from ..engine.ruleset import Ruleset
from ..engine.state import State


@dataclass(frozen=True)
class Group:
    """One tap that ticks a few targets at once ("side:orcs", "zone:2"): its label, whom it ticks."""

    key: str
    label: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class Target:
    """A combatant the effect may touch: `down` ones are listed last, said so, and never ticked by a group."""

    id: str
    name: str
    down: bool
    ticked: bool


def groups(state: State, actor: str, among: tuple[str, ...] | None = None) -> tuple[Group, ...]:
    """Each side's standing members but the actor, the actor's foes first (CORE-SIDE-1), then, where the
    field has zones (OLOG-BAND-1), the actor's standing foes in each zone, nearest zone first; with `among`,
    only those ids (a spell's possible targets), a side or zone none of them is in left out."""
    mine = state.get(actor).side if state.has(actor) else None
    up = [c for c in state.combatants if not c.is_down and c.id != actor and (among is None or c.id in among)]
    foe_sides = [sd for sd in state.sides if sd.id != mine]
    out = []
    for sd in foe_sides + [sd for sd in state.sides if sd.id == mine]:
        ids = tuple(c.id for c in up if c.side == sd.id)
        if ids:
            out.append(Group(f"side:{sd.id}", f"All of {sd.name} ({len(ids)})", ids))
    foes = [c for c in up if c.side != mine and c.band is not None]
    here = state.get(actor).band if state.has(actor) else None
    for band in sorted({c.band for c in foes}, key=lambda b: (abs(b - here) if here is not None else 0, b)):
        ids = tuple(c.id for c in foes if c.band == band)
        out.append(Group(f"zone:{band}", f"Foes in zone {band + 1} ({len(ids)})", ids))
    return tuple(out)


def targets(state: State, ticked: tuple[str, ...]) -> tuple[Target, ...]:
    """Everyone, standing first then the downed, each ticked or not as `ticked` says (nobody at first)."""
    every = sorted(state.combatants, key=lambda c: c.is_down)
    return tuple(Target(c.id, c.name, c.is_down, c.id in ticked) for c in every)


def toggle(state: State, actor: str, ticked: tuple[str, ...], key: str,
           among: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """A group tapped: its members ticked, or unticked when every one of them already was; the others kept."""
    group = next((g for g in groups(state, actor, among) if g.key == key), None)
    if group is None:
        return ticked
    if all(m in ticked for m in group.members):
        return tuple(t for t in ticked if t not in group.members)
    return ticked + tuple(m for m in group.members if m not in ticked)


def effect_command(rs: Ruleset, state: State, values: dict[str, str]) -> tuple[Effect | None, str, str]:
    """The form's values as one Effect, else (None, the field at fault, why in words), said at that field:
    a duration the ruleset cannot read (CORE-TIME-1), or nobody ticked."""
    ticked = tuple(k[2:] for k in values if k.startswith("t:") and state.has(k[2:]))
    try:
        lasts = rs.duration(state, values.get("lasts", "").strip())
    except ValueError as exc:
        return None, "lasts", f"{exc}; or leave it empty: until removed."
    if not ticked:
        return None, "targets", "Tick whom it touches first: a name, a side or a zone."
    return Effect(ticked, values.get("dice", "").strip()[:20], "each" in values, "heal" in values,
                  values.get("condition", "").strip()[:40], lasts, values.get("note", "").strip()[:80]), "", ""


def picks(state: State, few: tuple[str, ...], ticked: tuple[str, ...]) -> tuple[Target, ...]:
    """A spell's possible targets in the order the rules offer them, each ticked or not (issue 53, stop 9)."""
    return tuple(Target(i, state.get(i).name, state.get(i).is_down, i in ticked) for i in few if state.has(i))


def few_ticked(few: tuple[str, ...], values: dict[str, str]) -> tuple[str, ...]:
    """The ids a form ticked ("t:<id>") among a spell's possible targets `few`, in their order."""
    return tuple(i for i in few if f"t:{i}" in values)


def few_now(o: Option) -> bool:
    """Whether a pending option's few targets are ticked in the question asked now: its need "few:targets"
    once its choices are answered (Press On is asked first, OLOG-PRES-2), or beside choices that each name
    targets (every one, each one) as one more answer."""
    if not o.few:
        return False
    if o.needs[:1] == ("few:targets",):
        return not o.choices
    return not o.needs and all("targets" in c.values for c in o.choices)
