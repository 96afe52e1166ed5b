"""A phone's view (views/phone_view.py): exactly the table display's public view, plus its own PC's HP,
conditions with time left, turn, the options it may propose and the faces it is asked; nothing secret."""
from __future__ import annotations

import json
from dataclasses import replace

from fray.engine.session import Session
from fray.rules import examples, get
from fray.views.odds import CERTAIN
from fray.views.phone_view import Ask, phone_view, proposable
from fray.views.table_view import table_view


def olog(hide: str = "", note: str = "") -> Session:
    """OLOG's two orcs, initiative rolled: Brak (the PC) acts."""
    enc = examples("olog")["two_orcs"](1)
    enc = replace(enc, combatants=tuple(replace(c, hidden=c.id == hide, notes=note) for c in enc.combatants))
    s = Session(enc, get("olog"))
    s.act(s.ruleset.options(s.state, "brak")[0].command)
    assert s.current() == ("brak",)
    return s


def view(s: Session, pc: str, **kw) -> dict:
    offered = proposable(s.state, pc, s.ruleset.options(s.state, pc))
    return phone_view(s.state, table_view(s.state, s.steps), pc, offered=offered, **kw)


def test_the_phone_gets_exactly_the_table_displays_public_view():
    s = olog()
    assert view(s, "brak")["table"] == table_view(s.state, s.steps)
    table = table_view(s.state, s.steps)
    assert phone_view(s.state, table, "brak")["table"] is table  # handed on, never rebuilt or re-decided


def test_its_own_pc_shows_hp_turn_and_options_with_odds_figures():
    s = olog()
    options = s.ruleset.options(s.state, "brak")
    figures = {options[2].label: "62 % · 4.5 dmg", options[0].label: CERTAIN}
    me = view(s, "brak", figures=figures)["me"]
    brak = s.state.get("brak")
    assert me["name"] == "Brak" and me["hp"] == f"{brak.hp}/{brak.max_hp}" and me["turn"] is True
    labels = [o["label"] for o in me["options"]]
    assert "Attack Orc 1 with Sword (1d8)" in labels and "End turn" in labels
    assert not any(o.needs for o in options if o.label in labels)  # "Cast a spell…", "Set count…" stay the referee's
    by_label = {o["label"]: o for o in me["options"]}
    assert by_label[options[2].label]["figure"] == "62 % · 4.5 dmg"
    assert by_label[options[0].label]["figure"] == ""  # a certain outcome tells nothing
    assert all(options[o["index"]].label == o["label"] for o in me["options"])  # indices of the referee's list


def test_options_naming_a_hidden_combatant_are_never_offered_to_a_phone():
    s = olog(hide="orc2")
    me = view(s, "brak")["me"]
    assert me["options"] and not any("Orc 2" in o["label"] for o in me["options"])
    assert "Orc 2" not in json.dumps(view(s, "brak"))


def test_a_hidden_pc_or_a_monster_gets_no_part_of_its_own():
    assert view(olog(hide="brak"), "brak")["me"] is None
    assert view(olog(), "orc1")["me"] is None
    assert view(olog(), "nobody")["me"] is None


def test_no_options_while_another_acts_and_only_allowed_ones_when_all_act():
    s = olog()
    assert proposable(s.state, "orc1", s.ruleset.options(s.state, "orc1")) == []
    s2 = Session(examples("ose")["loose"](1), get("ose"))  # OSE before initiative: every side acts
    options = s2.ruleset.options(s2.state, "brak")
    offered = proposable(s2.state, "brak", options)
    assert offered and all(options[i].allowed for i, _ in offered)
    assert len(offered) < len(options)  # Cast a spell, Full Defense, Brace are not allowed yet


def test_the_faces_asked_name_the_die_and_what_it_is_for():
    s = olog()
    ask = Ask(3, "brak", 20, 1, "to hit Orc 1")
    me = view(s, "brak", ask=ask)["me"]
    assert me["ask"] == {"id": 3, "sides": 20, "count": 1, "words": "d20 to hit Orc 1"}
    assert me["options"] == []  # the die first: no other choice offered meanwhile
    assert Ask(4, "brak", 6, 2, "damage").words() == "2d6 damage"
    assert view(s, "brak", ask=replace(ask, pc="mira"))["me"]["ask"] is None


def test_no_monster_hp_figure_or_note_reaches_a_phone():
    s = olog(note="SECRET-NOTE")
    text = json.dumps(view(s, "brak"))
    assert "SECRET-NOTE" not in text
    for c in s.state.combatants:
        if c.id != "brak":
            assert f"{c.hp}/{c.max_hp}" not in text


def test_the_party_a_phone_may_pick_from_leaves_its_own_pc_out():
    s = olog()
    v = view(s, "brak", party=[("brak", "Brak"), ("mira", "Mira")])
    assert v["party"] == [{"id": "mira", "name": "Mira"}]
    assert view(s, "", party=[("brak", "Brak")])["party"] == [{"id": "brak", "name": "Brak"}]
    assert view(s, "brak")["party"] == []


def test_an_ose_phone_proposes_its_pcs_declarations_never_the_referees_own_offers():
    s = Session(examples("ose")["detailed"](1), get("ose"))
    labels = [label for _, label in proposable(s.state, "mira", s.ruleset.options(s.state, "mira"))]
    assert {"Cast Sleep (asleep for 10 min)", "Cast Magic Missile (1d6+1 each)", "Full Defense"} <= set(labels)
    assert not [label for label in labels if "surprised" in label]  # the referee's call, not a player's
