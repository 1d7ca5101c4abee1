"""Random-play conformance: thousands of seeded games checked step by step against a referee.

The referee below is an independent, deliberately simple reading of docs/rules.md (and of the ruleset
fields that parametrise it).  It works on card *text* ("10H", "JK", "JK:S"), never on the engine's
tables: it tracks every hand, decides who acts, which actions are legal, who wins each trick, what
each hand scores and when the game ends.  The engine must agree with it at every step of every
game, and every finished game's record must replay through it.

Besides the reference game it models the variants of the shipped rulesets: teams of three and lone
players (P3, P6), a dead hand (P3), dummies (P2), a called partner (P5), two jokers (D2), French-
Canadian scoring and its face-up kitty (FC), the Canadian joker (J2), inkles (B7), the 1904 mid-hand
end (E6), the blind misère (B8), Hi/Lo (C5), double misère and its pass (C1), patastrophe (C3), and B10's
redeals by the same dealer (a test ruleset).  What it does not model, ruleset by ruleset, is ``UNMODELLED``
(empty: every shipped ruleset is modelled; docs/testing.md has the table); field by field, ``UNCHECKED``
says which ruleset fields it does not read (no shipped ruleset sets them), what each carries and where the
suite checks it instead.
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.engine.state import CHANCE, TERMINAL, GameState, Phase, new_game
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.rules.cards import card_str
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.ruleset import Ruleset

# --- RULES.md, restated as data ----------------------------------------------------------------

RULES_LADDER = [
    ("6S", 40), ("6C", 60), ("6D", 80), ("6H", 100), ("6NT", 120),
    ("7S", 140), ("7C", 160), ("7D", 180), ("7H", 200), ("7NT", 220),
    ("misere", 250),
    ("8S", 240), ("8C", 260), ("8D", 280), ("8H", 300), ("8NT", 320),
    ("9S", 340), ("9C", 360), ("9D", 380), ("9H", 400), ("9NT", 420),
    ("10S", 440), ("10C", 460), ("10D", 480),
    ("open-misere", 500),
    ("10H", 500), ("10NT", 520),
]
"""Rules 9 and 24: the 27 rungs, low to high, with their Avondale values."""

RULES_DECK = sorted(
    [r + s for s in "HD" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")]
    + [r + s for s in "SC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5")]
    + ["JK"]
)
"""Rule 2: 43 cards."""

SAME_COLOUR = {"S": "C", "C": "S", "D": "H", "H": "D"}
FACE = {"J": 20, "Q": 21, "K": 22, "A": 23}


class Unsupported(Exception):
    """A ruleset feature this referee does not model (its games get the generic checks only)."""


def is_joker(card: str) -> bool:
    return card.startswith("JK")


def joker_index(card: str) -> int:
    return 0 if card == "JK" else int(card[2:]) - 1


def printed_suit(card: str) -> str:
    return card[-1]


def rank_value(card: str) -> int:
    rank = card[:-1]
    return FACE[rank] if rank in FACE else int(rank)


def split_play(text: str) -> tuple[str, str | None]:
    """``"JK:S"`` → ("JK", "S"); ``"10H"`` → ("10H", None)."""
    card, _, named = text.partition(":")
    return card, named or None


def normal_rank(rank: str) -> str:
    rank = rank.upper()
    return "10" if rank == "T" else rank


# --- the referee ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rung:
    call: str
    value: int
    kind: str  # "trumps", "no-trumps", "misere"
    level: int  # tricks the contracting side needs (0 for misère)
    trump: str | None
    open: bool = False
    partner_plays: bool = True
    requires: int | None = None
    first_calls: int | None = None  # B7: only among the auction's first calls
    signal: bool = False  # B7: an inkle, never the contract
    goal: str = "at-least"  # C5 "exactly"
    partner_open: bool = False  # C3: the partner's hand shown after the first trick too
    kitty_to_partner: bool = False  # C1: cards passed to the partner, who discards
    blind: bool = False  # B8: bid only before looking, in a round before the auction


MODELLED = {
    "players": {"seats", "teams", "dummies", "partnership", "called_partner_share", "call_own_card", "call_trumps"},
    "deck": {"suits", "jokers"},
    "deal": {"packets", "first_dealer", "kitty_face_up", "redeals"},
    "auction": {"rounds", "ladder"},
    "play": {"first_lead", "misere_ends_early"},
    "joker": {"lead", "void_play_in_no_trumps", "void_play_in_misere"},
    "scoring": {"slam", "overtrick_points", "defender_trick_points", "defender_points_in_misere", "failed"},
    "game": {"target", "swamp", "mid_hand"},
}
"""The ruleset fields the referee reads as parameters; every other field must be as in the reference."""

ALLOWED = {
    ("auction", "rounds"): {"unlimited", "single"},
    ("joker", "nomination"): {"contractor", "none", "when-played"},
    ("game", "win"): {"contract-made", "any"},
}

RUNG_FIELDS = {"call", "value", "requires_standing", "first_calls", "signal", "before_looking"}
"""The fields of a ladder rung the referee reads (B7's first calls and signals, B8's blind bid)."""
CONTRACT_FIELDS = {"open", "partner_plays", "kind", "trump", "goal", "tricks", "partner_open", "kitty_to_partner"}
"""The fields of a contract the referee reads (rules 10, 15, 18; C1, C3, C5)."""

UNCHECKED = {
    "deal.all_pass": "B10 beyond 'redeal' (a deal played at no-trumps with no contractor, the same cards dealt "
                     "again unshuffled, the dealer made to bid): test_variants_exchange.py, test_variants_auction.py",
    "deal.misdeal_without_face_card": "D4, the misdeal call and the same dealer's redeal: test_variants_exchange.py",
    "auction.rebid": "B6, who may bid again when: test_variants_auction.py",
    "auction.winner_may_raise": "B6, the winner's one raise: test_variants_auction.py",
    "auction.reentry": "Trickster Cards' re-entry after a changed bid: test_variants_auction.py, test_ptn.py",
    "auction.ladder_changes": "an edit of the ladder, applied when the ruleset is loaded (the referee reads the "
                              "resulting ladder): test_ladder_changes.py",
    "auction.set_bar": "R1, a failed contractor barred from the next auction: test_variants_auction.py",
    "auction.set_bar_misere": "R1 for misère: test_variants_auction.py",
    "ladder.first_own_call": "B8's other form (a blind misère as one's first own call): test_variants_auction.py",
    "contract.kitty": "B9, C4 contracts played without the kitty: test_variants_exchange.py",
    "contract.jacks_high": "C8, no-trumps with jacks above aces: test_variants_play.py",
    "contract.fail_penalty": "C6, a failed slam call's penalty: test_variants_exchange.py",
    "contract.fail_value": "C7, a failed declaration's loss: test_variants_exchange.py",
    "kitty.taken_by": "a single value ('contractor'): nothing to vary",
    "declarations.slam": "C6, the slam call and its gift (a plugin's steps): test_variants_exchange.py",
    "declarations.slam_penalty": "C6: test_variants_exchange.py",
    "declarations.declare": "C7, the declaration (a plugin's steps): test_variants_exchange.py",
    "declarations.declare_value": "C7: test_variants_exchange.py",
    "play.claims": "L2, claims (a step of the play, plugins/claims.py): test_claims.py",
    "play.claim_penalty": "L2: test_claims.py",
    "trumps.colour_four": "D3, the other fours removed and the four of the trump colour a trump: "
                          "test_variants_play.py",
    "joker.no_renege": "J3 (a legal-play filter): test_variants_play.py",
    "joker.first_or_last": "J4 (a legal-play filter): test_variants_play.py",
    "joker.in_suit_contracts": "J2's blank joker in suit contracts: test_variants_play.py",
    "scoring.overtrick_cap": "S3's cap: test_variants_scoring.py",
    "scoring.defender_cap": "S5, defence points stopped at 490: test_variants_scoring.py",
    "scoring.breach": "R2, breach (a plugin's step and its bars): test_variants_exchange.py",
    "game.both_reach": "E1, both sides at 500 in one hand: test_variants_scoring.py",
    "game.swamp_strict": "E3: test_variants_scoring.py",
    "game.swamp_needs_opponents_not_negative": "E3: test_variants_scoring.py",
    "game.spread": "E4: test_variants_scoring.py",
    "game.exact_target": "E5: test_variants_scoring.py",
    "game.bust": "E5: test_variants_scoring.py",
    "house_rules": "implemented by plugins outside the engine, and tested with them (examples/)",
}
"""Every ruleset field the referee does not read, with the rule it carries and where the suite checks it
instead, against concrete deals rather than an independent referee.  No shipped ruleset sets any of them
away from the reference (``test_what_the_referee_does_not_model``); a ruleset that does gets the general
checks only.  ``test_every_ruleset_field_is_read_by_the_referee_or_listed`` keeps this list complete."""


UNMODELLED: dict[str, dict[str, str]] = {}
"""What the referee does not model, by shipped ruleset, and why: these games get the general checks only
(legal actions well formed and each accepted, observations that show no hidden card, records that
validate).  A ruleset whose ``house_rules`` a plugin implements is left to that plugin's tests."""


