"""The page explaining itself: the first visit's welcome and the help ("?"), as HTML strings.

Pure functions (no browser imports). The welcome offers the systems of
views/welcome.py, then a blank fight or an example of the one chosen, or the
library (ui/controllers/welcome.py handles the taps). The help says what each area of the
screen does, how to start a fight in each system, and the keyboard shortcuts.
"""
from __future__ import annotations

from typing import Sequence

from ...views.welcome import SystemChoice
from .html import Markup, h

SHORTCUTS = (  # (keys, each its own <kbd> with "or" between them, what they do)
    ("Ctrl+Z", "Undo"), ("Ctrl+Shift+Z|Ctrl+Y", "Redo"), ("1 – 9", "Pick the n-th action"),
    ("N", "Next turn / advance"), ("T", "Target the next foe (its actions first)"),
    ("H", "Damage, heal or set HP of the target (or the selected)"), ("Enter", "Confirm"), ("Esc", "Cancel"),
    ("Arrows", "Move the grid cursor"), ("?", "Show this help"),
)

# How a caster's spell does what it says (engine/spells.py), said in the help and beside the Spells field (#53).
SPELL_HELP = ("A caster's spell does what its brackets say when it is completed: “Magic Missile (1d6+1 each)” "
              "rolls for each target, “Cure Light Wounds (1d6+1 heal)” heals, “Sleep (asleep for 10 min)” puts a "
              "condition on. Without brackets the referee narrates it. Write them in Setup, in the caster's "
              "spells field, one after another with commas.")
SPELL_EXAMPLE = "Magic Missile (1d6+1 each), Sleep (asleep for 10 min)"

# (area, what it holds and how to use it): the help's tour of the screen, in the page's own words.
AREAS = (
    ("Header", "↶ Undo and ↷ Redo take back any step, a setup change too (Ctrl+Z). Setup edits the sides, "
               "the combatants and the map. ≡ Library keeps every encounter: new, open, rename, export. Save "
               "and Open use a file, Share a link. Table display opens the players' window; Players' view shows "
               "this one as they see it."),
    ("Order", "Who acts, in order; ▶ marks whose turn it is. Tap a row to select it. During someone's turn, "
              "tapping another row makes it the target: the actor's actions on it come first (tap again to "
              "clear). The ⋯ button looks at a combatant's own card and actions instead. Tap the HP bar for "
              "quick HP (−3, +2 or a new value) and conditions in one tap."),
    ("Field", "Where everyone stands. OLOG: zones (distance bands) in columns, about 30 ft apart; a token's "
              "label is its distance from the selected creature (same zone Close, 1 Near, 2-4 Far, 5+ "
              "Distant). OSE detailed and Ogre: a square "
              "grid; tap a token to select it, tap a square to preview the path (attacks of opportunity are "
              "marked), tap it again to go; drag to pan, pinch to zoom. Ogre adds the segment ruler: a lane "
              "per combatant, each declared action ending at its segment."),
    ("Actions", "The selected combatant's actions, as big buttons (keys 1–9). A greyed one says why, with its "
                "rule id: tap the id to read the rule. When a rule needs a choice, the question comes before "
                "any die is rolled. The result card shows the last step: each roll, the rule behind it, HP "
                "before → after. The referee's tools (HP, conditions, allow) are below."),
    ("Spells", SPELL_HELP),
    ("Dice", "A roller for any expression (2d6+1). Who rolls: the app, you (type your dice's faces when a "
             "roll is needed), or the players of the sides you tick."),
    ("Log", "Every step with its dice and rule ids, newest first; Export saves it as text."),
)


