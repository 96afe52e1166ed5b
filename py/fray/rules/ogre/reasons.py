"""Ogre's own refusal codes (the shared ones are the core `Reason` in
engine/commands.py): one module of their own, so that check and the
system's other modules can all name them without an import cycle."""
from __future__ import annotations

from ...engine.commands import Code


class Reason(Code):
    """Ogre's own refusals (the shared ones are the core `Reason`); str-valued,
    so a reason still compares equal to its code."""

    NOTHING_TO_ANSWER = "NOTHING_TO_ANSWER"    # an answer nobody asked for
    MUST_DECLARE = "MUST_DECLARE"              # the count waits for declarations (OGRE-ACT-1)
    NOTHING_TO_BREAK = "NOTHING_TO_BREAK"      # OGRE-BREAK-1
    NOT_READY = "NOT_READY"                    # no readied action to trigger (OGRE-READY-1)
    NO_TARGET = "NO_TARGET"                    # not a standing foe to strike or wait for
    NEED_GROUPS = "NEED_GROUPS"                # OGRE-SUR-1
    NEED_SPOT = "NEED_SPOT"                    # OGRE-SUR-1
    BAD_INPUT = "BAD_INPUT"                    # OGRE-SUR-1: Stalk and ranged for every group, or none
    NO_SUCH_TERRAIN = "NO_SUCH_TERRAIN"        # OGRE-SUR-1
    NO_SUCH_CATEGORY = "NO_SUCH_CATEGORY"      # OGRE-CAT-1
    FLAT_FOOTED = "FLAT_FOOTED"                # OGRE-FF-1
    STUNNED = "STUNNED"                        # OGRE-BREAK-1
    BAD_TEMPO = "BAD_TEMPO"                    # OGRE-FAST-1, OGRE-SLOW-1
    CANNOT_HURRY = "CANNOT_HURRY"              # OGRE-FAST-1
    CANNOT_SLOW = "CANNOT_SLOW"                # OGRE-SLOW-1
    BUSY = "BUSY"                              # an action under way (OGRE-ACT-1)
    NOT_DUE = "NOT_DUE"                        # OGRE-DELAY-1
    PAST = "PAST"                              # a delay must end later (OGRE-DELAY-1)
    DELAYED = "DELAYED"                        # it delayed on this segment: no declaration here (OGRE-DELAY-1)
    UNKNOWN_ACTION = "UNKNOWN_ACTION"          # OGRE-LIST-1
    NOT_NEEDED = "NOT_NEEDED"                  # OGRE-LIST-1: nothing to stand up from...
    NO_ITEM = "NO_ITEM"                        # OGRE-LIST-1: nothing carried to draw
    HANDS_FULL = "HANDS_FULL"                  # OGRE-LIST-1
    NOT_HELD = "NOT_HELD"                      # OGRE-LIST-1
    NO_SUCH_TRIGGER = "NO_SUCH_TRIGGER"        # OGRE-READY-1
    BAD_TRIGGER = "BAD_TRIGGER"                # OGRE-READY-1
    NO_PENDING_ATTACK = "NO_PENDING_ATTACK"    # OGRE-AOO-2
    NOT_FOLLOWING = "NOT_FOLLOWING"            # OGRE-FOLLOW-1
    BLINDED = "BLINDED"                        # OGRE-WD-1
    NOT_STRAIGHT = "NOT_STRAIGHT"              # OGRE-CHARGE-1
    NO_CHARGE = "NO_CHARGE"                    # OGRE-CHARGE-1: no charge to offer
