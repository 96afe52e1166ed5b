"""What the phones' journey (tests/e2e/test_phones.py) and bench (tests/bench/phones_bench.py) share: the fight."""
from __future__ import annotations

from dataclasses import replace

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples, get

NOTE = "Referee only: the orc carries the vault key"


def fight_link() -> str:
    """OLOG's two orcs with a second PC (Mira) and a note on Orc 1, initiative rolled: Brak acts."""
    enc = examples("olog")["two_orcs"](1)
    brak = enc.combatants[0]
    cs = (brak, replace(brak, id="mira", name="Mira")) + tuple(
        replace(c, notes=NOTE) if c.id == "orc1" else c for c in enc.combatants[1:])
    s = Session(replace(enc, combatants=cs), get("olog"))
    s.act(s.ruleset.options(s.state, "brak")[0].command)
    assert s.current() == ("brak",)
    return storage.encode_link(s)
