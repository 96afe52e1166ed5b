"""Odds as the page and the command line show them: a compact figure per option, the distribution as rows.

The numbers come from engine/odds.py (the real rules); this module only
words them: "62 % · 4.5 dmg", "press on: 2–4, avg 2.8", "41 % to be
stopped", and the full distribution as text rows with bars.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..engine.commands import Command, Illegal, Option
from ..engine.odds import Budget, Odds, OddsError, mean, odds

BAR = 20  # characters of a full bar


def option_command(option: Option) -> Command | None:
    """The command a tap on this option would act on with no more questions: its default answer
    applied (else the first); None when it needs something the page must ask for (a path, a target)."""
    if not option.allowed or option.needs:
        return None
    cmd = option.command
    if option.choices:
        choice = option.choices[option.default if 0 <= option.default < len(option.choices) else 0]
        try:
            cmd = replace(cmd, **choice.values)
        except TypeError:
            return None
    return cmd


CERTAIN = "certain"  # the figure of an option whose outcome no die changes


@dataclass(frozen=True)
class OptionOdds:
    """One option's odds as shown: the compact figure, the rows, and the numbers behind them."""

    index: int
    label: str
    figure: str              # "" when there is nothing to show (refused, needs a choice)
    rows: tuple[str, ...]
    odds: Odds | None = None
    note: str = ""           # why there are no odds (refused, needs a path, an error)


def of_option(ruleset: Any, state: Any, index: int, option: Option, budget: Budget = Budget(),
              exact: bool = False, seed: int = 0) -> OptionOdds:
    """An option's odds, worded (never raises: a problem becomes its note)."""
    if not option.allowed:
        return OptionOdds(index, option.label, "", (), None, f"refused: {option.why}")
    cmd = option_command(option)
    if cmd is None:
        needs = ", ".join(n.split(":")[-1] for n in option.needs) or "a choice"
        return OptionOdds(index, option.label, "", (), None, f"needs {needs} first")
    try:
        got = odds(ruleset, state, cmd, budget=budget, exact=exact, seed=seed)
    except OddsError as exc:
        return OptionOdds(index, option.label, "", (), None, str(exc))
    if isinstance(got, Illegal):
        return OptionOdds(index, option.label, "", (), None, f"refused: {got.detail}")
    return OptionOdds(index, option.label, figure(got), tuple(rows(got)), got)


def pct(p: Fraction) -> str:
    """A chance in words: "62 %", "<1 %", ">99 %", "100 %"."""
    v = float(p) * 100
    if 0 < v < 1:
        return "<1 %"
    if 99 < v < 100:
        return ">99 %"
    return f"{v:.0f} %"


def num(x: Fraction | float) -> str:
    v = float(x)
    return f"{v:.0f}" if abs(v - round(v)) < 0.05 else f"{v:.1f}"


def figure(o: Odds) -> str:
    """The compact figure on an option's button."""
    mark = "≈" if o.approx else ""
    hit = sum((p for v, p in o.dealt if v > 0), Fraction(0))
    stopped = o.chance("stopped")
    if stopped:
        most = o.attacked[-1][0] if o.attacked else 0
        aoo = f"{most} AoO, " if most else ""
        return f"{mark}path: {aoo}{pct(stopped)} to be stopped"
    if o.chance("charge failed") == 1:  # CORE-ODDS-1: no die of it decides anything; it cannot land
        return f"{mark}0 %: ends out of reach"
    if o.chance("answer awaited") == 1 and not hit:  # what follows hangs on someone's answer: never "certain"
        return f"{mark}asks first: the rest waits for the answer"
    if hit:
        text = f"{mark}{pct(hit)} · {num(mean(o.dealt))} dmg"
        downs = [p for cid, p in o.down if cid != o.actor]
        if downs:
            text += f" · {pct(max(downs))} down"
        return text
    if any(v for v, _ in o.taken):
        lo, hi = o.taken[0][0], o.taken[-1][0]
        what = "press on" if o.roll("pressure") else "takes"
        span = f"{lo}" if lo == hi else f"{lo}–{hi}"
        return f"{mark}{what}: {span}, avg {num(mean(o.taken))}"
    if len(o.outcomes) > 1:
        label, p = o.outcomes[0]
        return f"{mark}{pct(p)} {label.split(' · ')[0].lower()}"
    decides = [(purpose, dist) for purpose, dist in o.rolls if len(dist) > 1]
    for purpose, dist in decides:
        if "initiative" not in purpose.lower():
            return f"{mark}{dist[0][0]}–{dist[-1][0]}, avg {num(mean(dist))}"
    # CORE-ODDS-1: an initiative die's raw faces ("1–20") say nothing of what it decides (who acts first,
    # with which modifier): nothing is shown rather than a figure that misleads
    return "" if decides else CERTAIN  # one outcome, no die that matters


def _bar(p: Fraction) -> str:
    n = round(float(p) * BAR)
    return "█" * n if n or not p else "▏"


def _row(label: str, p: Fraction, width: int = 28) -> str:
    if len(label) > width:
        label = label[:width - 1] + "…"
    return f"{label:<{width}} {pct(p):>6}  {_bar(p)}"


def rows(o: Odds) -> list[str]:
    """The full distribution as text rows (the popover and the command line)."""
    name = o.names.get
    out = []
    if o.approx:
        out.append(f"≈ {o.samples} samples (seeded; exact on request)")
    else:
        out.append(f"exact ({o.branches} branches)")
    width = max([28] + [min(48, len(label)) for label, _ in o.outcomes])
    out.extend(_row(label, p, width) for label, p in o.outcomes)
    if any(v for v, _ in o.dealt):
        out.append(f"damage dealt, avg {num(mean(o.dealt))}:")
        out.extend(_row(f"  {v}", p) for v, p in o.dealt)
    if any(v for v, _ in o.taken):
        out.append(f"damage taken, avg {num(mean(o.taken))}:")
        out.extend(_row(f"  {v}", p) for v, p in o.taken)
    if o.down:
        out.append("down after:")
        out.extend(_row(f"  {name(cid, cid)}", p) for cid, p in o.down)
    if o.hp:
        out.append("expected HP after: " + ", ".join(f"{name(cid, cid)} {num(hp)}" for cid, hp in o.hp))
    return out


def to_json(oo: OptionOdds) -> dict[str, Any]:
    """An option's odds as plain JSON: chances as exact fractions ("5/8") and as numbers."""
    out: dict[str, Any] = {"index": oo.index, "label": oo.label, "figure": oo.figure}
    if oo.odds is None:
        out["note"] = oo.note
        return out
    o = oo.odds

    def chances(pairs) -> list[dict[str, Any]]:
        return [{"value": k, "p": str(p), "float": round(float(p), 6)} for k, p in pairs]

    out.update({
        "exact": o.exact, "samples": o.samples, "branches": o.branches,
        "outcomes": chances(o.outcomes), "dealt": chances(o.dealt), "taken": chances(o.taken),
        "down": chances(o.down), "hp_after": {cid: round(float(hp), 4) for cid, hp in o.hp},
        "rolls": {purpose: chances(d) for purpose, d in o.rolls},
    })
    return out
