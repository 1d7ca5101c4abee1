"""The plugin manager and the typed facade the engine talks to.

Built-in plugins register first, then third-party ones from the ``fivehundred`` entry-point group.
``FIVEHUNDRED_BLOCK_PLUGINS=a,b`` blocks plugins by name; ``FIVEHUNDRED_TRACE_HOOKS=1`` prints
every hook call and result to stderr.
"""

from __future__ import annotations

import os
import random
import sys
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import cached_property, partial
from operator import itemgetter
from typing import Any

import pluggy

from . import hookspecs
from .actions import THROWN_IN_CALL
from .auction import AuctionRules
from .cards import JOKER_BASE, MAX_CARD, RANK_TEXT
from .culprits import (
    _call,
    _plugin_error,
    _wrong_answer,
    check_unchanged,
    checked_answers,
    named_check,
    names_problem,
    problems_problem,
)
from .errors import PluginError, nearest, unknown_name
from .markers import ANSWERED_BY, APPLIES_WHEN
from .steps import DISCARDS_ORDER, FIRST_STEP_ACTION, NOMINATION_ORDER, STAGES, Step, check_steps
from .tables import Contract, GameResult, HandOutcome, JokerRules, PlayTable

BUILTIN_PLUGINS = (
    "fivehundred.plugins.deck",
    "fivehundred.plugins.bidding",
    "fivehundred.plugins.tricks",
    "fivehundred.plugins.scoring",
    "fivehundred.plugins.breach",
    "fivehundred.plugins.claims",
    "fivehundred.plugins.misdeal",
    "fivehundred.plugins.dummies",
    "fivehundred.plugins.passing",
    "fivehundred.plugins.partner",
    "fivehundred.plugins.declarations",
    "fivehundred.plugins.blind",
    "fivehundred.plugins.kitty",
    "fivehundred.plugins.midhand",
    "fivehundred.plugins.players",
)

BLOCK_ENV = "FIVEHUNDRED_BLOCK_PLUGINS"
TRACE_ENV = "FIVEHUNDRED_TRACE_HOOKS"

_manager: pluggy.PluginManager | None = None


def make_plugin_manager(*, entry_points: bool = True, extra: Sequence[object] = ()) -> pluggy.PluginManager:
    """A fresh manager with the built-ins, the installed plugins and ``extra`` registered."""
    import importlib

    pm = pluggy.PluginManager("fivehundred")
    pm.add_hookspecs(hookspecs)
    for name in filter(None, os.environ.get(BLOCK_ENV, "").split(",")):
        pm.set_blocked(name.strip())
    for module_name in BUILTIN_PLUGINS:
        if not pm.is_blocked(module_name):
            pm.register(importlib.import_module(module_name), name=module_name)
    if entry_points:
        _load_entry_points(pm)
    for plugin in extra:
        pm.register(plugin)
    pm.check_pending()
    if os.environ.get(TRACE_ENV):
        pm.trace.root.setwriter(sys.stderr.write)
        pm.enable_tracing()
    return pm


def _load_entry_points(pm: pluggy.PluginManager) -> None:
    """Register the ``fivehundred`` entry points; one that fails to import is named, with its package."""
    from importlib.metadata import entry_points

    for ep in entry_points(group="fivehundred"):
        if pm.is_blocked(ep.name) or pm.has_plugin(ep.name):
            continue
        try:
            pm.load_setuptools_entrypoints("fivehundred", name=ep.name)  # keeps pluggy's distribution info
        except (Exception, SystemExit) as e:  # sys.exit() while importing is a failure to load, not an exit
            dist = ep.dist.name if ep.dist is not None else "unknown package"
            raise PluginError(f"plugin {ep.name!r} ({ep.value}, from {dist}) failed to load: "
                              f"{type(e).__name__}: {e}") from e


def plugin_manager() -> pluggy.PluginManager:
    """The process-wide manager (built lazily, once)."""
    global _manager
    if _manager is None:
        _manager = make_plugin_manager()
    return _manager


