"""How the rule-of-thumb players play a trump or no-trump contract: draw trumps while our side holds most
of them, cash winners, second hand low, third hand high, win cheaply, never overtake a partner who is safely
winning, ruff when it matters, otherwise throw the least useful card; and which play a decision is
(``_play``: a lead or a follow, of a misère or not).

Compiled, ``CardPlay`` is an extension type: ``card_play.pxd`` gives its methods C-typed locals.
"""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.engine.state import JOKER_LEAD
from fivehundred.rules.cards import JOKER_BASE, NO_SUIT

from .evaluation import _RulesInfo, jokers_held
from .misere_play import MiserePlay
from .situation import Seen, _card, _Play
from .trick_reading import _all_void, _exact_in, _following, _ruffable

LOW_TRUMP_LEAD = 6
"""A trump lead with this many trumps over it still to play (a ten or lower at the first trick) is low: a defender
second to it holds its top trumps up (``holds_top_trumps``); a higher one it takes with them, a bower or the ace
caught."""


class CardPlay(MiserePlay):
    """The choice of a card to lead or to follow with."""

    side_ducks = False
    """In a misère the contractor's partner plays too, the partner ducks as the contractor does
    (False: it takes tricks off the contractor, as this player always has)."""
    exact_then_misere = False
    """A side that has the tricks of a contract for exactly that many plays the rest as a misère."""
    plays_for_the_table = False
    """An open misère's contractor searching its card (``misere_own_worlds``) plays for the defence at the table where
    the worlds doom the misère against a seeing one (``solved_worlds.table_misere_card``: in half the worlds or fewer
    is it made double dummy, the worlds in which it is made when ``club`` plays on from each card are counted too);
    False: double dummy decides, the play-outs only break its ties."""
    holds_top_trumps = False
    """A defender second to play to the contracting side's low trump lead (``LOW_TRUMP_LEAD``), its partner still to
    play, plays low even where a top trump (the joker, a bower) would win the trick for sure: kept, it takes one of
    the contracting side's high trumps later rather than a low one now.  A high trump lead it takes."""
    draws_from_the_top = False
    """Trumps are drawn with the highest held, master or not, where the defenders are one partnership: they hold the
    joker up for each other (``holds_top_trumps``), and a low trump would give them a cheap trick.  Elsewhere
    (defenders each alone, or of two teams) a low trump draws the joker out cheaply, and trumps are drawn with the
    master, else the lowest, as when False."""
    draws_under_the_top = False
    """Drawing from the top (``draws_from_the_top``) with three or more trumps, the highest not the master (a higher
    trump unseen), the second highest is led: the highest, led, falls to the higher one out (the defenders hold
    their top trumps for a high lead), and kept, it wins once that one is drawn (False: the highest is led)."""
    covers_partner = False
    covers_without_the_joker = False
    """Third hand high (``covers_partner``) is never the joker: it wins a trick whenever it is played, and on partner's
    card it spends two winners on one trick; the highest other winner covers, else the least useful card is played
    (False: the highest winner, the joker where it is held)."""
    """Third hand high over a partner: where partner's card wins the trick so far but a seat still to play may
    beat it, and none of ours is sure to win, the highest card that beats partner's is played (False: the
    cheapest card, leaving the trick to partner)."""
    keeps_the_joker_second = False
    """A defender second to a side suit's lead, void of it, its partner still to play, does not ruff with the joker
    where that is its one sure winner: it throws its least useful card, partner may win the trick, and the joker
    takes one later."""
    joker_kept_for_partner = False
    """The joker is kept second to play (``keeps_the_joker_second``) only where partner may still beat the trick's
    best card, and by the contracting side too (False: by a defender, whether or not partner can win the trick)."""
    second_hand_low_in_no_trumps = False
    """A defender second to a lead in no-trumps, following suit, its partner still to play, plays low even where a
    card of its own would win the trick for sure (False: it wins as cheaply as is safe)."""
    throws_low_without_trumps = False
    """A seat out of the suit led that holds no trump and no joker throws its lowest card whatever the length of its
    suit: a void is worth something only to a seat that can ruff, and a short suit thrown leaves its honours unguarded
    (False: the low cards of its shortest side suit go first, as where it holds trumps)."""
    keeps_lone_trump = False
    """The contractor does not draw with a trump that a higher one still out would take, where it is its last trump
    or that is the one trump out: kept, it ruffs a side suit later; led, it hands the defenders the trick and the
    lead."""
    keeps_two_low_trumps = False
    """The contractor holding two trumps, neither the master, does not draw with them while two or more trumps are
    unseen: a trump led gives a higher one the trick and the lead, and our two are spent that would ruff a side
    suit; it cashes its side winners, else leads a side suit (False: it draws while it holds half the unseen)."""
    keeps_the_stopper = False
    """A seat throwing a card (void of the suit led) keeps a side suit's master that is its one card of the suit,
    two or more of the suit unseen, over its other masters: thrown, it lets the holder of those cards run the suit
    (False: masters of the shortest suit go first)."""
    draws_with_the_master = False
    """The contractor holding the master trump and another draws with the master even where the unseen trumps are
    more than twice its own (False: it cashes its side winners first, else leads a side suit)."""
    leads_the_master_trump = False
    """A defender holding the master trump, with one or two trumps still unseen and the contracting side not known
    to be void of trumps, leads it: it draws a trump the contracting side would ruff with."""
    leads_under_partners_card = False
    """Leading a card of a suit in which a partner whose playable cards lie face up (P2's dummy; the live hand, seen
    from the dummy it plays) must follow above it, or holds the suit's master where ours is not, or holds only
    winners of the suit, the lowest of the suit is led instead: partner's card takes the trick either way, and ours
    is kept (False: the chosen card, on which partner's then falls)."""

    def _play(self, seat: int, obs: Seen, info: _RulesInfo, legal: Sequence[int]) -> int:
        p = self._situation(seat, obs, info)
        seen = p.obs
        contract = seen.contract
        misere = p.misere or (self.exact_then_misere and p.exact and _exact_in(seen, info))
        if misere and self.side_ducks and contract is not None and contract.partner_plays and p.our_contract:
            p.contractor = seat  # both partners must lose every trick: each plays as the contractor
        if not misere and self.exact_then_misere and p.exact and seat == p.contractor:
            spare = self._exact_spare(p, legal)
            if spare is not None:
                if not seen.current_trick:  # on lead: take a trick with a master
                    return self._lead(p, [a for a in legal if a not in spare] or legal)
                return self._misere_follow(p, spare)
        if seen.current_trick:
            return self._misere_follow(p, legal) if misere else self._follow(p, legal)
        if misere:
            return self._misere_lead(p, legal)
        lead = self._lead(p, legal)
        return self._under_partners_card(p, lead, legal) if self.leads_under_partners_card and p.shown else lead

    def _exact_spare(self, p: _Play, legal: Sequence[int]) -> list[int] | None:
        """A contractor playing alone for exactly its tricks who holds the tricks it still needs in
        masters: the plays that keep those masters back (it loses the rest as a misère, taking
        the tricks when it must follow with a master).  None otherwise: it plays to take tricks."""
        contract = p.obs.contract
        if contract is None or contract.goal != "exactly" or contract.partner_plays:
            return None
        need = contract.tricks - p.obs.tricks_won[p.seat]
        hand = p.obs.hand
        masters = [c for c in hand if self._master(p, c)]
        if not 0 < need < len(hand) or len(masters) < need:
            return None
        power, suit_of = p.power, p.suit_of
        kept = set(sorted(masters, key=lambda c: -power[suit_of[c] if suit_of[c] < 4 else 0][c])[:need])
        return [a for a in legal if _card(a) not in kept] or list(legal)

    def _follow(self, p: _Play, legal: Sequence[int]) -> int:
        led, best, winner = self._trick_state(p)
        if led == NO_SUIT:
            return self._cheapest(p, legal)
        team = p.info.team_of
        remaining = self._remaining(p)
        opponents = [s for s in remaining if team[s] != team[p.seat]]
        partner_winning = team[winner] == team[p.seat]
        if partner_winning and not self._can_beat(p, opponents, led, best):
            return self._cheapest(p, legal)  # never overtake a partner who is safely winning
        if (self.holds_top_trumps and led == p.trump and not p.our_contract and not partner_winning
                and len(p.obs.current_trick) == 1 and len(opponents) < len(remaining)
                and self._trumps_over(p, led, best) >= LOW_TRUMP_LEAD):
            return self._cheapest(p, legal)  # second hand low on a low trump lead too: keep the top trumps
        row = p.power[led]
        winners: list[int] = []  # the plays that win the trick so far, lowest first (a stable insertion sort)
        heights: list[int] = []
        for a in legal:
            height = row[a] if a < JOKER_LEAD else self._strength(p, a, led)
            if height > best:
                i = len(winners)
                while i and heights[i - 1] > height:
                    i -= 1
                winners.insert(i, a)
                heights.insert(i, height)
        if not winners:
            return self._cheapest(p, legal)
        second = len(p.obs.current_trick) == 1 and len(opponents) < len(remaining)
        for i in range(len(winners)):
            a = winners[i]
            if partner_winning and _card(a) >= JOKER_BASE:
                break  # a joker wins a trick whenever it is played: not on partner's
            if not self._can_beat(p, opponents, led, heights[i]):
                if second and self._ducks_a_sure_winner(p, a, led, legal, best, remaining, opponents):
                    return self._cheapest(p, legal)
                return a  # win as cheaply as is safe
        if partner_winning:
            if self.covers_partner and _following(legal, p.suit_of, led):
                return self._cover(p, winners, legal)  # third hand high: the seat after us must spend its best card
            return self._cheapest(p, legal)
        if not _following(legal, p.suit_of, led):
            return winners[0]  # void: ruff (or play the joker) as cheaply as possible
        if len(p.obs.current_trick) == 1 and len(opponents) < len(remaining):
            return self._cheapest(p, legal)  # second hand low: partner is still to play
        return winners[-1]  # third hand high

    def _ducks_a_sure_winner(self, p: _Play, a: int, led: int, legal: Sequence[int], best: int,
                             remaining: list[int], opponents: list[int]) -> bool:
        """Second to play, partner still to play, we let the trick go by rather than win it for sure with ``a``: void,
        where ``a`` is the joker (``keeps_the_joker_second``: a defender; with ``joker_kept_for_partner``, either side
        where partner may still beat ``best``); following suit in no-trumps, a defender
        (``second_hand_low_in_no_trumps``)."""
        if _following(legal, p.suit_of, led):
            return self.second_hand_low_in_no_trumps and p.trump is None and not p.our_contract
        if not self.keeps_the_joker_second or led == p.trump or _card(a) < JOKER_BASE:
            return False
        if not self.joker_kept_for_partner:
            return not p.our_contract
        partners = [s for s in remaining if s not in opponents]
        return self._can_beat(p, partners, led, best)

    def _cover(self, p: _Play, winners: list[int], legal: Sequence[int]) -> int:
        """The highest of ``winners`` (lowest first) over a partner's card that may be beaten; not a joker
        (``covers_without_the_joker``): it wins whenever it is played, and on partner's card it spends two winners on
        one trick, so the highest other winner, else the least useful card."""
        if not self.covers_without_the_joker:
            return winners[-1]
        for i in range(len(winners) - 1, -1, -1):
            if _card(winners[i]) < JOKER_BASE:
                return winners[i]
        return self._cheapest(p, legal)

    def _trumps_over(self, p: _Play, trump: int, height: int) -> int:
        """The trumps not yet played, ours and those unseen, that beat a trump of ``height``."""
        row = p.power[trump]
        suit_of = p.suit_of
        over = 0
        for c in p.out[trump]:
            over += row[c] > height
        for c in p.obs.hand:
            over += suit_of[c] == trump and row[c] > height
        return over

    def _cheapest(self, p: _Play, legal: Sequence[int]) -> int:
        """The least useful card: the lowest of the suit led, or when void a low card from a short
        side suit; trumps, winners and jokers are kept."""
        suit_of = p.suit_of
        power = p.power
        trump = p.trump
        counts = [0, 0, 0, 0, 0]
        for c in p.obs.hand:
            counts[suit_of[c]] += 1

        top = p.top
        trumps = -1 if trump is None else trump
        short = 4  # a short suit's cards go first: voids to ruff with
        if self.throws_low_without_trumps and (trump is None or not counts[trump]) and not jokers_held(p.obs.hand):
            short = 0
        best, best_key = legal[0], -1
        for a in legal:  # min(legal, key=...), written out (card_play.pxd: no closure)
            c = _card(a)
            s = suit_of[c]
            # (a trump, a master, the card's power and its suit's length) as one number: trumps and masters kept
            if c >= JOKER_BASE:
                key = 3 << 21 | 1 << 20
            else:
                mine = power[s][c]
                master = s == NO_SUIT or mine > top[s]
                stopper = self.keeps_the_stopper and master and s != trumps and counts[s] == 1 and len(p.out[s]) >= 2
                key = (s == trumps) << 22 | master << 21 | stopper << 20 | mine + short * counts[s]
            if best_key < 0 or key < best_key:
                best, best_key = a, key
        return best

    def _lead(self, p: _Play, legal: Sequence[int]) -> int:
        hand = [c for c in legal if c < JOKER_LEAD]
        if not hand:
            return legal[0]  # only a free joker left to lead
        suit_of = p.suit_of
        trump = p.trump
        void = p.void
        opponents = p.opponents
        by_suit: list[list[int]] = [[], [], [], [], []]
        power = p.power
        for c in hand:  # by suit, highest first (an insertion sort: a handful of cards a suit)
            s = suit_of[c]
            cards = by_suit[s]
            if s == NO_SUIT:
                cards.append(c)
                continue
            row = power[s]
            i = len(cards)
            while i and row[cards[i - 1]] < row[c]:
                i -= 1
            cards.insert(i, c)
        if trump is not None and by_suit[trump] and p.our_contract:
            # draw trumps while we hold enough of those still unseen
            theirs = 0 if _all_void(void, opponents, trump) else len(p.out[trump])
            mine = by_suit[trump]
            master = self._master(p, mine[0])
            kept = self._keeps_trumps(len(mine), theirs, master, p.seat == p.contractor)
            if theirs and not kept and self._draw_trumps(len(mine), theirs, p.seat == p.contractor):
                if master:
                    return mine[0]
                if self.draws_from_the_top and _one_partnership(opponents, p.info.team_of):
                    return mine[1] if self.draws_under_the_top and len(mine) > 2 else mine[0]
                return mine[-1]
            if self.draws_with_the_master and theirs and master and len(mine) > 1 and p.seat == p.contractor:
                return mine[0]
        if (self.leads_the_master_trump and not p.our_contract and trump is not None and by_suit[trump]
                and 0 < len(p.out[trump]) <= 2 and not _all_void(void, opponents, trump)
                and self._master(p, by_suit[trump][0])):
            return by_suit[trump][0]
        if not p.our_contract:
            partner_suit = self._partner_suit(p)
            if partner_suit is not None and partner_suit != trump and by_suit[partner_suit]:
                cards = by_suit[partner_suit]
                return cards[0] if len(cards) == 1 or self._master(p, cards[0]) else cards[-1]
        cash = [cards[0] for s, cards in enumerate(by_suit[:4])
                if s != trump and cards and not _ruffable(p, s) and not self._laid_out_ruffs(p, s)
                and self._master(p, cards[0])]
        if cash:
            best = cash[0]
            for c in cash:  # cash a winner, longest suit first (the first of the longest)
                if len(by_suit[suit_of[c]]) > len(by_suit[suit_of[best]]):
                    best = c
            return best
        if not p.our_contract and trump is not None and by_suit[trump]:
            singles = [s for s in range(4) if s != trump and len(by_suit[s]) == 1]
            if singles:
                return by_suit[singles[0]][0]  # a singleton, to ruff the next round
        side = [s for s in range(4) if s != trump and by_suit[s]]
        if side:
            longest, longest_key = side[0], None
            for s in side:  # the first of the longest side suits, of the lowest card
                key = (len(by_suit[s]), -p.power[s][by_suit[s][-1]])
                if longest_key is None or key > longest_key:
                    longest, longest_key = s, key
            return by_suit[longest][-1]  # low from the longest side suit
        if trump is not None and by_suit[trump]:
            return by_suit[trump][-1]
        return hand[-1]

    def _under_partners_card(self, p: _Play, lead: int, legal: Sequence[int]) -> int:
        """``lead``, or the lowest card of its suit where a partner's shown cards of the suit all lie above it, or
        the highest of them is the suit's master and ``lead`` is not, or the lowest of them is a master and lies above
        ours (``leads_under_partners_card``)."""
        if lead >= JOKER_LEAD:
            return lead
        suit_of = p.suit_of
        s = suit_of[lead]
        if s == NO_SUIT:
            return lead
        row = p.power[s]
        low = lead
        for a in legal:
            if a < JOKER_LEAD and suit_of[a] == s and row[a] < row[low]:
                low = a
        if low == lead:
            return lead
        for partner in p.info.partners[p.seat]:
            cards = p.shown.get(partner)
            if cards:
                least = best = -1
                for c in cards:
                    if suit_of[c] == s:
                        if least < 0 or row[c] < row[least]:
                            least = c
                        if best < 0 or row[c] > row[best]:
                            best = c
                if least < 0:
                    continue
                if row[least] > row[lead] or (row[best] > row[lead] and self._master(p, best)
                                               and not self._master(p, lead)):
                    return low
                if row[low] < row[least] and self._master(p, least):  # its every card a winner: ours kept
                    return low
        return lead

    def _keeps_trumps(self, mine: int, theirs: int, master: bool, contractor: bool) -> bool:
        """Whether the contracting side, holding ``mine`` trumps (the highest of them the master or not) with
        ``theirs`` unseen, keeps them back rather than draw: a lone trump, or one over the last trump out
        (``keeps_lone_trump``); the contractor's two low trumps (``keeps_two_low_trumps``)."""
        if master:
            return False
        if self.keeps_lone_trump and (mine == 1 or theirs == 1):
            return True
        return self.keeps_two_low_trumps and contractor and mine == 2 and theirs >= 2

    def _draw_trumps(self, mine: int, theirs: int, contractor: bool) -> bool:
        """Lead trumps, holding ``mine`` of them with ``theirs`` unseen (partner's among them)?
        Drawing freely as contractor won clearly in self-play against drawing only with a majority."""
        return 2 * mine >= theirs if contractor else mine >= max(2, theirs)

    def _partner_suit(self, p: _Play) -> int | None:
        """The last suit partner bid, if any."""
        partners = p.info.partners[p.seat]
        ladder = p.info.rules.ladder
        suit = None
        for seat, call in p.obs.calls:
            if seat in partners and 0 <= call < len(ladder) and ladder[call].kind == "trumps":
                suit = ladder[call].trump
        return suit


def _one_partnership(seats: Sequence[int], team_of: Sequence[int]) -> bool:
    """Whether ``seats`` are two or more partners, all of one team."""
    return len(seats) > 1 and len({team_of[s] for s in seats}) == 1
