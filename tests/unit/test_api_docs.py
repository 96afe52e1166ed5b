"""docs/API.md "The three systems, command by command" stays true (issue 13):
every command of every system is documented, every refusal it names is a code
the system really gives, and each system's section has an example that runs
(test_architecture.test_api_doc_example_runs executes every block)."""
from __future__ import annotations

import dataclasses
import pathlib
import re

import pytest

from fray.engine.commands import Reason as Core
from fray.engine.referee import RefereeReason
from fray.rules import olog, ose, ogre

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEXT = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
SYSTEMS = {"OLOG": olog, "OSE": ose, "Ogre": ogre}


def section(name: str) -> str:
    start = TEXT.index(f"### {name} (`fray.rules.")
    end = TEXT.find("\n### ", start + 1)
    return TEXT[start:end if end > 0 else None]


def commands(module) -> list[str]:
    return [n for n in module.__all__ if isinstance(getattr(module, n), type)
            and dataclasses.is_dataclass(getattr(module, n)) and hasattr(getattr(module, n), "namespace")]


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_command_of_the_system_is_documented(name):
    text = section(name)
    missing = [c for c in commands(SYSTEMS[name]) if f"`{c}" not in text and f" `{c}`" not in text
               and not re.search(rf"`{c}\b", text)]
    assert missing == [], f"docs/API.md {name} does not document {missing}"


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_refusal_the_docs_name_is_one_the_system_gives(name):
    text = section(name)
    known = {m.value for m in SYSTEMS[name].Reason} | {m.value for m in Core} | {m.value for m in RefereeReason}
    rows = [line.split("|") for line in text.splitlines() if line.startswith("| `")]
    named = {code for row in rows if len(row) > 4 for code in re.findall(r"\b[A-Z][A-Z_]{3,}\b", row[4])}
    assert named and named <= known, f"not codes of {name}: {sorted(named - known)}"


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_system_says_where_we_are_and_ose_and_ogre_have_a_runnable_example(name):
    text = section(name)
    assert "`where()`" in text
    if name != "OLOG":  # OLOG's example is the "A fight in code" walk-through above
        assert "```python" in text and ".where()" in text
