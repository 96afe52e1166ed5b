"""The players' phones on the referee's side: pairing, the Phones dialog, each phone's view sent, its messages judged.

"Phones" opens the dialog and makes an offer at once (a QR code and a link, `fray.pairing`); the phone's
answer, pasted, joins it (once: `Codes`). The connections themselves are static/phones/referee.mjs's,
loaded on first use; everything decided is decided here, in Python. Before each redraw (`after_redraw`,
fed with the table display: ui/table_channel.py) each connected phone is sent its view (views/phone_view.py: the table display's view
plus its own PC) when it changed. Each message from a phone goes through views/phone_protocol.py; faces go
through the same path as faces typed in the dice dialog, and a proposal waits for the referee's tap,
which chooses the option as a tap on the action panel does. Refusals are shown to the referee.
"""
from __future__ import annotations

import asyncio
import os
import re
import time
import urllib.parse
from dataclasses import dataclass, field, replace
from typing import Any

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none

from . import odds_ui, offers, play, phones_markup, table_link
from .actions import Actions
from .desk import Desk
from .table_channel import load_css

clicks = Actions("click")
forms = Actions("form")
changes = Actions("change")
MODULE = "./static/phones/referee.mjs"
CSS = "./static/css/phones.css"
SLOT = "phones-slot"
WARNINGS = 8  # the last refusals the dialog lists
STUN_ITEM, DIRECT_ITEM = "fray.phones.stun", "fray.phones.direct"  # the referee's settings, in local storage
STUN = re.compile(r"stuns?:[A-Za-z0-9.\-]{1,200}(:\d{1,5})?")


@dataclass
class Phones:
    """The referee's phones: the page holds one, made on the first tap on "Phones"."""
    open: bool = False
    js: Any = None  # static/phones/referee.mjs's api, once loaded
    codes: Any = None  # views/phone_protocol.Codes: join tokens issued and used
    seats: dict[int, Any] = field(default_factory=dict)  # phone number -> phone_protocol.Seat, once joined
    status: dict[int, str] = field(default_factory=dict)  # phone number -> its connection in words
    pending: dict[int, bytes] = field(default_factory=dict)  # an offer made, not answered: number -> its token
    offer: tuple[int, str] = (0, "")  # the offer the dialog shows: its number and link
    qr: str = ""
    problem: str = ""
    warnings: list[str] = field(default_factory=list)
    proposal: tuple[int, int, str] | None = None  # (phone, option index, label) waiting for the referee
    sent: dict[int, str] = field(default_factory=dict)  # what each phone was last sent
    ask: Any = None  # views/phone_view.Ask the referee's page waits on, and the dialog it was made for
    asked_for: Any = None
    asks: int = 0
    seq: int = 0
    next_id: int = 1
    stun: str = ""  # a STUN server for players elsewhere ("": none, the local network only)
    direct: bool = False  # apply a phone's proposal at once, without the referee's tap
    settings: bool = False  # the dialog's settings shown


def phones(desk: Desk) -> Phones:
    if desk.phones is None:
        from ..views.phone_protocol import Codes
        desk.phones = Phones(codes=Codes(), stun=_stored(STUN_ITEM), direct=_stored(DIRECT_ITEM) == "yes")
        if desk.table is not None:  # fed with the table display, before each redraw
            desk.table.followers.append(lambda: after_redraw(desk))
    return desk.phones


def pc_names(desk: Desk) -> list[tuple[str, str]]:
    """The PCs a phone may belong to: those the table display shows."""
    from ..views.table_view import is_pc
    state = desk.session.state
    return [(c.id, c.name) for c in state.combatants if is_pc(state, c) and not c.hidden]


# --- the dialog and the pairing ---------------------------------------------------------------------

@clicks("phones")
def open_dialog(desk: Desk, name: str, arg: str, target) -> None:
    p = phones(desk)
    p.open = True
    load_css(CSS, "phones-css")
    if not p.pending:
        new_offer(desk)
    desk.spare_field()


@clicks("phones-close")
def close_dialog(desk: Desk, name: str, arg: str, target) -> None:
    phones(desk).open = False
    desk.spare_field()


