"""OLOG's commands: what the page sends for a turn's actions and the referee's order changes (OLOG-*).

Each is a frozen command registered under "olog" so save files can name it;
`press_on` is the answer to "press on?" asked before any die is rolled
(OLOG-PRES-2). The rules that give them meaning are in `check` and `resolve`.
"""
from __future__ import annotations

from ...engine.commands import command
from .pressure import zone_name


@command("olog")
class RollInitiative:
    """Roll the PCs' counts and set the NPCs' (OLOG-INIT-1, OLOG-INIT-2); starts round 1."""


@command("olog")
class Move:
    """Move one zone toward or away (OLOG-MOVE-1)."""

    actor: str
    band: int
    press_on: bool | None = None

    def label(self) -> str:
        return f"Move to {zone_name(self.band)}"


@command("olog")
class Attack:
    """One attack with the named attack (OLOG-ATK-1)."""

    actor: str
    target: str
    weapon: str
    press_on: bool | None = None
    then_end: bool = False  # the turn's last useful act: the turn ends with it, in the same tap (OLOG-ACT-1)

    def label(self) -> str:
        return f"Attack {self.target} with {self.weapon}" + (", then end turn" if self.then_end else "")


@command("olog")
class Defend:
    """+2 AC until the actor's next turn, +4 with a shield in hand (OLOG-DEF-1)."""

    actor: str
    press_on: bool | None = None


@command("olog")
class CastSpell:
    """Cast a spell, named as text; the referee narrates its effect (OLOG-SPELL-1, extended)."""

    actor: str
    spell: str = ""
    press_on: bool | None = None
    targets: tuple[str, ...] = ()  # a spell with an effect (engine/spells.py): on whom it takes it

    def label(self) -> str:
        return f"Cast {self.spell or 'a spell'}"


@command("olog")
class Retrieve:
    """Take an item from the pack into a hand, swapping what the hand held (OLOG-ITEM-1).
    `hand` -1 means the first empty hand."""

    actor: str
    item: str
    hand: int = -1
    press_on: bool | None = None

    def label(self) -> str:
        return f"Retrieve {self.item}"


@command("olog")
class Strategise:
    """Move the actor's own count 1d6 "up" or "down" from next round (OLOG-STRAT-1)."""

    actor: str
    direction: str = "up"
    press_on: bool | None = None

    def label(self) -> str:
        return f"Strategise ({self.direction})"


@command("olog")
class EndTurn:
    """End the turn, with any actions left unused (OLOG-ACT-1)."""

    actor: str
    auto: bool = False  # taken by the app when nothing but ending the turn is allowed (Olog.after_step)

    def chained(self) -> bool:
        return self.auto


@command("olog")
class SetCount:
    """Referee: set a combatant's count now (OLOG-INIT-3, CORE-REF-1)."""

    target: str
    count: int

    def label(self) -> str:
        return f"Set count to {self.count}"


@command("olog")
class Reorder:
    """Referee: the order of all combatants, as dragged; only ties may change (OLOG-INIT-4)."""

    order: tuple[str, ...]


# The actions of a turn, and the kind each counts as for "not the same action twice" (OLOG-ACT-2).
ACTIONS = (Move, Attack, Defend, CastSpell, Retrieve, Strategise, EndTurn)
KIND = {Move: "move", Attack: "attack", Defend: "defend", CastSpell: "cast", Retrieve: "retrieve",
        Strategise: "strategise"}
PAST_TENSE = {"move": "moved", "attack": "attacked", "defend": "defended", "cast": "cast a spell",
              "retrieve": "retrieved an item", "strategise": "strategised"}
