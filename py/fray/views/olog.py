"""OLOG view models: the turn panel (status, order, badges, hints) and the bands field.

Pure functions of a State; the page draws them and never re-derives a rule:
the pressure count, who exerts it and what Press On costs are all here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine.commands import Command, Option
from ..engine.model import Combatant
from ..engine.state import State
from ..rules.olog import (Move, OlogState, Pressure, Reorder, band_label, is_allowed, is_pc, needs_press_on, opt,
                          order as turn_order, pressure_map, reach_zones)
from .models import Badge, Hint, OrderRow, SystemPanel, SystemView, initials


# --- the bands field (OLOG-BAND-1) -------------------------------------------------

@dataclass(frozen=True)
class BandToken:
    """One creature in a zone column."""

    id: str
    name: str
    initials: str  # two letters drawn on the token ("O1", "Br")
    side: str
    side_name: str
    colour: str
    shape: str  # the side's shape: colour is never alone (UI principle 6)
    hp: int
    max_hp: int
    ac: int
    count: int | None  # initiative count, None before initiative
    is_current: bool
    is_selected: bool
    is_down: bool
    pressure: int  # how many creatures threaten it (0 = not under pressure)
    pressure_text: str  # "Under pressure from 2: pressing on costs d4 (min 2)" or ""
    pressure_from: tuple[str, ...]  # ids of the threatening creatures
    badges: tuple[Badge, ...]
    title: str  # hover text: "Orc 1 · Orcs · 6/6 HP · AC 13 · count 11"


@dataclass(frozen=True)
class BandColumn:
    """One zone: its number, its distance label from the selected creature, its tokens."""

    index: int  # 0-based zone index (Move.band, Place.band)
    label: str  # "Close" / "Near" / "Far" / "Distant" from the selected creature, else "Zone n"
    title: str  # "Zone 3 · Near · 30 ft from Brak"
    distance: int | None  # zones from the selected creature, None when none is selected or placed
    tokens: tuple[BandToken, ...]
    is_reach: bool  # within the selected creature's reach (it threatens foes here, OLOG-PRES-1)
    is_move_target: bool  # the current actor, selected, may move here now (OLOG-MOVE-1)


@dataclass(frozen=True)
class SideKey:
    id: str
    name: str
    colour: str
    shape: str


@dataclass(frozen=True)
class BandsModel:
    columns: tuple[BandColumn, ...]
    unplaced: tuple[BandToken, ...]  # combatants with no zone yet
    selected: str | None
    current: str | None
    zone_ft: int  # feet between zones (OLOG-BAND-1)
    legend: tuple[SideKey, ...]


def bands(state: State, selected: str | None = None) -> BandsModel:
    """The bands field: a column per zone, tokens stacked by side, pressure on each."""
    s: OlogState = state.board
    sel = state.find(selected) if selected else None
    cur = s.actor or None
    base = _base_tokens(state)
    side_order = {sd.id: i for i, sd in enumerate(state.sides)}
    index = {c.id: i for i, c in enumerate(state.combatants)}
    by_zone: dict[int | None, list[Combatant]] = {}
    for c in state.combatants:
        by_zone.setdefault(c.band, []).append(c)
    moves = set(move_targets(state, sel.id)) if sel is not None and sel.id == cur else set()
    zone_ft = int(opt(state, "olog_zone_ft"))
    columns = []
    for b in range(state.encounter.bands):
        members = sorted(by_zone.get(b, ()), key=lambda c: (side_order.get(c.side, 99), index[c.id]))
        tokens = tuple(_selected(base[c.id], selected) for c in members)
        if sel is not None and sel.band is not None:
            d = abs(b - sel.band)
            label = band_label(state, d)
            where = "its zone" if d == 0 else f"{d * zone_ft} ft from {sel.name}"
            title = f"Zone {b + 1} · {label} · {where}"
            is_reach = not sel.is_down and d <= reach_zones(state, sel)
        else:
            d, label, title, is_reach = None, f"Zone {b + 1}", f"Zone {b + 1}", False
        columns.append(BandColumn(b, label, title, d, tokens, is_reach, b in moves))
    unplaced = tuple(_selected(base[c.id], selected) for c in by_zone.get(None, ()))
    legend = tuple(SideKey(sd.id, sd.name, sd.colour, sd.shape) for sd in state.sides)
    return BandsModel(tuple(columns), unplaced, selected if sel else None, cur, zone_ft, legend)


_BASE: list = [None, None]  # the last state and its tokens, none selected


def _base_tokens(state: State) -> dict[str, BandToken]:
    """Every token of this state with nobody selected, built once per state (states are frozen): a
    selection changes one token's flag, not the pressure, badges and titles of forty."""
    if _BASE[0] is not state:
        s: OlogState = state.board
        pm = state.memo("olog.pressure_map", pressure_map)
        panel_badges = _badges_all(state, pm)
        _BASE[1] = {c.id: _token(state, c, None, s.actor or None, panel_badges[c.id], pm[c.id])
                    for c in state.combatants}
        _BASE[0] = state
    return _BASE[1]


