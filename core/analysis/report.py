"""Batch reports: charts and key numbers from game records, as one self-contained HTML file.

The records are folded into ``BatchStats`` (``fivehundred.analysis.stats``) and the charts
(``fivehundred.analysis.charts``, matplotlib, the ``report`` extra) are drawn from those aggregates.
Records of several rulesets are never pooled: the report has a section per ruleset (by the name the
records give), each with its own key numbers and charts.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fivehundred.records.rulesets import RulesetRefs
from fivehundred.rules.outputs import check_folder, check_outputs, replace_file
from fivehundred.rules.ruleset import Ruleset

from . import charts
from .stats import SAMPLE, BatchStats, Tally, collect, collect_by_ruleset, read_records


@dataclass
class Section:
    """The report of one ruleset's records: its aggregates and its charts."""

    ruleset: str
    stats: BatchStats
    charts: list[Any]
    """``fivehundred.analysis.charts.Chart``: name, title, caption and PNG bytes."""

    def as_dict(self) -> dict[str, Any]:
        return self.stats.as_dict() | {"charts": [c.title for c in self.charts]}


@dataclass
class Report:
    """What ``make_report`` made: a section per ruleset the records name, and the files written."""

    sections: list[Section]
    html: Path | None = None
    pngs: list[Path] = field(default_factory=list)

    @property
    def stats(self) -> BatchStats:
        """The first ruleset's aggregates (the only one's when the records are of one ruleset)."""
        return self.sections[0].stats

    @property
    def charts(self) -> list[Any]:
        """Every section's charts, section by section."""
        return [chart for section in self.sections for chart in section.charts]

    def as_dict(self) -> dict[str, Any]:
        """The key numbers: one ruleset's at the top level; with several, ``rulesets`` (name: hashes, as for
        one) and ``sections`` (each ruleset's key numbers, with its ``ruleset`` name)."""
        written = {"html": None if self.html is None else str(self.html), "pngs": [str(p) for p in self.pngs]}
        if len(self.sections) == 1:
            return self.sections[0].as_dict() | written
        rulesets = {name: sorted(hashes) for s in self.sections for name, hashes in s.stats.rulesets.items()}
        return {"rulesets": rulesets,
                "sections": [{"ruleset": s.ruleset} | s.as_dict() for s in self.sections]} | written


def make_report(records: str | Path | Iterable[str | Path], html: str | Path | None = None,
                png_dir: str | Path | None = None, *, ruleset: RulesetRefs = None,
                sample: int = SAMPLE) -> Report:
    """Chart a batch of game records; write one self-contained HTML file and/or a PNG per chart.

    Records of several rulesets are reported apart, a section per ruleset (its PNGs named
    ``RULESET-N-CHART.png``).  A record is read under the ruleset it carries or names; ``ruleset`` gives
    rulesets (names, files, or loaded: one, or a list), each for the records of its name (a lone one for every
    record).  ``sample``: how many games' score trajectories to draw.
    """
    charts.require_matplotlib()  # before reading a possibly large batch
    paths = [records] if isinstance(records, (str, Path)) else list(records)
    given = [ruleset] if isinstance(ruleset, (str, Path, Ruleset)) else list(ruleset or ())
    inputs = [*paths, *(r for r in given if isinstance(r, (str, Path)) and Path(r).exists())]
    check_outputs([html], inputs, "report")
    if png_dir is not None:
        check_folder(png_dir)
    groups = collect_by_ruleset(paths, ruleset=ruleset, sample=sample)
    report = Report([Section(name, stats, charts.draw_all(stats)) for name, stats in groups.items()])
    if png_dir is not None:
        folder = Path(png_dir)
        folder.mkdir(parents=True, exist_ok=True)
        pngs = []
        for section in report.sections:
            prefix = "" if len(report.sections) == 1 else f"{_file_stem(section.ruleset)}-"
            pngs += [(folder / f"{prefix}{i}-{chart.name}.png", chart) for i, chart in enumerate(section.charts, 1)]
        check_outputs([path for path, _ in pngs], inputs, "chart")
        for path, chart in pngs:
            replace_file(path, chart.png)
            report.pngs.append(path)
    if html is not None:
        report.html = Path(html)
        replace_file(report.html, render_sections(report.sections).encode("utf-8"))
    return report


