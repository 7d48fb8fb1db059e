"""`swr build --executor dask` on a synthetic SWR-size release: N generated light workflows x K variants
(default 500 x 6 = 3,000 tasks), each a tiny pure-Python `entry` reference drawn from a template by a seeded
generator, built from an empty cache on a local Dask cluster of 2 workers. Prints the wall time and the
per-workflow cost extrapolated to 3,000 tasks; first, a slice of them built locally and on Dask side by side
(same seed, both from empty caches), with the two releases compared byte for byte.

    .venv/bin/python bench/build_dask.py [--workflows 500] [--variants 6] [--slice 20] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

from swr.assemble import BuildOptions, build
from swr.core.hashing import tree_hash
from swr.kinds.workflow.cache import ExecutionCache

TEMPLATE_RUN = '''"""Synthetic light workflow {i}: a seeded polynomial-and-trig response of two inputs."""
import math


def main(scenario: dict) -> dict:
    a, b = float(scenario["a"]), float(scenario["b"])
    y = {c0!r} + {c1!r} * a + {c2!r} * b * b + {c3!r} * math.sin({w!r} * a * b)
    return {{"y": y, "terms": [a * b, math.cos({w!r} * a) * {c1!r}], "label": "{label}" if a > b else "other"}}
'''

TEMPLATE_TOML = """name = "synthetic-{i:04d}"
family = "synthetic-{fam:02d}"
domain = "data-document"
summary = "Synthetic light workflow {i}: a seeded response surface of two inputs."
entry = "run:main"
timeout_s = 10

[inputs.a]
type = "number"
min = {lo!r}
max = {hi!r}
description = "First input."

[inputs.b]
type = "number"
min = -3.0
max = 3.0
description = "Second input."

[outputs]
atol = 1e-9
rtol = 1e-9

[outputs.fields."y"]
description = "The response."
[outputs.fields."terms"]
description = "Two intermediate terms."
[outputs.fields."label"]
description = "Which input is larger, as a label."

[requires]
pip = []
apt = []
"""


def generate(root: Path, n: int, seed: int) -> list[Path]:
    """n workflow directories under root, each with its own coefficients (so its own content hash)."""
    rng = random.Random(seed)
    dirs = []
    for i in range(n):
        d = root / f"synthetic-{i:04d}"
        d.mkdir(parents=True)
        c = [round(rng.uniform(-5, 5), 6) for _ in range(4)]
        lo = round(rng.uniform(-5, 0), 3)
        (d / "run.py").write_text(
            TEMPLATE_RUN.format(i=i, c0=c[0], c1=c[1], c2=c[2], c3=c[3], w=round(rng.uniform(0.1, 2), 4), label=f"L{i}")
        )
        (d / "workflow.toml").write_text(TEMPLATE_TOML.format(i=i, fam=i % 46, lo=lo, hi=round(lo + 6, 3)))
        dirs.append(d)
    return dirs


def timed_build(paths: list[Path], out: Path, variants: int, executor: str, seed: int) -> tuple[float, int, int]:
    """(wall s, tasks written, workflows left out), from an empty cache of its own."""
    opts = BuildOptions(
        variants=variants,
        seed=seed,
        jobs=2,
        executor=executor,
        cache=ExecutionCache(out.with_name(out.name + "-cache")),
    )
    t0 = time.perf_counter()
    results = build(paths, out, opts)
    return time.perf_counter() - t0, sum(len(r.tasks) for r in results), sum(bool(r.failure) for r in results)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workflows", type=int, default=500)
    ap.add_argument("--variants", type=int, default=6)
    ap.add_argument("--slice", type=int, default=20, help="workflows built both locally and on Dask")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    print(
        f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()},"
        f" load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="swr-bench-dask-") as tmp:
        base = Path(tmp)
        dirs = generate(base / "workflows", a.workflows, a.seed)
        part = dirs[: a.slice]
        t_local, n_local, bad_local = timed_build(part, base / "local", a.variants, "local", a.seed)
        t_dask, n_dask, bad_dask = timed_build(part, base / "dask", a.variants, "dask", a.seed)
        same = tree_hash(base / "local") == tree_hash(base / "dask")
        print(
            f"slice: {len(part)} workflows x {a.variants} variants | local {t_local:.1f} s ({n_local} tasks, "
            f"{bad_local} left out) | dask 2 workers {t_dask:.1f} s ({n_dask} tasks, {bad_dask} left out) | "
            f"dask/local {t_dask / t_local:.2f} | byte-identical {same}",
            flush=True,
        )
        if not same or bad_local or bad_dask:
            sys.exit("the slice's releases differ, or a synthetic workflow was left out")
        t_all, n_all, bad_all = timed_build(dirs, base / "all", a.variants, "dask", a.seed)
        per_wf = t_all / len(dirs)
        per_task = t_all / max(1, n_all)
        print(
            f"full: {len(dirs)} workflows x {a.variants} variants on dask (2 workers) | {t_all:.1f} s | "
            f"{n_all} tasks, {bad_all} left out | {per_wf:.2f} s/workflow, {per_task:.2f} s/task | "
            f"3,000 tasks extrapolated: {per_task * 3000 / 60:.1f} min | load {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
