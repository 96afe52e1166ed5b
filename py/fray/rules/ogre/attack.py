"""Ogre's attacks (OGRE-ATK-1): the attack roll against Defense and, on a hit, the damage.

A declared attack rolls them as two pieces of the segment's work (segment.py
`_act`, then `_damage`); an attack of opportunity, a charge or a readied
attack rolls both at once (`attack_roll`). Every function returns a new State
and appends its facts to `events`; nothing mutates.
"""
from __future__ import annotations

from typing import Any

from ...engine.commands import Event
from ...engine.dice import Dice
from ...engine.model import Weapon
from ...engine.state import State
from .state import Held, Work, combat_skill, defense, is_flat_footed
from .timeline import ogre, push, standing


def attack_roll(rs: Any, state: State, cid: str, target: str, a: Weapon, bonus: int, events: list[Event],
                dice: Dice, *, why: str, hold: bool = False, extra_damage: int = 0, double: bool = False,
                rule: str = "OGRE-ATK-1") -> State:
    """OGRE-ATK-1: d20 + combat skill (+ modifiers) against Defense; on a hit, roll damage."""
    state, hit = attack_hits(state, cid, target, a, bonus, events, dice, why=why, rule=rule)
    if not hit:
        return state
    return attack_damage(rs, state, cid, target, a, events, dice, why=why, hold=hold, extra_damage=extra_damage,
                         double=double, rule=rule)


def attack_hits(state: State, cid: str, target: str, a: Weapon, bonus: int, events: list[Event], dice: Dice, *,
                why: str, rule: str = "OGRE-ATK-1") -> tuple[State, bool]:
    """OGRE-ATK-1's attack roll: d20 + combat skill (+ modifiers) against Defense; whether it hit."""
    c, t = state.get(cid), state.get(target)
    flat = is_flat_footed(ogre(state), target)
    dfn = defense(t, flat)
    skill = combat_skill(c, a.to_hit)
    roll = dice.roll("d20", f"{c.name}'s {why}", by=c.id)
    total = roll.total + skill + bonus
    mods = f" + {skill}" + (f" {bonus:+d}" if bonus else "")
    ff = " (flat-footed: no Dex)" if flat and int(t.stat("defense_dex", 0) or 0) else ""
    hit = total >= dfn
    verb = "hits" if hit else "misses"
    events.append(Event("AttackHit" if hit else "AttackMissed",
                        f"{c.name}'s {why} on {t.name} with {a.name}: {roll.describe()}{mods} = {total} "
                        f"vs Defense {dfn}{ff}: {verb}", rule=rule, rolls=(roll,), actor=cid, target=target,
                        data={"total": total, "defense": dfn, "bonus": bonus}))
    if not hit:
        # OGRE-CONC-1: attacked, even missed, while concentrating: the check (DEFAULT DC 10 on a miss).
        return attacked_while_concentrating(state, target, 0), False
    return state, True


def attack_damage(rs: Any, state: State, cid: str, target: str, a: Weapon, events: list[Event], dice: Dice, *,
                  why: str, hold: bool = False, extra_damage: int = 0, double: bool = False, rule: str = "OGRE-ATK-1"
                  ) -> State:
    """OGRE-ATK-1's damage, once the attack hit: rolled, then dealt (or held till the segment's end)."""
    c = state.get(cid)
    dmg = dice.roll(a.damage, f"{c.name}'s damage", by=c.id)
    amount = (dmg.total + extra_damage) * (2 if double else 1)
    if amount <= 0:
        state = attacked_while_concentrating(state, target, 0)  # a hit for no damage is still an attack
    parts = dmg.describe() + (f" {extra_damage:+d}" if extra_damage else "") + (" x2" if double else "")
    events.append(Event("DamageRolled", f"{c.name} deals {max(0, amount)}: {parts}", rule=rule, rolls=(dmg,),
                        actor=cid, target=target, data={"amount": amount}))
    if hold:
        state = check_before_completing(state, target, amount)
        return state.with_board(held=ogre(state).held + (Held(target, amount, cid, why),))
    return rs.damage(state, target, amount, events, source=cid, rule=rule)


def check_before_completing(state: State, target: str, amount: int) -> State:
    """OGRE-CONC-1: a hit whose damage is held till the segment's end (OGRE-ACT-1), on a combatant whose
    concentrating action completes this segment, is "during that time" like a miss: the check comes first,
    at DC 10 + the damage, before the action completes (the damage then lands on an action done)."""
    s = ogre(state)
    f = s.fighter(target) if s is not None and s.has(target) else None
    if f is None or f.action is None or f.action.resolves != s.segment or amount <= 0:
        return state
    return attacked_while_concentrating(state, target, amount)


def attacked_while_concentrating(state: State, target: str, amount: int) -> State:
    """OGRE-CONC-1: "if the action ask for concentration and you are attacked during that time, you
    must successfully make a Concentration check": queue it (DC 10 + damage; 10 on a miss)."""
    s = ogre(state)
    if s is None or not s.has(target) or not standing(state, target):
        return state
    f = s.fighter(target)
    if f.action is None or not f.action.concentration:
        return state
    return push(state, Work("concentration", target, f.action.uid, cause=str(max(0, amount))))
