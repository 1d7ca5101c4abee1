"""How the rule-of-thumb players play a misère: the contractor ducks with the highest card that still loses
and sheds what most reduces its danger; the defenders lead low into a suit the contractor still holds
(``MisereDefender``, ``defence``, defends otherwise through the ``_defend_*`` methods).

Compiled, ``MiserePlay`` is an extension type: ``misere_play.pxd`` gives its methods C-typed locals.
"""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.engine.state import JOKER_LEAD
from fivehundred.rules.cards import NO_SUIT

from .evaluation import _danger
from .situation import _card, _Play
from .trick_reading import TrickReader, _count_below, _following


class MiserePlay(TrickReader):
    """The play of a misère, by the contractor and by its defenders."""

    def _hand_danger(self, p: _Play, hand: Sequence[int]) -> float:
        """Danger of a misère hand given the cards still unseen."""
        total = 0.0
        for term in self._danger_terms(p, hand)[0]:
            total += term
        return total

    def _danger_terms(self, p: _Play, hand: Sequence[int]) -> tuple[list[float], list[float]]:
        """Per card of ``hand``: its share of ``_hand_danger(p, hand)``, and that share were one of our lower
        cards of its suit gone."""
        suit_of = p.suit_of
        terms: list[float] = []
        fewer: list[float] = []
        for c in hand:
            s = suit_of[c]
            if s == NO_SUIT:
                terms.append(3.0)
                fewer.append(3.0)
                continue
            row = p.power[s]
            mine = row[c]
            others = _count_below(row, p.out[s], mine)
            own = 0
            for x in hand:
                if suit_of[x] == s and row[x] < mine:
                    own += 1
            terms.append(_danger(s, others, own))
            fewer.append(_danger(s, others, own - 1) if own else terms[-1])
        return terms, fewer

    def _misere_lead_cost(self, p: _Play, card: int) -> float:
        """The chance that leading ``card`` wins the trick (weighted heavily), plus the danger
        of the cards it leaves behind."""
        s = p.suit_of[card]
        hand = p.obs.hand
        if p.dangers is None:  # the same for every card this decision weighs
            p.dangers = self._danger_terms(p, hand)
        terms, fewer = p.dangers
        suit_of = p.suit_of
        row = p.power[s] if s != NO_SUIT else []
        mine = row[card] if s != NO_SUIT else 0
        later = 0.0  # _hand_danger of the hand less ``card``: its cards above ``card`` have one lower card fewer
        for i in range(len(hand)):
            x = hand[i]
            if x != card:
                later += fewer[i] if s != NO_SUIT and suit_of[x] == s and row[x] > mine else terms[i]
        if s == NO_SUIT:
            return 10.0 + later
        higher = lower = 0
        for x in p.out[s]:
            if row[x] > mine:
                higher += 1
            elif row[x] < mine:
                lower += 1
        unseen = 0
        for cards in p.out:
            unseen += len(cards)
        unseen = unseen or 1
        held = p.info.rules.hand_size - len(p.obs.tricks)
        miss = max(0.0, 1.0 - held / unseen)  # chance a given unseen card is not in one defender's hand
        win = 1.0
        if higher:
            for d in p.opponents:
                if not p.void[d] >> s & 1:  # one who has shown out throws a card under ours
                    win *= 1.0 - miss ** lower + miss ** (lower + higher)
        return 4.0 * win + later

    def _defend_lead(self, p: _Play, legal: Sequence[int]) -> int | None:
        """A defender's lead against a misère, when a subclass defends otherwise (None: as below)."""
        return None

    def _defend_follow(self, p: _Play, legal: Sequence[int]) -> int | None:
        """A defender's card to a misère trick, when a subclass defends otherwise (None: as below)."""
        return None

    def _defend_shed(self, p: _Play, legal: Sequence[int]) -> int | None:
        """A void defender's discard in a misère, when a subclass defends otherwise (None: as below)."""
        return None

    def _misere_lead(self, p: _Play, legal: Sequence[int]) -> int:
        chosen = self._defend_lead(p, legal)
        if chosen is not None:
            return chosen
        cards = [c for c in legal if c < JOKER_LEAD]
        if not cards:
            return legal[0]
        best = cards[0]
        if p.seat == p.contractor:
            least = self._misere_lead_cost(p, best)
            for c in cards[1:]:  # min(cards, key=...), written out (misere_play.pxd: no closure)
                cost = self._misere_lead_cost(p, c)
                if cost < least:
                    best, least = c, cost
            return best
        # a defender leads low into a suit the contractor still holds
        suit_of = p.suit_of
        power = p.power
        contractor = p.contractor
        theirs_shown = p.shown.get(contractor)
        best_key = None
        for c in cards:
            s = suit_of[c]
            row = power[s]
            if p.void[contractor] >> s & 1:
                key = (3, 0, row[c])
            elif theirs_shown is not None:
                theirs = [x for x in theirs_shown if suit_of[x] == s]
                if not theirs:
                    key = (3, 0, row[c])
                else:
                    under = _count_below(row, theirs, row[c])
                    key = (0 if not under else 2, under, row[c])
            else:
                key = (1, self._below(p, c), row[c])
            if best_key is None or key < best_key:
                best, best_key = c, key
        return best

    def _misere_follow(self, p: _Play, legal: Sequence[int]) -> int:
        chosen = self._defend_follow(p, legal)
        if chosen is not None:
            return chosen
        led, best, winner = self._trick_state(p)
        if led == NO_SUIT:
            return self._misere_shed(p, legal)
        strength = {a: self._strength(p, a, led) for a in legal}
        following = _following(legal, p.suit_of, led)
        under = [a for a in legal if strength[a] < best] if following else []
        if p.seat == p.contractor:
            if not following:
                return self._misere_shed(p, legal)
            if under:
                return max(under, key=strength.__getitem__)  # the highest card that still loses
            if self._remaining(p):
                return min(legal, key=strength.__getitem__)  # leave a defender room to overtake
            return max(legal, key=strength.__getitem__)
        team = p.info.team_of
        if team[p.seat] == team[p.contractor]:
            # the contractor's partner, where it plays: take tricks off the contractor
            return max(legal, key=strength.__getitem__)
        if not following:
            return self._misere_shed(p, legal)
        if winner == p.contractor or p.contractor in self._remaining(p):
            if under:
                return max(under, key=strength.__getitem__)  # stay under, keep the low cards
            return min(legal, key=strength.__getitem__)
        return max(legal, key=strength.__getitem__)  # the contractor is safe here: shed a high card

    def _misere_shed(self, p: _Play, legal: Sequence[int]) -> int:
        """When void: the contractor throws the card that most reduces its danger, a defender
        its highest (keeping low cards to lead under the contractor)."""
        chosen = self._defend_shed(p, legal)
        if chosen is not None:
            return chosen
        suit_of = p.suit_of
        if p.seat == p.contractor:
            hand = p.obs.hand

            def relief(a: int) -> tuple[float, int]:
                c = _card(a)
                suit = [x for x in hand if suit_of[x] == suit_of[c]]
                rest = [x for x in suit if x != c]
                return (self._hand_danger(p, suit) - self._hand_danger(p, rest), self._below(p, c))

            return max(legal, key=relief)

        def height(a: int) -> tuple[int, int]:
            c = _card(a)
            s = suit_of[c]
            if s == NO_SUIT:
                return (1 << 30, 0)
            return (self._below(p, c), p.power[s][c])

        return max(legal, key=height)
