"""What the framework adapters share: the frameworks are optional extras (a clear ImportError without them),
and the engine's public deal of a drawn deck (``GameState.deal_deck``), which OpenSpiel's chance nodes use."""

from __future__ import annotations

import builtins
import importlib
import random
import sys
from typing import Any

import pytest

import fivehundred
from fivehundred.engine.state import GameState, Phase, _shuffled
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.manager import compile_rules


@pytest.mark.parametrize(("module", "framework", "extra"), [
    ("fivehundred.openspiel", "pyspiel", "fivehundred[openspiel]"),
    ("fivehundred.pettingzoo", "pettingzoo", "fivehundred[pettingzoo]"),
])
def test_without_its_framework_an_adapter_names_the_extra(monkeypatch: pytest.MonkeyPatch, module: str,
                                                          framework: str, extra: str) -> None:
    real_import = builtins.__import__

    def missing(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == framework or name.startswith(framework + "."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", missing)
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError, match=extra.replace("[", r"\[").replace("]", r"\]")):
        importlib.import_module(module)
    # the rest of the package does not need either framework
    assert fivehundred.play_game("pagat-australian", seed=1).result is not None


def test_deal_deck_deals_the_packets_from_the_dealers_left() -> None:
    rules = compile_rules(fivehundred.load_ruleset("pagat-australian"))
    state = GameState(rules, first_dealer=0)
    deck = sorted(rules.deck)
    state.deal_deck(deck)
    log = state.hand_log
    # packets of 3, a kitty card, 4, a kitty card, 3, a kitty card, from E (the dealer N's left)
    assert log.hands[1] == deck[0:3] + deck[13:17] + deck[30:33]
    assert log.hands[0] == deck[9:12] + deck[25:29] + deck[39:42]
    assert log.kitty == [deck[12], deck[29], deck[42]]
    assert state.phase == Phase.AUCTION and state.deck_to_redeal is None


def test_deal_deck_is_the_same_deal_as_a_shuffle() -> None:
    rules = compile_rules(fivehundred.load_ruleset("three-handed"))
    shuffled = GameState(rules, first_dealer=1)
    shuffled.deal(random.Random(5))
    drawn = GameState(rules, first_dealer=1)
    drawn.deal_deck(_shuffled(rules.deck, random.Random(5)))  # the order deal() shuffles the deck into
    assert drawn.hand_log.hands == shuffled.hand_log.hands and drawn.hand_log.kitty == shuffled.hand_log.kitty


def test_deal_deck_refuses_a_wrong_deck_or_a_deal_in_the_hand() -> None:
    rules = compile_rules(fivehundred.load_ruleset("pagat-australian"))
    state = GameState(rules, first_dealer=0)
    with pytest.raises(IllegalActionError, match="not exactly the ruleset's deck"):
        state.deal_deck(sorted(rules.deck)[:-1])
    state.deal_deck(sorted(rules.deck))
    with pytest.raises(IllegalActionError, match="only between hands"):
        state.deal_deck(sorted(rules.deck))
