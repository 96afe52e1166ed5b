"""Accessibility of every view, at desktop and phone width: axe-core (bundled by axe-playwright-python, no
network) finds no serious or critical violation; every control the browser exposes has an accessible name
(Chromium's own accessibility tree); focus is visible on whatever Tab reaches; colour is never the only
signal (sides also differ by token shape, tokens carry initials); and on the phone the main controls are
touch targets of at least 44 px (UI.md, principles 4 and 6).

The views: the shell with OLOG bands (each phone tab), the dice-entry dialog, the OLOG actions panel with a
Press On beside the options, a question open, the help and share dialogs, the setup editor, the OSE declarations panel and
detailed grid, the OSE loose list, the Ogre before-the-fight panel, grid and segment ruler.
"""
from __future__ import annotations

from helpers import is_phone, next_turn, open_example, open_setup, option, physical_dice, show, type_dice
from playwright.sync_api import Page, expect

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()
BAD_IMPACT = ("serious", "critical")
CONTROL_ROLES = {"button", "checkbox", "radio", "textbox", "searchbox", "spinbutton", "combobox", "listbox",
                 "slider", "switch", "tab", "link", "menuitem", "option", "disclosuretriangle"}
TAPS = ("[data-testid=actions] button.act", ".tabs button", ".topbar .tools button", ".order-row .pick",
        ".ask button.choice", ".token", ".card", ".decl-btn", ".decl-go", "[data-testid=faces-ok]",
        "[data-testid=dice-entry] input", ".modal-box button", ".notice button", ".lane .rl-name")


class Audit:
    """Collects every problem of a journey so one run reports them all."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems: list[str] = []
        self.scanned: list[str] = []

    def axe(self, label: str) -> None:
        result = AXE.run(self.page)
        self.scanned.append(label)
        for v in result.response["violations"]:
            if v["impact"] in BAD_IMPACT:
                where = "; ".join(str(n["target"]) for n in v["nodes"][:4])
                self.problems.append(f"{label}: axe {v['id']} ({v['impact']}) {v['help']} at {where}")

    def names(self, label: str) -> None:
        """Every control in Chromium's accessibility tree (what a screen reader gets) has a name."""
        cdp = self.page.context.new_cdp_session(self.page)
        try:
            nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
            for n in nodes:
                role = (n.get("role") or {}).get("value", "")
                name = ((n.get("name") or {}).get("value") or "").strip()
                if n.get("ignored") or role not in CONTROL_ROLES or name:
                    continue
                html = "?"
                if "backendDOMNodeId" in n:
                    html = cdp.send("DOM.getOuterHTML", {"backendNodeId": n["backendDOMNodeId"]})["outerHTML"][:160]
                self.problems.append(f"{label}: a {role} without an accessible name: {html}")
        finally:
            cdp.detach()

    def check(self, label: str, tabs: tuple[str, ...] = ()) -> None:
        """axe and names on the view; on a phone, on each of the bottom bar's tabs given."""
        if is_phone(self.page) and tabs:
            for t in tabs:
                show(self.page, t)
                self.axe(f"{label} [{t}]")
                self.names(f"{label} [{t}]")
        else:
            self.axe(label)
            self.names(label)

    def touch_targets(self, label: str) -> None:
        """On the phone, every visible main control is at least 44 by 44 CSS px."""
        if not is_phone(self.page):
            return
        small = self.page.evaluate(
            """(sels) => { const out = [];
                 for (const s of sels) for (const e of document.querySelectorAll(s)) {
                   const r = e.getBoundingClientRect();
                   if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
                   if (r.width < 44 || r.height < 44)
                     out.push(`${s} "${(e.getAttribute('aria-label') || e.textContent).trim().slice(0, 30)}"`
                              + ` ${Math.round(r.width)}x${Math.round(r.height)}`); }
                 return out; }""", list(TAPS))
        self.problems += [f"{label}: touch target under 44 px: {s}" for s in small]

    def colour_not_alone(self, label: str, selector: str, shape_js: str, letters_js: str, colour_js: str) -> int:
        """Tokens of different colours differ by shape too, and each carries letters."""
        tokens = self.page.evaluate(
            f"""() => Array.from(document.querySelectorAll({selector!r})).map(t => [
                   {colour_js}, {shape_js}, ({letters_js} || '').trim()])""")
        colours = {c for c, _, _ in tokens}
        pairs = {(c, s) for c, s, _ in tokens}
        shapes = {s for _, s, _ in tokens}
        if not (len(colours) == len(pairs) == len(shapes)):
            self.problems.append(f"{label}: sides differ by colour only: {sorted(pairs)}")
        if any(not s for _, s, _ in tokens):
            self.problems.append(f"{label}: a token without a shape: {tokens}")
        if any(not letters for _, _, letters in tokens):
            self.problems.append(f"{label}: a token without letters: {tokens}")
        return len(tokens)

    def done(self) -> None:
        assert not self.problems, "\n".join(self.problems)


def focus_ring(page: Page) -> dict:
    return page.evaluate(
        """() => { const e = document.activeElement; const s = getComputedStyle(e);
                   return {tag: e.tagName, id: e.id, text: (e.getAttribute('aria-label') || e.textContent || '')
                           .trim().slice(0, 30), outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,
                           shadow: s.boxShadow !== 'none', visible: e.matches(':focus-visible')}; }""")


