"""The fight's summary as pictures and files: HP-over-the-fight charts and damage bars as SVG, a
self-contained HTML recap (no script, no network) and Markdown for a campaign journal (issue #56).

Pure strings from a `views.recap.Recap`; every name the referee typed is escaped (HTML and SVG with
`html.escape`, Markdown with backslashes), and a side's colour is used only when it is a plain `#hex`.
The page (ui/page/review.py, ui/markup/review_markup.py) draws the same SVG the files carry.
"""
from __future__ import annotations

import html
import re

from .recap import Figures, Recap

CHART_W, CHART_H, CHART_POINTS = 160, 44, 200
BAR_W, BAR_ROW, BAR_LABEL = 320, 20, 110
_HEX = re.compile(r"^#[0-9a-fA-F]{3,8}$")
DEFAULT_COLOUR = "#3b6ea8"


def esc(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def colour_of(r: Recap, side: str) -> str:
    c = next((s.colour for s in r.sides if s.id == side), "")
    return c if _HEX.match(c or "") else DEFAULT_COLOUR


def thinned(hp: tuple[int, ...], limit: int = CHART_POINTS) -> list[tuple[int, int]]:
    """(step, hp) pairs to draw: every step, or on a long fight the lowest of each stretch and the ends,
    so a near-death moment is never smoothed away."""
    n = len(hp)
    if n <= limit:
        return list(enumerate(hp))
    size = n / limit
    out = [(0, hp[0])]
    for k in range(limit):
        lo, hi = int(k * size), max(int((k + 1) * size), int(k * size) + 1)
        i = min(range(lo, min(hi, n)), key=lambda j: hp[j])
        out.append((i, hp[i]))
    out.append((n - 1, hp[-1]))
    return out


def hp_chart(r: Recap, f: Figures, at: int | None = None) -> str:
    """One combatant's HP after each step as a small line chart; a cross where it fell; `at` marks a step."""
    top = max(f.max_hp, max(f.hp), 1)
    low = max(min(0, min(f.hp)), -top)  # far below 0 is drawn at -max: the rest of the chart stays readable
    span = max(1, len(f.hp) - 1)
    pad = 3

    def xy(i: int, v: int) -> tuple[float, float]:
        v = max(v, low)
        x = pad + (CHART_W - 2 * pad) * i / span
        y = pad + (CHART_H - 2 * pad) * (top - v) / (top - low)
        return round(x, 1), round(y, 1)

    line = " ".join(f"{x},{y}" for x, y in (xy(i, v) for i, v in thinned(f.hp)))
    zero = xy(0, 0)[1]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CHART_W} {CHART_H}" class="hp-chart" '
             f'role="img" aria-label="{esc(_hp_words(r, f))}">',
             f"<title>{esc(_hp_words(r, f))}</title>",
             f'<rect x="0" y="0" width="{CHART_W}" height="{CHART_H}" fill="#f6f6f4" rx="3"/>',
             f'<line x1="{pad}" y1="{zero}" x2="{CHART_W - pad}" y2="{zero}" stroke="#b44" stroke-width="0.6" '
             f'stroke-dasharray="3 2"/>']
    if at is not None and 0 <= at < len(f.hp):
        x = xy(at, 0)[0]
        parts.append(f'<line x1="{x}" y1="0" x2="{x}" y2="{CHART_H}" stroke="#888" stroke-width="1" class="hp-at"/>')
    parts.append(f'<polyline points="{line}" fill="none" stroke="{colour_of(r, f.side)}" stroke-width="1.8" '
                 f'stroke-linejoin="round"/>')
    for fall in f.falls:
        if fall.step < len(f.hp):
            x, y = xy(fall.step, f.hp[fall.step])
            parts.append(f'<path d="M{x - 3},{y - 3}L{x + 3},{y + 3}M{x - 3},{y + 3}L{x + 3},{y - 3}" '
                         f'stroke="#b22" stroke-width="1.6" class="hp-fall"/>')
    parts.append("</svg>")
    return "".join(parts)


