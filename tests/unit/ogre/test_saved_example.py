"""The saved orc-and-PC file in docs/examples loads and replays to the text's example (OGRE-EX-1)."""
from __future__ import annotations

from fray.engine import storage


def test_the_saved_orc_and_pc_example_loads_and_replays__OGRE_EX_1():
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[3] / "docs" / "examples" / "ogre-orc-and-pc.json"
    s = storage.loads(path.read_text(encoding="utf-8")).session
    sys_ = s.state.board
    assert [f.initiative for f in sys_.fighters] == [14, 16] and sys_.segment == 26
    assert s.state.get("brak").hp == 15
    orc, brak = sys_.fighters
    assert (orc.action.resolves, orc.action.penalty) == (34, -2)
    assert (brak.action.category, brak.action.resolves) == ("Short", 31)
