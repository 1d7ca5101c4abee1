"""Rulesets: YAML files validated by pydantic, which may extend one another.

A ruleset is data only; what the data means is decided by plugins (see ``hookspecs``).  Loading a ruleset
(finding it, resolving ``extends``, reporting every problem at once as ``file:line: key.path: message``) is in
``loading``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cached_property
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    ValidationInfo,
    field_validator,
    model_validator,
)

from .cards import parse_rank, parse_suit
from .errors import RulesetError
from .hashes import FORMER_HASHES
from .ladder import apply_ladder_changes
from .plain_yaml import MAX_YAML_DEPTH, MAX_YAML_NODES, load_plain_yaml  # noqa: F401 - re-exported

Int = StrictInt
"""A ruleset's integers are integers as written: never ``true`` (1), ``'300'`` or ``2.0``."""


class ReadOnlyDict(dict[str, Any]):
    """A dict that refuses changes: rulesets are frozen, mappings included (their hash depends on it)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("rulesets are immutable; use model_copy(update=...) to derive another")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]
    __ior__ = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (ReadOnlyDict, (dict(self),))


def _read_only(value: Any) -> Any:
    if isinstance(value, dict):
        return ReadOnlyDict({k: _read_only(v) for k, v in value.items()})
    return value


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="after")
    def _freeze_mappings(self) -> Any:
        for name in type(self).model_fields:
            value = self.__dict__[name]
            if isinstance(value, dict) and not isinstance(value, ReadOnlyDict):
                self.__dict__[name] = _read_only(value)
        return self


class Team(_Model):
    name: str
    seats: tuple[str, ...] = Field(min_length=1)


ADDED_FIELDS: tuple[tuple[Any, ...], ...] = (
    ("players", "call_own_card", False), ("players", "call_trumps", True), ("deal", "kitty_face_up", 0),
    ("auction", "ladder", "*", "before_looking", False), ("auction", "reentry", "never"),
)
"""Fields added since the record format's first version, with their defaults (a ``*`` for every item of a
list): left out of ``Ruleset.content_hash`` while at their defaults, so that a record made before they existed
still matches its ruleset."""


def _drop_added_defaults(content: Any, path: tuple[Any, ...]) -> None:
    *parents, key, default = path
    nodes = [content]
    for part in parents:
        nodes = [item for node in nodes for item in (node if part == "*" else [node[part]])]
    for node in nodes:
        if node.get(key, default) == default:
            node.pop(key, None)


class Players(_Model):
    seats: tuple[str, ...] = Field(min_length=2, description="Seat names in clockwise order.")
    teams: tuple[Team, ...] = Field(min_length=2, description="Sides that share one score.")
    dummies: dict[str, str] = Field(
        default_factory=dict,
        description="P2: a dummy seat and the seat that plays it (its partner); a dummy does not call.",
    )
    partnership: Literal["fixed", "called-card"] = Field(
        "fixed", description="P5 'called-card': after the exchange the contractor calls a card (or goes alone); "
        "its holder partners the contractor for the hand.",
    )
    called_partner_share: Literal["full", "half"] = Field(
        "full", description="P5: what the called partner scores of the contract's points.")
    call_own_card: bool = Field(
        False, description="P5: the contractor may call a card it holds itself, playing alone without the others "
        "knowing it (the hidden partner of the encyclopedia article “500 (juego de cartas)”).")
    call_trumps: bool = Field(True, description="P5: a trump may be called (false: a variant in the encyclopedia "
                              "article “500 (juego de cartas)” forbids it).")

    def team_of(self) -> tuple[int, ...]:
        """The team index of every seat, in seat order."""
        return self._seat_teams

    @cached_property
    def _seat_teams(self) -> tuple[int, ...]:  # worked out once: scoring asks every hand
        index = {seat: t for t, team in enumerate(self.teams) for seat in team.seats}
        return tuple(index[seat] for seat in self.seats)

    @model_validator(mode="after")
    def _teams_cover_seats(self) -> Players:
        named = [s for t in self.teams for s in t.seats]
        if sorted(named) != sorted(self.seats):
            raise ValueError(f"teams must list every seat exactly once; seats {list(self.seats)}, teams list {named}")
        if len(set(self.seats)) != len(self.seats):
            raise ValueError("seat names must be distinct")
        for dummy, controller in self.dummies.items():
            if dummy not in self.seats or controller not in self.seats:
                raise ValueError(f"dummies: {dummy!r} → {controller!r} names a seat that does not exist")
        return self


class Deck(_Model):
    suits: dict[str, tuple[str, ...]] = Field(description="Ranks of each suit, high to low, by suit letter.")
    jokers: Int = Field(1, ge=0, le=4, description="Jokers; the first (JK) outranks the second (JK2), D2/FC.")

    @field_validator("suits")
    @classmethod
    def _known_cards(cls, suits: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        for suit, ranks in suits.items():
            parse_suit(suit)
            for r in ranks:
                parse_rank(r)
            if len(set(ranks)) != len(ranks):
                raise ValueError(f"suit {suit} lists a rank twice")
        return suits


class Packet(_Model):
    each: Int | None = Field(None, ge=1, description="Cards to each player, starting at the dealer's left.")
    kitty: Int | None = Field(None, ge=1, description="Cards to the kitty.")
    dead: Int | None = Field(None, ge=1, description="P3: cards to a dead hand, face down, out of play.")

    @model_validator(mode="after")
    def _one_target(self) -> Packet:
        if sum(x is not None for x in (self.each, self.kitty, self.dead)) != 1:
            raise ValueError("a packet gives cards to exactly one of 'each' player, the 'kitty' or the 'dead' hand")
        return self


class Deal(_Model):
    packets: tuple[Packet, ...] = Field(min_length=1)
    first_dealer: Literal["random", "cut"] = Field("random", description="D5 'cut': the lowest card cut deals.")
    all_pass: Literal["redeal", "no-trumps", "same-cards", "dealer-must-bid"] = Field(
        "redeal", description="B10: all pass → the next dealer deals; or the hand is played at no-trumps for "
        "tricks; or the next dealer deals the same cards unshuffled; or the dealer may not pass last.",
    )
    redeals: Int = Field(0, ge=0, description="B10: the same dealer redeals this many times before the deal passes.")
    misdeal_without_face_card: Literal["no", "may", "must"] = Field(
        "no", description="D4: a hand with no J, Q, K or joker is (or may be called) a misdeal, redealt.")
    kitty_face_up: Int = Field(
        0, ge=0, description="FC: the last this many kitty cards dealt lie face up for every player to see.")


class Rung(_Model):
    call: str = Field(description="'6S'…'10NT' for suit and no-trump bids, else a name from 'contracts'.")
    value: Int
    requires_standing: str | None = Field(
        None, description="May be called only when the standing bid is at least this call (rule 10, B2, C4)."
    )
    first_calls: Int | None = Field(None, ge=1, description="B7: only the first N calls of the auction may be this.")
    first_own_call: bool = Field(False, description="B8: only as the caller's first call (a blind bid).")
    before_looking: bool = Field(
        False, description="B8: called only before the caller looks at its cards, in a round before the auction "
        "(a blind bid, in the encyclopedia article “500 (juego de cartas)”); never in the auction itself.")
    signal: bool = Field(False, description="B7 inkle: a signal that cannot become the contract.")


class RungChange(_Model):
    """A change to one rung of an inherited ladder, by its call (``auction.ladder_changes``): the fields
    given replace the rung's; ``after``/``before`` place the rung (a new one, or one moved)."""

    value: Int | None = None
    requires_standing: str | None = Field(None, description="As a rung's (null: none).")
    first_calls: Int | None = Field(None, ge=1)
    first_own_call: bool | None = None
    before_looking: bool | None = None
    signal: bool | None = None
    after: str | None = Field(None, description="Place the rung just above this call.")
    before: str | None = Field(None, description="Place the rung just below this call.")


