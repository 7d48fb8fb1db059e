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

from swr.sandbox import WORKDIR, Job, Mount, cgroups, get_sandbox, run
from swr.sandbox.base import ARTIFACTS, base_env, communicate
from swr.sandbox.bwrap import find_bwrap

TARGET_MS = 12.0


def ms(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1e3:7.2f}"


def pctl(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] * 1e3


def bare_once(argv: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, check=True)
    return time.perf_counter() - t0


def sandboxed_once(sb, job: Job) -> float:
    t0 = time.perf_counter()
    res = run(sb, job, b"")
    dt = time.perf_counter() - t0
    if not res.ok:
        raise SystemExit(f"sandboxed run failed: {res}")
    return dt


def breakdown(sb, work: Path, n: int) -> list[tuple[str, list[float], str]]:
    """Where a sandboxed run's time goes (separate runs, interleaved among themselves; indicative)."""
    lay = cgroups.layout()
    job = Job([sys.executable, "-c", "pass"], Mount(work, WORKDIR))
    env = base_env(job, WORKDIR, ARTIFACTS, "/tmp")
    rows: dict[str, tuple[list[float], str]] = {
        "bare /bin/true": ([], "process floor"),
        "sh -c exec true": ([], "the launcher shell (off the path: made ahead)"),
        "sh joining cgroups": ([], "v1 migration = RCU grace period (off the path)"),
        "cgroup mkdir+limits": ([], "off the path"),
        "bwrap /bin/true": ([], "bwrap alone, swr's options"),
        "swr run /bin/true": ([], "sandbox floor through swr"),
        "bwrap python -c pass": ([], "bwrap alone + python"),
        "swr run: spawn": ([], "take launcher, limits, memfd, command line"),
        "swr run: until EOF": ([], "bwrap + python + exit"),
        "swr run: wait+close": ([], "reap, SIGKILL sweep (cgroup removal deferred)"),
    }
    fd = sb.open_seccomp()  # the filter bwrap reads, as the sandbox's own launches pass it: anew for each

    def rewind() -> None:
        if fd >= 0:
            fresh = sb.open_seccomp()
            os.dup2(fresh, fd)
            os.close(fresh)

    bw_true = sb.argv(Job(["/bin/true"], Mount(work, WORKDIR)), fd)
    bw_py = sb.argv(job, fd)
    fds = (fd,) if fd >= 0 else ()
    for _ in range(n):
        rows["bare /bin/true"][0].append(bare_once(["/bin/true"]))
        rows["sh -c exec true"][0].append(bare_once(["/bin/sh", "-c", "exec /bin/true"]))
        if lay:
            t0 = time.perf_counter()
            cg = cgroups.RunCgroup(lay, 256, 2 << 30)
            rows["cgroup mkdir+limits"][0].append(time.perf_counter() - t0)
            joins = " && ".join(f"echo 0 > {p}" for p in cg.procs_files)
            rows["sh joining cgroups"][0].append(bare_once(["/bin/sh", "-c", f"{joins}; exec /bin/true"]))
            cg.remove()
        rewind()
        t0 = time.perf_counter()
        subprocess.run(bw_true, env=env, capture_output=True, check=True, pass_fds=fds)
        rows["bwrap /bin/true"][0].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        run(sb, Job(["/bin/true"], Mount(work, WORKDIR)), b"")
        rows["swr run /bin/true"][0].append(time.perf_counter() - t0)
        rewind()
        t0 = time.perf_counter()
        subprocess.run(bw_py, env=env, capture_output=True, check=True, pass_fds=fds)
        rows["bwrap python -c pass"][0].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        h = sb.spawn(job)
        t1 = time.perf_counter()
        communicate(h, b"", job.limits)
        t2 = time.perf_counter()
        h.proc.wait()
        h.breach()
        h.close()
        t3 = time.perf_counter()
        rows["swr run: spawn"][0].append(t1 - t0)
        rows["swr run: until EOF"][0].append(t2 - t1)
        rows["swr run: wait+close"][0].append(t3 - t2)
        time.sleep(0.01)  # let the launcher pool refill, as the bare runs do in the main loop
    return [(k, v, note) for k, (v, note) in rows.items() if v]


def back_to_back(sb, job: Job, argv: list[str], n: int) -> tuple[float, float]:
    """Throughput, not latency: n runs in a row each, mean seconds per run (launchers get no idle time)."""
    t0 = time.perf_counter()
    for _ in range(n):
        bare_once(argv)
    t1 = time.perf_counter()
    for _ in range(n):
        sandboxed_once(sb, job)
    t2 = time.perf_counter()
    return (t1 - t0) / n, (t2 - t1) / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=300, help="runs of each kind (>= 200)")
    ap.add_argument("--breakdown", type=int, default=60, help="runs for the per-stage breakdown (0: skip)")
    args = ap.parse_args()
    sb = get_sandbox("bwrap")
    argv = [sys.executable, "-c", "pass"]
    t_start = time.time()
    lay = cgroups.layout()
    load0 = f"{os.getloadavg()[0]:.2f}"
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
        tput = back_to_back(sb, job, argv, args.breakdown) if args.breakdown else None

    mb, ms_ = statistics.median(bare), statistics.median(boxed)
    over = (ms_ - mb) * 1e3
    print(f"# sandbox overhead — {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {platform.platform()}")
    print(
        f"# python {platform.python_version()}, bwrap {find_bwrap()}, cgroups v{lay.version if lay else '-'}, "
        f"load average before/after {load0} / {os.getloadavg()[0]:.2f}"
    )
    print(f"{'':22} {'runs':>5} {'median ms':>10} {'p10':>7} {'p90':>7}")
    for name, xs in (("bare python -c pass", bare), ("sandboxed (swr bwrap)", boxed)):
        print(f"{name:22} {len(xs):5d} {ms(xs):>10} {pctl(xs, 0.1):7.2f} {pctl(xs, 0.9):7.2f}")
    paired = [b - a for a, b in zip(bare, boxed)]
    print(
        f"overhead: median difference {over:.2f} ms, median of paired differences "
        f"{statistics.median(paired) * 1e3:.2f} ms, ratio {ms_ / mb:.2f}x — target <= {TARGET_MS:.0f} ms: "
        f"{'MET' if over <= TARGET_MS else 'MISSED'}"
    )
    if tput:
        print(
            f"back to back ({args.breakdown} each, throughput): bare {tput[0] * 1e3:.2f} ms/run, "
            f"sandboxed {tput[1] * 1e3:.2f} ms/run, difference {(tput[1] - tput[0]) * 1e3:.2f} ms"
        )
    if stages:
        print(f"\nbreakdown ({args.breakdown} runs each, medians):")
        for name, xs, note in stages:
            print(f"  {name:22} {ms(xs)} ms   {note}")
    print(f"\n(total {time.time() - t_start:.0f} s)")


if __name__ == "__main__":
    main()
