"""The markers plugins use: ``from fivehundred import hookimpl`` (and ``applies_when``)."""

from collections.abc import Callable
from typing import Any, TypeVar

import pluggy

hookimpl = pluggy.HookimplMarker("fivehundred")

F = TypeVar("F", bound=Callable[..., Any])

APPLIES_WHEN = "fivehundred_applies_when"


def applies_when(predicate: Callable[[Any], bool]) -> Callable[[F], F]:
    """Mark a per-hand hook implementation (``score_hand``, ``game_result``) as relevant only to the
    rulesets for which ``predicate(ruleset)`` is true.  The engine asks once per ruleset and leaves
    the implementation out of that ruleset's calls; the implementation must still do nothing for
    other rulesets (pluggy itself calls it when tracing, or to report an error).

        @hookimpl(wrapper=True)
        @applies_when(lambda ruleset: "misere-penalty" in ruleset.house_rules)
        def fivehundred_score_hand(ruleset, outcome): ...
    """

    def mark(function: F) -> F:
        setattr(function, APPLIES_WHEN, predicate)
        return function

    return mark


ANSWERED_BY = "fivehundred_answered_by"


def answered_by(body: Callable[..., Any]) -> Callable[[F], F]:
    """Mark a per-hand hook implementation as ``body`` under another name: ``body`` takes the same arguments,
    answers the same, and its answers need no check (a built-in's compiled arithmetic).  Where it alone answers
    the hook for a ruleset, the engine calls ``body`` itself, without the Python function around it or the check
    of its answer; with any other implementation present, or when tracing, everything goes through pluggy as
    usual.

        @hookimpl(trylast=True)
        @answered_by(scoring_plan.score_hand)
        def fivehundred_score_hand(ruleset, outcome):
            return scoring_plan.score_hand(ruleset, outcome)
    """

    def mark(function: F) -> F:
        setattr(function, ANSWERED_BY, body)
        return function

    return mark
