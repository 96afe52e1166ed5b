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

from .. import catalogue
from ..views.base import initials  # noqa: F401 (re-exported for the views drawn here)


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


def join(items: Iterable[object]) -> Markup:
    return Markup("".join(join(i) if isinstance(i, (list, tuple)) else esc(i) for i in items))


_RULE_ID = re.compile(r"\b((?:CORE|OLOG|OSE|OGRE)-[A-Z]+-\d+)\b")


def with_rules(text: str) -> Markup:
    """Escape text and turn each rule id into a chip that reveals the rule's
    text on hover (title) and on tap/focus (UI principle 3)."""
    out = []
    pos = 0
    for m in _RULE_ID.finditer(text):
        out.append(esc(text[pos:m.start()]))
        out.append(rule_chip(m.group(1)))
        pos = m.end()
    out.append(esc(text[pos:]))
    return Markup("".join(out))


def rule_chip(rule_id: str) -> Markup:
    rule_text = catalogue.text(rule_id)
    return h("button", {"type": "button", "class_": "rule", "data-action": f"rule:{rule_id}",
                        "title": f"{rule_id}: {rule_text}" if rule_text else rule_id,
                        "aria-label": f"Rule {rule_id}"}, rule_id)
