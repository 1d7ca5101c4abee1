"""Game records: simulated records validate, match the JSON Schema and round-trip; records with
one thing changed are rejected at the right hand and step, by the right rule; the CLI reports it.

Situations for the mutations (a player who could have followed suit, a joker that could have been
led, …) are found by searching seeded games, read straight from the records.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema  # the test extra's: the schema tests run wherever the tests do
import pytest
from typer.testing import CliRunner

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.cli.app import app
from fivehundred.engine.state import CHANCE, GameState, Phase, new_game
from fivehundred.records.record import dumps, game_to_dict, record_schema
from fivehundred.records.validation import Problem, validate_record
from fivehundred.rules.loading import ruleset_paths
from fivehundred.rules.ruleset import Ruleset

SEATS = ["N", "E", "S", "W"]
TEAMS = ["NS", "EW"]
SAME_COLOUR = {"S": "C", "C": "S", "D": "H", "H": "D"}
SEED = 3
GAMES = 400


# --- records to work on --------------------------------------------------------------------


@pytest.fixture(scope="module")
def batch_file(tmp_path_factory: pytest.TempPathFactory, pagat: Ruleset) -> Path:
    path = tmp_path_factory.mktemp("records") / "games.jsonl"
    summary = fivehundred.simulate(games=GAMES, seed=SEED, ruleset=pagat, players="random", out=path)
    assert summary.games == GAMES
    return path


@pytest.fixture(scope="module")
def batch(batch_file: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in batch_file.read_text(encoding="utf-8").splitlines()]


def cautious_game(rs: Ruleset, seed: int, pass_rate: float = 0.6) -> GameState:
    """Players who pass often and bid low: long games, all-pass deals and misères."""
    st, rng = new_game(rs, f"records-{seed}")
    prng = random.Random(seed)
    while not st.is_terminal() and st.deals < 300:
        if st.current_player() == CHANCE:
            st.deal(rng)
            continue
        legal = st.legal_actions()
        if st.phase == Phase.AUCTION and len(legal) > 1 and prng.random() >= pass_rate:
            st.apply(prng.choice(legal[1:4]))
        elif st.phase == Phase.AUCTION and len(legal) > 1:
            st.apply(legal[0])
        else:
            st.apply(prng.choice(legal))
    return st


@pytest.fixture(scope="module")
def long_games(pagat: Ruleset) -> list[dict[str, Any]]:
    return [game_to_dict(cautious_game(pagat, i), seed=f"records-{i}", game=0, players=["cautious"] * 4)
            for i in range(40)]


@pytest.fixture(scope="module")
def records(batch: list[dict[str, Any]], long_games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return batch + long_games


# --- reading records: where each action is, and what its player held -----------------------


@dataclass
class Card:
    """One card of a recorded hand, with what the validator needs to place it."""

    game: int  # index in the list of records
    hand: int  # index in record["hands"]
    number: int  # the hand's number (Problem.hand)
    step: int  # the validator's step number within the hand
    trick: int
    pos: int
    seat: str
    text: str
    held: list[str]  # the player's cards before playing this one
    led: str | None  # the suit led to this trick (None for the lead itself)
    led_before: set[str]  # suits led in earlier tricks of the hand
    kind: str  # "trumps", "no-trumps" or "misere"
    trump: str | None
    nomination: str | None  # the suit nominated for this player's joker
    last_trick: bool

    def suit(self, card: str) -> str | None:
        """The suit ``card`` counts as for this player: bowers are trumps; a free joker has none."""
        if card.startswith("JK"):
            if self.trump:
                return self.trump
            return self.nomination
        if self.trump and card[:-1] == "J" and card[-1] == SAME_COLOUR[self.trump]:
            return self.trump
        return card[-1]

    def free_joker(self) -> str | None:
        return next((c for c in self.held if c.startswith("JK") and self.suit(c) is None), None)


def contract_kind(call: str) -> tuple[str, str | None]:
    if "misere" in call:
        return "misere", None
    if call.endswith("NT"):
        return "no-trumps", None
    return "trumps", call[-1]


def pre_play_steps(h: dict[str, Any]) -> int:
    """Steps before the first card: calls, discards and (when the phase happens) the nomination."""
    steps = len(h["calls"]) + len(h["discards"])
    contractor = h["contract"]["contractor"]
    kind, _ = contract_kind(h["contract"]["call"])
    held = h["hands"][contractor] + h["kitty"]
    for d in h["discards"]:
        held.remove(d)
    if kind != "trumps" and any(c.startswith("JK") for c in held):
        steps += 1
    return steps


def last_step(h: dict[str, Any]) -> int:
    """The validator's step number of a hand's last action."""
    if h["contract"] is None:
        return len(h["calls"])
    return pre_play_steps(h) + sum(len(t["cards"]) for t in h["tricks"])


def cards_of(records: list[dict[str, Any]]) -> Iterator[Card]:
    for g, rec in enumerate(records):
        for i, h in enumerate(rec["hands"]):
            if h["contract"] is None:
                continue
            contractor = h["contract"]["contractor"]
            kind, trump = contract_kind(h["contract"]["call"])
            held = {s: list(h["hands"][s]) for s in SEATS}
            held[contractor] += h["kitty"]
            for d in h["discards"]:
                held[contractor].remove(d)
            sitting_out = SEATS[(SEATS.index(contractor) + 2) % 4] if kind == "misere" else None
            step = pre_play_steps(h)
            led_before: set[str] = set()
            for k, t in enumerate(h["tricks"]):
                seat = t["leader"]
                led = None
                for pos, text in enumerate(t["cards"]):
                    step += 1
                    card = Card(g, i, h["number"], step, k, pos, seat, text, list(held[seat]), led, set(led_before),
                                kind, trump, h["nomination"] if seat == contractor else None, k == 9)
                    plain = text.split(":")[0]
                    if pos == 0:
                        led = text.split(":")[1] if ":" in text else card.suit(plain)
                    yield card
                    held[seat].remove(plain)
                    seat = SEATS[(SEATS.index(seat) + 1) % 4]
                    if seat == sitting_out:
                        seat = SEATS[(SEATS.index(seat) + 1) % 4]
                if led is not None:
                    led_before.add(led)


def find(records: list[dict[str, Any]], want: Callable[[Card], Any], what: str) -> tuple[Card, Any]:
    for card in cards_of(records):
        found = want(card)
        if found:
            return card, found
    pytest.fail(f"no recorded situation where {what}")


def problem_of(record: dict[str, Any]) -> Problem:
    problems = validate_record(record, "mutated")
    assert len(problems) == 1, problems
    return problems[0]


def expect(record: dict[str, Any], *, hand: int | None, step: int | None, seat: str | None = None,
           action: str | None = None, rule: str) -> Problem:
    p = problem_of(record)
    assert p.rule is not None and rule in p.rule, p
    assert (p.hand, p.step) == (hand, step), p
    if seat is not None:
        assert p.seat == seat, p
    if action is not None:
        assert p.action == action, p
    return p


def mutate_card(records: list[dict[str, Any]], card: Card, text: str) -> dict[str, Any]:
    rec = copy.deepcopy(records[card.game])
    rec["hands"][card.hand]["tricks"][card.trick]["cards"][card.pos] = text
    return rec


# --- valid records ---------------------------------------------------------------------------


def test_simulated_records_validate(batch_file: Path, batch: list[dict[str, Any]]) -> None:
    assert len(batch) == GAMES
    report = fivehundred.validate([batch_file])
    assert report.ok, report.problems[:3]
    assert report.checked == GAMES
    assert [r["game"] for r in batch] == list(range(GAMES))
    assert all(r["seed"] == SEED and r["players"] == dict.fromkeys(SEATS, "random") for r in batch)
    assert all(r["result"] is not None for r in batch)


def test_long_games_validate_and_cover_the_situations(long_games: list[dict[str, Any]]) -> None:
    for rec in long_games:
        assert validate_record(rec) == [], rec["seed"]
    hands = [h for r in long_games for h in r["hands"]]
    calls = {h["contract"]["call"] if h["contract"] else None for h in hands}
    assert None in calls and "misere" in calls
    ends = {"swamp" if min(r["result"]["totals"].values()) <= -500 else "made" for r in long_games if r["result"]}
    assert ends == {"swamp", "made"}


def test_records_are_play_game_records(pagat: Ruleset, batch: list[dict[str, Any]]) -> None:
    """Game i of a batch is ``play_game(ruleset, seed, players, game=i)``, whatever the batching."""
    for i in (0, 1, 17, GAMES - 1):
        st = play_game(pagat, SEED, "random", game=i)
        assert game_to_dict(st, seed=SEED, game=i, players=["random"] * 4) == batch[i]


def test_workers_give_the_same_records(tmp_path: Path, pagat: Ruleset) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    a = fivehundred.simulate(games=60, seed=8, ruleset=pagat, players="random", out=one)
    b = fivehundred.simulate(games=60, seed=8, ruleset=pagat, players="random", out=two, workers=2)
    assert one.read_bytes() == two.read_bytes()
    assert a.as_dict() == b.as_dict()


def test_round_trip(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    """Record → JSON text → record is the identity, and what comes back validates (.json and .jsonl)."""
    lines = []
    for i, rec in enumerate(records):
        text = dumps(rec)
        assert "\n" not in text
        back = json.loads(text)
        assert back == rec
        lines.append(text)
        if i % 50 == 0:
            single = tmp_path / f"game{i}.json"
            single.write_text(json.dumps(back, indent=2, ensure_ascii=False), encoding="utf-8")
            assert fivehundred.validate([single]).ok
    both = tmp_path / "all.jsonl"
    both.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = fivehundred.validate([both])
    assert report.ok and report.checked == len(records)


def test_an_unfinished_game_validates(pagat: Ruleset) -> None:
    st = play_game(pagat, 12, "random", game=0, max_deals=0)
    rec = game_to_dict(st)
    assert rec["hands"] == [] and rec["result"] is None
    assert validate_record(rec) == []
    st = cautious_game(pagat, 1)
    rec = game_to_dict(st)
    del rec["hands"][len(rec["hands"]) // 2:]
    rec["result"], rec["deals"] = None, len(rec["hands"])
    assert validate_record(rec) == []


def test_shipped_rulesets_validate(tmp_path: Path) -> None:
    paths = list(ruleset_paths().values())
    report = fivehundred.validate(paths)
    assert report.ok and report.checked == len(paths)


# --- the JSON Schema -------------------------------------------------------------------------

CARD = re.compile(r"^(JK[0-9]?(:[SCDH])?|(10|1[1-3]|[2-9TJQKA])[SCDH])$")


def structural_problems(rec: dict[str, Any]) -> list[str]:
    """A small hand-written check of the record's shape (used when jsonschema is not installed)."""
    out = []

    def need(cond: bool, what: str) -> None:
        if not cond:
            out.append(what)

    need(set(rec) <= {"format", "ruleset", "seed", "game", "players", "start", "deals", "hands", "result"},
         "top keys")
    need(rec.get("format") == "fivehundred-record/1", "format")
    need(isinstance(rec.get("ruleset"), dict) and set(rec["ruleset"]) == {"name", "hash"}, "ruleset")
    for h in rec.get("hands", []):
        need(set(h) <= {"number", "dealer", "hands", "kitty", "calls", "contract", "discards", "nomination",
                        "tricks", "tricks_won", "scores", "totals", "outcome"}, "hand keys")
        need(isinstance(h["number"], int) and h["number"] >= 1, "number")
        cards = [c for cs in h["hands"].values() for c in cs] + h["kitty"] + h.get("discards", [])
        cards += [c for t in h.get("tricks", []) for c in t["cards"]]
        need(all(isinstance(c, str) and CARD.match(c) for c in cards), "cards")
        need(all(set(c) == {"seat", "call"} for c in h["calls"]), "calls")
        need(h["contract"] is None or set(h["contract"]) <= {"call", "contractor", "value"}, "contract")
        need(h.get("nomination") in (None, "S", "C", "D", "H"), "nomination")
        need(all(set(t) == {"leader", "cards", "winner"} for t in h.get("tricks", [])), "tricks")
        for key in ("tricks_won", "scores", "totals"):
            need(all(isinstance(v, int) for v in h.get(key, {}).values()), key)
    result = rec.get("result")
    need(result is None or set(result) == {"winner", "reason", "totals"}, "result")
    return out


