"""OSE in the page with physical dice, desktop and phone: the declarations panel, a detailed fight of three
against three over two rounds on the grid (a declared spell, a charge into a brace, a withdraw, undo), a loose
fight of two rounds, and the Turn Undead table edited in setup."""
from __future__ import annotations

import re

from harness import wait_ready
from helpers import (answer, declare, hp_text, log_text, next_turn, open_example, open_setup, option,
                     physical_dice, redo, select, show, status, tap_square, token_at, type_dice, undo)
from playwright.sync_api import expect


def start(page, example: str) -> None:
    open_example(page, "ose", example)
    physical_dice(page)
    show(page, "field")
    expect(page.get_by_test_id("declarations")).to_be_visible()


def roll_initiative(page, party: int, foes: int) -> None:
    """The panel's own button (it locks every declaration), then the two d12 (OSE-INIT-1)."""
    show(page, "field")
    page.get_by_test_id("decl-go").click()
    type_dice(page, {12: [party, foes]})
    expect(page.get_by_test_id("declarations")).to_have_count(0)


def end_step(page, step: str) -> None:
    option(page, f"End the {step} step").click()


def test_declaration_panel_lists_everyone_by_side_and_greys_what_cannot_be_declared__OSE_DECL_1_OSE_BRACE_1(app):
    start(app, "detailed")
    panel = app.get_by_test_id("declarations")
    expect(panel.locator("li.decl-row")).to_have_count(6)
    expect(app.get_by_test_id("decl-side-party").locator("li.decl-row")).to_have_count(3)
    expect(app.get_by_test_id("decl-side-orcs").locator("li.decl-row")).to_have_count(3)
    # Only the spearman's spear can brace; the others are greyed with the engine's reason.
    expect(app.get_by_test_id("decl-o1-brace")).to_be_enabled()
    expect(app.get_by_test_id("decl-brak-brace")).to_be_disabled()
    # Five of six share that reason: said once above the sides, with an Allow per combatant (issue 38).
    common = app.get_by_test_id("decl-common-brace")
    expect(common).to_contain_text("Brace: holds no weapon with the Brace quality")
    expect(common.get_by_role("button", name="Allow Brace for Brak anyway")).to_be_visible()
    expect(app.get_by_test_id("decl-brak")).not_to_contain_text("Brace:")
    expect(app.get_by_test_id("decl-brak-spell")).to_be_disabled()
    expect(app.get_by_test_id("decl-mira-spell-1")).to_have_text(re.compile(r"Magic Missile \(1d6\+1 each\)"))
    # One tap declares; it is a logged step that undo takes back.
    declare(app, "mira", "spell-0")
    expect(app.get_by_test_id("decl-now-mira")).to_have_text("✎ Sleep (asleep for 10 min)")
    expect(app.get_by_test_id("decl-count")).to_have_text("1 of 6 declared")
    assert "Mira declares to cast Sleep (asleep for 10 min)" in log_text(app)
    undo(app)
    show(app, "field")
    expect(app.get_by_test_id("decl-mira-none")).to_have_attribute("aria-pressed", "true")
    expect(app.get_by_test_id("decl-count")).to_have_text("0 of 6 declared")


def test_a_surprised_side_cannot_declare_a_spell__OSE_SUR_1_OSE_SUR_2(app):
    start(app, "detailed")
    declare(app, "mira", "spell-1")
    app.get_by_test_id("decl-surprise-party").click()
    expect(app.get_by_test_id("decl-surprise-party")).to_have_attribute("aria-pressed", "true")
    expect(app.get_by_test_id("decl-mira-spell-0")).to_be_disabled()
    expect(app.get_by_test_id("decl-mira")).to_contain_text("Spell: Mira's side is surprised: no spells this round")
    expect(app.get_by_test_id("decl-now-mira")).to_have_text("nothing")  # the declaration was withdrawn
    assert "Mira cannot cast Magic Missile (1d6+1 each): surprised (OSE-SUR-2)" in log_text(app)
    # The referee may still allow it (logged, CORE-REF-1).
    show(app, "field")
    app.get_by_test_id("decl-mira").get_by_role("button", name="Allow Sleep (asleep for 10 min)").click()
    show(app, "field")
    expect(app.get_by_test_id("decl-now-mira")).to_have_text("✎ Sleep (asleep for 10 min)")
    assert "Referee allows: Declare Sleep (asleep for 10 min)" in log_text(app)


