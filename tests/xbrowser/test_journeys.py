"""A referee's journeys, written once, run in Chromium, Firefox and WebKit (one size each: the desktop;
WebKit's phone layout has its own journey), by pointer and, for OLOG, by keyboard alone (each engine's
own key events: Playwright's, WebDriver BiDi's, WebDriver's). Dice are typed in (physical dice mode), so
every engine plays the same fight. Each journey fails on a console error, an uncaught exception or a request that
leaves the local server (conftest.Pages.check)."""
from __future__ import annotations

import json
import pathlib
import re
import time

import pytest
from drivers import PHONE
from steps import (T, damage, declare, expect_hp, expect_log, expect_status, hp_text, log_text, next_turn,
                   open_example, option, physical_dice, show, tap_square, token_at, type_dice, undo)

# A stuck browser fails its journey with a traceback instead of holding CI up.
pytestmark = pytest.mark.timeout(240)

FEATURES = pathlib.Path(__file__).resolve().parents[2] / "bench-results" / "xbrowser-features.json"

PROBE = """async (base) => {
  const out = {ua: navigator.userAgent};
  // Service worker: the page's own registration, its scope, and whether it controls the page.
  const reg = await Promise.race([window.frayBoot.serviceWorker, new Promise(r => setTimeout(() => r(null), 30000))]);
  out.sw_scope = reg ? reg.scope : null;
  // IndexedDB: a write and a read back.
  out.idb = await new Promise((res) => {
    try {
      const rq = indexedDB.open('xb-probe', 1);
      rq.onupgradeneeded = () => rq.result.createObjectStore('s');
      rq.onerror = () => res('open failed: ' + rq.error);
      rq.onsuccess = () => {
        const db = rq.result, tx = db.transaction('s', 'readwrite');
        tx.objectStore('s').put({v: 42}, 'k');
        tx.oncomplete = () => { const g = db.transaction('s').objectStore('s').get('k');
          g.onsuccess = () => { db.close(); indexedDB.deleteDatabase('xb-probe'); res(g.result && g.result.v === 42 ? 'ok' : 'read back wrong'); };
          g.onerror = () => res('read failed'); };
        tx.onerror = () => res('write failed: ' + tx.error);
      };
    } catch (e) { res('threw: ' + e); }
  });
  // BroadcastChannel: from this page to a same-origin frame.
  out.broadcast = await new Promise((res) => {
    if (typeof BroadcastChannel !== 'function') { res('missing'); return; }
    setTimeout(() => res('no message within 3 s'), 3000);
    const f = document.createElement('iframe'); f.style.display = 'none';  // about:blank: this origin
    document.body.appendChild(f);
    const theirs = new f.contentWindow.BroadcastChannel('xb-probe');
    theirs.onmessage = (e) => { res(e.data === 'hello' ? 'ok' : 'wrong data'); theirs.close(); f.remove(); };
    const mine = new BroadcastChannel('xb-probe'); mine.postMessage('hello'); mine.close();
  });
  // Lasting storage: what the browser answers (no prompt is shown in automation).
  out.persist = navigator.storage && navigator.storage.persist
    ? await Promise.race([navigator.storage.persist().then(String, e => 'threw: ' + e),
                          new Promise(r => setTimeout(() => r('no answer within 3 s'), 3000))])
    : 'missing';
  out.estimate = navigator.storage && navigator.storage.estimate ? (await navigator.storage.estimate()).quota : null;
  out.pointer_events = typeof PointerEvent === 'function' && 'onpointerdown' in SVGElement.prototype;
  out.touch_events = 'ontouchstart' in window;
  out.device_memory = navigator.deviceMemory === undefined ? 'not reported' : navigator.deviceMemory;
  // Fonts and emoji the page uses: each glyph's width in the page's font, against a box the font lacks.
  const c = document.createElement('canvas').getContext('2d');
  c.font = '16px ' + getComputedStyle(document.body).fontFamily;
  out.font = getComputedStyle(document.body).fontFamily;
  out.glyphs = Object.fromEntries(['⚠', '🏹', '⛔', '✎', '»', '↯'].map(g => [g, Math.round(c.measureText(g).width * 10) / 10]));
  out.snapshot = document.documentElement.dataset.snapshot || null;
  return out;
}"""


