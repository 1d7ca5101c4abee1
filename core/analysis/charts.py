"""The charts of a batch report, drawn with matplotlib (the ``report`` extra) from ``BatchStats``.

Each chart is a function from the aggregates to a matplotlib ``Figure``; ``draw_all`` renders them
all to PNG.  Figures are made without pyplot, on the Agg canvas, so nothing global changes.
Colours mean the same thing in every chart: one per contract type (suit, no trumps, misère) and one
per team.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from fivehundred.rules.errors import FiveHundredError

from .stats import BatchStats, CallInfo, Tally, position_label

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure

    from fivehundred.batch.comparison import Comparison

INSTALL = "pip install 'fivehundred[report]'"

SUIT_SYMBOLS = "♠♣♦♥"
TYPE_COLOURS = {"S": "#37474f", "C": "#2e7d32", "D": "#ef6c00", "H": "#c62828", "NT": "#1565c0",
                "misere": "#7b1fa2"}
TYPE_NAMES = {"S": "♠ spades", "C": "♣ clubs", "D": "♦ diamonds", "H": "♥ hearts", "NT": "no trumps",
              "misere": "misère"}
TEAM_COLOURS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#8c8c8c", "#000000"]
WON_COLOUR, MADE_COLOUR = "#5c6bc0", "#43a047"
DPI = 100
ERROR_STYLE = {"ecolor": "#424242", "elinewidth": 1.2}


@dataclass(frozen=True)
class Chart:
    """One rendered chart: a file-name stem, its title, a one-line caption and the PNG bytes."""

    name: str
    title: str
    caption: str
    png: bytes


def require_matplotlib() -> None:
    """Raise a clear error naming the extra to install when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise FiveHundredError(f"reports need matplotlib, which is not installed: {INSTALL}") from None


def _figure(width: float, height: float) -> Figure:
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _style(ax: Axes, *, grid: Literal["x", "y", "both"] | None = "y") -> None:
    ax.spines[["top", "right"]].set_visible(False)
    if grid:
        ax.grid(axis=grid, color="#e0e0e0", linewidth=0.8)
        ax.set_axisbelow(True)


def _integers(axis: Axis) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def figure_png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def _pct(tally: Tally) -> str:
    if tally.rate is None or tally.ci is None:
        return "–"
    return f"{100 * tally.rate:.0f}% (95% CI {100 * tally.ci[0]:.0f}–{100 * tally.ci[1]:.0f}%)"


def _yerr(tallies: list[Tally]) -> list[list[float]]:
    """Error-bar lengths (below, above) in percent from each tally's Wilson interval."""
    below, above = [], []
    for t in tallies:
        if t.rate is None or t.ci is None:
            below.append(0.0)
            above.append(0.0)
        else:
            below.append(100 * (t.rate - t.ci[0]))
            above.append(100 * (t.ci[1] - t.rate))
    return [below, above]


def _counts(ax: Axes, xs: list[float] | list[int], tallies: list[Tally], texts: list[str], colour: str) -> None:
    """Write each count just above the top of its interval."""
    for x, t, text in zip(xs, tallies, texts, strict=True):
        top = 0.0 if t.ci is None else 100 * t.ci[1]
        ax.text(x, top + 1.5, text, ha="center", va="bottom", fontsize=9, color=colour, fontweight="bold")


def _rate(t: Tally) -> float:
    return math.nan if t.rate is None else 100 * t.rate


def contract_type(info: CallInfo) -> str:
    if info.kind == "misere":
        return "misere"
    return "NT" if info.trump is None else "SCDH"[info.trump]


def bid_label(info: CallInfo) -> str:
    """A bid as a player reads it: 7♥, 8NT, open misère."""
    if info.kind == "misere":
        return info.call.replace("-", " ").replace("misere", "misère")
    if info.kind == "trumps" and info.trump is not None and info.call[:-1].isdigit():
        return f"{info.tricks}{SUIT_SYMBOLS[info.trump]}"
    return info.call


def misere_label(info: CallInfo) -> str:
    label = bid_label(info)
    if "open" in label:
        return label
    return f"{label} ({'open' if info.open else 'closed'})"


def team_colour(stats: BatchStats, team: str) -> str:
    return TEAM_COLOURS[stats.teams.index(team) % len(TEAM_COLOURS)]


