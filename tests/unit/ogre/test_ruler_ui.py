"""The Ogre segment ruler and the before-the-fight dialog as HTML (py/fray/ui/field/ruler.py, before_fight.py), in CPython.

Each test parses the markup the page would set and checks what a referee
would see: bars from declaration to resolution at the right place, the
hatched flat-footed stretch, the cursor, the next resolution, twelve lanes,
names shown as text; and that clicks select or act.
"""
from __future__ import annotations

from dataclasses import replace
from html.parser import HTMLParser

import pytest

from acting import act
from ogre_support import advance_to, orc, pc, start

from fray.engine.session import Session
from fray.rules.ogre import commands as oc
from fray.rules.ogre import RULESET
from fray.rules.ogre.examples import examples
from fray.ui.field.before_fight import BeforeView
from fray.ui.field.field_ui import FieldUi
from fray.ui.field.field_views import FieldAction, FieldContext, views_for
from fray.ui.field.ruler import RulerView, fit_bucket
from fray.views.panels import system_view


# --- a tiny DOM ---------------------------------------------------------------------------------

class Node:
    def __init__(self, tag: str, attrs: dict[str, str]):
        self.tag, self.attrs, self.children, self.parts = tag, attrs, [], []

    @property
    def text(self) -> str:
        return "".join(p if isinstance(p, str) else p.text for p in self.parts)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def style(self) -> dict[str, str]:
        out = {}
        for part in self.attrs.get("style", "").split(";"):
            if ":" in part:
                k, v = part.split(":", 1)
                out[k.strip()] = v.strip()
        return out

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def find(self, testid: str) -> "Node":
        for n in self.walk():
            if n.attrs.get("data-testid") == testid:
                return n
        raise AssertionError(f"no element data-testid={testid!r}")

    def has(self, testid: str) -> bool:
        return any(n.attrs.get("data-testid") == testid for n in self.walk())

    def all(self, cls: str) -> list["Node"]:
        return [n for n in self.walk() if cls in n.classes]


VOID = {"input", "br", "img", "hr", "meta", "link"}


class Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: (v if v is not None else "") for k, v in attrs})
        self.stack[-1].children.append(node)
        self.stack[-1].parts.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        while len(self.stack) > 1:
            if self.stack.pop().tag == tag:
                break

    def handle_data(self, data):
        self.stack[-1].parts.append(data)


def parse(markup: str) -> Node:
    t = Tree()
    t.feed(markup)
    return t.root


# --- helpers --------------------------------------------------------------------------------------

def ctx_for(s: Session, selected: str | None = None, ui: FieldUi | None = None) -> FieldContext:
    state = s.state
    return FieldContext(state, s.ruleset, system_view("ogre").panel(state), selected, s.current(),
                        options=s.ruleset.options(state, selected) if selected else [],
                        ui=ui if ui is not None else FieldUi())


def draw(s: Session, selected: str | None = None) -> Node:
    return parse(RulerView().render(ctx_for(s, selected)))


def the_texts_example() -> Session:
    """OGRE-EX-1 in the page's example: orc 4 + 10 = 14 attacks (24); Brak 8 + 8 = 16 attacks (26)."""
    s = Session(examples()["orc_and_pc"](1), RULESET)
    act(s, oc.RollInitiative(), 4, 8)
    act(s, oc.Advance())
    act(s, oc.Attack("orc", "brak"))
    act(s, oc.Advance())
    act(s, oc.Attack("brak", "orc"))
    return s


def left_width(n: Node) -> tuple[float, float]:
    st = n.style()
    return float(st["left"].rstrip("%")), float(st["width"].rstrip("%"))


# --- the ruler --------------------------------------------------------------------------------------

