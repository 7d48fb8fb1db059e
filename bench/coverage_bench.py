"""What recording coverage (swr.kinds.workflow.coverage) costs the build: a slice of the catalog built from an
empty execution cache with the coverage probe and without it (the probe replaced by a no-op in that build's
process), interleaved, each build in a process of its own; the ratio of wall times, and the probe's own time
per workflow (the probe alone, cold, in the sandbox, as the build runs it).

    .venv/bin/python bench/coverage_bench.py [--rounds 2] [WORKFLOW_DIR ...]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLICE = [  # light and heavy references, an `entry` and a `command` script, small and large packages
    "catalog/earth-space-sciences/geographiclib/geodesic-line",
    "catalog/data-document/pint/unit-chain",
    "catalog/software-formal-systems/sympy/linear-ode",
    "catalog/software-formal-systems/networkx/graph-metrics",
]


def one_build(mode: str, out: Path, cache: Path, paths: list[str]) -> None:
    """Runs in the child: the build, with the probe or with it replaced by a no-op."""
    from swr.assemble import BuildOptions, build
    from swr.kinds.workflow import build as wb
    from swr.kinds.workflow.cache import ExecutionCache

    if mode == "without":
        wb.write_coverage = lambda roots, cov: None  # type: ignore[assignment]
        wb.record = lambda runner, c, scenarios: None  # type: ignore[assignment,return-value]
    results = build([Path(p) for p in paths], out, BuildOptions(cache=ExecutionCache(cache)))
    assert not [r.failure for r in results if r.failure]


def timed_build(mode: str, paths: list[str]) -> float:
    with tempfile.TemporaryDirectory(prefix="swr-covbench-") as tmp:
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, __file__, "--child", mode, tmp + "/release", tmp + "/cache", *paths], check=True, cwd=ROOT
        )
        return time.perf_counter() - t0


def probe_times(paths: list[str]) -> list[tuple[str, float, int]]:
    """Each workflow's probe alone, cold (no cache): (workflow, seconds, functions recorded)."""
    from swr.kinds.workflow.cache import ExecutionCache
    from swr.kinds.workflow.coverage import coverage_scenarios, record
    from swr.kinds.workflow.reference import Runner
    from swr.kinds.workflow.spec import load_spec
    from swr.sandbox import get_sandbox

    out = []
    for p in paths:
        spec = load_spec(ROOT / p)
        runner = Runner(spec, get_sandbox("bwrap"))
        try:
            t0 = time.perf_counter()
            cov = record(runner, ExecutionCache(enabled=False), coverage_scenarios(spec, 0, 6))
            out.append((spec.name, time.perf_counter() - t0, len(cov.functions)))
        finally:
            runner.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--child", nargs=3, metavar=("MODE", "OUT", "CACHE"))
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    paths = a.paths or SLICE
    if a.child:
        one_build(a.child[0], Path(a.child[1]), Path(a.child[2]), paths)
        return
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    times: dict[str, list[float]] = {"with": [], "without": []}
    for r in range(a.rounds):
        for mode in ("without", "with") if r % 2 == 0 else ("with", "without"):
            times[mode].append(timed_build(mode, paths))
            print(f"round {r + 1} {mode} coverage: {times[mode][-1]:.1f} s", flush=True)
    best = {m: min(ts) for m, ts in times.items()}
    print(
        f"best of {a.rounds}: with {best['with']:.1f} s, without {best['without']:.1f} s, ratio "
        f"{best['with'] / best['without']:.3f}; load {os.getloadavg()[0]:.1f}"
    )
    for name, s, n in probe_times(paths):
        print(f"probe alone, cold: {name}: {s:.2f} s, {n} functions")


if __name__ == "__main__":
    main()
