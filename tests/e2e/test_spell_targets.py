"""A spell on several targets picks a few, not only one or all (issue 53, stop 9): the question that asks on whom
offers every foe, each foe, and a few ticked (a side in one tap, a name unticked), then one tap casts it on those;
each takes its own roll in the one step that completes it, and one undo takes the whole cast back. The OSE
example's Mira casts the spells it carries in the bracket form ("Magic Missile (1d6+1 each)"); in Ogre a
caster declares such a spell on a few ticked, and it lands on all of them when the cast resolves."""
from __future__ import annotations

import os
import re
from dataclasses import replace

from helpers import declare, log_text, open_example, physical_dice, select, show, type_dice, undo
from playwright.sync_api import expect

SHOTS = os.environ.get("FRAY_SHOTS")


def shots(page, name: str, testid: str) -> None:
    """`testid` in view at this width and the next (768 by touch, 1920 by mouse), into $FRAY_SHOTS."""
    size = page.viewport_size
    for w, hgt in ((size["width"], size["height"]), (768, 1024) if size["width"] < 500 else (1920, 1080)):
        page.set_viewport_size({"width": w, "height": hgt})
        page.get_by_test_id(testid).scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/{name}-{w}.png")
    page.set_viewport_size(size)


def hp(page, cid: str) -> str:
    show(page, "order")
    return page.get_by_test_id(f"order-{cid}").locator(".hp-num").inner_text()


def tick_side_but_one(page, side: str, members: tuple[str, ...], left: str, shot: str) -> None:
    """In the question on whom: one tap ticks the whole `side`, one name is unticked, then "On those ticked"."""
    page.get_by_test_id("ask").get_by_test_id("few").get_by_test_id(f"few-side-{side}").click()
    for m in members:
        expect(page.get_by_test_id(f"few-t-{m}")).to_be_checked()
    page.get_by_test_id(f"few-t-{left}").uncheck()
    if SHOTS:
        shots(page, shot, "ask")
    page.get_by_test_id("few-apply").click()


def complete(page, spell: int, name: str) -> None:
    """The loose example: Mira declares her `spell`-th, the Party acts first, then "Complete <name>"."""
    open_example(page, "ose", "loose")
    physical_dice(page)
    declare(page, "mira", f"spell-{spell}")
    show(page, "field")
    page.get_by_test_id("decl-go").click()
    type_dice(page, {12: [9, 4]})  # the Party acts first
    select(page, "mira")
    show(page, "act")
    page.locator("[data-testid=actions] button.act", has_text=f"Complete {name}").first.click()


def test_ose_magic_missile_on_two_goblins_of_three_ticked_one_step_one_undo__OSE_SPELL_2__CORE_REF_1(app):
    complete(app, 1, "Magic Missile")
    ask = app.get_by_test_id("ask")
    expect(ask.locator("button.choice", has_text="On every foe (3)")).to_be_visible()
    tick_side_but_one(app, "goblins", ("g1", "g2", "g3"), "g2", "spell-few")
    type_dice(app, {6: [1, 2]})  # one d6 a goblin ticked: 2 and 3 damage
    assert [hp(app, g) for g in ("g1", "g2", "g3")] == ["2/4", "3/3", "0/3"]
    assert "Magic Missile on Goblin 1, Goblin 3" in log_text(app)
    expect(app.get_by_test_id("ask")).to_have_count(0)
    undo(app)  # the spell and its damage are one step
    expect(app.get_by_test_id("order-g1").locator(".hp-num")).to_have_text("4/4")
    expect(app.get_by_test_id("order-g3").locator(".hp-num")).to_have_text("3/3")


def test_a_spell_cast_on_nobody_ticked_is_said_and_changes_nothing__OSE_SPELL_2(app):
    complete(app, 0, "Sleep")
    app.get_by_test_id("few-apply").click()
    expect(app.get_by_test_id("notice-error")).to_contain_text("Tick whom the spell touches first")
    expect(app.get_by_test_id("ask")).to_be_visible()
    app.get_by_test_id("few-t-g3").check()
    app.get_by_test_id("few-apply").click()
    assert "Sleep on Goblin 3" in log_text(app)
    show(app, "order")
    expect(app.get_by_test_id("order-g3")).to_contain_text("asleep")
    expect(app.get_by_test_id("order-g1")).not_to_contain_text("asleep")


def ogre_sable_declares(tmp_path) -> str:
    """Three against three without Brak and Mira: Sable knows the bestiary's Magic Missile; the orcs wait
    until segment 60 (OGRE-DELAY-1), and the count stands at 19, where Sable declares. Saved to a file."""
    from fray.engine import storage
    from fray.engine.dice import ScriptedDice
    from fray.engine.session import Session
    from fray.rules.ogre import RULESET, commands as oc
    from fray.rules.ogre.examples import three_vs_three

    enc = three_vs_three()
    cs = tuple(replace(c, stats={**c.stats, "spells": ("Magic Missile (1d4+1 each)",)}) if c.id == "sable" else c
               for c in enc.combatants if c.id not in ("brak", "mira"))
    s = Session(replace(enc, combatants=cs), RULESET)
    s.act(oc.RollInitiative(), ScriptedDice([10, 1, 1, 1]))  # Sable at 19, the orcs at 10 and 11
    while s.check(oc.Delay("sable", 60)) is not None:
        waits = [oc.Delay(o, 60) for o in ("orc1", "orc2", "shaman") if s.check(oc.Delay(o, 60)) is None]
        s.act(waits[0] if waits else oc.Advance(), ScriptedDice([]))
    path = tmp_path / "sable.fray.json"
    path.write_text(storage.dumps(s))
    return str(path)


def test_ogre_magic_missile_declared_on_two_orcs_of_three_lands_on_both_one_undo__OGRE_READY_1(app, tmp_path):
    app.locator("#file-input").set_input_files(ogre_sable_declares(tmp_path))
    expect(app.get_by_test_id("notice-ok")).to_be_visible()
    physical_dice(app)
    select(app, "sable")
    show(app, "act")
    app.locator("[data-testid=actions] button.act", has_text="Cast Magic Missile on a few foes…").click()
    ask = app.get_by_test_id("ask")  # one tap: a Standard spell; then whom, under what is cast
    expect(ask).to_contain_text("Cast Magic Missile on a few foes…")
    expect(ask).not_to_contain_text("How long")
    tick_side_but_one(app, "orcs", ("orc1", "orc2", "shaman"), "orc2", "ogre-spell-few")
    type_dice(app, {4: [2, 3]})  # the count goes on to segment 29: the cast resolves, a d4 an orc ticked
    log = log_text(app)
    assert "Sable declares Cast Magic Missile (1d4+1 each) on Orc 1, Orc shaman (Standard): resolves at " \
           "segment 29" in log
    assert "Sable completes Magic Missile on Orc 1, Orc shaman" in log
    assert [hp(app, o) for o in ("orc1", "orc2", "shaman")] == ["12/15", "15/15", "7/11"]
    show(app, "field")
    expect(app.get_by_test_id("bar-sable-0")).to_have_attribute("title", re.compile("on Orc 1, Orc shaman"))
    if SHOTS:
        shots(app, "ogre-spell-few-ruler", "ruler")
    undo(app)  # the resolution and its damage are one step
    expect(app.get_by_test_id("order-orc1").locator(".hp-num")).to_have_text("15/15")
    expect(app.get_by_test_id("order-shaman").locator(".hp-num")).to_have_text("11/11")
