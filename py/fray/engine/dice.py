"""Dice: notation, rolls with their faces, and the sources that produce faces.

CORE-DICE-1 notation (`NdS`, `NdS+K`, `NdS-K`, `K`, any S >= 1); CORE-DICE-2
keep-higher/lower of two rolls and minimum results as roll modifiers;
CORE-DICE-3 every roll is a record with its faces. The only module that
touches `random`: a seeded roll is a function of (seed, roll counter), so
undo-then-redo or a replay yields the same faces.
"""
from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass

_NOTATION = re.compile(r"(?:(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?|([+-]?\d+))", re.ASCII)
MAX_TEXT = 40  # characters once trimmed: "100d1000+10000" is 14; longer is not notation
MAX_DICE = 100
MAX_SIDES = 1000
MAX_FLAT = 10000


class DiceError(ValueError):
    """A dice expression that is not valid notation; the message names the text."""


@dataclass(frozen=True)
class DiceExpr:
    """A parsed expression: `count` dice of `sides` faces plus `modifier`."""

    count: int
    sides: int
    modifier: int = 0

    @classmethod
    def parse(cls, text: str) -> "DiceExpr":
        """Parse CORE-DICE-1 notation or raise DiceError naming the text."""
        if not isinstance(text, str):
            raise DiceError(f"{text!r} is not dice notation (expected text like 2d6+1)")
        return _parsed(cls, text)

    @classmethod
    def _parse(cls, text: str) -> "DiceExpr":
        # Trim, then cap the length: the pattern's runs of \s* are quadratic on
        # long blanks, and int() refuses over 4300 digits with a plain ValueError.
        trimmed = text.strip()
        m = _NOTATION.fullmatch(trimmed) if len(trimmed) <= MAX_TEXT else None
        if not m:
            raise DiceError(f'"{_shown(text)}" is not dice notation (expected NdS, NdS+K, NdS-K or K, e.g. 2d6+1)')
        count_s, sides_s, sign, mod_s, flat_s = m.groups()
        if flat_s is not None:
            flat = int(flat_s)
            if abs(flat) > MAX_FLAT:
                raise DiceError(f'"{trimmed}": {flat} is too large (at most {MAX_FLAT})')
            return cls(0, 0, flat)
        count = int(count_s) if count_s else 1
        sides = int(sides_s)
        if count < 1:
            raise DiceError(f'"{trimmed}": roll at least one die')
        if sides < 1:
            raise DiceError(f'"{trimmed}": a die has at least one face')
        if count > MAX_DICE or sides > MAX_SIDES:
            raise DiceError(f'"{trimmed}": at most {MAX_DICE} dice of at most {MAX_SIDES} faces')
        mod = int(mod_s) if mod_s else 0
        if mod > MAX_FLAT:
            raise DiceError(f'"{trimmed}": modifier {mod} is too large')
        return cls(count, sides, -mod if sign == "-" else mod)

    @classmethod
    def die(cls, sides: int, count: int = 1) -> "DiceExpr":
        return cls(count, sides, 0)

    @property
    def is_flat(self) -> bool:
        return self.count == 0

    def plus(self, k: int) -> "DiceExpr":
        return DiceExpr(self.count, self.sides, self.modifier + k)

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier

    def __str__(self) -> str:
        if self.is_flat:
            return str(self.modifier)
        base = f"{self.count}d{self.sides}" if self.count != 1 else f"d{self.sides}"
        if self.modifier > 0:
            return f"{base}+{self.modifier}"
        if self.modifier < 0:
            return f"{base}{self.modifier}"
        return base


@functools.lru_cache(maxsize=512)
def _parsed(cls: type, text: str) -> DiceExpr:
    """The same few expressions are parsed over and over (every attack, every branch of the odds): once each."""
    return cls._parse(text)


def _shown(text: str) -> str:
    """The text as a message quotes it: whole when short, else its start."""
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "..."


def is_dice(text: str) -> bool:
    try:
        DiceExpr.parse(text)
    except DiceError:
        return False
    return True


@dataclass(frozen=True)
class Roll:
    """One roll as the log shows it: what was rolled, every face, the total.

    `keep` is "" for a plain roll, "high"/"low" when the whole expression was
    rolled twice and one kept (CORE-DICE-2); `faces` then holds both sets,
    `kept` the set that counts. `minimum` raised the total when set.
    """

    expr: str
    faces: tuple[int, ...]
    kept: tuple[int, ...]
    total: int
    purpose: str = ""
    keep: str = ""
    minimum: int | None = None
    raised: bool = False

    def describe(self) -> str:
        parts = []
        if self.keep:
            half = len(self.faces) // 2
            a, b = self.faces[:half], self.faces[half:]
            parts.append(f"{self.expr} twice [{_faces(a)}] [{_faces(b)}], {'higher' if self.keep == 'high' else 'lower'} kept")
        elif self.faces:
            parts.append(f"{self.expr} [{_faces(self.faces)}]")
        else:
            parts.append(self.expr)
        if self.raised:
            parts.append(f"raised to minimum {self.minimum}")
        return " ".join(parts) + f" = {self.total}"


