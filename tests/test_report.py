"""Batch reports: the aggregates against the records and the simulation summary, the charts, the
HTML page, the PNG files, the command line and its errors."""

from __future__ import annotations

import base64
import json
import re
import struct
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from extras import need
from typer.testing import CliRunner, Result

import fivehundred
from fivehundred.analysis.report import make_report
from fivehundred.analysis.stats import BatchStats, collect, position_label
from fivehundred.batch.simulation import Summary, wilson
from fivehundred.cli.app import app
from fivehundred.rules.errors import FiveHundredError, RecordError

PNG = b"\x89PNG\r\n\x1a\n"
CHARTS = 6
TITLES = ["Contracts by bid", "Score trajectories", "Game length", "Misère outcomes", "Seat and side advantage",
          "Tricks taken by the contracting side"]


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


class Batch:
    def __init__(self, folder: Path, ruleset: str, players: str, games: int = 30, seed: int = 3):
        self.path = folder / f"{ruleset}-{players}.jsonl"
        self.summary: Summary = fivehundred.simulate(games=games, seed=seed, ruleset=ruleset, players=players,
                                                     out=self.path)
        self.records = records(self.path)
        self.stats = collect([self.path])


@pytest.fixture(scope="module")
def heuristic(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    return Batch(tmp_path_factory.mktemp("heuristic"), "pagat-australian", "heuristic")


@pytest.fixture(scope="module", params=["six-handed-three-teams", "three-handed", "pagat-australian"])
def batch(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Batch:
    return Batch(tmp_path_factory.mktemp("random"), request.param, "random")


@pytest.fixture()
def charts() -> None:
    """A test that draws the charts needs the report extra (matplotlib); it skips without it."""
    need("matplotlib", "report")


def played(h: dict[str, Any]) -> bool:
    return h["contract"] is not None and h["contract"]["contractor"] is not None and bool(h["totals"])


# --- aggregates ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["perfect", "five-handed", "nullo"])
def test_made_is_counted_as_the_summary_counts_it(tmp_path: Path, ruleset: str) -> None:
    """By the contract's own test on the side's tricks: patastrophe with a partner's trick, a called
    partner's tricks, nullo (never by the score alone)."""
    played = Batch(tmp_path, ruleset, "random", games=60)
    assert {call: [t.played, t.made] for call, t in played.stats.by_call.items()} == played.summary.by_call


def test_the_counts_agree_with_the_simulation_summary(heuristic: Batch) -> None:
    stats, summary = heuristic.stats, heuristic.summary
    assert stats.games == summary.games == 30
    assert stats.finished == 30 - summary.unfinished
    assert stats.deals == summary.deals
    assert stats.hands_played == summary.hands_played
    assert {call: [t.played, t.made] for call, t in stats.by_call.items()} == summary.by_call
    assert dict(stats.wins) == summary.wins
    mean, _, low, high = stats.length_quantiles() or (0, 0, 0, 0)
    assert (round(mean, 2), low, high) == (summary.hands_per_game.mean, summary.hands_per_game.low,
                                           summary.hands_per_game.high)
    expected = summary.as_dict()
    got = stats.as_dict()
    assert got["misere"]["played"] == expected["misere"]["attempts"]
    assert got["misere"]["made"] == expected["misere"]["successes"]
    assert got["win_rate_ci95"] == expected["win_rate_ci95"]


def test_the_counts_agree_with_the_records(batch: Batch) -> None:
    stats, recs = batch.stats, batch.records
    hands = [h for r in recs for h in r["hands"] if played(h)]
    assert stats.hands_played == len(hands)
    assert Counter({c: t.played for c, t in stats.by_call.items()}) == Counter(h["contract"]["call"] for h in hands)
    assert stats.lengths == Counter(sum(map(played, r["hands"])) for r in recs if r["result"])
    assert stats.wins == Counter(r["result"]["winner"] for r in recs if r["result"])
    assert stats.teams == list(recs[0]["result"]["totals"])
    seats = list(recs[0]["hands"][0]["hands"])
    offsets = Counter((seats.index(h["contract"]["contractor"]) - seats.index(h["dealer"])) % len(seats)
                      for h in hands)
    assert {o: t.played for o, t in stats.positions.items()} == offsets
    assert sum(t.made for t in stats.positions.values()) == sum(t.made for t in stats.by_call.values())


def test_make_rates_and_intervals(heuristic: Batch) -> None:
    numbers = heuristic.stats.as_dict()
    for call, entry in numbers["contracts_by_call"].items():
        tally = heuristic.stats.by_call[call]
        assert entry["make_rate"] == round(tally.made / tally.played, 4)
        assert entry["ci95"] == wilson(tally.made, tally.played)
    overall = numbers["contracts"]
    assert overall["played"] == heuristic.stats.hands_played
    assert overall["made"] == sum(e["made"] for e in numbers["contracts_by_call"].values())


def test_a_suit_contract_is_made_when_its_team_scores_and_a_misere_when_no_trick_is_taken(heuristic: Batch) -> None:
    made: Counter[str] = Counter()
    team = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
    for r in heuristic.records:
        for h in filter(played, r["hands"]):
            c = h["contract"]
            if "misere" in c["call"]:
                made[c["call"]] += h["tricks_won"][c["contractor"]] == 0
            else:
                made[c["call"]] += h["scores"][team[c["contractor"]]] > 0
    assert {c: t.made for c, t in heuristic.stats.by_call.items()} == made


def test_the_ladder_order_and_the_contracting_sides_tricks(heuristic: Batch) -> None:
    rungs = [c.rung for c in heuristic.stats.ladder()]
    assert rungs == sorted(rungs)
    partner = {"N": "S", "S": "N", "E": "W", "W": "E"}
    tricks: dict[int, Counter[int]] = {}
    for r in heuristic.records:
        for h in filter(played, r["hands"]):
            c = h["contract"]
            if "misere" not in c["call"]:
                side = h["tricks_won"][c["contractor"]] + h["tricks_won"][partner[c["contractor"]]]
                tricks.setdefault(int(c["call"].rstrip("SCDHNT")), Counter())[side] += 1
    assert heuristic.stats.side_tricks == tricks


def test_trajectories_keep_a_sample_and_a_running_mean(heuristic: Batch) -> None:
    stats = collect([heuristic.path], sample=5)
    assert [t.game for t in stats.trajectories] == [f"{heuristic.path}:{i}" for i in range(1, 6)]
    first = heuristic.records[0]
    assert stats.trajectories[0].totals["NS"] == [0] + [h["totals"]["NS"] for h in first["hands"] if played(h)]
    assert stats.mean_n["NS"][0] == stats.mean_n["NS"][1] == 30  # every game plays a first hand
    after_one = [next(h for h in r["hands"] if played(h))["totals"]["EW"] for r in heuristic.records]
    assert stats.mean_trajectory("EW")[1] == pytest.approx(sum(after_one) / 30)
    counts = stats.mean_n["EW"]
    assert counts == sorted(counts, reverse=True)
    assert len(counts) == max(stats.lengths) + 1


def test_several_files_add_up(heuristic: Batch, tmp_path: Path) -> None:
    twice = collect([heuristic.path, heuristic.path])
    assert twice.games == 60
    assert {c: t.played for c, t in twice.by_call.items()} == {c: 2 * t.played
                                                               for c, t in heuristic.stats.by_call.items()}


def test_position_labels() -> None:
    assert [position_label(o) for o in (1, 2, 3, 0)] == ["1st hand", "2nd hand", "3rd hand", "dealer"]
    assert position_label(5) == "5th hand"


# --- HTML and PNG --------------------------------------------------------------------------------


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG)
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.usefixtures("charts")
def test_html_embeds_every_chart(heuristic: Batch, tmp_path: Path) -> None:
    report = make_report(heuristic.path, html=tmp_path / "report.html")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) == len(report.charts) == CHARTS
    for data in images:
        width, height = png_size(base64.b64decode(data))
        assert 800 <= width <= 1400 and 300 <= height <= 800
    for title in TITLES:
        assert f"<b>{title}</b>" in page
    assert "pagat-australian" in page and heuristic.summary.as_dict()["ruleset"] in page
    assert "<b>seed</b>: 3" in page
    assert f"{heuristic.stats.hands_played} hands" in page
    assert "<th>wins NS</th>" in page and "<th>misère made</th>" in page
    assert "<script" not in page and "http" not in page  # self-contained
    assert report.pngs == []


