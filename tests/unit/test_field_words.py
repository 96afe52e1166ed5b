"""What the referee types is refused or trimmed at its own field, in words (issue #53): copies past the cap
say so beside the field with the cap and why; a condition's duration or an empty condition name is refused
beside the condition's field, never in the notice bar and never with an internal id. The page runs in
CPython on the fake `pyscript` of test_app_render_cache.py."""
from __future__ import annotations

from test_app_render_cache import app_module  # noqa: F401  (the fixture: fray.ui.app on a fake page)

from fray.engine import storage
from fray.engine.session import Session
from fray.rules import examples


def _open(module, system: str = "olog", name: str = "skirmish"):
    module.window.location.hash = "#" + storage.encode_link(Session(examples(system)[name](3)))
    app = module.App()
    app.boot()
    return app


class Typed:
    def __init__(self, value: str) -> None:
        self.value = value


def test_500_copies_are_40_and_the_field_says_so_with_the_cap_and_why(app_module):
    from fray.ui.controllers import roster_ui
    app = _open(app_module)
    app.dispatch("mode", "setup", None)
    app.handle(lambda d: roster_ui._count(d, "", Typed("500")), "roster-count", say_refused=False)
    form = app.desk.slots.written("editor-slot")
    why = form[form.index('data-testid="roster-count-why"'):]
    why = why[:why.index("</span>")]
    assert "500 is more than 40" in why and "at most 200" in why
    assert 'aria-describedby="roster-count-why"' in form
    assert app.desk.roster.count == 40
    app.handle(lambda d: roster_ui._count(d, "", Typed("12")), "roster-count", say_refused=False)
    assert app.desk.roster.count == 12 and 'data-testid="roster-count-why"' not in app.desk.slots.written("editor-slot")
