"""Batch reports: charts and key numbers from game records, as one self-contained HTML file.

The records are folded into ``BatchStats`` (``fivehundred.analysis.stats``) and the charts
(``fivehundred.analysis.charts``, matplotlib, the ``report`` extra) are drawn from those aggregates.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fivehundred.rules.outputs import check_outputs, replace_file
from fivehundred.rules.ruleset import Ruleset

from . import charts
from .stats import SAMPLE, BatchStats, Tally, collect, read_records


@dataclass
class Report:
    """What ``make_report`` made: the aggregates, each chart, and the files written."""

    stats: BatchStats
    charts: list[Any]
    """``fivehundred.analysis.charts.Chart``: name, title, caption and PNG bytes."""
    html: Path | None = None
    pngs: list[Path] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return self.stats.as_dict() | {"charts": [c.title for c in self.charts],
                                       "html": None if self.html is None else str(self.html),
                                       "pngs": [str(p) for p in self.pngs]}


def make_report(records: str | Path | Iterable[str | Path], html: str | Path | None = None,
                png_dir: str | Path | None = None, *, ruleset: Ruleset | str | Path | None = None,
                sample: int = SAMPLE) -> Report:
    """Chart a batch of game records; write one self-contained HTML file and/or a PNG per chart.

    ``ruleset`` replaces the ruleset named in the records (for records of a ruleset file that is
    not installed).  ``sample``: how many games' score trajectories to draw.
    """
    charts.require_matplotlib()  # before reading a possibly large batch
    paths = [records] if isinstance(records, (str, Path)) else list(records)
    inputs = [*paths, ruleset if isinstance(ruleset, (str, Path)) and Path(ruleset).exists() else None]
    check_outputs([html], inputs)
    if png_dir is not None and Path(png_dir).exists():
        check_outputs(Path(png_dir).iterdir(), inputs)
    stats = collect(paths, ruleset=ruleset, sample=sample)
    report = Report(stats, charts.draw_all(stats))
    if png_dir is not None:
        folder = Path(png_dir)
        folder.mkdir(parents=True, exist_ok=True)
        for i, chart in enumerate(report.charts, 1):
            path = folder / f"{i}-{chart.name}.png"
            replace_file(path, chart.png)
            report.pngs.append(path)
    if html is not None:
        report.html = Path(html)
        replace_file(report.html, render_html(stats, report.charts).encode("utf-8"))
    return report


# --- HTML ------------------------------------------------------------------------------------

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:1100px;color:#222;
padding:0 1em;line-height:1.45}
h1{margin-bottom:.2em}.meta{color:#555;margin-top:0}
table{border-collapse:collapse;margin:1em 0}td,th{padding:.25em .8em;border-bottom:1px solid #ddd;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
figure{margin:2em 0}figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{color:#444;margin-top:.4em}figcaption b{color:#222}
"""


def _pct(t: Tally) -> str:
    if t.rate is None or t.ci is None:
        return "–"
    low, high = t.ci
    return f"{100 * t.rate:.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}%)"


def key_numbers(stats: BatchStats) -> list[tuple[str, str]]:
    """The rows of the HTML's table of key numbers."""
    rows = [("games (finished / unfinished)", f"{stats.games} ({stats.finished} / {stats.unfinished})"),
            ("deals", str(stats.deals)),
            ("hands played / passed out", f"{stats.hands_played} / {stats.passed_out}")]
    if stats.misdeals:
        rows.append(("misdeals", str(stats.misdeals)))
    if stats.unbid_played:
        rows.append(("hands played without a contractor", str(stats.unbid_played)))
    quantiles = stats.length_quantiles()
    if quantiles is not None:
        mean, median, low, high = quantiles
        rows.append(("hands per game (mean, median, range)", f"{mean:.1f}, {median:g}, {low}–{high}"))
    made = stats.made()
    rows.append(("contracts made", f"{made.made} of {made.played}: {_pct(made)}"))
    misere = stats.misere()
    rows.append(("misère made", f"{misere.made} of {misere.played}: {_pct(misere)}" if misere.played else "none bid"))
    for team in stats.teams:
        t = stats.win_rate(team)
        rows.append((f"wins {team}", f"{t.made} of {t.played}: {_pct(t)}"))
    if stats.winner_totals.n:
        rows.append(("final score, winners / losers (mean)",
                     f"{stats.winner_totals.mean} / {stats.loser_totals.mean}"))
    return rows


def render_html(stats: BatchStats, charts: list[Any]) -> str:
    """One self-contained page: header, key numbers, and each chart as an embedded PNG."""
    e = html.escape
    rulesets = ", ".join(f"{name} (hash {', '.join(sorted(h))})" for name, h in stats.rulesets.items())
    seeds = list(stats.seeds)
    seed_text = ", ".join(seeds[:10]) + (f" … ({len(seeds)} seeds)" if len(seeds) > 10 else "")
    players = "; ".join(f"{lineup} ({n} games)" for lineup, n in stats.lineups.most_common(5))
    meta = [("ruleset" + ("s" if len(stats.rulesets) > 1 else ""), rulesets),
            ("records", ", ".join(stats.files)), ("seed" + ("s" if len(seeds) > 1 else ""), seed_text)]
    if players:
        meta.append(("players", players))
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Five Hundred report: {e(', '.join(stats.rulesets))}, {stats.games} games</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>Five Hundred: {stats.games} games, {stats.hands_played} hands</h1>",
        '<p class="meta">' + "<br>".join(f"<b>{e(k)}</b>: {e(v)}" for k, v in meta) + "</p>",
    ]
    if len(stats.rulesets) > 1:
        parts.append("<p><b>Note</b>: records of several rulesets are pooled in every chart.</p>")
    parts.append("<h2>Key numbers</h2><table>")
    parts += [f'<tr><th>{e(k)}</th><td class="n">{e(v)}</td></tr>' for k, v in key_numbers(stats)]
    parts.append("</table><h2>Charts</h2>")
    for chart in charts:
        data = base64.b64encode(chart.png).decode("ascii")
        parts.append(f'<figure id="{e(chart.name)}"><img src="data:image/png;base64,{data}" alt="{e(chart.title)}">'
                     f"<figcaption><b>{e(chart.title)}</b>. {e(chart.caption)}</figcaption></figure>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


__all__ = ["BatchStats", "Report", "collect", "make_report", "read_records", "render_html"]