def test_the_texts_example_draws_each_attack_from_declaration_to_resolution__OGRE_EX_1__OGRE_ACT_1():
    r = draw(the_texts_example())
    box = r.find("ruler")
    assert (box.attrs["data-start"], box.attrs["data-end"], box.attrs["data-now"]) == ("0", "35", "16")
    orc_bar, brak_bar = r.find("bar-orc-0"), r.find("bar-brak-0")
    assert (orc_bar.attrs["data-start"], orc_bar.attrs["data-end"]) == ("14", "24")
    assert (brak_bar.attrs["data-start"], brak_bar.attrs["data-end"]) == ("16", "26")
    # x in percent of the 35-segment window: 14/35 = 40 %, 10 segments = 28.571 %.
    assert left_width(orc_bar) == (40.0, 28.571)
    assert left_width(brak_bar) == (45.714, 28.571)
    assert "Attack Brak with Axe · Standard" in orc_bar.text  # the action and its category
    assert "Attack·Std" in orc_bar.text  # the compact label, shown when the bar is narrow (CSS)
    # The orc's resolves first: its bar is the next resolution, named in words above the ruler.
    assert "next" in orc_bar.classes and "next" not in brak_bar.classes
    nxt = r.find("ruler-next").text
    assert "Next resolution at segment 24" in nxt and "Orc: Attack Brak with Axe" in nxt and "(in 8" in nxt
    assert r.find("ruler-nextline").attrs["data-segment"] == "24"


def test_the_flat_footed_stretch_is_hatched_until_initiative_and_fades_once_past__OGRE_FF_1():
    s = Session(examples()["orc_and_pc"](1), RULESET)
    act(s, oc.RollInitiative(), 4, 8)
    r = draw(s)
    ff = r.find("ff-orc")
    assert (ff.attrs["data-start"], ff.attrs["data-end"]) == ("0", "14")
    assert r.find("ruler").attrs["data-end"] == "30"  # the window: 0 to 30 while nobody has declared
    assert left_width(ff) == (0.0, 46.667)  # 14 of 30 segments
    assert "flat-footed" in ff.text and "OGRE-FF-1" in ff.attrs["title"] and "past" not in ff.classes
    assert r.find("ff-brak").attrs["data-end"] == "16"
    act(s, oc.Advance())  # segment 14: the orc's stretch is over, Brak's is not
    r = draw(s)
    assert "past" in r.find("ff-orc").classes and "past" not in r.find("ff-brak").classes


def test_the_cursor_and_the_axis_show_now_in_segments_and_seconds__OGRE_SEG_1():
    r = draw(the_texts_example())
    cur = r.find("ruler-cursor")
    assert cur.attrs["data-segment"] == "16" and cur.style()["left"] == "45.714%"
    ticks = r.all("rl-tick")
    assert [t.text for t in ticks[:3]] == ["00.0 s", "52.5 s", "105.0 s"]
    assert all(float(t.style()["left"].rstrip("%")) == pytest.approx(k * 5 * 100 / 35, abs=1e-3) for k, t in enumerate(ticks))
    assert "now 16" in r.all("rl-now-tag")[0].text and "8.0 s" in r.all("rl-now-tag")[0].text
    assert "Segment 16" in r.find("ruler-now").text


def test_the_count_waits_for_a_declaration_then_says_where_advance_goes__OGRE_ACT_1():
    s = Session(examples()["orc_and_pc"](1), RULESET)
    act(s, oc.RollInitiative(), 4, 8)
    act(s, oc.Advance())
    r = draw(s)
    assert "Orc declares now" in r.find("ruler-now").text
    due = r.find("due-orc")
    assert due.attrs["data-segment"] == "14" and "now" in due.classes and "declares now" in due.text
    act(s, oc.Attack("orc", "brak"))
    assert "Advance (N) goes to segment 16" in draw(s).find("ruler-now").text


def test_twelve_lanes_each_a_focusable_button_in_initiative_order__OGRE_INIT_1():
    s = Session(examples()["twelve"](2), RULESET)
    faces = [3, 7, 1, 9, 5, 2, 8, 4, 6, 10, 3, 5]
    act(s, oc.RollInitiative(), *faces)
    r = draw(s, "orc1")
    lanes = [n for n in r.walk() if "lane" in n.classes]
    assert len(lanes) == 12
    buttons = [r.find(f"lane-btn-{n.attrs['data-lane']}") for n in lanes]
    assert all(b.tag == "button" and b.attrs["type"] == "button" for b in buttons)  # Tab reaches it, Enter clicks
    assert [b.attrs["data-action"] for b in buttons] == [f"lane:{n.attrs['data-lane']}" for n in lanes]
    inits = [s.state.board.fighter(n.attrs["data-lane"]).initiative for n in lanes]
    assert inits == sorted(inits)
    selected = [b for b in buttons if b.attrs["aria-pressed"] == "true"]
    assert [b.attrs["data-testid"] for b in selected] == ["lane-btn-orc1"]
    # Side by colour AND shape (UI principle 6).
    marks = {n.attrs["data-lane"]: n.all("side-mark")[0].text for n in lanes}
    assert marks["pc1"] == "●" and marks["orc1"] == "■"


