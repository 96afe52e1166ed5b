"""Commands (requests), events (facts), and the reasons a command is refused.

A command is a frozen dataclass registered under a namespace ("core" or a
system name) so that save files can name it by type; an event is a fact in
the past tense that the log shows. `Illegal` carries a stable reason code and
a sentence that cites the rule; `Option` is what a panel offers an actor.
"""
from __future__ import annotations

import dataclasses
import enum
import math
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .cache import cached
from .dice import Roll

_REGISTRY: dict[str, dict[str, type]] = {}


class Command:
    """Base of every command. Subclasses are frozen dataclasses made with
    `@command(namespace)`; `actor` is the combatant asking, if any."""

    namespace: ClassVar[str] = "core"

    @property
    def type_name(self) -> str:
        return type(self).__name__

    def label(self) -> str:
        """The class name in words ("RollInitiative" -> "Roll initiative");
        a command overrides it only where the words need its fields."""
        return words(self.type_name)

    def chained(self) -> bool:
        """True for a step the app took by itself right after the one before it (Ruleset.follow_up):
        undo takes the two back together and redo brings them back together."""
        return False


def words(name: str) -> str:
    parts = re.findall(r"[A-Z][a-z]*|[a-z]+|\d+", name)
    return " ".join([parts[0]] + [w.lower() for w in parts[1:]]) if parts else name


def command(namespace: str):
    """Class decorator: make a frozen dataclass command and register it."""

    def wrap(cls):
        if not issubclass(cls, Command):
            # Commands are declared as plain classes; without Command as a base
            # they would have no type_name or label and to_json would not
            # recognise a nested command (Allow), so the class is rebuilt on Command.
            ns = {k: v for k, v in vars(cls).items() if k not in ("__dict__", "__weakref__")}
            bases = tuple(b for b in cls.__bases__ if b is not object) + (Command,)
            cls = type(cls)(cls.__name__, bases, ns)
        cls = dataclass(frozen=True)(cls)
        cls.namespace = namespace
        table = _REGISTRY.setdefault(namespace, {})
        if cls.__name__ in table and table[cls.__name__] is not cls:
            raise TypeError(f"command {namespace}.{cls.__name__} registered twice")
        table[cls.__name__] = cls
        return cls

    return wrap


def command_types(namespace: str) -> dict[str, type]:
    return dict(_REGISTRY.get(namespace, {}))


class CommandFormatError(ValueError):
    """A serialised command that does not fit its type; message names the field."""


@cached(None)
def _field_names(kind: type) -> tuple[str, ...]:
    """A command type's field names (dataclasses.fields is slow)."""
    return tuple(f.name for f in dataclasses.fields(kind))


def to_json(cmd: Command) -> dict[str, Any]:
    """A command as plain JSON data: {"type": name, field: value, ...}."""
    kind = type(cmd)
    out: dict[str, Any] = {"type": kind.__name__}
    for name in _field_names(kind):
        out[name] = _dump(getattr(cmd, name))
    return out


def _dump(value: Any) -> Any:
    if isinstance(value, Command):
        return to_json(value)
    if isinstance(value, tuple):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _dump(v) for k, v in value.items()}
    return value


# Field names a save file may use for a command's field, read as the current ones:
# the weapon a command strikes with may be stored as "attack".
LEGACY_FIELDS = {"attack": "weapon"}


def from_json(data: Any, namespaces: tuple[str, ...], path: str = "command") -> Command:
    """Rebuild a command, checking every field against its type hint."""
    if not isinstance(data, dict):
        raise CommandFormatError(f"{path}: expected an object with a \"type\"")
    if any(old in data and new not in data for old, new in LEGACY_FIELDS.items()):
        data = {LEGACY_FIELDS.get(k, k) if LEGACY_FIELDS.get(k) not in data else k: v for k, v in data.items()}
    name = data.get("type")
    cls = None
    for ns in namespaces:
        cls = _REGISTRY.get(ns, {}).get(name) if isinstance(name, str) else None
        if cls:
            break
    if cls is None:
        shown = repr(name) if isinstance(name, str) and len(name) <= 40 else kind_of(name)
        raise CommandFormatError(f"{path}.type: {shown} is not a command of {', '.join(namespaces)}")
    hints = _hints(cls)
    kwargs = {}
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in data:
        if key != "type" and key not in fields:
            raise CommandFormatError(f"{path}.{key_text(key)}: {name} has no field {key_text(key)!r}")
    for fname, f in fields.items():
        if fname not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise CommandFormatError(f"{path}.{fname}: missing")
            continue
        kwargs[fname] = _load(data[fname], hints[fname], f"{path}.{fname}", namespaces)
    return cls(**kwargs)


