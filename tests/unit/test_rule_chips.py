"""A rule id in a reason or a log line is a chip that shows the rule's text (UI principle 3). Its brackets
stay on the chip's line: at 768 and 1280 px "out of reach of Goblin 1's Club (" ended one line and the chip
began the next. The text around a chip is shown as text, never as HTML."""
from __future__ import annotations

import re

from fray.ui.markup.html import with_rules


def test_a_bracketed_rule_id_keeps_its_brackets_on_its_line__OLOG_BAND_1():
    out = str(with_rules("Mira is 1 zone away (Near): out of reach of Goblin 1's Club (OLOG-BAND-1)"))
    m = re.search(r'<span class="rule-nobr">\((<button[^>]*>OLOG-BAND-1</button>)\)</span>$', out)
    assert m, out
    assert 'data-action="rule:OLOG-BAND-1"' in m.group(1) and "zones about 30 ft apart" in m.group(1)
    assert "(Near)" in out  # brackets around words are left as they are
    assert out.count("rule-nobr") == 1


def test_an_open_bracket_without_its_close_and_a_bare_id__CORE_REF_1():
    out = str(with_rules("(CORE-REF-1 logged) then OSE-AOO-1."))
    assert out.startswith('<span class="rule-nobr">(<button') and "</button></span> logged)" in out
    assert re.search(r' then <button[^>]*>OSE-AOO-1</button>\.$', out), out


def test_text_around_the_chips_is_escaped__CORE_REF_1():
    out = str(with_rules("<img src=x onerror=alert(1)> (CORE-REF-1) & more"))
    assert "<img" not in out and "&lt;img src=x onerror=alert(1)&gt;" in out and "&amp; more" in out
    assert out.count("<button") == 1
