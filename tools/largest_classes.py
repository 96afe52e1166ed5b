"""The largest classes under py/fray by lines, for a closing note's figures: `python3 tools/largest_classes.py [N]`."""
import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1] / "py" / "fray"
sizes = sorted(((n.end_lineno - n.lineno + 1, f"{f.relative_to(ROOT)}:{n.name}") for f in ROOT.rglob("*.py")
                for n in ast.walk(ast.parse(f.read_text(encoding="utf-8"))) if isinstance(n, ast.ClassDef)),
               reverse=True)
for lines, name in sizes[:int(sys.argv[1]) if len(sys.argv) > 1 else 5]:
    print(f"{lines:4d}  {name}")
