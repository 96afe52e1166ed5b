"""The setup form's slot: the draft as the editor's markup, with the roster's picker, the map image and the placement map.

Drawn by ui/page/render.py while the page is in setup mode; its actions are ui/controllers/editing.py's.
"""
from __future__ import annotations

from typing import Any

from ... import bestiary, quick_party, roster
from ...rules import SYSTEMS
from ...rules import get as get_ruleset
from ..controllers import map_image_ui, paste_ui
from ..desk.desk import Desk
from ..desk.operations import draft_doc
from ..desk.roster_entries import own, party_count
from ..field import map_layer
from ..markup import editor, map_image_markup, place_markup, roster_markup
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
    party: Markup | str = ""
    if not doc["combatants"]:  # "Add the party" at the top answers there, not in the roster 700 px lower (#53)
        party = roster_markup.party_button(party_count(desk, doc), "start-party") + \
            roster_markup.report_line(desk.roster.report, "start-report") + \
            roster_markup.quick_party(desk.roster.party_text, desk.roster.party_problems,
                                      list(quick_party.classes(doc.get("system", ""))))
    elif desk.roster.party_report:  # what the quick party added, said where it was typed
        party = roster_markup.report_line(desk.roster.party_report, "quick-party-report")
    view = ruleset.info.field_view(doc.get("profile", ""))
    image = map_image_ui.placed(doc)
    placing = str(map_image_markup.render(image, view, (doc["map"]["width"], doc["map"]["height"]),
                                          map_layer.URLS.get(image.key, "") if image else "",
                                          map_image_ui.taps())) + str(
        place_markup.render(doc, view, desk.setup.picked, desk.setup.said))
    desk.slots.form("editor-slot", Markup(editor.render(doc, ruleset, list(desk.page.problems), len(s.steps),
                                                       paste_ui.draw(desk, doc) + picker(desk, doc), party,
                                                       desk.setup.refused,
                                                       desk.setup.leaving, str(placing)) + restart))


def picker(desk: Desk, doc: dict[str, Any]) -> Markup:
    """The roster's picker for the draft `doc` (its system is the default filter)."""
    state = desk.roster
    system = doc.get("system", "") if state.system is None else state.system
    mine = own(desk)
    found = roster.search(mine + bestiary.entries(), state.query, system)
    party = roster.party(mine, doc.get("system", ""))  # what "Add the party" adds: the encounter's system
    return roster_markup.picker(found, saved=len(mine), starters=len(bestiary.entries()),
                                systems={s: i.label for s, i in SYSTEMS.items()}, system=system,
                                query=state.query, count=state.count, count_why=state.count_why, report=state.report,
                                party=len(party), shows_report=bool(doc["combatants"]))
