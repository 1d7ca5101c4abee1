"""Steps of a hand that plugins contribute.

A hand is dealt, called, exchanged and played.  Between those the rulesets add their own steps: a
called partner, a slam call and the partner's gift, a breach call, a blind bid, a house rule's
pass to the left before the auction…  Each is a ``Step`` object that a plugin returns from the
``fivehundred_hand_steps`` hook.  A step owns everything about itself: when it is due and who acts
(``actor``), its legal actions, how one is applied, why one is illegal (words and rule), its text,
how it is written to a game record, read back and printed (``show``), what every seat sees of it
(``public``) and what only some seats see (``private``: a card passed between partners).  The engine only
asks the steps of a ruleset, in order, which one is due, so it names no step itself.

A step changes the hand only through effects (``fivehundred.rules.effects``: cards moved, a hand laid out,
the deal thrown in, a standing bid, the auction or the play ended, the contract or the side changed),
which it hands to ``GameState.carry_out``: a new step needs no new engine method.

Steps keep what happened in the hand log's ``steps`` mapping under their own ``name`` (plain data:
it is copied with the state, and bots, records and scoring read it from there).

Where a step runs (``stage``):

- ``"before-auction"``: after the deal, before the first call;
- ``"call"``: during the auction.  Such a step's actions are offered to the seat about to call beside
  its calls, when ``actor`` names that seat (a misdeal called by a hand without a face card).  A call
  that throws the deal in (``carry_out(ThrowIn(caller=seat))``) joins the hand's calls, and a record
  writes it there as ``misdeal``, where the step's ``parse`` reads it back;
- ``"exchange"``: once the contractor has taken the kitty, before the first lead.  ``order`` places a
  step among the others of its stage: below ``DISCARDS_ORDER`` it comes before the discards (cards
  passed to the partner, who then discards), above it after them; the joker's nomination (rule 19)
  sits at ``NOMINATION_ORDER``.  Discards are made by whoever holds more cards than a hand has;
- ``"lead"``: during the play, whenever a trick is about to be led.  Such a step does not stop the
  play: its actions are offered to the leader beside the cards it may lead (a claim of the remaining
  tricks), when ``actor`` names the leader.  A record places them with ``recorded_before``.

Action ids: each step owns a ``range`` of ints (``actions``) that no other step or engine action
uses; the engine refuses a ruleset whose steps' ranges overlap.  The engine's own actions are below
``FIRST_STEP_ACTION``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from .actions import Phase
from .cards import faces

if TYPE_CHECKING:
    from fivehundred.engine.state import GameState, HandLog

    from .manager import Rules
    from .tables import Contract

Stage = Literal["before-auction", "call", "exchange", "lead"]
STAGES = ("before-auction", "call", "exchange", "lead")

DISCARDS_ORDER = 0
"""Where the discards (rule 14) fall among the exchange steps: steps ordered below come before them."""
NOMINATION_ORDER = 500
"""Where the joker's nomination (rule 19) falls among the exchange steps."""

FIRST_STEP_ACTION = 500
"""Steps' action ids start here (the engine's own stop below)."""