@functools.cache
def reference_ruleset() -> Ruleset:
    return fivehundred.load_ruleset("pagat-australian")


def unsupported(rs: Ruleset, reference: Ruleset) -> list[str]:
    """What ``rs`` does differently from the reference in ways the referee does not model."""
    mine, base = rs.model_dump(mode="json"), reference.model_dump(mode="json")
    out = []
    for section, value in mine.items():
        if section in ("name", "description", "source", "contracts"):
            continue
        if not isinstance(value, dict):
            if value != base.get(section):
                out.append(section)
            continue
        for key, v in value.items():
            if (section, key) in ALLOWED:
                if v not in ALLOWED[section, key]:
                    out.append(f"{section}.{key}: {v}")
            elif key not in MODELLED.get(section, set()) and v != base.get(section, {}).get(key):
                out.append(f"{section}.{key}")
    base_rung, base_misere = base["auction"]["ladder"][0], base["contracts"]["misere"]
    for rung in mine["auction"]["ladder"]:
        out += [f"ladder {rung['call']}: {k}" for k, v in rung.items()
                if k not in RUNG_FIELDS and v != base_rung.get(k)]
    for name, c in mine["contracts"].items():
        out += [f"contract {name}: {k}" for k, v in c.items()
                if k not in CONTRACT_FIELDS and v != base_misere.get(k)]
        if c.get("open") not in (True, False, "none", "contractor"):
            out.append(f"contract {name}: open {c.get('open')}")
    for packet in mine["deal"]["packets"]:
        out += [f"packet {k}" for k, v in packet.items() if k not in ("each", "kitty", "dead") and v is not None]
    for team in mine["players"]["teams"]:
        out += [f"team {k}" for k in team if k not in ("name", "seats")]
    return out


class Referee:
    """The rules of one ruleset, read from its data and applied by simple, independent code."""

    def __init__(self, rs: Ruleset):
        different = unsupported(rs, reference_ruleset())
        if different:
            raise Unsupported(", ".join(different))
        self.rs = rs
        self.seats = list(rs.players.seats)
        self.n = len(self.seats)
        self.teams = [t.name for t in rs.players.teams]
        self.team_of = [next(i for i, t in enumerate(rs.players.teams) if seat in t.seats) for seat in self.seats]
        self.deck = sorted([normal_rank(r) + s for s, ranks in rs.deck.suits.items() for r in ranks]
                           + ["JK" if k == 0 else f"JK{k + 1}" for k in range(rs.deck.jokers)])
        self.hand_size = sum(p.each or 0 for p in rs.deal.packets)
        self.kitty_size = sum(p.kitty or 0 for p in rs.deal.packets)
        self.dead_size = sum(p.dead or 0 for p in rs.deal.packets)  # P3: a hand out of play
        self.dummies = {self.seats.index(d) for d in rs.players.dummies}  # P2: they never call
        self.callers = self.n - len(self.dummies)
        calls = [r.call for r in rs.auction.ladder]
        self.ladder: list[Rung] = []
        for r in rs.auction.ladder:
            requires = calls.index(r.requires_standing) if r.requires_standing else None
            if r.call in rs.contracts:
                c = rs.contracts[r.call]
                shown = c.open not in (False, None, "none")
                if c.kind == "misere":  # rules 10, 15, 18; C3 both partners playing and shown
                    self.ladder.append(Rung(r.call, r.value, "misere", 0, None, shown, c.partner_plays, requires,
                                            goal="none", partner_open=c.partner_open,
                                            kitty_to_partner=c.kitty_to_partner))
                else:  # C5: a contract of its own, e.g. exactly five tricks at no-trumps
                    self.ladder.append(Rung(r.call, r.value, c.kind, c.tricks, c.trump, shown, c.partner_plays,
                                            requires, goal=c.goal, partner_open=c.partner_open))
            else:
                text = r.call.upper()
                if text.endswith("NT"):
                    self.ladder.append(Rung(r.call, r.value, "no-trumps", int(text[:-2]), None, requires=requires))
                else:
                    self.ladder.append(Rung(r.call, r.value, "trumps", int(text[:-1]), text[-1], requires=requires))
        self.ladder = [replace(rung, first_calls=r.first_calls, signal=r.signal, blind=r.before_looking)
                       for rung, r in zip(self.ladder, rs.auction.ladder, strict=True)]
        self.by_call = {r.call: i for i, r in enumerate(self.ladder)}

    def next_dealer(self, dealer: int, passed_out: int) -> int:
        """Rule 7: the deal passes to the left; B10 (``deal.redeals``): after a deal everybody passed, the same
        dealer deals again, up to ``redeals`` times in a row.  ``passed_out``: the deals this dealer has dealt
        in a row that everybody passed, the last one included (0 when it was played)."""
        return dealer if 0 < passed_out <= self.rs.deal.redeals else (dealer + 1) % self.n

    def partners(self, seat: int) -> set[int]:
        """Rule 1 and P6: the seat's team-mates (two in a team of three, none for a lone player)."""
        return {other for other in range(self.n) if other != seat and self.team_of[other] == self.team_of[seat]}

    def side(self, contractor: int, partner: int | None) -> list[int]:
        """The contracting side's teams, the contractor's first (P5: and the called partner's)."""
        ct = self.team_of[contractor]
        return [ct] if partner is None or self.team_of[partner] == ct else [ct, self.team_of[partner]]

    def hand_score(self, rung: Rung, contractor: int, won: list[int],
                   partner: int | None = None) -> tuple[list[int], bool]:
        """Rules 25–27: each team's points for one hand, and whether the contract was made."""
        s = self.rs.scoring
        side = self.side(contractor, partner)
        ct = side[0]
        by_team = [0] * len(self.teams)
        for seat, n in enumerate(won):
            by_team[self.team_of[seat]] += n
        by_team[ct] += sum(by_team[t] for t in side[1:])  # P5: the called partner's tricks count for the side
        scores = [0] * len(self.teams)
        failed_value = 0 if s.failed == "opponents-gain" else -rung.value  # FC: nothing is ever subtracted
        if rung.kind == "misere":
            made = by_team[ct] == 0  # C1, C3: a partner who plays must take no trick either
            scores[ct] = rung.value if made else failed_value
            per_trick = s.defender_points_in_misere
        else:
            taken = by_team[ct]
            made = taken == rung.level if rung.goal == "exactly" else taken >= rung.level
            if not made:
                scores[ct] = failed_value
            elif taken == self.hand_size and s.slam is not None and rung.value < s.slam.below:
                scores[ct] = s.slam.scores
            else:
                scores[ct] = rung.value + s.overtrick_points * (taken - rung.level)
            per_trick = s.defender_trick_points
        gained = rung.value if not made and s.failed == "opponents-gain" else 0  # FC: to each opponent
        for team in range(len(self.teams)):
            if team not in side:
                scores[team] = gained + per_trick * by_team[team]
        for team in side[1:]:  # P5: the called partner scores the contract too, in full or half (toward zero)
            half = self.rs.players.called_partner_share == "half"
            scores[team] = int(scores[ct] / 2) if half else scores[ct]
        return scores, made

    def game_winner(self, totals: list[int], side: list[int], made: bool) -> int | None:
        """Rules 28–31, checked after a whole hand is scored; ``side``: the contracting side's teams."""
        g = self.rs.game
        if g.swamp is not None:
            for team, total in enumerate(totals):
                if total <= g.swamp:
                    return max((t for t in range(len(totals)) if t != team), key=lambda t: totals[t])
        contractor_team = side[0]
        if g.win == "contract-made":  # P5: a called partner who reaches the target with the contract wins too
            reached = [t for t in side if made and totals[t] >= g.target]
        else:
            reached = [t for t, total in enumerate(totals) if total >= g.target]
        if not reached:
            return None
        return contractor_team if contractor_team in reached else max(reached, key=lambda t: totals[t])


@dataclass
class TrickLog:
    leader: int
    cards: list[str]  # as played, the led joker with its named suit
    winner: int = -1


