"""Rulesets in words: ``explain`` (``rules show``), ``diff`` (``rules diff``), and the contradictions
a ruleset is refused for, each with a message that says what is wrong."""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner, Result

import fivehundred
from fivehundred.cli.app import app
from fivehundred.rules.explain import FIELD_WORDS, Difference, diff, explain
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.ruleset import Ruleset

REF = "pagat-australian"
Data = dict[str, Any]
Mutation = Callable[[Data], None]


@pytest.fixture(scope="module")
def ref() -> Ruleset:
    return load_ruleset(REF)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --- every field path of the ruleset model ---------------------------------------------------


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model class an annotation holds directly or as ``Model | None``."""
    options = typing.get_args(annotation) if isinstance(annotation, types.UnionType) else (annotation,)
    return next((o for o in options if isinstance(o, type) and issubclass(o, BaseModel)), None)


def field_patterns(model: type[BaseModel] = Ruleset, prefix: str = "", fixed: bool = False) -> Iterator[str]:
    """Every field path, ``*`` standing for a key of a mapping or a call of the ladder; ``fixed``:
    with the fields that have a single possible value."""
    for name, info in model.model_fields.items():
        if info.exclude:
            continue  # input only (auction.ladder_changes): applied when loaded, never part of a resolved ruleset
        path, annotation = f"{prefix}{name}", info.annotation
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if origin is typing.Literal and len(args) == 1 and not fixed:
            continue  # a single possible value (kitty.taken_by): nothing can differ
        if origin is dict:
            yield f"{path}.*"
            if inner := _model_in(args[1]):
                yield from field_patterns(inner, f"{path}.*.", fixed)
        elif origin is tuple and path == "auction.ladder":
            yield from field_patterns(_model_in(args[0]) or BaseModel, f"{path}.*.", fixed)
        elif inner := _model_in(annotation):
            if inner is not annotation:
                yield path  # an optional block (scoring.slam): present or null
            yield from field_patterns(inner, f"{path}.", fixed)
        else:
            yield path


PATTERNS = sorted(field_patterns())


def test_field_patterns_cover_the_variant_fields() -> None:
    for path in ("players.dummies.*", "deal.packets", "deal.redeals", "auction.ladder.*.first_calls",
                 "auction.ladder.*.signal", "contracts.*.kitty_to_partner", "contracts.*.fail_value",
                 "declarations.slam", "play.claims", "trumps.colour_four", "joker.in_suit_contracts",
                 "scoring.slam.below", "game.mid_hand", "house_rules.*"):
        assert path in PATTERNS


@pytest.mark.parametrize("pattern", [p for p in PATTERNS if p != "auction.ladder.*.call"])
def test_every_field_has_words(pattern: str) -> None:
    assert FIELD_WORDS.get(pattern), f"explain.FIELD_WORDS has no words for {pattern}"


def test_no_words_for_fields_that_do_not_exist() -> None:
    assert set(FIELD_WORDS) <= set(field_patterns(fixed=True))
    assert "kitty.taken_by" in FIELD_WORDS  # one possible value today, words for when there are more


# --- one change to every field: explain shows it and diff finds it ----------------------------


def setting(*path: str | int, value: Any) -> Mutation:
    def mutate(data: Data) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return mutate


def misere_rung(field: str, value: Any) -> Mutation:
    def mutate(data: Data) -> None:
        next(r for r in data["auction"]["ladder"] if r["call"] == "misere")[field] = value
    return mutate


def drop_open_misere(data: Data) -> None:
    del data["contracts"]["open-misere"]
    data["auction"]["ladder"] = [r for r in data["auction"]["ladder"] if r["call"] != "open-misere"]


def rename_10nt(data: Data) -> None:
    data["auction"]["ladder"][-1]["call"] = "11NT"


def misere_in_hearts(data: Data) -> None:
    data["contracts"]["misere"].update(kind="trumps", trump="H")


MUTATIONS: dict[str, tuple[Mutation, str]] = {
    "name": (setting("name", value="our-club"), "name"),
    "description": (setting("description", value="Our club's rules."), "description"),
    "source": (setting("source", value="the club book"), "source"),
    "players.seats": (setting("players", "seats", value=["N", "W", "S", "E"]), "players.seats"),
    "players.teams": (setting("players", "teams", 0, "name", value="North-South"), "players.teams"),
    "players.dummies.*": (setting("players", "dummies", value={"S": "N"}), "players.dummies.S"),
    "players.partnership": (setting("players", "partnership", value="called-card"), "players.partnership"),
    "players.called_partner_share": (setting("players", "called_partner_share", value="half"),
                                     "players.called_partner_share"),
    "players.call_own_card": (setting("players", "call_own_card", value=True), "players.call_own_card"),
    "players.call_trumps": (setting("players", "call_trumps", value=False), "players.call_trumps"),
    "deck.suits.*": (setting("deck", "suits", "S", value=["A", "K", "Q", "J", "10", "9", "8", "7", "6"]),
                     "deck.suits.S"),
    "deck.jokers": (setting("deck", "jokers", value=2), "deck.jokers"),
    "deal.packets": (setting("deal", "packets", value=[{"each": 10}, {"kitty": 3}]), "deal.packets"),
    "deal.first_dealer": (setting("deal", "first_dealer", value="cut"), "deal.first_dealer"),
    "deal.all_pass": (setting("deal", "all_pass", value="no-trumps"), "deal.all_pass"),
    "deal.redeals": (setting("deal", "redeals", value=2), "deal.redeals"),
    "deal.misdeal_without_face_card": (setting("deal", "misdeal_without_face_card", value="may"),
                                       "deal.misdeal_without_face_card"),
    "deal.kitty_face_up": (setting("deal", "kitty_face_up", value=1), "deal.kitty_face_up"),
    "auction.rounds": (setting("auction", "rounds", value="single"), "auction.rounds"),
    "auction.rebid": (setting("auction", "rebid", value="after-intervening-bid"), "auction.rebid"),
    "auction.winner_may_raise": (setting("auction", "winner_may_raise", value=True), "auction.winner_may_raise"),
    "auction.reentry": (setting("auction", "reentry", value="if-bid-changed"), "auction.reentry"),
    "auction.set_bar": (setting("auction", "set_bar", value=2), "auction.set_bar"),
    "auction.set_bar_misere": (setting("auction", "set_bar_misere", value=1), "auction.set_bar_misere"),
    "auction.ladder.*.call": (rename_10nt, "auction.ladder[11NT]"),
    "auction.ladder.*.value": (misere_rung("value", 150), "auction.ladder[misere].value"),
    "auction.ladder.*.requires_standing": (misere_rung("requires_standing", "7H"),
                                           "auction.ladder[misere].requires_standing"),
    "auction.ladder.*.first_calls": (misere_rung("first_calls", 2), "auction.ladder[misere].first_calls"),
    "auction.ladder.*.first_own_call": (misere_rung("first_own_call", True),
                                        "auction.ladder[misere].first_own_call"),
    "auction.ladder.*.signal": (misere_rung("signal", True), "auction.ladder[misere].signal"),
    "auction.ladder.*.before_looking": (misere_rung("before_looking", True), "auction.ladder[misere].before_looking"),
    "contracts.*": (drop_open_misere, "contracts.open-misere"),
    "contracts.*.kind": (setting("contracts", "misere", "kind", value="no-trumps"), "contracts.misere.kind"),
    "contracts.*.trump": (misere_in_hearts, "contracts.misere.trump"),
    "contracts.*.goal": (setting("contracts", "misere", "goal", value="exactly"), "contracts.misere.goal"),
    "contracts.*.tricks": (setting("contracts", "misere", "tricks", value=5), "contracts.misere.tricks"),
    "contracts.*.partner_plays": (setting("contracts", "misere", "partner_plays", value=True),
                                  "contracts.misere.partner_plays"),
    "contracts.*.open": (setting("contracts", "misere", "open", value=True), "contracts.misere.open"),
    "contracts.*.partner_open": (setting("contracts", "misere", "partner_open", value=True),
                                 "contracts.misere.partner_open"),
    "contracts.*.kitty": (setting("contracts", "misere", "kitty", value=False), "contracts.misere.kitty"),
    "contracts.*.kitty_to_partner": (setting("contracts", "misere", "kitty_to_partner", value=True),
                                     "contracts.misere.kitty_to_partner"),
    "contracts.*.jacks_high": (setting("contracts", "misere", "jacks_high", value=True),
                               "contracts.misere.jacks_high"),
    "contracts.*.fail_penalty": (setting("contracts", "misere", "fail_penalty", value=100),
                                 "contracts.misere.fail_penalty"),
    "contracts.*.fail_value": (setting("contracts", "misere", "fail_value", value=500),
                               "contracts.misere.fail_value"),
    "declarations.slam": (setting("declarations", "slam", value=[7]), "declarations.slam"),
    "declarations.slam_penalty": (setting("declarations", "slam_penalty", value=150), "declarations.slam_penalty"),
    "declarations.declare": (setting("declarations", "declare", value=True), "declarations.declare"),
    "declarations.declare_value": (setting("declarations", "declare_value", value=400),
                                   "declarations.declare_value"),
    "play.first_lead": (setting("play", "first_lead", value="dealer-left"), "play.first_lead"),
    "play.misere_ends_early": (setting("play", "misere_ends_early", value=False), "play.misere_ends_early"),
    "play.claims": (setting("play", "claims", value=True), "play.claims"),
    "play.claim_penalty": (setting("play", "claim_penalty", value=50), "play.claim_penalty"),
    "trumps.colour_four": (setting("trumps", "colour_four", value=True), "trumps.colour_four"),
    "joker.nomination": (setting("joker", "nomination", value="when-played"), "joker.nomination"),
    "joker.lead": (setting("joker", "lead", value="last-trick"), "joker.lead"),
    "joker.void_play_in_no_trumps": (setting("joker", "void_play_in_no_trumps", value="any-time"),
                                     "joker.void_play_in_no_trumps"),
    "joker.void_play_in_misere": (setting("joker", "void_play_in_misere", value="optional"),
                                  "joker.void_play_in_misere"),
    "joker.no_renege": (setting("joker", "no_renege", value=True), "joker.no_renege"),
    "joker.first_or_last": (setting("joker", "first_or_last", value=True), "joker.first_or_last"),
    "joker.in_suit_contracts": (setting("joker", "in_suit_contracts", value="none"), "joker.in_suit_contracts"),
    "scoring.slam": (setting("scoring", "slam", value=None), "scoring.slam"),
    "scoring.slam.below": (setting("scoring", "slam", "below", value=300), "scoring.slam.below"),
    "scoring.slam.scores": (setting("scoring", "slam", "scores", value=300), "scoring.slam.scores"),
    "scoring.overtrick_points": (setting("scoring", "overtrick_points", value=10), "scoring.overtrick_points"),
    "scoring.overtrick_cap": (setting("scoring", "overtrick_cap", value=520), "scoring.overtrick_cap"),
    "scoring.defender_trick_points": (setting("scoring", "defender_trick_points", value=0),
                                      "scoring.defender_trick_points"),
    "scoring.defender_points_in_misere": (setting("scoring", "defender_points_in_misere", value=10),
                                          "scoring.defender_points_in_misere"),
    "scoring.defender_cap": (setting("scoring", "defender_cap", value=490), "scoring.defender_cap"),
    "scoring.failed": (setting("scoring", "failed", value="opponents-gain"), "scoring.failed"),
    "scoring.breach": (setting("scoring", "breach", value=100), "scoring.breach"),
    "game.target": (setting("game", "target", value=1000), "game.target"),
    "game.win": (setting("game", "win", value="any"), "game.win"),
    "game.both_reach": (setting("game", "both_reach", value="higher"), "game.both_reach"),
    "game.swamp": (setting("game", "swamp", value=None), "game.swamp"),
    "game.swamp_strict": (setting("game", "swamp_strict", value=True), "game.swamp_strict"),
    "game.swamp_needs_opponents_not_negative": (setting("game", "swamp_needs_opponents_not_negative", value=True),
                                                "game.swamp_needs_opponents_not_negative"),
    "game.spread": (setting("game", "spread", value=500), "game.spread"),
    "game.exact_target": (setting("game", "exact_target", value=True), "game.exact_target"),
    "game.bust": (setting("game", "bust", value=1000), "game.bust"),
    "game.mid_hand": (setting("game", "mid_hand", value=True), "game.mid_hand"),
    "house_rules.*": (setting("house_rules", value={"misere-penalty": {"points": 100}}),
                      "house_rules.misere-penalty"),
}


def assert_in_words(d: Difference) -> None:
    """The difference is explained in words from ``FIELD_WORDS`` (or a ladder call's place), never a key."""
    assert str(d).startswith(f"{d.path}: ")
    if d.path.startswith("auction.ladder[") and d.kind != "changed":
        assert "the ladder" in d.meaning
        return
    assert d.meaning.removesuffix(", added").removesuffix(", removed") in FIELD_WORDS.values(), d


def mutated(ref: Ruleset, pattern: str) -> Ruleset:
    data = ref.model_dump(mode="json")
    MUTATIONS[pattern][0](data)
    return Ruleset.model_validate(data)


def test_there_is_a_mutation_for_every_field() -> None:
    assert sorted(MUTATIONS) == PATTERNS


@pytest.mark.parametrize("pattern", PATTERNS)
def test_explain_shows_every_field_that_differs_from_the_reference(ref: Ruleset, pattern: str) -> None:
    assert explain(mutated(ref, pattern)) != explain(ref), f"explain does not show {pattern}"


@pytest.mark.parametrize("pattern", PATTERNS)
def test_diff_finds_every_field_that_differs(ref: Ruleset, pattern: str) -> None:
    other = mutated(ref, pattern)
    paths = [d.path for d in diff(ref, other)]
    assert MUTATIONS[pattern][1] in paths, paths
    for d in diff(ref, other):
        assert_in_words(d)


def test_explain_is_stable_and_plain_text(ref: Ruleset) -> None:
    text = explain(ref)
    assert text == explain(load_ruleset(REF))
    assert text.startswith(f"{REF}\n") and text.endswith("\n")
    assert "None" not in text and "True" not in text and "False" not in text


def test_explain_the_reference_in_its_own_words(ref: Ruleset) -> None:
    text = explain(ref)
    for words in ("4 seats clockwise: N E S W", "team NS: N, S", "43 cards",
                  "from the dealer's left: 3 to each, 1 to the kitty, 4 to each, 1 to the kitty, 3 to each",
                  "hands of 10, kitty of 3", "if all pass: the next dealer deals a new hand",
                  "as many rounds as needed; a pass is final", "the auction winner may not raise the winning bid",
                  "misere           250  (misère, no trick; only over 7S or higher)",
                  "open-misere: open misère; the contracting side must take no trick; the partner sits out",
                  "the contractor takes the kitty and discards 3 cards",
                  "in misère its holder must play it when void in the suit led",
                  "all tricks on a contract worth less than 250: 250", "defenders: 10 per trick",
                  "win: a made contract reaching 500", "lose: at or below -500"):
        assert words in text, words
    # variant switches at their reference values stay quiet
    for quiet in ("dummy", "called", "dead hand", "redeal", "misdeal", "set:", "blind", "signal", "slam call",
                  "declare", "claims", "4 of the trump", "spread", "bust", "House rules"):
        assert quiet not in text, quiet


def test_explain_a_variant_in_words(ref: Ruleset) -> None:
    data = ref.model_dump(mode="json")
    data["deal"].update(packets=[{"each": 10}, {"dead": 10}, {"kitty": 3}], redeals=2, all_pass="redeal",
                        misdeal_without_face_card="must")
    data["players"]["dummies"] = {"S": "N"}
    data["auction"]["ladder"][0].update(first_calls=2, signal=True)
    data["declarations"] = {"slam": [7], "slam_penalty": 100, "declare": False, "declare_value": 500}
    data["game"].update(win="any", swamp=None)
    text = explain(Ruleset.model_validate(data))
    for words in ("S is a dummy hand played by N; a dummy does not call",
                  "from the dealer's left: 10 to each, 10 to the dead hand, 3 to the kitty",
                  "a dead hand of 10 face down, out of play",
                  "redeals: the same dealer deals again up to 2 time(s) before the deal passes",
                  "misdeal: a hand without a J, Q, K or joker is a misdeal",
                  "only among the first 2 calls of the auction; a signal to partner: never the contract",
                  "slam call: a contractor at level 7 may call slam", "lose the value + 100",
                  "win: any points reaching 500", "if both sides reach it in one hand: the contractors win",
                  "no losing score"):
        assert words in text, words


def test_explain_and_diff_every_shipped_ruleset(shipped_ruleset: Ruleset, ref: Ruleset) -> None:
    text = explain(shipped_ruleset)
    assert text.startswith(f"{shipped_ruleset.name}\n")
    for rung in shipped_ruleset.auction.ladder:
        assert f" {rung.call} " in text
    for d in diff(ref, shipped_ruleset):
        assert_in_words(d)


# --- diff -------------------------------------------------------------------------------------


def variant(tmp_path: Path, body: str, name: str = "variant") -> Ruleset:
    return load_ruleset(write(tmp_path / f"{name}.yaml", f"extends: {REF}\nname: {name}\n{body}"))


LADDER = [r.model_dump(exclude_defaults=True) for r in load_ruleset(REF).auction.ladder]


def ladder_yaml(rungs: list[dict[str, Any]]) -> str:
    return "auction:\n  ladder:\n" + "".join(f"    - {json.dumps(r)}\n" for r in rungs)


def test_diff_of_a_ruleset_with_itself_is_empty(ref: Ruleset) -> None:
    assert diff(ref, ref) == []
    assert diff(ref, load_ruleset(REF)) == []


def test_diff_one_line_per_field_in_words(ref: Ruleset, tmp_path: Path) -> None:
    other = variant(tmp_path, "scoring:\n  defender_trick_points: 0\ngame: {swamp: null}\n")
    lines = [str(d) for d in diff(ref, other)]
    assert lines == [
        "name: pagat-australian → variant (the ruleset's name)",
        f'description: {ref.description} → "" (the ruleset\'s description)',
        f'source: {ref.source} → "" (where the rules come from)',
        "scoring.defender_trick_points: 10 → 0 (defenders' points per trick)",
        "game.swamp: -500 → null (the losing score)",
    ]


def test_diff_lists_only_what_differs_and_is_symmetric(ref: Ruleset, tmp_path: Path) -> None:
    a = variant(tmp_path, "scoring: {defender_trick_points: 0}\n", "same-name")
    b = variant(tmp_path / ".." / tmp_path.name, "game: {target: 300}\n", "same-name")
    forward, backward = diff(a, b), diff(b, a)
    assert [d.path for d in forward] == ["scoring.defender_trick_points", "game.target"]
    assert [(d.path, d.before, d.after) for d in backward] == [(d.path, d.after, d.before) for d in forward]


def test_diff_ladder_value_changed(ref: Ruleset, tmp_path: Path) -> None:
    perfect = [{**r, "value": r["value"] - 20} if r["call"] in ("6S", "misere") else r for r in LADDER]
    found = diff(ref, variant(tmp_path, ladder_yaml(perfect)))
    assert [str(d) for d in found if d.path.startswith("auction")] == [
        "auction.ladder[6S].value: 40 → 20 (points for the call)",
        "auction.ladder[misere].value: 250 → 230 (points for the call)",
    ]


def test_B4_diff_ladder_call_moved_to_the_top(ref: Ruleset, tmp_path: Path) -> None:
    moved = [r for r in LADDER if r["call"] != "open-misere"] + [{"call": "open-misere", "value": 520}]
    found = [d for d in diff(ref, variant(tmp_path, ladder_yaml(moved))) if d.path.startswith("auction")]
    assert [str(d) for d in found] == [
        "auction.ladder[open-misere]: above 10D, below 10H → the highest call, above 10NT "
        "(the call moved on the ladder)",
        "auction.ladder[open-misere].value: 500 → 520 (points for the call)",
    ]
    assert found[0].kind == "moved"


def test_B1_diff_ladder_calls_removed(ref: Ruleset) -> None:
    data = ref.model_dump(mode="json")
    data["auction"]["ladder"] = [r for r in LADDER if "misere" not in r["call"]]
    data["contracts"] = {}
    found = diff(ref, Ruleset.model_validate(data))
    removed = [d for d in found if d.kind == "removed"]
    assert [d.path for d in removed] == ["auction.ladder[misere]", "auction.ladder[open-misere]",
                                         "contracts.misere", "contracts.open-misere"]
    assert str(removed[0]) == ("auction.ladder[misere]: {call: misere, value: 250, requires_standing: 7S} → — "
                               "(a call removed from the ladder; it stood above 7NT, below 8S)")
    assert not [d for d in found if d.kind == "moved"]  # the calls that stay keep their order


def test_B8_diff_ladder_call_added(ref: Ruleset, tmp_path: Path) -> None:
    blind = [*LADDER[:10], {"call": "blind-misere", "value": 500, "first_own_call": True}, *LADDER[10:]]
    other = variant(tmp_path, ladder_yaml(blind) + "contracts:\n  blind-misere: {kind: misere}\n")
    lines = [str(d) for d in diff(ref, other) if d.kind == "added"]
    assert lines == [
        "auction.ladder[blind-misere]: — → {call: blind-misere, value: 500, first_own_call: true} "
        "(a call added to the ladder, above 7NT, below misere)",
        "contracts.blind-misere: — → {kind: misere} (a named contract, added)",
    ]


def test_diff_ladder_swap_reports_the_fewest_moves(ref: Ruleset, tmp_path: Path) -> None:
    swapped = [*LADDER[:5], LADDER[9], *LADDER[5:9], *LADDER[10:]]  # 7NT below 7S (one call moved)
    moved = [d for d in diff(ref, variant(tmp_path, ladder_yaml(swapped))) if d.kind == "moved"]
    assert [(d.path, d.before, d.after) for d in moved] == [
        ("auction.ladder[7NT]", "above 7H, below misere", "above 6NT, below 7S")]


def test_diff_contract_fields_and_rung_flags(ref: Ruleset, tmp_path: Path) -> None:
    inkle = [{**r, "first_calls": 2, "signal": True} if r["call"] == "6S" else r for r in LADDER]
    other = variant(tmp_path, ladder_yaml(inkle) + "contracts:\n  misere: {partner_plays: true, goal: none}\n")
    assert [str(d) for d in diff(ref, other) if d.path.startswith(("auction", "contracts"))] == [
        "auction.ladder[6S].first_calls: null → 2 (only the first calls of the auction may be this)",
        "auction.ladder[6S].signal: false → true (a signal that cannot become the contract)",
        "contracts.misere.partner_plays: false → true (whether the contractor's partner plays)",
    ]


def test_diff_house_rules_and_nested_blocks(ref: Ruleset) -> None:
    data = ref.model_dump(mode="json")
    data["house_rules"] = {"misere-penalty": {"points": 100}}
    data["scoring"]["slam"] = None
    data["deck"]["suits"]["H"] = data["deck"]["suits"]["H"][:-1]
    found = {d.path: d for d in diff(ref, Ruleset.model_validate(data))}
    assert str(found["house_rules.misere-penalty"]) == (
        "house_rules.misere-penalty: — → {points: 100} (a house rule and its options, added)")
    assert str(found["scoring.slam"]) == "scoring.slam: {below: 250, scores: 250} → null (the slam bonus)"
    assert str(found["deck.suits.H"]) == (
        "deck.suits.H: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4] → [A, K, Q, J, 10, 9, 8, 7, 6, 5] "
        "(the ranks of this suit, high to low)")


def test_difference_as_dict_is_json(ref: Ruleset, tmp_path: Path) -> None:
    d = Difference("game.target", 500, 1000, "the score that wins")
    assert d.as_dict() == {"path": "game.target", "kind": "changed", "before": 500, "after": 1000,
                           "meaning": "the score that wins"}
    json.dumps([x.as_dict() for x in diff(ref, variant(tmp_path, ladder_yaml(LADDER[1:])))])


def test_diff_is_public_from_the_explain_module() -> None:
    import fivehundred.rules.explain

    assert fivehundred.rules.explain.diff is diff


# --- the commands -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args], prog_name="fivehundred")


def test_rules_diff_prints_one_line_per_difference(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "nodef.yaml", f"extends: {REF}\nname: nodef\nscoring: {{defender_trick_points: 0}}\n")
    result = run(runner, "rules", "diff", REF, path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "name: pagat-australian → nodef (the ruleset's name)"
    assert lines[-1] == "scoring.defender_trick_points: 10 → 0 (defenders' points per trick)"
    assert len(lines) == 4  # name, description, source, the field


def test_rules_diff_json(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "t.yaml", f"extends: {REF}\nname: t\ngame: {{target: 1000}}\n")
    result = run(runner, "rules", "diff", REF, path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["first"] == REF and data["second"] == "t"
    assert {"path": "game.target", "kind": "changed", "before": 500, "after": 1000,
            "meaning": "the score that wins"} in data["differences"]


def test_rules_diff_of_the_same_ruleset(runner: CliRunner) -> None:
    result = run(runner, "rules", "diff", REF, REF)
    assert result.exit_code == 0
    assert result.stdout.strip() == f"{REF} and {REF} say the same"
    assert json.loads(run(runner, "rules", "diff", REF, REF, "--json").stdout)["differences"] == []


def test_rules_diff_an_unknown_ruleset_is_a_user_error(runner: CliRunner) -> None:
    result = run(runner, "rules", "diff", REF, "no-such-rules")
    assert result.exit_code == 1
    assert "unknown ruleset 'no-such-rules'" in result.stderr


def test_rules_diff_needs_two_rulesets(runner: CliRunner) -> None:
    assert run(runner, "rules", "diff", REF).exit_code == 2


def test_rules_show_does_not_wrap_long_lines(runner: CliRunner, ref: Ruleset) -> None:
    result = run(runner, "rules", "show", REF)
    assert result.exit_code == 0
    assert result.stdout == explain(ref)


# --- contradictions a ruleset is refused for ----------------------------------------------------


def refused(path: Path) -> list[str]:
    with pytest.raises(fivehundred.RulesetError) as info:
        load_ruleset(path)
    return info.value.problems


def test_a_deck_that_cannot_be_dealt_with_the_kitty_size(tmp_path: Path) -> None:
    path = write(tmp_path / "d1.yaml", f"extends: {REF}\ndeal:\n  packets: [{{each: 10}}, {{kitty: 5}}]\n")
    [problem] = refused(path)
    assert problem.startswith(f"{path}:2: deal: ")
    assert "the deal gives 10 cards to each of 4 players and 5 to the kitty (45 cards) but the deck has 43" in problem


def test_a_ladder_entry_without_a_value(tmp_path: Path) -> None:
    rungs = [{k: v for k, v in r.items() if not (r["call"] == "7H" and k == "value")} for r in LADDER]
    path = write(tmp_path / "novalue.yaml", f"extends: {REF}\n{ladder_yaml(rungs)}")
    [problem] = refused(path)
    assert problem == f"{path}:12: auction.ladder.8.value: Field required"


def test_a_ruleset_naming_a_house_rule_no_installed_plugin_provides(tmp_path: Path) -> None:
    path = write(tmp_path / "house.yaml", f"extends: {REF}\nhouse_rules:\n  no-such-rule: {{points: 5}}\n")
    [problem] = refused(path)
    assert problem.startswith(f"{path}:3: house_rules.no-such-rule: house rule 'no-such-rule' is not provided by any "
                              "installed plugin (install the package that provides it; installed house rules: ")


def test_a_contract_type_the_ladder_never_places(tmp_path: Path) -> None:
    path = write(tmp_path / "unplaced.yaml", f"extends: {REF}\ncontracts:\n  nullo: {{kind: misere}}\n")
    [problem] = refused(path)
    assert problem == f"{path}:3: contracts.nullo: contract 'nullo' is never placed on the ladder"


def test_a_ladder_call_that_names_no_contract(tmp_path: Path) -> None:
    rungs = [*LADDER, {"call": "grand-nullo", "value": 1000}]
    path = write(tmp_path / "unnamed.yaml", f"extends: {REF}\n{ladder_yaml(rungs)}")
    [problem] = refused(path)
    assert problem.endswith("auction.ladder.27.call: ladder call 'grand-nullo' is neither a bid like '7H'/'7NT' "
                            "nor a contract named in 'contracts'")


def test_every_contradiction_is_reported_at_once(tmp_path: Path) -> None:
    path = write(tmp_path / "all.yaml", f"extends: {REF}\ndeal:\n  packets: [{{each: 10}}, {{kitty: 5}}]\n"
                 "contracts:\n  nullo: {kind: misere}\nhouse_rules:\n  no-such-rule: {}\n")
    problems = refused(path)
    assert len(problems) == 3
    assert any("contracts.nullo" in p for p in problems)
    assert any("deck has 43" in p for p in problems)
    assert any("'no-such-rule'" in p for p in problems)
