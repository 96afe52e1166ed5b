"""Two tabs on one encounter: the later one is read-only until the referee takes over.

The tab that has an entry open holds a Web Lock named after it
(`fray.entry.<id>`); a tab that opens the same entry and finds the lock
taken shows a banner and changes nothing. "Take over here" steals the lock:
the other tab turns read-only, and this one first reads the entry as the
other last saved it, so no step is lost and the entry is never a mix of two
tabs' saves. Each save is announced on a BroadcastChannel, so a read-only
tab follows the other's steps as they happen, and an open library list
shows other tabs' changes. A browser without Web Locks lets every tab write.
"""
from __future__ import annotations

import asyncio
import json
from typing import Any, Callable

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none, to_js

from .desk import Desk
from .keeper import Keeper

CHANNEL = "fray.library"
LOCK_PREFIX = "fray.entry."
INERT = ("header-slot", "layout", "tabs-slot")


def _locks():
    nav = getattr(window, "navigator", None)
    locks = None if nav is None or is_none(nav) else getattr(nav, "locks", None)
    return None if locks is None or is_none(locks) else locks


def _obj(d: dict) -> Any:
    return to_js(d, dict_converter=window.Object.fromEntries)


def hold(desk: Desk, rid: str, steal: bool = False, then: Callable[[Desk], None] | None = None) -> None:
    """Hold entry `rid`'s lock (taking it from another tab when `steal`); without it, this tab is read-only."""
    k = desk.keeper
    if k.wanted == rid and not steal:
        return  # this tab has it, or has asked (letting go first would race with taking it again)
    k.let_go()
    k.wanted = rid
    locks = _locks()
    if locks is None:
        desk.read_only = False
        return
    token = object()
    k.token = token

    def granted(lock):
        if k.token is not token:
            return None
        if is_none(lock):  # another tab has this entry open
            k.wanted = ""  # asking again (Take over) is a new question
            set_read_only(desk, True)
            wait(desk, k, rid, token)
            return None
        k.held = rid
        set_read_only(desk, False)
        if then is not None:
            desk.run(then)

        def keep(resolve, reject):
            k.release = resolve

        return window.Promise.new(_keep(k, keep))

    def lost(err=None):
        if k.token is token and k.held == rid:  # stolen by a tab that took over
            k.held, k.release, k.wanted = "", None, ""
            set_read_only(desk, True)
            wait(desk, k, rid, token)

    opts = _obj({"steal": True} if steal else {"ifAvailable": True})
    p = locks.request(LOCK_PREFIX + rid, opts, _keep(k, granted))
    p.catch(_keep(k, lost))


def wait(desk: Desk, k: Keeper, rid: str, token: object) -> None:
    """Queue for the lock: when the other tab lets go, this read-only tab reads the entry again and takes it."""
    locks = _locks()

    def granted(lock):
        if k.token is not token or is_none(lock) or not desk.read_only:
            return None
        k.held = k.wanted = rid
        k.on_free(rid, lambda: set_read_only(desk, False))

        def keep(resolve, reject):
            k.release = resolve

        return window.Promise.new(_keep(k, keep))

    def lost(err=None):
        if k.token is token and k.held == rid:
            k.held, k.release, k.wanted = "", None, ""
            set_read_only(desk, True)

    locks.request(LOCK_PREFIX + rid, _keep(k, granted)).catch(_keep(k, lost))


def _keep(k: Keeper, fn) -> Any:
    proxy = create_proxy(fn)
    k.proxies.append(proxy)
    if len(k.proxies) > 400:  # old requests' callbacks: long answered
        for old in k.proxies[:200]:
            try:
                old.destroy()
            except Exception:
                pass
        del k.proxies[:200]
    return proxy


def set_read_only(desk: Desk, flag: bool) -> None:
    """Show or hide the banner; the page behind it is inert while another tab has the encounter. Called when
    a lock is granted or lost (outside any handler), so the redraw goes through the dispatcher."""
    was = desk.read_only
    desk.read_only = flag
    if was == flag:
        return
    for id_ in INERT:
        el = document.getElementById(id_)
        if el is not None and not is_none(el):
            if flag:
                el.setAttribute("inert", "")
            else:
                el.removeAttribute("inert")
    if flag:
        desk.set(dialog=None, pending=None, mode="play")
    if desk.session is not None:
        desk.run(lambda d: None)  # the banner and the inert page drawn


# --- announcements ------------------------------------------------------------------------------

def listen(desk: Desk, on_message: Callable[[dict], None]) -> None:
    """Hear other tabs' saves (`{"store": "entries", "id": ...}`)."""
    k = desk.keeper
    k.on_message = on_message
    bc = getattr(window, "BroadcastChannel", None)
    if bc is None or is_none(bc):
        return
    try:
        k.channel = bc.new(CHANNEL)
    except Exception:
        return

    def heard(event) -> None:
        try:
            msg = json.loads(str(event.data))
        except (ValueError, TypeError):
            return
        if isinstance(msg, dict):
            asyncio.ensure_future(_later(k.on_message, msg))

    k.channel.onmessage = _keep(k, heard)


async def _later(fn, msg: dict) -> None:
    try:
        r = fn(msg)
        if asyncio.iscoroutine(r):
            await r
    except Exception as exc:
        window.console.warn(f"Fray: a message from another tab was not applied ({exc})")


def announce(desk: Desk, store: str, rid: str) -> None:
    k = desk.keeper
    if k.channel is not None:
        try:
            k.channel.postMessage(json.dumps({"store": store, "id": rid}))
        except Exception:
            pass