@cached(None)
def _hints(cls: type) -> dict[str, Any]:
    # Each class's annotations are read in its own module (Command's
    # ClassVar lives in this one, a system's fields in the system's).
    return typing.get_type_hints(cls)


def _load(value: Any, hint: Any, path: str, namespaces: tuple[str, ...]) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return _check_plain(value, path)
    if origin in (typing.Union, types.UnionType):
        errors = []
        if value is None and type(None) in args:
            return None
        for a in args:
            if a is type(None):
                continue
            try:
                return _load(value, a, path, namespaces)
            except CommandFormatError as exc:
                errors.append(str(exc))
        raise CommandFormatError(errors[0] if errors else f"{path}: unexpected value")
    if origin is tuple:
        if not isinstance(value, list):
            raise CommandFormatError(f"{path}: expected a list, got {kind_of(value)}")
        if len(value) > 10000:
            raise CommandFormatError(f"{path}: too many items ({len(value)})")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_load(v, args[0], f"{path}[{i}]", namespaces) for i, v in enumerate(value))
        if len(value) != len(args):
            raise CommandFormatError(f"{path}: expected {len(args)} items, got {len(value)}")
        return tuple(_load(v, a, f"{path}[{i}]", namespaces) for i, (v, a) in enumerate(zip(value, args)))
    if origin is dict:
        if not isinstance(value, dict):
            raise CommandFormatError(f"{path}: expected an object, got {kind_of(value)}")
        return {str(k): _check_plain(v, f"{path}.{key_text(k)}") for k, v in value.items()}
    if isinstance(hint, type) and issubclass(hint, Command):
        return from_json(value, namespaces, path)
    if hint is bool:
        if not isinstance(value, bool):
            raise CommandFormatError(f"{path}: expected true or false, got {kind_of(value)}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise CommandFormatError(f"{path}: expected a whole number, got {kind_of(value)}")
        if abs(value) > 10**9:
            raise CommandFormatError(f"{path}: {value} is out of range")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise CommandFormatError(f"{path}: expected a number, got {kind_of(value)}")
        if isinstance(value, float) and not math.isfinite(value) or isinstance(value, int) and abs(value) > 10**308:
            # JSON reads 1e400 as infinity, which json.dumps then writes as the
            # non-JSON "Infinity": the file would load once and never again.
            raise CommandFormatError(f"{path}: {kind_of(value)} is not a finite number")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise CommandFormatError(f"{path}: expected text, got {kind_of(value)}")
        if len(value) > 2000:
            raise CommandFormatError(f"{path}: text too long ({len(value)} characters)")
        return value
    raise CommandFormatError(f"{path}: unsupported field type {hint!r}")


def _check_plain(value: Any, path: str, depth: int = 0) -> Any:
    if depth > 8:
        raise CommandFormatError(f"{path}: nested too deeply")
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, str) and len(value) > 2000:
            raise CommandFormatError(f"{path}: text too long")
        if isinstance(value, float) and not math.isfinite(value):
            raise CommandFormatError(f"{path}: {kind_of(value)} is not a finite number")
        return value
    if isinstance(value, list):
        return tuple(_check_plain(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value[:1000]))
    if isinstance(value, dict):
        return {str(k): _check_plain(v, f"{path}.{key_text(k)}", depth + 1) for k, v in list(value.items())[:200]}
    raise CommandFormatError(f"{path}: unexpected {kind_of(value)}")


def key_text(key: Any) -> str:
    """An object key as an error path shows it: a file's keys can be megabytes long."""
    key = str(key)
    return key if len(key) <= 40 else key[:40] + "..."


