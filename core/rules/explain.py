"""Rulesets in words: ``fivehundred rules show`` (``explain``) and ``fivehundred rules diff`` (``diff``).

``explain`` writes a ruleset as readable rules, every field included: the variant fields appear
whenever they differ from the reference game (``pagat-australian``), and stay quiet otherwise.
``diff`` lists exactly what differs between two rulesets, one ``Difference`` per field path.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import pluggy
from pydantic import BaseModel

from .printable import printable
from .ruleset import ContractType, Packet, Ruleset, Rung, parse_call

RULES_TEXT = ("Rules text: errors cite rules by their number in docs/rules.md (the reference game) "
              "and variants by their id in docs/variants.md")

SUIT_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}


# --- explain --------------------------------------------------------------------------------


def explain(ruleset: Ruleset, pm: pluggy.PluginManager | None = None) -> str:
    """The ruleset as readable rules, section by section; ``pm`` names the house rules' packages."""
    lines = [ruleset.name, ""]
    if ruleset.description:
        lines += [*ruleset.description.split("\n"), ""]  # a description may run over lines (YAML's ``|``)
    if ruleset.source:
        lines += [f"Source: {ruleset.source}", ""]
    sections = (
        ("Players and teams", _players(ruleset)),
        ("Deck", _deck(ruleset)),
        ("Deal", _deal(ruleset)),
        ("Auction", _auction(ruleset)),
        ("Contracts", _contracts(ruleset)),
        ("Declarations after the exchange", _declarations(ruleset)),
        ("Kitty and play", _play(ruleset)),
        ("Joker", _joker(ruleset)),
        ("Scoring", _scoring(ruleset)),
        ("End of the game", _game_end(ruleset)),
        ("House rules", _house_rules(ruleset, pm)),
    )
    for title, body in sections:
        if body:
            lines += [title, *(f"  {line}" for line in body), ""]
    lines += [RULES_TEXT, ""]
    return "\n".join(printable(line) for line in lines).rstrip() + "\n"  # text from the file shown as written


def _players(rs: Ruleset) -> list[str]:
    p = rs.players
    out = [f"{len(p.seats)} seats clockwise: {' '.join(p.seats)}"]
    if all(len(t.seats) == 1 for t in p.teams):
        out.append(f"each player scores alone ({', '.join(t.name for t in p.teams)})")
    else:
        out += [f"team {t.name}: {', '.join(t.seats)} (one score)" for t in p.teams]
    out += [f"{dummy} is a dummy hand played by {controller}; a dummy does not call"
            for dummy, controller in p.dummies.items()]
    share = "the full contract's points" if p.called_partner_share == "full" else "half the contract's points"
    if p.partnership == "called-card":
        out.append("partners are called: after the exchange the contractor calls a card (or goes alone); "
                   f"its holder partners the contractor for the hand and scores {share}")
    elif p.called_partner_share != "full":
        out.append(f"a called partner would score {share} (no effect: partnerships are fixed)")
    calling = [] if p.partnership == "called-card" else [" (no effect: partnerships are fixed)"]
    if p.call_own_card:
        out.append("the contractor may call a card it holds itself, playing alone without the others knowing"
                   + "".join(calling))
    if not p.call_trumps:
        out.append("a trump may not be called as the partner's card" + "".join(calling))
    return out


def _deck(rs: Ruleset) -> list[str]:
    d = rs.deck
    size = sum(len(ranks) for ranks in d.suits.values()) + d.jokers
    out = [f"{suit}: {' '.join(ranks)}" for suit, ranks in d.suits.items()]
    jokers = {0: "no joker", 1: "1 joker"}.get(d.jokers, f"{d.jokers} jokers, JK highest, then JK2, …")
    out.append(f"{jokers}   ({size} cards)")
    if rs.trumps.colour_four:
        out.append("the 4 of the trump suit's colour is a trump too (below the trump 5)")
    return out


def _packet(packet: Packet) -> str:
    if packet.each is not None:
        return f"{packet.each} to each"
    if packet.kitty is not None:
        return f"{packet.kitty} to the kitty"
    return f"{packet.dead} to the dead hand"


ALL_PASS = {
    "redeal": "the next dealer deals a new hand",
    "no-trumps": "the hand is played at no-trumps, each side scoring for its tricks",
    "same-cards": "the next dealer deals the same cards without shuffling",
    "dealer-must-bid": "the dealer may not pass when the others have all passed",
}


