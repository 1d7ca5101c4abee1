"""``compare --par``: two rulesets compared on the same deals by their par outcomes, independent of any bot.

Deal ``i`` of both arms is the first deal of game ``i`` of the seed (``new_game(ruleset, f"{seed}:{i}")``): the
same cards in both arms when their decks and deal patterns agree (``ParComparison.identical`` counts them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fivehundred.engine.state import new_game
from fivehundred.rules.actions import Phase
from fivehundred.rules.manager import compile_rules
from fivehundred.rules.ruleset import Ruleset

from .par_deals import DealJob, in_workers
from .par_search import deal_par


def first_deal(ruleset: Ruleset, seed: int | str, game: int) -> DealJob:
    """The first deal of game ``game`` of a batch with ``seed`` (as ``simulate`` deals it)."""
    state, rng = new_game(ruleset, f"{seed}:{game}")
    while state.phase == Phase.DEAL:
        state.deal(rng)
    log = state.hand_log
    return DealJob(ruleset, log.dealer, tuple(tuple(h) for h in log.hands), tuple(log.kitty), tuple(log.dead))


def par_pair(jobs: tuple[DealJob, DealJob]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both arms' par of one deal (``deal_par``: only what each par reads is solved; the positions both play alike
    once, through ``solved``), each as ``{"par": Par.as_dict, "solves": positions searched}``."""
    solved: dict[Any, int] = {}
    out = []
    for job in jobs:
        found = deal_par(job.state(), solved=solved)
        out.append({"par": found.par.as_dict(compile_rules(job.ruleset)), "solves": found.solves})
    return out[0], out[1]


def contract_type(result: dict[str, Any]) -> str:
    """A par's contract by type: ``passed``, a special contract by its call, else ``trumps`` or ``no-trumps``."""
    par = result["par"]
    if par["contract"] is None:
        return "passed"
    return str(par["contract"] if par["goal"] != "at-least" else par["kind"])


@dataclass(slots=True)
class ParArm:
    """One ruleset's par outcomes over the deals."""

    ruleset: str
    teams: tuple[str, ...]
    deals: int = 0
    types: Counter[str] = field(default_factory=Counter)
    made: int = 0
    misere: int = 0
    """Deals whose par is a misère kind (misère, open misère, nullo …)."""
    points: list[int] = field(default_factory=list)
    """The par contract's points for its contracting team, deal by deal (0 when everybody passes)."""
    margins: list[int] = field(default_factory=list)
    """With two teams: the first team's points less the second's, deal by deal."""
    solves: int = 0

    def add(self, result: dict[str, Any]) -> None:
        par = result["par"]
        self.deals += 1
        self.solves += result["solves"]
        self.types[contract_type(result)] += 1
        scores = par["scores"]
        if par["contract"] is not None:
            self.made += bool(par["made"])
            self.misere += par["kind"] == "misere"
            self.points.append(scores[par["team"]])
        else:
            self.points.append(0)
        if len(self.teams) == 2:
            self.margins.append(scores[self.teams[0]] - scores[self.teams[1]])

    def as_dict(self) -> dict[str, Any]:
        contracts = self.deals - self.types["passed"]
        return {"ruleset": self.ruleset, "deals": self.deals,
                "par_contracts": dict(sorted(self.types.items(), key=lambda kv: (-kv[1], kv[0]))),
                "misere_par_rate": _rate(self.misere, self.deals), "passed_rate": _rate(self.types["passed"],
                                                                                        self.deals),
                "made_rate": _rate(self.made, contracts), "mean_par_points": _mean(self.points),
                "mean_abs_margin": _mean([abs(m) for m in self.margins]) if self.margins else None,
                "solves": self.solves}


def _rate(k: int, n: int) -> float | None:
    return round(k / n, 4) if n else None


def _mean(xs: list[int]) -> float | None:
    return round(sum(xs) / len(xs), 1) if xs else None


@dataclass(slots=True)
class ParComparison:
    """Both arms' par outcomes on the same deals, and how often the par differs."""

    seed: int | str
    a: ParArm
    b: ParArm
    identical: int = 0
    """Deals dealt identically in both arms."""
    differ: int = 0
    """Deals (of those identical) whose par contract or contractor differs between the arms."""
    moved: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(A's par type, B's par type) for the identical deals whose par differs."""

    def as_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "deals": self.a.deals, "a": self.a.as_dict(), "b": self.b.as_dict(),
                "identical_deals": self.identical, "par_differs": self.differ,
                "changes": [{"a": a, "b": b, "deals": n} for (a, b), n in self.moved.most_common()]}

    def lines(self) -> list[str]:
        a, b = self.a.as_dict(), self.b.as_dict()
        out = [f"par on {self.a.deals} deals · seed {self.seed} · A: {self.a.ruleset} · B: {self.b.ruleset}",
               f"{'':28}{'A':>10}{'B':>10}"]

        def row(label: str, x: Any, y: Any, pct: bool = False) -> None:
            def f(v: Any) -> str:
                return "–" if v is None else f"{100 * v:.1f}%" if pct else str(v)
            out.append(f"{label:28}{f(x):>10}{f(y):>10}")

        row("par is a misère kind", a["misere_par_rate"], b["misere_par_rate"], True)
        row("everybody passes", a["passed_rate"], b["passed_rate"], True)
        row("par contract made", a["made_rate"], b["made_rate"], True)
        row("par points (contracting)", a["mean_par_points"], b["mean_par_points"])
        row("|margin| between teams", a["mean_abs_margin"], b["mean_abs_margin"])
        out.append("par contracts:")
        for kind in sorted(set(self.a.types) | set(self.b.types), key=lambda k: -(self.a.types[k] + self.b.types[k])):
            row("  " + kind, _rate(self.a.types[kind], self.a.deals), _rate(self.b.types[kind], self.b.deals), True)
        out.append(f"the same cards in {self.identical} of {self.a.deals} deals; par differs in {self.differ} of them"
                   + (": " + ", ".join(f"{x} → {y} {n}" for (x, y), n in self.moved.most_common(6))
                      if self.moved else ""))
        return out


def compare_par(deals: int, seed: int | str, a: Ruleset, b: Ruleset, *, workers: int = 1,
                progress: Callable[[int], None] | None = None) -> ParComparison:
    """Par of the first deal of games ``0 … deals - 1`` of ``seed`` under both rulesets (docs/par.md)."""
    rules_a, rules_b = compile_rules(a), compile_rules(b)
    result = ParComparison(seed, ParArm(a.name, tuple(rules_a.team_names)), ParArm(b.name, tuple(rules_b.team_names)))
    jobs = [(first_deal(a, seed, i), first_deal(b, seed, i)) for i in range(deals)]
    for (ja, jb), (ra, rb) in zip(jobs, in_workers(par_pair, jobs, workers, progress), strict=True):
        result.a.add(ra)
        result.b.add(rb)
        if (ja.hands, ja.kitty, ja.dead, ja.dealer) == (jb.hands, jb.kitty, jb.dead, jb.dealer):
            result.identical += 1
            pa, pb = ra["par"], rb["par"]
            if (pa["contract"], pa["contractor"]) != (pb["contract"], pb["contractor"]):
                result.differ += 1
                result.moved[(contract_type(ra), contract_type(rb))] += 1
    return result


__all__ = ["ParArm", "ParComparison", "compare_par", "contract_type", "first_deal", "par_pair"]
