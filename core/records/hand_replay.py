"""Replaying a record's hands under its ruleset, step by step: the deal, the plugins' steps, each call, discard,
nomination and card is applied to a ``GameState``; the first action the rules refuse, or a recorded contract,
trick, value, score or total that differs from what the rules give, raises ``_Invalid`` naming the step, the
seat, the action, the record's field and the rule (``validation`` reads the whole record with it).
"""

from __future__ import annotations

from typing import Any

from fivehundred.engine.state import (
    DISCARD,
    NO_NOMINATION,
    NOMINATE,
    PASS_ACTION,
    GameState,
    Phase,
    parse_action_text,
)
from fivehundred.rules import rules_text as R
from fivehundred.rules.cards import parse_card, parse_suit
from fivehundred.rules.effects import PlayEveryTrick
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.manager import Rules

from .problems import MISDEAL, NUMBERING, _Invalid
from .record import record_schema


def _seat(rules: Rules, name: Any, what: str) -> int:
    try:
        return rules.seats.index(name)
    except ValueError:
        raise _Invalid(f"{what}: unknown seat {name!r} (seats: {', '.join(rules.seats)})") from None


class _Replay:
    """Replays one record's hand at a time, counting steps."""

    def __init__(self, rules: Rules, first_dealer: int, totals: list[int] | None = None, number: int = 1):
        self.rules = rules
        self.state = GameState(rules, first_dealer=first_dealer)
        if totals is not None:
            self.state.start_at(totals, number)
        self.step = 0
        self._replayed: dict[str, int] = {}
        """How many of each step's recorded actions this hand has replayed."""
        self.actions: list[int] = []
        """Every action replayed, in the game's order (``record_actions``)."""

    def act(self, seat: int, text: str, parse: Any = None, field: str | None = None) -> None:
        self.step += 1
        state = self.state
        try:
            action = parse(text) if parse else state.parse_action(text)
        except (ValueError, KeyError) as e:
            raise _Invalid(f"cannot read the action: {e}", step=self.step, seat=self.rules.seats[seat],
                           action=text, field=field) from None
        try:
            state.apply(action, seat=seat)
        except IllegalActionError as e:
            raise _Invalid(str(e), step=self.step, seat=self.rules.seats[seat], action=text, rule=e.rule,
                           field=field) from None
        self.actions.append(action)

    def hand(self, h: dict[str, Any]) -> None:
        rules, state = self.rules, self.state
        self.step = 0
        unknown = sorted(set(h) - _ENGINE_FIELDS - {step.record_key for step in rules.steps})
        if unknown:  # the schema lets a hand carry a step's own record; no step of this ruleset records these
            known = "" if set(unknown) - _HAND_FIELDS else "hand field"
            raise _Invalid(f"{known or 'unknown hand field'}{'s' * (len(unknown) > 1)} "
                           f"{', '.join(map(repr, unknown))}: no step of ruleset {rules.ruleset.name!r} records "
                           f"{'them' if len(unknown) > 1 else 'it'}", step=0, field=unknown[0])
        dealer = _seat(rules, h["dealer"], "dealer")
        if dealer != state.dealer:
            raise _Invalid(f"dealer is {h['dealer']} but the deal passes to {rules.seats[state.dealer]}",
                           step=0, rule=R.DEALER, field="dealer")
        if not isinstance(h["hands"], dict) or set(h["hands"]) != set(rules.seats):
            raise _Invalid(f"the hands are dealt to {sorted(h['hands'])} but the seats are {', '.join(rules.seats)}",
                           step=0, rule="rule 6: the deal pattern", field="hands")
        hands = [[parse_card(c) for c in h["hands"][seat]] for seat in rules.seats]
        try:
            state.deal_cards(hands, [parse_card(c) for c in h["kitty"]], [parse_card(c) for c in h.get("dead", [])])
        except IllegalActionError as e:
            raise _Invalid(str(e), step=0, rule=e.rule, field="hands") from None
        log = state.hands_log[-1]
        if h["number"] != log.number:
            raise _Invalid(f"the hand is numbered {h['number']!r} but it is deal {log.number} of the game",
                           step=0, rule=NUMBERING, field="number")
        self._replayed = {}
        while state.phase == Phase.STEP:  # the plugins' steps before the auction
            self._step(h, set())
        for k, call in enumerate(h["calls"]):
            self._call(_seat(rules, call["seat"], "call"), call["call"], f"calls[{k}]")
        if h.get("unfinished") is not None and state.phase == Phase.AUCTION:
            return  # the record stops in the auction
        if log.misdeal != bool(h.get("misdeal")):
            raise _Invalid(f"the record says misdeal={bool(h.get('misdeal'))} but the rules say {log.misdeal}",
                           step=self.step, rule=MISDEAL, field="misdeal")
        if log.misdeal:
            self._nothing_after_the_auction(h, MISDEAL)
            return
        self._contract(h)
        if log.contract is None:
            self._nothing_after_the_auction(h, R.PASSED_OUT)
            return
        if not self._exchange(h):
            return  # the record stops in the exchange
        self._tricks(h, log)
        if h.get("unfinished") is None:
            self._value(h, log)
            self._scores(h)

    def _call(self, seat: int, text: str, field: str) -> None:
        """Replay one recorded call: read as a call whatever the phase, and refused once the auction is over."""
        state, rules = self.state, self.rules
        if state.phase == Phase.AUCTION:
            self.act(seat, text, None, field)  # a call, or what a step offers beside the calls (a misdeal)
            return
        self.step += 1
        name = rules.seats[seat]
        try:
            call = parse_action_text(text, Phase.AUCTION, rules.parse_call)
        except (ValueError, KeyError) as e:
            raise _Invalid(f"cannot read the call: {e}", step=self.step, seat=name, action=text,
                           field=field) from None
        log = state.hands_log[-1]
        raise_ = seat == log.contractor and call != PASS_ACTION
        raise _Invalid(f"{name} calls {text} after the auction ended"
                       + (f" with {log.contract.call} standing" if log.contract is not None else ""),
                       step=self.step, seat=name, action=text, field=field,
                       rule=R.CONTRACTOR_RAISE if raise_ else R.AUCTION_OVER)

    def _nothing_after_the_auction(self, h: dict[str, Any], rule: str) -> None:
        """A deal thrown in or passed out (rule 13) records no contract, exchange, play or score."""
        state, rules = self.state, self.rules
        if h.get("contract") is not None:
            raise _Invalid(f"recorded contract {h['contract']} but the deal ended with the auction",
                           step=self.step, rule=rule, field="contract")
        for key in ("discards", "tricks", "outcome"):
            if h.get(key):
                raise _Invalid(f"the record has {key} {h[key]!r} but the deal ended with the auction",
                               step=self.step, rule=rule, field=key)
        if h.get("nomination") is not None:
            raise _Invalid(f"the record nominates {h['nomination']} but the deal ended with the auction",
                           step=self.step, rule=rule, field="nomination")
        for step in rules.steps:
            if step.stage != "before-auction" and step.recorded(h):
                raise _Invalid(f"the record has {step.record_key} {h[step.record_key]!r} but the deal ended "
                               "with the auction", step=self.step, rule=rule, field=step.record_key)
        unchanged = (("tricks_won", [0] * rules.players, rules.seats),
                     ("scores", [0] * len(rules.team_names), rules.team_names),
                     ("totals", state.totals, rules.team_names))
        for key, values, names in unchanged:  # absent, empty, or nothing won and nothing scored
            actual = dict(zip(names, values, strict=True))
            if h.get(key) and h[key] != actual:
                raise _Invalid(f"recorded {key} {h[key]} but nothing is scored: {actual}", step=self.step,
                               rule=rule, field=key)

    def _exchange(self, h: dict[str, Any]) -> bool:
        """Replay the steps between the auction and the play in the order the rules ask for them;
        False when an unfinished record stops before the play."""
        state = self.state
        discards = iter(h.get("discards", []))
        used: set[str] = set()
        while state.phase not in (Phase.PLAY, Phase.DEAL, Phase.GAME_OVER):
            seat = state.current_player()
            phase = state.phase
            if phase == Phase.DISCARD:
                card = next(discards, None)
                if card is None and h.get("unfinished") is not None:
                    return False
                if card is None:
                    raise _Invalid(f"{len(h.get('discards', []))} discards recorded; more are due",
                                   step=self.step, seat=self.rules.seats[seat], rule=R.DISCARD, field="discards")
                self.act(seat, card, lambda t: DISCARD + parse_card(t), "discards")
            elif phase == Phase.NOMINATE:
                used.add("nomination")
                nomination = h.get("nomination")
                self.act(seat, "none" if nomination is None else nomination,
                         lambda t: NO_NOMINATION if t == "none" else NOMINATE + parse_suit(t), "nomination")
            else:
                self._step(h, used)
        leftover = next(discards, None)
        if leftover is not None:
            raise _Invalid(f"discard {leftover} is recorded but no more discards are due", step=self.step + 1,
                           action=f"discard {leftover}", rule=R.DISCARD, field="discards")
        if h.get("nomination") is not None and "nomination" not in used:
            contractor = self.state.hands_log[-1].contractor
            raise _Invalid(f"nominates {h['nomination']} but cannot nominate", step=self.step + 1,
                           seat=self.rules.seats[contractor], action=f"nominate {h['nomination']}", rule=R.NOMINATE,
                           field="nomination")
        for step in self.rules.steps:
            left = len(step.recorded(h)) - self._replayed.get(step.name, 0)
            if left > 0 and step.stage == "exchange":
                raise _Invalid(f"the record has {step.record_key} {h[step.record_key]!r} but the rules ask for "
                               f"{'no more' if step.name in used else 'none'}", step=self.step + 1, rule=step.rule,
                               field=step.record_key)
        return True

    def _step(self, h: dict[str, Any], used: set[str]) -> None:
        """Replay the next recorded action of the plugin step in progress (``fivehundred.rules.steps``)."""
        state = self.state
        step, seat = state.current_step, state.current_player()
        assert step is not None
        used.add(step.name)
        done = self._replayed.get(step.name, 0)
        recorded = step.recorded(h)
        if done < len(recorded):
            name, text = recorded[done]
            self._replayed[step.name] = done + 1
            self.act(seat if name is None else _seat(self.rules, name, step.name), text, step.parse, step.record_key)
            return
        default = step.unrecorded(state, seat)
        if default is None:
            raise _Invalid(f"the record has no {step.record_key} but the rules ask for one here", step=self.step + 1,
                           seat=self.rules.seats[seat], rule=step.rule, field=step.record_key)
        self.act(seat, default, step.parse)

    def _contract(self, h: dict[str, Any]) -> None:
        state = self.state
        if state.phase == Phase.AUCTION:
            raise _Invalid("the recorded calls end before the auction is over", step=self.step,
                           seat=self.rules.seats[state.current_player()], rule=R.AUCTION_UNFINISHED, field="calls")
        log = state.hands_log[-1]
        recorded = h.get("contract")
        contractor = None if log.contractor < 0 else self.rules.seats[log.contractor]
        actual = None if log.contract is None else (log.contract.call, contractor)
        expected = None if recorded is None else (recorded["call"], recorded["contractor"])
        if actual != expected:
            raise _Invalid(f"recorded contract {expected} but the calls make {actual}", step=self.step,
                           seat=contractor, rule=R.CONTRACT, field="contract")

    def _value(self, h: dict[str, Any], log: Any) -> None:
        """The contract's value as played: a step may have changed it after the auction (C6, C7)."""
        recorded = h["contract"]
        if "value" in recorded and recorded["value"] != log.contract.value:
            contractor = None if log.contractor < 0 else self.rules.seats[log.contractor]
            raise _Invalid(f"recorded contract value {recorded['value']!r} but {log.contract.call} is worth "
                           f"{log.contract.value}", step=self.step, seat=contractor, rule=R.VALUE,
                           field="contract.value")

    def _tricks(self, h: dict[str, Any], log: Any) -> None:
        state, rules = self.state, self.rules
        tricks = h.get("tricks", [])
        assert log.contract is not None
        if log.contract.kind == "misere" and len(tricks) == rules.hand_size:
            state.carry_out(PlayEveryTrick())  # the record played the misère out
        for number, trick in enumerate(tricks, 1):
            self._at_lead(h, number - 1)
            if state.phase != Phase.PLAY:
                raise _Invalid(f"trick {number} is recorded but the hand was already over", step=self.step + 1,
                               rule="rule 27: the hand ends when the misère contractor wins a trick",
                               field=f"tricks[{number - 1}]")
            leader = _seat(rules, trick["leader"], f"trick {number} leader")
            if leader != state.current_player():
                raise _Invalid(f"trick {number} is led by {trick['leader']} but "
                               f"{rules.seats[state.current_player()]} leads", step=self.step + 1,
                               seat=trick["leader"], field=f"tricks[{number - 1}].leader",
                               rule="rule 17: the winner of a trick leads to the next (the contractor to the first)")
            for position, card in enumerate(trick["cards"]):
                self.act(state.current_player(), card, field=f"tricks[{number - 1}].cards[{position}]")
            done = log.tricks[number - 1]
            if rules.seats[done.winner] != trick["winner"]:
                raise _Invalid(f"trick {number} is recorded as won by {trick['winner']} but "
                               f"{rules.seats[done.winner]} wins it", step=self.step,
                               field=f"tricks[{number - 1}].winner",
                               rule="rule 17: the highest trump wins, else the highest card of the suit led")
        self._at_lead(h, len(tricks))
        self._all_replayed_at_leads(h)
        unfinished = h.get("unfinished")
        if unfinished is not None:  # the record stops here, perhaps inside a trick
            trick = unfinished.get("trick")
            if trick is not None:
                self._partial_trick(trick, len(tricks) + 1)
            return
        if state.phase == Phase.PLAY:
            raise _Invalid(f"only {len(tricks)} tricks are recorded and the hand is not over", step=self.step,
                           seat=rules.seats[state.current_player()], field="tricks",
                           rule="rule 17: ten tricks are played")

    def _partial_trick(self, trick: dict[str, Any], number: int) -> None:
        """The cards of the trick an unfinished record stops in."""
        state, rules = self.state, self.rules
        if state.phase != Phase.PLAY:
            raise _Invalid(f"trick {number} is recorded but the hand was already over", step=self.step + 1,
                           rule="rule 27: the hand ends when the misère contractor wins a trick")
        leader = _seat(rules, trick["leader"], f"trick {number} leader")
        if leader != state.current_player():
            raise _Invalid(f"trick {number} is led by {trick['leader']} but {rules.seats[state.current_player()]} "
                           "leads", step=self.step + 1,
                           rule="rule 17: the winner of a trick leads to the next (the contractor to the first)")
        seat, players = leader, 1
        while state.play_order[seat] != leader and players < rules.players:  # the seats that play to a trick
            seat, players = state.play_order[seat], players + 1
        if len(trick["cards"]) >= players:
            raise _Invalid(f"the unfinished trick {number} has {len(trick['cards'])} cards: a whole trick goes "
                           "in 'tricks'", step=self.step + 1, rule="rule 17")
        for card in trick["cards"]:
            self.act(state.current_player(), card)

    def _at_lead(self, h: dict[str, Any], played: int) -> None:
        """Replay what the steps of the play record at the lead after ``played`` tricks (a claim), and
        check the rulings the record states for them."""
        state = self.state
        for step in self.rules.lead_steps:
            for name, text in step.recorded_before(h, played):
                if state.phase != Phase.PLAY:
                    return  # the hand is over: _all_replayed_at_leads names what is left over
                self._replayed[step.name] = self._replayed.get(step.name, 0) + 1
                seat = state.current_player() if name is None else _seat(self.rules, name, step.name)
                self.act(seat, text, step.parse, step.record_key)
                wrong = step.disagrees(state, h)
                if wrong is not None:
                    raise _Invalid(wrong, step=self.step, seat=self.rules.seats[seat], action=text,
                                   field=step.record_key, rule=step.rule)

    def _all_replayed_at_leads(self, h: dict[str, Any]) -> None:
        """A step of the play's recorded action that the replay never reached (a claim after more tricks
        than were played, or after the hand was over)."""
        for step in self.rules.lead_steps:
            if len(step.recorded(h)) > self._replayed.get(step.name, 0):
                raise _Invalid(f"the record has {step.record_key} {h[step.record_key]!r} but the play never came "
                               "to it", step=self.step + 1, rule=step.rule, field=step.record_key)

    def _scores(self, h: dict[str, Any]) -> None:
        rules = self.rules
        log = self.state.hands_log[-1]
        for key, values, names in (("tricks_won", log.tricks_won, rules.seats),
                                   ("scores", log.scores, rules.team_names),
                                   ("totals", log.totals, rules.team_names)):
            actual = dict(zip(names, values, strict=True))
            if key in h and h[key] != actual:
                rule = "rule 17: the tricks each seat won" if key == "tricks_won" else R.SCORE
                raise _Invalid(f"recorded {key} {h[key]} but the rules give {actual}", step=self.step, rule=rule,
                               field=key)
        outcome, recorded = log.outcome, h.get("outcome")
        if outcome is not None and recorded is not None:  # optional: older records have no outcome
            scored = {"kind": outcome.kind, "side": [rules.seats[s] for s in outcome.side],
                      "made": outcome.made if outcome.contractor >= 0 else None}
            for key, value in scored.items():
                if recorded.get(key) != value:
                    raise _Invalid(f"recorded outcome {key} {recorded.get(key)!r} but the rules give {value!r}",
                                   step=self.step, rule=R.SCORE, field=f"outcome.{key}")


_HAND_FIELDS = frozenset(record_schema()["$defs"]["hand"]["properties"])
"""The fields of a hand in the record schema; a plugin step may add its own (``Step.record_key``)."""
_ENGINE_FIELDS = frozenset({"number", "dealer", "hands", "kitty", "dead", "misdeal", "calls", "contract",
                            "discards", "nomination", "tricks", "tricks_won", "scores", "totals", "outcome",
                            "unfinished"})
"""The fields of a hand that the engine's own steps record; the schema's others belong to plugins' steps
(the built-in ones: a called partner, declarations, gifts, breach calls, blind calls, a claim, cards passed
to the partner)."""
