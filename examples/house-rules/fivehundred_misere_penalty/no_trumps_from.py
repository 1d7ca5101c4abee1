"""House rule ``no-trumps-from``: no-trump bids only from a given level (7 if left out).

Switch it on in a ruleset::

    house_rules:
      no-trumps-from: {level: 7}        # 6NT is no longer a call

The built-in ladder is built first; this wrapper drops the no-trump bids below the level and
renumbers what is left (a rung's number is its place on the ladder).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace

from fivehundred import hookimpl
from fivehundred.rules.ruleset import Ruleset, parse_call
from fivehundred.rules.tables import Contract

RULE = "no-trumps-from"
DEFAULT_LEVEL = 7


@hookimpl
def fivehundred_house_rules() -> list[str]:
    return [RULE]


@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    options = ruleset.house_rules.get(RULE)
    if options is None:
        return []
    problems = [(f"house_rules.{RULE}.{key}", f"unknown option of {RULE} (it takes: level)")
                for key in options if key != "level"]
    level = options.get("level", DEFAULT_LEVEL)
    if not isinstance(level, int) or isinstance(level, bool) or level < 1:
        problems.append((f"house_rules.{RULE}.level", f"{RULE}: level must be a bid level such as 7, not {level!r}"))
    return problems


@hookimpl(wrapper=True)
def fivehundred_bid_ladder(ruleset: Ruleset) -> Generator[None, list[Contract] | None, list[Contract] | None]:
    ladder = yield
    options = ruleset.house_rules.get(RULE)
    if options is None or ladder is None:
        return ladder
    level = options.get("level", DEFAULT_LEVEL)
    kept = [c for c in ladder if not _low_no_trump_bid(c, level)]
    return [replace(c, rung=i, requires_standing=_new_rung(kept, c.requires_standing)) for i, c in enumerate(kept)]


def _low_no_trump_bid(contract: Contract, level: int) -> bool:
    parsed = parse_call(contract.call)  # None for a named contract (misère, …): those stay
    return parsed is not None and parsed[1] is None and parsed[0] < level


def _new_rung(kept: list[Contract], old: int | None) -> int | None:
    """Where a ``requires_standing`` rung is now: itself, or the first kept rung above it."""
    if old is None:
        return None
    return next(i for i, c in enumerate(kept) if c.rung >= old)
