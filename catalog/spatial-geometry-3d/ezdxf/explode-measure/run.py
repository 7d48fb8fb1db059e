"""Write a generated DXF to text, read it back with ezdxf, explode block arrays and bulged
polylines, and measure lengths and areas from exploded entities and flattened paths.

The DXF text (which carries timestamps and a GUID in its header) is only used in memory and never
reported. Entry workflow: main() creates new documents per call and never mutates module state.
"""

import io
import math

import ezdxf
from ezdxf import path as dxfpath
from ezdxf.math import area as polygon_area

FLATTEN = 0.001  # max sagitta of path flattening, drawing units


def length_of(e):
    t = e.dxftype()
    if t == "LINE":
        return (e.dxf.end - e.dxf.start).magnitude
    if t == "ARC":
        return math.radians((e.dxf.end_angle - e.dxf.start_angle) % 360.0) * e.dxf.radius
    if t == "CIRCLE":
        return 2.0 * math.pi * e.dxf.radius
    return path_length(dxfpath.make_path(e))


def path_length(p):
    pts = list(p.flattening(FLATTEN))
    return sum((b - a).magnitude for a, b in zip(pts, pts[1:]))


def build(scenario):
    n = int(scenario["polygon_sides"])
    r = float(scenario["polygon_radius"])
    bulge = float(scenario["bulge"])
    rot = math.radians(float(scenario["polygon_rotation_deg"]))
    cell = float(scenario["cell_size"])
    hole = float(scenario["cell_hole_frac"]) * cell / 2.0
    sx, sy = (float(v) for v in scenario["insert_scale_xy"])
    rows, cols = int(scenario["grid_rows"]), int(scenario["grid_cols"])
    amp = float(scenario["spline_amplitude"])

    doc = ezdxf.new("R2010", setup=False)
    msp = doc.modelspace()
    pts = [(r * math.cos(rot + 2 * math.pi * i / n), r * math.sin(rot + 2 * math.pi * i / n), bulge)
           for i in range(n)]
    msp.add_lwpolyline(pts, format="xyb", close=True, dxfattribs={"layer": "SHAPE"})

    blk = doc.blocks.new("CELL")
    h = cell / 2.0
    for a, b in (((-h, -h), (h, -h)), ((h, -h), (h, h)), ((h, h), (-h, h)), ((-h, h), (-h, -h))):
        blk.add_line(a, b)
    blk.add_circle((0.0, 0.0), hole)
    ins = msp.add_blockref("CELL", (2.0 * r, 0.0), dxfattribs={"layer": "GRID", "xscale": sx, "yscale": sy})
    ins.grid(size=(rows, cols), spacing=(cell * sy * 1.25, cell * sx * 1.25))

    fit = [(2.0 * r + k * cell, -2.0 * r + amp * math.sin(0.9 * k), 0.0) for k in range(7)]
    msp.add_spline(fit_points=fit, dxfattribs={"layer": "CURVE"})
    return doc


def main(scenario: dict) -> dict:
    stream = io.StringIO()
    build(scenario).write(stream)
    dxf_text = stream.getvalue()
    doc = ezdxf.read(io.StringIO(dxf_text))
    msp = doc.modelspace()

    poly = msp.query("LWPOLYLINE").first
    poly_parts = list(poly.virtual_entities())
    poly_path = dxfpath.make_path(poly)
    outline = [v.vec2 for v in poly_path.flattening(FLATTEN)]

    grid = msp.query("INSERT").first
    cells = list(grid.multi_insert())
    exploded = []
    for c in cells:
        exploded.extend(c.virtual_entities())
    kinds = {}
    for e in exploded:
        kinds[e.dxftype()] = kinds.get(e.dxftype(), 0) + 1
    ellipses = [e for e in exploded if e.dxftype() in ("ELLIPSE", "CIRCLE")]

    spline = msp.query("SPLINE").first
    ct = spline.construction_tool()

    return {
        "modelspace_entities": int(len(msp)),
        "polygon": {
            "segments": {t: int(sum(1 for e in poly_parts if e.dxftype() == t)) for t in ("ARC", "LINE")},
            "length": float(sum(length_of(e) for e in poly_parts)),
            "flattened_vertices": int(len(outline)),
            "area": float(abs(polygon_area(outline))),
        },
        "grid": {
            "inserts": int(len(cells)),
            "exploded_by_type": {k: int(v) for k, v in sorted(kinds.items())},
            "line_length_total": float(sum(length_of(e) for e in exploded if e.dxftype() == "LINE")),
            "hole_perimeter_total": float(sum(length_of(e) for e in ellipses)),
            "hole_ratio": float(ellipses[0].dxf.ratio) if ellipses[0].dxftype() == "ELLIPSE" else 1.0,
        },
        "spline": {
            "degree": int(spline.dxf.degree),
            "control_points": int(len(ct.control_points)),
            "length": float(path_length(dxfpath.make_path(spline))),
            "end_point": [float(ct.control_points[-1].x), float(ct.control_points[-1].y)],
        },
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
