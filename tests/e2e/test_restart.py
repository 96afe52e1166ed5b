"""The tests' own harness: one booted page per device, a new App opened in it for each test
(conftest.py `app`, ui/app.py `install_restart`). What one test did must not reach the next: the
encounter, its history and its autosave are gone, and the new App reads and writes storage as a
newly booted one does (CORE-HP-1)."""
from __future__ import annotations

from harness import wait_ready
from helpers import damage, hp_text, log_text
from playwright.sync_api import expect


def test_a_restarted_page_is_a_new_app_with_its_own_history_and_storage__CORE_HP_1(app, warm_contexts, device):
    damage(app, "orc-1", 4)
    assert hp_text(app, "orc-1") == "2/6"
    expect(app.get_by_test_id("undo")).to_be_enabled()

    warm_contexts.restart(app, device)
    # The served encounter again, with no history and nothing of the last one in its log.
    assert hp_text(app, "orc-1") == "6/6"
    expect(app.get_by_test_id("undo")).to_be_disabled()
    assert "takes 4 damage" not in log_text(app)

    # One click is one step of the new App.
    damage(app, "orc-1", 1)
    assert hp_text(app, "orc-1") == "5/6"
    assert log_text(app).count("Orc 1 takes 1 damage") == 1

    # The new App's storage works: a reload brings its autosave back, not the earlier App's.
    app.reload()
    wait_ready(app)
    assert hp_text(app, "orc-1") == "5/6"