@dataclass
class Shadow:
    """One hand followed action by action: who acts, what is legal, who wins, what it scores."""

    ref: Referee
    dealer: int
    dealt: dict[int, list[str]]
    kitty: list[str]
    dead: list[str] = field(default_factory=list)
    play_out: bool = False
    totals: list[int] = field(default_factory=list)  # the game's totals before this hand (E6)
    phase: str = "auction"
    turn: int = -1
    calls: list[tuple[int, str]] = field(default_factory=list)
    passed: set[int] = field(default_factory=set)
    standing: int = -1
    holder: int | None = None
    rung: Rung | None = None
    contractor: int | None = None
    held: dict[int, list[str]] = field(default_factory=dict)
    face_down: dict[int, dict[str, str]] = field(default_factory=dict)  # P2: by dummy, covering card → covered
    discards: list[str] = field(default_factory=list)
    blind_calls: list[tuple[int, str]] = field(default_factory=list)
    passed_cards: list[str] = field(default_factory=list)
    discarder: int | None = None
    called: str | None = None
    partner: int | None = None
    nomination: str | None = None
    nominated: set[str] = field(default_factory=set)
    named_now: dict[str, str] = field(default_factory=dict)  # J2: jokers in the current trick, as named
    sitting: set[int] = field(default_factory=set)
    tricks: list[TrickLog] = field(default_factory=list)
    trick: list[tuple[int, str]] = field(default_factory=list)
    led: str | None = None
    led_suits: set[str] = field(default_factory=set)
    won: list[int] = field(default_factory=list)
    scores: list[int] | None = None
    made: bool | None = None
    ended_mid_hand: bool = False

    def __post_init__(self) -> None:
        ref = self.ref
        dealt = [c for h in self.dealt.values() for c in h] + self.kitty + self.dead
        assert sorted(dealt) == ref.deck, "rule 2/6: not the deck"
        assert all(len(h) == ref.hand_size for h in self.dealt.values()), "rule 6: hand sizes"
        assert len(self.kitty) == ref.kitty_size, "rule 6: kitty size"
        assert len(self.dead) == ref.dead_size, "P3: the dead hand's size"
        self.held = {s: list(h) for s, h in self.dealt.items()}
        for seat in ref.dummies:  # P2: the first half dealt lies face down, each card under one of the second half
            half = len(self.dealt[seat]) // 2
            self.held[seat] = self.dealt[seat][half:]
            self.face_down[seat] = dict(zip(self.dealt[seat][half:], self.dealt[seat][:half], strict=True))
        self.won = [0] * ref.n
        self.turn = self.next_caller(self.dealer)  # rule 8
        if any(r.blind for r in ref.ladder):  # B8: first a round of blind bids, from the dealer's left
            self.phase = "blind"

    # --- what is legal ---------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def legal(self) -> set[str]:
        if self.phase == "blind":
            return {"look"} | {f"blind {r.call}" for r in self.ref.ladder if r.blind}
        if self.phase == "auction":
            return {"pass"} | {r.call for i, r in enumerate(self.ref.ladder)
                               if i > self.standing and (r.requires is None or self.standing >= r.requires)
                               and (r.first_calls is None or len(self.calls) < r.first_calls) and not r.blind}
        if self.phase == "pass":
            assert self.contractor is not None
            return {f"pass {c}" for c in self.held[self.contractor]}
        if self.phase == "discard":
            return {f"discard {c}" for c in self.held[self.turn]}
        if self.phase == "call":
            return self.legal_partner_calls()
        if self.phase == "nominate":
            return {f"nominate {s}" for s in "SCDH"} | {"nominate none"}
        if self.phase == "play":
            return self.legal_plays(self.turn)
        return set()

    def legal_partner_calls(self) -> set[str]:
        """P5: any card but the joker and the discards (and the contractor's own, and trumps, unless the
        ruleset allows them), or alone."""
        assert self.contractor is not None and self.rung is not None
        players = self.ref.rs.players
        barred = set(self.discards) | (set() if players.call_own_card else set(self.held[self.contractor]))
        cards = {c for c in self.ref.deck if not is_joker(c) and c not in barred}
        if not players.call_trumps and self.rung.trump is not None:
            cards = {c for c in cards if self.suit(c) != self.rung.trump}
        return {f"call {c}" for c in cards} | {"alone"}

    def suit(self, card: str) -> str | None:
        """The suit a card counts as now; None for a free joker (rules 3, 4, 19, 20)."""
        assert self.rung is not None
        trump = self.rung.trump
        if trump is not None:
            if is_joker(card):
                return trump
            if card[:-1] == "J" and printed_suit(card) in (trump, SAME_COLOUR[trump]):
                return trump
            return printed_suit(card)
        if is_joker(card):
            if self.ref.rs.joker.nomination == "when-played":  # J2: the suit its player names, once played
                return self.named_now.get(card)
            return self.nomination if card in self.nominated else None
        return printed_suit(card)

    def is_free_joker(self, card: str) -> bool:
        return is_joker(card) and self.suit(card) is None

    def legal_plays(self, seat: int) -> set[str]:
        assert self.rung is not None
        hand = self.held[seat]
        joker = self.ref.rs.joker
        named_when_played = self.rung.trump is None and joker.nomination == "when-played"  # J2
        if self.trick:  # rules 16, 21
            assert self.led is not None
            follow = {c for c in hand if self.suit(c) == self.led}
            free = {c for c in hand if self.is_free_joker(c)}
            if follow:
                return follow
            if named_when_played:  # J2: a joker without a suit (rule 21), named as any suit by its player
                free = {f"{j}:{s}" for j in free for s in "SCDH"}
            void = joker.void_play_in_misere if self.rung.kind == "misere" else joker.void_play_in_no_trumps
            if free and void == "compulsory":
                return free
            return {c for c in hand if not is_joker(c) or not named_when_played} | free
        legal = {c for c in hand if not self.is_free_joker(c)}
        last = len(self.tricks) == self.ref.hand_size - 1
        if joker.lead == "any" or last:  # rule 22
            suits = set("SCDH")
        elif joker.lead == "last-trick":
            suits = set()
        else:
            suits = set("SCDH") - self.led_suits
        if not legal and not suits:  # D2: a hand of nothing but free jokers must still lead: any suit
            suits = set("SCDH")
        for j in (c for c in hand if self.is_free_joker(c)):
            legal |= {f"{j}:{s}" for s in suits}
        return legal

    def power(self, card: str) -> int:
        """Rule 17: the strength of a card in the current trick; -1 never wins."""
        assert self.rung is not None
        trump = self.rung.trump
        suit = self.suit(card)
        if trump is not None and suit == trump:
            if is_joker(card):
                strength = 500 - joker_index(card)
            elif card[:-1] == "J":
                strength = 300 if printed_suit(card) == trump else 299
            else:
                strength = rank_value(card)
            return 1000 + strength
        if suit is None:  # a free joker wins any trick it is played to (rule 20)
            return 5000 - joker_index(card)
        if suit != self.led:
            return -1
        if is_joker(card):  # a nominated joker tops its suit (rule 19); D2: of two jokers, the first wins
            return 5000 - joker_index(card)
        return rank_value(card)

    # --- applying --------------------------------------------------------------------------

    def apply(self, seat: int, text: str) -> None:
        assert not self.over, f"{text!r} after the hand is over"
        assert seat == self.turn, f"{self.ref.seats[seat]} acts but it is {self.ref.seats[self.turn]}'s turn"
        legal = self.legal()
        assert text in legal, f"{self.ref.seats[seat]}: {text!r} is not legal; legal: {sorted(legal)}"
        getattr(self, f"_{self.phase}")(seat, text)

    def next_caller(self, seat: int) -> int:
        """The next seat to the left that may call: not a dummy (P2), and (rule 12) not passed."""
        skip = self.ref.dummies | (self.passed if self.ref.rs.auction.rounds != "single" else set())
        nxt = (seat + 1) % self.ref.n
        while nxt in skip:
            nxt = (nxt + 1) % self.ref.n
        return nxt

    def _auction(self, seat: int, text: str) -> None:
        ref = self.ref
        self.calls.append((seat, text))
        if text == "pass":
            self.passed.add(seat)
        else:
            self.standing, self.holder = ref.by_call[text], seat
        callers = ref.callers
        if ref.rs.auction.rounds == "single":
            done = len(self.calls) == callers
        else:  # rules 8, 12, 13
            done = len(self.passed) == callers or (self.holder is not None and len(self.passed) == callers - 1)
        if not done:
            self.turn = self.next_caller(seat)
            return
        if self.holder is None or ref.ladder[self.standing].signal:  # rule 13, B7: nothing is scored
            self.phase = "over"
            return
        self.rung, self.contractor = ref.ladder[self.standing], self.holder
        self.held[self.contractor] += self.kitty  # rule 14
        self.phase, self.turn = "discard", self.contractor
        self.discarder = self.contractor
        if self.rung.kitty_to_partner:  # C1: the contractor passes as many cards to the partner on its left
            self.phase = "pass"

    def _blind(self, seat: int, text: str) -> None:
        """B8: each seat in turn looks or bids blind; the first blind bid stands as the auction opens."""
        self.blind_calls.append((seat, text))
        if text != "look":
            self.standing, self.holder = self.ref.by_call[text.removeprefix("blind ")], seat
            self.phase, self.turn = "auction", self.next_caller(seat)
        elif len(self.blind_calls) == self.ref.callers:
            self.phase, self.turn = "auction", self.next_caller(self.dealer)
        else:
            self.turn = self.next_caller(seat)

    def _pass(self, seat: int, text: str) -> None:
        card = text.removeprefix("pass ")
        partner = next((seat + k) % self.ref.n for k in range(1, self.ref.n)
                       if (seat + k) % self.ref.n in self.ref.partners(seat))
        self.held[seat].remove(card)
        self.held[partner].append(card)
        self.passed_cards.append(card)
        if len(self.passed_cards) == self.ref.kitty_size:  # C1: the partner, holding more than a hand, discards
            self.phase, self.turn = "discard", partner
            self.discarder = partner

    def _discard(self, seat: int, text: str) -> None:
        card = text.removeprefix("discard ")
        self.held[seat].remove(card)
        self.discards.append(card)
        if len(self.discards) < self.ref.kitty_size:
            return
        if self.ref.rs.players.partnership == "called-card":
            self.phase = "call"
        else:
            self._after_exchange(self.contractor)

    def _call(self, seat: int, text: str) -> None:
        if text != "alone":
            self.called = text.removeprefix("call ")
            self.partner = next(s for s, h in self.held.items() if self.called in h)
        self._after_exchange(seat)

    def _after_exchange(self, seat: int | None) -> None:
        assert self.rung is not None and seat is not None
        may_nominate = (self.rung.trump is None and self.ref.rs.joker.nomination == "contractor"
                        and any(is_joker(c) for c in self.held[seat]))
        if may_nominate:  # the contractor nominates, whoever discarded (C1)
            self.phase, self.turn = "nominate", seat
        else:
            self._start_play()

    def _nominate(self, seat: int, text: str) -> None:
        suit = text.removeprefix("nominate ")
        if suit != "none":
            self.nomination = suit
            self.nominated = {c for c in self.held[seat] if is_joker(c)}
        self._start_play()

    def _start_play(self) -> None:
        ref = self.ref
        assert self.rung is not None and self.contractor is not None
        if not self.rung.partner_plays:  # rule 15: every partner lays the hand aside (two in P6 teams of three)
            self.sitting = ref.partners(self.contractor)
            for seat in self.sitting:
                self.held[seat] = []
        first = self.contractor if ref.rs.play.first_lead == "contractor" else (self.dealer + 1) % ref.n
        while first in self.sitting:
            first = (first + 1) % ref.n
        self.phase, self.turn = "play", first

    def _play(self, seat: int, text: str) -> None:
        ref = self.ref
        card, named = split_play(text)
        self.held[seat].remove(card)
        if named is not None and ref.rs.joker.nomination == "when-played":
            self.named_now[card] = named
        if not self.trick:
            self.led = named or self.suit(card)
            self.led_suits.add(self.led)  # rule 22 decision: a named suit counts as led
            self.tricks.append(TrickLog(seat, []))
        self.trick.append((seat, card))
        self.tricks[-1].cards.append(text)
        size = ref.n - len(self.sitting)
        if len(self.trick) < size:
            nxt = (seat + 1) % ref.n
            while nxt in self.sitting:
                nxt = (nxt + 1) % ref.n
            self.turn = nxt
            return
        winner = max(self.trick, key=lambda sc: self.power(sc[1]))[0]
        assert self.power(self.trick[0][1]) >= 0, "the card led can always win"
        self.tricks[-1].winner = winner
        self.won[winner] += 1
        for who, played in self.trick:  # P2: the cards the dummies' played cards covered are turned up
            if played in self.face_down.get(who, {}):
                self.held[who].append(self.face_down[who].pop(played))
        self.trick, self.named_now = [], {}
        assert self.rung is not None
        ended_misere = (self.rung.kind == "misere" and ref.team_of[winner] == ref.team_of[self.contractor]
                        and ref.rs.play.misere_ends_early and not self.play_out)
        self.ended_mid_hand = len(self.tricks) < ref.hand_size and self.out_during_the_hand()
        if ended_misere or len(self.tricks) == ref.hand_size or self.ended_mid_hand:
            self._score()
        else:
            self.turn = winner  # rule 17

    def out_during_the_hand(self) -> bool:
        """E6: a defending side whose total with this hand's tricks reaches the target ends the hand, unless
        the contracting side can still make the contract and, taking every trick left, reach it too."""
        ref, rung, g = self.ref, self.rung, self.ref.rs.game
        assert rung is not None and self.contractor is not None
        if not g.mid_hand or rung.kind == "misere":
            return False
        side = ref.side(self.contractor, self.partner)
        by_team = [0] * len(ref.teams)
        for seat, n in enumerate(self.won):
            by_team[ref.team_of[seat]] += n
        per_trick = ref.rs.scoring.defender_trick_points
        if not any(self.totals[t] + per_trick * by_team[t] >= g.target
                   for t in range(len(ref.teams)) if t not in side):
            return False
        best = list(self.won)
        best[self.contractor] += ref.hand_size - len(self.tricks)
        best_scores, made = ref.hand_score(rung, self.contractor, best, self.partner)
        return not (made and self.totals[side[0]] + best_scores[side[0]] >= g.target)

    def _score(self) -> None:
        assert self.rung is not None and self.contractor is not None
        self.scores, self.made = self.ref.hand_score(self.rung, self.contractor, self.won, self.partner)
        self.phase = "over"


