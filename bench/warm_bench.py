"""Warm workers vs one process per scenario, on an `entry` workflow that imports a heavy package.

Target (acceptance): warm workers >= 10x faster than one sandboxed process per scenario. The workflow
is catalog/earth-space-sciences/astropy/sky-frames (imports astropy.coordinates + astropy.time at
module level). N scenarios are sampled with swr.kinds.workflow.scenario.sample_scenario; the same scenarios go
through `Runner.run_fresh` (a new sandboxed process each) and `Runner.run` (one warm worker, started
cold inside the timed section, so its import is paid once and counted). Outputs must be equal.

    .venv/bin/python bench/warm_bench.py [-n 40] [--workers 1]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from swr.kinds.workflow.reference import Runner
from swr.kinds.workflow.scenario import sample_scenario
from swr.kinds.workflow.spec import load_spec
from swr.sandbox import get_sandbox

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / "catalog" / "earth-space-sciences" / "astropy" / "sky-frames"
TARGET = 10.0


def timed_map(fn, items, workers: int) -> tuple[list, list[float], float]:
    def one(x):
        t0 = time.perf_counter()
        res = fn(x)
        return res, time.perf_counter() - t0

    t0 = time.perf_counter()
    if workers == 1:
        pairs = [one(x) for x in items]
    else:
        with ThreadPoolExecutor(workers) as ex:
            pairs = list(ex.map(one, items))
    total = time.perf_counter() - t0
    return [p[0] for p in pairs], [p[1] for p in pairs], total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=40, help="scenarios")
    ap.add_argument("--workers", type=int, default=1, help="warm workers, and threads for both modes")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    spec = load_spec(WORKFLOW)
    assert spec.entry, "the benchmark needs an entry workflow"
    sb = get_sandbox("bwrap")
    scen = [sample_scenario(spec, args.seed, 1, i) for i in range(args.n)]
    t_start = time.time()

    fresh_runner = Runner(spec, sb, workers=args.workers)
    fresh, t_fresh, total_fresh = timed_map(fresh_runner.run_fresh, scen, args.workers)
    fresh_runner.close()

    warm_runner = Runner(spec, sb, workers=args.workers)  # no worker yet: the first calls start them
    warm, t_warm, total_warm = timed_map(warm_runner.run, scen, args.workers)
    warm_runner.close()

    bad = [
        i
        for i, (a, b) in enumerate(zip(fresh, warm))
        if not (a.ok and b.ok) or json.loads(a.stdout) != json.loads(b.stdout)
    ]
    steady = t_warm[args.workers :]  # calls after each worker's first (import) call
    ratio = total_fresh / total_warm
    print(f"# warm workers — {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {platform.platform()}")
    print(f"# workflow {spec.name} (entry {spec.entry}), {args.n} scenarios, {args.workers} worker(s)/thread(s)")
    print(f"{'mode':28} {'total s':>8} {'per scenario ms':>16} {'median ms':>10}")
    print(
        f"{'one process per scenario':28} {total_fresh:8.2f} {total_fresh / args.n * 1e3:16.1f} "
        f"{statistics.median(t_fresh) * 1e3:10.1f}"
    )
    print(
        f"{'warm workers (incl. import)':28} {total_warm:8.2f} {total_warm / args.n * 1e3:16.1f} "
        f"{statistics.median(t_warm) * 1e3:10.1f}"
    )
    print(
        f"first warm call (start + import): {max(t_warm[: args.workers]) * 1e3:.0f} ms; "
        f"steady warm call median {statistics.median(steady) * 1e3:.1f} ms"
    )
    print(
        f"speed-up: {ratio:.1f}x end to end, {statistics.median(t_fresh) / statistics.median(steady):.1f}x "
        f"per steady call — target >= {TARGET:.0f}x: {'MET' if ratio >= TARGET else 'MISSED'}"
    )
    print(f"outputs equal (warm == fresh): {'yes' if not bad else f'NO, scenarios {bad}'}")
    print(f"(total {time.time() - t_start:.0f} s)")
    if bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
