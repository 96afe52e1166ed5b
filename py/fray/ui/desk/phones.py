"""The players' phones as the page holds them between taps (`Phones`), and what a phone may see or propose now.

The desk holds one `Phones`, made on the first tap on "Phones" (`phones`), with the referee's settings read
from local storage (ui/dom/phones_link.py). The handlers are ui/controllers/phones.py's; the Phones dialog and
each phone's view are drawn by ui/page/phones_slot.py. `offered` and `ask` are what both read: the options a
phone's PC may propose now (views/phone_view.py `proposable`) and the faces the referee's dice dialog waits
for from a phone's PC (the PC that rolls them: NeedDice's `by`, else the command's actor).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import offers
from .desk import Desk
from .page import showing
from ..dom.phones_link import stored

STUN_ITEM, DIRECT_ITEM = "fray.phones.stun", "fray.phones.direct"  # the referee's settings, in local storage


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
        from ...views.phone_protocol import Codes
        desk.phones = Phones(codes=Codes(), stun=stored(STUN_ITEM), direct=stored(DIRECT_ITEM) == "yes")
    return desk.phones


def pc_names(desk: Desk) -> list[tuple[str, str]]:
    """The PCs a phone may belong to: those the table display shows."""
    from ...views.table_view import is_pc
    state = desk.session.state
    return [(c.id, c.name) for c in state.combatants if is_pc(state, c) and not c.hidden]


def party(desk: Desk, n: int) -> list[tuple[str, str]]:
    """The PCs phone `n`'s player may claim now: none once its pick is settled; else those the table display
    shows that no other phone has."""
    p = phones(desk)
    seat = p.seats.get(n)
    if seat is None or not seat.picking:
        return []
    taken = {s.pc for k, s in p.seats.items() if k != n}
    return [(cid, name) for cid, name in pc_names(desk) if cid not in taken]


def name_of(desk: Desk, pc: str) -> str:
    state = desk.session.state
    return state.name(pc) if pc and state.has(pc) else ""


def offered(desk: Desk, pc: str) -> list[tuple[int, str]]:
    """The options (index, label) a phone's PC may propose now."""
    from ...views.phone_view import proposable
    if not pc or not desk.session.state.has(pc):
        return []
    return proposable(desk.session.state, pc, offers.selection(desk, pc)[0])


def ask(desk: Desk) -> Any:
    """The faces the referee's page waits for from a phone's PC (the dice dialog of its command), if any."""
    from ...views.phone_view import Ask
    p = phones(desk)
    dialog = desk.page.dialog
    if not showing(desk.page, "dice"):
        p.ask = p.asked_for = None
        return None
    if dialog is not p.asked_for:
        need, cmd = dialog.need, dialog.command
        # who rolls: the die's own roller (an Ogre segment's resolution has no actor), else the command's
        actor = need.by if any(s.pc == need.by for s in p.seats.values()) else getattr(cmd, "actor", "")
        p.asks += 1
        p.ask = Ask(p.asks, actor, need.sides, need.count, need.purpose or need.expr) \
            if any(s.pc == actor for s in p.seats.values()) else None
        p.asked_for = dialog
    return p.ask