def record(engine: str, key: str, value) -> None:
    FEATURES.parent.mkdir(exist_ok=True)
    data = json.loads(FEATURES.read_text()) if FEATURES.exists() else {}
    data.setdefault(engine, {})[key] = value
    FEATURES.write_text(json.dumps(data, indent=1, ensure_ascii=False))


def test_boot_to_ready_with_the_service_worker_storage_and_channels_a_referee_relies_on(pages, site):
    p = pages.open()
    assert p.visible(T("app")), f"[{p.engine}] the combat table is not on screen"
    expect_status(p, re.compile(r"\S"))
    found = p.js(PROBE, site.base)
    found["version"] = pages.engine.version
    found["boot_s"] = round(p.boot_s, 2)
    record(p.engine, "features", found)
    # The service worker controls the whole app: its scope is the site root, not static/.
    assert found["sw_scope"] == site.base, f"[{p.engine}] service worker scope {found['sw_scope']!r}"
    assert found["idb"] == "ok", f"[{p.engine}] IndexedDB: {found['idb']}"
    assert found["broadcast"] == "ok", f"[{p.engine}] BroadcastChannel: {found['broadcast']}"
    assert found["pointer_events"], f"[{p.engine}] no pointer events on SVG"
    # The guard itself: the hook is the page's first script, and it sees a console error and an uncaught
    # exception in this engine (the two are then allowed, so this journey passes).
    assert p.js("() => document.scripts[0].textContent.includes('xbrowser test hook')")
    p.js("() => { console.error('xb self-check: console'); setTimeout(() => { throw new Error('xb self-check: throw'); }); }")
    p.wait("() => (window.__xbErrors || []).length >= 2", what="the hook to see both")
    seen = " | ".join(p.errors())
    assert "xb self-check: console" in seen and "xb self-check: throw" in seen, seen
    pages.allowed.append("xb self-check")
    # A standard module the page does not import at start comes from the second zip, fetched then by a
    # synchronous request (issue 36: py/fray/ui/ondemand.py), in this engine too.
    got = p.js("""async () => {
      const { whenDefined } = await import("./static/vendor/pyscript/core.js");
      const py = (await whenDefined("py")).interpreter;
      return py.runPython("import statistics; str(statistics.median([3, 1, 2])) + ' ' + '\u0436'.encode('koi8_r').hex()");
    }""")
    assert got == "2 d6", f"[{p.engine}] an import from the second standard zip: {got!r}"


def test_olog_fight_on_the_bands_with_typed_dice_press_on_and_undo__OLOG_PRES_2_OLOG_PRES_4_OLOG_MOVE_1(pages):
    p = pages.open_kept()
    open_example(p, "olog", "two_orcs")
    physical_dice(p)
    next_turn(p)  # Roll initiative
    assert type_dice(p, {20: [15]}) == ["1d20"]
    expect_status(p, "Brak's turn")
    # Press On is declared before any roll (OLOG-PRES-2): the button beside the option, one tap.
    show(p, "act")
    press = '[data-testid=actions] button.alt[aria-label^="Attack Orc 1"]'
    p.expect_text(press, "Press on")
    assert p.count(T("dice-entry")) == 0
    p.click(press)
    assert type_dice(p, {4: [1], 20: [15], 8: [5]}) == ["1d4", "1d20", "1d8"]
    expect_log(p, "d4 [1] raised to minimum 2 = 2")
    expect_hp(p, "brak", "10/12")
    expect_hp(p, "orc1", "1/6")
    undo(p)
    expect_hp(p, "brak", "12/12")
    expect_hp(p, "orc1", "6/6")
    assert "Brak presses on" not in log_text(p)
    # The bands: Brak moves a zone away (asked first, under pressure), his token goes with him.
    show(p, "field")
    p.click(T("move-to-1"))  # under pressure, one tap: no Press On (the default), then the turn ends
    show(p, "field")
    p.wait("() => !!document.querySelector('[data-testid=zone-1] [data-testid=token-brak]')",
           what="Brak's token in zone 1")
    expect_status(p, "Orc 1's turn")
    undo(p)
    show(p, "field")
    p.wait("() => !document.querySelector('[data-testid=zone-1] [data-testid=token-brak]')",
           what="Brak's token back out of zone 1")
    expect_status(p, "Brak's turn")