@clicks("phones-new")
def another(desk: Desk, name: str, arg: str, target) -> None:
    new_offer(desk)
    desk.spare_field()


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
    from ..pairing import PairingError, from_sdp, pack
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
    query = "?stun=" + urllib.parse.quote(stun, safe=":") if stun else ""
    url = href[:href.rfind("/") + 1] + "phone.html" + query + "#" + code

    def shown(d: Desk) -> None:
        p = phones(d)
        if p.offer[0] == n:
            p.offer, p.qr = (n, url), str(p.js.qr(url))
        d.spare_field()
    desk.run(shown)


def _say(desk: Desk, problem: str) -> None:
    phones(desk).problem = problem
    desk.spare_field()


async def _api(desk: Desk) -> Any:
    p = phones(desk)
    if p.js is None:
        url = str(window.URL.new(MODULE, document.baseURI).href)  # from the page, not from the runtime's module
        module = await window.eval(f"import({url!r})")
        api = module.api
        api.onMessage = create_proxy(lambda n, text: desk.run(lambda d: on_message(d, int(n), text)))
        api.onState = create_proxy(lambda n, state, detail: desk.run(lambda d: on_state(d, int(n), str(state),
                                                                                         str(detail))))
        p.js = api
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
    desk.spare_field()


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
    from ..pairing import PairingError, to_sdp, unpack
    p = phones(desk)
    desk.spare_field()
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
    from ..views.phone_protocol import Seat
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
    p.status[n] = {"open": "connected", "closed": f"gone: {detail}"}.get(state, f"no connection: {detail}")
    if state == "failed":
        desk.notify(f"Phone {n} could not connect: {detail}. The table display works without a network.", "error")
    p.sent.pop(n, None)
    desk.spare_field()


@changes("phone-pc")
def pick_pc(desk: Desk, arg: str, target) -> None:
    p = phones(desk)
    n = int(arg) if arg.isdigit() else -1
    if n in p.seats:
        p.seats[n] = replace(p.seats[n], pc=str(target.value))
    desk.spare_field()


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
    desk.spare_field()


@clicks("phone-drop")
def drop(desk: Desk, name: str, arg: str, target) -> None:
    p = phones(desk)
    n = int(arg) if arg.isdigit() else -1
    if n in p.seats:
        from ..views.phone_protocol import message
        p.js.send(n, message("bye"))
        p.js.drop(n)
        for table in (p.seats, p.status, p.sent, p.pending):
            table.pop(n, None)
        if p.proposal and p.proposal[0] == n:
            p.proposal = None
        if p.offer[0] == n:
            new_offer(desk)
    desk.spare_field()


# --- a phone's messages -----------------------------------------------------------------------------

def on_message(desk: Desk, n: int, text: Any) -> None:
    """One message from phone `n`, through every check; what passes does what a referee's tap would."""
    from ..views.phone_protocol import message, receive
    p = phones(desk)
    seat = p.seats.get(n)
    if seat is None:
        desk.spare_field()
        return
    name = _name(desk, seat.pc)
    seat, verdict = receive(seat, text if isinstance(text, str) else None, time.monotonic(), name, _ask(desk),
                            _offered(desk, seat.pc))
    p.seats[n] = seat
    if verdict.kind != "faces":
        desk.spare_field()
    if verdict.kind == "refused":
        _warn(desk, f"Phone {n} ({name or 'no PC'}): refused {verdict.why}.")
        p.js.send(n, message("refused", why=verdict.why))
    elif verdict.kind == "hello":
        p.sent.pop(n, None)  # send the view again
    elif verdict.kind == "faces":
        play._faces(desk, "", {f"f{i}": str(f) for i, f in enumerate(verdict.faces)}, "", None)
    elif verdict.kind == "propose" and p.direct:
        desk.field_still = False
        take(desk, n, verdict.option, verdict.label)
    elif verdict.kind == "propose":
        p.proposal = (n, verdict.option, verdict.label)
        desk.notify(f"{name}'s player proposes: {verdict.label}", "info")