def check_focus(audit: Audit, label: str, presses: int) -> int:
    """Tab through the page: every element the focus reaches shows a ring (outline or shadow)."""
    page = audit.page
    seen = 0
    for _ in range(presses):
        page.keyboard.press("Tab")
        f = focus_ring(page)
        if f["tag"] in ("BODY", "HTML"):
            continue
        seen += 1
        if not (f["visible"] and (f["outline"] or f["shadow"])):
            audit.problems.append(f"{label}: focus not visible on {f}")
    return seen


def test_every_view_is_accessible_by_axe_names_focus_shape_and_touch(app):
    a = Audit(app)
    phone = is_phone(app)

    # The shell with OLOG bands, each phone tab; sides differ by shape and letters; focus shows.
    open_example(app, "olog", "two_orcs")  # back in play once an example opens
    a.check("OLOG shell", ("field", "order", "act", "log"))
    show(app, "field")
    assert a.colour_not_alone("OLOG bands", ".token .disc", "Array.from(t.classList).find(c => c.startsWith('shape-'))",
                              "t.textContent", "t.style.getPropertyValue('--side')") == 3
    show(app, "order")
    a.colour_not_alone("order list", ".order-row .pick", "t.querySelector('.side-mark').textContent",
                       "t.querySelector('.name').textContent", "t.querySelector('.side-mark').style.color")
    app.locator("body").focus()
    assert check_focus(a, "OLOG shell", 14) >= 8

    # The dice-entry dialog (physical dice), then the actions panel with Press On asked before any roll.
    physical_dice(app)
    next_turn(app)
    expect(app.get_by_test_id("dice-entry")).to_be_visible()
    a.check("dice-entry dialog")
    a.touch_targets("dice-entry dialog")
    type_dice(app, {20: [15]})
    expect(app.locator("[data-testid=actions] button.alt").first).to_contain_text("Press on")
    a.check("OLOG actions with Press On beside them", ("act",))
    a.touch_targets("OLOG actions with Press On beside them")
    option(app, "Set count").click()
    expect(app.get_by_test_id("ask")).to_be_visible()
    a.check("OLOG question (Set count)", ("act",))
    a.touch_targets("OLOG question (Set count)")
    app.keyboard.press("Escape")
    show(app, "field")
    a.touch_targets("OLOG bands")
    for t in ("order", "act", "log"):
        show(app, t)
        a.touch_targets(f"OLOG {t}")

    # Help and share dialogs.
    app.keyboard.press("?")
    expect(app.get_by_test_id("help-dialog")).to_be_visible()
    a.check("help dialog")
    app.keyboard.press("Escape")
    app.get_by_test_id("share").click()
    expect(app.get_by_test_id("share-dialog")).to_be_visible()
    a.check("share dialog")
    a.touch_targets("share dialog")
    app.keyboard.press("Escape")
    expect(app.get_by_test_id("share-dialog")).to_have_count(0)

    # The setup editor with a combatant and the rules settings open.
    open_setup(app)
    app.get_by_test_id("cb-0").locator("summary").click()
    app.locator("details.ed-settings > summary").click()
    a.check("setup editor")
    app.get_by_test_id("toggle-setup").click()

    # OSE detailed: the declarations panel, then the grid after initiative (app dice).
    show(app, "order")
    app.get_by_test_id("dice-app").check()
    open_example(app, "ose", "detailed")
    show(app, "field")
    expect(app.get_by_test_id("declarations")).to_be_visible()
    a.check("OSE declarations", ("field",))
    a.touch_targets("OSE declarations")
    app.get_by_test_id("decl-go").click()  # on a phone it opens the first actor's actions (issue 53)
    show(app, "field")
    expect(app.get_by_test_id("grid-svg")).to_be_visible()
    a.check("OSE detailed grid", ("field", "act"))
    show(app, "field")
    assert a.colour_not_alone("OSE grid", "#grid-svg g.tok",
                              "t.querySelector('.body').outerHTML.replace(/ fill=.*/, '')",  # the shape drawn
                              "t.querySelector('.ini').textContent",
                              "t.querySelector('.body').getAttribute('fill')") == 6
    app.locator("#field-slot").focus()
    app.keyboard.press("ArrowRight")
    f = focus_ring(app)
    if not (f["outline"] or f["shadow"]):
        a.problems.append(f"OSE grid: the focused field shows no ring: {f}")

    # OSE loose: the declarations panel over the list of cards.
    open_example(app, "ose", "loose")
    show(app, "field")
    expect(app.get_by_test_id("field-list")).to_be_visible()
    a.check("OSE loose list", ("field",))
    a.colour_not_alone("OSE list", ".card", "t.querySelector('.side-mark').textContent",
                       "t.querySelector('strong').textContent", "t.querySelector('.side-mark').style.color")
    a.touch_targets("OSE loose list")

    # Ogre: before the fight, then the grid and the segment ruler with a declared attack.
    open_example(app, "ogre", "orc_and_pc")
    show(app, "field")
    expect(app.get_by_test_id("before")).to_be_visible()
    a.check("Ogre before the fight", ("field",))
    next_turn(app)  # roll initiative; the count goes on by itself to the first declaration (OGRE-SEG-1)
    option(app, "Attack Orc").click()  # at normal speed: nothing asked
    show(app, "field")
    expect(app.locator(".rl-bar").first).to_be_visible()
    a.check("Ogre grid and ruler", ("field", "act"))
    show(app, "field")
    a.colour_not_alone("Ogre ruler", ".lane .rl-name", "t.querySelector('.side-mark').textContent",
                       "t.querySelector('.rl-nm').textContent", "t.querySelector('.side-mark').style.color")
    a.touch_targets("Ogre ruler")
    assert len(a.scanned) == (17 if phone else 12)
    a.done()
