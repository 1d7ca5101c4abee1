"""What one seat may know (``Observation``, ``GameState.observation(seat)``): its own cards and everything
played or announced in public."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fivehundred.rules.actions import Phase
from fivehundred.rules.steps import private_steps
from fivehundred.rules.tables import Contract, PlayTable

from .exchange import next_seats
from .reading import voids_shown

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may know: its own cards and everything played or announced in public."""

    seat: int
    phase: Phase
    dealer: int
    hand: tuple[int, ...]
    calls: tuple[tuple[int, int], ...]
    contract: Contract | None
    contractor: int
    nomination: int | None
    discards: tuple[int, ...]
    """The seat's own discards (only the contractor has any)."""
    tricks: tuple[tuple[int, tuple[int, ...], int, int | None], ...]
    current_trick: tuple[int, ...]
    led: int | None
    """The suit led to the current trick (for a free joker led, the suit named for it)."""
    leader: int
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    open_hand: tuple[int, ...] | None
    """The open misère contractor's hand, once exposed."""
    open_hands: tuple[tuple[int, tuple[int, ...]], ...]
    """Every exposed hand as (seat, cards): the open misère contractor's, a partner's whose contract shows
    it (``Contract.partner_open``)."""
    sitting_out: int
    sitting: tuple[int, ...] = ()
    """Every seat sitting the hand out (the misère contractor's partners)."""
    step: str | None = None
    """The plugin step in progress (``Phase.STEP``), by name."""
    steps: dict[str, Any] = field(default_factory=dict)
    """What every seat may know of the plugins' steps this hand, by step name (``Step.public``)."""
    seen: dict[str, Any] = field(default_factory=dict)
    """What this seat alone (with the others a step names) knows of the steps this hand, beyond ``steps``
    (``Step.private``: the card given to it or by it)."""

    # --- what the seat may work out (``fivehundred.engine.reading``: one statement of each, the state's too) ---

    def play_order(self, players: int) -> tuple[int, ...]:
        """``play_order(players)[s]`` plays after ``s`` this hand (the seats sitting out skipped):
        ``next_seats``, as ``GameState.play_order``."""
        return next_seats(players, self.sitting)

    def tricks_played(self) -> list[tuple[int, Sequence[int], int | None]]:
        """Every trick of the hand as ``(leader, cards, suit named for a free joker led)``, the trick in
        progress last (its suit led stands for the name: they agree)."""
        tricks: list[tuple[int, Sequence[int], int | None]] = [
            (leader, cards, named) for leader, cards, _winner, named in self.tricks]
        if self.current_trick:
            tricks.append((self.leader, self.current_trick, self.led))
        return tricks

    def voids_shown(self, table: PlayTable, players: int, laid_out: Collection[int] = ()) -> list[int]:
        """The suits each seat has shown it holds none of, a bit per suit, as ``GameState.voids`` counts them
        (``voids_shown``; ``table``: the hand's play table, ``GameState.play_table``)."""
        return voids_shown(self.tricks_played(), self.play_order(players), table, players, laid_out)

    def known_cards(self) -> set[int]:
        """The cards this seat has seen this hand: its hand, its own discards, every exposed hand, every card
        played."""
        known = set(self.hand) | set(self.discards)
        for _, cards in self.open_hands:
            known.update(cards)
        for _, played, _named in self.tricks_played():
            known.update(played)
        return known

    def unseen(self, deck: Iterable[int]) -> tuple[int, ...]:
        """The cards of ``deck`` (the ruleset's) this seat has not seen this hand, sorted (``known_cards``)."""
        known = self.known_cards()
        return tuple(card for card in sorted(deck) if card not in known)


_DEAL = Phase.DEAL


def observe(state: GameState, seat: int) -> Observation:
    """What ``seat`` knows now; other hands, the kitty and others' discards stay hidden."""
    log = state.hands_log[-1] if state.hands_log and state.phase != _DEAL else None
    contractor = log.contractor if log else -1
    trick = state.trick
    hand, discards, shown = state.cards_seen(seat)
    exposed = next((cards for s, cards in shown if s == contractor), None)
    step = state.current_step
    return Observation(
        seat=seat, phase=state.phase, dealer=state.dealer,
        hand=hand,
        calls=tuple(log.calls) if log else (),
        contract=log.contract if log else None, contractor=contractor,
        nomination=log.nomination if log else None,
        discards=discards,
        tricks=tuple((t.leader, tuple(t.cards), t.winner, t.named) for t in log.tricks) if log else (),
        current_trick=trick, led=state.led_suit, leader=state._leader if log else -1,
        tricks_won=state.tricks_won_by_seat if log else (), totals=tuple(state.totals),
        open_hand=exposed, open_hands=shown,
        sitting_out=state._sitting_out if log else -1, sitting=tuple(sorted(state.sitting_out)) if log else (),
        step=step.name if step is not None else None,
        steps=state.public_steps(),
        seen=private_steps(state, seat) if log and log.steps else {},
    )
