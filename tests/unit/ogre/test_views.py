"""Ogre's view models: the order panel (status, rows, badges, hints), the segment ruler, the surprise dialog."""
from __future__ import annotations

import dataclasses

import pytest

from acting import act
from ogre_support import advance_to, orc, pc, start

from fray.engine.session import Session
from fray.rules.ogre import commands as oc
from fray.rules.ogre import RULESET
from fray.rules.ogre.examples import examples
from fray.views.ogre import VIEW, RulerModel, ruler, surprise_dialog


def orc_attacks_brak_at_14(**kw):
    s = start(orc(), pc(), initiative=[4, 8], **kw)
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak"))
    advance_to(s, 16)
    return s


def words(badges) -> list[str]:
    return [f"{b.icon} {b.word}" for b in badges]


# --- the panel ------------------------------------------------------------------------------------

def test_the_status_names_the_segment_its_time_and_who_declares__OGRE_SEG_1__OGRE_ACT_1():
    s = orc_attacks_brak_at_14()
    panel = VIEW.panel(s.state)
    assert panel.status == "Segment 16 (8.0 s) · Brak declares" and panel.phase == "declare"
    act(s, oc.Attack("brak", "orc"))
    panel = VIEW.panel(s.state)
    assert panel.phase == "advance"
    assert panel.status == "Segment 16 (8.0 s) · next: segment 24 (12.0 s) · Orc's Attack Brak with Axe resolves"


def test_the_status_before_the_fight_and_during_a_prompt__OGRE_SUR_1__OGRE_AOO_1():
    s = Session(examples()["orc_and_pc"](1), RULESET)
    assert VIEW.panel(s.state).phase == "setup"
    s = orc_attacks_brak_at_14()
    act(s, oc.Move("brak", "quick", ((6, 4), (7, 4))))
    advance_to(s, 18)
    panel = VIEW.panel(s.state)
    assert panel.phase == "prompt" and "Orc: Brak leaves a square you threaten" in panel.status


def test_order_rows_are_sorted_by_next_segment_with_what_resolves__OGRE_ACT_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Attack("brak", "orc", tempo=2))  # Very Long: resolves at 56
    rows = VIEW.panel(s.state).order
    assert [(r.id, r.detail) for r in rows] == [("orc", "acts at 24: Attack Brak with Axe (Standard)"),
                                                ("brak", "acts at 56: Attack Orc with Sword (Very Long)")]


def test_badges_show_flat_footed_ready_delaying_and_concentrating__OGRE_FF_1__OGRE_READY_1__OGRE_DELAY_1():
    s = start(orc(caster=True), pc(), orc("orc2", (5, 5)), initiative=[4, 8, 4])
    panel = VIEW.panel(s.state)
    assert "◔ flat-footed" in words(panel.badges["brak"])
    advance_to(s, 14)
    act(s, oc.Cast("orc", "Sleep", 1))
    act(s, oc.Ready("orc2", "attack", "charge"))
    advance_to(s, 16)
    act(s, oc.Delay("brak"))
    badges = VIEW.panel(s.state).badges
    assert "◎ concentrating" in words(badges["orc"])
    assert "⚑ ready: attack on charge" in words(badges["orc2"])
    assert "‖ delaying" in words(badges["brak"])
    assert all(b.rule and b.title for bs in badges.values() for b in bs)


def test_badges_and_hints_show_the_reaction_penalty_so_far__OGRE_REACT_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.React("orc", "Short", "parry"))
    panel = VIEW.panel(s.state)
    assert "↯ -4" in words(panel.badges["orc"])
    texts = [h.text for h in panel.hints["orc"]]
    assert "Reactions so far: -4 to Attack Brak with Axe" in texts
    assert "Next resolution: Orc's Attack Brak with Axe at segment 24 (in 8)" in texts


def test_fast_and_careful_actions_are_flagged__OGRE_FAST_1__OGRE_SLOW_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Attack("brak", "orc", tempo=-1))
    assert "» fast" in words(VIEW.panel(s.state).badges["brak"])
    bar = next(b for lane in ruler(s.state).lanes if lane.id == "brak" for b in lane.bars)
    assert bar.fast and not bar.slow and bar.category == "Short"


# --- the ruler --------------------------------------------------------------------------------------

def test_each_lane_has_its_flat_footed_band_and_its_declared_actions__OGRE_FF_1__OGRE_ACT_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Attack("brak", "orc"))
    r = ruler(s.state, selected="brak")
    assert (r.start, r.now, r.selected) == (0, 16, "brak")
    orc_lane, brak_lane = r.lanes
    assert orc_lane.flat_footed == (0, 14) and brak_lane.flat_footed == (0, 16)
    bar = orc_lane.bars[0]
    assert (bar.start, bar.end, bar.label, bar.category, bar.state) == (14, 24, "Attack Brak with Axe", "Standard",
                                                                         "pending")
    assert bar.is_next and not brak_lane.bars[0].is_next
    assert r.next_segment == 24 and r.next_label == "Next: Orc resolves at segment 24"
    assert brak_lane.is_selected and not orc_lane.is_selected


