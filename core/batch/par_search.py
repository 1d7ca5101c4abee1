"""A deal's par without its whole table: ``deal_par(state)`` finds ``par(dd_table(state))`` solving only what the
par auction reads.

Every contract the table would hold is forced as ``dd_table`` forces it (``force``: the same auction, `club`'s
exchange), and positions that play alike share one search (``play_key``).  A contract to take tricks starts
knowing only the bounds the search takes at the first lead; any other contract (a misère, Hi/Lo) is solved at
once.  The par auction (``bid_out``) is then played on what is known, each outcome's payoffs as the least and the
most they can be; where a team's choice rests on two contracts whose bounds overlap (``Undecided``), the position
of the one whose payoff to that team is known least closely is asked one more question (whether the side forces
a level of the contracts it plays, the one nearest the middle of what is left, else the middle) and the auction
is played again, until it ends; its contract is then solved exactly.  Every choice is the one the whole table
gives, so the par is ``par(dd_table(state))``'s (tests/test_par.py checks it deal by deal); what it saves is the
exact tricks of contracts no choice depends on, often the dearest (a side that takes four or five tricks of ten
against four defenders, where no level is made).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fivehundred.engine.solver import EngineSolver, Solver
from fivehundred.engine.state import GameState
from fivehundred.rules.actions import Phase
from fivehundred.rules.tables import Contract

from .par import (
    DDTable,
    Entry,
    Par,
    PayoffRange,
    Undecided,
    bid_out,
    biddable,
    forced_contracts,
    payoff_bounds,
    play_key,
    score_of,
)

_HUGE = 1 << 30


@dataclass(slots=True)
class _Position:
    """A position at the first lead that one or more forced contracts play: the side's tricks known to lie in
    ``[low, high]``."""

    solver: Solver | EngineSolver | None
    low: int
    high: int
    levels: set[int] = field(default_factory=set)
    """The tricks each contract playing it needs (the questions asked first)."""
    probes: int = 0

    @classmethod
    def of(cls, state: GameState, known: int | None) -> _Position:
        if known is not None:
            return cls(None, known, known)
        solver = Solver.of(state)
        if isinstance(solver, Solver) and solver.goal == "at-least":
            taken = solver.k.side_tricks(solver.root)
            least, most, _, _ = solver.search.lead_bounds(solver.root)
            return cls(solver, taken + least, taken + most)
        value = solver.value()
        return cls(solver, value, value, probes=1)

    def ask(self) -> None:
        """One more question: does the side force ``t`` tricks, for the level nearest the middle of what is
        left (the middle where no level is in it)?"""
        if self.low == self.high:
            return
        assert isinstance(self.solver, Solver)
        middle = (self.low + self.high + 1) // 2
        levels = [t for t in self.levels if self.low < t <= self.high]
        t = min(levels, key=lambda t: (abs(t - middle), t)) if levels else middle
        root = self.solver.root
        self.probes += 1
        if self.solver.forces(root, t - self.solver.k.side_tricks(root), _HUGE):
            self.low = t
        else:
            self.high = t - 1

    def settle(self) -> int:
        while self.low < self.high:
            self.ask()
        return self.low


@dataclass(frozen=True, slots=True)
class DealPar:
    """``deal_par``'s answer: the par, the rung of its contract (None: everybody passes), and what it cost."""

    par: Par
    rung: int | None
    solves: int
    """Positions searched (those that play alike counted once)."""
    probes: int
    """Questions asked of them (a whole solve asks several)."""


@dataclass(frozen=True, slots=True)
class _Forced:
    """A contract forced at a seat: the position it plays (``play_key``) and what its ``Entry`` holds."""

    key: Any
    seat: int
    call: str
    contract: Contract
    side: tuple[int, ...]

    def entry(self, tricks: int) -> Entry:
        return Entry(self.seat, self.call, self.contract, tricks, self.side)


def _widest(undecided: Undecided, contracts: dict[tuple[int, int], _Forced]) -> Any:
    """The position of the undecided contract whose payoff to the choosing team is known least closely."""
    team = undecided.team
    _, contract = min((o for o in undecided.options if o[1] is not None),
                      key=lambda o: o[0][0][team] - o[0][1][team])
    assert contract is not None
    return contracts[contract].key


def deal_par(state: GameState, *, solved: dict[Any, int] | None = None) -> DealPar:
    """``par(dd_table(state))``, solving only what the par auction reads (see the module's text); ``solved``:
    ``dd_table``'s (exact tricks by ``play_key``, read and filled in)."""
    rules = state.rules
    if state.phase not in (Phase.AUCTION, Phase.STEP) or state.hand_log.calls or state.contract is not None:
        raise ValueError("a deal's par reads a deal before its first call (deal_state builds one)")
    solved = {} if solved is None else solved
    seats, rungs, _ = biddable(rules)
    table = DDTable(rules, state.dealer, totals=tuple(state.totals))
    positions: dict[Any, _Position] = {}
    contracts: dict[tuple[int, int], _Forced] = {}
    sighted = [r for r in rungs if not rules.ladder[r].before_looking]  # par leaves blind bids out
    for seat, rung, forced in forced_contracts(state, seats, sighted):
        if isinstance(forced, str):
            continue
        key = play_key(forced)
        contract = forced.contract
        assert contract is not None
        position = positions.get(key)
        if position is None:
            position = positions[key] = _Position.of(forced, solved.get(key))
        position.levels.add(contract.tricks)
        contracts[(seat, rung)] = _Forced(key, seat, rules.ladder[rung].call, contract,
                                          rules.in_order(forced.contracting_side))
    bounds: dict[tuple[int, int, int, int], PayoffRange] = {}

    def outcome(seat: int, rung: int) -> PayoffRange:
        f = contracts[(seat, rung)]
        p = positions[f.key]
        hit = bounds.get((seat, rung, p.low, p.high))
        if hit is None:
            hit = bounds[(seat, rung, p.low, p.high)] = payoff_bounds(table, f.entry(p.low), p.low, p.high)
        return hit

    while True:
        try:
            where = bid_out(rules, state.dealer, {sr: outcome(*sr) for sr in contracts})
            break
        except Undecided as undecided:
            positions[_widest(undecided, contracts)].ask()
    par = Par(None, (0,) * len(rules.team_names))
    if where is not None:
        f = contracts[where]
        entry = f.entry(positions[f.key].settle())
        par = Par(entry, score_of(table, entry))
    for key, p in positions.items():
        if p.low == p.high:
            solved[key] = p.low
    return DealPar(par, where[1] if where is not None else None,
                   sum(1 for p in positions.values() if p.probes), sum(p.probes for p in positions.values()))


__all__ = ["DealPar", "deal_par"]
