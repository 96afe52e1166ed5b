"""The journeys' steps over drivers.Page: the same helpers as tests/e2e/helpers.py, in any engine."""
from __future__ import annotations

import re
import time

from drivers import Page

T = Page.tid


def is_phone(p: Page) -> bool:
    return p.js("() => innerWidth") < 760


def show(p: Page, tab: str) -> None:
    """On a phone, switch the bottom bar to a view (field, order, act, log)."""
    if is_phone(p):
        p.click(T(f"tab-{tab}"))


def order_row(cid: str) -> str:
    return T(f"order-{cid}")


def select(p: Page, cid: str) -> None:
    show(p, "order")
    p.click(T(f"look-{cid}"))  # the row's "details" control (a tap on the row would target it)


def hp_text(p: Page, cid: str) -> str:
    show(p, "order")
    return p.text(f"{order_row(cid)} .hp-num")


def expect_hp(p: Page, cid: str, want: str) -> None:
    show(p, "order")
    p.expect_text(f"{order_row(cid)} .hp-num", re.compile("^" + re.escape(want) + "$"))


def damage(p: Page, cid: str, amount: int) -> None:
    select(p, cid)
    show(p, "act")
    if p.attr(T("referee"), "open") is None:
        p.click(f"{T('referee')} > summary")
    p.fill(T("damage-input"), str(amount))
    p.click(T("apply-damage"))


def undo(p: Page) -> None:
    p.click(T("undo"))


def log_text(p: Page) -> str:
    show(p, "log")
    return p.js("() => document.querySelector('[data-testid=log]').textContent")


def expect_log(p: Page, want: str, timeout: float = 10.0) -> None:
    show(p, "log")
    deadline = time.time() + timeout
    while want not in (text := log_text(p)):
        if time.time() > deadline:
            raise AssertionError(f"[{p.engine}] the log does not say {want!r}; it ends: {text[-600:]!r}")
        time.sleep(0.05)


def status(p: Page) -> str:
    return p.text(T("status"))


def expect_status(p: Page, want) -> None:
    p.expect_text(T("status"), want)


def open_example(p: Page, system: str, name: str) -> None:
    p.click(T("toggle-setup"))
    p.wait(f"() => !!document.querySelector({T('editor')!r})", what="the setup editor")
    p.select_option(T("example-select"), f"{system}:{name}")
    p.expect_text(T("notice-ok"), "example")


def physical_dice(p: Page) -> None:
    show(p, "order")
    if not p.js(f"() => document.querySelector({T('dice-physical')!r}).checked"):
        p.click(T("dice-physical"))
    p.wait(f"() => document.querySelector({T('dice-physical')!r}).checked", what="physical dice on")


def type_dice(p: Page, faces: dict[int, list[int]]) -> list[str]:
    """Answer every physical-dice prompt: faces[sides] gives the faces to type, in order, for dice of that
    size. Returns the prompts seen ("1d20"...)."""
    seen = []
    dialog = T("dice-entry")
    shown = (f"() => {{ const d = document.querySelector({dialog!r});"
             " return !!d && d.getBoundingClientRect().height > 0; }")
    while True:
        if not any(faces.values()):
            # Every face typed and the last answer drawn: an open prompt now is one the test did not expect.
            assert not p.js(shown), f"[{p.engine}] a dice prompt the test did not expect: {p.text(dialog)!r}"
            return seen
        try:
            p.wait(shown, timeout=1.5)
        except AssertionError:
            return seen
        typed = p.attr(dialog, "data-typed")
        title = p.text(f"{dialog} h2")
        m = re.match(r"Roll (\d+)d(\d+)", title)
        assert m, f"[{p.engine}] a dice prompt titled {title!r}"
        count, sides = int(m.group(1)), int(m.group(2))
        seen.append(f"{count}d{sides}")
        for i in range(count):
            p.fill(f"{dialog} {T(f'face-{i}')}", str(faces[sides].pop(0)))
        p.click(f"{dialog} {T('faces-ok')}")
        p.wait("""(t) => { const d = document.querySelector('[data-testid=dice-entry]');
                  return !d || d.getAttribute('data-typed') !== t; }""", typed, what="the prompt answered")


MARK = """(sel, t) => { document.querySelectorAll('[data-xb-pick]').forEach(b => b.removeAttribute('data-xb-pick'));
    const b = [...document.querySelectorAll(sel)].find(b => b.textContent.includes(t));
    if (b) b.setAttribute('data-xb-pick', ''); return !!b; }"""


def pick(p: Page, sel: str, text: str) -> None:
    """Click the first element matching sel whose text contains `text` (marked, then clicked for real)."""
    p.wait(MARK, sel, text, what=f"{sel} reading {text!r}")
    p.click("[data-xb-pick]")


def option(p: Page, label: str) -> None:
    """Click the action button whose label contains the text."""
    show(p, "act")
    pick(p, "[data-testid=actions] button.act", label)


def choose(p: Page, i: int) -> None:
    show(p, "act")
    p.click(f"{T('ask')} {T(f'choice-{i}')}")


def answer(p: Page, text: str) -> None:
    show(p, "act")
    pick(p, "[data-testid=ask] button.choice", text)


def next_turn(p: Page) -> None:
    show(p, "act")
    p.click(T("opt-next"))


def declare(p: Page, cid: str, choice: str) -> None:
    show(p, "field")
    sel = T(f"decl-{cid}-{choice}")
    p.click(sel)
    p.expect_attr(sel, "aria-pressed", "true")


def square_xy(p: Page, sq) -> tuple[float, float]:
    """Viewport coordinates of a grid square's centre (10 SVG units a square, viewBox included)."""
    show(p, "field")
    p.js("() => document.querySelector('#grid-svg').scrollIntoView({block: 'center'})")
    return tuple(p.js("""(s) => { const m = document.querySelector('#grid-svg').getScreenCTM();
        return [m.a * (s[0] * 10 + 5) + m.e, m.d * (s[1] * 10 + 5) + m.f]; }""", list(sq)))


def tap_square(p: Page, sq) -> None:
    x, y = square_xy(p, sq)
    p.click_at(x, y)


def token_at(p: Page, cid: str, sq) -> None:
    show(p, "field")
    p.expect_attr(T(f"tok-{cid}"), "transform", f"translate({sq[0] * 10 + 5} {sq[1] * 10 + 5})")
