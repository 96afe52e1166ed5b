"""OSE's descriptor: all that the rest of Fray knows of the system before importing it (fray/rules/__init__.py)."""
from .. import SystemInfo

INFO = SystemInfo(
    "ose", "OSE house rules: Combat and Tactical Actions", short="OSE", order=2,
    profiles=("loose", "detailed"), profile_labels=("OSE loose", "OSE detailed"),
    # OSE-LOOSE-1: loose combat is a plain list; detailed plays on the grid.
    field_views=(("loose", "list"), ("detailed", "grid")),
    extra_views=("declarations",),  # OSE-DECL-1
    view_modules=(("grid", "fray.ui.field.grid"), ("declarations", "fray.ui.field.declarations")), view="fray.views.ose",
    line="Side initiative, declarations, loose or detailed combat on a square grid.",
    # A new encounter starts in detailed combat on squares; Setup's System list switches it to loose combat.
    new_line="Old-School Essentials house rules: sides declare, then act on a square grid.",
    start_help="Library → New OSE encounter: a detailed fight on the grid (Setup's profile switches to loose "
               "combat). Each round the sides roll initiative and declare, then act step by step.",
    start_profile="detailed", example="detailed", example_name="A detailed fight on the grid",
    book="OSE house rules, Combat and Tactical Actions", creatures="creatures")
