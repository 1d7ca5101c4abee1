"""compare compares rules: tuned parameters inherited along ``extends``, pinned alike in both arms, named
in the output; ``club:RULESET``; the headline metrics; the two-arm HTML report."""

from __future__ import annotations

import json
import pickle
import re
import sys
from pathlib import Path

import pytest
import yaml
from extras import need
from typer.testing import CliRunner

import fivehundred
from fivehundred.batch.arms import Arm
from fivehundred.batch.comparison import ended_by_fall, game_facts
from fivehundred.batch.simulation import play_game
from fivehundred.bots.club import ClubPlayer
from fivehundred.bots.params import DEFAULT, ParamsError, params_spec, shipped_sets, tuned_for, tuned_source
from fivehundred.cli.app import app
from fivehundred.records.record import game_to_dict
from fivehundred.rules.loading import bundled_dir, load_ruleset
from fivehundred.rules.twins import nearest_shipped, shipped_twin

REF = "pagat-australian"


def renamed(tmp_path: Path, name: str = "same", base: str = REF) -> Path:
    """A ruleset that only renames ``base``: the same rules under another name."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: {base}\nname: {name}\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def invoke(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), prog_name="fivehundred")
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


# --- tuned parameters along extends -----------------------------------------------------------


def test_every_shipped_ruleset_keeps_its_own_tuned_set() -> None:
    """What a shipped ruleset's club players play with does not change: each has a set of its own."""
    shipped = sorted(p.stem for p in bundled_dir().glob("*.yaml"))
    for name in shipped:
        assert tuned_source(load_ruleset(name)) == name
        assert tuned_for(load_ruleset(name)) == tuned_for(name)
    assert shipped_sets() == shipped


def test_a_ruleset_inherits_its_nearest_ancestors_set(tmp_path: Path) -> None:
    same = load_ruleset(renamed(tmp_path))
    assert same.name == "same" and same.ancestors == (REF,)
    assert tuned_source(same) == REF and tuned_for(same) == tuned_for(REF) != DEFAULT
    # through a file extended by path to a shipped variant: the variant's set, not the reference's
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "base.yaml").write_text("extends: six-handed\nname: canadian-like\n", encoding="utf-8")
    (tmp_path / "top.yaml").write_text("extends: sub/base.yaml\nname: top\n", encoding="utf-8")
    top = load_ruleset(tmp_path / "top.yaml")
    assert top.ancestors == ("six-handed", REF)
    assert tuned_for(top) == tuned_for("six-handed") != tuned_for(REF)
    # the lineage survives what a batch does with a ruleset: pickling to workers, copies
    assert pickle.loads(pickle.dumps(top)).ancestors == top.ancestors
    assert top.model_copy(update={"name": "other"}).ancestors == top.ancestors
    assert top == pickle.loads(pickle.dumps(top))


@pytest.mark.parametrize(("base", "change"), [(REF, ("game", "target", 1000)),
                                              (REF, ("auction", "ladder", 0, "value", 50)),
                                              ("three-handed", ("game", "target", 400))])
def test_a_copy_with_a_house_rule_gets_its_originals_set(base: str, change: tuple) -> None:
    """Copied, renamed and one setting changed: no shipped ruleset plays this game, the nearest is the original."""
    data = load_ruleset(base).model_dump(mode="json") | {"name": "house"}
    *path, value = change
    inner = data
    for key in path[:-1]:
        inner = inner[key]
    assert inner[path[-1]] != value
    inner[path[-1]] = value
    built = fivehundred.Ruleset.model_validate(data)
    assert built.ancestors == () and shipped_twin(built) is None
    assert tuned_source(built) == base and tuned_for(built) == tuned_for(base)
    assert nearest_shipped(built) == base


