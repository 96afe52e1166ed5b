"""Ogre's menus: every action an actor might take now, disallowed ones kept with the rule that forbids them.

The default menu is the text's list of actions (OGRE-LIST-1) plus attacks,
moves, charge, withdraw, casting, delay and ready; each declaration asks
"how fast?" before anything is rolled (OGRE-FAST-1, OGRE-SLOW-1). Moves offer
ready-made paths as choices and also accept any path the grid supplies.
"""
from __future__ import annotations

from dataclasses import replace

from ...engine.cache import Cache
from ...engine import geometry as geo
from ...engine.commands import Choice, Option, Reason as Core
from ...engine.geometry import distance_squares
from ...engine.spells import spell_effect
from ...engine.state import State
from . import grid as og
from . import state as om
from .check import check, check_act
from .reasons import Reason
from .commands import (
    Act, Advance, Attack, BeforeTheFight, Break, Cast, Charge, Counter, Delay, Follow, Move, Opportunity, React,
    Ready, RollInitiative, StandingAnswer, Strike, Stun, Trigger, Withdraw,
)
from .movement import cannot_land, charge_obstacles, follow_paths, standing_answer
from .state import CATEGORIES, FOLLOWS, MENU, MOVES, REACTION_PENALTY, OgreState, Phase
from .timeline import can_declare, next_event, pick_attack

READY_FOES = 5  # readied-attack options for the nearest few foes only: menus stay short


def options(state: State, actor: str) -> list[Option]:
    if not state.has(actor):
        return []
    s: OgreState = state.board
    if state.prompt is not None:
        return answers(state, actor) if state.prompt.actor == actor else []
    if s.phase == Phase.SETUP:
        return setup_options(state)
    c = state.get(actor)
    out: list[Option] = []
    if can_declare(state, actor):
        out += declarations(state, actor)
    elif not c.is_down:
        why = check(state, Delay(actor))
        out.append(Option(Delay(actor), "Declare an action", group="Act", rule="OGRE-ACT-1").refused(why))
    f = s.fighter(actor)
    if f.action is not None:
        lost = s.segment - f.action.declared
        out.append(Option(Break(actor), f"Break: {f.action.label}", group="Turn", rule="OGRE-BREAK-1",
                          hint=f"loses {lost} segment{'s' if lost != 1 else ''}; declare anew at once"))
        if f.action.kind == "ready":
            out.append(Option(Trigger(actor), "Trigger the readied action now", group="Turn",
                              rule="OGRE-READY-1").refused(check(state, Trigger(actor))))
    if not c.is_down:
        out.append(react_option(state, actor))
        out += standing_options(state, actor)
    out += turn_options(state, actor)
    return out


def standing_options(state: State, actor: str) -> list[Option]:
    """OGRE-AOO-2: a standing answer kept from a prompt is changed here: ask again."""
    use, scope = standing_answer(state, actor)
    if not use:
        return []
    c = state.get(actor)
    what = "always uses the pending attack" if use == "pending" else "always lets it go"
    side = state.encounter.side(c.side)
    whom = c.name if scope == "me" else f"everyone of {side.name if side else c.side}"
    return [Option(StandingAnswer(actor, "", scope), "Ask again about attacks of opportunity", group="Opportunity",
                   rule="OGRE-AOO-2", hint=f"now {whom} {what}")]


def always_options(state: State, actor: str, pending: bool) -> list[Option]:
    """OGRE-AOO-2: a prompt's answer kept as the standing one, for the combatant or its whole side."""
    c = state.get(actor)
    side = state.encounter.side(c.side)
    whom = (Choice(f"{c.name} only", {"always": "me"}),
            Choice(f"everyone of {side.name if side else c.side}", {"always": "side"}))
    cmd = Opportunity(actor, "pending")
    out = [Option(cmd, "Always use the pending attack", group="Opportunity", rule="OGRE-AOO-2", choices=whom,
                  question="From now on, for whom?", hint="now, and no more questions while it can be used")
           .refused(check(state, cmd))] if pending else []
    return out + [Option(Opportunity(actor, "decline"), "Always let it go", group="Opportunity", rule="OGRE-AOO-2",
                         choices=whom, question="From now on, for whom?", hint="no more questions about it")]