def _deal(rs: Ruleset) -> list[str]:
    d = rs.deal
    kitty = sum(p.kitty or 0 for p in d.packets)
    dead = sum(p.dead or 0 for p in d.packets)
    each = sum(p.each or 0 for p in d.packets)
    out = [
        f"first dealer: {'at random' if d.first_dealer == 'random' else 'the lowest card cut'}; the deal passes left",
        f"from the dealer's left: {', '.join(_packet(p) for p in d.packets)}",
        f"hands of {each}, kitty of {kitty}" + (f", a dead hand of {dead} face down, out of play" if dead else ""),
        f"if all pass: {ALL_PASS[d.all_pass]}",
    ]
    if d.redeals:
        out.append(f"redeals: the same dealer deals again up to {d.redeals} time(s) before the deal passes")
    if d.misdeal_without_face_card != "no":
        verb = "is" if d.misdeal_without_face_card == "must" else "may be called"
        out.append(f"misdeal: a hand without a J, Q, K or joker {verb} a misdeal; the dealer deals again")
    if d.kitty_face_up:
        cards = "card" if d.kitty_face_up == 1 else f"{d.kitty_face_up} cards"
        out.append(f"the last kitty {cards} dealt lie face up for every player to see")
    return out


def _auction(rs: Ruleset) -> list[str]:
    a = rs.auction
    if a.rounds == "single":
        out = ["each player calls once"]
    elif a.reentry == "if-bid-changed":
        out = ["as many rounds as needed; a player who has passed may call again once the bid has changed since"]
    else:
        out = ["as many rounds as needed; a pass is final"]
    if a.rebid == "after-intervening-bid":
        out.append("a player who has bid may bid again only after another player has bid since")
    out.append("the auction winner may raise once after all others passed" if a.winner_may_raise
               else "the auction winner may not raise the winning bid")
    if a.set_bar is not None:
        out.append(f"set: a contractor {a.set_bar} or more tricks short may not bid in the next hand")
    if a.set_bar_misere is not None:
        out.append(f"set: a misère contractor who takes {a.set_bar_misere} or more tricks may not bid "
                   "in the next hand")
    out.append("ladder, lowest first (call, value):")
    out += [_rung_line(rs, i, rung) for i, rung in enumerate(a.ladder, 1)]
    return out


def _rung_line(rs: Ruleset, number: int, rung: Rung) -> str:
    notes = [_call_summary(rs, rung.call)]
    if rung.requires_standing:
        notes.append(f"only over {rung.requires_standing} or higher")
    if rung.first_calls is not None:
        notes.append(f"only among the first {rung.first_calls} calls of the auction")
    if rung.first_own_call:
        notes.append("only as the caller's first call (blind)")
    if rung.before_looking:
        notes.append("only before looking at one's cards, in a round before the auction (blind)")
    if rung.signal:
        notes.append("a signal to partner: never the contract")
    return f"  {number:>2}. {rung.call:<14} {rung.value:>5}  ({'; '.join(notes)})"


def _call_summary(rs: Ruleset, call: str) -> str:
    parsed = parse_call(call)
    if parsed is None:
        c = rs.contracts[call]
        return f"{'open ' if c.open else ''}{_kind(c)}, {_goal(c)}"
    level, trump = parsed
    return f"{level} tricks, {'no trumps' if trump is None else SUIT_NAMES['SCDH'[trump]] + ' trumps'}"


def _kind(c: ContractType) -> str:
    if c.kind == "trumps":
        return f"{SUIT_NAMES.get(c.trump or '', c.trump)} trumps"
    return "no trumps" if c.kind == "no-trumps" else "misère"


def _goal(c: ContractType) -> str:
    if c.goal == "none":
        return "no trick" + (f" (tricks: {c.tricks} unused)" if c.tricks else "")
    return f"{'at least' if c.goal == 'at-least' else 'exactly'} {c.tricks} tricks"


def _contracts(rs: Ruleset) -> list[str]:
    return [f"{name}: {_contract_rules(c)}" for name, c in rs.contracts.items()]


def _contract_rules(c: ContractType) -> str:
    parts = [f"{'open ' if c.open else ''}{_kind(c)}", f"the contracting side must take {_goal(c)}",
             "the partner plays" if c.partner_plays else "the partner sits out"]
    if c.open:
        parts.append("the contractor's hand is shown after the first trick")
    if c.partner_open:
        parts.append("the partner's hand is shown after the first trick")
    if not c.kitty:
        parts.append("played without the kitty")
    if c.kitty_to_partner:
        parts.append("the contractor passes the discards to the partner, who keeps the best and discards as many")
    if c.jacks_high:
        parts.append("each jack ranks above its ace")
    if c.fail_value is not None:
        parts.append(f"failure loses {c.fail_value} instead of the value")
    if c.fail_penalty:
        parts.append(f"failure loses {c.fail_penalty} more")
    return "; ".join(parts)