def test_detailed_fight_over_two_rounds_spell_charge_into_brace_withdraw_and_undo__OSE_DECL_1_OSE_SPELL_1_OSE_BRACE_1_OSE_CHARGE_1_OSE_WD_1_OSE_ORDER_1_OSE_INIT_1(app):  # noqa: E501
    start(app, "detailed")
    # Round 1 declarations, in the panel: Mira will cast Sleep, the spearman braces.
    declare(app, "mira", "spell-0")
    declare(app, "o1", "brace")
    roll_initiative(app, 9, 4)
    expect(app.get_by_test_id("status")).to_have_text("Round 1 · Party acts · MOVE step")
    show(app, "field")
    expect(app.get_by_test_id("locked-mira")).to_contain_text("Mira: casts Sleep")
    expect(app.get_by_test_id("locked-o1")).to_contain_text("Orc spearman: Brace")
    log = log_text(app)
    assert "Initiative: Party 9, Orcs 4 (OSE-INIT-1)" in log
    assert ("Mira begins casting Sleep (asleep for 10 min); the slot is spent and Sleep (asleep for 10 min) leaves "
            "memory (left: Magic Missile (1d6+1 each))") in log  # OSE-SPELL-1, OSE-SPELL-5
    show(app, "order")
    expect(app.get_by_test_id("order-mira")).to_contain_text("casting Sleep")
    expect(app.get_by_test_id("order-o1")).to_contain_text("braced")

    # Brak charges the spearman, who braced: the free strike hits first, Brak keeps his shield (asked before
    # any damage die), takes double damage and the charge stops short (OSE-BRACE-1, OSE-CHARGE-1).
    option(app, "Charge with Sword").click()
    # OSE-AOO-4: the bracer is asked first; striking, the default, is one tap.
    expect(app.get_by_test_id("prompt")).to_contain_text("braced Spear")
    next_turn(app)
    type_dice(app, {20: [18]})
    show(app, "act")
    expect(app.get_by_test_id("prompt")).to_contain_text("splinter the Shield")
    assert app.get_by_test_id("dice-entry").count() == 0
    option(app, "Keep the shield").click()
    type_dice(app, {6: [2]})
    log = log_text(app)
    assert "Orc spearman strikes the charging Brak with Spear: d20+1 [18] = 19 vs AC 15" in log
    assert "Spear damage: d6+1 [2] = 3 x2 (double damage (OSE-BRACE-1))" in log
    assert "Brak stops at (9, 5): the brace strike stops the charge (OSE-BRACE-1)" in log
    assert hp_text(app, "brak") == "4/10"
    token_at(app, "brak", (9, 5))

    # OSE-ORDER-1: the side's movement first, then missiles, then magic.
    end_step(app, "MOVE")
    expect(app.get_by_test_id("status")).to_have_text("Round 1 · Party acts · MISSILE step")
    select(app, "hal")
    option(app, "Shortbow → Orc crossbowman").click()
    type_dice(app, {20: [15], 6: [4]})
    assert "Orc crossbowman is down" in log_text(app)
    next_turn(app)  # Mira is done with the MISSILE step
    expect(app.get_by_test_id("status")).to_have_text("Round 1 · Party acts · MAGIC step")
    option(app, "Complete Sleep").click()
    answer(app, "On Orc spearman")
    log = log_text(app)
    assert "Mira completes Sleep (asleep for 10 min) on Orc spearman (OSE-SPELL-2)" in log
    assert "Orc spearman is now asleep for 60 rounds" in log  # the example's spell does what it says

    # The orcs: the halberdier steps in (tap a square, tap again), then strikes from the second rank and misses.
    expect(app.get_by_test_id("status")).to_have_text("Round 1 · Orcs acts · MOVE step")
    tap_square(app, (11, 6))
    expect(app.get_by_test_id("grid-path")).to_contain_text("Orc halberdier to (11, 6)")
    tap_square(app, (11, 6))
    token_at(app, "o2", (11, 6))
    next_turn(app)
    expect(app.get_by_test_id("status")).to_have_text("Round 1 · Orcs acts · MELEE step")
    option(app, "Halberd → Brak").click()
    type_dice(app, {20: [5], 6: [3, 2]})  # a miss; then the orcs' morale after their first death
    log = log_text(app)
    assert "Orcs holds (first death): 2d6 [3, 2] = 5 vs morale 8 (OSE-MORALE-1)" in log

    # Round 2: the panel is back, the fallen crossbowman greyed without choices.
    expect(app.get_by_test_id("status")).to_have_text("Round 2 · Declare pre-initiative actions")
    show(app, "field")
    expect(app.get_by_test_id("decl-o3")).to_contain_text("down")
    expect(app.get_by_test_id("decl-o3-none")).to_have_count(0)
    roll_initiative(app, 10, 2)
    expect(app.get_by_test_id("declarations-locked")).to_have_count(0)  # nothing declared this round

    # Brak withdraws out of the halberd's reach: the first square left is safe (OSE-WD-1), so no attack.
    option(app, "Withdraw").click()
    tap_square(app, (6, 5))
    expect(app.get_by_test_id("aoo-none")).to_contain_text("withdrawing: the first square left is safe")
    tap_square(app, (6, 5))
    token_at(app, "brak", (6, 5))
    assert "Brak withdraws to (6, 5)" in log_text(app)
    show(app, "order")
    expect(app.get_by_test_id("order-brak")).to_contain_text("withdrawing")
    undo(app)
    token_at(app, "brak", (9, 5))
    assert "Brak withdraws" not in log_text(app)
    show(app, "order")
    expect(app.get_by_test_id("order-brak")).not_to_contain_text("withdrawing")
    redo(app)
    token_at(app, "brak", (6, 5))

    # The rest of round 2: nobody can reach anybody; the round ends and round 3 asks for declarations.
    end_step(app, "MOVE")
    end_step(app, "MISSILE")
    expect(app.get_by_test_id("status")).to_have_text("Round 2 · Orcs acts · MOVE step")
    end_step(app, "MOVE")
    expect(app.get_by_test_id("status")).to_have_text("Round 3 · Declare pre-initiative actions")
    # Reload: the autosave brings back the same moment.
    app.reload()
    wait_ready(app)
    expect(app.get_by_test_id("status")).to_have_text("Round 3 · Declare pre-initiative actions")
    token_at(app, "brak", (6, 5))
    assert hp_text(app, "brak") == "4/10"


