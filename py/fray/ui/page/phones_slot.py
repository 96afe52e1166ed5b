"""The players' phones drawn, in the page's one drawing order: the Phones dialog, a phone's proposal, and each
connected phone sent its view.

`draw` is called by ui/page/drawing.py after each handler, once the referee's page is drawn: the proposal bar
and the dialog (ui/markup/phones_markup.py) in their own slot, then each connected phone sent its view
(views/phone_view.py: the table display's view plus its own PC, ui/desk/players.py `build_view`) as markup,
when it changed. Nothing happens until the referee first taps "Phones".
"""
from __future__ import annotations

from pyscript import document, window
from pyscript.ffi import is_none

from ..desk.desk import Desk
from ..desk.odds_work import finished
from ..desk.phones import Phones, ask, name_of, offered, party, pc_names
from ..desk.players import build_view
from ..markup import phones_markup

SLOT = "phones-slot"


def draw(desk: Desk) -> None:
    """After each handler: the dialog and a proposal drawn, and each connected phone sent its view if it
    changed."""
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
        parts.append(phones_markup.proposal_bar(name_of(desk, p.seats[p.proposal[0]].pc), p.proposal[2]))
    if p.open:
        rows = [{"id": n, "pc": s.pc, "status": p.status.get(n, ""), "lost": lost(p.status.get(n, ""))}
                for n, s in sorted(p.seats.items())]
        parts.append(phones_markup.dialog(p.offer[1], p.qr, p.problem, rows, pc_names(desk), p.warnings,
                                          p.stun, p.direct, p.settings))
    desk.slots.html(SLOT, "".join(parts))


def lost(status: str) -> bool:
    """Whether a phone's connection is gone (closed, failed, never made): it needs a new code to be back."""
    return status.startswith(("gone", "no connection"))


def _send(desk: Desk, p: Phones) -> None:
    from ...views.phone_protocol import message
    from ...views.phone_view import phone_view
    live = [n for n, s in p.seats.items() if p.status.get(n) == "connected"]
    if not live:
        return
    table = build_view(desk)
    if table is None:
        return
    asked = ask(desk)
    actor, figures = finished(desk)
    for n in live:
        pc = p.seats[n].pc
        view = phone_view(desk.session.state, table, pc, offered(desk, pc),
                          dict(figures) if actor == pc else None, asked, party(desk, n))
        html = phones_markup.phone_page(view)
        if p.sent.get(n) != html:
            p.sent[n] = html
            p.seq += 1
            p.js.send(n, message("view", seq=p.seq, html=html))
