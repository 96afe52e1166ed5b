"""The command line, run as the referee runs it: `python -m fray check|replay|show`."""
from __future__ import annotations

import io
import json
import os
import pathlib
import subprocess
import sys

import pytest

from fray import cli
from fray.engine import storage
from fray.engine.session import Session

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))
needs_examples = pytest.mark.skipif(not EXAMPLES, reason="no docs/examples/*.json yet")


def fray(*args: str, cwd: pathlib.Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"), PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "fray", *args], capture_output=True, text=True,
                          encoding="utf-8", env=env, cwd=cwd or ROOT, timeout=60)


def loaded(path: pathlib.Path) -> Session:
    return storage.loads(path.read_bytes()).session


@pytest.fixture
def malformed(tmp_path) -> pathlib.Path:
    """A file with several problems; it needs no system to be refused."""
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"format": 1, "encounter": {"system": "chess", "extra": 1}, "steps": "none",
                                "dice_mode": "loaded"}))
    return path


def olog_file(tmp_path, undo: int = 0) -> pathlib.Path:
    examples = pytest.importorskip("fray.rules.olog.examples")
    s = Session(examples.examples()["two_orcs"](3))
    for _ in range(6):
        opts = [o for a in s.current() for o in s.options(a) if o.allowed and not o.needs and not o.choices]
        if not opts:
            break
        s.act(opts[-1].command)
    for _ in range(undo):
        s.undo()
    path = tmp_path / "two orcs.json"
    path.write_text(storage.dumps(s, indent=2), encoding="utf-8")
    return path


# --- check -------------------------------------------------------------------------

@needs_examples
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_check_passes_a_valid_example_with_a_one_line_summary(path):
    run = fray("check", str(path))
    assert run.returncode == 0, run.stdout + run.stderr
    s = loaded(path)
    assert run.stdout == (f"{path}: ok: {s.ruleset.title}, \"{s.encounter.name}\": {len(s.encounter.combatants)} "
                          f"combatants, {len(s.encounter.sides)} sides, {len(s.steps)} steps"
                          + (f", {len(s.redo_stack)} to redo" if s.redo_stack else "") + "\n")


def test_check_prints_every_problem_one_per_line_and_exits_1(malformed):
    run = fray("check", str(malformed))
    assert run.returncode == 1
    with pytest.raises(storage.LoadError) as err:
        storage.loads(malformed.read_bytes())
    # issue 13 (docs/API.md "The command line"): problems go to stderr, nothing to stdout
    assert run.stdout == ""
    assert run.stderr.splitlines() == [f"{malformed}: {p}" for p in err.value.problems]
    assert len(run.stderr.splitlines()) >= 3
    assert f"{malformed}: encounter.system: 'chess' is not a system Fray knows" in run.stderr
    assert f"{malformed}: dice_mode: 'loaded' is not \"app\" or \"physical\"" in run.stderr


@pytest.mark.parametrize("content, first", [
    (b"{not json", "file: not valid JSON"),
    (b"\xff\xfe\xfd", "file: not UTF-8 text (byte 0)"),
    (b"[]", "file: expected a Fray encounter object, got a list"),
    (b'{"format": 9}', "format: 9 is not a format this version reads (expected 1)"),
    (b'{"app": "fray"}', "format: missing: not a Fray save file (a Fray file starts with \"format\": 1)"),
    (b'{"format": 1, "seed": 1' + b"9" * 5000 + b"}",
     "file: a number of more than 4,300 digits, which no field of an encounter holds"),
])
def test_check_reports_unreadable_content_in_the_referees_words(tmp_path, content, first):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    run = fray("check", str(path))
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith(f"{path}: {first}")
    assert "None" not in run.stderr and "sys." not in run.stderr and "Error" not in run.stderr


def test_check_reports_a_missing_file(tmp_path):
    run = fray("check", str(tmp_path / "nowhere.json"))
    assert run.returncode == 1
    assert run.stderr == f"{tmp_path / 'nowhere.json'}: cannot read (No such file or directory)\n"


def test_check_of_several_files_fails_if_any_fails(tmp_path, malformed):
    good = olog_file(tmp_path)
    run = fray("check", str(good), str(malformed))
    assert run.returncode == 1
    assert run.stdout.splitlines() == [line for line in run.stdout.splitlines() if line.startswith(f"{good}: ok: OLOG")]
    assert len(run.stdout.splitlines()) == 1
    assert run.stderr and all(line.startswith(f"{malformed}: ") for line in run.stderr.splitlines())


def test_check_counts_steps_and_redo(tmp_path):
    path = olog_file(tmp_path, undo=2)
    s = loaded(path)
    assert len(s.redo_stack) == 2
    run = fray("check", str(path))
    assert run.returncode == 0
    assert run.stdout.rstrip().endswith(f"{len(s.steps)} steps, 2 to redo")


def test_check_accepts_a_share_link(tmp_path):
    link = storage.encode_link(loaded(olog_file(tmp_path)))
    run = fray("check", "https://fray.example/#" + link)
    assert run.returncode == 0 and ": ok: OLOG" in run.stdout
    run = fray("check", link[:-5])
    assert run.returncode == 1 and "share link: truncated or corrupt" in run.stderr


# --- replay ----------------------------------------------------------------------------