# --- checking a finished record against the referee ----------------------------------------


def check_record(rec: dict[str, Any], ref: Referee, *, strict: bool = True) -> list[Shadow]:
    """Replay a record through the referee; ``strict``: misères end at the contractor's first trick."""
    seats, n = ref.seats, ref.n
    assert rec["format"] == "fivehundred-record/1"
    assert rec["ruleset"]["name"] == ref.rs.name
    assert rec["ruleset"]["hash"] == ref.rs.content_hash
    hands = rec["hands"]
    assert rec["deals"] == len(hands)
    shadows = []
    totals = [0] * len(ref.teams)
    winner: int | None = None
    dealer = seats.index(hands[0]["dealer"]) if hands else 0
    passed_out = 0
    for i, h in enumerate(hands):
        where = f"hand {h['number']}"
        assert winner is None, f"{where} recorded after the game ended"
        assert h["number"] == i + 1, where
        assert h["dealer"] == seats[dealer], f"{where}: rule 7, the deal passes to the left (B10: redeals)"
        dealt = {s: list(h["hands"][seats[s]]) for s in range(n)}
        sh = Shadow(ref, dealer, dealt, list(h["kitty"]), list(h.get("dead", [])), play_out=not strict,
                    totals=totals)
        for c in h.get("blind_calls", []):
            sh.apply(seats.index(c["seat"]), c["call"] if c["call"] == "look" else f"blind {c['call']}")
        for c in h["calls"]:
            sh.apply(seats.index(c["seat"]), c["call"])
        assert sh.phase != "auction", f"{where}: the auction is not over"
        passed_out = passed_out + 1 if sh.rung is None and sh.holder is None else 0
        dealer, previous = ref.next_dealer(dealer, passed_out), dealer
        passed_out = passed_out if dealer == previous else 0
        if sh.rung is None:
            assert h["contract"] is None, where
            assert not h.get("discards") and not h.get("tricks") and not h.get("nomination"), where
            assert all(v == 0 for v in h.get("scores", {}).values()), where
            shadows.append(sh)
            continue
        assert sh.contractor is not None
        assert h["contract"] == {"call": sh.rung.call, "contractor": seats[sh.contractor], "value": sh.rung.value}
        for card in h.get("passed", []):
            sh.apply(sh.contractor, f"pass {card}")
        for d in h["discards"]:
            sh.apply(sh.turn, f"discard {d}")
        if sh.phase == "call":
            call = h["partner_call"]
            sh.apply(sh.contractor, call if call == "alone" else f"call {call}")
        else:
            assert "partner_call" not in h, f"{where}: P5, no partner to call"
        if sh.phase == "nominate":
            sh.apply(sh.contractor, f"nominate {h['nomination'] or 'none'}")
        else:
            assert h["nomination"] is None, f"{where}: rule 19, nothing to nominate"
        for k, t in enumerate(h["tricks"]):
            assert sh.phase == "play", f"{where}: trick {k + 1} recorded after the hand ended"
            assert t["leader"] == seats[sh.turn], f"{where}: trick {k + 1} leader"
            for text in t["cards"]:
                sh.apply(sh.turn, text)
            assert sh.tricks[k].cards == t["cards"]
            assert t["winner"] == seats[sh.tricks[k].winner], f"{where}: trick {k + 1} winner (rule 17)"
        assert sh.over, f"{where}: only {len(h['tricks'])} tricks and the hand is not over"
        # trick counts and sizes (rules 15, 17, 27)
        size = n - len(sh.sitting)
        assert all(len(t["cards"]) == size for t in h["tricks"])
        side = [s for s in range(n) if ref.team_of[s] == ref.team_of[sh.contractor]]
        if sh.rung.kind == "misere" and any(sh.won[s] for s in side) and ref.rs.play.misere_ends_early and strict:
            first_lost = next(k for k, t in enumerate(sh.tricks) if t.winner in side)
            assert len(h["tricks"]) == first_lost + 1, f"{where}: the misère must end at the contractor's trick"
        elif not sh.ended_mid_hand:
            assert len(h["tricks"]) == ref.hand_size, f"{where}: {len(h['tricks'])} tricks"
            assert all(not cards for cards in sh.held.values()), f"{where}: cards left after ten tricks"
        assert h["tricks_won"] == {seats[s]: sh.won[s] for s in range(n)}, where
        assert sh.scores is not None and sh.made is not None
        assert h["scores"] == dict(zip(ref.teams, sh.scores, strict=True)), f"{where}: rules 24–27"
        totals = [t + s for t, s in zip(totals, sh.scores, strict=True)]
        assert h["totals"] == dict(zip(ref.teams, totals, strict=True)), f"{where}: running totals"
        winner = ref.game_winner(totals, ref.side(sh.contractor, sh.partner), sh.made)
        shadows.append(sh)
    if winner is None:
        assert rec["result"] is None, "a result recorded but no hand ended the game (rules 28–31)"
    else:
        assert rec["result"] is not None, "the game ended but no result is recorded"
        assert rec["result"]["winner"] == ref.teams[winner], "rules 28–31: wrong winner"
        assert rec["result"]["totals"] == dict(zip(ref.teams, totals, strict=True))
    return shadows