def _empty(ax: Axes, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=12, color="#666")
    ax.set_xticks([])
    ax.set_yticks([])


# --- (1) contracts by bid ----------------------------------------------------------------------


def contracts_chart(stats: BatchStats) -> Figure:
    """Contracts played at each bid (bars) and the share made, with 95% intervals (points)."""
    from matplotlib.patches import Patch

    ladder = stats.ladder()
    figure = _figure(12, 7)
    count_ax, rate_ax = figure.subplots(2, 1, sharex=True, height_ratios=[3, 2])
    figure.suptitle(f"Contracts by bid: how often each was played and made ({stats.hands_played} hands)",
                    fontsize=14, fontweight="bold")
    if not ladder:
        _empty(count_ax, "No contract was played")
        return figure
    xs = list(range(len(ladder)))
    tallies = [stats.by_call[c.call] for c in ladder]
    colours = [TYPE_COLOURS[contract_type(c)] for c in ladder]
    bars = count_ax.bar(xs, [t.played for t in tallies], color=colours, width=0.75)
    count_ax.bar_label(bars, fontsize=8, padding=2)
    count_ax.set_ylabel("contracts played (count)")
    count_ax.margins(y=0.12)
    _style(count_ax)
    present = [k for k in TYPE_COLOURS if k in {contract_type(c) for c in ladder}]
    count_ax.legend(handles=[Patch(color=TYPE_COLOURS[k], label=TYPE_NAMES[k]) for k in present],
                    loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False, ncols=len(present))
    for x, t, colour in zip(xs, tallies, colours, strict=True):
        rate_ax.errorbar([x], [_rate(t)], yerr=[[e[0]] for e in _yerr([t])], fmt="o", color=colour,
                         markersize=5, capsize=3, elinewidth=1.2)
    rate_ax.set_ylim(-3, 103)
    rate_ax.set_yticks([0, 25, 50, 75, 100])
    rate_ax.set_ylabel("made (%, 95% CI)")
    rate_ax.set_xlabel("winning bid, in ladder order", labelpad=8)
    rate_ax.set_xticks(xs, [bid_label(c).replace(" ", "\n") for c in ladder], fontsize=11 if len(ladder) < 24 else 9)
    _style(rate_ax)
    return figure


# --- (2) score trajectories --------------------------------------------------------------------


def scores_chart(stats: BatchStats) -> Figure:
    """Running totals per team, hand by hand: a sample of games (thin) and the mean (thick)."""
    figure = _figure(11, 7)
    ax, running_ax = figure.subplots(2, 1, sharex=True, height_ratios=[4, 1])
    shown = len(stats.trajectories)
    figure.suptitle(f"Score trajectories: {'the first ' if shown < stats.games else ''}{shown} games "
                    f"(thin) and the mean of all {stats.games} (thick)", fontsize=14, fontweight="bold")
    for game in stats.trajectories:
        for team, points in game.totals.items():
            ax.plot(range(len(points)), points, color=team_colour(stats, team), linewidth=0.7, alpha=0.35)
    floor = max(1, math.ceil(0.1 * stats.games))
    for team in stats.teams:
        mean = stats.mean_trajectory(team, floor)
        ax.plot(range(len(mean)), mean, color=team_colour(stats, team), linewidth=3, label=f"{team}: mean")
    for target, swamp in sorted(stats.bounds, key=lambda b: (b[0], b[1] or 0)):
        ax.axhline(target, color="#333", linestyle="--", linewidth=1)
        ax.annotate(f"target {target}", (1, target), xycoords=("axes fraction", "data"), ha="right",
                    va="bottom", fontsize=9, color="#333")
        if swamp is not None:
            ax.axhline(swamp, color="#b71c1c", linestyle="--", linewidth=1)
            ax.annotate(f"lose at {swamp}".replace("-", "−"), (1, swamp), xycoords=("axes fraction", "data"),
                        ha="right", va="top", fontsize=9, color="#b71c1c")
    ax.axhline(0, color="#999", linewidth=0.8)
    ax.set_ylabel("running total (points)")
    ax.legend(loc="upper left", frameon=False, ncols=min(4, len(stats.teams)),
              title=f"mean over the games still running, while ≥ {floor}", alignment="left")
    _style(ax, grid="both")
    running = [max(n) for n in zip(*stats.mean_n.values(), strict=False)] if stats.mean_n else []
    running_ax.fill_between(range(len(running)), running, step="mid", color="#b0bec5")
    running_ax.axhline(floor, color="#333", linestyle=":", linewidth=1)
    running_ax.set_ylabel("games\nrunning")
    running_ax.set_xlabel("hands played")
    running_ax.set_ylim(0, stats.games * 1.05)
    _integers(running_ax.xaxis)
    _style(running_ax)
    return figure