def test_loose_fight_of_two_rounds_on_one_screen__OSE_LOOSE_1_OSE_DECL_1_OSE_INIT_1_OSE_RANGED_4(app):
    start(app, "loose")
    # Full Defense and Brace need the grid: said once, no dead buttons on every row.
    show(app, "field")
    expect(app.get_by_test_id("decl-shared-fd")).to_contain_text("only meaningful in the detailed rules")
    expect(app.get_by_test_id("decl-brak-fd")).to_have_count(0)
    declare(app, "mira", "spell-1")
    roll_initiative(app, 9, 4)
    expect(app.get_by_test_id("status")).to_have_text("Round 1 · Party acts")
    show(app, "field")
    expect(app.get_by_test_id("field-list")).to_be_visible()
    expect(app.get_by_test_id("grid-svg")).to_have_count(0)
    option(app, "Sword → Goblin 1").click()
    type_dice(app, {20: [14], 8: [5]})
    assert hp_text(app, "g1") == "-2/4"
    option(app, "Complete Magic Missile").click()
    answer(app, "On Goblin 2")
    type_dice(app, {6: [2]})  # the example's spell does what it says: 1d6+1 (OSE-SPELL-2)
    assert hp_text(app, "g2") == "0/3"
    assert "Goblin 2 takes 3 damage (Magic Missile: d6+1 [2] = 3; 0/3 HP)" in log_text(app)
    select(app, "hal")
    option(app, "Shortbow → Goblin 3").click()
    type_dice(app, {20: [8]})
    expect(app.get_by_test_id("status")).to_have_text("Round 1 · Goblins acts")
    option(app, "Sling → Hal").click()
    type_dice(app, {20: [17], 4: [3], 6: [2, 3, 3, 3]})
    log = log_text(app)
    assert "Sling damage: d4 [3] = 3 (sling: -1, at least 1 (OSE-RANGED-4))" in log
    # OSE-MORALE-1: a check at each trigger, here two at once; two passes and it fights to the end.
    assert "Goblins holds (first death): 2d6 [2, 3] = 5 vs morale 7 (OSE-MORALE-1)" in log
    assert ("Goblins holds (half down): 2d6 [3, 3] = 6 vs morale 7; two checks passed: it fights to the end "
            "(OSE-MORALE-1)") in log
    assert hp_text(app, "hal") == "3/6"
    # Round 2: declare nothing, roll, and Brak ends it.
    expect(app.get_by_test_id("status")).to_have_text("Round 2 · Declare pre-initiative actions")
    roll_initiative(app, 7, 3)
    option(app, "Sword → Goblin 3").click()
    type_dice(app, {20: [16], 8: [4]})
    expect(app.get_by_test_id("outcome")).to_have_text("Victory: Party")
    assert status(app) == "Round 2 · Victory: Party"
    show(app, "field")
    expect(app.get_by_test_id("declarations")).to_have_count(0)
    # Undo takes back the last blow.
    undo(app)
    assert hp_text(app, "g3") == "3/3"
    expect(app.get_by_test_id("status")).to_have_text("Round 2 · Party acts")


