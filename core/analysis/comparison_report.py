"""A comparison as one self-contained HTML page: its metrics, a chart of its headline, and every chart of
the batch report (``fivehundred.analysis.charts``) for both arms side by side.

``compare_with_report`` plays the comparison (``fivehundred.compare``) and folds each game's record
into one ``BatchStats`` per arm as the pairs finish (constant memory, as ``report`` reads a file), then
draws and writes the page.  The charts need matplotlib (the ``report`` extra).
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fivehundred.batch.arms import Arm, arm_rulesets, players_text
from fivehundred.batch.comparison import NEWCOMBE, PAIRED, WELCH, Comparison, Estimate, Metric, compare
from fivehundred.batch.simulation import MAX_DEALS
from fivehundred.rules.outputs import check_outputs, replace_file
from fivehundred.rules.ruleset import Ruleset

from . import charts
from .report import CSS
from .stats import SAMPLE, BatchStats, RulesInfo


class ArmStats:
    """Both arms' ``BatchStats``, folded from the games' records pair by pair (``compare``'s ``on_records``)."""

    def __init__(self, a: Ruleset, b: Ruleset, sample: int = SAMPLE):
        self.rules = (RulesInfo.of(a), RulesInfo.of(b))
        self.a, self.b = BatchStats(sample_size=sample), BatchStats(sample_size=sample)
        self.a.files, self.b.files = ["arm A"], ["arm B"]

    def add(self, record_a: dict[str, Any], record_b: dict[str, Any]) -> None:
        game = record_a.get("game")
        self.a.add(record_a, self.rules[0], f"arm A, game {game}")
        self.b.add(record_b, self.rules[1], f"arm B, game {game}")


@dataclass
class ComparisonReport:
    """What ``compare_with_report`` made: the comparison, each arm's aggregates, and the page written."""

    comparison: Comparison
    a: BatchStats
    b: BatchStats
    html: Path


def compare_with_report(games: int, seed: int | str, a: Arm | None, b: Arm | None, *, html: str | Path,
                        workers: int = 1, progress: Callable[[int], None] | None = None,
                        max_deals: int = MAX_DEALS, tuned_per_arm: bool = False,
                        sample: int = SAMPLE) -> ComparisonReport:
    """``fivehundred.compare`` (the same arguments), and its two-arm HTML report written to ``html``.

    ``sample``: how many games' score trajectories each arm's chart draws.  The page is written also
    when Ctrl-C stopped the comparison early (it says so)."""
    charts.require_matplotlib()  # before playing a possibly long comparison
    a, b = a or Arm(), b or Arm()
    rs_a, rs_b = arm_rulesets(a, b)
    check_outputs([html], [r for r in (a.ruleset, b.ruleset) if isinstance(r, (str, Path)) and Path(r).exists()])
    arms = ArmStats(rs_a, rs_b, sample)
    result = compare(games, seed, Arm(rs_a, a.players), Arm(rs_b, b.players), workers=workers, progress=progress,
                     max_deals=max_deals, tuned_per_arm=tuned_per_arm, on_records=arms.add)
    path = Path(html)
    replace_file(path, render_comparison(result, arms.a, arms.b).encode("utf-8"))
    return ComparisonReport(result, arms.a, arms.b, path)


# --- the page ------------------------------------------------------------------------------------

_MORE_CSS = """
body{max-width:1500px}.pair{display:grid;grid-template-columns:1fr 1fr;gap:1.2em;align-items:start}
.pair figure{margin:.5em 0}.warn{background:#fff3e0;border-left:4px solid #ef6c00;padding:.5em 1em}
td.sig{font-weight:bold;color:#b71c1c}caption{text-align:left;font-weight:bold;padding:.3em 0}
"""


def render_comparison(c: Comparison, a: BatchStats, b: BatchStats) -> str:
    """One self-contained page: the arms, the metrics (headline first), the headline chart, and each of the
    batch report's charts for arm A and arm B side by side."""
    e = html.escape
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Five Hundred comparison: {e(c.a.ruleset)} against {e(c.b.ruleset)}, {c.games} games</title>",
        f"<style>{CSS}{_MORE_CSS}</style></head><body>",
        f"<h1>Five Hundred: {e(c.a.ruleset)} (A) against {e(c.b.ruleset)} (B)</h1>",
        '<p class="meta">' + "<br>".join(f"<b>{e(k)}</b>: {e(v)}" for k, v in _meta(c)) + "</p>",
    ]
    parts += [f'<p class="warn">{e(line)}</p>' for line in c.warnings]
    parts.append("<h2>Headline</h2>")
    parts.append(_table(c, c.headline, "what the rules change in the game"))
    parts.append(_img("headline", "Headline", charts.figure_png(charts.headline_chart(c)),
                      "Each arm's share with its 95% Wilson interval; * marks a difference B − A whose 95% interval "
                      "excludes 0."))
    parts.append("<h2>Every metric</h2>")
    parts.append(_table(c, [m for m in c.metrics if m.paired and not m.headline], "per game, paired"))
    parts.append(_table(c, [m for m in c.metrics if not m.paired and not m.headline], "per hand, not paired"))
    parts.append(f"<p>* the 95% interval of B − A excludes 0. Per game: {e(PAIRED)}. Per-hand rates: {e(NEWCOMBE)}. "
                 f"Contractor-side tricks: {e(WELCH)}. Each arm's own interval: Wilson (rates) or ± 1.96·sd/√n.</p>")
    parts.append(f"<h2>Charts: arm A ({e(c.a.ruleset)}) left, arm B ({e(c.b.ruleset)}) right</h2>")
    for name, title, caption, draw in charts.CHARTS:
        parts.append(f'<h3 id="{e(name)}">{e(title)}</h3><p>{e(caption)}</p><div class="pair">')
        figures = draw(a), draw(b)
        share_scales(*figures, SHARED.get(name, ""))
        for arm, figure, info in (("A", figures[0], c.a), ("B", figures[1], c.b)):
            parts.append(_img(f"{name}-{arm}", f"{title}, arm {arm}", charts.figure_png(figure),
                              f"Arm {arm}: {info.ruleset}"))
        parts.append("</div>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


SHARED = {"contracts": "y", "scores": "xy", "length": "xy", "misere": "x"}
"""The axes each pair of charts draws on one scale (where they count the same thing: not bids, whose
ladders may differ, nor the rates, which run from 0 to 100% already)."""


def share_scales(first: Any, second: Any, axes: str) -> None:
    """Give the two figures' axes, pair by pair, the limits that hold both (``axes``: ``x``, ``y``, ``xy``)."""
    for one, other in zip(first.axes, second.axes, strict=False):
        if not one.has_data() or not other.has_data():
            continue  # an empty chart ("No game finished") keeps its own frame
        for axis in axes:
            get, set_ = f"get_{axis}lim", f"set_{axis}lim"
            (low_a, high_a), (low_b, high_b) = getattr(one, get)(), getattr(other, get)()
            limits = (min(low_a, low_b), max(high_a, high_b))
            getattr(one, set_)(*limits)
            getattr(other, set_)(*limits)


def _meta(c: Comparison) -> list[tuple[str, str]]:
    p = c.pairing
    rows = [("games", f"{c.games} pairs, seed {c.seed}" + (" (interrupted: the pairs finished)" if c.interrupted
                                                             else ""))]
    for arm, info in (("A", c.a), ("B", c.b)):
        rows.append((f"arm {arm}", f"{info.ruleset} (hash {info.ruleset_hash}); players {players_text(info.players)}"))
    rows.append(("pairing", f"first deal identical in {p.first_deals_identical} of {p.games} pairs; "
                            f"{p.deals_identical} of {p.deals_compared} deals reached by both games identical"))
    return rows


def _table(c: Comparison, metrics: list[Metric], caption: str) -> str:
    e = html.escape
    rows = [f"<table><caption>{e(caption)}</caption><tr><th>metric</th><th>A (95% CI)</th><th>B (95% CI)</th>"
            "<th>B − A</th><th>95% CI of B − A</th><th>n</th></tr>"]
    for m in metrics:
        sig = ' class="n sig"' if m.significant else ' class="n"'
        n = str(m.a.n) if m.paired else f"{m.a.n} / {m.b.n}"
        rows.append(f"<tr><th>{e(m.label)}</th><td class=\"n\">{e(_estimate(m, m.a))}</td>"
                    f"<td class=\"n\">{e(_estimate(m, m.b))}</td>"
                    f"<td{sig}>{e(_number(m, m.difference, signed=True))}{' *' if m.significant else ''}</td>"
                    f"<td class=\"n\">{e(_interval(m, m.ci95))}</td><td class=\"n\">{e(n)}</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _img(name: str, title: str, png: bytes, caption: str) -> str:
    e = html.escape
    data = base64.b64encode(png).decode("ascii")
    return (f'<figure id="{e(name)}"><img src="data:image/png;base64,{data}" alt="{e(title)}">'
            f"<figcaption>{e(caption)}</figcaption></figure>")


def _number(m: Metric, x: float | None, *, signed: bool = False) -> str:
    if x is None:
        return "–"
    sign = "+" if signed else ""
    if m.rate:
        return f"{100 * x:{sign}.1f}" + (" pp" if signed else "%")
    return f"{x:{sign}.{1 if 'score' in m.name else 2}f}"


def _interval(m: Metric, ci: tuple[float, float] | None, *, signed: bool = True) -> str:
    if ci is None:
        return "–"
    low, high = _number(m, ci[0], signed=signed), _number(m, ci[1], signed=signed)
    return f"{low.removesuffix(' pp').removesuffix('%')} … {high}"


def _estimate(m: Metric, est: Estimate) -> str:
    if est.value is None:
        return "–"
    return _number(m, est.value) + ("" if est.ci95 is None else f" ({_interval(m, est.ci95, signed=False)})")
