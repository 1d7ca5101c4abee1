#!/usr/bin/env python3
"""The `solver` player's searched calls against `club`'s, on the true deal: the close calls of seeded `club` games
(`club`'s best call within `bid_search.CLOSE` points of passing), each searched as `solver` searches it
(`bid_search.searched_call`); where the search chooses otherwise than `club`, both calls are played out on the true
deal: the rest of the auction and the exchange by `club`, the play by PLAYER (`solver:bid=0`) for the caller's
side and `club` for the others, and the hand scored as the search scores it (the side's points less the best other
side's, the game bonus where the hand ends the game).

    python benchmarks/close_calls.py -n 40 --seed 3                 # reference ruleset, 16 deals a search
    python benchmarks/close_calls.py -n 40 --worlds 32 -r canadian

Prints, per kind of change (a call `club` made, turned to a pass; a pass turned to a call), how many, and the
search's gain over `club`'s call on the true deal (mean, 95% interval), the true deal solved double dummy beside.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

import fivehundred
from fivehundred.bots import bid_search
from fivehundred.bots.club import ClubPlayer
from fivehundred.engine.state import PASS_ACTION, GameState, new_game
from fivehundred.rules.actions import Phase
from fivehundred.rules.manager import make_player


def close_calls(name: str, games: int, seed: int):
    """(state, club's call, the other candidate) at every close call of seeded club games (their first five hands)."""
    rs = fivehundred.load_ruleset(name)
    for game in range(games):
        state, rng = new_game(rs, f"{seed}:{game}")
        players = [ClubPlayer(s, random.Random(s)) for s in range(state.rules.players)]
        state.deal(rng)
        while len(state.hands_log) < 6 and not state.is_terminal():
            if state.phase == Phase.DEAL:
                state.deal(rng)
                continue
            seat = state.current_player()
            legal = state.legal_actions()
            close = bid_search.close_call(players[seat], state, legal) if state.phase == Phase.AUCTION else None
            if close is not None:
                yield state.clone(), *close
            state.apply(players[seat].act(state, legal))


def played(state: GameState, call: int, player: str, seed: int) -> float:
    """``call`` made, the hand played out on the true deal (see the module's text): the caller's side's value."""
    seat = state.current_player()
    rules = state.rules
    before = tuple(state.totals)
    s = state.clone()
    s.apply(call)
    mine = rules.team_of[seat]
    players = {c: make_player(player if rules.team_of[c] == mine else "club", c, random.Random(seed * 10 + c))
               for c in range(rules.players)}
    deal = s.deals
    while s.deals == deal and not s.is_terminal() and s.current_player() >= 0:
        s.apply(players[rules.controller[s.current_player()]].act(s, s.legal_actions()))
    return bid_search._value(rules, seat, before, tuple(s.totals), s.result)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-r", "--ruleset", default="pagat-australian")
    ap.add_argument("-p", "--player", default="solver:bid=0", help="who plays the caller's side's cards")
    ap.add_argument("-n", "--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--played", action="store_true", help="the worlds' hands played out by club, not solved")
    args = ap.parse_args()
    rows: dict[str, list[tuple[float, float]]] = {}
    searched = 0
    start = time.process_time()
    for i, (state, default, other) in enumerate(close_calls(args.ruleset, args.games, args.seed)):
        searched += 1
        n = state.rules.players
        models = [ClubPlayer(s, random.Random(f"solver-bid-model:{s}")) for s in range(n)]
        chosen = bid_search.searched_call(state, [default, other], default, args.worlds, models, not args.played)
        if chosen == default:
            continue
        kind = "club's call -> pass" if chosen == PASS_ACTION else "club's pass -> the call"
        gain = played(state, chosen, args.player, i) - played(state, default, args.player, i)
        seat = state.current_player()
        dd = (bid_search.rollout(state.clone(), chosen, models, seat, random.Random(0), {})
              - bid_search.rollout(state.clone(), default, models, seat, random.Random(0), {}))
        rows.setdefault(kind, []).append((gain, dd))
        print(f"{i}: {kind}: played {gain:+.0f}, double dummy {dd:+.0f}", flush=True)
    print(f"{args.ruleset}: {searched} close calls searched ({args.worlds} deals each), "
          f"{time.process_time() - start:.0f} s CPU")
    for kind, values in sorted(rows.items()):
        for j, label in ((0, "played"), (1, "true deal double dummy")):
            xs = [v[j] for v in values]
            half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
            print(f"  {kind}: {len(xs)}, the search's gain {label}: {statistics.mean(xs):+.1f} ± {half:.1f}")


if __name__ == "__main__":
    main()
