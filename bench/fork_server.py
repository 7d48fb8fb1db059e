"""Fresh executions on the heavy-import workflows: one sandboxed process per scenario vs a fork server.

Target (issue 15, acceptance 2): the fork server >= 5x faster on the fresh executions, outputs equal.
For each heavy-import workflow (astropy, pvlib, statsmodels families of catalog/) the oracle candidate
that gate 6 grades is written once, and the same N scenarios (those of gate 6 in a default build:
6 variants x 3 hidden) run through `run(sandbox, Job(["./run"]))` — today's path — and through a
`ForkPool` of that job, started cold inside the timed section so its one import is paid and counted.
Both sides use `--jobs` threads, as the build does. Every output must be byte-identical.

With --build, the same workflows are also built (`swr.assemble.build`, default options, an empty execution
cache each) with SWR_FORK_SERVER=1 and =0, side by side; the two releases must be byte-identical.

    .venv/bin/python bench/fork_server.py [-n 18] [--jobs 2] [--only pvlib] [--build]
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import platform
import shutil
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from swr.assemble import BuildOptions, build
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.fork_pool import ForkPool, preload_of
from swr.kinds.workflow.reference import limits_for, write_oracle
from swr.kinds.workflow.scenario import sample_scenario
from swr.kinds.workflow.spec import load_spec
from swr.sandbox import WORKDIR, Job, Mount, RunResult, get_sandbox, run

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = ("astropy", "pvlib", "statsmodels")
TARGET = 5.0


def heavy_workflows(only: str | None) -> list[Path]:
    found = sorted(p.parent for p in (ROOT / "catalog").glob("*/*/*/workflow.toml") if p.parent.parent.name in FAMILIES)
    return [p for p in found if not only or only in str(p)]


def timed(fn: Callable[[int], RunResult | None], n: int, jobs: int) -> tuple[list[RunResult | None], float]:
    t0 = time.perf_counter()
    with ThreadPoolExecutor(jobs) as ex:
        res = list(ex.map(fn, range(n)))
    return res, time.perf_counter() - t0


def bench_one(directory: Path, n: int, jobs: int, tmp: Path) -> dict[str, Any]:
    spec = load_spec(directory)
    sb = get_sandbox("bwrap")
    cand = write_oracle(spec, spec.directory, tmp / spec.name / "candidate")
    lim = limits_for(spec)
    stdins = [(json.dumps(sample_scenario(spec, 0, 1 + i % 6, i)) + "\n").encode() for i in range(n)]

    def per_process(i: int) -> RunResult:
        d = tmp / spec.name / f"p{i}"
        d.mkdir()
        return run(sb, Job(["./run"], Mount(cand, WORKDIR, "overlay"), lim, artifacts=d), stdins[i])

    module = (spec.entry or "run:main").split(":")[0]
    pool = ForkPool(
        sb,
        Job([], Mount(cand, WORKDIR, "overlay"), lim),
        ["./run"],
        preload_of(cand / f"{module}.py", (cand,)),
        size=jobs,
    )

    def forked(i: int) -> RunResult | None:
        d = tmp / spec.name / f"f{i}"
        d.mkdir()
        return pool.run(stdins[i], d)

    try:
        want, t_proc = timed(per_process, n, jobs)
        got, t_fork = timed(forked, n, jobs)
    finally:
        pool.close()
    assert pool.broken is None, pool.broken
    for w, g in zip(want, got):
        assert w is not None and g is not None and w.ok and g.ok, (w and w.stderr[-500:], g and g.stderr[-500:])
        assert g.stdout == w.stdout, f"{spec.name}: outputs differ"
    return {
        "workflow": f"{spec.family}/{spec.name}",
        "n": n,
        "per_process_s": t_proc,
        "fork_s": t_fork,
        "ratio": t_proc / t_fork,
    }


def bench_build(flows: list[Path], jobs: int, tmp: Path) -> None:
    """Whole builds of the workflows from empty caches, fork server on and off; releases must be equal."""
    times = {}
    for name, switch in (("fork server", "1"), ("per process", "0")):
        os.environ["SWR_FORK_SERVER"] = switch
        opts = BuildOptions(jobs=jobs, cache=ExecutionCache(tmp / f"cache-{switch}"))
        t0 = time.perf_counter()
        failed = [r.failure for r in build(flows, tmp / f"release-{switch}", opts) if r.failure]
        times[name] = time.perf_counter() - t0
        assert not failed, failed
    os.environ.pop("SWR_FORK_SERVER")
    assert _same_tree(filecmp.dircmp(tmp / "release-1", tmp / "release-0")), "the releases differ"
    print(
        f"build of {len(flows)} workflows, empty caches: per process {times['per process']:.1f} s, "
        f"fork server {times['fork server']:.1f} s, ratio {times['per process'] / times['fork server']:.2f}x "
        f"(releases byte-identical); load now {os.getloadavg()[0]:.1f}"
    )


def _same_tree(cmp: filecmp.dircmp) -> bool:
    if cmp.left_only or cmp.right_only or cmp.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
    return not mismatch and not errors and all(_same_tree(c) for c in cmp.subdirs.values())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=18, help="fresh executions per workflow (gate 6: 6 variants x 3)")
    ap.add_argument("--jobs", type=int, default=2, help="threads on both sides, fork servers in the pool")
    ap.add_argument("--only", help="workflows whose path contains this")
    ap.add_argument("--build", action="store_true", help="also build them with the fork server on and off")
    args = ap.parse_args()
    print(
        f"# fork server bench — {platform.node()} {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}, "
        f"n={args.n}, jobs={args.jobs}"
    )
    print(f"{'workflow':40} {'per-process s':>14} {'fork server s':>14} {'ratio':>7}")
    tmp = Path(tempfile.mkdtemp(prefix="swr-forkbench-"))
    os.chmod(tmp, 0o755)
    rows = []
    try:
        for d in heavy_workflows(args.only):
            r = bench_one(d, args.n, args.jobs, tmp)
            rows.append(r)
            print(f"{r['workflow']:40} {r['per_process_s']:14.1f} {r['fork_s']:14.1f} {r['ratio']:6.1f}x", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    tp, tf = sum(r["per_process_s"] for r in rows), sum(r["fork_s"] for r in rows)
    print(
        f"{'all (outputs equal: yes)':40} {tp:14.1f} {tf:14.1f} {tp / tf:6.1f}x   target >= {TARGET}x: "
        f"{'met' if tp / tf >= TARGET else 'NOT met'}; load now {os.getloadavg()[0]:.1f}"
    )
    if args.build:
        tmp = Path(tempfile.mkdtemp(prefix="swr-forkbench-"))
        try:
            bench_build(heavy_workflows(args.only), args.jobs, tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