def schema_validator() -> Any:
    schema = record_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def test_records_match_the_json_schema(records: list[dict[str, Any]]) -> None:
    for rec in records:
        assert structural_problems(rec) == []
    validator = schema_validator()
    for rec in records[::5]:  # jsonschema is slow: a fifth of them
        errors = sorted(validator.iter_errors(rec), key=str)
        assert not errors, errors[0].message


@pytest.mark.parametrize("change", ["extra key", "bad card", "bad nomination", "no hands", "bad call entry"])
def test_the_schema_rejects_malformed_records(records: list[dict[str, Any]], change: str) -> None:
    rec = copy.deepcopy(next(r for r in records if r["hands"][0]["contract"]))
    h = rec["hands"][0]
    if change == "extra key":
        rec["comment"] = "hello"
    elif change == "bad card":
        h["kitty"][0] = "1X"
    elif change == "bad nomination":
        h["nomination"] = "NT"
    elif change == "no hands":
        del rec["hands"]
    else:
        h["calls"][0]["bid"] = "7H"
    assert structural_problems(rec) if change != "no hands" else "hands" not in rec
    validator = schema_validator()
    assert list(validator.iter_errors(rec)), change


# --- mutated records: the auction ----------------------------------------------------------


def first_caller(h: dict[str, Any]) -> str:
    return SEATS[(SEATS.index(h["dealer"]) + 1) % 4]


