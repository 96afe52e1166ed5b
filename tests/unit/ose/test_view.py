"""OSE view models: status line, order rows, badges, hints and the declaration panel."""
from __future__ import annotations

from fray.engine.referee import SetCondition
from fray.rules.ose import (Attack, Declare, EndStep, Flee, Grapple, RollInitiative, Splinter, Surprise,
                           TurnUndead, Withdraw)
from fray.views.models import SystemPanel
from fray.views.ose import VIEW, DeclRow
from acting import act
from ose_kit import BOW, SPEAR, fighter, session, start


def mage(cid="mira", side="a", square=None, **kw):
    return fighter(cid, side, square, hp=4, spells=("Sleep", "Light"), **kw)


def test_status_line_follows_the_round__OSE_SEQ_1__OSE_ORDER_1():
    s = session(fighter("ann", "a", (4, 4)), fighter("hal", "a", (1, 1), weapons=(BOW,), hands=("Bow", "")),
                fighter("gob", "b", (12, 10)))
    p = VIEW.panel(s.state)
    assert isinstance(p, SystemPanel) and p.status == "Round 1 · Declare pre-initiative actions"
    assert p.phase == "declare"
    start(s, 9, 4)
    assert VIEW.panel(s.state).status == "Round 1 · Party acts · MOVE step"
    act(s, EndStep())
    assert VIEW.panel(s.state).status == "Round 1 · Party acts · MISSILE step"


def test_loose_status_has_no_step__OSE_LOOSE_1():
    s = session(fighter("ann", "a"), fighter("gob", "b"), profile="loose")
    start(s, 2, 7)
    assert VIEW.panel(s.state).status == "Round 1 · Goblins acts"


def test_order_groups_combatants_under_their_side_with_the_d12__OSE_INIT_1():
    s = session(fighter("ann", "a"), fighter("bob", "a"), fighter("gob", "b"), profile="loose")
    start(s, 3, 3, 2, 9)
    rows = VIEW.panel(s.state).order
    assert [(r.kind, r.id) for r in rows] == [("side", "b"), ("combatant", "gob"), ("side", "a"),
                                             ("combatant", "ann"), ("combatant", "bob")]
    assert rows[0].detail == "d12: 3 (tie; re-roll 9)" and rows[0].is_current
    assert rows[1].is_current and not rows[3].is_current


def test_surprise_shows_in_the_order_and_status__OSE_SUR_1():
    s = session(fighter("ann", "a"), fighter("gob", "b"), profile="loose")
    act(s, Surprise("a"))
    assert "surprised: Party" in VIEW.panel(s.state).status
    act(s, RollInitiative())
    rows = {r.id: r for r in VIEW.panel(s.state).order}
    assert rows["a"].detail == "surprised" and rows["b"].detail == "surprise"


def test_badges_for_casting_full_defense_and_brace__OSE_SPELL_3__OSE_FD_1__OSE_BRACE_1():
    s = session(mage("mira", "a", (1, 1)), fighter("ann", "a", (1, 3)),
                fighter("orc", "b", (10, 5), weapons=(SPEAR,), hands=("Spear", "")))
    act(s, Declare("mira", "spell", "Sleep"))
    act(s, Declare("ann", "full_defense"))
    act(s, Declare("orc", "brace"))
    words = {k: [b.word for b in v] for k, v in VIEW.panel(s.state).badges.items()}
    assert words["mira"] == ["will cast Sleep"]
    start(s, 9, 2)
    badges = VIEW.panel(s.state).badges
    cast = badges["mira"][0]
    assert (cast.icon, cast.word) == ("✦", "casting Sleep")
    assert cast.title == "A hit before it completes breaks the spell (OSE-SPELL-3)"
    assert [(b.icon, b.word) for b in badges["ann"]] == [("◈", "full defense")]
    assert [(b.icon, b.word) for b in badges["orc"]] == [("▣", "braced")]


def words(s, cid):
    return [b.word for b in VIEW.panel(s.state).badges[cid]]


def test_badges_for_withdrawing_and_fled__OSE_WD_1__OSE_FLEE_1():
    s = session(fighter("ann", "a", (5, 5)), fighter("bob", "a", (1, 1)), fighter("gob", "b", (6, 5)))
    start(s, 9, 2)
    act(s, Withdraw("ann", ((5, 5), (4, 5))))
    assert words(s, "ann") == ["withdrawing"]
    act(s, Flee("bob"))
    assert words(s, "bob") == ["fled"]


