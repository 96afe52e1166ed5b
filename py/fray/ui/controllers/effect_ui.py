"""The effect dialog's form (issue 53, stop 8): a side or zone ticked in one tap, the effect applied in one step."""
from __future__ import annotations

from ...views.effect_targets import effect_command, toggle
from ...views.quick_condition import in_words
from .actions import Actions
from ..desk.desk import Desk
from ..desk.page import Dialog, showing
from .play import act

forms = Actions("form")


@forms("effect-form")
def _effect(desk: Desk, arg: str, values: dict[str, str], op: str, form) -> None:
    """A group's tap ticks its members (what was typed kept); Apply makes one step of the ticked targets, one
    undo taking it back; a refusal (a duration not read, nobody ticked, the engine's) is said at the form."""
    if not showing(desk.page, "effect"):
        return
    state, dialog = desk.session.state, desk.page.dialog
    ticked = tuple(k[2:] for k in values if k.startswith("t:") and state.has(k[2:]))
    kept = tuple((k, v[:80]) for k, v in values.items() if not k.startswith("t:") and k != "op")
    if op.startswith(("side:", "zone:")):
        desk.set(dialog=Dialog("effect", combatant=dialog.combatant, fields=kept,
                               ticked=toggle(state, dialog.combatant, ticked, op)))
        return
    cmd, bad, problem = effect_command(desk.session.ruleset, state, values)
    illegal = desk.session.check(cmd) if cmd is not None else None
    if cmd is None or illegal is not None:
        desk.set(dialog=Dialog("effect", combatant=dialog.combatant, ticked=ticked, fields=kept, bad=bad,
                               problem=problem or in_words(illegal.detail)))
        return
    desk.set(dialog=None)
    act(desk, cmd)
