"""The OSE page views in CPython: the declarations panel's HTML and clicks (OSE-DECL-1, OSE-SUR-2, OSE-BRACE-1,
OSE-LOOSE-1) and the Turn Undead table editor (OSE-TURN-1)."""
from __future__ import annotations

from dataclasses import replace
from html.parser import HTMLParser

from fray.engine.commands import Option
from fray.engine.referee import Allow, SetHp
from fray.engine.session import Session
from fray.rules.ose import RULESET
from fray.rules.ose import Declare, Done, EndStep, RollInitiative, Surprise
from fray.rules.ose.examples import detailed, loose
from fray.ui.field.declarations import DeclarationsView, parse_arg
from fray.ui.field.field_views import FieldAction, FieldContext, views_for
from fray.views.ose import VIEW
from acting import act
from ose_kit import SPEAR, fighter, session, start

DECL = DeclarationsView()


class Tree(HTMLParser):
    """Every element with its attributes and the text inside it, by data-testid."""

    def __init__(self, markup: str):
        super().__init__()
        self.by_id: dict[str, dict] = {}
        self.stack: list[dict] = []
        self.all: list[dict] = []
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        el = {"tag": tag, "attrs": dict(attrs), "text": ""}
        self.all.append(el)
        if "data-testid" in el["attrs"]:
            self.by_id[el["attrs"]["data-testid"]] = el
        if tag not in ("input", "br", "img", "hr", "meta", "link"):
            self.stack.append(el)

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        for el in self.stack:
            el["text"] += data

    def __getitem__(self, testid: str) -> dict:
        return self.by_id[testid]

    def has(self, testid: str) -> bool:
        return testid in self.by_id


def ctx_of(s: Session, selected: str | None = None) -> FieldContext:
    state = s.state
    current = RULESET.current(state)
    sel = selected or (current[0] if current else None)
    return FieldContext(state=state, ruleset=RULESET, panel=VIEW.panel(state), selected=sel, current=current,
                        options=RULESET.options(state, sel) if sel else [])


def render(s: Session, selected: str | None = None) -> Tree:
    return Tree(DECL.render(ctx_of(s, selected)))


def click(s: Session, action: str, arg: str, selected: str | None = None) -> FieldAction | None:
    return DECL.act(ctx_of(s, selected), action, arg)


def mage(cid="mira", side="a", square=None, spells=("Sleep", "Light"), **kw):
    return fighter(cid, side, square, hp=4, spells=spells, **kw)


def test_ose_shows_the_declarations_panel_above_its_field_in_both_profiles__OSE_DECL_1():
    for profile, field in (("detailed", "grid"), ("loose", "list")):
        views = views_for(RULESET, profile)
        assert [v.name for v in views] == [field, "declarations"]
        assert views[1].slot == "phase-slot"


def test_one_row_per_combatant_grouped_by_side_with_its_three_choices__OSE_DECL_1():
    s = Session(detailed(), RULESET)
    t = render(s)
    assert t["declarations"]["attrs"]["aria-label"] == "Declarations"
    rows = [el for el in t.all if "decl-row" in el["attrs"].get("class", "").split()]
    assert [r["attrs"]["data-testid"] for r in rows] == [f"decl-{c.id}" for c in s.state.combatants]
    party = t["decl-side-party"]["text"]
    assert "Brak" in party and "Mira" in party and "Orc spearman" not in party
    for c in s.state.combatants:
        assert t.has(f"decl-{c.id}-none") and t.has(f"decl-{c.id}-fd") and t.has(f"decl-{c.id}-brace")
    assert [t[f"decl-mira-spell-{i}"]["text"].strip() for i in range(2)] == ["✦Sleep (asleep for 10 min)",
                                                                             "✦Magic Missile (1d6+1 each)"]
    # Nothing is declared yet: every row has "Nothing" pressed.
    assert all(t[f"decl-{c.id}-none"]["attrs"]["aria-pressed"] == "true" for c in s.state.combatants)
    assert t["decl-count"]["text"] == "0 of 6 declared"


