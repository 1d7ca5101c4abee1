"""Cards chosen over sampled worlds solved double dummy: the ``solver`` player's play and ``club``'s defence
against an open misère.

At a card with a choice, ``best_card`` deals worlds of the cards the seat cannot see, uniformly among those
consistent with everything it has seen (``fivehundred.bots.unseen.determinise``: the calls, its own discards,
cards shown, voids shown, an open misère's exposed hand, a called card), asks the double-dummy solver for the
value of each legal card in each world (``fivehundred.solve_cards``: the contracting side's tricks in the hand
with best play from there), and plays the card with the best total over the worlds: a world counts what the hand
scores for the seat's side with that many tricks, by the ruleset's own scoring and the game's end (``worth_table``:
the side's points less the best other side's, ``GAME_BONUS`` more or less where the hand ends the game).  Among
cards of equal total the caller's own card is played.  The worlds come from a generator seeded with what the seat
has seen (``world_seed``): the same decision gets the same worlds, so a game is a pure function of its seed.

The worlds also agree with the contractor's bid, where the seat cannot see the contractor's hand
(``BidReading``): a world is dealt again (up to ``TRIES`` times, then the most plausible one dealt is kept)
while the contractor's cards of the hand (those left and those it played) are far weaker than ``club`` would
bid on: an estimate of its own tricks in the contract's denomination (``evaluation.own_tricks``) under the
tricks bid less ``BID_SLACK``; for a misère it plays alone (closed), a danger of taking a trick
(``evaluation.misere_risk``) over ``MISERE_SLACK``.  Uniform worlds give the contractor its mere share of what
the seat does not see: measured on ``club``'s contracts of the reference ruleset, the median contractor of seven
of a suit holds 0.9 tricks less than it bid by that estimate, the median uniform world 3.5 less; a closed
misère's median danger 1.4, a uniform world's 4.7.

The worlds then agree with why the others played their cards (``sample_worlds``, with ``club`` as the model of
every seat): ``INFER`` times as many are dealt, each replayed from the deal with ``club`` asked for each call
and card of the seats it deals (``card_reading.play_surprises``), and the worlds kept are drawn by
``exp(-SURPRISE * surprises)``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from fivehundred.engine.solver import EngineSolver, Solver, solved_outcome
from fivehundred.engine.state import GameState
from fivehundred.rules.cards import JOKER_BASE, NO_SUIT
from fivehundred.rules.tables import HandOutcome

from .card_reading import SURPRISE, play_surprises
from .evaluation import _info, _key, _plain, _solo_misere, misere_risk, own_tricks
from .montecarlo import GAME_BONUS
from .unseen import Knowledge, clone, deal_hidden, determinise, knowledge, resample, world_of

INFER = 8
"""Worlds dealt for each one kept, where they are weighed by the calls and cards the others made (``card_reading``)."""
SURPRISE_CAP = 6
"""Surprises counted at most in a world."""
TRIES = 24
"""Deals tried for a world before the most plausible one dealt is kept."""
BID_SLACK = 3.0
"""Tricks a contractor's own estimate may fall under its bid in a world (the 5th percentile of ``club``'s own
contractors, reference ruleset: 2.9 under for seven of a suit, 3.6 for seven no-trumps)."""
MISERE_SLACK = 4.4
"""The most danger a closed misère's hand may hold in a world (the 95th percentile of ``club``'s, whose discards are
searched (``misere_exchange_worlds``): 4.4 of 179 hands; 2.5 when it threw by rule)."""


def world_seed(state: GameState, seat: int) -> str:
    """What seeds a decision's worlds: the seat, its cards, the tricks and the trick in progress."""
    played = [t.cards for t in state.hand_log.tricks]
    return f"{seat}:{sorted(state.hand(seat))}:{played}:{state.trick}"


