"""Ogre Character Codex "Combat Sequence": the system's public surface, all that views and ui import.

The ruleset (`RULESET`, its `INFO` entry), the commands, the board records
and their phase, the refusal reasons, and the queries the ruler, the panel
and the before-the-fight dialog ask. Tests may import the modules.
"""
from .commands import (ANSWERS, DECLARATIONS, Act, Advance, Attack, BeforeTheFight, Break, Cast, Charge, Counter,
                       Delay, Follow, Move, Opportunity, React, Ready, RollInitiative, StandingAnswer, Strike, Stun, Trigger,
                       Withdraw)
from .reasons import Reason
from .stat_block import read_stat_blocks
from .ruleset import RULESET, Ogre
from .state import (CATEGORIES, MENU, MENU_BY_KEY, REACTION_PENALTY, TRIGGERS, Action, Fighter, Mark, OgreState,
                    Phase, defense, duration, is_flat_footed, is_stunned, reaction_time, seconds)
from .surprise import SurpriseSuggestion, has_ranged, suggest, terrains
from .timeline import must_declare, next_event, standing

INFO = RULESET.info

__all__ = [
    "read_stat_blocks",  # a pasted creature (fray/stat_blocks.py)
    "RULESET", "INFO", "Ogre",
    "BeforeTheFight", "RollInitiative", "Advance", "Attack", "Move", "Withdraw", "Charge", "Act", "Cast", "Delay",
    "Ready", "Break", "React", "Trigger", "Stun", "Opportunity", "Follow", "Counter", "Strike", "StandingAnswer",
    "DECLARATIONS", "ANSWERS",
    "OgreState", "Fighter", "Action", "Mark", "Phase", "Reason",
    "CATEGORIES", "MENU", "MENU_BY_KEY", "REACTION_PENALTY", "TRIGGERS",
    "defense", "duration", "is_flat_footed", "is_stunned", "reaction_time", "seconds",
    "must_declare", "next_event", "standing",
    "SurpriseSuggestion", "has_ranged", "suggest", "terrains",
]
