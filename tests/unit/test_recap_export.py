"""The summary's pictures and files (views/recap_export.py, issue #56): SVG charts that parse, names escaped
everywhere (HTML, SVG, Markdown), a self-contained HTML recap with no script and nothing to fetch, and the
players' files without the secrets the table display keeps out."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from html.parser import HTMLParser

from fray.engine.referee import Damage, SetCondition
from fray.engine.session import Session
from fray.rules import examples, get
from fray.views.recap import public, recap
from fray.views.recap_export import thinned, damage_bars, hp_chart, md, to_html, to_markdown

EVIL = '<img src=x onerror="alert(1)"> & </svg><script>x</script> | *b* [l](u)'


def evil_fight() -> Session:
    enc = examples("ose")["detailed"](1)
    enc = replace(enc, name=EVIL, combatants=tuple(
        replace(c, name=EVIL + " " + c.id) if c.id in ("brak", "o1") else c for c in enc.combatants))
    s = Session(enc, get("ose"))
    s.act(Damage("o1", 3))
    s.act(Damage("brak", 12))
    return s


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [k for k, _ in attrs]


def test_every_chart_is_an_svg_that_parses_with_the_names_as_text():
    r = recap(evil_fight())
    for svg in [damage_bars(r)] + [hp_chart(r, f, at=1) for f in r.combatants]:
        root = ET.fromstring(svg)  # well-formed: the hostile name did not break out
        assert root.tag.endswith("svg")
        assert not [e for e in root.iter() if e.tag.split("}")[-1] in ("script", "img", "foreignObject")]
    assert "brak" in ET.fromstring(hp_chart(r, r.get("brak"))).find("{http://www.w3.org/2000/svg}title").text


def test_the_hp_chart_marks_the_fall__CORE_HP_1():
    r = recap(evil_fight())
    assert 'class="hp-fall"' in hp_chart(r, r.get("brak")) and 'class="hp-fall"' not in hp_chart(r, r.get("o1"))


def test_a_long_fight_chart_keeps_its_lowestthinned():
    hp = tuple(10 - (i % 97 == 50) * 15 for i in range(1000))  # one dip below zero in a long fight
    drawn = thinned(hp)
    assert len(drawn) <= 202 and (50, -5) in drawn and drawn[-1] == (999, 10)


def test_the_html_recap_is_one_page_with_no_script_and_nothing_fetched():
    page = to_html(recap(evil_fight()))
    t = Tags()
    t.feed(page)
    assert "script" not in t.tags and "img" not in t.tags and "link" not in t.tags
    assert not [a for a in t.attrs if a.startswith("on") or a in ("src", "href")]
    assert t.tags.count("svg") == 1 + 6  # the bars and one chart per combatant
    assert "default-src 'none'" in page and "&lt;img src=x" in page
    assert "<li value=\"2\">" in page  # the log, each line with its step


def test_the_markdown_recap_escapes_every_typed_name():
    text = to_markdown(recap(evil_fight()))
    assert "<img" not in text and "<script" not in text and "&lt;img" in text
    assert md("a | b") == "a \\| b" and md("1. x") == "1\\. x" and md("*x*") == "\\*x\\*"
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(table) == 1 + 6 and all(line.count(" | ") == 10 for line in table)


def test_the_players_files_keep_the_table_displays_secrets():
    enc = examples("ose")["detailed"](1)
    enc = replace(enc, combatants=tuple(replace(c, hidden=True) if c.id == "o3" else c for c in enc.combatants))
    s = Session(enc, get("ose"))
    s.act(Damage("o1", 2))
    s.act(SetCondition("o2", "Cursed", secret=True))
    p = public(s)
    for text in (to_html(p), to_markdown(p)):
        assert "Orc crossbowman" not in text and "Cursed" not in text
        assert "4/6" not in text and "hurt" in text  # a monster's HP as the table's word
        assert "players' view" in text
    full = to_html(recap(s))
    assert "Orc crossbowman" in full and "4/6" in full and "Cursed" in full