# --- (3) game length ---------------------------------------------------------------------------


def length_chart(stats: BatchStats) -> Figure:
    """How many hands the finished games lasted."""
    figure = _figure(10, 5)
    ax = figure.subplots()
    ax.set_title(f"Game length: hands played per game ({stats.finished} finished games)",
                 fontsize=14, fontweight="bold")
    quantiles = stats.length_quantiles()
    if quantiles is None:
        _empty(ax, "No game finished")
        return figure
    lengths = sorted(stats.lengths)
    ax.bar(lengths, [stats.lengths[n] for n in lengths], width=0.85, color="#607d8b")
    mean, median, _, _ = quantiles
    ax.axvline(mean, color="#c62828", linewidth=2, label=f"mean {mean:.1f}")
    ax.axvline(median, color="#1565c0", linewidth=2, linestyle="--", label=f"median {median:g}")
    ax.set_xlabel("hands played in the game")
    ax.set_ylabel("games (count)")
    _integers(ax.xaxis)
    _integers(ax.yaxis)
    note = f"; {stats.unfinished} unfinished game(s) not shown" if stats.unfinished else ""
    ax.legend(loc="upper right", frameon=False, title=f"{stats.finished} games{note}")
    _style(ax)
    return figure


# --- (4) misère --------------------------------------------------------------------------------


def misere_chart(stats: BatchStats) -> Figure:
    """Misère contracts played by type, made and failed."""
    kinds = [c for c in stats.ladder() if c.kind == "misere"]
    figure = _figure(10, 2.2 + 0.8 * max(1, len(kinds)))
    ax = figure.subplots()
    total = stats.misere()
    made_text = f": {total.made} of {total.played} made" if total.played else ""
    ax.set_title(f"Misère outcomes{made_text}", fontsize=14, fontweight="bold")
    if not kinds:
        _empty(ax, "No misère contract was played")
        return figure
    colour = TYPE_COLOURS["misere"]
    ys = list(range(len(kinds)))[::-1]
    tallies = [stats.by_call[c.call] for c in kinds]
    made = [t.made for t in tallies]
    failed = [t.played - t.made for t in tallies]
    ax.barh(ys, made, color=colour, height=0.6, label="made")
    ax.barh(ys, failed, left=made, color=colour, alpha=0.25, hatch="//", edgecolor=colour, height=0.6,
            label="failed")
    widest = max(t.played for t in tallies)
    for y, t in zip(ys, tallies, strict=True):
        ax.text(t.played + 0.01 * widest, y, f" {t.made} of {t.played} made: {_pct(t)}", va="center", fontsize=10)
    ax.set_yticks(ys, [misere_label(c) for c in kinds])
    ax.set_xlim(0, widest * 1.6)
    ax.set_xlabel("misère contracts played (count)")
    _integers(ax.xaxis)
    ax.legend(loc="lower right", frameon=False)
    _style(ax, grid="x")
    return figure


# --- (5) seat and side advantage ---------------------------------------------------------------


def advantage_chart(stats: BatchStats) -> Figure:
    """Win rate by team; contracts won and made by the contractor's place after the dealer."""
    figure = _figure(12, 5.5)
    offsets = sorted(stats.positions, key=lambda o: (o == 0, o))
    team_ax, seat_ax = figure.subplots(1, 2, width_ratios=[max(2, len(stats.teams)), max(3, len(offsets)) * 1.4])
    figure.suptitle("Seat and side advantage", fontsize=14, fontweight="bold")
    _wins(team_ax, stats)
    _positions(seat_ax, stats, offsets)
    return figure