def test_refused_choices_are_greyed_with_the_engines_reason_and_an_override__OSE_BRACE_1__OSE_DECL_1():
    s = Session(detailed(), RULESET)
    t = render(s)
    brace = t["decl-brak-brace"]["attrs"]
    assert "disabled" in brace and brace["title"] == "Brak holds no weapon with the Brace quality (OSE-BRACE-1)"
    # Five of six share the reason word for word: it is said once above the sides (issue 38), with an
    # "Allow" per combatant named, and no row repeats it.
    common = t["decl-common-brace"]["text"]
    assert common.count("Brace: holds no weapon with the Brace quality (OSE-BRACE-1)") == 1
    assert "Brace:" not in t["decl-brak"]["text"]
    allow = next(el for el in t.all if el["attrs"].get("data-action") == "decl-allow:brace:0:brak")
    assert allow["text"] == "Brak" and allow["attrs"]["aria-label"] == "Allow Brace for Brak anyway"
    # The spearman's spear has the Brace quality: allowed, no reason under his row.
    assert "disabled" not in t["decl-o1-brace"]["attrs"] and "Brace:" not in t["decl-o1"]["text"]
    # Nobody without prepared spells gets a live spell button; the button itself says why.
    spell = t["decl-brak-spell"]
    assert "disabled" in spell["attrs"] and spell["text"].strip() == "✦No spells"
    assert "''" not in t["decl-brak"]["text"]  # not the engine's "no spell '' prepared"


def test_a_spell_cast_leaves_memory_and_the_next_declaration_offers_only_the_rest__OSE_SPELL_5():
    s = session(mage(spells=("Sleep", "Light")), fighter("gob", "b"), profile="loose")
    assert [render(s)[f"decl-mira-spell-{i}"]["text"].strip() for i in range(2)] == ["✦Sleep", "✦Light"]
    act(s, Declare("mira", "spell", "Sleep"))
    act(s, RollInitiative(), 9, 2)
    act(s, Done("mira"))  # Sleep lapses: it was spent from memory when casting began
    act(s, EndStep("gob"))
    assert s.state.round == 2
    t = render(s)
    assert t["decl-mira-spell-0"]["text"].strip() == "✦Light" and not t.has("decl-mira-spell-1")
    ill = s.check(Declare("mira", "spell", "Sleep"))
    assert ill.reason == "NOT_MEMORISED" and "OSE-SPELL-5" in ill.detail


def test_a_caster_with_nothing_left_in_memory_sees_why__OSE_SPELL_5():
    s = session(mage(spells=("Sleep",)), fighter("gob", "b"), profile="loose")
    act(s, Declare("mira", "spell", "Sleep"))
    act(s, RollInitiative(), 9, 2)
    act(s, Done("mira"))
    act(s, EndStep("gob"))
    t = render(s)
    assert not t.has("decl-mira-spell-0") and "nothing to declare" in t["decl-now-mira"]["text"]
    assert s.check(Declare("mira", "spell", "Sleep")).reason == "NOT_MEMORISED"


def test_a_surprised_side_cannot_declare_spells_and_the_row_says_so__OSE_SUR_2():
    s = session(mage(), fighter("gob", "b"))
    t = render(s)
    toggle = t["decl-surprise-a"]
    assert toggle["attrs"]["aria-pressed"] == "false" and "OSE-SUR-1" in toggle["attrs"]["title"]
    res = click(s, "decl-opt", toggle["attrs"]["data-action"].split(":")[1])
    assert res == FieldAction(choose=next(i for i, o in enumerate(ctx_of(s).options)
                                          if o.command == Surprise("a", True)))
    act(s, Surprise("a"))
    t = render(s)
    assert t["decl-surprise-a"]["attrs"]["aria-pressed"] == "true"
    assert "disabled" in t["decl-mira-spell-0"]["attrs"]
    assert "Spell: Mira's side is surprised: no spells this round (OSE-SUR-2)" in t["decl-mira"]["text"]
    res = click(s, "decl", "spell:0:mira")
    assert res.command is None and "OSE-SUR-2" in res.message


def test_one_tap_declares_and_the_row_shows_it__OSE_DECL_1():
    s = session(mage(), fighter("orc", "b", weapons=(SPEAR,), hands=("Spear", "")))
    res = click(s, "decl", "spell:0:mira")
    assert res == FieldAction(command=Declare("mira", "spell", "Sleep"))
    act(s, res.command)
    act(s, click(s, "decl", "brace:0:orc").command)
    t = render(s)
    assert t["decl-mira-spell-0"]["attrs"]["aria-pressed"] == "true"
    assert t["decl-mira-none"]["attrs"]["aria-pressed"] == "false"
    assert t["decl-mira"]["attrs"]["data-declared"] == "Sleep" and t["decl-now-mira"]["text"] == "✎ Sleep"
    assert t["decl-orc-brace"]["attrs"]["aria-pressed"] == "true"
    assert t["decl-count"]["text"] == "2 of 2 declared"
    # "Nothing" takes it back; undo brings it again (every tap is a logged step).
    act(s, click(s, "decl", "none:0:mira").command)
    assert "mira" not in s.state.board.declared
    s.undo()
    assert s.state.board.declared["mira"] == ("spell", "Sleep")


