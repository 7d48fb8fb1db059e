"""A ventilation grille modelled with OpenSCAD's affine tools: a 2D frame of rows x cols openings (difference() of
squares, placed by nested for() loops) is extruded, leaned by a shear matrix (multmatrix()) and fitted to a target
size with resize() (all three sizes, or the width only with auto scaling), rendered to STL by the `openscad` CLI.

Entry workflow: main() writes the .scad into a fresh temporary directory and calls openscad with subprocess; the STL
goes to $SWR_ARTIFACTS, read on every call.
"""

import os
import shutil
import subprocess
import tempfile

OPENSCAD = shutil.which("openscad") or "/usr/bin/openscad"


def scad_source(s):
    rows, cols = int(s["rows"]), int(s["cols"])
    cell = float(s["cell"])
    wall = float(s["wall_frac"]) * cell
    w, h = cols * cell + wall, rows * cell + wall
    shear = float(s["shear"])
    tw, th, td = (float(v) for v in s["target_size"])
    size = f"[{tw!r}, 0, 0], auto = true" if bool(s["keep_aspect"]) else f"[{tw!r}, {th!r}, {td!r}]"
    return "\n".join([
        f"resize({size})",
        f"multmatrix([[1, 0, {shear!r}, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])",
        f"linear_extrude(height = {float(s['depth'])!r})",
        "difference() {",
        f"  square([{w!r}, {h!r}]);",
        f"  for (i = [0:{cols - 1}]) for (j = [0:{rows - 1}])",
        f"    translate([{wall!r} + i * {cell!r}, {wall!r} + j * {cell!r}])",
        f"      square([{cell - wall!r}, {cell - wall!r}]);",
        "}",
    ]) + "\n"


def main(scenario: dict) -> dict:
    name = "grille.stl"
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