def _selected(t: BandToken, selected: str | None) -> BandToken:
    return replace(t, is_selected=True) if t.id == selected else t


def move_targets(state: State, actor: str) -> tuple[int, ...]:
    """Zones the actor may move to now (OLOG-MOVE-1), pressure choice aside."""
    if not state.has(actor):
        return ()
    c = state.get(actor)
    if c.band is None:
        return ()
    ask = needs_press_on(state, actor)
    out = []
    for b in (c.band - 1, c.band + 1):
        if is_allowed(state, Move(actor, b), press=True if ask else "cmd"):
            out.append(b)
    return tuple(out)


def _token(state: State, c: Combatant, selected: str | None, current: str | None,
           badges: tuple[Badge, ...], p: Pressure) -> BandToken:
    s: OlogState = state.board
    side = state.encounter.side(c.side)
    if c.is_down:
        p = Pressure(c.id)
    count = s.count(c.id)
    title = f"{c.name} · {side.name if side else c.side} · {c.hp}/{c.max_hp} HP · AC {c.ac}"
    if count is not None:
        title += f" · count {count}"
    return BandToken(
        id=c.id, name=c.name, initials=initials(c.name), side=c.side, side_name=side.name if side else c.side,
        colour=side.colour if side else "#777777", shape=side.shape if side else "circle",
        hp=c.hp, max_hp=c.max_hp, ac=c.ac + s.defence(c.id), count=count,
        is_current=c.id == current, is_selected=c.id == selected, is_down=c.is_down,
        pressure=p.count, pressure_text=p.sentence(), pressure_from=p.threats, badges=badges, title=title)


# --- badges and hints -----------------------------------------------------------------

def pressure_badge(p: Pressure) -> Badge:
    return Badge("⚔", f"pressure {p.count}", f"Under pressure from {p.who()} (OLOG-PRES-1)", "OLOG-PRES-1", "warn")


def _badges_all(state: State, pm: dict[str, Pressure]) -> dict[str, tuple[Badge, ...]]:
    return {c.id: badges_of(state, c, pm[c.id]) for c in state.combatants}


def badges_of(state: State, c: Combatant, p: Pressure) -> tuple[Badge, ...]:
    """Icon + word for each state a referee should see on a token and its order row."""
    s: OlogState = state.board
    out: list[Badge] = []
    if c.is_down:
        return (Badge("✖", "down", f"{c.name} is down: no turn, no pressure (CORE-HP-1)", "CORE-HP-1", "danger"),)
    if p.is_under:
        out.append(pressure_badge(p))
    bonus = s.defence(c.id)
    if bonus:
        out.append(Badge("◈", f"defending +{bonus}", f"+{bonus} AC (AC {c.ac + bonus}) until {c.name}'s next "
                                                      f"turn (OLOG-DEF-1)", "OLOG-DEF-1", "ok",
                         left="until its next turn"))
    delta = s.delta(c.id)
    if delta:
        out.append(Badge("⇅", f"count {delta:+d} next round", f"Strategised: count {s.count(c.id)} → "
                                                               f"{(s.count(c.id) or 0) + delta} from next round "
                                                               f"(OLOG-STRAT-1)", "OLOG-STRAT-1", "info"))
    if c.stat("long_reach", False):
        out.append(Badge("↔", "long reach", f"{c.name} threatens the next zone too (OLOG-PRES-1)",
                         "OLOG-PRES-1", "info"))
    if c.id == s.actor and s.ending:
        out.append(Badge("■", "last action", f"{c.name} did not press on: the turn ends after this action "
                                              f"(OLOG-PRES-2)", "OLOG-PRES-2", "warn"))
    if c.id == s.actor and s.pressed:
        out.append(Badge("➜", "pressed on", f"{c.name}'s Press On covers the rest of the turn (OLOG-PRES-8)",
                         "OLOG-PRES-8", "info"))
    return tuple(out)


