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

from .kernel import KernelError, PlayKernel, Position, card_bits

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
    """A search of one hand from one position (the transposition table is kept between calls)."""

    def __init__(self, kernel: PlayKernel, pos: Position) -> None:
        self.k = kernel
        self.root = pos
        contract = kernel.contract
        self.goal = contract.goal
        self.target = contract.tricks
        self.tt: dict[Any, list[Any]] = {}
        self.shapes: dict[int, list[tuple[int, int, int]]] = {}
        self.nodes = 0
        self.on_side = [s in kernel.side for s in range(kernel.players)]

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
        return self._value(self.root, -1)

    def card_values(self) -> dict[int, int]:
        k, root = self.k, self.root
        best = self._value(root, -1)
        present = 0
        for h in root.hands:
            present |= h
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
        lo, hi = 0, left
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
        search = _Search(self, pos)
        result = search.run(lo, hi)
        self.nodes += search.nodes
        return result


class _Search:
    """One null-window search; the hot loop's tables in locals of closures (see ``run``)."""

    def __init__(self, solver: Solver, pos: Position) -> None:
        self.solver = solver
        self.pos = pos
        self.nodes = 0

    def run(self, lo: int, hi: int) -> bool:
        solver, pos, k = self.solver, self.pos, self.solver.k
        suit, power, under, suit_mask = k.suit, k.power, k.under, k.suit_mask
        free_mask, joker_mask, cover_mask, mergeable = k.free_mask, k.joker_mask, k.cover_mask, k.mergeable
        next_seat, trick_size, hand_size = k.next_seat, k.trick_size, k.hand_size
        compulsory, any_time, named_follow = k.compulsory, k.any_time, k.named_follow
        ends_early, check = k.ends_early, k.trick_check is not None
        on_side, tt, shapes = solver.on_side, solver.tt, solver.shapes
        relative = k.relative
        quick = not ends_early and not check
        lows = solver.goal == "none"
        key_unled = bool(free_mask) and k.table.joker_lead == "unled-suit"
        joker_lead_suits = k.table.joker_lead_suits
        hands = list(pos.hands)
        won = list(pos.won)
        present = 0
        for h in hands:
            present |= h
            for b in card_bits(h & cover_mask):
                present |= under[b]
        for _, b, _ in pos.trick:
            present |= 1 << b
        owners = 0  # each card in a hand as 3 bits: its holder's seat + 1 (the table's key, squeezed)
        for seat, h in enumerate(hands):
            for b in card_bits(h):
                owners |= (seat + 1) << (3 * b)
        # cards in play, tricks played, suits not led, nodes, owners
        state = [present, pos.played, pos.unled, 0, owners]

        def top_others(seat: int) -> list[int]:
            """Per suit led, the strongest card the other seats hold (or could turn up)."""
            others = state[0] & ~hands[seat]
            tops = [0, 0, 0, 0]
            for s in range(5):
                m = others & suit_mask[s]
                if not m:
                    continue
                cands = [m.bit_length() - 1] if mergeable[s] else card_bits(m)
                for b in cands:
                    for led in range(4):
                        p = power[led][b]
                        if p > tops[led]:
                            tops[led] = p
            return tops

        def sure_tricks(seat: int, tops: list[int]) -> int:
            hand = hands[seat] & ~joker_mask
            sure = 0
            for s in range(4):
                row, top = power[s], tops[s]
                for b in card_bits(hand & suit_mask[s]):
                    if row[b] > top:
                        sure += 1
            return sure

        def lead(leader: int, lo: int, hi: int) -> bool:
            played = state[1]
            left = hand_size - played
            cap = 1 if ends_early else left
            if lo < 0:
                lo = 0
            if hi > cap:
                hi = cap
            if lo > hi:
                return False
            if lo == 0 and hi == cap:
                return True
            if left == 1 and not state[0] & free_mask:  # the last trick: every card forced
                b = hands[leader].bit_length() - 1
                row = power[suit[b]]
                best, winner, seat = row[b], leader, leader
                for _ in range(trick_size - 1):
                    seat = next_seat[seat]
                    b = hands[seat].bit_length() - 1
                    if row[b] > best:
                        best, winner = row[b], seat
                return lo <= (1 if on_side[winner] else 0) <= hi
            if relative:  # each suit's cards by their holders, in order, the cards gone squeezed out
                present, owners = state[0], state[4]
                key: tuple[Any, ...] = (leader,)
                for m in suit_mask:
                    left_in_suit = present & m
                    runs = shapes.get(left_in_suit)
                    if runs is None:
                        runs = shapes[left_in_suit] = _runs(left_in_suit, 3)
                    squeezed = 0
                    for start, mask, to in runs:
                        squeezed |= ((owners >> start) & mask) << to
                    key += (squeezed,)
            else:
                key = (*hands, leader)
            if key_unled:
                key += (state[2],)
            if check:
                key += tuple(won)
            entry = tt.get(key)
            if entry is None:
                entry = tt[key] = [0, cap + 1, cap, -1, None, -1]
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
            tops = top_others(leader)
            if quick and hi == cap:
                sure = sure_tricks(leader, tops)
                if on_side[leader]:
                    if sure >= lo:
                        if sure > entry[0]:
                            entry[0] = sure
                        return True
                elif left - sure < lo:
                    if left - sure + 1 < entry[1]:
                        entry[1] = left - sure + 1
                    return False
            result = play(leader, 0, -1, -1, -1, 0, lo, hi, tops, entry)
            if hi == cap:
                if result:
                    if lo > entry[0]:
                        entry[0] = lo
                elif lo < entry[1]:
                    entry[1] = lo
            elif lo == 0:
                if result:
                    if hi < entry[2]:
                        entry[2] = hi
                elif hi > entry[3]:
                    entry[3] = hi
            else:
                if entry[4] is None:
                    entry[4] = {}
                entry[4][(lo, hi)] = result
            return result

        def leads(seat: int, tops: list[int]) -> list[int]:
            """The leader's plays (a move is ``bit | (named + 1) << 8``), winners first, then low cards."""
            hand = hands[seat]
            present = state[0]
            free = hand & free_mask
            plain = hand if not free else hand & ~joker_mask
            firsts: list[int] = []
            lasts: list[int] = []
            prev = -1
            rest = plain
            while rest:
                low_bit = rest & -rest
                rest ^= low_bit
                b = low_bit.bit_length() - 1
                if (prev >= 0 and suit[b] == suit[prev] and mergeable[suit[b]] and not cover_mask >> b & 1
                        and not present & ((1 << b) - (2 << prev))):
                    prev = b
                    continue
                prev = b if not cover_mask >> b & 1 else -1
                s = suit[b]
                if s < 4 and power[s][b] > tops[s] and not lows:
                    firsts.append(b)
                else:
                    lasts.append(b)
            firsts.reverse()
            moves = firsts + lasts
            if free:
                unled = [s for s in range(4) if state[2] >> s & 1]
                suits = joker_lead_suits(unled, hand_size - state[1], not plain)
                for b in card_bits(free):
                    moves.extend(b | (s + 1) << 8 for s in suits)
            return moves

        def follows(seat: int, led: int, best: int, winner: int, last: bool) -> list[int]:
            hand = hands[seat]
            legal = hand & suit_mask[led]
            if not legal:
                legal = (hand & free_mask) if compulsory and hand & free_mask else hand
            if any_time and hand & joker_mask:
                legal |= hand & free_mask
            named = 0
            if named_follow and legal & free_mask and hand & joker_mask:
                named = legal & free_mask
                legal &= ~free_mask
            present = state[0]
            row = power[led]
            low: list[int] = []
            high: list[int] = []
            prev = -1
            rest = legal
            while rest:
                low_bit = rest & -rest
                rest ^= low_bit
                b = low_bit.bit_length() - 1
                if (prev >= 0 and suit[b] == suit[prev] and mergeable[suit[b]] and not cover_mask >> b & 1
                        and not present & ((1 << b) - (2 << prev))):
                    prev = b
                    continue
                prev = b if not cover_mask >> b & 1 else -1
                (high if row[b] > best else low).append(b)
            if len(low) + len(high) > 1 and suit[(low or high)[0]] != led:  # void: by strength
                low.sort(key=row.__getitem__)
                high.sort(key=row.__getitem__)
            if lows:  # misère: the side ducks with its highest loser; the others stay low
                if on_side[seat]:
                    low.reverse()
                moves = low + high
            elif on_side[winner] == on_side[seat]:
                moves = low + high
            else:
                moves = high + low
            if named:
                other = 0 if led else 1
                for b in card_bits(named):
                    moves.extend((b | (led + 1) << 8, b | (other + 1) << 8))
            return moves

        def play(seat: int, count: int, led: int, best: int, winner: int, tmask: int, lo: int, hi: int,
                 tops: list[int] | None, entry: list[Any] | None = None) -> bool:
            state[3] += 1
            side = on_side[seat]
            last = count == trick_size - 1
            if count == 0:
                moves = leads(seat, tops or [])
                if entry is not None and entry[5] >= 0 and entry[5] in moves:
                    moves.remove(entry[5])
                    moves.insert(0, entry[5])
            else:
                moves = follows(seat, led, best, winner, last)
            hand = hands[seat]
            unled = state[2]
            owners = state[4]
            code = seat + 1
            for m in moves:
                b = m & 255
                bit = 1 << b
                hands[seat] = (hand & ~bit) | under[b]
                state[4] = owners - (code << (3 * b))
                if count == 0:
                    named = (m >> 8) - 1
                    led2 = named if named >= 0 else suit[b]
                    best2, winner2 = power[led2][b], seat
                    state[2] = unled & ~(1 << led2)
                else:
                    led2 = led
                    if m < 256:
                        strength = power[led][b]
                    else:
                        strength = power[led][b] if (m >> 8) - 1 == led else 0
                    best2, winner2 = (strength, seat) if strength > best else (best, winner)
                if not last:
                    result = play(next_seat[seat], count + 1, led2, best2, winner2, tmask | bit, lo, hi, None)
                else:
                    result = end_trick(winner2, tmask | bit, lo, hi)
                hands[seat] = hand
                state[2] = unled
                state[4] = owners
                if result == side:
                    if entry is not None:
                        entry[5] = m
                    return side
            return not side

        def end_trick(winner: int, cards: int, lo: int, hi: int) -> bool:
            taken = 1 if on_side[winner] else 0
            present, played = state[0], state[1]
            won[winner] += 1
            state[0], state[1] = present & ~cards, played + 1
            if played + 1 >= hand_size or (ends_early and taken) or (check and k.checked(tuple(won), played + 1)):
                result = lo <= taken <= hi
            else:
                result = lead(winner, lo - taken, hi - taken)
            won[winner] -= 1
            state[0], state[1] = present, played
            return result

        if not pos.trick:
            result = lead(pos.leader, lo, hi)
        else:
            seat = pos.trick[-1][0]
            tmask = sum(1 << b for _, b, _ in pos.trick)
            result = play(next_seat[seat], len(pos.trick), pos.led, pos.best, pos.winner, tmask, lo, hi, None)
        self.nodes = state[3]
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


def _runs(cards: int, width: int) -> list[tuple[int, int, int]]:
    """The runs of consecutive bits of ``cards`` as (first bit, mask, bit it moves to), for masks of ``width``
    bits a card: a mask squeezed by these runs keeps only the order of the cards, the others squeezed out."""
    runs = []
    to = 0
    m = cards
    while m:
        start = (m & -m).bit_length() - 1
        x = m >> start
        length = ((x + 1) & ~x).bit_length() - 1
        runs.append((start * width, (1 << (length * width)) - 1, to * width))
        to += length
        m &= ~(((1 << length) - 1) << start)
    return runs
