"""The page: one App that holds the session, turns clicks and keys into
commands, autosaves every step, and redraws the panels that changed.

The only place (with the other ui/ modules that need it) that touches the DOM.
It makes no rule decisions: options, reasons and results come from the engine.
"""
from __future__ import annotations

import traceback
from dataclasses import replace
from typing import Any

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none, to_js

from .. import catalogue, presets
from ..engine import storage
from ..engine.commands import IllegalCommand, Option
from ..engine.dice import BadFace, DiceError, NeedDice, ScriptedDice
from ..engine.ruleset import Allow, Damage, FreeRoll, SetCondition, SetHp
from ..engine.session import ReplayError, Session
from ..rules import SYSTEMS, titles
from ..views.common import action_menu, log_lines, log_text, numbered, system_view
from . import editor, panels, table_editor
from .fields import FieldAction, FieldContext, FieldView, views_for
from .html import Markup

AUTOSAVE_KEY = "fray.autosave"
SPATIAL_NEEDS = ("path", "square", "band", "target")  # filled by the field; others are typed
BROKEN_KEY = "fray.autosave.broken"
LOG_LIMIT = 200
_PLAIN = (str, int, float, bool, type(None))  # memo keys compared by value; anything else by identity


def guarded(fn):
    """Event handlers never leave the page dead: report the error, keep the encounter."""
    def wrapper(self, *args):
        try:
            return fn(self, *args)
        except Exception as exc:
            window.console.warn("Fray: " + traceback.format_exc())
            self.notify(f"Something went wrong ({type(exc).__name__}: {exc}); the encounter is unchanged.",
                        "error")
            self.render()
    return wrapper


