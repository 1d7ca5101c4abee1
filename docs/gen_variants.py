"""Regenerates docs/variants.md from the code, the rulesets and the tests: python docs/gen_variants.py

Which shipped rulesets use a variant is read from the data: each catalogue id has a test on a
loaded, resolved ruleset's fields (``USES`` below), asked of every ruleset in ``rulesets/``.  Which
tests show a variant is read from the test names (``test_<ID>_…``).  ``tests/test_docs.py`` fails
when docs/variants.md is not what this script writes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

from fivehundred import load_ruleset
from fivehundred.rules.ruleset import ContractType, Ruleset, parse_call

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "variants.md"

V = [
 ("D1", "45-card deck, kitty 5", "data: `deck.suits` with all four 4s, `deal.packets` 3-(3 kitty)-4-(2 kitty)-3; discards = kitty size"),
 ("D2", "two jokers", "data: `deck.jokers: 2` (JK beats JK2); trick tables in `plugins/tricks.py`"),
 ("D3", "other fours removed, colour four trumps", "field `trumps.colour_four`; `plugins/tricks.py`"),
 ("D4", "misdeal without a face card", "field `deal.misdeal_without_face_card: may|must`; steps (`fivehundred.plugins.misdeal`: `ThrowIn` as soon as dealt, or `Misdeal`, stage `call`: offered beside the calls); the same dealer deals again (the `ThrowIn` effect)"),
 ("D5", "first dealer by cut", "field `deal.first_dealer: cut`; `plugins/deck.py`"),
 ("P2", "two players with dummies", "field `players.dummies`; a step (`fivehundred.plugins.dummies.LaidOut`: the hand laid out half face down as dealt, the `LayOut` effect, whose covered cards the engine turns up after each trick); the auction rules' `silent` seats; the partner decides (`Rules.controller`)"),
 ("P3", "three players (33 cards, or a dead hand)", "data: one-seat teams, 33-card deck; `deal.packets` with `dead`"),
 ("P5", "five players, called partner", "fields `players.partnership: called-card`, `called_partner_share`, `call_own_card` (the hidden lone hand), `call_trumps`; a step of the hand, `plugins/partner.py` (`call CARD`/`alone`); `plugins/scoring.py`"),
 ("P6", "six players (63 cards; 2×3 or 3×2 teams)", "data: 11/12/13 ranks, teams"),
 ("FC", "French-Canadian", "data (deck, two jokers, the kitty in two packets of 3, misère positions, target 1000), `scoring.failed: opponents-gain`; `deal.kitty_face_up: 1`, a step without actions, `plugins/kitty.py`"),
 ("B1", "no misère", "data: ladder without misère rungs (`contracts: {misere: null}`)"),
 ("B2", "misère any time", "data: no `requires_standing`"),
 ("B3", "split colours ladder", "data: ladder order; Hi/Lo and double misère contract types"),
 ("B4", "open misère top bid", "data: ladder order and value"),
 ("B5", "single-round auction", "field `auction.rounds: single`; `SingleRoundAuction`"),
 ("B6", "re-bidding rules", "fields `auction.rebid`, `auction.winner_may_raise`; auction classes in `core/rules/auction.py`"),
 ("B7", "inkle", "ladder fields `first_calls`, `signal`"),
 ("B8", "blind misère", "ladder field `before_looking`: a step before the auction, `plugins/blind.py` (no hand shown while it lasts); or `first_own_call` (only as the caller's first call); value as data"),
 ("B9", "no-kitty bids", "contract field `kitty: false`"),
 ("B10", "all pass", "fields `deal.all_pass: redeal|no-trumps|same-cards|dealer-must-bid`, `deal.redeals`; the bidding plugin turns them into the auction rules' `AllPassed` (played at no-trumps with no contractor, dealt again, or the same cards unshuffled), which the engine carries out"),
 ("B11", "nullo", "data: misère worth 500, no open form"),
 ("C1", "double nullo", "contract fields `partner_plays: true`, `goal: none`, `kitty_to_partner: true`; the pass is a step before the discards (`fivehundred.plugins.passing.PassToPartner`), the partner then discards"),
 ("C2", "double shields", "contract field `partner_open: true`"),
 ("C3", "patastrophe", "contract fields `open`, `partner_open`, `partner_plays`"),
 ("C4", "Wilkinson misère", "contract fields `open: true`, `kitty: false`; no `requires_standing`"),
 ("C5", "Hi/Lo", "contract fields `kind: no-trumps`, `goal: exactly`, `tricks: 5`"),
 ("C6", "slam call", "fields `declarations.slam`, `slam_penalty`; steps of the hand, `plugins/declarations.py` (`slam`, `give`); made, it scores the next level's bid in the same suit (the encyclopedia article “500 (juego de cartas)”)"),
 ("C7", "declare", "fields `declarations.declare`, `declare_value`; steps of the hand, `plugins/declarations.py` (`declare`, `give`)"),
 ("C8", "J5 no-trumps (jacks high)", "contract field `jacks_high`; `plugins/tricks.py`"),
 ("J1", "joker led only to the last trick", "field `joker.lead: last-trick`"),
 ("J2", "Canadian joker", "field `joker.nomination: when-played`; named-joker actions for followers"),
 ("J3", "no renege with the joker", "field `joker.no_renege`; a legal-play filter built per contract"),
 ("J4", "joker first or last of a suit", "field `joker.first_or_last`; a legal-play filter built per contract"),
 ("J5", "joker any time", "fields `joker.void_play_in_no_trumps: any-time`, `joker.lead: any`"),
 ("L1", "dealer's left leads", "field `play.first_lead: dealer-left`"),
 ("L2", "claims", "fields `play.claims`, `play.claim_penalty`; a step of the play (`fivehundred.plugins.claims.Claim`, stage `lead`: offered beside the leads), judged by an exhaustive search; a scoring wrapper takes the penalty"),
 ("S1", "1904 table", "data: ladder values"),
 ("S2", "perfect table", "data: ladder values and positions"),
 ("S3", "overtricks", "fields `scoring.overtrick_points`, `overtrick_cap`, `slam: null`"),
 ("S4", "no slam bonus", "field `scoring.slam: null`"),
 ("S5", "490 rule", "field `scoring.defender_cap`"),
 ("S6", "no defence points", "field `scoring.defender_trick_points: 0`"),
 ("E1", "any 500 wins", "fields `game.win: any`, `game.both_reach`"),
 ("E2", "no swamp", "field `game.swamp: null`"),
 ("E3", "conditional swamp", "fields `game.swamp_strict`, `swamp_needs_opponents_not_negative`"),
 ("E4", "point spread", "field `game.spread`"),
 ("E5", "Walker Ultimate 500", "fields `game.exact_target`, `game.bust`"),
 ("E6", "1904 mid-hand end", "field `game.mid_hand`; hook `fivehundred_trick_check` (`plugins/midhand.py`)"),
 ("R1", "set / ralphing", "fields `auction.set_bar`, `set_bar_misere`; `AuctionRules.barred_after`"),
 ("R2", "breach", "field `scoring.breach`; a step of the hand, `plugins/breach.py` (on 7+ contracts and every misère, a breached misère played out to 3 tricks; scores, the game end without breach points, bars on the next auction)"),
]
"""Every catalogue id: its name, and how the framework expresses it."""


# --- which rulesets use each id: a test on the resolved ruleset's fields ------------------------------


def named(rs: Ruleset) -> list[tuple[int, str, ContractType]]:
    """The ladder's named contracts (misères, Hi/Lo …) as (position on the ladder, call, contract)."""
    return [(i, r.call, rs.contracts[r.call]) for i, r in enumerate(rs.auction.ladder) if r.call in rs.contracts]


