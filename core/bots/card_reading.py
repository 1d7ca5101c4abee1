"""Reading the calls and cards the other seats have made: how many of them ``club`` would not have made with the
cards a sampled world gives those seats.

A world of ``determinise``'s agrees with what the seat has seen (the voids shown, the cards played) but not with
why each call and card was chosen: a defender who led the ♠A holds the ♠K more often than a uniform world says.
Where the others play as ``club`` does (or near it), the worlds in which ``club`` would have made the same calls
and played the same cards are the likely ones.  ``play_surprises`` replays the hand in a world, from the deal
through the calls and the exchange as the world's log holds them, and at each call (``READ_CALLS``) and card of a
seat whose cards the world deals asks ``club`` (one player per seat, ``bots``) what it would have done there: each
other call (pass, or the denomination) and each other card is a surprise.  The ``solver`` player draws its worlds
by ``exp(-SURPRISE * surprises)`` (``solved_worlds.sample_worlds``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from fivehundred.engine.state import GameState
from fivehundred.rules.actions import DISCARD, JOKER_LEAD, NO_NOMINATION, NOMINATE, Phase
from fivehundred.rules.cards import JOKER_BASE
from fivehundred.rules.errors import FiveHundredError

from .montecarlo import calls_read, replayed_deal

READ_CALLS = True
"""Whether the calls of the seats the world deals are read too (``club``'s call made in the world, or another)."""
SURPRISE = 2.0
"""A world's weight is ``exp(-SURPRISE * m)``, m the calls and cards of the others that ``club`` would not have
made."""


def play_surprises(world: GameState, hidden: Collection[int], bots: Sequence[Any], cap: int) -> int:
    """How many cards played this hand by the seats of ``hidden`` (those whose cards the world dealt) ``bots`` would
    not have played in ``world``, up to ``cap``: ``cap`` where the world could not have been played so (a card not
    legal in it: a rule of the play the seat's knowledge of voids does not read), 0 where the replay cannot follow
    the hand (a plugin's step after the auction, dummies)."""
    if world.rules.dummies:  # P2: the replay deals no dummy's face-down cards under its face-up ones
        return 0
    try:
        return replayed_surprises(world, hidden, bots, cap)
    except FiveHundredError:
        return 0


def replayed_surprises(world: GameState, hidden: Collection[int], bots: Sequence[Any], cap: int) -> int:
    """``play_surprises``, by replaying the hand; raises ``FiveHundredError`` where the replay cannot follow it."""
    replay = replayed_deal(world)
    surprises = calls_read(replay, world, hidden if READ_CALLS else (), bots, cap)
    if surprises >= cap:
        return cap
    _exchange(replay, world)
    return surprises + _plays(replay, world, hidden, bots, cap - surprises)


def _exchange(replay: GameState, world: GameState) -> None:
    """The world's discards and nomination made on ``replay``, up to the first lead."""
    log = world.hands_log[-1]
    discards = iter(log.discards)
    while replay.phase != Phase.PLAY:
        if replay.phase == Phase.DISCARD:
            replay.apply(DISCARD + next(discards))
        elif replay.phase == Phase.NOMINATE:
            replay.apply(NO_NOMINATION if log.nomination is None else NOMINATE + log.nomination)
        else:
            raise FiveHundredError(f"the replay of the exchange cannot make a step ({replay.phase.name})")


def _plays(replay: GameState, world: GameState, hidden: Collection[int], bots: Sequence[Any], cap: int) -> int:
    controller = world.rules.controller
    surprises = 0
    done = world.hands_log[-1].tricks
    for i, (leader, cards, named) in enumerate(world.observation(world.current_player()).tricks_played()):
        if replay.current_player() != leader:
            raise FiveHundredError(f"the replayed play has seat {replay.current_player()} to lead, not {leader}")
        follow_names = (done[i].follow_names if i < len(done) else None) or {}
        for card in cards:
            s = replay.current_player()
            legal = replay.legal_actions()
            action = _action(card, named if s == leader else follow_names.get(card), legal)
            if action is None:  # the world breaks a rule the seat's knowledge does not read (a void joker's)
                return cap
            if s in hidden and len(legal) > 1 and _card(bots[controller[s]].act(replay, legal)) != card:
                surprises += 1
                if surprises >= cap:
                    return surprises
            replay.apply_unchecked(action)
    return surprises


def _card(action: int) -> int:
    """The card an action of the play plays (a joker led with a suit named: the joker)."""
    return JOKER_BASE + (action - JOKER_LEAD) // 4 if JOKER_LEAD <= action < JOKER_LEAD + 16 else action


def _action(card: int, named: int | None, legal: Sequence[int]) -> int | None:
    """The legal action that plays ``card`` (naming ``named`` for a joker), None when the card is not legal."""
    if card in legal:
        return card
    return next((a for a in legal if _card(a) == card and (named is None or (a - JOKER_LEAD) % 4 == named)), None)
