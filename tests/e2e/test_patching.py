"""The page after many taps shows exactly one selection in every view: the order list, the map's
tokens and the segment ruler are written row by row and token by token (ui/dom/patch.py's regions,
issue 20), and what they show must stay what a full drawing would show."""
from __future__ import annotations

import pytest
from helpers import open_example, select, show
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


# What a tap changed in the order list and the field, element by element: each mutation record's element is
# put down to the combatant it belongs to (an order row, a token, a lane) or to the view's own parts.
OWNER = """(n) => {
    const el = n.nodeType === 1 ? n : n.parentElement;
    const who = el.closest("[data-id], [data-token], [data-lane]");
    if (who) return (who.dataset.id || who.dataset.token || who.dataset.lane);
    const part = el.closest(".zone-head, .zone-move, #grid-threat, #grid-under, #grid-over, #grid-notes");
    return part ? "view:" + (part.id || part.className) : "other:" + el.nodeName.toLowerCase();
  }"""
WATCH = """() => {
  const owner = window.__owner = OWNER;
  const slots = ["order-slot", "field-slot", "ruler-slot"].map(id => document.getElementById(id));
  const before = new Map();
  for (const slot of slots) for (const n of slot.querySelectorAll("*")) before.set(n, owner(n));
  const seen = window.__seen = { records: [], before };
  window.__watch = new MutationObserver(list => { for (const r of list) seen.records.push(r); });
  for (const slot of slots) window.__watch.observe(slot, { subtree: true, childList: true, attributes: true,
                                                           characterData: true });
}""".replace("OWNER", OWNER)
CHANGED = """() => {
  const seen = window.__seen, owner = window.__owner;
  window.__watch.disconnect();
  const owners = new Set(seen.records.map(r => owner(r.target)));
  const gone = new Set();
  for (const [n, who] of seen.before) if (!n.isConnected) gone.add(who);
  return { owners: [...owners].sort(), gone: [...gone].sort(), records: seen.records.length,
           made: seen.records.reduce((k, r) => k + r.addedNodes.length, 0) };
}"""


