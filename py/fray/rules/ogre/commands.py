"""Ogre's commands: the referee's set-up steps, declarations, reactions and the answers to prompts.

Each is a frozen, registered command (namespace "ogre") so save files can
name it. `tempo` on a declaration is -1 for a fast action (OGRE-FAST-1), 0
for a normal one, +1 or +2 for taking one or two categories more
(OGRE-SLOW-1).
"""
from __future__ import annotations

from ...engine.commands import command
from ...engine.model import Square


@command("ogre")
class BeforeTheFight:
    """OGRE-SUR-1: each group's best Spot (and Stalk) result; the engine suggests
    the starting distance and who is surprised, the referee may override both
    (`surprised`/`distance_ft` None = take the suggestion)."""

    sides: tuple[str, ...]
    spot: tuple[int, ...]
    stalk: tuple[int, ...] = ()
    ranged: tuple[bool, ...] = ()  # empty: from each group's attacks
    terrain: str = "gentle hills"
    surprised: tuple[str, ...] | None = None
    distance_ft: int | None = None

    def label(self) -> str:
        return "Before the fight: distance and surprise"


@command("ogre")
class RollInitiative:
    """OGRE-INIT-1: every combatant rolls d10 + reaction time; the count starts at 0."""


@command("ogre")
class Advance:
    """Count on to the next segment where something happens (or one segment)."""

    one: bool = False
    auto: bool = False  # taken by the app after the segment's last declaration (the "count_on" setting)

    def label(self) -> str:
        return "Advance one segment" if self.one else "Advance"

    def chained(self) -> bool:
        return self.auto


@command("ogre")
class Attack:
    """OGRE-ATK-1: declare an attack (Standard)."""

    actor: str
    target: str
    weapon: str = ""
    tempo: int = 0

    def label(self) -> str:
        return f"Attack {self.target}"


@command("ogre")
class Move:
    """OGRE-MOVE-1: kind quick | short | move | difficult, along `path` (start square first)."""

    actor: str
    kind: str
    path: tuple[Square, ...] = ()
    tempo: int = 0

    def label(self) -> str:
        return f"Move ({self.kind})"


@command("ogre")
class Withdraw:
    """OGRE-WD-1: a Long move whose start square is not threatened by foes the mover sees."""

    actor: str
    path: tuple[Square, ...] = ()
    tempo: int = 0


@command("ogre")
class Charge:
    """OGRE-CHARGE-1: a Long action: 10 ft or more in a straight line, then one melee attack."""

    actor: str
    target: str
    path: tuple[Square, ...] = ()
    weapon: str = ""
    tempo: int = 0


@command("ogre")
class Act:
    """OGRE-LIST-1: an action of the text's list (a MENU key), with the item it concerns."""

    actor: str
    action: str
    item: str = ""
    target: str = ""
    tempo: int = 0

    def label(self) -> str:
        return self.action.replace("_", " ").capitalize()


@command("ogre")
class Cast:
    """A spell (or any concentration skill): its category, level and target, or the few `targets` ticked
    for a spell whose effect lands on each (issue 53, stop 9; an older file's single `target` still reads);
    a readied counterspell or attack may interrupt it (OGRE-READY-1)."""

    actor: str
    spell: str = "a spell"
    level: int = 0
    category: str = "Standard"
    target: str = ""
    tempo: int = 0
    targets: tuple[str, ...] = ()

    @property
    def on(self) -> tuple[str, ...]:
        """Whom the spell is cast on: the few ticked, else the one target, else nobody named."""
        return self.targets or ((self.target,) if self.target else ())


@command("ogre")
class Delay:
    """OGRE-DELAY-1: declare nothing now; declare at `until` (or at any later segment if None)."""

    actor: str
    until: int | None = None


@command("ogre")
class Ready:
    """OGRE-READY-1: an action (attack | counterspell) that resolves when `trigger` happens."""

    actor: str
    action: str = "attack"
    trigger: str = "attack"
    target: str = ""
    weapon: str = ""


@command("ogre")
class Break:
    """OGRE-BREAK-1: cancel the pending action, losing the elapsed segments, and declare anew."""

    actor: str


@command("ogre")
class React:
    """OGRE-REACT-1: a reaction (e.g. a dodge): resolves at once, penalises the current action."""

    actor: str
    category: str = "Quick"
    what: str = "a reaction"


@command("ogre")
class Trigger:
    """OGRE-READY-1: the referee says a readied action's trigger has happened."""

    actor: str


@command("ogre")
class Stun:
    """OGRE-BREAK-1: a stun breaks the action; the combatant declares again when it recovers."""

    target: str
    segments: int = 10


@command("ogre")
class Opportunity:
    """OGRE-AOO-2, answering a prompt: use "pending" (resolve the pending attack now),
    "new" (a new attack as a reaction; `fast` makes it a Short reaction) or "decline".
    `always` ("me" or "side") keeps a pending or declining answer as the standing one."""

    actor: str
    use: str = "decline"
    weapon: str = ""
    fast: bool = False
    always: str = ""


@command("ogre")
class StandingAnswer:
    """OGRE-AOO-2: the answer the actor ("me") or its side gives every attack of opportunity without being
    asked: "pending" (use the pending attack when it can), "decline", or "" (ask again)."""

    actor: str
    use: str = ""
    scope: str = "me"


@command("ogre")
class Follow:
    """OGRE-FOLLOW-1, answering a prompt: kind quick | short | standard along `path`, or "" to stay."""

    actor: str
    kind: str = ""
    path: tuple[Square, ...] = ()


@command("ogre")
class Counter:
    """OGRE-READY-1, answering a prompt: the readied caster identified the spell; can it counter it?"""

    actor: str
    counter: bool = True


@command("ogre")
class Strike:
    """OGRE-READY-1, answering a prompt: the readied attack's trigger happened; strike now
    (the default) or hold it for a later trigger ("you can use a ready action")."""

    actor: str
    strike: bool = True


DECLARATIONS = (Attack, Move, Withdraw, Charge, Act, Cast, Delay, Ready)
ANSWERS = {"opportunity": Opportunity, "follow": Follow, "counter": Counter, "ready": Strike}
