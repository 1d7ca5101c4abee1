"""Rulesets: loading, ``extends:``, error reports as ``file:line: key.path: message``, hash, schema."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import jsonschema  # the test extra's: the schema tests run wherever the tests do
import pytest
import yaml
from pydantic import ValidationError

import fivehundred
from fivehundred.rules.errors import FiveHundredError, RulesetError, UnknownNameError
from fivehundred.rules.loading import bundled_dir, iter_rulesets, load_ruleset, ruleset_paths
from fivehundred.rules.ruleset import Ruleset

REF = "pagat-australian"
PROBLEM = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<key>\S+): (?P<message>.+)$", re.S)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def line_of(path: Path, needle: str, occurrence: int = 1) -> int:
    """1-based number of the line of ``path`` holding the ``occurrence``-th ``needle``."""
    seen = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{needle!r} not in {path}")


def problems_of(ref: str | Path) -> list[str]:
    with pytest.raises(RulesetError) as info:
        load_ruleset(ref)
    problems = info.value.problems
    assert problems, "a RulesetError must list at least one problem"
    assert str(info.value) == "\n".join(problems)
    return problems


def parse_problem(problem: str) -> tuple[str, int, str, str]:
    m = PROBLEM.match(problem)
    assert m, f"not 'file:line: key.path: message': {problem!r}"
    return m["file"], int(m["line"]), m["key"], m["message"]


@pytest.fixture
def reference_text() -> str:
    return (bundled_dir() / f"{REF}.yaml").read_text(encoding="utf-8")


# --- the reference ruleset ------------------------------------------------------------------


def test_reference_loads() -> None:
    rs = load_ruleset(REF)
    assert isinstance(rs, Ruleset)
    assert rs.name == REF
    assert rs.players.seats == ("N", "E", "S", "W")
    assert [(t.name, t.seats) for t in rs.players.teams] == [("NS", ("N", "S")), ("EW", ("E", "W"))]
    assert sum(len(r) for r in rs.deck.suits.values()) + rs.deck.jokers == 43
    assert len(rs.auction.ladder) == 27
    assert rs.auction.ladder[0].call == "6S" and rs.auction.ladder[-1].call == "10NT"
    assert set(rs.contracts) == {"misere", "open-misere"}
    assert rs.contracts["open-misere"].open
    assert rs.house_rules == {}


def test_reference_is_the_default_and_loads_by_path_too() -> None:
    by_name = load_ruleset(REF)
    assert load_ruleset() == by_name
    by_path = load_ruleset(bundled_dir() / f"{REF}.yaml")
    assert by_path == by_name
    assert by_path.content_hash == by_name.content_hash
    assert fivehundred.load_ruleset is load_ruleset


def test_bundled_rulesets_are_listed_by_name() -> None:
    assert ruleset_paths()[REF] == bundled_dir() / f"{REF}.yaml"
    assert dict(iter_rulesets())[REF].exists()


def test_unknown_ruleset_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownNameError, match=rf"unknown ruleset 'no-such-rules'.*{REF}"):
        load_ruleset("no-such-rules")


def test_missing_ruleset_file_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(FiveHundredError, match="not found"):
        load_ruleset(tmp_path / "nowhere.yaml")


# --- extends --------------------------------------------------------------------------------


def test_extends_by_name_overrides_fields_and_deep_merges_mappings(tmp_path: Path) -> None:
    child = write(tmp_path / "child.yaml", f"""
        extends: {REF}
        name: overtricks
        scoring:
          overtrick_points: 10
        joker:
          lead: any
        game:
          target: 300
        """)
    parent = load_ruleset(REF)
    rs = load_ruleset(child)
    assert rs.name == "overtricks"
    assert rs.scoring.overtrick_points == 10
    assert rs.joker.lead == "any"
    assert rs.game.target == 300
    # siblings of the overridden keys come from the parent
    assert rs.scoring.slam == parent.scoring.slam
    assert rs.scoring.defender_trick_points == parent.scoring.defender_trick_points
    assert rs.joker.nomination == parent.joker.nomination
    assert rs.joker.void_play_in_misere == parent.joker.void_play_in_misere
    assert rs.game.swamp == parent.game.swamp
    # untouched sections are the parent's
    assert rs.deck == parent.deck
    assert rs.auction == parent.auction
    assert rs.contracts == parent.contracts


def test_a_child_does_not_inherit_name_description_or_source(tmp_path: Path) -> None:
    child = write(tmp_path / "my-house.yaml", f"""
        extends: {REF}
        game:
          target: 250
        """)
    rs = load_ruleset(child)
    assert rs.name == "my-house"  # the file stem
    assert rs.description == ""
    assert rs.source == ""


def test_extends_by_relative_path_is_relative_to_the_child_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  reference_text: str) -> None:
    # within the folder of the ruleset given: variants/child.yaml → base/parent.yaml, relative to the child
    write(tmp_path / "base" / "parent.yaml", reference_text.replace("target: 500", "target: 1000"))
    write(tmp_path / "variants" / "child.yaml", """
        extends: ../base/parent.yaml
        scoring:
          overtrick_points: 10
        """)
    child = write(tmp_path / "child.yaml", "extends: variants/child.yaml\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the parent must be found next to the child, not in the working directory
    rs = load_ruleset(child)
    assert rs.name == "child"
    assert rs.game.target == 1000
    assert rs.scoring.overtrick_points == 10
    assert rs.deck == load_ruleset(REF).deck


def test_extends_chains_apply_every_level(tmp_path: Path) -> None:
    write(tmp_path / "middle.yaml", f"""
        extends: {REF}
        game: {{target: 1000}}
        scoring: {{overtrick_points: 5}}
        """)
    child = write(tmp_path / "leaf.yaml", """
        extends: middle.yaml
        scoring: {overtrick_points: 20}
        """)
    rs = load_ruleset(child)
    assert rs.game.target == 1000
    assert rs.scoring.overtrick_points == 20
    assert rs.name == "leaf"


def test_extends_replaces_lists_rather_than_merging_them(tmp_path: Path) -> None:
    child = write(tmp_path / "short.yaml", f"""
        extends: {REF}
        auction:
          ladder:
            - {{call: 6S, value: 40}}
            - {{call: 7S, value: 140}}
            - {{call: misere, value: 250, requires_standing: 7S}}
            - {{call: open-misere, value: 500}}
            - {{call: 10NT, value: 520}}
        """)
    rs = load_ruleset(child)
    assert [r.call for r in rs.auction.ladder] == ["6S", "7S", "misere", "open-misere", "10NT"]
    assert rs.auction.rounds == "unlimited"  # the mapping around the list is still merged
    assert rs.auction.ladder[2].requires_standing == "7S"


# --- problems, each as file:line: key.path: message ------------------------------------------


def test_typo_in_a_child_names_file_line_and_key(tmp_path: Path) -> None:
    child = write(tmp_path / "typo.yaml", f"""
        extends: {REF}
        scoring:
          overtrick_points: 10
          defender_tricks_points: 5
        """)
    [problem] = problems_of(child)
    file, line, key, message = parse_problem(problem)
    assert file == str(child)
    assert line == line_of(child, "defender_tricks_points") == 4
    assert key == "scoring.defender_tricks_points"
    assert "unknown key" in message


def test_typo_deep_in_a_full_file_has_the_right_line(tmp_path: Path, reference_text: str) -> None:
    assert "  lead: unled-suit" in reference_text
    path = write(tmp_path / "full.yaml", reference_text.replace("  lead: unled-suit", "  leed: unled-suit"))
    [problem] = problems_of(path)
    file, line, key, message = parse_problem(problem)
    assert (file, line, key) == (str(path), line_of(path, "leed:"), "joker.leed")
    assert "unknown key" in message


def test_typo_at_top_level(tmp_path: Path) -> None:
    child = write(tmp_path / "top.yaml", f"""
        extends: {REF}
        # a comment line
        scorring:
          overtrick_points: 10
        """)
    [problem] = problems_of(child)
    assert parse_problem(problem)[:3] == (str(child), 3, "scorring")


def test_typo_inside_a_list_item_points_at_the_item(tmp_path: Path) -> None:
    child = write(tmp_path / "ladder.yaml", f"""
        extends: {REF}
        auction:
          ladder:
            - {{call: 6S, value: 40}}
            - {{call: 6C, valeu: 60}}
            - {{call: misere, value: 250}}
            - {{call: open-misere, value: 500}}
        """)
    problems = problems_of(child)
    typo = [p for p in problems if "valeu" in p]
    assert len(typo) == 1
    assert parse_problem(typo[0])[:3] == (str(child), line_of(child, "valeu"), "auction.ladder.1.valeu")


def test_a_replaced_list_is_not_reported_at_the_parents_lines(tmp_path: Path) -> None:
    # The child's ladder replaces the parent's; a problem in it must point into the child, not at
    # whatever the parent had at the same index.
    child = write(tmp_path / "ladder.yaml", f"""
        extends: {REF}
        auction:
          ladder:
            - {{call: 6S, valeu: 40}}
            - {{call: misere, value: 250}}
            - {{call: open-misere, value: 500}}
        """)
    for problem in problems_of(child):
        file, line, key, _ = parse_problem(problem)
        assert file == str(child), problem
        if key.startswith("auction.ladder.0"):
            assert line == line_of(child, "6S"), problem


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    child = write(tmp_path / "many.yaml", f"""
        extends: {REF}
        deck:
          jokers: many
        play:
          misere_ends_early: perhaps
        auction:
          rounds: 3
        kitty:
          taken_by: contractor
          token_by: dealer
        """)
    problems = problems_of(child)
    found = {parse_problem(p)[2]: parse_problem(p) for p in problems}
    assert set(found) == {"deck.jokers", "play.misere_ends_early", "auction.rounds", "kitty.token_by"}
    for key, needle in [("deck.jokers", "jokers:"), ("play.misere_ends_early", "misere_ends_early:"),
                        ("auction.rounds", "rounds:"), ("kitty.token_by", "token_by:")]:
        assert found[key][:2] == (str(child), line_of(child, needle)), found[key]


@pytest.mark.parametrize(
    ("snippet", "key", "words"),
    [
        ("deck:\n  jokers: many", "deck.jokers", "integer"),
        ("deck:\n  jokers: 9", "deck.jokers", "less than or equal to 4"),
        ("game:\n  target: five hundred", "game.target", "integer"),
        ("game:\n  win: first-to-500", "game.win", "'contract-made' or 'any'"),
        ("players:\n  seats: N", "players.seats", "tuple"),
        ("play:\n  misere_ends_early: perhaps", "play.misere_ends_early", "boolean"),
        ("scoring:\n  slam: yes", "scoring.slam", "Slam"),
        ("house_rules: [a, b]", "house_rules", "dictionary"),
    ],
    ids=lambda v: v if isinstance(v, str) and "\n" not in v and " " not in v else None,
)
def test_wrong_types_are_reported_with_their_key(tmp_path: Path, snippet: str, key: str, words: str) -> None:
    child = tmp_path / "types.yaml"
    child.write_text(f"extends: {REF}\n{snippet}\n", encoding="utf-8")
    problems = problems_of(child)
    matching = [p for p in problems if parse_problem(p)[2] == key]
    assert matching, problems
    file, line, _, message = parse_problem(matching[0])
    assert file == str(child)
    assert line in (2, 3)
    assert words.lower() in message.lower()


def test_deck_with_an_unknown_suit_or_rank(tmp_path: Path) -> None:
    child = write(tmp_path / "deck.yaml", f"""
        extends: {REF}
        deck:
          suits:
            S: [A, K, Q, J, "10", "9", "8", "7", "6", "5"]
            C: [A, K, Q, J, "10", "9", "8", "7", "6", "5"]
            D: [A, K, Q, J, "10", "9", "8", "7", "6", "5", "4"]
            X: [A, K, Q, J, "10", "9", "8", "7", "6", "5", "4"]
        """)
    [problem] = problems_of(child)
    _, _, key, message = parse_problem(problem)
    assert key == "deck.suits"
    assert "not a suit" in message and "'X'" in message


def test_invalid_yaml_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path / "broken.yaml", """
        name: broken
        players:
          seats: [N, E, S, W
          teams: []
        """)
    [problem] = problems_of(path)
    m = re.match(rf"^{re.escape(str(path))}:(\d+): invalid YAML", problem)
    assert m, problem
    assert 3 <= int(m[1]) <= 5  # the unclosed list opens on line 3; the parser notices by line 4


@pytest.mark.parametrize("text", ["", "- a list\n- not a mapping\n", "just a string\n"])
def test_a_ruleset_must_be_a_mapping(tmp_path: Path, text: str) -> None:
    path = tmp_path / "notamap.yaml"
    path.write_text(text, encoding="utf-8")
    [problem] = problems_of(path)
    assert problem.startswith(f"{path}:1: ")
    assert "mapping" in problem


def test_extends_cycle_is_reported(tmp_path: Path) -> None:
    a = write(tmp_path / "a.yaml", "extends: b.yaml\n")
    b = write(tmp_path / "b.yaml", "extends: a.yaml\n")
    [problem] = problems_of(a)
    assert "cycle" in problem
    assert str(a.resolve()) in problem and str(b.resolve()) in problem


def test_a_ruleset_extending_itself_is_a_cycle(tmp_path: Path) -> None:
    path = write(tmp_path / "self.yaml", "extends: self.yaml\n")
    [problem] = problems_of(path)
    assert "cycle" in problem


def test_extends_cycle_problem_has_file_line_and_key(tmp_path: Path) -> None:
    a = write(tmp_path / "a.yaml", "name: a\nextends: b.yaml\n")
    b = write(tmp_path / "b.yaml", "name: b\nextends: a.yaml\n")
    [problem] = problems_of(a)
    file, line, key, message = parse_problem(problem)
    # the 'extends' line that closes the cycle (in b.yaml), or the one that opens it (in a.yaml)
    assert (file, line, key) in {(str(b), 2, "extends"), (str(a), 2, "extends")}, problem
    assert "cycle" in message


def test_extends_an_unknown_name(tmp_path: Path) -> None:
    child = write(tmp_path / "orphan.yaml", """
        name: orphan
        extends: no-such-parent
        """)
    [problem] = problems_of(child)
    file, line, key, message = parse_problem(problem)
    assert (file, line, key) == (str(child), 2, "extends")
    assert "unknown ruleset 'no-such-parent'" in message
    assert REF in message  # the known names are listed


def test_extends_a_missing_file(tmp_path: Path) -> None:
    child = write(tmp_path / "orphan.yaml", "extends: nowhere/parent.yaml\n")
    [problem] = problems_of(child)
    file, line, key, message = parse_problem(problem)
    assert (file, line, key) == (str(child), 1, "extends")
    assert "not found" in message


# --- consistency: checks across fields and plugin checks --------------------------------------


@pytest.mark.parametrize(
    ("deal", "dealt"),
    [
        ("deck:\n  jokers: 2", "(43 cards) but the deck has 44"),
        ("deal:\n  packets: [{each: 10}, {kitty: 4}]", "(44 cards) but the deck has 43"),
        ("deal:\n  packets: [{each: 3}, {kitty: 3}, {each: 6}]", "(39 cards) but the deck has 43"),
    ],
    ids=["two-jokers", "kitty-of-4", "39-dealt"],
)
def test_a_deck_that_cannot_be_dealt_is_reported(tmp_path: Path, deal: str, dealt: str) -> None:
    child = tmp_path / "deal.yaml"
    child.write_text(f"extends: {REF}\n{deal}\n", encoding="utf-8")
    [problem] = problems_of(child)
    file, _, key, message = parse_problem(problem)
    assert file in (str(child), str(bundled_dir() / f"{REF}.yaml"))
    assert key == "deal"
    assert dealt in message
    assert "4 players" in message


def test_a_deal_that_fits_a_changed_deck_loads(tmp_path: Path) -> None:
    child = write(tmp_path / "two-jokers.yaml", f"""
        extends: {REF}
        deck: {{jokers: 2}}
        deal:
          packets: [{{each: 3}}, {{kitty: 2}}, {{each: 4}}, {{kitty: 1}}, {{each: 3}}, {{kitty: 1}}]
        """)
    rs = load_ruleset(child)
    assert rs.deck.jokers == 2


def test_a_packet_gives_to_each_or_to_the_kitty(tmp_path: Path) -> None:
    child = write(tmp_path / "packet.yaml", f"""
        extends: {REF}
        deal:
          packets: [{{each: 3, kitty: 1}}, {{}}]
        """)
    problems = problems_of(child)
    packets = [p for p in problems if parse_problem(p)[2] in ("deal.packets.0", "deal.packets.1")]
    assert len(packets) == 2, problems
    assert all("exactly one of 'each' player, the 'kitty' or the 'dead' hand" in p for p in packets)


def test_invalid_list_items_do_not_also_report_the_list_as_empty(tmp_path: Path) -> None:
    # pydantic adds "Tuple should have at least 1 item after validation, not 0" when every item of a
    # non-empty list is invalid; the user wrote two packets, so that problem is false and confusing.
    child = write(tmp_path / "packet.yaml", f"""
        extends: {REF}
        deal:
          packets: [{{each: 3, kitty: 1}}, {{}}]
        """)
    problems = problems_of(child)
    assert [parse_problem(p)[2] for p in problems] == ["deal.packets.0", "deal.packets.1"], problems


def test_teams_must_cover_the_seats(tmp_path: Path) -> None:
    child = write(tmp_path / "teams.yaml", f"""
        extends: {REF}
        players:
          teams:
            - {{name: NS, seats: [N, S]}}
            - {{name: EW, seats: [E]}}
        """)
    [problem] = problems_of(child)
    file, _, key, message = parse_problem(problem)
    assert (file, key) == (str(child), "players")
    assert "every seat exactly once" in message


def test_a_contract_the_ladder_never_places(tmp_path: Path) -> None:
    child = write(tmp_path / "contract.yaml", f"""
        extends: {REF}
        contracts:
          blind-misere: {{kind: misere}}
        """)
    [problem] = problems_of(child)
    assert "'blind-misere' is never placed on the ladder" in problem
    assert problem.startswith(f"{child}:")


def test_a_ladder_call_that_is_neither_a_bid_nor_a_contract(tmp_path: Path) -> None:
    child = write(tmp_path / "ladder.yaml", f"""
        extends: {REF}
        auction:
          ladder:
            - {{call: 6S, value: 40}}
            - {{call: 6X, value: 50}}
            - {{call: misere, value: 250}}
            - {{call: open-misere, value: 500}}
        """)
    [problem] = problems_of(child)
    assert "ladder call '6X' is neither a bid" in problem


def test_requires_standing_must_be_on_the_ladder(tmp_path: Path) -> None:
    child = write(tmp_path / "standing.yaml", f"""
        extends: {REF}
        auction:
          ladder:
            - {{call: 6S, value: 40}}
            - {{call: misere, value: 250, requires_standing: 7X}}
            - {{call: open-misere, value: 500}}
        """)
    [problem] = problems_of(child)
    assert "requires_standing '7X' is not on the ladder" in problem


def test_a_call_may_appear_once_on_the_ladder(tmp_path: Path) -> None:
    child = write(tmp_path / "twice.yaml", f"""
        extends: {REF}
        auction:
          ladder:
            - {{call: 6S, value: 40}}
            - {{call: 6S, value: 40}}
            - {{call: misere, value: 250}}
            - {{call: open-misere, value: 500}}
        """)
    [problem] = problems_of(child)
    assert "twice on the ladder" in problem


@pytest.mark.parametrize(
    ("snippet", "key", "needle"),
    [
        ("contracts:\n  blind-misere: {kind: misere}\n", "contracts.blind-misere", "blind-misere"),
        ("auction:\n  ladder:\n    - {call: 6S, value: 40}\n    - {call: 6X, value: 50}\n"
         "    - {call: misere, value: 250}\n    - {call: open-misere, value: 500}\n",
         "auction.ladder.1.call", "6X"),
    ],
    ids=["unplaced-contract", "unknown-call"],
)
def test_consistency_problems_point_at_the_offending_key(tmp_path: Path, snippet: str, key: str,
                                                         needle: str) -> None:
    # Not "file:1: (top level): ...": the key path and line of the rung or contract at fault.
    child = tmp_path / "consistency.yaml"
    child.write_text(f"extends: {REF}\n{snippet}", encoding="utf-8")
    [problem] = problems_of(child)
    assert parse_problem(problem)[:3] == (str(child), line_of(child, needle), key)


def test_every_consistency_problem_is_reported_at_once(tmp_path: Path) -> None:
    # An unknown call, and the two contracts of the parent that the new ladder no longer places.
    child = write(tmp_path / "consistency.yaml", f"""
        extends: {REF}
        auction:
          ladder:
            - {{call: 6S, value: 40}}
            - {{call: 6X, value: 50}}
        """)
    problems = problems_of(child)
    text = "\n".join(problems)
    assert "'6X'" in text
    assert "'misere' is never placed" in text
    assert "'open-misere' is never placed" in text
    assert len(problems) == 3


def test_a_house_rule_that_no_plugin_provides(tmp_path: Path) -> None:
    child = write(tmp_path / "house.yaml", f"""
        extends: {REF}
        house_rules:
          spades-double: {{factor: 2}}
        """)
    [problem] = problems_of(child)
    file, line, key, message = parse_problem(problem)
    assert file == str(child)
    assert line in (2, 3)
    assert key.startswith("house_rules")
    assert "'spades-double'" in message
    assert "not provided by any installed plugin" in message


# --- identity, immutability, schema ---------------------------------------------------------


def test_content_hash_is_stable() -> None:
    a, b = load_ruleset(REF), load_ruleset(REF)
    assert a is not b
    assert a.content_hash == b.content_hash
    assert re.fullmatch(r"[0-9a-f]{16}", a.content_hash)
    again = Ruleset.model_validate(a.model_dump())
    assert again.content_hash == a.content_hash


def test_content_hash_changes_when_a_field_changes(tmp_path: Path) -> None:
    base = load_ruleset(REF)
    child = write(tmp_path / "pagat-australian-10.yaml", f"""
        extends: {REF}
        name: {REF}
        description: {json.dumps(base.description)}
        source: {json.dumps(base.source)}
        scoring: {{overtrick_points: 10}}
        """)
    changed = load_ruleset(child)
    assert changed.name == base.name and changed.description == base.description
    assert changed.content_hash != base.content_hash
    for update in ({"description": "other"}, {"name": "other"}):
        other = Ruleset.model_validate(base.model_dump() | update)
        assert other.content_hash != base.content_hash


def test_content_hash_of_a_copy_reflects_the_copy() -> None:
    # compile_rules caches by content_hash: a stale hash would play the copy under the original's rules.
    base = load_ruleset(REF)
    base_hash = base.content_hash
    copy = base.model_copy(update={"scoring": base.scoring.model_copy(update={"overtrick_points": 10})})
    assert copy.scoring.overtrick_points == 10
    assert copy.content_hash != base_hash
    assert copy.content_hash == Ruleset.model_validate(copy.model_dump()).content_hash


def test_ruleset_is_frozen() -> None:
    rs = load_ruleset(REF)
    with pytest.raises(ValidationError, match="frozen"):
        rs.name = "other"  # type: ignore[misc]
    with pytest.raises(ValidationError, match="frozen"):
        rs.scoring.overtrick_points = 10  # type: ignore[misc]
    with pytest.raises(ValidationError, match="frozen"):
        rs.game.target = 1  # type: ignore[misc]
    with pytest.raises((TypeError, AttributeError)):
        rs.auction.ladder[0] = rs.auction.ladder[1]  # type: ignore[index]
    with pytest.raises((TypeError, AttributeError)):
        rs.players.seats.append("X")  # type: ignore[attr-defined]


def test_ruleset_mappings_are_read_only_too() -> None:
    # The ruleset's mappings are part of its content hash; mutating one would desynchronise it.
    rs = load_ruleset(REF)
    with pytest.raises(TypeError):
        rs.contracts["blind"] = rs.contracts["misere"]  # type: ignore[index]
    with pytest.raises(TypeError):
        rs.deck.suits["S"] = ("A",)  # type: ignore[index]
    with pytest.raises(TypeError):
        rs.house_rules["anything"] = {}  # type: ignore[index]


def test_json_schema_has_every_top_level_property() -> None:
    schema = Ruleset.model_json_schema()
    assert schema["type"] == "object"
    assert set(schema["properties"]) == set(Ruleset.model_fields)
    assert {"name", "players", "deck", "deal", "auction", "contracts", "kitty", "play", "joker", "scoring",
            "game", "house_rules"} <= set(schema["properties"])
    assert set(schema["required"]) == {"name", "players", "deck", "deal", "auction"}
    assert schema["additionalProperties"] is False  # editors flag typos, as the loader does
    for name, definition in schema["$defs"].items():
        if definition.get("type") == "object" and "properties" in definition:
            assert definition.get("additionalProperties") is False, name
    json.dumps(schema)


def test_reference_yaml_matches_the_json_schema() -> None:
    data = yaml.safe_load((bundled_dir() / f"{REF}.yaml").read_text(encoding="utf-8"))
    jsonschema.validate(data, Ruleset.model_json_schema())
    data["scoring"]["slamm"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, Ruleset.model_json_schema())