class App:
    def __init__(self) -> None:
        self.session: Session | None = None
        self.selected: str | None = None
        self.follow_turn = True  # selection follows whose turn it is until the referee picks someone
        self.mode = "play"
        self.tab = "field"
        self.pending: tuple[int, Option] | None = None
        self.dialog: tuple | None = None
        self.notice: tuple[str, str] = ("", "info")
        self.draft: dict[str, Any] | None = None
        self.problems: list[str] = []
        self.restart_offer: dict[str, Any] | None = None
        self.timeline: list[Any] = []  # "step" or ("setup", saved document text)
        self.redo_timeline: list[Any] = []
        self.options: list[Option] = []
        self.last_roll = ""
        self.field_ui: dict[str, Any] = {}
        self.cursor: tuple[int, int] | None = None
        self._html: dict[str, str] = {}
        self._proxies: list[Any] = []
        self._els: dict[str, Any] = {}
        self._asked: Any = None
        self.numbers: dict[int, int] = {}
        self._browsing_examples = False
        self._memo: dict[str, tuple[tuple, Any]] = {}  # see memo()
        self._attrs: dict[tuple[str, str], str] = {}  # data-* attributes last written
        self._rows: dict[str, list[str]] = {}  # the rows of list panels last written (set_rows)

    # --- start-up ---------------------------------------------------------
    def boot(self) -> None:
        self.restore()
        self.bind()
        self.render()
        document.getElementById("boot").hidden = True
        document.getElementById("app").hidden = False
        document.title = f"Fray · {self.session.encounter.name}"
        root = document.documentElement
        root.dataset.ready = "true"
        window.performance.mark("fray-ready")
        boot = getattr(window, "frayBoot", None)
        if boot is not None and not is_none(boot):
            boot.ready()

    def restore(self) -> None:
        """Open the share link in the URL, else the autosave, else a new encounter."""
        loaded = self.take_link()
        if loaded is not None:
            self.session = loaded.session
            self.autosave()
            return
        text = window.localStorage.getItem(AUTOSAVE_KEY)
        if self.session is None and not is_none(text) and text:
            try:
                self.session = storage.loads(str(text)).session
            except storage.LoadError as exc:
                window.localStorage.setItem(BROKEN_KEY, text)
                window.localStorage.removeItem(AUTOSAVE_KEY)
                self.notify("The autosaved encounter could not be read and was set aside "
                            f"(kept as {BROKEN_KEY}); a fresh encounter is open. Problem: {exc}", "error")
        if self.session is None:
            self.session = self.new_session("olog", "")

    def take_link(self):
        """Read and consume a share link in the URL fragment (#e=...)."""
        frag = str(window.location.hash or "")
        if not frag.startswith("#e="):
            return None
        window.history.replaceState(None, "", str(window.location.pathname) + str(window.location.search))
        try:
            loaded = storage.decode_link(frag)
        except storage.LoadError as exc:
            self.notify(f"This share link is damaged and was not opened: {exc}. "
                        "The current encounter is unchanged.", "error")
            return None
        self.notify("Opened the shared encounter.", "ok")
        return loaded

    @guarded
    def on_hashchange(self, event) -> None:
        """A share link pasted into this tab: open it (undo returns here)."""
        self.dialog = None
        loaded = self.take_link()
        if loaded is not None:
            self.replace_session(loaded.session, "Opened the shared encounter.")
        else:
            self.render()

    def new_session(self, system: str, profile: str) -> Session:
        loaded = storage.load({"format": storage.FORMAT, "encounter": presets.blank_encounter(system, profile),
                               "steps": []})
        return loaded.session

    # --- events -------------------------------------------------------------
    def el(self, id_: str):
        e = self._els.get(id_)
        if e is None:
            e = document.getElementById(id_)
            self._els[id_] = e
        return e

    def listen(self, target, kind: str, fn) -> None:
        proxy = create_proxy(fn)
        self._proxies.append(proxy)
        target.addEventListener(kind, proxy)

    def bind(self) -> None:
        root = self.el("app")
        self.listen(root, "click", self.on_click)
        self.listen(root, "submit", self.on_submit)
        self.listen(root, "change", self.on_change)
        self.listen(document, "keydown", self.on_key)
        self.listen(window, "hashchange", self.on_hashchange)
        self.listen(self.el("file-input"), "change", self.on_file)
        order = self.el("order-slot")
        self.listen(order, "dragstart", self.on_dragstart)
        self.listen(order, "dragover", self.on_dragover)
        self.listen(order, "drop", self.on_drop)
        fld = self.el("field-slot")
        for kind in ("pointerdown", "pointermove", "pointerup", "pointercancel", "wheel", "contextmenu"):
            self.listen(fld, kind, self.on_pointer)

    @guarded
    def on_click(self, event) -> None:
        if attr(event.target, "data-action") == "example":
            self._browsing_examples = False  # a pointer opens the list: choosing opens at once
        target = event.target.closest("[data-action]")
        if is_none(target):
            return
        tag = str(target.tagName).lower()
        if tag in ("form", "select") or (tag == "input" and str(target.type) not in ("button", "submit")):
            return
        action = attr(target, "data-action")
        name, _, arg = action.partition(":")
        event.preventDefault() if tag == "a" else None
        self.dispatch(name, arg, target)

    @guarded
    def on_submit(self, event) -> None:
        event.preventDefault()
        form = event.target
        name, _, arg = attr(form, "data-action").partition(":")
        submitter = event.submitter
        op = "" if is_none(submitter) else str(submitter.value or "")
        values = {}
        for el in form.elements:
            if el.name:
                values[str(el.name)] = str(el.value)
        self.dispatch_form(name, arg, values, op, form)

    @guarded
    def on_change(self, event) -> None:
        t = event.target
        path = attr(t, "data-path")
        if path:
            kind = attr(t, "data-kind") or "text"
            raw = "true" if (str(t.type) == "checkbox" and t.checked) else \
                ("false" if str(t.type) == "checkbox" else str(t.value))
            if not is_none(t.closest("#dialog-slot, #editor-slot")):
                # A dialog's field (a table cell) or a setup field: let the focus reach where the referee
                # sent it (Tab, a click on the next cell) before the redraw, which then keeps it there.
                window.setTimeout(create_proxy(lambda *_: self.edit_later(str(path), kind, raw)), 0)
                return
            self.edit_field(str(path), kind, raw)
            return
        action = attr(t, "data-action")
        if not action:
            return
        name, _, arg = action.partition(":")
        if name == "system":
            system, _, profile = str(t.value).partition(":")
            self.edit(lambda d: editor.change_system(d, system, profile))
        elif name == "example":
            system, _, example = str(t.value).partition(":")
            if self._browsing_examples:
                self.notify("Press Enter to open this example.", "info")
                self.render()
            elif example:
                self.load_example(system, example)
        elif name == "ally":
            i, _, other = arg.partition(":")
            self.toggle_ally(int(i), other, bool(t.checked))
        elif name == "dice-mode":
            self.session.physical_dice = arg == "physical"
            self.autosave()
            self.notify("Type the faces of your own dice when asked." if arg == "physical"
                        else "The app rolls the dice.", "info")
            self.render()
        else:
            # A view's own drop-down (e.g. OSE's spell list): its act() receives the chosen value.
            ctx = self.field_context()
            for view in self.views():
                result = view.act(ctx, name, str(t.value))
                if result is not None:
                    self.apply_field(result)
                    break

    @guarded
    def edit_later(self, path: str, kind: str, raw: str) -> None:
        self.edit_field(path, kind, raw)

    @guarded
    def on_key(self, event) -> None:
        key = str(event.key)
        tag = str(event.target.tagName).lower() if not is_none(event.target.tagName) else ""
        # Keys go to the page unless the focus is where text is typed (radios and
        # checkboxes take only arrows and Space, so N, digits and Ctrl+Z still work there).
        typing = tag in ("textarea", "select") or (
            tag == "input" and attr(event.target, "type") not in ("radio", "checkbox", "button", "submit", "color"))
        ctrl = bool(event.ctrlKey or event.metaKey)
        if ctrl and key.lower() == "z" and not typing:
            event.preventDefault()
            self.redo() if event.shiftKey else self.undo()
            return
        if ctrl and key.lower() == "y" and not typing:
            event.preventDefault()
            self.redo()
            return
        if attr(event.target, "data-action") == "example":
            # A closed select fires "change" on every arrow key: browse first, open on Enter.
            if key in ("ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown") and not event.altKey:
                self._browsing_examples = True
            elif key == "Enter" and self._browsing_examples:
                event.preventDefault()
                self._browsing_examples = False
                system, _, example = str(event.target.value).partition(":")
                if example:
                    self.load_example(system, example)
                return
        if key == "Escape":
            self.cancel()
            return
        if typing or ctrl or event.altKey:
            return
        if self.dialog is not None:
            return
        if key == "?":
            self.dialog = ("help",)
            self.render(field=False)
        elif key in ("n", "N") and self.mode == "play":
            menu_next = next((i for i, o in enumerate(self.options) if o.key == "next" and o.allowed), None)
            if menu_next is not None:
                event.preventDefault()
                self.choose(menu_next)
        elif key.isdigit() and key != "0" and self.mode == "play":
            n = int(key)
            if self.pending is not None and self.pending[1].choices:
                if n <= len(self.pending[1].choices):
                    event.preventDefault()
                    self.answer(n - 1)
                return
            if n in self.numbers:
                event.preventDefault()
                self.choose(self.numbers[n])
        elif key.startswith("Arrow") or key in ("Enter", " "):
            # Arrows anywhere in the field; Enter/Space only on the field itself, so the
            # field's own buttons keep their native activation.
            target_id = str(event.target.id)
            in_field = target_id == "field-slot" or not is_none(event.target.closest("#field-slot"))
            if (key.startswith("Arrow") and in_field) or target_id == "field-slot":
                result = self.field().key(self.field_context(), key)
                if result is not None:
                    event.preventDefault()
                    self.apply_field(result)

    @guarded
    def on_pointer(self, event) -> None:
        view = self.field()
        handler = getattr(view, "pointer", None)
        if handler is None:
            return
        result = handler(self.field_context(), event)
        if result is not None:
            self.apply_field(result)

    def on_dragstart(self, event) -> None:
        row = event.target.closest("[data-id]")
        if not is_none(row):
            event.dataTransfer.setData("text/plain", attr(row, "data-id"))

    def on_dragover(self, event) -> None:
        event.preventDefault()

    @guarded
    def on_drop(self, event) -> None:
        event.preventDefault()
        moved = str(event.dataTransfer.getData("text/plain"))
        row = event.target.closest("[data-id]")
        if is_none(row) or not moved:
            return
        self.reorder(moved, attr(row, "data-id"))

    async def _read_file(self, file) -> None:
        # Bytes, not text(): a file that is not UTF-8 must be refused, not repaired.
        buf = await file.arrayBuffer()
        self.open_text(buf.to_bytes(), str(file.name))

    def on_file(self, event) -> None:
        files = event.target.files
        if files.length:
            import asyncio
            asyncio.ensure_future(self._read_file(files.item(0)))
        event.target.value = ""

    # --- dispatch -------------------------------------------------------------
    def dispatch(self, name: str, arg: str, target) -> None:
        s = self.session
        if name == "undo":
            self.undo()
        elif name == "redo":
            self.redo()
        elif name == "mode":
            self.set_mode(arg)
        elif name == "save":
            self.save_file()
        elif name == "open":
            self.el("file-input").click()
        elif name == "share":
            url = str(window.location.href).split("#")[0] + "#" + storage.encode_link(s)
            self.dialog = ("share", url, False)
            self.render(field=False)
        elif name == "copy-share" and self.dialog and self.dialog[0] == "share":
            self.copy(self.dialog[1])
        elif name == "help":
            self.dialog = ("help",)
            self.render(field=False)
        elif name == "rule":
            self.dialog = ("rule", arg)
            self.render(field=False)
        elif name in ("cancel", "dismiss"):
            if name == "dismiss":
                self.notice = ("", "info")
                self.render(field=False)
            else:
                self.cancel()
        elif name == "export-log":
            self.download(log_text(s), f"{safe_name(s.encounter.name)}-log.txt", "text/plain")
        elif name in ("select", "token"):
            self.select(arg)
        elif name == "opt":
            self.choose(int(arg))
        elif name == "allow":
            o = self.options[int(arg)]
            self.act(Allow(o.command))
        elif name == "choose":
            self.answer(int(arg))
        elif name in ("reorder-up", "reorder-down"):
            self.reorder_step(arg, -1 if name == "reorder-up" else 1)
        elif name == "uncond":
            cid, _, i = arg.partition(":")
            cond = s.state.get(cid).conditions[int(i)]
            self.act(SetCondition(cid, cond, False))
        elif name == "tab":
            self.tab = arg
            self.render()
        elif name == "restart":
            self.restart_with_draft()
        elif name in ("add", "add-side", "remove-side", "add-attack", "remove-attack", "duplicate", "remove",
                      "edit-table"):
            self.editor_action(name, arg, target)
        else:
            ctx = self.field_context()
            for view in self.views():
                result = view.act(ctx, name, arg)
                if result is not None:
                    self.apply_field(result)
                    break

    def dispatch_form(self, name: str, arg: str, values: dict[str, str], op: str, form) -> None:
        s = self.session
        if name == "roll":
            expr = values.get("expr", "").strip()
            self.act(FreeRoll(expr), on_fail_keep=True)
        elif name == "hp-form":
            cid = attr(form, "data-id")
            if op == "sethp":
                hp = parse_int(values.get("hp", ""), "HP")
                if hp is not None:
                    self.act(SetHp(cid, hp))
            else:
                amount = parse_int(values.get("damage", ""), "damage")
                if amount is not None:
                    if amount < 0:
                        self.notify("Damage must be zero or more.", "error")
                        self.render()
                    else:
                        self.act(Damage(cid, amount))
        elif name == "cond-form":
            cond = values.get("condition", "").strip()
            if cond:
                self.act(SetCondition(attr(form, "data-id"), cond[:40], True))
        elif name == "need-submit" and self.pending:
            index, option = self.pending
            need = next((n for n in option.needs if n not in SPATIAL_NEEDS), "")
            kind, _, fname = need.partition(":") if ":" in need else ("text", "", need)
            raw = values.get("value", "").strip()
            if kind == "number":
                val = parse_int(raw, fname)
                if val is None:
                    self.render()
                    return
            else:
                val = raw
            self.fill_pending({fname: val})
        elif name == "faces" and self.dialog and self.dialog[0] == "dice":
            _, need, cmd, faces = self.dialog
            typed = []
            for i in range(need.count):
                v = parse_int(values.get(f"f{i}", ""), "face")
                if v is None or not 1 <= v <= need.sides:
                    self.notify(f"Each face must be a number from 1 to {need.sides}.", "error")
                    self.render()
                    return
                typed.append(v)
            self.dialog = None
            self.act(cmd, faces=list(faces) + typed)
        else:
            # A form inside a field view (e.g. Ogre's before-the-fight dialog): the views read it.
            ctx = self.field_context()
            for view in self.views():
                result = view.form(ctx, name, arg, values, op)
                if result is not None:
                    self.apply_field(result)
                    break

    # --- acting ----------------------------------------------------------------
    def act(self, cmd, faces: list[int] | None = None, on_fail_keep: bool = False) -> bool:
        s = self.session
        dice = ScriptedDice(faces or []) if s.physical_dice else None
        try:
            step = s.act(cmd, dice)
        except IllegalCommand as exc:
            self.notify(exc.illegal.detail, "error")
            self.render()
            return False
        except NeedDice as need:
            self.dialog = ("dice", need, cmd, list(faces or []))
            self.render()
            return False
        except (BadFace, DiceError) as exc:
            self.notify(str(exc), "error")
            self.render()
            return False
        self.timeline.append("step")
        self.redo_timeline.clear()
        self.pending = None
        self.field_ui.pop("path", None)
        if isinstance(cmd, FreeRoll):
            self.last_roll = step.events[0].text if step.events else ""
        else:
            self.notice = ("", "info")
        self.autosave()
        self.follow()
        self.render()
        return True

    def choose(self, index: int) -> None:
        if index >= len(self.options):
            return
        o = self.options[index]
        if not o.allowed:
            self.notify(o.why or "Not allowed now.", "error")
            self.render()
            return
        if o.choices or o.needs:
            self.pending = (index, o)
            if self.is_phone():
                # On a phone the question must be on screen: the field for a place, else the actions.
                spatial = bool(o.needs) and o.needs[0] in SPATIAL_NEEDS and not o.choices
                self.tab = "field" if spatial else "act"
            self.render()
            return
        self.act(o.command)

    def answer(self, choice_index: int) -> None:
        if self.pending is None:
            return
        index, o = self.pending
        choice = o.choices[choice_index]
        cmd = replace(o.command, **choice.values)
        if o.needs:
            self.pending = (index, replace(o, command=cmd, choices=()))
            if self.is_phone() and o.needs[0] in SPATIAL_NEEDS:
                self.tab = "field"
            self.render()
            return
        self.act(cmd)

    def fill_pending(self, values: dict[str, Any]) -> None:
        if self.pending is None:
            return
        index, o = self.pending
        cmd = replace(o.command, **values)
        remaining = tuple(n for n in o.needs if n.split(":")[-1] not in values)
        if remaining:
            self.pending = (index, replace(o, command=cmd, needs=remaining))
            self.render()
            return
        self.act(cmd)

    def apply_field(self, result: FieldAction) -> None:
        if result.message:
            self.notify(result.message, "info")
        if result.select is not None:
            self.select(result.select)
            return
        if result.fill is not None:
            self.fill_pending(result.fill)
            return
        if result.choose is not None:
            self.choose(result.choose)
            return
        if result.command is not None:
            self.act(result.command)
            return
        self.render()

    def cancel(self) -> None:
        if self.dialog is not None:
            self.dialog = None
            self.render(field=False)  # a dialog closes: the field is as it was
            return
        else:
            self.pending = None
            # A path previewed by tapping (nothing pending) is cancelled too.
            self.field_ui.pop("path", None)
            self.field_ui.pop("info", None)
        self.render()

    def select(self, cid: str) -> None:
        if not self.session.state.has(cid):
            return
        self.selected = cid
        self.follow_turn = cid in self.session.current()
        self.pending = None
        if self.tab == "field" and self.is_phone():
            pass
        self.render()

    def follow(self) -> None:
        """Keep the current actor selected while the referee follows the turn."""
        current = self.session.current()
        if current and (self.follow_turn or self.selected is None or self.selected not in current):
            if self.follow_turn or self.selected is None:
                self.selected = current[0]
        if self.selected is not None and not self.session.state.has(self.selected):
            self.selected = current[0] if current else None

    def reorder(self, moved: str, before: str) -> None:
        view = system_view(self.session.encounter.system)
        make = getattr(view, "reorder", None)
        if make is None:
            return
        cmd = make(self.session.state, moved, before)
        if cmd is not None:
            self.act(cmd)

    def reorder_step(self, cid: str, delta: int) -> None:
        rows = [r.id for r in self.panel().order if r.kind == "combatant"]
        if cid not in rows:
            return
        i = rows.index(cid)
        j = i + delta
        if not 0 <= j < len(rows):
            return
        view = system_view(self.session.encounter.system)
        make = getattr(view, "reorder", None)
        if make is None:
            return
        cmd = make(self.session.state, cid, rows[j] if delta < 0 else (rows[j + 1] if j + 1 < len(rows) else ""))
        if cmd is not None:
            self.act(cmd)

    # --- history -------------------------------------------------------------
    def undo(self) -> None:
        if not self.timeline:
            return
        token = self.timeline.pop()
        if token == "step":
            self.session.undo()
            self.redo_timeline.append("step")
        else:
            current = storage.dumps(self.session)
            self.session = storage.loads(token[1]).session
            self.redo_timeline.append(("setup", current))
            self.draft = None
        self.pending = None
        self.autosave()
        self.follow()
        self.render()

    def redo(self) -> None:
        if not self.redo_timeline:
            return
        token = self.redo_timeline.pop()
        if token == "step":
            self.session.redo()
            self.timeline.append("step")
        else:
            current = storage.dumps(self.session)
            self.session = storage.loads(token[1]).session
            self.timeline.append(("setup", current))
            self.draft = None
        self.autosave()
        self.follow()
        self.render()

    def replace_session(self, new: Session, message: str = "") -> None:
        """Adopt another encounter; undo brings the previous one back."""
        self.timeline.append(("setup", storage.dumps(self.session)))
        self.redo_timeline.clear()
        self.session = new
        self.selected = None
        self.follow_turn = True
        self.pending = None
        self.draft = None
        self.autosave()
        self.follow()
        if message:
            self.notify(message, "ok")
        self.render()

    # --- files, links, storage --------------------------------------------------
    def autosave(self) -> None:
        try:
            window.localStorage.setItem(AUTOSAVE_KEY, storage.dumps(self.session))
        except Exception as exc:  # storage full or disabled: say so, keep playing
            self.notify(f"Autosave failed ({exc}); use Save to keep this encounter.", "error")

    def open_text(self, text: str | bytes, name: str) -> None:
        try:
            loaded = storage.loads(text)
        except storage.LoadError as exc:
            shown = "; ".join(exc.problems[:6]) + (f" (and {len(exc.problems) - 6} more)"
                                                    if len(exc.problems) > 6 else "")
            self.notify(f"{name} was not opened: {shown}. The current encounter is unchanged.", "error")
            self.render()
            return
        self.replace_session(loaded.session, f"Opened {name}.")

    def save_file(self) -> None:
        self.download(storage.dumps(self.session, indent=1), f"{safe_name(self.session.encounter.name)}.fray.json",
                      "application/json")

    def download(self, text: str, filename: str, mime: str) -> None:
        blob = window.Blob.new([text], to_js({"type": mime}, dict_converter=window.Object.fromEntries))
        url = window.URL.createObjectURL(blob)
        a = document.createElement("a")
        a.href = url
        a.download = filename
        document.body.appendChild(a)
        a.click()
        a.remove()
        window.setTimeout(create_proxy(lambda: window.URL.revokeObjectURL(url)), 5000)

    def copy(self, text: str) -> None:
        def done(*_):
            self.dialog = ("share", text, True)
            self.render()

        try:
            window.navigator.clipboard.writeText(text).then(create_proxy(done), create_proxy(lambda *_: None))
        except Exception:
            pass

    # --- the editor -------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        self.mode = mode
        if mode == "setup":
            self.draft = storage.encounter_to_json(self.session.encounter)
            self.problems = []
            self.restart_offer = None
        self.pending = None
        self.render()

    def edit(self, change) -> None:
        base = self.draft if self.draft is not None else storage.encounter_to_json(self.session.encounter)
        try:
            doc = change(base)
        except editor.EditError as exc:
            self.problems = [str(exc)]
            self.render()
            return
        self.apply_setup(doc)

    def edit_field(self, path: str, kind: str, raw: str) -> None:
        try:
            value = editor.convert(kind, raw)
        except editor.EditError as exc:
            self.problems = [f"{path.replace('/', '.')}: {exc}"]
            self.render()
            return
        self.edit(lambda d: editor.set_path(d, path, value))

    def toggle_ally(self, side_index: int, other: str, on: bool) -> None:
        def change(d):
            allies = [a for a in d["sides"][side_index]["allies"] if a != other]
            if on:
                allies.append(other)
            return editor.set_path(d, f"sides/{side_index}/allies", allies)
        self.edit(change)

    def editor_action(self, name: str, arg: str, target) -> None:
        if name == "add":
            sel = document.querySelector("[data-role=add-side-choice]")
            side = str(sel.value) if not is_none(sel) else self.session.encounter.sides[0].id
            self.edit(lambda d: editor.add_combatant(d, arg, side))
        elif name == "add-side":
            self.edit(editor.add_side)
        elif name == "remove-side":
            self.edit(lambda d: editor.remove_side(d, int(arg)))
        elif name == "add-attack":
            self.edit(lambda d: editor.add_attack(d, int(arg)))
        elif name == "remove-attack":
            i, _, j = arg.partition(":")
            self.edit(lambda d: editor.remove_attack(d, int(i), int(j)))
        elif name == "duplicate":
            self.edit(lambda d: editor.duplicate(d, int(arg)))
        elif name == "remove":
            self.edit(lambda d: editor.remove(d, int(arg)))
        elif name == "edit-table":
            # A dialog of ordinary editor fields, one a cell (settings/<key>/<row>/<col>).
            base = self.draft if self.draft is not None else storage.encounter_to_json(self.session.encounter)
            self.draft = table_editor.with_table(base, arg)
            self.dialog = ("table", arg)
            self.render()

    def load_example(self, system: str, name: str) -> None:
        from ..rules import examples

        build = examples(system).get(name)
        if build is None:
            return
        enc = build(self.session.encounter.seed or 1)
        # Through the file format, so an example is exactly what a saved file would give.
        loaded = storage.load({"format": storage.FORMAT, "encounter": storage.encounter_to_json(enc), "steps": []})
        self.replace_session(loaded.session, f"Opened the example “{name.replace('_', ' ')}” (Undo returns to "
                                             "the previous encounter).")
        self.mode = "play"
        self.render()

    def apply_setup(self, doc: dict[str, Any]) -> None:
        problems: list[str] = []
        enc, ruleset = storage.encounter_from_json(doc, problems)
        self.draft = doc
        self.restart_offer = None
        if problems or enc is None:
            self.problems = problems or ["encounter: not valid"]
            self.render()
            return
        s = self.session
        recorded = [(st.command, st.dice) for st in s.steps]
        redo = [(st.command, st.dice) for st in reversed(s.redo_stack)]
        try:
            new = Session.replay(enc, recorded, redo, ruleset=ruleset)
        except (ReplayError, Exception) as exc:
            self.problems = [f"The fight's {len(recorded)} steps do not fit this setup ({exc})."]
            self.restart_offer = doc
            self.render()
            return
        new.physical_dice = s.physical_dice
        self.problems = []
        self.timeline.append(("setup", storage.dumps(s)))
        self.redo_timeline.clear()
        self.session = new
        self.autosave()
        self.follow()
        self.render()

    def restart_with_draft(self) -> None:
        if self.restart_offer is None:
            return
        problems: list[str] = []
        enc, ruleset = storage.encounter_from_json(self.restart_offer, problems)
        if enc is None:
            return
        new = Session(enc, ruleset)
        new.physical_dice = self.session.physical_dice
        self.restart_offer = None
        self.problems = []
        self.replace_session(new, "The fight restarts with the new setup (Undo brings the old one back).")
        self.mode = "setup"
        self.draft = storage.encounter_to_json(new.encounter)
        self.render()

    # --- drawing ------------------------------------------------------------------
    def notify(self, text: str, tone: str = "info") -> None:
        self.notice = (text, tone)

    def views(self) -> tuple[FieldView, ...]:
        s = self.session
        return views_for(s.ruleset, s.encounter.profile)

    def field(self) -> FieldView:
        return self.views()[0]

    def is_phone(self) -> bool:
        return int(window.innerWidth) < 760  # the CSS breakpoint of the one-column layout

    def memo(self, name: str, key: tuple, make):
        """What `make()` gave last time for this `key`, else a fresh value. Keys
        hold engine states themselves: states are frozen and each step makes a
        new one, so the same object means the same fight and nothing derived
        from it needs computing again (a click that only opens a dialog or
        changes the selection reuses the panel, the log, the options...).
        Objects compare by identity, plain values (text, numbers) by value."""
        last = self._memo.get(name)
        if last is not None and len(last[0]) == len(key) and all(
                a is b or (type(a) in _PLAIN and type(a) is type(b) and a == b) for a, b in zip(last[0], key)):
            return last[1]
        value = make()
        self._memo[name] = (key, value)
        return value

    def panel(self):
        s = self.session
        return self.memo("panel", (s.state,), lambda: system_view(s.encounter.system).panel(s.state))

    def current(self) -> tuple[str, ...]:
        s = self.session
        return self.memo("current", (s.state,), s.current)

    def field_context(self) -> FieldContext:
        s = self.session
        return FieldContext(state=s.state, ruleset=s.ruleset, panel=self.panel(), selected=self.selected,
                            current=self.current(), pending=self.pending[1] if self.pending else None,
                            options=self.options, cursor=self.cursor, ui=self.field_ui)

    def set_data(self, id_: str, name: str, value: str) -> None:
        """Set an element's data-* attribute when it changed (each write crosses into JS)."""
        if self._attrs.get((id_, name)) != value:
            setattr(self.el(id_).dataset, name, value)
            self._attrs[(id_, name)] = value

    def set_html(self, slot: str, markup: str) -> bool:
        """Write a panel only when its markup changed; True if it was written.
        If the focus was inside, it returns to the control with the same action
        (or the panel's first control), so a keyboard or screen-reader user
        keeps their place after each redraw."""
        if self._html.get(slot) == markup:
            return False
        el = self.el(slot)
        active = document.activeElement
        # The slot itself (the field's keyboard cursor) keeps the focus through innerHTML.
        inside = not (active is None or is_none(active)) and el.contains(active) and not active.isSameNode(el)
        focused = (attr(active, "data-action") or "*") if inside else ""
        el.innerHTML = markup
        self._html[slot] = markup
        if focused:
            again = None if focused == "*" else el.querySelector(f'[data-action="{focused}"]')
            if again is None or is_none(again):
                again = el.querySelector("button:not([disabled]):not(.refused), input, select")
            if again is not None and not is_none(again):
                again.focus()
        return True

    def set_editor(self, markup: str) -> None:
        """Redraw the setup form keeping the combatants and settings the referee opened and the field the
        focus is in (a change applies once Tab has moved the focus on, see on_change): a keyboard user
        editing one field after another is not thrown back to the top of the page."""
        slot = self.el("editor-slot")
        was = document.activeElement
        keep = ""
        if not is_none(was) and bool(slot.contains(was)):
            keep = next((f'[{a}="{window.CSS.escape(attr(was, a))}"]' for a in ("data-path", "data-testid",
                                                                              "data-action") if attr(was, a)), "")
        opened = [f'details[data-testid="{attr(d, "data-testid")}"]' if attr(d, "data-testid")
                  else "details." + str(d.className).split()[0] for d in slot.querySelectorAll("details[open]")]
        if not self.set_html("editor-slot", markup):
            return
        for sel in opened:
            d = slot.querySelector(sel)
            if not is_none(d):
                d.open = True
        if keep:
            self.focus_first("#editor-slot " + keep)

    def set_rows(self, slot: str, container: str, rows: list[str], wrap) -> None:
        """Write a list panel (`wrap(rows)`, one element per row inside `container`):
        when only a few rows changed (a new selection changes two of forty),
        replace those rows' elements instead of the whole panel."""
        old = self._rows.get(slot)
        if old is rows:
            return
        self._rows[slot] = rows
        changed = [] if old is None or len(old) != len(rows) else \
            [i for i, (a, b) in enumerate(zip(old, rows)) if a is not b and a != b]
        box = self.el(slot).querySelector(container) if old is not None and self._html.get(slot) else None
        if changed and 2 * len(changed) <= len(rows) and not is_none(box) and box is not None \
                and int(box.childElementCount) == len(rows):
            items = box.children
            for i in changed:
                items.item(i).outerHTML = rows[i]
            self._html[slot] = wrap(rows)
            return
        self.set_html(slot, wrap(rows))

    def focus_first(self, selector: str) -> None:
        target = document.querySelector(selector)
        if not is_none(target):
            target.focus()

    def render(self, field: bool = True) -> None:
        """Redraw what changed. Each panel is rebuilt only when its inputs
        changed (see memo) and written only when its markup differs;
        `field=False` when a click changed neither the fight nor the selection
        (a dialog, a notice), so the field views are not redrawn."""
        s = self.session
        state = s.state
        if self.selected is None:
            self.follow()
        panel = self.panel()
        sides = {sd.id: sd for sd in state.sides}
        enc = s.encounter
        title = titles().get(enc.system, enc.system)
        if enc.profile:
            title += f" · {enc.profile}"
        head = panels.HeaderModel(enc.name, title, panel.status, bool(self.timeline), bool(self.redo_timeline),
                                  state.outcome, self.mode, "physical" if s.physical_dice else "app")
        self.set_html("header-slot", self.memo("header", tuple(vars(head).values()), lambda: panels.header(head)))
        text, tone = self.notice
        self.set_html("notice-slot", self.memo("notice", (text, tone), lambda: panels.notice(text, tone)))
        self.set_data("layout", "tab", self.tab)
        self.set_data("layout", "mode", self.mode)
        self.set_data("layout", "view", s.ruleset.field_view_for(enc.profile))
        if self.mode == "setup":
            doc = self.draft if self.draft is not None else storage.encounter_to_json(enc)
            ruleset = s.ruleset
            if doc.get("system") in SYSTEMS:
                from ..rules import get as get_ruleset
                ruleset = get_ruleset(doc["system"])
            restart = ""
            if self.restart_offer is not None:
                restart = panels.h("button", {"type": "button", "data-action": "restart",
                                              "data-testid": "restart"}, "Restart the fight with this setup")
            self.set_editor(Markup(editor.render(doc, ruleset, self.problems, len(s.steps)) + restart))
        elif self._html.pop("editor-slot", None):
            self.el("editor-slot").innerHTML = ""
        sel = self.selected

        def order():
            conditions = {c.id: c.conditions for c in state.combatants if c.conditions}
            return panels.order_rows(panel, sides, sel, conditions)

        self.set_rows("order-slot", "ol", self.memo("order", (state, sel), order), panels.order_list)
        self.options = self.memo("options", (state, sel), lambda: (
            s.ruleset.options(state, sel) + system_view(enc.system).referee(state, sel)) if sel else [])
        menu = self.memo("menu", (state, sel), lambda: action_menu(s.ruleset, state, sel, panel, self.options))
        self.numbers = numbered(menu)
        self.set_html("actions-slot", self.memo("actions", (state, sel, self.pending),
                                                lambda: self.actions_html(menu)))
        dice = ("physical" if s.physical_dice else "app", self.last_roll)
        self.set_html("dice-slot", self.memo("dice", dice, lambda: panels.dice_panel(*dice)))

        def log():
            lines = log_lines(s, LOG_LIMIT)
            return panels.log_panel(lines, sum(len(st.events) for st in s.steps))

        self.set_html("log-slot", self.memo("log", (s, state), log))
        if field:
            ctx = self.field_context()
            drawn = {"field-slot": "", "phase-slot": "", "ruler-slot": ""}
            for view in self.views():
                drawn[view.slot] += view.render(ctx)
            for slot, markup in drawn.items():
                self.set_html(slot, markup)
        self.set_html("tabs-slot", self.memo("tabs", (self.tab,), lambda: panels.tabs(self.tab)))
        dialog = self.dialog_html()
        keep = ""
        if dialog and self._html.get("dialog-slot") != dialog:
            was = document.activeElement
            keep = "" if is_none(was) or is_none(was.closest("#dialog-slot")) else attr(was, "data-path")
        if self.set_html("dialog-slot", dialog) and dialog:
            # Keyboard users land in the dialog (Esc closes it); the field they are in keeps the focus,
            # its text selected as Tab leaves it, so typing replaces it.
            self.focus_first(f'#dialog-slot [data-path="{window.CSS.escape(keep)}"]' if keep
                             else "#dialog-slot input, #dialog-slot textarea, #dialog-slot button")
            if keep and str(document.activeElement.tagName) == "INPUT":
                document.activeElement.select()
        elif self.pending is not None and self._asked != self.pending:
            self.focus_first("[data-testid=ask] button.choice, [data-testid=ask] input")
        self._asked = self.pending
        title = f"Fray · {enc.name}"
        if self._attrs.get(("document", "title")) != title:
            document.title = title
            self._attrs[("document", "title")] = title

    def actions_html(self, menu) -> Markup:
        """The action panel: the menu, the question being asked, the referee's tools."""
        state = self.session.state
        ask = None
        if self.pending is not None:
            index, o = self.pending
            need = o.needs[0] if o.needs else ""
            if need and need not in SPATIAL_NEEDS and ":" not in need:
                need = f"text:{need}"
            ask = panels.AskModel(index, o.question or o.label, tuple((c.label, c.detail) for c in o.choices),
                                  need, need_label(need))
        referee = ""
        if self.selected and state.has(self.selected):
            c = state.get(self.selected)
            referee = panels.referee_tools(c.name, c.id, c.hp, c.max_hp, c.conditions)
        return panels.actions(menu, ask, referee)

    def dialog_html(self) -> str:
        d = self.dialog
        if d is None:
            return ""
        if d[0] == "help":
            return panels.help_dialog()
        if d[0] == "share":
            return panels.share_dialog(d[1], d[2])
        if d[0] == "rule":
            return panels.rule_popover(d[1], catalogue.text(d[1]))
        if d[0] == "dice":
            need = d[1]
            return panels.dice_entry(need.purpose or need.expr, need.count, need.sides, len(d[3]))
        if d[0] == "table":
            doc = self.draft if self.draft is not None else storage.encounter_to_json(self.session.encounter)
            return table_editor.render(doc, d[1], self.problems)
        return ""