def _wins(ax: Axes, stats: BatchStats) -> None:
    tallies = [stats.win_rate(team) for team in stats.teams]
    ax.set_title(f"Games won by team ({stats.finished} finished)")
    if not stats.finished:
        _empty(ax, "No game finished")
        return
    xs = list(range(len(stats.teams)))
    ax.bar(xs, [_rate(t) for t in tallies], yerr=_yerr(tallies), capsize=5, width=0.6, error_kw=ERROR_STYLE,
           color=[team_colour(stats, team) for team in stats.teams])
    _counts(ax, xs, tallies, [f"{t.made} of {t.played}" for t in tallies], "#222")
    ax.axhline(100 / len(stats.teams), color="#333", linestyle="--", linewidth=1,
               label=f"even: {100 / len(stats.teams):.0f}%")
    ax.set_xticks(xs, stats.teams)
    ax.set_xlabel("team")
    ax.set_ylabel("games won (%, 95% CI)")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper right", frameon=False)
    _style(ax)


def _positions(ax: Axes, stats: BatchStats, offsets: list[int]) -> None:
    contracts = sum(t.played for t in stats.positions.values())
    ax.set_title(f"Contracts by the contractor's place after the dealer ({contracts} contracts)")
    if not offsets:
        _empty(ax, "No contract was played")
        return
    xs = list(range(len(offsets)))
    share = [Tally(contracts, stats.positions[o].played) for o in offsets]
    made = [stats.positions[o] for o in offsets]
    width = 0.38
    for shift, tallies, colour, label in ((-width / 2, share, WON_COLOUR, "share of contracts won"),
                                          (width / 2, made, MADE_COLOUR, "contracts made (of those won)")):
        at = [x + shift for x in xs]
        ax.bar(at, [_rate(t) for t in tallies], width, yerr=_yerr(tallies), capsize=4, color=colour, label=label,
               error_kw=ERROR_STYLE)
        _counts(ax, at, tallies, [str(t.made) for t in tallies], colour)
    if len(stats.players_per_game) == 1:
        players = next(iter(stats.players_per_game))
        ax.axhline(100 / players, color=WON_COLOUR, linestyle=":", linewidth=1.5,
                   label=f"even share: {100 / players:.0f}%")
    ax.set_xticks(xs, [position_label(o) for o in offsets])
    ax.set_xlabel("contractor's place (1st hand is the dealer's left)")
    ax.set_ylabel("% (95% CI; counts above)")
    ax.set_ylim(0, 119)
    ax.set_yticks([0, 20, 40, 60, 80, 100])
    ax.legend(loc="upper center", frameon=False, ncols=3, fontsize=9)
    _style(ax)


# --- (6) tricks of the contracting side --------------------------------------------------------


def tricks_chart(stats: BatchStats) -> Figure:
    """Tricks the contracting side took, by the tricks its contract called for (share of each row)."""
    levels = sorted(stats.side_tricks)
    figure = _figure(11, 1.8 + 0.7 * max(2, len(levels)))
    ax = figure.subplots()
    ax.set_title("Tricks taken by the contracting side, by tricks bid (suit and no-trump contracts)",
                 fontsize=14, fontweight="bold")
    if not levels:
        _empty(ax, "No suit or no-trump contract was played")
        return figure
    most = max(max(c) for c in stats.side_tricks.values())
    columns = list(range(most + 1))
    rows = []
    for level in levels:
        counts = stats.side_tricks[level]
        n = sum(counts.values())
        rows.append([100 * counts[k] / n for k in columns])
    top = max(max(row) for row in rows)
    image = ax.imshow(rows, cmap="Blues", vmin=0, vmax=top, aspect="auto")
    for r, level in enumerate(levels):
        for k in columns:
            share = rows[r][k]
            if stats.side_tricks[level][k]:
                ax.text(k, r, f"{share:.0f}%" if share >= 0.5 else "<1%", ha="center", va="center", fontsize=9,
                        color="white" if share > 0.6 * top else "#222")
        if level <= most:  # the edge of the cells that make the contract
            ax.plot([level - 0.5, level - 0.5], [r - 0.5, r + 0.5], color="#c62828", linewidth=2.5)
    ax.set_xticks(columns)
    ax.set_yticks(range(len(levels)), [f"{lv} bid (n={sum(stats.side_tricks[lv].values())})" for lv in levels])
    ax.set_xlabel("tricks taken by the contracting side (red line: enough to make the contract)")
    ax.set_ylabel("tricks bid")
    figure.colorbar(image, ax=ax, label="% of the contracts in the row", fraction=0.03)
    return figure


# --- two arms of a comparison ----------------------------------------------------------------

ARM_COLOURS = ("#455a64", "#d81b60")