def _hp_words(r: Recap, f: Figures) -> str:
    now = f.hp_word if f.hp_words else f"{f.hp[-1]}/{f.max_hp} HP"
    falls = "; ".join(fall_words(r, f, x) for x in f.falls)
    return f"{f.name}: {now}" + (f"; down {falls}" if falls else "")


def fall_words(r: Recap, f: Figures, fall) -> str:
    by = r.name_of(fall.by) if fall.by else ""
    when = f"at step {fall.step} ({r.clock_unit} {fall.clock})" if r.steps else f"in {r.clock_unit} {fall.clock}"
    return when + (f" by {by}" if by and fall.by != f.id else "")


def damage_bars(r: Recap) -> str:
    """Damage dealt per combatant as horizontal bars in the side's colour, the figure at each bar's end."""
    rows = r.combatants
    most = max([f.dealt for f in rows] + [1])
    height = BAR_ROW * max(1, len(rows)) + 4
    span = BAR_W - BAR_LABEL - 34
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {BAR_W} {height}" class="dmg-bars" '
             f'role="img" aria-label="Damage dealt per combatant">', "<title>Damage dealt per combatant</title>"]
    if not any(f.dealt for f in rows):
        rows = ()
        parts[0] = parts[0].replace(f'0 0 {BAR_W} {height}"', f'0 0 {BAR_W} 24"')
        parts.append('<text x="4" y="16" font-size="12" font-family="sans-serif" fill="#555">'
                     'No damage dealt by a combatant yet.</text>')
    for k, f in enumerate(rows):
        y = 2 + k * BAR_ROW
        w = round(span * f.dealt / most, 1)
        name = f.name if len(f.name) <= 16 else f.name[:15] + "…"
        parts.append(f'<text x="{BAR_LABEL - 4}" y="{y + 14}" text-anchor="end" font-size="12" '
                     f'font-family="sans-serif" fill="currentColor">{esc(name)}</text>')
        parts.append(f'<rect x="{BAR_LABEL}" y="{y + 3}" width="{w}" height="{BAR_ROW - 6}" rx="2" '
                     f'fill="{colour_of(r, f.side)}"><title>{esc(f.name)}: {f.dealt} dealt</title></rect>')
        parts.append(f'<text x="{BAR_LABEL + w + 4}" y="{y + 14}" font-size="12" font-family="sans-serif" '
                     f'fill="currentColor">{f.dealt}</text>')
    parts.append("</svg>")
    return "".join(parts)


# --- the rows both files show --------------------------------------------------------------------

HEAD = ("Combatant", "Side", "HP", "Dealt", "Taken", "Healed", "Hits", "Misses", "Down", "Conditions", "Spells")


def rows(r: Recap) -> list[tuple[str, ...]]:
    """One row of plain text per combatant (the table of both exports and of the page's summary)."""
    sides = {s.id: s.name for s in r.sides}
    out = []
    for f in r.combatants:
        down = fall_words(r, f, f.falls[-1]) if f.down_at is not None else (
            f"rose again ({len(f.falls)} fall{'s' if len(f.falls) > 1 else ''})" if f.falls else "")
        taken = "—" if f.hp_words else str(f.taken)
        healed = "—" if f.hp_words else str(f.healed)
        hp = f.hp_word if f.hp_words else f"{f.hp[-1]}/{f.max_hp}"
        out.append((f.name, sides.get(f.side, f.side), hp, str(f.dealt), taken, healed, str(f.hits), str(f.misses),
                    down, ", ".join(f.conditions), ", ".join(f.spells)))
    return out


def headline(r: Recap) -> str:
    time = f" ({r.clock_label})" if r.clock_label and not r.clock_label.startswith("0 ") else ""
    out = f"{r.title}: {r.steps} step{'s' if r.steps != 1 else ''}, {r.clock_words}{time}"
    return out + (f". {r.outcome}" if r.outcome else "")


