"""OLOG "Combat and Pressure": the system's public surface, all that views and ui import.

The ruleset (`RULESET`, its `INFO` entry), the commands, the board record and
its phase, the refusal reasons, and the queries the bands view asks (pressure,
zones, the order, whether a move is allowed). Tests may import the modules.
"""
from .check import is_allowed
from .commands import (ACTIONS, Attack, CastSpell, Defend, EndTurn, Move, Reorder, Retrieve, RollInitiative,
                       SetCount, Strategise)
from .options import referee_options
from .pressure import Pressure, band_label, pressure_map, pressure_on, reach_zones, zone_name
from .reasons import Reason
from .stat_block import read_stat_blocks
from .ruleset import RULESET, Olog
from .state import SETTINGS, STATS, OlogState, Phase, is_pc, needs_press_on, opt, order

INFO = RULESET.info

__all__ = [
    "read_stat_blocks",  # a pasted creature (fray/stat_blocks.py)
    "RULESET", "INFO", "Olog",
    "RollInitiative", "Move", "Attack", "Defend", "CastSpell", "Retrieve", "Strategise", "EndTurn", "SetCount",
    "Reorder", "ACTIONS",
    "OlogState", "Phase", "Reason", "SETTINGS", "STATS",
    "is_pc", "opt", "order", "needs_press_on", "is_allowed", "referee_options",
    "Pressure", "pressure_map", "pressure_on", "band_label", "reach_zones", "zone_name",
]