def _declarations(rs: Ruleset) -> list[str]:
    d = rs.declarations
    defaults = type(d)()
    out = []
    if d.slam:
        levels = ", ".join(map(str, d.slam))
        out.append(f"slam call: a contractor at level {levels} may call slam; the partner passes one card and "
                   f"drops out; the contractor must take every trick, scoring the next level's bid in the same "
                   f"suit, or lose the value + {d.slam_penalty}")
    elif d.slam_penalty != defaults.slam_penalty:
        out.append(f"slam call: not allowed (slam_penalty {d.slam_penalty} has no effect)")
    if d.declare:
        out.append("declare: the contractor may take the partner's best card, discard one and play alone for "
                   f"every trick; failure loses {d.declare_value}")
    elif d.declare_value != defaults.declare_value:
        out.append(f"declare: not allowed (declare_value {d.declare_value} has no effect)")
    return out


FIRST_LEAD = {"contractor": "the contractor", "dealer-left": "the player at the dealer's left"}


def _play(rs: Ruleset) -> list[str]:
    kitty = sum(p.kitty or 0 for p in rs.deal.packets)
    play = rs.play
    out = [f"the {rs.kitty.taken_by} takes the kitty and discards {kitty} cards" if kitty else "no kitty",
           f"first lead: {FIRST_LEAD[play.first_lead]}",
           "misère ends as soon as the contractor wins a trick" if play.misere_ends_early
           else "misère is played out to the last trick"]
    if play.claims:
        out.append(f"claims: the contractor may claim the remaining tricks; a wrong claim costs {play.claim_penalty}")
    elif play.claim_penalty != type(play)().claim_penalty:
        out.append(f"claims: not allowed (claim_penalty {play.claim_penalty} has no effect)")
    return out


NOMINATION = {
    "contractor": "the contractor holding it may nominate its suit before the first lead",
    "none": "nobody nominates it: it stays free",
    "when-played": "it has no suit until played; its player then names one",
}
JOKER_LEAD = {
    "unled-suit": "a free joker may be led naming a suit not yet led, or any suit to the last trick",
    "last-trick": "a free joker may be led only to the last trick",
    "any": "a free joker may be led at any time, naming any suit",
}
VOID_PLAY = {
    "optional": "may play it when void in the suit led",
    "compulsory": "must play it when void in the suit led",
    "any-time": "may play it at any time, even holding the suit led",
}


def _joker(rs: Ruleset) -> list[str]:
    j = rs.joker
    if rs.deck.jokers == 0 and j == type(j)():
        return []
    out = ["in a suit contract: the highest trump" if j.in_suit_contracts == "top-trump"
           else "in a suit contract: out of play (a no-trump card only)",
           f"in no-trumps and misère: {NOMINATION[j.nomination]}",
           JOKER_LEAD[j.lead],
           f"in no-trumps its holder {VOID_PLAY[j.void_play_in_no_trumps]}",
           f"in misère its holder {VOID_PLAY[j.void_play_in_misere]}"]
    if j.no_renege:
        out.append("it may not be named as a suit its holder has shown void in")
    if j.first_or_last:
        out.append("in no-trumps it may be played only as the first or the last card of a suit")
    return out


def _scoring(rs: Ruleset) -> list[str]:
    s = rs.scoring
    made = "made: the contract's value"
    if s.overtrick_points:
        made += f", plus {s.overtrick_points} per trick over the bid"
    if s.overtrick_cap is not None:
        made += f", at most {s.overtrick_cap}"
    out = [made,
           f"all tricks on a contract worth less than {s.slam.below}: {s.slam.scores}" if s.slam
           else "no slam bonus",
           "failed: the contracting side loses the value" if s.failed == "lose-value"
           else "failed: the opponents gain the value (nothing is subtracted)",
           f"defenders: {s.defender_trick_points} per trick ({s.defender_points_in_misere} per trick in misère)"]
    if s.defender_cap is not None:
        out.append(f"defence points may not take a side past {s.defender_cap}")
    if s.breach is not None:
        out.append(f"breach: a defender may call breach before play on a 7-level or higher contract, "
                   f"worth {s.breach}; breach points never win or lose the game; a failed breacher, or a "
                   f"seven-bidder breached, sits out the next auction")
    return out


