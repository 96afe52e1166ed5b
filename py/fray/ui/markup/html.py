"""Building HTML as text, safely: every value is escaped unless marked Markup.

The page draws each panel as one string and sets it in one call (crossing into
JS per element is what makes views slow, PERF-NOTES). Everything the user
typed passes through `esc`, so a name like `<img src=x onerror=...>` is shown
as text, never parsed as HTML. Pure: no browser imports, tested in CPython.
"""
from __future__ import annotations

import html as _html
import re
from typing import Iterable

from ... import catalogue
from ...engine.cache import Cache
from ...views.models import initials  # noqa: F401 (re-exported for the views drawn here)


class Markup(str):
    """Text already safe to insert as HTML (built by these helpers)."""

    __slots__ = ()


def esc(value: object) -> Markup:
    if isinstance(value, Markup):
        return value
    return Markup(_html.escape("" if value is None else str(value), quote=True))


_VOID = {"input", "br", "img", "hr", "meta", "link"}


def h(tag: str, attrs: dict[str, object] | None = None, *children: object) -> Markup:
    """An element: attribute values and text children are escaped; Markup
    children (other elements) are inserted as they are. False/None attributes
    are left out; True gives a bare attribute."""
    parts = [f"<{tag}"]
    if attrs:
        for k, v in attrs.items():
            if v is None or v is False:
                continue
            name = "class" if k == "class_" else k.replace("_", "-")
            if v is True:
                parts.append(f" {name}")
            else:
                parts.append(f' {name}="{esc(v)}"')
    parts.append(">")
    if tag in _VOID:
        return Markup("".join(parts))
    for c in children:
        parts.append(join(c) if isinstance(c, (list, tuple)) else esc(c))
    parts.append(f"</{tag}>")
    return Markup("".join(parts))


# Regions and parts: what ui/dom/patch.py can write piece by piece instead of the whole slot. A region is
# the children of one element, one item each (rows, tokens, lanes); a part is one element with an id
# (a map layer, a toolbar). Their marks are HTML comments, which escaped text can never contain (its
# "<" is "&lt;"); they are taken out before the markup reaches the page.
REGION_START, REGION_SEP, REGION_END = "<!--{-->", "<!--,-->", "<!--}-->"
PART_END = "<!--]-->"
_MARK = re.compile(r"<!--(\{|,|\}|\[[\w-]+|\])-->")


def region(items: Iterable[object]) -> Markup:
    """The children of the element that holds them, marked so that a redraw writes only the items that
    changed. The holding element has a `data-region` attribute and starts with them; each item is one
    element; regions and parts do not nest."""
    return Markup(REGION_START + REGION_SEP.join(join(i) if isinstance(i, (list, tuple)) else esc(i)
                                                 for i in items) + REGION_END)


def part(id_: str, markup: object) -> Markup:
    """One element whose markup has `id="<id_>"`, marked so that a redraw that changes only it (and other
    parts and region items) writes only it."""
    return Markup(f"<!--[{id_}-->" + esc(markup) + PART_END)


def with_parts(markup: str, parts: dict[str, str]) -> str:
    """`markup` with the named parts' markup replaced (a part not in it is left out)."""
    for id_, body in parts.items():
        mark = f"<!--[{id_}-->"
        start = markup.find(mark)
        end = -1 if start < 0 else markup.find(PART_END, start)
        if end >= 0:
            markup = markup[:start + len(mark)] + body + markup[end:]
    return markup


def unmarked(markup: str) -> str:
    """The markup without its marks (what the page holds)."""
    if "<!--[" in markup:
        return _MARK.sub("", markup)
    if REGION_START not in markup:
        return markup
    return markup.replace(REGION_START, "").replace(REGION_SEP, "").replace(REGION_END, "")


def pieces(markup: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[tuple[str, str], ...]]:
    """The markup cut at its marks: the text around the regions and parts, each region's items, and each
    part's id and markup (both in the order they come)."""
    around, regions, parts = [], [], []
    pos, kind, items, start = 0, "", [], 0
    for m in _MARK.finditer(markup):
        tok = m.group(1)
        if not kind:
            if tok == "{":
                kind, items, start = "{", [], m.end()
            elif tok[0] == "[":
                kind, name, start = "[", tok[1:], m.end()
            else:
                continue
            around.append(markup[pos:m.start()] + kind)
        elif kind == "{" and tok == ",":
            items.append(markup[start:m.start()])
            start = m.end()
        elif kind == "{" and tok == "}":
            if start != m.start() or items:
                items.append(markup[start:m.start()])
            regions.append(tuple(items))
            kind, pos = "", m.end()
        elif kind == "[" and tok == "]":
            parts.append((name, markup[start:m.start()]))
            kind, pos = "", m.end()
    around.append(markup[pos:])
    return tuple(around), tuple(regions), tuple(parts)