@pytest.mark.usefixtures("charts")
def test_pngs_are_written(batch: Batch, tmp_path: Path) -> None:
    report = make_report([batch.path], png_dir=tmp_path / "charts")
    assert report.html is None
    names = sorted(p.name for p in (tmp_path / "charts").iterdir())
    assert names == sorted(p.name for p in report.pngs) == [
        "1-contracts.png", "2-scores.png", "3-length.png", "4-misere.png", "5-advantage.png", "6-tricks.png"]
    sizes = {}
    for path in report.pngs:
        data = path.read_bytes()
        width, height = png_size(data)
        assert 800 <= width <= 1400 and 200 <= height <= 800
        sizes[path.name] = len(data)
    assert min(sizes.values()) > 5_000  # a blank canvas of that size is about 2 kB
    assert sizes["1-contracts.png"] > 20_000 and sizes["2-scores.png"] > 20_000


def test_teams_and_seats_come_from_the_records(batch: Batch) -> None:
    rs = fivehundred.load_ruleset(batch.records[0]["ruleset"]["name"])
    assert batch.stats.teams == [t.name for t in rs.players.teams]
    assert set(batch.stats.positions) <= set(range(len(rs.players.seats)))
    assert batch.stats.players_per_game == {len(rs.players.seats)}
    assert sum(batch.stats.wins.values()) == batch.stats.finished


