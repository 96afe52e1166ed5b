"""DOM patching: the one place that writes the page's panels into their slots.

The page is a set of slots (elements with an id: "header-slot", "order-slot",
"field-slot"...) whose markup is rebuilt from the state after every click.
`Slots` writes one only when its markup changed, and then not by replacing
it: one call into JS (`MORPH`, below) parses the new markup and morphs the
slot's nodes into it in place: elements keyed by `id`, `data-key`,
`data-testid` or `data-id` (a combatant's row, a token) are kept and moved,
attributes, classes and text are set only where they differ, and only what
is new is created. A selection is then a class change on two rows and two
tokens: the browser restyles, lays out and repaints those, not the page.
It keeps a form's opened sections and the focus through a redraw (`form`,
`dialog`), and sets data-* attributes and the title only when they change.
`Memo` keeps what a panel's builder gave for the same inputs, so an
unchanged panel is not even rebuilt.

Everything here is output: nothing read back from the DOM is a game fact.
(A field view may still patch nodes inside its own slot between redraws:
ui/field/grid.py's hover overlays, which `amend` records, and its viewBox and
dragged tokens, marked by a `data-gen` counter that makes the next write whole.)
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

from pyscript import document, window
from pyscript.ffi import is_none, to_js

from ..markup.html import REGION_SEP, REGION_START, SHIFT_AFTER, changed_items, unmarked, with_parts

_PLAIN = (str, int, float, bool, type(None))  # memo keys compared by value; anything else by identity


# The one morphing routine, made once in the browser. Form controls end as the markup says (as if
# written afresh), like innerHTML did; nodes not in the new markup are removed, new ones created.
MORPH_JS = r"""
const key = (n) => n.nodeType !== 1 ? null :
  (n.id || n.getAttribute("data-key") || n.getAttribute("data-testid") || n.getAttribute("data-id") || null);
