"""The encounter editor: a draft of the encounter JSON, its form, and edits.

The draft is the save-file form of the setup; every edit is a (path, value)
pair applied to a copy and validated by `storage.encounter_from_json` before
the app adopts it, so the editor can never build an encounter a file could
not hold. Pure (no browser imports).
"""
from __future__ import annotations

import copy
import re
from contextvars import ContextVar
from typing import Any

from ... import placement, presets
from ...engine import limits as L
from ...engine.model import WEAPON_KINDS, QUALITIES
from ...engine.ruleset import Ruleset
from ...engine.specs import Setting, StatSpec
from ...engine import storage
from ...engine.storage import SHAPES
from ...rules import SYSTEMS
from .guide import SPELL_EXAMPLE, SPELL_HELP
from .html import Markup, h, with_rules


def system_choices() -> tuple[tuple[str, str, str], ...]:
    """The System list: (system, profile, label) of every profile of every system, from their descriptors."""
    return tuple(c for info in SYSTEMS.values() for c in info.choices())


class EditError(ValueError):
    """An edit that cannot be applied (bad path or value); the message says why."""


def parse_path(path: str) -> list[str | int]:
    out: list[str | int] = []
    for part in path.split("/"):
        out.append(int(part) if part.isdigit() else part)
    return out


