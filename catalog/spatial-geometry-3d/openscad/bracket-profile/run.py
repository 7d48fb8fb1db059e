"""A 2D bracket profile made with OpenSCAD's polygon(points, paths) (an L outline with two bolt holes as hole
paths), grown or shrunk by offset(delta, chamfer) and extruded with linear_extrude(center, scale) into a tapered
plate, rendered to STL by the `openscad` CLI, as one draws a laser-cut or extruded profile.

Entry workflow: main() writes the .scad into a fresh temporary directory and calls openscad with subprocess; the STL
goes to $SWR_ARTIFACTS, read on every call.
"""

import math
import os
import shutil
import subprocess
import tempfile

OPENSCAD = shutil.which("openscad") or "/usr/bin/openscad"


def fmt(p):
    return "[" + ", ".join(f"[{x!r}, {y!r}]" for x, y in p) + "]"


def profile(s):
    """Points and paths: the L outline (counter-clockwise), then one clockwise n-gon per hole."""
    a, b = (float(v) for v in s["legs"])
    t = float(s["web"])
    r = float(s["hole_frac"]) * t / 2.0
    n = int(s["hole_sides"])
    outline = [(0.0, 0.0), (a, 0.0), (a, t), (t, t), (t, b), (0.0, b)]
    centres = [((a + t) / 2.0, t / 2.0), (t / 2.0, (b + t) / 2.0)]
    pts, paths = list(outline), [list(range(6))]
    for cx, cy in centres:
        start = len(pts)
        pts += [(cx + r * math.cos(-2.0 * math.pi * k / n), cy + r * math.sin(-2.0 * math.pi * k / n))
                for k in range(n)]
        paths.append(list(range(start, start + n)))
    return pts, paths


def scad_source(s):
    pts, paths = profile(s)
    chamfer = "true" if bool(s["chamfer"]) else "false"
    sx, sy = (float(v) for v in s["top_scale"])
    return (f"linear_extrude(height = {float(s['height'])!r}, center = true, scale = [{sx!r}, {sy!r}], slices = 1)\n"
            f"  offset(delta = {float(s['offset_delta'])!r}, chamfer = {chamfer})\n"
            f"  polygon(points = {fmt(pts)}, paths = {paths!r});\n")


def main(scenario: dict) -> dict:
    name = "bracket.stl"
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
