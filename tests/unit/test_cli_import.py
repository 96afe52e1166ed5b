"""`python -m fray import FILE --system ...`: the creatures of pasted stat blocks as JSON, problems on stderr."""
from __future__ import annotations

import io
import json
import os
import pathlib
import subprocess
import sys

from fray import cli
from fray.engine import storage

GOBLINS = ("Goblin (3): AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), THAC0 19 [0], MV 60' (20'), "
           "SV D14 W15 P16 B17 S18 (NH), ML 7 (9), AL Chaotic, XP 5, NA 2d4 (6d10), TT R (C), Infravision 60'\n\n"
           "Ghoul\nAC 6 [13], HD 2* (9hp), Att 2 × claw (1d3 + paralysis), 1 × bite (1d3 + paralysis), "
           "THAC0 18 [+1], MV 90' (30')\n")


def run(tmp_path, text, system="ose", raw=False):
    path = tmp_path / "blocks.txt"
    path.write_bytes(text if raw else text.encode())
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["import", str(path), "--system", system], out, err)
    return code, out.getvalue(), err.getvalue()


def test_import_prints_each_creature_in_the_save_files_form_with_count_and_unread(tmp_path):
    code, out, err = run(tmp_path, GOBLINS)
    assert code == cli.EXIT_OK and err == ""
    goblin, ghoul = json.loads(out)
    assert goblin["count"] == 3 and goblin["unread"] == ["Infravision 60'"]
    assert goblin["stats"] == {"hd": 1, "speed": 60, "saves": "D14 W15 P16 B17 S18 (NH)", "morale": 7,
                               "alignment": "Chaotic", "xp": 5, "appearing": "2d4 (6d10)", "treasure": "R (C)"}
    assert [(w["name"], w["damage"], w["to_hit"], w["count"]) for w in ghoul["weapons"]] == [
        ("Claw (paralysis)", "1d3", 1, 2), ("Bite (paralysis)", "1d3", 1, 1)]
    for c in (goblin, ghoul):  # each loads as a save file's combatant
        body = {k: v for k, v in c.items() if k not in ("count", "unread")}
        problems: list[str] = []
        storage.encounter_from_json({"name": "x", "system": "ose", "sides": [{"id": "s", "name": "S"}],
                                     "combatants": [{**body, "id": "c", "side": "s"}]}, problems)
        assert problems == []


def test_import_reads_each_systems_own_form(tmp_path):
    code, out, _ = run(tmp_path, "Orc (4): HP 6, AC 13, axe 1d8", "olog")
    assert code == 0 and json.loads(out)[0]["weapons"][0]["damage"] == "1d8"
    code, out, _ = run(tmp_path, "Orc: HP 9, Defense 13, DEX +1, Skill +3, longsword 1d8", "ogre")
    assert code == 0 and json.loads(out)[0]["stats"] == {"dex": 1, "skill": 3}


def test_a_block_that_gives_no_creature_exits_1_with_the_reason_on_stderr(tmp_path):
    code, out, err = run(tmp_path, GOBLINS + "\nTroll: AC 9000, HD 6 (30hp), Att 1 × bite (lots)\n")
    assert code == cli.EXIT_PROBLEMS
    assert [c["name"] for c in json.loads(out)] == ["Goblin", "Ghoul"]
    assert err.splitlines() == [
        f"{tmp_path / 'blocks.txt'}: block 3 (Troll): AC: descending AC 9000 is ascending -8,981, out of range "
        f"(-100 to 100)",
        f"{tmp_path / 'blocks.txt'}: block 3 (Troll): Attacks: bite: \"lots\" is not dice notation (write the damage "
        f"first, as in \"1d3 + lots\" or \"0 + lots\")"]


def test_binary_junk_and_missing_files_exit_1(tmp_path):
    code, out, err = run(tmp_path, bytes(range(256)), raw=True)
    assert code == 1 and out == "" and "this is not text" in err
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["import", str(tmp_path / "none.txt"), "--system", "ose"], out, err) == 1
    assert "cannot read" in err.getvalue()


def test_an_unknown_system_is_a_usage_error(tmp_path, capsys):
    code, _, _ = run(tmp_path, GOBLINS, "dnd")
    assert code == cli.EXIT_USAGE and "invalid choice" in capsys.readouterr().err


def test_import_runs_as_a_module(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text(GOBLINS)
    py = pathlib.Path(__file__).resolve().parents[2] / "py"
    done = subprocess.run([sys.executable, "-m", "fray", "import", str(path), "--system", "ose"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(py)}, timeout=60)
    assert done.returncode == 0 and len(json.loads(done.stdout)) == 2