def test_names_are_shown_as_text_never_as_markup():
    evil = '<img src=x onerror="alert(1)">'
    s = start(orc(), replace(pc(), name=evil), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    markup = RulerView().render(ctx_for(s))
    assert "<img" not in markup and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in markup
    r = parse(markup)
    assert r.find("lane-btn-brak").all("rl-nm")[0].text == evil
    assert f"Attack {evil} with Axe" in r.find("bar-orc-0").text


def test_fast_and_careful_actions_carry_an_icon_and_a_word__OGRE_FAST_1__OGRE_SLOW_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak", tempo=-1))  # Short: 19
    advance_to(s, 16)
    act(s, oc.Attack("brak", "orc", tempo=1))  # Long: 36
    r = draw(s)
    fast, slow = r.find("bar-orc-0"), r.find("bar-brak-0")
    assert "fast" in fast.classes and "» fast" in fast.text and "Short" in fast.text
    assert (fast.attrs["data-start"], fast.attrs["data-end"]) == ("14", "19")
    assert "slow" in slow.classes and "« slow +4" in slow.text and "Long" in slow.text
    assert slow.attrs["data-end"] == "36"


def test_reactions_are_ticks_with_their_penalty__OGRE_REACT_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    advance_to(s, 16)
    act(s, oc.React("orc", "Short", "parry"))
    act(s, oc.React("orc", "Quick", "step"))
    r = draw(s)
    tick = r.find("react-orc-16")
    assert "↯-4 -2" in tick.text and "OGRE-REACT-1" in tick.attrs["title"] and "parry" in tick.attrs["title"]
    assert tick.style()["left"] == r.find("ruler-cursor").style()["left"]
    assert "↯-6" in r.find("bar-orc-0").text  # the penalty so far, on the action it weighs on


def test_a_reaction_mark_past_the_middle_reads_leftwards_to_stay_in_its_lane__OGRE_REACT_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.React("orc", "Quick", "step"))  # segment 14 of 0-30: left of the middle
    act(s, oc.Attack("orc", "brak"))
    advance_to(s, 16)
    act(s, oc.React("orc", "Quick", "parry"))  # segment 16: right of it
    r = draw(s)
    assert "flip" not in r.find("react-orc-14").classes
    assert "flip" in r.find("react-orc-16").classes


def test_delays_are_dashed_and_readies_open_ended__OGRE_DELAY_1__OGRE_READY_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Ready("orc", "attack", "attack", "brak"))
    advance_to(s, 16)
    act(s, oc.Delay("brak"))
    r = draw(s)
    ready, delay = r.find("bar-orc-0"), r.find("bar-brak-0")
    assert {"k-ready", "open"} <= ready.classes and ready.attrs["data-end"] == ""
    assert ready.text.startswith("⚑") and "until its trigger" in ready.attrs["title"]
    left, width = left_width(ready)
    assert left + width == pytest.approx(100.0)  # runs to the edge of the window
    assert {"k-delay", "open"} <= delay.classes and "‖" in delay.text
    assert "‖ delaying" in r.find("lane-btn-brak").text


def test_a_broken_action_stays_on_the_ruler_with_a_word__OGRE_BREAK_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    act(s, oc.Break("orc"))
    bar = draw(s).find("bar-orc-0")
    assert "s-broken" in bar.classes and "broken" in bar.text and bar.text.startswith("✖")


def test_a_long_fight_scrolls_with_the_count_and_marks_clipped_bars__OGRE_SEG_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak", tempo=2))  # 54
    advance_to(s, 16)
    act(s, oc.Delay("brak", until=50))
    advance_to(s, 50)
    act(s, oc.Attack("brak", "orc", tempo=2))  # 90
    advance_to(s, 54, 1)
    act(s, oc.Attack("orc", "brak", tempo=2))  # 94
    r = draw(s)
    assert r.find("ruler").attrs["data-start"] == "40"
    assert r.all("rl-tick")[0].text.startswith("40")
    past = next(n for n in r.all("rl-bar") if n.attrs["data-state"] == "resolved" and "bar-orc" in
                n.attrs["data-testid"])
    assert "clip-l" in past.classes and left_width(past)[0] == 0.0
    assert not r.has("ff-orc")  # the flat-footed stretch is out of the window


