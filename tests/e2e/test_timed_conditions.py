"""A timed condition in the page (issue 34, first part; CORE-REF-1), desktop and phone: set from the
referee's tools with a duration in the system's clock, its badge says the time left, it ends by itself
when the round comes (logged), and one undo brings it back with the step that ended it."""
from __future__ import annotations

import re

from helpers import log_text, next_turn, open_example, select, show, status, undo
from playwright.sync_api import expect


def badge(page, cid: str):
    show(page, "order")
    return page.get_by_test_id(f"order-{cid}").locator(".badge.cond")


def add_condition(page, cid: str, name: str, lasts: str) -> None:
    """The referee's tools of `cid`: open them (a tap), type the condition and its duration, Add (a tap)."""
    select(page, cid)
    show(page, "act")
    page.get_by_test_id("referee").locator("> summary").click()
    page.get_by_test_id("cond-name").fill(name)
    page.get_by_test_id("cond-lasts").fill(lasts)
    page.get_by_test_id("cond-add").click()


def test_a_condition_for_one_round_ends_when_round_two_begins_and_undo_brings_it_back__CORE_REF_1(app):
    open_example(app, "olog", "two_orcs")
    next_turn(app)  # roll initiative (the app's dice)
    expect(app.get_by_test_id("status")).to_contain_text("Round 1")
    add_condition(app, "orc1", "Stunned", "1")
    expect(badge(app, "orc1")).to_have_text("Stunned · 1 round left")
    for _ in range(6):  # end every turn of round 1, each from the actor's own actions
        if "Round 2" in status(app):
            break
        show(app, "order")
        app.locator("#order-slot .order-row.current button.look").first.click()
        next_turn(app)
    expect(app.get_by_test_id("status")).to_contain_text("Round 2")
    expect(badge(app, "orc1")).to_have_count(0)
    assert "Orc 1 is no longer Stunned: its time is up (round 2)" in log_text(app)
    undo(app)  # the turn that began round 2 and the expiry it brought go back together
    expect(app.get_by_test_id("status")).to_contain_text("Round 1")
    expect(badge(app, "orc1")).to_have_text("Stunned · 1 round left")


def test_a_negative_duration_is_refused_at_the_field__CORE_REF_1(app):
    open_example(app, "olog", "two_orcs")
    add_condition(app, "brak", "Blessed", "-3")
    expect(app.get_by_test_id("cond-why")).to_contain_text('"-3" is not a duration')  # at the field (#53)
    expect(app.get_by_test_id("cond-lasts")).to_have_attribute("aria-invalid", "true")
    expect(app.get_by_test_id("notice-error")).to_have_count(0)
    expect(badge(app, "brak")).to_have_count(0)
    assert "Blessed" not in log_text(app)


def test_an_asleep_actor_passes_by_itself_with_the_reason_and_one_undo_wakes_it__CORE_REF_1_OLOG_ACT_1(app):
    open_example(app, "olog", "two_orcs")
    next_turn(app)  # roll initiative (the app's dice)
    show(app, "order")
    actor = app.locator("#order-slot .order-row.current").first.get_attribute("data-testid").removeprefix("order-")
    before = status(app)
    add_condition(app, actor, "Asleep", "")
    # nothing but passing is allowed, so the turn ends by itself (#53 stop 3), saying why
    expect(app.get_by_test_id("status")).not_to_have_text(before)
    assert "is Asleep: no action but to pass; the turn ends by itself" in log_text(app)
    undo(app)  # the condition and the pass it caused go back together
    expect(app.get_by_test_id("status")).to_have_text(before)
    expect(badge(app, actor)).to_have_count(0)


def test_one_effect_burns_two_orcs_in_one_step_and_one_undo_takes_it_back__CORE_REF_1(app):
    open_example(app, "olog", "two_orcs")
    next_turn(app)  # roll initiative (the app's dice)
    select(app, "brak")
    show(app, "act")
    app.get_by_test_id("effect-open").click()  # beside "± HP / cond." (issue 53, stop 8)
    expect(app.get_by_test_id("eff-t-brak")).not_to_be_checked()  # the actor is left out by default
    app.get_by_test_id("eff-note").fill("Fireball <b>")
    app.get_by_test_id("eff-side-orcs").click()  # the foes ticked by side in one tap, what was typed kept
    expect(app.get_by_test_id("eff-t-orc1")).to_be_checked()
    expect(app.get_by_test_id("eff-t-orc2")).to_be_checked()
    expect(app.get_by_test_id("eff-note")).to_have_value("Fireball <b>")
    app.get_by_test_id("eff-dice").fill("2d6")
    app.get_by_test_id("eff-cond").fill("Burning")
    app.get_by_test_id("eff-lasts").fill("2")
    app.get_by_test_id("eff-apply").click()
    result = app.locator("[data-testid=result], [data-testid=result-strip]").locator("visible=true").first
    expect(result).to_contain_text("Fireball <b> on Orc 1, Orc 2")  # typed text shown as text
    expect(badge(app, "orc1")).to_have_text("Burning · 2 rounds left")
    expect(badge(app, "orc2")).to_have_text("Burning · 2 rounds left")
    assert "Orc 2 takes" in log_text(app) and "(Fireball <b>: 2d6 [" in log_text(app)
    undo(app)
    expect(badge(app, "orc1")).to_have_count(0)
    expect(badge(app, "orc2")).to_have_count(0)


def test_a_bad_duration_in_the_effect_form_is_said_at_the_field__CORE_TIME_1(app):
    open_example(app, "olog", "two_orcs")
    select(app, "brak")
    show(app, "act")
    app.get_by_test_id("effect-open").click()
    app.get_by_test_id("eff-t-orc1").check()
    app.get_by_test_id("eff-cond").fill("Slowed")
    app.get_by_test_id("eff-lasts").fill("-3")
    app.get_by_test_id("eff-apply").click()
    expect(app.get_by_test_id("eff-why")).to_contain_text('"-3" is not a duration')
    expect(app.get_by_test_id("eff-lasts")).to_have_attribute("aria-invalid", "true")
    expect(app.get_by_test_id("eff-lasts")).to_have_value("-3")  # what was typed is kept
    expect(app.get_by_test_id("eff-t-orc1")).to_be_checked()
    expect(app.get_by_test_id("notice-error")).to_have_count(0)
    app.get_by_test_id("effect").get_by_role("button", name="Cancel").click()
    assert "Slowed" not in log_text(app)
