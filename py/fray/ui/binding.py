"""The binding: every browser event of the page bound to its handler through the controllers' dispatch tables.

A click, a submitted form or a changed control names its action in `data-action="name:arg"`; the name is
looked up in the joined tables of the controllers (ui/controllers/), else offered to the field views; keys
go through ui/controllers/keys.py, a pointer gesture to the field view's `pointer`. `Binding` is the App's
part that listens (ui/app.py); each handler then runs through its dispatcher (ui/dispatch.py `handle`).
"""
from __future__ import annotations

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none

from .controllers import (editing, effect_ui, files, keys, library_ui, map_image_ui, paste_ui, phones, place_ui, play,
                          review_ui, roster_ui, table_link, welcome)
from .desk import entries, offers
from .controllers.actions import Actions
from .desk.desk import Desk
from .dom.patch import attr

CLICKS = Actions.join(play.clicks, editing.clicks, files.clicks, library_ui.clicks, roster_ui.clicks,
                      table_link.clicks, welcome.clicks, place_ui.clicks, paste_ui.clicks, map_image_ui.clicks,
                      review_ui.clicks, phones.clicks)
FORMS = Actions.join(play.forms, library_ui.forms, phones.forms, effect_ui.forms)
CHANGES = Actions.join(play.changes, editing.changes, roster_ui.changes, paste_ui.changes, map_image_ui.changes,
                       review_ui.changes, phones.changes)
POINTER_EVENTS = ("pointerdown", "pointermove", "pointerup", "pointercancel", "wheel", "contextmenu")


