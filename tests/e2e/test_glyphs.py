"""No tofu (issue 14): every character outside ASCII that the page can show —
each badge, status and icon written in py/fray/ui, views or rules — has a
glyph in the page's fonts. A missing glyph renders as the fonts' "no such
glyph" box, so each character is drawn on a canvas in the page's own font
stack and compared, pixel for pixel, with a character no font has (a
private-use code point): the same picture is a missing glyph."""
from __future__ import annotations

import pathlib
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = ("py/fray/ui", "py/fray/views", "py/fray/rules")


def shown_characters() -> list[str]:
    chars: set[str] = set()
    for folder in SOURCES:
        for path in (ROOT / folder).rglob("*.py"):
            chars |= {ch for ch in path.read_text(encoding="utf-8") if ord(ch) > 127}
    return sorted(chars)


DRAW = """(chars) => {
  const font = getComputedStyle(document.body).fontFamily;
  const c = document.createElement("canvas"); c.width = 48; c.height = 48;
  const g = c.getContext("2d", { willReadFrequently: true });
  const picture = (ch) => {
    g.clearRect(0, 0, 48, 48); g.fillStyle = "#000"; g.font = `32px ${font}`; g.textBaseline = "middle";
    g.fillText(ch, 4, 24);
    return Array.from(g.getImageData(0, 0, 48, 48).data).join(",");
  };
  const missing = picture(String.fromCodePoint(0x10FFFD));
  return chars.filter((ch) => picture(ch) === missing);
}"""


def test_the_check_sees_a_missing_glyph(app):
    """The comparison itself: a private-use character (no font has it) is
    found missing, and an ordinary letter is not."""
    assert app.evaluate(DRAW, [chr(0xF8FF + 1), chr(0x10FFFC), "A"]) == [chr(0xF8FF + 1), chr(0x10FFFC)]


def test_every_character_the_page_shows_has_a_glyph(app):
    chars = shown_characters()
    assert len(chars) > 20  # the sources really were read
    missing = app.evaluate(DRAW, chars)
    named = [f"{ch!r} U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in missing]
    assert not named, "characters with no glyph in the page's fonts (use one the fonts cover, or an SVG icon):\n" + \
        "\n".join(named)
