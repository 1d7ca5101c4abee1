"""Defending against a misère: make a contractor who must lose every trick win one.

The defenders attack a suit the contractor still holds: they lead low into it, so that each lead
costs the contractor one of its low cards, until a lead comes under its lowest card and it must win.
Following, a defender keeps the trick under the card the contractor would have to play (it never
rescues the contractor by overtaking), and once the contractor cannot lose the trick it sheds a high
card.  Where the contractor ducks whatever it plays, the defender keeps its cards under the contractor's lowest
for a later lead, and leaves the trick to a fellow defender when it has no attack of its own.  A lead above the
contractor's lowest card of a suit is worth the attack the suit keeps once the contractor ducks it.
Void, a defender throws the cards that attack nothing first: those of suits the contractor
has shown out of, and, against an open misère, those above every card the contractor holds.

Against an open misère the contractor's hand is public once the first trick is complete
(``Observation.open_hand``); before that, and against a closed misère, a defender knows only the
suits the contractor has shown out of and the cards still unseen.

Compiled, ``MisereDefender`` is an extension type: ``defence.pxd`` gives its leads' and sheds' keys C-typed locals.
"""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.engine.reading import void_marks
from fivehundred.engine.state import JOKER_LEAD
from fivehundred.rules.cards import JOKER_BASE, NO_SUIT

from .heuristic import HeuristicPlayer
from .situation import _card, _Play
from .trick_reading import _count_below

OVERTAKE_RISK = 0.4
"""How likely a fellow defender must overtake our lead under the contractor's lowest card (it holds cards of the
suit, all above that card) before we draw its cards first: 0.3 to 0.45 let the same number of open misères through
on 2,431 replayed hands (``benchmarks/misere_defence.py``), more at 0.2 or 0.5."""


def _none_of(unseen: int, cards: int, held: int) -> float:
    """The chance that ``held`` cards dealt from ``unseen`` include none of ``cards`` given ones."""
    none = 1.0
    for i in range(held):
        none *= max(0, unseen - cards - i) / max(1, unseen - i)
    return none


def _excess(held: list[int], ours: list[int]) -> int:
    """How far the cards ``ours`` (powers) under a holding's cards ``held`` (powers, lowest first) outnumber its own
    below each, at its weakest card: positive when leading low again and again must force it."""
    excess = -len(held)
    for i, h in enumerate(held):
        below = 0
        for x in ours:
            if x < h:
                below += 1
        excess = max(excess, below - i)
    return excess


