"""Regenerates docs/variants.md from the code and tests: python docs/gen_variants.py"""
import glob
import os
import re
from pathlib import Path

os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
V = [
 ("D1", "45-card deck, kitty 5", "data: `deck.suits` with all four 4s, `deal.packets` 3-(3 kitty)-4-(2 kitty)-3; discards = kitty size"),
 ("D2", "two jokers", "data: `deck.jokers: 2` (JK beats JK2); trick tables in `plugins/tricks.py`"),
 ("D3", "other fours removed, colour four trumps", "field `trumps.colour_four`; `plugins/tricks.py`"),
 ("D4", "misdeal without a face card", "field `deal.misdeal_without_face_card: may|must`; engine (`misdeal` call, redeal by the same dealer)"),
 ("D5", "first dealer by cut", "field `deal.first_dealer: cut`; `plugins/deck.py`"),
 ("P2", "two players with dummies", "field `players.dummies`; engine (face-down cards turned up after each trick, the partner decides)"),
 ("P3", "three players (33 cards, or a dead hand)", "data: one-seat teams, 33-card deck; `deal.packets` with `dead`"),
 ("P5", "five players, called partner", "fields `players.partnership: called-card`, `called_partner_share`; exchange step `call CARD`/`alone`; `plugins/scoring.py`"),
 ("P6", "six players (63 cards; 2×3 or 3×2 teams)", "data: 11/12/13 ranks, teams"),
 ("FC", "French-Canadian", "data (deck, two jokers, 6-card kitty, misère positions, target 1000) and `scoring.failed: opponents-gain`"),
 ("B1", "no misère", "data: ladder without misère rungs (`contracts: {misere: null}`)"),
 ("B2", "misère any time", "data: no `requires_standing`"),
 ("B3", "split colours ladder", "data: ladder order; Hi/Lo and double misère contract types"),
 ("B4", "open misère top bid", "data: ladder order and value"),
 ("B5", "single-round auction", "field `auction.rounds: single`; `SingleRoundAuction`"),
 ("B6", "re-bidding rules", "fields `auction.rebid`, `auction.winner_may_raise`; auction classes in `core/auction.py`"),
 ("B7", "inkle", "ladder fields `first_calls`, `signal`"),
 ("B8", "blind misère", "ladder field `first_own_call`; value as data"),
 ("B9", "no-kitty bids", "contract field `kitty: false`"),
 ("B10", "all pass", "fields `deal.all_pass: redeal|no-trumps|same-cards|dealer-must-bid`, `deal.redeals`"),
 ("B11", "nullo", "data: misère worth 500, no open form"),
 ("C1", "double nullo", "contract fields `partner_plays: true`, `goal: none`, `kitty_to_partner: true`"),
 ("C2", "double shields", "contract field `partner_open: true`"),
 ("C3", "patastrophe", "contract fields `open`, `partner_open`, `partner_plays`"),
 ("C4", "Wilkinson misère", "contract fields `open: true`, `kitty: false`; no `requires_standing`"),
 ("C5", "Hi/Lo", "contract fields `kind: no-trumps`, `goal: exactly`, `tricks: 5`"),
 ("C6", "slam call", "fields `declarations.slam`, `slam_penalty`; exchange steps `slam`, `give`; made, it scores the next level's bid in the same suit (seed 003)"),
 ("C7", "declare", "fields `declarations.declare`, `declare_value`; exchange steps `declare`, `give`"),
 ("C8", "J5 no-trumps (jacks high)", "contract field `jacks_high`; `plugins/tricks.py`"),
 ("J1", "joker led only to the last trick", "field `joker.lead: last-trick`"),
 ("J2", "Canadian joker", "field `joker.nomination: when-played`; named-joker actions for followers"),
 ("J3", "no renege with the joker", "field `joker.no_renege`; a legal-play filter built per contract"),
 ("J4", "joker first or last of a suit", "field `joker.first_or_last`; a legal-play filter built per contract"),
 ("J5", "joker any time", "fields `joker.void_play_in_no_trumps: any-time`, `joker.lead: any`"),
 ("L1", "dealer's left leads", "field `play.first_lead: dealer-left`"),
 ("L2", "claims", "fields `play.claims`, `play.claim_penalty`; the `claim` action, judged by an exhaustive search (`fivehundred.claims`); `HandOutcome.wrong_claim` in scoring"),
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
 ("R2", "breach", "field `scoring.breach`; exchange step `breach`; `plugins/breach.py` (scores, the game end without breach points, bars on the next auction)"),
]
tests = {}
for f in sorted(glob.glob("tests/test_*.py")):
    for m in re.finditer(r"def (test_([A-Z][A-Z0-9]*)_\w+)", Path(f).read_text(encoding='utf-8')):
        tests.setdefault(m.group(2), []).append(f"`{os.path.basename(f)}::{m.group(1)}`")
USES = {  # rulesets whose data uses an id without naming it
    "D2": ["french-canadian"], "E2": ["french-canadian"], "B1": ["avondale-us", "five-handed", "two-handed"],
    "B2": ["three-handed"], "B3": ["perfect"], "B8": ["perfect"], "C1": ["perfect"], "C3": ["perfect"],
    "C5": ["perfect"], "P3": ["three-handed", "three-handed-dead-hand"], "P6": ["six-handed-three-teams"],
}
uses = {k: list(v) for k, v in USES.items()}
for f in sorted(glob.glob("rulesets/*.yaml")):
    txt = Path(f).read_text(encoding='utf-8')
    for vid, *_ in V:
        if re.search(rf"\b{vid}\b", txt):
            name = os.path.basename(f)[:-5]
            if name not in uses.setdefault(vid, []):
                uses[vid].append(name)
lines = ["# The variant catalogue, id by id", "",
 "How each entry of `VARIANTS.md` is expressed: as ruleset data (a field), or as behaviour (a",
 "built-in plugin or an engine step that a field switches on); the shipped rulesets that use it; and",
 "the tests that show it differs from the reference (each from a concrete deal). Regenerate it with",
 "`python docs/gen_variants.py`; `tests/test_docs.py` fails when an id loses its row or its tests.", "",
 "| id | variant | how | shipped rulesets | tests |", "|---|---|---|---|---|"]
for vid, name, how in V:
    t = "<br>".join(tests.get(vid, [])) or "—"
    u = ", ".join(sorted(uses.get(vid, []))) or "—"
    lines.append(f"| {vid} | {name} | {how} | {u} | {t} |")
Path("docs/variants.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
print("ids without tests:", sorted({v for v, *_ in V} - set(tests)))
