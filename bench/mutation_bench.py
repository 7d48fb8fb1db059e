"""Mutation audit throughput against the paper's count: 35,873 trials in <= 5 minutes on 2 cores.

Builds (or reuses, through the execution cache) a release of one catalog workflow per domain, then
runs the judge-only mutation audit over it with successive seeds until at least 35,873 trials have
been graded, timing the whole run. The ignored-axis class re-executes the reference, so its cost is
the workflows' own and is timed separately on one seed.

    .venv/bin/python bench/mutation_bench.py [RELEASE] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from swr.assemble import BuildOptions, build, discover
from swr.audit.mutation import mutation_audit

ROOT = Path(__file__).resolve().parent.parent
PAPER_TRIALS = 35_873
BUDGET_S = 300.0


def cross_section(out: Path) -> Path:
    first: dict[str, Path] = {}
    for d in discover([ROOT / "catalog"]):
        first.setdefault(d.relative_to(ROOT / "catalog").parts[0], d)
    build(sorted(first.values()), out, BuildOptions(jobs=2))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("release", nargs="?", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    release = args.release or cross_section(Path(tempfile.mkdtemp(prefix="swr-bench-")) / "release")
    t0, trials, seed, wrong = time.perf_counter(), 0, 0, 0
    while trials < PAPER_TRIALS:
        r = mutation_audit(release, per_class=3, jobs=args.jobs, reexecute=False, seed=seed)
        trials, seed, wrong = trials + r["trials"], seed + 1, wrong + r["false_accepts"] + r["false_rejects"]
    judge_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    axis = mutation_audit(release, per_class=1, jobs=args.jobs, reexecute=True)
    axis_trials = sum(c["trials"] for c in axis["classes"] if c["name"].startswith("ignored_axis"))
    axis_s = time.perf_counter() - t1
    print(f"release {release} ({r['tasks']} tasks), load average {os.getloadavg()[0]:.1f}, jobs {args.jobs}")
    print(
        f"judge-only mutation audit: {trials} trials in {judge_s:.1f} s = {trials / judge_s:.0f} trials/s; "
        f"{wrong} wrong decisions"
    )
    print(
        f"paper's {PAPER_TRIALS} trials projected: {PAPER_TRIALS / trials * judge_s:.1f} s "
        f"= {PAPER_TRIALS / trials * judge_s / BUDGET_S:.2f}x the 5-minute budget"
    )
    print(f"one full audit incl. {axis_trials} ignored-axis re-executions: {axis['trials']} trials in {axis_s:.1f} s")
    sys.exit(0 if wrong == 0 else 1)


if __name__ == "__main__":
    main()