def test_seat_names_do_not_matter_but_who_partners_whom_does() -> None:
    data = load_ruleset(REF).model_dump(mode="json") | {"name": "renamed-seats"}
    names = {"N": "Ann", "E": "Bob", "S": "Cat", "W": "Dan"}
    data["players"] = {"seats": [names[s] for s in data["players"]["seats"]],
                       "teams": [t | {"seats": [names[s] for s in t["seats"]]} for t in data["players"]["teams"]]}
    data["game"] = data["game"] | {"target": 1000}
    built = fivehundred.Ruleset.model_validate(data)
    assert tuned_source(built) == REF
    # the same four seats in one team each: no shipped ruleset seats them so, the defaults
    data["players"]["teams"] = [{"name": n, "seats": [n]} for n in data["players"]["seats"]]
    alone = fivehundred.Ruleset.model_validate(data)
    assert nearest_shipped(alone) is None and tuned_source(alone) is None and tuned_for(alone) == DEFAULT


@pytest.mark.parametrize("base", [REF, "three-handed", "nullo"])
def test_a_copy_of_a_shipped_file_under_a_new_name_gets_its_set(tmp_path: Path, base: str) -> None:
    """Copied, not extended: renamed and described anew, the same game, so the same players."""
    data = load_ruleset(base).model_dump(mode="json")
    data |= {"name": "our-club", "description": "The rules of our club.", "source": "Our notice board"}
    built = fivehundred.Ruleset.model_validate(data)
    assert built.ancestors == () and tuned_source(built) == base and tuned_for(built) == tuned_for(base)
    copy = tmp_path / "our-club.yaml"
    copy.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    a = game_to_dict(play_game(base, 9, "club", game=0))
    b = game_to_dict(play_game(str(copy), 9, "club", game=0))
    assert b["ruleset"]["name"] == "our-club"
    assert {k: v for k, v in a.items() if k != "ruleset"} == {k: v for k, v in b.items() if k != "ruleset"}


@pytest.mark.searches
def test_a_renamed_ruleset_plays_the_reference_games(tmp_path: Path) -> None:
    """simulate's club players (no compare involved) play a renamed ruleset as they play the reference."""
    same = str(renamed(tmp_path))
    for game in range(4):
        a = game_to_dict(play_game(REF, 9, "club", game=game))
        b = game_to_dict(play_game(same, 9, "club", game=game))
        assert b["ruleset"]["name"] == "same"
        assert {k: v for k, v in a.items() if k != "ruleset"} == {k: v for k, v in b.items() if k != "ruleset"}


# --- club:RULESET ----------------------------------------------------------------------------------


def test_club_takes_a_shipped_set_by_ruleset_name() -> None:
    assert params_spec("nullo") == tuned_for("nullo") != tuned_for(REF)
    assert params_spec("default") == DEFAULT
    import random

    player = ClubPlayer.from_spec(0, random.Random(1), "three-handed")
    assert player.params == tuned_for("three-handed")


@pytest.mark.parametrize(("arg", "hint"), [("pagat-australia", "did you mean pagat-australian?"),
                                            ("pagat", "did you mean pagat-australian?"),
                                            ("six-handed-two-joker", "did you mean six-handed-two-jokers?"),
                                            ("zzz", "sets ship for american-1904")])
def test_an_unknown_set_suggests_the_nearest(arg: str, hint: str) -> None:
    with pytest.raises(ParamsError, match="no tuned parameters ship for") as caught:
        params_spec(arg)
    assert hint in str(caught.value) and "\n" not in str(caught.value)


def test_a_parameters_file_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"params": {"trick_bias": -0.25}}), encoding="utf-8")
    assert params_spec(str(path)).trick_bias == -0.25
    with pytest.raises(ParamsError, match="cannot read"):
        params_spec(str(tmp_path / "missing.json"))


