"""The messages between the referee's page and a player's phone, and the checks every phone message passes.

A phone is untrusted (docs/PHONES.md). Each message it sends is JSON text of at most `MAX_BYTES`
(`read`: shape and size), at most `RATE` of them in `WINDOW` seconds (`Rate`), and it may only
give the faces its own PC was asked for or propose one of its own PC's options while that PC acts
(`judge`); a phone whose PC is not settled may claim one free PC of the party, once per pick. Whatever fails is refused with a sentence the referee sees, and changes nothing. A join
code (the token an offer carries and its answer echoes) works once (`Codes`). What the referee
sends is built here too (`message`). Pure: tested under CPython (tests/unit/test_phone_protocol.py).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Iterable

from .phone_view import Ask

VERSION = 1
MAX_BYTES = 1024  # a phone's message: faces or a choice are a few dozen bytes
RATE, WINDOW = 12, 3.0  # at most RATE messages from one phone in WINDOW seconds
FROM_PHONE = ("hello", "faces", "propose", "claim")
TO_PHONE = ("view", "refused", "bye")
MAX_FACES = 20


@dataclass(frozen=True)
class Verdict:
    """What a phone's message comes to: `kind` "hello", "faces" (`faces` for `ask`), "propose" (`option`,
    `label`), "claim" (`pc`, the PC its player picked) or "refused" with `why`."""
    kind: str
    why: str = ""
    faces: tuple[int, ...] = ()
    option: int = -1
    label: str = ""
    pc: str = ""


def refused(why: str) -> Verdict:
    return Verdict("refused", why)


def message(kind: str, **fields: Any) -> str:
    """A message to a phone, as JSON text: {"fray": "phone", "v": VERSION, "type": kind, ...}."""
    if kind not in TO_PHONE:
        raise ValueError(f"no message {kind!r} to a phone")
    return json.dumps({"fray": "phone", "v": VERSION, "type": kind, **fields}, separators=(",", ":"))


def read(raw: Any) -> tuple[dict[str, Any] | None, str]:
    """A phone's message checked for shape and size, or None and why it is refused."""
    if not isinstance(raw, str):
        return None, "a message that is not text"
    if len(raw.encode("utf-8", "replace")) > MAX_BYTES:
        return None, f"a message over {MAX_BYTES} bytes"
    try:
        msg = json.loads(raw)
    except ValueError:
        return None, "a message that is not JSON"
    if not isinstance(msg, dict) or msg.get("fray") != "phone":
        return None, "a message that is not Fray's"
    if msg.get("v") != VERSION:
        return None, f"a message of version {str(msg.get('v'))[:10]!r}; this page reads {VERSION}"
    kind = msg.get("type")
    if kind not in FROM_PHONE:
        return None, f"a message of unknown type {str(kind)[:20]!r}"
    if "pc" in msg and not isinstance(msg["pc"], str):
        return None, "a message whose PC is not a name"
    if kind == "faces":
        faces = msg.get("faces")
        if not isinstance(msg.get("ask"), int) or not isinstance(faces, list) or not 1 <= len(faces) <= MAX_FACES \
                or not all(type(f) is int for f in faces):
            return None, "faces that are not a list of whole numbers for a question"
    if kind == "propose" and (type(msg.get("option")) is not int or not isinstance(msg.get("label"), str)):
        return None, "a proposal without an option number and label"
    if kind == "claim" and not msg.get("pc"):
        return None, "a claim that names no PC"
    return msg, ""


@dataclass(frozen=True)
class Rate:
    """When a phone's last messages came: at most RATE in any WINDOW seconds."""
    times: tuple[float, ...] = ()

    def take(self, now: float) -> tuple["Rate", bool]:
        """This rate with one more message at `now`, and whether that one is within the limit
        (a refused message counts too: a flood stays refused until it stops)."""
        recent = tuple(t for t in self.times if now - t < WINDOW)[-RATE:] + (now,)
        return Rate(recent), len(recent) <= RATE


@dataclass(frozen=True)
class Seat:
    """A paired phone: its number, the PC it belongs to (a combatant id, "" for none yet), whether its player
    may still pick the PC from the party's list (`picking`: once per pick; the referee's choice settles it)
    and its rate."""
    id: int
    pc: str = ""
    rate: Rate = Rate()
    picking: bool = True


def judge(seat: Seat, msg: dict[str, Any], pc_name: str, ask: Ask | None,
          offered: Iterable[tuple[int, str]], free: Iterable[str] = ()) -> Verdict:
    """What a checked message (`read`) from `seat`'s phone may do now: `ask` is the question the
    referee's page waits on (None: none), `offered` the PC's options a phone may propose
    (views/phone_view.py `proposable`), `free` the PCs it may claim (shown, no other phone's),
    `pc_name` its PC's name for the sentences."""
    kind = msg["type"]
    if kind == "hello":
        return Verdict("hello")
    if kind == "claim":
        if not seat.picking:
            return refused("a second pick of its PC: the referee changes it in the Phones list")
        if msg["pc"] not in free:
            return refused(f"a claim of {msg['pc'][:40]!r}, not a PC of the party free to pick")
        return Verdict("claim", pc=msg["pc"])
    if not seat.pc:
        return refused("the phone has no PC yet: pick one in the Phones list")
    named = msg.get("pc", seat.pc)
    if named != seat.pc:
        return refused(f"{kind} for {named[:40]!r}, not for this phone's PC {pc_name}")
    if kind == "faces":
        if ask is None or ask.pc != seat.pc:
            return refused(f"faces for {pc_name} when none were asked")
        if msg["ask"] != ask.id:
            return refused(f"faces for an earlier question to {pc_name}")
        faces = tuple(msg["faces"])
        if len(faces) != ask.count or not all(1 <= f <= ask.sides for f in faces):
            return refused(f"faces that are not {ask.words()} (each 1 to {ask.sides})")
        return Verdict("faces", faces=faces)
    for index, label in offered:
        if index == msg["option"] and label == msg["label"]:
            return Verdict("propose", option=index, label=label)
    return refused(f"a proposal that is not one of {pc_name}'s options now")


def receive(seat: Seat, raw: Any, now: float, pc_name: str, ask: Ask | None,
            offered: Iterable[tuple[int, str]], free: Iterable[str] = ()) -> tuple[Seat, Verdict]:
    """One raw message from a phone through every check: rate, then shape and size, then `judge`."""
    rate, within = seat.rate.take(now)
    seat = replace(seat, rate=rate)
    if not within:
        return seat, refused(f"too many messages (over {RATE} in {WINDOW:g} s)")
    msg, problem = read(raw)
    if msg is None:
        return seat, refused(problem)
    return seat, judge(seat, msg, pc_name, ask, offered, free)


@dataclass(frozen=True)
class Codes:
    """Join codes: the tokens of offers made (`issued`) and of those a phone has joined with (`used`)."""
    issued: frozenset[bytes] = frozenset()
    used: frozenset[bytes] = frozenset()

    def issue(self, token: bytes) -> "Codes":
        return replace(self, issued=self.issued | {token})

    def use(self, token: bytes) -> tuple["Codes", str]:
        """These codes with `token` used, or unchanged and why it cannot join."""
        if token in self.used:
            return self, "this join code has been used: a phone has joined with it already"
        if token not in self.issued:
            return self, "this answer is not to an offer of this page (it was made for another tab or earlier)"
        return replace(self, used=self.used | {token}), ""