# --- driving the engine, checked at every step ---------------------------------------------

Policy = Callable[[GameState, random.Random, list[int]], int]


def uniform(st: GameState, rng: random.Random, legal: list[int]) -> int:
    return rng.choice(legal)


def cautious(pass_rate: float = 0.6, reach: int = 3) -> Policy:
    """Pass often and bid low: long games, all-pass deals, misères, both ways of ending."""

    def act(st: GameState, rng: random.Random, legal: list[int]) -> int:
        if st.phase == Phase.AUCTION:
            if len(legal) == 1 or rng.random() < pass_rate:
                return legal[0]  # the pass sorts first
            return rng.choice(legal[1:1 + reach])
        return rng.choice(legal)

    return act


def favour(call: str) -> Policy:
    """Bid ``call`` (blind too, B8) when it is legal and pass otherwise, so that it is the contract;
    everything else at random."""

    def act(st: GameState, rng: random.Random, legal: list[int]) -> int:
        wanted = [a for a in legal if st.action_to_str(a) in (call, f"blind {call}")]
        if wanted:
            return wanted[0]
        if st.phase == Phase.AUCTION or st.action_to_str(legal[0]) == "look":
            return legal[0]  # the pass sorts first
        return rng.choice(legal)

    return act


@dataclass
class Coverage:
    """What the checked games went through, so that a test can insist on variety."""

    games: int = 0
    steps: int = 0
    deals: int = 0
    seen: Counter[str] = field(default_factory=Counter)

    def add_hand(self, sh: Shadow) -> None:
        self.deals += 1
        if sh.rung is None:
            self.seen["inkle-thrown-in" if sh.holder is not None else "all-pass"] += 1
            return
        self.seen[sh.rung.kind] += 1
        self.seen[f"call {sh.rung.call}"] += 1
        self.seen["made" if sh.made else "failed"] += 1
        if sh.rung.open:
            self.seen["open-misere"] += 1
        if sh.rung.kind == "misere" and len(sh.tricks) < sh.ref.hand_size:
            self.seen["misere-ended-early"] += 1
        if sh.nomination:
            self.seen["nomination"] += 1
        if sh.ended_mid_hand:
            self.seen["ended-mid-hand"] += 1
        if sh.ref.dummies and not any(sh.face_down.values()):
            self.seen["turned-up"] += 1  # P2: every face-down card came up and was played
        if sh.partner is not None:
            self.seen["partner-called"] += 1
        elif sh.ref.rs.players.partnership == "called-card":
            self.seen["alone"] += 1
        if len(sh.sitting) >= 2:
            self.seen["two-sat-out"] += 1
        for t in sh.tricks:
            if ":" in t.cards[0]:
                self.seen["joker-led-named"] += 1
            if any(":" in c for c in t.cards[1:]):
                self.seen["joker-named-by-follower"] += 1
            if any(c.startswith("JK") for c in t.cards[1:]):
                self.seen["joker-followed"] += 1
        if sh.rung.trump and any(c == "J" + SAME_COLOUR[sh.rung.trump] for t in sh.tricks for c in t.cards):
            self.seen["left-bower-played"] += 1


TEXT = {c: card_str(c) for c in range(90) if c >= 80 or 2 <= c % 20 <= 17}
"""Card ids as text (a cache: the checks below convert many cards)."""


def texts(cards: Any) -> list[str]:
    return sorted(TEXT[c] for c in cards)


def check_observations(st: GameState, sh: Shadow | None, totals: list[int]) -> None:
    """Every seat sees its own hand and the public record, nothing more; every card is accounted for."""
    n = st.rules.players
    obs = [st.observation(s) for s in range(n)]
    log = st.hands_log[-1]
    o = obs[0]
    public = (o.calls, o.contract, o.contractor, o.nomination, o.tricks, o.current_trick, o.led, o.leader,
              o.tricks_won, o.totals, o.sitting_out)
    assert list(o.totals) == totals
    for s, x in enumerate(obs):
        assert x.seat == s and x.dealer == st.dealer and x.phase == st.phase
        view = (x.calls, x.contract, x.contractor, x.nomination, x.tricks, x.current_trick, x.led, x.leader,
                x.tricks_won, x.totals, x.sitting_out)
        assert view == public, "the public part of the observations differs between seats"
        if s not in st.contracting_side:
            assert x.discards == (), "a defender sees the contracting side's discards"
    # card accounting: held + discards + played (+ kitty before it is taken, + a hand laid aside) = deck
    everything = [c for t in o.tricks for c in t[1]] + list(o.current_trick) + [c for x in obs for c in x.hand]
    everything += [c for x in obs for c in x.discards]  # each discard seen by its maker alone
    everything += log.dead  # P3: a dead hand nobody sees
    if st.phase == Phase.AUCTION:
        everything += log.kitty
    if st.phase == Phase.PLAY:  # every hand laid aside (a six-handed misère has two), as held, not as dealt
        for seat in o.sitting:
            everything += log.aside[seat]
    extra = Counter(everything) - Counter(st.rules.deck)
    assert not extra, f"cards outside the deck, or seen twice: {extra}"
    if sh is None:
        return  # a variant the referee does not model may put cards out of play (a dead hand)
    unseen = [c for under in sh.face_down.values() for c in under.values()]  # P2: seen by nobody
    if sh.phase == "blind":  # B8: nobody has looked at their cards yet
        unseen += [c for hand in sh.held.values() for c in hand] + sh.kitty
    assert sorted(texts(everything) + unseen) == texts(st.rules.deck), Counter(TEXT[c] for c in everything)
    face_up = sh.ref.rs.deal.kitty_face_up
    if face_up and st.phase == Phase.AUCTION:  # FC: the last kitty cards dealt lie face up for every seat
        for x in obs:
            assert texts(x.steps.get("kitty-face-up", ())) == sorted(sh.kitty[-face_up:]), "FC: the face-up kitty"
    # against the referee: own hand exactly, the open misère hand only once the first trick is done
    done = len(sh.tricks) - bool(sh.trick)
    for s, x in enumerate(obs):
        unseen = sh.phase == "blind"  # B8: nobody looks at their cards while the blind round lasts
        assert texts(x.hand) == ([] if unseen else sorted(sh.held[s])), f"seat {s}: observation.hand"
        shown = dict(x.open_hands)
        if sh.rung is not None and sh.rung.partner_open and done >= 1:  # C3: the partner's hand, after trick 1
            for partner in sh.ref.partners(sh.contractor) - {s}:
                assert texts(shown.get(partner, ())) == sorted(sh.held[partner]), "C3: the partner's open hand"
        for dummy in sh.ref.dummies - {s}:  # P2: a dummy's face-up cards, for every seat to see
            assert texts(shown.get(dummy, ())) == sorted(sh.held[dummy]), f"seat {s}: the dummy's face-up cards"
        if sh.rung is not None and sh.rung.open and done >= 1 and s != sh.contractor:
            assert x.open_hand is not None, "rule 18: the open misère hand is shown after the first trick"
            assert texts(x.open_hand) == sorted(sh.held[sh.contractor]), "rule 18: the open misère hand"
        else:
            assert x.open_hand is None, f"seat {s} sees the contractor's hand ({x.open_hand})"
    if sh.contractor is not None:
        if sh.discarder is not None:
            assert texts(obs[sh.discarder].discards) == sorted(sh.discards)
        assert o.contractor == sh.contractor
    assert [TEXT[c] for c in o.current_trick] == [c for _, c in sh.trick]
    assert o.led == ("SCDH".index(sh.led) if sh.trick and sh.led else None), "the suit led to the current trick"
    assert len(o.tricks) == done
    playing = st.phase == Phase.PLAY
    assert o.sitting == (tuple(sorted(sh.sitting)) if playing else ()), "rule 15: who sits the hand out"
    assert o.sitting_out == (min(sh.sitting) if sh.sitting and playing else -1)