def _game_end(rs: Ruleset) -> list[str]:
    g = rs.game
    out = [f"win: {'a made contract reaching' if g.win == 'contract-made' else 'any points reaching'} {g.target}"
           + (" exactly" if g.exact_target else "")]
    if g.win == "any" or g.both_reach != "contractors":
        out.append("if both sides reach it in one hand: "
                   + ("the contractors win" if g.both_reach == "contractors" else "the higher score wins"))
    if g.swamp is None:
        out.append("no losing score")
    else:
        lose = f"lose: {'below' if g.swamp_strict else 'at or below'} {g.swamp}"
        if g.swamp_needs_opponents_not_negative:
            lose += ", while the other side is at 0 or more"
        out.append(lose)
    if g.swamp is None and (g.swamp_strict or g.swamp_needs_opponents_not_negative):
        out.append("(swamp_strict / swamp_needs_opponents_not_negative have no effect without a swamp)")
    if g.spread is not None:
        out.append(f"spread: the game ends when one side is positive, the other negative, {g.spread} or more apart")
    if g.bust is not None:
        out.append(f"bust: a side passing {g.bust} loses")
    if g.mid_hand:
        out.append("a side reaching the target during a hand ends it, unless the contractor can still win "
                   "(make the contract and so reach the target)")
    return out


def _house_rules(rs: Ruleset, pm: pluggy.PluginManager | None) -> list[str]:
    if not rs.house_rules:
        return []
    sources = house_rule_sources(pm)
    out = []
    for name, options in rs.house_rules.items():
        opts = ", ".join(f"{k}: {_value(v)}" for k, v in options.items()) or "on"
        source = sources.get(name)
        out.append(f"{name} ({opts})" + (f", from {source}" if source else ""))
    return out


def house_rule_sources(pm: pluggy.PluginManager | None = None) -> dict[str, str]:
    """For each house rule an installed plugin provides: ``plugin 'name'`` and its package, if known."""
    from .manager import plugin_manager

    pm = pm or plugin_manager()
    packages = {id(plugin): f"{dist.project_name} {dist.version}" for plugin, dist in pm.list_plugin_distinfo()}
    sources: dict[str, str] = {}
    for impl in pm.hook.fivehundred_house_rules.get_hookimpls():
        package = packages.get(id(impl.plugin))
        where = f"plugin {impl.plugin_name!r}" + (f" (package {package})" if package else "")
        names = cast("list[str] | None", impl.function())
        for name in names or ():
            sources.setdefault(name, where)
    return sources


# --- diff -----------------------------------------------------------------------------------

Kind = Literal["changed", "added", "removed", "moved"]


@dataclass(frozen=True)
class Difference:
    """One field path whose value differs between two rulesets, with what it means.

    ``before``/``after`` are plain JSON values; for ``added`` (``removed``) ``before`` (``after``)
    is None, and for ``moved`` they describe the call's place on the ladder.
    """

    path: str
    before: Any
    after: Any
    meaning: str
    kind: Kind = "changed"

    def __str__(self) -> str:
        before = "—" if self.kind == "added" else _value(self.before)
        after = "—" if self.kind == "removed" else _value(self.after)
        return f"{self.path}: {before} → {after} ({self.meaning})"

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "kind": self.kind, "before": self.before, "after": self.after,
                "meaning": self.meaning}


def _value(value: Any) -> str:
    """A value as it would be written in a ruleset file."""
    if value is None:
        return "null"
    if value == "":
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


