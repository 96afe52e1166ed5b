"""OLOG in the page: the text's three pressure examples, Press On declared before
any roll (one tap beside the option; not pressing on is the default), a two-round fight with undo of a pressure roll, reload mid-fight."""
from __future__ import annotations

import re

from harness import wait_ready
from helpers import (hp_text, log_text, next_turn, open_example, option, other_answer, physical_dice, redo, select,
                     show, status, type_dice, undo)
from playwright.sync_api import expect


def start(page, example: str, brak_d20: int = 15) -> None:
    """Open an OLOG example with physical dice and roll Brak's initiative."""
    open_example(page, "olog", example)
    physical_dice(page)
    next_turn(page)  # Roll initiative
    type_dice(page, {20: [brak_d20]})
    expect(page.get_by_test_id("status")).to_contain_text("Brak's turn")


def hint(page) -> str:
    show(page, "act")
    return page.get_by_test_id("hint").first.inner_text()


def test_two_orcs_press_for_d4_min_2_in_the_page__OLOG_PRES_9_OLOG_PRES_4_OLOG_PRES_5(app):
    start(app, "two_orcs")
    assert "Under pressure from 2: pressing on costs d4 (min 2)" in hint(app)
    show(app, "field")
    expect(app.get_by_test_id("pressure-brak")).to_contain_text("2")
    # Under pressure, Press On is declared before any roll (OLOG-PRES-2): the option says its default
    # (the turn ends after it), the button beside it presses on, with its price.
    expect(app.get_by_test_id("actions")).to_contain_text("An action taken without Press On ends the turn")
    press = other_answer(app, "Attack Orc 1")
    expect(press).to_contain_text("Press on")
    expect(press).to_contain_text("d4 (min 2)")
    assert "take d4 (min 2)" in press.get_attribute("aria-label")
    assert app.get_by_test_id("dice-entry").count() == 0
    press.click()
    prompts = type_dice(app, {4: [1], 20: [15], 8: [5]})
    assert prompts == ["1d4", "1d20", "1d8"]
    log = log_text(app)
    assert "d4 [1] raised to minimum 2 = 2" in log
    assert hp_text(app, "brak") == "10/12"
    assert hp_text(app, "orc1") == "1/6"


def test_superpredator_presses_for_d5__OLOG_PRES_9(app):
    start(app, "superpredator")
    assert "Under pressure from 1: pressing on costs d5" in hint(app)


def test_eight_humans_cost_eight_every_time_and_no_d3_is_asked__OLOG_PRES_9__OLOG_PRES_5(app):
    start(app, "eight_humans")
    text = hint(app)
    assert "Under pressure from 8: pressing on costs 8, the minimum" in text
    assert "a d3 rolls at most 3; the minimum is 8, one per foe" in text
    other_answer(app, "Defend").click()  # Press on; physical dice: nothing to type
    assert "takes the minimum 8 without a roll" in log_text(app)
    assert hp_text(app, "brak") == "12/20"


def test_two_round_fight_undo_of_a_pressure_roll_and_reload__OLOG_PRES_2_OLOG_ACT_1_OLOG_ACT_2(app):
    start(app, "two_orcs")
    # Brak presses on and attacks: the pressure roll is undone, then redone with the same faces.
    other_answer(app, "Attack Orc 1").click()
    type_dice(app, {4: [3], 20: [4], 8: []})
    assert hp_text(app, "brak") == "9/12"
    undo(app)
    assert hp_text(app, "brak") == "12/12"
    assert "Brak presses on" not in log_text(app)
    redo(app)
    assert hp_text(app, "brak") == "9/12"
    assert "d4 [3] = 3" in log_text(app)
    # Not the same action twice (OLOG-ACT-2): a second attack is greyed with its reason.
    show(app, "act")
    expect(app.locator("button.act.refused", has_text="Attack Orc 2")).to_be_visible()
    # Second action without Press On: it resolves, then the turn ends (OLOG-PRES-2).
    option(app, "Defend").click()  # one tap: the text's default, no Press On
    expect(app.get_by_test_id("status")).to_contain_text("Orc 1's turn")
    # Reload mid-fight: the autosave brings back the same moment.
    app.reload()
    wait_ready(app)
    expect(app.get_by_test_id("status")).to_contain_text("Orc 1's turn")
    assert hp_text(app, "brak") == "9/12"
    # The orcs end their turns; round 2 starts with Brak again (counts persist, OLOG-INIT-3).
    next_turn(app)
    expect(app.get_by_test_id("status")).to_contain_text("Orc 2's turn")
    next_turn(app)
    expect(app.get_by_test_id("status")).to_contain_text(re.compile(r"Round 2 · Brak's turn"))
    assert "Round 2 begins" in log_text(app)


