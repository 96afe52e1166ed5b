"""What each system promises at every step of any fight, for the one
conformance test (tests/unit/test_conformance.py) that plays every
registered system through fray.playout.

An `Invariants` object watches one fight: `step(session, before, cmd, step)`
after each step, `end(session)` when it is over; `interject` lets the
referee step in now and then, as at a real table (CORE-REF-1). A system
with no entry here is still played and held to playout's own invariants
(every offered option applies, HP never above max, undo/redo and a save
restore the very state).
"""
from __future__ import annotations

from dataclasses import replace

from fray.engine.dice import SeededDice
from fray.engine.referee import Allow, Damage, Heal
from fray.engine.session import Session
from fray.engine.state import State


class Invariants:
    def step(self, session: Session, before: State, cmd, step) -> None:
        for c in session.state.combatants:
            assert c.hp <= c.max_hp, f"{c.name} has {c.hp}/{c.max_hp} HP (CORE-HP-1)"
        assert session.state.rolls >= before.rolls

    def end(self, session: Session) -> None:
        pass

    def interject(self, session: Session, rng):
        return None


class OlogInvariants(Invariants):
    """OLOG-ACT-1, OLOG-ATK-1, OLOG-INIT-3, OLOG-STRAT-1, OLOG-PRES-1: down combatants never
    act, a turn stays only with actions, split attacks or (OLOG-ACT-3) a free action left, counts change only by
    Strategise at a round's start or by the referee; every allowed option resolves."""

    def __init__(self) -> None:
        self.steps = 0

    def step(self, session, before, cmd, step):
        super().step(session, before, cmd, step)
        from fray.rules.olog import ACTIONS, RULESET, SetCount
        from fray.rules.olog.pressure import pressure_map, pressure_on
        from fray.views.olog import VIEW, bands
        after, s0, s1 = session.state, before.board, session.state.board
        events = step.events
        if isinstance(cmd, ACTIONS):
            actor = before.get(cmd.actor)
            assert not actor.is_down, f"down {actor.name} acted"
            assert s0.actor == cmd.actor, f"{actor.name} acted out of turn"
            if s1.actor == cmd.actor and s1.turn == s0.turn:
                # OLOG-ACT-3: a spent turn stays open only for a free action
                free = bool(after.get(cmd.actor).inventory) and not s1.ending
                assert s1.actions_left > 0 or s1.attacks_left > 0 or free, f"{actor.name} kept a spent turn"
        if s1.counts != s0.counts and s0.phase == "fight" and not isinstance(cmd, SetCount):
            assert after.round > before.round, "counts changed mid-round"
            now = [(e.actor, e.data["delta"]) for e in events if e.kind == "Strategised"]
            expected = {k: v + s0.delta(k) + sum(d for a, d in now if a == k) for k, v in s0.counts}
            assert dict(s1.counts) == expected, "counts changed by something other than Strategise"
        if not any(e.kind == "Strategised" for e in events):
            for k, v in s1.pending:
                assert (k, v) in s0.pending, "a pending count change appeared without Strategise"
        if s1.actor:
            assert not after.get(s1.actor).is_down, "a down combatant holds the turn"
        self.steps += 1
        if self.steps % 5 == 0:  # every allowed option resolves, with any answer to its question
            for a in session.current():
                for o in session.options(a):
                    if not o.allowed:
                        continue
                    for choice in o.choices or (None,):
                        c = replace(o.command, **choice.values) if choice else o.command
                        if "spell" in o.needs:
                            c = replace(c, spell="Light")
                        assert session.check(c) is None, f"offered {o.label} but refused: {session.check(c)}"
                        RULESET.resolve(after, c, SeededDice(after.encounter.seed, after.rolls))
        if self.steps % 23 == 0:
            bands(after, after.combatants[self.steps % len(after.combatants)].id)
            VIEW.panel(after)
            assert pressure_map(after) == {c.id: pressure_on(after, c.id) for c in after.combatants}

    def interject(self, session, rng):
        """Now and then the referee sets a count, reorders, deals or heals damage, or allows a refused option."""
        if not rng.chance(0.05):
            return None
        from fray.rules.olog import SetCount
        from fray.views.olog import VIEW
        state = session.state
        standing = [c for c in state.combatants if not c.is_down]
        c = rng.pick(standing)
        roll = rng.below(100)
        if roll < 25:
            return SetCount(c.id, rng.below(26))
        if roll < 45:
            ids = [r.id for r in VIEW.panel(state).order if r.draggable]
            return VIEW.reorder(state, ids[-1], ids[0]) if len(ids) >= 2 else None
        if roll < 60:
            return Damage(c.id, 1 + rng.below(4))
        if roll < 75:
            return Heal(rng.pick(state.combatants).id, 1 + rng.below(4))
        refused = [o for a in session.current() for o in session.options(a) if not o.allowed and not o.needs]
        if not refused:
            return None
        o = rng.pick(refused)
        return Allow(replace(o.command, **rng.pick(o.choices).values) if o.choices else o.command)