def worth_table(state: GameState, seat: int) -> list[float]:
    """What the hand is worth to ``seat``'s side for each total of tricks the contracting side may take (0 to a
    full hand): the ruleset's score for it (``score_hand``, the tricks the defenders take shared among them as
    ``solved_outcome`` shares them), the side's points less the best other side's, and ``GAME_BONUS`` more or less
    where the hand ends the game (``game_result``).  So the search plays for the contract, then for the slam or
    the defenders' trick points, by what they score in the ruleset, and at the end of a game for the game."""
    rules = state.rules
    contract = state.contract
    assert contract is not None
    before = tuple(state.totals)
    side = rules.in_order(state.contracting_side)
    worths = []
    for tricks in range(rules.hand_size + 1):
        outcome = solved_outcome(rules, contract, state.contractor, side, tricks, before)
        after = tuple(t + p for t, p in zip(before, rules.score_hand(outcome), strict=True))
        worths.append(side_value(rules, seat, before, after, rules.game_result(after, outcome)))
    return worths


def side_value(rules: Any, seat: int, before: Sequence[int], after: Sequence[int], result: Any) -> float:
    """``seat``'s side's points for a hand (the totals ``before`` and ``after`` it) less the best other side's,
    ``GAME_BONUS`` more (less) when it ends the game with that side the winner (not)."""
    mine = rules.team_of[seat]
    gains = [a - b for a, b in zip(after, before, strict=True)]
    others = [g for t, g in enumerate(gains) if t != mine]
    value = gains[mine] - (max(others) if others else 0)
    if result is not None:
        value += GAME_BONUS if result.winner == mine else -GAME_BONUS
    return float(value)


def best_card(state: GameState, worlds: int, plays: Sequence[int], default: int,
              tie_break: Callable[[list[int], list[GameState]], int] | None = None,
              models: Sequence[Any] | None = None) -> int:
    """The card of ``plays`` with the best total over ``worlds`` sampled worlds solved double dummy
    (``default`` among equals; with ``tie_break``, its choice among the cards of the best total, given the worlds:
    a misère's contractor's, ``survival_card``; with ``models``, the worlds are read by the calls and cards made,
    ``sample_worlds``).

    Each world is first asked two questions only: the value of ``default`` and, unless that is the best any
    card could be worth, of the seat's best card (the position's own value).  Where ``default`` is worth the
    best in every world, no card's total can pass it and it is played; otherwise every card is valued in
    every world, the searches so far kept."""
    seat = state.current_player()
    worth = worth_table(state, seat).__getitem__
    dealt = sample_worlds(state, seat, worlds, models)
    solvers = Solver.of_worlds(dealt)
    if default in plays and all(_best_is(solver, default, worth) for solver in solvers):
        if tie_break is not None and len(plays) > 1 and all(_worst_is(s, default, worth) for s in solvers):
            return tie_break(list(plays), dealt)  # every card is worth the same in every world
        return default
    total = dict.fromkeys(plays, 0.0)
    for solver in solvers:
        values = solver.card_values()
        for action in plays:
            v = values.get(action)
            if v is not None:
                total[action] += worth(v)
    best = max(total.values())
    ties = [a for a in plays if total[a] == best]
    if tie_break is not None and len(ties) > 1:
        return tie_break(ties, dealt)
    if default in total and total[default] == best:
        return default
    return ties[0]


def sample_worlds(state: GameState, seat: int, worlds: int, models: Sequence[Any] | None = None) -> list[GameState]:
    """``worlds`` deals of what ``seat`` cannot see, agreeing with all it has seen and with the contractor's bid
    (``BidReading``); with ``models`` (a ``club`` per seat), ``INFER`` times as many dealt and ``worlds`` of them
    drawn by the calls and cards the others made (``card_reading``).  The same decision gets the same worlds."""
    rng = random.Random("solver:" + world_seed(state, seat))
    k = knowledge(state, seat)
    bid = BidReading.of(state, k)
    dealt = [bid.world(state, seat, rng, k) if bid else determinise(state, seat, rng, k)
             for _ in range(worlds * (INFER if models else 1))]
    if not models:
        return dealt
    hidden = [s for s in k.hidden if s != seat]
    weights = [math.exp(-SURPRISE * play_surprises(w, hidden, models, SURPRISE_CAP)) for w in dealt]
    return resample(dealt, weights, worlds, rng)


