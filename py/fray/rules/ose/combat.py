"""OSE attacks: stances from what is held, positions (behind, second rank), AC, to-hit and damage,
advantage, shields; a missile's range is `ranged.py`'s, a grapple `grapple.py`'s.

Pure functions over a State; `strike` resolves one attack roll and either deals
damage or pauses on the defender's Shields Shall Be Splintered decision. What
makes an attack illegal is `check.py`'s.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from ...engine import geometry as geo
from ...engine.conditions import modifiers
from ...engine.commands import Event
from ...engine.dice import Dice, DiceExpr, Roll
from ...engine.geometry import Body, Grid, Hostile, is_adjacent
from ...engine.model import Combatant, Square, Weapon
from ...engine.state import Prompt, State
from .ranged import range_bonus
from .state import GRAPPLED, HELPLESS, PINNED, PendingHit, is_detailed, is_out, opt

RANGED_MISSILES = ("bow", "crossbow", "sling", "ranged")


# --- what is held ------------------------------------------------------------------

def is_shield(c: Combatant, item: str) -> bool:
    """A held item is a shield when its name says so or a shield attack uses it (OSE-STANCE-5)."""
    if not item:
        return False
    if "shield" in item.lower():
        return True
    return any(a.item == item and a.has("shield") for a in c.weapons)


def shield_in_hand(c: Combatant) -> str:
    for h in c.hands:
        if is_shield(c, h):
            return h
    return ""


def needs_both_hands(a: Weapon) -> bool:
    """OSE-STANCE-2/3: two-handed and reach weapons take both hands."""
    return a.has("two_handed") or a.has("reach")


def hands_ok(c: Combatant, a: Weapon) -> bool:
    """A held weapon that needs both hands is usable only when no other hand holds something else."""
    if not a.item or not needs_both_hands(a):
        return True
    return all(h in ("", a.item) for h in c.hands)


def draw_needs_two(c: Combatant, item: str) -> bool:
    """Drawing this item fills both hands: one of its weapons needs them (OSE-STANCE-2/3)."""
    return any(a.item == item and needs_both_hands(a) for a in c.weapons)


def usable_melee(c: Combatant) -> list[Weapon]:
    """Melee attacks usable now: in hand, hands free enough, Small only when grappled (OSE-COND-1)."""
    grappled = c.has_condition(GRAPPLED)
    return [a for a in c.ready_weapons() if a.is_melee and hands_ok(c, a) and (not grappled or a.has("small"))]


def held_attack(c: Combatant, quality: str) -> Weapon | None:
    for a in c.weapons:
        if a.item and c.holds(a.item) and a.has(quality):
            return a
    return None


def held_kind(c: Combatant, kind: str) -> Weapon | None:
    for a in c.weapons:
        if a.item and c.holds(a.item) and a.kind == kind:
            return a
    return None


def stance(c: Combatant) -> str:
    """OSE-STANCE-1..5: the melee stance the hands define."""
    if held_attack(c, "reach"):
        return "reach"
    if held_attack(c, "two_handed"):
        return "two-handed"
    melee = [a for a in c.ready_weapons() if a.is_melee and a.item]
    items = {a.item for a in melee}
    if shield_in_hand(c) and any(not is_shield(c, a.item) for a in melee):
        return "weapon and shield"
    if len(items) >= 2 and any(a.has("off_hand") for a in melee):
        return "two weapons"
    if items:
        return "one-hand"
    return ""


def shot_manipulations(c: Combatant, a: Weapon) -> int:
    """Manipulations a ranged attack takes (OSE-RANGED-2..5): crossbow two, bow and sling one (draw and
    load), a thrown weapon one unless already in hand; natural ranged attacks none."""
    if not a.is_ranged or not a.item:
        return 0
    if a.kind == "crossbow":
        return 2
    if a.kind == "thrown":
        return 0 if c.holds(a.item) else 1
    return 1


def weapon_reach(c: Combatant, a: Weapon) -> int:
    """Reach in squares of one attack (OSE-AOO-3: adjacent, +5 ft for a reach weapon)."""
    r = max(1, a.reach // 5, 2 if a.has("reach") else 1)
    return max(r, int(c.stat("reach_ft", 0) or 0) // 5)


# --- positions ------------------------------------------------------------------------

def is_directly_behind(attacker: Square, target: Square, engager: Square) -> bool:
    """OSE-BACK-1: both adjacent to the target, the attacker on the square opposite the
    engager or one of the two beside it (within 45 degrees): for an engager due east the west
    column, for one north-east the south-west, west and south squares. That is exactly
    dot(attacker - target, engager - target) < 0."""
    if not (is_adjacent(attacker, target) and is_adjacent(engager, target)):
        return False
    ax, ay = attacker[0] - target[0], attacker[1] - target[1]
    ex, ey = engager[0] - target[0], engager[1] - target[1]
    return ax * ex + ay * ey < 0


def back_attack(attacker_id: str, target_id: str, bodies: Sequence[Body], hostile: Hostile) -> bool:
    """OSE-BACK-1: is the attacker directly behind the target from some other standing enemy of the target?"""
    by_id = {b.id: b for b in bodies}
    atk, tgt = by_id.get(attacker_id), by_id.get(target_id)
    if atk is None or tgt is None or not hostile(tgt.side, atk.side):
        return False
    return any(is_directly_behind(atk.square, tgt.square, b.square) for b in bodies
               if b.id not in (attacker_id, target_id) and not b.is_down and hostile(tgt.side, b.side))


def second_rank_ok(attacker: Body, target_sq: Square, bodies: Sequence[Body], hostile: Hostile,
                   *, grid: Grid | None = None) -> bool:
    """OSE-STANCE-3: the target is within reach and some straight line to it (the threat line
    rule) has no wall and no standing enemy between; an ally between is the second rank."""
    d = geo.chebyshev(attacker.square, target_sq)
    if d < 1 or d > attacker.reach:
        return False
    enemies = {b.square for b in bodies
               if b.id != attacker.id and not b.is_down and hostile(attacker.side, b.side) and b.square != target_sq}
    walls = grid.walls if grid is not None else frozenset()
    return geo.line_clear(attacker.square, target_sq, lambda s: s in walls or s in enemies, grid)


# --- armour class -------------------------------------------------------------------

def shield_bonus(state: State, c: Combatant) -> int:
    if not shield_in_hand(c):
        return 0
    return int(opt(state, "shield_ac")) + int(c.stat("shield_bonus", 0) or 0)


def effective_ac(state: State, c: Combatant, *, from_behind: bool = False, vs_aoo: bool = False) -> tuple[int, list[str]]:
    """Ascending AC with the stance and situation modifiers, and the reasons (for the log)."""
    ac, why = c.ac, []
    mods = modifiers(c).ac  # the referee's conditions: "AC +2", "exposed"... (engine/conditions.py)
    if mods:
        ac += mods
        why.append(f"conditions {mods:+d}")
    sb = shield_bonus(state, c)
    if sb:
        if from_behind:
            why.append("shield ignored from behind (OSE-BACK-1)")
        else:
            ac += sb
            why.append(f"shield +{sb} (OSE-STANCE-5)")
    if held_attack(c, "reach"):
        ac -= 1
        why.append("reach weapon -1 (OSE-STANCE-3)")
    elif held_attack(c, "two_handed"):
        ac -= 1
        why.append("two-handed -1 (OSE-STANCE-2)")
    if held_kind(c, "crossbow"):
        ac -= 2
        why.append("crossbow -2 (OSE-RANGED-3)")
    if vs_aoo and c.id in state.board.withdrawing:
        ac += 2
        why.append("withdrawing +2 (OSE-WD-1)")
    return ac, why


# --- bonuses -------------------------------------------------------------------------

def stat_bonus(c: Combatant, a: Weapon) -> int:
    """OSE-ATK-1 / OSE-RANGED-5: melee PHYS, missiles DEX, thrown the better of both."""
    phys, dex = int(c.stat("phys", 0) or 0), int(c.stat("dex", 0) or 0)
    if a.kind == "thrown":
        return max(phys, dex)
    if a.is_ranged:
        return dex
    return phys


def to_hit_bonus(c: Combatant, a: Weapon) -> int:
    bonus = a.to_hit + stat_bonus(c, a) + modifiers(c).to_hit
    if a.is_melee and stance(c) == "two weapons":
        bonus += 1  # OSE-STANCE-4
    return bonus


def damage_bonus(c: Combatant, a: Weapon) -> int:
    bonus = stat_bonus(c, a)
    if a.is_melee and a.has("two_handed") and not a.has("reach"):
        bonus += 1  # OSE-STANCE-2 (OSE-STANCE-3: reach weapons do not get it)
    if a.kind == "crossbow":
        bonus += 1  # OSE-RANGED-3
    if a.kind == "sling":
        bonus -= 1  # OSE-RANGED-4
    return bonus


def damage_text(c: Combatant, a: Weapon) -> str:
    expr = str(DiceExpr.parse(a.damage).plus(damage_bonus(c, a)))
    if a.kind == "crossbow":
        return f"{expr} best of 2"
    if a.kind == "sling":
        return f"{expr} min 1"
    return expr


def edge_of(state: State, target: Combatant, edge: str) -> str:
    """OSE-ADV-1: combine the sources (Full Defense, a referee's call) into "adv", "dis" or ""."""
    adv = 1 if edge == "adv" else 0
    dis = (1 if edge == "dis" else 0) + (1 if target.id in state.board.full_defense else 0)  # OSE-FD-1
    if adv and dis:
        return "dis" if opt(state, "adv_rule") == "disadvantage wins" else ""  # DEFAULT: one of each cancels
    return "adv" if adv else "dis" if dis else ""


def lose_spell(state: State, events: list[Event], cid: str, why: str) -> State:
    """OSE-SPELL-3: the spell being cast, and any concentration, is lost."""
    s = state.board
    if cid in s.casting:
        spell = s.casting[cid]
        casting = {k: v for k, v in s.casting.items() if k != cid}
        state = state.with_board(casting=casting)
        events.append(Event("SpellLost", f"{state.name(cid)} loses {spell}: {why} (OSE-SPELL-3)",
                            rule="OSE-SPELL-3", target=cid))
    if cid in s.concentrating:
        spell = s.concentrating[cid]
        state = state.with_board(concentrating={k: v for k, v in s.concentrating.items() if k != cid})
        events.append(Event("ConcentrationEnded", f"{state.name(cid)}'s {spell} ends: {why} (OSE-SPELL-3)",
                            rule="OSE-SPELL-3", target=cid))
    return state


def casting_cost(state: State, cid: str) -> str:
    """OSE-SPELL-3: what an attack would cost this combatant now ("loses Sleep"), or ""."""
    s = state.board
    spell = s.casting.get(cid) or s.concentrating.get(cid)
    return f"loses {spell}: an attack is a violent motion (OSE-SPELL-3)" if spell else ""


# --- one attack -------------------------------------------------------------------------

@dataclass(frozen=True)
class StrikeResult:
    state: State
    outcome: str  # "miss" | "hit" | "paused"


def strike(rs, state: State, dice: Dice, events: list[Event], attacker: str, target: str, weapon: str,
           mode: str = "attack", edge: str = "") -> StrikeResult:
    """Roll one attack (OSE-ATK-1); on a hit ask about the shield (OSE-SSBS-1) or deal damage.

    mode: "attack", "aoo" (OSE-AOO-2), "brace" (double damage, OSE-BRACE-1) or "charge".
    """
    if attacker in state.board.casting or attacker in state.board.concentrating:
        # OSE-SPELL-3: a caster who attacks (an attack of opportunity included) makes a violent motion.
        state = lose_spell(state, events, attacker, "it attacks, a violent motion")
    a_c, t_c = state.get(attacker), state.get(target)
    atk = a_c.weapon(weapon)
    behind = False
    if is_detailed(state) and a_c.square is not None and t_c.square is not None and atk.is_melee:
        behind = back_attack(attacker, target, _bodies_for_back(state), lambda x, y: state.hostile(x, y))
    ac, why = effective_ac(state, t_c, from_behind=behind, vs_aoo=(mode == "aoo"))
    band, band_note = range_bonus(state, a_c, atk, t_c)
    bonus = to_hit_bonus(a_c, atk) + band
    if band_note:
        why = [band_note] + why
    how = edge_of(state, t_c, edge)
    expr = DiceExpr(1, 20, bonus)
    roll = dice.roll(expr, f"{a_c.name} {_mode_word(mode)} {t_c.name}",
                     keep={"adv": "high", "dis": "low"}.get(how, ""), by=a_c.id)
    hit = roll.total >= ac
    notes = []
    if how:
        notes.append(("advantage" if how == "adv" else "disadvantage") + " (OSE-ADV-1)")
    if t_c.id in state.board.full_defense:
        notes.append("full defense (OSE-FD-1)")
    notes += why
    extra = f" [{'; '.join(notes)}]" if notes else ""
    rule = {"aoo": "OSE-AOO-2", "brace": "OSE-BRACE-1", "charge": "OSE-CHARGE-1"}.get(mode, "OSE-ATK-1")
    events.append(Event("AttackHit" if hit else "AttackMissed",
                        f"{a_c.name} {_mode_word(mode)} {t_c.name} with {atk.name}: {roll.describe()} vs AC {ac}"
                        f"{extra}: {'hit' if hit else 'miss'}", rule=rule, rolls=(roll,), actor=attacker,
                        target=target, data={"ac": ac, "total": roll.total, "behind": behind, "weapon": atk.name}))
    state = break_turning(state, target, events)
    if not hit:
        return StrikeResult(state, "miss")
    pending = PendingHit(attacker, target, weapon, mode, double=(mode == "brace"),
                         maximum=atk.is_melee and (t_c.has_condition(PINNED) or t_c.has_condition(HELPLESS)))
    shield = shield_in_hand(t_c)
    if shield and not behind and not is_out(t_c):
        # OSE-SSBS-1: asked before the damage roll.
        lo, hi = damage_range(a_c, atk, pending)
        suggest = hi >= t_c.hp
        question = (f"{t_c.name} is hit by {a_c.name}'s {atk.name} ({lo}-{hi} damage, {t_c.hp} HP left): "
                    f"splinter the {shield} and take no damage? (OSE-SSBS-1)")
        state = state.with_board(pending_hit=pending)
        state = replace(state, prompt=Prompt(target, question, rule="OSE-SSBS-1", kind="splinter",
                                             data={"suggest": suggest, "shield": shield, "min": lo, "max": hi}))
        return StrikeResult(state, "paused")
    return StrikeResult(deal_damage(rs, state, dice, events, pending), "hit")


def _mode_word(mode: str) -> str:
    return {"aoo": "makes an attack of opportunity on", "brace": "strikes the charging",
            "charge": "charges into"}.get(mode, "attacks")


def _bodies_for_back(state: State) -> list[Body]:
    return [Body(c.id, c.side, tuple(c.square), 1, True, c.is_down) for c in state.combatants
            if c.square is not None and not is_out(c)]


def damage_range(c: Combatant, a: Weapon, p: PendingHit) -> tuple[int, int]:
    e = DiceExpr.parse(a.damage).plus(damage_bonus(c, a))
    lo, hi = e.minimum, e.maximum
    if a.kind == "sling":
        lo, hi = max(1, lo), max(1, hi)
    lo, hi = max(0, lo), max(0, hi)
    if p.maximum:
        lo = hi
    if p.double:
        lo, hi = lo * 2, hi * 2
    return lo, hi


def roll_damage(dice: Dice, c: Combatant, a: Weapon, p: PendingHit) -> tuple[int, Roll | None, list[str]]:
    """The damage of a hit: bonuses, crossbow best of two +1, sling -1 min 1, maximum, double."""
    expr = DiceExpr.parse(a.damage).plus(damage_bonus(c, a))
    notes: list[str] = []
    if p.maximum:
        amount, roll = max(0, expr.maximum), None
        notes.append("maximum damage against a pinned or helpless target (OSE-COND-1)")
    elif a.kind == "crossbow":
        roll = dice.roll(expr, f"{a.name} damage", keep="high", by=c.id)
        amount = max(0, roll.total)
        notes.append("crossbow: higher of two, +1 (OSE-RANGED-3)")
    elif a.kind == "sling":
        roll = dice.roll(expr, f"{a.name} damage", minimum=1, by=c.id)
        amount = roll.total
        notes.append("sling: -1, at least 1 (OSE-RANGED-4)")
    else:
        roll = dice.roll(expr, f"{a.name} damage", by=c.id)
        amount = max(0, roll.total)
    if p.double:
        amount *= 2
        notes.append("double damage (OSE-BRACE-1)")
    return amount, roll, notes


def deal_damage(rs, state: State, dice: Dice, events: list[Event], p: PendingHit) -> State:
    a_c = state.get(p.attacker)
    atk = a_c.weapon(p.weapon)
    amount, roll, notes = roll_damage(dice, a_c, atk, p)
    shown = roll.describe() if roll else str(amount)
    extra = f" ({'; '.join(notes)})" if notes else ""
    events.append(Event("DamageRolled", f"{atk.name} damage: {shown}{' x2' if p.double else ''}{extra}",
                        rule="OSE-ATK-1", rolls=(roll,) if roll else (), actor=p.attacker, target=p.target,
                        data={"amount": amount}))
    return rs.damage(state, p.target, amount, events, source=p.attacker, rule="OSE-ATK-1")


def splinter(state: State, events: list[Event], p: PendingHit) -> State:
    """OSE-SSBS-1: the shield is destroyed instead of taking the damage."""
    t = state.get(p.target)
    shield = shield_in_hand(t)
    hands = tuple("" if h == shield else h for h in t.hands)
    events.append(Event("ShieldSplintered", f"{t.name}'s {shield} is splintered: no damage (OSE-SSBS-1)",
                        rule="OSE-SSBS-1", target=t.id, actor=p.attacker))
    return state.update(t.id, hands=hands)


def break_turning(state: State, target: str, events: list[Event]) -> State:
    """OSE-TURN-3: attacking a turned undead breaks its turning."""
    if target not in state.board.turned:
        return state
    turned = dict(state.board.turned)
    del turned[target]
    events.append(Event("TurningBroken", f"{state.name(target)} is attacked: its turning is broken (OSE-TURN-3)",
                        rule="OSE-TURN-3", target=target))
    state = state.with_board(turned=turned)
    return state.update(target, conditions=tuple(x for x in state.get(target).conditions if x != "turned"))


# --- usage dice (OSE-RES-1) ------------------------------------------------------------

def ammo_die(state: State, c: Combatant, item: str = "ammo") -> str:
    """The current usage die of an item ("" when untracked, "out" when spent), OSE-RES-1."""
    key = f"{c.id}:{item}"
    if key in state.board.ammo:
        return state.board.ammo[key]
    return str(c.stat(f"{item}_die", "") or (c.stat("ammo_die", "") if item == "ammo" else "") or "")