const attrs = (a, b) => {
  const want = b.attributes;
  for (let i = 0; i < want.length; i++) {
    const at = want[i];
    if (a.getAttribute(at.name) !== at.value) a.setAttribute(at.name, at.value);
  }
  const have = a.attributes;
  for (let i = have.length - 1; i >= 0; i--) {
    const name = have[i].name;
    if (!b.hasAttribute(name)) a.removeAttribute(name);
  }
};
// An element equal to its new markup, attributes and all (compared natively, in one call), with no form
// control inside whose live value could differ from what the markup says, is left as it is: most of
// a new selection's action panel, and every unchanged token of a map written whole.
const CONTROLS = "input, textarea, select";
const node = (a, b) => {
  if (a.nodeType !== 1) { if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue; return; }
  if (a.isEqualNode(b) && !a.matches(CONTROLS) && a.querySelector(CONTROLS) === null) return;
  attrs(a, b);
  const tag = a.nodeName;
  if (tag === "INPUT") {
    const type = a.type;
    if (type === "checkbox" || type === "radio") {
      const c = b.hasAttribute("checked");
      if (a.checked !== c) a.checked = c;
    } else if (type !== "file") {
      const v = b.getAttribute("value") || "";
      if (a.value !== v) a.value = v;
    }
    return;
  }
  if (tag === "TEXTAREA") { if (a.value !== b.textContent) a.value = b.textContent; }
  children(a, b);
  if (tag === "SELECT") {
    const opts = a.options;
    for (let i = 0; i < opts.length; i++) {
      const s = opts[i].hasAttribute("selected");
      if (s && !opts[i].selected) opts[i].selected = true;
    }
  }
  if (tag === "OPTION" && a.selected !== a.hasAttribute("selected")) a.selected = a.hasAttribute("selected");
};
// A node with no keyed match takes over the old node in its place when that one would be removed
// anyway (unkeyed, or keyed by a key the new children do not have, or a duplicate its key never
// finds): its attributes and text are edited in place, so another combatant's action panel is
// text and attribute changes on the same elements, not forty wrappers' contents removed and
// created afresh (each new element restyled and laid out).
const children = (to, from) => {
  let old = null;
  for (let c = to.firstChild; c; c = c.nextSibling) {
    const k = key(c);
    if (k !== null) { if (old === null) old = new Map(); if (!old.has(k)) old.set(k, c); }
  }
  let wanted = null;
  if (old !== null) {
    for (let c = from.firstChild; c; c = c.nextSibling) {
      const k = key(c);
      if (k !== null) { if (wanted === null) wanted = new Set(); wanted.add(k); }
    }
  }
  const spare = (c) => {
    const ck = key(c);
    return ck === null || wanted === null || !wanted.has(ck) || old.get(ck) !== c;
  };
  let cur = to.firstChild;
  let nxt = from.firstChild;
  while (nxt) {
    const after = nxt.nextSibling;
    const k = key(nxt);
    let match = null;
    if (k !== null) {
      const m = old === null ? undefined : old.get(k);
      if (m !== undefined && m.nodeName === nxt.nodeName) { match = m; old.delete(k); }
    }
    if (match === null && cur && cur.nodeType === nxt.nodeType && cur.nodeName === nxt.nodeName && spare(cur)) {
      match = cur;
      const ck = key(cur);
      if (ck !== null && old.get(ck) === cur) old.delete(ck);
    }
    if (match === null) to.insertBefore(nxt, cur);
    else {
      if (match === cur) cur = cur.nextSibling; else to.insertBefore(match, cur);
      node(match, nxt);
    }
    nxt = after;
  }
  while (cur) { const n = cur.nextSibling; to.removeChild(cur); cur = n; }
};
const tpl = document.createElement("template");
// The focus inside the slot stays on its control (kept in place, or the new one with the same
// data-action, else the slot's first control), so a keyboard user keeps their place.
const refocus = (el, active, action) => {
  // (kept only while it is still that control: a node morphed in place may now be another's)
  if (active.isConnected && el.contains(active) && (!action || active.getAttribute("data-action") === action)) {
    if (document.activeElement !== active) active.focus();
    return;
  }
  let again = action ? el.querySelector('[data-action="' + CSS.escape(action) + '"]') : null;
  if (!again) again = el.querySelector("button:not([disabled]):not(.refused), input, select");
  if (again) again.focus();
};
// A slot's region items and parts written one by one: edits are [region, item, markup, ...] (ui/markup/html.py's
// `region`: the holders are the slot's [data-region] elements in document order, an item is one child
// element) and [-1, id, markup] for a part (`part`: the element with that id).
// False when the page is not as the slot was last written; then the caller writes the slot whole.
const SVG = "http://www.w3.org/2000/svg";
const patch = (el, edits, count) => {
  const boxes = el.querySelectorAll("[data-region]");
  if (boxes.length !== count) return false;
  for (let j = 0; j < edits.length; j += 3) {
    const r = edits[j];
    if (r === -2) {  // the outer element's attributes: its start tag, parsed alone
      tpl.innerHTML = edits[j + 2];
      const fresh = tpl.content.firstElementChild, root = el.firstElementChild;
      if (!fresh || !root || root.nodeName !== fresh.nodeName) return false;
      attrs(root, fresh);
      continue;
    }
    const box = r < 0 ? null : boxes[r];
    if (box && Array.isArray(edits[j + 1])) {  // a splice: [index, how many removed], then the items put there
      const at = edits[j + 1][0], gone = edits[j + 1][1];
      if (at + gone > box.children.length) return false;
      for (let k = 0; k < gone; k++) box.removeChild(box.children[at]);
      const svg = box.namespaceURI === SVG;
      tpl.innerHTML = svg ? "<svg>" + edits[j + 2] + "</svg>" : edits[j + 2];
      const made = svg ? tpl.content.firstChild : tpl.content, put = document.createDocumentFragment();
      while (made && made.firstChild) put.appendChild(made.firstChild);
      box.insertBefore(put, box.children[at] || null);
      continue;
    }
    const old = r < 0 ? el.querySelector("#" + CSS.escape(edits[j + 1])) : box.children[edits[j + 1]];
    if (!old) return false;
    const svg = old.namespaceURI === SVG;
    tpl.innerHTML = svg ? "<svg>" + edits[j + 2] + "</svg>" : edits[j + 2];
    const fresh = svg ? tpl.content.firstChild.firstElementChild : tpl.content.firstElementChild;
    if (!fresh) return false;
    if (key(old) === key(fresh) && old.nodeName === fresh.nodeName) node(old, fresh);
    else old.replaceWith(fresh);
  }
  tpl.innerHTML = "";
  return true;
};
// (count -1: the slot's children made anew from `html`, none kept: ui/dom/patch.py `Slots.fresh`.)
return (el, html, edits, count) => {
  const active = document.activeElement;
  const inside = active && active !== el && el.contains(active);
  const action = inside ? active.getAttribute("data-action") : null;
  if (count === -1) {
    tpl.innerHTML = html;
    el.replaceChildren(tpl.content);
    if (inside) refocus(el, active, action);
    return true;
  }
  if (edits && patch(el, edits, count)) {
    if (inside) refocus(el, active, action);
    return true;
  }
  if (edits) return false;
  tpl.innerHTML = html;
  const fresh = tpl.content;
  if (!el.firstChild) el.appendChild(fresh);
  else { children(el, fresh); tpl.innerHTML = ""; }
  if (inside) refocus(el, active, action);
  return true;
};
"""
_morph: list[Any] = []


def _morpher():
    if not _morph:
        make = getattr(window, "Function", None)  # absent only in the CPython tests' fake window
        _morph.append(make(MORPH_JS)() if make is not None else None)
    return _morph[0]


_FRAME_FNS: dict[str, Any] = {}
_OFFSTAGE = [False]  # a drawing made aside (ui/page/paint.py): it schedules nothing and moves no focus


@contextmanager
def offstage() -> Iterator[None]:
    """While a drawing is made aside, `next_frame` and `focus_first` do nothing."""
    _OFFSTAGE[0] = True
    try:
        yield
    finally:
        _OFFSTAGE[0] = False


def next_frame(source: str) -> None:
    """Run, in the next animation frame, the JS function that `source` returns (made once): work that
    reads the layout of what was just written (keeping a selection in view), in one crossing, when the
    frame lays it out anyway."""
    if _OFFSTAGE[0]:
        return
    fn = _FRAME_FNS.get(source)
    if fn is None:
        make = getattr(window, "Function", None)  # absent only in the CPython tests' fake window
        if make is None:
            return
        fn = _FRAME_FNS[source] = make(source)()
    window.requestAnimationFrame(fn)


def morph(el, markup: str) -> None:
    """Make `el`'s children match `markup`, touching only what differs: one call into JS."""
    fn = _morpher()
    if fn is None:
        el.innerHTML = unmarked(markup)
    else:
        fn(el, unmarked(markup))


