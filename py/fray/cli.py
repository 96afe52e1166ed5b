"""The command line: check, replay, show saved encounters and the odds of their options (`python -m fray`).

Never imported by the page; argparse is imported only when the command line
runs, so the modules the page loads pay nothing for it.

    python -m fray check FILE...      "FILE: ok: <summary>" per good file; every problem, one per line
    python -m fray replay FILE        the log: "step N  <text>" with its dice
    python -m fray replay --json FILE the log as a JSON list of events
    python -m fray show FILE          system, combatants, round, whose turn
    python -m fray odds FILE [--actor ID] [--json] [--exact]
                                      each option of the actor (default: whoever acts now) with its odds
    python -m fray import FILE --system ose|olog|ogre
                                      the creatures of the stat blocks in FILE, as JSON (docs/ROSTER.md)

FILE may also be a share link ("...#e=..." or "e=...").

Every subcommand writes its results to stdout and every problem to stderr
("FILE: path: problem", one a line), and exits with
    0  everything read and done (EXIT_OK)
    1  a file could not be read or loaded: its problems are on stderr (EXIT_PROBLEMS)
    2  the command line itself was wrong: usage on stderr (EXIT_USAGE)
"""
from __future__ import annotations

import json
import sys
from typing import Iterable, TextIO

from .engine import storage
from .engine.commands import Event
from .engine.conditions import condition_words
from .engine.session import Session
from .rules import RULESETS

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


class Unreadable(Exception):
    """A file that could not be read at all (missing, a folder, no permission)."""


def read(source: str) -> storage.Loaded:
    """Load a save file by path, or a share link given as text; LoadError or Unreadable."""
    if "#e=" in source or source.startswith("e="):
        return storage.decode_link(source[source.index("e="):] if "#e=" in source else source, RULESETS)
    try:
        with open(source, "rb") as f:
            data = f.read(storage.MAX_TEXT * 4 + 1)
    except OSError as exc:
        raise Unreadable(exc.strerror or str(exc)) from None
    return storage.loads(data, RULESETS)


def summary(session: Session) -> str:
    enc = session.encounter
    undone = f", {len(session.redo_stack)} to redo" if session.redo_stack else ""
    return (f'{session.ruleset.title}, "{enc.name}": {len(enc.combatants)} combatants, '
            f"{len(enc.sides)} sides, {len(session.steps)} steps{undone}")


def log_lines(session: Session) -> Iterable[str]:
    """One line per event: "step N  <text>", with any roll the text does not show."""
    for n, event in session.log():
        yield f"step {n}  {event_text(event)}"


