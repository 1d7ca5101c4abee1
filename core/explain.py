"""Rulesets as readable rules: what ``fivehundred rules show`` prints."""

from __future__ import annotations

from fivehundred.ruleset import Ruleset, parse_call


def _ladder_line(ruleset: Ruleset) -> list[str]:
    out = []
    for i, rung in enumerate(ruleset.auction.ladder, 1):
        parsed = parse_call(rung.call)
        if parsed is None:
            c = ruleset.contracts[rung.call]
            what = f"{'open ' if c.open else ''}{c.kind}, {'partner plays' if c.partner_plays else 'partner sits out'}"
        else:
            level, trump = parsed
            what = f"{level} tricks, {'no trumps' if trump is None else 'SCDH'[trump] + ' trumps'}"
        cond = f"; only over {rung.requires_standing} or higher" if rung.requires_standing else ""
        out.append(f"  {i:>2}. {rung.call:<12} {rung.value:>5}  ({what}{cond})")
    return out


def explain(ruleset: Ruleset) -> str:
    """The ruleset as numbered, readable rules."""
    p, d, a, j, s, g = (ruleset.players, ruleset.deal, ruleset.auction, ruleset.joker, ruleset.scoring,
                        ruleset.game)
    deck_size = sum(len(r) for r in ruleset.deck.suits.values()) + ruleset.deck.jokers
    packets = ", ".join(f"{x.each} to each" if x.each else f"{x.kitty} to the kitty" for x in d.packets)
    kitty = sum(x.kitty or 0 for x in d.packets)
    lines = [f"{ruleset.name}", ""]
    if ruleset.description:
        lines += [ruleset.description, ""]
    if ruleset.source:
        lines += [f"Source: {ruleset.source}", ""]
    lines += [
        "Players and teams",
        f"  {len(p.seats)} seats clockwise: {' '.join(p.seats)}",
        *[f"  team {t.name}: {', '.join(t.seats)}" for t in p.teams],
        "",
        "Deck",
        *[f"  {suit}: {' '.join(ranks)}" for suit, ranks in ruleset.deck.suits.items()],
        f"  jokers: {ruleset.deck.jokers}   ({deck_size} cards)",
        "",
        "Deal",
        f"  first dealer: {'at random' if d.first_dealer == 'random' else 'lowest card cut'}; the deal passes left",
        f"  from the dealer's left: {packets}; kitty of {kitty}",
        f"  all pass: {d.all_pass} (the next dealer deals)",
        "",
        "Auction",
        f"  {'each player calls once' if a.rounds == 'single' else 'as many rounds as needed; a pass is final'}",
        "  ladder, lowest first (call, value):",
        *_ladder_line(ruleset),
        "",
        "Kitty and play",
        f"  the {ruleset.kitty.taken_by} takes the kitty and discards as many cards",
        f"  first lead: {ruleset.play.first_lead.replace('-', ' ')}",
        f"  misère ends when the contractor wins a trick: {'yes' if ruleset.play.misere_ends_early else 'no'}",
        "",
        "Joker",
        "  in a suit contract: the highest trump",
        f"  in no-trumps and misère: nomination by {j.nomination}; may be led: {j.lead.replace('-', ' ')}",
        f"  a player void in the suit led: {j.void_play_in_no_trumps} in no-trumps, "
        f"{j.void_play_in_misere} in misère",
        "",
        "Scoring",
        "  made: the contract's value" + (f", plus {s.overtrick_points} per overtrick" if s.overtrick_points else ""),
        f"  all tricks on a contract under {s.slam.below}: {s.slam.scores}" if s.slam else "  no slam bonus",
        "  failed: minus the contract's value",
        f"  defenders: {s.defender_trick_points} per trick ({s.defender_points_in_misere} in misère)",
        "",
        "End of the game",
        f"  win: {'made contract reaching' if g.win == 'contract-made' else 'any score reaching'} {g.target}",
        f"  lose: at {g.swamp} or below" if g.swamp is not None else "  no losing score",
    ]
    if ruleset.house_rules:
        lines += ["", "House rules", *[f"  {name}: {opts or 'on'}" for name, opts in ruleset.house_rules.items()]]
    return "\n".join(lines)
