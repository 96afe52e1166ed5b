"""Regenerate py/fray/catalogue.py (the rules catalogue shipped with the app)
from RULES.md, so every rule id shown in the page can reveal its text.

    python3 tools/catalogue.py [path/to/RULES.md]
"""
from __future__ import annotations

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "RULES.md"
OUT = ROOT / "py" / "fray" / "catalogue.py"


def parse(text: str) -> dict[str, str]:
    rules: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^- ((?:CORE|OLOG|OSE|OGRE)-[A-Z]+-\d+) (.*)$", line)
        if m:
            current = m.group(1)
            rules[current] = m.group(2).strip()
        elif current and line.startswith("  ") and line.strip():
            rules[current] += " " + line.strip()
        else:
            current = None
    return rules


def render(rules: dict[str, str]) -> str:
    body = "\n".join(f"    {k!r}: {v!r}," for k, v in rules.items())
    return (
        '"""The rules catalogue (generated from RULES.md by tools/catalogue.py; do not edit).\n\n'
        "Every rule id the page shows reveals this text on hover or tap (UI principle 3).\n"
        '"""\n\nRULES: dict[str, str] = {\n' + body + "\n}\n\n\n"
        "def text(rule_id: str) -> str:\n"
        '    """The catalogue text of a rule id, or "" for an unknown id."""\n'
        '    return RULES.get(rule_id.replace("_", "-"), "")\n'
    )


if __name__ == "__main__":
    src = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    OUT.write_text(render(parse(src.read_text())))
    print(f"wrote {OUT.relative_to(ROOT)}")
