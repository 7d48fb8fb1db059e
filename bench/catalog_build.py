"""The whole shipped catalog from an empty execution cache: the build as it was when issue 15 was filed
against today's, side by side on the same machine, in one run.

Target (issue 15): today's build >= 3x faster. The baseline is the code of commit BASELINE (a git worktree of
it, run with this venv's packages), building the catalog that commit shipped; today's code builds that same
catalog (the baseline cannot read today's workflow.toml fields, such as [lint]), then, for the record,
today's whole catalog. Each build gets an empty execution cache of its own and the default options (6
variants, --jobs 2). The two releases of the same catalog are compared file by file: the baseline ran
OpenSCAD with address-space randomisation, under which CGAL's output follows heap addresses, so those STL
files may differ (today's build runs references without it, and its STL bytes are stable); nothing else may.

    .venv/bin/python bench/catalog_build.py [--baseline REV] [--skip-current]
"""

from __future__ import annotations

import argparse
import filecmp
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "4023c54"  # main when issue 15 was filed (end of session 5)
TARGET = 3.0
UNSTABLE = ("tasks/csg-block-", "tasks/extrusions-")  # the baseline's OpenSCAD STL: CGAL follows ASLR


def build(src: Path, catalog: Path, out: Path, cache: Path) -> float:
    """One `swr build` of `catalog` by the code in `src`, in a process of its own; its wall time."""
    env = {**os.environ, "PYTHONPATH": str(src), "SWR_CACHE": str(cache)}
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", "from swr.cli import app; app()", "build", str(catalog), "--out", str(out)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - t0


def differing(a: Path, b: Path) -> list[str]:
    """Files whose bytes differ between two releases (release.json aside: it hashes the rest)."""
    out: list[str] = []

    def walk(cmp: filecmp.dircmp, rel: str) -> None:
        out.extend(f"{rel}{n}" for n in cmp.left_only + cmp.right_only)
        _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
        out.extend(f"{rel}{n}" for n in mismatch + errors if n != "release.json")
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{rel}{name}/")

    walk(filecmp.dircmp(a, b), "")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=BASELINE)
    ap.add_argument("--skip-current", action="store_true", help="skip today's whole catalog (for the record only)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="swr-bench-build-") as tmp:
        t = Path(tmp)
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(t / "base"), args.baseline], check=True
        )
        try:
            catalog = t / "base" / "catalog"
            n = len(list(catalog.glob("*/*/*/workflow.toml")))
            print(
                f"{platform.node()} {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; baseline {args.baseline}: "
                f"{n} workflows x 6 variants, empty caches"
            )
            base = build(t / "base" / "src", catalog, t / "rel-base", t / "cache-base")
            print(f"  baseline build: {base:7.1f} s")
            now = build(ROOT / "src", catalog, t / "rel-now", t / "cache-now")
            print(f"  today's build:  {now:7.1f} s   ratio {base / now:.2f}x (target >= {TARGET:.0f}x)")
            diff = differing(t / "rel-base", t / "rel-now")
            other = [d for d in diff if not (d.startswith(UNSTABLE) and d.endswith(".stl"))]
            print(f"  releases: {len(diff)} files differ ({len(diff) - len(other)} OpenSCAD STL), other: {other[:5]}")
            if not args.skip_current:
                m = len(list((ROOT / "catalog").glob("*/*/*/workflow.toml")))
                cur = build(ROOT / "src", ROOT / "catalog", t / "rel-cur", t / "cache-cur")
                print(f"  today's catalog ({m} workflows) with today's build: {cur:7.1f} s")
            print(f"  load after: {os.getloadavg()[0]:.1f}")
            if other or base / now < TARGET:
                sys.exit(1)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(t / "base")], check=False)


if __name__ == "__main__":
    main()