def misere(c: ContractType) -> bool:
    return c.kind == "misere"


def closed_alone(c: ContractType) -> bool:
    """A misère played closed by the contractor alone (the plain misère or nullo)."""
    return misere(c) and not c.open and not c.partner_plays


def rung(rs: Ruleset, call: str) -> int | None:
    return next((r.value for r in rs.auction.ladder if r.call == call), None)


def suit_values(rs: Ruleset) -> list[tuple[int, int, int]]:
    """(level, denomination: S C D H NT as 0–4, value) of every suit and no-trump bid."""
    out = []
    for r in rs.auction.ladder:
        parsed = parse_call(r.call)
        if parsed is not None:
            level, trump = parsed
            out.append((level, 4 if trump is None else trump, r.value))
    return out


def avondale(level: int, denomination: int) -> int:
    return 40 + 100 * (level - 6) + 20 * denomination


def table_1904(level: int, denomination: int) -> int:
    return 20 * (level - 4) * (denomination + 1)


def splits_a_level(rs: Ruleset) -> bool:
    """B3: a named contract placed right after a level's clubs bid, below its diamonds."""
    ladder = [r.call for r in rs.auction.ladder]
    return any(i and re.fullmatch(r"\d+C", ladder[i - 1]) and i + 1 < len(ladder)
               and re.fullmatch(r"\d+D", ladder[i + 1]) for i, _, _ in named(rs))