def set_plugin_manager(pm: pluggy.PluginManager | None) -> None:
    """Replace the process-wide manager (tests, embedding); None rebuilds it on next use."""
    global _manager
    _manager = pm
    _compiled.clear()
    _factories.clear()


def _per_hand_caller(pm: pluggy.PluginManager, hook_name: str, ruleset: Any,
                     names: tuple[str, ...], *, required: str | None = None, pure: bool = True) -> Callable[..., Any]:
    """A plain function of ``names`` (positional) calling a ``firstresult`` hook for ``ruleset``, for
    hooks asked once per hand or game: pluggy's calling order and new-style wrapper protocol, without
    its per-call bookkeeping (which costs more than the scoring itself).  Implementations marked with
    ``applies_when`` are left out for rulesets their predicate rejects (asked once, here).

    Any exception, and any old-style ``hookwrapper``, hands the call to pluggy itself through ``_call``,
    so errors are reported exactly as for every other hook (the culprit named).  Such hooks must
    therefore be pure functions of their arguments, as the scoring hooks are.  A hook that is not
    (``pure=False``: the first dealer, drawn from the game's generator) is called directly only when
    a single plain implementation answers it, and never twice: its errors are reported as ``_call``
    reports them, and anything else goes through pluggy.  Hook tracing (``FIVEHUNDRED_TRACE_HOOKS``)
    also goes through pluggy.
    """
    impls = list(reversed(getattr(pm.hook, hook_name).get_hookimpls()))  # pluggy's calling order
    answered = _answered_by(impls, ruleset, names)
    if answered is not None:
        return answered

    def through_pluggy(*values: Any) -> Any:
        result = _call(pm, hook_name, ruleset=ruleset, **dict(zip(names, values, strict=True)))
        return _required(result, required) if required else result

    if os.environ.get(TRACE_ENV) or any(impl.hookwrapper for impl in impls):
        return through_pluggy
    steps = []
    for impl in impls:
        relevant = getattr(impl.function, APPLIES_WHEN, None)
        if relevant is None or relevant(ruleset):
            # Where each argument comes from: 0 the ruleset, i + 1 the caller's i-th value.
            where = [0 if name == "ruleset" else names.index(name) + 1 for name in impl.argnames]
            pick = itemgetter(*where) if len(where) > 1 else lambda given, i=where[0]: (given[i],)
            steps.append((impl.function, pick, impl.wrapper))

    if len(steps) == 1 and not steps[0][2]:  # one plain implementation (the built-ins alone): call it
        function, pick, _ = steps[0]
        argnames = next(tuple(impl.argnames) for impl in impls if impl.function is function)
        answer: Callable[..., Any]
        if argnames == ("ruleset", *names):  # its arguments in the caller's order: nothing to pick
            answer = partial(function, ruleset)
        else:
            def answer(*values: Any) -> Any:
                return function(*pick((ruleset, *values)))
        if not pure:
            caller = getattr(pm.hook, hook_name)

            def call_once(*values: Any) -> Any:
                try:
                    result = answer(*values)
                except Exception as e:
                    error = _plugin_error(caller, hook_name, e)
                    if error is e:
                        raise
                    raise error from e
                return _required(result, required) if required else result

            return call_once

        def call_one(*values: Any) -> Any:
            try:
                result = answer(*values)
            except Exception:
                return through_pluggy(*values)
            return result if result is not None or not required else through_pluggy(*values)

        return call_one
    if not pure:
        return through_pluggy

    def call(*values: Any) -> Any:
        given = (ruleset, *values)
        teardowns = []
        result = None
        try:
            for function, pick, wrapper in steps:
                answer = function(*pick(given))
                if wrapper:
                    next(answer)
                    teardowns.append(answer)
                elif answer is not None:
                    result = answer
                    break
            for teardown in reversed(teardowns):
                try:
                    teardown.send(result)
                except StopIteration as stop:
                    result = stop.value
                else:
                    return through_pluggy(*values)  # a wrapper that yields twice: let pluggy say so
        except Exception:
            return through_pluggy(*values)
        return result if result is not None or not required else through_pluggy(*values)

    return call


