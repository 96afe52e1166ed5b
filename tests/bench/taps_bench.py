"""Journey bench (issue 38): how many taps a referee needs to run a fight, through the real page.

Run: `.venv/bin/python tests/bench/taps_bench.py [--sizes 390,1280] [--rounds 3] [--systems olog,ose,ogre]
[--out bench-results/taps.json]`. It prints a table and writes JSON. It asserts nothing: it is a
benchmark, not a test (the counts do not depend on the machine's speed, but a fight's dice do depend on
the seed: the app rolls them).

In headless Chromium (/usr/bin/chromium) against tools/server.py it builds, by default
(`--build welcome`), a fight of 3 PCs and 4 monsters in each system the way a new user does (issue 53):
a browser that has kept nothing opens on the welcome; the system (a tap), "Start a blank fight" (a tap),
"+ Sample PC" three times, the roster's copies typed as 4 (a tap and the figure), the system's starter orc
(a tap), back to the fight (a tap): default placement, the app rolling. Those taps are reported apart
("build") and not counted in round 1. `--build examples` opens instead, by share link
(`storage.encode_link`), a fight of 3 PCs and 4 monsters built from the systems' examples:

- OLOG: `skirmish` (Brak, Mira, four goblins) and a third PC (Cade, a copy of Brak);
- OSE detailed: `detailed` (three PCs, three orcs) and a fourth orc (a copy of the spearman);
- Ogre: `three_vs_three` and a fourth orc (a copy of Orc 1);

at laptop size (1280×800, mouse clicks), tablet size (768×1024 portrait, 1024×768 landscape) and phone size
(390×844) by touch (`has_touch`, `is_mobile`, `touchscreen.tap`), a desktop (1920×1080) by mouse, with
the app rolling the dice, and plays `--rounds` rounds as a referee would:

- the actor is the combatant the actions panel is for (its heading "Actions: <name>");
- if the actor has an allowed attack on a foe (an option in an Attack, Melee or Missile group, not
  refused, naming a foe; an Ogre charge counts): tap that foe (its order row's `button.pick`; a tap on a
  foe during a turn makes it the TARGET, and the actor's options on it come first in a group
  "On <name>"), then the first allowed option of that group, then answer every question
  (`[data-testid=ask] button.choice`) with its first choice. That is one **attack**: its taps run from
  the tap on the foe to the result;
- otherwise move toward a foe (an OLOG "Move to zone N" whose note says "into reach of", an OSE
  "Charge ..." option, a grid's "Move toward <foe>": issue 53's long move in one tap, in the Move group or second in
  the target's own "On <foe>" group), or take the "next" option (`[data-testid=opt-next]`: End turn, Done with the
  step, Roll initiative, Advance to the next segment...; the field's own Roll initiative where that one is on the
  screen: OSE's declarations, Ogre's before the fight);
- on a phone the order list and the actions are tabs of their own (`[data-testid=tab-order|act]`):
  switching tabs is a tap and is counted.

An attack of opportunity that an attack or a charge provokes (Ogre: "Attack with Sword as a reaction",
answered in the "Opportunity" group) is the reacting foe's attack: its tap counts as an attack of its own,
not as one of the provoking attack's taps (a charge past three orcs: a 1-tap charge and three 1-tap
reactions, where it was one 4-tap attack before this was split; the JSON keeps each attack's
`reactions`). Every click or tap is counted. A **round** is OLOG's and OSE's round as the status line names it (the
taps before round 1, rolling initiative, count in round 1); Ogre has no rounds but segments, so a round
there is a cycle of as many declarations (actions chosen by an actor) as there are combatants standing
(7 at the start). An attack's result is **visible** when the result card (`[data-testid=result]` at
desktop, `[data-testid=result-strip]` on a phone) is inside the viewport once the attack's last tap has
painted, without the script scrolling; otherwise it is scrolled into view and counted as one scroll.
Controls the script had to scroll to before tapping (Playwright scrolls an element into view to tap it)
are counted apart ("scrolls to reach").

Taps per round before issue 38 (the issue's figures, for reference): OLOG 19 / 11 / 6 in its three
examples; OSE detailed about 21 / 28; Ogre about 25 per cycle of 7 declarations. Targets: at most 2 taps
per attack including any question; at most half of the "before" taps per round (the table checks against
half of 19, 21 and 25). The "before" fights were not these 3-against-4 ones, so the comparison is a guide.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import re
import statistics
import sys
import time
from dataclasses import replace

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "py"), str(ROOT / "tests" / "bench")]

import server  # noqa: E402  (tools/server.py)
from fray.engine import storage  # noqa: E402
from fray.engine.session import Session  # noqa: E402
from page_bench import launch  # noqa: E402  (the page bench's Chromium)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def viewport(size: int) -> tuple[dict, bool]:
    """A width's device: its viewport and whether it is touched (a phone, a tablet in portrait or landscape)
    or clicked (a laptop, 800 px high, or a desktop, 1080)."""
    if size < 760:
        return PHONE, True
    if size < 1100:
        return {"width": size, "height": 1024 if size < 1000 else 768}, True
    return {"width": size, "height": 800 if size < 1600 else 1080}, False
BEFORE = {"olog": "19 / 11 / 6 (its three examples)", "ose": "about 21 / 28", "ogre": "about 25 per 7 declarations"}
# The first "before" figure per system (OLOG: its largest, 19): the target is at most half of it.
BEFORE_ROUND = {"olog": 19, "ose": 21, "ogre": 25}
MAX_TAPS = 400  # per fight: a guard against a policy that loops

# After an input: two frames and a little for deferred work (as tests/bench/interaction.py's SETTLE).
SETTLE = """async () => {
  const raf = () => new Promise(r => requestAnimationFrame(() => r()));
  await raf(); await raf(); await new Promise(r => setTimeout(r, 30)); await raf();
}"""

# Whether an element is shown and inside the viewport (any part of it).
IN_VIEW = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  if (el.checkVisibility && !el.checkVisibility()) return false;
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return false;
  return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth &&
         (() => { const t = document.elementFromPoint(Math.min(innerWidth - 1, Math.max(0, r.x + r.width / 2)),
                                                      Math.min(innerHeight - 1, Math.max(0, r.y + Math.min(r.height, 40) / 2)));
                  return !!t && (t === el || el.contains(t) || t.contains(el)); })();
}"""