def event_text(event: Event) -> str:
    text = event.text
    extra = [r.describe() for r in event.rolls if _faces_text(r.faces[:len(r.faces) // 2 if r.keep else None])
             not in text]
    if extra:
        text += "  (dice: " + "; ".join(extra) + ")"
    if event.secret:
        text += "  (secret)"
    return text


def _faces_text(faces: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(f) for f in faces) + "]"


def log_json(session: Session) -> list[dict]:
    return [{"step": n, **event.to_json()} for n, event in session.log()]


def _plain(value: object) -> object:
    """JSON for what an event's data may hold beyond JSON's own types."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return repr(value)


def show_lines(session: Session) -> Iterable[str]:
    state = session.state
    enc = session.encounter
    profile = f" ({enc.profile})" if enc.profile else ""
    yield f'{enc.name} — {session.ruleset.title}{profile}'
    # The system's own status line: a round for OLOG and OSE, a segment for Ogre.
    from .views.panels import system_view
    status = system_view(enc.system).panel(state).status
    yield f"{status} ({len(session.steps)} steps" + (
        f", {len(session.redo_stack)} to redo)" if session.redo_stack else ")")
    current = session.current()
    if state.outcome:
        yield f"outcome: {state.outcome}"
    elif current:
        yield "acting: " + ", ".join(state.name(c) for c in current)
    if state.prompt is not None:
        yield f"waiting for {state.name(state.prompt.actor)}: {state.prompt.question}"
    words = condition_words(session.ruleset, state)  # a timed one with its time left
    for side in enc.sides:
        allies = f" (allied with {', '.join(side.allies)})" if side.allies else ""
        yield f"{side.name}{allies}:"
        for c in state.on_side(side.id):
            where = (f", zone {c.band + 1}" if c.band is not None else "") + (
                f", square {c.square[0]},{c.square[1]}" if c.square is not None else "")
            flags = (" DOWN" if c.is_down else "") + (" ▶" if c.id in current else "")
            conditions = f" [{', '.join(words.get(c.id, c.conditions))}]" if c.conditions else ""
            yield f"  {c.name} ({c.id}) {c.hp}/{c.max_hp} HP, AC {c.ac}{where}{conditions}{flags}"


def _print_problems(source: str, problems: list[str], out: TextIO) -> None:
    for p in problems:
        print(f"{source}: {p}", file=out)


def _load_or_report(source: str, err: TextIO) -> storage.Loaded | None:
    try:
        return read(source)
    except Unreadable as exc:
        print(f"{source}: cannot read ({exc})", file=err)
    except storage.LoadError as exc:
        _print_problems(source, exc.problems, err)
    return None


def cmd_check(sources: list[str], out: TextIO, err: TextIO | None = None) -> int:
    """Each good file's summary to `out`, each problem to `err` (results out, errors err)."""
    err = err if err is not None else sys.stderr
    status = EXIT_OK
    for source in sources:
        loaded = _load_or_report(source, err)
        if loaded is None:
            status = EXIT_PROBLEMS
        else:
            print(f"{source}: ok: {summary(loaded.session)}", file=out)
    return status


def cmd_replay(source: str, as_json: bool, out: TextIO, err: TextIO) -> int:
    loaded = _load_or_report(source, err)
    if loaded is None:
        return EXIT_PROBLEMS
    if as_json:
        events = [json.dumps(e, ensure_ascii=False, default=_plain) for e in log_json(loaded.session)]
        out.write("[\n" + ",\n".join(events) + "\n]\n" if events else "[]\n")  # one event a line
    else:
        for line in log_lines(loaded.session):
            print(line, file=out)
    return EXIT_OK


def cmd_show(source: str, out: TextIO, err: TextIO) -> int:
    loaded = _load_or_report(source, err)
    if loaded is None:
        return EXIT_PROBLEMS
    for line in show_lines(loaded.session):
        print(line, file=out)
    return EXIT_OK


def odds_lines(results) -> Iterable[str]:
    for oo in results:
        head = f"{oo.index + 1:>2}. {oo.label}"
        yield f"{head}  [{oo.figure}]" if oo.figure else f"{head}  ({oo.note})" if oo.note else head
        for row in oo.rows:
            yield f"      {row}"


def cmd_odds(source: str, actor: str | None, as_json: bool, exact: bool, out: TextIO, err: TextIO) -> int:
    """Every option of `actor` (default: the first who acts now) with its odds (engine/odds.py)."""
    from .views.odds import of_option, to_json
    loaded = _load_or_report(source, err)
    if loaded is None:
        return EXIT_PROBLEMS
    s = loaded.session
    state = s.state
    if actor is None:
        now = s.current()
        actor = state.prompt.actor if state.prompt is not None else now[0] if now else None
    if actor is None:
        print(f"{source}: nobody acts now: name one with --actor", file=err)
        return EXIT_PROBLEMS
    if not state.has(actor):
        print(f"{source}: --actor {actor}: no such combatant (ids: "
              f"{', '.join(c.id for c in state.combatants)})", file=err)
        return EXIT_PROBLEMS
    results = [of_option(s.ruleset, state, i, o, exact=exact, seed=s.encounter.seed)
               for i, o in enumerate(s.options(actor))]
    if as_json:
        json.dump({"actor": actor, "name": state.name(actor), "options": [to_json(r) for r in results]}, out,
                  ensure_ascii=False, indent=1)
        out.write("\n")
    else:
        print(f"{state.name(actor)} ({actor}):", file=out)
        for line in odds_lines(results):
            print(line, file=out)
    return EXIT_OK


def cmd_import(source: str, system: str, out: TextIO, err: TextIO) -> int:
    """The creatures FILE's stat blocks give, as a JSON list in the save file's combatant form with `count`
    and `unread`; each block that gives none is named on `err` with why (exit 1)."""
    from . import stat_blocks
    from .engine.stat_block import MAX_TEXT as MAX_PASTE
    try:
        with open(source, "rb") as f:
            data = f.read(MAX_PASTE * 4 + 1)
        blocks = stat_blocks.read(system, data)
    except OSError as exc:
        print(f"{source}: cannot read ({exc.strerror or exc})", file=err)
        return EXIT_PROBLEMS
    except stat_blocks.PasteError as exc:
        print(f"{source}: {exc}", file=err)
        return EXIT_PROBLEMS
    good = [b for b in blocks if b.ok]
    for n, b in enumerate(blocks, 1):
        for problem in b.problems:
            print(f"{source}: block {n} ({b.name}): {problem}", file=err)
    json.dump([stat_blocks.to_json(b) for b in good], out, ensure_ascii=False, indent=1)
    out.write("\n")
    return EXIT_OK if len(good) == len(blocks) else EXIT_PROBLEMS


def main(argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 problems, 2 usage)."""
    import argparse  # only here: the page never runs the command line

    out = out or sys.stdout
    err = err or sys.stderr
    parser = argparse.ArgumentParser(prog="python -m fray", description="Check, replay and show Fray encounters, and the odds of each option.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("check", help="validate files: every problem, one per line; exit 1 if any")
    p.add_argument("files", nargs="+", metavar="FILE")
    p = sub.add_parser("replay", help="print the log of a saved encounter")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="a JSON list of events instead of text")
    p = sub.add_parser("show", help="summary: system, combatants, round, whose turn")
    p.add_argument("file", metavar="FILE")
    p = sub.add_parser("odds", help="each option of an actor with its odds, from the real rules")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--actor", metavar="ID", help="whose options (default: whoever acts now)")
    p.add_argument("--json", action="store_true", help="JSON, chances as exact fractions")
    p.add_argument("--exact", action="store_true", help="enumerate every branch, however many (no sampling)")
    p = sub.add_parser("import", help="read pasted stat blocks into creatures, printed as JSON")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--system", required=True, choices=sorted(RULESETS.names()), help="the system the blocks are written for")
    p.set_defaults(run=lambda a: cmd_import(a.file, a.system, out, err))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) and EXIT_USAGE
    if hasattr(args, "run"):
        return args.run(args)
    if args.command == "check":
        return cmd_check(args.files, out, err)
    if args.command == "replay":
        return cmd_replay(args.file, args.json, out, err)
    if args.command == "odds":
        return cmd_odds(args.file, args.actor, args.json, args.exact, out, err)
    return cmd_show(args.file, out, err)