def setup_options(state: State) -> list[Option]:
    sides = tuple(sd.id for sd in state.encounter.sides)[:2]
    aware = Choice("They are already aware of each other", {"spot": (0,) * len(sides), "surprised": ()},
                   detail="No Spot rolls: nobody is surprised")
    return [
        Option(BeforeTheFight(sides=sides, spot=()), "Before the fight: distance and surprise", group="Setup",
               choices=(aware,), question="Spot results?", rule="OGRE-SUR-1",
               hint="Best Spot and Stalk of each group decide who sees whom first, and at what distance "
                    "(the form above the map)"),
        Option(RollInitiative(), "Roll initiative", group="Turn", key="next", rule="OGRE-INIT-1",
               hint="d10 + reaction time each; the count starts at segment 0"),
    ]


def tempo_choices(state: State, c, base: str, has_check: bool) -> tuple[Choice, ...]:
    """OGRE-FAST-1 / OGRE-SLOW-1: how fast, asked before anything is rolled (memoised per table and DEX)."""
    durations = om.table(state, "durations", om.DEFAULT_DURATIONS)
    key = (tuple(durations.items()), om.dex(c), base, has_check)
    return _TEMPO.get(key, lambda: _tempo_choices(state, c, base, has_check))


_TEMPO = Cache(513)  # (durations table, DEX, category, has a check) -> the tempo choices


def _tempo_choices(state: State, c, base: str, has_check: bool) -> tuple[Choice, ...]:
    dur = om.duration(state, base)
    out = [Choice(f"Normal: {base}, {dur} seg", {"tempo": 0}, key="n")]
    if base not in ("Immediate", "Instantaneous"):
        fast = om.shifted(base, -1)
        cost = f"{om.tempo_modifier(c, -1):+d}" if has_check else f"DC {om.FAST_DC} Dexterity check"
        out.append(Choice(f"Fast: {fast}, {om.duration(state, fast)} seg, {cost}", {"tempo": -1},
                          detail="OGRE-FAST-1: no feats", key="f"))
    for t in (1, 2):
        if CATEGORIES.index(base) + t < len(CATEGORIES):
            slow = om.shifted(base, t)
            gain = f"+{4 * t}" if has_check else "no check to improve"
            out.append(Choice(f"Take time: {slow}, {om.duration(state, slow)} seg, {gain}", {"tempo": t},
                              detail="OGRE-SLOW-1", key=f"s{t}"))
    return tuple(out)


def declarations(state: State, actor: str) -> list[Option]:
    c = state.get(actor)
    s: OgreState = state.board
    out: list[Option] = []
    foes = [o for o in state.enemies_of(c) if not o.is_down]
    if c.square is not None:
        foes.sort(key=lambda o: (distance_squares(tuple(c.square), tuple(o.square))
                                 if o.square is not None else 999, o.id))
    attack_choices = tempo_choices(state, c, "Standard", True)
    g = og.grid(state) if c.square is not None else None
    for foe in foes:
        for atk in c.ready_weapons():
            if not og.in_reach(state, c, atk, foe, g):
                continue
            dfn = om.defense(foe, om.is_flat_footed(s, foe.id))
            out.append(Option(Attack(actor, foe.id, atk.name), f"Attack {foe.name} ({atk.name})", group="Attack",
                              choices=attack_choices, question="How fast?", default=0, rule="OGRE-ATK-1",
                              hint=f"d20 {om.combat_skill(c, atk.to_hit):+d} vs Defense {dfn}; "
                                   f"resolves at {s.segment + om.duration(state, 'Standard')}"))
    if not any(isinstance(o.command, Attack) for o in out):
        probe = Attack(actor, foes[0].id if foes else "") if foes else Attack(actor, "")
        out.append(Option(probe, "Attack", group="Attack", rule="OGRE-ATK-1").refused(check(state, probe)))
    out += charge_options(state, c, foes)
    out += move_options(state, c)
    out += menu_options(state, c)
    if c.stat("caster", False):
        cast = Cast(actor)
        out.append(Option(cast, "Cast a spell", group="Magic", needs=("text:spell", "number:level"),
                          choices=tuple(Choice(f"{cat} spell ({om.duration(state, cat)} seg)", {"category": cat})
                                        for cat in ("Short", "Standard", "Long")),
                          question="How long is the spell?", rule="OGRE-READY-1",
                          hint="Concentration: damage calls for a check (OGRE-BREAK-1)"))
        out += spell_options(state, c, foes)
    out += ready_options(state, c, foes)
    out.append(delay_option(state, actor))
    return out