FIELD_WORDS: dict[str, str] = {
    "name": "the ruleset's name",
    "description": "the ruleset's description",
    "source": "where the rules come from",
    "players.seats": "seats in clockwise order",
    "players.teams": "the sides that share a score",
    "players.dummies.*": "a dummy seat and the seat that plays it",
    "players.partnership": "fixed partnerships, or a partner called by a card",
    "players.called_partner_share": "what a called partner scores of the contract's points",
    "players.call_own_card": "the contractor may call a card it holds (a hidden lone hand)",
    "players.call_trumps": "a trump may be called as the partner's card",
    "deck.suits.*": "the ranks of this suit, high to low",
    "deck.jokers": "jokers in the deck",
    "deal.packets": "the dealing pattern from the dealer's left",
    "deal.first_dealer": "how the first dealer is chosen",
    "deal.all_pass": "what happens when every player passes",
    "deal.redeals": "redeals by the same dealer before the deal passes",
    "deal.misdeal_without_face_card": "a hand without a J, Q, K or joker is a misdeal",
    "deal.kitty_face_up": "the last kitty cards dealt that lie face up",
    "auction.rounds": "how many times each player may call",
    "auction.rebid": "when a player who has bid may bid again",
    "auction.winner_may_raise": "the auction winner may raise once after all others passed",
    "auction.reentry": "whether a player who has passed may call again once the bid has changed",
    "auction.set_bar": "tricks short that bar a contractor from the next auction",
    "auction.set_bar_misere": "tricks taken in misère that bar the contractor from the next auction",
    "auction.ladder.*.value": "points for the call",
    "auction.ladder.*.requires_standing": "the standing bid this call must be over",
    "auction.ladder.*.first_calls": "only the first calls of the auction may be this",
    "auction.ladder.*.first_own_call": "only as the caller's first call (blind)",
    "auction.ladder.*.before_looking": "only before looking at one's cards, before the auction (blind)",
    "auction.ladder.*.signal": "a signal that cannot become the contract",
    "contracts.*": "a named contract",
    "contracts.*.kind": "how the cards play: trumps, no trumps or misère",
    "contracts.*.trump": "the trump suit",
    "contracts.*.goal": "at least, exactly, or none of the tricks",
    "contracts.*.tricks": "tricks the contracting side must take",
    "contracts.*.partner_plays": "whether the contractor's partner plays",
    "contracts.*.open": "the contractor's hand is shown after the first trick",
    "contracts.*.partner_open": "the partner's hand is shown after the first trick",
    "contracts.*.kitty": "played with the kitty",
    "contracts.*.kitty_to_partner": "the discards go to the partner to choose from",
    "contracts.*.jacks_high": "each jack ranks above its ace",
    "contracts.*.fail_penalty": "extra points lost on failure",
    "contracts.*.fail_value": "points lost on failure instead of the value",
    "kitty.taken_by": "who takes the kitty",
    "declarations.slam": "levels at which the contractor may call slam",
    "declarations.slam_penalty": "extra points a failed slam call loses",
    "declarations.declare": "the contractor may declare and play alone",
    "declarations.declare_value": "points a failed declaration loses",
    "play.first_lead": "who leads to the first trick",
    "play.misere_ends_early": "misère ends when the contractor wins a trick",
    "play.claims": "the contractor may claim the remaining tricks",
    "play.claim_penalty": "what a wrong claim costs",
    "trumps.colour_four": "the 4 of the trump suit's colour is a trump",
    "joker.nomination": "who names the joker's suit in no-trumps and misère",
    "joker.lead": "when a free joker may be led",
    "joker.void_play_in_no_trumps": "playing the joker when void in the suit led, in no-trumps",
    "joker.void_play_in_misere": "playing the joker when void in the suit led, in misère",
    "joker.no_renege": "the joker may not be named as a suit its holder has shown void in",
    "joker.first_or_last": "in no-trumps the joker only as the first or last card of a suit",
    "joker.in_suit_contracts": "the joker in suit contracts",
    "scoring.slam": "the slam bonus",
    "scoring.slam.below": "the slam bonus applies to contracts worth less than this",
    "scoring.slam.scores": "what a slam scores",
    "scoring.overtrick_points": "points per trick over the bid",
    "scoring.overtrick_cap": "the most a made contract scores",
    "scoring.defender_trick_points": "defenders' points per trick",
    "scoring.defender_points_in_misere": "defenders' points per trick in misère",
    "scoring.defender_cap": "defence points may not take a side past this",
    "scoring.failed": "what a failed contract does to the scores",
    "scoring.breach": "the breach call's value",
    "game.target": "the score that wins",
    "game.win": "what it takes to win",
    "game.both_reach": "who wins when both sides reach the target in one hand",
    "game.swamp": "the losing score",
    "game.swamp_strict": "only strictly below the losing score loses",
    "game.swamp_needs_opponents_not_negative": "the losing score counts only while the other side is at 0 or more",
    "game.spread": "the point spread that ends the game",
    "game.exact_target": "the winner must finish exactly on the target",
    "game.bust": "a side passing this loses",
    "game.mid_hand": "reaching the target during a hand ends it",
    "house_rules.*": "a house rule and its options",
}
"""Readable words for every field path (``*`` stands for a suit, seat, call, contract or rule name)."""

