"""Small page helpers shared by the e2e journeys (desktop and phone)."""
from __future__ import annotations

from playwright.sync_api import Page, expect


def is_phone(page: Page) -> bool:
    return page.viewport_size["width"] < 760


def show(page: Page, tab: str) -> None:
    """On a phone, switch the bottom bar to a view (field, order, act, log)."""
    if is_phone(page):
        page.get_by_test_id(f"tab-{tab}").click()


def select(page: Page, cid: str) -> None:
    show(page, "order")
    page.get_by_test_id(f"order-{cid}").locator("button.pick").click()


def hp_text(page: Page, cid: str) -> str:
    show(page, "order")
    return page.get_by_test_id(f"order-{cid}").locator(".hp-num").inner_text()


def damage(page: Page, cid: str, amount: int) -> None:
    select(page, cid)
    show(page, "act")
    ref = page.get_by_test_id("referee")
    if ref.get_attribute("open") is None:
        ref.locator("summary").click()
    page.get_by_test_id("damage-input").fill(str(amount))
    page.get_by_test_id("apply-damage").click()


def roll(page: Page, expr: str) -> str:
    show(page, "order")
    page.get_by_test_id("dice-expr").fill(expr)
    page.get_by_test_id("roll").click()
    last = page.get_by_test_id("last-roll")
    expect(last).not_to_be_empty()
    return last.inner_text()


def undo(page: Page) -> None:
    page.get_by_test_id("undo").click()


def redo(page: Page) -> None:
    page.get_by_test_id("redo").click()


def log_text(page: Page) -> str:
    show(page, "log")
    return page.get_by_test_id("log").inner_text()


def open_setup(page: Page) -> None:
    page.get_by_test_id("toggle-setup").click()
    expect(page.get_by_test_id("editor")).to_be_visible()


def close_setup(page: Page) -> None:
    page.get_by_test_id("toggle-setup").click()
    expect(page.get_by_test_id("editor")).to_be_hidden()
