"""The players' phones on the referee's side: pairing, the Phones dialog's handlers, each phone's messages judged.

"Phones" opens the dialog and makes an offer at once (a QR code and a link, `fray.pairing`); the phone's
answer, pasted, joins it (once: `Codes`). The connections themselves are static/phones/referee.mjs's,
loaded on first use (ui/dom/phones_link.py); everything decided is decided here, in Python, on the page's
`Phones` (ui/desk/phones.py). The handlers draw nothing: after each one the dialog is drawn and each connected
phone sent its view by ui/page/phones_slot.py. Each message from a phone goes through views/phone_protocol.py;
faces go through the same path as faces typed in the dice dialog, and a proposal waits for the referee's tap,
which chooses the option as a tap on the action panel does. Refusals are shown to the referee.
"""
from __future__ import annotations

import asyncio
import os
import re
import time
from dataclasses import replace
from typing import Any

from pyscript import window

from . import play
from .actions import Actions
from ..desk.desk import Desk
from ..desk.phones import (DIRECT_ITEM, STUN_ITEM, ask as _ask, name_of as _name, offered as _offered, party,
                           pc_names, phones)
from ..dom.phones_link import load, store as _store
from ..dom.table_channel import load_css

clicks = Actions("click")
forms = Actions("form")
changes = Actions("change")
CSS = "./static/css/phones.css"
WARNINGS = 8  # the last refusals the dialog lists
STUN = re.compile(r"stuns?:[A-Za-z0-9.\-]{1,200}(:\d{1,5})?")


# --- the dialog and the pairing ---------------------------------------------------------------------

@clicks("phones")
def open_dialog(desk: Desk, name: str, arg: str, target) -> None:
    p = phones(desk)
    p.open = True
    load_css(CSS, "phones-css")
    if not p.pending:
        new_offer(desk)


@clicks("phones-close")
def close_dialog(desk: Desk, name: str, arg: str, target) -> None:
    phones(desk).open = False


@clicks("phones-new")
def another(desk: Desk, name: str, arg: str, target) -> None:
    new_offer(desk)


def new_offer(desk: Desk, n: int = 0) -> None:
    """An offer for the next phone (or for phone `n` again): its connection made in the browser, then shown
    as a code."""
    p = phones(desk)
    if not n:
        n = p.next_id
        p.next_id += 1
    token = os.urandom(4)  # a name for this offer, not a roll: the dice stay in engine/dice.py
    p.codes = p.codes.issue(token)
    p.pending[n] = token
    p.offer, p.qr, p.problem = (n, ""), "", ""
    asyncio.ensure_future(_make_offer(desk, n, token))


async def _make_offer(desk: Desk, n: int, token: bytes) -> None:
    from ...pairing import PairingError, from_sdp, pack
    try:
        js = await _api(desk)
        stun = phones(desk).stun
        sdp = await js.offer(n, stun or None)  # no STUN server by default: the local network only
        code = pack(from_sdp(str(sdp), "offer", token))
    except PairingError as exc:
        desk.run(lambda d: _say(d, f"No code could be made: {exc}. The table display works without a network."))
        return
    except Exception as exc:  # no WebRTC in this browser, or it refused
        desk.run(lambda d: _say(d, f"This browser cannot connect to phones ({exc}). The table display works "
                                   "without one."))
        return
    href = str(window.location.href).split("#")[0].split("?")[0]
    import urllib.parse  # not at start-up: a standard module the page's first zip leaves out (PERF-NOTES)
    query = "?stun=" + urllib.parse.quote(stun, safe=":") if stun else ""
    url = href[:href.rfind("/") + 1] + "phone.html" + query + "#" + code

    def shown(d: Desk) -> None:
        p = phones(d)
        if p.offer[0] == n:
            p.offer, p.qr = (n, url), str(p.js.qr(url))
    desk.run(shown)


def _say(desk: Desk, problem: str) -> None:
    phones(desk).problem = problem


async def _api(desk: Desk) -> Any:
    p = phones(desk)
    if p.js is None:
        p.js = await load(lambda n, text: desk.run(lambda d: on_message(d, n, text)),
                          lambda n, state, detail: desk.run(lambda d: on_state(d, n, state, detail)))
    return p.js


