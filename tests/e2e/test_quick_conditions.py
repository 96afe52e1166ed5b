"""A timed condition from the field in at most three taps, in each system (issue 34; CORE-REF-1), at laptop and
phone size: the combatant's quick dialog (its hit points, tapped on its row, or "± <target>" beside a targeted
foe) lists the library's conditions, one tap each, for the duration chosen above them in the system's clock.
The badge says the time left, the condition ends by itself at its tick (logged), and one undo brings it back."""
from __future__ import annotations

from helpers import (is_phone, log_text, next_turn, open_example, option, physical_dice, select, show, status,
                     type_dice, undo)
from playwright.sync_api import expect


def badge(page, cid: str):
    show(page, "order")
    return page.get_by_test_id(f"order-{cid}").locator(".badge.cond")


def from_row(page, cid: str, condition: str, duration: str | None = None) -> int:
    """The row's hit points (a tap), the duration if not the default (a tap), the condition (a tap)."""
    show(page, "order")
    page.get_by_test_id(f"hp-{cid}").click()
    taps = 1
    if duration is not None:
        page.get_by_test_id("qcond-for").select_option(label=duration)
        taps += 1
    page.get_by_test_id(f"qcond-{condition.lower()}").click()
    expect(page.get_by_test_id("hp-dialog")).to_have_count(0)
    return taps + 1


def on_to_round_two(page, most: int) -> None:
    """The "next" option (end the turn, the step) until round 2 begins; no die is asked on the way."""
    for _ in range(most):
        if "Round 2" in status(page):
            break
        next_turn(page)
        type_dice(page, {})
    expect(page.get_by_test_id("status")).to_contain_text("Round 2")


def test_olog_a_targeted_orc_entangled_in_three_taps_ends_at_round_two_and_undo_brings_it_back__CORE_REF_1(app):
    open_example(app, "olog", "two_orcs")
    physical_dice(app)
    option(app, "Roll initiative").click()
    type_dice(app, {20: [15]})  # Brak 15 + 2 acts first
    show(app, "act")
    app.get_by_test_id("target-orc1").click()  # 1: the orc is Brak's target
    app.get_by_test_id("hp-quick-target").click()  # 2: its quick dialog
    expect(app.get_by_test_id("qcond-for")).to_have_value("1")  # the default: one round
    # the durations a referee says at the table, in OLOG's clock (it has turns, no minutes)
    labels = app.get_by_test_id("qcond-for").locator("option").all_inner_texts()
    assert labels == ["1 round", "2 rounds", "3 rounds", "10 rounds", "until the start of Brak's next turn",
                      "until the end of Brak's next turn", "until removed"]
    app.get_by_test_id("qcond-entangled").click()  # 3
    expect(badge(app, "orc1")).to_have_text("entangled · 1 round left")
    expect(app.locator("header [data-testid=clock]")).to_have_text("◷ turn 1 of 3")
    on_to_round_two(app, 6)
    expect(badge(app, "orc1")).to_have_count(0)
    assert "Orc 1 is no longer entangled: its time is up (round 2)" in log_text(app)
    undo(app)
    expect(badge(app, "orc1")).to_have_text("entangled · 1 round left")


def test_olog_until_the_start_of_braks_next_turn_and_a_secret_one_the_players_never_see__CORE_REF_1(app):
    open_example(app, "olog", "two_orcs")
    physical_dice(app)
    option(app, "Roll initiative").click()
    type_dice(app, {20: [15]})
    taps = from_row(app, "orc2", "Shaken", "until the start of Brak's next turn")
    assert taps == 3
    expect(badge(app, "orc2")).to_have_text("shaken · until the start of Brak's next turn")
    show(app, "order")
    app.get_by_test_id("hp-orc2").click()
    app.get_by_test_id("qcond-custom").fill("Cursed <b>by the witch</b>")
    app.get_by_test_id("qcond-secret").check()
    app.get_by_test_id("qcond-add").click()
    # the duration last chosen is kept: the referee's habit is the next default
    expect(badge(app, "orc2").nth(1)).to_have_text("Cursed <b>by the witch</b> · until the start of Brak's next "
                                                   "turn · secret")
    if is_phone(app):
        return  # the players' view of this window is a laptop's (the phone's header has no room for it)
    app.get_by_test_id("players-view-toggle").click()
    table = app.get_by_test_id("players-view")
    expect(table).to_contain_text("shaken")
    assert "Cursed" not in table.inner_text()
    app.get_by_test_id("players-view-close").click()


def test_olog_a_duration_that_is_not_one_is_refused_at_the_field_and_changes_nothing__CORE_REF_1(app):
    open_example(app, "olog", "two_orcs")
    show(app, "order")
    app.get_by_test_id("hp-orc1").click()
    app.get_by_test_id("qcond-custom").fill("")
    app.get_by_test_id("qcond-add").click()
    expect(app.get_by_test_id("qcond-problem")).to_have_text("Name the condition (or tap one of the list).")
    expect(app.get_by_test_id("qcond-custom")).to_have_attribute("aria-invalid", "true")
    app.get_by_test_id("qcond-custom").fill("Bane (to-hit -1)")
    app.get_by_test_id("qcond-add").click()
    expect(app.get_by_test_id("hp-dialog")).to_have_count(0)
    expect(badge(app, "orc1")).to_have_text("Bane (to-hit -1) · 1 round left")


