"""The ``solver`` player's auction: a close call priced over sampled deals solved double dummy.

``club`` prices every call from its own hand (``ClubPlayer.bid_gain``: the best call's worth less what a call
must beat).  Where that margin is small (under ``CLOSE`` points either way), ``searched_call`` weighs the call
against passing on ``worlds`` deals of the cards the seat cannot see: dealt as ``determinise`` deals them,
``INFER`` times as many as needed, and resampled by how many of the other seats' calls ``club`` would not have
made with the cards a deal gives them (``montecarlo.call_surprises``, ``SURPRISE`` per call).  On each deal,
for each candidate: the candidate is made, ``club`` plays every seat for the rest of the auction and the
exchange, and the hand's play is solved double dummy (``fivehundred.solve``), scored by the ruleset
(``score_hand``: our side's points less the best other side's, ``GAME_BONUS`` more or less when the hand ends
the game).  A hand that reaches no play (passed out) or is played with nobody's contract is played out by
``club`` instead (with ``solved`` False, every world's hand is: ``benchmarks/close_calls.py --played``).
``club``'s call is made unless the other is better on the same deals by more than ``MARGIN``
standard errors of the difference.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from fivehundred.engine.solver import solve, solved_outcome
from fivehundred.engine.state import PASS_ACTION, GameState
from fivehundred.rules.actions import Phase

from .club import ClubPlayer
from .montecarlo import _paired, _trimmed, call_surprises
from .solved_worlds import side_value
from .unseen import clone, determinise, knowledge, resample

CLOSE = 60.0
"""``club``'s margin (points of expected score) under which a call is searched: about two calls in five it prices
on the reference ruleset."""
INFER = 3
"""Deals drawn for each one kept, before the resampling by the calls."""
SURPRISE = 3.0
"""A deal's weight is ``exp(-SURPRISE * m)``, m the other seats' calls ``club`` would not have made on it."""
MARGIN = 1.0
"""Standard errors of the paired difference over the deals by which a call must beat ``club``'s to be made."""


def close_call(player: ClubPlayer, state: GameState, legal: Sequence[int]) -> tuple[int, int] | None:
    """``club``'s call for the seat to call and the other candidate (the pass, or the call ``club`` would not
    make), where ``club``'s margin between them is under ``CLOSE`` and passing is legal; else None."""
    if PASS_ACTION not in legal or len(legal) < 2:
        return None
    call, gain = player.call_gain(state, legal)
    if call == PASS_ACTION or not abs(gain) < CLOSE:
        return None
    return (call, PASS_ACTION) if gain > 0 else (PASS_ACTION, call)


def searched_call(state: GameState, candidates: Sequence[int], default: int, worlds: int,
                  players: Sequence[Any], solved: bool = True) -> int:
    """The candidate call with the best total value over ``worlds`` sampled deals (see the module's text);
    ``players``: one ``club`` per seat, the model of every seat's decisions after the call."""
    seat = state.current_player()
    log = state.hand_log
    rng = random.Random(f"solver-bid:{seat}:{sorted(state.hand(seat))}:{log.calls}:{state.totals}")
    k = knowledge(state, seat)
    base = _trimmed(state)
    pool = [determinise(base, seat, rng, k) for _ in range(worlds * INFER)]
    weights = [math.exp(-SURPRISE * call_surprises(w, seat, players)) for w in pool]
    values: dict[int, list[float]] = {call: [] for call in candidates}
    for world in resample(pool, weights, worlds, rng):
        known: dict[tuple[Any, ...], int] | None = {} if solved else None
        for call in candidates:
            values[call].append(rollout(clone(world), call, players, seat, rng, known))
    best, best_mean = default, 0.0
    for call in candidates:
        if call != default:
            mean, se = _paired(values[call], values[default])
            if mean > MARGIN * se and mean > best_mean:
                best, best_mean = call, mean
    return best


def rollout(world: GameState, call: int, players: Sequence[Any], seat: int, rng: random.Random,
            solved: dict[tuple[Any, ...], int] | None) -> float:
    """``call`` made in ``world``, the rest of the hand as the module's text says: its value for ``seat``'s side.
    ``solved``: the solves of this world so far, by what they read; None: the hand is played out by ``players``."""
    rules = world.rules
    before = tuple(world.totals)
    log = world.hand_log
    controller = rules.controller
    world.apply_unchecked(call)
    while world.phase not in (Phase.PLAY, Phase.GAME_OVER) and world.hand_log is log and world.current_player() >= 0:
        s = world.current_player()
        world.apply_unchecked(players[controller[s]].act(world, world.legal_actions()))
    contract = world.contract
    if (solved is None or world.phase != Phase.PLAY or world.hand_log is not log or contract is None
            or not world.contracting_side):
        if world.hand_log is log:
            world.play_out(players, rng, max_deals=world.deals)
        return side_value(rules, seat, before, tuple(world.totals), world.result)
    key = (tuple(world.hand(s) for s in range(rules.players)), world.contractor, contract.call,
           world.play_table.nomination if world.play_table is not None else None, world.current_player())
    tricks = solved.get(key)
    if tricks is None:
        tricks = solved[key] = solve(world)
    outcome = solved_outcome(rules, contract, world.contractor, rules.in_order(world.contracting_side), tricks,
                             before)
    after = tuple(t + p for t, p in zip(before, rules.score_hand(outcome), strict=True))
    return side_value(rules, seat, before, after, rules.game_result(after, outcome))