def type_face(p, face: int) -> None:
    """The dice dialog opens with the focus in its first face: the face is typed, Enter submits it."""
    p.wait("() => { const d = document.querySelector('[data-testid=dice-entry]');"
           " return !!d && document.activeElement === d.querySelector('[data-testid=face-0]'); }",
           what="the dice dialog with the focus in its first face")
    typed = p.attr(T("dice-entry"), "data-typed")
    p.type_keys(str(face))
    p.press("Enter")
    p.wait("(t) => { const d = document.querySelector('[data-testid=dice-entry]');"
           " return !d || d.getAttribute('data-typed') !== t; }", typed, what="the face taken")


def test_olog_fight_by_keyboard_skip_link_next_target_digit_quick_hp_and_undo__OLOG_ACT_1_OLOG_PRES_2(pages):
    """The same fight by keyboard only: once the dice are set, no pointer event reaches the page. The skip link, N (next), T (target the next foe: its options first), a digit (the n-th
    action), typed faces, H (quick HP on the target) and Ctrl+Z, with each engine's own key events."""
    p = pages.open_kept()
    open_example(p, "olog", "two_orcs")
    physical_dice(p)
    p.js("""() => { window.__xbPointer = 0; for (const k of ['pointerdown', 'mousedown', 'touchstart'])
        document.addEventListener(k, e => { if (e.isTrusted) window.__xbPointer++; }, true);
        document.activeElement && document.activeElement.blur(); }""")
    p.press("n")  # initiative: Brak's d20 is typed, the orcs' are the app's
    type_face(p, 15)
    expect_status(p, "Brak's turn")
    # The skip link is the page's first stop (reached back with Shift+Tab); Enter puts the focus on the
    # first action.
    assert p.js("""() => [...document.querySelectorAll('button, a[href], input, select, textarea')]
        .find(e => e.offsetParent !== null || e.matches('.skip-link'))?.dataset.testid""") == "skip"
    for _ in range(80):
        if p.focused(T("skip")):
            break
        p.press("Shift+Tab")
    assert p.focused(T("skip")), f"[{p.engine}] Shift+Tab never reached the skip link"
    p.press("Enter")
    p.wait("() => !!document.activeElement && !!document.activeElement.closest('#actions-slot')",
           what="the focus in the actions")
    p.press("Escape")
    # T: Orc 1 is the target and the options on it come first; its attack is picked by its digit.
    p.press("t")
    p.expect_text(T("target"), re.compile(r"Target:\s*Orc 1"))
    p.wait("() => document.querySelector('[data-testid=actions] .group h3').textContent === 'On Orc 1'",
           what="the options on Orc 1 first")
    key = p.js("""() => { const b = [...document.querySelectorAll('[data-testid=actions] button.act')]
        .find(b => b.textContent.includes('Attack Orc 1')); return b && b.querySelector('.key')
        ? b.querySelector('.key').textContent : null; }""")
    assert key and key.isdigit(), f"[{p.engine}] the attack on Orc 1 has no digit: {key!r}"
    p.press(key)
    for face in (15, 5):  # d20 to hit, d8 damage (no Press On: the text's default)
        type_face(p, face)
    expect_hp(p, "orc1", "1/6")
    p.expect_text(T("result"), "Orc 1")
    # The attack without Press On ended Brak's turn (OLOG-PRES-2): Orc 1 acts, Brak is its target.
    expect_status(p, "Orc 1's turn")
    p.expect_text(T("target"), re.compile(r"Target:\s*Brak"))
    # H: quick HP for the target, typed; one step, undone by Ctrl+Z.
    p.press("h")
    p.wait(f"() => document.activeElement === document.querySelector({T('hp-change')!r})",
           what="the focus in the HP field")
    p.type_keys("-1")
    assert p.value(T("hp-change")) == "-1", f"[{p.engine}] typed {p.value(T('hp-change'))!r}"
    p.press("Enter")
    p.expect_count(T("hp-dialog"), 0)
    expect_hp(p, "brak", "11/12")
    p.press("Control+z")
    expect_hp(p, "brak", "12/12")
    expect_hp(p, "orc1", "1/6")
    assert p.js("() => window.__xbPointer") == 0, f"[{p.engine}] a pointer event during the keyboard journey"


