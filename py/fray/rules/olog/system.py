"""OLOG's descriptor: all that the rest of Fray knows of the system before importing it (fray/rules/__init__.py)."""
from .. import SystemInfo

INFO = SystemInfo(
    "olog", "OLOG: Combat and Pressure", short="OLOG", order=1,
    field_views=(("", "bands"),), view_modules=(("bands", "fray.ui.field.bands"),), view="fray.views.olog",
    line="Initiative counts, two actions, pressure, distance bands.",
    new_line="Distance in zones; foes nearby press you each action.",
    example="two_orcs", example_name="Two orcs",
    book="OLOG Combat and Pressure", creatures="creatures")
