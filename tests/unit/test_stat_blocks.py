"""Pasted stat blocks: every OSE field on real blocks, the OLOG and Ogre compact forms, and the bad inputs."""
from __future__ import annotations

import json

import pytest

import fray.rules  # noqa: F401  (installs the systems the loader looks up)
from fray import roster, stat_blocks
from fray.engine import storage
from fray.engine.stat_block import PasteError

# The standard OSE / B/X form, as the books print it (name, count, then the fields).
OSE = {
    "Goblin (3): AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), THAC0 19 [0], MV 60' (20'), "
    "SV D14 W15 P16 B17 S18 (NH), ML 7 (9), AL Chaotic, XP 5, NA 2d4 (6d10), TT R (C)":
        dict(name="Goblin", count=3, ac=13, hd=1, hp=3, weapons=[("Weapon", "1d6", 1)], to_hit=0, speed=60,
             saves="D14 W15 P16 B17 S18 (NH)", morale=7, alignment="Chaotic", xp=5, treasure="R (C)"),
    "Orc\nAC 6 [13], HD 1 (4hp), Att 1 × weapon (1d6), THAC0 19 [0], MV 120' (40'), SV D12 W13 P14 B15 S16 (1), "
    "ML 8 (6), AL Chaotic, XP 10, NA 2d4 (1d6 × 10), TT (D)":
        dict(name="Orc", count=1, ac=13, hd=1, hp=4, weapons=[("Weapon", "1d6", 1)], to_hit=0, speed=120,
             saves="D12 W13 P14 B15 S16 (1)", morale=8, alignment="Chaotic", xp=10, treasure="(D)"),
    "SKELETON\nAC 7 [12]\nHD 1 (4hp)\nAtt 1 × weapon (1d6 or by weapon)\nTHAC0 19 [0]\nMV 60' (20')\n"
    "SV D12 W13 P14 B15 S16 (1)\nML 12\nAL Chaotic\nXP 10\nNA 3d4 (3d10)\nTT None":
        dict(name="Skeleton", count=1, ac=12, hd=1, hp=4, weapons=[("Weapon (or by weapon)", "1d6", 1)], to_hit=0,
             speed=60, saves="D12 W13 P14 B15 S16 (1)", morale=12, alignment="Chaotic", xp=10, treasure="None"),
    "Ghoul (2): AC 6 [13], HD 2* (9hp), Att 2 × claw (1d3 + paralysis), 1 × bite (1d3 + paralysis), "
    "THAC0 18 [+1], MV 90' (30'), SV D12 W13 P14 B15 S16 (2), ML 9, AL Chaotic, XP 25, NA 1d6 (2d8), TT B":
        dict(name="Ghoul", count=2, ac=13, hd=2, hp=9, weapons=[("Claw (paralysis)", "1d3", 2),
                                                                 ("Bite (paralysis)", "1d3", 1)],
             to_hit=1, speed=90, saves="D12 W13 P14 B15 S16 (2)", morale=9, alignment="Chaotic", xp=25, treasure="B"),
    "Ogre: AC 5 [14], HD 4+1 (19hp), Att 1 × weapon (1d10), THAC0 15 [+4], MV 90' (30'), "
    "SV D10 W11 P12 B13 S14 (4), ML 10, AL Chaotic, XP 125, NA 1d6 (2d6), TT C + 1000gp":
        dict(name="Ogre", count=1, ac=14, hd=4, hp=19, weapons=[("Weapon", "1d10", 1)], to_hit=4, speed=90,
             saves="D10 W11 P12 B13 S14 (4)", morale=10, alignment="Chaotic", xp=125, treasure="C + 1000gp"),
    "Rat, Giant (6): AC 7 [12], HD 1/2 (2hp), Att 1 × bite (1d3 + disease), THAC0 19 [0], "
    "MV 120' (40') / 60' (20') swimming, SV D12 W13 P14 B15 S16 (NH), ML 8, AL Neutral, XP 5, NA 3d6 (3d10), TT C":
        dict(name="Rat, Giant", count=6, ac=12, hd=0, hp=2, weapons=[("Bite (disease)", "1d3", 1)], to_hit=0,
             speed=120, saves="D12 W13 P14 B15 S16 (NH)", morale=8, alignment="Neutral", xp=5, treasure="C"),
    "Wolf (4): AC 7 [12], HD 2+2 (11hp), Att 1 × bite (1d6), THAC0 17 [+2], MV 180' (60'), "
    "SV D12 W13 P14 B15 S16 (1), ML 8 (6), AL Neutral, XP 25, NA 2d6 (3d6), TT None":
        dict(name="Wolf", count=4, ac=12, hd=2, hp=11, weapons=[("Bite", "1d6", 1)], to_hit=2, speed=180,
             saves="D12 W13 P14 B15 S16 (1)", morale=8, alignment="Neutral", xp=25, treasure="None"),
    "Bugbear: AC 5 [14], HD 3+1 (14hp), Att 1 × weapon (2d4 or by weapon +1), THAC0 16 [+3], MV 90' (30'), "
    "SV D12 W13 P14 B15 S16 (3), ML 9, AL Chaotic, XP 75, NA 2d4 (5d4), TT B":
        dict(name="Bugbear", count=1, ac=14, hd=3, hp=14, weapons=[("Weapon (or by weapon +1)", "2d4", 1)],
             to_hit=3, speed=90, saves="D12 W13 P14 B15 S16 (3)", morale=9, alignment="Chaotic", xp=75, treasure="B"),
    "Hobgoblin (5): AC 6 [13], HD 1+1 (5hp), Att 1 × weapon (1d8), THAC0 18 [+1], MV 90' (30'), "
    "SV D12 W13 P14 B15 S16 (1), ML 8 (10), AL Chaotic, XP 15, NA 1d6 (4d6), TT (D)":
        dict(name="Hobgoblin", count=5, ac=13, hd=1, hp=5, weapons=[("Weapon", "1d8", 1)], to_hit=1, speed=90,
             saves="D12 W13 P14 B15 S16 (1)", morale=8, alignment="Chaotic", xp=15, treasure="(D)"),
    "Zombie: AC 8 [11], HD 2 (9hp), Att 1 × weapon (1d8 or by weapon), THAC0 18 [+1], MV 60' (20'), "
    "SV D12 W13 P14 B15 S16 (1), ML 12, AL Chaotic, XP 20, NA 2d4 (4d6), TT None":
        dict(name="Zombie", count=1, ac=11, hd=2, hp=9, weapons=[("Weapon (or by weapon)", "1d8", 1)], to_hit=1,
             speed=60, saves="D12 W13 P14 B15 S16 (1)", morale=12, alignment="Chaotic", xp=20, treasure="None"),
    "Kobold (8): AC 7 [12], HD 1/2 (2hp), Att 1 × weapon (1d4 or by weapon −1), THAC0 19 [0], MV 60' (20'), "
    "SV D14 W15 P16 B17 S18 (NH), ML 6 (8), AL Chaotic, XP 5, NA 4d4 (6d10), TT P (J)":
        dict(name="Kobold", count=8, ac=12, hd=0, hp=2, weapons=[("Weapon (or by weapon −1)", "1d4", 1)],
             to_hit=0, speed=60, saves="D14 W15 P16 B17 S18 (NH)", morale=6, alignment="Chaotic", xp=5,
             treasure="P (J)"),
    "Gnoll: AC 5 [14], HD 2 (9hp), Att 1 × weapon (2d4 or by weapon +1), THAC0 18 [+1], MV 90' (30'), "
    "SV D12 W13 P14 B15 S16 (2), ML 8, AL Chaotic, XP 20, NA 1d6 (3d6), TT D":
        dict(name="Gnoll", count=1, ac=14, hd=2, hp=9, weapons=[("Weapon (or by weapon +1)", "2d4", 1)],
             to_hit=1, speed=90, saves="D12 W13 P14 B15 S16 (2)", morale=8, alignment="Chaotic", xp=20, treasure="D"),
    "Lizard Man (3): AC 5 [14], HD 2+1 (10hp), Att 1 × weapon (1d6+1 or by weapon +1), THAC0 17 [+2], "
    "MV 60' (20') / 120' (40') swimming, SV D12 W13 P14 B15 S16 (2), ML 12, AL Neutral, XP 25, NA 2d4 (6d6), TT D":
        dict(name="Lizard Man", count=3, ac=14, hd=2, hp=10, weapons=[("Weapon (or by weapon +1)", "1d6+1", 1)],
             to_hit=2, speed=60, saves="D12 W13 P14 B15 S16 (2)", morale=12, alignment="Neutral", xp=25,
             treasure="D"),
    "Spider, Giant Black Widow: AC 6 [13], HD 3* (13hp), Att 1 × bite (2d6 + poison), THAC0 17 [+2], "
    "MV 60' (20') / 120' (40') in webs, SV D12 W13 P14 B15 S16 (2), ML 8, AL Neutral, XP 50, NA 1d3 (1d3), TT C":
        dict(name="Spider, Giant Black Widow", count=1, ac=13, hd=3, hp=13, weapons=[("Bite (poison)", "2d6", 1)],
             to_hit=2, speed=60, saves="D12 W13 P14 B15 S16 (2)", morale=8, alignment="Neutral", xp=50, treasure="C"),
    "Stirge (10): AC 7 [12], HD 1* (4hp), Att 1 × beak (1d3 + blood drain), THAC0 19 [0], "
    "MV 30' (10') / 180' (60') flying, SV D12 W13 P14 B15 S16 (2), ML 9, AL Neutral, XP 13, NA 1d10 (3d12), TT L":
        dict(name="Stirge", count=10, ac=12, hd=1, hp=4, weapons=[("Beak (blood drain)", "1d3", 1)], to_hit=0,
             speed=30, saves="D12 W13 P14 B15 S16 (2)", morale=9, alignment="Neutral", xp=13, treasure="L"),
    "Bandit (4)\nArmour Class 6 [13], Hit Dice 1 (4hp), Attacks 1 × weapon (1d6), THAC0 19 [0], "
    "Movement 120' (40'), Saving Throws D12 W13 P14 B15 S16 (1), Morale 8, Alignment Chaotic, XP 10, "
    "Number Appearing 1d8 (3d10), Treasure Type (U) A":
        dict(name="Bandit", count=4, ac=13, hd=1, hp=4, weapons=[("Weapon", "1d6", 1)], to_hit=0, speed=120,
             saves="D12 W13 P14 B15 S16 (1)", morale=8, alignment="Chaotic", xp=10, treasure="(U) A"),
}