class Step:
    """One step of a hand, contributed by a plugin (see the module's text).

    Subclasses set the class attributes and implement ``actor``, ``legal`` and ``apply``; the rest has
    defaults that suit a step whose actions are cards or yes/no answers.
    """

    name: ClassVar[str] = ""
    """The step's name, also its key in ``HandLog.steps`` and in observations (``"partner-call"``)."""
    stage: ClassVar[Stage] = "exchange"
    order: ClassVar[int] = 0
    actions: ClassVar[range] = range(0)
    """The action ids this step owns."""
    record_key: ClassVar[str] = ""
    """The key of this step's field in a hand of a game record."""
    rule: ClassVar[str] = ""
    """The rule an illegal action of this step breaks (cited in errors)."""
    hides_own_hand: ClassVar[bool] = False
    """While this step is in progress nobody has looked at their cards: observations show no hand."""

    def begin(self, state: GameState) -> None:
        """Called once a hand is dealt, before anything else happens (the default does nothing): a step
        without actions may do all its work here, such as turning a kitty card face up."""

    # --- the step in play ---------------------------------------------------------------------

    def actor(self, state: GameState) -> int | None:
        """The seat to act in this step now, or None when the step is over or not needed this hand."""
        raise NotImplementedError

    def legal(self, state: GameState, seat: int) -> list[int]:
        """The legal actions of ``seat``, sorted."""
        raise NotImplementedError

    def apply(self, state: GameState, seat: int, action: int) -> None:
        """Carry out a legal action; record it in ``state.hand_log.steps[self.name]``."""
        raise NotImplementedError

    def why_illegal(self, state: GameState, seat: int, action: int) -> str:
        """Why an action of this step is not legal now (the rule is ``self.rule``)."""
        return "not one of the choices offered now"

    # --- text ----------------------------------------------------------------------------------

    def text(self, action: int) -> str:
        """The action as text (as records and the command line write it)."""
        return f"{self.name} {action - self.actions.start}"

    def parse(self, text: str) -> int:
        """The action ``text`` names; raises ValueError."""
        raise ValueError(f"{text!r} is not a {self.name} action")

    def kind(self, action: int) -> str:
        """The kind of action (``partner``, ``give``…), as ``fivehundred.rules.actions.action_kind`` names them."""
        return self.name

    # --- records -------------------------------------------------------------------------------

    def write(self, state: GameState, log: HandLog) -> dict[str, Any]:
        """This step's fields for the hand's record; empty when the step did not happen."""
        return {}

    def recorded(self, hand: Mapping[str, Any]) -> list[tuple[str | None, str]]:
        """The actions a hand record holds for this step, in order, as ``(seat name or None, text)``;
        None: the seat whose turn it is."""
        return []

    def recorded_before(self, hand: Mapping[str, Any], tricks: int) -> list[tuple[str | None, str]]:
        """For a step of the play (stage ``"lead"``): the recorded actions made at the lead after
        ``tricks`` tricks, as ``recorded`` gives them."""
        return []

    def disagrees(self, state: GameState, hand: Mapping[str, Any]) -> str | None:
        """Why this step's field in the hand's record disagrees with the replay of its actions so far
        (a ruling the record states, such as a claim upheld), or None; asked after each of them."""
        return None

    def unrecorded(self, state: GameState, seat: int) -> str | None:
        """The action to assume when a record holds no more actions for this step (an older format
        that left the default out), or None: the record is missing it."""
        return None

    def show(self, hand: Mapping[str, Any]) -> list[str]:
        """What this step did in a hand of a record, as ``fivehundred show`` prints it: a line each, seats
        by name, cards and calls with their suit symbols (``faces``); nothing when the hand holds no field
        of this step.  The default names the field and writes its recorded actions (``recorded``) in
        their text, or else the field's value (``field_text``)."""
        value = hand.get(self.record_key) if self.record_key else None
        if value in (None, "", [], {}):
            return []
        label = self.record_key.replace("_", " ")
        actions = self.recorded(hand)
        if not actions:
            return [f"{label}: {field_text(value)}"]
        return [f"{label}: " + ", ".join(faces(text) if seat is None else f"{seat} {faces(text)}"
                                         for seat, text in actions)]

    # --- score sheets --------------------------------------------------------------------------

    scored: ClassVar[bool] = False
    """Whether the hand's score depends on what this step did (it reads ``HandOutcome.steps``): a score
    sheet must then say it, in ``sheet_column``, or the ruleset cannot be scored from a sheet."""
    sheet_column: ClassVar[str] = ""
    """The column of a score sheet that says what this step did in a hand ("": a sheet cannot say it)."""

    def from_sheet(self, text: str, rules: Rules, contract: Contract, contractor: int, side: Sequence[int]) -> Any:
        """What this step keeps in ``HandLog.steps`` for a sheet's cell ``text`` in a hand of ``contract``
        (as the auction left it) played by ``contractor`` and ``side`` (seat indexes); ValueError saying
        why it cannot be."""
        raise ValueError(f"a score sheet cannot say what {self.name} did")

    def sheet_contract(self, data: Any, contract: Contract, rules: Rules) -> Contract:
        """The contract once this step has done ``data`` (as ``from_sheet`` gives it): the auction's
        unless the step changes it (the ``SetContract`` effect)."""
        return contract

    def plays_every_trick(self, data: Any, contract: Contract) -> bool:
        """Whether, having done ``data`` (as ``from_sheet`` gives it) in a hand of ``contract``, this step
        has the hand played to its last trick, even a misère the contractor has lost."""
        return False

    # --- what the seats see ------------------------------------------------------------------

    def public(self, state: GameState, log: HandLog) -> Any:
        """What every seat may know of this step in this hand (None: nothing yet)."""
        return log.steps.get(self.name)

    def private(self, state: GameState, log: HandLog, seat: int) -> Any:
        """What ``seat`` knows of this step in this hand beyond ``public`` (None: nothing more), such as a
        card passed between two seats, which those two know and the others do not (``private_steps``)."""
        return None

    def copy_data(self, data: Any) -> Any:
        """A copy of this step's data for ``clone()`` (a deep copy unless the data is immutable)."""
        return copy.deepcopy(data)

    # --- as numbers, for the research frameworks' tensors (``fivehundred.adapters``) ------------------

    def public_size(self, rules: Rules) -> int:
        """How many entries of 0 and 1 say all that ``public`` can answer under ``rules`` (0: this step
        shows nothing in the tensors)."""
        return 0

    def public_indices(self, public: Any, rules: Rules) -> Iterable[int]:
        """The entries (each below ``public_size``) set to 1 for ``public``, an answer of ``public()``."""
        return ()

    def private_size(self, rules: Rules) -> int:
        """How many entries of 0 and 1 say all that ``private`` can answer under ``rules`` (0: this step
        shows a seat nothing of its own in the tensors)."""
        return 0

    def private_indices(self, private: Any, rules: Rules) -> Iterable[int]:
        """The entries (each below ``private_size``) set to 1 for ``private``, an answer of ``private()``."""
        return ()


