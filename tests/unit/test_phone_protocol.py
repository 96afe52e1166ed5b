"""A phone is untrusted (views/phone_protocol.py, docs/PHONES.md): every message is checked for shape, size
and rate, may only give its own PC's asked faces or propose its own PC's options now, and a join code works
once; everything else is refused with a sentence for the referee."""
from __future__ import annotations

import json

import pytest

from fray.views.phone_protocol import (MAX_BYTES, RATE, WINDOW, Codes, Rate, Seat, Verdict, judge, message, read,
                                       receive)
from fray.views.phone_view import Ask

SEAT = Seat(1, "brak")
ASK = Ask(7, "brak", 20, 1, "to hit Orc 1")
OFFERED = [(2, "Attack Orc 1 with Sword (1d8)"), (12, "End turn")]


def raw(kind: str, **fields) -> str:
    return json.dumps({"fray": "phone", "v": 1, "type": kind, **fields})


def verdict(text: str, ask: Ask | None = ASK, seat: Seat = SEAT) -> Verdict:
    return receive(seat, text, 0.0, "Brak", ask, OFFERED)[1]


@pytest.mark.parametrize("text,why", [
    (None, "not text"),
    ("x" * (MAX_BYTES + 1), f"over {MAX_BYTES} bytes"),
    ("{not json", "not JSON"),
    ("[1, 2]", "not Fray's"),
    (json.dumps({"fray": "table", "v": 1, "type": "view"}), "not Fray's"),
    (json.dumps({"fray": "phone", "v": 9, "type": "hello"}), "version"),
    (raw("undo"), "unknown type"),
    (raw("faces", ask=7, faces=[True]), "whole numbers"),
    (raw("faces", ask=7, faces=[12.5]), "whole numbers"),
    (raw("faces", ask=7, faces=[]), "whole numbers"),
    (raw("faces", ask="7", faces=[3]), "whole numbers"),
    (raw("faces", ask=7, faces=list(range(1, 30))), "whole numbers"),
    (raw("propose", option="2", label="x"), "option number"),
    (raw("propose", option=2, label="x", pc=["brak"]), "not a name"),
])
def test_a_malformed_or_oversized_message_is_refused_with_why(text, why):
    msg, problem = read(text)
    assert msg is None and why in problem
    v = verdict(text)
    assert v.kind == "refused" and why in v.why


def test_the_asked_faces_of_its_own_pc_are_taken():
    assert verdict(raw("faces", ask=7, faces=[14], pc="brak")) == Verdict("faces", faces=(14,))
    assert verdict(raw("faces", ask=7, faces=[20])).faces == (20,)


@pytest.mark.parametrize("text,ask,why", [
    (raw("faces", ask=7, faces=[14]), None, "none were asked"),
    (raw("faces", ask=7, faces=[14]), Ask(7, "mira", 20, 1, "to hit"), "none were asked"),
    (raw("faces", ask=6, faces=[14]), ASK, "earlier question"),
    (raw("faces", ask=7, faces=[21]), ASK, "d20 to hit Orc 1 (each 1 to 20)"),
    (raw("faces", ask=7, faces=[0]), ASK, "each 1 to 20"),
    (raw("faces", ask=7, faces=[3, 4]), ASK, "not d20"),
    (raw("faces", ask=7, faces=[14], pc="orc1"), ASK, "not for this phone's PC Brak"),
    (raw("propose", option=2, label="Attack Orc 1 with Sword (1d8)", pc="mira"), ASK, "not for this phone's PC"),
    (raw("propose", option=3, label="Attack Orc 1 with Sword (1d8)"), ASK, "not one of Brak's options"),
    (raw("propose", option=2, label="Attack Orc 2 with Sword (1d8)"), ASK, "not one of Brak's options"),
])
def test_faces_or_choices_not_asked_of_its_own_pc_are_refused(text, ask, why):
    v = verdict(text, ask)
    assert v.kind == "refused" and why in v.why, v


def test_a_proposal_of_its_own_pcs_option_now_is_taken():
    v = verdict(raw("propose", option=12, label="End turn"))
    assert v == Verdict("propose", option=12, label="End turn")


def test_a_phone_with_no_pc_yet_may_only_say_hello():
    seat = Seat(2)
    assert verdict(raw("hello"), seat=seat).kind == "hello"
    assert "no PC yet" in verdict(raw("propose", option=12, label="End turn"), seat=seat).why


def test_a_flood_is_refused_until_it_stops():
    seat, kinds = SEAT, []
    for i in range(RATE + 5):
        seat, v = receive(seat, raw("hello"), i * 0.01, "Brak", None, OFFERED)
        kinds.append(v.kind)
    assert kinds[:RATE] == ["hello"] * RATE and set(kinds[RATE:]) == {"refused"}
    assert "too many messages" in receive(seat, raw("hello"), 0.5, "Brak", None, OFFERED)[1].why
    assert receive(seat, raw("hello"), 0.5 + WINDOW + 0.1, "Brak", None, OFFERED)[1].kind == "hello"
    assert Rate().take(0.0)[1]


def test_a_join_code_works_once():
    codes = Codes().issue(b"abcd")
    codes, problem = codes.use(b"abcd")
    assert not problem
    again, problem = codes.use(b"abcd")
    assert "has been used" in problem and again == codes
    assert "not to an offer of this page" in Codes().use(b"wxyz")[1]


def test_messages_to_a_phone_are_tagged_json():
    assert json.loads(message("refused", why="no")) == {"fray": "phone", "v": 1, "type": "refused", "why": "no"}
    with pytest.raises(ValueError):
        message("undo")


def test_a_phone_claims_a_free_pc_of_the_party_once_per_pick():
    free = ["brak", "mira"]
    seat, v = receive(Seat(2), raw("claim", pc="mira"), 0.0, "", None, (), free)
    assert v == Verdict("claim", pc="mira")
    settled = Seat(2, "mira", picking=False)
    assert "second pick" in receive(settled, raw("claim", pc="brak"), 0.0, "Mira", None, (), free)[1].why


@pytest.mark.parametrize("text,why", [
    (raw("claim", pc="orc1"), "not a PC of the party free to pick"),  # a monster, a hidden or a taken PC
    (raw("claim", pc="<b>x</b>" * 10), "not a PC of the party"),
    (raw("claim"), "names no PC"),
    (raw("claim", pc=""), "names no PC"),
    (raw("claim", pc=3), "not a name"),
])
def test_a_claim_of_a_pc_not_free_to_pick_is_refused(text, why):
    v = receive(Seat(2), text, 0.0, "", None, (), ["mira"])[1]
    assert v.kind == "refused" and why in v.why, v
