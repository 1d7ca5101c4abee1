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
sure tricks cashed by the leader as cut-offs, touching cards of one hand played as one, and the
moves ordered (the cheapest winning card first, low cards under a partner's winner, low leads in a
misère).  ``solve`` finds the value by a binary search on the window.  Hands the kernel cannot compile
(a play restriction reading the hand's history) are searched through the engine itself, slower.
"""

from __future__ import annotations

from typing import Any

from fivehundred.rules.actions import Phase
from fivehundred.rules.steps import FIRST_STEP_ACTION

from .kernel import KernelError, PlayKernel, Position

_HUGE = 1 << 30


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


class Solver:
    """A search of one hand from one position (the table is kept between calls)."""

    def __init__(self, kernel: PlayKernel, pos: Position) -> None:
        self.k = kernel
        self.root = pos
        contract = kernel.contract
        self.goal = contract.goal
        self.target = contract.tricks
        self.tt: dict[Any, list[Any]] = {}
        self.nodes = 0
        side = kernel.side
        self.on_side = [s in side for s in range(kernel.players)]
        self.quick = not kernel.ends_early and kernel.trick_check is None
        self.lows_first = self.goal == "none"
        joker_leads = kernel.free_mask and kernel.table.joker_lead == "unled-suit"
        self.key_unled = bool(joker_leads)
        self.key_won = kernel.trick_check is not None
        self.mergeable = kernel.mergeable
        # The bits of each suit at or above a bit (for "nothing still in play between two cards").
        self.nbits = len(kernel.cards)

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
        return cls(kernel, pos)

    # --- answers -----------------------------------------------------------------------------

    def value(self) -> int:
        return self._value(self.root)

    def card_values(self) -> dict[int, int]:
        k, root = self.k, self.root
        out = {}
        seat = k.turn(root)
        for move in k.moves(root, seat):
            action = k.action(move)
            pos = root.copy()
            k.play(pos, action)
            out[action] = self._value(pos)
        return out

    def _value(self, pos: Position) -> int:
        taken = self.k.side_tricks(pos)
        if pos.over:
            return taken
        left = self.k.hand_size - pos.played
        if self.goal == "at-least":  # the most the side can force
            lo, hi = 0, left
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if self.forces(pos, mid, _HUGE):
                    lo = mid
                else:
                    hi = mid - 1
            return taken + lo
        if self.goal == "none":  # the fewest
            lo, hi = 0, left
            while lo < hi:
                mid = (lo + hi) // 2
                if self.forces(pos, -_HUGE, mid):
                    hi = mid
                else:
                    lo = mid + 1
            return taken + lo
        want = self.target - taken  # exactly: the least g = 2|t - k| - [t < k] the side can force
        for m in range(2 * self.k.hand_size + 2):
            if self.forces(pos, want - (m + 1) // 2, want + m // 2):
                return self.target - (m + 1) // 2 if m % 2 else self.target + m // 2
        raise AssertionError("no outcome")  # pragma: no cover - m covers every total

    def forces(self, pos: Position, lo: int, hi: int) -> bool:
        """Whether the side can force its tricks from ``pos`` on into ``[lo, hi]``."""
        self._load(pos)
        if not self.trick:
            return self._lead(lo, hi)
        seat, b, _ = self.trick[-1]
        return self._follow(self.k.next_seat[seat], lo, hi)

    def _load(self, pos: Position) -> None:
        k = self.k
        self.hands = list(pos.hands)
        self.leader = pos.leader
        self.trick = list(pos.trick)
        self.led, self.best, self.winner = pos.led, pos.best, pos.winner
        self.unled = pos.unled
        self.won = list(pos.won)
        self.played = pos.played
        present = 0
        for h in self.hands:
            present |= h
        for h in self.hands:  # cards still face down under a laid-out hand's cards
            for b in _bits(h & k.cover_mask):
                present |= k.under[b]
        for _, b, _ in self.trick:
            present |= 1 << b
        self.present = present

    # --- the search ----------------------------------------------------------------------------

    def _lead(self, lo: int, hi: int) -> bool:
        """At a trick's lead (``self.leader`` to play)."""
        k = self.k
        left = k.hand_size - self.played
        cap = 1 if k.ends_early else left
        if lo < 0:
            lo = 0
        if hi > cap:
            hi = cap
        if lo > hi:
            return False
        if lo == 0 and hi == cap:
            return True
        key: tuple[Any, ...] = (*self.hands, self.leader)
        if self.key_unled:
            key += (self.unled,)
        if self.key_won:
            key += tuple(self.won)
        entry = self.tt.get(key)
        if entry is None:
            entry = self.tt[key] = [0, cap + 1, cap, -1, None]
        if hi == cap:
            if lo <= entry[0]:
                return True
            if lo >= entry[1]:
                return False
        elif lo == 0:
            if hi >= entry[2]:
                return True
            if hi <= entry[3]:
                return False
        else:
            if lo >= entry[1] or hi <= entry[3]:
                return False
            if entry[4] is not None and (lo, hi) in entry[4]:
                return bool(entry[4][(lo, hi)])
        if self.quick and hi == cap:
            sure = self._sure_tricks(self.leader)
            if self.on_side[self.leader]:
                if sure >= lo:
                    entry[0] = max(entry[0], sure)
                    return True
            elif left - sure < lo:
                entry[1] = min(entry[1], left - sure + 1)
                return False
        result = self._follow(self.leader, lo, hi)
        if hi == cap:
            if result:
                entry[0] = max(entry[0], lo)
            else:
                entry[1] = min(entry[1], lo)
        elif lo == 0:
            if result:
                entry[2] = min(entry[2], hi)
            else:
                entry[3] = max(entry[3], hi)
        else:
            if entry[4] is None:
                entry[4] = {}
            entry[4][(lo, hi)] = result
        return result

    def _sure_tricks(self, seat: int) -> int:
        """Tricks ``seat`` wins for certain by leading its cards that no other card left can beat, one
        after the other (partners' cards counted as opponents'; jokers not counted)."""
        k = self.k
        hand = self.hands[seat] & ~k.joker_mask
        if not hand:
            return 0
        others = self.present & ~self.hands[seat]
        sure = 0
        for suit in range(4):
            mine = hand & k.suit_mask[suit]
            if not mine:
                continue
            row = k.power[suit]
            top = 0
            for b in _bits(others):
                if row[b] > top:
                    top = row[b]
            for b in _bits(mine):
                if row[b] > top:
                    sure += 1
        return sure

    def _follow(self, seat: int, lo: int, hi: int) -> bool:
        """``seat`` plays a card to the trick in progress (or leads it)."""
        self.nodes += 1
        k = self.k
        side = self.on_side[seat]
        for move in self._ordered(seat):
            if self._try(seat, move, lo, hi) == side:
                return side
        return not side

    def _try(self, seat: int, move: tuple[int, int], lo: int, hi: int) -> bool:
        k = self.k
        b, named = move
        bit = 1 << b
        hands = self.hands
        saved_hand = hands[seat]
        hands[seat] = (saved_hand & ~bit) | k.under[b]
        saved = (self.led, self.best, self.winner, self.unled)
        trick = self.trick
        if not trick:
            led = named if named >= 0 else k.suit[b]
            self.led, self.best, self.winner = led, k.power[led][b], seat
            self.unled &= ~(1 << led)
        else:
            led = self.led
            strength = k.power[led][b] if named < 0 else (k.power[named][b] if named == led else 0)
            if strength > self.best:
                self.best, self.winner = strength, seat
        trick.append((seat, b, named))
        try:
            if len(trick) < k.trick_size:
                return self._follow(k.next_seat[seat], lo, hi)
            return self._end_trick(lo, hi)
        finally:
            trick.pop()
            hands[seat] = saved_hand
            self.led, self.best, self.winner, self.unled = saved

    def _end_trick(self, lo: int, hi: int) -> bool:
        k = self.k
        winner = self.winner
        taken = 1 if self.on_side[winner] else 0
        trick = self.trick
        cards = 0
        for _, b, _ in trick:
            cards |= 1 << b
        saved = (self.leader, self.present, trick)
        self.won[winner] += 1
        self.played += 1
        self.present &= ~cards
        self.leader = winner
        self.trick = []
        try:
            if self.played >= k.hand_size or (k.ends_early and taken) or (
                    k.trick_check is not None and k.checked(tuple(self.won), self.played)):
                return lo <= taken <= hi
            return self._lead(lo - taken, hi - taken)
        finally:
            self.won[winner] -= 1
            self.played -= 1
            self.leader, self.present, self.trick = saved

    # --- move generation and ordering ----------------------------------------------------------

    def _ordered(self, seat: int) -> list[tuple[int, int]]:
        """The seat's plays, touching cards merged, the likeliest best first."""
        k = self.k
        pos_trick = self.trick
        hand = self.hands[seat]
        moves = self._moves(seat, hand)
        if len(moves) > 1:
            moves = self._merged(moves)
        if len(moves) < 2:
            return moves
        if not pos_trick:
            return self._lead_order(seat, moves)
        led, best = self.led, self.best
        power = k.power
        partner_wins = self.on_side[self.winner] == self.on_side[seat]
        def strength(m: tuple[int, int]) -> int:
            b, named = m
            return power[led][b] if named < 0 else (power[named][b] if named == led else 0)
        if self.lows_first or partner_wins:
            return sorted(moves, key=strength)
        winners = sorted((m for m in moves if strength(m) > best), key=strength)
        losers = sorted((m for m in moves if strength(m) <= best), key=strength)
        return winners + losers

    def _lead_order(self, seat: int, moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
        k = self.k
        others = self.present & ~self.hands[seat]
        tops, rest = [], []
        for m in moves:
            b, named = m
            row = k.power[named if named >= 0 else k.suit[b]] if k.suit[b] < 4 or named >= 0 else k.power[0]
            beaten = any(row[o] >= row[b] for o in _bits(others & (k.suit_mask[k.suit[b]] | k.joker_mask)))
            (rest if beaten else tops).append(m)
        if self.lows_first:
            return rest + tops
        return tops + rest

    def _moves(self, seat: int, hand: int) -> list[tuple[int, int]]:
        k = self.k
        if not self.trick:
            free = hand & k.free_mask
            if not free:
                return [(b, -1) for b in _bits(hand)]
            plain = hand & ~k.joker_mask
            unled = [s for s in range(4) if self.unled >> s & 1]
            suits = k.table.joker_lead_suits(unled, k.hand_size - self.played, not plain)
            out = [(b, -1) for b in _bits(plain)]
            for b in _bits(free):
                out.extend((b, s) for s in suits)
            return out
        legal = hand & k.suit_mask[self.led]
        if not legal:
            legal = (hand & k.free_mask) if k.compulsory and hand & k.free_mask else hand
        if k.any_time and hand & k.joker_mask:
            legal |= hand & k.free_mask
        if k.named_follow and legal & k.free_mask and hand & k.joker_mask:
            out = [(b, -1) for b in _bits(legal & ~k.free_mask)]
            for b in _bits(legal & k.free_mask):
                # named as the suit led it wins; named as any other suit it is thrown and cannot win
                other = 0 if self.led else 1
                out.extend([(b, self.led), (b, other)])
            return out
        return [(b, -1) for b in _bits(legal)]

    def _merged(self, moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """One play for each run of touching cards (no card still in play between them) of a suit."""
        k = self.k
        present, suit, mergeable, covers = self.present, k.suit, k.mergeable, k.cover_mask
        out = []
        prev = -1
        for m in moves:
            b, named = m
            if (named < 0 and prev >= 0 and suit[b] == suit[prev] and mergeable[suit[b]] and not covers >> b & 1
                    and not present & ((1 << b) - (2 << prev))):
                prev = b
                continue
            out.append(m)
            prev = b if named < 0 and not covers >> b & 1 else -1
        return out


class EngineSolver:
    """The same answers searched through the engine itself (clone and apply), for hands the kernel cannot
    compile; memoised on the hands, the trick and the tricks won."""

    def __init__(self, state: Any) -> None:
        self.state = state
        contract = state.contract
        self.goal, self.target = contract.goal, contract.tricks
        self.side = state.contracting_side
        self.memo: dict[Any, int] = {}

    def value(self) -> int:
        return self._decode(self._best(self.state))

    def card_values(self) -> dict[int, int]:
        out = {}
        for action in self.state.legal_actions():
            if action >= FIRST_STEP_ACTION:
                continue
            child = self.state.clone()
            child.apply(action)
            out[action] = self._decode(self._best(child))
        return out

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


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
