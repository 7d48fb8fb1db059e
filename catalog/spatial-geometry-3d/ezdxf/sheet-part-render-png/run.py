"""A sheet-metal part as a filled HATCH (outer polyline boundary, hole islands, a bulged notch edge) plus its
contour, rendered to PNG by ezdxf's drawing add-on (matplotlib Agg backend, ezdxf.addons.drawing.matplotlib.qsave),
with the part's net area and perimeter measured from the hatch's boundary paths (ezdxf.path.from_hatch).

Entry workflow: main() creates a new document per call and never mutates module state.
"""

import math
import os

import matplotlib

matplotlib.use("Agg")

import ezdxf  # noqa: E402
from ezdxf import path as dxfpath  # noqa: E402
from ezdxf.addons.drawing.matplotlib import qsave  # noqa: E402
from ezdxf.math import area as polygon_area  # noqa: E402

FLATTEN = 0.01  # max sagitta of path flattening, mm


def pitch_of(scn):
    """Hole pitch: pitch_frac of the smaller of width/cols and height/rows."""
    w, h = float(scn["width"]), float(scn["height"])
    return float(scn["pitch_frac"]) * min(w / int(scn["hole_cols"]), h / int(scn["hole_rows"]))


def holes(scn):
    """Centres of the hole grid: rows x cols at the given pitch, centred on the origin."""
    rows, cols = int(scn["hole_rows"]), int(scn["hole_cols"])
    pitch = pitch_of(scn)
    return [((c - (cols - 1) / 2) * pitch, (r - (rows - 1) / 2) * pitch) for r in range(rows) for c in range(cols)]


def hole_polygon(cx, cy, size, shape):
    """Closed island boundary (x, y, bulge) of one hole: a circle as two half-circle bulges, or a square."""
    h = size / 2.0
    if shape == "round":
        return [(cx + h, cy, 1.0), (cx - h, cy, 1.0)]
    return [(cx - h, cy - h, 0.0), (cx + h, cy - h, 0.0), (cx + h, cy + h, 0.0), (cx - h, cy + h, 0.0)]


def outline(w, h, notch):
    """Outer boundary (x, y, bulge), counter-clockwise from the lower-left corner; the top edge has a
    semicircular notch of radius `notch` centred on x = 0 (bulge -1: clockwise, into the part)."""
    return [(-w / 2, -h / 2, 0.0), (w / 2, -h / 2, 0.0), (w / 2, h / 2, 0.0),
            (notch, h / 2, -1.0), (-notch, h / 2, 0.0), (-w / 2, h / 2, 0.0)]


def main(scn: dict) -> dict:
    w, h = float(scn["width"]), float(scn["height"])
    notch = float(scn["notch_frac"]) * h / 4.0
    size, shape = float(scn["size_frac"]) * pitch_of(scn), str(scn["hole_shape"])
    doc = ezdxf.new("R2010", setup=False)
    msp = doc.modelspace()
    hatch = msp.add_hatch(color=int(scn["fill_aci"]))
    hatch.paths.add_polyline_path(outline(w, h, notch), is_closed=True, flags=ezdxf.const.BOUNDARY_PATH_EXTERNAL)
    for cx, cy in holes(scn):
        hatch.paths.add_polyline_path(hole_polygon(cx, cy, size, shape), is_closed=True)
    msp.add_lwpolyline(outline(w, h, notch), format="xyb", close=True, dxfattribs={"color": 7})

    png = "part.png"
    qsave(msp, os.path.join(os.environ["SWR_ARTIFACTS"], png), bg=str(scn["background"]), dpi=50,
          size_inches=(8.0, 0.0))
    loops = [[v.vec2 for v in p.flattening(FLATTEN)] for p in dxfpath.from_hatch(hatch)]
    areas = [abs(polygon_area(pts)) for pts in loops]
    lengths = [sum((b - a).magnitude for a, b in zip(pts, pts[1:])) for pts in loops]
    exact_hole = math.pi * size * size / 4.0 if shape == "round" else size * size
    return {
        "render": png,
        "boundary_paths": len(loops),
        "net_area": float(areas[0] - sum(areas[1:])),
        "outer_perimeter": float(lengths[0]),
        "hole_perimeter_total": float(sum(lengths[1:])),
        "exact_net_area": w * h - math.pi * notch * notch / 2.0 - len(loops[1:]) * exact_hole,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
