"""Issue 26's build at scale: the whole shipped catalog (551 workflows x 6 variants, ~3,300 tasks), built locally and
then on a local Dask cluster of 2 workers, each build from an empty execution cache of its own, side by side in one
run: wall time, swr's own CPU time, tasks written, workflows left out and why, the per-workflow cost (median, 90th
percentile, the slowest), and whether the two releases are byte-identical (tree hash; the files that differ if not).

    .venv/bin/python bench/catalog_scale.py [--variants 6] [--only-local] [--limit N] [--only A,B]
        [--keep DIR] [--record FILE.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from catalog_build import differing

from swr.assemble import BuildOptions, build
from swr.core.hashing import tree_hash
from swr.kinds.workflow.cache import ExecutionCache

ROOT = Path(__file__).resolve().parent.parent
TARGET_MIN = 30.0  # issue 26: the whole catalog in <= 30 minutes on 2 cores


def cpu_s() -> float:
    """CPU seconds of this process and the children it reaped: swr's own work (judging, gates, Dask workers once
    closed); a sandboxed run's processes live in a PID namespace of their own and are not counted."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(paths: list[Path], out: Path, variants: int, executor: str) -> dict:
    """One build from an empty cache of its own: wall, CPU, tasks, failures and per-workflow wall."""
    opts = BuildOptions(variants=variants, jobs=2, executor=executor, cache=ExecutionCache(out.parent / "cache"))
    cpu0, t0 = cpu_s(), time.perf_counter()
    results = build(paths, out, opts)
    wall, cpu = time.perf_counter() - t0, cpu_s() - cpu0
    return {
        "executor": executor,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "tasks": sum(len(r.tasks) for r in results),
        "left_out": {r.summary()["name"]: r.message for r in results if r.failure},
        "per_workflow_s": {r.summary()["name"]: round(r.wall_s, 2) for r in results},
        "tree_hash": tree_hash(out),
    }


def show(r: dict) -> str:
    costs = sorted(r["per_workflow_s"].values())
    slow = sorted(r["per_workflow_s"].items(), key=lambda kv: -kv[1])[:8]
    return (
        f"  {r['executor']:5s} | {r['wall_s'] / 60:6.1f} min wall, {r['cpu_s'] / 60:6.1f} min swr CPU | "
        f"{r['tasks']} tasks, "
        f"{len(r['left_out'])} workflows left out | per workflow: median {statistics.median(costs):.1f} s, "
        f"p90 {costs[int(0.9 * (len(costs) - 1))]:.1f} s | slowest: " + ", ".join(f"{n} {s:.0f} s" for n, s in slow)
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", type=int, default=6)
    ap.add_argument("--only-local", action="store_true")
    ap.add_argument("--keep", type=Path, help="keep the releases in DIR/local and DIR/dask (for `swr audit lint`)")
    ap.add_argument("--limit", type=int, help="the first N workflows only (a smoke run)")
    ap.add_argument("--only", help="these workflows only, by name, comma-separated (a re-check)")
    ap.add_argument("--record", type=Path, help="write every figure, per workflow too, as JSON")
    a = ap.parse_args()
    paths = sorted(p.parent for p in (ROOT / "catalog").glob("*/*/*/workflow.toml"))[: a.limit]
    if a.only:
        paths = [p for p in paths if p.name in a.only.split(",")]
    print(
        f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
        f"{len(paths)} workflows x {a.variants} variants, empty caches, --jobs 2",
        flush=True,
    )
    runs = []
    with tempfile.TemporaryDirectory(prefix="swr-bench-scale-") as tmp:
        for executor in ("local",) if a.only_local else ("local", "dask"):
            out = Path(tmp) / executor / "release"
            out.parent.mkdir()
            runs.append(timed(paths, out, a.variants, executor))
            print(show(runs[-1]), flush=True)
            if a.keep:
                (a.keep / executor).parent.mkdir(parents=True, exist_ok=True)
                os.replace(out, a.keep / executor)
    local = runs[0]
    verdict = f"local {local['wall_s'] / 60:.1f} min (target <= {TARGET_MIN:.0f} min)"
    if len(runs) == 2:
        verdict += f" | dask/local wall {runs[1]['wall_s'] / local['wall_s']:.2f}"
        verdict += f" | byte-identical {runs[1]['tree_hash'] == local['tree_hash']}"
    print(f"{verdict} | load after {os.getloadavg()[0]:.1f}")
    if len(runs) == 2 and runs[1]["tree_hash"] != local["tree_hash"] and a.keep:
        print(f"  files that differ: {differing(a.keep / 'local', a.keep / 'dask')[:20]}")
    for name, why in sorted(local["left_out"].items()):
        print(f"  left out: {name}: {why}")
    if a.record:
        a.record.write_text(json.dumps(runs, indent=1, sort_keys=True) + "\n")
    if local["left_out"] or (len(runs) == 2 and runs[1]["tree_hash"] != local["tree_hash"]):
        sys.exit(1)


if __name__ == "__main__":
    main()
