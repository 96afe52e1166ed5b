"""A spell on several targets picks a few, not only one or all (issue 53, stop 9): the question that asks on whom
offers every foe, each foe, and a few ticked (a side in one tap, a name unticked), then one tap casts it on those;
each takes its own roll in the one step that completes it, and one undo takes the whole cast back."""
from __future__ import annotations

from helpers import log_text, physical_dice, select, show, type_dice, undo
from playwright.sync_api import expect


def hp(page, cid: str) -> str:
    show(page, "order")
    return page.get_by_test_id(f"order-{cid}").locator(".hp-num").inner_text()


def test_ose_magic_missile_on_two_goblins_of_three_ticked_one_step_one_undo__OSE_SPELL_2__CORE_REF_1(app, tmp_path):
    from dataclasses import replace

    from fray.engine import storage
    from fray.engine.session import Session
    from fray.rules.ose import RULESET, Declare
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
    select(app, "mira")
    show(app, "act")
    app.locator("[data-testid=actions] button.act", has_text="Complete Magic Missile").first.click()
    ask = app.get_by_test_id("ask")
    expect(ask.locator("button.choice", has_text="On every foe (3)")).to_be_visible()
    few = ask.get_by_test_id("few")
    few.get_by_test_id("few-side-goblins").click()  # one tap ticks the three goblins
    for g in ("g1", "g2", "g3"):
        expect(app.get_by_test_id(f"few-t-{g}")).to_be_checked()
    app.get_by_test_id("few-t-g2").uncheck()
    app.get_by_test_id("few-apply").click()
    type_dice(app, {6: [1, 2]})  # one d6 a goblin ticked: 2 and 3 damage
    assert [hp(app, g) for g in ("g1", "g2", "g3")] == ["2/4", "3/3", "0/3"]
    assert "Magic Missile on Goblin 1, Goblin 3" in log_text(app)
    expect(app.get_by_test_id("ask")).to_have_count(0)
    undo(app)  # the spell and its damage are one step
    expect(app.get_by_test_id("order-g1").locator(".hp-num")).to_have_text("4/4")
    expect(app.get_by_test_id("order-g3").locator(".hp-num")).to_have_text("3/3")


def test_a_spell_cast_on_nobody_ticked_is_said_and_changes_nothing__OSE_SPELL_2(app, tmp_path):
    from dataclasses import replace

    from fray.engine import storage
    from fray.engine.session import Session
    from fray.rules.ose import RULESET, Declare
    from fray.rules.ose.examples import loose

    enc = loose()
    cs = tuple(replace(c, stats={**c.stats, "spells": ("Sleep (asleep for 10 min)",)}) if c.id == "mira" else c
               for c in enc.combatants)
    s = Session(replace(enc, combatants=cs), RULESET)
    s.act(Declare("mira", "spell", "Sleep (asleep for 10 min)"))
    path = tmp_path / "sleep.fray.json"
    path.write_text(storage.dumps(s))
    app.locator("#file-input").set_input_files(str(path))
    expect(app.get_by_test_id("notice-ok")).to_contain_text("Opened")
    physical_dice(app)
    show(app, "field")
    app.get_by_test_id("decl-go").click()
    type_dice(app, {12: [9, 4]})
    select(app, "mira")
    show(app, "act")
    app.locator("[data-testid=actions] button.act", has_text="Complete Sleep").first.click()
    app.get_by_test_id("few-apply").click()
    expect(app.get_by_test_id("notice-error")).to_contain_text("Tick whom the spell touches first")
    expect(app.get_by_test_id("ask")).to_be_visible()
    app.get_by_test_id("few-t-g3").check()
    app.get_by_test_id("few-apply").click()
    assert "Sleep on Goblin 3" in log_text(app)
    show(app, "order")
    expect(app.get_by_test_id("order-g3")).to_contain_text("asleep")
    expect(app.get_by_test_id("order-g1")).not_to_contain_text("asleep")
