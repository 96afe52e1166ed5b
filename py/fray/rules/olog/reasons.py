"""OLOG's own refusal codes (the shared ones are the core `Reason` in
engine/commands.py): one module of their own, so that check and the
system's other modules can all name them without an import cycle."""
from __future__ import annotations

from ...engine.commands import Code


class Reason(Code):
    """OLOG's own refusals (the shared ones are the core `Reason`); str-valued,
    so a reason still compares equal to its code."""

    OFF_FIELD = "OFF_FIELD"                      # a zone the field does not have (OLOG-BAND-1)
    NO_SUCH_ITEM = "NO_SUCH_ITEM"                # not in the pack (OLOG-ITEM-1)
    NO_HANDS = "NO_HANDS"
    NO_SUCH_HAND = "NO_SUCH_HAND"
    HANDS_FULL = "HANDS_FULL"                    # say which held item to swap (OLOG-ITEM-1)
    BAD_DIRECTION = "BAD_DIRECTION"              # Strategise goes up or down (OLOG-STRAT-1)
    TOO_LONG = "TOO_LONG"                        # a spell's name over 80 characters
    NOT_A_PERMUTATION = "NOT_A_PERMUTATION"      # a reorder must list everyone once
    NOT_A_TIE = "NOT_A_TIE"                      # only ties are reordered (OLOG-INIT-4)
    TURN_ENDING = "TURN_ENDING"                  # no Press On: the turn ends after this action (OLOG-PRES-2)
    NO_ACTIONS_LEFT = "NO_ACTIONS_LEFT"          # OLOG-ACT-1
    NEEDS_BOTH_ACTIONS = "NEEDS_BOTH_ACTIONS"    # OLOG-ACT-4
    SAME_ACTION_TWICE = "SAME_ACTION_TWICE"      # OLOG-ACT-2
    NOT_NEXT_ZONE = "NOT_NEXT_ZONE"              # one zone a move (OLOG-MOVE-1)
    NOT_HOSTILE = "NOT_HOSTILE"                  # CORE-SIDE-1
    NOT_IN_HAND = "NOT_IN_HAND"                  # retrieve the weapon first (OLOG-ITEM-1)
    FREE_ACTION = "FREE_ACTION"                  # free actions never trigger pressure (OLOG-ACT-3)
    SAME_ACTION = "SAME_ACTION"                  # a split attack's later attacks need no Press On (OLOG-ATK-1)
    NOT_UNDER_PRESSURE = "NOT_UNDER_PRESSURE"    # OLOG-PRES-1
    NEEDS_PRESS_ON_CHOICE = "NEEDS_PRESS_ON_CHOICE"      # OLOG-PRES-2
    EXTENDED_NEEDS_PRESS_ON = "EXTENDED_NEEDS_PRESS_ON"  # OLOG-PRES-7
