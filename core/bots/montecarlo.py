"""A determinised Monte Carlo player: sample the cards it cannot see, play each candidate out.

The cards it cannot see: what the seat knows of them (``Knowledge``) and deals of them that agree with it
(``determinise``) are in ``fivehundred.bots.unseen``.

Decisions.  Every candidate is judged on the same sampled deals (common random numbers): a clone of
each deal, the candidate applied, then heuristic players (``fivehundred.bots.heuristic``) for every seat
play to the end of the hand.  A rollout is worth the hand's score for the player's side less the
best other side's, plus or minus ``GAME_BONUS`` when the hand ends the game.  The heuristic's
choice is kept unless another candidate does better on the paired rollouts by more than ``margin``
standard errors of the difference.  The deals come in batches of ``batch``; after each, a candidate
clearly worse than the heuristic's choice (its mean paired difference ``drop`` standard errors
below zero, or equal to it on every deal so far) is rolled out no more, and the decision ends when
only the heuristic's choice is left; once ``SETTLE_AFTER`` deals are rolled out, a candidate ``settle``
standard errors better than the heuristic's choice (or better by the same amount on every deal) ends
the decision too.  Each decision works on a clone of the state that keeps the current hand's log only,
so that its many clones do not copy the game's history; the rollouts' heuristic players read what
their seat sees from the state's public API, as they do at the table, without building an observation
per card.

* Play: every legal card is a candidate, less cards equivalent to another (touching in rank with no
  card between them outside the hand still to be played); a led joker naming each suit is its own
  candidate.
* Auction: the heuristic's call and pass, by rollouts that play the rest of the auction, the
  exchange and the hand (when the heuristic passes there is nothing to weigh).  With
  ``bolder=True`` the player also weighs the call one trick higher in the heuristic's denomination
  and, where the heuristic passes, the cheapest call of each denomination: in self-play against
  heuristic players that lost points (two such players raise each other), so it is off by default.
  During the auction the deals are also read against the calls already made: ``infer`` times as
  many deals as a batch needs are drawn, and the batch's are kept one after the other without
  replacement, each with probability proportional to ``exp(-surprise * m)``, m being the number of
  the other seats' calls that a heuristic player would not have made with the cards the deal gives
  it (``infer_play`` does the same during the play; off by default, since it cost time and gained
  nothing measurable there).
* Exchange (discards, nomination, a called partner, declarations): deferred to the heuristic, whose
  choices here are cheap and where a rollout per card would cost a whole hand for little.

Budget.  ``rollouts`` is the most hand rollouts per decision, shared evenly among the candidates (at
least one deal each; candidates dropped early leave the rest unspent); a decision with one candidate
costs nothing.  With ``ms``
the player instead samples deals until that many milliseconds have passed (at least one deal):
time budgets depend on the machine's speed and load, so games are reproducible only with the
rollout budget, which makes the player a pure function of its seeded generator and the state.

A player spec may add settings after the budget, ``name=value`` separated by colons (``SETTINGS``):
``montecarlo:48:infer=16:batch=1:drop=off`` is the player as it was at commit 27ade54, before its work
was cut (every deal for every candidate, sixteen deals drawn for each kept in the auction): on the
reference ruleset its games are that commit's, card for card (checked on seeds 100-102), while in
rulesets whose deals that commit sampled unsoundly (FC, C1, B8) they differ.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Sequence
from typing import Any

from fivehundred.engine.state import GameState
from fivehundred.rules.actions import CALL, PASS_ACTION, Phase
from fivehundred.rules.cards import JOKER_BASE, NO_SUIT
from fivehundred.rules.errors import FiveHundredError

from .heuristic import HeuristicPlayer
from .unseen import (  # noqa: F401 - re-exported: the determinisation, as the solver's and misère players import it
    Knowledge,
    clone,
    deal_unseen,
    determinise,
    knowledge,
    resample,
    sample_counts,
)

DEFAULT_ROLLOUTS = 48
"""Hand rollouts per decision at most, by default (see docs/players.md for the CPU time a game takes)."""

GAME_BONUS = 1000.0
"""Added to (or taken from) a rollout whose hand ends the game with our side winning (losing)."""



SETTLE_AFTER = 6
"""Deals a decision rolls out before a candidate far better than the heuristic's choice may end it."""


