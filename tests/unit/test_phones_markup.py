"""A phone's page and the referee's Phones dialog as markup (ui/markup/phones_markup.py): every text escaped, the
faces form and the options carry only their numbers and labels, the table part is the table display's own."""
from __future__ import annotations

from fray.ui.markup import phones_markup, table_markup

TABLE = {"name": "Two orcs", "system": "olog", "field": "list", "status": "Round 1", "order": [], "log": [],
         "sides": []}
ME = {"id": "brak", "name": "<b>Brak</b>", "hp": "9/12", "conditions": ["Blessed (2 rounds left)"], "down": False,
      "turn": True, "options": [{"index": 2, "label": "Attack <Orc> 1", "figure": "62 %"}], "ask": None}


def test_a_phone_page_is_its_pc_above_the_table_displays_own_markup():
    html = phones_markup.phone_page({"table": TABLE, "me": ME})
    assert str(table_markup.page(TABLE, controls=False)) in html
    assert html.index('data-testid="phone-me"') < html.index('data-testid="table-view"')
    assert "&lt;b&gt;Brak&lt;/b&gt;" in html and "<b>Brak" not in html  # a name is text, never markup
    assert 'data-propose="2"' in html and 'data-label="Attack &lt;Orc&gt; 1"' in html
    assert "Your turn" in html and 'data-turn="true"' in html and "Blessed (2 rounds left)" in html


def test_no_pc_no_part_of_its_own():
    html = phones_markup.phone_page({"table": TABLE, "me": None})
    assert "phone-me" not in html and "table-view" in html


def test_the_faces_asked_are_one_field_per_die_within_its_sides():
    me = dict(ME, ask={"id": 4, "sides": 6, "count": 2, "words": "2d6 damage"}, options=[])
    html = phones_markup.phone_page({"table": TABLE, "me": me})
    assert html.count('data-testid="phone-face"') == 2 and 'max="6"' in html and 'data-faces="4"' in html
    assert "Roll 2d6 damage" in html


def test_the_dialog_lists_phones_their_pc_and_the_warnings_as_text():
    html = phones_markup.dialog("http://x/phone.html#abc", "<svg></svg>", "bad <code>",
                                [{"id": 1, "pc": "brak", "status": "connected"}], [("brak", "Brak"), ("mira", "Mira")],
                                ["Phone 1 (Brak): refused <script>"])
    assert "<svg></svg>" in html  # the QR code, drawn by the pinned library
    assert "bad &lt;code&gt;" in html and "refused &lt;script&gt;" in html
    assert '<option value="brak" selected>Brak</option>' in html and 'data-action="phone-drop:1"' in html


def test_the_settings_show_behind_their_button_with_the_values_kept():
    closed = phones_markup.dialog("", "", "", [], [], [], "stun:a.example:3478", True, settings_shown=False)
    assert 'data-testid="phones-settings"' in closed and "phones-stun" not in closed
    shown = phones_markup.dialog("", "", "", [], [], [], "stun:a.example:3478", True, settings_shown=True)
    assert 'value="stun:a.example:3478"' in shown and 'data-action="phones-direct" checked' in shown


def test_the_party_to_pick_from_is_one_button_per_pc_its_name_as_text():
    html = phones_markup.phone_page({"table": TABLE, "me": ME, "party": [{"id": "mira", "name": "<i>Mira</i>"}]})
    assert 'data-claim="mira"' in html and "&lt;i&gt;Mira&lt;/i&gt;" in html and "Not &lt;b&gt;Brak" in html
    assert html.index('data-testid="phone-party"') < html.index('data-testid="phone-me"')  # in sight at pairing
    alone = phones_markup.phone_page({"table": TABLE, "me": None, "party": [{"id": "mira", "name": "Mira"}]})
    assert "Which character is yours?" in alone
    assert "phone-party" not in phones_markup.phone_page({"table": TABLE, "me": ME, "party": []})


def test_a_phone_whose_connection_is_gone_gets_its_new_code_in_one_tap_named_for_its_pc():
    rows = [{"id": 1, "pc": "brak", "status": "gone: the phone left", "lost": True},
            {"id": 2, "pc": "mira", "status": "connected", "lost": False}]
    html = phones_markup.dialog("", "", "", rows, [("brak", "<b>Brak</b>"), ("mira", "Mira")], [])
    assert "&lt;b&gt;Brak&lt;/b&gt;&#x27;s phone is back? New code" in html  # its name as text
    assert html.count("phone is back?") == 1 and 'data-action="phone-again:1"' in html