def test_ose_a_goblin_shaken_in_two_taps_ends_when_round_two_begins__CORE_REF_1__OSE_SEQ_1(app):
    open_example(app, "ose", "loose")
    show(app, "field")
    app.get_by_test_id("decl-go").click()  # roll initiative, the app's dice
    expect(app.get_by_test_id("status")).to_contain_text("Round 1 ·")
    show(app, "order")
    app.get_by_test_id("hp-g1").click()
    labels = app.get_by_test_id("qcond-for").locator("option").all_inner_texts()
    assert "1 minute (6 rounds)" in labels
    app.get_by_test_id("qcond-shaken").click()  # 2 taps
    expect(badge(app, "g1")).to_have_text("shaken · 1 round left")
    expect(app.locator("header [data-testid=clock]")).to_have_text("◷ 0 s")
    on_to_round_two(app, 16)
    expect(badge(app, "g1")).to_have_count(0)
    assert "Goblin 1 is no longer shaken: its time is up (round 2)" in log_text(app)
    expect(app.locator("header [data-testid=clock]")).to_have_text("◷ 10 s")
    undo(app)
    expect(badge(app, "g1")).to_have_text("shaken · 1 round left")


def test_ogre_brak_blessed_for_a_second_ends_as_the_count_reaches_it__CORE_REF_1__OGRE_SEG_1(app):
    open_example(app, "ogre", "orc_and_pc")
    physical_dice(app)
    show(app, "field")
    app.get_by_test_id("before-roll").click()
    type_dice(app, {10: [4, 8]})  # orc 14, Brak 16 (OGRE-EX-1): the count goes on to 14
    expect(app.get_by_test_id("status")).to_contain_text("Segment 14 (7.0 s)")  # the clock, in the status
    assert from_row(app, "brak", "Blessed") == 2  # the default: 2 segments (1 s)
    expect(badge(app, "brak")).to_have_text("blessed · 2 segments (1 s) left")
    show(app, "act")
    option(app, "Attack Brak").click()  # the orc declares; the count goes on to 16 by itself
    expect(app.get_by_test_id("status")).to_contain_text("Segment 16")
    expect(badge(app, "brak")).to_have_count(0)
    assert "Brak is no longer blessed: its time is up (segment 16)" in log_text(app)
    undo(app)
    expect(badge(app, "brak")).to_have_text("blessed · 2 segments (1 s) left")


def test_ose_magic_missile_on_every_goblin_in_three_taps_one_step_one_undo__OSE_SPELL_2__CORE_REF_1(app, tmp_path):
    """A caster's spell carries its effect in the roster ("Magic Missile (1d6+1 each)", engine/spells.py):
    completing it asks only for the targets, and each goblin takes its own roll, in one step."""
    from dataclasses import replace

    from fray.engine import storage
    from fray.engine.session import Session
    from fray.rules.ose import RULESET, Declare, RollInitiative
    from fray.rules.ose.examples import loose

    enc = loose()
    cs = tuple(replace(c, stats={**c.stats, "spells": ("Magic Missile (1d6+1 each)",)}) if c.id == "mira" else c
               for c in enc.combatants)
    s = Session(replace(enc, combatants=cs), RULESET)
    s.act(Declare("mira", "spell", "Magic Missile (1d6+1 each)"))
    path = tmp_path / "missile.fray.json"
    path.write_text(storage.dumps(s))
    app.locator("#file-input").set_input_files(str(path))
    expect(app.get_by_test_id("notice-ok")).to_contain_text("Opened")
    physical_dice(app)
    show(app, "field")
    app.get_by_test_id("decl-go").click()
    type_dice(app, {12: [9, 4]})  # the Party acts first
    before = [app.get_by_test_id(f"order-{g}").locator(".hp-num").inner_text() for g in ("g1", "g2", "g3")]
    assert before == ["4/4", "3/3", "3/3"]
    select(app, "mira")  # 1: Mira's actions (the Party acts; Brak's are shown first)
    option(app, "Complete Magic Missile").click()  # 2
    show(app, "act")
    app.get_by_test_id("ask").locator("button.choice", has_text="On every foe (3)").click()  # 3
    type_dice(app, {6: [1, 1, 2]})  # one d6 a goblin: 2, 2 and 3 damage
    show(app, "order")
    after = [app.get_by_test_id(f"order-{g}").locator(".hp-num").inner_text() for g in ("g1", "g2", "g3")]
    assert after == ["2/4", "1/3", "0/3"]
    assert "Magic Missile on Goblin 1, Goblin 2, Goblin 3" in log_text(app)
    undo(app)  # the spell and its damage are one step
    show(app, "order")
    expect(app.get_by_test_id("order-g1").locator(".hp-num")).to_have_text("4/4")
    expect(app.get_by_test_id("order-g3").locator(".hp-num")).to_have_text("3/3")
