"""Dice per side in the page (CORE-DICE-3; issue 38 "Dice per side"), desktop and phone: "Players roll
theirs" asks the referee for the party's faces only, the orcs' dice are the app's, and the choice is kept
with the encounter across a reload."""
from __future__ import annotations

import re

from helpers import hp_text, log_text, next_turn, open_example, option, other_answer, show, status, type_dice
from playwright.sync_api import expect


def test_the_party_types_its_own_dice_and_the_app_rolls_the_orcs__CORE_DICE_3(app):
    open_example(app, "olog", "two_orcs")
    show(app, "order")
    app.get_by_test_id("dice-players").check()
    expect(app.get_by_test_id("dice-side-party")).to_be_checked()
    expect(app.get_by_test_id("dice-side-orcs")).not_to_be_checked()
    expect(app.get_by_test_id("notice-info")).to_contain_text("Dice typed by hand for Party; the app rolls the rest")
    next_turn(app)  # roll initiative: Brak's d20 is typed, the orcs' initiative is fixed
    dialog = app.get_by_test_id("dice-entry")
    expect(dialog).to_contain_text("For: initiative for Brak")
    assert type_dice(app, {20: [18]}) == ["1d20"]
    expect(app.get_by_test_id("status")).to_contain_text("Brak's turn")
    # Brak's attack: his d20 and his d8, typed.
    option(app, "Attack Orc 1").click()
    assert type_dice(app, {20: [19], 8: [4]}) == ["1d20", "1d8"]
    assert hp_text(app, "orc1") == "2/6"
    assert "Brak hits Orc 1 with Sword: d20+2 [19] = 21 vs AC 13; damage d8 [4] = 4" in log_text(app)
    # Brak's turn ends; the orcs act with the app's dice: no dialog on their turns.
    show(app, "act")
    while "Brak" in status(app):
        next_turn(app)
        expect(dialog).to_have_count(0)
    for _ in range(4):
        if "Brak" in status(app):
            break
        option(app, "Attack Brak").click()
        expect(dialog).to_have_count(0)
        show(app, "act")
    assert re.search(r"Orc [12] (hits|attacks) Brak with Sword: d20 \[\d+\]", log_text(app))
    # Saved with the encounter: after a reload the party still types its own.
    app.reload()
    show(app, "order")
    expect(app.get_by_test_id("dice-players")).to_be_checked()
    expect(app.get_by_test_id("dice-side-party")).to_be_checked()
    # One side more: the orcs' rolls are typed too; none: the app rolls everything.
    app.get_by_test_id("dice-side-orcs").check()
    expect(app.get_by_test_id("notice-info")).to_contain_text("Dice typed by hand for Party and Orcs")
    app.get_by_test_id("dice-side-orcs").uncheck()
    app.get_by_test_id("dice-side-party").click()  # the last one: the app rolls every die again
    expect(app.get_by_test_id("dice-app")).to_be_checked()
    expect(app.get_by_test_id("dice-sides")).to_have_count(0)


def test_players_roll_theirs_under_pressure_the_question_is_closed_before_any_die__OLOG_PRES_2(app):
    """Issue 53: tapping an attack under pressure showed the "press on?" question and the dice dialog at once,
    and the dice typed resolved without pressing on while the question was still up. The tap is the answer
    (the button beside it presses on): the dice dialog alone opens, saying that answer; Press On's tap asks
    the pressure die with the attack's."""
    open_example(app, "olog", "two_orcs")
    show(app, "order")
    app.get_by_test_id("dice-players").check()
    next_turn(app)
    assert type_dice(app, {20: [18]}) == ["1d20"]
    option(app, "Attack Orc 1").click()
    dialog = app.get_by_test_id("dice-entry")
    expect(dialog).to_be_visible()
    expect(app.locator("[data-testid=ask]")).to_have_count(0)  # no question left up beside the dice
    expect(dialog.get_by_test_id("dice-answer")).to_contain_text("press on? Act, then the turn ends")
    dialog.get_by_role("button", name="Cancel").click()
    expect(app.locator("[data-testid=ask]")).to_have_count(0)
    other_answer(app, "Attack Orc 1").click()  # Press On, declared before any die
    expect(dialog.get_by_test_id("dice-answer")).to_contain_text("Press on")
    type_dice(app, {4: [1], 20: [19], 8: [4]})
    assert "Brak presses on" in log_text(app)
