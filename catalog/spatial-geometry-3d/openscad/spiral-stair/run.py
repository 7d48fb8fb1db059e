"""A spiral staircase generated with OpenSCAD's loops and transformations: a central column, `steps` treads placed
by a for() loop (each an annular sector made by rotate_extrude(angle = ...) of a rectangle, rotated about the axis and
raised by one rise), optional newel posts at the tread tips, and mirror() for a left-handed stair; rendered to STL by
the `openscad` CLI.

Entry workflow: main() writes the .scad into a fresh temporary directory and calls openscad with subprocess; the STL
goes to $SWR_ARTIFACTS, read on every call.
"""

import os
import shutil
import subprocess
import tempfile

OPENSCAD = shutil.which("openscad") or "/usr/bin/openscad"


def scad_source(s):
    steps = int(s["steps"])
    rise = float(s["rise"])
    turn = float(s["turn_deg"])
    r_col = float(s["column_radius"])
    width = float(s["tread_width"])
    depth_deg = float(s["tread_overlap"]) * turn / steps
    tread = float(s["tread_thickness"])
    height = steps * rise
    tip = r_col + width
    body = [
        f"cylinder(r = {r_col!r}, h = {height + rise!r});",
        f"for (i = [0:{steps - 1}]) rotate([0, 0, i * {turn / steps!r}])"
        f" translate([0, 0, (i + 1) * {rise!r} - {tread!r}])",
        "  rotate_extrude(angle = " + repr(depth_deg) + ") translate([" + repr(r_col * 0.5) + ", 0])"
        + f" square([{tip - r_col * 0.5!r}, {tread!r}]);",
    ]
    if bool(s["newel_posts"]):
        body.append(f"for (i = [0:{steps - 1}]) rotate([0, 0, i * {turn / steps!r} + {depth_deg / 2.0!r}])"
                    f" translate([{tip - 0.06 * width!r}, 0, (i + 1) * {rise!r}])"
                    f" cylinder(r = {0.04 * width!r}, h = {3.0 * rise!r});")
    head = "mirror([1, 0, 0]) union() {" if s["hand"] == "left" else "union() {"
    lines = ["$fn = 16;", head] + ["  " + b for b in body] + ["}"]
    return "\n".join(lines) + "\n"


def main(scenario: dict) -> dict:
    name = "stair.stl"
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