@forms("phone-answer")
def answer(desk: Desk, arg: str, values: dict[str, str], op: str, form) -> None:
    """The phone's answer pasted."""
    join(desk, values.get("answer", ""))


@clicks("phones-scan")
def scan(desk: Desk, name: str, arg: str, target) -> None:
    """The phone's answer read by this device's camera (static/phones/referee.mjs `scan`)."""
    phones(desk).problem = ""
    asyncio.ensure_future(_scan(desk))


async def _scan(desk: Desk) -> None:
    try:
        text = str(await (await _api(desk)).scan())
    except Exception as exc:  # refused, no camera, or stopped
        why = str(exc).removeprefix("Error: ")
        if why != "stopped":
            desk.run(lambda d: _say(d, f"The camera cannot read a code: {why}. Paste the phone's code instead."))
        return
    desk.run(lambda d: join(d, text))


def join(desk: Desk, text: str) -> None:
    """A phone's answer, pasted or scanned: joined once, to the offer it answers, with its PC picked."""
    from ...pairing import PairingError, to_sdp, unpack
    p = phones(desk)
    try:
        got = unpack(text.rsplit("#", 1)[-1])
    except PairingError as exc:
        p.problem = f"That code cannot join: {exc}."
        return
    if got.kind != "answer":
        p.problem = "That is this page's own offer: paste the code the phone shows."
        return
    codes, why = p.codes.use(got.token)
    if not why and got.token not in p.pending.values():
        why = "this code was replaced by a newer one: scan the code shown now"
    if why:
        p.problem = f"That code cannot join: {why}."
        _warn(desk, f"Refused a join: {why}")
        return
    p.codes = codes
    n = next(k for k, t in p.pending.items() if t == got.token)
    del p.pending[n]
    from ...views.phone_protocol import Seat
    if n not in p.seats:  # a phone back with a new code keeps its PC
        taken = {s.pc for s in p.seats.values()}
        p.seats[n] = Seat(n, next((cid for cid, _ in pc_names(desk) if cid not in taken), ""))
    p.status[n] = "connecting…"
    p.problem = ""
    asyncio.ensure_future(_accept(desk, n, to_sdp(got)))
    new_offer(desk)  # the next phone's code, ready


async def _accept(desk: Desk, n: int, sdp: str) -> None:
    try:
        await phones(desk).js.accept(n, sdp)
    except Exception as exc:
        desk.run(lambda d: on_state(d, n, "failed", f"the browser refused the answer ({exc})"))


def on_state(desk: Desk, n: int, state: str, detail: str) -> None:
    p = phones(desk)
    if n not in p.seats:
        return
    p.status[n] = {"open": "connected", "closed": f"gone: {detail}",
                   "interrupted": "interrupted: waiting for it to come back…"}.get(state, f"no connection: {detail}")
    who = _name(desk, p.seats[n].pc) or f"Phone {n}"
    if state == "failed":
        desk.notify(f"Phone {n} could not connect: {detail}. The table display works without a network.", "error")
    elif state == "closed":
        desk.notify(f"{who}'s phone left ({detail}). When it is back: Phones, then \"{who}'s phone is back? New "
                    "code\".", "info")
    if state != "interrupted":  # an interrupted channel that comes back has lost nothing: it is sent only changes
        p.sent.pop(n, None)


@changes("phone-pc")
def pick_pc(desk: Desk, arg: str, target) -> None:
    p = phones(desk)
    n = int(arg) if arg.isdigit() else -1
    if n in p.seats:  # the referee's choice settles it; "no PC yet" lets the player pick again
        pc = str(target.value)
        p.seats[n] = replace(p.seats[n], pc=pc, picking=not pc)


@clicks("phone-again")
def again(desk: Desk, name: str, arg: str, target) -> None:
    """A phone that locked, lost the connection or reloaded: a new code for it, its PC kept (one tap, then a scan)."""
    p = phones(desk)
    n = int(arg) if arg.isdigit() else -1
    if n in p.seats:
        for k in [k for k in p.pending if k != n]:  # the code shown is this phone's now
            p.js.drop(k)
            del p.pending[k]
        p.status[n] = "waiting for its new code"
        p.sent.pop(n, None)
        new_offer(desk, n)