FOURS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")

USES: dict[str, Callable[[Ruleset], bool]] = {
    "D1": lambda rs: len(rs.deck.suits) == 4 and all(tuple(r) == FOURS for r in rs.deck.suits.values()),
    "D2": lambda rs: rs.deck.jokers >= 2,
    "D3": lambda rs: rs.trumps.colour_four,
    "D4": lambda rs: rs.deal.misdeal_without_face_card != "no",
    "D5": lambda rs: rs.deal.first_dealer == "cut",
    "P2": lambda rs: bool(rs.players.dummies),
    "P3": lambda rs: len(rs.players.seats) == 3,
    "P5": lambda rs: rs.players.partnership == "called-card",
    "P6": lambda rs: len(rs.players.seats) == 6,
    "FC": lambda rs: rs.scoring.failed == "opponents-gain",
    "B1": lambda rs: not any(misere(c) for _, _, c in named(rs)),
    "B2": lambda rs: any(closed_alone(c) and rs.auction.ladder[i].requires_standing is None
                         and not rs.auction.ladder[i].first_own_call for i, _, c in named(rs)),
    "B3": splits_a_level,
    "B4": lambda rs: any(misere(c) and c.open and i == len(rs.auction.ladder) - 1 for i, _, c in named(rs)),
    "B5": lambda rs: rs.auction.rounds == "single",
    "B6": lambda rs: rs.auction.rebid != "always" or rs.auction.winner_may_raise,
    "B7": lambda rs: any(r.signal or r.first_calls is not None for r in rs.auction.ladder),
    "B8": lambda rs: any(misere(c) and (rs.auction.ladder[i].first_own_call or rs.auction.ladder[i].before_looking)
                         for i, _, c in named(rs)),
    "B9": lambda rs: any(not c.kitty for _, _, c in named(rs)),
    "B10": lambda rs: rs.deal.all_pass != "redeal" or rs.deal.redeals > 0,
    "B11": lambda rs: (any(closed_alone(c) and rung(rs, call) == 500 for _, call, c in named(rs))
                       and not any(misere(c) and c.open for _, _, c in named(rs))),
    "C1": lambda rs: any(misere(c) and c.partner_plays and c.kitty_to_partner for _, _, c in named(rs)),
    "C2": lambda rs: any(misere(c) and c.partner_plays and c.partner_open and not c.open for _, _, c in named(rs)),
    "C3": lambda rs: any(misere(c) and c.partner_plays and c.open and c.partner_open for _, _, c in named(rs)),
    "C4": lambda rs: any(misere(c) and c.open and not c.kitty for _, _, c in named(rs)),
    "C5": lambda rs: any(c.goal == "exactly" for _, _, c in named(rs)),
    "C6": lambda rs: bool(rs.declarations.slam),
    "C7": lambda rs: rs.declarations.declare,
    "C8": lambda rs: any(c.jacks_high for c in rs.contracts.values()),
    "J1": lambda rs: rs.joker.lead == "last-trick",
    "J2": lambda rs: rs.joker.nomination == "when-played",
    "J3": lambda rs: rs.joker.no_renege,
    "J4": lambda rs: rs.joker.first_or_last,
    "J5": lambda rs: rs.joker.void_play_in_no_trumps == "any-time" or rs.joker.lead == "any",
    "L1": lambda rs: rs.play.first_lead == "dealer-left",
    "L2": lambda rs: rs.play.claims,
    "S1": lambda rs: all(v == table_1904(level, d) for level, d, v in suit_values(rs)),
    "S2": lambda rs: all(v == avondale(level, d) - 20 for level, d, v in suit_values(rs)),
    "S3": lambda rs: rs.scoring.overtrick_points > 0,
    "S4": lambda rs: rs.scoring.slam is None,
    "S5": lambda rs: rs.scoring.defender_cap is not None,
    "S6": lambda rs: rs.scoring.defender_trick_points == 0,
    "E1": lambda rs: rs.game.win == "any",
    "E2": lambda rs: rs.game.swamp is None,
    "E3": lambda rs: rs.game.swamp_strict or rs.game.swamp_needs_opponents_not_negative,
    "E4": lambda rs: rs.game.spread is not None,
    "E5": lambda rs: rs.game.exact_target or rs.game.bust is not None,
    "E6": lambda rs: rs.game.mid_hand,
    "R1": lambda rs: rs.auction.set_bar is not None or rs.auction.set_bar_misere is not None,
    "R2": lambda rs: rs.scoring.breach is not None,
}
"""Per catalogue id (``tests/data/variant_ids.txt``): whether a resolved ruleset uses it, read from its fields alone."""


