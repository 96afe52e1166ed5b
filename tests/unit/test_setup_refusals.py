"""Bad input at the field (issue #33): a value the setup cannot hold is refused at its own field (kept as
typed, aria-invalid, the reason beside it), the summary at the top links to it, the encounter and its undo
stay as they were, and leaving setup with refused values asks first. The page runs in CPython on the fake
`pyscript` of test_app_render_cache.py; the pure checks are editor.edited's."""
from __future__ import annotations

import re

import pytest
from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray import presets
from fray.engine import storage
from fray.engine.session import Session
from fray.rules import get
from fray.ui.markup import editor

MIRA_HP = "combatants/0/hp"  # Mira, 12/12 HP, in the demo encounter


def demo() -> dict:
    return presets.blank_encounter("olog")


def _open(module):
    loaded = storage.load({"format": 1, "encounter": demo(), "steps": []}).session
    module.window.location.hash = "#" + storage.encode_link(loaded)
    app = module.App()
    app.boot()
    app.dispatch("mode", "setup", None)
    return app


def field_html(form: str, path: str) -> str:
    """The <label> of one field."""
    at = form.index(f'data-path="{path}"')
    start = form.rindex("<label", 0, at)
    return form[start:form.index("</label>", at)]


# --- the pure checks --------------------------------------------------------------------------

@pytest.mark.parametrize("path, kind, typed, why", [
    (MIRA_HP, "int", "-5", "HP must be 0 to 12"),
    (MIRA_HP, "int", "13", "HP must be 0 to 12"),
    (MIRA_HP, "int", "1000000000", "HP must be 0 to 12"),
    ("combatants/0/max_hp", "int", "1000000000", "out of range (1 to 100000)"),
    ("combatants/0/weapons/0/damage", "text", "2x6", "not dice notation"),
    ("bands", "int", "999", "out of range (1 to 50)"),
    ("combatants/0/band", "zone", "7", "zones here are 1 to 6"),
    ("combatants/0/ac", "int", "1e9", "not a whole number"),
    ("combatants/0/name", "text", "", "a name is needed"),
    ("combatants/0/name", "text", "   ", "a name is needed"),
])
def test_a_value_the_setup_cannot_hold_is_refused_with_its_reason(path, kind, typed, why):
    with pytest.raises(editor.EditError) as refused:
        editor.edited(demo(), path, editor.convert(kind, typed))
    assert why in str(refused.value)
    assert not str(refused.value).startswith("encounter."), "the field's words, not the loader's path"


@pytest.mark.parametrize("typed", ["0", "12", "7"])
def test_hp_from_0_to_max_is_taken(typed):
    assert editor.edited(demo(), MIRA_HP, int(typed))["combatants"][0]["hp"] == int(typed)


def test_lowering_max_hp_below_hp_lowers_hp_with_it():
    doc = editor.edited(demo(), "combatants/0/max_hp", 8)
    assert (doc["combatants"][0]["hp"], doc["combatants"][0]["max_hp"]) == (8, 8)


def test_a_refused_field_is_marked_shows_what_was_typed_and_says_why_beside_it():
    refused = {MIRA_HP: ("-5", "HP must be 0 to 12 (its Max HP)")}
    form = str(editor.render(demo(), get("olog"), [], 0, refused=refused))
    hp = field_html(form, MIRA_HP)
    assert 'aria-invalid="true"' in hp and 'value="-5"' in hp
    assert 'aria-describedby="f-combatants-0-hp-why"' in hp
    assert re.search(r'<span class="f-why" id="f-combatants-0-hp-why"[^>]*>HP must be 0 to 12', hp)
    assert re.search(r'<details class="cb" data-testid="cb-0" open', form), "its combatant is open"
    summary = form[form.index('data-testid="editor-problems"'):]
    assert 'href="#f-combatants-0-hp"' in summary and "Mira · HP" in summary
    assert form.index('data-testid="editor-problems"') < form.index('data-path="name"'), "the summary is on top"


# --- in the page -------------------------------------------------------------------------------

def test_hp_minus_5_is_refused_at_its_field_and_the_pc_does_not_start_down(app_module):
    app = _open(app_module)
    enc = app.desk.session.encounter
    app.edit_later(MIRA_HP, "int", "-5")
    assert app.desk.session.encounter is enc and enc.combatants[0].hp == 12
    form = app.desk.slots.written("editor-slot")
    assert 'aria-invalid="true"' in field_html(form, MIRA_HP)
    assert "HP must be 0 to 12" in field_html(form, MIRA_HP)
    assert "wins" not in app.desk.slots.written("header-slot")
    assert not app.desk.session.steps and not app.desk.session.can_undo


def test_what_was_typed_stays_at_the_field_and_the_summary_shows_the_encounters_value(app_module):
    app = _open(app_module)
    app.edit_later(MIRA_HP, "int", "1000000000")
    form = app.desk.slots.written("editor-slot")
    assert 'value="1000000000"' in field_html(form, MIRA_HP)
    assert "12/12 HP" in form  # the combatant's summary line: the encounter's own HP
    assert "1000000000/" not in form


def test_bad_dice_and_999_zones_are_each_marked_at_their_own_field(app_module):
    app = _open(app_module)
    app.edit_later("combatants/0/weapons/0/damage", "text", "2x6")
    app.edit_later("bands", "int", "999")
    form = app.desk.slots.written("editor-slot")
    assert "not dice notation" in field_html(form, "combatants/0/weapons/0/damage")
    assert "out of range (1 to 50)" in field_html(form, "bands")
    summary = form[form.index('data-testid="editor-problems"'):form.index('data-path="name"')]
    assert "2 values were not applied" in summary
    assert 'href="#f-combatants-0-weapons-0-damage"' in summary and 'href="#f-bands"' in summary
    enc = app.desk.session.encounter
    assert enc.bands == 6 and enc.combatants[0].weapons[0].damage == "1d8"


