"""The double-dummy solver: how many tricks the contracting side takes with best play, every card seen.

``solve(state)`` and ``solve_cards(state)`` read a game in its play phase (after the exchange and the
nomination: any card of the play, a trick in progress included) and search the rest of the hand on the
play kernel (``fivehundred.engine.kernel``), which executes the hand's own play tables.  The value is
the contracting side's tricks in the whole hand (taken so far plus taken from here) when both sides
play their best for the contract's goal:

* ``at-least`` (every bid to take tricks): the side takes as many as it can, the others keep it to as
  few as they can; the value is that number (made when it reaches ``Contract.tricks``);
* ``none`` (misère): the side takes as few as it can, the others make it take as many as they can;
  made when the value is 0 (a misère that ends at its first trick lost has a value of at most 1 more
  than the tricks it had);
* ``exactly`` (Hi/Lo, exactly ``k``): the side aims at ``k``, the others away from it; the value is
  ``k`` when the side can force exactly ``k``, else the total at the least distance ``d`` from ``k`` the
  side can force, ``k - d`` when the side can keep to ``[k - d, k]`` and ``k + d`` otherwise (the
  outcome ``g = 2|t - k| - [t < k]`` minimised by the side).

The search answers "can the side force its tricks from here into ``[lo, hi]``?" (a null-window
alpha-beta on an AND/OR tree: the side's seats choose, the others refute), with a transposition table
at every trick's lead keyed on the cards left in each hand and the leader (bounds kept per key),
bounds at each lead as cut-offs (the sure tricks the leader can cash, and the cards that must take a
trick whoever plays what), touching cards of one hand played as one, and the moves ordered (the
cheapest winning card first, low cards under a partner's winner, low leads in a misère).  The search
itself is ``solver_search.Search``, typed for Cython where its code is.  ``solve`` finds the value by a
binary search on the window.  Hands the kernel cannot compile (a play restriction reading the hand's
history) or that do not fit the search's 64-bit masks are searched through the engine itself, slower.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fivehundred.rules.actions import Phase
from fivehundred.rules.steps import FIRST_STEP_ACTION
from fivehundred.rules.tables import Contract, HandOutcome

from .kernel import KernelError, PlayKernel, Position
from .solver_search import Search, fits

_HUGE = 1 << 30
SHARED_ENTRIES = 1 << 20
"""Transposition-table entries (about 70 bytes each, compiled) past which the next world gets a search of its own."""


def solve(state: Any) -> int:
    """The contracting side's tricks in the whole hand with best play by both sides (see the module's text)."""
    return Solver.of(state).value()


def solve_cards(state: Any) -> dict[int, int]:
    """``solve`` after each legal card of the seat to play, by action as ``legal_actions()`` lists them
    (a step's offer beside the cards, a claim, is not valued)."""
    return Solver.of(state).card_values()


def goal_made(contract: Any, side_tricks: int) -> bool:
    """Whether a value of ``solve`` fulfils the contract (``Contract.made``)."""
    return bool(contract.made(side_tricks))


def solved_outcome(rules: Any, contract: Contract, contractor: int, side: tuple[int, ...], tricks: int,
                   totals: tuple[int, ...]) -> HandOutcome:
    """The ``HandOutcome`` of a hand in which the contracting side ``side`` takes ``tricks`` (a value of ``solve``),
    for the ruleset's ``score_hand`` and ``game_result``.  Double dummy says how many tricks the contracting side
    takes, not which defender takes the others: they are shared among the defending seats as evenly as may be, from
    the contractor's left (exact wherever the defenders are one team)."""
    n, size = rules.players, rules.hand_size
    won = [0] * n
    won[contractor] = tricks
    defenders = [(contractor + k) % n for k in range(1, n) if (contractor + k) % n not in side]
    left = size - tricks
    for k, d in enumerate(defenders):
        won[d] = left // len(defenders) + (1 if k < left % len(defenders) else 0)
    by_team = [0] * len(rules.team_names)
    for s, w in enumerate(won):
        by_team[rules.team_of[s]] += w
    return HandOutcome(contract, contractor, rules.team_of[contractor], tuple(won), tuple(by_team),
                       contract.made(tricks), size, size, side, totals or (0,) * len(rules.team_names), {})


class Solver:
    """A search of one hand from one position (the transposition table is kept between calls)."""

    def __init__(self, kernel: PlayKernel, pos: Position, search: Search | None = None) -> None:
        self.k = kernel
        self.root = pos
        contract = kernel.contract
        self.goal = contract.goal
        self.target = contract.tricks
        self.search = search if search is not None else Search(kernel, self.goal == "none")
        self.nodes = 0

    @classmethod
    def of(cls, state: Any) -> Solver | EngineSolver:
        if state.phase != Phase.PLAY:
            raise ValueError("the solver reads a hand in its play (after the exchange and the nomination)")
        if not state.contracting_side:
            raise ValueError("this hand has no contracting side (a deal played with nobody's bid)")
        try:
            kernel, pos = PlayKernel.of(state)
        except KernelError:
            return EngineSolver(state)
        if not fits(kernel):
            return EngineSolver(state)
        return cls(kernel, pos)

    @classmethod
    def of_worlds(cls, worlds: Sequence[Any]) -> list[Solver | EngineSolver]:
        """``of`` each of ``worlds``, the deals one player samples at one decision (the same play so far, the unseen
        cards dealt differently): worlds whose play compiles alike (``PlayKernel.serves``) share one kernel and one
        search, its transposition table with them (a key is a whole position, so an entry holds in every world)
        until it holds ``SHARED_ENTRIES``; the same answers as ``of``, without compiling and allocating the hand
        again for each world."""
        solvers: list[Solver | EngineSolver] = []
        shared: Solver | None = None
        for world in worlds:
            if shared is not None and shared.k.serves(world) and shared.search.entries < SHARED_ENTRIES:
                solver: Solver | EngineSolver = cls(shared.k, shared.k.position(world), shared.search)
            else:
                solver = cls.of(world)
                if isinstance(solver, Solver):
                    shared = solver
            solvers.append(solver)
        return solvers

    # --- answers -----------------------------------------------------------------------------

    def value(self, guess: int = -1) -> int:
        """The hand's total with best play from here (``guess``: a likely total, tried first)."""
        return self._value(self.root, guess)

    def span(self) -> tuple[int, int]:
        """The least and the most the hand's total can be from here, whoever plays what."""
        taken = self.k.side_tricks(self.root)
        left = self.k.hand_size - self.root.played
        return taken, taken + (min(1, left) if self.k.ends_early else left)

    def card_value(self, action: int, guess: int = -1) -> int:
        """``value`` after ``action``, a legal card of the seat to play."""
        pos = self.root.copy()
        self.k.play(pos, action)
        return self._value(pos, guess)

    def keeps(self, action: int, value: int) -> bool:
        """Whether ``action``, a legal card of the seat to play, keeps the hand's total at ``value`` (this position's
        ``value()``): one question, where ``card_value`` asks until it knows the total."""
        pos = self.root.copy()
        seat = self.k.turn(pos)
        self.k.play(pos, action)
        taken = self.k.side_tricks(pos)
        if pos.over or self.goal == "exactly":
            return self._value(pos, value) == value
        side = seat in self.k.side
        if self.goal == "at-least":  # the side's card keeps what it forces; the others' card lets no more through
            return self.forces(pos, value - taken, _HUGE) if side else not self.forces(pos, value + 1 - taken, _HUGE)
        return self.forces(pos, -_HUGE, value - taken) if side else not self.forces(pos, -_HUGE, value - 1 - taken)

    def card_values(self) -> dict[int, int]:
        k, root = self.k, self.root
        best = self._value(root, -1)
        present = 0
        for h in root.hands:
            present |= h | k.face_down(h)
        for _, b, _ in root.trick:
            present |= 1 << b
        out: dict[int, int] = {}
        prev, value = -1, 0
        for b, named in k.moves(root, k.turn(root)):
            action = k.action((b, named))
            touching = (named < 0 and prev >= 0 and k.suit[b] == k.suit[prev] and k.mergeable[k.suit[b]]
                        and not (k.cover_mask >> b | k.cover_mask >> prev) & 1
                        and not present & ((1 << b) - (2 << prev)))
            if not touching:  # touching cards of one hand play alike: one search for them all
                pos = root.copy()
                k.play(pos, action)
                value = self._value(pos, best)
            out[action] = value
            prev = b if named < 0 else -1
        return out

    def _value(self, pos: Position, guess: int) -> int:
        """The side's total tricks from ``pos`` (``guess``: a likely total, tried first)."""
        taken = self.k.side_tricks(pos)
        if pos.over:
            return taken
        left = self.k.hand_size - pos.played
        if self.goal == "exactly":  # the least g = 2|t - k| - [t < k] the side can force
            want = self.target - taken
            for m in range(2 * self.k.hand_size + 2):
                if self.forces(pos, want - (m + 1) // 2, want + m // 2):
                    return self.target - (m + 1) // 2 if m % 2 else self.target + m // 2
            raise AssertionError("no outcome")  # pragma: no cover - m covers every total
        most = self.goal == "at-least"
        lo, hi = 0, 1 if self.k.ends_early else left  # a misère ends at its first trick lost
        probe = guess - taken
        while lo < hi:
            if not lo <= probe <= hi or (most and probe == lo) or (not most and probe == hi):
                probe = (lo + hi + 1) // 2 if most else (lo + hi) // 2
            if most:  # the most the side can force
                if self.forces(pos, probe, _HUGE):
                    lo = probe
                else:
                    hi = probe - 1
            elif self.forces(pos, -_HUGE, probe):  # misère: the fewest
                hi = probe
            else:
                lo = probe + 1
            probe = -1
        return taken + lo

    def forces(self, pos: Position, lo: int, hi: int) -> bool:
        """Whether the side can force its tricks from ``pos`` on into ``[lo, hi]``."""
        search = self.search
        before = search.nodes
        result = bool(search.run(pos, lo, hi))
        self.nodes += search.nodes - before
        return result


class EngineSolver:
    """The same answers searched through the engine itself (clone and apply), for hands the kernel cannot
    compile; memoised on the hands, the trick and the tricks won."""

    def __init__(self, state: Any) -> None:
        self.state = state
        contract = state.contract
        self.goal, self.target = contract.goal, contract.tricks
        self.side = state.contracting_side
        self.memo: dict[Any, int] = {}

    def value(self, guess: int = -1) -> int:
        return self._decode(self._best(self.state))

    def span(self) -> tuple[int, int]:
        log = self.state.hand_log
        taken = sum(log.tricks_won[s] for s in self.side)
        return taken, taken + self.state.rules.hand_size - len(log.tricks)

    def card_value(self, action: int, guess: int = -1) -> int:
        child = self.state.clone()
        child.apply(action)
        return self._decode(self._best(child))

    def keeps(self, action: int, value: int) -> bool:
        return self.card_value(action) == value

    def card_values(self) -> dict[int, int]:
        return {action: self.card_value(action) for action in self.state.legal_actions()
                if action < FIRST_STEP_ACTION}

    def _score(self, tricks: int) -> int:
        """What the side minimises."""
        if self.goal == "at-least":
            return -tricks
        if self.goal == "none":
            return tricks
        return 2 * abs(tricks - self.target) - (tricks < self.target)

    def _decode(self, score: int) -> int:
        if self.goal == "at-least":
            return -score
        if self.goal == "none":
            return score
        return self.target - (score + 1) // 2 if score % 2 else self.target + score // 2

    def _best(self, state: Any) -> int:
        deal = state.deals
        if state.phase != Phase.PLAY or state.deals != deal:
            raise AssertionError  # pragma: no cover
        return self._node(state, deal)

    def _node(self, state: Any, deal: int) -> int:
        if state.is_terminal() or state.deals != deal or state.phase != Phase.PLAY:
            log = state.hands_log[deal - 1]
            return self._score(sum(log.tricks_won[s] for s in self.side))
        key = (tuple(state.hand(s) for s in range(state.rules.players)), state.trick, state.trick_leader,
               state.tricks_won_by_seat, tuple(tuple(sorted(t.cards)) for t in state.hand_log.tricks))
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        side = state.current_player() in self.side
        scores = []
        for action in state.legal_actions():
            if action >= FIRST_STEP_ACTION:
                continue
            child = state.clone()
            child.apply(action)
            scores.append(self._node(child, deal))
        best = min(scores) if side else max(scores)
        self.memo[key] = best
        return best