def test_replay_prints_one_line_per_event_with_dice__CORE_DICE_3(tmp_path):
    path = olog_file(tmp_path)
    s = loaded(path)
    run = fray("replay", str(path))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    events = list(s.log())
    assert len(lines) == len(events) > 0
    for line, (n, event) in zip(lines, events):
        assert line.startswith(f"step {n}  {event.text}")
        for roll in event.rolls:
            assert "[" + ", ".join(map(str, roll.faces[: len(roll.faces) // 2 if roll.keep else None])) + "]" in line
    assert any(e.rolls for _, e in events), "the example rolls dice"


def test_replay_shows_a_roll_the_event_text_leaves_out__CORE_DICE_3():
    from fray.engine.commands import Event
    from fray.engine.dice import ScriptedDice
    roll = ScriptedDice([5, 2]).roll("d20", "attack", keep="low")
    assert cli.event_text(Event("Hit", "Mira hits", rolls=(roll,))) == \
        "Mira hits  (dice: d20 twice [5] [2], lower kept = 2)"
    assert cli.event_text(Event("Hit", "Mira hits: d20 [5] [2]", rolls=(roll,))) == "Mira hits: d20 [5] [2]"
    assert cli.event_text(Event("Rolled", "Reaction roll", secret=True)) == "Reaction roll  (secret)"


@needs_examples
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_replay_json_is_the_list_of_events(path):
    run = fray("replay", "--json", str(path))
    assert run.returncode == 0, run.stderr
    events = json.loads(run.stdout)
    s = loaded(path)
    assert [(e["step"], e["kind"], e["text"]) for e in events] == [(n, e.kind, e.text) for n, e in s.log()]
    assert [[r["faces"] for r in e["rolls"]] for e in events] == \
        [[list(r.faces) for r in e.rolls] for _, e in s.log()]


def test_replay_of_a_bad_file_prints_problems_to_stderr_and_nothing_else(malformed):
    run = fray("replay", str(malformed))
    assert run.returncode == 1
    assert run.stdout == ""
    assert f"{malformed}: encounter.system:" in run.stderr


def test_replay_into_a_closed_pipe_is_quiet(tmp_path):
    path = olog_file(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    proc = subprocess.Popen([sys.executable, "-m", "fray", "replay", "--json", str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    proc.stdout.read(10)
    proc.stdout.close()
    proc.wait(timeout=60)
    assert b"Traceback" not in proc.stderr.read()


# --- show ----------------------------------------------------------------------------------

def test_show_names_the_system_round_turn_and_every_combatant(tmp_path):
    path = olog_file(tmp_path)
    s = loaded(path)
    run = fray("show", str(path))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.splitlines()[0] == f"{s.encounter.name} — {s.ruleset.title}"
    assert f"Round {s.state.round} · " in out and f"({len(s.steps)} steps)" in out
    assert "acting: " + ", ".join(s.state.name(c) for c in s.current()) in out
    for c in s.state.combatants:
        assert f"  {c.name} ({c.id}) {c.hp}/{c.max_hp} HP, AC {c.ac}" in out


def test_show_marks_the_fallen_and_the_outcome(tmp_path):
    examples = pytest.importorskip("fray.rules.olog.examples")
    from fray.engine.referee import SetHp
    s = Session(examples.examples()["two_orcs"](1))
    for c in s.state.combatants:
        if c.side != s.state.combatants[0].side:
            s.act(SetHp(c.id, 0))
    path = tmp_path / "won.json"
    path.write_text(storage.dumps(s))
    out = fray("show", str(path)).stdout
    assert f"outcome: {s.state.outcome}" in out and s.state.outcome
    assert out.count(" DOWN") == len(s.state.combatants) - 1


# --- usage ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [(), ("frobnicate",), ("check",), ("replay",), ("show", "a", "b")])
def test_usage_errors_exit_2(args):
    run = fray(*args)
    assert run.returncode == 2
    assert "usage: python -m fray" in run.stderr


def test_help_exits_0():
    run = fray("--help")
    assert run.returncode == 0 and "check" in run.stdout and "replay" in run.stdout


def test_runs_from_the_py_folder_too(malformed):
    run = subprocess.run([sys.executable, "-m", "fray", "check", str(malformed)], capture_output=True, text=True,
                         cwd=ROOT / "py", timeout=60, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert run.returncode == 1 and "encounter.system" in run.stderr


def test_main_in_process_returns_the_status(malformed):
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["check", str(malformed)], out, err) == 1
    assert out.getvalue() == "" and err.getvalue().count("\n") >= 3


def test_argparse_is_not_imported_until_the_command_line_runs():
    code = ("import sys; import fray.cli, fray.engine.storage, fray.engine.session; "
            "print('argparse' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=str(ROOT / "py")))
    assert run.stdout.strip() == "False", run.stderr


def test_show_gives_ogre_its_segment_not_a_round__OGRE_SEG_1():
    """Ogre counts segments, not rounds: `show` prints the system's own status line."""
    example = ROOT / "docs" / "examples" / "ogre-orc-and-pc.json"
    out = subprocess.run([sys.executable, "-m", "fray", "show", str(example)], cwd=ROOT / "py",
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "Segment 26 (13.0 s)" in out.stdout
    assert "round 0" not in out.stdout.lower()


def test_show_lists_a_timed_condition_with_its_time_left__CORE_REF_1(tmp_path):
    from fray.engine.dice import ScriptedDice
    from fray.engine.referee import SetCondition
    from fray.rules.olog import RollInitiative
    from fray.rules.olog.examples import two_orcs
    s = Session(two_orcs(1))
    s.act(RollInitiative(), ScriptedDice([18]))
    s.act(SetCondition("orc1", "Stunned", lasts=2))
    s.act(SetCondition("brak", "Inspired"))
    path = tmp_path / "timed.json"
    path.write_text(storage.dumps(s), encoding="utf-8")
    run = fray("show", str(path))
    assert run.returncode == 0, run.stderr
    assert "Orc 1 (orc1) 6/6 HP, AC 13, zone 3 [Stunned · 2 rounds left]" in run.stdout
    assert "[Inspired]" in run.stdout