def patch_items(el, markup: str, edits: list, count: int) -> None:
    """Write only the changed items of `el`'s regions (edits: region, item, markup...); the whole slot
    if the page is not as it was last written. One call into JS (two in the second case)."""
    fn = _morpher()
    if fn is None or not fn(el, "", to_js(edits), count):
        morph(el, markup)


def attr(el, name: str) -> str:
    """An element's attribute as text ("" when absent; JS null is not None)."""
    value = el.getAttribute(name)
    return "" if is_none(value) else str(value)


def focus_first(selector: str) -> None:
    """Focus the first element matching `selector`, if any."""
    if _OFFSTAGE[0]:
        return
    target = document.querySelector(selector)
    if not is_none(target):
        target.focus()


def _present(el) -> bool:
    return el is not None and not is_none(el)


class Memo:
    """What `make()` gave last time for the same key, per panel name.

    Keys hold engine states themselves: states are frozen and each step makes
    a new one, so the same object means the same fight and nothing derived
    from it needs computing again (a click that only opens a dialog or changes
    the selection reuses the panel, the log, the options...). Objects compare
    by identity, plain values (text, numbers) by value."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[tuple, Any]] = {}

    def __call__(self, name: str, key: tuple, make: Callable[[], Any]) -> Any:
        last = self._last.get(name)
        if last is not None and len(last[0]) == len(key) and all(
                a is b or (type(a) in _PLAIN and type(a) is type(b) and a == b) for a, b in zip(last[0], key)):
            return last[1]
        value = make()
        self._last[name] = (key, value)
        return value


class StateCaches:
    """What was worked out for each of the last few states (options, menus, action panels per
    combatant), by state identity. An undo returns to the very state object before the step
    (engine/session.py), so its selection is ready again instead of computed anew; a new step
    makes a new state and the oldest of the few is dropped."""

    def __init__(self, keep: int = 3) -> None:
        self.keep = keep
        self._recent: list[tuple[Any, dict]] = []  # (state, caches), the latest first

    def of(self, state: Any) -> dict:
        for i, (s, caches) in enumerate(self._recent):
            if s is state:
                if i:
                    self._recent.insert(0, self._recent.pop(i))
                return caches
        caches: dict = {}
        self._recent.insert(0, (state, caches))
        del self._recent[self.keep:]
        return caches


class Slots:
    """The page's slots and what was last written into each."""

    def __init__(self) -> None:
        self._els: dict[str, Any] = {}
        self._html: dict[str, str] = {}  # slot -> markup last written
        self._rows: dict[str, list[str]] = {}  # list panel -> rows last written (see rows)
        self._wrapped: dict[str, str | None] = {}  # list panel -> its markup, when its rows are its one region
        self._attrs: dict[tuple[str, str], str] = {}  # (element id, data-* name) -> value last written

    def el(self, id_: str):
        """The element with this id (looked up once)."""
        e = self._els.get(id_)
        if e is None:
            e = document.getElementById(id_)
            self._els[id_] = e
        return e

    def written(self, slot: str) -> str:
        """The markup last written into `slot` ("" if none)."""
        return self._html.get(slot, "")

    def html(self, slot: str, markup: str) -> bool:
        """Write a slot only when its markup changed; True if it was written.
        If the focus was inside, it returns to the control with the same
        action (or the slot's first control), so a keyboard or screen-reader
        user keeps their place after each redraw."""
        old = self._html.get(slot)
        if old == markup:
            return False
        edits = changed_items(old, markup)
        if edits is None:
            morph(self.el(slot), markup)  # the focus is kept in JS too: one crossing
        else:
            patch_items(self.el(slot), markup, *edits)
        self._html[slot] = markup
        return True

    def fresh(self, slot: str, markup: str) -> bool:
        """Write a slot whose markup changed with new elements, none edited in place (the focus returns to
        the control with the same action, as in `html`); True if it was written. An element found in it
        before (a tap's target, a test's handle) is then gone from the page, never another's."""
        if self._html.get(slot) == markup:
            return False
        fn = _morpher()
        el = self.el(slot)
        # The sections the referee opened stay open (the Referee tools under every combatant's actions).
        opened = [f'details[data-testid="{attr(d, "data-testid")}"]' if attr(d, "data-testid")
                  else "details." + str(d.className).split()[0] for d in el.querySelectorAll("details[open]")]
        if fn is None:
            el.innerHTML = unmarked(markup)
        else:
            fn(el, unmarked(markup), None, -1)
        for sel in opened:
            d = el.querySelector(sel)
            if _present(d):
                d.open = True
        self._html[slot] = markup
        return True

    def amend(self, slot: str, parts: dict[str, str]) -> None:
        """Note that a view patched these parts of `slot` in place (id -> the part's markup now: ui/field/grid.py's
        hover overlays), so the slot's next write is compared with what the page holds."""
        old = self._html.get(slot)
        if old:
            self._html[slot] = with_parts(old, parts)

    def clear(self, slot: str) -> None:
        """Empty a slot that held something (a panel that is not shown now)."""
        if self._html.pop(slot, None):
            self.el(slot).innerHTML = ""

    def rows(self, slot: str, container: str, rows: list[str], wrap: Callable[[list[str]], str]) -> None:
        """Write a list panel (`wrap(rows)`, one element per row inside
        `container`): the same list object means unchanged; otherwise the
        morph keeps every row whose markup is the same (a new selection
        changes two of forty) and edits the others in place."""
        old = self._rows.get(slot)
        if old is rows:
            return
        self._rows[slot] = rows
        markup = wrap(rows)
        last = self._html.get(slot)
        if old is not None and last is not None and len(old) == len(rows) and last is self._wrapped.get(slot) \
                and self._html.get(slot) != markup:
            # The same wrapping, one region whose items are the rows (checked when it was written whole):
            # the edits are the rows that differ, found by identity first (a row's markup is kept per row,
            # panels.order_rows), with no markup cut apart (ui/markup/html.py `changed_items`).
            edits: list = []
            for i, (a, b) in enumerate(zip(old, rows)):
                if a is not b and a != b:
                    edits += [0, i, unmarked(b)]
            if len(edits) <= 3 * SHIFT_AFTER:
                patch_items(self.el(slot), markup, edits, 1)
                self._html[slot] = self._wrapped[slot] = markup
                return
        self.html(slot, markup)
        # Rows written through `html`: edited row by row next time only if the rows are the one region.
        one = markup.count(REGION_START) == 1 and "<!--[" not in markup and not any(
            REGION_START in r or REGION_SEP in r for r in rows)
        self._wrapped[slot] = self._html.get(slot) if one else None

    def form(self, slot: str, markup: str) -> None:
        """Write a form keeping the sections the referee opened and the field
        the focus is in (a change applies once Tab has moved the focus on), so
        a keyboard user editing one field after another is not thrown back to
        the top of the page."""
        el = self.el(slot)
        was = document.activeElement
        keep = ""
        if _present(was) and bool(el.contains(was)):
            keep = next((f'[{a}="{window.CSS.escape(attr(was, a))}"]' for a in ("data-path", "data-testid",
                                                                              "data-action") if attr(was, a)), "")
        opened = [f'details[data-testid="{attr(d, "data-testid")}"]' if attr(d, "data-testid")
                  else "details." + str(d.className).split()[0] for d in el.querySelectorAll("details[open]")]
        if not self.html(slot, markup):
            return
        for sel in opened:
            d = el.querySelector(sel)
            if _present(d):
                d.open = True
        if keep:
            focus_first(f"#{slot} {keep}")

    def dialog(self, slot: str, markup: str) -> bool:
        """Write a dialog; True if it was written and is open. Keyboard users
        land in it (Esc closes it); the field they are in keeps the focus, its
        text selected as Tab leaves it, so typing replaces it."""
        keep = ""
        if markup and self._html.get(slot) != markup:
            was = document.activeElement
            keep = "" if is_none(was) or is_none(was.closest(f"#{slot}")) else attr(was, "data-path")
        if not (self.html(slot, markup) and markup):
            return False
        focus_first(f'#{slot} [data-path="{window.CSS.escape(keep)}"]' if keep
                    else f"#{slot} input, #{slot} textarea, #{slot} button")
        if keep and str(document.activeElement.tagName) == "INPUT":
            document.activeElement.select()
        return True

    def data(self, id_: str, name: str, value: str) -> None:
        """Set an element's data-* attribute when it changed (the first time, when it differs from what the
        page holds: a painted start already has it, ui/page/paint.py)."""
        known = self._attrs.get((id_, name))
        if known != value:
            dataset = self.el(id_).dataset
            if known is not None or getattr(dataset, name, None) != value:
                setattr(dataset, name, value)
            self._attrs[(id_, name)] = value

    def title(self, text: str) -> None:
        """Set the document's title when it changed."""
        if self._attrs.get(("document", "title")) != text:
            document.title = text
            self._attrs[("document", "title")] = text