# What the path preview reads after one tap on (12, 4): the same lines in every engine, no blank line
# between the summary and the provocations (the rendered box has none either).
PREVIEW_LINES = [
    "Move: Brak to (12, 4), 40 ft of 80 ft",
    "⚠ Leaving (10, 5) provokes Orc spearman, Orc halberdier (OSE-AOO-1)",
    "⚠ Leaving (11, 4) provokes Orc spearman, Orc halberdier (OSE-AOO-1)",
    "Move here (or tap the square again)",
    "Cancel (Esc)",
]


def test_ose_detailed_declarations_initiative_and_a_grid_move_through_two_attacks_of_opportunity__OSE_DECL_1_OSE_INIT_1_OSE_AOO_1(pages):  # noqa: E501
    p = pages.open_kept()
    open_example(p, "ose", "detailed")
    physical_dice(p)
    show(p, "field")
    p.expect_count(T("declarations"), 1)
    declare(p, "mira", "spell-0")
    p.expect_text(T("decl-count"), "1 of 6 declared")
    p.click(T("decl-go"))
    assert type_dice(p, {12: [9, 4]}) == ["1d12", "1d12"]
    expect_status(p, "Round 1 · Party acts · MOVE step")
    expect_log(p, "Initiative: Party 9, Orcs 4 (OSE-INIT-1)")
    # One tap: the path, and every attack of opportunity it would provoke, before anything moves.
    tap_square(p, (12, 4))
    p.expect_text(T("grid-path"), "Move: Brak to (12, 4)")
    p.expect_count(f"{T('aoo-list')} li", 2)
    p.expect_count("g.aoo", 2)
    lines = p.text(T("grid-path")).rstrip("\n").split("\n")
    assert lines == PREVIEW_LINES, f"[{p.engine}] the path preview reads {lines}"
    token_at(p, "brak", (4, 5))
    # The second tap moves: each threatening orc is asked first (OSE-AOO-4); the default, attack, is one
    # tap; each attack of opportunity is rolled (all miss), then Brak stands there.
    tap_square(p, (12, 4))
    prompts = []
    for _ in range(4):
        next_turn(p)
        prompts += type_dice(p, {20: [1]})
    assert prompts == ["1d20"] * 4, f"[{p.engine}] four attacks of opportunity, not {prompts}"
    token_at(p, "brak", (12, 4))
    expect_log(p, "Brak moves")
    for _ in range(5):  # the four answers, then the move
        undo(p)
    token_at(p, "brak", (4, 5))
    assert "Brak moves" not in log_text(p)