def private_steps(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` alone (with the seats a step names) knows of the plugins' steps this hand, beyond what
    every seat knows (``GameState.public_steps``), by step name (``Step.private``)."""
    if not state.hands_log or state.phase == Phase.DEAL or not state.hands_log[-1].steps:
        return {}
    log = state.hands_log[-1]
    known = ((step.name, step.private(state, log, seat)) for step in state.rules.steps if step.name in log.steps)
    return {name: data for name, data in known if data is not None}


def field_text(value: Any) -> str:
    """A field of a record as a person reads it: cards and calls with their suit symbols, yes and no,
    lists joined by commas, mappings as their keys and values (``{"seat": "W", "breach": true}`` →
    ``seat W, breach yes``)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return faces(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{str(key).replace('_', ' ')} {field_text(item)}" for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return "; ".join(field_text(item) for item in value) if any(
            isinstance(item, (Mapping, list, tuple)) for item in value) else ", ".join(map(field_text, value))
    return str(value)


def contractor_of(hand: Mapping[str, Any]) -> str:
    """The contractor's seat in a hand of a record (``the contractor`` when the record does not say)."""
    return str((hand.get("contract") or {}).get("contractor") or "the contractor")


def holder_of(hand: Mapping[str, Any], card: str) -> str | None:
    """The seat dealt ``card`` in a hand of a record (a kitty card: the contractor's), or None."""
    held = next((seat for seat, cards in (hand.get("hands") or {}).items() if card in cards), None)
    if held is None and card in (hand.get("kitty") or ()):
        return (hand.get("contract") or {}).get("contractor")
    return held


def card_position(rules: Rules, card: int) -> int:
    """A card's place in the ruleset's deck in card order (how the tensors number cards)."""
    return sorted(rules.deck).index(card)


def check_steps(steps: Sequence[Step], reserved: Sequence[range]) -> None:
    """Raise ValueError when steps share a name or an action id, or use the engine's ``reserved`` ids."""
    seen: dict[int, str] = {}
    names: set[str] = set()
    for step in steps:
        if not step.name or step.name in names:
            raise ValueError(f"step {type(step).__name__}: a step needs a name of its own ({step.name!r})")
        names.add(step.name)
        if step.stage not in STAGES:
            raise ValueError(f"step {step.name!r}: unknown stage {step.stage!r}")
        for engine in reserved:
            if len(range(max(step.actions.start, engine.start), min(step.actions.stop, engine.stop))):
                raise ValueError(f"step {step.name!r}: action ids {step.actions} overlap the engine's {engine}")
        for action in step.actions:
            if action in seen:
                raise ValueError(f"steps {seen[action]!r} and {step.name!r} both use action id {action}")
            seen[action] = step.name
