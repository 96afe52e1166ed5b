"""The players' table display: what the table may see of a fight, as plain JSON-ready data.

The referee's tab builds this and sends only this to the table window
(ui/page/table_display.py), so nothing secret ever reaches the players' screen:
monsters' HP become a word (`hp_word`), combatants marked hidden are left
out everywhere (order, field, ruler, log), referee notes, monster stats and
dice rolled behind the screen are never copied in, and the log is rewritten
for players. Declarations follow each system's text (docs/RULESETS.md,
"The table display"), which its view's hooks say: `spoken_declarations`,
`declarations_public`, `table_status`; its field models come from the same
view (`bands`, `ruler`).
Pure: tested under CPython (tests/unit/test_table_view.py).
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from ..engine.model import Combatant
from ..engine.state import State
from .odds import CERTAIN
from .models import initials
from ..engine.conditions import public_conditions
from .panels import system_view

VERSION = 1  # of the message format: a table window ignores any other
LOG_LINES = 8
HP_WORDS = ("unhurt", "hurt", "bloodied", "near death", "down")


def hp_word(hp: int, max_hp: int) -> str:
    """A monster's HP as the players see it (thresholds in docs/TABLE.md):
    unhurt at full, hurt above half, bloodied above a quarter, near death above 0, down at 0 or less."""
    if hp <= 0:
        return "down"
    if max_hp <= 0 or hp >= max_hp:
        return "unhurt"
    if 2 * hp > max_hp:
        return "hurt"
    if 4 * hp > max_hp:
        return "bloodied"
    return "near death"


def is_pc(state: State, c: Combatant) -> bool:
    """A player character: on a player side, or marked a PC (the `pc` stat)."""
    side = state.encounter.side(c.side)
    return bool((side is not None and side.is_player) or c.stat("pc", False))


class _Secrets:
    """Who is hidden and who is a monster, and the names a public line must not carry."""

    def __init__(self, state: State) -> None:
        self.hidden = {c.id for c in state.combatants if c.hidden}
        self.hidden_names = tuple(c.name for c in state.combatants if c.hidden and c.name)
        self.pcs = {c.id for c in state.combatants if is_pc(state, c)}

    def shows(self, text: str) -> bool:
        return not any(n in text for n in self.hidden_names)


def table_view(state: State, steps: Iterable = (), field: str = "list", extra: tuple[str, ...] = (),
               title: str = "", panel=None, odds: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole players' view of `state`; `steps` (the session's steps, oldest first) feed the log;
    `panel` is the system's panel for `state` when the caller has it already; `odds` (from `table_odds`)
    the acting combatant's odds when the referee shows them."""
    sec = _Secrets(state)
    enc = state.encounter
    view_of = system_view(enc.system)
    panel = panel if panel is not None else view_of.panel(state)
    public = view_of.declarations_public(state)
    status = view_of.table_status(state) or (panel.status if sec.shows(panel.status) else f"Round {state.round}")
    view: dict[str, Any] = {
        "name": enc.name, "system": enc.system, "title": title or enc.system, "field": field,
        "round": state.round, "status": status, "outcome": state.outcome if sec.shows(state.outcome) else "",
        "sides": [{"id": s.id, "name": s.name, "colour": s.colour, "shape": s.shape} for s in enc.sides],
        "order": _order(state, panel, sec, public),
        "log": player_log(state, steps, sec, public),
        "declarations": _declarations(state, view_of.spoken_declarations(state), sec),
    }
    if field == "bands":
        view["bands"] = _bands(state, view_of.bands(state), sec)
    elif field == "grid":
        view["grid"] = _grid(state, sec)
    if "ruler" in extra:
        view["ruler"] = _ruler(state, view_of.ruler(state), sec, public)
    if odds:
        view["odds"] = odds
    return view


