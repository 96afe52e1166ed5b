"""Ogre's descriptor: all that the rest of Fray knows of the system before importing it (fray/rules/__init__.py)."""
from .. import SystemInfo

INFO = SystemInfo(
    "ogre", "Ogre Character Codex: Combat Sequence", short="Ogre", order=3,
    field_views=(("", "grid"),),
    extra_views=("before", "ruler"),  # OGRE-SUR-1, OGRE-SEG-1
    view_modules=(("grid", "fray.ui.field.grid"), ("before", "fray.ui.field.before_fight"), ("ruler", "fray.ui.field.ruler")),
    view="fray.views.ogre",
    line="A segment count: actions resolve segments after they are declared.",
    new_line="Ogre Character Codex: squares, and a segment ruler of declared actions.",
    start_help="Library → New Ogre encounter: surprise is settled before the fight; then actions are declared "
               "and resolve a number of segments later, on the ruler.",
    example="orc_and_pc", example_name="An orc and a PC",
    start_distance="Ogre: the fight starts at the Spot result's distance, set in Before the fight (OGRE-SUR-1); "
                   "until then the sides stand this far apart.",
    book="Ogre Character Codex, Combat Sequence", creatures="creatures")
