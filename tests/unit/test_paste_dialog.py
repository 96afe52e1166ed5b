"""The paste dialog's view model and markup: each part with what it gave, refusals at their part, text escaped."""
from __future__ import annotations

import fray.rules  # noqa: F401  (installs the systems the loader looks up)
from fray import stat_blocks
from fray.ui.markup import paste_markup
from fray.views.paste import PasteState, cards, ready, rows

GHOUL = ("Ghoul (2): AC 6 [13], HD 2* (9hp), Att 2 × claw (1d3 + paralysis), 1 × bite (1d3 + paralysis), "
         "THAC0 18 [+1], MV 90' (30'), Infravision 60'")


def state(text: str, system: str = "ose") -> PasteState:
    s = PasteState(open=True, text=text)
    s.blocks = stat_blocks.read(system, text)
    return s


def test_each_part_of_the_text_is_a_row_with_what_it_gave():
    b = stat_blocks.read("ose", GHOUL)[0]
    got = [(r.words, r.values) for r in rows(b)]
    assert got[0] == ("AC 6 [13]", (("AC", "13"),))
    assert got[1] == ("HD 2* (9hp)", (("HD", "2"), ("HP", "9")))
    assert got[2][1] == (("Attacks", "2 × Claw (paralysis) 1d3, +1; Bite (paralysis) 1d3, +1"),
                         ("Riders", "Claw: paralysis; Bite: paralysis"))
    assert cards(state(GHOUL))[0].unread == ("Infravision 60'",)


def test_a_refused_part_carries_its_reason_and_the_creature_cannot_be_added():
    s = state(GHOUL + "\n\nTroll: AC 9000, HD 6 (30hp), Att 1 × bite (1d10)")
    ghoul, troll = cards(s)
    assert ghoul.ok and not troll.ok and ready(s) == [0]
    assert troll.summary == "1 × Troll · HP 30 · AC ? · Bite 1d10, +5"  # a refused value is no default
    refused = [r for r in troll.rows if r.problem]
    assert [(r.words, r.problem) for r in refused] == [
        ("AC 9000", "descending AC 9000 is ascending -8,981, out of range (-100 to 100)")]
    html = str(paste_markup.panel(s, "OSE"))
    assert 'data-testid="paste-add-1" disabled' in html.replace('aria-label="Add 1 × Troll to the encounter" ', '')
    assert "out of range" in html and 'aria-invalid="true"' in html


def test_a_missing_part_gets_a_row_to_type_it_in():
    s = state("Rat: AC 12, bite 1d3", "olog")
    row = cards(s)[0].rows[-1]
    assert row.words == "" and row.problem == "no hit points (HP 6)" and row.start == row.end == len(s.blocks[0].text)
    fixed = stat_blocks.reread("olog", s.blocks[0], row.start, row.end, "\nHP 3")
    assert fixed.ok and fixed.get("hp") == 3


def test_a_name_typed_for_a_block_without_one_is_read_as_its_name_line():
    b = stat_blocks.read("ose", "AC 7 [12], HD 1 (4hp), Att 1 × bite (1d4)")[0]
    assert b.name == "Creature"
    assert stat_blocks.renamed("ose", b, "Giant  ferret").name == "Giant ferret"


def test_pasted_text_is_shown_as_text_never_html():
    s = state('<img src=x onerror=alert(1)> (2): AC 6 [13], HD 1 (4hp), Att 1 × <b>bite</b> (1d4), <script>x</script>')
    html = str(paste_markup.panel(s, "OSE"))
    assert "<img" not in html and "<script>" not in html and "<b>bite" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html


def test_closed_the_dialog_is_one_button():
    html = str(paste_markup.panel(PasteState(), "OSE"))
    assert 'data-action="paste-open"' in html and "textarea" not in html
