"""Files and links: Save, Open, Share, the log export, and an encounter that comes in.

Save downloads the encounter's JSON, Share puts it in a link's fragment, Open
reads a file. An encounter that comes in (a file, a link) becomes a new
library entry and opens in this tab (ui/desk/entries.py); it never replaces one,
so the encounter that was open is still in the library, step for step. A
document that does not load changes nothing and says why.
"""
from __future__ import annotations

from pyscript import window
from pyscript.ffi import create_proxy

from ...engine import storage
from ...views.panels import log_text
from .actions import Actions
from ..desk.desk import Desk
from ..desk.page import Dialog, showing
from ..desk.entries import download, open_new, safe_name

clicks = Actions("click")


def open_text(desk: Desk, text: str | bytes, name: str) -> None:
    """Open a file's contents as a new library entry, or say why not (nothing changes then)."""
    try:
        loaded = storage.loads(text)
    except storage.LoadError as exc:
        shown = "; ".join(exc.problems[:6]) + (f" (and {len(exc.problems) - 6} more)"
                                                if len(exc.problems) > 6 else "")
        desk.notify(f"{name} was not opened: {shown}. The current encounter is unchanged.", "error")
        return
    before = desk.session.encounter.name if desk.session is not None else ""
    open_new(desk, loaded.session, "file")
    desk.set(selected=None, follow_turn=True, pending=None, draft=None, mode="play", dialog=None)
    desk.notify(f"Opened {name}. It is a new library entry" + (f"; “{before}” is still in the library." if before
                                                                else "."), "ok")


def open_link(desk: Desk, loaded) -> None:
    """A share link pasted into this tab: a new entry; the encounter that was open stays in the library."""
    open_new(desk, loaded.session, "link")
    desk.set(selected=None, follow_turn=True, pending=None, draft=None, mode="play", dialog=None)
    desk.notify("Opened the shared encounter as a new library entry.", "ok")


async def read_file(desk: Desk, file) -> None:
    # Bytes, not text(): a file that is not UTF-8 must be refused, not repaired.
    buf = await file.arrayBuffer()
    open_text(desk, buf.to_bytes(), str(file.name))


# --- clicks ---------------------------------------------------------------------------

@clicks("save")
def _save(desk: Desk, name: str, arg: str, target) -> None:
    download(storage.dumps(desk.session, indent=1), f"{safe_name(desk.session.encounter.name)}.fray.json",
             "application/json")


@clicks("export-log")
def _export_log(desk: Desk, name: str, arg: str, target) -> None:
    s = desk.session
    download(log_text(s), f"{safe_name(s.encounter.name)}-log.txt", "text/plain")


@clicks("open")
def _open(desk: Desk, name: str, arg: str, target) -> None:
    desk.slots.el("file-input").click()


@clicks("share")
def _share(desk: Desk, name: str, arg: str, target) -> None:
    url = str(window.location.href).split("#")[0] + "#" + storage.encode_link(desk.session)
    desk.set(dialog=Dialog("share", url=url))


@clicks("copy-share")
def _copy_share(desk: Desk, name: str, arg: str, target) -> None:
    if not showing(desk.page, "share"):
        return
    text = desk.page.dialog.url

    def copied(d: Desk) -> None:
        d.set(dialog=Dialog("share", url=text, copied=True))

    try:
        window.navigator.clipboard.writeText(text).then(create_proxy(lambda *_: desk.run(copied)),
                                                       create_proxy(lambda *_: None))
    except Exception:
        pass