def test_cli_club_ruleset(runner: CliRunner, tmp_path: Path) -> None:
    code, out, _ = invoke(runner, "simulate", "-n", "3", "-p", "club:pagat-australian", "-o", str(tmp_path / "a.jsonl"))
    assert code == 0
    code, out, err = invoke(runner, "simulate", "-n", "3", "-p", "club:pagat-australia")
    assert code == 1 and out == "" and "did you mean pagat-australian?" in err and len(err.strip().splitlines()) == 1


# --- compare: both arms play with the same parameters ------------------------------------------


@pytest.mark.searches
def test_a_renamed_reference_compares_equal_on_every_metric(tmp_path: Path) -> None:
    c = fivehundred.compare(150, 2, Arm(), Arm(renamed(tmp_path)))
    assert c.b.ruleset == "same" and c.a.ruleset_hash != c.b.ruleset_hash
    assert c.a.players == c.b.players == [f"club:{REF}"] * 4
    assert c.a.params == c.b.params == [REF] * 4 and not c.params_differ and c.warnings == []
    assert c.pairing.deals_identical == c.pairing.deals_compared > 150  # the same games, deal for deal
    for m in c.metrics:
        assert m.a == m.b, m.name
        assert m.difference in (0, None) and not m.significant, m.name
    assert any(m.name == "contract_share.misere" for m in c.metrics)


@pytest.mark.searches
def test_cli_a_renamed_reference_compares_equal(runner: CliRunner, tmp_path: Path) -> None:
    same = renamed(tmp_path)
    code, out, err = invoke(runner, "compare", "-n", "150", "--seed", "2", "--ruleset-b", str(same))
    assert code == 0 and err == ""
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert len(rows) > 20 and not any("*" in row for row in rows)
    assert f"club parameters: both arms tuned for {REF}" in out and "warning" not in out
    code, out, _ = invoke(runner, "compare", "-n", "40", "--seed", "2", "--ruleset-b", str(same), "--json")
    data = json.loads(out)
    assert data["warnings"] == [] and data["arms"]["B"]["params"] == [REF] * 4
    assert not any(m["significant"] for m in data["metrics"])
    assert all(m["difference"] in (0, None) for m in data["metrics"])


@pytest.mark.searches
def test_arm_b_plays_with_arm_as_set_unless_tuned_per_arm() -> None:
    pinned = fivehundred.compare(20, 1, Arm(), Arm("nullo"))
    assert pinned.b.players == [f"club:{REF}"] * 4 and pinned.warnings == []
    own = fivehundred.compare(20, 1, Arm(), Arm("nullo"), tuned_per_arm=True)
    assert own.a.players == [f"club:{REF}"] * 4 and own.b.players == ["club:nullo"] * 4
    assert own.params_differ and "tuned for nullo" in own.warnings[0]
    # arm A is played as before: its bare club was its own ruleset's set already
    assert own.metric("win_rate.NS").a == pinned.metric("win_rate.NS").a
    # a user ruleset as arm A: its ancestor's set, in both arms
    assert fivehundred.compare(5, 1, Arm("avondale-us"), Arm(REF)).b.players == ["club:avondale-us"] * 4
    # club:fast is pinned the same way: arm A's set, without the open-misère search, in both arms
    fast = fivehundred.compare(5, 1, Arm(players="club:fast"), Arm("nullo"))
    assert fast.b.players == [f"club:fast:{REF}"] * 4 and fast.warnings == []


def test_explicit_parameters_are_kept_and_differences_warned() -> None:
    c = fivehundred.compare(10, 1, Arm(REF, "club:default"), Arm("canadian", "club:nullo"))
    assert c.a.players == ["club:default"] * 4 and c.b.players == ["club:nullo"] * 4
    assert c.warnings and "the defaults" in c.warnings[0] and "tuned for nullo" in c.warnings[0]
    players = fivehundred.compare(10, 1, Arm(REF, "club:default"), Arm(players="heuristic"))  # players compared
    assert players.params_differ and players.warnings == []
    mixed = fivehundred.compare(5, 1, Arm(players="club,random,club,random"))
    assert mixed.a.players == [f"club:{REF}", "random"] * 2 and mixed.a.params == [REF, None] * 2