def spell_options(state: State, c, foes) -> list[Option]:
    """A known spell that does what its entry says (engine/spells.py), on each foe (a healing one: on each
    ally): one tap casts it as a Standard spell (another length one tap more, OGRE-READY-1); its effect lands
    when the cast resolves. A spell that lands on each of its targets is also offered on a few of them,
    ticked in its question (`Option.few`, issue 53, stop 9), declared now and landing on all ticked."""
    out = []
    lengths = tuple(Choice(f"{cat} ({om.duration(state, cat)} seg)", {"category": cat})
                    for cat in ("Standard", "Short", "Long"))
    for entry in c.stat("spells", ()) or ():
        name, effect = spell_effect(str(entry))
        if effect is None:
            continue
        on = [o for o in state.combatants if o.side == c.side and not o.is_down] if effect.heal else foes
        ask = dict(group="Magic", rule="OGRE-READY-1", choices=lengths, question=f"How long does {name} take?",
                   default=0, hint=effect.words())
        for o in on[:8]:
            cast = Cast(c.id, str(entry), 0, "Standard", o.id)
            out.append(Option(cast, f"Cast {name} on {o.name}", **ask).refused(check(state, cast)))
        if effect.each and len(on) > 1:
            cast = Cast(c.id, str(entry))
            out.append(Option(cast, f"Cast {name} on a few {'allies' if effect.heal else 'foes'}…", **ask,
                              needs=("few:targets",), few=tuple(o.id for o in on[:12])).refused(check(state, cast)))
    return out


def _next_declaration(state: State, cid: str) -> int | None:
    """The segment `cid` next declares: its due segment, or its pending action's resolution."""
    f = state.board.fighter(cid)
    if f.delaying:
        return f.due if f.due is not None else state.board.segment  # OGRE-DELAY-1: any segment from now
        return f.due
    return f.action.resolves if f.action is not None else None


def charge_options(state: State, c, foes: list) -> list[Option]:
    """OGRE-CHARGE-1: a charge at each foe a straight clear line reaches now; the path avoids the
    squares declared moves will take before it lands, and what could still spoil it is said
    before it is chosen (a foe that moves first, a square someone will stand on)."""
    out, doomed, refused = [], [], []
    atk = pick_attack(c, melee_only=True)
    if atk is not None and c.square is not None:
        choices = tempo_choices(state, c, "Long", True)
        lands = state.board.segment + om.duration(state, "Long")
        planned = charge_obstacles(state, c, lands)
        reach_ft = om.max_move_ft(state, c) + 5 * og.reach_squares(atk)
        for foe in foes:
            if foe.square is None:
                continue
            # Foes block the whole way; anyone ending a move on the charge's last square takes it.
            avoid = frozenset(sq for mid, (sq, _) in planned.items() if mid != foe.id)
            path = og.charge_path(state, c, foe, atk, avoid)
            if path is None:
                if geo.distance_ft(tuple(c.square), tuple(foe.square), og.grid(state).diagonal) <= reach_ft:
                    refused.append(Option(Charge(c.id, foe.id), f"Charge {foe.name}", group="Attack", allowed=False,
                                          reason=Reason.NO_CHARGE, rule="OGRE-CHARGE-1",
                                          why=f"No straight line of 10 ft or more, clear of foes and ending on a free "
                                              f"square, reaches {foe.name} (OGRE-CHARGE-1)"))
                continue
            feet = og.cost_ft(state, path)
            pace = om.pace_of(state, c, feet)
            risks = []
            nxt = _next_declaration(state, foe.id)
            if foe.id in planned:
                risks.append(f"{foe.name} moves at {planned[foe.id][1]}, before this charge lands at {lands}")
            for mid, (sq, seg) in planned.items():
                foe_of_mine = state.hostile(c, state.get(mid))
                if mid != foe.id and (foe_of_mine and sq in path[1:] or sq == tuple(path[-1])):
                    risks.append(f"{state.name(mid)} will stand on {sq} at {seg}")
            hint = f"{pace}: damage {om.CHARGE_BONUS[pace]:+d}"
            maybe = (f"; {foe.name} declares again at {nxt}, before this charge lands at {lands}: it may move"
                     if foe.id not in planned and nxt is not None and nxt < lands else "")
            why = cannot_land(state, c, foe, atk, path, planned)
            if why:
                hint = f"Ends out of reach: {why}. {hint}"
            elif risks or maybe:
                hint = "May end out of reach: " + "; ".join(risks) + (maybe[2:] if not risks else maybe) + f". {hint}"
            option = Option(Charge(c.id, foe.id, path, atk.name), f"Charge {foe.name} ({feet} ft)"
                            + (" ⚠" if risks else ""), group="Attack", choices=choices, question="How fast?",
                            default=0, rule="OGRE-CHARGE-1", hint=hint)
            (doomed if why else out).append(option)
    if out or doomed or refused:
        return out + doomed + refused  # a charge that cannot land comes after those that can
    if not out:
        why = "no melee attack in hand" if atk is None else "no foe at 10 ft or more in a straight, clear line"
        out.append(Option(Charge(c.id, ""), "Charge", group="Attack", allowed=False, reason=Reason.NO_CHARGE,
                          why=f"{c.name} cannot charge: {why} (OGRE-CHARGE-1)", rule="OGRE-CHARGE-1"))
    return out


