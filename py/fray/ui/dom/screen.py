"""The browser window's own operations that drawing and handlers share: its width, full screen, a file saved.

Below the drawing and the controllers alike (ui/page/render.py asks `is_phone` for the help's layout,
ui/controllers/play.py for where a question is asked), so neither reaches into the other for them.
"""
from __future__ import annotations

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none, to_js


def is_phone() -> bool:
    return int(window.innerWidth) < 760  # the CSS breakpoint of the one-column layout


def toggle_fullscreen() -> None:
    doc = document
    if not is_none(doc.fullscreenElement):
        doc.exitFullscreen()
        return
    el = doc.documentElement
    if not hasattr(el, "requestFullscreen"):
        return
    promise = el.requestFullscreen()
    if promise is not None and not is_none(promise):
        promise.catch(create_proxy(lambda err: window.console.info(f"Fray: fullscreen refused: {err}")))


def download(svg: str, name: str) -> None:
    """Save the table view as an SVG file (a recap image)."""
    blob = window.Blob.new(to_js([svg]), to_js({"type": "image/svg+xml"}, dict_converter=window.Object.fromEntries))
    url = window.URL.createObjectURL(blob)
    a = document.createElement("a")
    a.href = url
    safe = "".join(ch if ch.isalnum() else "-" for ch in name).strip("-")[:60] or "table"
    a.download = f"fray-{safe}.svg"
    document.body.appendChild(a)
    a.click()
    a.remove()
    window.setTimeout(create_proxy(lambda *_: window.URL.revokeObjectURL(url)), 1000)
