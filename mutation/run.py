"""Mutation testing of the rules core with cosmic-ray, one module at a time, one mutant at a time.

    nice -n 10 python mutation/run.py                 # every module: tables ... midhand
    nice -n 10 python mutation/run.py auction          # one module
    python mutation/run.py --report                    # the figures of the sessions so far
    python mutation/run.py --survivors scoring         # each surviving mutant's diff

cosmic-ray edits the source file in place, runs the module's fast test selection (its ``.toml`` beside
this file) and restores the file, so it needs the editable install that reads the sources
(``pip install -e . --config-settings editable_mode=strict`` with FIVEHUNDRED_NO_EXTENSIONS=1); a
session database (``mutation/sessions/<module>.sqlite``, not committed) keeps the results, and a run
that is stopped resumes where it was.  ``scope.py`` says which mutants are tried.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from scope import kept  # noqa: E402 - beside this script, which is no package

MODULES = ("tables", "auction", "scoring", "tricks", "state", "play", "kernel", "exchange", "midhand")
SESSIONS = HERE / "sessions"


def cosmic_ray(*args: str) -> None:
    # No bytecode: a mutant of the same size written in the same second as the last would reuse its .pyc.
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONDONTWRITEBYTECODE="1")
    subprocess.run([sys.executable, "-m", "cosmic_ray.cli", *args], cwd=ROOT, env=env, check=True)


def prepare(module: str) -> Path:
    """The module's session, created and narrowed to ``scope.py``'s mutants unless it exists."""
    session = SESSIONS / f"{module}.sqlite"
    if session.exists():
        return session
    SESSIONS.mkdir(exist_ok=True)
    cosmic_ray("init", str(HERE / f"{module}.toml"), str(session))
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in list(db.pending_work_items):
            spec = item.mutations[0]
            line = (ROOT / spec.module_path).read_text().splitlines()[spec.start_pos[0] - 1]
            if not kept(spec.module_path.as_posix(), spec.operator_name, spec.definition_name, line):
                db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="out of scope"))
    return session


def figures(module: str) -> dict[str, int]:
    counts = dict.fromkeys(("mutants", "killed", "survived", "timeout", "incompetent", "pending"), 0)
    with use_db(str(SESSIONS / f"{module}.sqlite"), WorkDB.Mode.open) as db:
        results = dict(db.results)
        for item in db.work_items:
            result = results.get(item.job_id)
            if result is not None and result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            counts["mutants"] += 1
            if result is None:
                counts["pending"] += 1
            elif result.test_outcome == TestOutcome.SURVIVED:
                counts["survived"] += 1
            elif result.test_outcome == TestOutcome.INCOMPETENT:
                counts["incompetent"] += 1
            elif result.output == "timeout":
                counts["timeout"] += 1
            else:
                counts["killed"] += 1
    return counts


def report(modules: list[str]) -> None:
    print(f"{'module':10} {'mutants':>8} {'killed':>7} {'timeout':>8} {'survived':>9} {'pending':>8} {'score':>7}")
    for module in modules:
        if not (SESSIONS / f"{module}.sqlite").exists():
            continue
        c = figures(module)
        done = c["killed"] + c["timeout"] + c["survived"]
        score = f"{100 * (c['killed'] + c['timeout']) / done:.1f}%" if done else "-"
        print(f"{module:10} {c['mutants']:8} {c['killed']:7} {c['timeout']:8} {c['survived']:9} {c['pending']:8} "
              f"{score:>7}")


def survivors(module: str) -> None:
    with use_db(str(SESSIONS / f"{module}.sqlite"), WorkDB.Mode.open) as db:
        specs = {item.job_id: item.mutations[0] for item in db.work_items}
        for job_id, result in db.results:
            if result.test_outcome == TestOutcome.SURVIVED:
                spec = specs[job_id]
                print(f"--- {job_id} {spec.operator_name} line {spec.start_pos[0]} in {spec.definition_name}")
                print(result.diff)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help=f"of {', '.join(MODULES)} (default: all)")
    parser.add_argument("--report", action="store_true", help="print the figures, run nothing")
    parser.add_argument("--survivors", action="store_true", help="print the surviving mutants, run nothing")
    parser.add_argument("--rerun-survivors", action="store_true",
                        help="try the surviving mutants again (after new tests)")
    args = parser.parse_args()
    modules = args.modules or list(MODULES)
    unknown = set(modules) - set(MODULES)
    if unknown:
        parser.error(f"no mutation session for {', '.join(sorted(unknown))}")
    if args.survivors:
        for module in modules:
            survivors(module)
        return
    if not args.report:
        for module in modules:
            session = prepare(module)
            if args.rerun_survivors:
                forget_survivors(session)
            cosmic_ray("exec", str(HERE / f"{module}.toml"), str(session))
    report(modules)


def forget_survivors(session: Path) -> None:
    """Put the surviving mutants back in the queue, so that ``exec`` tries them against the tests as they are."""
    import sqlite3

    with sqlite3.connect(session) as db:
        db.execute("DELETE FROM work_results WHERE lower(test_outcome) = 'survived'")


if __name__ == "__main__":
    main()