def help_dialog(systems: Sequence[SystemChoice], wide: bool = True) -> Markup:
    """What each area does, how to start a fight in each of `systems` (views/welcome.py's choices, each its
    descriptor's `start_help`), the shortcuts (open). `wide`: the areas side by side in
    two columns, each said at once; on a phone each is a folded section, so the whole help fits a screen."""
    if wide:
        areas = [h("section", {"class_": "help-area", "data-testid": f"help-{name.lower()}"},
                   h("h4", None, name), h("p", None, text)) for name, text in AREAS]
    else:
        areas = [h("details", {"class_": "help-area", "data-testid": f"help-{name.lower()}"},
                   h("summary", None, name), h("p", None, text)) for name, text in AREAS]
    starts = h("dl", {"class_": "help-starts"}, [[h("dt", None, c.name), h("dd", None, c.start_help)]
                                               for c in systems if c.start_help])
    return h("div", {"class_": "modal", "role": "dialog", "aria-modal": "true", "aria-labelledby": "help-t",
                     "data-testid": "help-dialog"},
             h("div", {"class_": "modal-box help"},
               h("h2", {"id": "help-t"}, "Help"),
               h("p", {"class_": "muted"}, "Every step is saved in this browser as you go." if wide else
                 "The bar at the bottom switches between Field, Order, Act and Log. Every step is saved in this "
                 "browser as you go."),
               h("h3", None, "The screen"),
               h("div", {"class_": "help-areas" + (" wide" if wide else "")}, areas),
               h("details", {"class_": "help-start", "data-testid": "help-start"},
                 h("summary", None, "Starting a fight"), starts,
                 h("p", None, "Setup → Examples opens a ready-made fight of any system."),
                 h("button", {"type": "button", "data-action": "welcome-system:", "data-testid": "help-welcome"},
                   "Choose a system…")),
               h("details", {"class_": "help-keys", "open": True, "data-testid": "help-keys"},
                 h("summary", None, "Keyboard shortcuts"),
                 h("dl", {"class_": "keys"}, [[h("dt", None, join_keys(k)), h("dd", None, v)] for k, v in SHORTCUTS])),
               h("div", {"class_": "row"}, h("button", {"type": "button", "data-action": "cancel"}, "Close"))))


def join_keys(keys: str) -> list:
    """ "Ctrl+Shift+Z|Ctrl+Y" as two <kbd> with "or" between: a narrow screen wraps between them."""
    out: list = []
    for i, k in enumerate(keys.split("|")):
        out += [" or " if i else "", h("kbd", None, k)]
    return out


def welcome_dialog(choices: tuple[SystemChoice, ...], chosen: SystemChoice) -> Markup:
    """The first visit: a system (one tap; the first is chosen at first), then a blank fight or its example (one
    more tap); or the library; or close, to look around the demo fight behind."""
    systems = [h("button", {"type": "button", "class_": "welcome-sys", "data-action": f"welcome-system:{c.system}",
                            "data-testid": f"welcome-system-{c.system}",
                            "aria-pressed": "true" if c == chosen else "false"},
                 h("strong", None, c.name), h("span", {"class_": "line"}, c.line)) for c in choices]
    return h("div", {"class_": "modal", "role": "dialog", "aria-modal": "true", "aria-labelledby": "welcome-t",
                     "aria-describedby": "welcome-d", "data-testid": "welcome"},
             h("div", {"class_": "modal-box welcome"},
               h("h2", {"id": "welcome-t"}, "Welcome to Fray"),
               h("p", {"id": "welcome-d"}, "A combat tracker for the referee. Choose the rules, then start a "
                                           "blank fight or open an example."),
               h("div", {"class_": "welcome-systems", "role": "group", "aria-label": "Rules"}, systems),
               h("div", {"class_": "welcome-go", "role": "group", "aria-label": f"Start with {chosen.name}"},
                 h("button", {"type": "button", "class_": "primary", "data-action": f"welcome-blank:{chosen.system}",
                              "data-testid": "welcome-blank"},
                   f"Start a blank {chosen.name} fight", h("span", {"class_": "line"}, "Empty, in Setup")),
                 h("button", {"type": "button", "data-action": f"welcome-example:{chosen.system}",
                              "data-testid": "welcome-example"},
                   f"Open an {chosen.name} example", h("span", {"class_": "line"}, chosen.example_name))),
               h("div", {"class_": "row welcome-more"},
                 h("button", {"type": "button", "data-action": "library", "data-testid": "welcome-library"},
                   "Open the library"),
                 h("button", {"type": "button", "data-action": "cancel", "data-testid": "welcome-close"},
                   "Just look around"))))
