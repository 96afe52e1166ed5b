"""OSE's checks of one action's own conditions, which the actor's checks, the round and the resolution reuse."""
from __future__ import annotations

from ...engine.commands import Illegal, Reason as Core
from ...engine.geometry import is_adjacent
from ...engine.model import Combatant, Weapon
from ...engine.state import State
from .combat import ammo_die, draw_needs_two, hands_ok, held_attack, is_shield
from .reasons import Reason as R
from .state import (GRAPPLED, econ_of, holds_of, is_detailed, is_out, memorised_at_start, memory_entry, opt,
                    spells_of)
from .turn_undead import candidates, holds_focus, undead_groups


def check_weapon(state: State, c: Combatant, atk: Weapon | None, attack_name: str) -> Illegal | None:
    """Is the weapon in hand and usable with what the hands hold (OSE-STANCE-*, OSE-RANGED-1, OSE-COND-1)?"""
    if atk is None:
        return Illegal(Core.NO_SUCH_WEAPON, f"{c.name} has no attack called {attack_name!r}")
    if atk.is_melee:
        if atk.item and not c.holds(atk.item):
            return Illegal(R.NOT_IN_HAND, f"{c.name}'s {atk.item} is not in hand: draw it first (OSE-MANIP-1)")
        if not hands_ok(c, atk):
            rule = "OSE-STANCE-3" if atk.has("reach") else "OSE-STANCE-2"
            return Illegal(R.NEEDS_TWO_HANDS, f"{c.name}'s {atk.name} needs both hands ({rule})")
        if c.has_condition(GRAPPLED) and not atk.has("small"):
            return Illegal(R.GRAPPLED_SMALL_ONLY, f"{c.name} is grappled: only Small weapons (OSE-COND-1)")
        return None
    # OSE-RANGED-1: two free hands (the weapon itself aside); thrown weapons need one.
    if atk.kind == "thrown":
        if atk.item and not c.holds(atk.item):
            if atk.item not in c.inventory:
                return Illegal(R.NOTHING_TO_THROW, f"{c.name} has no {atk.item} to throw (OSE-RANGED-5)")
            if c.free_hands < 1:
                return Illegal(R.NO_FREE_HAND, f"{c.name} needs a free hand to draw and throw (OSE-RANGED-1)")
        return None
    if atk.item:
        if not c.holds(atk.item):
            return Illegal(R.NOT_IN_HAND, f"{c.name}'s {atk.item} is not in hand: draw it first (OSE-MANIP-1)")
        others = [h for h in c.hands if h and h != atk.item]
        if others:
            return Illegal(R.HANDS_FULL, f"{c.name} needs both hands free to shoot ({', '.join(others)} in hand) "
                                         f"(OSE-RANGED-1)")
    if c.has_condition(GRAPPLED):
        return Illegal(R.GRAPPLED_SMALL_ONLY, f"{c.name} is grappled: only Small weapons (OSE-COND-1)")
    die = ammo_die(state, c, "ammo")
    if die == "out":
        return Illegal(R.NO_AMMUNITION, f"{c.name} is out of ammunition (OSE-RANGED-1, OSE-RES-1)")
    return None


def check_grapple(state: State, c: Combatant, t: Combatant | None, intent: str) -> Illegal | None:
    if t is None or is_out(t):
        return Illegal(R.NO_TARGET, f"{c.name} has no one to grapple there")
    if intent not in ("grab", "escape"):
        return Illegal(R.BAD_INTENT, f"A grapple grabs or escapes, not {intent!r} (OSE-GRAP-1)")
    if intent == "escape" and not any(h.grappler == t.id for h in holds_of(state, c.id)):
        return Illegal(R.NOT_HELD, f"{t.name} does not hold {c.name} (OSE-GRAP-1)")
    if intent == "grab" and not state.hostile(c, t):
        return Illegal(R.NOT_AN_ENEMY, f"{t.name} is not an enemy of {c.name}")
    if is_detailed(state) and (c.square is None or t.square is None or not is_adjacent(c.square, t.square)):
        return Illegal(R.NOT_ADJACENT, f"{t.name} is not next to {c.name} (OSE-GRAP-1)")
    return None


def manip_cost(state: State, c: Combatant, action: str, item: str) -> str | Illegal:
    """What a manipulation uses: "free", "move" or "main"; shields always use the Move."""
    e = econ_of(state, c.id)
    if action == "drop":
        return "free"
    if c.id in state.board.casting and e.manips >= 1:
        return Illegal(R.CASTING_ONE_MANIPULATION, f"{c.name} is casting: one manipulation at most (OSE-SPELL-1)")
    if item and is_shield(c, item) and action in ("draw", "stow"):
        if e.move or e.full or c.id in state.board.casting:
            return Illegal(R.SHIELD_NEEDS_MOVE, f"Readying or stowing a shield uses the Move action, which "
                                                f"{c.name} has spent (OSE-MANIP-1)")
        return "move"
    if e.manips == 0:
        return "free"
    if e.full:
        return Illegal(R.NO_ACTION_LEFT, f"{c.name} has used a full-round action: no second manipulation "
                                         f"(OSE-MANIP-1)")
    if e.move == "":
        return "move"
    if e.main == "":
        return "main"
    return Illegal(R.NO_ACTION_LEFT, f"{c.name} has no action left for another manipulation (OSE-MANIP-1)")