def table_odds(state: State, actor: str | None, figures: Iterable[tuple[str, str]]) -> dict[str, Any] | None:
    """The odds the players see (CORE-ODDS-1, the setting `table_odds`): the options of `actor`, who acts
    now, with their compact figures (those a die decides, each once), when the referee shows odds for its side ("the players' side": a PC;
    "every side"); none for a hidden combatant, and no option that names one."""
    who = state.setting("table_odds", "nobody")
    if who == "nobody" or actor is None or not state.has(actor):
        return None
    c = state.get(actor)
    sec = _Secrets(state)
    if c.hidden or (who == "the players' side" and c.id not in sec.pcs):
        return None
    options: list[dict[str, str]] = []
    for label, fig in figures:  # what a die decides, once each: a certain outcome tells the players nothing
        row = {"label": label, "figure": fig}
        if fig and fig != CERTAIN and sec.shows(label) and row not in options:
            options.append(row)
    return {"who": c.name, "options": options} if options else None


def _order(state: State, panel, sec: _Secrets, public: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    words = public_conditions(_ruleset(state), state) if state.timers or state.secret else None  # time left
    pending_side: dict[str, Any] | None = None
    for row in panel.order:
        if row.kind == "side":
            pending_side = {"kind": "side", "id": row.id, "name": row.name, "detail": row.detail}
            continue
        if row.id in sec.hidden or not state.has(row.id):
            continue
        if pending_side is not None:
            out.append(pending_side)
            pending_side = None
        c = state.get(row.id)
        pc = c.id in sec.pcs
        badges = row.badges or panel.badges.get(c.id, ())
        if not pc and not public:
            badges = ()  # badges may name a monster's ready or declared action
        out.append({
            "kind": "combatant", "id": c.id, "name": c.name, "side": c.side, "pc": pc,
            "letters": initials(c.name), "current": row.is_current, "down": c.is_down,
            "hp": f"{c.hp}/{c.max_hp}" if pc else hp_word(c.hp, c.max_hp),
            "detail": row.detail if pc and sec.shows(row.detail) else "",
            "conditions": list(words.get(c.id, ())) if words is not None else list(c.conditions),
            "badges": [{"icon": b.icon, "word": b.word if b.left_secret else b.said, "tone": b.tone}
                       for b in badges if sec.shows(b.said)],
        })
    return out


def _token(state: State, c: Combatant, sec: _Secrets, current: set[str]) -> dict[str, Any]:
    pc = c.id in sec.pcs
    return {"id": c.id, "name": c.name, "letters": initials(c.name), "side": c.side, "pc": pc,
            "current": c.id in current, "down": c.is_down,
            "hp": f"{c.hp}/{c.max_hp}" if pc else hp_word(c.hp, c.max_hp)}


def _current(state: State) -> set[str]:
    try:
        return set(_ruleset(state).current(state))
    except Exception:  # a state between rules (no ruleset registered): nobody highlighted
        return set()


def _ruleset(state: State):
    from ..rules import get
    return get(state.encounter.system)


def _bands(state: State, model, sec: _Secrets) -> dict[str, Any]:
    cur = _current(state)
    zones = [{"label": col.label, "tokens": [_token(state, state.get(t.id), sec, cur) for t in col.tokens
                                             if t.id not in sec.hidden]} for col in model.columns]
    return {"zones": zones, "zone_ft": model.zone_ft}


def _grid(state: State, sec: _Secrets) -> dict[str, Any]:
    spec = state.encounter.map
    cur = _current(state)
    tokens = []
    for c in state.combatants:
        if c.square is None or c.id in sec.hidden:
            continue
        t = _token(state, c, sec, cur)
        t["square"] = list(c.square)
        tokens.append(t)
    return {"width": spec.width, "height": spec.height, "walls": sorted(list(w) for w in spec.walls),
            "tokens": tokens}


def _ruler(state: State, model, sec: _Secrets, public: bool) -> dict[str, Any]:
    lanes = []
    for lane in model.lanes:
        if lane.id in sec.hidden:
            continue
        pc = lane.id in sec.pcs
        bars = []
        for b in lane.bars:
            # A monster's action still pending is its declaration: the referee's until it resolves.
            if not pc and not public and b.state == "pending" and b.kind != "stun":
                continue
            label = b.label if sec.shows(b.label) else b.kind
            bars.append({"start": b.start, "end": b.end, "kind": b.kind, "label": label, "state": b.state})
        lanes.append({"id": lane.id, "name": lane.name, "side": lane.side, "current": lane.is_current,
                      "down": lane.is_down, "flat": list(lane.flat_footed) if lane.flat_footed else None,
                      "bars": bars})
    return {"start": model.start, "end": model.end, "now": model.now, "lanes": lanes}


def _declarations(state: State, declared: dict[str, tuple[str, str]], sec: _Secrets) -> list[dict[str, str]]:
    """The declarations spoken aloud at the table (OSE-DECL-1), as the players heard them."""
    words = {"full_defense": "Full Defense", "brace": "Brace"}
    out = []
    for cid, (action, spell) in declared.items():
        if cid in sec.hidden or not state.has(cid):
            continue
        what = f"casts {spell}" if action == "spell" else words.get(action, action.replace("_", " "))
        out.append({"name": state.name(cid), "text": what})
    return out


# --- the log, written for players ------------------------------------------------------------

# Events that touch a monster are told in these words (no dice, no HP, no stats);
# `None` leaves the event out. Events between PCs keep their own sentence.
TEMPLATES: dict[str, str | None] = {
    "AttackHit": "{actor} hits {target}", "AttackMissed": "{actor} misses {target}",
    "DamageTaken": "{target} is wounded", "CombatantDown": "{who} is down", "CombatantUp": "{who} is up again",
    "Moved": "{actor} moves", "MoveStarted": "{actor} moves", "MoveStopped": "{actor} stops",
    "TurnStarted": "{actor}'s turn", "TurnEnded": "{actor} ends the turn", "PressedOn": "{actor} presses on",
    "Provoked": "{actor} provokes an attack of opportunity", "Fled": "{actor} flees", "Defended": "{actor} defends",
    "Charged": "{actor} charges", "ReactionTaken": "{actor} reacts", "SpellCast": "{actor} casts a spell",
    "CastingBegun": "{actor} begins casting", "Strategised": "{actor} strategises", "Healed": "{target} is healed",
    "ActionResolved": "{actor}'s action resolves", "ActionBroken": "{actor}'s action is broken",
    "Grappled": "{actor} grapples {target}", "Stunned": "{target} is stunned", "ShieldSplintered":
    "{who}'s shield splinters", "Turned": "{target} is turned", "Destroyed": "{target} is destroyed",
    "Placed": "{who} is placed", "FlatFootedEnded": "{actor} is no longer flat-footed",
    "JoinedTheCount": "{actor} joins the fight", "ActorFinished": "{actor} is done", "Released": "{target} is free",
    "Pinned": "{target} is pinned", "StunEnded": "{target} is no longer stunned", "ChargeFailed": "{actor}'s charge fails",
    "SpellLost": "{actor} loses a spell", "ActionLost": "{actor}'s action is lost", "ActDone": "{actor} acts",
    "OpportunityTaken": "{actor} takes an attack of opportunity", "ReadyTriggered": "{actor}'s readied action fires", "ConditionSet": "{who}: {condition}",
    "DamageRolled": None, "InitiativeRolled": None, "CountSet": None, "CountChanged": None, "Narrated": None,
    "HpSet": None, "StatSet": None, "Overridden": None, "OverrideFailed": None, "Rolled": None, "Noted": None,
    "ResourceRolled": None, "TurnDurationRolled": None, "GrappleRolled": None, "CheckMade": None,
    "SurpriseSuggested": None, "PromptDropped": None,
}
# Events about no one in particular whose sentence the table may read (the part before a colon).
PUBLIC = {"RoundStarted", "RoundBegan", "StepBegan", "SideTurnBegan", "InitiativeOrdered", "SegmentReached",
          "SurpriseRoundBegan", "InitiativeRolled", "MoralePassed", "MoraleFailed", "WallsChanged"}
DECLARING = {"ActionDeclared", "Delayed", "ReadyHeld", "Declared", "Undeclared"}


def player_line(state: State, e, sec: _Secrets, public: bool) -> str:
    """One event as the players hear it, or "" when it is the referee's alone."""
    if getattr(e, "secret", False):
        return ""  # rolled behind the screen (OSE-TURN-3)
    who = [i for i in (e.actor, e.target) if i]
    if any(i in sec.hidden for i in who):
        return ""
    if not who:
        if e.kind not in PUBLIC:
            return ""
        text = e.text.split(":")[0] if e.kind in ("RoundStarted", "MoralePassed", "MoraleFailed") else e.text
        if e.kind in ("MoralePassed", "MoraleFailed"):
            text = re.sub(r"\s*\(.*$", "", text)
        return text if sec.shows(text) else ""
    if all(i in sec.pcs for i in who):
        return e.text if sec.shows(e.text) else ""
    if e.kind in DECLARING:
        if not public:
            return ""
        return e.text if sec.shows(e.text) else ""
    template = TEMPLATES.get(e.kind, "{actor}: {kind}")
    if template is None:
        return ""
    names = {"actor": state.name(e.actor) if e.actor and state.has(e.actor) else "",
             "target": state.name(e.target) if e.target and state.has(e.target) else "",
             "kind": re.sub(r"(?<!^)([A-Z])", r" \1", e.kind).lower(),
             "condition": str(e.data.get("condition", "condition")) if isinstance(e.data, dict) else "condition"}
    names["who"] = names["target"] or names["actor"]
    if e.kind == "DamageTaken" and e.target in sec.pcs:
        amount = e.data.get("amount") if isinstance(e.data, dict) else None
        if isinstance(amount, int):
            return f"{names['target']} takes {amount} damage"
    line = template.format(**names).strip()
    return line if sec.shows(line) else ""


def player_log(state: State, steps: Iterable, sec: _Secrets | None = None, public: bool = True,
               limit: int = LOG_LINES) -> list[str]:
    """The last few lines of the log for the players, newest first."""
    sec = sec or _Secrets(state)
    steps = list(steps)
    out: list[str] = []
    for step in reversed(steps):
        for e in reversed(step.events):
            line = player_line(state, e, sec, public)
            if line and (not out or out[-1] != line):
                out.append(line)
                if len(out) >= limit:
                    return out
    return out


# --- the messages between the referee's tab and the table window --------------------------------

KINDS = ("hello", "view", "bye")
FIELDS = ("bands", "grid", "list")


def message(kind: str, view: dict[str, Any] | None = None, seq: int = 0) -> dict[str, Any]:
    """A message on the table channel: {"fray": "table", "v": VERSION, "type": ..., ["seq", "view"]}."""
    out: dict[str, Any] = {"fray": "table", "v": VERSION, "type": kind}
    if view is not None:
        out["seq"] = seq
        out["view"] = view
    return out


def read_message(raw: Any) -> tuple[dict[str, Any] | None, str]:
    """A received message checked (JSON text → dict), or None and why it is ignored.
    Malformed, foreign and other-version messages are ignored, never shown."""
    import json
    if not isinstance(raw, str):
        return None, f"not text ({type(raw).__name__})"
    if len(raw) > 4_000_000:
        return None, "too long"
    try:
        msg = json.loads(raw)
    except ValueError as exc:
        return None, f"not JSON ({exc})"
    if not isinstance(msg, dict) or msg.get("fray") != "table":
        return None, "not a Fray table message"
    if msg.get("v") != VERSION:
        return None, f"version {msg.get('v')!r}, this page reads {VERSION}"
    kind = msg.get("type")
    if kind not in KINDS:
        return None, f"unknown type {kind!r}"
    if kind == "view":
        view = msg.get("view")
        if not isinstance(view, dict):
            return None, "a view message without a view"
        problems = [k for k, t in (("name", str), ("status", str), ("field", str), ("order", list), ("log", list),
                                   ("sides", list)) if not isinstance(view.get(k), t)]
        if "odds" in view and not (isinstance(view["odds"], dict) and isinstance(view["odds"].get("who"), str)
                                   and isinstance(view["odds"].get("options"), list)):
            problems.append("odds")
        if problems:
            return None, "bad view fields: " + ", ".join(problems)
        if view["field"] not in FIELDS:
            return None, f"unknown field {view['field']!r}"
        if not isinstance(msg.get("seq"), int):
            return None, "no sequence number"
    return msg, ""
