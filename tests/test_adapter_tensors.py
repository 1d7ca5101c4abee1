"""The adapters' tensors (``fivehundred.adapters.tensors``) are kept up to date from one observation to the
next; here every one is compared with a tensor drawn afresh, piece by piece, from ``GameState.observation``
(what a seat may know, as the engine says it), over random games of several rulesets, asked in a random
order: every player, now and then, after one action or after many."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
import yaml
from extras import need

np = need("numpy", "openspiel")

from fivehundred.adapters.table import Episode, Piece, Table, table_for  # noqa: E402
from fivehundred.engine.state import PASS_ACTION, Observation, Phase  # noqa: E402
from fivehundred.plugins.declarations import GIVE  # noqa: E402
from fivehundred.rules.cards import JOKER_BASE  # noqa: E402
from fivehundred.rules.steps import private_steps  # noqa: E402

RULESETS = ("pagat-australian", "perfect", "two-handed", "six-handed-three-teams", "american-1904",
            "french-canadian", "three-handed-dead-hand", "nullo", "avondale-us")


# --- the reference: every piece drawn from the engine's Observation --------------------------


def _cards(table: Table, v: np.ndarray, cards: Sequence[int]) -> None:
    for card in cards:
        v[table.card_index[card]] = 1


def _one(v: np.ndarray, index: int) -> None:
    if 0 <= index < v.shape[0]:
        v[index] = 1


def _each_card(e: Episode, obs: Observation) -> list[tuple[int, int, int]]:
    assert e.state is not None
    order = e.state.play_order
    tricks = [(leader, cards) for leader, cards, _, _ in obs.tricks]
    if obs.current_trick:
        tricks.append((obs.leader, obs.current_trick))
    out = []
    for number, (leader, cards) in enumerate(tricks):
        seat = leader
        for card in cards:
            out.append((number, seat, card))
            seat = order[seat]
    return out


def _steps(e: Episode, p: int, obs: Observation, v: np.ndarray) -> None:
    rules = e.table.rules
    offset = 0
    for step in rules.steps:
        size = step.public_size(rules)
        if step.name in obs.steps:
            for index in step.public_indices(obs.steps[step.name], rules):
                v[offset + index] = 1
        offset += size


def _private_steps(e: Episode, p: int, obs: Observation, v: np.ndarray) -> None:
    rules = e.table.rules
    own = private_steps(e.state, e.table.deciders[p])  # type: ignore[arg-type]
    offset = 0
    for step in rules.steps:
        if step.name in own:
            for index in step.private_indices(own[step.name], rules):
                v[offset + index] = 1
        offset += step.private_size(rules)


Fill = Callable[[Episode, int, Observation, np.ndarray], None]
REFERENCE: dict[str, Fill] = {
    "player": lambda e, p, obs, v: _one(v, p),
    "to_act": lambda e, p, obs, v: _one(v, e.seat_to_act()),
    "dealer": lambda e, p, obs, v: _one(v, obs.dealer),
    "hand": lambda e, p, obs, v: _cards(e.table, v, obs.hand),
    "discards": lambda e, p, obs, v: _cards(e.table, v, obs.discards),
    "shown": lambda e, p, obs, v: [_cards(e.table, v[seat], cards) for seat, cards in obs.open_hands],
    "calls": lambda e, p, obs, v: [v.__setitem__((seat, call + 2), 1) for seat, call in obs.calls],
    "contract": lambda e, p, obs, v: obs.contract is not None and _one(v, obs.contract.rung + 1),
    "contractor": lambda e, p, obs, v: _one(v, obs.contractor),
    "side": lambda e, p, obs, v: [_one(v, s) for s in e.state.contracting_side],  # type: ignore[union-attr]
    "nomination": lambda e, p, obs, v: _one(v, obs.nomination if obs.nomination is not None
                                            else 4 if obs.contract is not None else -1),
    "played": lambda e, p, obs, v: [v.__setitem__((seat, e.table.card_index[card]), 1)
                                    for _, seat, card in _each_card(e, obs)],
    "trick": lambda e, p, obs, v: [v.__setitem__((seat, e.table.card_index[card]), 1)
                                   for _, seat, card in _each_card(e, obs)[len(_each_card(e, obs))
                                                                           - len(obs.current_trick):]],
    "led": lambda e, p, obs, v: _one(v, -1 if obs.led is None else obs.led),
    "tricks_won": lambda e, p, obs, v: obs.tricks_won and v.__setitem__(
        slice(None), np.asarray(obs.tricks_won, np.float32) / e.table.rules.hand_size),
    "totals": lambda e, p, obs, v: v.__setitem__(slice(None), np.clip(
        np.asarray(obs.totals, np.float32) / (2.0 * max(e.table.ruleset.game.target, 1)), -1.0, 1.0)),
    "sitting": lambda e, p, obs, v: [_one(v, s) for s in obs.sitting],
    "steps": _steps,
    "private_steps": _private_steps,
    "dealt": lambda e, p, obs, v: _cards(e.table, v, e.hand_seen(p)),
    "trick_of_card": lambda e, p, obs, v: [v.__setitem__((e.table.card_index[card], number), 1)
                                           for number, _, card in _each_card(e, obs)],
    "call_order": lambda e, p, obs, v: [(v.__setitem__((i, seat), 1),
                                         v.__setitem__((i, e.table.rules.players + call + 2), 1))
                                        for i, (seat, call) in enumerate(obs.calls[:v.shape[0]])],
}


def reference(e: Episode, player: int, pieces: Sequence[Piece]) -> np.ndarray:
    """The tensor drawn afresh: before the first dealer is drawn only the player and the phase show."""
    flat = np.zeros(sum(p.size for p in pieces), np.float32)
    obs = e.state.observation(e.table.deciders[player]) if e.state is not None else None
    offset = 0
    for piece in pieces:
        view = flat[offset:offset + piece.size].reshape(piece.shape)
        offset += piece.size
        if piece.name == "phase":
            view[-1 if e.over else int(e.state.phase) if e.state is not None else int(Phase.DEAL)] = 1
        elif obs is not None or piece.name == "player":
            REFERENCE[piece.name](e, player, obs, view)  # type: ignore[arg-type]
    return flat


def test_the_reference_covers_every_piece() -> None:
    for name in RULESETS:
        assert {p.name for p in table_for(name).pieces} <= set(REFERENCE) | {"phase"}


# --- the tensors, kept up to date, against the reference -------------------------------------


def _compare(e: Episode, rng: random.Random, layouts: list[tuple[Sequence[Piece], object]], chance: float) -> int:
    checked = 0
    for pieces, layout in layouts:
        for player in range(e.table.players):
            if rng.random() < chance:
                got = e.tensor(player, layout)  # type: ignore[arg-type]
                want = reference(e, player, pieces)
                if not np.array_equal(got, want):
                    bad = [p.name for p, (a, b) in zip(pieces, _split(pieces, got, want), strict=True)
                           if not np.array_equal(a, b)]
                    raise AssertionError(f"{e.table.ruleset.name}, player {player}, phase "
                                         f"{e.state.phase if e.state else None}: pieces {bad} differ")
                checked += 1
    return checked


def _split(pieces: Sequence[Piece], a: np.ndarray, b: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    out, offset = [], 0
    for piece in pieces:
        out.append((a[offset:offset + piece.size], b[offset:offset + piece.size]))
        offset += piece.size
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_tensors_kept_up_to_date_equal_tensors_drawn_afresh(ruleset: str) -> None:
    assert play_and_compare(table_for(ruleset), random.Random(ruleset), 6) > 100


def test_every_steps_public_data_is_in_the_tensors(tmp_path: Path) -> None:
    path = tmp_path / "every-step.yaml"
    path.write_text(yaml.safe_dump({"name": "every-step", "extends": "pagat-australian", "scoring": {"breach": 100},
                                    "declarations": {"slam": [7], "declare": True}}), encoding="utf-8")
    table = table_for(str(path))
    rules = table.rules
    assert [s.name for s in rules.steps] == ["declaration", "gift", "breach"]
    (steps,) = [p for p in table.pieces if p.name == "steps"]
    assert steps.shape == (3 + 0 + 2 * rules.players,)  # a declaration of three; a gift is seen by two seats only
    (own,) = [p for p in table.pieces if p.name == "private_steps"]
    assert own.shape == (len(table.cards),) and own.private and not own.recall  # the card given
    assert all(p.name != "private_steps" for p in table.pieces_for(private=False, recall=True))
    seen: set[str] = set()
    play_and_compare(table, random.Random(5), 30, seen)
    assert seen == {"declaration", "breach", "gift"}
    for name, size in (("five-handed", lambda t: 1 + len(t.cards)), ("french-canadian", lambda t: len(t.cards)),
                       ("perfect", lambda t: t.rules.players * 2)):  # the call, the cards face up, look or blind
        other = table_for(name)
        (piece,) = [p for p in other.pieces if p.name == "steps"]
        assert piece.shape == (size(other),) and not piece.private and not piece.recall
    for name in ("five-handed", "french-canadian", "perfect"):
        seen = set()
        play_and_compare(table_for(name), random.Random(name), 4, seen)
        rules = table_for(name).rules  # steps with public data (C1's pass to the partner has none)
        assert seen == {s.name for s in rules.steps if s.public_size(rules)}
    assert all(p.name != "steps" for p in table_for("pagat-australian").pieces)  # no steps, no piece


def test_a_step_that_numbers_its_data_beyond_its_size_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    table = table_for("five-handed")
    (step,) = table.rules.steps
    size = step.public_size(table.rules)
    monkeypatch.setattr(type(step), "public_indices", lambda self, public, rules: [self.public_size(rules)])
    layout = table.layout(table.pieces_for(private=True, recall=False))
    e = Episode(table)
    e.deal(random.Random(2))
    with pytest.raises(ValueError, match=f"step 'partner-call': public_indices gave entry {size}, outside its "
                                         f"public_size {size}"):
        while not e.over:
            e.tensor(e.current_player(), layout)
            legal = e.legal_actions()
            e.apply_action(legal[-1])  # the highest call wins the auction; then the partner is called


def play_and_compare(table: Table, rng: random.Random, games: int, steps: set[str] | None = None) -> int:
    """Random games, every tensor asked at random compared with the reference; how many were compared (and
    into ``steps`` the names of the steps whose public data, or a seat's private data, showed)."""
    sets = [table.pieces_for(private=private, recall=recall) for private in (True, False) for recall in (True, False)]
    layouts = [(pieces, table.layout(pieces)) for pieces in sets]
    checked = 0
    for game in range(games):
        e = Episode(table)
        if game % 2:
            while e.current_player() == -1:  # explicit chance, card by card
                checked += _compare(e, rng, layouts, 0.05)
                outcomes = e.chance_outcomes()
                e.apply_chance(outcomes[rng.randrange(len(outcomes))][0])
        else:
            e.deal(random.Random(game))
        chance = (1.0, 0.5, 0.15)[game % 3]  # every step, or now and then: many changes at once
        while True:
            checked += _compare(e, rng, layouts, chance)
            if e.over:
                break
            if steps is not None and e.state is not None:
                steps.update(e.state.public_steps())
                steps.update(*(private_steps(e.state, seat) for seat in table.deciders))
            legal = e.legal_actions()
            e.apply_action(legal[rng.randrange(len(legal))])
    return checked


def test_a_whole_game_keeps_its_tensors_up_to_date_from_hand_to_hand() -> None:
    table = table_for("pagat-australian", "game", 6)
    pieces = table.pieces_for(private=True, recall=True)
    layout = table.layout(pieces)
    rng = random.Random(3)
    passing = table.action_index[PASS_ACTION]
    hands = 0
    for _ in range(3):
        e = Episode(table)
        e.deal(rng)
        while not e.over:
            _compare(e, rng, [(pieces, layout)], 0.3)
            legal = e.legal_actions()
            bold = passing not in legal or rng.random() < 0.2  # random bidders lose the game in a hand or two
            e.apply_action(legal[rng.randrange(len(legal))] if bold else passing)
            if e.current_player() == -1:
                e.deal(rng)
                hands += 1
        _compare(e, rng, [(pieces, layout)], 1.0)
    assert hands >= 2


def test_a_tensor_handed_out_is_the_callers_and_clones_keep_their_own() -> None:
    table = table_for("pagat-australian")
    pieces = table.pieces_for(private=True, recall=True)
    layout = table.layout(pieces)
    rng = random.Random(8)
    e = Episode(table)
    e.deal(rng)
    assert e.state is not None
    while e.state.phase != Phase.PLAY or len(e.state.played) < 6:
        e.apply_action(e.legal_actions()[-1])  # the highest call: the hand is played
    first = e.tensor(0, layout)
    first[:] = 7  # the caller's array: the episode's own stays as it was
    assert np.array_equal(e.tensor(0, layout), reference(e, 0, pieces))
    other = e.clone()
    other.apply_action(other.legal_actions()[-1])
    assert np.array_equal(other.tensor(0, layout), reference(other, 0, pieces))
    assert np.array_equal(e.tensor(0, layout), reference(e, 0, pieces))
    out = np.full(layout.size, 5, np.float32)
    assert e.tensor(1, layout, out) is out and np.array_equal(out, reference(e, 1, pieces))


def test_a_gift_shows_in_the_tensors_of_the_two_seats_that_saw_it_and_leaves_no_trace_elsewhere(
        tmp_path: Path) -> None:
    """C6/C7: the partner's gift is seen by the giver and the contractor.  Two episodes that differ only in
    the card given (not the joker: its nomination would tell everyone) give every other seat the same
    tensors (all four layouts) and text, from the gift to the first card played; the two who saw it see
    the card in ``private_steps``."""
    path = tmp_path / "every-step.yaml"
    path.write_text(yaml.safe_dump({"name": "every-step", "extends": "pagat-australian", "scoring": {"breach": 100},
                                    "declarations": {"slam": [7], "declare": True}}), encoding="utf-8")
    table = table_for(str(path))
    layouts = [table.layout(table.pieces_for(private=private, recall=recall))
               for private in (True, False) for recall in (True, False)]
    e = _at_the_gift(table)
    assert e.state is not None
    log = e.state.hand_log
    giver = e.state.current_player()
    saw = {log.contractor, giver}
    assert len(saw) == 2 and giver in e.state.contracting_side
    first, second = e.clone(), e.clone()
    gifts = [g for g in e.legal_actions() if table.actions[g] - GIVE < JOKER_BASE]  # the joker would be nominated
    first.apply_action(gifts[0])
    second.apply_action(gifts[-1])
    cards = [table.actions[g] - GIVE for g in (gifts[0], gifts[-1])]
    own = [p.name for p in table.pieces].index("private_steps")
    offset = sum(p.size for p in table.pieces[:own])
    rng = random.Random(1)
    while True:
        for player in range(table.players):
            seat = table.deciders[player]
            a, b = (ep.tensor(player, layouts[0]) for ep in (first, second))
            if seat in saw:
                assert [list(np.flatnonzero(t[offset:offset + len(table.cards)])) for t in (a, b)] == \
                    [[table.card_index[c]] for c in cards]
                assert "seen: {'gift': " in first.text(player)
            else:
                for layout in layouts:
                    assert np.array_equal(first.tensor(player, layout), second.tensor(player, layout))
                for private in (True, False):
                    assert first.text(player, private=private, recall=True) == \
                        second.text(player, private=private, recall=True)
                assert not private_steps(first.state, seat)  # type: ignore[arg-type]
            for ep in (first, second):
                assert np.array_equal(ep.tensor(player, layouts[0]), reference(ep, player, layouts[0].pieces))
        if first.state is None or first.state.phase == Phase.PLAY or first.over:
            break
        discard = rng.choice([a for a in first.legal_actions() if a in second.legal_actions()])  # same in both
        first.apply_action(discard)
        second.apply_action(discard)
    assert first.state is not None and first.state.phase == Phase.PLAY


def _at_the_gift(table: Table) -> Episode:
    """A random episode stopped where the partner is about to give the contractor a card."""
    for seed in range(200):
        rng = random.Random(seed)
        e = Episode(table)
        e.deal(rng)
        while not e.over:
            step = e.state.current_step if e.state is not None and e.state.phase == Phase.STEP else None
            if step is not None and step.name == "gift":
                return e
            legal = e.legal_actions()
            e.apply_action(legal[rng.randrange(len(legal))])
    raise AssertionError("no gift in 200 random deals")