class Binding:
    """Every event of the page to its handler (`bind`), through `handle` (ui/dispatch.py); `_edits` are the
    setup fields changed and not yet applied."""

    _edits: list[tuple[str, ...]]

    def bind(self) -> None:
        slots = self.desk.slots
        root = slots.el("app")
        self.listen(root, "click", self.on_click)
        self.listen(root, "submit", self.on_submit)
        listen_changes(self, root)
        self.listen(document, "keydown", self.on_key)
        self.listen(window, "hashchange", self.on_hashchange)
        self.listen(slots.el("file-input"), "change", self.on_file)
        self.listen(slots.el("import-input"), "change",
                    lambda e: self.handle(lambda d: library_ui.on_import_file(d, e), "lib-import"))
        self.listen(slots.el("roster-input"), "change",
                    lambda e: self.handle(lambda d: roster_ui.on_import_file(d, e), "roster-import"))
        order = slots.el("order-slot")
        self.listen(order, "dragstart", self.on_dragstart)
        self.listen(order, "dragover", self.on_dragover)
        self.listen(order, "drop", self.on_drop)
        for slot in (slots.el("field-slot"), slots.el("editor-slot")):  # the field; the placement map's drags
            for kind in POINTER_EVENTS:
                self.listen(slot, kind, self.on_pointer)

    # --- from an event to its handler ------------------------------------------------------------
    def dispatch(self, name: str, arg: str, target) -> None:
        """A clicked `data-action`: its handler, else the field view that knows it."""
        handler = CLICKS.get(name)
        if handler is not None:
            self.handle(lambda d: handler(d, name, arg, target), name)
        else:
            self.handle(lambda d: ask_views(d, lambda view, ctx: view.act(ctx, name, arg)), name)

    def dispatch_form(self, name: str, arg: str, values: dict[str, str], op: str, form) -> None:
        """A submitted form: its handler, else a field view's own form (e.g. Ogre's before-the-fight)."""
        handler = FORMS.get(name)
        if handler is not None:
            self.handle(lambda d: handler(d, arg, values, op, form), name)
        else:
            self.handle(lambda d: ask_views(d, lambda view, ctx: view.form(ctx, name, arg, values, op)), name)

    def edit_later(self, *edit: str) -> None:
        """Apply a setup field's change, and those waiting (before a click too: "Back to the fight" sees each
        applied or refused, never left behind)."""
        waiting, self._edits = self._edits + ([edit] if edit else []), []
        for path, kind, raw in waiting:
            self.handle(lambda d, p=path, k=kind, r=raw: editing.edit_field(d, p, k, r), "edit", say_refused=False)

    # --- events ---------------------------------------------------------------------------
    def on_click(self, event) -> None:
        self.edit_later()
        if attr(event.target, "data-action") == "example":
            self.desk.set(browsing_examples=False)  # a pointer opens the list: choosing opens at once
        target = event.target.closest("[data-action]")
        if is_none(target):
            return
        tag = str(target.tagName).lower()
        if tag in ("form", "select") or (tag == "input" and str(target.type) not in ("button", "submit")):
            return
        name, _, arg = attr(target, "data-action").partition(":")
        if tag == "a":
            event.preventDefault()
        self.dispatch(name, arg, target)

    def on_submit(self, event) -> None:
        event.preventDefault()
        form = event.target
        name, _, arg = attr(form, "data-action").partition(":")
        submitter = event.submitter
        op = "" if is_none(submitter) else str(submitter.value or "")
        # A checkbox or radio button counts only when checked, as the browser's own form data has it.
        values = {str(el.name): str(el.value) for el in form.elements
                  if el.name and not (str(el.type) in ("checkbox", "radio") and not el.checked)}
        self.dispatch_form(name, arg, values, op, form)

    def on_change(self, event) -> None:
        t = event.target
        path = attr(t, "data-path")
        if path:
            kind = attr(t, "data-kind") or "text"
            checkbox = str(t.type) == "checkbox"
            raw = ("true" if t.checked else "false") if checkbox else str(t.value)
            if not is_none(t.closest("#dialog-slot, #editor-slot")):
                # A dialog's field (a table cell) or a setup field: let the focus reach where the referee
                # sent it (Tab, a click on the next cell) before the redraw, which then keeps it there.
                self._edits.append((str(path), kind, raw))
                window.setTimeout(create_proxy(lambda *_: self.edit_later()), 0)
                return
            self.edit_later(str(path), kind, raw)
            return
        action = attr(t, "data-action")
        if not action:
            return
        name, _, arg = action.partition(":")
        handler = CHANGES.get(name)
        if handler is not None:
            self.handle(lambda d: handler(d, arg, t), name, say_refused=False)
        else:  # a view's own drop-down (e.g. OSE's spell list): its act() receives the chosen value
            self.handle(lambda d: ask_views(d, lambda view, ctx: view.act(ctx, name, str(t.value))), name,
                        say_refused=False)

    def on_key(self, event) -> None:
        name = "cancel" if str(event.key) == "Escape" else "key"
        self.handle(lambda d: keys.on_key(d, event), name, say_refused=False)

    def on_hashchange(self, event) -> None:
        """A share link pasted into this tab: open it (undo returns here)."""
        def opened(desk: Desk) -> None:
            desk.set(dialog=None)
            loaded = entries.take_link(desk)
            if loaded is not None:
                files.open_link(desk, loaded)
        self.handle(opened, "link")

    def on_pointer(self, event) -> None:
        self.handle(lambda d: pointed(d, event), "pointer", say_refused=False)

    def on_dragstart(self, event) -> None:
        row = event.target.closest("[data-id]")
        if not is_none(row):
            event.dataTransfer.setData("text/plain", attr(row, "data-id"))

    def on_dragover(self, event) -> None:
        event.preventDefault()

    def on_drop(self, event) -> None:
        event.preventDefault()
        moved = str(event.dataTransfer.getData("text/plain"))
        row = event.target.closest("[data-id]")
        if is_none(row) or not moved:
            return
        self.handle(lambda d: play.reorder(d, moved, attr(row, "data-id")), "reorder", say_refused=False)

    def on_file(self, event) -> None:
        chosen = event.target.files
        file = chosen.item(0) if chosen.length else None
        event.target.value = ""
        if file is not None:
            self.handle(lambda d: files.read_file(d, file), "open")


def listen_changes(app: Binding, root) -> None:
    """A changed control, and a slider as it is dragged (the review's timeline, ui/controllers/review_ui.py):
    its change at each step of the drag, not only on release."""
    app.listen(root, "change", app.on_change)
    app.listen(root, "input", lambda e: app.on_change(e) if attr(e.target, "type") == "range" else None)


def ask_views(desk: Desk, ask) -> bool | None:
    """Offer an action to the field views in turn; the first that takes it says what to do. False (nothing
    to save or draw) when none takes it."""
    ctx = offers.field_context(desk)
    for view in offers.views(desk):
        result = ask(view, ctx)
        if result is not None:
            play.apply_field(desk, result)
            return None
    return False


def pointed(desk: Desk, event) -> bool | None:
    """A pointer event on the field: the field view's gesture, if it makes one (most moves do not); in the
    setup, the map image's drag or the placement map's (ui/controllers/map_image_ui.py, place_ui.py)."""
    if attr(event.currentTarget, "id") == "editor-slot":
        taken = map_image_ui.pointer(desk, event)  # a drag on the map image's preview, else the placement map's
        return place_ui.pointer(desk, event) if taken == "pass" else taken
    handler = getattr(offers.views(desk)[0], "pointer", None)
    if handler is None:
        return False
    result = handler(offers.field_context(desk), event)
    if result is None:
        return False
    play.apply_field(desk, result)
    return None