def test_a_fixed_value_clears_its_mark_and_applies_with_undo(app_module):
    app = _open(app_module)
    app.edit_later(MIRA_HP, "int", "-5")
    app.edit_later(MIRA_HP, "int", "7")
    assert app.desk.session.encounter.combatants[0].hp == 7
    assert app.desk.setup.refused == {}
    assert 'aria-invalid' not in field_html(app.desk.slots.written("editor-slot"), MIRA_HP)
    app.dispatch("undo", "", None)
    assert app.desk.session.encounter.combatants[0].hp == 12


def test_leaving_setup_with_refused_values_asks_keep_editing_or_discard(app_module):
    app = _open(app_module)
    app.edit_later("combatants/1/hp", "int", "4")  # a good edit first: undo must still take it back
    app.edit_later(MIRA_HP, "int", "-5")
    app.dispatch("mode", "play", None)  # "Back to the fight"
    assert app.desk.page.mode == "setup"
    form = app.desk.slots.written("editor-slot")
    assert 'data-testid="leave-ask"' in form and "Keep editing" in form and "Discard" in form
    app.dispatch("setup-keep", "", None)
    assert app.desk.page.mode == "setup" and 'data-testid="leave-ask"' not in app.desk.slots.written("editor-slot")
    assert app.desk.setup.refused, "kept at its field"
    app.dispatch("mode", "play", None)
    app.dispatch("setup-discard", "", None)
    assert app.desk.page.mode == "play" and app.desk.setup.refused == {}
    enc = app.desk.session.encounter
    assert (enc.combatants[0].hp, enc.combatants[1].hp) == (12, 4)
    app.dispatch("undo", "", None)
    assert app.desk.session.encounter.combatants[1].hp == 6


def test_leaving_without_refused_values_asks_nothing(app_module):
    app = _open(app_module)
    app.edit_later(MIRA_HP, "int", "9")
    app.dispatch("mode", "play", None)
    assert app.desk.page.mode == "play"


def test_a_value_waiting_to_apply_is_applied_or_refused_before_the_click_that_follows(app_module):
    app = _open(app_module)
    app._edits.append((MIRA_HP, "int", "-5"))  # typed, the focus left for "Back to the fight"

    class Click:
        class target:
            tagName = "BUTTON"
            type = "button"

            @staticmethod
            def getAttribute(name):
                return "mode:play" if name == "data-action" else None

            @classmethod
            def closest(cls, selector):
                return cls

        @staticmethod
        def preventDefault():
            pass

    app.on_click(Click)
    assert app.desk.page.mode == "setup" and app.desk.setup.leaving, "asked, not dropped"


def test_a_half_typed_value_never_reaches_the_fight(app_module):
    app = _open(app_module)
    before = storage.dumps(app.desk.session)
    for path, kind, typed in ((MIRA_HP, "int", "-"), ("combatants/0/max_hp", "int", ""),
                              ("combatants/0/weapons/0/damage", "text", "1d"), ("bands", "int", "0")):
        app.edit_later(path, kind, typed)
    app.dispatch("mode", "play", None)
    app.dispatch("setup-discard", "", None)
    assert storage.dumps(app.desk.session) == before
    s = app.desk.session
    assert isinstance(s, Session) and any(o.allowed for c in s.current() for o in s.options(c))


def test_an_empty_name_is_refused_at_its_field_and_mira_keeps_hers(app_module):
    app = _open(app_module)
    app.edit_later("combatants/0/name", "text", "")
    assert app.desk.session.encounter.combatants[0].name == "Mira"
    assert "a name is needed" in field_html(app.desk.slots.written("editor-slot"), "combatants/0/name")


def test_three_sample_pcs_are_three_distinct_people_and_goblins_are_numbered():
    doc = presets.empty_encounter("olog")
    for _ in range(3):
        doc = editor.add_combatant(doc, "Sample PC", "party")
    for _ in range(2):
        doc = editor.add_combatant(doc, "Goblin", "orcs")
    assert [c["name"] for c in doc["combatants"]] == ["Mira", "Brak", "Sela", "Goblin", "Goblin 2"]
    assert len({c["id"] for c in doc["combatants"]}) == 5


def test_the_spells_field_shows_the_bracket_form_and_keeps_a_comma_inside_brackets__OSE_SPELL_5():
    form = str(editor.render(presets.blank_encounter("ose", "detailed"), get("ose"), [], 0))
    spells = field_html(form, "combatants/0/stats/spells")
    assert 'placeholder="Magic Missile (1d6+1 each), Sleep (asleep for 10 min)"' in spells
    assert "does what its brackets say" in spells  # its help, in the field's tooltip
    typed = "Burning Hands (1d8, burning for 2 rounds), Magic Missile (1d6+1 each)"
    assert editor.convert("list", typed) == ["Burning Hands (1d8, burning for 2 rounds)", "Magic Missile (1d6+1 each)"]
    doc = editor.edited(presets.blank_encounter("ose", "detailed"), "combatants/0/stats/spells",
                        editor.convert("list", typed))
    assert doc["combatants"][0]["stats"]["spells"][0] == "Burning Hands (1d8, burning for 2 rounds)"


def test_the_help_says_how_a_spell_does_what_it_says():
    from fray.ui.markup.guide import help_dialog
    from fray.views.welcome import choices
    text = str(help_dialog(choices()))
    assert "Magic Missile (1d6+1 each)" in text and "Without brackets the referee narrates" in text
