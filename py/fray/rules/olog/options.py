"""What an OLOG actor is offered now: every action of the turn, refused ones kept with their reason.

Under pressure each action carries the question "press on?", answered before
any die is rolled (OLOG-PRES-2, UI principle 2): a tap takes the text's
default, no Press On (the turn ends after the action), and the option's other
answer presses on; an extended action must press on and asks (OLOG-PRES-7).
The question is built once per actor, since the page asks for options on
every redraw.
"""
from __future__ import annotations

from dataclasses import replace

from ...engine.commands import Choice, Command, Option
from ...engine.model import Combatant
from ...engine.spells import spell_effect
from ...engine.state import State
from .check import check, rules, shape
from .commands import Attack, CastSpell, Defend, EndTurn, Move, Retrieve, RollInitiative, SetCount, Strategise
from .pressure import Pressure, pressure_on, zone_name
from .state import (ACTION, EXTENDED, FREE, OlogState, Phase, cost, defend_bonus, has_free_action, is_continuation,
                    is_pc, item_cost, needs_press_on, shield_in_hand)


def options(state: State, actor: str) -> list[Option]:
    """Every action `actor` might take now; before initiative, the roll."""
    s: OlogState = state.board
    if not state.has(actor):
        return []
    if s.phase == Phase.INITIATIVE:
        cmd = RollInitiative()
        return [Option(cmd, "Roll initiative", group="Turn", key="next", rule="OLOG-INIT-1",
                       hint="PCs roll d20 + level + modifier; NPCs take their fixed counts")
                .refused(check(state, cmd))]
    c = state.get(actor)
    p = pressure_on(state, actor)
    out: list[Option] = []
    offer = _Offer(state, c, p, out)
    if c.band is not None:
        for b in (c.band - 1, c.band + 1):
            if 0 <= b < state.encounter.bands:
                offer(Move(actor, b), f"Move to {zone_name(b)}", "Move", "OLOG-MOVE-1",
                      hint=_move_hint(state, c, b))
    targets = [o for o in state.combatants if o.id != actor and not o.is_down and state.hostile(c, o)]
    for a in c.weapons:
        for o in targets:
            cmd = Attack(actor, o.id, a.name)
            extra = ""
            if is_continuation(state, cmd):
                extra = f" ({a.count - s.attacks_left + 1} of {a.count}, same action)"
            offer(cmd, f"Attack {o.name} with {a.name} ({a.damage}){extra}", "Attack", "OLOG-ATK-1")
    bonus = defend_bonus(state, c)
    offer(Defend(actor), f"Defend (+{bonus} AC)", "Defend", "OLOG-DEF-1",
          hint="until its next turn" + (f", holding {shield_in_hand(c)}" if shield_in_hand(c) else ""))
    if is_pc(state, c) or c.stat("caster", False) or c.stat("spells", ()):
        offer(CastSpell(actor), "Cast a spell… (extended)", "Spell", "OLOG-SPELL-1", needs=("spell",))
        for sp in c.stat("spells", ()) or ():
            name, effect = spell_effect(str(sp))
            if effect is None:
                offer(CastSpell(actor, str(sp)), f"Cast {sp} (extended)", "Spell", "OLOG-SPELL-1")
                continue
            # a spell that does what its entry says (engine/spells.py): one option per target
            group = ([o for o in state.combatants if o.side == c.side and not o.is_down] if effect.heal
                     else targets)
            if len(group) > 1:
                offer(CastSpell(actor, str(sp), targets=tuple(o.id for o in group)),
                      f"Cast {name} on every {'ally' if effect.heal else 'foe'} ({len(group)}) (extended)",
                      "Spell", "OLOG-SPELL-1", hint=effect.words())
            for o in group[:8]:
                offer(CastSpell(actor, str(sp), targets=(o.id,)), f"Cast {name} on {o.name} (extended)", "Spell",
                      "OLOG-SPELL-1", hint=effect.words())
            if len(group) > 2:  # every one and each alone are offered above: a few of them, ticked (#53, stop 9)
                offer(CastSpell(actor, str(sp)), f"Cast {name} on a few {'allies' if effect.heal else 'foes'}… "
                      "(extended)", "Spell", "OLOG-SPELL-1", hint=effect.words(), needs=("few:targets",),
                      few=tuple(o.id for o in group))
    for item in dict.fromkeys(c.inventory):
        tag = {FREE: "free", EXTENDED: "extended", ACTION: "action"}[item_cost(state, c, item)]
        empty = [i for i, h in enumerate(c.hands) if not h]
        if empty or not c.hands:
            offer(Retrieve(actor, item, empty[0] if empty else -1), f"Retrieve {item} ({tag})", "Item",
                  "OLOG-ITEM-1")
        else:
            for i, h in enumerate(c.hands):
                offer(Retrieve(actor, item, i), f"Swap {h} for {item} ({tag})", "Item", "OLOG-ITEM-1")
    for d, word in (("up", "earlier"), ("down", "later")):
        offer(Strategise(actor, d), f"Strategise: count {d} 1d6", "Strategise", "OLOG-STRAT-1",
              hint=f"act {word} from next round")
    end = EndTurn(actor)
    out.append(Option(end, "End turn", group="Turn", key="next", rule="OLOG-ACT-1").refused(check(state, end)))
    return out


