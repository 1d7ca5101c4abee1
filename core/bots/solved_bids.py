"""An open misère priced in the auction by search: the call made in sampled deals, each hand solved double dummy.

``club`` prices a misère by the danger of the cards it would keep (a curve fitted to how such hands fare).  Two
hands of the same danger fare very differently against defenders who see one of them: which suits the defenders
can get under, whose lead it is, what the kitty brings.  ``open_misere_chance`` deals ``worlds`` deals of the cards
the seat cannot see (``unseen.determinise``), makes the call in each, lets ``players`` (one ``club`` a seat, without
searches) finish the auction and the exchange, and solves the hand double dummy from the first lead: the misère is
made where the contractor takes no trick against a defence that sees every card.  The share made (smoothed: one
made and one lost added) is moved by ``shift`` on the log-odds scale, because the contractor at the table discards
by search and the defence does not see every card: fitted on the reference ruleset's open misères, 0.36
(docs/players.md, "An open misère priced by search").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import exp, log
from typing import Any

from fivehundred.engine.solver import Solver
from fivehundred.engine.state import CALL, GameState
from fivehundred.rules.actions import Phase

from .montecarlo import _trimmed
from .unseen import determinise, knowledge


def open_misere_chance(state: GameState, call: int, worlds: int, players: Sequence[Any], shift: float) -> float | None:
    """The chance that the seat to call in ``state`` makes the open misère ``call`` (an action) if it becomes the
    contract (see the module's text); None where no world reaches its play (the call outbid in every one)."""
    seat = state.current_player()
    rng = random.Random(f"club-misere-bid:{seat}:{sorted(state.hand(seat))}:{state.hand_log.calls}:{state.totals}")
    k = knowledge(state, seat)
    base = _trimmed(state)  # the worlds copy this hand's log only
    controller = state.rules.controller
    played_worlds = []
    for _ in range(worlds):
        world = determinise(base, seat, rng, k)
        log_of_hand = world.hand_log
        world.apply_unchecked(call)
        while (world.phase not in (Phase.PLAY, Phase.GAME_OVER) and world.hand_log is log_of_hand
               and world.current_player() >= 0):
            s = world.current_player()
            world.apply_unchecked(players[controller[s]].act(world, world.legal_actions()))
        contract = world.contract
        if (world.phase != Phase.PLAY or world.hand_log is not log_of_hand or world.contractor != seat
                or contract is None or CALL + contract.rung != call):
            continue
        played_worlds.append(world)
    if not played_worlds:
        return None
    played = len(played_worlds)
    made = sum(solver.value() == 0 for solver in Solver.of_worlds(played_worlds))
    odds = log((made + 1) / (played - made + 1)) + shift
    return 1.0 / (1.0 + exp(-odds))