def check_manipulation(state: State, c: Combatant, action: str, item: str) -> Illegal | None:
    if action not in ("draw", "stow", "drop", "other"):
        return Illegal(R.BAD_MANIPULATION, f"{action!r} is not a manipulation (draw, stow, drop, other)")
    cost = manip_cost(state, c, action, item)
    if isinstance(cost, Illegal):
        return cost
    if action == "draw":
        if item in tuple(c.stat("backpack", ()) or ()) and item not in c.inventory:
            return Illegal(R.IN_BACKPACK, f"{item} is in {c.name}'s backpack: out of reach in combat (OSE-MANIP-1)")
        if item not in c.inventory:
            return Illegal(R.NOT_CARRIED, f"{c.name} does not carry {item!r} within reach")
        need = 2 if draw_needs_two(c, item) else 1
        if c.free_hands < need:
            return Illegal(R.NO_FREE_HAND, f"{c.name} needs {need} free hand{'s' if need > 1 else ''} to draw "
                                           f"{item} (OSE-MANIP-1)")
    elif action in ("stow", "drop"):
        if not c.holds(item):
            return Illegal(R.NOT_IN_HAND, f"{c.name} does not hold {item!r}")
    elif action == "other" and c.free_hands < 1:
        return Illegal(R.NO_FREE_HAND, f"{c.name} has no free hand (OSE-MANIP-1)")
    return None


def check_turn(state: State, c: Combatant, group: str) -> Illegal | None:
    if not c.stat("warpriest", False):
        return Illegal(R.NOT_A_WARPRIEST, f"Only a Warpriest can Turn Undead; {c.name} is not one (OSE-TURN-1)")
    if not holds_focus(c):
        return Illegal(R.NO_HOLY_SYMBOL, f"{c.name} must hold the holy symbol or the favoured weapon (OSE-TURN-1)")
    if (c.id, group) in state.board.turn_locks:
        return Illegal(R.TURN_LOCKED, f"{c.name} failed against {group}: no more turning them for 24 hours "
                                      f"(OSE-TURN-4)")
    members = undead_groups(state, c).get(group)
    if not members:
        return Illegal(R.NO_UNDEAD, f"No standing undead in group {group!r}")
    if not candidates(state, members):
        return Illegal(R.ALL_TURNED, f"Every undead of {group} is already turned (OSE-TURN-3)")
    e = econ_of(state, c.id)
    if opt(state, "turn_action") == "full_round":
        if e.main or e.move or e.full or e.moved_ft:
            return Illegal(R.NEEDS_FULL_ROUND, f"Turn Undead is a full-round action; {c.name} has acted (OSE-TURN-1)")
    elif e.main or e.full:
        return Illegal(R.MAIN_USED, f"Turn Undead is a Main action; {c.name} has used it (OSE-TURN-1)")
    return None


def check_declare(state: State, c: Combatant, action: str, spell: str) -> Illegal | None:
    if action == "none":
        return None
    if action == "spell":
        # OSE-SPELL-5: only a spell still in memory can be declared.
        if not spells_of(c):
            if memorised_at_start(state, c.id):
                return Illegal(R.NOT_MEMORISED, f"{c.name} has no spell left in memory (OSE-SPELL-5)")
            return Illegal(R.NO_SPELLS, f"{c.name} has no spells memorised (OSE-DECL-1)")
        if not spell:
            return Illegal(R.NO_SPELL_NAMED, f"Name the spell {c.name} casts: it is declared by name "
                                             "before initiative (OSE-DECL-1)")
        if memory_entry(spells_of(c), spell) not in spells_of(c):
            if memory_entry(memorised_at_start(state, c.id), spell) in memorised_at_start(state, c.id):
                return Illegal(R.NOT_MEMORISED, f"{c.name} no longer has {spell} in memory: cast, cancelled "
                                                f"or lost already (OSE-SPELL-5)")
            return Illegal(R.UNKNOWN_SPELL, f"{c.name} has no spell {spell!r} memorised (OSE-SPELL-5)")
        if state.round == 1 and c.side in state.board.surprised:
            return Illegal(R.SURPRISED, f"{c.name}'s side is surprised: no spells this round (OSE-SUR-2)")
        if c.has_condition("grappled"):
            return Illegal(R.GRAPPLED_NO_SPELLS, f"{c.name} is grappled: no spells (OSE-COND-1)")
        return None
    if action in ("full_defense", "brace"):
        word = "Full Defense" if action == "full_defense" else "Brace"
        if not is_detailed(state):
            return Illegal(R.DETAILED_ONLY, f"{word} is only meaningful in the detailed rules (OSE-DECL-1, "
                                            f"OSE-LOOSE-1)")
        if action == "brace" and not held_attack(c, "brace"):
            return Illegal(R.NO_BRACE_WEAPON, f"{c.name} holds no weapon with the Brace quality (OSE-BRACE-1)")
        return None
    return Illegal(R.BAD_DECLARATION, f"{action!r} is not a declaration (spell, full_defense, brace, none)")
