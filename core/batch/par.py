"""Double-dummy tables and par for a deal (docs/par.md).

``dd_table(state)`` reads a deal before its auction (``deal_state`` builds one from cards) and, for every seat
that may bid and every contract on the ruleset's ladder, forces that contract through the engine (the seat
bids it, everybody else passes: ``force``), lets ``club`` make the contractor's exchange and every decision
of the steps before the play (its discards, its nomination of the joker, its called partner), and solves the
hand with ``fivehundred.solve``: the contracting side's tricks with best play, every card seen.  Positions
that play alike (the same cards in the same hands, the same play table and goal) are solved once: the levels
of one denomination cost one solve when ``club`` discards alike for them.

``par(table)`` is the outcome of the auction when every side knows the table and bids its best under the
ruleset's ladder and scoring (``score_of``: the ruleset's own ``score_hand`` on the hand the table says).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from fivehundred.engine.solver import solve, solved_outcome
from fivehundred.engine.state import GameState
from fivehundred.rules.actions import CALL, PASS_ACTION, Phase
from fivehundred.rules.manager import Rules, compile_rules, make_player
from fivehundred.rules.steps import FIRST_STEP_ACTION
from fivehundred.rules.tables import Contract, denomination_text

DISCARDER = "club"
"""The player whose exchange (discards, nomination, called partner, steps' decisions) the table assumes."""

_PLAYERS_SEED = 0
"""``club`` decides with ``random.Random(_PLAYERS_SEED)`` in every forced contract: the same deal, the same
table."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One cell of the table: ``seat`` contracting ``contract`` (as the hand plays it: a step may change it)."""

    seat: int
    call: str
    contract: Contract
    tricks: int
    """The contracting side's tricks in the hand with best play (``fivehundred.solve``)."""
    side: tuple[int, ...]
    """The contracting side's seats (the contractor's team, or the contractor and a called partner)."""

    @property
    def made(self) -> bool:
        return self.contract.made(self.tricks)


@dataclass(slots=True)
class DDTable:
    """A deal's double-dummy table: an ``Entry`` per (seat, rung) that could be forced, and why the others
    could not (``skipped``: by call, or by ``seat call``)."""

    rules: Rules
    dealer: int
    entries: dict[tuple[int, int], Entry] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    totals: tuple[int, ...] = ()
    """Each team's total before the deal (what the scoring and the game's end read)."""
    solves: int = 0
    """Searches the table cost (positions that play alike are solved once)."""

    def get(self, seat: int, call: str) -> Entry | None:
        return self.entries.get((seat, self.rules.parse_call(call)))

    def columns(self) -> list[tuple[str, list[int]]]:
        """The table's columns (``columns``) for the rungs it holds."""
        return columns(self.rules, sorted({r for _, r in self.entries}))

    def seats(self) -> list[int]:
        return sorted({s for s, _ in self.entries})

    def as_dict(self) -> dict[str, Any]:
        seats = self.rules.seats
        return {"dealer": seats[self.dealer],
                "table": {seats[s]: {self.rules.ladder[r].call: e.tricks
                                     for (s2, r), e in sorted(self.entries.items()) if s2 == s}
                          for s in self.seats()},
                "skipped": dict(self.skipped), "solves": self.solves}


def columns(rules: Rules, rungs: Iterable[int]) -> list[tuple[str, list[int]]]:
    """Columns of a table as (label, rungs): the levels of one denomination share a column (``S C D H NT``),
    every other contract (a misère, Hi/Lo) has its own, in ladder order."""
    groups: dict[Any, tuple[str, list[int]]] = {}
    for rung in rungs:
        c = rules.ladder[rung]
        if c.goal == "at-least":
            key: Any = (c.kind, c.trump, c.partner_plays, c.kitty, c.jacks_high, c.open)
            label = denomination_text(c.trump)
        else:
            key, label = c.call, c.call
        groups.setdefault(key, (label, []))[1].append(rung)
    labels = [label for label, _ in groups.values()]
    return [(label if labels.count(label) == 1 else "/".join(rules.ladder[r].call for r in rungs), rungs)
            for label, rungs in groups.values()]


def deal_state(ruleset: Any, hands: Sequence[Sequence[int]], kitty: Sequence[int], dead: Sequence[int] = (), *,
               dealer: int = 0, totals: Sequence[int] | None = None, number: int = 1) -> GameState:
    """A game at the start of a deal with these cards (by seat), ``dealer`` dealing, each team at ``totals``."""
    rules = ruleset if isinstance(ruleset, Rules) else compile_rules(ruleset)
    state = GameState(rules, first_dealer=dealer)
    if totals is not None or number != 1:
        state.start_at(list(totals) if totals is not None else [0] * len(rules.team_names), number)
    state.deal_cards(hands, kitty, dead)
    return state


def biddable(rules: Rules) -> tuple[list[int], list[int], dict[str, str]]:
    """The seats that may bid, the rungs that can be a contract, and why the others are left out."""
    skipped: dict[str, str] = {}
    silent = rules.auction.silent
    seats = [s for s in range(rules.players) if s not in silent]
    for s in silent:
        skipped[rules.seats[s]] = "never bids (a dummy)"
    rungs = []
    for c in rules.ladder:
        if c.signal:
            skipped[c.call] = "a signal, never a contract (B7 inkle)"
        else:
            rungs.append(c.rung)
    return seats, rungs, skipped


def dd_table(state: GameState, *, seats: Iterable[int] | None = None, calls: Iterable[str] | None = None,
             solved: dict[Any, int] | None = None) -> DDTable:
    """The deal's double-dummy table (see the module's text); ``seats`` and ``calls`` limit it.  ``solved``: the
    solves of positions met before, by ``play_key`` (filled in; shared by two rulesets' tables of one deal, it
    solves once what both play alike)."""
    rules = state.rules
    if state.phase not in (Phase.AUCTION, Phase.STEP) or state.hand_log.calls or state.contract is not None:
        raise ValueError("a double-dummy table reads a deal before its first call (deal_state builds one)")
    all_seats, rungs, skipped = biddable(rules)
    wanted_seats = all_seats if seats is None else [s for s in all_seats if s in set(seats)]
    if calls is not None:
        wanted = {rules.parse_call(c) for c in calls}
        rungs = [r for r in rungs if r in wanted]
    table = DDTable(rules, state.dealer, skipped=skipped, totals=tuple(state.totals))
    solved = {} if solved is None else solved
    for seat, rung, forced in forced_contracts(state, wanted_seats, rungs):
        if isinstance(forced, str):
            table.skipped[f"{rules.seats[seat]} {rules.ladder[rung].call}"] = forced
            continue
        key = play_key(forced)
        tricks = solved.get(key)
        if tricks is None:
            tricks = solved[key] = solve(forced)
            table.solves += 1
        contract = forced.contract
        assert contract is not None
        table.entries[(seat, rung)] = Entry(seat, rules.ladder[rung].call, contract, tricks,
                                            rules.in_order(forced.contracting_side))
    return table


def forced_contracts(state: GameState, seats: Iterable[int], rungs: Iterable[int]
                     ) -> Iterator[tuple[int, int, GameState | str]]:
    """Each rung with each seat, rung by rung: ``force`` of it (the hand at its first lead, or why the auction cannot
    end there)."""
    seats = list(seats)
    for rung in rungs:
        for seat in seats:
            yield seat, rung, force(state, seat, rung)


def play_key(state: GameState) -> tuple[Any, ...]:
    """What the solve of a position at the first lead reads (``PlayKernel``): the cards in each hand, the side, the
    seats sitting out, the leader, the play order, the play table and the contract's joker rules, the goal, the
    misère's early end.  Two positions with the same key have the same value, under any two rulesets; where the
    rules read more (a per-trick check by the score, E6; a play filter of a plugin's; dummies' face-down cards)
    the key holds the ruleset's content hash too, and the contract's value."""
    contract = state.contract
    assert contract is not None
    table = state.play_table
    assert table is not None
    rules = state.rules
    covered = tuple(state.covering(s) for s in range(rules.players))
    own = rules.trick_check is not None or table.legal_filter is not None or any(covered)
    return (tuple(state.hand(s) for s in range(rules.players)), covered, state.contracting_side,
            state.sitting_out, state.current_player(), tuple(state.play_order), rules.hand_size,
            tuple(table.suit_of), tuple(map(tuple, table.power)), table.jokers, table.free_jokers, table.nomination,
            rules.joker_rules(contract), contract.kind, contract.goal,
            contract.tricks if contract.goal != "at-least" else None,
            contract.goal == "none" and not state.hand_log.played_out and not state.misere_play_out,
            (rules.ruleset.content_hash, contract.value) if own else None)


def force(state: GameState, seat: int, rung: int) -> GameState | str:
    """``state`` (a deal before its first call) played on to the first lead of the hand in which ``seat`` bids
    ``rung`` and every other seat passes (a seat before it bids the rung's ``requires_standing`` where the ladder
    needs one), ``club`` deciding the exchange and the steps; or why the auction cannot end there."""
    rules = state.rules
    contract = rules.ladder[rung]
    s = state.clone()
    players = [make_player(DISCARDER, k, random.Random(_PLAYERS_SEED)) for k in range(rules.players)]
    deal = s.deals
    for _ in range(64 * rules.players):
        if s.deals != deal or s.phase in (Phase.DEAL, Phase.GAME_OVER):
            return "the deal is thrown in on the way"
        phase = s.phase
        if phase == Phase.PLAY:
            bids = [c for c in s.hand_log.calls if c[1] >= 0]  # the auction's, whatever a step made of it since
            won = bids[-1] == (seat, rung) if bids else s.contract is not None and s.contract.rung == rung  # B8
            if s.contractor != seat or not won:
                return "the auction cannot end there"
            return s
        who = s.current_player()
        legal = s.legal_actions()
        if phase == Phase.AUCTION:
            s.apply(_call(s, legal, who, seat, contract))
        elif phase == Phase.STEP and not s.hand_log.calls and s.contract is None:
            s.apply(_before_auction(s, legal, who, seat, contract))
        else:  # the exchange, a nomination, the steps before the play
            s.apply(players[rules.controller[who]].act(s, legal))
    return "the auction does not end"  # pragma: no cover - every shipped auction ends in a few rounds


def _call(s: GameState, legal: Sequence[int], who: int, seat: int, contract: Contract) -> int:
    calls = [a for a in legal if a < FIRST_STEP_ACTION]
    bids = [c for c in s.hand_log.calls if c[1] >= 0]
    standing = bids[-1][1] if bids else -1
    mine = CALL + contract.rung
    if who == seat and mine in calls:
        return mine
    if who == seat and standing < contract.rung:  # not yet: stay in the auction with a lower bid
        lower = [a for a in calls if a != PASS_ACTION and a - CALL < contract.rung]
        if lower:
            return lower[0]
    need = contract.requires_standing
    if who != seat and need is not None and standing < need and standing < contract.rung:
        ways = [a for a in calls if need <= a - CALL < contract.rung and a != PASS_ACTION]
        if ways:
            return ways[0]
    if PASS_ACTION in calls:
        return PASS_ACTION
    below = [a for a in calls if a != PASS_ACTION and a - CALL < contract.rung]
    return below[0] if below else calls[0]


def _before_auction(s: GameState, legal: Sequence[int], who: int, seat: int, contract: Contract) -> int:
    """A step before the auction (B8's blind bids): ``seat`` makes the forced contract's blind bid there; every
    other answer is the step's first (declining)."""
    if who == seat and contract.before_looking:
        for action in legal:
            if s.action_to_str(action).split()[-1] == contract.call:
                return action
    return legal[0]


# --- par ---------------------------------------------------------------------------------------


def score_of(table: DDTable, entry: Entry) -> tuple[int, ...]:
    """Each team's points for the hand ``entry`` says (the ruleset's ``score_hand``; the defenders' tricks shared as
    ``solved_outcome`` shares them)."""
    rules = table.rules
    return tuple(rules.score_hand(solved_outcome(rules, entry.contract, entry.seat, entry.side, entry.tricks,
                                                 table.totals)))


@dataclass(frozen=True, slots=True)
class Par:
    """A deal's par: the contract (None: everybody passes) and each team's points for the hand."""

    entry: Entry | None
    scores: tuple[int, ...]

    def as_dict(self, rules: Rules) -> dict[str, Any]:
        e = self.entry
        return {"contract": e.call if e else None, "contractor": rules.seats[e.seat] if e else None,
                "team": rules.team_names[rules.team_of[e.seat]] if e else None,
                "kind": e.contract.kind if e else None, "goal": e.contract.goal if e else None,
                "value": e.contract.value if e else None,
                "tricks": e.tricks if e else None, "made": e.made if e else None,
                "scores": dict(zip(rules.team_names, self.scores, strict=True))}

    def text(self, rules: Rules) -> str:
        scores = ", ".join(f"{t} {p:+d}" for t, p in zip(rules.team_names, self.scores, strict=True))
        if self.entry is None:
            return "  par: everybody passes (" + scores + ")"
        e = self.entry
        how = ("made" if e.made else "failed") + f", {e.tricks} trick{'s' * (e.tricks != 1)}"
        return f"  par: {e.call} by {rules.seats[e.seat]} ({how}): {scores}"


def par(table: DDTable) -> Par:
    """The par of a deal: the contract on which the auction ends when every team knows the table and bids its
    best (docs/par.md).  The teams act in turn from the dealer's left; a team may pass or bid any rung above the
    standing one that the ladder allows over it (``requires_standing``), with any of its seats that may
    contract it; the auction ends when every other team has passed over a bid (everybody passing: nothing
    scored).  Each team maximises its points less the mean of the others' (for two teams: the difference),
    the hand scored by ``score_of``; ties go to passing, then to the lower rung, then to the seat first in
    order.  A rung that wants a bid standing below it (``requires_standing``: misère over a 7-level bid) is open to
    a team that has two bidders whatever stands (one bids the 7-level, a partner overcalls it with the misère), and
    to a lone bidder only over such a bid.  Blind bids (B8, made before looking) are left out."""
    rules = table.rules
    scores = {key: score_of(table, e) for key, e in table.entries.items()}
    exact = {key: (payoffs(sc),) * 2 for key, sc in scores.items()}
    where = bid_out(rules, table.dealer, exact)
    if where is None:
        return Par(None, (0,) * len(rules.team_names))
    return Par(table.entries[where], scores[where])


def payoffs(scores: Sequence[int]) -> tuple[float, ...]:
    """What each team maximises in the par auction: its points less the mean of the others'."""
    n, total = len(scores), sum(scores)
    return tuple(p - (total - p) / (n - 1) if n > 1 else p for p in scores)


PayoffRange = tuple[tuple[float, ...], tuple[float, ...]]
"""An outcome's payoffs (``payoffs``) as the least and the most each team can get from it."""

def payoff_bounds(table: DDTable, entry: Entry, low: int, high: int) -> PayoffRange:
    """The bounds of ``entry``'s payoffs where its side takes between ``low`` and ``high`` tricks."""
    each = [payoffs(score_of(table, Entry(entry.seat, entry.call, entry.contract, t, entry.side)))
            for t in range(low, high + 1)]
    return tuple(map(min, zip(*each, strict=True))), tuple(map(max, zip(*each, strict=True)))


Contracted = tuple[int, int] | None
"""A contract of the par auction, ``(seat, rung)``; None: everybody passes."""


class Undecided(Exception):
    """The par auction's choice between two contracts rests on tricks not yet known (``deal_par`` asks about
    them): ``team``'s payoffs from them, as far as known (``options``: each contract with its bounds)."""

    def __init__(self, team: int, options: tuple[tuple[PayoffRange, Contracted], ...]) -> None:
        super().__init__(team, options)
        self.team = team
        self.options = options


def bid_out(rules: Rules, dealer: int, outcomes: dict[tuple[int, int], PayoffRange]) -> Contracted:
    """The par auction of ``par`` over the contracts ``outcomes`` holds (``(seat, rung)``: its payoffs' bounds): the
    contract it ends on.  Where a team's choice rests on two contracts whose bounds overlap, ``Undecided`` names
    them (exact payoffs never raise it)."""
    n_teams = len(rules.team_names)
    order: list[int] = []
    for k in range(1, rules.players + 1):
        team = rules.team_of[(dealer + k) % rules.players]
        if team not in order:
            order.append(team)
    nxt = {team: order[(i + 1) % n_teams] for i, team in enumerate(order)}
    by_rung: dict[int, list[int]] = {}
    for seat, rung in sorted(outcomes, key=lambda sr: (sr[1], sr[0])):
        if not rules.ladder[rung].before_looking:
            by_rung.setdefault(rung, []).append(seat)
    zero: PayoffRange = ((0.0,) * n_teams,) * 2
    pairs = {team: sum(rules.team_of[s] == team for s in range(rules.players)
                       if s not in rules.auction.silent) > 1 for team in order}
    """A team of two or more bidders reaches a rung that wants a bid standing under it by itself: one of them
    bids that, a partner overcalls it (N 7♠, E passes, S misère)."""
    memo: dict[tuple[int, int, int, int], tuple[PayoffRange, Contracted]] = {}

    def node(rung: int, seat: int, team: int, passes: int) -> tuple[PayoffRange, Contracted]:
        key = (rung, seat, team, passes)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if seat >= 0 and passes == n_teams - 1:
            result: tuple[PayoffRange, Contracted] = (outcomes[(seat, rung)], (seat, rung))
        elif seat < 0 and passes == n_teams:
            result = (zero, None)
        else:
            result = node(rung, seat, nxt[team], passes + 1)  # passing first: ties go to it
            for r2, seats in by_rung.items():
                need = rules.ladder[r2].requires_standing
                if r2 <= rung or (need is not None and rung < need and not pairs[team]):
                    continue
                for s2 in seats:
                    if rules.team_of[s2] == team:
                        option = node(r2, s2, nxt[team], 0)
                        if _higher(option, result, team):
                            result = option
        memo[key] = result
        return result

    return node(-1, -1, order[0], 0)[1]


def _higher(option: tuple[PayoffRange, Contracted], result: tuple[PayoffRange, Contracted], team: int) -> bool:
    """Whether ``team`` gets more from ``option``'s contract than from ``result``'s (``Undecided`` where their
    bounds do not say)."""
    if option[1] == result[1]:
        return False
    if option[0][0][team] > result[0][1][team]:
        return True
    if option[0][1][team] <= result[0][0][team]:
        return False
    raise Undecided(team, (option, result))


@dataclass(slots=True)
class Analysis:
    """A deal's table and par."""

    table: DDTable
    par: Par

    def as_dict(self) -> dict[str, Any]:
        return self.table.as_dict() | {"par": self.par.as_dict(self.table.rules)}

    def lines(self) -> list[str]:
        return [*table_lines(self.table), self.par.text(self.table.rules)]


def analyse(state: GameState, *, seats: Iterable[int] | None = None, calls: Iterable[str] | None = None,
            solved: dict[Any, int] | None = None) -> Analysis:
    """The deal's double-dummy table and its par (``dd_table``, ``par``)."""
    table = dd_table(state, seats=seats, calls=calls, solved=solved)
    return Analysis(table, par(table))


def cell(entries: list[Entry]) -> str:
    """A cell's text: the tricks (a range where the levels' discards differ); a misère as ✓ made or its tricks."""
    if not entries:
        return "–"
    values = sorted({e.tricks for e in entries})
    if entries[0].contract.goal == "none":
        return "✓" if values == [0] else "✗" + "/".join(map(str, values))
    return str(values[0]) if len(values) == 1 else f"{values[0]}–{values[-1]}"


def table_lines(table: DDTable) -> list[str]:
    """The table as text: a row per seat, a column per denomination or special contract."""
    rules = table.rules
    columns = table.columns()
    seats = table.seats()
    width = max([len(rules.seats[s]) for s in seats] + [4])
    heads = [label for label, _ in columns]
    widths = [max(len(h), 3) for h in heads]
    lines = ["  " + " " * width + "  " + "  ".join(h.rjust(w) for h, w in zip(heads, widths, strict=True))]
    for s in seats:
        cells = [cell([table.entries[(s, r)] for r in rungs if (s, r) in table.entries]) for _, rungs in columns]
        lines.append(f"  {rules.seats[s]:<{width}}  " + "  ".join(c.rjust(w) for c, w in zip(cells, widths,
                                                                                             strict=True)))
    lines.extend(f"  {what}: {why}" for what, why in table.skipped.items())
    return lines


__all__ = ["DDTable", "Entry", "Par", "analyse", "dd_table", "deal_state", "force", "par", "score_of"]
