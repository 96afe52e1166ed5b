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


def fight_at_a_pc_attack(system: str, example: str, seed: int = 1) -> tuple[str, str, str]:
    """A seeded playout of the example up to the first moment a PC acts with an attack it may propose from a
    phone: (the share link, the PC's id, the attack's label)."""
    from fray.playout import Chooser, choose
    from fray.views.phone_view import proposable
    from fray.views.table_view import is_pc
    s = Session(examples(system)[example](seed), get(system))
    rng = Chooser(seed)
    for _ in range(200):
        for cid in s.current():
            if is_pc(s.state, s.state.get(cid)):
                attacks = [label for _, label in proposable(s.state, cid, s.ruleset.options(s.state, cid))
                           if label.startswith("Attack")]
                if attacks:
                    return storage.encode_link(s), cid, attacks[0]
        cmd = choose(s, rng)
        assert cmd is not None and not s.state.outcome, "no PC attack in this playout"
        s.act(cmd)
    raise AssertionError("no PC attack in 200 steps")