def _best_is(solver: Solver | EngineSolver, card: int, worth: Callable[[int], float]) -> bool:
    """Whether ``card`` is worth as much as the seat's best card in the world ``solver`` searches."""
    value = solver.card_value(card)
    least, most = solver.span()
    if worth(value) >= max(worth(v) for v in range(least, most + 1)):
        return True
    return worth(value) >= worth(solver.value(value))


def _worst_is(solver: Solver | EngineSolver, card: int, worth: Callable[[int], float]) -> bool:
    """Whether ``card`` is worth no more than the least any card could be worth in the world ``solver`` searches."""
    least, most = solver.span()
    return worth(solver.card_value(card)) <= min(worth(v) for v in range(least, most + 1))


def survival_card(ties: list[int], worlds: list[GameState], players: Sequence[Any], default: int) -> int:
    """A misère's contractor's card among ``ties``, cards of equal double-dummy totals over the ``worlds`` (most often
    because each loses a trick in every world against a defence that sees every card): the one with which the misère
    is made most often in the ``worlds`` when ``players`` (``club``) play every seat from there to the end of the hand
    (``default`` among equals)."""
    made = dict.fromkeys(ties, 0)
    for world in worlds:
        for card in ties:
            outcome = played_out(world, card, players)
            made[card] += outcome is not None and outcome.made
    most = max(made.values())
    return default if default in made and made[default] == most else next(c for c in ties if made[c] == most)


def table_misere_card(state: GameState, worlds: int, plays: Sequence[int], default: int, players: Sequence[Any]) -> int:
    """A misère contractor's card of ``plays`` over ``worlds`` sampled worlds (``sample_worlds``):
    the card with which the misère is made double dummy (against a defence that sees every card) in the most worlds.
    Where that is half of them or fewer, or several cards share it, each candidate is also played on in each world
    with ``players`` (``club``) in every seat, each seeing only its own cards, and the worlds in which the misère is
    then made are counted with those: a line that the defence at the table has to find is worth more than a rare
    world in which no defence can beat it (``default`` among equals).  A world in which a card is made double dummy
    counts as made played on too (the contractor searches on), and touching cards share one play-out."""
    seat = state.current_player()
    dealt = sample_worlds(state, seat, worlds)
    contract = state.contract
    assert contract is not None
    made = dict.fromkeys(plays, 0)
    made_in: list[set[int]] = []
    for solver in Solver.of_worlds(dealt):
        if not contract.made(solver.value()):  # beaten whatever it plays
            made_in.append(set())
            continue
        values = solver.card_values()
        made_in.append({card for card in plays if card in values and contract.made(values[card])})
        for card in made_in[-1]:
            made[card] += 1
    best = max(made.values())
    candidates = list(plays) if 2 * best <= len(dealt) else [c for c in plays if made[c] == best]
    if len(candidates) > 1 and best < len(dealt):
        lowest = _lowest_touching(state, seat, candidates, dealt[0])
        for world, sure in zip(dealt, made_in, strict=True):
            outcomes: dict[int, bool] = {}
            for card in candidates:
                if card in sure:
                    made[card] += 1
                    continue
                low = lowest[card]
                if low not in outcomes:
                    outcome = played_out(world, low, players)
                    outcomes[low] = outcome is not None and outcome.made
                made[card] += outcomes[low]
        best = max(made[c] for c in candidates)
    return default if default in candidates and made[default] == best else next(c for c in candidates
                                                                                if made[c] == best)


def _lowest_touching(state: GameState, seat: int, cards: Sequence[int], world: GameState) -> dict[int, int]:
    """Each of ``cards`` (``seat``'s plays) -> the lowest of its run: its suit's cards of ``seat`` with no card between
    them that a seat still playing holds in ``world`` (the same cards in every world of a decision); a joker its own."""
    table = state.play_table
    if table is None:  # pragma: no cover - a hand in its play has its table
        return {card: card for card in cards}
    held = [c for s in range(state.rules.players) if s != seat and s not in state.sitting_out for c in world.hand(s)]
    lowest = {card: card for card in cards if card >= JOKER_BASE or table.suit_of[card] >= NO_SUIT}  # a joker's own
    for card in sorted((c for c in cards if c not in lowest), key=lambda c: (table.suit_of[c],
                                                                            table.power[table.suit_of[c]][c])):
        suit = table.suit_of[card]
        row = table.power[suit]
        below = [c for c in lowest if c < JOKER_BASE and table.suit_of[c] == suit and row[c] < row[card]]
        under = max(below, key=row.__getitem__) if below else None
        if under is not None and not any(table.suit_of[o] == suit and row[under] < row[o] < row[card] for o in held):
            lowest[card] = lowest[under]
        else:
            lowest[card] = card
    return lowest


