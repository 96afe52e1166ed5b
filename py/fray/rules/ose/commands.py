"""OSE commands: what an actor (or the referee, REF) asks for, registered under "ose" so save files name them.

Each is a frozen dataclass; its docstring cites the rule it requests. The
label is the class name in words unless the words need the fields.
"""
from __future__ import annotations

from ...engine.commands import command
from .state import Path

NS = "ose"


@command(NS)
class Surprise:
    """REF (OSE-SUR-1): mark a side surprised (or not) before round 1's initiative."""

    side: str
    on: bool = True

    def label(self) -> str:
        return f"Mark {self.side} {'surprised' if self.on else 'not surprised'}"


@command(NS)
class Declare:
    """OSE-DECL-1: a pre-initiative declaration ("spell", "full_defense", "brace" or "none")."""

    actor: str
    action: str
    spell: str = ""

    def label(self) -> str:
        return f"Declare {self.spell or self.action}"


@command(NS)
class RollInitiative:
    """OSE-INIT-1: lock the declarations and roll 1d12 per side (none in a surprise round)."""

    actor: str = ""


@command(NS)
class Done:
    """The actor is done with the current step (detailed) or its turn (loose)."""

    actor: str


@command(NS)
class EndStep:
    """End the current step (detailed) or turn (loose) for every actor of the acting side."""

    actor: str = ""
    auto: bool = False  # taken by the page: a MOVE step where everyone is engaged (OseRuleset.after_step)

    def chained(self) -> bool:
        return self.auto


@command(NS)
class Move:
    """OSE-MOVE-1 / OSE-AOO-1..2: move along `path` (starting at the actor's square)."""

    actor: str
    path: Path = ()


@command(NS)
class Withdraw:
    """OSE-WD-1 (Main): move with the first square left unthreatened, +2 AC against AoO."""

    actor: str
    path: Path = ()


@command(NS)
class Flee:
    """OSE-FLEE-1: leave the map; the referee controls the actor from now on."""

    actor: str


@command(NS)
class Charge:
    """OSE-CHARGE-1 (Full Round): charge the nearest enemy `target` along `path`
    (the squares entered, checked like a move) and attack it with `weapon`.
    An empty target or path means the engine's: the nearest enemy by movement
    and the least movement into the weapon's reach (files saved before these
    fields name neither)."""

    actor: str
    weapon: str = ""
    target: str = ""
    path: tuple[tuple[int, int], ...] = ()


@command(NS)
class Attack:
    """OSE-ATK-1: a melee or ranged attack; `edge` is a referee's "adv" or "dis" (OSE-ADV-1)."""

    actor: str
    target: str
    weapon: str = ""
    edge: str = ""

    def label(self) -> str:
        return f"Attack {self.target}"


@command(NS)
class CompleteSpell:
    """OSE-SPELL-2: complete the declared spell now; turned undead among `targets` stop fleeing."""

    actor: str
    targets: tuple[str, ...] = ()
    note: str = ""
    concentration: bool = False


@command(NS)
class CancelSpell:
    """OSE-SPELL-2: cancel the declared spell (slot still lost, OSE-SPELL-5: out of memory); the caster may act otherwise."""

    actor: str


@command(NS)
class Opportunity:
    """OSE-AOO-4: the threatening enemy's answer before a provoked attack (or a brace strike,
    OSE-BRACE-1) resolves: "attack" (the default), "decline", or "stunt" in lieu of the attack
    (resolved as the referee rules, REF)."""

    actor: str
    answer: str = "attack"
    weapon: str = ""  # "attack": which of its attacks ("" = the suggested one)

    def label(self) -> str:
        return {"attack": "Attack", "decline": "Let go", "stunt": "Stunt instead"}.get(self.answer, self.answer)


@command(NS)
class CheckMorale:
    """REF (OSE-MORALE-2): a morale check for `side` now, whatever the round; 2d6 against its score."""

    side: str

    def label(self) -> str:
        return "Check morale"


@command(NS)
class RestoreMemory:
    """REF (OSE-SPELL-5): between fights the target's memory is restored to the spells it was set up with."""

    target: str

    def label(self) -> str:
        return "Restore memory"


@command(NS)
class DisruptSpell:
    """REF (OSE-SPELL-3): violent motion, silence or a grapple breaks the target's spell."""

    target: str
    reason: str = ""

    def label(self) -> str:
        return "Spell disrupted"


@command(NS)
class Manipulate:
    """OSE-MANIP-1: "draw" or "stow" an item, "drop" it, or "other" (open a door, hand over...)."""

    actor: str
    action: str
    item: str = ""
    note: str = ""

    def label(self) -> str:
        return f"{self.action.capitalize()} {self.item}".strip()


@command(NS)
class Grapple:
    """OSE-GRAP-1: an opposed check to "grab" the target or "escape" its hold."""

    actor: str
    target: str
    intent: str = "grab"

    def label(self) -> str:
        return f"Grapple ({self.intent})"


@command(NS)
class Release:
    """Let go of a creature the actor holds (resets the pin count, OSE-GRAP-1)."""

    actor: str
    target: str


@command(NS)
class TurnUndead:
    """OSE-TURN-1..4: the Warpriest turns the undead of `group`."""

    actor: str
    group: str

    def label(self) -> str:
        return "Turn Undead"


@command(NS)
class Narrate:
    """Any other action, narrated; `uses` is "main", "move", "full" or "free" (OSE-ECON-1, OSE-LOOSE-1)."""

    actor: str
    text: str = ""
    uses: str = "main"

    def label(self) -> str:
        return "Other action"


@command(NS)
class Splinter:
    """Answer to OSE-SSBS-1: splinter the shield and take no damage, or keep it and roll damage."""

    actor: str
    splinter: bool

    def label(self) -> str:
        return "Splinter the shield" if self.splinter else "Keep the shield"


@command(NS)
class MoraleResult:
    """REF answer to a failed morale check (OSE-MORALE-1): "flee", "surrender" or "fight on"."""

    actor: str
    side: str
    result: str

    def label(self) -> str:
        return f"{self.side}: {self.result}"


@command(NS)
class RollResource:
    """OSE-RES-1: roll a combatant's usage die for `item` (ammunition by default)."""

    target: str
    item: str = "ammo"

    def label(self) -> str:
        return f"Roll usage die ({self.item})"