def move_options(state: State, c) -> list[Option]:
    """OGRE-MOVE-1 / OGRE-WD-1: the page supplies the path (its preview marks where
    attacks of opportunity would fire); `grid.move_suggestions` offers ready-made ones."""
    if c.square is None:
        return [Option(Move(c.id, "move"), "Move", group="Move", allowed=False, reason=Core.NOT_PLACED,
                       why=f"{c.name} is not on the grid; the referee narrates movement (OGRE-MOVE-1)")]
    out = []
    now = state.board.segment
    for kind, (label, cat) in MOVES.items():
        limit = {"quick": "one square", "difficult": "one square, any direction",
                 "short": f"up to {om.speed_ft(c)} ft", "move": f"up to {om.max_move_ft(state, c)} ft"}[kind]
        out.append(Option(Move(c.id, kind), f"{label} ({cat})", group="Move", needs=("path",), rule="OGRE-MOVE-1",
                          hint=f"{limit}; resolves at {now + om.duration(state, cat)}"))
    opt = Option(Withdraw(c.id), "Withdraw (Long)", group="Move", needs=("path",), rule="OGRE-WD-1",
                 hint=f"up to {om.max_move_ft(state, c)} ft; the start square provokes no visible foe, later "
                      f"squares do; resolves at {now + om.duration(state, 'Long')}")
    if c.has_condition("blinded"):
        opt = opt.refused(check(state, Withdraw(c.id)))
    out.append(opt)
    return out


# The list's spell actions, offered to a caster only (issue 38: a bandit is not offered "Dismiss a spell").
SPELL_ACTS = frozenset({"redirect_spell", "dismiss_spell"})


def menu_options(state: State, c) -> list[Option]:
    """OGRE-LIST-1: the text's list of actions, less those that cannot apply to this combatant now (a spell
    action to a non-caster, standing up when not prone, drawing with nothing carried): the list stays short;
    the engine still refuses them with their reason if declared (check.py)."""
    out = []
    for m in MENU:
        if m.key in SPELL_ACTS and not c.stat("caster", False):
            continue
        has_check = bool(m.check)
        items: list[str] = []
        if m.needs_item == "carried":
            items = list(c.inventory)
        elif m.needs_item == "held":
            items = [h for h in c.hands if h]
        cmd = Act(c.id, m.key, items[0] if items else "")
        label = f"{m.label} ({m.category})"
        if m.needs_item:
            choices = tuple(Choice(i, {"item": i}) for i in items)
            opt = Option(cmd, label, group="Act", choices=choices, question="Which item?", rule="OGRE-LIST-1",
                         hint=m.help)
        else:
            opt = Option(cmd, label, group="Act", choices=tempo_choices(state, c, m.category, has_check),
                         question="How fast?", default=0, rule="OGRE-LIST-1",
                         hint=m.help + (" Provokes attacks of opportunity." if m.provokes else ""))
        bad = check_act(state, c, cmd)  # the actor may declare: only the act's own rules
        if bad is not None and bad.reason in (Reason.NOT_NEEDED, Reason.NO_ITEM):
            continue  # nothing to stand up from, no flames, nothing to draw: not listed at all
        out.append(opt.refused(bad))
    return out