def test_moving_a_zone_under_pressure_asks_first_and_moves_the_token__OLOG_MOVE_1_OLOG_BAND_1(app):
    start(app, "two_orcs")
    show(app, "field")
    app.get_by_test_id("move-to-1").click()  # under pressure: one tap, no Press On, then the turn ends
    expect(app.get_by_test_id("ask")).to_have_count(0)
    show(app, "field")
    expect(app.get_by_test_id("zone-1").get_by_test_id("token-brak")).to_be_visible()
    # The turn passed to Orc 1: labels are now distances from it, and Brak is out of its reach.
    expect(app.get_by_test_id("zone-1")).to_contain_text("Near")
    expect(app.get_by_test_id("zone-2")).to_contain_text("Close")
    expect(app.get_by_test_id("pressure-brak")).to_have_count(0)


def test_referee_sets_a_count_by_hand__OLOG_INIT_3_CORE_REF_1(app):
    start(app, "two_orcs")
    option(app, "Set count").click()
    ask = app.get_by_test_id("ask")
    ask.get_by_test_id("need-value").fill("5")
    ask.get_by_role("button", name="OK").click()
    assert "Referee sets Brak's count 17 → 5" in log_text(app)
    show(app, "order")
    expect(app.get_by_test_id("order-brak")).to_contain_text("5")


def test_in_a_fight_of_forty_an_off_turn_goblin_says_why_once_and_folds_its_attacks__OLOG_INIT_4_CORE_REF_1(app):
    """Issue 20: a goblin whose turn it is not has fifty-odd attacks, all refused for one reason. The panel
    says the reason once and folds the attacks behind a button that counts them; shown, each still has
    its own "Allow anyway", and the referee's allowed attack is logged."""
    open_example(app, "olog", "large")
    next_turn(app)  # Roll initiative
    expect(app.get_by_test_id("status")).to_contain_text("'s turn")
    actor = status(app).split("·")[1].strip().split("'s turn")[0]
    goblin = next(f"gob{n}" for n in range(12, 0, -1) if f"Goblin {n}" != actor)
    select(app, goblin)
    show(app, "act")
    actions = app.get_by_test_id("actions")
    expect(app.get_by_test_id("why-all")).to_contain_text(f"Not allowed now: It is {actor}'s turn, not Goblin")
    assert actions.inner_text().count("'s turn, not") == 1
    fold = actions.get_by_test_id("fold-attack")
    expect(fold).to_have_attribute("aria-expanded", "false")
    count = int(re.search(r"Show (\d+) not allowed now", fold.inner_text()).group(1))
    assert count > 40
    expect(actions.locator("button.act", has_text="Attack")).to_have_count(0)
    fold.click()
    expect(fold).to_have_attribute("aria-expanded", "true")
    expect(fold).to_be_focused()  # the keyboard stays on the button it pressed
    attacks = actions.locator("button.act.refused", has_text="Attack")
    expect(attacks).to_have_count(count)
    assert attacks.first.get_attribute("aria-describedby") == "why-all"
    assert actions.inner_text().count("'s turn, not") == 1
    target = re.search(r"Attack (.+?) with", attacks.first.inner_text()).group(1)
    before = log_text(app)
    show(app, "act")
    attacks.first.locator("xpath=following-sibling::p[1]").get_by_role("button", name="Allow anyway").click()
    expect(app.locator("#log-slot")).to_contain_text("Referee allows:")
    log = log_text(app)
    assert f"Goblin {goblin[3:]} hits {target}" in log or f"Goblin {goblin[3:]} misses {target}" in log, log
    undo(app)
    assert log_text(app) == before
