"""Sandbox overhead per run: bare `python -c pass` vs the same through swr's bwrap sandbox.

Target (DESIGN / acceptance): overhead <= 12 ms median per run. Bare and sandboxed runs are
interleaved (ABAB...) so drift in machine load hits both alike. Also prints a breakdown of where a
sandboxed run's time goes (cgroup set-up, the launcher, bwrap, teardown), measured on extra runs.

    .venv/bin/python bench/sandbox_bench.py [--runs 300]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from swr.sandbox import WORKDIR, Job, Mount, get_sandbox, run
from swr.sandbox import cgroups
from swr.sandbox.bwrap import find_bwrap

TARGET_MS = 12.0


def ms(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1e3:7.2f}"


def pctl(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] * 1e3


def bare_once(argv: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    return time.perf_counter() - t0


def sandboxed_once(sb, job: Job) -> float:
    t0 = time.perf_counter()
    res = run(sb, job, b"")
    dt = time.perf_counter() - t0
    if not res.ok:
        raise SystemExit(f"sandboxed run failed: {res}")
    return dt


def breakdown(sb, work: Path, n: int) -> list[tuple[str, list[float]]]:
    """Time the stages of one sandboxed run separately (not interleaved: indicative only)."""
    lay = cgroups.layout()
    job = Job([sys.executable, "-c", "pass"], Mount(work, WORKDIR))
    stages: dict[str, list[float]] = {k: [] for k in ("cgroup create", "cgroup remove", "sh launcher",
                                                      "bwrap true", "bwrap python", "spawn..close")}
    bwrap_true = [find_bwrap(), *sb.argv(Job(["/bin/true"], Mount(work, WORKDIR)))[1:]]
    bwrap_py = sb.argv(job)
    for _ in range(n):
        if lay:
            t0 = time.perf_counter()
            cg = cgroups.RunCgroup(lay, 256, 2 << 30)
            t1 = time.perf_counter()
            cg.remove()
            t2 = time.perf_counter()
            stages["cgroup create"].append(t1 - t0)
            stages["cgroup remove"].append(t2 - t1)
        stages["sh launcher"].append(bare_once(["/bin/sh", "-c", 'exec "$@"', "swr-launch", "/bin/true"]))
        stages["bwrap true"].append(bare_once(bwrap_true))
        stages["bwrap python"].append(bare_once(bwrap_py))
        t0 = time.perf_counter()
        h = sb.spawn(job)
        h.proc.communicate()
        h.close()
        stages["spawn..close"].append(time.perf_counter() - t0)
    return [(k, v) for k, v in stages.items() if v]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=300, help="runs of each kind (>= 200)")
    ap.add_argument("--breakdown", type=int, default=60, help="runs for the per-stage breakdown (0: skip)")
    args = ap.parse_args()
    sb = get_sandbox("bwrap")
    argv = [sys.executable, "-c", "pass"]
    t_start = time.time()
    with tempfile.TemporaryDirectory(prefix="swr-bench-") as d:
        job = Job(argv, Mount(Path(d), WORKDIR))
        for _ in range(10):  # warm-up: page cache, the sandbox's lazy set-up
            bare_once(argv)
            sandboxed_once(sb, job)
        bare: list[float] = []
        boxed: list[float] = []
        for i in range(args.runs):
            if i % 2:
                boxed.append(sandboxed_once(sb, job))
                bare.append(bare_once(argv))
            else:
                bare.append(bare_once(argv))
                boxed.append(sandboxed_once(sb, job))
        stages = breakdown(sb, Path(d), args.breakdown) if args.breakdown else []

    mb, ms_ = statistics.median(bare), statistics.median(boxed)
    over = (ms_ - mb) * 1e3
    print(f"# sandbox overhead — {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {platform.platform()}")
    print(f"# python {platform.python_version()}, bwrap {find_bwrap()}, cgroups {cgroups.layout()}")
    print(f"{'':22} {'runs':>5} {'median ms':>10} {'p10':>7} {'p90':>7}")
    for name, xs in (("bare python -c pass", bare), ("sandboxed (swr bwrap)", boxed)):
        print(f"{name:22} {len(xs):5d} {ms(xs):>10} {pctl(xs, .1):7.2f} {pctl(xs, .9):7.2f}")
    paired = [b - a for a, b in zip(bare, boxed)]
    print(f"overhead: median difference {over:.2f} ms, median of paired differences "
          f"{statistics.median(paired) * 1e3:.2f} ms, ratio {ms_ / mb:.2f}x — target <= {TARGET_MS:.0f} ms: "
          f"{'MET' if over <= TARGET_MS else 'MISSED'}")
    if stages:
        print("\nbreakdown (separate runs, medians):")
        for name, xs in stages:
            print(f"  {name:16} {ms(xs)} ms")
    print(f"\n(total {time.time() - t_start:.0f} s)")


if __name__ == "__main__":
    main()
