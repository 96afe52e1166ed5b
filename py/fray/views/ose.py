"""OSE view models: the status line, the order list by side, badges, per-actor hints, the declaration step.

Pure functions of the State (no DOM): `VIEW.panel(state)` and
`VIEW.declarations(state)`; the grid itself is drawn by the shared grid view
from `RULESET.grid.bodies(state)`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.commands import Command
from ..engine.model import Combatant
from ..engine.state import State
from ..rules.ose import (RULESET, STEPS, Declare, acting_side, ammo_die, declaration_options, econ_of,
                         is_active, is_detailed, is_out, manip_cost, move_left, ranged_block_reason, rate_ft,
                         shield_bonus, stance, undead_groups)
from .models import Badge, Hint, OrderRow, SystemPanel, SystemView


@dataclass(frozen=True)
class DeclChoice:
    """One declaration a combatant may make before initiative (OSE-DECL-1)."""

    label: str
    command: Command
    allowed: bool
    why: str = ""
    selected: bool = False


@dataclass(frozen=True)
class DeclRow:
    """A combatant's line in the one-panel declaration step: spell dropdown, Full Defense, Brace."""

    id: str
    name: str
    side: str
    spells: tuple[DeclChoice, ...]  # one per prepared spell (the dropdown)
    spell_allowed: bool  # whether any spell may be declared now
    spell_why: str  # why not (slots, surprise, grapple...)
    full_defense: DeclChoice
    brace: DeclChoice
    clear: DeclChoice  # declare nothing
    declared: str  # what is declared now: a spell name, "Full Defense", "Brace" or ""


STANCE_TEXT = {
    "one-hand": ("one-hand: a hand free for manipulation", "OSE-STANCE-1"),
    "two-handed": ("two-handed: +1 damage, -1 AC", "OSE-STANCE-2"),
    "reach": ("reach: threatens 10 ft, fights from the second rank, -1 AC", "OSE-STANCE-3"),
    "two weapons": ("two weapons: one attack roll at +1", "OSE-STANCE-4"),
    "weapon and shield": ("weapon and shield: shield AC, Shields Shall Be Splintered", "OSE-STANCE-5"),
}


def _step(state: State) -> str:
    """The detailed step now ("move"...), "" when declaring or in the loose profile (OSE-ORDER-1)."""
    phase = RULESET.phase(state)
    return phase.value if phase.step_name else ""