def ready_options(state: State, c, foes: list) -> list[Option]:
    """OGRE-READY-1: an attack waiting for a trigger, a weapon set against a charge, a counterspell."""
    out = []
    atk = pick_attack(c)
    if atk is None:
        return out
    triggers = tuple(Choice(f"when {om.TRIGGERS[t]}", {"trigger": t}) for t in ("declare", "cast", "attack", "move",
                                                                                 "manual"))
    for foe in foes[:READY_FOES]:
        out.append(Option(Ready(c.id, "attack", "attack", foe.id, atk.name), f"Ready an attack on {foe.name}",
                          group="Ready", choices=triggers, question="Waiting for?", rule="OGRE-READY-1",
                          hint="resolves when the trigger happens, interrupting; damage may break a caster"))
        if c.stat("caster", False):
            out.append(Option(Ready(c.id, "counterspell", "cast", foe.id), f"Ready a counterspell on {foe.name}",
                              group="Ready", rule="OGRE-READY-1", hint="Spellcraft DC 15 + spell level"))
    melee = pick_attack(c, melee_only=True)
    if melee is not None:
        pierce = " (piercing: double damage)" if melee.has("piercing") else ""
        out.append(Option(Ready(c.id, "attack", "charge", "", melee.name), f"Set {melee.name} against a charge",
                          group="Ready", rule="OGRE-READY-1", hint=f"strikes a charger entering reach{pierce}"))
    return out


def delay_option(state: State, actor: str) -> Option:
    """OGRE-DELAY-1: declare later; the segments waited are lost."""
    s: OgreState = state.board
    nxt = next_event(state)
    choices = []
    if nxt is not None:
        choices.append(Choice(f"until segment {nxt} (next event)", {"until": nxt}))
    for k in (1, 5):
        if nxt is None or s.segment + k < nxt:
            choices.append(Choice(f"until segment {s.segment + k}", {"until": s.segment + k}))
    choices.append(Choice("until I say so", {"until": None}, detail="declare at any later segment"))
    return Option(Delay(actor), "Delay", group="Turn", choices=tuple(choices), question="Until when?",
                  rule="OGRE-DELAY-1", hint="declare nothing now; the segments waited are lost")


def react_option(state: State, actor: str) -> Option:
    """OGRE-REACT-1: a reaction now; its category's penalty goes to the current action."""
    a = state.board.fighter(actor).action
    choices = tuple(Choice(f"{cat} ({REACTION_PENALTY[cat]:+d})", {"category": cat})
                    for cat in ("Instantaneous", "Immediate", "Quick", "Short", "Standard"))
    on = f" to {a.label}" if a is not None else ""
    cmd = React(actor, "Quick", "a defensive reaction")
    return Option(cmd, "React", group="Reaction", choices=choices, question="Which category?",
                  rule="OGRE-REACT-1", hint=f"resolves at once; penalty{on}").refused(check(state, cmd))


def turn_options(state: State, actor: str) -> list[Option]:
    s: OgreState = state.board
    nxt = next_event(state)
    label = f"Advance to segment {nxt}" if nxt is not None else "Advance one segment"
    out = [
        Option(Advance(), label, group="Turn", key="next", rule="OGRE-SEG-1",
               hint="jump to the next segment where something happens").refused(check(state, Advance())),
        Option(Advance(one=True), f"Advance one segment (to {s.segment + 1})", group="Turn", rule="OGRE-SEG-1")
        .refused(check(state, Advance(one=True))),
    ]
    return out + referee_options(state, actor)


