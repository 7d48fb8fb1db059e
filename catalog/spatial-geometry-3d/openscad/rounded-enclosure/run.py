"""Generate an OpenSCAD model of a rounded enclosure (a minkowski() sum of a box and a sphere, hollowed by the
hull() of four corner posts), render it with the `openscad` CLI (CGAL) to STL, and return the STL as an artifact.

Entry workflow: main() writes the .scad into a fresh temporary directory and calls openscad with subprocess; the
STL goes to $SWR_ARTIFACTS, read on every call.
"""

import os
import shutil
import subprocess
import tempfile

OPENSCAD = shutil.which("openscad") or "/usr/bin/openscad"


def num(x):
    return repr(float(x))


def vec(v):
    return "[" + ", ".join(num(x) for x in v) + "]"


def scad_source(s):
    lx, ly, lz = (float(v) for v in s["outer_size"])
    r = float(s["round_frac"]) * min(lx, ly, lz) / 2.0
    wall = float(s["wall"])
    rc = float(s["pocket_corner_frac"]) * (min(lx, ly, lz) / 2.0 - wall)
    fn = int(s["fn"])
    if s["pocket_posts"] == "spheres":
        post = f"sphere(r = {num(rc)});"
    else:
        post = f"cylinder(r = {num(rc)}, h = {num(2.0 * rc)}, center = true);"
    top = lz if bool(s["open_top"]) else lz / 2.0 - wall - rc
    lines = [
        f"$fn = {fn};",
        "difference() {",
        "  minkowski() {",
        f"    cube({vec([lx - 2 * r, ly - 2 * r, lz - 2 * r])}, center = true);",
        f"    sphere(r = {num(r)});",
        "  }",
        "  hull() {",
    ]
    for sx in (-1, 1):
        for sy in (-1, 1):
            x, y = sx * (lx / 2.0 - wall - rc), sy * (ly / 2.0 - wall - rc)
            for z in (-lz / 2.0 + wall + rc, top):
                lines.append(f"    translate({vec([x, y, z])}) {post}")
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


def main(scenario: dict) -> dict:
    src = scad_source(scenario)
    name = "enclosure.stl"
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