def check_clones(st: GameState, legal: list[int], rng: random.Random) -> None:
    """Each legal action is accepted on a clone; a few illegal ones are refused; the original is untouched."""
    before = (st.step, st.observation(st.current_player()), list(st.legal_actions()))
    for a in legal:
        c = st.clone()
        c.apply(a, seat=st.current_player())
        assert c.step != st.step
    kinds = {Phase.AUCTION: range(400, 400 + len(st.rules.ladder) + 1), Phase.DISCARD: range(200, 285),
             Phase.NOMINATE: range(300, 305), Phase.PLAY: [*range(0, 85), *range(100, 120)]}.get(st.phase, [])
    illegal = [a for a in kinds if a not in legal]
    for a in rng.sample(illegal, min(4, len(illegal))):
        c = st.clone()
        with pytest.raises(IllegalActionError) as caught:
            c.apply(a)
        assert caught.value.rule, "an illegal action must name the rule it breaks"
        assert c.legal_actions() == legal, "a refused action changed the state"
    others = [s for s in range(st.rules.players) if s != st.current_player()]
    c = st.clone()
    with pytest.raises(IllegalActionError):
        c.apply(legal[0], seat=rng.choice(others))  # out of turn
    assert (st.step, st.observation(st.current_player()), list(st.legal_actions())) == before


def drive(rs: Ruleset, seed: int | str, policy: Policy, *, deep: bool = False, observe: bool = True,
          play_out: bool = False, max_deals: int = 400, coverage: Coverage | None = None) -> tuple[GameState, dict]:
    """Play one game by driving ``GameState`` directly, checking it against the referee at every step."""
    try:
        ref: Referee | None = Referee(rs)
    except Unsupported:
        ref = None
    st, rng = new_game(rs, seed, misere_play_out=play_out)
    prng = random.Random(f"conformance:{seed}:policy")
    n = st.rules.players
    dealer = st.dealer
    passed_out = 0  # deals passed out in a row by this dealer (B10's redeals)
    sh: Shadow | None = None
    totals = [0] * len(st.rules.team_names)
    cov = coverage or Coverage()
    while True:
        p = st.current_player()
        if p == TERMINAL:
            assert st.is_terminal() and st.result is not None
            assert st.legal_actions() == []
            break
        assert not st.is_terminal()
        if p == CHANCE:
            assert ref is None or st.dealer == dealer, "rule 7: the deal passes to the left (B10: redeals)"
            if st.deals >= max_deals:
                break
            st.deal(rng)
            dealer = (dealer + 1) % n
            log = st.hands_log[-1]
            assert log.dealer == st.dealer and log.number == st.deals
            if ref is not None:
                sh = Shadow(ref, st.dealer, {s: [card_str(c) for c in log.hands[s]] for s in range(n)},
                            [card_str(c) for c in log.kitty], [card_str(c) for c in log.dead], play_out=play_out,
                            totals=list(totals))
            if observe:
                check_observations(st, sh, totals)
            continue
        legal = st.legal_actions()
        assert legal, "no legal action while the game goes on"
        assert legal == sorted(set(legal)), "legal actions must be sorted and distinct"
        words = [st.action_to_str(a) for a in legal]
        if deep or cov.steps % 7 == 0:
            assert [st.parse_action(t) for t in words] == legal, "action text does not round-trip"
        if sh is not None:
            assert p == sh.turn, f"{st.rules.seats[p]} to act, the referee says {st.rules.seats[sh.turn]}"
            assert set(words) == sh.legal(), (sorted(words), sorted(sh.legal()))
        if deep:
            check_clones(st, legal, prng)
        a = policy(st, prng, legal)
        st.apply(a, seat=p)
        cov.steps += 1
        if sh is not None:
            sh.apply(p, words[legal.index(a)])
            if sh.over:
                totals = check_hand_end(st, sh, totals)
                cov.add_hand(sh)
                assert ref is not None
                passed_out = passed_out + 1 if sh.rung is None and sh.holder is None else 0
                dealer = ref.next_dealer(sh.dealer, passed_out)
                if passed_out:
                    cov.seen["dealt again" if dealer == sh.dealer else "passed on"] += 1
                if dealer != sh.dealer:
                    passed_out = 0
        else:  # a ruleset the referee does not model: the general checks only, with the engine's totals
            totals = list(st.totals)
        if observe and st.phase not in (Phase.DEAL, Phase.GAME_OVER):
            check_observations(st, sh, totals)
    cov.games += 1
    record = game_to_dict(st, seed=str(seed), game=0, players=["test"] * n)
    if ref is not None:
        check_record(record, ref, strict=not play_out)
    return st, record


def check_hand_end(st: GameState, sh: Shadow, totals: list[int]) -> list[int]:
    """After the referee's hand is over, the engine's log, totals and game state must agree."""
    ref = sh.ref
    log = st.hands_log[-1]
    if sh.rung is None:
        assert log.contract is None and st.phase == Phase.DEAL, "rule 13: all passed, a new deal"
        assert list(st.totals) == totals
        return totals
    assert log.contract is not None and log.contract.call == sh.rung.call and log.contractor == sh.contractor
    assert [(t.leader, [card_str(c) for c in t.cards], t.winner) for t in log.tricks] == [
        (t.leader, [split_play(c)[0] for c in t.cards], t.winner) for t in sh.tricks]
    assert list(log.tricks_won) == sh.won
    assert list(log.scores) == sh.scores, f"scores {log.scores} but rules 24–27 give {sh.scores}"
    totals = [t + s for t, s in zip(totals, sh.scores or [], strict=True)]
    assert list(st.totals) == totals == list(log.totals)
    assert sh.contractor is not None and sh.made is not None
    winner = ref.game_winner(totals, ref.side(sh.contractor, sh.partner), sh.made)
    if winner is None:
        assert st.phase == Phase.DEAL and st.result is None, f"the game must go on at {totals} (rules 28–31)"
        assert st.returns() == [0.0] * st.rules.players
    else:
        assert st.is_terminal() and st.result is not None, f"the game must end at {totals} (rules 28–31)"
        assert st.result.winner == winner
        assert st.returns() == [1.0 if ref.team_of[s] == winner else -1.0 for s in range(ref.n)]
    return totals


# --- the reference ruleset is docs/rules.md ----------------------------------------------------


def test_reference_ruleset_restates_rules_md(pagat: Ruleset) -> None:
    ref = Referee(pagat)
    assert ref.deck == RULES_DECK
    assert [(r.call, r.value) for r in ref.ladder] == RULES_LADDER
    misere = ref.ladder[ref.by_call["misere"]]
    assert misere.requires == ref.by_call["7S"] and not misere.partner_plays and not misere.open
    assert ref.ladder[ref.by_call["open-misere"]].open and ref.ladder[ref.by_call["open-misere"]].requires is None
    assert (ref.hand_size, ref.kitty_size, ref.seats, ref.teams) == (10, 3, ["N", "E", "S", "W"], ["NS", "EW"])
    assert (pagat.play.first_lead, pagat.play.misere_ends_early, pagat.auction.rounds) == ("contractor", True,
                                                                                          "unlimited")
    j = pagat.joker
    assert (j.nomination, j.lead, j.void_play_in_no_trumps, j.void_play_in_misere) == (
        "contractor", "unled-suit", "optional", "compulsory")  # rules 19-22
    sc = pagat.scoring
    assert sc.slam is not None and (sc.slam.below, sc.slam.scores) == (250, 250)  # rule 25
    assert (sc.overtrick_points, sc.defender_trick_points, sc.defender_points_in_misere) == (0, 10, 0)
    assert (pagat.game.target, pagat.game.win, pagat.game.swamp) == (500, "contract-made", -500)  # rules 29-30
    rules = fivehundred.compile_rules(pagat)
    assert sorted(card_str(c) for c in rules.deck) == RULES_DECK
    assert [(c.call, c.value) for c in rules.ladder] == RULES_LADDER


