"""What the fight offers now, worked out once per state: the system's panel, who acts, the selected
combatant's options, their menu and shortcut numbers, and the field views' context.

Both the drawing (ui/page/render.py) and the handlers (a click names an option by
its index, a key by its number) read these from the same per-state caches,
so a click acts on exactly the offer that was drawn, and nothing is left
behind on the page object between a drawing and the next click.
"""
from __future__ import annotations

from typing import Any, Callable

from ...engine.commands import Option
from ...views.models import SystemPanel
from ...views.move_toward import nearest_foe, toward_option
from ...views.panels import action_menu, numbered, system_view
from .desk import Desk
from ..field.field_views import FieldContext, FieldView, views_for


def per_state(desk: Desk, name: str, key: Any, make: Callable[[], Any]) -> Any:
    """What `make()` gave for this key in this state: a selection, a dialog or a hover never recomputes
    a combatant's options or menu the state already gave (states are frozen: a new step, a new cache;
    the last few states keep theirs, so an undo finds them)."""
    cache = desk.state_caches.of(desk.session.state).setdefault(name, {})
    value = cache.get(key, cache)
    if value is cache:
        value = cache[key] = make()
    return value


def panel(desk: Desk) -> SystemPanel:
    """The system's panel for this state (kept with the last few states: an undo finds it made)."""
    s = desk.session
    return per_state(desk, "panel", s.encounter.system, lambda: system_view(s.encounter.system).panel(s.state))


def current(desk: Desk) -> tuple[str, ...]:
    """Who acts now (a tap reads it twice: selecting and drawing)."""
    return per_state(desk, "current", None, desk.session.current)


def selection(desk: Desk, sel: str | None, target: str | None = None):
    """What selecting `sel` offers in this state: its options, their menu (the options on `target`
    first), the menu's shortcut numbers (per state: computed once, by the tap that selects it or by
    ui/page/warm.py before it)."""
    s = desk.session
    state = s.state
    # The long move heads for the foe the referee targeted, while that combatant is selected (issue #53, stop 7).
    toward = desk.page.target if sel is not None and sel == desk.page.selected else None
    rules = per_state(desk, "options", sel, lambda: s.ruleset.options(state, sel) if sel else [])
    options = per_state(desk, "offered", (sel, toward), lambda: with_toward(s.ruleset, state, sel, rules, toward))
    key = (sel, target, toward)  # the menu holds the long move toward the targeted foe
    menu = per_state(desk, "menu", key, lambda: action_menu(s.ruleset, state, sel, panel(desk), options, target))
    return options, menu, per_state(desk, "numbers", key, lambda: numbered(menu))


def with_toward(ruleset, state, sel: str | None, options: list[Option], target: str | None) -> list[Option]:
    """The combatant's options, then "Move toward <foe> (as far as allowed)" where the grid offers it."""
    extra = toward_option(state, ruleset, sel, options, target) if sel else None
    return list(options) + [extra] if extra is not None else options


def options(desk: Desk) -> list[Option]:
    """The selected combatant's options, as the action panel draws them (clicks name them by index)."""
    return selection(desk, desk.page.selected)[0]


def numbers(desk: Desk) -> dict[int, int]:
    """Shortcut number -> option index, as the action panel draws them."""
    return selection(desk, desk.page.selected, desk.page.target)[2]


def views(desk: Desk) -> tuple[FieldView, ...]:
    """The field view of the encounter's profile, then its extra views."""
    s = desk.session
    return views_for(s.ruleset, s.encounter.profile)


def field_context(desk: Desk) -> FieldContext:
    s, page = desk.session, desk.page
    return FieldContext(state=s.state, ruleset=s.ruleset, panel=panel(desk), selected=page.selected,
                        current=current(desk), pending=page.pending[1] if page.pending else None,
                        options=options(desk), cursor=page.cursor, ui=page.field_ui)


def follow(desk: Desk) -> None:
    """Keep the current actor selected while the referee follows the turn, with its target: the foe it
    last acted on while it can still act on them, else its only foe within its options (see `aim`)."""
    page = desk.page
    selected = page.selected
    now = current(desk)
    if now and (page.follow_turn or selected is None or selected not in now):
        if page.follow_turn or selected is None:
            selected = now[0]
    if selected is not None and not desk.session.state.has(selected):
        selected = now[0] if now else None
    if selected != page.selected:
        desk.set(selected=selected, target=aim(desk, selected, now))
    elif page.target is None or not desk.session.state.has(page.target) \
            or page.target not in dict(_targets(desk, selected)):
        # A step with the same actor (its attack resolved, its second action): aimed again, or at the next
        # foe if clear, when the target fell or is out of reach. (A target cleared by hand stays cleared
        # until the next step: follow runs after steps, undo and redo, not after a tap on the target.)
        desk.set(target=aim(desk, selected, now))


def _targets(desk: Desk, actor: str | None) -> tuple[tuple[str, str], ...]:
    return selection(desk, actor)[1].targets if actor else ()


def aim(desk: Desk, actor: str | None, now: tuple[str, ...]) -> str | None:
    """The target a turn starts with (issue 38: one tap an attack): the foe the actor last acted on (or walked
    toward, "Move toward"), while it can still act on them, else its one foe when it has one, else the foe its
    side acted on last (the goblins gang up on whoever the first goblin hit; a tap on another foe's chip costs
    what it did), else on a grid the nearest of them (issue 53: a first charge is one tap, not a chip and an
    option). None otherwise, and for anyone who does not act now (looking at a card aims at nothing)."""
    if actor is None or actor not in now:
        return None
    state = desk.session.state
    me = state.get(actor)
    foes = [cid for cid, _ in _targets(desk, actor) if state.hostile(me, state.get(cid))]
    last = desk.aimed.get(actor)
    if last in foes:
        return last
    if len(foes) == 1:
        return foes[0]
    for ally, foe in reversed(desk.aimed.items()):  # newest first (ui/controllers/play.py keeps them in that order)
        if foe in foes and state.has(ally) and not state.hostile(me, state.get(ally)):
            return foe
    if len(foes) > 1 and me.square is not None:  # a grid: the nearest standing foe it can act on
        return nearest_foe(state, actor, among=foes)
    return None