@clicks("phone-drop")
def drop(desk: Desk, name: str, arg: str, target) -> None:
    p = phones(desk)
    n = int(arg) if arg.isdigit() else -1
    if n in p.seats:
        from ...views.phone_protocol import message
        p.js.send(n, message("bye"))
        p.js.drop(n)
        for table in (p.seats, p.status, p.sent, p.pending):
            table.pop(n, None)
        if p.proposal and p.proposal[0] == n:
            p.proposal = None
        if p.offer[0] == n:
            new_offer(desk)


# --- a phone's messages -----------------------------------------------------------------------------

def on_message(desk: Desk, n: int, text: Any) -> None:
    """One message from phone `n`, through every check; what passes does what a referee's tap would."""
    from ...views.phone_protocol import message, receive
    p = phones(desk)
    seat = p.seats.get(n)
    if seat is None:
        return
    name = _name(desk, seat.pc)
    seat, verdict = receive(seat, text if isinstance(text, str) else None, time.monotonic(), name, _ask(desk),
                            _offered(desk, seat.pc), [cid for cid, _ in party(desk, n)])
    p.seats[n] = seat
    if verdict.kind == "refused":
        _warn(desk, f"Phone {n} ({name or 'no PC'}): refused {verdict.why}.")
        p.js.send(n, message("refused", why=verdict.why))
    elif verdict.kind == "hello":
        p.sent.pop(n, None)  # send the view again
    elif verdict.kind == "claim":  # the player picked its PC from the party's list: once
        p.seats[n] = replace(seat, pc=verdict.pc, picking=False)
        if p.proposal and p.proposal[0] == n:
            p.proposal = None
        desk.notify(f"Phone {n} is {_name(desk, verdict.pc)}'s now: its player picked it.", "info")
    elif verdict.kind == "faces":
        play._faces(desk, "", {f"f{i}": str(f) for i, f in enumerate(verdict.faces)}, "", None)
    elif verdict.kind == "propose" and p.direct:
        take(desk, n, verdict.option, verdict.label)
    elif verdict.kind == "propose":
        p.proposal = (n, verdict.option, verdict.label)
        desk.notify(f"{name}'s player proposes: {verdict.label}", "info")


def _warn(desk: Desk, text: str) -> None:
    p = phones(desk)
    if not p.warnings or p.warnings[-1] != text:
        p.warnings = (p.warnings + [text])[-WARNINGS:]
    desk.notify(text, "error")


@clicks("phone-apply")
def apply(desk: Desk, name: str, arg: str, target) -> None:
    """The referee applies a phone's proposal."""
    p = phones(desk)
    if p.proposal is not None:
        take(desk, *p.proposal)


def take(desk: Desk, n: int, index: int, label: str) -> None:
    """A phone's proposal applied: the option chosen as a tap on the action panel would, if it still fits."""
    p = phones(desk)
    p.proposal = None
    seat = p.seats.get(n)
    if seat is None or (index, label) not in _offered(desk, seat.pc):
        desk.notify(f"That proposal no longer fits the fight: {label}", "error")
        return
    desk.set(selected=seat.pc)
    play.choose(desk, index)


@forms("phones-stun")
def set_stun(desk: Desk, arg: str, values: dict[str, str], op: str, form) -> None:
    """The STUN server the next codes name, for players on another network ("" for none)."""
    p = phones(desk)
    stun = values.get("stun", "").strip()
    if stun and not STUN.fullmatch(stun):
        p.problem = f"{stun[:60]!r} is not a STUN server: write it as stun:host or stun:host:port."
        return
    p.stun, p.problem = stun, ""
    _store(STUN_ITEM, stun)
    desk.notify(f"New codes name the STUN server {stun}." if stun else "New codes use the local network only.", "ok")
    new_offer(desk)


@clicks("phones-settings")
def toggle_settings(desk: Desk, name: str, arg: str, target) -> None:
    p = phones(desk)
    p.settings = not p.settings


@changes("phones-direct")
def set_direct(desk: Desk, arg: str, target) -> None:
    p = phones(desk)
    p.direct = bool(target.checked)
    _store(DIRECT_ITEM, "yes" if p.direct else "")


@clicks("phone-dismiss")
def dismiss(desk: Desk, name: str, arg: str, target) -> None:
    phones(desk).proposal = None