def hints_of(state: State, c: Combatant, p: Pressure) -> tuple[Hint, ...]:
    """Lines for the actor's card that save the referee a computation."""
    s: OlogState = state.board
    if c.is_down:
        return ()
    out: list[Hint] = []
    if p.is_under:
        out.append(Hint(p.sentence(), "OLOG-PRES-4 OLOG-PRES-5", "warn"))
    if c.id == s.actor:
        if s.attacks_left:
            out.append(Hint(f"{s.attacks_left} more {s.split_attack} attack{'s' if s.attacks_left > 1 else ''} "
                            f"from this action: no new action, no new pressure", "OLOG-ATK-1"))
        if s.ending:
            out.append(Hint("Did not press on: the turn ends after this action", "OLOG-PRES-2", "warn"))
        elif p.is_under and not s.pressed and s.actions_left > 1:
            # Said once here, not on every option: a tap takes the text's default (ui: "Press on" beside it).
            out.append(Hint("An action taken without Press On ends the turn", "OLOG-PRES-2", "warn"))
        elif s.actions_left == 1:
            out.append(Hint("1 action left: extended actions need both", "OLOG-ACT-4"))
        if s.pressed:
            out.append(Hint("Pressed on: no further pressure this turn", "OLOG-PRES-8"))
    bonus = s.defence(c.id)
    if bonus:
        out.append(Hint(f"Defending: AC {c.ac + bonus} until its next turn", "OLOG-DEF-1", "ok"))
    return tuple(out)


# --- the panel ---------------------------------------------------------------------

def status(state: State) -> str:
    """The header line: "Round 2 · Brak's turn · 1 action left"."""
    s: OlogState = state.board
    if s.phase == "initiative":
        return "Before initiative · roll initiative to begin"
    parts = [f"Round {state.round}"]
    if state.outcome:
        parts.append(state.outcome)
    if s.actor:
        parts.append(f"{state.name(s.actor)}'s turn")
        if s.ending:
            parts.append("turn ends after this action")
        elif s.actions_left:
            parts.append(f"{s.actions_left} action{'s' if s.actions_left != 1 else ''} left")
        if s.attacks_left:
            parts.append(f"{s.attacks_left} {s.split_attack} attack{'s' if s.attacks_left > 1 else ''} left")
    elif not state.outcome:
        parts.append("nobody can act")
    return " · ".join(parts)


def order_rows(state: State, badges: dict[str, tuple[Badge, ...]]) -> tuple[OrderRow, ...]:
    """OLOG-INIT-4: highest count first; tied rows (and all before initiative) draggable."""
    s: OlogState = state.board
    order = turn_order(state)
    counts = [s.count(cid) for cid in order]
    rows = []
    for i, cid in enumerate(order):
        c = state.get(cid)
        if s.phase == "initiative":
            if is_pc(state, c):
                detail = f"rolls d20 + {int(c.stat('level', 1) or 0) + int(c.stat('init_mod', 0) or 0)}"
            else:
                fixed = c.stat("init", None)
                if fixed is None:
                    fixed = int(opt(state, "olog_npc_init_base")) + int(c.stat("hd", 1) or 0)
                detail = f"count {fixed}"
            draggable = True
        else:
            detail = f"init {counts[i]}"
            delta = s.delta(cid)
            if delta:
                detail += f" → {counts[i] + delta} next round"
            draggable = counts.count(counts[i]) > 1
        rows.append(OrderRow("combatant", cid, c.name, detail=detail, side=c.side, is_current=cid == s.actor,
                             is_down=c.is_down, hp=c.hp, max_hp=c.max_hp, badges=badges.get(cid, ()),
                             draggable=draggable))
    return tuple(rows)


class OlogView(SystemView):
    """The OLOG hooks the page calls: panel, bands, reorder."""

    def panel(self, state: State) -> SystemPanel:
        s: OlogState = state.board
        pm = state.memo("olog.pressure_map", pressure_map)
        badges = _badges_all(state, pm)
        hints = {c.id: h for c in state.combatants if (h := hints_of(state, c, pm[c.id]))}
        phase = "initiative" if s.phase == "initiative" else ("over" if state.outcome else "act")
        # counts, and how each came about ("d20 [15] + level 2 = 17"): the order row's tooltip
        extra = {"actions_left": s.actions_left, "attacks_left": s.attacks_left, "turn": s.turn,
                 "counts": dict(s.counts), "count_how": dict(s.rolls)}
        return SystemPanel(status=status(state), order=order_rows(state, badges), hints=hints, badges=badges,
                           phase=phase, extra=extra)

    def bands(self, state: State, selected: str | None = None) -> BandsModel:
        return bands(state, selected)

    def reorder(self, state: State, moved: str, before: str) -> Command | None:
        """The Reorder command for dragging `moved` just before `before` ("" = to the end);
        None when nothing would change. The rules refuse it unless only ties move."""
        order = list(turn_order(state))
        if moved not in order or moved == before:
            return None
        order.remove(moved)
        if before and before in order:
            order.insert(order.index(before), moved)
        else:
            order.append(moved)
        if tuple(order) == turn_order(state):
            return None
        return Reorder(tuple(order))


VIEW = OlogView()
