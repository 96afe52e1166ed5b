"""Helpers for the OLOG tests: small encounters, loaded dice, and the scripted skirmish save."""
from __future__ import annotations

import pathlib
import sys

if __name__ == "__main__":  # run as a script: import the engine from py/ as the tests do
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "py"))

from fray.engine.dice import ScriptedDice
from fray.engine.model import Weapon, Combatant, Encounter, Side
from fray.engine.session import Session
from fray.rules import olog
from fray.rules.olog import RULESET

PARTY = Side("party", "Party", "#3b6ea8", is_player=True)
FOES = Side("foes", "Foes", "#a83b3b", shape="square")
FRIENDS = Side("friends", "Friends", "#2b8a8a", shape="star", allies=("party",))
THIRD = Side("third", "Bandits", "#8a6d1f", shape="triangle")


def hero(cid: str = "brak", name: str = "Brak", *, band: int = 2, hp: int = 12, ac: int = 14, level: int = 2,
         init_mod: int = 0, damage: str = "1d8", **kw) -> Combatant:
    stats = {"pc": True, "level": level, "init_mod": init_mod, **kw.pop("stats", {})}
    return Combatant(cid, name, PARTY.id, hp, kw.pop("max_hp", hp), ac,
                     kw.pop("weapons", (Weapon("Sword", damage, item="Sword"),)),
                     kw.pop("hands", ("Sword", "")), kw.pop("inventory", ()), stats=stats, band=band, **kw)


def foe(cid: str, name: str = "", *, band: int = 2, hp: int = 6, ac: int = 12, damage: str | None = "1d8",
        side: Side = FOES, init: int | None = None, hd: int = 1, **kw) -> Combatant:
    stats = {"pc": False, "hd": hd, **kw.pop("stats", {})}
    if init is not None:
        stats["init"] = init
    weapons = kw.pop("weapons", (Weapon("Weapon", damage, kind="natural"),) if damage else ())
    return Combatant(cid, name or cid, side.id, hp, kw.pop("max_hp", hp), ac, weapons, stats=stats, band=band,
                     **kw)


def encounter(*combatants: Combatant, settings: dict | None = None, bands: int = 6, seed: int = 1,
              sides: tuple[Side, ...] = (PARTY, FOES, FRIENDS, THIRD)) -> Encounter:
    return Encounter("Test", "olog", tuple(combatants), sides, settings=dict(settings or {}), bands=bands,
                     seed=seed)


def started(*combatants: Combatant, faces: tuple[int, ...] = (), **kw) -> Session:
    """A session past RollInitiative; `faces` are the PCs' d20s in setup order."""
    s = Session(encounter(*combatants, **kw), RULESET)
    s.act(olog.RollInitiative(), ScriptedDice(list(faces)))
    return s


def system(session: Session) -> olog.OlogState:
    return session.state.board


def skirmish_session() -> Session:
    """The saved example docs/examples/olog-skirmish.json: a goblin skirmish
    with a changed setting and a few steps played, including a Press On."""
    from dataclasses import replace
    from fray.rules.olog.examples import skirmish

    enc = skirmish(7)
    enc = replace(enc, settings={**RULESET.default_settings(), "olog_item_middle": "extended"})
    s = Session(enc, RULESET)
    s.act(olog.RollInitiative(), ScriptedDice([10, 12]))  # Brak 13, Mira 14; chief fixed 14
    # Mira (14, PC first in ties) moves up behind Brak, then defends without pressing on
    s.act(olog.Move("mira", 1), ScriptedDice([]))
    s.act(olog.Defend("mira", press_on=False), ScriptedDice([]))  # now within the spear's reach
    # Goblin chief advances into Brak's zone
    s.act(olog.Move("chief", 2), ScriptedDice([]))
    s.act(olog.EndTurn("chief"), ScriptedDice([]))
    # Brak is within the spear-goblin's long reach: presses on to attack it, then defends
    s.act(olog.Move("brak", 2, press_on=True), ScriptedDice([3]))
    s.act(olog.Attack("brak", "gob2", "Sword", press_on=True), ScriptedDice([2, 15, 6]))
    # both actions used, the turn stays open for a free action until Brak ends it (OLOG-ACT-3)
    s.act(olog.EndTurn("brak"), ScriptedDice([]))
    return s


EXAMPLE_PATH = "docs/examples/olog-skirmish.json"


def skirmish_document() -> str:
    """The text of docs/examples/olog-skirmish.json (regenerate with
    `python3 tests/unit/support/olog_support.py` from the checkout after a rules change)."""
    from fray.engine import storage

    return storage.dumps(skirmish_session(), indent=2) + "\n"


if __name__ == "__main__":
    root = pathlib.Path(__file__).resolve().parents[3]
    (root / EXAMPLE_PATH).write_text(skirmish_document(), encoding="utf-8")
    print(f"wrote {EXAMPLE_PATH}")
