"""The effect dialog (issue 53, stop 8): one effect on several targets, ticked by name, side or zone."""
from __future__ import annotations

from ...views.effect_targets import Group, Target
from .html import Markup, h


def effect_dialog(actor_name: str, targets: tuple[Target, ...], groups: tuple[Group, ...], unit: str,
                  typed: dict[str, str], bad: str = "", problem: str = "") -> Markup:
    """A spell, an item or a ruling on the ticked targets: damage or healing rolled once for all or for each,
    and/or a condition with its duration. A group's button ticks its members (or unticks them all); what was
    typed is kept across its taps and across a refusal, said at the field at fault (`bad`: "lasts" or
    "targets")."""
    def said(field: str) -> dict[str, str]:
        return {"aria-invalid": "true", "aria-describedby": "eff-why"} if bad == field else {}

    def text(name: str, label: str, testid: str, size: str, **extra: str) -> Markup:
        return h("label", None, label, " ",
                 h("input", {"type": "text", "name": name, "maxlength": size, "autocomplete": "off",
                             "value": typed.get(name) or None, "data-testid": testid, **extra, **said(name)}))

    def box(name: str, label: str, testid: str) -> Markup:
        return h("label", None, h("input", {"type": "checkbox", "name": name, "checked": name in typed,
                                             "data-testid": testid}), " ", label)

    taps = [h("button", {"type": "submit", "name": "op", "value": g.key, "class_": "eff-group",
                         "data-testid": f"eff-{g.key.replace(':', '-')}"}, g.label) for g in groups]
    boxes = [h("label", {"class_": "eff-target down" if t.down else "eff-target"},
               h("input", {"type": "checkbox", "name": f"t:{t.id}", "checked": t.ticked,
                           "data-testid": f"eff-t-{t.id}"}), " ", t.name, " (down)" if t.down else "")
             for t in targets]
    why = h("p", {"class_": "why", "id": "eff-why", "role": "alert", "data-testid": "eff-why"},
            problem) if problem else ""
    return h("div", {"class_": "modal", "role": "dialog", "aria-modal": "true", "aria-labelledby": "eff-title",
                     "data-testid": "effect"},
             h("div", {"class_": "modal-box"},
               h("form", {"class_": "effect-form", "data-action": "effect-form"},
                 # The first submit button answers Enter in a field: Apply, never a group's tap.
                 h("button", {"type": "submit", "name": "op", "value": "apply", "hidden": True, "tabindex": "-1",
                              "aria-hidden": "true"}, "Apply"),
                 h("h2", {"id": "eff-title"}, f"Effect on several ({actor_name} acting)"),
                 h("fieldset", {"class_": "eff-targets", **said("targets")}, h("legend", None, "Targets"),
                   h("div", {"class_": "eff-groups row", "role": "group", "aria-label": "Tick by side or zone"}, taps)
                   if taps else "",
                   h("div", {"class_": "eff-boxes"}, boxes)),
                 text("note", "Name", "eff-note", "80", placeholder="Fireball"),
                 text("dice", "Dice", "eff-dice", "20", placeholder="3d6", spellcheck="false"),
                 box("each", "rolled for each", "eff-each"),
                 box("heal", "heals", "eff-heal"),
                 text("condition", "Condition", "eff-cond", "40", list="condition-names"),
                 text("lasts", f"for ({unit} or minutes, empty: until removed)", "eff-lasts", "20",
                      placeholder=f"3 or 3 {unit}", class_="cond-lasts"),
                 why,
                 h("div", {"class_": "row"},
                   h("button", {"type": "submit", "name": "op", "value": "apply", "data-testid": "eff-apply"},
                     "Apply"),
                   h("button", {"type": "button", "data-action": "cancel"}, "Cancel")))))


def few_form(targets: tuple[Target, ...], groups: tuple[Group, ...], beside: bool) -> Markup:
    """A spell's few targets ticked in the question that asks on whom (issue 53, stop 9): a box each, a side
    or zone ticked in one tap (as in the effect dialog), then one tap casts it on those ticked; `beside`:
    after answers that name every one or each one."""
    taps = [h("button", {"type": "submit", "name": "op", "value": g.key, "class_": "eff-group",
                         "data-testid": f"few-{g.key.replace(':', '-')}"}, g.label) for g in groups]
    boxes = [h("label", {"class_": "eff-target"},
               h("input", {"type": "checkbox", "name": f"t:{t.id}", "checked": t.ticked,
                           "data-testid": f"few-t-{t.id}"}), " ", t.name) for t in targets]
    return h("form", {"class_": "few-form", "data-action": "few-form", "data-testid": "few"},
             h("button", {"type": "submit", "name": "op", "value": "apply", "hidden": True, "tabindex": "-1",
                          "aria-hidden": "true"}, "Apply"),
             h("fieldset", {"class_": "eff-targets"}, h("legend", None, "Or a few:" if beside else "Whom:"),
               h("div", {"class_": "eff-groups row", "role": "group", "aria-label": "Tick by side or zone"}, taps)
               if taps else "",
               h("div", {"class_": "eff-boxes"}, boxes)),
             h("button", {"type": "submit", "name": "op", "value": "apply", "class_": "choice",
                          "data-testid": "few-apply"}, "On those ticked"))