def played_card(state: GameState, worlds: int, plays: Sequence[int], default: int, players: Sequence[Any],
                models: Sequence[Any] | None = None) -> int:
    """The card of ``plays`` with the best total over ``worlds`` sampled worlds (``sample_worlds``, read by ``models``)
    when ``players`` (``club``) play every seat from it to the end of the hand, each seeing only its own cards: each
    world counts what the hand scores for the seat's side (``worth_table``).  Where double dummy has the others
    defend as if they saw every card, this plays for the defence at the table (``default`` among equals)."""
    seat = state.current_player()
    worth = worth_table(state, seat)
    total = dict.fromkeys(plays, 0.0)
    for world in sample_worlds(state, seat, worlds, models):
        for card in plays:
            outcome = played_out(world, card, players)
            if outcome is not None:
                total[card] += worth[sum(outcome.tricks_by_seat[s] for s in outcome.side)]
    best = max(total.values())
    return default if total.get(default) == best else next(a for a in plays if total[a] == best)


def played_out(world: GameState, card: int, players: Sequence[Any]) -> HandOutcome | None:
    """The ``HandOutcome`` of the hand of ``world`` (not changed) once ``card`` is played and ``players`` play every
    seat to the end of the hand (None where the hand waits for something no player decides)."""
    controller = world.rules.controller
    s = clone(world)
    log, deal = s.hand_log, s.deals
    s.apply_unchecked(card)
    while s.deals == deal and not s.is_terminal() and s.current_player() >= 0:
        s.apply_unchecked(players[controller[s.current_player()]].act(s, s.legal_actions()))
    return log.outcome


class BidReading:
    """How far a world's contractor is from a hand ``club`` would have bid the contract on."""

    def __init__(self, contractor: int, played: list[int], score: Callable[[list[int]], float]) -> None:
        self.contractor = contractor
        self.played = played
        self.score = score
        """The world's contractor's cards of the hand -> 0 or more when plausible, less the further from it."""

    @classmethod
    def of(cls, state: GameState, k: Knowledge) -> BidReading | None:
        """The reading of the contract of ``state``, or None where the worlds need none (the contractor's hand
        seen, a contract ``club`` does not price by its own tricks)."""
        contract = state.contract
        contractor = state.hand_log.contractor
        if contract is None or contractor < 0 or contractor not in k.hidden:
            return None
        info = _info(state.rules)
        if _plain(contract) and state.play_table is not None and state.play_table.nomination is None:
            d = info.denominations.get(_key(contract))
            if d is None:
                return None
            least = contract.tricks - BID_SLACK
            return cls(contractor, k.played_by[contractor], lambda hand: own_tricks(hand, d) - least)
        if _solo_misere(contract) and not contract.open and info.misere is not None:
            m = info.misere
            return cls(contractor, k.played_by[contractor], lambda hand: MISERE_SLACK - misere_risk(hand, m, 0))
        return None

    def world(self, state: GameState, seat: int, rng: random.Random, k: Knowledge) -> GameState:
        """A world of ``determinise``'s that agrees with the bid, dealt again up to ``TRIES`` times (the cards only:
        the world is built from the deal kept)."""
        at = k.hidden.index(self.contractor)
        best, best_score = None, float("-inf")
        for _ in range(TRIES):
            dealt_by, hands = deal_hidden(state, k, rng)
            score = self.score([*hands[at], *self.played])
            if score >= 0:
                return world_of(state, dealt_by, hands, rng)
            if score > best_score:
                best, best_score = (dealt_by, hands), score
        assert best is not None
        return world_of(state, *best, rng)
