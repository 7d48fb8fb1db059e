"""A terrain relief model with OpenSCAD: a seeded Gaussian-hill height field is written as a surface() data file, the
solid under it is scaled to size and optionally cut to a round puck (intersection() with a cylinder);, rendered to STL
by the `openscad` CLI, as one prints a landscape model.

Entry workflow: main() writes the .dat and .scad into a fresh temporary directory and calls openscad with subprocess;
the RNG is seeded by the input. The STL goes to $SWR_ARTIFACTS, read on every call.
"""

import os
import shutil
import subprocess
import tempfile

import numpy as np

OPENSCAD = shutil.which("openscad") or "/usr/bin/openscad"


def heights(s):
    """Height field in [0, 1] (relative units), rows along y, columns along x."""
    n = int(s["grid"])
    rng = np.random.default_rng(int(s["seed"]))
    hills = int(s["hills"])
    cx, cy = rng.uniform(0.0, 1.0, hills), rng.uniform(0.0, 1.0, hills)
    amp = rng.uniform(0.3, 1.0, hills)
    width = float(s["hill_width"])
    u = np.linspace(0.0, 1.0, n)
    x, y = np.meshgrid(u, u)
    h = np.zeros_like(x)
    for k in range(hills):
        h += amp[k] * np.exp(-((x - cx[k]) ** 2 + (y - cy[k]) ** 2) / (2.0 * width**2))
    return h / h.max()


def scad_source(s):
    n = int(s["grid"])
    size = float(s["size_mm"])
    step = size / (n - 1)
    body = f"scale([{step!r}, {step!r}, 1.0]) surface(file = \"h.dat\", center = true, convexity = 5);"
    if s["outline"] == "round":
        return "\n".join(["$fn = 36;", "intersection() {", f"  {body}",
                          f"  translate([0, 0, -5.0]) cylinder(r = {size / 2.0!r}, h = 50.0);", "}"]) + "\n"
    return body + "\n"


def main(scenario: dict) -> dict:
    h = heights(scenario)
    name = "relief.stl"
    with tempfile.TemporaryDirectory() as tmp:
        # surface(): one row per line (row 0 at the lowest y), heights in mm
        z = float(scenario["base_mm"]) + float(scenario["relief_mm"]) * h
        np.savetxt(os.path.join(tmp, "h.dat"), z, fmt="%.4f")
        scad = os.path.join(tmp, "model.scad")
        out = os.path.join(tmp, name)
        with open(scad, "w") as fh:
            fh.write(scad_source(scenario))
        proc = subprocess.run([OPENSCAD, "-o", out, scad], capture_output=True, text=True, timeout=25, cwd=tmp)
        if proc.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"openscad failed ({proc.returncode}): {proc.stderr[-2000:]}")
        shutil.copyfile(out, os.path.join(os.environ["SWR_ARTIFACTS"], name))
    k = int(np.argmax(h))
    return {"mesh": name, "peak_xy_mm": [float(v) for v in peak_xy(scenario, k, h.shape[1])]}


def peak_xy(s, k, n):
    """Centred model coordinates of the highest grid value (first on ties, row-major)."""
    step = float(s["size_mm"]) / (n - 1)
    return (k % n) * step - float(s["size_mm"]) / 2.0, (k // n) * step - float(s["size_mm"]) / 2.0


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
