"""How long the authoring kit takes from nothing to a passing `swr check` (bench/RESULTS.md, "Authoring kit").

Three wraps into an empty temporary catalog, each timed per command as a user runs them (the installed `swr`,
cold processes):
- colorsys:rgb_to_hls (stdlib, untyped): `swr new workflow` passes at once, then `swr check`;
- coreutils' `factor {n:integer}` (--from-cli): the same;
- statistics:fmean: `swr new workflow` guesses `data` as a number and says what to fix; the edit a newcomer
  makes (`data` becomes an array) is applied by this script, then `swr new tune` and `swr check`. The human's
  editing time is not in the figure: only the machine's.
Usage: .venv/bin/python bench/new_workflow.py [-n JOBS]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SWR = str(Path(sys.executable).with_name("swr"))
FMEAN_EDIT = (
    '[inputs.data]\ntype = "number"\nmin = 0.0\nmax = 1.0\n',
    '[inputs.data]\ntype = "array"\nitems = "number"\nlength = [1, 20]\nmin = -100.0\nmax = 100.0\n',
)


def timed(*args: str, ok: tuple[int, ...] = (0,)) -> float:
    t0 = time.monotonic()
    res = subprocess.run([SWR, *args], capture_output=True, text=True)
    wall = time.monotonic() - t0
    if res.returncode not in ok:
        sys.exit(f"swr {' '.join(args)}: exit {res.returncode}\n{res.stdout}{res.stderr}")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", "--jobs", default="2")
    jobs = ap.parse_args().jobs
    rows = []
    with tempfile.TemporaryDirectory(prefix="swr-new-bench-") as tmp:
        root = Path(tmp)
        for name, how, domain in [
            ("colorsys/rgb-hls", ("--from", "colorsys:rgb_to_hls"), "data-document"),
            ("coreutils/factor", ("--from-cli", "factor {n:integer}"), "software-formal-systems"),
        ]:
            new = timed("new", "workflow", name, *how, "--domain", domain, "--root", tmp, "-n", jobs)
            wf = root / domain / name
            rows.append((name, new, 0.0, timed("check", str(wf), "-n", jobs)))
        new = timed("new", "workflow", "statistics/fmean", "--from", "statistics:fmean", "--domain",
                    "data-document", "--root", tmp, "-n", jobs, ok=(1,))  # fmt: skip
        wf = root / "data-document" / "statistics" / "fmean"
        spec = wf / "workflow.toml"
        spec.write_text(spec.read_text().replace(*FMEAN_EDIT))
        tune = timed("new", "tune", str(wf), "-n", jobs)
        rows.append(("statistics/fmean (one edit)", new, tune, timed("check", str(wf), "-n", jobs)))
    load = Path("/proc/loadavg").read_text().split()[:3]
    print("| workflow | swr new workflow s | swr new tune s | swr check s | total s |")
    print("|---|---:|---:|---:|---:|")
    for name, new, tune, check in rows:
        print(f"| {name} | {new:.1f} | {tune:.1f} | {check:.1f} | {new + tune + check:.1f} |")
    print(f"load average at the end: {' '.join(load)}")


if __name__ == "__main__":
    main()