class OseInvariants(Invariants):
    """OSE-MOVE-1 (one standing combatant a square), OSE-FLEE-1 (fled leave the map),
    OSE-SPELL-3 (damage before completion loses the spell), OSE-AOO-3 (the down
    threaten nothing), a pending question belongs to whoever must answer it."""

    def step(self, session, before, cmd, step):
        super().step(session, before, cmd, step)
        from fray.rules.ose import RULESET
        after = session.state
        seen = set()
        # A move paused on a question (OSE-AOO-4) may be passing through an ally's square.
        passing = after.board.pending_move.actor if after.board.pending_move is not None else None
        for c in after.combatants:
            assert "slots" not in c.stats  # OSE-SPELL-5: memory is the spells list itself
            if c.has_condition("fled"):
                assert c.square is None
            if c.square is not None and not c.is_down and not c.has_condition("fled") and c.id != passing:
                assert c.square not in seen, f"two standing combatants on {c.square}"
                seen.add(c.square)
        s = after.board
        for cid, spell in s.casting.items():
            c = after.get(cid)
            setup = next(x for x in after.encounter.combatants if x.id == cid)
            # OSE-SPELL-5: the spell left memory when casting began; the caster was set up with it.
            assert not c.is_down and s.phase == "act" and spell in tuple(setup.stat("spells", ()))
        for b in RULESET.grid.bodies(after):
            if b.is_down:
                assert not b.threatens
        for e in step.events:
            if e.kind == "DamageTaken" and e.target in before.board.casting:
                assert any(x.kind == "SpellLost" and x.target == e.target for x in step.events)
                assert e.target not in after.board.casting
        if after.prompt is not None:
            assert RULESET.current(after) == (after.prompt.actor,)
        # Options for someone not acting must not fail either.
        RULESET.options(after, after.combatants[len(session.steps) % len(after.combatants)].id)


class OgreInvariants(Invariants):
    """OGRE-SEG-1 (the count never goes back), OGRE-ACT-1 (each declared action ends once:
    resolved or broken, or is still pending), OGRE-FF-1/OGRE-AOO-1 (no flat-footed AoO)."""

    def __init__(self) -> None:
        self.declared: set[int] = set()
        self.ended: dict[int, int] = {}

    def step(self, session, before, cmd, step):
        super().step(session, before, cmd, step)
        from fray.rules.ogre.state import is_flat_footed
        after = session.state
        assert after.board.segment >= before.board.segment, "the count went backwards"
        for e in step.events:
            if e.kind == "ActionDeclared":
                self.declared.add(e.data["uid"])
            elif e.kind in ("ActionResolved", "ActionBroken"):
                uid = e.data["uid"]
                assert uid in self.declared, f"action {uid} ended without being declared"
                self.ended[uid] = self.ended.get(uid, 0) + 1
                assert self.ended[uid] == 1, f"action {uid} ended twice"
            elif e.kind == "OpportunityTaken":
                assert not is_flat_footed(before.board, e.actor), f"flat-footed {e.actor} took an AoO"

    def end(self, session):
        # undo/redo inside playout re-plays steps: count what the final history holds
        declared = {e.data["uid"] for st in session.steps for e in st.events if e.kind == "ActionDeclared"}
        ended = [e.data["uid"] for st in session.steps for e in st.events
                 if e.kind in ("ActionResolved", "ActionBroken")]
        assert len(ended) == len(set(ended)), "an action ended twice"
        pending = {f.action.uid for f in session.state.board.fighters if f.action is not None}
        assert declared == set(ended) | pending, "an action neither resolved, broke nor is still pending"
        assert not (set(ended) & pending)


INVARIANTS = {"olog": OlogInvariants, "ose": OseInvariants, "ogre": OgreInvariants}


def invariants_for(system: str) -> Invariants:
    return INVARIANTS.get(system, Invariants)()