class ContractType(_Model):
    kind: Literal["trumps", "no-trumps", "misere"] = Field(
        "misere", description="How the cards play: with a trump suit, without, or as misère (no trumps).")
    trump: str | None = Field(None, description="The trump suit letter, for kind 'trumps'.")
    goal: Literal["at-least", "none", "exactly"] = Field(
        "none", description="The contracting side must take at least / exactly 'tricks' tricks, or none.")
    tricks: Int = Field(0, ge=0)
    partner_plays: bool = Field(False, description="False: the contractor's partners sit the hand out.")
    open: bool = Field(False, description="The contractor's hand is shown after the first trick (open misère).")
    partner_open: bool = Field(False, description="The partner's hand is shown after the first trick (C2, C3).")
    kitty: bool = Field(True, description="False: played without the kitty (B9, C4 open misère).")
    kitty_to_partner: bool = Field(False, description="C1: the contractor passes the discards to the partner, "
                                   "who keeps the best and discards as many.")
    jacks_high: bool = Field(False, description="C8: each jack ranks above its ace (no-trumps only).")
    fail_penalty: Int = Field(0, description="Extra points lost on failure (C6 slam: 100).")
    fail_value: Int | None = Field(None, description="Points lost on failure instead of the value (C7: 500).")

    @model_validator(mode="after")
    def _trump_for_trumps(self) -> ContractType:
        if (self.kind == "trumps") != (self.trump is not None):
            raise ValueError("a 'trumps' contract names its trump suit, and only it does")
        if self.trump is not None:
            parse_suit(self.trump)
        return self


