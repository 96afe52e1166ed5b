"""OLOG's descriptor: all that the rest of Fray knows of the system before importing it (fray/rules/__init__.py)."""
from .. import SystemInfo

INFO = SystemInfo(
    "olog", "OLOG: Combat and Pressure", short="OLOG", order=1,
    field_views=(("", "bands"),), view_modules=(("bands", "fray.ui.field.bands"),), view="fray.views.olog",
    line="Initiative counts, two actions, pressure, distance bands.",
    new_line="Distance in zones; foes nearby press you each action.",
    start_help="Library → New OLOG encounter opens an empty one in Setup: add the party and the foes, then "
               "Back to the fight. Initiative counts decide who acts; each has two actions; foes nearby press.",
    example="two_orcs", example_name="Two orcs",
    book="OLOG Combat and Pressure", creatures="creatures")
