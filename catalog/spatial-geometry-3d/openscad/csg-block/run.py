"""Generate an OpenSCAD CSG model (block minus a spherical dent, tilted bores and a rotated slot),
render it with the `openscad` CLI (CGAL) to STL, and return the STL as an artifact.

Entry workflow: main() writes the .scad into a fresh temporary directory and calls openscad with
subprocess; the STL goes to $SWR_ARTIFACTS, read on every call.
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
    lx, ly, lz = (float(v) for v in s["block_size"])
    fn = int(s["fn"])
    dent_r = float(s["dent_radius_frac"]) * min(lx, ly) / 2.0
    dent_c = [float(s["dent_center_frac"][0]) * lx, float(s["dent_center_frac"][1]) * ly, lz]
    holes = int(s["holes"])
    hole_r = float(s["hole_radius_frac"]) * lz / 2.0
    tilt = float(s["hole_tilt_deg"])
    slot_w = float(s["slot_width_frac"]) * ly
    slot_rot = float(s["slot_rotation_deg"])
    lines = [
        f"$fn = {fn};",
        "difference() {",
        f"  cube({vec([lx, ly, lz])});",
        f"  translate({vec(dent_c)}) sphere(r = {num(dent_r)});",
    ]
    for i in range(holes):
        x = lx * (i + 1) / (holes + 1)
        lines.append(f"  translate({vec([x, ly / 2.0, lz / 2.0])}) rotate({vec([90.0 + tilt, 0.0, 0.0])}) "
                     f"cylinder(h = {num(2.0 * ly)}, r = {num(hole_r)}, center = true);")
    lines.append(f"  translate({vec([lx / 2.0, ly / 2.0, lz])}) rotate({vec([0.0, 0.0, slot_rot])}) "
                 f"cube({vec([lx * 0.6, slot_w, lz * 0.5])}, center = true);")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(scenario: dict) -> dict:
    src = scad_source(scenario)
    name = "block.stl"
    with tempfile.TemporaryDirectory() as tmp:
        scad = os.path.join(tmp, "model.scad")
        out = os.path.join(tmp, name)
        with open(scad, "w") as fh:
            fh.write(src)
        proc = subprocess.run([OPENSCAD, "-o", out, scad], capture_output=True, text=True,
                              timeout=25, cwd=tmp)
        if proc.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"openscad failed ({proc.returncode}): {proc.stderr[-2000:]}")
        shutil.copyfile(out, os.path.join(os.environ["SWR_ARTIFACTS"], name))
    return {"mesh": name}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
