"""Recursion in the OpenSCAD language: a Koch snowflake outline built by a recursive function (each edge replaced
by four, the middle pair forming an outward spike) or a Sierpinski-like triangle built by a recursive module (three
half-size copies, overlapping slightly), extruded with linear_extrude(twist, slices) into a decorative solid and
rendered to STL by the `openscad` CLI.

Entry workflow: main() writes the .scad into a fresh temporary directory and calls openscad with subprocess; the STL
goes to $SWR_ARTIFACTS, read on every call.
"""

import os
import shutil
import subprocess
import tempfile

OPENSCAD = shutil.which("openscad") or "/usr/bin/openscad"

LIBRARY = """
function koch_edge(a, b, n) = n == 0 ? [a] :
    let (d = (b - a) / 3, p1 = a + d, p2 = a + 2 * d,
         tip = p1 + [d[0] * cos(-60) - d[1] * sin(-60), d[0] * sin(-60) + d[1] * cos(-60)])
    concat(koch_edge(a, p1, n - 1), koch_edge(p1, tip, n - 1), koch_edge(tip, p2, n - 1), koch_edge(p2, b, n - 1));
function triangle(r) = [for (k = [0:2]) [r * cos(90 + 120 * k), r * sin(90 + 120 * k)]];
function koch(r, n) = let (t = triangle(r)) concat(koch_edge(t[0], t[1], n), koch_edge(t[1], t[2], n),
                                                   koch_edge(t[2], t[0], n));
module sierpinski(r, n) {
    if (n == 0) polygon(triangle(r));
    else for (k = [0:2])
        translate([0.45 * r * cos(90 + 120 * k), 0.45 * r * sin(90 + 120 * k)]) sierpinski(r / 2, n - 1);
}
"""


def scad_source(s):
    r = float(s["radius"])
    n = int(s["depth"])
    shape = f"polygon(koch({r!r}, {n}));" if s["fractal"] == "koch" else f"sierpinski({r!r}, {n});"
    return LIBRARY + (f"linear_extrude(height = {float(s['height'])!r}, twist = {float(s['twist_deg'])!r}, "
                      f"slices = {int(s['slices'])}, scale = {float(s['top_scale'])!r}) {shape}\n")


def main(scenario: dict) -> dict:
    name = "fractal.stl"
    with tempfile.TemporaryDirectory() as tmp:
        scad = os.path.join(tmp, "model.scad")
        out = os.path.join(tmp, name)
        with open(scad, "w") as fh:
            fh.write(scad_source(scenario))
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
