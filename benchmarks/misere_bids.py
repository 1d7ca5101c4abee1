#!/usr/bin/env python3
"""How well an open misère's chance is priced in the auction: at each open misère PLAYER calls in seeded games (in
every seat), the chance by `club`'s danger curve and the share of sampled deals in which the misère is made double
dummy (`solved_bids.open_misere_chance`, what `club`'s `misere_bid_worlds` prices; unshifted here), against what came
of the misère at the table.

    python benchmarks/misere_bids.py -n 600 --seed 555 -p club:fast    # the curve's bids, 32 worlds
    python benchmarks/misere_bids.py -n 600 --seed 555 --first 600 -p club:fast
    python benchmarks/misere_bids.py -r canadian -n 400 --worlds 16

Prints the misères by the search's share (made at the table, the curve's chance, the share), the Brier score of the
curve, of the share and of the share moved by the log-odds shift that fits the outcomes best (printed), and the CPU a
search takes.  A misère outbid later in the auction is not counted.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Any

from fivehundred import load_ruleset
from fivehundred.batch.simulation import game_generators, player_maker
from fivehundred.bots.club import ClubPlayer, _info, _pricing
from fivehundred.bots.params import tuned_for
from fivehundred.bots.solved_bids import open_misere_chance
from fivehundred.engine.state import CALL, GameState, Phase
from fivehundred.rules.manager import compile_rules


class _Watcher:
    """A seat's player, noting each open misère it calls: the curve's chance and the search's share."""

    def __init__(self, player: Any, fellows: list[ClubPlayer], worlds: int, noted: dict[tuple[int, int], dict]):
        self.player, self.fellows, self.worlds, self.noted = player, fellows, worlds, noted
        self.cpu = 0.0

    def act(self, state: GameState, legal: list[int]) -> int:
        action = self.player.act(state, legal)
        rung = action - CALL
        if state.phase == Phase.AUCTION and 0 <= rung < len(state.rules.ladder):
            contract = state.rules.ladder[rung]
            if contract.kind == "misere" and contract.open and not contract.partner_plays:
                seat = state.current_player()
                judge = self.fellows[seat]
                info = _info(state.rules)
                curve, _ = judge.make_chance(seat, judge._seen(state, seat), info, _pricing(state.rules, info),
                                             contract, judge._params(state.rules))
                start = time.process_time()
                share = open_misere_chance(state, action, self.worlds, self.fellows, 0.0)
                self.cpu += time.process_time() - start
                if share is not None:
                    self.noted[(state.deals, seat)] = {"curve": curve, "share": share}
        return action


def misere_calls(name: str, games: int, first: int, seed: int, spec: str, worlds: int) -> tuple[list[dict], float]:
    rules = compile_rules(load_ruleset(name))
    fellows = [ClubPlayer(s, random.Random(f"misere-bids:{s}"), tuned_for(rules.ruleset, search=False))
               for s in range(rules.players)]
    rows, cpu = [], 0.0
    for game in range(first, first + games):
        deal_rng, players_rng = game_generators(f"{seed}:{game}")
        state = GameState(rules, rng=deal_rng)
        noted: dict[tuple[int, int], dict] = {}
        seats = [_Watcher(player_maker(spec)(s, players_rng), fellows, worlds, noted) for s in range(rules.players)]
        state.play_out(seats, deal_rng, 200)
        cpu += sum(s.cpu for s in seats)
        for number, log in enumerate(state.hands_log, 1):
            row = noted.get((number, log.contractor))
            contract = log.contract
            if row is not None and contract is not None and contract.kind == "misere" and log.outcome is not None:
                rows.append({**row, "made": bool(log.outcome.made)})
    return rows, cpu


def shifted(share: float, shift: float, worlds: int) -> float:
    """``share`` of ``worlds`` smoothed as ``open_misere_chance`` smooths it, moved by ``shift`` in log-odds."""
    made = share * worlds
    return 1.0 / (1.0 + math.exp(-(math.log((made + 1) / (worlds - made + 1)) + shift)))


def brier(rows: list[dict], chance: Any) -> float:
    return statistics.fmean((chance(r) - r["made"]) ** 2 for r in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-r", "--ruleset", default="pagat-australian")
    parser.add_argument("-p", "--player", default="club:fast")
    parser.add_argument("-n", "--games", type=int, default=300)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seed", type=int, default=555)
    parser.add_argument("--worlds", type=int, default=32)
    args = parser.parse_args()
    rows, cpu = misere_calls(args.ruleset, args.games, args.first, args.seed, args.player, args.worlds)
    if not rows:
        print("no open misère called")
        return
    made = statistics.fmean(r["made"] for r in rows)
    print(f"{args.ruleset}: {len(rows)} open misères called by {args.player} in {args.games} games (seed {args.seed}), "
          f"made {made:.1%}; {args.worlds} worlds a search, {1000 * cpu / len(rows):.0f} ms of CPU a search")
    print("| double-dummy share | misères | made | curve's chance | share |\n|---|---|---|---|---|")
    for low in (0.0, 0.2, 0.4, 0.6, 0.8):
        band = [r for r in rows if low <= r["share"] < low + 0.2 or (low == 0.8 and r["share"] == 1.0)]
        if band:
            made_there, curve, share = (statistics.fmean(r[k] for r in band) for k in ("made", "curve", "share"))
            print(f"| {low:.1f}–{low + 0.2:.1f} | {len(band)} | {made_there:.1%} | {curve:.2f} | {share:.2f} |")
    best = min((s / 100 for s in range(-100, 151, 2)),
               key=lambda s: brier(rows, lambda r: shifted(r["share"], s, args.worlds)))
    print(f"Brier: made at the mean {brier(rows, lambda r: made):.4f}, curve {brier(rows, lambda r: r['curve']):.4f}, "
          f"share {brier(rows, lambda r: r['share']):.4f}, share shifted by {best:+.2f} "
          f"{brier(rows, lambda r: shifted(r['share'], best, args.worlds)):.4f}")


if __name__ == "__main__":
    main()