def test_the_panel_rolls_initiative_through_the_actors_own_option__OSE_INIT_1():
    s = session(mage(), fighter("gob", "b"))
    t = render(s)
    go = t["decl-go"]
    assert go["text"] == "Roll initiative" and "disabled" not in go["attrs"]
    index = int(go["attrs"]["data-action"].split(":")[1])
    opts = ctx_of(s).options
    assert opts[index].command == RollInitiative("mira") and opts[index].key == "next"
    assert click(s, "decl-opt", str(index)) == FieldAction(choose=index)


def test_after_initiative_the_declarations_are_a_read_only_strip__OSE_DECL_1():
    s = session(mage(), fighter("ann"), fighter("orc", "b", weapons=(SPEAR,), hands=("Spear", "")))
    act(s, Declare("mira", "spell", "Sleep"))
    act(s, Declare("ann", "full_defense"))
    start(s, 9, 2)
    markup = DECL.render(ctx_of(s))
    t = Tree(markup)
    assert t["declarations-locked"]["attrs"]["role"] == "note"
    assert t["locked-mira"]["text"].strip() == "✦ Mira: casts Sleep"
    assert t["locked-ann"]["text"].strip() == "Ann: Full Defense"
    assert not t.has("locked-orc") and "<button type=\"button\" class=\"decl-btn" not in markup
    assert click(s, "decl", "spell:0:mira") == FieldAction(
        message="Declarations are locked once initiative is rolled (OSE-DECL-1).", redraw=True)


def test_nothing_declared_means_nothing_drawn_after_initiative_or_at_the_end():
    s = session(fighter("ann"), fighter("gob", "b", hp=1), profile="loose")
    start(s, 9, 2)
    assert DECL.render(ctx_of(s)) == ""
    act(s, SetHp("gob", 0))
    assert s.state.outcome and DECL.render(ctx_of(s)) == ""


def test_loose_profile_says_once_why_full_defense_and_brace_do_not_apply__OSE_LOOSE_1():
    s = Session(loose(), RULESET)
    t = render(s)
    assert t["decl-shared-fd"]["text"] == ("Full Defense is only meaningful in the detailed rules "
                                           "(OSE-DECL-1, OSE-LOOSE-1)")
    assert t.has("decl-shared-brace")
    for c in s.state.combatants:  # no dead button on every row, no repeated reason
        assert not t.has(f"decl-{c.id}-fd") and not t.has(f"decl-{c.id}-brace")
        assert "detailed rules" not in t[f"decl-{c.id}"]["text"]
    assert "disabled" not in t["decl-mira-spell-1"]["attrs"]
    # Who has nothing to declare gets one quiet line, still one row per combatant (fast to fill).
    assert t["decl-brak"]["text"] == "Braknothing to declare (no spells prepared)"
    assert "idle" in t["decl-g1"]["attrs"]["class"] and not t.has("decl-g1-none")
    rows = [el for el in t.all if "decl-row" in el["attrs"].get("class", "").split()]
    assert len(rows) == 6


def test_a_down_combatant_keeps_a_greyed_row_without_choices__OSE_DECL_1():
    s = session(fighter("ann"), fighter("bob"), fighter("gob", "b"))
    act(s, SetHp("bob", 0))
    t = render(s)
    assert t["decl-bob"]["text"] == "Bobdown" and "idle" in t["decl-bob"]["attrs"]["class"]
    assert not t.has("decl-bob-none")


def test_many_spells_become_a_drop_down_whose_change_declares__OSE_DECL_1():
    spells = ("Sleep", "Light", "Charm", "Shield", "Magic Missile")
    s = session(mage(spells=spells), fighter("gob", "b"))
    t = render(s)
    sel = t["decl-mira-spells"]
    assert sel["tag"] == "select" and sel["attrs"]["data-action"] == "decl-pick"
    values = [el["attrs"]["value"] for el in t.all if el["tag"] == "option"]
    assert values == ["", "spell:0:mira", "spell:1:mira", "spell:2:mira", "spell:3:mira", "spell:4:mira"]
    # The app forwards a change of the drop-down as act(ctx, "decl-pick", value).
    assert click(s, "decl-pick", "spell:4:mira").command == Declare("mira", "spell", "Magic Missile")
    assert click(s, "decl-pick", "") == FieldAction(redraw=True)
    act(s, Declare("mira", "spell", "Charm"))
    t = render(s)
    chosen = [el["text"] for el in t.all if el["tag"] == "option" and "selected" in el["attrs"]]
    assert chosen == ["Charm"] and "on" in t["decl-mira-spells"]["attrs"]["class"]