class Auction(_Model):
    rounds: Literal["unlimited", "single"] = Field("unlimited", description="B5 'single': each calls once.")
    rebid: Literal["always", "after-intervening-bid"] = Field(
        "always", description="B6: a bidder may bid again whenever the turn returns, or only after another bid.")
    winner_may_raise: bool = Field(False, description="B6: the auction winner may raise once after all passed.")
    reentry: Literal["never", "if-bid-changed"] = Field(
        "never", description="Rule 8: a pass is final; 'if-bid-changed' (Trickster Cards' 'bid after pass if bid "
        "changed'): a player who passed is asked again once the standing bid has changed since that pass.")
    ladder: tuple[Rung, ...] = Field(min_length=1, description="Every call, lowest first.")
    ladder_changes: dict[str, RungChange | None] = Field(
        default_factory=dict, exclude=True,
        description="Changes to the inherited ladder by call: {misere: {value: 300}} changes a rung, {10NT: null} "
        "removes one, {9NT: {value: 480, after: 9H}} inserts one (or moves it); applied when the ruleset is "
        "loaded, so the ladder holds the result (docs/rulesets.md).")
    set_bar: Int | None = Field(None, ge=1, description="R1: a contractor who falls this many tricks short "
                                "(or more) may not bid in the next hand.")
    set_bar_misere: Int | None = Field(None, ge=1, description="R1: … or takes this many tricks in misère.")

    @model_validator(mode="before")
    @classmethod
    def _changed_ladder(cls, data: Any) -> Any:
        """Apply ``ladder_changes`` given to the model directly (``load_ruleset`` has applied a file's)."""
        if isinstance(data, dict) and data.get("ladder_changes"):
            changed = {"auction": {**data, "ladder": list(data.get("ladder") or ())}}
            try:
                apply_ladder_changes(changed, {}, Rung.model_fields, "auction")
            except RulesetError as e:
                raise ValueError("; ".join(e.problems)) from None
            return changed["auction"]
        return data


class Kitty(_Model):
    taken_by: Literal["contractor"] = "contractor"


class Declarations(_Model):
    slam: list[Int] = Field(default_factory=list, description="C6: levels at which the contractor may call slam "
                            "after the exchange (partner passes one card and drops out; all tricks or lose "
                            "value + slam_penalty).")
    slam_penalty: Int = 100
    declare: bool = Field(False, description="C7: the contractor may declare: take the partner's best card, "
                          "discard one, play alone for all tricks; failure loses declare_value.")
    declare_value: Int = 500


class Play(_Model):
    first_lead: Literal["contractor", "dealer-left"] = Field("contractor", description="L1 'dealer-left'.")
    misere_ends_early: bool = Field(True, description="The hand stops once a misère contractor wins a trick.")
    claims: bool = Field(False, description="L2: the contractor may claim the remaining tricks.")
    claim_penalty: Int = Field(100, description="L2: what a wrong claim costs.")


class JokerInNoTrumps(_Model):
    nomination: Literal["contractor", "none", "when-played"] = Field(
        "contractor", description="Rule 19; J2 'when-played': the joker has no suit until played, then is named.")
    lead: Literal["unled-suit", "last-trick", "any"] = Field(
        "unled-suit", description="Rule 22; J1 'last-trick'; J5 'any'.")
    void_play_in_no_trumps: Literal["optional", "compulsory", "any-time"] = Field(
        "optional", description="Rule 21; J5 'any-time': may be played even when holding the suit led.")
    void_play_in_misere: Literal["optional", "compulsory", "any-time"] = "compulsory"
    no_renege: bool = Field(False, description="J3: may not be named as a suit its holder has shown void in.")
    first_or_last: bool = Field(False, description="J4: in no-trumps, only as the first or last card of a suit.")
    in_suit_contracts: Literal["top-trump", "none"] = Field(
        "top-trump", description="J2 'none': a no-trump-only card; in suit contracts it is out of the deck.")


class Trumps(_Model):
    colour_four: bool = Field(False, description="D3: the 4 of the trump suit's colour is a trump (13 trumps).")


class Slam(_Model):
    below: Int = Field(250, description="A contract worth less than this that takes every trick …")
    scores: Int = Field(250, description="… scores this instead of its value.")


class Scoring(_Model):
    slam: Slam | None = Field(Slam(), description="Rule 25; null: no slam bonus (S3, S4).")
    overtrick_points: Int = Field(0, description="S3: points per trick over the bid.")
    overtrick_cap: Int | None = Field(None, description="S3: a made contract scores at most this.")
    defender_trick_points: Int = Field(10, description="Rule 26; S6: 0.")
    defender_points_in_misere: Int = 0
    defender_cap: Int | None = Field(None, description="S5: defence points may not take a side past this (490).")
    failed: Literal["lose-value", "opponents-gain"] = Field(
        "lose-value", description="FC 'opponents-gain': a failed contract gives its value to the opponents.")
    breach: Int | None = Field(None, description="R2: the breach call's value, or null for no breach.")