def one(system: str, text: str) -> stat_blocks.Block:
    blocks = stat_blocks.read(system, text)
    assert len(blocks) == 1, [b.text for b in blocks]
    return blocks[0]


@pytest.mark.parametrize("text", list(OSE), ids=[t.split(":")[0].split("\n")[0].split(" (")[0] for t in OSE])
def test_every_field_of_a_printed_ose_block_is_read(text):
    want = OSE[text]
    b = one("ose", text)
    assert b.ok and not b.unread, (b.problems, b.unread)
    c = b.combatant()
    assert (c["name"], b.count, c["ac"], c["hp"], c["max_hp"]) == (want["name"], want["count"], want["ac"],
                                                                    want["hp"], want["hp"])
    assert [(w["name"], w["damage"], w["count"]) for w in c["weapons"]] == want["weapons"]
    assert {w["to_hit"] for w in c["weapons"]} == {want["to_hit"]}  # THAC0's bracketed figure
    stats = c["stats"]
    assert stats["hd"] == want["hd"]  # OSE-TURN-2 reads it
    assert stats["speed"] == want["speed"]  # OSE-MOVE-1: the first figure, in feet
    for key in ("saves", "morale", "alignment", "xp", "treasure"):
        assert stats[key] == want[key], key
    assert f"XP {want['xp']}" in c["notes"].replace(",", "") and "ML" not in c["name"]