def shipped() -> list[str]:
    """The rulesets the package ships (``rulesets/*.yaml``), by name."""
    return sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))


def uses() -> dict[str, list[str]]:
    """Per id, the shipped rulesets whose fields use it."""
    rulesets = [load_ruleset(name) for name in shipped()]
    return {vid: [rs.name for rs in rulesets if USES[vid](rs)] for vid, *_ in V}


def tests() -> dict[str, list[str]]:
    """Per id, the tests named after it (``test_<ID>_…``), as ``file::name``."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        for m in re.finditer(r"def (test_([A-Z][A-Z0-9]*)_\w+)", path.read_text(encoding="utf-8")):
            found.setdefault(m.group(2), []).append(f"`{path.name}::{m.group(1)}`")
    return found


def render() -> str:
    """The text of docs/variants.md."""
    used, shown = uses(), tests()
    lines = ["# The variant catalogue, id by id", "",
             "How each variant of the reference game ([docs/rules.md](rules.md)) is expressed, by the id",
             "that errors cite (D4, L2 …): as ruleset data (a field), or as behaviour (a built-in plugin or",
             "an engine step that a field switches on); the shipped rulesets that use it,",
             "read from their resolved fields (the test of each id is `USES` in `docs/gen_variants.py`); and",
             "the tests that show it differs from the reference (each from a concrete deal). Regenerate it with",
             "`python docs/gen_variants.py`; `tests/test_docs.py` fails when this file is stale or an id loses",
             "its row or its tests.", "",
             "| id | variant | how | shipped rulesets | tests |", "|---|---|---|---|---|"]
    for vid, name, how in V:
        t = "<br>".join(shown.get(vid, [])) or "—"
        u = ", ".join(used[vid]) or "—"
        lines.append(f"| {vid} | {name} | {how} | {u} | {t} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    OUT.write_text(render(), encoding="utf-8")
    missing = sorted({vid for vid, *_ in V} - set(tests()))
    print("ids without tests:", missing, file=sys.stderr)


if __name__ == "__main__":
    main()