def test_the_axis_labels_every_5_segments_with_seconds__OGRE_SEG_1():
    s = orc_attacks_brak_at_14()
    r = ruler(s.state)
    assert [(t.segment, t.seconds) for t in r.ticks][:3] == [(0, "0.0 s"), (5, "2.5 s"), (10, "5.0 s")]
    assert all(t.segment % 5 == 0 for t in r.ticks) and r.end >= 24


def test_reactions_are_ticks_with_their_penalty__OGRE_REACT_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.React("orc", "Short", "parry"))
    mark = ruler(s.state).lanes[0].reactions[0]
    assert (mark.segment, mark.penalty, mark.label, mark.category) == (16, -4, "parry", "Short")


def test_delays_and_readies_are_drawn_apart_from_actions__OGRE_DELAY_1__OGRE_READY_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Delay("brak"))
    lane = next(l for l in ruler(s.state).lanes if l.id == "brak")
    delay = lane.bars[0]
    assert delay.kind == "delay" and delay.start == 16 and delay.end is None and delay.clipped_right
    s.act(oc.Advance())  # it declares at a later segment, not at the one it delayed on (OGRE-DELAY-1)
    act(s, oc.Ready("brak", "attack", "attack", "orc"))
    lane = next(l for l in ruler(s.state).lanes if l.id == "brak")
    kinds = {b.kind: b for b in lane.bars}
    assert kinds["ready"].end is None and kinds["ready"].label == "Ready: attack on Orc (attack)"


def test_past_actions_stay_on_the_ruler_with_how_they_ended__OGRE_ACT_1__OGRE_BREAK_1():
    s = orc_attacks_brak_at_14()
    act(s, oc.Attack("brak", "orc"))
    advance_to(s, 24, 2)
    act(s, oc.Attack("orc", "brak"))
    act(s, oc.Break("orc"))
    bars = ruler(s.state).lanes[0].bars
    assert [(b.start, b.end, b.state) for b in bars] == [(14, 24, "resolved"), (24, 24, "broken")]


def test_a_long_fight_shows_a_window_around_now_not_from_0__OGRE_SEG_1():
    s = start(orc(), pc(), initiative=[4, 8])
    advance_to(s, 14)
    act(s, oc.Attack("orc", "brak", tempo=2))  # Very Long: 54
    advance_to(s, 16)
    act(s, oc.Delay("brak", until=50))
    assert ruler(s.state).start == 0  # everything still fits from segment 0
    advance_to(s, 50)
    act(s, oc.Attack("brak", "orc", tempo=2))  # 90
    advance_to(s, 54, 1)
    act(s, oc.Attack("orc", "brak", tempo=2))  # 94
    r = ruler(s.state)
    assert (r.start, r.now, r.end) == (40, 54, 100)
    orc_lane = next(l for l in r.lanes if l.id == "orc")
    assert orc_lane.flat_footed is None  # the flat-footed stretch is out of the window
    past = next(b for b in orc_lane.bars if b.state == "resolved")
    assert past.clipped_left and (past.start, past.end) == (14, 54)


def test_twelve_lanes_stay_compact__OGRE_ACT_1():
    """One row per lane: a lane's bars never overlap, labels are short, the axis has few labels."""
    s = Session(examples()["twelve"](2), RULESET)
    act(s, oc.RollInitiative(), *[5] * 12)
    for i in range(40):
        due = RULESET.declaring(s.state)
        for cid in due:
            seg = s.state.board.segment
            act(s, oc.Delay(cid, until=seg + 3) if i % 2 else oc.Act(cid, "speak"))
        if not due:
            act(s, oc.Advance())
    r = ruler(s.state)
    assert len(r.lanes) == 12 and len(r.ticks) <= 25
    for lane in r.lanes:
        assert all(len(b.short) <= 12 for b in lane.bars)
        spans = sorted((b.start, b.end if b.end is not None else 10**6) for b in lane.bars)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), (lane.id, spans)


def test_view_models_are_frozen_data():
    s = orc_attacks_brak_at_14()
    r = ruler(s.state)
    assert isinstance(r, RulerModel) and dataclasses.is_dataclass(r)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.now = 3  # type: ignore[misc]
    assert VIEW.ruler(s.state) == r


# --- before the fight ---------------------------------------------------------------------------------

def test_the_surprise_dialog_offers_terrains_and_the_engines_suggestion__OGRE_SUR_1():
    s = Session(examples()["three_vs_three"](1), RULESET)
    d = surprise_dialog(s.state, ("party", "orcs"), (15, 12))
    assert ("gentle hills", 10) in d.terrains
    assert d.suggestion.distance_ft == 50 and d.suggestion.surprised == ("orcs",)  # Mira has a bow
    assert [g.ranged for g in d.suggestion.groups] == [True, False]
