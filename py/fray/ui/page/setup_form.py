"""The setup form's slot: the draft as the editor's markup, with the roster's picker and the placement map.

Drawn by ui/page/render.py while the page is in setup mode; its actions are ui/controllers/editing.py's.
"""
from __future__ import annotations

from ...rules import SYSTEMS
from ...rules import get as get_ruleset
from ..controllers import paste_ui, roster_ui
from ..desk.desk import Desk
from ..desk.operations import draft_doc
from ..markup import editor, place_markup
from ..markup.html import Markup, h


def draw(desk: Desk) -> None:
    """The setup form in its slot while the page is in setup mode."""
    if desk.page.mode != "setup":
        desk.slots.clear("editor-slot")
        return
    s = desk.session
    doc = draft_doc(desk)
    ruleset = get_ruleset(doc["system"]) if doc.get("system") in SYSTEMS else s.ruleset
    restart = ""
    if desk.page.restart_offer is not None:
        restart = h("button", {"type": "button", "data-action": "restart", "data-testid": "restart"},
                    "Restart the fight with this setup")
    party = roster_ui.party_button(roster_ui.party_count(desk, doc), "start-party")
    placing = place_markup.render(doc, ruleset.info.field_view(doc.get("profile", "")), desk.setup.picked,
                                  desk.setup.said)
    desk.slots.form("editor-slot", Markup(editor.render(doc, ruleset, list(desk.page.problems), len(s.steps),
                                                       paste_ui.draw(desk, doc) + roster_ui.picker(desk, doc), party,
                                                       desk.setup.refused,
                                                       desk.setup.leaving, str(placing)) + restart))