def referee_options(state: State, actor: str) -> list[Option]:
    """The referee's own offer for a standing combatant: stunned for a while (OGRE-BREAK-1)."""
    if not state.has(actor) or state.get(actor).is_down:
        return []
    return [Option(Stun(actor), "Stunned", group="Referee", rule="OGRE-BREAK-1",
                   choices=tuple(Choice(f"for {n} segments", {"segments": n}) for n in (5, 10, 20)),
                   question="For how long?", hint="breaks the action; declares again on recovery")]


def answers(state: State, actor: str) -> list[Option]:
    """The answers to the prompt waiting on `actor` (UI principle 2: asked before rolling)."""
    p = state.prompt
    c = state.get(actor)
    out: list[Option] = []
    if p.kind == "opportunity":
        mover = state.get(p.data["mover"])
        a = state.board.fighter(actor).action
        if a is not None and a.is_offensive:
            pen = int(state.setting("change_target_penalty", 2)) if a.target != mover.id else 0
            cmd = Opportunity(actor, "pending")
            out.append(Option(cmd, f"Use {a.label} on {mover.name} now" + (f" (-{pen}: new target)" if pen else ""),
                              group="Opportunity", rule="OGRE-AOO-2",
                              hint="the pending attack resolves now; declare anew after").refused(check(state, cmd)))
        for atk in og.melee_attacks(c):
            for fast in (False, True):
                cmd = Opportunity(actor, "new", atk.name, fast)
                cat = "Short" if fast else "Standard"
                extra = f", {om.tempo_modifier(c, -1):+d} to hit" if fast else ""
                cur = f" to {a.label}" if a is not None else ""
                out.append(Option(cmd, f"{'Fast attack' if fast else 'Attack'} with {atk.name} as a reaction",
                                  group="Opportunity", rule="OGRE-AOO-2",
                                  hint=f"{cat} reaction: {REACTION_PENALTY[cat]:+d}{cur}{extra}")
                           .refused(check(state, cmd)))
        out.append(Option(Opportunity(actor, "decline"), "Let it go", group="Opportunity", rule="OGRE-AOO-2",
                          hint="You don't have to make an attack of opportunity (OGRE-AOO-2)"))
        out += always_options(state, actor, a is not None and a.is_offensive)
        # "You don't have to": asked every time; the first attack that can land is the one-tap default.
        first = next((i for i, o in enumerate(out) if o.allowed and o.command.use != "decline"), None)
        if first is not None:
            out[first] = replace(out[first], key="next")
    elif p.kind == "follow":
        target = p.data["target"]
        for kind, path in follow_paths(state, actor, target).items():
            label, cat = FOLLOWS[kind]
            out.append(Option(Follow(actor, kind, path), f"{label} ({og.cost_ft(state, path)} ft)", group="Follow",
                              rule="OGRE-FOLLOW-1",
                              hint=f"{cat} reaction: {REACTION_PENALTY[cat]:+d} to the current action"))
        out.append(Option(Follow(actor, ""), "Stay", group="Follow", rule="OGRE-FOLLOW-1"))
    elif p.kind == "ready":
        # OGRE-READY-1: striking is the default, first, one tap; holding keeps the ready for a later trigger.
        t = state.name(p.data["target"])
        out.append(Option(Strike(actor, True), f"Strike {t} with {p.data['weapon']}"
                          + (" (x2 against the charge)" if p.data.get("double") else ""), group="Ready",
                          rule="OGRE-READY-1", key="next", hint="the readied attack resolves now, interrupting"))
        out.append(Option(Strike(actor, False), "Hold it for a later trigger", group="Ready", rule="OGRE-READY-1",
                          hint="the ready stays; its segments keep passing"))
    elif p.kind == "counter":
        out.append(Option(Counter(actor, True), "Counter it (can cast that spell)", group="Ready",
                          rule="OGRE-READY-1", key="next"))
        out.append(Option(Counter(actor, False), "Cannot cast it", group="Ready", rule="OGRE-READY-1"))
    return out