def test_fifteen_real_blocks_at_least():
    assert len(OSE) >= 15


def test_each_block_is_a_combatant_the_save_file_loads():
    for text in OSE:
        body = stat_blocks.read("ose", text)[0].combatant()
        enc = {"name": "x", "system": "ose", "sides": [{"id": "s", "name": "S"}],
               "combatants": [{**body, "id": "c", "side": "s"}]}
        problems: list[str] = []
        storage.encounter_from_json(enc, problems)
        assert not problems, problems


def test_many_blocks_pasted_at_once_give_many_creatures_one_line_or_several():
    text = "\n".join(list(OSE)[:2]) + "\n\n" + list(OSE)[2] + "\n" + list(OSE)[3]
    names = [b.name for b in stat_blocks.read("ose", text)]
    assert names == ["Goblin", "Orc", "Skeleton", "Ghoul"]


def test_blocks_without_name_lines_part_where_a_field_comes_again():
    text = "AC 7 [12], HD 1 (4hp), Att 1 × bite (1d4)\nAC 5 [14], HD 3 (13hp), Att 1 × bite (2d6)"
    blocks = stat_blocks.read("ose", text)
    assert [(b.name, b.get("ac"), b.get("hp")) for b in blocks] == [("Creature", 12, 4), ("Creature", 14, 13)]


def test_a_descending_only_ac_is_converted_and_thac0_alone_gives_the_bonus():
    b = one("ose", "Wolf: AC 7, HD 2+2, Att 1 bite (1d6), THAC0 17, MV 180' (60'), ML 8")
    c = b.combatant()
    assert c["ac"] == 12 and c["weapons"][0]["to_hit"] == 2 and c["weapons"][0]["name"] == "Bite"


