"""The page after many taps shows exactly one selection in every view: the order list, the map's
tokens and the segment ruler are written row by row and token by token (ui/patch.py's regions,
issue 20), and what they show must stay what a full drawing would show."""
from __future__ import annotations

from helpers import open_example, show
from playwright.sync_api import expect

MARKS = """() => ({
  rows: [...document.querySelectorAll('#order-slot li.order-row.selected')].map(e => e.dataset.id),
  pressed: [...document.querySelectorAll('#order-slot button.pick[aria-pressed=true]')].length,
  tokens: [...document.querySelectorAll('#field-slot g.tok.sel')].map(e => e.dataset.token),
  rings: document.querySelectorAll('#field-slot .sel-ring').length,
  lanes: [...document.querySelectorAll('#ruler-slot .lane.selected')].map(e =>
           e.querySelector('[data-action^="lane:"]').dataset.action.slice(5)),
  rowCount: document.querySelectorAll('#order-slot li').length,
  tokenCount: document.querySelectorAll('#field-slot g.tok').length,
  marks: document.body.innerHTML.includes('<!--{-->'),
})"""


def test_one_selection_after_a_dozen_taps_in_order_map_and_ruler__OGRE_EX_1_CORE_REF_1(app):
    open_example(app, "ogre", "twelve")
    show(app, "order")
    phone = app.viewport_size["width"] < 760
    first = app.evaluate(MARKS)
    ids = [e.get_attribute("data-id") for e in app.locator("#order-slot li.order-row").all()]
    assert len(ids) == 12
    for n, who in enumerate(ids[::-1] + ids[:3]):
        if n % 2 and not phone:  # (on a phone the map follows the actor: a token may be out of its view)
            show(app, "field")
            app.locator(f"#field-slot [data-testid=tok-{who}]").first.click()
        else:
            show(app, "order")
            app.locator(f"[data-testid=order-{who}] button.pick").click()
        expect(app.locator(f"[data-testid=order-{who}]")).to_contain_class("selected")
        now = app.evaluate(MARKS)
        assert now["rows"] == [who] and now["pressed"] == 1, now
        assert now["tokens"] == [who] and now["rings"] == 1, now
        assert now["lanes"] == [who], now
        assert (now["rowCount"], now["tokenCount"]) == (first["rowCount"], first["tokenCount"])
        assert not now["marks"], "the region marks are never written into the page"