class MisereDefender(HeuristicPlayer):
    """The heuristic player with the defence against misère of a club player."""

    leads_for_a_fellows_throw = True
    """Where a lead of ours under the contractor's last card of a suit is blocked (a fellow defender would have to
    overtake it), a lead above the contractor's cards of a suit that fellow defender has shown out of comes next
    after a lead the contractor must win: the contractor ducks, and the fellow defender throws the card that blocks
    the attack, one above every card the contractor holds of that suit (``_spare``)."""
    throws_a_blocker_between = True
    """A void defender throws first, beside the cards above every card the contractor holds of a suit that would
    overtake a fellow defender's lead under the contractor's lowest, such a card lying between the contractor's
    cards, where none of ours lies under its lowest (False: only the cards above every one of them)."""
    draws_before_the_low_lead = True
    """Holding a card under the contractor's lowest of a suit and one above all its cards of the suit, where it holds
    two or more and a fellow defender may still hold the suit, the defender leads the high card first: the contractor
    ducks, the fellow defender's cards of the suit go (it might have had to overtake the low lead), and the low card
    forces next (False: the low card first, unless the fellow defender is likely to overtake it, ``blocked``)."""
    void_suit_led_last = True
    """Of the leads that attack nothing, one in a suit the contractor has no card of (it throws its most dangerous
    card) comes after those in suits it holds, even above its last card of the suit (False: the lowest card
    first)."""
    joker_before_a_blocked_attack = True
    """A defender who must play a free joker when void (rule 21) leads it while its only leads under the
    contractor's lowest card are in suits a fellow defender would have to overtake (False: while any lead of ours
    is under the contractor's lowest card of its suit, the joker is kept)."""

    fellows_joker_blocks = True
    """A lead under the contractor's lowest card of a suit counts as blocked also where a fellow defender, out of the
    suit, may hold the free joker: it must play it (rule 21) and take the trick (False: a fellow out of the suit
    never blocks)."""

    leaves_the_lead_to_a_fellow = True
    """Following to a trick a fellow defender holds and the contractor ducks, a defender without the free joker takes
    the lead from it only with an attack of its own cards (False: also where the unseen cards, perhaps the fellow's,
    outnumber the contractor's low cards of a suit)."""

    takes_the_lead_to_lead_the_joker = True
    """Following to a trick a fellow defender holds, a defender who must play a free joker when void (rule 21), out
    of a suit whose unseen cards lie partly under the contractor's lowest of it (a fellow's attack there, which our
    joker would take), takes the lead, to lead the joker away (False: it leaves the lead with the fellow)."""

    def _targets(self, p: _Play) -> tuple[int, ...]:
        """The seats that must lose every trick: the contractor, and its partners who play."""
        contract = p.obs.contract
        if contract is not None and contract.partner_plays:
            team = p.info.team_of
            return tuple(s for s in p.opponents if team[s] == team[p.contractor]) or (p.contractor,)
        return (p.contractor,)

    def _held_by(self, p: _Play, seat: int, suit: int) -> list[int] | None:
        """Powers of ``seat``'s cards of ``suit``, lowest first, when known (an exposed hand,
        or [] once it has shown out); None when unknown."""
        if p.void[seat] >> suit & 1:
            return []
        shown = p.shown.get(seat)
        if shown is None:
            return None
        row = p.power[suit]
        suit_of = p.suit_of
        held = [row[c] for c in shown if suit_of[c] == suit]
        held.sort()
        return held

    def _defending(self, p: _Play) -> bool:
        return p.seat != p.contractor and p.info.team_of[p.seat] != p.info.team_of[p.contractor]

    # --- following ----------------------------------------------------------------------------

    def _defend_follow(self, p: _Play, legal: Sequence[int]) -> int | None:
        if not self._defending(p):
            return None
        led, best, winner = self._trick_state(p)
        following = led != NO_SUIT and all(a < JOKER_LEAD and p.suit_of[a] == led for a in legal)
        if not following:
            return self._misere_shed(p, legal)
        strength = {a: self._strength(p, a, led) for a in legal}
        targets = self._targets(p)
        to_play = [s for s in self._remaining(p) if s in targets]
        if not to_play:
            if winner in targets:
                under = [a for a in legal if strength[a] < best]
                # duck; when we cannot, the trick is ours anyway: shed the highest card
                return max(under or legal, key=strength.__getitem__)
            return self._safe_trick(p, legal, strength, best, winner, targets)
        held = self._held_by(p, to_play[0], led) if len(to_play) == 1 else None
        if held is None:
            # unknown cards: keep the trick where it is, the highest card that stays under it
            under = [a for a in legal if strength[a] < best]
            return max(under, key=strength.__getitem__) if under else min(legal, key=strength.__getitem__)
        above = [h for h in held if h > best]
        if not above:  # it ducks whatever we play
            return self._safe_trick(p, legal, strength, best, winner, targets)
        if held[0] < best:
            # it ducks this trick whatever we play: keep the cards under its lowest, to lead under it later
            spare = [a for a in legal if strength[a] > held[0]]
            legal = spare or legal
        # stay under the contractor's next card, so that it is forced or ducks with its lowest
        keep = [a for a in legal if strength[a] < above[0]]
        if keep:
            return max(keep, key=strength.__getitem__)
        return min(legal, key=strength.__getitem__)

    def _safe_trick(self, p: _Play, legal: Sequence[int], strength: dict[int, int], best: int, winner: int,
                    targets: Sequence[int]) -> int:
        """A trick the contractor does not win: shed high, but leave the lead with a fellow defender who holds it
        when we have nothing to attack with."""
        if p.info.team_of[winner] == p.info.team_of[p.seat] and not self._has_attack(p, targets):
            under = [a for a in legal if strength[a] < best]
            if under:
                return max(under, key=strength.__getitem__)
        return max(legal, key=strength.__getitem__)

    def _has_attack(self, p: _Play, targets: Sequence[int]) -> bool:
        """Could we lead to force the contractor: a card under all its cards of a suit, or a card
        of a suit where our low cards outnumber its own (``_excess_of_ours``)?  (Unknown hands: assume so.)"""
        suit_of = p.suit_of
        hand = p.obs.hand
        for t in targets:
            for s in {suit_of[c] for c in hand} - {NO_SUIT}:
                held = self._held_by(p, t, s)
                if held is None:
                    return True
                if held and (self._under(p, s, held[0]) or self._excess_of_ours(p, s, held, hand) > 0):
                    return True
        return self.takes_the_lead_to_lead_the_joker and self._joker_blocks_a_fellow(p, targets)

    def _joker_blocks_a_fellow(self, p: _Play, targets: Sequence[int]) -> bool:
        """We hold a free joker we must play when void (rule 21), and are out of a suit in which an unseen card lies
        under the contractor's lowest: a fellow defender's lead of it would fall to our joker."""
        hand = p.obs.hand
        if not any(c >= JOKER_BASE for c in hand) or not void_marks(p.table)[1]:
            return False
        ours = {p.suit_of[c] for c in hand}
        for t in targets:
            for s in range(4):
                held = None if s in ours else self._held_by(p, t, s)
                if held and any(p.power[s][c] < held[0] for c in p.out[s]):
                    return True
        return False

    # --- leading ------------------------------------------------------------------------------

    def _defend_lead(self, p: _Play, legal: Sequence[int]) -> int | None:
        if not self._defending(p):
            return None
        cards = [c for c in legal if c < JOKER_LEAD]
        if not cards:
            return legal[0]
        suit_of = p.suit_of
        targets = self._targets(p)
        holdings = {(t, s): self._held_by(p, t, s) for t in targets for s in {suit_of[c] for c in cards} - {NO_SUIT}}
        # a suit where a card of ours lies under all the target's, but a partner may hold only
        # cards above them (and would have to overtake): lead our highest of it first to draw
        # the partner's cards, and keep the low card for when the partner is out of the suit
        blocked: set[int] = set()
        for (_, s), held in holdings.items():
            if held and self._under(p, s, held[0]) and self._partner_overtakes(p, s, held[0]):
                blocked.add(s)

        unblocking = self._fellow_voids(p) if self.leads_for_a_fellows_throw and any(
            s in blocked and held and len(held) == 1 for (_, s), held in holdings.items()) else set()
        best, least = cards[0], self._attack(p, cards[0], targets, holdings, blocked, unblocking)
        for c in cards[1:]:  # min(cards, key=...): the first of the lowest
            key = self._attack(p, c, targets, holdings, blocked, unblocking)
            if key < least:
                best, least = c, key
        if len(cards) < len(legal) and void_marks(p.table)[1] and not self._forces_now(p, cards, holdings, blocked):
            return self._joker_lead(p, legal, targets)
        return best

    def _forces_now(self, p: _Play, cards: Sequence[int], holdings: dict[tuple[int, int], list[int] | None],
                    blocked: set[int]) -> bool:
        """Does one of ``cards`` lead under every card a target holds of its suit (and, with
        ``joker_before_a_blocked_attack``, of a suit a fellow defender would not have to overtake, not ``blocked``)?"""
        skipped = blocked if self.joker_before_a_blocked_attack else set()
        for c in cards:
            s = p.suit_of[c]
            if s != NO_SUIT and s not in skipped:
                for (_, suit), held in holdings.items():
                    if suit == s and held and held[0] > p.power[s][c]:
                        return True
        return False

    def _joker_lead(self, p: _Play, legal: Sequence[int], targets: tuple[int, ...]) -> int:
        """Where a void defender must play a free joker (rule 21), it is led while no lead forces the contractor
        (``_forces_now``): kept, it would take the trick a fellow defender's low lead was to make the contractor win.
        It names the suit the contractor holds most of (it follows with one of them; an unknown holding counts as
        middling)."""
        def most_held(a: int) -> int:
            suit = (a - JOKER_LEAD) % 4
            most = -1
            for t in targets:
                held = self._held_by(p, t, suit)
                most = max(most, 5 if held is None else len(held))
            return most

        return max((a for a in legal if a >= JOKER_LEAD), key=most_held)

    def _attack(self, p: _Play, c: int, targets: tuple[int, ...], holdings: dict[tuple[int, int], list[int] | None],
                blocked: set[int], unblocking: set[int]) -> tuple[int, float, int]:
        """How well leading ``c`` attacks the targets, lowest first: a lead under a card a target must
        play, then one that lets a fellow defender throw its card of a ``blocked`` suit (``unblocking``: suits it has
        shown out of), then one that draws its cards of a blocked suit, then one that draws or waits, then a lead
        into an unknown holding, then the rest."""
        s = p.suit_of[c]
        if s == NO_SUIT:
            return (4, 0.0, 0)
        row = p.power[s]
        mine = row[c]
        best: tuple[int, float, int] = (3, 0.0, mine)
        for t in targets:
            held = holdings[t, s]
            if held == []:
                continue  # it throws its danger on this lead
            if held is None:
                below = 0
                for x in p.out[s]:
                    if row[x] < mine:
                        below += 1
                key: tuple[int, float, int] = (2, below, mine)
            elif s in blocked:
                if mine > held[0] and len(held) < 2:
                    key = (3, 0.0, mine)  # it would duck with its last card of the suit: nothing left to force
                elif mine > held[0]:
                    key = (0, 1.0, -mine)  # draw the partner's cards of the suit, highest first
                else:
                    key = (1, 0.5, mine)  # the partner would overtake: keep it for later
            elif held[0] > mine:
                key = (0, 0.0, mine)  # it must win unless a defender overtakes
            elif s in unblocking:
                key = (0, 0.5, mine)  # it ducks and a fellow defender, void, throws a card that blocks our attack
            elif self.draws_before_the_low_lead and mine > held[-1] and len(held) >= 2 and self._fellow_holds(p, s) \
                    and self._under(p, s, held[0]):
                key = (0, -1.0, -mine)  # it ducks; the fellow defender's cards of the suit go before our low lead
            else:
                # it ducks with its highest card under ours: what attack the suit has left then
                after = self._excess_after(p, s, held, mine)
                key = (1, -after, mine) if after is not None else (3, 0.0, mine)
            if key < best:
                best = key
        if self.void_suit_led_last and best == (3, 0.0, mine):
            for t in targets:
                if holdings[t, s] != []:
                    return best
            return (3, 0.5, mine)  # every target throws its danger: after a lead that costs it a card of the suit
        return best

    def _partner_overtakes(self, p: _Play, suit: int, low: int) -> bool:
        """Might a fellow defender have to beat the contractor's lowest card of ``suit`` (power
        ``low``) when we lead under it: it may hold cards of the suit, and every unseen one lies above, or the
        chance that it holds some of those above and none of those below is over ``OVERTAKE_RISK``?"""
        team = p.info.team_of
        others = []
        s = p.next_seat[p.seat]
        while s != p.seat:  # the seats in the play, after ours
            if team[s] != team[p.contractor]:
                others.append(s)
            s = p.next_seat[s]
        if not others:
            return False
        held = len(p.obs.hand) * len(others)  # at our lead each of them holds as many cards as we do
        total = sum(len(o) for o in p.out)
        joker = self._fellows_joker(p, others, held, total)
        if all(p.void[s] >> suit & 1 for s in others):
            return joker > OVERTAKE_RISK
        row = p.power[suit]
        unseen = [row[c] for c in p.out[suit]]
        if not unseen:
            return joker > OVERTAKE_RISK
        lo = sum(1 for x in unseen if x < low)
        if lo == 0:
            return True
        none = _none_of(total, len(unseen), held)
        return _none_of(total, lo, held) - none + none * joker > OVERTAKE_RISK

    def _fellows_joker(self, p: _Play, others: Sequence[int], held: int, total: int) -> float:
        """The chance that a fellow defender holds the free joker it must play when void (rule 21), and so takes a
        trick in a suit it is out of (0 without ``fellows_joker_blocks``)."""
        if not self.fellows_joker_blocks or not p.out[NO_SUIT] or not void_marks(p.table)[1]:
            return 0.0
        if all(p.void[s] >> NO_SUIT & 1 for s in others):
            return 0.0
        return min(1.0, held / max(1, total))

    def _excess_after(self, p: _Play, suit: int, held: list[int], mine: int) -> float | None:
        """``_exposed_excess`` once we lead ``mine`` (power) above the exposed holding's lowest card and it ducks
        with its highest card under it; None when that was its last card of the suit."""
        j = max(i for i, h in enumerate(held) if h < mine)
        rest = held[:j] + held[j + 1:]
        if not rest:
            return None
        row = p.power[suit]
        hand = [x for x in p.obs.hand if p.suit_of[x] != suit or row[x] != mine]
        return self._exposed_excess(p, suit, rest, hand)

    def _excess_of_ours(self, p: _Play, suit: int, held: list[int], hand: Sequence[int]) -> float:
        """``_exposed_excess`` counting our own low cards only, with ``leaves_the_lead_to_a_fellow``, unless we hold
        the joker: the unseen ones may be a fellow defender's, whose lead the joker of ours would block."""
        if not self.leaves_the_lead_to_a_fellow or any(c >= JOKER_BASE for c in hand):
            return self._exposed_excess(p, suit, held, hand)
        row = p.power[suit]
        return _excess(held, [row[x] for x in hand if p.suit_of[x] == suit])

    def _exposed_excess(self, p: _Play, suit: int, held: list[int], hand: Sequence[int]) -> float:
        """How far the defenders' low cards outnumber an exposed holding's, at its weakest card:
        positive when leading low in ``suit`` again and again must force it."""
        row = p.power[suit]
        return _excess(held, [row[x] for x in p.out[suit]] + [row[x] for x in hand if p.suit_of[x] == suit])

    # --- void ---------------------------------------------------------------------------------

    def _defend_shed(self, p: _Play, legal: Sequence[int]) -> int | None:
        if not self._defending(p):
            return None
        targets = self._targets(p)
        attack = self._own_attack(p, targets)
        best, most = legal[0], self._spare(p, targets, legal[0], attack)
        for a in legal[1:]:  # max(legal, key=...): the first of the highest
            key = self._spare(p, targets, a, attack)
            if key > most:
                best, most = a, key
        return best

    def _spare(self, p: _Play, targets: tuple[int, ...], a: int, attack: bool) -> tuple[int, int, int, int, int]:
        """How freely a void defender throws ``a``, highest first: cards that would overtake a fellow defender's
        lead under a target's lowest card (unblocking its attack: the suit we hold fewest of first), those above every
        card of the suit a target holds and, with ``throws_a_blocker_between``, those between its cards where none of
        ours lies under its lowest; then the other cards that cannot lead under any card a target may hold, by the
        unseen cards under them and by height (lowest first where we hold an ``attack`` of our own,
        ``_own_attack``: the high cards are its entries)."""
        c = _card(a)
        s = p.suit_of[c]
        if s == NO_SUIT:
            return (1, 0, 0, 1 << 30, 0)
        row = p.power[s]
        mine = row[c]
        useless = 1
        blocks = 0
        for t in targets:
            held = self._held_by(p, t, s)
            if held is None:
                useless = 0  # it may still lead under a card of the contractor's
            else:
                for h in held:
                    if h > mine:
                        useless = 0
                        break
                if held and not blocks:
                    blocks = int(_count_below(row, p.out[s], held[0]) > 0 and self._fellow_holds(p, s))
        if useless and blocks:  # the suit we can void soonest first
            return (1, 1, -self._held_of(p, s), self._below(p, c), mine)
        if useless and attack:
            return (1, 0, 0, -self._below(p, c), -mine)  # keep the high cards: entries for our attack
        if not useless and self.throws_a_blocker_between and self._blocks_between(p, targets, s, mine):
            return (1, 1, -self._held_of(p, s), self._below(p, c), mine)
        return (useless, 0, 0, self._below(p, c), mine)

    def _blocks_between(self, p: _Play, targets: tuple[int, ...], suit: int, mine: int) -> bool:
        """Would our card of ``suit`` (power ``mine``), above a target's lowest card of the suit, overtake a fellow
        defender's lead under that card, where none of ours lies under it?"""
        row = p.power[suit]
        for t in targets:
            held = self._held_by(p, t, suit)
            if not held or held[0] > mine:
                continue
            if self._under(p, suit, held[0]):
                return False  # the suit is our own attack
            if _count_below(row, p.out[suit], held[0]) > 0 and self._fellow_holds(p, suit):
                return True
        return False

    def _own_attack(self, p: _Play, targets: tuple[int, ...]) -> bool:
        """Do we hold a card under a target's lowest card of a suit it holds, or more cards under one of its cards
        than it holds under that card?"""
        suit_of = p.suit_of
        hand = p.obs.hand
        for s in {suit_of[c] for c in hand} - {NO_SUIT}:
            row = p.power[s]
            ours = [row[c] for c in hand if suit_of[c] == s]
            for t in targets:
                held = self._held_by(p, t, s)
                if held and _excess(held, ours) > 0:
                    return True
        return False

    def _held_of(self, p: _Play, suit: int) -> int:
        """Our cards of ``suit``."""
        suit_of = p.suit_of
        return sum(1 for c in p.obs.hand if suit_of[c] == suit)

    def _under(self, p: _Play, suit: int, low: int) -> bool:
        """Do we hold a card of ``suit`` under the power ``low``?"""
        row = p.power[suit]
        return any(p.suit_of[c] == suit and row[c] < low for c in p.obs.hand)

    def _fellow_voids(self, p: _Play) -> set[int]:
        """The suits a fellow defender has shown out of."""
        team = p.info.team_of
        voids = 0
        s = p.next_seat[p.seat]
        while s != p.seat:
            if team[s] != team[p.contractor]:
                voids |= p.void[s]
            s = p.next_seat[s]
        return {suit for suit in range(4) if voids >> suit & 1}

    def _fellow_holds(self, p: _Play, suit: int) -> bool:
        """May a fellow defender still hold cards of ``suit``?"""
        team = p.info.team_of
        s = p.next_seat[p.seat]
        while s != p.seat:
            if team[s] != team[p.contractor] and not p.void[s] >> suit & 1:
                return True
            s = p.next_seat[s]
        return False