def test_badges_for_grappled_pinned_and_turned__OSE_COND_1__OSE_TURN_3():
    s = session(fighter("ann", "a"), fighter("gob", "b"), fighter("bones", "b", undead=True, hd=1),
                fighter("pat", "a", hands=("Sword", "Holy symbol"), warpriest=True, level=3), profile="loose")
    start(s, 2, 9)
    act(s, Grapple("gob", "ann"), 15, 2)
    assert words(s, "ann") == ["grappled"]
    act(s, SetCondition("ann", "pinned"))
    assert words(s, "ann") == ["pinned"]
    act(s, EndStep())
    act(s, TurnUndead("pat", "b"), 6, 6, 1, 1, 2)
    badge = VIEW.panel(s.state).badges["bones"][0]
    assert (badge.icon, badge.word, badge.rule) == ("☀", "turned", "OSE-TURN-3")


def test_hints_show_movement_manipulations_and_why_no_shot__OSE_RANGED_1__OSE_MANIP_1__OSE_MOVE_1():
    s = session(fighter("hal", "a", (4, 4), weapons=(BOW,), hands=("Bow", ""), ammo_die="d8"),
                fighter("gob", "b", (5, 5)))
    start(s, 9, 2)
    hints = [h.text for h in VIEW.panel(s.state).hints["hal"]]
    assert "Movement left: 80 ft (rate 40 ft)" in hints
    assert "Manipulations used: 0 (next: free)" in hints
    assert "Ranged attacks impossible: Gob within 5 ft (OSE-RANGED-1)" in hints
    assert "Ammunition: d8 usage die" in hints


def test_declaration_panel_lists_every_choice_with_its_allowance__OSE_DECL_1():
    s = session(mage("mira", "a", (1, 1)), fighter("ann", "a", (1, 3)),
                fighter("orc", "b", (10, 5), weapons=(SPEAR,), hands=("Spear", "")))
    act(s, Declare("mira", "spell", "Light"))
    rows = {r.id: r for r in VIEW.declarations(s.state)}
    assert all(isinstance(r, DeclRow) for r in rows.values())
    m = rows["mira"]
    assert [x.label for x in m.spells] == ["Cast Sleep", "Cast Light"] and m.spell_allowed
    assert [x.selected for x in m.spells] == [False, True] and m.declared == "Light"
    assert m.full_defense.allowed and not m.brace.allowed and "OSE-BRACE-1" in m.brace.why
    assert not rows["ann"].spell_allowed and rows["orc"].brace.allowed
    assert rows["ann"].clear.selected and rows["ann"].clear.command == Declare("ann", "none")
    start(s, 9, 2)
    assert VIEW.declarations(s.state) == []


def test_declaration_panel_says_why_a_surprised_side_cannot_cast__OSE_SUR_2():
    s = session(mage("mira", "a"), fighter("gob", "b"), profile="loose")
    act(s, Surprise("a"))
    row = next(r for r in VIEW.declarations(s.state) if r.id == "mira")
    assert not row.spell_allowed and "OSE-SUR-2" in row.spell_why
    assert not row.full_defense.allowed and "detailed" in row.full_defense.why


def test_panel_marks_the_prompt_and_the_end__OSE_SSBS_1():
    s = session(fighter("ann", "a"), fighter("gob", "b", hp=1, hands=("Sword", "Shield")), profile="loose")
    start(s, 9, 2)
    act(s, Attack("ann", "gob", "Sword"), 18)
    p = VIEW.panel(s.state)
    assert p.phase == "prompt" and p.status.endswith("waiting for Gob")
    act(s, Splinter("gob", False), 3)
    p = VIEW.panel(s.state)
    assert p.phase == "over" and p.status == "Round 1 · Victory: Party"


# --- the hooks generic code asks (phase, grid.rule_ids) -----------------------------------------

def test_phase_says_where_the_round_is__OSE_SEQ_1_OSE_ORDER_1():
    from fray.rules.ose import RULESET, Phase
    s = session(fighter("ann", "a", (0, 0)), fighter("gob", "b", (9, 9)))
    assert RULESET.phase(s.state) is Phase.DECLARE and not Phase.DECLARE.is_acting
    start(s, 9, 2)
    assert RULESET.phase(s.state) is Phase.MOVE and RULESET.phase(s.state).step_name == "MOVE"
    act(s, EndStep())
    assert RULESET.phase(s.state).is_acting and RULESET.phase(s.state).value in ("missile", "magic", "melee", "move")


def test_grid_rules_name_the_rules_the_grid_cites__OSE_AOO_1():
    from fray.rules.ose import RULESET
    rules = RULESET.grid.rule_ids
    assert (rules["aoo"], rules["threat"], rules["withdraw"]) == ("OSE-AOO-1", "OSE-AOO-3", "OSE-WD-1")
    assert rules["brace"] == "OSE-BRACE-1" and rules["ranged"] == "OSE-RANGED-1"
