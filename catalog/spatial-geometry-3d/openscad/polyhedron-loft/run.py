"""A lofted vase built from OpenSCAD's own language: functions and list comprehensions generate the points and faces
of a polyhedron() (stacked rings of a regular or star polygon, with a taper, a sine bulge and a twist), hollowed
by a cylindrical bore; the `openscad` CLI renders it and exports STL.

Entry workflow: main() writes the .scad into a fresh temporary directory and calls openscad with subprocess; the STL
goes to $SWR_ARTIFACTS, read on every call.
"""

import os
import shutil
import subprocess
import tempfile

OPENSCAD = shutil.which("openscad") or "/usr/bin/openscad"

MODEL = """
function rad(t) = r1 + (r2 - r1) * t + bulge * sin(180 * t);
function corner(i) = (star && i % 2 == 1) ? star_ratio : 1;
function ang(i, t) = 360 * i / n + twist * t;
pts = [for (k = [0:layers]) let (t = k / layers) for (i = [0:n - 1])
       [rad(t) * corner(i) * cos(ang(i, t)), rad(t) * corner(i) * sin(ang(i, t)), height * t]];
sides = [for (k = [0:layers - 1]) for (i = [0:n - 1])
         let (a = k * n + i, b = k * n + (i + 1) % n) each [[a, b, b + n], [a, b + n, a + n]]];
bottom = [[for (i = [n - 1:-1:0]) i]];
top = [[for (i = [0:n - 1]) layers * n + i]];
module vase() polyhedron(points = pts, faces = concat(bottom, sides, top), convexity = 4);
difference() { vase(); translate([0, 0, floor_h]) cylinder(r = bore, h = height, $fn = 24); }
"""


def scad_source(s):
    r1 = float(s["bottom_radius"])
    star = s["profile"] == "star"
    n = int(s["corners"]) * (2 if star else 1)
    params = {
        "n": n, "layers": int(s["layers"]), "r1": r1, "r2": float(s["top_ratio"]) * r1,
        "bulge": float(s["bulge_frac"]) * r1, "twist": float(s["twist_deg"]), "height": float(s["height"]),
        "star": "true" if star else "false", "star_ratio": 0.6,
        "bore": float(s["bore_frac"]) * r1 * (0.6 if star else 1.0) * min(1.0, float(s["top_ratio"])) * 0.8,
        "floor_h": 0.1 * float(s["height"]),
    }
    head = "\n".join(f"{k} = {v if isinstance(v, str) else repr(v)};" for k, v in params.items())
    return head + MODEL


def main(scenario: dict) -> dict:
    name = "vase.stl"
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