def _file_stem(name: str) -> str:
    """A ruleset's name as a safe part of a file name."""
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name).lstrip(".") or "ruleset"


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
    return "\n".join([*_head(f"{', '.join(stats.rulesets)}, {stats.games} games"),
                      f"<h1>Five Hundred: {stats.games} games, {stats.hands_played} hands</h1>",
                      *_body(stats, charts, 2), "</body></html>\n"])


def render_sections(sections: list[Section]) -> str:
    """The page of ``render_html`` for one ruleset's records; for several, a section per ruleset."""
    if len(sections) == 1:
        return render_html(sections[0].stats, sections[0].charts)
    e = html.escape
    games = sum(s.stats.games for s in sections)
    parts = [*_head(f"{len(sections)} rulesets, {games} games"),
             f"<h1>Five Hundred: {games} games of {len(sections)} rulesets</h1>",
             "<p>The records name several rulesets: each has its own section, key numbers and charts (they are "
             "never pooled).</p><ul>"]
    parts += [f'<li><a href="#{e(_anchor(s.ruleset))}">{e(s.ruleset)}</a>: {s.stats.games} games, '
              f"{s.stats.hands_played} hands</li>" for s in sections]
    parts.append("</ul>")
    for section in sections:
        parts.append(f'<section id="{e(_anchor(section.ruleset))}"><h2>{e(section.ruleset)}: {section.stats.games} '
                     f"games, {section.stats.hands_played} hands</h2>")
        parts += _body(section.stats, section.charts, 3, prefix=f"{_anchor(section.ruleset)}-")
        parts.append("</section>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _anchor(name: str) -> str:
    return "ruleset-" + _file_stem(name)


def _head(title: str) -> list[str]:
    return ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            f"<title>Five Hundred report: {html.escape(title)}</title>", f"<style>{CSS}</style></head><body>"]


def _body(stats: BatchStats, charts: list[Any], level: int, prefix: str = "") -> list[str]:
    """The header lines, key numbers and charts of one batch, under headings of ``level``."""
    e = html.escape
    rulesets = ", ".join(f"{name} (hash {', '.join(sorted(h))})" for name, h in stats.rulesets.items())
    seeds = list(stats.seeds)
    seed_text = ", ".join(seeds[:10]) + (f" … ({len(seeds)} seeds)" if len(seeds) > 10 else "")
    players = "; ".join(f"{lineup} ({n} games)" for lineup, n in stats.lineups.most_common(5))
    meta = [("ruleset" + ("s" if len(stats.rulesets) > 1 else ""), rulesets),
            ("records", ", ".join(stats.files)), ("seed" + ("s" if len(seeds) > 1 else ""), seed_text)]
    if players:
        meta.append(("players", players))
    parts = ['<p class="meta">' + "<br>".join(f"<b>{e(k)}</b>: {e(v)}" for k, v in meta) + "</p>"]
    if len(stats.rulesets) > 1:
        parts.append("<p><b>Note</b>: records of several rulesets are pooled in every chart.</p>")
    for name, hashes in stats.rulesets.items():
        if len(hashes) > 1:
            parts.append(f"<p><b>Note</b>: records of {len(hashes)} versions of {e(name)} (different content under "
                         "one name: see the hashes) are pooled.</p>")
    parts.append(f"<h{level}>Key numbers</h{level}><table>")
    parts += [f'<tr><th>{e(k)}</th><td class="n">{e(v)}</td></tr>' for k, v in key_numbers(stats)]
    parts.append(f"</table><h{level}>Charts</h{level}>")
    for chart in charts:
        data = base64.b64encode(chart.png).decode("ascii")
        parts.append(f'<figure id="{e(prefix + chart.name)}"><img src="data:image/png;base64,{data}" '
                     f'alt="{e(chart.title)}"><figcaption><b>{e(chart.title)}</b>. {e(chart.caption)}</figcaption>'
                     "</figure>")
    return parts


__all__ = ["BatchStats", "Report", "Section", "collect", "collect_by_ruleset", "make_report", "read_records",
           "render_html", "render_sections"]
