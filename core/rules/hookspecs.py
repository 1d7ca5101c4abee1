"""Every hook of fivehundred, in one place: the whole extension surface.

Plugins implement these with ``@fivehundred.hookimpl``.  Unless a hook says otherwise it is
*first result*: implementations run newest-registered first, the first one that returns something
other than None decides, and the built-in implementation (``trylast=True``) decides when no other
does.  A house rule therefore returns None when its switch (``ruleset.house_rules``) is off.

To adjust rather than replace a built-in answer, write a wrapper:
``@hookimpl(wrapper=True)`` receives the built-in result from ``yield`` and returns its own.

All hooks are asked once per ruleset or once per contract, never once per card: their answers are
tables (``fivehundred.rules.tables``) that the engine executes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from fivehundred.bots.players import Player

    from .auction import AuctionRules
    from .ruleset import Ruleset
    from .steps import Step
    from .tables import Contract, GameResult, HandOutcome, JokerRules, PlayTable

hookspec = pluggy.HookspecMarker("fivehundred")


# --- cards and the deal ---------------------------------------------------------------------


@hookspec(firstresult=True)
def fivehundred_build_deck(ruleset: Ruleset) -> list[int] | None:
    """Build the deck, as card ids (``fivehundred.rules.cards``), in a fixed order before shuffling.

    :param ruleset: the ruleset being compiled.
    :return: the cards, or None to let other plugins decide.
    """


@hookspec(firstresult=True)
def fivehundred_deal_pattern(ruleset: Ruleset) -> list[tuple[str, int]] | None:
    """The dealing pattern: packets of ``("each", n)`` (n to every player, from the dealer's
    left) or ``("kitty", n)``, in order.

    :return: the packets, or None to let other plugins decide.
    """


@hookspec(firstresult=True)
def fivehundred_first_dealer(ruleset: Ruleset, rng: random.Random) -> int | None:
    """Choose the first dealer's seat index.

    :param rng: the game's seeded generator; use no other source of randomness.
    :return: a seat index, or None to let other plugins decide.
    """


# --- the auction ----------------------------------------------------------------------------


@hookspec(firstresult=True)
def fivehundred_bid_ladder(ruleset: Ruleset) -> list[Contract] | None:
    """The bid ladder, lowest call first: each rung is the contract that call makes.

    :return: the rungs, or None to let other plugins decide.
    """


@hookspec(firstresult=True)
def fivehundred_auction_rules(ruleset: Ruleset, ladder: Sequence[Contract]) -> AuctionRules | None:
    """The order of calls and which calls are legal when (``fivehundred.rules.auction.AuctionRules``).

    :param ladder: the ruleset's resolved ladder.
    :return: the auction rules, or None to let other plugins decide.
    """


# --- the joker and the play -----------------------------------------------------------------


@hookspec(firstresult=True)
def fivehundred_joker_rules(ruleset: Ruleset, contract: Contract) -> JokerRules | None:
    """How the joker behaves under ``contract``: trump or free, nomination, leading it, and
    whether a player void in the suit led must play it.

    :return: the joker rules, or None to let other plugins decide.
    """


@hookspec(firstresult=True)
def fivehundred_trick_table(
    ruleset: Ruleset, contract: Contract, joker: JokerRules, nomination: int | None, deck: Sequence[int],
    nominated: frozenset[int],
) -> PlayTable | None:
    """Rank tables and legal-play data for a hand played under ``contract``.

    :param joker: the joker rules for this contract.
    :param nomination: the suit the contractor nominated for the joker, or None.
    :param deck: the ruleset's deck.
    :param nominated: the jokers the nomination applies to (those the contractor holds; D2's other
      joker, held by a defender, stays free).
    :return: the table, or None to let other plugins decide.
    """


# --- steps of a hand ------------------------------------------------------------------------


@hookspec
def fivehundred_hand_steps(ruleset: Ruleset) -> list[Step] | None:
    """The steps this plugin adds to every hand of ``ruleset`` (``fivehundred.rules.steps.Step``): a called
    partner, a slam call, a breach call, a pass before the auction…  All implementations run; the
    engine orders the steps by stage and ``Step.order``.  Asked once per ruleset.

    :return: the steps (an empty list or None when the ruleset asks for none of this plugin's).
    """


# --- scoring and the end of the game --------------------------------------------------------


@hookspec(firstresult=True)
def fivehundred_score_hand(ruleset: Ruleset, outcome: HandOutcome) -> list[int] | None:
    """Points each team scores for a played hand (index as ``ruleset.players.teams``).

    :param outcome: the contract, who made it, and the tricks taken.
    :return: points per team, or None to let other plugins decide.
    """


@hookspec(firstresult=True)
def fivehundred_game_result(
    ruleset: Ruleset, totals: Sequence[int], outcome: HandOutcome
) -> GameResult | None:
    """Decide whether the game ends after a scored hand.

    :param totals: each team's running total, the hand just scored included.
    :param outcome: the hand just scored.
    :return: ``GameResult(winner, reason)``, or None to play on (the built-in decides last;
      a plugin cannot make the game continue once the built-in ends it).
    """


@hookspec(firstresult=True)
def fivehundred_trick_check(ruleset: Ruleset) -> Callable[[Any], bool] | None:
    """A check run after every trick, or None (the reference: no check, and no cost).

    Asked once per ruleset.  The returned function gets the ``GameState`` and returns True to end
    the hand at once (it is then scored with the tricks taken so far), e.g. E6: a side reaching
    the target during a hand ends it unless the contractor can still win by making the contract.

    :return: the check, or None to let other plugins decide.
    """


# --- discovery ------------------------------------------------------------------------------


@hookspec
def fivehundred_register_players(register: Callable[[str, Callable[..., Player]], None]) -> None:
    """Register player factories by name: ``register("heuristic", HeuristicPlayer)``.

    A factory is called as ``factory(seat=int, rng=random.Random)``.  All implementations run.
    """


@hookspec
def fivehundred_ruleset_paths() -> list[Path] | None:
    """YAML ruleset files this plugin ships, known by their file stem.  All implementations run."""


@hookspec
def fivehundred_house_rules() -> list[str] | None:
    """Names of the house rules this plugin implements (keys of ``ruleset.house_rules``).
    All implementations run."""


@hookspec
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]] | None:
    """Problems a validated ruleset still has, as ``(key, message)``.  All implementations run."""
