"""Every limit on an encounter, in one place (listed in docs/API.md).

The loader (engine/encounter_io.py) checks each field of a document against
these, the setup editor shows them, and `Session` holds the encounter it is
given to the same rules, so a setup the API accepts is one a save file of it
loads back as. A limit is a range `(lowest, highest)` for a number, a
length for text, or a count for a list.
"""
from __future__ import annotations

import re

# The encounter.
ENCOUNTER_NAME = 80           # characters
SEED = (0, 2**31 - 1)
BANDS = (1, 50)               # OLOG zones
MAP_SIZE = (4, 200)           # squares a side
MAX_WALLS = 40_000            # squares (a 200 x 200 map)
MAX_SIDES = 12
MAX_COMBATANTS = 200
MAX_SETTINGS = 60

# A side.
ID = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")   # side and combatant ids: letters, digits, _ . - (no spaces)
ID_TEXT = 40
SIDE_NAME = 60
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")    # "#3b6ea8": a hex colour, not a word
COLOUR_TEXT = 7
START_DISTANCES = ("close", "near", "far")  # the setup's starting distance between the sides (placement.py)
SHAPES = ("circle", "square", "diamond", "triangle", "hexagon", "star")

# A combatant.
COMBATANT_NAME = 80
MAX_HP = (1, 100_000)
HP = (-100_000, 100_000)
AC = (-100, 100)
AMOUNT = (0, 200_000)         # a referee's Damage or Heal (CORE-REF-1)
MAX_HANDS = 4
ITEM_TEXT = 80                # a held or carried item's name
MAX_INVENTORY = 60
MAX_CONDITIONS = 20
CONDITION_TEXT = 40
CONDITION_TICKS = 10_000  # a timed condition lasts at most this many ticks of its system's clock
NOTES = 2000
MAX_STATS = 60
STAT_TEXT = 200               # a text stat's length
STAT_LIST = 60                # a list stat's items

# A weapon.
MAX_WEAPONS = 16
WEAPON_NAME = 60
DAMAGE_TEXT = 40              # dice notation
TO_HIT = (-50, 50)
REACH = (0, 100)              # feet, a multiple of 5
COUNT = (1, 10)               # attacks in one action (OLOG-ATK-1)
QUALITY_TEXT = 20
RANGE_FT = (5, 1000)          # a missile's short, medium and long range, feet


def table() -> list[tuple[str, str]]:
    """(field, limit) rows for docs and the editor's help."""
    def rng(r: tuple[int, int]) -> str:
        return f"{r[0]:,} to {r[1]:,}"
    return [
        ("encounter.name", f"at most {ENCOUNTER_NAME} characters"),
        ("encounter.seed", rng(SEED)),
        ("encounter.bands", rng(BANDS)),
        ("encounter.start_distance", ", ".join(START_DISTANCES) + " (near when absent)"),
        ("encounter.map.width / height", rng(MAP_SIZE) + " squares"),
        ("encounter.sides", f"at most {MAX_SIDES}"),
        ("encounter.combatants", f"at most {MAX_COMBATANTS}"),
        ("side.id, combatant.id", f"1 to {ID_TEXT} of A-Z a-z 0-9 _ . - (no spaces), unique"),
        ("side.name", f"at most {SIDE_NAME} characters"),
        ("side.colour", "a hex colour such as #3b6ea8 (not a word)"),
        ("side.shape", ", ".join(SHAPES)),
        ("combatant.name", f"at most {COMBATANT_NAME} characters"),
        ("combatant.max_hp", rng(MAX_HP)),
        ("combatant.hp", rng(HP)),
        ("combatant.ac", rng(AC)),
        ("Damage.amount, Heal.amount", rng(AMOUNT)),
        ("combatant.hands", f"at most {MAX_HANDS}, each at most {ITEM_TEXT} characters"),
        ("combatant.inventory", f"at most {MAX_INVENTORY} items"),
        ("combatant.conditions", f"at most {MAX_CONDITIONS}, each at most {CONDITION_TEXT} characters"),
        ("combatant.notes", f"at most {NOTES} characters"),
        ("combatant.stats", f"at most {MAX_STATS}; each within its system's range (docs/RULESETS.md)"),
        ("combatant.weapons", f"at most {MAX_WEAPONS}"),
        ("weapon.name", f"at most {WEAPON_NAME} characters"),
        ("weapon.damage", f"dice notation, at most {DAMAGE_TEXT} characters"),
        ("weapon.to_hit", rng(TO_HIT)),
        ("weapon.reach", rng(REACH) + " ft, a multiple of 5"),
        ("weapon.count", rng(COUNT)),
        ("weapon.range", f"empty, or short, medium, long: each {rng(RANGE_FT)} ft, none shorter than the one before"),
    ]