class OseView(SystemView):
    """The OSE panels (both profiles)."""

    def panel(self, state: State) -> SystemPanel:
        s = state.board
        current = set(RULESET.current(state))
        rows: list[OrderRow] = []
        side_order = list(s.order) if s.phase == "act" and s.order else []
        side_order += [x.id for x in state.encounter.sides if x.id not in side_order]
        acting = acting_side(state)
        badges: dict[str, tuple[Badge, ...]] = {}
        hints: dict[str, tuple[Hint, ...]] = {}
        for sid in side_order:
            side = state.encounter.side(sid)
            rows.append(OrderRow("side", sid, side.name, detail=self._side_detail(state, sid), side=sid,
                                 is_current=sid == acting))
            for c in state.on_side(sid):
                b = self.badges(state, c)
                badges[c.id] = b
                hints[c.id] = self.hints(state, c)
                rows.append(OrderRow("combatant", c.id, c.name, detail=self._detail(state, c), side=sid,
                                     is_current=c.id in current, is_down=c.is_down, hp=c.hp, max_hp=c.max_hp,
                                     badges=b))
        return SystemPanel(status=self.status(state), order=tuple(rows), hints=hints, badges=badges,
                           phase=self._phase(state),
                           extra={"step": _step(state), "steps": STEPS if is_detailed(state) else (),
                                  "profile": s.profile, "surprised": sorted(s.surprised)})

    # --- header ------------------------------------------------------------------------------
    def status(self, state: State) -> str:
        s = state.board
        head = f"Round {state.round}"
        if state.outcome:
            return f"{head} · {state.outcome}"
        if s.phase == "declare":
            tail = ""
            if state.round == 1 and s.surprised:
                tail = " · surprised: " + ", ".join(state.encounter.side(x).name for x in sorted(s.surprised))
            return f"{head} · Declare pre-initiative actions{tail}"
        side = state.encounter.side(acting_side(state))
        text = f"{head} · {side.name if side else '?'} acts"
        if is_detailed(state):
            text += f" · {RULESET.phase(state).step_name} step"
        if state.prompt is not None:
            text += f" · waiting for {state.name(state.prompt.actor)}"
        return text

    def _phase(self, state: State) -> str:
        if state.outcome:
            return "over"
        if state.prompt is not None:
            return "prompt"
        return state.board.phase

    def _side_detail(self, state: State, sid: str) -> str:
        s = state.board
        if state.round == 1 and s.surprised and s.phase == "act" and not s.initiative:
            return "surprised" if sid in s.surprised else "surprise"
        rolls = s.initiative.get(sid)
        if s.phase != "act" or not rolls:
            return ""
        text = f"d12: {rolls[0]}"
        if len(rolls) > 1:
            text += " (tie; re-roll " + ", ".join(str(r) for r in rolls[1:]) + ")"
        return text

    def _detail(self, state: State, c: Combatant) -> str:
        held = [h for h in dict.fromkeys(c.hands) if h]
        return " + ".join(held)

    # --- badges ------------------------------------------------------------------------------
    def badges(self, state: State, c: Combatant) -> tuple[Badge, ...]:
        s = state.board
        out: list[Badge] = []
        if c.id in s.casting:
            out.append(Badge("✦", f"casting {s.casting[c.id]}", "A hit before it completes breaks the spell "
                             "(OSE-SPELL-3)", "OSE-SPELL-3", "warn"))
        elif s.phase == "declare" and c.id in s.declared:
            action, spell = s.declared[c.id]
            word = {"spell": f"will cast {spell}", "full_defense": "will take full defense",
                    "brace": "will brace"}[action]
            out.append(Badge("✎", word, "Declared before initiative; locked once initiative is rolled (OSE-DECL-1)",
                             "OSE-DECL-1"))
        if c.id in s.concentrating:
            out.append(Badge("✦", f"concentrating on {s.concentrating[c.id]}", "Damage or violent motion ends it "
                             "(OSE-SPELL-3)", "OSE-SPELL-3", "warn"))
        if c.id in s.full_defense:
            out.append(Badge("◈", "full defense", "Attacks against it have disadvantage until just before it "
                             "acts again (OSE-FD-1)", "OSE-FD-1", "ok", left="until it acts again"))
        if c.id in s.bracing:
            out.append(Badge("▣", "braced", "A free double-damage attack on an enemy charging into its reach; a "
                             "hit stops the charge (OSE-BRACE-1)", "OSE-BRACE-1", "ok"))
        if c.id in s.withdrawing:
            out.append(Badge("↩", "withdrawing", "+2 AC against attacks of opportunity this round (OSE-WD-1)",
                             "OSE-WD-1"))
        for cond, icon, title, rule, tone in (
                ("pinned", "⚯", "No actions, no movement; melee hits deal maximum damage (OSE-COND-1)", "OSE-COND-1",
                 "danger"),
                ("helpless", "⚯", "No actions, no movement; melee hits deal maximum damage (OSE-COND-1)",
                 "OSE-COND-1", "danger"),
                ("grappled", "✜", "Only Small weapons, no spells (OSE-COND-1)", "OSE-COND-1", "warn"),
                ("turned", "☀", "Must move as far from the Warpriest as it can; attacking it breaks the turning "
                                "(OSE-TURN-3)", "OSE-TURN-3", "warn"),
                ("destroyed", "✝", "Destroyed by Turn Undead (OSE-TURN-2)", "OSE-TURN-2", "danger"),
                ("fled", "➜", "Left the map; the referee controls it (OSE-FLEE-1)", "OSE-FLEE-1", "info"),
                ("surrendered", "⚐", "Surrendered after a failed morale check (OSE-MORALE-1)", "OSE-MORALE-1",
                 "info")):
            if c.has_condition(cond) and not (cond == "grappled" and c.has_condition("pinned")):
                left = ""
                if cond == "turned" and c.id in s.turned:  # 1d4 minutes, rolled secretly (OSE-TURN-3)
                    left = f"{RULESET.clock.words(max(1, s.turned[c.id][1] - state.round + 1))} left"
                out.append(Badge(icon, cond, title, rule, tone, left=left, left_secret=bool(left)))
        if is_detailed(state) and c.id in s.done and s.phase == "act":
            out.append(Badge("✓", f"done with {RULESET.phase(state).step_name}", "", "OSE-ORDER-1", "ok"))
        return tuple(out)

    # --- hints -------------------------------------------------------------------------------
    def hints(self, state: State, c: Combatant) -> tuple[Hint, ...]:
        if is_out(c):
            return ()
        s = state.board
        out: list[Hint] = []
        st = stance(c)
        if st in STANCE_TEXT:
            text, rule = STANCE_TEXT[st]
            if st == "weapon and shield":
                text = f"weapon and shield: +{shield_bonus(state, c)} AC, Shields Shall Be Splintered"
            out.append(Hint(f"Stance: {text}", rule))
        if s.phase == "act" and c.side == acting_side(state):
            if is_detailed(state):
                e = econ_of(state, c.id)
                out.append(Hint(f"Movement left: {move_left(state, c)} ft (rate {rate_ft(state, c)} ft)",
                                "OSE-MOVE-1"))
                acts = "full round used" if e.full else (
                    f"Main: {e.main or 'free'} · Move: {e.move or 'free'}")
                out.append(Hint(f"Actions: {acts}", "OSE-ECON-1"))
                nxt = manip_cost(state, c, "other", "")
                nxt_text = nxt if isinstance(nxt, str) else "none left"
                nxt_text = {"free": "free", "move": "uses the Move", "main": "uses the Main"}.get(nxt_text, nxt_text)
                out.append(Hint(f"Manipulations used: {e.manips} (next: {nxt_text})", "OSE-MANIP-1"))
            elif is_active(state, c):
                out.append(Hint("To act: attack, cast the declared spell, or narrate another action",
                                "OSE-LOOSE-1"))
        reason = ranged_block_reason(state, c)
        if reason:
            out.append(Hint(reason, "OSE-RANGED-1", "warn"))
        if c.id in s.casting:
            when = "in the MAGIC step" if is_detailed(state) else "during its side's turn"
            out.append(Hint(f"Casting {s.casting[c.id]}: complete it {when}, or cancel (out of memory either way, OSE-SPELL-5)",
                            "OSE-SPELL-2", "warn"))
        if c.id in s.turned:
            out.append(Hint(f"Turned by {state.name(s.turned[c.id][0])}: must move away", "OSE-TURN-3", "warn"))
        if c.stat("warpriest", False):
            for g in undead_groups(state, c):
                if (c.id, g) in s.turn_locks:
                    out.append(Hint(f"Cannot turn {g} again for 24 hours", "OSE-TURN-4", "warn"))
        die = ammo_die(state, c, "ammo")
        if die:
            out.append(Hint(f"Ammunition: {'used up' if die == 'out' else die + ' usage die'}", "OSE-RES-1",
                            "warn" if die == "out" else "info"))
        return tuple(out)

    def recap(self, first: State, last: State, events: tuple):
        """XP of the defeated foes and the ammunition used (OSE-RES-1): views/ose_recap.py."""
        from .ose_recap import ose_recap
        return ose_recap(first, last, events)

    # --- the declaration step ----------------------------------------------------------------
    def spoken_declarations(self, state: State) -> dict[str, tuple[str, str]]:
        """OSE-DECL-1: declarations are spoken aloud at the table, so the table shows them."""
        return dict(state.board.declared)

    def declarations(self, state: State) -> list[DeclRow]:
        """Every combatant that can act, with its declaration choices and whether each is allowed."""
        out = []
        if state.board.phase != "declare":
            return out
        for c in state.combatants:
            if is_out(c) or "pinned" in c.conditions or "helpless" in c.conditions:
                continue
            opts = declaration_options(state, c)
            cur = state.board.declared.get(c.id)
            spells, fd, brace = [], None, None
            no_spell_why = "No spells prepared"
            for o in opts:
                cmd = o.command
                if not isinstance(cmd, Declare):
                    continue
                choice = DeclChoice(o.label.replace(" ✓", ""), cmd, o.allowed, o.why,
                                    selected=cur == (cmd.action, cmd.spell) or (cur is not None and cmd.action !=
                                                                                "spell" and cur[0] == cmd.action))
                if cmd.action == "spell" and cmd.spell:
                    spells.append(choice)
                elif cmd.action == "spell":
                    no_spell_why = choice.why  # nothing prepared: only the refusal's reason matters
                elif cmd.action == "full_defense":
                    fd = choice
                elif cmd.action == "brace":
                    brace = choice
            clear = DeclChoice("Nothing", Declare(c.id, "none"), True, selected=cur is None)
            allowed = [x for x in spells if x.allowed]
            why = "" if allowed else (spells[0].why if spells else no_spell_why)
            declared = ""
            if cur:
                declared = cur[1] if cur[0] == "spell" else {"full_defense": "Full Defense", "brace": "Brace"}[cur[0]]
            out.append(DeclRow(c.id, c.name, c.side, tuple(spells), bool(allowed), why, fd, brace, clear, declared))
        return out


VIEW = OseView()