def attr(el, name: str) -> str:
    """An element's attribute as text ("" when absent; JS null is not None)."""
    value = el.getAttribute(name)
    return "" if is_none(value) else str(value)


def need_label(need: str) -> str:
    kind = need.split(":")[0]
    return {
        "path": "Choose the destination on the map (the path shows where attacks of opportunity would fire).",
        "square": "Choose a square on the map.",
        "band": "Choose a zone in the field.",
        "target": "Choose a target in the field.",
    }.get(kind, need.split(":")[-1].replace("_", " ").capitalize())


def parse_int(raw: str, what: str) -> int | None:
    try:
        return int(raw.strip())
    except (ValueError, AttributeError):
        return None


def safe_name(name: str) -> str:
    out = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name.strip())[:60].strip("-")
    return out or "encounter"


_app: App | None = None


def start() -> None:
    global _app
    if "selftest=1" in str(window.location.search):
        install_selftest()
    _app = App()
    _app.boot()


def install_selftest() -> None:
    """Only with `?selftest=1` in the URL: `window.frayPlayout(casesJson, maxSteps)` plays seeded random
    fights in this page's Python and returns their digests as JSON (tests/e2e/test_in_page_playouts.py
    compares them with CPython's). Not part of the normal start-up."""
    import json
    import sys

    from .. import playout

    def run(cases, max_steps) -> str:
        return json.dumps({"python": sys.version, "results": playout.run_many(json.loads(str(cases)),
                                                                               int(max_steps))})

    window.frayPlayout = create_proxy(run)
