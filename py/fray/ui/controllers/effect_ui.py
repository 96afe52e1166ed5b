"""The effect dialog's form (issue 53, stop 8) and a spell's few targets (stop 9): ticked, then one step."""
from __future__ import annotations

from dataclasses import replace

from ...views.effect_targets import effect_command, few_ticked, toggle
from ...views.quick_condition import in_words
from .actions import Actions
from ..desk.desk import Desk
from ..desk.page import Dialog, showing
from .play import act, fill_pending

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


@forms("few-form")
def _few(desk: Desk, arg: str, values: dict[str, str], op: str, form) -> None:
    """A spell's few targets in the question asked on whom (issue 53, stop 9): a side's or zone's tap ticks
    its members among them (the question stays); "On those ticked" casts it on them, one step that one undo
    takes back; nobody ticked is said and nothing changes."""
    if desk.page.pending is None or not desk.page.pending[1].few:
        return
    index, o = desk.page.pending
    state, actor = desk.session.state, getattr(o.command, "actor", "")
    ticked = few_ticked(o.few, values)
    if op.startswith(("side:", "zone:")):
        ticked = toggle(state, actor, ticked, op, o.few)
        desk.set(pending=(index, replace(o, command=replace(o.command, targets=ticked))))
        return
    if not ticked:
        desk.notify("Tick whom the spell touches first: a name, a side or a zone.", "error")
        return
    fill_pending(desk, {"targets": ticked})
