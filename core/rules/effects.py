"""What a plugin's step may change in a hand: the effects it asks the engine to carry out.

A step (``fivehundred.rules.steps.Step``) reads the state through its public read API and changes it only
by handing effects to ``GameState.carry_out(*effects)``.  The effects are general (cards moved between
hands, a hand laid out, the deal thrown in, a bid standing or the auction ended, the hand's terms
changed, the play ended with its tricks awarded), so that a new step needs no new engine method: what
a variant means by them (a gift, a misdeal, a claim) stays in its plugin.  The engine checks that an
effect fits the moment (cards change hands only before the play, tricks are awarded only between
tricks…) and raises ``IllegalActionError`` (or ``ValueError`` for a step's own mistake) when it does not.

Each effect is a frozen value; ``docs/plugins.md`` lists them with the steps that use them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .tables import Contract


@dataclass(frozen=True, slots=True)
class MoveCard:
    """``card`` leaves ``giver``'s hand for ``receiver``'s, before the play (a card passed, a gift)."""

    card: int
    giver: int
    receiver: int


@dataclass(frozen=True, slots=True)
class LayOut:
    """``seat``'s hand is laid out on the table as it is dealt (from ``Step.begin``): ``under`` maps each
    face-up card to the face-down card under it, which joins the hand once the card over it has been
    played and its trick is over.  Every seat sees the face-up cards; the hand shows no void."""

    seat: int
    under: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ThrowIn:
    """The deal is thrown in before the play (a misdeal): the same dealer deals again.  ``caller``, when
    given, threw it in by a call, which joins the hand's calls (``THROWN_IN_CALL``, written ``misdeal``)."""

    caller: int | None = None


@dataclass(frozen=True, slots=True)
class StandingBid:
    """Before the auction: ``seat``'s bid ``call`` (a rung of the ladder) stands when the auction opens, and
    the calls go on from the bidder's left (a blind bid)."""

    seat: int
    call: int


@dataclass(frozen=True, slots=True)
class EndAuction:
    """The auction ends now: ``holder`` (-1: nobody) wins it with ``call`` (a rung; -1 when nobody holds a
    bid, which the auction rules' ``all_passed`` then settles), as if every other seat had passed."""

    holder: int
    call: int


@dataclass(frozen=True, slots=True)
class SetContract:
    """The hand is played for ``contract`` from now on, in place of the auction's (a slam call)."""

    contract: Contract


@dataclass(frozen=True, slots=True)
class SetSide:
    """The contracting side is ``seats`` this hand (the contractor and a called partner)."""

    seats: frozenset[int]


@dataclass(frozen=True, slots=True)
class OweDiscards:
    """The contractor owes ``count`` more discards (after receiving a card)."""

    count: int


@dataclass(frozen=True, slots=True)
class PlayEveryTrick:
    """The hand is played to its last trick: a contract to take none (a misère) then goes on past the
    side's first trick, which otherwise decides it (a breach counted on the misère side's tricks)."""


@dataclass(frozen=True, slots=True)
class EndPlay:
    """The play ends now, between two tricks, with every trick still to play awarded to ``rest_to``
    (an upheld claim); the hand is scored."""

    rest_to: int


Effect = MoveCard | LayOut | ThrowIn | StandingBid | EndAuction | SetContract | SetSide | OweDiscards | \
    PlayEveryTrick | EndPlay
"""Everything a step may ask of the engine."""