# What the script reads (never by tapping): the actions panel's actor, its groups and options, the status.
READ = """() => {
  const panel = document.querySelector('[data-testid=actions]');
  const h2 = panel && panel.querySelector('h2');
  const actor = h2 ? [...h2.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('')
                     .replace(/^\\s*Actions:\\s*/, '').trim() : null;
  const groups = panel ? [...panel.querySelectorAll('.group')].map(g => ({
      name: (g.querySelector('h3') || {}).textContent || '',
      options: [...g.querySelectorAll('button.act')].map(b => ({
        id: b.dataset.testid, label: ((b.querySelector('.lbl') || b).textContent || '').trim(),
        cost: ((b.querySelector('.cost') || {}).textContent || '').trim(),
        allowed: !b.disabled && !b.classList.contains('refused')})) })) : [];
  const st = document.querySelector('[data-testid=status]');
  const tab = document.querySelector('[data-testid^=tab-][aria-pressed=true]');
  return { actor, groups, status: st ? st.innerText : '', ask: !!document.querySelector('[data-testid=ask] button.choice'),
           next: !!document.querySelector('[data-testid=opt-next]:not([disabled]):not(.refused)'),
           tab: tab ? tab.dataset.testid.slice(4) : null };
}"""

# How many combatants stand (their order row's hit points above 0).
STANDING = """() => [...document.querySelectorAll('[data-testid^=order-] .hp-num')]
  .filter(e => parseInt(e.textContent, 10) > 0).length"""

ATTACK_GROUPS = ("Attack", "Melee", "Missile", "Ranged", "Shoot")
QUESTION_GROUPS = ("Answer", "Follow", "Opportunity")  # the step waits on one of these: a question


