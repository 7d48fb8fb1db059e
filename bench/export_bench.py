"""`swr export harbor` per task: the runtime pins read once per export (today) against once per task (before
session 14, when each task walked the ~300 installed distributions' METADATA again), interleaved, in one run.

    .venv/bin/python bench/export_bench.py RELEASE [--rounds 3]

Prints a markdown table: seconds per task for each way, and their ratio. Both write the same files (checked).
"""

from __future__ import annotations

import argparse
import filecmp
import platform
import tempfile
import time
from pathlib import Path

from swr.export import harbor


def one_export(release: Path, out: Path, per_task: bool) -> float:
    """Seconds per task of one export into `out`; per_task: the pins cache cleared before every task."""
    real = harbor.export_task

    def cold(*args: object, **kw: object) -> None:
        harbor._runtime_pins.cache_clear()
        real(*args, **kw)  # type: ignore[arg-type]

    harbor._runtime_pins.cache_clear()
    harbor.export_task = cold if per_task else real  # type: ignore[assignment]
    try:
        t0 = time.perf_counter()
        n = len(harbor.export_release(release, out))
        return (time.perf_counter() - t0) / max(n, 1)
    finally:
        harbor.export_task = real  # type: ignore[assignment]


def same_tree(a: Path, b: Path) -> bool:
    cmp = filecmp.dircmp(a, b)
    if cmp.left_only or cmp.right_only or cmp.diff_files or cmp.funny_files:
        return False
    return all(same_tree(a / d, b / d) for d in cmp.common_dirs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("release", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    best = {True: float("inf"), False: float("inf")}
    with tempfile.TemporaryDirectory(prefix="swr-exportbench-") as tmp:
        for r in range(args.rounds):
            for per_task in (r % 2 == 0, r % 2 != 0):  # alternate which goes first
                out = Path(tmp) / f"{r}-{per_task}"
                best[per_task] = min(best[per_task], one_export(args.release, out, per_task))
        same = same_tree(Path(tmp) / "0-True", Path(tmp) / "0-False")
    print(f"machine: {platform.machine()} {platform.processor() or ''}, best of {args.rounds} rounds")
    print("| pins read | s per task | ratio |\n|---|---:|---:|")
    print(f"| once per task (before) | {best[True]:.3f} | 1.00 |")
    print(f"| once per export (now) | {best[False]:.3f} | {best[True] / best[False]:.1f}x faster |")
    print(f"same files: {same}")


if __name__ == "__main__":
    main()