def test_ogre_orc_and_pc_on_the_ruler_with_the_before_the_fight_rolls_and_undo__OGRE_EX_1_OGRE_ACT_1(pages):
    p = pages.open_kept()
    open_example(p, "ogre", "orc_and_pc")
    physical_dice(p)
    show(p, "field")
    p.expect_count(T("before"), 1)
    p.click(T("before-roll"))
    assert type_dice(p, {10: [4, 8]}) == ["1d10", "1d10"]
    p.expect_count(T("before"), 0)
    ruler = T("ruler")
    p.expect_attr(f"{ruler} {T('ff-orc')}", "data-end", "14")
    p.expect_attr(f"{ruler} {T('ff-brak')}", "data-end", "16")
    # The count goes on by itself to each declaration and on after it (OGRE-SEG-1): segment 14, the orc.
    p.expect_text(T("ruler-now"), "Orc declares now")
    option(p, "Attack Brak")  # at normal speed, nothing asked (OGRE-ATK-1)
    p.expect_text(T("result"), "declares Attack Brak")  # drawn: the next tap is on the new panel
    p.expect_text(T("ruler-now"), "Brak declares now")  # segment 16
    option(p, "Attack Orc")  # then on to 24, where the orc's attack asks for its dice
    p.expect_text(T("result"), "declares Attack Orc")
    p.expect_attr(f"{ruler} {T('bar-orc-0')}", "data-end", "24")
    p.expect_attr(f"{ruler} {T('bar-brak-0')}", "data-end", "26")
    p.expect_text(T("ruler-next"), "Next resolution at segment 24")
    type_dice(p, {20: [15], 8: [6]})
    expect_log(p, "Orc's attack on Brak with Axe: d20 [15] = 15 + 4 = 19 vs Defense 15: hits")
    p.expect_attr(f"{ruler} {T('bar-orc-0')}", "data-state", "resolved")
    undo(p)  # Brak's declaration and the count it moved on go back together
    p.expect_attr(T("ruler-cursor"), "data-segment", "16")
    p.expect_text(T("ruler-now"), "Brak declares now")
    p.expect_attr(f"{ruler} {T('bar-orc-0')}", "data-state", "pending")


def test_a_share_link_opens_the_same_encounter_in_a_fresh_browser(pages):
    p = pages.open()
    show(p, "order")
    before = hp_text(p, "mira")
    damage(p, "mira", 3)
    expect_hp(p, "mira", "9/12")
    p.click(T("share"))
    link = p.wait(f"() => {{ const e = document.querySelector({T('share-url')!r}); return e && e.value; }}",
                  what="the share link")
    assert "#e=" in link
    p.click(f"{T('share-dialog')} [data-action=cancel]")
    p.expect_count(T("share-dialog"), 0)
    undo(p)  # this page goes back; the link keeps the moment it was made
    expect_hp(p, "mira", before)
    other = pages.open(url=link)
    other.expect_text(T("notice-ok"), "Opened the shared encounter")
    expect_hp(other, "mira", "9/12")
    assert "#e=" not in other.js("() => location.href")  # consumed: the autosave holds it now


def test_offline_reload_starts_from_the_service_worker_with_the_autosave(pages, site):
    p = pages.open()
    damage(p, "orc-1", 4)
    expect_hp(p, "orc-1", "2/6")
    reg = p.js("""async () => { const r = await Promise.race([window.frayBoot.serviceWorker,
        new Promise(res => setTimeout(() => res(null), 30000))]); return r && r.scope; }""")
    assert reg == site.base, f"[{p.engine}] no service worker for offline use ({reg!r})"
    p.wait("() => !!navigator.serviceWorker.controller", timeout=20, what="the service worker to control the page")
    site.offline = True
    p.reload()
    p.wait_ready()
    assert p.visible(T("app"))
    expect_hp(p, "orc-1", "2/6")