def test_the_selected_lane_and_the_current_actor_are_marked():
    s = the_texts_example()
    r = draw(s, "brak")
    assert "selected" in r.find("lane-brak").classes and "selected" not in r.find("lane-orc").classes
    assert r.find("lane-btn-brak").attrs["aria-pressed"] == "true"
    assert "current" in r.find("lane-orc").classes  # the orc holds the next event (Advance is its)
    assert r.find("lane-btn-orc").all("rl-turn")[0].text == "▶"


def test_compact_labels_are_chosen_by_width_buckets():
    assert fit_bucket("Speak") == 80
    assert fit_bucket("Attack Brak with Axe · Standard") == 240
    assert fit_bucket("x" * 200) == 400
    bar = draw(the_texts_example()).find("bar-orc-0")
    assert "fit-240" in bar.classes
    labels = {n.attrs["class"]: n.text for n in bar.children if n.tag == "span" and "lbl" in n.attrs["class"]}
    # Wide, narrower, narrowest (CSS container queries pick one): the target outlives the category.
    assert labels == {"lbl-full": "Attack Brak with Axe · Standard", "lbl-mid": "Attack Brak with Axe",
                      "lbl-short": "Attack·Std"}


def test_clicking_a_lane_or_a_bar_selects_that_combatant():
    s = the_texts_example()
    view = RulerView()
    r = draw(s)
    assert r.find("bar-brak-0").attrs["data-action"] == "lane:brak"
    assert view.act(ctx_for(s), "lane", "brak") == FieldAction(select="brak")
    assert view.act(ctx_for(s), "lane", "nobody") is None
    assert view.act(ctx_for(s), "token", "brak") is None  # the grid's own


def test_before_initiative_the_ruler_says_the_count_has_not_started__OGRE_SEG_1():
    s = Session(examples()["orc_and_pc"](1), RULESET)
    r = draw(s)
    assert "count starts at segment 0 when initiative is rolled" in r.find("ruler-now").text
    assert "setup" in r.find("ruler").classes and not r.all("rl-bar") and not r.all("rl-ff")


def test_ogre_shows_before_above_and_the_ruler_below_the_grid():
    views = views_for(RULESET, "")
    assert [v.name for v in views] == ["grid", "before", "ruler"]
    assert [v.slot for v in views] == ["field-slot", "phase-slot", "ruler-slot"]


# --- before the fight ----------------------------------------------------------------------------

def three() -> Session:
    return Session(examples()["three_vs_three"](1), RULESET)


def form_values(**extra: str) -> dict[str, str]:
    values = {"spot-0": "15", "stalk-0": "", "ranged-0": "yes", "spot-1": "12", "stalk-1": "", "ranged-1": "no",
              "terrain": "gentle hills"}
    values.update(extra)
    return values


def test_the_dialog_asks_each_groups_spot_stalk_and_ranged_attacks__OGRE_SUR_1():
    s = three()
    r = parse(BeforeView().render(ctx_for(s, "brak")))
    assert r.find("before-form").attrs["data-action"] == "before"
    assert r.has("spot-party") and r.has("stalk-orcs") and r.has("terrain")
    # Ranged attacks come pre-set from the groups' weapons: Mira has a bow, the orcs none.
    party = [o for o in r.find("ranged-party").children if "selected" in o.attrs]
    orcs = [o for o in r.find("ranged-orcs").children if "selected" in o.attrs]
    assert party[0].attrs["value"] == "yes" and orcs[0].attrs["value"] == "no"
    assert "gentle hills (10 ft per 3 points)" in r.find("terrain").text
    assert "Type each group's best Spot result" in r.find("before").text