def test_names_and_spells_typed_by_the_referee_are_escaped():
    evil = '<img src=x onerror="alert(1)">'
    s = session(replace(fighter("a1", "a", hp=4, spells=(evil, '"><script>x</script>')), name=evil),
                replace(fighter("b1", "b"), name=evil))
    markup = DECL.render(ctx_of(s))
    assert "<img" not in markup and "<script" not in markup
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in markup
    t = Tree(markup)
    assert t["decl-a1-spell-0"]["text"].strip() == "✦" + evil


def test_ids_with_colons_survive_the_action_argument():
    assert parse_arg("spell:2:odd:id") == ("spell", 2, "odd:id")
    assert parse_arg("bogus:1:x") is None and parse_arg("fd:x:ann") is None
    s = session(fighter("ann"), fighter("gob", "b"))
    assert click(s, "grid-zoom", "in") is None  # another view's action is not ours
    assert isinstance(ctx_of(s).options[0], Option)


# --- the Turn Undead table editor (OSE-TURN-1) -------------------------------------------------

def draft() -> dict:
    from fray.engine import storage
    from fray.rules.ose.examples import undead
    return storage.encounter_to_json(Session(undead(), RULESET).encounter)


def test_the_turn_table_is_a_grid_of_cells_each_an_editor_field__OSE_TURN_1():
    from fray.ui.markup import table_editor
    t = Tree(table_editor.render(draft(), "turn_table", []))
    cells = [el for el in t.all if el["tag"] == "input"]
    assert len(cells) == 8 * 11
    ghoul = t["cell-2*-1"]["attrs"]
    assert ghoul["data-path"] == "settings/turn_table/2*/1" and ghoul["value"] == "9"
    assert ghoul["aria-label"] == "Undead of 2* Hit Dice against a level 2 Warpriest"
    heads = [el["text"] for el in t.all if el["tag"] == "th"]
    assert heads[:3] == ["HD \\ level", "1", "2"] and heads[11] == "11+" and "7-9" in heads
    assert not t.has("table-problems") and "OSE-TURN-1" in t["table-dialog"]["text"]


def test_a_cell_edit_goes_through_the_editor_and_storage_validation__OSE_TURN_1():
    from fray.engine import storage
    from fray.ui.markup import editor
    doc = editor.set_path(draft(), "settings/turn_table/1/0", editor.convert("text", " T "))
    doc = editor.set_path(doc, "settings/turn_table/2*/1", "7")
    problems: list[str] = []
    enc, _ = storage.encounter_from_json(doc, problems)
    assert problems == []
    assert enc.settings["turn_table"]["1"][:2] == ("T", "T") and enc.settings["turn_table"]["2*"][1] == "7"
    assert isinstance(enc.settings["turn_table"]["1"], tuple)  # the default's shape, so saves compare equal


def test_unreadable_or_unrollable_cells_are_flagged_in_the_dialog__OSE_TURN_1():
    from fray.ui.markup import editor, table_editor
    doc = editor.set_path(draft(), "settings/turn_table/3/1", "x")
    doc = editor.set_path(doc, "settings/turn_table/3/2", "13")
    t = Tree(table_editor.render(doc, "turn_table", ["settings.turn_table: expected a table"]))
    text = t["table-problems"]["text"]
    assert 'HD 3, level 2: "x" is not a number, T, D or -: it counts as - (cannot turn)' in text
    assert "HD 3, level 3: 13 cannot be rolled on 2d6" in text and "expected a table" in text
    assert t["cell-3-1"]["attrs"]["aria-invalid"] == "true" and "bad" in t["cell-3-1"]["attrs"]["class"]
    assert table_editor.cell_problem("d") == "" and table_editor.cell_problem("-") == ""


def test_a_draft_without_the_table_gets_the_default_to_edit__OSE_TURN_1():
    from fray.rules.ose import TURN_TABLE
    from fray.ui.markup import table_editor
    doc = draft()
    del doc["settings"]["turn_table"]
    filled = table_editor.with_table(doc, "turn_table")
    assert filled["settings"]["turn_table"]["2*"] == list(TURN_TABLE["2*"]) and "turn_table" not in doc["settings"]
    assert table_editor.render({**doc, "system": "olog"}, "turn_table", []) == ""
    assert table_editor.with_table(filled, "turn_table") is filled


def test_escaped_values_in_cells():
    from fray.ui.markup import editor, table_editor
    doc = editor.set_path(draft(), "settings/turn_table/1/0", '"><b>')
    markup = table_editor.render(doc, "turn_table", ["<i>bad</i>"])
    assert "<b>" not in markup and "<i>" not in markup and "&quot;&gt;&lt;b&gt;" in markup