def referee_options(state: State, actor: str) -> list[Option]:
    """The referee's own offer for a combatant: set its count by hand (OLOG-INIT-3: only
    Strategise or the referee change counts). The page shows it beside the actor's options."""
    s: OlogState = state.board
    if s.phase == Phase.INITIATIVE or not state.has(actor):
        return []
    now = s.count(actor)
    return [Option(SetCount(actor, now if now is not None else 10), "Set count…", group="Referee",
                   rule="OLOG-INIT-3", hint=f"now {now}" if now is not None else "",
                   needs=("number:count",), question=f"New count for {state.name(actor)} (OLOG-INIT-3)")]


def _move_hint(state: State, c: Combatant, band: int) -> str:
    foes = [o for o in state.combatants if not o.is_down and o.band is not None and state.hostile(c, o)]
    if not foes:
        return ""
    before = min(abs(o.band - c.band) for o in foes)
    after = min(abs(o.band - band) for o in foes)
    there = [o.name for o in foes if o.band == band]
    if there:
        return "into reach of " + ", ".join(there)
    return "toward the foes" if after < before else "away from the foes"


THEN_END = (Choice("Attack", {}), Choice("+ End turn", {"then_end": True}, key="t",
                                          detail="The turn ends with this attack, in the same tap (OLOG-ACT-1)"))


class _Offer:
    """Builds one option: its legality, and the Press On question when under pressure.
    The question and its answers are built once per actor (options() is hot)."""

    def __init__(self, state: State, c: Combatant, p: Pressure, out: list[Option]):
        self.state, self.c, self.p, self.out = state, c, p, out
        self.ask = needs_press_on(state, c.id, p)
        if self.ask:
            press = Choice(f"Press on: take {p.cost()}", {"press_on": True}, key="p",
                           detail=f"Pressure from {p.who()}, dealt as the action resolves "
                                  f"(OLOG-PRES-3, OLOG-PRES-4, OLOG-PRES-5)")
            end = Choice("Act, then the turn ends", {"press_on": False}, key="e",
                         detail="No pressure damage; the turn ends after this action (OLOG-PRES-2)")
            self.choices = {ACTION: (press, end), EXTENDED: (press,)}
            who = f"{c.name} is under pressure from {p.who()}: "
            self.questions = {ACTION: who + "press on?",
                              EXTENDED: who + "extended actions need Press On (OLOG-PRES-7)"}

    def last_action(self) -> bool:
        """This is the turn's last action and nothing free could follow it: the turn ends with it."""
        s: OlogState = self.state.board
        return s.actor == self.c.id and s.actions_left <= 1 and not has_free_action(self.c)

    def ends_with(self, cmd: Command) -> bool:
        """An attack that opens the turn with a single attack: "…, then end turn" may follow it (OLOG-ACT-1)."""
        s: OlogState = self.state.board
        if not isinstance(cmd, Attack) or s.actor != self.c.id or s.actions_left < 2 or s.attacks_left:
            return False
        return any(w.name == cmd.weapon and w.count <= 1 for w in self.c.weapons)

    def __call__(self, cmd: Command, label: str, group: str, rule: str, *, hint: str = "",
                 needs: tuple[str, ...] = (), few: tuple[str, ...] = ()) -> None:
        price = cost(self.state, cmd)
        ask = self.ask and price in (ACTION, EXTENDED)
        if ask and price == ACTION and self.last_action():
            # The turn ends after this action anyway (OLOG-ACT-1) and no free action could follow it
            # (OLOG-ACT-3): pressing on would only cost hit points, so it is not asked (OLOG-PRES-2).
            ask = False
            cmd = replace(cmd, press_on=False)
            hint = (hint + "; " if hint else "") + "last action: the turn ends, no pressure"
        illegal = shape(self.state, cmd) or rules(self.state, cmd, self.p, press=True if ask else "cmd")
        if not ask and illegal is None and self.ends_with(cmd):
            # The attack may be the turn's last useful act: "…, then end turn" is its other answer, a button
            # beside it, so attacking and ending the turn is one tap (and one undo) (OLOG-ACT-1).
            self.out.append(Option(cmd, label, group=group, rule=rule, hint=hint, needs=needs, choices=THEN_END,
                                   question="Then end the turn?", default=0, remember=False))
            return
        self.out.append(Option(
            cmd, label, allowed=illegal is None, why=illegal.detail if illegal else "",
            reason=illegal.reason if illegal else "", group=group, rule=rule, hint=hint, needs=needs,
            choices=self.choices[price] if ask else (), question=self.questions[price] if ask else "",
            # Not pressing on is the text's default (OLOG-PRES-2: the turn ends unless Press On is declared):
            # a tap acts at once and ends the turn; Press On is the option's other answer, one tap away.
            # An extended action has only Press On (OLOG-PRES-7): that is asked, once.
            default=1 if ask and price == ACTION else -1, remember=False, few=few))