@pytest.mark.searches
def test_cli_tuned_per_arm_warns(runner: CliRunner) -> None:
    code, out, err = invoke(runner, "compare", "-n", "10", "--ruleset-b", "nullo", "--tuned-per-arm")
    assert code == 0 and "warning: the arms' players use different parameters" in out
    assert "A tuned for pagat-australian; B tuned for nullo" in out
    code, out, err = invoke(runner, "compare", "-n", "10", "--ruleset-b", "nullo", "--tuned-per-arm", "--json")
    assert json.loads(out)["warnings"] and "warning" in err


def test_cli_compare_unknown_set_fails_before_playing(runner: CliRunner) -> None:
    code, out, err = invoke(runner, "compare", "-n", "100000", "--players-b", "club:nulo")
    assert code == 1 and out == "" and "did you mean nullo?" in err


# --- the headline --------------------------------------------------------------------------------


@pytest.mark.searches
def test_headline_metrics_count_what_the_games_hold() -> None:
    c = fivehundred.compare(12, 4, Arm(REF), Arm("american-1904"))
    assert [m.name for m in c.headline][-3:] == ["passed_out_rate", "fall_rate", "hands_per_game"]
    for arm, ruleset in (("a", REF), ("b", "american-1904")):
        kinds: dict[str, int] = {}
        deals = hands = falls = 0
        for game in range(12):
            state = play_game(ruleset, 4, "club:pagat-australian", game=game)
            deals += state.deals
            for log in state.hands_log:
                o = log.outcome
                if o is None:
                    continue
                hands += 1
                if o.contractor >= 0:
                    kind = o.contract.call if o.kind == "misere" else o.kind
                    kinds[kind] = kinds.get(kind, 0) + 1
            totals, swamp = state.totals, state.rules.ruleset.game.swamp
            falls += state.result is not None and swamp is not None and min(totals) <= swamp
            assert ended_by_fall(state) == (state.result is not None and swamp is not None and min(totals) <= swamp)
        shares = {m.name.removeprefix("contract_share."): getattr(m, arm) for m in c.headline
                  if m.name.startswith("contract_share.")}
        contracts = sum(kinds.values())
        assert {k: e.value * e.n for k, e in shares.items() if e.value} == pytest.approx(kinds)
        assert all(e.n == contracts for e in shares.values())
        assert sum(e.value for e in shares.values()) == pytest.approx(1)
        passed = getattr(c.metric("passed_out_rate"), arm)
        assert passed.n == deals and passed.value == pytest.approx((deals - hands) / deals)
        assert getattr(c.metric("fall_rate"), arm).value == pytest.approx(falls / 12)
    assert c.metric("fall_rate").b.value == 0  # the 1904 rules have no losing score
    assert fivehundred.compare(30, 1, Arm("american-1904")).metric("passed_out_rate").a.value > 0  # they pass out


@pytest.mark.searches
def test_headline_of_a_real_change_is_significant() -> None:
    c = fivehundred.compare(120, 2, Arm(REF), Arm("nullo"))
    open_misere, nullo = c.metric("contract_share.open-misere"), c.metric("contract_share.nullo")
    assert open_misere.a.value > 0.1 and open_misere.b.value == 0 and open_misere.significant
    assert nullo.a.value == 0 and nullo.b.value > 0 and nullo.significant
    assert all(m.headline for m in (open_misere, nullo)) and open_misere.label == "contracts: open misère"
    assert open_misere.a.ci95 is not None and open_misere.a.ci95[0] < open_misere.a.value < open_misere.a.ci95[1]


def test_fall_is_a_side_at_the_losing_score() -> None:
    for game in range(40):
        state = play_game(REF, 3, "random", game=game)
        assert game_facts(state).fell == ("fell to" in (state.result.reason if state.result else ""))


