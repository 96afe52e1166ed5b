"""The players' table display's view model and markup (views/table_view.py, ui/markup/table_markup.py, docs/TABLE.md):
nothing secret in it (monster HP, hidden combatants, notes, stats, dice behind the screen), declarations per
each system's text, and the channel's messages checked before anything is drawn."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from fray.engine import storage
from fray.engine.commands import Event
from fray.engine.session import Session, Step
from fray.playout import Chooser, choose
from fray.rules import examples, get
from fray.rules.ose import Declare
from fray.ui.markup.table_markup import export_svg, page
from fray.views.table_view import (VERSION, hp_word, message, player_line, player_log, read_message,
                                   table_view, _Secrets)


def view_of(session: Session) -> dict:
    r, enc = session.ruleset, session.encounter
    return table_view(session.state, session.steps, r.info.field_view(enc.profile), r.info.extra_views)


def fight(system: str, example: str, steps: int = 40, hide: str = "", note: str = "", seed: int = 3) -> Session:
    enc = examples(system)[example](seed)
    enc = replace(enc, combatants=tuple(replace(c, hidden=c.id == hide, notes=note) for c in enc.combatants))
    session = Session(enc, get(system))
    rng = Chooser(seed)
    for _ in range(steps):
        if session.state.outcome:
            break
        cmd = choose(session, rng)
        if cmd is None:
            break
        session.act(cmd)
    return session


@pytest.mark.parametrize("hp, max_hp, word", [
    (10, 10, "unhurt"), (11, 10, "unhurt"), (9, 10, "hurt"), (6, 10, "hurt"), (5, 10, "bloodied"),
    (3, 10, "bloodied"), (2, 10, "near death"), (1, 10, "near death"), (0, 10, "down"), (-3, 10, "down")])
def test_a_monsters_hp_is_a_word_at_the_documented_thresholds__CORE_HP_1(hp, max_hp, word):
    assert hp_word(hp, max_hp) == word


def test_hidden_is_saved_only_when_set_and_loads_back():
    enc = examples("olog")["two_orcs"](1)
    enc = replace(enc, combatants=(replace(enc.combatants[1], hidden=True),) + enc.combatants[2:] + enc.combatants[:1])
    doc = storage.encounter_to_json(enc)
    assert [c.get("hidden", False) for c in doc["combatants"]] == [True, False, False]
    assert "hidden" not in doc["combatants"][1]
    problems: list[str] = []
    back, _ = storage.encounter_from_json(doc, problems)
    assert not problems and back.combatants[0].hidden and not back.combatants[1].hidden
    doc["combatants"][1]["hidden"] = "yes"
    storage.encounter_from_json(doc, problems)
    assert any("hidden" in p and "true or false" in p for p in problems)


@pytest.mark.parametrize("system, example, hide", [
    ("olog", "two_orcs", "orc2"), ("ose", "detailed", "o2"), ("ose", "loose", "g2"), ("ogre", "three_vs_three", "o2")])
def test_the_table_never_holds_monster_hp_hidden_names_notes_or_stats__CORE_HP_1(system, example, hide):
    note = "Referee note: the vault key"
    for seed in (1, 2, 3):
        s = fight(system, example, hide=hide if any(c.id == hide for c in examples(system)[example](seed).combatants)
                  else "", note=note, seed=seed)
        view = view_of(s)
        text = json.dumps(view)
        html = page(view) + export_svg(view)
        for blob in (text, html):
            assert note not in blob and "vault" not in blob
            for c in s.state.combatants:
                if c.hidden:
                    assert c.name not in blob, f"hidden {c.name} in the table view"
        for key in ('"ac"', '"stats"', '"notes"', '"weapons"', '"max_hp"'):
            assert key not in text
        pcs = _Secrets(s.state).pcs
        rows = {r["id"]: r for r in view["order"] if r["kind"] == "combatant"}
        pc_hp = {f"{c.hp}/{c.max_hp}" for c in s.state.combatants if c.id in pcs}
        for c in s.state.combatants:
            if c.hidden:
                assert c.id not in rows
            elif c.id in pcs:
                assert rows[c.id]["hp"] == f"{c.hp}/{c.max_hp}"  # PCs: exact HP
            else:
                assert rows[c.id]["hp"] == hp_word(c.hp, c.max_hp)
                if f"{c.hp}/{c.max_hp}" not in pc_hp:  # a PC's own HP may read the same
                    assert not re.search(rf"(?<![\d/-]){c.hp}/{c.max_hp}(?![\d/])", text), (c.name, text)


def test_the_log_for_players_has_no_dice_or_hp_of_monsters_and_nothing_rolled_behind_the_screen__OSE_TURN_3():
    s = fight("olog", "two_orcs", steps=60)
    sec = _Secrets(s.state)
    for i, e in s.log():
        line = player_line(s.state, e, sec, True)
        touches_monster = any(x and x not in sec.pcs for x in (e.actor, e.target))
        if touches_monster and line:
            assert not re.search(r"\d+/\d+ HP|\bd\d+\b|\[\d", line), line
    secret = Event("TurnFailed", "Brak fails to turn the undead: 2d6 [2, 3]", actor="brak", secret=True)
    assert player_line(s.state, secret, sec, True) == ""
    step = Step(None, (), (Event("Noted", "the vault key"), Event("DamageTaken", "Orc 1 takes 4 damage (2/6 HP)",
                                                                  target="orc1", data={"amount": 4})))
    assert player_log(s.state, [step]) == ["Orc 1 is wounded"]


def test_ose_declarations_are_spoken_aloud_so_the_table_shows_them__OSE_DECL_1():
    s = Session(examples("ose")["detailed"](1), get("ose"))
    s.act(Declare("o1", "brace"))
    view = view_of(s)
    assert {"name": "Orc spearman", "text": "Brace"} in view["declarations"]
    assert view["field"] == "grid" and view["grid"]["walls"]


def test_an_ogre_monsters_declaration_shows_when_it_resolves_unless_the_referee_makes_them_public__OGRE_ACT_1():
    s = fight("ogre", "orc_and_pc", steps=80, seed=2)
    found = 0
    for i in range(len(s.steps) + 1):
        state = s.state_at(i)
        orc = next(f for f in state.board.fighters if f.id == "orc")
        if orc.action is None:
            continue
        r = s.ruleset
        quiet = table_view(state, s.steps[:i], "grid", r.info.extra_views)
        lane = next(x for x in quiet["ruler"]["lanes"] if x["id"] == "orc")
        assert all(b["state"] != "pending" or b["kind"] == "stun" for b in lane["bars"])
        assert not [line for line in quiet["log"] if line.startswith("Orc declares")]
        public = replace(state, encounter=replace(state.encounter, settings={**state.settings,
                                                                               "table_declarations": "when declared"}))
        loud = table_view(public, s.steps[:i], "grid", r.info.extra_views)
        lane = next(x for x in loud["ruler"]["lanes"] if x["id"] == "orc")
        assert any(b["state"] == "pending" for b in lane["bars"])
        found += 1
    assert found, "the fight never had the orc's action pending"


def test_messages_of_another_version_or_malformed_are_refused_with_a_reason():
    s = fight("olog", "two_orcs", steps=5)
    good = json.dumps(message("view", view_of(s), 1))
    msg, why = read_message(good)
    assert msg is not None and why == ""
    assert read_message(json.dumps(message("hello")))[0]["type"] == "hello"
    old = json.loads(good)
    old["v"] = VERSION - 1
    for raw in ["{not json", json.dumps(old), None, 42, json.dumps({"fray": "table", "v": VERSION, "type": "view"}),
                json.dumps({"fray": "table", "v": VERSION, "type": "view", "seq": 1, "view": {"name": 3}}),
                json.dumps({"fray": "other"}), json.dumps([1, 2])]:
        msg, why = read_message(raw)
        assert msg is None and why


def test_the_table_markup_escapes_every_name_and_the_export_is_one_svg_document():
    s = fight("ose", "detailed", steps=10)
    view = view_of(s)
    view["name"] = "<img src=x onerror=alert(1)>"
    view["order"][1]["name"] = "<script>x</script>"
    view["sides"][0]["colour"] = "red;background:url(x)"
    html = page(view)
    assert "<img" not in html and "<script>" not in html and "url(x)" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    root = ET.fromstring(export_svg(view))
    assert root.tag.endswith("svg")
    garbage = {"field": "grid", "grid": {"width": "x", "tokens": [{"square": ["a", None]}, 5]}, "order": [None, 3],
               "log": "not a list", "ruler": {"lanes": [{"bars": [{"start": "x"}]}]}}
    assert "table-field" in page(garbage)


def _with_setting(session: Session, key: str, value) -> Session:
    enc = replace(session.encounter, settings={**session.encounter.settings, key: value})
    return Session(enc, session.ruleset)


def test_the_table_shows_the_acting_combatants_odds_only_for_the_sides_the_referee_chose__CORE_ODDS_1():
    from fray.views.table_view import table_odds
    base = Session(examples("olog")["two_orcs"](1), get("olog"))
    figures = [("Attack Orc 1 with Sword (1d8)", "62 % · 4.5 dmg"), ("End turn", ""), ("Defend (+2 AC)", "certain"),
               ("Attack Orc 1 with Sword (1d8)", "62 % · 4.5 dmg")]
    assert table_odds(base.state, "brak", figures) is None, "off by default"
    players = _with_setting(base, "table_odds", "the players' side").state
    odds = table_odds(players, "brak", figures)
    assert odds == {"who": "Brak", "options": [{"label": "Attack Orc 1 with Sword (1d8)",
                                                "figure": "62 % · 4.5 dmg"}]}, \
        "no option with no figure or a certain one, and each once"
    assert table_odds(players, "orc1", [("Attack Brak with Sword (1d8)", "40 %")]) is None, "a monster's: not shown"
    every = _with_setting(base, "table_odds", "every side").state
    assert table_odds(every, "orc1", [("Attack Brak with Sword (1d8)", "40 %")])["who"] == "Orc 1"
    # In the view and on the page, as text.
    view = table_view(players, (), "bands", odds=table_odds(players, "brak", [("<b>Attack</b>", "50 %")]))
    markup = str(page(view))
    assert "&lt;b&gt;Attack&lt;/b&gt;" in markup and "Odds for Brak" in markup and "50 %" in markup


def test_the_table_shows_no_odds_of_a_hidden_combatant_or_naming_one__CORE_ODDS_1():
    from fray.views.table_view import table_odds
    enc = examples("olog")["two_orcs"](1)
    enc = replace(enc, combatants=tuple(replace(c, hidden=True) if c.id == "orc2" else c for c in enc.combatants),
                  settings={**enc.settings, "table_odds": "every side"})
    state = Session(enc, get("olog")).state
    assert table_odds(state, "orc2", [("Attack Brak", "40 %")]) is None
    got = table_odds(state, "brak", [("Attack Orc 2 with Sword", "50 %"), ("Attack Orc 1 with Sword", "55 %")])
    assert [o["label"] for o in got["options"]] == ["Attack Orc 1 with Sword"]


def test_a_message_with_malformed_odds_is_refused__CORE_ODDS_1():
    view = view_of(Session(examples("olog")["two_orcs"](1), get("olog")))
    view["odds"] = "62 %"
    msg, why = read_message(json.dumps(message("view", view, 1)))
    assert msg is None and "odds" in why