def test_without_hit_points_a_copy_has_the_average_or_rolls_its_hit_dice():
    b = one("ose", "Hobgoblin: AC 6 [13], HD 1+1, Att 1 × weapon (1d8), MV 90' (30')")
    assert b.hp_dice == "1d8+1" and b.get("hp") == 5 and b.field("hp").label == "HP (average of 1d8+1)"
    rolled = stat_blocks.copies(b, 6, roll=True, seed=3)
    assert all(2 <= c["hp"] == c["max_hp"] <= 9 for c in rolled) and len({c["hp"] for c in rolled}) > 1
    assert stat_blocks.copies(b, 6, roll=True, seed=3) == rolled  # seeded: the same paste rolls the same


def test_without_thac0_the_bonus_comes_from_the_monster_attack_table():
    rows = {"1-1": 0, "1": 0, "1+1": 1, "2": 1, "2+2": 2, "4+1": 4, "8": 7, "12": 9}
    for hd, bonus in rows.items():
        b = one("ose", f"X: AC 6 [13], HD {hd}, Att 1 × claw (1d4)")
        assert b.combatant()["weapons"][0]["to_hit"] == bonus, hd
        assert b.field("to_hit").label == "Attack bonus (from HD)"


def test_an_undead_line_makes_the_creature_one_a_warpriest_turns_OSE_TURN_1():
    b = one("ose", "Ghoul\nAC 6 [13], HD 2* (9hp), Att 2 × claw (1d3 + paralysis)\n"
                   "Undead: Make no noise, until they attack.")
    c = b.combatant()
    assert b.unread == () and c["stats"]["undead"] is True
    assert "Undead: Make no noise, until they attack." in c["notes"]
    knight = one("ose", "Undead Knight (2): AC 2 [17], HD 5 (22hp), Att 1 × sword (1d8)")
    assert knight.name == "Undead Knight" and knight.count == 2 and "stats.undead" not in knight.combatant()["stats"]


def test_half_a_hit_die_is_hd_0_and_rolls_1d4():
    b = one("ose", "Kobold: AC 7 [12], HD 1/2, Att 1 × weapon (1d4)")
    assert b.get("stats.hd") == 0 and b.hp_dice == "1d4" and b.get("hp") == 2


def test_movement_keeps_the_other_modes_in_the_notes_OSE_MOVE_1():
    b = one("ose", "Rat: AC 7 [12], HD 1/2 (2hp), Att 1 × bite (1d3), MV 120' (40') / 60' (20') swimming")
    c = b.combatant()
    assert c["stats"]["speed"] == 120 and "60' (20') swimming" in c["notes"]


def test_parts_not_understood_are_listed_never_dropped():
    b = one("ose", "Goblin (3)\nAC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), Infravision 60', AC 4\n"
                   "Hate the sun: -1 to hit in daylight.")
    assert b.ok
    assert b.unread == ("Infravision 60'", "AC 4 (a second AC)", "Hate the sun: -1 to hit in daylight.")
    assert stat_blocks.to_json(b)["unread"] == list(b.unread)


def test_a_fix_replaces_the_part_and_reads_the_block_again():
    b = one("ose", "Carrion crawler: AC 7 [12], HD 3+1* (14hp), Att 8 × tentacle (paralysis), THAC0 16 [+3]")
    f = b.field("weapons")
    assert f.problem.startswith('tentacle: "paralysis" is not dice notation') and not b.ok
    fixed = stat_blocks.reread("ose", b, f.start, f.end, "Att 8 × tentacle (0 + paralysis)")
    assert fixed.ok and fixed.combatant()["weapons"] == [
        {"name": "Tentacle (paralysis)", "damage": "0", "to_hit": 3, "kind": "natural", "reach": 5, "count": 8}]


# --- bad input: each refused at its field ------------------------------------------------------------------

def test_damage_that_is_not_dice_is_refused_at_the_attacks():
    b = one("ose", "Troll: AC 4 [15], HD 6+3 (30hp), Att 2 × claw (lots), 1 × bite (1d10)")
    assert not b.ok and b.problems == ['Attacks: claw: "lots" is not dice notation (write the damage first, as '
                                       'in "1d3 + lots" or "0 + lots")']
    assert b.combatant()["weapons"] == []