def test_referee_trick_examples(pagat: Ruleset) -> None:
    """The referee itself on docs/rules.md §8 and a few joker cases, so that its verdicts can be trusted."""
    ref = Referee(pagat)

    def winner(call: str, cards: list[str], nomination: str | None = None) -> int:
        sh = Shadow(ref, 3, {s: RULES_DECK[s * 10:(s + 1) * 10] for s in range(4)}, RULES_DECK[40:])
        sh.rung, sh.contractor, sh.nomination = ref.ladder[ref.by_call[call]], 0, nomination
        sh.nominated = {"JK"} if nomination else set()
        first, named = split_play(cards[0])
        sh.led = named or sh.suit(first)
        return max(range(len(cards)), key=lambda i: sh.power(split_play(cards[i])[0]))

    assert winner("8H", ["AH", "JD", "KH", "JK"]) == 3  # §8: the joker wins
    assert winner("8H", ["AH", "JD", "KH"]) == 1  # the left bower beats the ace
    assert winner("8H", ["AH", "JD", "JH"]) == 2  # the right bower beats the left
    assert winner("8S", ["AH", "JC", "KH"]) == 1  # a left bower trumps a plain lead
    assert winner("8S", ["JH", "AH", "QD"]) == 1  # jacks of the other colour are plain cards
    assert winner("8NT", ["AH", "JK", "KH"]) == 1  # a free joker wins
    assert winner("8NT", ["JK:S", "AS", "KH"]) == 0
    assert winner("8NT", ["AS", "JK", "KS"], nomination="H") == 0  # a nominated joker thrown away loses
    assert winner("8NT", ["AH", "JK", "KH"], nomination="H") == 1  # and tops its own suit
    assert winner("misere", ["5S", "10S", "4H"]) == 1


def test_what_the_referee_does_not_model(shipped_ruleset: Ruleset) -> None:
    """Every shipped ruleset is modelled but for the features ``UNMODELLED`` names, so that list stays true."""
    missing = [m for m in unsupported(shipped_ruleset, reference_ruleset()) if not m.startswith("house_rules.")]
    assert set(missing) == set(UNMODELLED.get(shipped_ruleset.name, {})), missing


# --- random-play conformance ----------------------------------------------------------------


def test_every_ruleset_field_is_read_by_the_referee_or_listed() -> None:
    """Each field of the ruleset schema is one the referee reads, or is in ``UNCHECKED`` with its reason."""
    from fivehundred.rules.ruleset import ContractType
    from fivehundred.rules.ruleset import Rung as RungField

    fields = {f"{section}.{key}" for section, info in Ruleset.model_fields.items()
              if info.annotation is not None and hasattr(info.annotation, "model_fields")
              for key in info.annotation.model_fields}
    fields |= {"house_rules"} | {f"ladder.{key}" for key in RungField.model_fields}
    fields |= {f"contract.{key}" for key in ContractType.model_fields}
    read = {f"{section}.{key}" for section, keys in MODELLED.items() for key in keys}
    read |= {f"{section}.{key}" for section, key in ALLOWED}
    read |= {f"ladder.{key}" for key in RUNG_FIELDS} | {f"contract.{key}" for key in CONTRACT_FIELDS}
    assert sorted(fields - read) == sorted(UNCHECKED)


def test_uniform_random_games(shipped_ruleset: Ruleset) -> None:
    """Uniformly random players (they bid high and usually end the game in a hand or two)."""
    cov = Coverage()
    first_dealers: Counter[int] = Counter()
    games = 900 if shipped_ruleset.name == "pagat-australian" else 60
    for i in range(games):
        st, _ = drive(shipped_ruleset, f"uniform-{i}", uniform, coverage=cov, max_deals=LONG_GAME_DEALS)
        first_dealers[st.hands_log[0].dealer] += 1
    assert cov.games == games
    if _modelled(shipped_ruleset):  # the referee counts deals only where it can follow them
        assert cov.deals >= games
    assert len(first_dealers) == len(shipped_ruleset.players.seats), "rule 5: the first dealer is random"
    if shipped_ruleset.name == "pagat-australian":
        for what in ("no-trumps", "trumps", "misere", "open-misere", "nomination", "joker-led-named",
                     "joker-followed", "misere-ended-early", "left-bower-played"):
            assert cov.seen[what], f"the uniform games never had {what}: {cov.seen}"


