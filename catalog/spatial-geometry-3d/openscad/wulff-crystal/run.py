"""A crystal habit by the Wulff construction, generated as an OpenSCAD model: the equilibrium shape of a cubic
crystal is the intersection of the half-spaces n.x <= d_hkl over the facet normals of the {100}, {110} and {111}
families, with d_hkl proportional to the facet's surface energy. OpenSCAD's intersection_for() intersects one
rotated, translated cube per normal (a list comprehension builds the normals in the .scad); the habit is elongated
along the c axis by scale() and turned by rotate(), rendered with the `openscad` CLI (CGAL) to STL.

Entry workflow: main() writes the .scad into a fresh temporary directory and calls openscad with subprocess; the
STL goes to $SWR_ARTIFACTS.
"""

import os
import shutil
import subprocess
import tempfile

OPENSCAD = shutil.which("openscad") or "/usr/bin/openscad"

FAMILIES = {
    "100": "[for (i = [0:2]) for (a = [-1, 1]) [for (k = [0:2]) k == i ? a : 0]]",
    "110": "[for (i = [0:2]) for (a = [-1, 1]) for (b = [-1, 1]) "
           "[for (k = [0:2]) k == i ? 0 : (k == (i + 1) % 3 ? a : b)]]",
    "111": "[for (a = [-1, 1]) for (b = [-1, 1]) for (c = [-1, 1]) [a, b, c]]",
}


def num(x):
    return repr(float(x))


def scad_source(s):
    d100 = float(s["d100"])
    fams = [("100", 1.0)]
    if bool(s["include_110"]):
        fams.append(("110", float(s["gamma_110_ratio"])))
    if bool(s["include_111"]):
        fams.append(("111", float(s["gamma_111_ratio"])))
    planes = ", ".join(f"[for (n = {FAMILIES[f]}) [n, {num(ratio * d100)}]]" for f, ratio in fams)
    big = 20.0 * d100
    return "\n".join([
        f"planes = concat({planes});",
        f"L = {num(big)};",
        f"rotate([0, 0, {num(s['orientation_deg'])}]) scale([1, 1, {num(s['aspect'])}])",
        "intersection_for (p = planes) {",
        "  n = p[0] / norm(p[0]);",
        "  rotate([0, acos(n[2]), atan2(n[1], n[0])]) translate([0, 0, p[1] - L])"
        " cube([2 * L, 2 * L, 2 * L], center = true);",
        "}",
    ]) + "\n"


def main(scenario: dict) -> dict:
    src = scad_source(scenario)
    name = "crystal.stl"
    with tempfile.TemporaryDirectory() as tmp:
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