# --- errors --------------------------------------------------------------------------------------


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"nothing\.jsonl: no such file"):
        collect([tmp_path / "nothing.jsonl"])


@pytest.mark.parametrize(("line", "words"), [
    ("{not json", "not JSON"),
    ('{"format": "other"}', "expected format 'fivehundred-record/1'"),
    ("[1, 2]", "a JSON array, not a JSON object"),
    ('{"format": "fivehundred-record/1", "ruleset": {"name": "pagat-australian", "hash": "x"}, "hands": [{}]}',
     "does not match the record schema at hands[0]"),
])
def test_a_bad_line_is_named(heuristic: Batch, tmp_path: Path, line: str, words: str) -> None:
    lines = heuristic.path.read_text(encoding="utf-8").splitlines()[:2]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines, line]) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=f"bad.jsonl:3: .*{re.escape(words)}"):
        collect([bad])


def test_an_unknown_ruleset_asks_for_the_file(heuristic: Batch, tmp_path: Path) -> None:
    record = heuristic.records[0] | {"ruleset": {"name": "our-club", "hash": "x"}}
    path = tmp_path / "club.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"club.jsonl:1: cannot load the recorded ruleset 'our-club'.*--ruleset"):
        collect([path])
    assert collect([path], ruleset="pagat-australian").games == 1