def _games(rs: Ruleset, reference: int) -> int:
    """Full batches for the reference ruleset; a quarter for each variant ruleset (CI time)."""
    return reference if rs.name == "pagat-australian" else max(2, reference // 4)


LONG_GAME_DEALS = 30
"""Deals per uniform-random game at most.  Random bidders end a game in a hand or two where a swamp
and a target of 500 apply; without a swamp and to 1000 (French-Canadian) they play a hundred deals."""


def _long_games(rs: Ruleset) -> bool:
    return rs.game.swamp is None and rs.game.target > 500


FEATURES = {
    "american-1904": {"inkle-thrown-in"},  # B7
    "avondale-us": {"ended-mid-hand"},  # E6
    "five-handed": {"partner-called", "alone"},  # P5
    "two-handed": {"turned-up"},  # P2
    "six-handed": {"two-sat-out"},  # rule 15 with teams of three
    "six-handed-two-jokers": {"two-sat-out", "nomination"},
    "french-canadian": {"failed", "made"},  # FC scoring
    "three-handed-dead-hand": {"misere"},
    "canadian": {"joker-named-by-follower", "joker-led-named"},  # J2
}
"""What the cautious games of each variant ruleset must go through, so that its own rules are checked."""


def _modelled(rs: Ruleset) -> bool:
    try:
        Referee(rs)
    except Unsupported:
        return False
    return True


def test_cautious_games(shipped_ruleset: Ruleset) -> None:
    """Players who pass often and bid low: long games through all-pass deals and both ways to end."""
    cov = Coverage()
    ends: Counter[str] = Counter()
    for i in range(_games(shipped_ruleset, 50)):
        st, _ = drive(shipped_ruleset, f"cautious-{i}", cautious(0.55 + 0.3 * (i % 3) / 2), coverage=cov)
        if st.result is not None:
            ends["swamp" if min(st.totals) <= (shipped_ruleset.game.swamp or -10**9) else "made"] += 1
    for what in FEATURES.get(shipped_ruleset.name, ()):
        assert cov.seen[what], f"the cautious games never had {what}: {cov.seen}"
    if shipped_ruleset.name == "pagat-australian":
        assert cov.deals > 5 * cov.games
        assert ends["swamp"] and ends["made"], ends
        for what in ("all-pass", "misere", "made", "failed", "misere-ended-early", "trumps", "no-trumps"):
            assert cov.seen[what], f"the cautious games never had {what}: {cov.seen}"


DEEP_DEALS = 40
"""Deals per game of the deep checks.  Each step clones the state once per legal action, and a clone
copies the game's whole history, so a long game costs the square of its length: a uniform-random
French-Canadian game (target 1000) runs to 160 deals, over ten minutes of deep checks on its own."""


def test_every_legal_action_is_accepted_on_a_clone(shipped_ruleset: Ruleset) -> None:
    """Deep checks: at every step each legal action applies to a clone, illegal ones are refused."""
    for i in range(_games(shipped_ruleset, 12)):
        deals = DEEP_DEALS // 2 if _long_games(shipped_ruleset) else DEEP_DEALS  # every game runs to the cap
        drive(shipped_ruleset, f"deep-{i}", uniform if i % 2 else cautious(0.5), deep=True, max_deals=deals)


def test_played_out_misere_games(shipped_ruleset: Ruleset) -> None:
    """With misere_play_out every hand has all its tricks, and the records still check (rule 27)."""
    cov = Coverage()
    for i in range(_games(shipped_ruleset, 25)):
        drive(shipped_ruleset, f"playout-{i}", cautious(0.5), play_out=True, coverage=cov)
    assert cov.seen["misere-ended-early"] == 0


def test_simulator_games(shipped_ruleset: Ruleset) -> None:
    """Games from ``play_game`` (the simulator's fast path) replay through the referee."""
    try:
        ref = Referee(shipped_ruleset)
    except Unsupported as e:
        pytest.skip(f"the referee does not model {e}")
    games = _games(shipped_ruleset, 2000) // (10 if _long_games(shipped_ruleset) else 1)  # random: 100 deals a game
    for i in range(games):
        st = play_game(shipped_ruleset, 21, "random", game=i)
        assert st.is_terminal()
        check_record(game_to_dict(st, seed=21, game=i, players=["random"] * ref.n), ref)


def test_heuristic_games(shipped_ruleset: Ruleset) -> None:
    """Games of heuristic players (mixed with random ones every third game) replay through the referee.

    Bounded by a count of seeded games, never by the clock: 100 games of the reference ruleset and 25
    of each variant the referee models (a few seconds in all), the same games on every machine.
    """
    try:
        ref = Referee(shipped_ruleset)
    except Unsupported as e:
        pytest.skip(f"the referee does not model {e}")
    seats = ref.n
    for i in range(_games(shipped_ruleset, 100)):
        players = ["heuristic"] * seats if i % 3 else ["heuristic", "random"] * (seats // 2) + ["random"] * (seats % 2)
        st = play_game(shipped_ruleset, 5, players, game=i)
        assert st.is_terminal()
        check_record(game_to_dict(st, seed=5, game=i, players=players), ref)


@given(seed=st_.integers(0, 2**40), pass_rate=st_.floats(0.0, 0.95), reach=st_.integers(1, 8))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_hypothesis_games(pagat: Ruleset, seed: int, pass_rate: float, reach: int) -> None:
    drive(pagat, seed, cautious(pass_rate, reach))


# --- the information each seat gets --------------------------------------------------------


def _deal(st: GameState, hands: list[list[int]], kitty: list[int]) -> GameState:
    st.deal_cards(hands, kitty)
    return st


def test_observation_hides_other_hands_and_the_kitty(pagat: Ruleset) -> None:
    """Two deals that differ only in cards hidden from North give North identical observations."""
    rules = fivehundred.compile_rules(pagat)
    for seed in range(20):
        rng = random.Random(seed)
        deck = list(rules.deck)
        rng.shuffle(deck)
        hands = [sorted(deck[10 * s:10 * s + 10]) for s in range(4)]
        kitty = deck[40:]
        hidden = hands[1] + hands[2] + hands[3] + kitty
        rng.shuffle(hidden)
        other = [hands[0]] + [sorted(hidden[10 * k:10 * k + 10]) for k in range(3)]
        a = _deal(GameState(rules, first_dealer=seed % 4), hands, kitty)
        b = _deal(GameState(rules, first_dealer=seed % 4), other, hidden[30:])
        while a.phase == Phase.AUCTION:
            assert a.observation(0) == b.observation(0)
            assert a.legal_actions() == b.legal_actions()
            call = rng.choice(a.legal_actions()[:4])
            a.apply(call)
            b.apply(call)
        if a.phase == Phase.DISCARD and a.current_player() != 0:
            assert a.observation(0) == b.observation(0), "North learns something of the kitty"


def test_observation_names_the_suit_of_a_led_joker(pagat: Ruleset) -> None:
    """Rule 22: once a free joker is led naming a suit, the others must know the suit to follow it.

    Two states that differ only in the suit named must give the next player different observations.
    """
    found = 0
    for i in range(400):
        st, rng = new_game(pagat, f"named-{i}")
        prng = random.Random(i)
        while not st.is_terminal() and st.deals < 3:
            if st.current_player() == CHANCE:
                st.deal(rng)
                continue
            legal = st.legal_actions()
            leads = [a for a in legal if st.action_to_str(a).startswith("JK:")]
            if st.phase == Phase.PLAY and len(leads) >= 2:
                a, b = st.clone(), st.clone()
                a.apply(leads[0])
                b.apply(leads[1])
                nxt = a.current_player()
                assert nxt == b.current_player()
                assert a.observation(nxt) != b.observation(nxt), (
                    f"{st.action_to_str(leads[0])} and {st.action_to_str(leads[1])} look the same to the next player")
                found += 1
                if found >= 5:
                    return
            st.apply(prng.choice(legal))
    assert found, "no free joker lead found"


# --- errors and determinism ----------------------------------------------------------------


def _states_in_every_phase(rs: Ruleset) -> Iterator[GameState]:
    for i in range(40):
        st, rng = new_game(rs, f"phases-{i}")
        prng = random.Random(i)
        seen: set[Phase] = set()
        while not st.is_terminal() and st.deals < 3:
            if st.current_player() == CHANCE:
                st.deal(rng)
                continue
            if st.phase not in seen or prng.random() < 0.05:
                seen.add(st.phase)
                yield st.clone()
            st.apply(prng.choice(st.legal_actions()))


def test_apply_refuses_every_illegal_int_with_illegal_action_error(pagat: Ruleset) -> None:
    """``apply`` raises ``IllegalActionError`` (naming a rule) for any int that is not legal now."""
    phases = set()
    for st in _states_in_every_phase(pagat):
        legal = set(st.legal_actions())
        phases.add(st.phase)
        for a in range(-3, 530):
            if a in legal:
                continue
            try:
                st.apply(a)
            except IllegalActionError as e:
                assert e.rule
            except Exception as e:
                pytest.fail(f"apply({a}) in the {st.phase.name} phase raised {type(e).__name__}: {e}")
            else:
                pytest.fail(f"apply({a}) was accepted in the {st.phase.name} phase but is not legal")
    assert phases == {Phase.AUCTION, Phase.DISCARD, Phase.NOMINATE, Phase.PLAY}


def test_same_seed_same_game(pagat: Ruleset) -> None:
    for i in range(20):
        a = dumps(game_to_dict(play_game(pagat, 9, "random", game=i), seed=9, game=i))
        b = dumps(game_to_dict(play_game(pagat, 9, "random", game=i), seed=9, game=i))
        assert a == b
        c = dumps(game_to_dict(play_game(pagat, 10, "random", game=i), seed=9, game=i))
        assert a != c, "a different seed must give a different game"
    _, r1 = drive(pagat, "again", cautious())
    _, r2 = drive(pagat, "again", cautious())
    assert dumps(r1) == dumps(r2)


def test_same_seed_same_game_in_another_process(pagat: Ruleset) -> None:
    code = (
        "import fivehundred, sys\n"
        "from fivehundred.records.record import dumps, game_to_dict\n"
        "from fivehundred.batch.simulation import play_game\n"
        "for i in range(5):\n"
        "    st = play_game('pagat-australian', 'proc', 'random', game=i)\n"
        "    print(dumps(game_to_dict(st, seed='proc', game=i)))\n"
    )
    here = [dumps(game_to_dict(play_game(pagat, "proc", "random", game=i), seed="proc", game=i)) for i in range(5)]
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == here
    assert all(json.loads(line)["result"] for line in here)


# --- the referee's parameters, against the engine's --------------------------------------

VARIANTS = {
    "single-round": """
        extends: pagat-australian
        name: single-round
        auction: {rounds: single}
        joker: {lead: last-trick, void_play_in_misere: optional}
        play: {first_lead: dealer-left, misere_ends_early: false}
        scoring: {slam: null, overtrick_points: 10}
        game: {target: 300, swamp: null}
    """,
    "two-jokers": """
        extends: pagat-australian
        name: two-jokers
        deck: {jokers: 2}
        deal:
          packets: [{each: 3}, {kitty: 2}, {each: 4}, {kitty: 1}, {each: 3}, {kitty: 1}]
        joker: {nomination: none, lead: any, void_play_in_no_trumps: compulsory}
    """,
    "perfect-contracts": """
        extends: perfect
        name: perfect-contracts
    """,
    "redeals": """
        extends: pagat-australian
        name: redeals
        deal: {redeals: 2}
    """,
}
"""``perfect-contracts``: the Perfect ruleset, with bidders who favour its own contracts (random ones
seldom reach them): B8's blind bid, C5 Hi/Lo, C1 double misère and its pass, C3 patastrophe.  ``redeals``: B10's
redeals, where a deal everybody passed is dealt again by the same dealer, twice at most (bidders who pass
nine times in ten, half the games, so that deals are passed out in a row)."""


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_ruleset_parameters(tmp_path: Any, name: str) -> None:
    """Rulesets that change the parameters the referee reads: engine and referee still agree."""
    path = tmp_path / f"{name}.yaml"
    path.write_text("\n".join(line[8:] for line in VARIANTS[name].splitlines()), encoding="utf-8")
    rs = fivehundred.load_ruleset(path)
    assert unsupported(rs, reference_ruleset()) == []
    special = ["hi-lo", "double-misere", "patastrophe", "blind-misere"] if name == "perfect-contracts" else []
    cov = Coverage()
    for i in range(40):  # without a swamp, random bidders can go on for ever: cap the deals
        policy = favour(special[i // 2 % 4]) if special and i % 2 == 0 else cautious(0.5) if i % 4 else uniform
        if name == "redeals" and i % 2 == 0:
            policy = cautious(0.9)
        drive(rs, f"{name}-{i}", policy, max_deals=12, coverage=cov)
    for call in special:
        assert cov.seen[f"call {call}"], f"no {call} contract was played: {cov.seen}"
    if name == "redeals":
        assert cov.seen["dealt again"] and cov.seen["passed on"], cov.seen