def test_an_ac_of_9000_is_refused_at_the_ac():
    for text, why in (("AC 9000 [9000]", "9,000 is out of range (-100 to 100)"),
                      ("AC 9000", "descending AC 9000 is ascending -8,981, out of range (-100 to 100)")):
        b = one("ose", f"Golem: {text}, HD 2 (9hp), Att 1 × fist (1d8)")
        assert b.problems == [f"AC: {why}"]


def test_two_thousand_creatures_are_refused():
    b = one("ose", "Goblin (2,000): AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6)")
    assert b.problems == ["Copies: 2,000 is out of range (1 to 200)"]
    b = one("ose", "Goblin (41): AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6)")
    assert b.problems == [f"Copies: 41 copies: at most {roster.MAX_COPIES} at once"]
    with pytest.raises(PasteError, match="2,000 stat blocks: at most 200"):
        stat_blocks.read("ose", "\n\n".join(["Goblin: AC 6 [13], HD 1 (4hp), Att 1 × weapon (1d6)"] * 2000))


def test_binary_junk_is_refused_as_not_text():
    with pytest.raises(PasteError, match="not text"):
        stat_blocks.read("ose", bytes(range(256)) * 4)
    with pytest.raises(PasteError, match="not text"):
        stat_blocks.read("ose", "\x00\x01PNG\x1a AC 6")
    with pytest.raises(PasteError, match="nothing to read"):
        stat_blocks.read("ose", "  \n ")


def test_text_that_is_no_stat_block_yields_no_creature():
    b = one("ose", "Once upon a time there was a goblin.")
    assert b.problem == "no AC, HD, hit points or attacks: not a stat block"


def test_hit_points_past_the_save_files_limit_are_refused():
    b = one("ose", "Tarrasque: AC -2 [21], HD 300 (999999hp), Att 1 × bite (6d10)")
    assert b.problems == ["HD: 300 is out of range (0 to 30)", "HP: 999,999 is out of range (1 to 100,000)"]


# --- the OLOG and Ogre compact forms -----------------------------------------------------------------------

def test_olog_compact_form_reads_hp_ac_weapons_and_reach_OLOG_PRES_1():
    blocks = stat_blocks.read("olog", "Orc (4): HP 6, AC 13, axe 1d8\n"
                                      "Ghoul: HP 12, AC 13, HD 2, 2 × claw 1d4, bite 1d6\n"
                                      "Guard\nHP 8, AC 14, halberd +1 1d10 reach, Init 12, smells of onions")
    orc, ghoul, guard = (stat_blocks.to_json(b) for b in blocks)
    assert (orc["name"], orc["count"], orc["hp"], orc["ac"], orc["weapons"][0]["damage"]) == ("Orc", 4, 6, 13, "1d8")
    assert [(w["name"], w["count"]) for w in ghoul["weapons"]] == [("Claw", 2), ("Bite", 1)]  # OLOG-ATK-1
    assert ghoul["stats"] == {"hd": 2}
    assert guard["stats"] == {"init": 12, "long_reach": True} and guard["weapons"][0]["to_hit"] == 1
    assert guard["unread"] == ["smells of onions"]


def test_ogre_compact_form_reads_the_codex_figures_OGRE_INIT_1():
    b = one("ogre", "Orc (3): HP 9, Defense 13, DEX +1, Reaction 9, Skill +3, Speed 30 ft, longsword +2 1d8")
    c = stat_blocks.to_json(b)
    assert (c["hp"], c["ac"], c["count"]) == (9, 13, 3)
    assert c["stats"] == {"dex": 1, "reaction": 9, "skill": 3, "speed": 30}
    assert c["weapons"][0] == {"name": "Longsword", "damage": "1d8", "to_hit": 2, "kind": "melee", "reach": 5,
                               "count": 1}


def test_compact_forms_refuse_bad_values_at_their_field():
    b = one("ogre", "Troll: HP 9000000, AC 13, claw 1d0, Speed 9000")
    assert b.problems == ["HP: 9,000,000 is out of range (1 to 100,000)",
                          "Speed (ft): 9,000 is out of range (0 to 300)", 'Weapons: "1d0": a die has at least one face']
    assert one("olog", "Rat: AC 12, bite 1d3").problems == ["HP: no hit points (HP 6)"]


def test_a_pasted_creature_goes_to_the_roster_as_a_monster():
    e = stat_blocks.entry(one("ose", list(OSE)[0]), "ose", "r1", 1)
    entries, problems = roster.load(json.dumps({"format": 1, "app": "fray", "kind": "roster", "entries": [e]}))
    assert not problems and entries[0]["name"] == "Goblin" and entries[0]["source"] == stat_blocks.SOURCE
