"""Cross-sections with OpenSCAD's projection(): a tilted part (a cylinder with a spherical knob, bored through) is
either cut by the plane z = 0 (projection(cut = true)) or flattened to its shadow (projection(cut = false)); the 2D
result is inset or outset with offset() and re-extruded with linear_extrude(), as one makes a template or a gasket
from a section; the `openscad` CLI renders it to STL.

Entry workflow: main() writes the .scad into a fresh temporary directory and calls openscad with subprocess; the STL
goes to $SWR_ARTIFACTS, read on every call.
"""

import math
import os
import shutil
import subprocess
import tempfile

OPENSCAD = shutil.which("openscad") or "/usr/bin/openscad"


def scad_source(s):
    r = float(s["radius"])
    h = float(s["length"])
    knob = float(s["knob_frac"]) * r * 2.0
    bore = float(s["bore_frac"]) * r
    tilt = float(s["tilt_deg"])
    lift = float(s["cut_height_frac"]) * h / 2.0 * math.cos(math.radians(tilt))  # through the axis
    cut = "true" if s["mode"] == "section" else "false"
    off = float(s["offset"])
    return "\n".join([
        f"$fn = {int(s['fn'])};",
        f"linear_extrude(height = {float(s['thickness'])!r}) offset(r = {off!r}) projection(cut = {cut})",
        f"  translate([0, 0, {-lift!r}]) rotate([{tilt!r}, 0, 0]) difference() {{",
        "    union() {",
        f"      cylinder(r = {r!r}, h = {h!r}, center = true);",
        f"      translate([0, 0, {h / 2.0!r}]) sphere(r = {knob!r});",
        "    }",
        f"    rotate([0, 90, 0]) cylinder(r = {bore!r}, h = {4.0 * (r + knob)!r}, center = true);",
        "  }",
    ]) + "\n"


def main(scenario: dict) -> dict:
    name = "section.stl"
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