def set_path(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of doc with the value at path ("combatants/2/hp") replaced."""
    new = copy.deepcopy(doc)
    parts = parse_path(path)
    node: Any = new
    for p in parts[:-1]:
        try:
            node = node[_key(node, p)]
        except (KeyError, IndexError, TypeError):
            raise EditError(f"{path}: no such field") from None
    last = _key(node, parts[-1])
    try:
        if isinstance(node, list) and isinstance(last, int) and last == len(node):
            node.append(value)
        else:
            node[last] = value
    except (IndexError, TypeError):
        raise EditError(f"{path}: no such field") from None
    return new


WEAPON_NAME = re.compile(r"combatants/(\d+)/weapons/(\d+)/name")
HP_FIELD = re.compile(r"combatants/(\d+)/(hp|max_hp)")
PROBLEM = re.compile(r"^encounter\.([^:]*): (.*)$", re.S)


def set_field(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of doc with one form field changed, and what follows from it (a weapon renamed, HP lowered
    to a lower Max HP)."""
    m = WEAPON_NAME.fullmatch(path)
    if m and isinstance(value, str):
        return rename_weapon(doc, int(m.group(1)), int(m.group(2)), value)
    new = set_path(doc, path, value)
    m = HP_FIELD.fullmatch(path)
    if m and m.group(2) == "max_hp" and isinstance(value, int):
        c = new["combatants"][int(m.group(1))]
        if isinstance(c.get("hp"), int) and c["hp"] > value:
            c["hp"] = value
    return new


def edited(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """doc with one form field changed, checked as a save file is (storage.encounter_from_json) and held to
    what a setup may start with (HP 0 to Max HP); EditError says why, for that field, and nothing changes."""
    m = HP_FIELD.fullmatch(path)
    if m and m.group(2) == "hp" and isinstance(value, int):
        c = doc["combatants"][int(m.group(1))]
        top = c.get("max_hp") if isinstance(c.get("max_hp"), int) else L.MAX_HP[1]
        if not 0 <= value <= top:
            raise EditError(f"HP must be 0 to {top} (its Max HP)")
    if re.fullmatch(r"combatants/\d+/name", path) and isinstance(value, str) and not value.strip():
        raise EditError("a name is needed: it labels the token, the order and the log")
    if re.fullmatch(r"combatants/\d+/band", path) and isinstance(value, int):
        bands = doc.get("bands", 6)
        if not 0 <= value < bands:
            raise EditError(f"zones here are 1 to {bands} (Zones, at the top)")
    new = set_field(doc, path, value)
    problems: list[str] = []
    storage.encounter_from_json(new, problems)
    if problems:
        raise EditError(why(problems, path, new))
    return new


def form_path(problem_path: str) -> str:
    """A loader's path as a form field's: "combatants[2].weapons[0].damage" -> "combatants/2/weapons/0/damage"."""
    return re.sub(r"\[(\d+)\]", r"/\1", problem_path).replace(".", "/")


def why(problems: list[str], path: str, doc: dict[str, Any]) -> str:
    """The loader's reason for refusing an edit of `path`, in the field's words: its own problem without the
    path, else the first problem elsewhere it caused, naming the combatant ("Orc 1 · square: ...")."""
    found = [(form_path(m.group(1)), m.group(2)) for p in problems if (m := PROBLEM.match(p))]
    for where, text in found:
        if where == path:
            return text
    if not found:
        return problems[0]
    where, text = found[0]
    m = re.match(r"combatants/(\d+)/(.*)", where)
    if m and int(m.group(1)) < len(doc.get("combatants", [])):
        where = f"{doc['combatants'][int(m.group(1))].get('name', '')} · {m.group(2).replace('/', ' ')}"
    return f"{where.replace('/', ' ')}: {text}"


def rename_weapon(doc: dict[str, Any], index: int, weapon: int, name: str) -> dict[str, Any]:
    """A copy of doc with a weapon renamed, and the item it names with it: in the combatant's hands, its
    inventory and every weapon of its that needs that item, so what is held still strikes."""
    new = set_path(doc, f"combatants/{index}/weapons/{weapon}/name", name)
    c = new["combatants"][index]
    old = doc["combatants"][index]["weapons"][weapon]
    old_name, item = old.get("name", ""), old.get("item", "")
    if not old_name or old_name == name or item not in (old_name, ""):
        return new  # the weapon needs another item ("Thrust" with a "Spear"): that item keeps its name
    c["hands"] = [name if h == old_name else h for h in c.get("hands", [])]
    c["inventory"] = [name if h == old_name else h for h in c.get("inventory", [])]
    for w in c.get("weapons", []):
        if w.get("item") == old_name:
            w["item"] = name
    return new


def _key(node: Any, part: str | int) -> str | int:
    """JSON object keys are text even when they look like numbers (the turn table's rows "1", "2"...)."""
    return str(part) if isinstance(node, dict) else part


def convert(kind: str, raw: str) -> Any:
    """Form text to the JSON value of a field kind."""
    raw = raw.strip()
    if kind == "int":
        if raw in ("", "-"):
            raise EditError("a number is needed")
        try:
            return int(raw)
        except ValueError:
            raise EditError(f'"{raw}" is not a whole number') from None
    if kind == "intornull":
        if raw == "":
            return None
        return convert("int", raw)
    if kind == "zone":  # counted from 1 in the form, as the field shows it; stored from 0 (the file format)
        if raw == "":
            return None
        n = convert("int", raw)
        if n < 1:
            raise EditError("zones count from 1 (the first zone)")
        return n - 1
    if kind == "bool":
        return raw in ("true", "on", "1", "yes")
    if kind == "list":  # a comma inside brackets is the entry's own: "Burning Hands (1d8, burning for 2 rounds)"
        return [p.strip() for p in re.split(r",(?![^()]*\))", raw) if p.strip()]
    if kind == "square":
        if raw == "":
            return None
        try:
            x, y = (int(p) for p in raw.replace(" ", "").split(","))
        except ValueError:
            raise EditError(f'"{raw}" is not a square like 3,4') from None
        return [x, y]
    return raw


def add_combatant(doc: dict[str, Any], preset_name: str, side: str) -> dict[str, Any]:
    """doc with one more combatant from a preset: a sample PC takes the next free name of the party's list (a
    party of distinct people, not "Mira, Mira 2, Mira 3"), a creature is numbered ("Goblin 2")."""
    new = copy.deepcopy(doc)
    c = presets.preset(preset_name, "", side)
    taken = {o["name"] for o in new["combatants"]}
    free = [n for n in presets.PC_NAMES if n not in taken] if c.get("stats", {}).get("pc") else []
    same = sum(1 for o in new["combatants"] if o["name"].startswith(c["name"]))
    if free:
        c["name"] = free[0]
    elif same:
        c["name"] = f"{c['name']} {same + 1}"
    c["id"] = presets.next_id({o["id"] for o in new["combatants"]}, c["name"])
    new["combatants"].append(placement.placed(new, c))
    return new


def duplicate(doc: dict[str, Any], index: int) -> dict[str, Any]:
    new = copy.deepcopy(doc)
    src = copy.deepcopy(new["combatants"][index])
    ids = {c["id"] for c in new["combatants"]}
    src["id"] = presets.next_id(ids, src["name"])
    src["name"] = src["name"] + " (copy)"
    new["combatants"].insert(index + 1, placement.placed(new, src))
    return new


def remove(doc: dict[str, Any], index: int) -> dict[str, Any]:
    new = copy.deepcopy(doc)
    del new["combatants"][index]
    return new


def add_side(doc: dict[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(doc)
    n = len(new["sides"])
    colour, shape = presets.SIDE_STYLES[n % len(presets.SIDE_STYLES)]
    ids = {s["id"] for s in new["sides"]}
    sid = presets.next_id(ids, "side")
    new["sides"].append({"id": sid, "name": f"Side {n + 1}", "colour": colour, "shape": shape, "allies": [],
                         "morale": None, "is_player": False})
    return new


def remove_side(doc: dict[str, Any], index: int) -> dict[str, Any]:
    new = copy.deepcopy(doc)
    sid = new["sides"][index]["id"]
    if len(new["sides"]) <= 1:
        raise EditError("An encounter needs at least one side")
    if any(c["side"] == sid for c in new["combatants"]):
        raise EditError("Move or remove this side's combatants first")
    del new["sides"][index]
    for s in new["sides"]:
        s["allies"] = [a for a in s["allies"] if a != sid]
    return new


def add_attack(doc: dict[str, Any], index: int) -> dict[str, Any]:
    new = copy.deepcopy(doc)
    new["combatants"][index].setdefault("weapons", []).append(
        {"name": "Attack", "damage": "1d6", "to_hit": 0, "kind": "melee", "reach": 5, "count": 1,
         "qualities": [], "item": ""})
    return new


def remove_attack(doc: dict[str, Any], index: int, attack: int) -> dict[str, Any]:
    new = copy.deepcopy(doc)
    del new["combatants"][index]["weapons"][attack]
    return new


def change_system(doc: dict[str, Any], system: str, profile: str) -> dict[str, Any]:
    new = copy.deepcopy(doc)
    if system not in SYSTEMS:
        raise EditError(f"{system!r} is not a system")
    if new["system"] != system:
        new["settings"] = {}
    new["system"] = system
    new["profile"] = profile
    return new


# --- drawing -------------------------------------------------------------------

# The fields refused while one form is drawn: path -> (what was typed, why), and each one's label as drawn
# (the summary names and links them). Set by `render` for the length of one drawing.
_REFUSED: ContextVar[dict[str, tuple[str, str]]] = ContextVar("refused", default={})
_LABELS: ContextVar[dict[str, str]] = ContextVar("labels", default={})


def field_id(path: str) -> str:
    """The element id of a form field ("combatants/2/hp" -> "f-combatants-2-hp"), the summary's link target."""
    return "f-" + re.sub(r"[^A-Za-z0-9_-]", "-", path)


def field(label: str, path: str, value: Any, kind: str = "text", *, testid: str = "", **attrs: Any) -> Markup:
    input_attrs: dict[str, Any] = {"name": path, "data-path": path, "data-kind": kind,
                                   "data-testid": testid or None, "aria-label": label, "id": field_id(path)}
    if kind == "bool":
        input_attrs.update(type="checkbox", checked=bool(value))
    elif kind in ("int", "intornull"):
        input_attrs.update(type="number", value="" if value is None else str(value), inputmode="numeric")
    elif kind == "zone":
        input_attrs.update(type="number", value="" if value is None else str(value + 1), inputmode="numeric",
                           min="1")
    elif kind == "list":
        input_attrs.update(type="text", value=", ".join(str(v) for v in (value or ())))
    elif kind == "square":
        input_attrs.update(type="text", value="" if not value else f"{value[0]},{value[1]}", size="5")
    else:
        input_attrs.update(type="text", value="" if value is None else str(value))
    input_attrs.update(attrs)
    refused = _REFUSED.get().get(path)
    if refused is None:
        return h("label", {"class_": f"f f-{kind}"}, h("span", None, label), h("input", input_attrs))
    # Refused: the field keeps what was typed, marked, with why beside it (the encounter kept its value).
    typed, why = refused
    _LABELS.get()[path] = label
    if kind != "bool":
        input_attrs["value"] = typed
    input_attrs.update({"aria-invalid": "true", "aria-describedby": field_id(path) + "-why"})
    return h("label", {"class_": f"f f-{kind} f-invalid"}, h("span", None, label), h("input", input_attrs),
             h("span", {"class_": "f-why", "id": field_id(path) + "-why", "data-testid": f"why-{path}"}, why))


def select(label: str, path: str, value: Any, choices: list[tuple[str, str]], testid: str = "") -> Markup:
    return h("label", {"class_": "f"}, h("span", None, label),
             h("select", {"data-path": path, "data-kind": "text", "data-testid": testid or None, "aria-label": label},
               [h("option", {"value": v, "selected": v == value}, text) for v, text in choices]))


def setting_field(s: Setting, value: Any) -> Markup:
    path = f"settings/{s.key}"
    label = s.label
    if s.kind == "bool":
        el = field(label, path, value, "bool")
    elif s.kind == "int":
        el = field(label, path, value, "int", min=s.minimum, max=s.maximum)
    elif s.kind == "choice":
        el = select(label, path, value, [(c, c) for c in s.choices])
    elif s.kind == "table":
        return h("div", {"class_": "setting table-setting"},
                 h("span", None, label, " ", with_rules(s.rule) if s.rule else ""),
                 h("button", {"type": "button", "data-action": f"edit-table:{s.key}", "class_": "small"},
                   "Edit table…"))
    else:
        el = field(label, path, value, "text")
    return h("div", {"class_": "setting"}, el, with_rules(s.rule) if s.rule else "",
             h("small", None, s.help) if s.help else "")


def stat_field(i: int, spec: StatSpec, value: Any) -> Markup:
    path = f"combatants/{i}/stats/{spec.key}"
    kind = {"int": "int", "bool": "bool", "list": "list"}.get(spec.kind, "text")
    if kind == "int" and spec.default is None:
        kind = "intornull"  # optional: blank means "use the rule's default"
    if spec.key == "spells":  # the bracket form that makes a spell do what it says (engine/spells.py, #53)
        return field(spec.label, path, value if value is not None else spec.default, kind,
                     placeholder=SPELL_EXAMPLE, title=SPELL_HELP)
    return field(spec.label, path, value if value is not None else spec.default, kind)


def example_picker() -> Markup:
    """Start from one of the systems' ready-made encounters (the rules texts' own examples among them)."""
    from ...rules import examples

    opts = [h("option", {"value": ""}, "Start from an example…")]
    for system in SYSTEMS:
        for name in examples(system):
            opts.append(h("option", {"value": f"{system}:{name}"},
                          f"{SYSTEMS[system].label} · {name.replace('_', ' ')}"))
    return h("label", {"class_": "f"}, h("span", None, "Examples"),
             h("select", {"data-action": "example", "data-testid": "example-select", "aria-label": "Examples"}, opts))


def start_hint(doc: dict[str, Any], party: str) -> Markup | str:
    """While fewer than two sides have someone, what to do next (the fight cannot start before), with `party`:
    while the encounter is empty "Add the party" and the quick party, then what the quick party added."""
    sides = {c.get("side") for c in doc["combatants"]}
    if len(sides) >= 2:
        return ""
    text = ("Nobody here yet: add the party, then the foes (the roster, the starter creatures or a preset "
            "below). Each side starts at its own edge." if not sides else
            "The fight starts when two sides each have a combatant: add the foes below.")
    return h("div", {"class_": "hint ed-start", "role": "status", "data-testid": "editor-start"},
             h("p", None, text), Markup(party))


def render(doc: dict[str, Any], ruleset: Ruleset, problems: list[str], steps: int, picker: str = "",
           party: str = "", refused: dict[str, tuple[str, str]] | None = None, leaving: bool = False,
           placing: str = "") -> Markup:
    """The setup form; `picker` is the roster picker's markup (ui/markup/roster_markup.py), shown under the presets,
    and `party` its "Add the party" button, offered first while the encounter is empty. `refused` holds
    the values typed that were not applied (path -> (typed, why)): each is shown and marked at its own
    field, and the summary at the top links to each; `leaving` asks whether to drop them. `placing` is the
    placement map's markup (ui/controllers/place_ui.py), shown under the encounter's name and map size."""
    refused = refused or {}
    tokens = _REFUSED.set(refused), _LABELS.set({})
    try:
        body = _body(doc, ruleset, steps, picker, party, refused, placing)
        summary = refused_summary(doc, refused, problems, _LABELS.get(), leaving)
    finally:
        _REFUSED.reset(tokens[0])
        _LABELS.reset(tokens[1])
    warn, rest = body
    return h("div", {"class_": "editor", "data-testid": "editor"}, h("h2", None, "Encounter setup"),
             warn, summary, rest)


def refused_summary(doc: dict[str, Any], refused: dict[str, tuple[str, str]], problems: list[str],
                    labels: dict[str, str], leaving: bool) -> Markup | str:
    """The problems at the top of the form: a link to each refused field, then what no field holds."""
    if not refused and not problems:
        return ""
    items = []
    for path, (typed, why) in refused.items():
        where = labels.get(path, path.replace("/", " · "))
        m = re.match(r"combatants/(\d+)/", path)
        if m and int(m.group(1)) < len(doc["combatants"]):
            where = f"{doc['combatants'][int(m.group(1))].get('name', '')} · {where}"
        items.append(h("li", None, h("a", {"href": "#" + field_id(path), "data-action": f"goto-field:{path}"},
                                     where), f": {why}"))
    items += [h("li", None, p) for p in problems]
    head = (f"{len(refused)} {'value was' if len(refused) == 1 else 'values were'} not applied: the encounter "
            "keeps its own until each is fixed." if refused else "This setup was not applied:")
    ask = ""
    if leaving and refused:
        ask = h("div", {"class_": "row leave-ask", "data-testid": "leave-ask"},
                h("span", None, "Leave setup and drop these values?"),
                h("button", {"type": "button", "data-action": "setup-keep", "data-testid": "setup-keep"},
                  "Keep editing"),
                h("button", {"type": "button", "data-action": "setup-discard", "data-testid": "setup-discard",
                             "class_": "danger"}, "Discard them and go back to the fight"))
    return h("div", {"class_": "problems", "role": "alert", "data-testid": "editor-problems"},
             h("p", None, head), h("ul", None, items), ask)


def _body(doc: dict[str, Any], ruleset: Ruleset, steps: int, picker: str, party: str,
          refused: dict[str, tuple[str, str]], placing: str = "") -> tuple[Markup | str, Markup]:
    view = ruleset.info.field_view(doc.get("profile", ""))
    system_value = f"{doc['system']}:{doc.get('profile', '')}"
    sys_select = h("label", {"class_": "f"}, h("span", None, "System"),
                   h("select", {"data-action": "system", "data-testid": "system-select", "aria-label": "System"},
                     [h("option", {"value": f"{s}:{p}", "selected": f"{s}:{p}" == system_value}, label)
                      for s, p, label in system_choices()]))
    head = h("div", {"class_": "ed-head"},
             example_picker(),
             field("Encounter name", "name", doc.get("name", ""), testid="enc-name", maxlength="80"),
             sys_select,
             field("Dice seed", "seed", doc.get("seed", 1), "int", min="0"),
             distance_select(doc, view, ruleset.info.start_distance),
             field("Zones (OLOG)", "bands", doc.get("bands", 6), "int", min=str(L.BANDS[0]), max=str(L.BANDS[1]))
             if view == "bands" else "",
             field("Map width", "map/width", doc["map"]["width"], "int", min="4", max="200")
             if view == "grid" else "",
             field("Map height", "map/height", doc["map"]["height"], "int", min="4", max="200")
             if view == "grid" else "")
    warn = h("p", {"class_": "hint tone-warn"},
             f"The fight has {steps} steps: a change replays them on the new setup.") if steps else ""
    settings = ruleset.settings()
    sets = h("details", {"class_": "ed-settings", "open": False},
             h("summary", None, f"Rules settings ({len(settings)})"),
             [setting_field(s, doc.get("settings", {}).get(s.key, s.default)) for s in settings]) if settings else ""
    sides = h("section", {"class_": "ed-sides"}, h("h3", None, "Sides"),
              [side_row(i, s, doc["sides"]) for i, s in enumerate(doc["sides"])],
              h("button", {"type": "button", "data-action": "add-side", "data-testid": "add-side"}, "Add a side"))
    side_choices = [(s["id"], s["name"] or s["id"]) for s in doc["sides"]]
    # the presets and the roster's creatures are mostly foes: their side first, the party's by choice
    foes = next((s["id"] for s in doc["sides"] if not s.get("is_player")), "")
    adders = h("div", {"class_": "ed-add"},
               h("label", {"class_": "f"}, h("span", None, "Side"),
                 h("select", {"data-role": "add-side-choice", "data-testid": "add-to-side", "aria-label": "Side"},
                   [h("option", {"value": v, "selected": v == foes}, t) for v, t in side_choices])),
               [h("button", {"type": "button", "data-action": f"add:{name}", "data-testid": f"add-{name}"},
                  f"+ {name}") for name in presets.PRESETS])
    people = h("section", {"class_": "ed-combatants"},
               h("h3", None, f"Combatants ({len(doc['combatants'])})"), adders, Markup(picker),
               [combatant_form(i, c, side_choices, ruleset, view, doc.get("bands", 6),
                               any(p.startswith(f"combatants/{i}/") for p in refused))
                for i, c in enumerate(doc["combatants"])])
    return warn, Markup(str(start_hint(doc, party)) + str(head) + placing + str(sets) + str(sides) + str(people))


def distance_select(doc: dict[str, Any], view: str, own: str = "") -> Markup | str:
    """The starting distance (issue #53): where the sides are placed; a change re-places those not dragged.
    `own`: how the system sets it itself (SystemInfo.start_distance, Ogre's Spot results): said under the
    choice, which is then the placement until that is done, never the fight's distance."""
    if view not in ("grid", "bands"):
        return ""
    gaps = placement.ZONES if view == "bands" else placement.SQUARES
    unit = (lambda n: "same zone" if n == 0 else f"{n} zone{'s' if n > 1 else ''}") if view == "bands" \
        else (lambda n: f"{n * 5} ft")
    value = placement.choice(doc)
    return h("label", {"class_": "f"}, h("span", None, "Starting distance"),
             h("select", {"data-action": "start-distance", "data-testid": "start-distance", "aria-label": "Starting distance",
                          "aria-describedby": "start-distance-own" if own else None},
               [h("option", {"value": k, "selected": k == value}, f"{k.capitalize()} ({unit(gaps[k])})")
                for k in placement.CHOICES]),
             h("span", {"class_": "hint", "id": "start-distance-own", "data-testid": "start-distance-own"},
               with_rules(own))
             if own else "")


def side_row(i: int, s: dict[str, Any], sides: list[dict[str, Any]]) -> Markup:
    p = f"sides/{i}"
    others = [o for o in sides if o["id"] != s["id"]]
    allies = [h("label", {"class_": "chk"},
                h("input", {"type": "checkbox", "data-action": f"ally:{i}:{o['id']}", "checked": o["id"] in s["allies"],
                            "aria-label": f"{s['name']} allied with {o['name']}"}), f" allied with {o['name']}")
              for o in others]
    return h("div", {"class_": "side-row", "data-testid": f"side-row-{i}"},
             h("span", {"class_": "swatch", "style": f"color:{s['colour']}", "aria-hidden": "true"}, "●"),
             field("Side name", f"{p}/name", s["name"], maxlength="60"),
             field("Colour", f"{p}/colour", s["colour"], type="color"),
             select("Token shape", f"{p}/shape", s["shape"], [(x, x) for x in SHAPES]),
             field("Morale (2-12, empty: none)", f"{p}/morale", s.get("morale"), "intornull", min="2", max="12"),
             field("Player side", f"{p}/is_player", s.get("is_player", False), "bool"),
             allies,
             h("button", {"type": "button", "data-action": f"remove-side:{i}", "class_": "small danger"},
               "Remove side"))


def combatant_form(i: int, c: dict[str, Any], side_choices: list[tuple[str, str]], ruleset: Ruleset,
                   view: str, bands: int = 6, is_open: bool = False) -> Markup:
    p = f"combatants/{i}"
    stats = c.get("stats", {})
    weapons = [attack_row(i, j, a) for j, a in enumerate(c.get("weapons", []))]
    spatial = []
    if view == "bands":
        spatial.append(field(f"Zone (1 to {bands})", f"{p}/band", c.get("band"), "zone", max=str(bands)))
    if view == "grid":
        spatial.append(field("Square x,y", f"{p}/square", c.get("square"), "square"))
    return h("details", {"class_": "cb", "data-testid": f"cb-{i}", "open": is_open},
             h("summary", None, h("span", {"class_": "cb-name"}, c.get("name", "")),
               h("span", {"class_": "muted"}, f" {c.get('hp')}/{c.get('max_hp')} HP · AC {c.get('ac')}")),
             h("div", {"class_": "cb-grid"},
               field("Name", f"{p}/name", c.get("name", ""), testid=f"cb-name-{i}", maxlength="80"),
               select("Side", f"{p}/side", c.get("side"), side_choices),
               field("HP", f"{p}/hp", c.get("hp"), "int", testid=f"cb-hp-{i}", min="0",
                     max=str(c.get("max_hp", L.MAX_HP[1]))),
               field("Max HP", f"{p}/max_hp", c.get("max_hp"), "int", min=str(L.MAX_HP[0]), max=str(L.MAX_HP[1])),
               field("AC", f"{p}/ac", c.get("ac"), "int"),
               field("In hands", f"{p}/hands", c.get("hands", []), "list"),
               field("Inventory (top first)", f"{p}/inventory", c.get("inventory", []), "list"),
               *spatial,
               *[stat_field(i, s, stats.get(s.key)) for s in ruleset.stats()],
               field("Notes", f"{p}/notes", c.get("notes", ""), maxlength="2000")),
             h("div", {"class_": "weapons"}, h("h4", None, "Attacks"), weapons,
               h("button", {"type": "button", "data-action": f"add-attack:{i}", "class_": "small"}, "Add attack")),
             h("div", {"class_": "row"},
               h("button", {"type": "button", "data-action": f"duplicate:{i}", "data-testid": f"dup-{i}"},
                 "Duplicate"),
               h("button", {"type": "button", "data-action": f"roster-save:{i}", "data-testid": f"roster-save-{i}",
                            "title": "Keep this combatant in the roster for other encounters"}, "Save to roster"),
               h("button", {"type": "button", "data-action": f"remove:{i}", "class_": "danger",
                            "data-testid": f"remove-{i}"}, "Remove")))


def attack_row(i: int, j: int, a: dict[str, Any]) -> Markup:
    p = f"combatants/{i}/weapons/{j}"
    return h("div", {"class_": "attack-row"},
             field("Attack", f"{p}/name", a.get("name", ""), maxlength="60"),
             field("Damage", f"{p}/damage", a.get("damage", "1d6"), size="6", maxlength="40"),
             field("To hit", f"{p}/to_hit", a.get("to_hit", 0), "int"),
             select("Kind", f"{p}/kind", a.get("kind", "melee"), [(k, k) for k in WEAPON_KINDS]),
             field("Reach ft", f"{p}/reach", a.get("reach", 5), "int", step="5", min="0"),
             field("Per action", f"{p}/count", a.get("count", 1), "int", min="1", max="10"),
             field(f"Qualities ({', '.join(QUALITIES)})", f"{p}/qualities", a.get("qualities", []), "list"),
             field("Needs item in hand", f"{p}/item", a.get("item", ""), maxlength="80"),
             h("button", {"type": "button", "data-action": f"remove-attack:{i}:{j}", "class_": "small danger",
                          "aria-label": "Remove attack"}, "×"))