def _answered_by(impls: list[Any], ruleset: Any, names: tuple[str, ...]) -> Callable[..., Any] | None:
    """Where one plain implementation marked ``answered_by`` alone answers a per-hand hook for ``ruleset``, with
    its arguments in the caller's order: its body, called directly (None otherwise, and when tracing hooks)."""
    if os.environ.get(TRACE_ENV) or any(impl.hookwrapper for impl in impls):
        return None
    active = [impl for impl in impls
              if getattr(impl.function, APPLIES_WHEN, None) is None or getattr(impl.function, APPLIES_WHEN)(ruleset)]
    if len(active) != 1 or active[0].wrapper or tuple(active[0].argnames) != ("ruleset", *names):
        return None
    body = getattr(active[0].function, ANSWERED_BY, None)
    return None if body is None else _Answered(body, ruleset)


class _Answered(partial):
    """A hook's body called directly (``_answered_by``): its answers need no check."""


def _required(value: Any, hook_name: str) -> Any:
    if value is None:
        raise PluginError(f"no plugin answered {hook_name} (is a built-in plugin blocked?)")
    return value


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_card(x: Any) -> bool:
    """A card number: a suit (0–3) × 20 + a rank (2–17), or a joker (80–83)."""
    return _is_int(x) and (JOKER_BASE <= x < MAX_CARD or (0 <= x < JOKER_BASE and x % 20 in RANK_TEXT))


def _list_of(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, (list, tuple)) and all(check(x) for x in value)


ANSWERS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "fivehundred_build_deck": (lambda v: _list_of(_is_card)(v) and len(set(v)) == len(v),
                               "a list of distinct card numbers"),
    "fivehundred_deal_pattern": (_list_of(lambda p: isinstance(p, (list, tuple)) and len(p) == 2 and p[0] in (
        "each", "kitty", "dead") and _is_int(p[1]) and p[1] > 0), "a list of ('each'|'kitty'|'dead', count) pairs"),
    "fivehundred_bid_ladder": (lambda v: isinstance(v, (list, tuple)) and len(v) > 0 and all(
        isinstance(c, Contract) for c in v), "a non-empty list of Contract"),
    "fivehundred_auction_rules": (lambda v: isinstance(v, AuctionRules), "an AuctionRules"),
    "fivehundred_joker_rules": (lambda v: isinstance(v, JokerRules), "a JokerRules"),
    "fivehundred_trick_table": (lambda v: isinstance(v, PlayTable), "a PlayTable"),
    "fivehundred_trick_check": (lambda v: v is None or callable(v), "a function or None"),
    "fivehundred_game_result": (lambda v: v is None or isinstance(v, GameResult), "a GameResult or None"),
}
"""What each ``firstresult`` hook must answer (its declared type), checked once per ruleset where the answer
is (per contract for the play tables; per hand for the game's end), so that a wrong answer is reported with
the plugin's name, not as a TypeError deep in the engine."""


