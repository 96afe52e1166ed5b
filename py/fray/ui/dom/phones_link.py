"""The browser's side of the players' phones: static/phones/referee.mjs loaded once, and the referee's settings.

The WebRTC connections are static/phones/referee.mjs's; `load` imports it from the page (not from the
runtime's module) and hands its two callbacks each message and each change of a connection. `stored` and
`store` keep the referee's phone settings in local storage, saying nothing when storage is refused.
Everything decided about a phone is decided in Python (ui/controllers/phones.py).
"""
from __future__ import annotations

from typing import Any, Callable

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none

MODULE = "./static/phones/referee.mjs"


async def load(on_message: Callable[[int, Any], None], on_state: Callable[[int, str, str], None]) -> Any:
    """static/phones/referee.mjs's api, its `onMessage` and `onState` calling the two given."""
    url = str(window.URL.new(MODULE, document.baseURI).href)  # from the page, not from the runtime's module
    module = await window.eval(f"import({url!r})")
    api = module.api
    api.onMessage = create_proxy(lambda n, text: on_message(int(n), text))
    api.onState = create_proxy(lambda n, state, detail: on_state(int(n), str(state), str(detail)))
    return api


def stored(key: str) -> str:
    try:
        value = window.localStorage.getItem(key)
    except Exception:  # storage refused (a privacy mode)
        return ""
    return "" if value is None or is_none(value) else str(value)


def store(key: str, value: str) -> None:
    try:
        window.localStorage.setItem(key, value)
    except Exception:
        pass