# --- the encounters -------------------------------------------------------------------------------
def encounters(seed: int = 1) -> dict:
    """3 PCs and 4 monsters per system, from the systems' examples."""
    from fray.rules.ogre import examples as ogre
    from fray.rules.olog import examples as olog
    from fray.rules.ose import examples as ose

    e = olog.skirmish(seed)
    brak = next(c for c in e.combatants if c.id == "brak")
    olog_enc = replace(e, combatants=e.combatants[:2] + (replace(brak, id="cade", name="Cade"),) + e.combatants[2:])

    e = ose.detailed(seed)
    o1 = next(c for c in e.combatants if c.id == "o1")
    ose_enc = replace(e, combatants=e.combatants + (replace(o1, id="o4", name="Orc spearman 2", square=(11, 7)),))

    e = ogre.three_vs_three(seed)
    orc1 = next(c for c in e.combatants if c.id == "orc1")
    ogre_enc = replace(e, combatants=e.combatants + (replace(orc1, id="orc3", name="Orc 3", square=(13, 7)),))
    return {"olog": olog_enc, "ose": ose_enc, "ogre": ogre_enc}


# --- one fight -----------------------------------------------------------------------------------
class Fight:
    def __init__(self, page, enc, phone: bool, touch: bool | None = None, log=None) -> None:
        self.page = page
        self.enc = enc
        self.phone = phone
        self.touch = phone if touch is None else touch
        self.log = log
        self.side = {c.id: c.side for c in enc.combatants}
        self.by_name = {c.name: c.id for c in enc.combatants}
        self.taps = 0
        self.reach_scrolls = 0
        self.reactions: list[dict] = []  # attacks of opportunity answered during the last attack
        self.trail: list[str] = []

    def settle(self) -> None:
        self.page.evaluate(SETTLE)

    def tap(self, selector: str, why: str) -> bool:
        loc = self.page.locator(selector).first
        if not loc.count():
            return False
        scrolled = not self.page.evaluate(IN_VIEW, selector)
        if scrolled:
            self.reach_scrolls += 1
            why += " (scrolled to)"
        if why == "answer":
            q = self.page.evaluate("() => { const a = document.querySelector('[data-testid=ask]');"
                                   " return a ? a.innerText.replace(/\\s+/g, ' ').slice(0, 60) : ''; }")
            why = f"answer [{q}]"
        if self.touch:
            loc.tap(timeout=10_000)
        else:
            loc.click(timeout=10_000)
        self.taps += 1
        self.trail.append(why)
        self.settle()
        return True

    def show(self, tab: str) -> None:
        """On a phone, switch to a tab (a counted tap) unless it is shown."""
        if self.phone and self.page.locator(f"[data-testid=tab-{tab}][aria-pressed=true]").count() == 0:
            self.tap(f"[data-testid=tab-{tab}]", f"tab {tab}")

    def read(self) -> dict:
        return self.page.evaluate(READ)

    def foe_of(self, actor_id: str | None, label: str) -> str | None:
        """The foe an option's label names (the longest name found), if any."""
        names = [n for n in self.by_name if n in label and self.side[self.by_name[n]] != self.side.get(actor_id)]
        return self.by_name[max(names, key=len)] if names else None

    def answer(self) -> None:
        """Answer what the step asks with its first choice: an inline question (`[data-testid=ask]`) or
        an "Answer" group in the actions panel (OSE: splinter the shield?)."""
        for _ in range(6):
            if self.page.locator("[data-testid=ask] button.choice").count():
                self.tap("[data-testid=ask] button.choice", "answer")
                continue
            st = self.read()
            found = next(((g["name"].strip(), o) for g in st["groups"] if g["name"].strip() in QUESTION_GROUPS
                          for o in g["options"] if o["allowed"]), None)
            if found is None:
                return
            group, ans = found
            self.show("act")
            before = self.taps
            self.tap(f"[data-testid={ans['id']}]", f"answer {ans['label']}")
            if group == "Opportunity":  # another combatant's attack, taken as a reaction: its own attack
                self.reactions.append({"taps": self.taps - before, "done": True, "option": ans["label"],
                                       "reaction": True})

    def squares(self) -> dict[str, tuple[int, int]]:
        """Where each token stands on the grid (10 SVG units a square)."""
        got = self.page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#grid-svg [data-token]')]
            .map(t => [t.dataset.token, /translate\\(([-\\d.]+) ([-\\d.]+)\\)/.exec(t.getAttribute('transform'))])
            .filter(p => p[1]).map(([k, m]) => [k, [Math.floor(+m[1] / 10), Math.floor(+m[2] / 10)]]))""")
        return {k: tuple(v) for k, v in got.items()}

    def grid_move(self, actor: str | None, moves: list[dict]) -> bool:
        """On a grid, when nothing else goes on (an Ogre combatant must declare): a move option that asks
        for a destination, then a square toward the nearest foe tapped twice (preview, go)."""
        if actor is None:
            return False
        opt = next((o for o in moves if o["label"].startswith("Move")), None) or (moves[0] if moves else None)
        self.show("field")
        where = self.squares()
        if actor not in where:
            return False
        ax, ay = where[actor]
        foes = [v for k, v in where.items() if k in self.side and self.side[k] != self.side[actor]]
        if not foes:
            return False
        taken = set(where.values())
        m = self.enc.map
        walls = set(m.walls)
        # Free squares at most six (30 ft) from where it stands; the nearest to a foe, then to the mover.
        cand = [(ax + dx, ay + dy) for dx in range(-6, 7) for dy in range(-6, 7)]
        cand = [q for q in cand if q not in taken and q not in walls and 0 <= q[0] < m.width and 0 <= q[1] < m.height]

        def cheb(a, b):
            return max(abs(a[0] - b[0]), abs(a[1] - b[1]))

        cand.sort(key=lambda q: (min(cheb(q, f) for f in foes), cheb(q, (ax, ay))))
        if not cand:
            return False
        if opt is not None:
            self.show("act")
            self.tap(f"[data-testid={opt['id']}]", f"move {opt['label']}")
            self.show("field")
        before = self.read()["status"]
        self.page.get_by_test_id("grid-svg").scroll_into_view_if_needed()
        # The first of them the map shows now (on a phone it is zoomed in around the mover).
        find = """(qs) => { const svg = document.querySelector('#grid-svg');
            const m = svg.getScreenCTM(), r = svg.getBoundingClientRect();
            for (const s of qs) { const x = m.a * (s[0] * 10 + 5) + m.e, y = m.d * (s[1] * 10 + 5) + m.f;
              if (x > r.left + 4 && x < r.right - 4 && y > r.top + 4 && y < r.bottom - 4 && y < innerHeight - 4) {
                const t = document.elementFromPoint(x, y); if (t && svg.contains(t)) return [s, [x, y]]; } }
            return null; }"""
        got = self.page.evaluate(find, [list(q) for q in cand])
        if got is None:
            return False
        dest, xy = tuple(got[0]), got[1]
        for k in range(2):
            if k:  # the map may have followed the preview
                again = self.page.evaluate(find, [list(dest)])
                if again is None:
                    break
                xy = again[1]
            if self.touch:
                self.page.touchscreen.tap(*xy)
            else:
                self.page.mouse.click(*xy)
            self.taps += 1
            self.trail.append(f"square {dest}")
            self.settle()
            if self.read()["status"] != before:
                break
        self.answer()
        return True

    def result_visible(self) -> bool:
        sel = "[data-testid=result-strip]" if self.phone else "[data-testid=result]"
        return bool(self.page.evaluate(IN_VIEW, sel))

    def attack(self, foe: str, st: dict) -> dict | None:
        """Tap the foe, the first allowed option on it, answer questions: taps and result visibility."""
        before = self.taps
        name = next(n for n, i in self.by_name.items() if i == foe)
        if any(g["name"].strip() == f"On {name}" for g in st["groups"]):
            pass  # already the target: the turn began aimed at them (their last foe, or their only one)
        elif self.page.locator(f"[data-testid=target-{foe}][aria-pressed=false]").count():
            # The action panel's own target chip: no trip to the order list (on a phone, no tab).
            self.show("act")
            self.tap(f"[data-testid=target-{foe}]", f"foe {name} (chip)")
        elif self.page.locator(f"[data-testid=target-{foe}][aria-pressed=true]").count() == 0:
            self.show("order")
            self.tap(f"[data-testid=order-{foe}] button.pick", f"foe {name}")
        self.show("act")
        st = self.read()
        group = next((g for g in st["groups"] if g["name"].strip() == f"On {name}"), None)
        opt = next((o for o in group["options"] if o["allowed"]), None) if group else None
        if opt is None:
            return {"taps": self.taps - before, "done": False}
        self.tap(f"[data-testid={opt['id']}]", f"option {opt['label']}")
        self.reactions = []
        self.answer()
        visible = self.result_visible()
        scrolls = 0
        if not visible:
            sel = "[data-testid=result-strip]" if self.phone else "[data-testid=result]"
            if self.page.locator(sel).count():
                self.page.locator(sel).first.scroll_into_view_if_needed()
                scrolls = 1
        # The foes' attacks of opportunity it provoked (an Ogre charge past three orcs) are their attacks,
        # a tap each, not this one's: counted apart ("reactions"), each as an attack of its own.
        mine = self.taps - before - sum(r["taps"] for r in self.reactions)
        return {"taps": mine, "done": True, "visible": visible, "scrolls": scrolls, "option": opt["label"],
                "reactions": [dict(r, visible=visible, scrolls=0) for r in self.reactions]}

    def step(self, st: dict) -> tuple[str, dict | None]:
        """One decision of the policy: ("attack", record) | ("move", None) | ("next", None) | ("stuck", None)."""
        actor = self.by_name.get(st["actor"] or "")
        if any(g["name"].strip() in QUESTION_GROUPS and any(o["allowed"] for o in g["options"])
               for g in st["groups"]):
            self.answer()
            return "answer", None
        for g in st["groups"]:  # the target the turn began aimed at: the referee takes the offer
            if g["name"].startswith("On "):
                foe = self.by_name.get(g["name"].strip()[3:])
                if foe and self.side.get(foe) != self.side.get(actor) and any(
                        o["allowed"] and self.foe_of(actor, o["label"]) == foe and not o["label"].startswith(
                            ("Move", "Withdraw")) for o in g["options"]):
                    return "attack", self.attack(foe, st)
        for g in st["groups"]:
            if any(g["name"].strip().startswith(k) for k in ATTACK_GROUPS) and not g["name"].startswith("On "):
                for o in g["options"]:
                    foe = self.foe_of(actor, o["label"]) if o["allowed"] else None
                    if foe:
                        return "attack", self.attack(foe, st)
        moves = [o for g in st["groups"] if g["name"].strip() == "Move" for o in g["options"] if o["allowed"]]
        toward = [o for o in moves if "into reach" in o["cost"] or o["label"].startswith(("Charge", "Move toward"))]
        # The long move toward the target leads the target's own group ("On Orc 1"), where the page puts it.
        toward = [o for g in st["groups"] if g["name"].startswith("On ") for o in g["options"]
                  if o["allowed"] and o["label"].startswith("Move toward")] + toward
        if toward:
            self.show("act")
            self.tap(f"[data-testid={toward[0]['id']}]", f"move {toward[0]['label']}")
            self.answer()
            return "move", None
        if not st["next"] and self.enc.map.width and self.grid_move(actor, moves):
            return ("move" if self.read()["status"] != st["status"] else "stuck"), None
        if st["next"]:
            # The "Roll initiative" of Ogre's "before the fight" panel (above the map) or of OSE's declarations
            # (the field's first view on a phone) is the actions' own: the referee taps the one on the screen.
            sel = next((s for s in ("[data-testid=before-roll]", "[data-testid=decl-go]:not([disabled])")
                        if self.page.evaluate(IN_VIEW, s)), None)
            if sel is None:
                self.show("act")
                sel = "[data-testid=opt-next]:not([disabled]):not(.refused)"
            self.tap(sel, f"next [{st['status']}]")
            return "next", None
        return "stuck", None


def round_of(status: str) -> int | None:
    m = re.search(r"Round (\d+)", status)
    return int(m.group(1)) if m else None


# The referee's library in IndexedDB: the entry this tab has open (its autosaved save-file document).
OPEN_DOC = """async () => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open('fray'); r.onsuccess = () => ok(r.result);
                                             r.onerror = () => no(r.error); });
  const all = await new Promise(ok => { const q = db.transaction(['entries']).objectStore('entries').getAll();
                                        q.onsuccess = () => ok(q.result); });
  db.close();
  const read = t => { try { return typeof t === 'string' ? JSON.parse(t) : t; } catch (e) { return {}; } };
  const id = sessionStorage.getItem('fray.tab.entry');
  const rec = all.map(read).find(r => r.id === id);
  return rec && rec.doc ? (typeof rec.doc === 'string' ? rec.doc : JSON.stringify(rec.doc)) : null;
}"""


def build_from_welcome(page, system: str, touch: bool) -> tuple[int, object]:
    """A new user's fight from the welcome (3 sample PCs, 4 starter orcs, default placement): the taps it
    took, and the encounter as the page saved it once the setup is applied."""
    taps = 0

    def tap(testid: str) -> None:
        nonlocal taps
        el = page.get_by_test_id(testid).first
        el.wait_for(state="visible", timeout=20_000)
        if touch:
            el.scroll_into_view_if_needed()
            el.tap()
        else:
            el.click()
        taps += 1
        page.evaluate(SETTLE)

    tap(f"welcome-system-{system}")
    tap("welcome-blank")
    for _ in range(3):
        tap("add-Sample PC")
    tap("roster-count")
    page.get_by_test_id("roster-count").fill("4")
    page.get_by_test_id("roster-count").press("Enter")
    tap(f"roster-add-starter-{system}-orc")
    tap("toggle-setup")
    deadline = time.time() + 15
    while True:
        raw = page.evaluate(OPEN_DOC)
        if raw:
            enc = storage.loads(raw).session.encounter
            if len(enc.combatants) == 7:
                return taps, enc
        if time.time() > deadline:
            raise RuntimeError(f"{system}: the built fight was not saved with 7 combatants")
        page.wait_for_timeout(200)


def play(browser, base: str, system: str, enc, size: int, rounds: int, log, shots: str | None = None,
         build: str = "welcome") -> dict:
    phone = size < 760
    view, touch = viewport(size)
    ctx = browser.new_context(viewport=view, has_touch=touch, is_mobile=touch)
    ctx.add_init_script("try { localStorage.setItem('fray.snapshot.off', 'bench'); } catch (e) {}")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base if build == "welcome" else base + "#" + storage.encode_link(Session(enc)))
        page.wait_for_selector("html[data-ready='true']", state="attached", timeout=120_000)
        page.evaluate(SETTLE)
        built = 0
        if build == "welcome":
            built, enc = build_from_welcome(page, system, touch)
        f = Fight(page, enc, phone, touch)
        per_round: dict[int, int] = {}
        attacks: list[dict] = []
        declared = 0
        cycle = sum(1 for c in enc.combatants if c.hp > 0)
        cur = 1
        stuck = 0
        gave_up = False
        while f.taps < MAX_TAPS:
            st = f.read()
            if system == "ogre":
                r = cur
            else:
                r = round_of(st["status"]) or cur
            if r > rounds or re.search(r"(?i)\b(won|wins|victory|over|fled)\b", st["status"]):
                break
            cur = r
            t0 = f.taps
            kind, rec = f.step(st)
            if system == "ogre" and kind in ("attack", "move"):
                declared += 1
            per_round[cur] = per_round.get(cur, 0) + f.taps - t0
            if rec is not None and rec.get("done"):
                rec["round"] = cur
                attacks.append(rec)
                attacks.extend(dict(r, round=cur) for r in rec.get("reactions", ()))
            if kind == "stuck" or (kind == "attack" and not rec.get("done")):
                stuck += 1
                if stuck > 3:
                    gave_up = True
                    if shots:
                        page.screenshot(path=str(pathlib.Path(shots) / f"stuck-{system}-{size}.png"))
                    break
            else:
                stuck = 0
            if system == "ogre" and declared >= cycle:
                declared = 0
                cur += 1
                cycle = max(1, page.evaluate(STANDING))  # those standing now
        out = {"system": system, "size": size, "build": build, "build_taps": built, "per_round": per_round, "attacks": attacks, "taps": f.taps,
               "reach_scrolls": f.reach_scrolls, "errors": errors, "trail": f.trail,
               "rounds_played": len(per_round), "last_status": f.read()["status"], "last_read": f.read(),
               "gave_up": gave_up or f.taps >= MAX_TAPS}
        return out
    finally:
        ctx.close()


def summarise(run: dict) -> dict:
    rounds = [v for k, v in sorted(run["per_round"].items())]
    taps = [a["taps"] for a in run["attacks"]]
    vis = [a["visible"] for a in run["attacks"]]
    kinds: dict[str, int] = {}
    for why in run["trail"]:
        k = why.split(" ")[0]
        kinds[k] = kinds.get(k, 0) + 1
    return {"by_kind": kinds, "taps_round_mean": statistics.mean(rounds) if rounds else float("nan"), "taps_rounds": rounds,
            "attacks": len(taps), "taps_attack_mean": statistics.mean(taps) if taps else float("nan"),
            "taps_attack_max": max(taps) if taps else None, "visible": sum(vis), "results": len(vis),
            "result_scrolls": sum(a["scrolls"] for a in run["attacks"]), "reach_scrolls": run["reach_scrolls"]}


def table(rows: list[tuple[str, int, dict]]) -> str:
    head = ("system", "size", "taps/round (mean; each)", "taps/attack mean / max", "results visible",
            "scrolls to see / to reach", "before (taps/round)", "targets")
    lines = [head]
    for system, size, s in rows:
        half = BEFORE_ROUND[system] / 2
        met_r = s["taps_round_mean"] <= half
        met_a = s["taps_attack_max"] is not None and s["taps_attack_max"] <= 2
        lines.append((system, f"{size}{' touch' if viewport(size)[1] else ''}",
                      f"{s['taps_round_mean']:.1f}; {'/'.join(map(str, s['taps_rounds']))}",
                      f"{s['taps_attack_mean']:.2f} / {s['taps_attack_max']}  (n={s['attacks']})",
                      f"{s['visible']}/{s['results']}", f"{s['result_scrolls']} / {s['reach_scrolls']}",
                      BEFORE[system],
                      f"round ≤ {half:g} {'met' if met_r else 'MISSED'}; attack ≤ 2 {'met' if met_a else 'MISSED'}"))
    w = [max(len(str(r[i])) for r in lines) for i in range(len(head))]
    kinds = ("next", "foe", "option", "answer", "tab", "move", "square")
    where = [("system", "size", "where the taps went (all rounds): " + ", ".join(kinds))]
    for system, size, s in rows:
        where.append((system, str(size), "  ".join(f"{k} {s['by_kind'].get(k, 0)}" for k in kinds)))
    ww = [max(len(r[i]) for r in where) for i in range(3)]
    tail = "\n\n" + "\n".join("  ".join(c.ljust(ww[i]) for i, c in enumerate(r)).rstrip() for r in where)
    return "\n".join("  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip() for r in lines) + tail


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="390,1280", help="viewport widths (under 760: a phone, by touch)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--systems", default="olog,ose,ogre")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(ROOT / "bench-results" / "taps.json"))
    ap.add_argument("--trail", action="store_true", help="print every tap")
    ap.add_argument("--shots", default=None, help="a folder: a screenshot where the policy got stuck")
    ap.add_argument("--build", choices=("welcome", "examples"), default="welcome",
                    help="how the fight is made: from the welcome as a new user does, or the examples by link")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    zipped = ROOT / "static" / "build" / "fray.zip"
    if not zipped.exists():
        raise SystemExit("static/build/fray.zip is missing: run `python3 tools/setup.py --app-only` first")
    encs = encounters(args.seed)
    srv = server.start()
    base = f"http://127.0.0.1:{srv.server_port}/"
    runs, rows = [], []
    t = time.time()
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            for system in args.systems.split(","):
                for size in (int(s) for s in args.sizes.split(",")):
                    run = play(browser, base, system, encs[system], size, args.rounds, print, args.shots, args.build)
                    s = summarise(run)
                    run["summary"] = s
                    runs.append(run)
                    rows.append((system, size, s))
                    print(f"  {system:4} {size:5}: built in {run['build_taps']} taps; {run['taps']} taps, rounds {run['per_round']}, "
                          f"{s['attacks']} attacks, status now: {run['last_status']!r}"
                          + (f"; page errors: {run['errors'][:2]}" if run["errors"] else "")
                          + ("; THE POLICY GOT STUCK before the last round (see --trail, --shots)"
                             if run["gave_up"] else ""), flush=True)
                    if args.trail:
                        print("    " + " > ".join(run["trail"]))
            browser.close()
    finally:
        srv.shutdown()
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"rounds": args.rounds, "seed": args.seed, "runs": runs}, indent=1))
    print()
    print(table(rows))
    print(f"\n({time.time() - t:.0f} s; written to {out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