def join(items: Iterable[object]) -> Markup:
    return Markup("".join(join(i) if isinstance(i, (list, tuple)) else esc(i) for i in items))


_RULE_ID = re.compile(r"\b((?:CORE|OLOG|OSE|OGRE)-[A-Z]+-\d+)\b")


def with_rules(text: str) -> Markup:
    """Escape text and turn each rule id into a chip that reveals the rule's
    text on hover (title) and on tap/focus (UI principle 3)."""
    out = []
    pos = 0
    for m in _RULE_ID.finditer(text):
        start, end = m.start(), m.end()
        # "(OLOG-BAND-1)": the brackets stay on the chip's line, not "Club (" on one and the chip on the next.
        opened = start > pos and text[start - 1] == "("
        closed = opened and text[end:end + 1] == ")"
        out.append(esc(text[pos:start - 1 if opened else start]))
        chip = rule_chip(m.group(1))
        out.append(h("span", {"class_": "rule-nobr"}, "(", chip, ")" if closed else "") if opened else chip)
        pos = end + 1 if closed else end
    out.append(esc(text[pos:]))
    return Markup("".join(out))


def rule_chip(rule_id: str) -> Markup:
    rule_text = catalogue.text(rule_id)
    return h("button", {"type": "button", "class_": "rule", "data-action": f"rule:{rule_id}",
                        "title": f"{rule_id}: {rule_text}" if rule_text else rule_id,
                        "aria-label": f"Rule {rule_id}"}, rule_id)


def changed_items(old: str | None, new: str) -> tuple[list, int] | None:
    """When `new` differs from `old` only inside its regions and its parts: the edits that make the one
    into the other, three values each ([region, item, markup] for an item written in place,
    [region, [index, removed], markup] for items put in or taken out, [-1, id, markup] for a part,
    [-2, 0, start tag] for the outer element's attributes; read by ui/dom/patch.py's MORPH_JS), and the number
    of regions. None when the slot must be written whole."""
    if old is None or "<!--" not in new or "<!--" not in old:
        return None
    around, items, parts = _pieces_of(new)
    was_around, was_items, was_parts = _pieces_of(old)
    if (not items and not parts) or len(items) != len(was_items) \
            or [n for n, _ in parts] != [n for n, _ in was_parts]:
        return None
    edits: list = []
    if around != was_around:  # only the outer element's attributes may differ (the ruler's segment now)
        tag, rest = _open_tag(around[0])
        _, was_rest = _open_tag(was_around[0])
        if not tag or rest != was_rest or around[1:] != was_around[1:]:
            return None
        edits += [-2, 0, tag + f"</{tag[1:].split(None, 1)[0].rstrip('>')}>"]
    for r, (now, was) in enumerate(zip(items, was_items)):
        changed = [i for i, (a, b) in enumerate(zip(now, was)) if a != b]
        if len(now) == len(was) and len(changed) <= SHIFT_AFTER:
            for i in changed:
                edits += [r, i, unmarked(now[i])]
        else:  # items came or went (a log's new lines on top, its oldest dropped): what moved is kept
            edits += _splices(r, was, now)
    for (name, a), (_, b) in zip(parts, was_parts):
        if a != b:
            edits += [-1, name, unmarked(a)]
    return edits, len(items)


# Past this many changed items in a region of the same length, the items are compared as sequences, so a
# list whose items all moved down one place is written as one new item and one dropped, not all rewritten.
SHIFT_AFTER = 8


_CUT = Cache(24)  # the last markups cut (the next redraw's `old` is this one's `new`)


def _pieces_of(markup: str) -> tuple:
    return _CUT.get(markup, lambda: pieces(markup))


def _open_tag(text: str) -> tuple[str, str]:
    """The first element's start tag and what follows it ("" and the text when it does not start with one).
    Attribute values are escaped, so the first ">" ends the tag."""
    if not text.startswith("<") or text.startswith("<!"):
        return "", text
    end = text.find(">")
    return ("", text) if end < 0 else (text[:end + 1], text[end + 1:])


def _splices(r: int, was: tuple[str, ...], now: tuple[str, ...]) -> list:
    """The edits that make region `r`'s items `was` into `now`: an item replaced in place where one stands
    for one, else a splice ([index, how many removed] and the markup of the items put there), last first,
    so that each edit's index is the page's index when it is applied."""
    from difflib import SequenceMatcher  # (not at start-up: the first step's log is the first to need it)

    out: list = []
    ops = SequenceMatcher(None, was, now, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in reversed(ops):
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            for k in range(i2 - i1 - 1, -1, -1):
                out += [r, i1 + k, unmarked(now[j1 + k])]
        else:
            out += [r, [i1, i2 - i1], unmarked("".join(now[j1:j2]))]
    return out