def test_no_records(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(RecordError, match="no game records"):
        collect([empty])


def test_matplotlib_missing(heuristic: Batch, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(FiveHundredError, match=re.escape("pip install 'fivehundred[report]'")):
        make_report(heuristic.path, html=tmp_path / "r.html")
    assert not (tmp_path / "r.html").exists()


# --- command line --------------------------------------------------------------------------------


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["report", *map(str, args)], prog_name="fivehundred")


@pytest.mark.usefixtures("charts")
def test_cli_writes_html_and_pngs(heuristic: Batch, tmp_path: Path) -> None:
    result = run(heuristic.path, "--html", tmp_path / "r.html", "--png", tmp_path / "png", "--sample", "10")
    assert result.exit_code == 0, (result.output, result.exception)
    assert "30 games" in result.stdout and "r.html" in result.stdout
    assert len(list((tmp_path / "png").glob("*.png"))) == CHARTS
    assert (tmp_path / "r.html").read_text(encoding="utf-8").count("data:image/png;base64,") == CHARTS


@pytest.mark.usefixtures("charts")
def test_cli_json(heuristic: Batch, tmp_path: Path) -> None:
    result = run(heuristic.path, "--png", tmp_path, "--json")
    assert result.exit_code == 0, (result.output, result.exception)
    data = json.loads(result.stdout)
    assert data["games"] == 30 and data["hands_played"] == heuristic.summary.hands_played
    assert data["charts"] == TITLES


def user_error(result: Result, *words: str) -> None:
    assert result.exit_code == 1, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.stderr, (word, result.stderr)


@pytest.mark.usefixtures("charts")
def test_cli_errors(heuristic: Batch, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user_error(run(tmp_path / "missing.jsonl", "--html", tmp_path / "r.html"), "missing.jsonl: no such file")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(heuristic.path.read_text(encoding="utf-8").splitlines()[0] + "\n{oops\n", encoding="utf-8")
    user_error(run(bad, "--html", tmp_path / "r.html"), "bad.jsonl:2", "not JSON")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    user_error(run(heuristic.path, "--html", tmp_path / "r.html"), "pip install 'fivehundred[report]'")


def test_cli_usage_errors(heuristic: Batch) -> None:
    result = run(heuristic.path)
    assert result.exit_code == 2
    assert "--html" in result.stderr and "--png" in result.stderr
    assert run("--html", "r.html").exit_code == 2  # no records


def test_batch_stats_is_plain_data(heuristic: Batch) -> None:
    assert isinstance(heuristic.stats, BatchStats)
    json.dumps(heuristic.stats.as_dict())


# --- records of several rulesets: a section each, never pooled ------------------------------------


def _numbers(stats: BatchStats) -> dict[str, Any]:
    return {k: v for k, v in stats.as_dict().items() if k != "files"}


@pytest.mark.usefixtures("charts")
def test_records_of_several_rulesets_are_reported_apart(heuristic: Batch, tmp_path: Path) -> None:
    other = Batch(tmp_path, "nullo", "random", games=12, seed=5)
    both = tmp_path / "both.jsonl"  # one file holding records of both rulesets, interleaved
    lines = other.path.read_text(encoding="utf-8").splitlines()
    both.write_text("\n".join(lines[:6] + heuristic.path.read_text(encoding="utf-8").splitlines() + lines[6:]) + "\n",
                    encoding="utf-8")
    report = make_report([both], html=tmp_path / "r.html", png_dir=tmp_path / "png")
    assert [s.ruleset for s in report.sections] == ["nullo", "pagat-australian"]
    nullo, pagat = report.sections
    assert _numbers(nullo.stats) == _numbers(other.stats) and _numbers(pagat.stats) == _numbers(heuristic.stats)
    assert len(nullo.stats.rulesets) == len(pagat.stats.rulesets) == 1  # nothing pooled
    assert len(report.charts) == 2 * CHARTS
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") == 2 * CHARTS and "pooled in every chart" not in page
    assert page.index('id="ruleset-nullo"') < page.index('id="ruleset-pagat-australian"')
    names = sorted(p.name for p in (tmp_path / "png").iterdir())
    assert names[0] == "nullo-1-contracts.png" and "pagat-australian-6-tricks.png" in names and len(names) == 12
    data = report.as_dict()
    assert set(data["rulesets"]) == {"nullo", "pagat-australian"}
    assert [s["ruleset"] for s in data["sections"]] == ["nullo", "pagat-australian"]
    assert [s["games"] for s in data["sections"]] == [12, 30]


@pytest.mark.usefixtures("charts")
def test_cli_reports_each_ruleset(heuristic: Batch, tmp_path: Path) -> None:
    other = Batch(tmp_path, "three-handed", "random", games=10, seed=2)
    result = run(heuristic.path, other.path, "--html", tmp_path / "r.html", "--json")
    assert result.exit_code == 0, (result.output, result.exception)
    data = json.loads(result.stdout)
    assert [(s["ruleset"], s["games"], s["files"]) for s in data["sections"]] == [
        ("pagat-australian", 30, [str(heuristic.path)]), ("three-handed", 10, [str(other.path)])]
    result = run(heuristic.path, other.path, "--html", tmp_path / "r.html")
    assert "records of 2 rulesets: a section each" in result.stdout
    assert "pagat-australian: 30 games" in result.stdout and "three-handed: 10 games" in result.stdout