def diff(a: Ruleset, b: Ruleset) -> list[Difference]:
    """What differs between rulesets ``a`` and ``b``: one ``Difference`` per field path.

    Ladder differences are given per call: ``added``, ``removed``, ``moved`` (its order relative
    to the calls both ladders share changed), or one of its fields changed.
    """
    return list(_diff_models(a, b, "", ""))


def _words(pattern: str) -> str:
    return FIELD_WORDS.get(pattern, pattern)


def _json(value: Any) -> Any:
    """A plain JSON value; a rung or a contract with only what its YAML would need to say."""
    if isinstance(value, ContractType):
        return {"kind": value.kind, **value.model_dump(mode="json", exclude_defaults=True)}
    if isinstance(value, Rung):
        return value.model_dump(mode="json", exclude_defaults=True)
    if isinstance(value, Packet):
        return value.model_dump(mode="json", exclude_none=True)
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


def _diff_models(a: BaseModel, b: BaseModel, path: str, pattern: str) -> Iterator[Difference]:
    for name in type(a).model_fields:
        sub, sub_pattern = f"{path}{name}", f"{pattern}{name}"
        va, vb = getattr(a, name), getattr(b, name)
        if va == vb:
            continue
        if sub == "auction.ladder":
            yield from _diff_ladder(va, vb)
        elif isinstance(va, BaseModel) and isinstance(vb, BaseModel):
            yield from _diff_models(va, vb, f"{sub}.", f"{sub_pattern}.")
        elif isinstance(va, Mapping) and isinstance(vb, Mapping):
            yield from _diff_mappings(va, vb, sub, sub_pattern)
        else:
            yield Difference(sub, _json(va), _json(vb), _words(sub_pattern))


def _diff_mappings(a: Mapping[str, Any], b: Mapping[str, Any], path: str, pattern: str) -> Iterator[Difference]:
    words = _words(f"{pattern}.*")
    for key in [*a, *(k for k in b if k not in a)]:
        sub = f"{path}.{key}"
        if key not in b:
            yield Difference(sub, _json(a[key]), None, f"{words}, removed", "removed")
        elif key not in a:
            yield Difference(sub, None, _json(b[key]), f"{words}, added", "added")
        elif isinstance(a[key], BaseModel) and isinstance(b[key], BaseModel):
            yield from _diff_models(a[key], b[key], f"{sub}.", f"{pattern}.*.")
        elif a[key] != b[key]:
            yield Difference(sub, _json(a[key]), _json(b[key]), words)


def _diff_ladder(a: Sequence[Rung], b: Sequence[Rung]) -> Iterator[Difference]:
    calls_a, calls_b = [r.call for r in a], [r.call for r in b]
    by_call_a, by_call_b = {r.call: r for r in a}, {r.call: r for r in b}
    shared_b = [c for c in calls_b if c in by_call_a]
    kept = set(_longest_common_order([c for c in calls_a if c in by_call_b], shared_b))
    for call in calls_a:
        if call not in by_call_b:
            yield Difference(f"auction.ladder[{call}]", _json(by_call_a[call]), None,
                             f"a call removed from the ladder; it stood {_place(calls_a, call)}", "removed")
    for call in calls_b:
        path = f"auction.ladder[{call}]"
        if call not in by_call_a:
            yield Difference(path, None, _json(by_call_b[call]),
                             f"a call added to the ladder, {_place(calls_b, call)}", "added")
            continue
        if call not in kept:
            yield Difference(path, _place(calls_a, call), _place(calls_b, call),
                             "the call moved on the ladder", "moved")
        yield from _diff_models(by_call_a[call], by_call_b[call], f"{path}.", "auction.ladder.*.")


def _place(calls: Sequence[str], call: str) -> str:
    i = calls.index(call)
    if len(calls) == 1:
        return "the only call"
    if i == 0:
        return f"the lowest call, below {calls[1]}"
    if i == len(calls) - 1:
        return f"the highest call, above {calls[i - 1]}"
    return f"above {calls[i - 1]}, below {calls[i + 1]}"


def _longest_common_order(a: Sequence[str], b: Sequence[str]) -> list[str]:
    """The longest list of calls in the same order in both (``a`` and ``b`` hold the same calls)."""
    position = {call: i for i, call in enumerate(b)}
    seq = [position[c] for c in a]
    best: list[list[int]] = []  # best[i]: the longest increasing run of positions ending at seq[i]
    for i, p in enumerate(seq):
        longest = max((best[j] for j in range(i) if seq[j] < p), key=len, default=[])
        best.append([*longest, p])
    run = max(best, key=len, default=[])
    return [b[p] for p in run]