def _warn(desk: Desk, text: str) -> None:
    p = phones(desk)
    if not p.warnings or p.warnings[-1] != text:
        p.warnings = (p.warnings + [text])[-WARNINGS:]
    desk.notify(text, "error")


def _name(desk: Desk, pc: str) -> str:
    state = desk.session.state
    return state.name(pc) if pc and state.has(pc) else ""


def _offered(desk: Desk, pc: str) -> list[tuple[int, str]]:
    from ..views.phone_view import proposable
    if not pc or not desk.session.state.has(pc):
        return []
    return proposable(desk.session.state, pc, offers.selection(desk, pc)[0])


def _ask(desk: Desk) -> Any:
    """The faces the referee's page waits for from a phone's PC (the dice dialog of its command), if any."""
    from ..views.phone_view import Ask
    p = phones(desk)
    dialog = desk.page.dialog
    if not (dialog and dialog[0] == "dice"):
        p.ask = p.asked_for = None
        return None
    if dialog is not p.asked_for:
        need, cmd = dialog[1], dialog[2]
        actor = getattr(cmd, "actor", "")
        p.asks += 1
        p.ask = Ask(p.asks, actor, need.sides, need.count, need.purpose or need.expr) \
            if any(s.pc == actor for s in p.seats.values()) else None
        p.asked_for = dialog
    return p.ask


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
    desk.spare_field()
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
    desk.spare_field()


@changes("phones-direct")
def set_direct(desk: Desk, arg: str, target) -> None:
    p = phones(desk)
    p.direct = bool(target.checked)
    _store(DIRECT_ITEM, "yes" if p.direct else "")
    desk.spare_field()


def _stored(key: str) -> str:
    try:
        value = window.localStorage.getItem(key)
    except Exception:  # storage refused (a privacy mode)
        return ""
    return "" if value is None or is_none(value) else str(value)


def _store(key: str, value: str) -> None:
    try:
        window.localStorage.setItem(key, value)
    except Exception:
        pass


@clicks("phone-dismiss")
def dismiss(desk: Desk, name: str, arg: str, target) -> None:
    phones(desk).proposal = None
    desk.spare_field()


# --- after each handler --------------------------------------------------------------------------------

def after_redraw(desk: Desk) -> None:
    """After each handler, with the table display: the dialog and a proposal drawn, and each connected phone
    sent its view if it changed."""
    p = desk.phones
    if p is None:
        return
    try:
        _draw(desk, p)
        _send(desk, p)
    except Exception as exc:  # the phones must never break the referee's page
        window.console.warn(f"Fray: the phones were not updated ({type(exc).__name__}: {exc})")


def _draw(desk: Desk, p: Phones) -> None:
    if is_none(document.getElementById(SLOT)):
        slot = document.createElement("div")
        slot.id = SLOT
        document.getElementById("app").appendChild(slot)
    parts = []
    if p.proposal is not None and p.proposal[0] in p.seats:
        parts.append(phones_markup.proposal_bar(_name(desk, p.seats[p.proposal[0]].pc), p.proposal[2]))
    if p.open:
        rows = [{"id": n, "pc": s.pc, "status": p.status.get(n, "")} for n, s in sorted(p.seats.items())]
        parts.append(phones_markup.dialog(p.offer[1], p.qr, p.problem, rows, pc_names(desk), p.warnings,
                                          p.stun, p.direct, p.settings))
    desk.slots.html(SLOT, "".join(parts))


def _send(desk: Desk, p: Phones) -> None:
    from ..views.phone_protocol import message
    from ..views.phone_view import phone_view
    live = [n for n, s in p.seats.items() if p.status.get(n) == "connected"]
    if not live:
        return
    table = table_link.build_view(desk)
    if table is None:
        return
    ask = _ask(desk)
    actor, figures = odds_ui.finished(desk)
    for n in live:
        pc = p.seats[n].pc
        view = phone_view(desk.session.state, table, pc, _offered(desk, pc),
                          dict(figures) if actor == pc else None, ask)
        html = phones_markup.phone_page(view)
        if p.sent.get(n) != html:
            p.sent[n] = html
            p.seq += 1
            p.js.send(n, message("view", seq=p.seq, html=html))

