"""Two generated OpenSCAD extrusion models rendered to STL with the `openscad` CLI: a 2D-CSG gear-like
profile (offset polygon minus circles) linear_extrude'd with twist and taper, and a vase profile
(polygon rounded with offset) rotate_extrude'd through a partial angle.

Entry workflow: main() writes the .scad files into a fresh temporary directory and calls openscad
with subprocess; the STLs go to $SWR_ARTIFACTS, read on every call.
"""

import math
import os
import shutil
import subprocess
import tempfile

OPENSCAD = shutil.which("openscad") or "/usr/bin/openscad"


def num(x):
    return repr(float(x))


def pts(points):
    return "[" + ", ".join(f"[{num(x)}, {num(y)}]" for x, y in points) + "]"


def twisted_source(s):
    teeth = int(s["teeth"])
    r_out = float(s["gear_radius"])
    r_root = float(s["root_ratio"]) * r_out
    tooth = 0.3 * (2.0 * math.pi / teeth) * r_root
    fillet = float(s["fillet_frac"]) * min(r_out - r_root, tooth)
    fn = int(s["fn"])
    poly = []
    for i in range(teeth):
        a0 = 2.0 * math.pi * i / teeth
        step = 2.0 * math.pi / teeth
        for frac, r in ((0.0, r_root), (0.2, r_out), (0.5, r_out), (0.7, r_root)):
            a = a0 + frac * step
            poly.append((r * math.cos(a), r * math.sin(a)))
    hole = float(s["hole_frac"]) * r_root
    return "\n".join([
        f"$fn = {fn};",
        f"linear_extrude(height = {num(s['height'])}, twist = {num(s['twist_deg'])}, "
        f"slices = 24, scale = {num(s['top_scale'])})",
        "  difference() {",
        f"    offset(r = {num(fillet)}) offset(delta = {num(-fillet)}) polygon({pts(poly)});",
        f"    circle(r = {num(hole)});",
        "  }",
    ]) + "\n"


def lathe_source(s):
    h = float(s["vase_height"])
    r0 = float(s["vase_base_radius"])
    bulge = float(s["vase_bulge"])
    wall = float(s["vase_wall_frac"]) * r0
    fn = int(s["fn"])
    outer = []
    for k in range(13):
        t = k / 12.0
        outer.append((r0 * (1.0 + bulge * math.sin(math.pi * t)), h * t))
    inner = [(x - wall, y) for x, y in reversed(outer) if y >= wall]
    profile = [(0.0, 0.0)] + outer + inner + [(0.0, wall)]
    return "\n".join([
        f"$fn = {fn};",
        f"rotate_extrude(angle = {num(s['revolve_deg'])})",
        f"  offset(r = {num(wall * 0.25)}) offset(delta = {num(-wall * 0.25)}) polygon({pts(profile)});",
    ]) + "\n"


def render(tmp, stem, src):
    scad = os.path.join(tmp, stem + ".scad")
    out = os.path.join(tmp, stem + ".stl")
    with open(scad, "w") as fh:
        fh.write(src)
    proc = subprocess.run([OPENSCAD, "-o", out, scad], capture_output=True, text=True,
                          timeout=25, cwd=tmp)
    if proc.returncode != 0 or not os.path.exists(out):
        raise RuntimeError(f"openscad failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return out


def main(scenario: dict) -> dict:
    dest = os.environ["SWR_ARTIFACTS"]
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for key, stem, src in (("twisted", "twisted", twisted_source(scenario)),
                               ("lathe", "lathe", lathe_source(scenario))):
            out = render(tmp, stem, src)
            shutil.copyfile(out, os.path.join(dest, stem + ".stl"))
            result[key] = stem + ".stl"
    return result


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
