"""OSE's own refusal codes, the `Reason` enum every OSE "no" takes (re-exported by check.py).

Codes every system shares (a missing combatant, a bad path, out of range,
waiting for an answer...) are the core's `engine.commands.Reason`; a code
here is a situation only OSE has. Both are str enums, so a reason still
compares equal to its text (`ill.reason == "MAIN_USED"`).
"""
from __future__ import annotations

from ...engine.commands import Code


class Reason(Code):
    """OSE's own refusal codes (str-valued: a code still compares equal to its text)."""

    # the round (OSE-SEQ-1, OSE-ORDER-1, OSE-SUR-1)
    TOO_LATE = "TOO_LATE"
    NO_SIDES = "NO_SIDES"
    NO_QUESTION = "NO_QUESTION"
    DECLARATIONS_LOCKED = "DECLARATIONS_LOCKED"
    ALREADY_DONE = "ALREADY_DONE"
    ALREADY_ACTED = "ALREADY_ACTED"
    WRONG_STEP = "WRONG_STEP"
    # who may act, and on whom
    OUT_OF_FIGHT = "OUT_OF_FIGHT"
    HELPLESS = "HELPLESS"
    TURNED = "TURNED"
    NOT_AWAY = "NOT_AWAY"  # a turned undead's move must take it farther from the Warpriest (OSE-TURN-3)
    CASTING = "CASTING"
    TARGET_OUT = "TARGET_OUT"
    NOT_AN_ENEMY = "NOT_AN_ENEMY"
    NO_TARGET = "NO_TARGET"
    # declarations and spells (OSE-DECL-1, OSE-SPELL-1..5)
    BAD_DECLARATION = "BAD_DECLARATION"
    DETAILED_ONLY = "DETAILED_ONLY"
    NO_BRACE_WEAPON = "NO_BRACE_WEAPON"
    NO_SPELLS = "NO_SPELLS"
    NO_SPELL_NAMED = "NO_SPELL_NAMED"
    UNKNOWN_SPELL = "UNKNOWN_SPELL"
    NOT_MEMORISED = "NOT_MEMORISED"  # cast (or cancelled, or lost) already this fight (OSE-SPELL-5)
    NO_MORALE = "NO_MORALE"  # a side with no morale score (OSE-MORALE-2)
    MEMORY_FULL = "MEMORY_FULL"  # nothing to restore (OSE-SPELL-5)
    SURPRISED = "SURPRISED"
    GRAPPLED_NO_SPELLS = "GRAPPLED_NO_SPELLS"
    NOT_CASTING = "NOT_CASTING"
    # the action economy (OSE-ECON-1)
    MAIN_USED = "MAIN_USED"
    MOVE_USED = "MOVE_USED"
    FULL_ROUND_USED = "FULL_ROUND_USED"
    NEEDS_FULL_ROUND = "NEEDS_FULL_ROUND"
    NO_ACTION_LEFT = "NO_ACTION_LEFT"
    NO_ACTION_TO_LOAD = "NO_ACTION_TO_LOAD"
    NO_MOVEMENT_LEFT = "NO_MOVEMENT_LEFT"
    BAD_ACTION_TYPE = "BAD_ACTION_TYPE"
    # the grid (OSE-LOOSE-1, OSE-FLEE-1, OSE-CHARGE-1, OSE-RANGED-1, OSE-GRAP-1)
    NO_GRID = "NO_GRID"
    DARK = "DARK"
    NO_ONE_TO_CHARGE = "NO_ONE_TO_CHARGE"
    TOO_CLOSE = "TOO_CLOSE"
    NOT_NEAREST = "NOT_NEAREST"                # a charge goes at the nearest enemy (OSE-CHARGE-1)
    ENEMY_ADJACENT = "ENEMY_ADJACENT"
    NO_LINE_OF_SIGHT = "NO_LINE_OF_SIGHT"      # a wall between shooter and target (OSE-RANGED-1, DEFAULT)
    NOT_ADJACENT = "NOT_ADJACENT"
    # weapons and hands (OSE-STANCE-*, OSE-RANGED-*, OSE-COND-1)
    NO_MELEE_WEAPON = "NO_MELEE_WEAPON"
    NOT_IN_HAND = "NOT_IN_HAND"
    NEEDS_TWO_HANDS = "NEEDS_TWO_HANDS"
    HANDS_FULL = "HANDS_FULL"
    NO_FREE_HAND = "NO_FREE_HAND"
    GRAPPLED_SMALL_ONLY = "GRAPPLED_SMALL_ONLY"
    NOTHING_TO_THROW = "NOTHING_TO_THROW"
    NO_AMMUNITION = "NO_AMMUNITION"
    BAD_EDGE = "BAD_EDGE"
    # manipulations (OSE-MANIP-1)
    BAD_MANIPULATION = "BAD_MANIPULATION"
    CASTING_ONE_MANIPULATION = "CASTING_ONE_MANIPULATION"
    SHIELD_NEEDS_MOVE = "SHIELD_NEEDS_MOVE"
    IN_BACKPACK = "IN_BACKPACK"
    NOT_CARRIED = "NOT_CARRIED"
    # grapples (OSE-GRAP-1)
    BAD_INTENT = "BAD_INTENT"
    NOT_HELD = "NOT_HELD"  # no such hold
    # Turn Undead (OSE-TURN-1..4)
    NOT_A_WARPRIEST = "NOT_A_WARPRIEST"
    NO_HOLY_SYMBOL = "NO_HOLY_SYMBOL"
    TURN_LOCKED = "TURN_LOCKED"
    NO_UNDEAD = "NO_UNDEAD"
    ALL_TURNED = "ALL_TURNED"
    # usage dice (OSE-RES-1)
    NO_USAGE_DIE = "NO_USAGE_DIE"
    USED_UP = "USED_UP"
    BAD_USAGE_DIE = "BAD_USAGE_DIE"