@pytest.mark.searches
def test_cli_shows_the_headline_first(runner: CliRunner) -> None:
    code, out, _ = invoke(runner, "compare", "-n", "20", "--ruleset-b", "nullo")
    assert code == 0
    first = out.index("headline")
    assert first < out.index("contract mix:") < out.index("open misère") < out.index("ended by a fall")
    assert out.index("hands/game") < out.index("per game, paired") < out.index("win rate NS")


# --- compare --html ------------------------------------------------------------------------------


def test_compare_html_two_arms_side_by_side(runner: CliRunner, tmp_path: Path) -> None:
    need("matplotlib", "report")
    page = tmp_path / "cmp.html"
    code, out, _ = invoke(runner, "compare", "-n", "20", "--ruleset-b", "nullo", "--html", str(page))
    assert code == 0 and f"html: {page}" in out
    text = page.read_text(encoding="utf-8")
    assert text.count('<div class="pair">') == 6 and text.count("data:image/png;base64,") == 13
    for word in ("Headline", "contracts: open misère", "games ended by a fall", "win rate NS", "arm A", "nullo"):
        assert word in text, word
    markup = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "data:", text)  # a chart's bytes may spell anything
    assert not (tmp_path / "cmp.html.partial").exists() and "<script" not in markup and "http" not in markup


def test_compare_html_api_folds_each_arms_records(tmp_path: Path) -> None:
    need("matplotlib", "report")
    from fivehundred.analysis.comparison_report import compare_with_report

    made = compare_with_report(15, 3, Arm(players="random"), Arm("avondale-us"), html=tmp_path / "c.html")
    assert made.a.games == made.b.games == 15
    assert made.a.hands_played == made.comparison.metric("make_rate").a.n
    assert made.b.hands_played == made.comparison.metric("make_rate").b.n
    assert list(made.a.rulesets) == [REF] and list(made.b.rulesets) == ["avondale-us"]
    # side by side on one scale where the axes count the same thing
    from fivehundred.analysis import charts
    from fivehundred.analysis.comparison_report import share_scales

    one, other = charts.length_chart(made.a), charts.length_chart(made.b)
    before = [ax.get_ylim()[1] for ax in (one.axes[0], other.axes[0])]
    share_scales(one, other, "xy")
    assert one.axes[0].get_ylim() == other.axes[0].get_ylim() and one.axes[0].get_ylim()[1] == max(before)
    assert one.axes[0].get_xlim() == other.axes[0].get_xlim()


def test_compare_html_without_matplotlib_names_the_extra(runner: CliRunner, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    page = tmp_path / "cmp.html"
    code, out, err = invoke(runner, "compare", "-n", "100000", "--html", str(page))
    assert code == 1 and out == "" and "fivehundred[report]" in err and len(err.strip().splitlines()) == 1
    assert not page.exists()


def test_compare_html_never_over_a_ruleset(runner: CliRunner, tmp_path: Path) -> None:
    need("matplotlib", "report")
    same = renamed(tmp_path)
    before = same.read_text()
    code, _, err = invoke(runner, "compare", "-n", "3", "--ruleset-b", str(same), "--html", str(same))
    assert code == 1 and "is also an input" in err and same.read_text() == before


def test_calibrate_starts_a_renamed_ruleset_from_its_ancestors_set(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "same.json"
    code, _, _ = invoke(runner, "calibrate", "-r", str(renamed(tmp_path, base="three-handed")), "--fit-misere",
                        "-n", "3", "--seed", "1", "-o", str(path))
    assert code == 0
    data = json.loads(path.read_text())
    assert data["tuning"]["steps"]  # three-handed's shipped tuning run, which it started from
    changed = data["tuning"]["misere_fit"]["changed"]
    assert params_spec(str(path)) == tuned_for("three-handed").model_copy(update=changed)