def side_lines(r: Recap) -> list[str]:
    return [f"{s.name}: {s.fielded} fielded, {s.down} down at the end ({s.falls} fall{'s' if s.falls != 1 else ''}), "
            f"{s.dealt} damage dealt" for s in r.sides]


CSS = """body{font:15px/1.45 system-ui,sans-serif;margin:1rem auto;max-width:60rem;padding:0 .8rem;color:#222}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:1.4rem}table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{border-bottom:1px solid #ddd;padding:.25rem .4rem;text-align:left;vertical-align:top}
td.n{text-align:right}.scroll{overflow-x:auto}.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.6rem}
figure{margin:0}figcaption{font-size:.85rem}svg{width:100%;height:auto}.dmg-bars{max-width:36rem}
ol.log{font:13px/1.4 ui-monospace,monospace;padding-left:3.5rem}"""


def to_html(r: Recap) -> str:
    """One self-contained page: the summary, its charts and the log; no script, nothing fetched."""
    cells = "".join("<tr>" + "".join(f'<td class="n">{esc(v)}</td>' if 3 <= k <= 7 else f"<td>{esc(v)}</td>"
                                     for k, v in enumerate(row)) + "</tr>" for row in rows(r))
    charts = "".join(f"<figure><figcaption>{esc(f.name)}: {esc(f.hp_word if f.hp_words else f'{f.hp[-1]}/{f.max_hp} HP')}"
                     f"</figcaption>{hp_chart(r, f)}</figure>" for f in r.combatants)
    extra = "".join(f"<li>{esc(line)}</li>" for line in side_lines(r) + list(r.system_recap.lines))
    log = "".join(f'<li value="{i}">{esc(text)}</li>' for i, text in r.log)
    who = " (players' view)" if r.public else ""
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            f"<title>Recap: {esc(r.name)}</title><style>{CSS}</style></head><body>"
            f"<h1>{esc(r.name)}{who}</h1><p class=\"headline\">{esc(headline(r))}</p><ul>{extra}</ul>"
            "<h2>Damage dealt</h2>" + damage_bars(r) +
            "<h2>Hit points over the fight</h2><div class=\"charts\">" + charts + "</div>"
            "<h2>Every combatant</h2><div class=\"scroll\"><table><thead><tr>" +
            "".join(f"<th>{h}</th>" for h in HEAD) + f"</tr></thead><tbody>{cells}</tbody></table></div>"
            f"<h2>Log</h2><ol class=\"log\">{log}</ol>"
            "<p><small>Made by Fray.</small></p></body></html>\n")


_MD = re.compile(r"([\\`*_{}\[\]!|~>])")
_MD_START = re.compile(r"^(\d+)([.)])|^([-+#=])")


def md(text: object) -> str:
    """Text as Markdown shows it literally: its signs escaped, no HTML, one line."""
    s = " ".join(_MD.sub(r"\\\1", str(text)).replace("<", "&lt;").split())
    return _MD_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", s)


def to_markdown(r: Recap) -> str:
    """The summary for a campaign journal: the headline, the figures table, damage as text bars, the log."""
    who = " (players' view)" if r.public else ""
    out = [f"# {md(r.name)}{who}", "", md(headline(r)), ""]
    out += [f"- {md(line)}" for line in side_lines(r) + list(r.system_recap.lines)]
    out += ["", "## Damage dealt", ""]
    most = max([f.dealt for f in r.combatants] + [1])
    out += [f"- {md(f.name)}: {'█' * round(20 * f.dealt / most)} {f.dealt}" for f in r.combatants]
    out += ["", "## Every combatant", "", "| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    out += ["| " + " | ".join(md(v) for v in row) + " |" for row in rows(r)]
    out += ["", "## Log", ""]
    out += [f"{i}\\. {md(text)}  " for i, text in r.log]
    return "\n".join(out) + "\n"