def test_suggest_shows_the_engines_reading_and_keeps_the_numbers__OGRE_SUR_1():
    s = three()
    view, ui = BeforeView(), FieldUi()
    result = view.form(ctx_for(s, "brak", ui), "before", "", form_values(), "suggest")
    assert result == FieldAction(redraw=True)
    r = parse(view.render(ctx_for(s, "brak", ui)))
    assert r.find("suggested").text == "start at 50 ft; surprised: Orcs (+10 reaction time)"
    assert r.find("spot-party").attrs["value"] == "15"
    assert r.find("before-distance").attrs["value"] == "50"
    chosen = [o.attrs["value"] for o in r.find("surprised-orcs").children if "selected" in o.attrs]
    assert chosen == ["yes"]


def test_confirming_the_suggestion_acts_with_the_ruleset_command__OGRE_SUR_1():
    s = three()
    view, ui = BeforeView(), FieldUi()
    view.form(ctx_for(s, "brak", ui), "before", "", form_values(), "suggest")
    values = form_values(**{"distance": "50", "sug-distance": "50", "surprised-0": "no", "surprised-1": "yes",
                            "sug-surprised-0": "no", "sug-surprised-1": "yes"})
    result = view.form(ctx_for(s, "brak", ui), "before", "", values, "confirm")
    cmd = result.command
    assert isinstance(cmd, oc.BeforeTheFight)
    assert (cmd.sides, cmd.spot, cmd.ranged, cmd.surprised, cmd.distance_ft) == (
        ("party", "orcs"), (15, 12), (True, False), None, None)
    s.act(cmd)
    assert s.state.board.surprise.surprised == ("orcs",)
    r = parse(view.render(ctx_for(s, "brak", ui)))
    assert "start 50 ft apart (10 squares); surprised: Orcs" in r.find("before-confirmed").text
    assert "override" not in r.find("before-confirmed").text


def test_the_referee_overrides_distance_and_surprise_and_the_log_says_so__OGRE_SUR_1():
    s = three()
    view, ui = BeforeView(), FieldUi()
    values = form_values(**{"distance": "30", "sug-distance": "50", "surprised-0": "no", "surprised-1": "no",
                            "sug-surprised-0": "no", "sug-surprised-1": "yes"})
    cmd = view.form(ctx_for(s, "brak", ui), "before", "", values, "confirm").command
    assert (cmd.surprised, cmd.distance_ft) == ((), 30)
    step = s.act(cmd)
    assert any(e.kind == "Overridden" and "start at 30 ft, surprised: nobody" in e.text for e in step.events)
    assert "referee's override" in parse(view.render(ctx_for(s, "brak", ui))).find("before-confirmed").text


def test_a_missing_spot_is_refused_with_a_sentence_and_the_typing_is_kept__OGRE_SUR_1():
    s = three()
    view, ui = BeforeView(), FieldUi()
    result = view.form(ctx_for(s, "brak", ui), "before", "", form_values(**{"spot-1": "lots"}), "suggest")
    assert result.message == "Orcs's best Spot result must be a whole number (OGRE-SUR-1)."
    r = parse(view.render(ctx_for(s, "brak", ui)))
    assert r.find("spot-party").attrs["value"] == "15" and not r.has("before-suggestion")


def test_the_dialog_is_gone_once_the_count_starts_and_ignores_other_forms__OGRE_SUR_1():
    s = three()
    view = BeforeView()
    assert view.form(ctx_for(s, "brak"), "roll", "", {"expr": "d6"}, "") is None
    act(s, oc.RollInitiative(), *[5] * 6)
    assert view.render(ctx_for(s, "brak")) == ""
    assert view.form(ctx_for(s, "brak"), "before", "", form_values(), "suggest") is None


def test_the_dialog_offers_to_roll_initiative_through_the_actions_option__OGRE_INIT_1():
    s = three()
    ctx = ctx_for(s, "brak")
    btn = parse(BeforeView().render(ctx)).find("before-roll")
    name, _, arg = btn.attrs["data-action"].partition(":")
    result = BeforeView().act(ctx, name, arg)
    assert isinstance(ctx.options[result.choose].command, oc.RollInitiative)


def test_side_names_in_the_dialog_are_text():
    s = three()
    enc = s.encounter
    sides = tuple(replace(sd, name="<b>Orcs</b>") if sd.id == "orcs" else sd for sd in enc.sides)
    s = Session(replace(enc, sides=sides), RULESET)
    markup = BeforeView().render(ctx_for(s, "brak"))
    assert "<b>Orcs</b>" not in markup and "&lt;b&gt;Orcs&lt;/b&gt;" in markup
