"""The OSE system's public surface: what views, the page and tools may import (`from fray.rules.ose import ...`).

`RULESET` and `INFO`, the commands, the refusal codes (`Reason`), where the
round is (`Phase`), and the few queries the OSE panels show (movement left,
stance, usage dice...). Everything else is the package's own.
"""
from .check import manip_cost
from .combat import ammo_die, shield_bonus, stance
from .commands import (Attack, CancelSpell, Charge, CheckMorale, CompleteSpell, Declare, DisruptSpell, Done, EndStep, Flee,
                       Grapple, Manipulate, MoraleResult, Move, Narrate, Opportunity, Release, RestoreMemory,
                       RollInitiative,
                       RollResource, Splinter, Surprise, TurnUndead, Withdraw)
from .movement import move_left
from .options import declaration_options, ranged_block_reason
from .reasons import Reason
from .round import is_active
from .stat_block import read_stat_blocks
from .ruleset import RULESET
from .state import (DEFAULTS, STEP_NAMES, STEPS, TURN_TABLE, OseState, Phase, acting_side, econ_of, grid_of,
                    hostile_fn, is_detailed, is_out, rate_ft)
from .turn_undead import undead_groups

INFO = RULESET.info

__all__ = [
    "RULESET", "INFO", "Reason", "Phase", "OseState", "DEFAULTS", "STEPS", "STEP_NAMES", "TURN_TABLE",
    # commands
    "Attack", "CancelSpell", "Charge", "CheckMorale", "CompleteSpell", "Declare", "DisruptSpell", "Done", "EndStep", "Flee",
    "Grapple", "Manipulate", "MoraleResult", "Move", "Narrate", "Opportunity", "Release", "RestoreMemory", "RollInitiative",
    "RollResource",
    "Splinter", "Surprise", "TurnUndead", "Withdraw",
    # queries the panels and tools ask
    "acting_side", "ammo_die", "declaration_options", "econ_of", "grid_of", "hostile_fn", "is_active",
    "is_detailed", "is_out", "manip_cost", "move_left", "ranged_block_reason", "rate_ft", "shield_bonus", "stance",
    "undead_groups",
    # the printed stat block, pasted (fray/stat_blocks.py)
    "read_stat_blocks",
]