def _roll_init(self: Roll, expr: str, faces: tuple[int, ...], kept: tuple[int, ...], total: int, purpose: str = "",
               keep: str = "", minimum: int | None = None, raised: bool = False) -> None:
    """Roll's __init__ as the dataclass makes it, without a frozen setattr per field: the odds make one
    per die of every branch. tests/unit/test_fast_records.py pins it to the generated one."""
    d = self.__dict__
    d["expr"] = expr
    d["faces"] = faces
    d["kept"] = kept
    d["total"] = total
    d["purpose"] = purpose
    d["keep"] = keep
    d["minimum"] = minimum
    d["raised"] = raised


_dataclass_roll_init = Roll.__init__
Roll.__init__ = _roll_init  # type: ignore[method-assign]


def _faces(faces: tuple[int, ...]) -> str:
    return ", ".join(str(f) for f in faces)


class NeedDice(Exception):
    """Physical dice: the referee must type `count` faces of a d`sides` first; `by` is who rolls them (a
    combatant's or a side's id, "" for nobody's): a player's phone is asked for its own PC's."""

    def __init__(self, sides: int, count: int, purpose: str, expr: str, by: str = ""):
        super().__init__(f"roll {count}d{sides} for {purpose or expr}")
        self.sides = sides
        self.count = count
        self.purpose = purpose
        self.expr = expr
        self.by = by


class BadFace(ValueError):
    """A recorded or typed face that a die of that size cannot show."""


class Dice:
    """A source of faces. Subclasses decide where a face comes from; rolling
    logic (keep, minimum, modifiers) is shared so every source logs alike."""

    def __init__(self) -> None:
        self.used: list[int] = []  # every face handed out, in order
        self.rolls: list[Roll] = []  # every roll made, in order
        self.by = ""  # who makes the roll being rolled: a combatant's or a side's id ("" for nobody's)

    def face(self, sides: int, purpose: str, expr: str, remaining: int) -> int:
        raise NotImplementedError

    def _faces(self, count: int, sides: int, purpose: str, expr: str) -> tuple[int, ...]:
        out = []
        for i in range(count):
            f = self.face(sides, purpose, expr, count - i)
            if not 1 <= f <= sides:
                raise BadFace(f"{f} is not a face of a d{sides} ({purpose or expr})")
            self.used.append(f)
            out.append(f)
        return tuple(out)

    def roll(self, expr: DiceExpr | str, purpose: str = "", *, keep: str = "",
             minimum: int | None = None, by: str = "") -> Roll:
        """Roll an expression. keep="high"/"low" rolls it twice and keeps one
        (CORE-DICE-2); minimum raises the total to at least that value. `by` is
        who rolls it (a combatant's or a side's id): MixedDice asks a person for
        the faces of the sides that roll their own."""
        if keep not in ("", "high", "low"):
            raise ValueError(f'keep={keep!r}: expected "high", "low" or ""')
        self.by = by
        e = DiceExpr.parse(expr) if isinstance(expr, str) else expr
        if e.is_flat:
            keep = ""  # a fixed number rolled twice is itself: no "twice [] []" in the log
        text = str(e)
        first = self._faces(e.count, e.sides, purpose, text)
        kept = first
        faces = first
        if keep:
            second = self._faces(e.count, e.sides, purpose, text)
            faces = first + second
            pick = max if keep == "high" else min
            kept = pick(first, second, key=sum)
        total = sum(kept) + e.modifier
        raised = minimum is not None and total < minimum
        if raised:
            total = minimum  # type: ignore[assignment]
        result = Roll(text, faces, kept, total, purpose, keep, minimum, raised)
        self.rolls.append(result)
        return result


class SeededDice(Dice):
    """Software dice: face n is a function of (seed, counter + n)."""

    def __init__(self, seed: int, counter: int = 0) -> None:
        super().__init__()
        self.seed = seed
        self.counter = counter

    def face(self, sides: int, purpose: str, expr: str, remaining: int) -> int:
        rng = random.Random(self.seed * 1_000_003 + self.counter)
        self.counter += 1
        return rng.randint(1, sides)


class ScriptedDice(Dice):
    """Faces given in advance: a replay of recorded faces, loaded dice in tests,
    or physical dice typed by the referee. Running out raises NeedDice."""

    def __init__(self, faces: list[int] | tuple[int, ...] = ()) -> None:
        super().__init__()
        self.queue = list(faces)

    def face(self, sides: int, purpose: str, expr: str, remaining: int) -> int:
        if not self.queue:
            raise NeedDice(sides, remaining, purpose, expr, self.by)
        return self.queue.pop(0)

    @property
    def exhausted(self) -> bool:
        return not self.queue


class MixedDice(Dice):
    """Dice per side (CORE-DICE-3: physical faces, here for some sides only): the rolls of those `by_hand` says roll their own come from the
    faces typed so far (running out raises NeedDice, as ScriptedDice); the others are the app's
    seeded faces, counted on from `counter` only for the app's own, so asking again with more faces
    typed gives the same app faces. Every face, typed or not, is in `used`: a replay needs no more."""

    def __init__(self, seed: int, counter: int, faces: list[int] | tuple[int, ...], by_hand) -> None:
        super().__init__()
        self.app = SeededDice(seed, counter)
        self.typed = ScriptedDice(faces)
        self.by_hand = by_hand

    def face(self, sides: int, purpose: str, expr: str, remaining: int) -> int:
        source = self.typed if self.by_hand(self.by) else self.app
        source.by = self.by
        return source.face(sides, purpose, expr, remaining)