# --- the player -----------------------------------------------------------------------------


class MonteCarloPlayer:
    """Plays and bids by rollouts of the heuristic player over sampled deals of the unseen cards."""

    def __init__(self, seat: int, rng: random.Random, rollouts: int = DEFAULT_ROLLOUTS, ms: float | None = None,
                 *, margin: float = 0.5, bid_rollouts: bool = True, bolder: bool = False, infer: int = 4,
                 infer_play: int = 1, surprise: float = 3.0, batch: int = 2, drop: float | None = 0.5,
                 settle: float | None = 2.0):
        if rollouts < 1:
            raise ValueError(f"montecarlo: rollouts must be at least 1 (got {rollouts})")
        if ms is not None and ms <= 0:
            raise ValueError(f"montecarlo: a time budget must be positive (got {ms} ms)")
        self.seat = seat
        self.rng = rng
        self.rollouts = rollouts
        self.ms = ms
        self.margin = margin
        self.bid_rollouts = bid_rollouts
        self.bolder = bolder
        self.infer = max(1, infer)
        self.infer_play = max(1, infer_play)
        self.surprise = surprise
        self.batch = max(1, batch)
        self.drop = drop
        self.settle = settle
        self.heuristic = HeuristicPlayer(seat, random.Random(rng.getrandbits(64)))
        self._bots: list[HeuristicPlayer] = []

    @classmethod
    def from_spec(cls, seat: int, rng: random.Random, arg: str | None = None) -> MonteCarloPlayer:
        """Build from a player spec's argument: ``"200"`` (rollouts per decision) or ``"50ms"``, then
        settings as ``name=value`` separated by colons (``"48:infer=16:batch=1:drop=off"``, the player
        before commit 52bb689 cut its work; ``SETTINGS`` lists them)."""
        if arg is None or not arg.strip():
            return cls(seat, rng)
        budget, *rest = arg.strip().lower().split(":")
        options: dict[str, Any] = dict(_setting(text) for text in rest)
        try:
            if budget.endswith("ms"):
                return cls(seat, rng, ms=float(budget[:-2]), **options)
            return cls(seat, rng, int(budget) if budget else DEFAULT_ROLLOUTS, **options)
        except ValueError as e:
            if "montecarlo:" in str(e):
                raise
            raise ValueError(f"montecarlo: the budget {budget!r} is neither a number of rollouts per decision "
                             "(montecarlo:200) nor milliseconds per decision (montecarlo:50ms)") from None

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        """Choose one of ``legal``, knowing only what this seat may know."""
        if len(legal) == 1:
            return legal[0]
        default = self.heuristic.act(state, legal)
        phase = state.phase
        if phase == Phase.PLAY:
            candidates = self._play_candidates(state, legal, default)
        elif phase == Phase.AUCTION and self.bid_rollouts:
            candidates = self._bid_candidates(state, legal, default)
        else:
            return default
        if len(candidates) == 1:
            return candidates[0]
        return self.choose(state, candidates, default)

    # --- candidates -------------------------------------------------------------------------

    def _play_candidates(self, state: GameState, legal: Sequence[int], default: int) -> list[int]:
        """Legal plays less those equivalent to another: cards of one suit touching in rank once the
        cards played (and our discards) are set aside; a joker stands alone.  The cards outside the hand still
        to be played are those this seat has not seen (``Observation.unseen``) and the other hands it sees
        (ours when we play a dummy, an exposed hand, a dummy's face-up cards): a card shown in another hand
        (P2, an open misère) is still to be played, and may win a trick between two of ours."""
        obs = state.observation(self.seat)
        acting = state.current_player()
        hands = dict(obs.open_hands)
        hands[self.seat] = obs.hand  # every hand this seat sees
        hand = set(hands.get(acting, legal))
        table = state.play_table
        assert table is not None
        suit_of, power = table.suit_of, table.power
        shown = [c for s, cards in hands.items() if s != acting for c in cards]
        outside = [c for c in (*obs.unseen(state.rules.deck), *shown) if c not in hand]
        out: list[int] = []
        runs: dict[tuple[int, int], int] = {}
        for a in legal:
            s = suit_of[a] if a < JOKER_BASE else NO_SUIT
            if s == NO_SUIT:
                out.append(a)
                continue
            row = power[s]
            # cards of one run share the lowest outside card of their suit above them
            key = (s, min((row[c] for c in outside if suit_of[c] == s and row[c] > row[a]), default=-1))
            if key in runs:
                if a == default:
                    out[runs[key]] = a
                continue
            runs[key] = len(out)
            out.append(a)
        return out

    def _bid_candidates(self, state: GameState, legal: Sequence[int], default: int) -> list[int]:
        """The heuristic's call and pass; with ``bolder``, also one trick higher in the heuristic's
        denomination, or when the heuristic passes the cheapest legal call of each denomination."""
        ladder = state.rules.ladder
        calls = [a for a in legal if a >= CALL and a - CALL < len(ladder)]
        out = [default]
        if PASS_ACTION in legal and default != PASS_ACTION:
            out.append(PASS_ACTION)
        if not self.bolder:
            return out
        if default >= CALL and default - CALL < len(ladder):
            c = ladder[default - CALL]
            higher = [a for a in calls
                      if _same_denomination(ladder[a - CALL], c) and ladder[a - CALL].tricks > c.tricks]
            if higher:
                out.append(min(higher, key=lambda a: ladder[a - CALL].tricks))
        elif default == PASS_ACTION:
            cheapest: dict[tuple[str, int | None], int] = {}
            for a in calls:
                c = ladder[a - CALL]
                if c.kind in ("trumps", "no-trumps") and getattr(c, "goal", "at-least") == "at-least":
                    key = (c.kind, c.trump)
                    if key not in cheapest or c.tricks < ladder[cheapest[key] - CALL].tricks:
                        cheapest[key] = a
            out.extend(sorted(cheapest.values()))
        return out

    # --- rollouts ---------------------------------------------------------------------------

    def choose(self, state: GameState, candidates: Sequence[int], default: int) -> int:
        """The candidate with the best mean rollout value on shared deals; ``default`` unless another
        beats it by more than ``margin`` standard errors of the paired difference."""
        values = self.evaluate(state, candidates, default if default in candidates else None)
        base = values[candidates.index(default)] if default in candidates else None
        best, best_score = default, 0.0
        for a, vs in zip(candidates, values, strict=True):
            if a == default:
                continue
            if base is None:
                score = sum(vs) / len(vs)
                if best == default or score > best_score:
                    best, best_score = a, score
                continue
            mean, se = _paired(vs, base)
            if mean > self.margin * se and mean > best_score:
                best, best_score = a, mean
        return best

    def evaluate(self, state: GameState, candidates: Sequence[int], default: int | None = None) -> list[list[float]]:
        """Rollout values of each candidate, one per sampled deal (the same deals for all).

        With ``default`` (and ``drop``), the deals come in batches of ``batch``, and after each batch a
        candidate clearly worse than ``default`` on the deals so far (its mean paired difference
        ``drop`` standard errors below zero, or no different on any deal) is rolled out no more: its
        list is then shorter, a prefix of the deals.  The decision stops once only ``default`` is left."""
        k = knowledge(state, self.seat)
        bots = self._rollout_players(state)
        base = _trimmed(state)
        values: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        pruning = default is not None and self.drop is not None and self.ms is None
        worlds = max(1, self.rollouts // len(candidates))
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        done = 0
        while True:
            batch = min(self.batch, worlds - done) if pruning else 1
            for world in self._sample_worlds(state, k, bots, batch, base):
                for j, i in enumerate(alive):
                    values[i].append(self._rollout(clone(world) if j < len(alive) - 1 else world, candidates[i], bots))
            done += batch
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif done >= worlds:
                break
            if pruning:
                alive = self._still_running(values, alive, candidates.index(default))
                if len(alive) == 1 or self._settled(values, alive, candidates.index(default), done):
                    break
        return values

    def _settled(self, values: list[list[float]], alive: list[int], default: int, done: int) -> bool:
        """After ``SETTLE_AFTER`` deals, a candidate ``settle`` standard errors better than the default
        (or better on every deal by the same amount)."""
        if self.settle is None or done < SETTLE_AFTER:
            return False
        for i in alive:
            if i != default:
                mean, se = _paired(values[i], values[default])
                if mean > 0 and mean > self.settle * se:
                    return True
        return False

    def _still_running(self, values: list[list[float]], alive: list[int], default: int) -> list[int]:
        """The candidates not clearly worse than the default on the deals rolled out so far."""
        drop = self.drop if self.drop is not None else math.inf
        out = []
        for i in alive:
            if i != default:
                mean, se = _paired(values[i], values[default])
                if mean + drop * se < 0 or (se == 0 and mean <= 0):
                    continue
            out.append(i)
        return out

    def _sample_world(self, state: GameState, k: Knowledge, bots: Sequence[HeuristicPlayer]) -> GameState:
        """One determinisation, read against the calls (``_sample_worlds``)."""
        return self._sample_worlds(state, k, bots, 1)[0]

    def _sample_worlds(self, state: GameState, k: Knowledge, bots: Sequence[HeuristicPlayer], count: int,
                       base: GameState | None = None) -> list[GameState]:
        """``count`` determinisations (of ``base``, ``state`` with only its last hand's log), read against
        the calls: of ``infer`` times as many deals drawn, ``count`` are kept, one after the other without
        replacement, each with probability proportional to ``exp(-surprise * m)``, where m counts the
        other seats' calls the heuristic would not have made with the cards the deal gives them
        (importance resampling with the heuristic as the model of how others bid)."""
        base = base if base is not None else _trimmed(state)
        calls = state.hands_log[-1].calls
        ratio = self.infer if state.phase == Phase.AUCTION else self.infer_play
        if ratio == 1 or not any(s != self.seat for s, _ in calls):
            return [determinise(base, self.seat, self.rng, k) for _ in range(count)]
        pool = [determinise(base, self.seat, self.rng, k) for _ in range(count * ratio)]
        weights = [math.exp(-self.surprise * call_surprises(w, self.seat, bots)) for w in pool]
        return resample(pool, weights, count, self.rng)

    def _rollout_players(self, state: GameState) -> list[HeuristicPlayer]:
        n = state.rules.players
        if len(self._bots) != n:
            self._bots = [HeuristicPlayer(s, random.Random(self.rng.getrandbits(64))) for s in range(n)]
        return self._bots

    def _rollout(self, world: GameState, action: int, bots: Sequence[Any]) -> float:
        """Apply ``action``, let the heuristic play every seat to the end of the hand; the value for
        our side."""
        before = list(world.totals)
        deals = world.deals
        log = world.hands_log[-1]
        controller = world.rules.controller
        world.apply_unchecked(action)
        # finish the trick in progress by single steps: play_out's fast loop starts at a lead
        tricks = len(log.tricks)
        while world.phase == Phase.PLAY and world.hands_log[-1] is log and len(log.tricks) == tricks:
            seat = world.current_player()
            world.apply_unchecked(bots[controller[seat]].act(world, world.legal_actions()))
        world.play_out(bots, self.rng, max_deals=deals)
        return self._value(world, before)

    def _value(self, world: GameState, before: Sequence[int]) -> float:
        team_of = world.rules.team_of
        mine = team_of[self.seat]
        gains = [after - b for after, b in zip(world.totals, before, strict=True)]
        others = [g for t, g in enumerate(gains) if t != mine]
        value = gains[mine] - (max(others) if others else 0.0)
        if world.result is not None:
            value += GAME_BONUS if world.result.winner == mine else -GAME_BONUS
        return float(value)


SETTINGS = {"infer": int, "batch": int, "drop": float, "settle": float, "margin": float}
"""The settings a player spec may give after its budget (``montecarlo:48:drop=off``); ``off`` is None."""


def _setting(text: str) -> tuple[str, Any]:
    name, eq, value = text.partition("=")
    if not eq or name not in SETTINGS:
        raise ValueError(f"montecarlo: cannot read the setting {text!r}: write name=value, the name one of "
                         f"{', '.join(SETTINGS)} (montecarlo:48:infer=16:batch=1:drop=off)")
    if value == "off" and name in ("drop", "settle"):
        return name, None
    try:
        return name, SETTINGS[name](value)
    except ValueError:
        raise ValueError(f"montecarlo: the setting {text!r} needs a number") from None


def _paired(values: Sequence[float], base: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``values`` less ``base``, deal by deal (``values`` may be shorter)."""
    diffs = [x - y for x, y in zip(values, base, strict=False)]
    mean = sum(diffs) / len(diffs)
    if len(diffs) < 2:
        return mean, 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean, math.sqrt(var / len(diffs))


def _trimmed(state: GameState) -> GameState:
    """A clone of ``state`` that keeps the log of its last hand only: what a rollout to the end of the
    hand reads, and all the clones of a decision then copy one log instead of the game's."""
    base = clone(state)
    base.hands_log = base.hands_log[-1:]
    return base


def call_surprises(world: GameState, seat: int, bots: Sequence[Any], cap: int = 3) -> int:
    """How many calls of the seats other than ``seat`` the heuristic players ``bots`` would not have
    made (passing, or the denomination called) with the hands ``world`` says they were dealt, counting
    up to ``cap`` (``replay_calls``).  0 when the replay is not possible: a plugin's step before the
    auction that the replay cannot go through (cards passed before the first call)."""
    try:
        return replay_calls(world, seat, bots, cap)
    except FiveHundredError:
        return 0


def replay_calls(world: GameState, seat: int, bots: Sequence[Any], cap: int = 3) -> int:
    """``call_surprises`` by replaying the hand's auction on a fresh deal of the hands as dealt (the
    steps before the first call replayed as their records hold them, a blind bid B8); raises
    ``FiveHundredError`` when the replay cannot follow the hand's calls."""
    others = [s for s in range(world.rules.players) if s != seat]
    return calls_read(replayed_deal(world), world, others, bots, cap)


def calls_read(replay: GameState, world: GameState, seats: Collection[int], bots: Sequence[Any], cap: int) -> int:
    """The calls of ``world``'s hand made on ``replay`` (at its first call): how many of those of ``seats``
    ``bots`` would not have made (passing, or the denomination called), counting up to ``cap`` (where it stops
    replaying); raises ``FiveHundredError`` when the replay cannot follow the calls."""
    rules = world.rules
    surprises = 0
    for s, call in world.hands_log[-1].calls:
        if replay.current_player() != s:
            raise FiveHundredError(f"the replayed auction has seat {replay.current_player()} to call, not {s}")
        if s in seats:
            made = bots[rules.controller[s]].act(replay, replay.legal_actions()) - CALL
            surprises += call_kind(rules, made) != call_kind(rules, call)
            if surprises >= cap:
                return surprises  # the rest of the calls not made
        replay.apply(CALL + call)
    return surprises


def replayed_deal(world: GameState) -> GameState:
    """A fresh game at the first call of ``world``'s hand: its hands as dealt (the world's log), the steps before
    the auction replayed as their records hold them."""
    log = world.hands_log[-1]
    rules = world.rules
    replay = GameState(rules, first_dealer=log.dealer)
    replay.totals = list(world.totals)
    replay.deal_cards(log.hands, log.kitty, log.dead)
    for step in rules.steps:
        if step.stage == "before-auction":
            for _seat, text in step.recorded(step.write(world, log)):
                replay.apply(replay.parse_action(text))
    return replay


def call_kind(rules: Any, call: int) -> tuple[str, int | None]:
    """Pass, or the kind and trump suit of a call (its level left aside)."""
    if not 0 <= call < len(rules.ladder):
        return ("pass" if call == -1 else "misdeal", None)
    c = rules.ladder[call]
    return (c.kind, c.trump)


def _same_denomination(a: Any, b: Any) -> bool:
    return bool(a.kind == b.kind and a.trump == b.trump and a.kind in ("trumps", "no-trumps")
                and getattr(a, "goal", "at-least") == getattr(b, "goal", "at-least") == "at-least")