@pytest.mark.parametrize("system,example,view_parts", [
    ("olog", "skirmish", ("view:zh-",)),  # OLOG-BAND-1: each zone's distance from the selected
    ("ose", "detailed", ("view:grid-threat", "view:grid-notes")),  # OSE-AOO-3: the selected's threatened area
    ("ogre", "twelve", ("view:grid-",)),
])
def test_a_selection_tap_changes_two_rows_and_two_tokens_and_leaves_the_rest_untouched(app, system, example,
                                                                                      view_parts):
    """Issue 20: selecting someone else is a class change on their row and token (and lane) and on the
    previous one's, plus what the view shows about the selected (the bands' zone distances, the map's
    threat shading): every other row, token and lane keeps its elements, untouched."""
    open_example(app, system, example)
    show(app, "order")
    rows = app.locator("#order-slot li.order-row:not(.current):not(.selected)")  # (a current actor's zones
    if rows.count() < 2:                                                        # offer "Move here")
        rows = app.locator("#order-slot li.order-row:not(.selected)")
    ids = [e.get_attribute("data-id") for e in rows.all()]
    first, then = ids[0], ids[len(ids) // 2]
    select(app, first)
    expect(app.locator(f"[data-testid=order-{first}]")).to_contain_class("selected")
    app.evaluate(WATCH)
    select(app, then)
    expect(app.locator(f"[data-testid=order-{then}]")).to_contain_class("selected")
    app.wait_for_timeout(50)  # what a timeout after the drawing does (the bands' scroll) is seen too
    changed = app.evaluate(CHANGED)
    owners = set(changed["owners"])
    assert {first, then} <= owners, changed
    for touched in (owners, set(changed["gone"])):  # edited, or removed (a selection ring, threat squares)
        assert all(o in (first, then) or o.startswith(view_parts) for o in touched), changed


# --- the morph itself (ui/dom/patch.py's MORPH_JS), in a blank page: no boot ------------------------------------

def morph_js() -> str:
    """MORPH_JS as the page makes it (read from the source: fray.ui.dom.patch imports pyscript)."""
    import ast
    import pathlib

    tree = ast.parse((pathlib.Path(__file__).resolve().parents[2] / "py/fray/ui/dom/patch.py").read_text())
    return next(n.value.value for n in tree.body if isinstance(n, ast.Assign)
                and getattr(n.targets[0], "id", "") == "MORPH_JS")


def drawn_panels() -> dict[str, list[str]]:
    """What the page draws for each selection of the 40-combatant examples, a few steps in: the action
    panel, the order list and the field views (pure builders, the same the page runs)."""
    import random
    from dataclasses import replace

    from fray.engine.session import Session
    from fray.rules import examples
    from fray.ui.markup import panels
    from fray.ui.field.field_views import FieldContext, views_for
    from fray.ui.markup.html import unmarked
    from fray.views.panels import action_menu, system_view

    out: dict[str, list[str]] = {}
    for system in ("olog", "ose", "ogre"):
        s = Session(examples(system)["large"](1))
        rng = random.Random(3)
        for _ in range(12):
            opts = [o for a in s.current() for o in s.options(a) if o.allowed and not o.needs]
            if not opts or s.state.outcome:
                break
            init = [o for o in opts if "nitiative" in o.label]
            o = init[0] if init else rng.choice(opts)
            s.act(replace(o.command, **rng.choice(o.choices).values) if o.choices else o.command)
        state, view = s.state, system_view(s.encounter.system)
        panel = view.panel(state)
        sides = {sd.id: sd for sd in state.sides}
        for n, c in enumerate(state.combatants):
            options = s.ruleset.options(state, c.id)
            menu = action_menu(s.ruleset, state, c.id, panel, options)
            referee = panels.referee_tools(c.name, c.id, c.hp, c.max_hp, c.conditions)
            unfolded = frozenset({"Attack", "Move"}) if n % 2 else frozenset()  # every other one with its folds open
            out.setdefault(f"{system} actions", []).append(unmarked(panels.actions(menu, None, referee, unfolded)))
            out.setdefault(f"{system} order", []).append(unmarked(panels.order_list(
                panels.order_rows(panel, sides, c.id, {}))))
            ctx = FieldContext(state=state, ruleset=s.ruleset, panel=panel, selected=c.id,
                               current=s.current(), options=options)
            for fv in views_for(s.ruleset, s.encounter.profile):
                out.setdefault(f"{system} {fv.name}", []).append(unmarked(fv.render(ctx)))
    return out


MORPH_CHECK = """([js, pairs]) => {
  const morph = new Function(js)();
  const ref = document.createElement("template");
  const bad = [];
  let kept = 0, made = 0;
  for (const [a, b] of pairs) {
    const el = document.createElement("div");
    document.body.appendChild(el);
    el.innerHTML = a;
    for (const input of el.querySelectorAll("input:not([type=radio]):not([type=checkbox])")) input.value = "typed";
    for (const box of el.querySelectorAll("input[type=radio], input[type=checkbox]")) box.checked = !box.checked;
    const before = new Set(el.querySelectorAll("*"));
    morph(el, b, null, 0);
    ref.innerHTML = b;
    const want = document.createElement("div");
    want.appendChild(ref.content.cloneNode(true));
    if (!el.isEqualNode(want)) bad.push([a.slice(0, 80), b.slice(0, 80)]);  // (attributes in any order)
    for (const input of el.querySelectorAll("input")) {
      const want = input.type === "radio" || input.type === "checkbox" ? input.hasAttribute("checked")
                   : (input.getAttribute("value") || "");
      if ((input.type === "radio" || input.type === "checkbox" ? input.checked : input.value) !== want)
        bad.push(["control", input.outerHTML]);
    }
    for (const n of el.querySelectorAll("*")) { if (before.has(n)) kept++; else made++; }
    el.remove();
  }
  return { bad, kept, made };
}"""


def synthetic_pairs(n: int) -> list[tuple[str, str]]:
    """Random trees with keys in every form the morph knows (id, data-key, data-testid, data-id), duplicated
    keys, unkeyed siblings of the same tag, text, and form controls."""
    import random

    rng = random.Random(20)
    tags = ("div", "span", "p", "li", "button", "section")

    def tree(depth: int) -> str:
        out = []
        for _ in range(rng.randint(0, 5 if depth else 8)):
            roll = rng.random()
            if roll < 0.2:
                out.append(rng.choice(("Orc", "Hero 1", "", "  ", "3/7")))
                continue
            if roll < 0.3:
                kind = rng.choice(("text", "number", "checkbox", "radio"))
                extra = (" checked" if rng.random() < 0.5 else "") if kind in ("checkbox", "radio") else \
                    (f' value="{rng.randint(0, 9)}"' if rng.random() < 0.5 else "")
                name = f"r{rng.random()}" if kind == "radio" else f"f{rng.randint(0, 2)}"  # (one radio a group)
                out.append(f'<input type="{kind}" name="{name}"{extra}>')
                continue
            tag = rng.choice(tags)
            attrs = ""
            if rng.random() < 0.6:
                attrs += f' {rng.choice(("id", "data-key", "data-testid", "data-id"))}="k{rng.randint(0, 6)}"'
            if rng.random() < 0.5:
                attrs += f' class="{rng.choice(("a", "b", "a b", "selected"))}"'
            if rng.random() < 0.3:
                attrs += f' title="t{rng.randint(0, 3)}"'
            out.append(f"<{tag}{attrs}>{tree(depth - 1) if depth else ''}</{tag}>")
        return "".join(out)

    return [(tree(3), tree(3)) for _ in range(n)]


def test_the_morph_leaves_each_panel_exactly_as_its_markup_whatever_was_there(browser):
    """ui/dom/patch.py writes a panel by morphing the nodes in place. Whatever two drawings it goes between
    (any two selections' action panels, order lists and field views of the 40-combatant examples, and
    random trees with keyed, duplicated and unkeyed nodes, text and form controls edited by hand), the
    slot ends holding exactly what its new markup parses to, controls as the markup says, and most
    elements of a new selection's drawing are the ones already there (edited, not made anew)."""
    page = browser.new_page()
    try:
        js = morph_js()
        real = drawn_panels()
        pairs = []
        for name, drawings in real.items():
            pairs += [(drawings[i], drawings[(i * 7 + 3) % len(drawings)]) for i in range(len(drawings))]
        result = page.evaluate(MORPH_CHECK, [js, pairs])
        assert not result["bad"], result["bad"][:3]
        assert result["kept"] > 9 * result["made"], result  # another selection: the same elements, edited
        result = page.evaluate(MORPH_CHECK, [js, synthetic_pairs(400)])
        assert not result["bad"], result["bad"][:3]
    finally:
        page.close()


PATCH_CHECK = """([js, cases]) => {
  const morph = new Function(js)();
  const bad = [];
  for (const [a, b, edits, count] of cases) {
    const el = document.createElement("div");
    document.body.appendChild(el);
    el.innerHTML = a;
    const ok = morph(el, "", edits, count);
    const want = document.createElement("div");
    want.innerHTML = b;
    if (!ok || !el.isEqualNode(want)) bad.push([ok, a.slice(0, 160), b.slice(0, 160), JSON.stringify(edits).slice(0, 200)]);
    el.remove();
  }
  return bad;
}"""


def test_a_region_whose_items_came_went_or_moved_is_written_item_by_item_exactly(browser):
    """ui/dom/patch.py writes a region (the log's lines, the order rows, a map's tokens) by its changed items: a
    line added on top and the oldest dropped, a row removed, every item moved one place, in HTML and in
    SVG, with the outer element's attributes and a part changed beside them (the ruler's segment now).
    Between any two random lists the slot ends holding exactly the new markup."""
    import random

    from fray.ui.markup.html import changed_items, h, part, region, unmarked

    rng = random.Random(11)

    def html(items, now):  # (the outer element's attributes and a part change too, as the ruler's do)
        return h("section", {"data-now": now, "class_": f"n{now}" if now % 2 else None},
                 part("p-head", h("h2", {"id": "p-head"}, f"Log at {now}")),
                 h("ol", {"data-region": True}, region(h("li", {"data-key": k}, t) for k, t in items)))

    def svg(items, now):
        return h("svg", {"viewBox": f"0 0 10 {10 + now}"},
                 h("g", {"data-region": True}, region(h("g", {"data-key": k}, h("text", None, t)) for k, t in items)))

    cases = []
    for n in range(300):
        was = [(f"k{i}", f"line {i}") for i in range(rng.randint(0, 30))]
        now = list(was)
        for _ in range(rng.randint(1, 4)):
            roll = rng.random()
            if roll < 0.3:
                now.insert(rng.randint(0, len(now)), (f"n{rng.random()}", "new <b>&</b>"))
            elif roll < 0.55 and now:
                del now[rng.randrange(len(now))]
            elif roll < 0.8 and now:
                i = rng.randrange(len(now))
                now[i] = (now[i][0], now[i][1] + " (changed)")
            else:  # a shift: new lines on top, as many of the oldest gone
                k = rng.randint(1, 3)
                now = [(f"s{rng.random()}", "top") for _ in range(k)] + now[:max(0, len(now) - k)]
        draw = svg if n % 3 == 0 else html
        a, b = draw(was, rng.randint(0, 2)), draw(now, rng.randint(0, 2))
        got = changed_items(a, b)
        if got is None:
            continue
        cases.append([unmarked(a), unmarked(b), got[0], got[1]])
    assert len(cases) > 250
    page = browser.new_page()
    try:
        bad = page.evaluate(PATCH_CHECK, [morph_js(), cases])
        assert not bad, bad[:3]
    finally:
        page.close()
