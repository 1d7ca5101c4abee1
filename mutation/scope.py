"""What the mutation run covers: the rules core's functions, and one or two mutants per operator.

cosmic-ray's full operator set replaces every binary operator by each of the twelve others and every
comparison by each of the nine others; most of those mutants die on import or at the first hand, and
the run would take hours.  The kept set is the mutants a plausible slip of the pen makes: an
off-by-one boundary (< for <=), a negated test (== for !=), the other sign (+ for -), a changed
constant, a dropped ``not``, ``and`` for ``or``, a skipped loop, a removed decorator.
"""

from __future__ import annotations

KEPT_BINARY = {"Add_Sub", "Sub_Add", "Mul_Add", "FloorDiv_Mul", "Mod_FloorDiv", "BitOr_BitAnd", "BitAnd_BitOr"}
KEPT_COMPARISON = {"Lt_LtE", "Lt_GtE", "LtE_Lt", "LtE_Gt", "Gt_GtE", "Gt_LtE", "GtE_Gt", "GtE_Lt",
                   "Eq_NotEq", "NotEq_Eq", "Is_IsNot", "IsNot_Is", "In_NotIn", "NotIn_In"}
KEPT_UNARY = {"USub_UAdd", "Delete_Not", "Delete_USub"}

ONLY = {
    # The engine's state machine: the hand's phases, the auction's end and the all-passed policies (rule
    # 13), the trick's end, scoring a hand and the game's end, the deal's checks.  Left out: the reading
    # API (checked by test_state_api.py against the observation), the text, the error explanations, the
    # determinisation API, the constructor, ``apply`` and ``returns``, the deal's own checks (``deal``,
    # ``deal_cards``), and the loops (``play_out``, ``_auction_turns``, ``play._tricks``), which the record and path
    # tests replay through ``apply()`` card by card.
    "core/engine/state.py": {
        "current_player", "is_terminal", "deck_to_redeal", "deal_deck", "legal_actions", "_start_hand",
        "_open_auction", "_apply", "_call", "_auction_over", "_all_passed", "_redeal",
    },
    # The state's play (play.py): a card played and the trick it completes (``_play``, ``_apply_play``), the legal
    # plays as the table and the variant's filter say them (``_legal_plays``, ``_table_plays``: rules 16, 21, 22),
    # the trick's end (``_end_trick``, ``_turn_up``), scoring a hand and the game's end (``_score_hand``), the next
    # deal (``_next_deal``), a hand played to its last trick (``_play_every_trick``).  Left out: the play loop
    # (``_tricks``) and the fields' copy.
    "core/engine/play.py": {
        "_play", "_apply_play", "_legal_plays", "_table_plays", "_end_trick", "_turn_up", "_score_hand",
        "_next_deal", "_play_every_trick",
    },
    # The rules of the trick as the play kernel states them once, for the engine and the kernel's positions: the
    # trick's winner (rule 17, J2's named joker), the end of the play and a misère's early end (rule 27).  Its
    # bitmask search is the solver's, left out.
    "core/engine/kernel.py": {"trick_winner", "play_over", "decided_by"},
}
"""Modules of which only these functions are mutated."""

MISDEAL_WORDS = ("misdeal", "MISDEAL", "faceless")
"""D4's misdeal (a hand without a face card) is moving into a plugin: its lines in the engine are left out."""

OUT_OF_SCOPE = {
    # Error texts and ruleset validation: checked by the explain and ruleset tests, not rules of play.
    "core/rules/tables.py": {"denomination_text"},
    "plugins/tricks.py": {"fivehundred_check_ruleset", "explain", "unnamed_follow"},
    "core/rules/auction.py": {"why_illegal"},
    "plugins/scoring.py": {"_game_end_problems", "_scoring_problems"},
}


def kept(module: str, operator: str, definition: str | None, line: str = "") -> bool:
    """Whether the run tries this mutant (``line``: the source line it changes)."""
    if definition in OUT_OF_SCOPE.get(module, ()):
        return False
    if module in ONLY and definition not in ONLY[module]:
        return False
    if any(word in line for word in MISDEAL_WORDS):
        return False
    name = operator.split("/")[-1]
    for family, kept_pairs in (("ReplaceBinaryOperator_", KEPT_BINARY), ("ReplaceComparisonOperator_", KEPT_COMPARISON),
                               ("ReplaceUnaryOperator_", KEPT_UNARY)):
        if name.startswith(family):
            return name[len(family):] in kept_pairs
    return True