class GameEnd(_Model):
    target: Int = 500
    win: Literal["contract-made", "any"] = Field("contract-made", description="Rule 30; E1 'any'.")
    both_reach: Literal["contractors", "higher"] = Field(
        "contractors", description="E1: if both sides pass the target in one hand.")
    swamp: Int | None = Field(-500, description="Rule 29: a side at or below this loses; null: never (E2).")
    swamp_strict: bool = Field(False, description="E3: only strictly below the swamp score loses.")
    swamp_needs_opponents_not_negative: bool = Field(False, description="E3.")
    spread: Int | None = Field(None, description="E4: one side positive, the other negative, this far apart.")
    exact_target: bool = Field(False, description="E5: the winner must finish exactly on the target …")
    bust: Int | None = Field(None, description="E5: … and a side passing this loses.")
    mid_hand: bool = Field(False, description="E6: a side reaching the target during a hand ends it, unless "
                           "the contractor can still win: make the contract and so reach the target (the 1904 rule).")


class Ruleset(_Model):
    name: str
    description: str = ""
    source: str = ""
    players: Players
    deck: Deck
    deal: Deal
    auction: Auction
    contracts: dict[str, ContractType] = Field(default_factory=dict)
    kitty: Kitty = Kitty()
    declarations: Declarations = Declarations()
    play: Play = Play()
    trumps: Trumps = Trumps()
    joker: JokerInNoTrumps = JokerInNoTrumps()
    scoring: Scoring = Scoring()
    game: GameEnd = GameEnd()
    house_rules: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="House-rule plugins switched on, with their options."
    )

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> Ruleset:
        if info.context and info.context.get("locate_problems"):
            return self  # load_ruleset reports them itself, each at its own line
        problems = self.consistency_problems()
        if problems:
            raise ValueError("; ".join(f"{'.'.join(map(str, path))}: {msg}" for path, msg in problems))
        return self

    def consistency_problems(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Contradictions between fields, each with the key path it concerns."""
        problems: list[tuple[tuple[str | int, ...], str]] = []
        calls = [r.call for r in self.auction.ladder]
        for i, rung in enumerate(self.auction.ladder):
            if not _is_suit_call(rung.call) and rung.call not in self.contracts:
                problems.append((("auction", "ladder", i, "call"), f"ladder call {rung.call!r} is neither a bid "
                                 "like '7H'/'7NT' nor a contract named in 'contracts'"))
            if rung.requires_standing and rung.requires_standing not in calls:
                problems.append((("auction", "ladder", i, "requires_standing"),
                                 f"requires_standing {rung.requires_standing!r} is not on the ladder"))
            if rung.call in calls[:i]:
                problems.append((("auction", "ladder", i, "call"), f"{rung.call!r} appears twice on the ladder"))
        for name in self.contracts:
            if name not in calls:
                problems.append((("contracts", name), f"contract {name!r} is never placed on the ladder"))
        return problems

    @property
    def content_hash(self) -> str:
        """A short hash of the resolved content, stored in game records (computed once per instance)."""
        cached: str | None = self.__dict__.get("_content_hash")
        if cached is None:
            content = self.model_dump(mode="json")
            for path in ADDED_FIELDS:  # at their defaults they leave the hash as it was before them
                _drop_added_defaults(content, path)
            text = json.dumps(content, sort_keys=True, separators=(",", ":"))
            cached = hashlib.sha256(text.encode()).hexdigest()[:16]
            cached = FORMER_HASHES.get(cached, cached)  # a shipped ruleset's prose reworded: the same hash
            self.__dict__["_content_hash"] = cached
        return cached

    @property
    def ancestors(self) -> tuple[str, ...]:
        """The shipped (or plugin-provided) rulesets this one was built on with ``extends:``, by name, nearest
        first (a file extended by path is passed through to what it extends); empty for a ruleset that
        extends none, or built in code.  Not part of the content: the club player's tuned parameters are
        looked up along it (``fivehundred.bots.params.tuned_source``)."""
        return self.__dict__.get("_ancestors", ())

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Ruleset:
        copy = super().model_copy(update=update, deep=deep)
        copy.__dict__.pop("_content_hash", None)  # the copy's content may differ
        return copy


def _is_suit_call(call: str) -> bool:
    return parse_call(call) is not None


def parse_call(call: str) -> tuple[int, int | None] | None:
    """``'7H'`` → (7, HEARTS), ``'7NT'`` → (7, None); None for a named contract."""
    text = call.upper()
    denomination, level = (None, text[:-2]) if text.endswith("NT") else (text[-1:], text[:-1])
    if not level.isdigit():
        return None
    try:
        return int(level), None if denomination is None else parse_suit(denomination)
    except ValueError:
        return None
