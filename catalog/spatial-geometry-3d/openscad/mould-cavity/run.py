"""The lower half of a sand-casting mould, generated as an OpenSCAD model around an imported pattern: the pattern
STL (import()) is enlarged by the metal's shrinkage allowance (scale()), and a block around it, cut at the parting
plane, has the pattern subtracted (difference()) and optionally a runner channel cut in the parting face; rendered
with the `openscad` CLI (CGAL) to STL.

Entry workflow: main() reads the pattern's bounding box, writes the .scad beside a copy of the pattern into a fresh
temporary directory and calls openscad with subprocess; the STL goes to $SWR_ARTIFACTS.
"""

import os
import shutil
import struct
import subprocess
import tempfile

OPENSCAD = shutil.which("openscad") or "/usr/bin/openscad"


def num(x):
    return repr(float(x))


def vec(v):
    return "[" + ", ".join(num(x) for x in v) + "]"


def stl_bounds(path):
    """(min, max) corners of a binary STL's vertices."""
    with open(path, "rb") as fh:
        data = fh.read()
    (n,) = struct.unpack_from("<I", data, 80)
    verts = [struct.unpack_from("<3f", data, 84 + 50 * i + 12 + 12 * j) for i in range(n) for j in range(3)]
    return [min(v[a] for v in verts) for a in range(3)], [max(v[a] for v in verts) for a in range(3)]


def scad_source(s, lo, hi):
    k = 1.0 + float(s["shrink_pct"]) / 100.0
    lo, hi = [k * v for v in lo], [k * v for v in hi]
    wall = float(s["wall"])
    parting = lo[2] + float(s["parting_frac"]) * (hi[2] - lo[2])
    corner = [lo[0] - wall, lo[1] - wall, lo[2] - wall]
    size = [hi[0] - lo[0] + 2 * wall, hi[1] - lo[1] + 2 * wall, parting - lo[2] + wall]
    lines = [
        "difference() {",
        f"  translate({vec(corner)}) cube({vec(size)});",
        f"  scale({vec([k, k, k])}) import(\"pattern.stl\");",
    ]
    if bool(s["with_runner"]):
        w = float(s["runner_width"])
        lines.append(f"  translate({vec([0.0, -w / 2, parting - w / 2])}) cube({vec([hi[0] + wall + 1.0, w, w])});")
    return "\n".join(lines + ["}"]) + "\n"


def main(scenario: dict) -> dict:
    pattern = str(scenario["pattern"])
    src = scad_source(scenario, *stl_bounds(pattern))
    name = "mould.stl"
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copyfile(pattern, os.path.join(tmp, "pattern.stl"))
        scad = os.path.join(tmp, "model.scad")
        out = os.path.join(tmp, name)
        with open(scad, "w") as fh:
            fh.write(src)
        proc = subprocess.run([OPENSCAD, "-o", out, scad], capture_output=True, text=True, timeout=25, cwd=tmp)
        if proc.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"openscad failed ({proc.returncode}): {proc.stderr[-2000:]}")
        shutil.copyfile(out, os.path.join(os.environ["SWR_ARTIFACTS"], name))
    return {"mesh": name}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