def headline_chart(comparison: Comparison) -> Figure:
    """The headline rates of both arms of a comparison side by side, each with its 95% interval: the
    contract mix (left) and passed-out deals and games ended by a fall (right); * marks a difference
    whose interval excludes 0."""
    from matplotlib.patches import Patch

    mix = [m for m in comparison.headline if m.name.startswith("contract_share.")]
    ends = [m for m in comparison.headline if m.name in ("passed_out_rate", "fall_rate")]
    figure = _figure(12, 5.5)
    mix_ax, ends_ax = figure.subplots(1, 2, width_ratios=[max(3, len(mix)), 2 + max(2, len(ends))])
    figure.suptitle(f"A: {comparison.a.ruleset} against B: {comparison.b.ruleset} ({comparison.games} paired games)",
                    fontsize=14, fontweight="bold")
    figure.legend(handles=[Patch(color=ARM_COLOURS[0], label=f"A: {comparison.a.ruleset}"),
                           Patch(color=ARM_COLOURS[1], label=f"B: {comparison.b.ruleset}")],
                  loc="outside lower center", ncols=2, frameon=False)
    _arm_bars(mix_ax, mix, "Contract mix: share of the contracts played")
    _arm_bars(ends_ax, ends, "Passed-out deals; games ended by a fall")
    return figure


def _arm_bars(ax: Axes, metrics: list[Any], title: str) -> None:
    """Bars of arm A and arm B for each rate metric (``Metric``), with the arms' own 95% intervals."""
    ax.set_title(title)
    if not metrics:
        _empty(ax, "Nothing to show")
        return
    xs = list(range(len(metrics)))
    width = 0.38
    top = 0.0
    for shift, arm, colour in ((-width / 2, "a", ARM_COLOURS[0]), (width / 2, "b", ARM_COLOURS[1])):
        estimates = [getattr(m, arm) for m in metrics]
        values = [math.nan if e.value is None else 100 * e.value for e in estimates]
        below = [0.0 if e.ci95 is None or e.value is None else 100 * (e.value - e.ci95[0]) for e in estimates]
        above = [0.0 if e.ci95 is None or e.value is None else 100 * (e.ci95[1] - e.value) for e in estimates]
        ax.bar([x + shift for x in xs], values, width, yerr=[below, above], capsize=4, color=colour,
               error_kw=ERROR_STYLE)
        top = max([top, *(100 * e.ci95[1] for e in estimates if e.ci95 is not None)])
    for x, m in zip(xs, metrics, strict=True):
        if m.significant:
            ax.text(x, top + 2, "*", ha="center", va="bottom", fontsize=16, fontweight="bold")
    ax.set_ylim(0, top * 1.1 + 8)
    ax.set_xticks(xs, [m.label.removeprefix("contracts: ").replace("games ", "games\n") for m in metrics])
    ax.set_ylabel("% (95% CI; * the arms differ)")
    _style(ax)


# --- all charts --------------------------------------------------------------------------------

CHARTS: list[tuple[str, str, str, Callable[[BatchStats], Any]]] = [
    ("contracts", "Contracts by bid",
     "Bars: contracts played at each winning bid, in ladder order, coloured by trump suit; points: the share "
     "made, with 95% Wilson intervals.", contracts_chart),
    ("scores", "Score trajectories",
     "Each team's running total after each hand played: thin lines for a sample of games, thick for the mean "
     "over the games still running; dashed lines mark the target and the losing score.", scores_chart),
    ("length", "Game length",
     "Hands played (passed-out deals not counted) in each finished game.", length_chart),
    ("misere", "Misère outcomes",
     "Misère contracts played, by type (open or closed), made (solid) and failed (hatched).", misere_chart),
    ("advantage", "Seat and side advantage",
     "Left: share of finished games each team won, with 95% Wilson intervals (dashed: an even share). "
     "Right: by the contractor's place after the dealer, the share of all contracts that place won and the "
     "share of its contracts it made.", advantage_chart),
    ("tricks", "Tricks taken by the contracting side",
     "For each number of tricks bid, how many tricks the contracting side took, as a share of those "
     "contracts; cells right of the red line are contracts made.", tricks_chart),
]


def draw_all(stats: BatchStats) -> list[Chart]:
    """Render every chart to PNG."""
    return [Chart(name, title, caption, figure_png(draw(stats))) for name, title, caption, draw in CHARTS]
