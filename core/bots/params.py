"""The club player's parameters: typed, with defaults, loadable from a file; tuned sets ship per ruleset.

A parameters file is JSON: either the parameters themselves, or ``{"params": {...}, ...}`` with
anything else beside them (``calibrate`` writes the ruleset, its hash and the tuning run there).
"""

from __future__ import annotations

import difflib
import json
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from fivehundred.rules.errors import FiveHundredError
from fivehundred.rules.outputs import replace_file
from fivehundred.rules.twins import nearest_shipped, rules_key, shipped_twin

if TYPE_CHECKING:
    from fivehundred.rules.ruleset import Ruleset


class ClubParams(BaseModel):
    """What the club player's judgement rests on; everything else it reads from the ruleset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    trick_spread: float = Field(1.4, gt=0, description="Standard deviation of the tricks a side takes around "
                                "its estimate: the make probability of a call is Φ((estimate + ½ − tricks) / spread).")
    trick_bias: float = Field(-0.5, description="Tricks added to every trick estimate (negative: the hand count is "
                              "optimistic in this ruleset: a denser deck, more opponents).")
    kitty_tricks: float = Field(0.13, description="Tricks each kitty card is worth to the contractor beyond what the "
                                "hand count assumes (a contract without the kitty loses as much).")
    partner_weight: float = Field(1.2, ge=0, description="Partner's share of the tricks my hand does not take, over "
                                  "an even share among the other players in the hand.")
    exact_control: float = Field(1.0, ge=0, description="Misère risk a contract for exactly its tricks, played "
                                 "alone, forgives in the cards beyond its surest winners (the contractor chooses when "
                                 "to take its tricks); with a partner playing, tricks of slack against going over.")
    shown_weight: float = Field(0.7, ge=0, description="Share of the tricks a partner's shown cards (a dummy's "
                                "face-up cards) add to my hand's count, the two counted together, that the estimate "
                                "counts; the partner's unseen cards keep their share of the tricks left.")
    opponent_shown: float = Field(0.25, ge=0, description="Tricks the estimate loses for each trick the opponents' "
                                  "shown cards would count by themselves in the call's denomination.")
    partner_support: float = Field(1.5, description="Extra tricks when partner has bid the same denomination "
                                   "before I did (its own suit).")
    raise_support: float = Field(0.0, description="Extra tricks when partner has bid the same denomination only "
                                 "after I did (it raised my suit, counting my call as its support already).")
    opponent_called: float = Field(0.0, ge=0, description="Tricks the estimate loses when an opponent has called "
                                   "the denomination before (it holds the trumps we would need).")
    opponent_bids: float = Field(0.0, ge=0, description="Tricks the estimate loses for each call the opponents have "
                                 "made in a denomination, whichever (a misère's excepted): the strength they bid "
                                 "lies against ours, and partner holds less of what is left.")
    joker_trumps: float = Field(0.0, description="Tricks the estimate adds for each joker the hand holds in a "
                                "trump contract, beyond what the hand count gives it (fitted: the count's joker is "
                                "worth what the ruleset's games show).")
    no_trumps_bias: float = Field(0.0, description="Tricks added to a no-trumps estimate besides trick_bias (the "
                                  "hand count's no-trump suits are worth what the ruleset's games show).")
    joker_no_trumps: float = Field(0.0, description="Tricks a no-trumps estimate adds for each joker the hand holds "
                                   "(a joker the defence holds is a sure trick of theirs, rule 20; one the contractor "
                                   "holds is its control).")
    misere_mid: float = Field(2.5, description="Misère risk (after the discards) at which a misère is even money.")
    misere_slope: float = Field(1.5, gt=0, description="How fast the misère make probability falls with risk.")
    open_risk: float = Field(1.8, ge=1, description="Risk multiplier when the contractor's hand is shown.")
    misere_long: float = Field(0.0, ge=0, description="Misère risk added for each card beyond four in a suit of the "
                               "hand kept (evaluation.misere_length): such misères are made less often than their "
                               "cards' danger says (fitted by calibrate --fit-misere).")
    open_leads: float = Field(0.0, ge=0, description="Weight of the defenders' attack on a shown misère hand "
                              "(0: not priced apart; 1: the make chance times the chance that no suit of the hand "
                              "can be forced, by a lead under its lowest card, and where open_attack is on by more of "
                              "the defenders' cards under a card than its own lower cards: bots.misere_bids).")
    open_attack: float = Field(1.0, ge=0, description="Where open_leads weighs a shown misère: 1 counts the "
                               "defenders' cards under every card of a suit (a good defender's count); 0 only a lead "
                               "under its lowest card (the club player before issue 30).")
    partner_misere_risk: float = Field(3.5, ge=0, description="Risk added for a partner who plays the misère too.")
    misere_worlds: float = Field(0.0, ge=0, description="Worlds a defender against an open misère samples to "
                                 "search for the card that keeps a kill (0: the heuristic defence alone).")
    misere_cards: float = Field(32.0, ge=0, description="Cards the seats playing an open misère hold together (the "
                                "defender's hand times the seats playing) from which misere_worlds searches: 32, a "
                                "whole hand of ten cards at three seats (the reference game's open misère), eight "
                                "cards a seat at four seats (six-handed), six at five; the heuristic's card before.")
    misere_own_worlds: float = Field(0.0, ge=0, description="Worlds an open misère's contractor samples to choose "
                                     "its card: each solved double dummy, and where cards are level in all of them, "
                                     "each played on to the end by club in every seat, the one made most often (0: "
                                     "the heuristic's card); from misere_cards cards in play, as misere_worlds.")
    misere_exchange_worlds: float = Field(0.0, ge=0, description="Worlds a misère's contractor (playing alone) "
                                          "samples to choose its discards: each set of them among the five it would "
                                          "throw first made in every world and solved double dummy, the set made in "
                                          "the most thrown (0: the heuristic's discards; solved_discards).")
    misere_bid_worlds: float = Field(0.0, ge=0, description="Worlds in which an open misère played alone is priced "
                                     "in the auction: the call made in each, the hand solved double dummy, the share "
                                     "made moved by misere_bid_shift (0: the danger curve alone; solved_bids).")
    misere_bid_shift: float = Field(0.36, description="Log-odds added to the share of misere_bid_worlds' deals in "
                                    "which the open misère is made against a defence that sees every card.")
    min_gain: float = Field(0.0, description="Expected points over passing a call needs.")
    takeout_gain: float = Field(20.0, description="Expected points a call needs over partner's standing contract "
                                "(priced from my seat) to bid over partner.")
    sacrifice: float = Field(0.0, ge=0, description="Share of the opponents' standing contract's value we accept to "
                             "lose, in expectation, to outbid them.")
    game_sacrifice: float = Field(0.0, ge=0, description="Expected points we accept to lose to outbid the "
                                  "opponents' standing contract where making it would win them the game (take them "
                                  "to the target).")
    sacrifice_defence: float = Field(3.0, ge=0, description="The tricks my own hand would take in the opponents' "
                                     "denomination (counted as a contractor counts them) from which I make no "
                                     "game_sacrifice against their contract: such a hand may beat it instead (0: "
                                     "every hand sacrifices).")
    game_bonus: float = Field(150.0, ge=0, description="Points-equivalent of winning the game by making the call.")
    fall_penalty: float = Field(300.0, ge=0, description="Points-equivalent of losing the game by failing the call "
                                "(a fall to the losing score).")


DEFAULT = ClubParams()


class ParamsError(FiveHundredError):
    """A parameters file that cannot be read."""


def read_params(path: str | Path) -> ClubParams:
    """Parameters from a JSON file (bare, or under ``"params"``)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise ParamsError(f"{p}: cannot read: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise ParamsError(f"{p}:{e.lineno}: invalid JSON: {e.msg}") from None
    return params_from(data, str(p))


def params_from(data: Any, where: str = "parameters") -> ClubParams:
    if isinstance(data, dict) and isinstance(data.get("params"), dict):
        data = data["params"]
    try:
        return ClubParams.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        key = ".".join(map(str, first["loc"])) or "(top level)"
        msg = "unknown parameter (a typo?)" if first["type"] == "extra_forbidden" else first["msg"]
        raise ParamsError(f"{where}: {key}: {msg}") from None


def shipped_path(ruleset_name: str) -> Path:
    """Where the tuned parameters of a shipped ruleset live (they may not exist)."""
    return Path(str(resources.files("fivehundred.bots"))) / "tuned" / f"{ruleset_name}.json"


def shipped_sets() -> list[str]:
    """The rulesets a tuned parameter set ships for, by name."""
    return sorted(p.stem for p in shipped_path("x").parent.glob("*.json"))


_SHIPPED: dict[str, ClubParams] = {}
_FAST: dict[str, ClubParams] = {}
_SOURCES: dict[tuple[str, ...], str | None] = {}
_NEAREST: dict[str, str | None] = {}
"""By the rules' content (``twins.rules_key``): the shipped ruleset with a set nearest to it."""


def tuned_source(ruleset: Ruleset | str) -> str | None:
    """The ruleset whose shipped tuned set the club player uses for ``ruleset``: the ruleset itself; else the
    shipped ruleset that plays exactly its game under another name (``fivehundred.rules.twins``: a copy of a
    shipped file renamed plays as the original); else the nearest of its ancestors (``extends:``) with one;
    else the shipped ruleset with a set nearest to it (``twins.nearest_shipped``: the same seats and teams,
    the fewest settings different: a copy of a shipped file with a house rule changed plays as the original);
    None when none has its seats and teams (the player uses ``DEFAULT``)."""
    if isinstance(ruleset, str):
        return _first_set((ruleset,))
    if _first_set((ruleset.name,)) is None:
        twin = shipped_twin(ruleset)
        if twin is not None and _first_set((twin,)) is not None:
            return twin
    found = _first_set((ruleset.name, *ruleset.ancestors))
    if found is None:
        key = rules_key(ruleset)
        if key not in _NEAREST:
            _NEAREST[key] = nearest_shipped(ruleset, shipped_sets())
        found = _NEAREST[key]
    return found


def _first_set(names: tuple[str, ...]) -> str | None:
    if names not in _SOURCES:
        _SOURCES[names] = next((name for name in names  # a name, never a path (records carry these)
                                if _is_set_name(name) and shipped_path(name).exists()), None)
    return _SOURCES[names]


def tuned_for(ruleset: Ruleset | str, search: bool = True) -> ClubParams:
    """The shipped tuned parameters of a ruleset (or of its nearest ancestor with a set), or the defaults;
    ``search`` False: with the heuristic defence of an open misère alone (``without_search``)."""
    source = tuned_source(ruleset)
    if source is None:
        return DEFAULT
    return _shipped(source) if search else _fast(source)


def without_search(params: ClubParams) -> ClubParams:
    """``params`` without their searches (``misere_worlds``, ``misere_own_worlds``, ``misere_exchange_worlds`` and
    ``misere_bid_worlds`` 0): a misère's discards and an open misère's play by rules of thumb alone, its price by the
    danger curve, at the speed of the rest of ``club``'s play
    (``club:fast``; ``solver``'s models of the other seats)."""
    if not searches(params):
        return params
    return params.model_copy(update=dict.fromkeys(SEARCHES, 0.0))


SEARCHES = ("misere_worlds", "misere_own_worlds", "misere_exchange_worlds", "misere_bid_worlds")
"""The parameters with which ``club`` solves sampled deals double dummy (0: it does not)."""


def searches(params: ClubParams) -> bool:
    """Whether ``club`` with ``params`` solves sampled deals double dummy anywhere (any of ``SEARCHES``)."""
    return any(getattr(params, name) for name in SEARCHES)


def _fast(name: str) -> ClubParams:
    known = _FAST.get(name)
    if known is None:
        known = _FAST[name] = without_search(_shipped(name))
    return known


def _shipped(name: str) -> ClubParams:
    known = _SHIPPED.get(name)
    if known is None:
        known = _SHIPPED[name] = read_params(shipped_path(name))
    return known


def named_set(name: str) -> ClubParams:
    """``club:NAME``: the tuned set shipped for ruleset ``name``; ``default``: the defaults."""
    if name == "default":
        return DEFAULT
    if _is_set_name(name) and shipped_path(name).exists():
        return _shipped(name)
    known = shipped_sets()
    near = difflib.get_close_matches(name, known, n=1, cutoff=0.6) or [k for k in known if k.startswith(name)][:1]
    hint = f"did you mean {near[0]}?" if near else f"sets ship for {', '.join(known)}"
    raise ParamsError(f"club:{name}: no tuned parameters ship for {name!r}; {hint} (club:RULESET takes a shipped "
                      "ruleset's tuned set, club:default the defaults, club:fast the tuned set without the open-misère "
                      "search, club:FILE.json a parameters file)")


def _is_set_name(arg: str) -> bool:
    return "/" not in arg and "\\" not in arg and not arg.endswith(".json")


def params_spec(arg: str) -> ClubParams:
    """The parameters a ``club:ARG`` player spec names: ``default``, the set shipped for a ruleset by its
    name, or a JSON file (a path, or any name that is no shipped set's and is a file)."""
    if arg == "default" or (_is_set_name(arg) and (shipped_path(arg).exists() or not Path(arg).exists())):
        return named_set(arg)
    return read_params(arg)


FAST = "fast"
"""``club:fast`` / ``club:fast:ARG``: the parameters without the open-misère searches (``without_search``)."""


def club_spec(arg: str | None) -> tuple[ClubParams | None, bool]:
    """What ``club:ARG`` names: its parameters (None: the tuned set of the ruleset played, looked up when it is
    played) and whether it searches its cards in an open misère (``FAST``, alone or before another ARG: it does not)."""
    if not arg:
        return None, True
    if arg == FAST:
        return None, False
    if arg.startswith(FAST + ":"):
        return without_search(params_spec(arg[len(FAST) + 1:])), False
    return params_spec(arg), True


def tuning_of(path: Path | None) -> dict[str, Any] | None:
    """The tuning run a parameters file records (None: no file, or none recorded)."""
    if path is None or not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    tuning = data.get("tuning") if isinstance(data, dict) else None
    return tuning if isinstance(tuning, dict) else None


def write_params(path: str | Path, params: ClubParams, **about: Any) -> None:
    """Write a parameters file (through ``fivehundred.rules.outputs``: never half-written)."""
    p = Path(path)
    text = json.dumps({**about, "params": params.model_dump()}, indent=2, ensure_ascii=False) + "\n"
    replace_file(p, text.encode("utf-8"))
