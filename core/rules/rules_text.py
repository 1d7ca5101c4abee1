"""Names of the rules that an illegal action or a record can break, as cited in errors.

The numbers are those of the reference game in docs/rules.md; ids such as D4 or L2 are the
variants of docs/variants.md.
"""

DOCUMENTS = "rule numbers: docs/rules.md; variant ids (D4, L2 …): docs/variants.md"
"""Where the rules that errors cite are written, said once after a list of problems."""

OUT_OF_TURN = "rule 8: calls and plays go clockwise; it is not this seat's turn"
PASSED = "rule 8: a player who has passed may not bid again in this auction"
NOT_HIGHER = "rule 8: a bid must be strictly higher than the standing bid"
NOT_ON_LADDER = "rule 9: the call is not on this ruleset's ladder"
MISERE_NEEDS_SEVEN = "rule 10: misère may be bid only over a bid at the 7 level"
CONTRACTOR_RAISE = "rule 12: the contractor may not raise the winning bid"
AUCTION_OVER = "rule 12: the auction is over once a bid stands and the others have passed; no call follows it"
AUCTION_UNFINISHED = "rule 12: the auction ends when a bid stands and the others have passed"
CONTRACT = "rule 12: the last standing bid is the contract"
PASSED_OUT = "rule 13: when everybody passes nothing is scored, and the deal ends there"
DEALER = "rule 7: the deal passes to the left after every deal"
WRONG_PHASE = "the action does not belong to this phase of the hand"
DISCARD = "rule 14: the contractor discards cards from the hand holding the kitty"
NOMINATE = "rule 19: only the contractor holding the joker in no-trumps or misère nominates, once"
NOT_IN_HAND = "rule 16: a player may play only a card from their own hand"
FOLLOW_SUIT = "rule 16: a player must follow suit when able"
JOKER_ON_LEAD = "rule 21: a free joker may be played to another's lead only by a player void in the suit led"
JOKER_COMPULSORY = "rule 21: in misère a player void in the suit led must play the free joker"
JOKER_LEAD_SUIT = "rule 22: a led joker must name a suit not yet led in this hand"
JOKER_LEAD_LATE = "rule 22: once every suit has been led, the joker may be led only to the last trick"
JOKER_NAME = "rule 22: a suit is named only when a free joker is led"
VALUE = "rule 24: a contract is worth its value in the ruleset's table"
SCORE = "rules 24–27: the recorded score differs from the scoring rules"
GAME_END = "rules 28–31: the recorded end of the game differs from the rules"
GAME_OVER_AT_START = "rules 28–31: a game starts only at totals the game goes on from"