def kind_of(value: Any) -> str:
    """How an error message names a value of the wrong kind."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        s = repr(value)
        return f"the number {s if len(s) < 24 else s[:20] + '...'}"
    if isinstance(value, str):
        return f'the text "{value[:40]}"'
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


@dataclass(frozen=True)
class Event:
    """A fact for the log, in the past tense (`kind` like "AttackHit").

    `text` is the sentence the log shows; `rule` the rule id(s) applied;
    `rolls` every roll behind it; `data` numbers views may need.
    """

    kind: str
    text: str
    rule: str = ""
    rolls: tuple[Roll, ...] = ()
    actor: str = ""
    target: str = ""
    data: dict[str, Any] = field(default_factory=dict, compare=False)
    secret: bool = False  # rolled secretly by the referee (OSE-TURN-3)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "text": self.text, "rule": self.rule,
            "actor": self.actor, "target": self.target,
            "rolls": [{"expr": r.expr, "faces": list(r.faces), "kept": list(r.kept),
                       "total": r.total, "purpose": r.purpose, "keep": r.keep,
                       "minimum": r.minimum} for r in self.rolls],
            "data": self.data, "secret": self.secret,
        }


_NO_DATA: Any = object()


def _event_init(self: Event, kind: str, text: str, rule: str = "", rolls: tuple[Roll, ...] = (), actor: str = "",
                target: str = "", data: dict[str, Any] = _NO_DATA, secret: bool = False) -> None:
    """Event's __init__ as the dataclass makes it, without a frozen setattr per field: every branch of
    the odds logs a few events (CORE-ODDS-1). tests/unit/test_fast_records.py pins it to the generated one."""
    d = self.__dict__
    d["kind"] = kind
    d["text"] = text
    d["rule"] = rule
    d["rolls"] = rolls
    d["actor"] = actor
    d["target"] = target
    d["data"] = {} if data is _NO_DATA else data
    d["secret"] = secret


_dataclass_event_init = Event.__init__
Event.__init__ = _event_init  # type: ignore[method-assign]


@dataclass(frozen=True)
class Illegal:
    """Why a command cannot be taken: a stable code and a sentence citing the rule.
    `reason` is a `Reason` member (the core's or a system's); they are str
    enums, so a reason still compares equal to its code."""

    reason: str
    detail: str


class Code(str, enum.Enum):
    """A str enum whose members print as their value: the base of every
    reason and phase enum, so a member still compares equal to its code."""

    def __str__(self) -> str:
        return self.value


class Reason(Code):
    """The refusals every system shares. A system adds its own in its own
    `Reason` enum; one meaning has one code (no synonyms)."""

    NO_SUCH_COMBATANT = "NO_SUCH_COMBATANT"   # an id the encounter does not hold
    NO_SUCH_SIDE = "NO_SUCH_SIDE"
    NO_SUCH_WEAPON = "NO_SUCH_WEAPON"         # no weapon or natural attack of that name
    NOT_PLACED = "NOT_PLACED"                 # not on the field or grid
    OUT_OF_RANGE = "OUT_OF_RANGE"             # a number or a distance beyond its limit
    OUT_OF_REACH = "OUT_OF_REACH"             # a target beyond the weapon's reach
    OCCUPIED = "OCCUPIED"
    WALL = "WALL"
    BAD_PATH = "BAD_PATH"
    NO_PATH = "NO_PATH"
    DOWN = "DOWN"                             # the actor is down (CORE-HP-1)
    TARGET_DOWN = "TARGET_DOWN"
    NOT_STARTED = "NOT_STARTED"
    ALREADY_ROLLED = "ALREADY_ROLLED"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    WAITING_FOR_ANSWER = "WAITING_FOR_ANSWER"
    BAD_ANSWER = "BAD_ANSWER"
    UNKNOWN_COMMAND = "UNKNOWN_COMMAND"
    FIGHT_OVER = "FIGHT_OVER"
    NOT_ALLOWED = "NOT_ALLOWED"               # a referee command that does not apply
    INCAPACITATED = "INCAPACITATED"           # asleep, held, helpless...: no action but to pass
    IMMOBILE = "IMMOBILE"                     # entangled...: no movement


class IllegalCommand(Exception):
    """Raised by Session.act when the ruleset refuses a command; nothing changed."""

    def __init__(self, illegal: Illegal):
        super().__init__(illegal.detail)
        self.illegal = illegal


@dataclass(frozen=True)
class Choice:
    """One answer to a question asked before rolling: the command fields it sets."""

    label: str
    values: dict[str, Any]
    detail: str = ""
    key: str = ""


@dataclass(frozen=True)
class Option:
    """An action offered to an actor now. A disallowed option keeps its reason.

    `needs` names fields the page must fill first ("target", "square", "path",
    "band", "value"...); `choices` is a question to ask before any die is
    rolled (UI principle 2), each answer setting some command fields.
    `default` is the choice a tap takes without asking (-1: always ask), for
    a question whose usual answer changes nothing the referee must weigh (an
    Ogre attack at its normal speed); the other answers stay one tap away.
    A combatant's answer to such a question is remembered for its next tap
    unless `remember` is false (OLOG's Press On: pressing on costs hit points,
    so each action starts from the text's default, not pressing on).
    `few` lists the ids the referee may tick a few of for the command's
    `targets` (a spell on several targets, issue 53): one more answer to a
    question whose choices each set `targets`, or the need "few:targets".
    """

    command: Command
    label: str
    allowed: bool = True
    why: str = ""
    reason: str = ""
    group: str = ""
    hint: str = ""
    rule: str = ""
    needs: tuple[str, ...] = ()
    choices: tuple[Choice, ...] = ()
    question: str = ""
    key: str = ""
    default: int = -1
    remember: bool = True
    few: tuple[str, ...] = ()

    def refused(self, illegal: Illegal | None) -> "Option":
        if illegal is None:
            return self
        return dataclasses.replace(self, allowed=False, why=illegal.detail, reason=illegal.reason)