def test_turn_undead_table_is_edited_in_a_grid_of_cells__OSE_TURN_1(app):
    open_example(app, "ose", "undead")
    open_setup(app)
    app.locator("details.ed-settings > summary").click()
    app.get_by_role("button", name="Edit table…").click()
    dialog = app.get_by_test_id("table-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("input.cell")).to_have_count(8 * 11)
    expect(dialog.get_by_test_id("cell-1-0")).to_be_focused()  # it opens in the first cell
    cell = dialog.get_by_test_id("cell-2*-1")  # a ghoul against a level-2 Warpriest
    expect(cell).to_have_value("9")
    cell.fill("T")
    cell.press("Tab")
    # The change is applied (an undoable step) and the focus went on to the next cell, its text selected.
    expect(app.get_by_test_id("undo")).to_be_enabled()
    expect(dialog.get_by_test_id("cell-2*-2")).to_be_focused()
    app.keyboard.type("9")
    app.keyboard.press("Enter")
    expect(dialog.get_by_test_id("cell-2*-2")).to_have_value("9")
    expect(dialog.get_by_test_id("cell-2*-2")).to_be_focused()
    expect(dialog.get_by_test_id("cell-2*-1")).to_have_value("T")
    dialog.get_by_test_id("cell-1-0").fill("x")
    dialog.get_by_test_id("cell-1-0").press("Enter")
    expect(dialog.get_by_test_id("table-problems")).to_contain_text("x")
    dialog.get_by_test_id("cell-1-0").fill("7")
    dialog.get_by_test_id("cell-1-0").press("Enter")
    expect(dialog.get_by_test_id("table-problems")).to_have_count(0)
    dialog.get_by_role("button", name="Done").click()
    expect(dialog).to_have_count(0)
    # Saved with the encounter: the setup now says T, and undo brings the 9 back.
    app.get_by_role("button", name="Edit table…").click()
    expect(app.get_by_test_id("cell-2*-1")).to_have_value("T")
    app.keyboard.press("Escape")
    for _ in range(4):  # T, 9, x, 7
        undo(app)
    app.get_by_role("button", name="Edit table…").click()
    expect(app.get_by_test_id("cell-2*-1")).to_have_value("9")