def test_phone_layout_at_390_by_844_with_taps_on_the_grid(pages):
    p = pages.open(size=PHONE, touch=True)
    assert p.js("() => [innerWidth, innerHeight]") == list(PHONE)
    assert p.js("() => document.documentElement.scrollWidth <= innerWidth"), "the page scrolls sideways"
    assert p.visible(T("tab-field")) and p.visible(T("tab-log")), "no bottom bar at phone width"
    open_example(p, "ose", "detailed")
    physical_dice(p)
    p.js("""() => { window.__xbKinds = []; document.addEventListener('pointerdown', e => {
        if (e.isTrusted && !window.__xbKinds.includes(e.pointerType)) window.__xbKinds.push(e.pointerType); },
        true); }""")
    show(p, "field")
    p.click(T("decl-go"))
    type_dice(p, {12: [9, 4]})
    expect_status(p, "MOVE step")
    # A phone opens the grid close in on the actor (44 px squares); the zoom figure shows the whole map.
    p.click(T("grid-zoom"))
    tap_square(p, (9, 7))
    p.expect_text(T("grid-path"), "Move: Brak to (9, 7)")
    tap_square(p, (9, 7))
    token_at(p, "brak", (9, 7))
    expect_log(p, "Brak moves")
    kinds = p.js("() => window.__xbKinds || []")
    if p.engine == "webkit":  # WebKitGTK's driver takes touch actions but has given them to the page as a mouse
        touch = pages.engine.touch_supported
        record("webkit", "phone", {"driver_took_touch": touch if touch else getattr(pages.engine, "touch_error",
                                                                                      "not tried"),
                                   "framed": bool(getattr(p.tab, "frame", None)), "pointer_types": kinds})
    else:
        assert kinds == ["touch"], f"[{p.engine}] the taps came as {kinds}, not touch"
        record(p.engine, "phone", {"touch": True, "pointer_types": kinds})


# Issue 57: what a later visit keeps, in each engine (tests/bench/engine_boot.py shows the figures).
SNAPSHOT_MADE = """async () => String(await Promise.race([window.frayBoot.snapshot,
    new Promise(r => setTimeout(() => r('no answer within 90 s'), 90000))]))"""
WASM_ASKED = "() => performance.getEntriesByType('resource').filter(e => e.name.endsWith('/pyodide.asm.wasm')).length"
# The runtime files the page asked for more than once before it was ready (the service worker's install after ready
# is not the page's: Resource Timing lists the page's own requests).
ASKED_TWICE = """() => { const ready = performance.getEntriesByName('fray-ready')[0]?.startTime ?? Infinity;
    const names = performance.getEntriesByType('resource')
        .filter(e => e.startTime < ready && /\\/(static|py)\\/|pyscript\\.toml/.test(e.name)).map(e => e.name);
    return [...new Set(names.filter((n, i) => names.indexOf(n) !== i))].sort(); }"""
LATER = """() => ({controlled: !!navigator.serviceWorker.controller,
    snapshot: document.documentElement.dataset.snapshot || null, wasm: document.documentElement.dataset.wasm || null})"""


def test_a_later_visit_starts_from_the_snapshot_the_first_made_with_no_runtime_file_from_the_network(pages, site):
    p = pages.open()
    # A first visit asks for Pyodide's 3.5 MB wasm once (WebKit's fetch() never took the preload's response),
    # and for every other runtime file once: boot.js's early answers are each taken by the fetch() that wants it.
    assert p.js(WASM_ASKED) == 1, f"[{p.engine}] the wasm was asked for {p.js(WASM_ASKED)} times"
    twice = p.js(ASKED_TWICE)
    assert not twice, f"[{p.engine}] a first visit asked twice for {twice}"
    assert p.js("() => Object.keys(window.frayBoot.handed)") == [], f"[{p.engine}] early answers never taken"
    made = p.js(SNAPSHOT_MADE)
    assert made == "stored", f"[{p.engine}] the start-up snapshot after a first visit: {made!r}"
    site.take_sent()
    p.goto(site.base)
    p.wait_ready()
    assert p.js(LATER) == {"controlled": True, "snapshot": "restored", "wasm": "early"}, \
        f"[{p.engine}] the later visit: {p.js(LATER)}"
    assert p.js("() => Object.keys(window.frayBoot.handed)") == [], f"[{p.engine}] early answers never taken"
    time.sleep(0.3)  # the server logs a response after its last byte
    # Only the service worker's update check reaches the server (sw.js and the list it imports).
    asked = sorted({path for path, _, _ in site.take_sent()
                    if path.startswith(("/static/vendor/", "/static/build/", "/py/")) and "sw-assets" not in path})
    assert not asked, f"[{p.engine}] a later visit asked the server for {asked}"