def test_a_call_out_of_turn(records: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(records[0])
    h = rec["hands"][0]
    wrong = SEATS[(SEATS.index(h["dealer"]) + 2) % 4]
    h["calls"][0]["seat"] = wrong
    expect(rec, hand=1, step=1, seat=wrong, action=h["calls"][0]["call"], rule="rule 8")


def test_a_bid_after_passing(records: list[dict[str, Any]]) -> None:
    for rec in records:
        for i, h in enumerate(rec["hands"]):
            passed = set()
            for k, c in enumerate(h["calls"]):
                if c["call"] != "pass" and passed - {c["seat"]}:
                    seat = sorted(passed - {c["seat"]})[0]
                    bad = copy.deepcopy(rec)
                    bad["hands"][i]["calls"][k]["seat"] = seat
                    expect(bad, hand=h["number"], step=k + 1, seat=seat, action=c["call"],
                           rule="rule 8: a player who has passed")
                    return
                if c["call"] == "pass":
                    passed.add(c["seat"])
    pytest.fail("no auction where a bid follows a pass")


@pytest.mark.parametrize("how", ["equal", "lower"])
def test_a_bid_not_higher_than_the_standing_bid(records: list[dict[str, Any]], how: str) -> None:
    ladder = [r.call for r in fivehundred.load_ruleset().auction.ladder]
    for rec in records:
        for i, h in enumerate(rec["hands"]):
            standing = None
            for k, c in enumerate(h["calls"]):
                if c["call"] != "pass" and standing is not None and ladder.index(standing) > 0:
                    call = standing if how == "equal" else ladder[ladder.index(standing) - 1]
                    bad = copy.deepcopy(rec)
                    bad["hands"][i]["calls"][k]["call"] = call
                    p = expect(bad, hand=h["number"], step=k + 1, seat=c["seat"], action=call, rule="rule 8")
                    assert "higher" in (p.rule or "")
                    return
                if c["call"] != "pass":
                    standing = c["call"]
    pytest.fail("no auction with two bids")


@pytest.mark.parametrize("before", [[], ["6H"], ["6NT", "pass"]])
def test_misere_without_a_seven_bid(records: list[dict[str, Any]], before: list[str]) -> None:
    rec = copy.deepcopy(records[0])
    h = rec["hands"][0]
    seat = SEATS.index(first_caller(h))
    calls = [*before, "misere"]
    h["calls"] = [{"seat": SEATS[(seat + k) % 4], "call": c} for k, c in enumerate(calls)] + h["calls"][len(calls):]
    expect(rec, hand=1, step=len(calls), seat=SEATS[(seat + len(before)) % 4], action="misere", rule="rule 10")


def test_misere_over_a_seven_bid_is_accepted_by_the_auction(records: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(records[0])
    h = rec["hands"][0]
    seat = SEATS.index(first_caller(h))
    h["calls"] = [{"seat": SEATS[(seat + k) % 4], "call": c} for k, c in enumerate(["7S", "misere"])]
    p = problem_of(rec)  # the auction is now unfinished: that, not the misère, is the problem
    assert p.rule is not None and "rule 12" in p.rule and p.step == 2, p


# --- mutated records: the kitty and the play ------------------------------------------------


def test_a_discard_not_in_the_contractors_hand(records: list[dict[str, Any]]) -> None:
    g, i = next((g, i) for g, r in enumerate(records) for i, h in enumerate(r["hands"]) if h["contract"])
    rec = copy.deepcopy(records[g])
    h = rec["hands"][i]
    contractor = h["contract"]["contractor"]
    other = next(s for s in SEATS if s != contractor)
    card = h["hands"][other][0]
    h["discards"][1] = card
    expect(rec, hand=h["number"], step=len(h["calls"]) + 2, seat=contractor, action=card, rule="rule 14")


def test_a_nomination_in_a_suit_contract(records: list[dict[str, Any]]) -> None:
    g, i = next((g, i) for g, r in enumerate(records) for i, h in enumerate(r["hands"])
                if h["contract"] and contract_kind(h["contract"]["call"])[0] == "trumps")
    rec = copy.deepcopy(records[g])
    h = rec["hands"][i]
    h["nomination"] = "H"
    expect(rec, hand=h["number"], step=len(h["calls"]) + len(h["discards"]) + 1, seat=h["contract"]["contractor"],
           rule="rule 19")


def could_follow(c: Card) -> str | None:
    """Another card this follower could have played instead of following suit (an illegal play)."""
    if c.pos == 0 or c.suit(c.text) != c.led:
        return None
    return next((x for x in c.held if c.suit(x) not in (c.led, None)), None)


def test_not_following_suit(records: list[dict[str, Any]]) -> None:
    card, other = find(records, could_follow, "a player followed suit holding a card of another suit")
    bad = mutate_card(records, card, other)
    expect(bad, hand=card.number, step=card.step, seat=card.seat, action=other, rule="rule 16")


@pytest.mark.parametrize("whose", ["another player's", "an already played", "a discarded"])
def test_a_card_not_in_hand(records: list[dict[str, Any]], whose: str) -> None:
    card, _ = find(records, lambda c: c.trick == 3 and c.pos == 1, "a fourth trick")
    h = records[card.game]["hands"][card.hand]
    if whose == "another player's":  # a card that someone else plays later in the hand
        text = next(c.text.split(":")[0] for c in cards_of([records[card.game]])
                    if c.hand == card.hand and c.trick > card.trick and c.seat != card.seat)
    elif whose == "an already played":
        text = h["tricks"][0]["cards"][0].split(":")[0]
    else:
        text = h["discards"][0]
    bad = mutate_card(records, card, text)
    p = expect(bad, hand=card.number, step=card.step, seat=card.seat, action=text, rule="rule 16")
    assert "hand" in (p.rule or "")


def test_a_wrong_trick_winner(records: list[dict[str, Any]]) -> None:
    card, _ = find(records, lambda c: c.trick == 2 and c.pos == 0, "a third trick")
    rec = copy.deepcopy(records[card.game])
    t = rec["hands"][card.hand]["tricks"][2]
    t["winner"] = next(s for s in SEATS if s != t["winner"])
    expect(rec, hand=card.number, step=card.step + len(t["cards"]) - 1, rule="rule 17")


def test_a_wrong_trick_leader(records: list[dict[str, Any]]) -> None:
    card, _ = find(records, lambda c: c.trick == 4 and c.pos == 0, "a fifth trick")
    rec = copy.deepcopy(records[card.game])
    t = rec["hands"][card.hand]["tricks"][4]
    t["leader"] = next(s for s in SEATS if s != t["leader"])
    expect(rec, hand=card.number, step=card.step, rule="rule 17")


def test_a_joker_led_naming_a_suit_already_led(records: list[dict[str, Any]]) -> None:
    def could_lead_joker(c: Card) -> str | None:
        if c.pos or c.last_trick or not c.led_before or not c.free_joker():
            return None
        return f"{c.free_joker()}:{sorted(c.led_before)[0]}"

    card, text = find(records, could_lead_joker, "a leader held a free joker after a suit was led")
    bad = mutate_card(records, card, text)
    expect(bad, hand=card.number, step=card.step, seat=card.seat, action=text, rule="rule 22")


def test_a_joker_led_naming_an_unled_suit_is_accepted(records: list[dict[str, Any]]) -> None:
    def could_lead_joker(c: Card) -> str | None:
        unled = sorted(set("SCDH") - c.led_before)
        if c.pos or c.last_trick or not unled or not c.free_joker():
            return None
        return f"{c.free_joker()}:{unled[0]}"

    card, text = find(records, could_lead_joker, "a leader held a free joker")
    p = problem_of(mutate_card(records, card, text))
    assert p.step is None or p.step > card.step or (p.hand or 0) > card.number, p  # the lead itself is fine


def test_a_joker_played_when_the_holder_could_follow(records: list[dict[str, Any]]) -> None:
    def holds_joker_and_suit(c: Card) -> str | None:
        if c.pos == 0 or not c.free_joker() or not any(c.suit(x) == c.led for x in c.held):
            return None
        return c.free_joker()

    card, joker = find(records, holds_joker_and_suit, "a follower held a free joker and the suit led")
    bad = mutate_card(records, card, joker)
    expect(bad, hand=card.number, step=card.step, seat=card.seat, action=joker, rule="rule 21")


def test_a_void_misere_player_keeps_the_joker(records: list[dict[str, Any]], pagat: Ruleset) -> None:
    """Rule 21: in misère a player void in the suit led must play the free joker."""

    def must_play_joker(c: Card) -> str | None:
        if c.kind != "misere" or c.pos == 0 or not c.free_joker() or any(c.suit(x) == c.led for x in c.held):
            return None
        return next((x for x in c.held if not x.startswith("JK")), None)

    more = [game_to_dict(cautious_game(pagat, 1000 + i, 0.4)) for i in range(60)]
    card, other = find(records + more, must_play_joker, "a misère player void in the suit led held the joker")
    bad = mutate_card(records + more, card, other)
    expect(bad, hand=card.number, step=card.step, seat=card.seat, action=other, rule="rule 21")


# --- mutated records: scores and the end of the game ---------------------------------------


@pytest.mark.parametrize("key", ["scores", "totals"])
def test_a_tampered_score(records: list[dict[str, Any]], key: str) -> None:
    g, i = next((g, i) for g, r in enumerate(records) for i, h in enumerate(r["hands"]) if h["contract"])
    rec = copy.deepcopy(records[g])
    h = rec["hands"][i]
    h[key]["EW"] += 10
    p = expect(rec, hand=h["number"], step=last_step(h), rule="rules 24–27")
    assert p.field == f"hands[{i}].{key}"


def test_tampered_tricks_won(records: list[dict[str, Any]]) -> None:
    g, i = next((g, i) for g, r in enumerate(records) for i, h in enumerate(r["hands"]) if h["contract"])
    rec = copy.deepcopy(records[g])
    h = rec["hands"][i]
    h["tricks_won"]["N"] += 1
    p = expect(rec, hand=h["number"], step=last_step(h), rule="rule 17")
    assert p.field == f"hands[{i}].tricks_won"


def test_a_wrong_winner(records: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(records[0])
    rec["result"]["winner"] = next(t for t in TEAMS if t != rec["result"]["winner"])
    last = rec["hands"][-1]
    p = expect(rec, hand=last["number"], step=last_step(last), rule="rules 28–31")
    assert p.field == "result.winner"


def test_no_result_for_a_finished_game(records: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(records[0])
    rec["result"] = None
    last = rec["hands"][-1]
    p = expect(rec, hand=last["number"], step=last_step(last), rule="rules 28–31")
    assert p.field == "result"


def test_a_result_before_the_game_is_over(long_games: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(next(r for r in long_games if len(r["hands"]) > 3 and r["result"]))
    rec["hands"].pop()
    rec["deals"] -= 1
    last = rec["hands"][-1]
    p = expect(rec, hand=last["number"], step=last_step(last), rule="rules 28–31")
    assert p.field == "result"


def test_a_hand_after_the_game_is_over(long_games: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(next(r for r in long_games if len(r["hands"]) > 3 and r["result"]))
    extra = copy.deepcopy(rec["hands"][0])
    extra["number"] = len(rec["hands"]) + 1
    rec["hands"].append(extra)
    p = expect(rec, hand=extra["number"], step=0, rule="rules 28–31")
    assert str(extra["number"]) in p.message and p.field == f"hands[{len(rec['hands']) - 1}]", p


def test_a_wrong_dealer(long_games: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(next(r for r in long_games if len(r["hands"]) > 3))
    h = rec["hands"][2]
    h["dealer"] = SEATS[(SEATS.index(h["dealer"]) + 1) % 4]
    p = expect(rec, hand=3, step=0, rule="rule 7")
    assert p.field == "hands[2].dealer"


def test_a_card_dealt_twice(records: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(records[0])
    h = rec["hands"][0]
    h["kitty"][0] = h["hands"]["N"][0]
    expect(rec, hand=1, step=0, rule="rule 2")


# --- rule 27: misère hands that end early, or are played out -------------------------------


def misere_hand(pagat: Ruleset, play_out: bool, start: int = 0) -> GameState:
    """A first hand of misère that the contractor loses before the last trick."""
    rules = fivehundred.compile_rules(pagat)
    for seed in range(start, start + 2000):
        rng = random.Random(seed)
        st = GameState(rules, first_dealer=seed % 4, misere_play_out=play_out)
        st.deal(rng)
        for call in ("7S", "misere", "pass", "pass", "pass"):
            st.apply(st.parse_action(call))
        assert st.phase == Phase.DISCARD
        while st.deals == 1 and not st.is_terminal() and st.phase != Phase.DEAL:
            st.apply(rng.choice(st.legal_actions()))
        log = st.hands_log[0]
        lost = [k for k, t in enumerate(log.tricks) if t.winner == log.contractor]
        if lost and lost[0] < 8:
            return st
    pytest.fail("no misère lost early")


def test_a_played_out_misere_validates(pagat: Ruleset) -> None:
    """Rule 27 decision: a record whose misère was played out after the contractor won a trick is valid."""
    st = misere_hand(pagat, play_out=True)
    rec = game_to_dict(st)
    h = rec["hands"][0]
    assert h["contract"]["call"] == "misere" and len(h["tricks"]) == 10
    assert all(len(t["cards"]) == 3 for t in h["tricks"])
    contractor = h["contract"]["contractor"]
    assert h["tricks_won"][contractor] >= 1
    assert validate_record(rec) == []
    # the same deal and cards, ended early: also valid, and scored the same
    early = copy.deepcopy(rec)
    e = early["hands"][0]
    first_lost = next(k for k, t in enumerate(e["tricks"]) if t["winner"] == contractor)
    e["tricks"] = e["tricks"][:first_lost + 1]
    e["tricks_won"] = {s: sum(t["winner"] == s for t in e["tricks"]) for s in SEATS}
    assert validate_record(early) == []
    assert e["scores"] == h["scores"] and h["scores"][TEAMS[SEATS.index(contractor) % 2]] == -250
    # neither ended nor played out: a trick after the end
    half = copy.deepcopy(rec)
    x = half["hands"][0]
    x["tricks"] = x["tricks"][:first_lost + 2]
    x["tricks_won"] = {s: sum(t["winner"] == s for t in x["tricks"]) for s in SEATS}
    steps = pre_play_steps(x) + 3 * (first_lost + 1)
    expect(half, hand=1, step=steps + 1, rule="rule 27")


def test_the_engine_ends_a_lost_misere_early(pagat: Ruleset) -> None:
    st = misere_hand(pagat, play_out=False)
    log = st.hands_log[0]
    assert log.tricks[-1].winner == log.contractor and len(log.tricks) < 10
    assert sum(t.winner == log.contractor for t in log.tricks) == 1
    assert validate_record(game_to_dict(st)) == []


# --- the CLI -------------------------------------------------------------------------------


def invoke(*args: str | Path) -> Any:
    return CliRunner().invoke(app, ["validate", *map(str, args)], prog_name="fivehundred")


def test_cli_validate_a_valid_file(batch_file: Path) -> None:
    result = invoke(batch_file)
    assert result.exit_code == 0, result.output
    assert f"{GAMES} of {GAMES} valid" in result.stdout


def test_cli_validate_names_hand_step_seat_action_and_rule(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    card, other = find(records, could_follow, "a player followed suit holding a card of another suit")
    bad = mutate_card(records, card, other)
    path = tmp_path / "bad.jsonl"
    path.write_text(dumps(records[1]) + "\n" + dumps(bad) + "\n", encoding="utf-8")
    result = invoke(path)
    assert result.exit_code == 1, result.output
    out = result.stdout
    for part in (f"{path}:2", f"hand {card.number}", f"step {card.step}", f"seat {card.seat}", f"action {other}",
                 "rule 16"):
        assert part in out, (part, out)
    assert "1 of 2 valid" in out
    assert f"{path}:1" not in out
    result = invoke(path, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["checked"] == 2 and report["valid"] == 1
    [p] = report["problems"]
    assert (p["source"], p["hand"], p["step"], p["seat"], p["action"]) == (
        f"{path}:2", card.number, card.step, card.seat, other)
    assert p["rule"].startswith("rule 16")


def test_cli_validate_a_broken_line(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text(dumps(records[0]) + "\n{not json\n", encoding="utf-8")
    result = invoke(path)
    assert result.exit_code == 1
    assert f"{path}:2" in result.stdout and "1 of 2 valid" in result.stdout


# --- every field checked: calls after the auction, passed-out deals, values, numbers ---------


def played_hand(records: list[dict[str, Any]], want: Callable[[dict[str, Any]], bool]) -> tuple[dict[str, Any], int]:
    """A copy of the first record with a hand that ``want`` accepts, and that hand's index."""
    for rec in records:
        for i, h in enumerate(rec["hands"]):
            if want(h):
                return copy.deepcopy(rec), i
    pytest.fail("no such hand recorded")


def test_a_contractor_s_call_after_the_auction_is_not_read_as_a_discard(records: list[dict[str, Any]]) -> None:
    """Rule 12: a card such as 8D recorded as a call after the auction was read as the discard of 8♦."""
    ladder = {r.call for r in fivehundred.load_ruleset().auction.ladder}
    rec, i = played_hand(records, lambda h: bool(h["contract"]) and h["discards"][0] in ladder)
    h = rec["hands"][i]
    contractor, card = h["contract"]["contractor"], h["discards"][0]
    h["calls"].append({"seat": contractor, "call": card})
    h["discards"].pop(0)
    p = expect(rec, hand=h["number"], step=len(h["calls"]), seat=contractor, action=card,
               rule="rule 12: the contractor may not raise")
    assert p.field == f"hands[{i}].calls[{len(h['calls']) - 1}]" and "after the auction ended" in p.message


@pytest.mark.parametrize("call", ["pass", "10NT"])
def test_a_defender_s_call_after_the_auction(records: list[dict[str, Any]], call: str) -> None:
    rec, i = played_hand(records, lambda h: bool(h["contract"]))
    h = rec["hands"][i]
    defender = next(s for s in SEATS if s != h["contract"]["contractor"])
    h["calls"].append({"seat": defender, "call": call})
    p = expect(rec, hand=h["number"], step=len(h["calls"]), seat=defender, action=call,
               rule="rule 12: the auction is over")
    assert p.field == f"hands[{i}].calls[{len(h['calls']) - 1}]"


def test_a_call_after_a_passed_out_auction(long_games: list[dict[str, Any]]) -> None:
    rec, i = played_hand(long_games, lambda h: h["contract"] is None)
    h = rec["hands"][i]
    h["calls"].append({"seat": first_caller(h), "call": "6S"})
    expect(rec, hand=h["number"], step=len(h["calls"]), seat=first_caller(h), action="6S", rule="rule 12")


@pytest.mark.parametrize(("key", "value"), [
    ("nomination", "H"), ("discards", ["4H"]), ("tricks", "first trick of another hand"),
    ("tricks_won", {"N": 1, "E": 0, "S": 0, "W": 0}), ("scores", {"NS": 0, "EW": 10}),
    ("totals", {"NS": 0, "EW": 10}), ("outcome", {"kind": "trumps", "side": [], "made": None}),
])
def test_nothing_is_recorded_on_a_passed_out_deal(long_games: list[dict[str, Any]], key: str, value: Any) -> None:
    """Rule 13: a deal everybody passed has no contract, no exchange, no play and no score."""
    rec, i = played_hand(long_games, lambda h: h["contract"] is None)
    h = rec["hands"][i]
    if key == "tricks":
        value = [next(x for r in long_games for x in r["hands"] if x["contract"])["tricks"][0]]
    h[key] = value
    p = expect(rec, hand=h["number"], step=len(h["calls"]), rule="rule 13")
    assert p.field == f"hands[{i}].{key}"


def test_a_passed_out_deal_may_state_its_unchanged_totals(long_games: list[dict[str, Any]]) -> None:
    rec, i = played_hand(long_games, lambda h: h["contract"] is None)
    h = rec["hands"][i]
    before = next((x["totals"] for x in reversed(rec["hands"][:i]) if x["totals"]), {"NS": 0, "EW": 0})
    h.update(totals=before, scores={"NS": 0, "EW": 0}, tricks_won=dict.fromkeys(SEATS, 0))
    assert validate_record(rec) == []


def test_a_wrong_contract_value(records: list[dict[str, Any]]) -> None:
    rec, i = played_hand(records, lambda h: bool(h["contract"]))
    h = rec["hands"][i]
    h["contract"]["value"] += 20
    p = expect(rec, hand=h["number"], step=last_step(h), seat=h["contract"]["contractor"], rule="rule 24")
    assert p.field == f"hands[{i}].contract.value"


def test_wrong_result_totals(records: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(records[0])
    rec["result"]["totals"]["EW"] += 10
    last = rec["hands"][-1]
    p = expect(rec, hand=last["number"], step=last_step(last), rule="rules 28–31")
    assert p.field == "result.totals"


def test_a_wrong_number_of_deals(records: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(records[0])
    rec["deals"] += 1
    last = rec["hands"][-1]
    p = expect(rec, hand=last["number"], step=last_step(last), rule="record format: deals")
    assert p.field == "deals"


@pytest.mark.parametrize("index", [0, 2])
def test_a_wrong_hand_number(long_games: list[dict[str, Any]], index: int) -> None:
    rec = copy.deepcopy(next(r for r in long_games if len(r["hands"]) > 3))
    rec["hands"][index]["number"] += 1
    p = expect(rec, hand=index + 2, step=0, rule="record format: hands are numbered")
    assert p.field == f"hands[{index}].number" and f"deal {index + 1}" in p.message


def test_hands_dealt_to_a_seat_the_ruleset_does_not_have(records: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(records[0])
    rec["hands"][0]["hands"]["X"] = rec["hands"][0]["hands"].pop("W")
    p = expect(rec, hand=1, step=0, rule="rule 6")
    assert p.field == "hands[0].hands"


def test_cli_validate_json_gives_every_location(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    rec, i = played_hand(records, lambda h: bool(h["contract"]))
    h = rec["hands"][i]
    h["totals"]["NS"] += 10
    path = tmp_path / "scores.jsonl"
    path.write_text(dumps(rec) + "\n", encoding="utf-8")
    result = invoke(path, "--json")
    assert result.exit_code == 1, result.output
    [p] = json.loads(result.stdout)["problems"]
    assert (p["hand"], p["step"], p["field"]) == (h["number"], last_step(h), f"hands[{i}].totals")
    assert p["rule"].startswith("rules 24–27")
    assert json.loads(result.stdout)["rules"].startswith("rule numbers: docs/rules.md")
    text = invoke(path).stdout
    assert f"hand {h['number']}, step {last_step(h)}, field hands[{i}].totals" in text
    assert "rule numbers: docs/rules.md" in text


# --- records that start where real games start ----------------------------------------------


def disputed_hand(pagat: Ruleset, totals: list[int], number: int, dealer: str) -> dict[str, Any]:
    """The record of one hand with a contract, played at ``totals`` as the game's deal ``number``."""
    rules = fivehundred.compile_rules(pagat)
    for seed in range(200):
        rng = random.Random(seed)
        st = GameState(rules, first_dealer=SEATS.index(dealer))
        st.start_at(totals, number)
        st.deal(rng)
        while st.phase != Phase.DEAL and not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        if st.hands_log[0].contract is not None:
            return game_to_dict(st)
    pytest.fail("no contract in 200 deals")


def test_a_disputed_hand_at_310_450_is_validated_on_its_own(pagat: Ruleset) -> None:
    rec = disputed_hand(pagat, [310, 450], 12, "W")
    h = rec["hands"][0]
    assert rec["start"] == {"number": 12, "totals": {"NS": 310, "EW": 450}}
    assert (h["number"], h["dealer"], rec["deals"]) == (12, "W", 12)
    assert h["totals"] == {"NS": 310 + h["scores"]["NS"], "EW": 450 + h["scores"]["EW"]}
    assert validate_record(rec) == []
    assert not list(schema_validator().iter_errors(rec))
    # the same hand read from 0–0 is another game: its totals are wrong, and it is not hand 1
    from_zero = copy.deepcopy(rec)
    del from_zero["start"]
    p = expect(from_zero, hand=12, step=0, rule="record format: hands are numbered")
    assert "deal 1" in p.message
    elsewhere = copy.deepcopy(rec)
    elsewhere["start"]["totals"]["NS"] = 320
    p = expect(elsewhere, hand=12, step=last_step(h), rule="rules 24–27")
    assert p.field == "hands[0].totals"
    later = copy.deepcopy(rec)
    later["start"]["number"] = 11
    expect(later, hand=12, step=0, rule="record format: hands are numbered")


@pytest.mark.parametrize(("start", "field"), [
    ({"number": 3, "totals": {"NS": 10}}, "start.totals"),
    ({"number": 0, "totals": {"NS": 0, "EW": 0}}, "start.number"),
    ({"number": 2, "totals": {"NS": "ten", "EW": 0}}, "start.totals")])
def test_a_start_that_is_not_a_position(pagat: Ruleset, start: dict[str, Any], field: str) -> None:
    rec = disputed_hand(pagat, [310, 450], 12, "W")
    rec["start"] = start
    p = problem_of(rec)
    assert p.field == field and p.rule is not None and p.rule.startswith("record format: start"), p


@pytest.mark.parametrize(("totals", "says"), [([310, -500], "EW fell to -500"), ([-620, 480], "NS fell to -620")])
def test_a_record_that_starts_where_the_game_is_over_is_refused(pagat: Ruleset, totals: list[int], says: str,
                                                                tmp_path: Path) -> None:
    rec = disputed_hand(pagat, [310, 450], 12, "W")
    rec["start"]["totals"] = dict(zip(("NS", "EW"), totals, strict=True))
    p = problem_of(rec)
    assert p.field == "start.totals" and p.hand is None and says in p.message, p
    assert p.rule == "rules 28–31: a game starts only at totals the game goes on from"
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1 and f"{path}:1" in result.stdout and "already over" in result.stdout
    rec["start"]["totals"] = {"NS": 510, "EW": -490}  # rule 30: 510 on defence points plays on
    assert all(p.field != "start.totals" for p in validate_record(rec))


def test_a_record_of_a_whole_game_has_no_start(records: list[dict[str, Any]]) -> None:
    """Format 1 as it was: records without start begin at hand 1 and 0–0, and still validate."""
    assert all("start" not in rec for rec in records)
    rec = copy.deepcopy(records[0])
    rec["start"] = {"number": 1, "totals": {"NS": 0, "EW": 0}}
    assert validate_record(rec) == []


def test_the_engine_starts_a_hand_log_as_the_constructor_does() -> None:
    """``new_log`` (how the engine starts each hand's log, without the compiled dataclass constructor) sets every
    field as ``HandLog(...)`` does, each mutable default a new object."""
    import dataclasses

    from fivehundred.engine.hand_log import HandLog, new_log

    args = (3, 1, [[4, 5]], [6], [7])
    made, built = new_log(*args), HandLog(*args)
    assert made == built and repr(made) == repr(built)
    for f in dataclasses.fields(HandLog)[len(args):]:
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(made, f.name) is not getattr(new_log(*args), f.name), f.name