class Rules:
    """A ruleset compiled through the hooks into tables; the only object the engine consults.

    Game code never calls ``pm.hook`` directly: this facade forwards typed calls and caches what
    it can (deck, ladder, auction rules per ruleset; joker rules and trick tables per contract).
    """

    # Slots for what the engine reads every hand (more names than an instance dict shares keys for);
    # the cached properties live in __dict__.
    __slots__ = ("__dict__", "_in_order", "_jokers", "_jokers_in_deck", "_tables", "auction",
                 "bars_after", "beginning_steps", "call_actions", "call_steps",
                 "contractor_leads", "controller", "dead_size", "deck", "derived", "dummies", "early_steps",
                 "first_steps",
                 "game_result", "hand_size", "kitty_size", "ladder", "late_steps", "lead_steps", "misere_played_out",
                 "next_seat", "pattern", "players", "pm",
                 "pre_auction_steps", "ruleset", "score_hand", "seats", "step_of_action", "steps", "team_names",
                 "team_of", "team_seats", "trick_check")

    def __init__(self, ruleset: Any, pm: pluggy.PluginManager):
        self.ruleset = ruleset
        self.pm = pm
        self.seats: tuple[str, ...] = ruleset.players.seats
        self.players = len(self.seats)
        self.team_names = tuple(t.name for t in ruleset.players.teams)
        self.team_of = tuple(
            next(i for i, t in enumerate(ruleset.players.teams) if seat in t.seats) for seat in self.seats
        )
        self.deck: tuple[int, ...] = tuple(_required(self._hook("fivehundred_build_deck"), "build_deck"))
        self.pattern: tuple[tuple[str, int], ...] = tuple(
            _required(self._hook("fivehundred_deal_pattern"), "deal_pattern")
        )
        self.ladder: tuple[Contract, ...] = tuple(_required(self._hook("fivehundred_bid_ladder"), "bid_ladder"))
        self.auction = _required(
            self._hook("fivehundred_auction_rules", ladder=self.ladder), "fivehundred_auction_rules"
        )
        dummies = ruleset.players.dummies
        self.dummies = frozenset(self.seats.index(d) for d in dummies)
        self.controller = tuple(self.seats.index(dummies.get(s, s)) for s in self.seats)
        """Who decides for each seat: itself, or for a dummy (P2) the seat that plays it."""
        self.team_seats = tuple(frozenset(s for s in range(self.players) if self.team_of[s] == self.team_of[seat])
                                for seat in range(self.players))
        """The seats of each seat's team (itself included)."""
        self.next_seat = tuple((s + 1) % self.players for s in range(self.players))
        """The seat to the left of each seat (clockwise)."""
        self.kitty_size = sum(n for target, n in self.pattern if target == "kitty")
        self.hand_size = sum(n for target, n in self.pattern if target == "each")
        self.dead_size = sum(n for target, n in self.pattern if target == "dead")
        self.trick_check: Callable[[Any], bool] | None = named_check(pm, ruleset,
                                                                     self._hook("fivehundred_trick_check"))
        self._tables: dict[tuple[int, int | None, frozenset[int]], PlayTable] = {}
        self.call_actions: dict[int, tuple[tuple[int, ...], list[int]]] = {}
        """Legal-call action lists by the identity of the auction rules' bid tuple (see GameState)."""
        self.derived: dict[str, Any] = {}
        """What a reader works out once from these rules (a player's tables, by the reader's name): kept with the
        rules, so released with them (``compile_rules`` keeps a bounded number of rules)."""
        self._jokers: dict[int, JokerRules] = {}
        self._jokers_in_deck = frozenset(c for c in self.deck if c >= JOKER_BASE)
        self._compile_steps()
        self.contractor_leads = ruleset.play.first_lead == "contractor"  # rule 16; L1
        self.misere_played_out = not ruleset.play.misere_ends_early
        auction = self.auction
        self.bars_after = (type(auction).barred_after is not AuctionRules.barred_after or bool(auction.bars)
                           or auction.set_bar is not None or auction.set_bar_misere is not None)
        """Whether a hand can bar anybody from the next auction (R1, R2): else nobody is asked."""
        self._in_order: dict[frozenset[int], tuple[int, ...]] = {}
        self.score_hand: Callable[[HandOutcome], Sequence[int]] = self._checked_scores(_per_hand_caller(
            pm, "fivehundred_score_hand", ruleset, ("outcome",), required="score_hand"))
        """Each team's points for a hand (rules 24–27 and the variants' plugins)."""
        self.game_result: Callable[[Sequence[int], HandOutcome], GameResult | None] = self._checked_result(
            _per_hand_caller(pm, "fivehundred_game_result", ruleset, ("totals", "outcome")))
        """Whether the game is over after a hand, given the new totals (rules 28–31); None to play on."""

    def _hook(self, name: str, **kwargs: Any) -> Any:
        answer = _call(self.pm, name, ruleset=self.ruleset, **kwargs)
        check_unchanged(self.pm, self.ruleset, self.ruleset.content_hash, f"while the plugins answered {name}")
        check = ANSWERS.get(name)
        if check is not None and answer is not None and not check[0](answer):
            raise _wrong_answer(self.pm, name, {"ruleset": self.ruleset, **kwargs}, answer, check[1])
        return answer

    def _checked_scores(self, score: Callable[[HandOutcome], Sequence[int]]) -> Callable[[HandOutcome], Sequence[int]]:
        """``score`` with its answer checked: a list of one integer per team (a few type checks a hand)."""
        if isinstance(score, _Answered):
            return score
        teams, pm, ruleset = len(self.team_names), self.pm, self.ruleset

        def checked(outcome: HandOutcome) -> Sequence[int]:
            points = score(outcome)
            if type(points) not in (list, tuple) or len(points) != teams or not all(type(p) is int for p in points):
                raise _wrong_answer(pm, "fivehundred_score_hand", {"ruleset": ruleset, "outcome": outcome}, points,
                                    f"a list of {teams} integers (one per team)")
            return points

        return checked

    def _checked_result(self, result: Callable[[Sequence[int], HandOutcome], GameResult | None]
                        ) -> Callable[[Sequence[int], HandOutcome], GameResult | None]:
        if isinstance(result, _Answered):
            return result
        pm, ruleset = self.pm, self.ruleset

        def checked(totals: Sequence[int], outcome: HandOutcome) -> GameResult | None:
            answer = result(totals, outcome)
            if answer is not None and not isinstance(answer, GameResult):
                raise _wrong_answer(pm, "fivehundred_game_result",
                                    {"ruleset": ruleset, "totals": totals, "outcome": outcome}, answer,
                                    "a GameResult or None")
            return answer

        return checked

    def _compile_steps(self) -> None:
        """The plugins' steps of a hand (``fivehundred_hand_steps``), by stage and order."""
        contributed = [step for steps in self._hook("fivehundred_hand_steps") for step in steps or ()]
        for step in contributed:
            if not isinstance(step, Step):
                raise PluginError(f"a plugin answered fivehundred_hand_steps for ruleset {self.ruleset.name!r} "
                                  f"with {step!r:.80}, not a list of Step")
        stage = {name: i for i, name in enumerate(STAGES)}
        steps = self.steps = tuple(sorted(contributed, key=lambda s: (stage.get(s.stage, 0), s.order, s.name)))
        try:
            check_steps(steps, reserved=(range(FIRST_STEP_ACTION),))
        except ValueError as e:
            raise PluginError(f"ruleset {self.ruleset.name!r}: {e}") from None
        self.pre_auction_steps: tuple[Step, ...] = tuple(s for s in steps if s.stage == "before-auction")
        exchange = [s for s in steps if s.stage == "exchange"]
        self.first_steps: tuple[Step, ...] = tuple(s for s in exchange if s.order < DISCARDS_ORDER)
        """Exchange steps before the discards (rule 14)."""
        self.early_steps: tuple[Step, ...] = tuple(s for s in exchange if DISCARDS_ORDER <= s.order < NOMINATION_ORDER)
        """Exchange steps after the discards, before the nomination (rule 19); ``late_steps`` come after it."""
        self.late_steps: tuple[Step, ...] = tuple(s for s in exchange if s.order >= NOMINATION_ORDER)
        self.call_steps: tuple[Step, ...] = tuple(s for s in steps if s.stage == "call")
        """Steps that offer the seat about to call actions beside its calls (a misdeal)."""
        self.lead_steps: tuple[Step, ...] = tuple(s for s in steps if s.stage == "lead")
        """Steps that offer the leader actions beside its cards during the play (a claim)."""
        self.beginning_steps: tuple[Step, ...] = tuple(s for s in steps if type(s).begin is not Step.begin)
        """Steps with something to do as soon as a hand is dealt (``Step.begin``)."""
        self.step_of_action: dict[int, Step] = {a: s for s in steps for a in s.actions}
        """The step that owns each step action id."""

    @cached_property
    def deal_slots(self) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
        """Positions in the shuffled deck of each hand (from the dealer's left), the kitty and the dead hand."""
        hands: list[list[int]] = [[] for _ in range(self.players)]
        kitty: list[int] = []
        dead: list[int] = []
        pos = 0
        for target, n in self.pattern:
            for hand in hands if target == "each" else [kitty if target == "kitty" else dead]:
                hand.extend(range(pos, pos + n))
                pos += n
        return tuple(tuple(h) for h in hands), tuple(kitty), tuple(dead)

    @cached_property
    def deal_getters(self) -> tuple[tuple[Callable[[Sequence[int]], tuple[int, ...]], ...],
                                    Callable[[Sequence[int]], tuple[int, ...]],
                                    Callable[[Sequence[int]], tuple[int, ...]]]:
        """``itemgetter``s that pick each hand, the kitty and the dead hand out of a shuffled deck."""
        from operator import itemgetter

        def getter(positions: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
            if not positions:
                return lambda deck: ()
            pick = itemgetter(*positions)
            return pick if len(positions) > 1 else (lambda deck: (pick(deck),))

        hands, kitty, dead = self.deal_slots
        return tuple(getter(h) for h in hands), getter(kitty), getter(dead)

    def in_order(self, seats: frozenset[int]) -> tuple[int, ...]:
        """``seats`` as a sorted tuple (remembered: a hand's side is one of a few sets)."""
        known = self._in_order.get(seats)
        if known is None:
            known = self._in_order[seats] = tuple(sorted(seats))
        return known

    def first_dealer(self, rng: random.Random) -> int:
        return int(self._first_dealer(rng))

    @cached_property
    def _first_dealer(self) -> Callable[[random.Random], Any]:
        """The first-dealer hook as a plain function (asked once per game: pluggy's call costs more)."""
        return _per_hand_caller(self.pm, "fivehundred_first_dealer", self.ruleset, ("rng",), required="first_dealer",
                                pure=False)

    def joker_rules(self, contract: Contract) -> JokerRules:
        rules = self._jokers.get(contract.rung)
        if rules is None:
            rules = _required(self._hook("fivehundred_joker_rules", contract=contract), "joker_rules")
            self._jokers[contract.rung] = rules
        return rules

    def play_table(self, contract: Contract, nomination: int | None = None,
                   nominated: frozenset[int] | None = None) -> PlayTable:
        """The trick table for ``contract``; ``nominated``: the jokers a nomination applies to (all by default)."""
        key: tuple[int, int | None, frozenset[int]]
        if nomination is None:
            key = (contract.rung, None, _NO_JOKERS)
        else:
            key = (contract.rung, nomination, self._jokers_in_deck if nominated is None else nominated)
        table = self._tables.get(key)
        if table is None:
            table = _required(
                self._hook(
                    "fivehundred_trick_table",
                    contract=contract,
                    joker=self.joker_rules(contract),
                    nomination=nomination,
                    deck=self.deck,
                    nominated=key[2],
                ),
                "trick_table",
            )
            self._tables[key] = table
        return table

    def call_text(self, call: int) -> str:
        return "pass" if call == -1 else "misdeal" if call == THROWN_IN_CALL else self.ladder[call].call

    def parse_call(self, text: str) -> int:
        t = text.strip()
        if t.lower() == "pass":
            return -1
        for rung in self.ladder:
            if rung.call.lower() == t.lower():
                return rung.rung
        raise ValueError(f"{text!r} is not a call of this ruleset (try 'pass', '7H', '8NT', 'misere')")


_NO_JOKERS: frozenset[int] = frozenset()

RULES_KEPT = 32
"""Compiled rules kept, the most recently used (a batch compares a few rulesets; a search over house rules
compiles many, and each brings the players' tables kept with it, ``Rules.derived``)."""

_compiled: OrderedDict[tuple[str, pluggy.PluginManager], Rules] = OrderedDict()
"""Compiled rules by the ruleset's content hash and the plugin manager, least recently used first."""


def compile_rules(ruleset: Any, pm: pluggy.PluginManager | None = None) -> Rules:
    """The compiled ``Rules`` for a ruleset, built once per ruleset content and plugin manager while it is
    among the ``RULES_KEPT`` most recently used."""
    pm = pm or plugin_manager()
    key = (ruleset.content_hash, pm)
    rules = _compiled.get(key)
    if rules is not None:
        _compiled.move_to_end(key)
        return rules
    check_unchanged(pm, ruleset, key[0], "after it was loaded")  # by a plugin's import, or an earlier hook
    rules = _compiled[key] = Rules(ruleset, pm)  # each hook it asks is followed by the same check
    if len(_compiled) > RULES_KEPT:
        _compiled.popitem(last=False)
    return rules


def check_ruleset(ruleset: Any, pm: pluggy.PluginManager | None = None) -> list[tuple[str, str]]:
    """Problems found by every plugin's ``fivehundred_check_ruleset``, plus unknown house rules."""
    pm = pm or plugin_manager()
    before = ruleset.content_hash
    problems = [tuple(p) for found in checked_answers(pm, "fivehundred_check_ruleset", problems_problem,
                                                      ruleset=ruleset) for p in found]
    check_unchanged(pm, ruleset, before, "while the plugins checked it (fivehundred_check_ruleset)")
    known = {name for names in checked_answers(pm, "fivehundred_house_rules", names_problem) for name in names}
    blocked = [name.strip() for name in os.environ.get(BLOCK_ENV, "").split(",") if name.strip()]
    for name in ruleset.house_rules:
        if name in blocked:
            problems.append((f"house_rules.{name}", f"house rule {name!r}: its plugin is blocked by {BLOCK_ENV}"))
        elif name not in known:
            hint = f"; plugins blocked by {BLOCK_ENV}: {', '.join(blocked)}" if blocked else ""
            near = nearest(name, known)
            guess = f"did you mean {near}? " if near else ""
            problems.append(
                (f"house_rules.{name}", f"house rule {name!r} is not provided by any installed plugin "
                 f"({guess}install the package that provides it; installed house rules: {sorted(known) or 'none'}"
                 f"{hint})")
            )
    return problems


_factories: weakref.WeakKeyDictionary[pluggy.PluginManager, dict[str, Callable[..., Any]]] = \
    weakref.WeakKeyDictionary()
"""Player factories per plugin manager, released with it."""


def player_factories(pm: pluggy.PluginManager | None = None) -> dict[str, Callable[..., Any]]:
    """Player factories by name, from every plugin's ``fivehundred_register_players`` (asked once)."""
    pm = pm or plugin_manager()
    found = _factories.get(pm)
    if found is None:
        found = {}

        def register(name: str, factory: Callable[..., Any]) -> None:
            if not isinstance(name, str) or not callable(factory):  # raised in the plugin's call: it is named
                shown = repr(factory) if len(repr(factory)) <= 80 else repr(factory)[:80] + "…"
                raise TypeError(f"register({name!r}, {shown}): a player needs a name and a function or class "
                                "that makes it")
            found[name] = factory

        _call(pm, "fivehundred_register_players", register=register)
        _factories[pm] = found
    return found


def make_player(name: str, seat: int, rng: random.Random, pm: pluggy.PluginManager | None = None) -> Any:
    """A player from its spec: a registered name, or ``name:arg`` (``montecarlo:200``), the argument
    passed to the factory as the keyword ``arg``; a factory without that keyword takes no argument."""
    return player_maker(name, pm)(seat, rng)


def player_maker(name: str, pm: pluggy.PluginManager | None = None) -> Callable[[int, random.Random], Any]:
    """``make_player`` for one spec, looked up once: ``player_maker(name)(seat, rng)`` is
    ``make_player(name, seat, rng)`` (a batch makes its players game after game)."""
    factories = player_factories(pm)
    base, colon, arg = name.partition(":")
    if base not in factories:
        raise unknown_name("player", base, factories)
    factory = factories[base]
    if not colon:
        return lambda seat, rng: factory(seat=seat, rng=rng)
    if not _takes_arg(factory):
        raise ValueError(f"player {base!r} takes no argument (got {name!r})")
    return lambda seat, rng: factory(seat=seat, rng=rng, arg=arg)


def _takes_arg(factory: Callable[..., Any]) -> bool:
    import inspect

    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return True  # a callable we cannot inspect: let it refuse the keyword itself
    return any(p.name == "arg" or p.kind is p.VAR_KEYWORD for p in params)
