"""Build a flange-plate DXF drawing in memory with ezdxf and report entity statistics from ezdxf
queries, groupby and bounding boxes (ezdxf.bbox). No file is written: the drawing is never saved,
so DXF timestamps and handles-seeds never reach the output.

Entry workflow: main() creates a new document per call and never mutates module state.
"""

import math

import ezdxf
from ezdxf import bbox


def rounded_rect(w, h, r):
    """Closed LWPOLYLINE points (x, y, bulge) of a w x h rectangle centred on the origin with corner
    radius r: each 90-degree corner arc is one segment with bulge tan(90deg/4)."""
    b = math.tan(math.pi / 8.0)
    x, y = w / 2.0, h / 2.0
    return [
        (x - r, -y, b), (x, -y + r, 0.0),
        (x, y - r, b), (x - r, y, 0.0),
        (-x + r, y, b), (-x, y - r, 0.0),
        (-x, -y + r, b), (-x + r, -y, 0.0),
    ]


def box(ext):
    """[xmin, ymin, xmax, ymax] of an ezdxf BoundingBox (all drawings here are planar, z = 0)."""
    lo, hi = ext.extmin, ext.extmax
    return [float(lo.x), float(lo.y), float(hi.x), float(hi.y)]


def main(scenario: dict) -> dict:
    w = float(scenario["plate_width"])
    h = float(scenario["plate_height"])
    cr = float(scenario["corner_radius_frac"]) * min(w, h) / 2.0
    bore = float(scenario["bore_radius_frac"]) * min(w, h) / 2.0
    n_holes = int(scenario["bolt_holes"])
    pcd = float(scenario["bolt_circle_frac"]) * min(w, h) / 2.0
    hole_r = float(scenario["bolt_hole_radius"])
    phase = float(scenario["bolt_phase_deg"])
    slot_len = float(scenario["slot_length"])
    slot_w = float(scenario["slot_width"])
    slot_rot = float(scenario["slot_rotation_deg"])
    slot_scale = float(scenario["slot_scale"])

    doc = ezdxf.new("R2010", setup=False)
    for name, color in (("OUTLINE", 7), ("HOLES", 1), ("SLOTS", 3), ("CENTER", 5)):
        doc.layers.add(name, color=color)
    msp = doc.modelspace()

    msp.add_lwpolyline(rounded_rect(w, h, cr), format="xyb", close=True, dxfattribs={"layer": "OUTLINE"})
    msp.add_circle((0.0, 0.0), bore, dxfattribs={"layer": "HOLES"})
    msp.add_circle((0.0, 0.0), pcd, dxfattribs={"layer": "CENTER"})
    for i in range(n_holes):
        a = math.radians(phase + 360.0 * i / n_holes)
        msp.add_circle((pcd * math.cos(a), pcd * math.sin(a)), hole_r, dxfattribs={"layer": "HOLES"})
    msp.add_line((-w / 2.0 - 1.0, 0.0), (w / 2.0 + 1.0, 0.0), dxfattribs={"layer": "CENTER"})
    msp.add_line((0.0, -h / 2.0 - 1.0), (0.0, h / 2.0 + 1.0), dxfattribs={"layer": "CENTER"})

    # Block: an obround slot (two lines + two semicircular arcs) along +x, centred on its origin.
    blk = doc.blocks.new("SLOT")
    hl, hw = slot_len / 2.0, slot_w / 2.0
    blk.add_line((-hl, hw), (hl, hw))
    blk.add_line((-hl, -hw), (hl, -hw))
    blk.add_arc((hl, 0.0), hw, -90.0, 90.0)
    blk.add_arc((-hl, 0.0), hw, 90.0, 270.0)
    corners = [(w / 4.0, h / 4.0), (-w / 4.0, h / 4.0), (-w / 4.0, -h / 4.0), (w / 4.0, -h / 4.0)]
    for k, (cx, cy) in enumerate(corners):
        msp.add_blockref("SLOT", (cx, cy), dxfattribs={
            "layer": "SLOTS", "rotation": slot_rot + 90.0 * k,
            "xscale": slot_scale, "yscale": slot_scale,
        })

    by_type = msp.groupby(key=lambda e: e.dxftype())
    by_layer = msp.groupby(dxfattrib="layer")
    holes = msp.query('CIRCLE[layer=="HOLES"]')
    big = msp.query(f"CIRCLE[radius>{hole_r * 1.5!r}]")

    layer_extents = {name: box(bbox.extents(by_layer.get(name, []), fast=False))
                     for name in ("OUTLINE", "HOLES", "SLOTS", "CENTER")}
    slot_boxes = [box(bbox.extents([ins], fast=False)) for ins in msp.query("INSERT")]

    return {
        "entities_by_type": {k: int(len(v)) for k, v in sorted(by_type.items())},
        "entities_by_layer": {k: int(len(v)) for k, v in sorted(by_layer.items())},
        "hole_circles": int(len(holes)),
        "hole_radius_sum": float(sum(c.dxf.radius for c in holes)),
        "circles_larger_than_1p5_hole": int(len(big)),
        "block_entities": int(len(doc.blocks.get("SLOT"))),
        "extents_all": box(bbox.extents(msp, fast=False)),
        "extents_by_layer": layer_extents,
        "slot_extents": slot_boxes,
        "outline_length": float(sum(
            (e.dxf.end - e.dxf.start).magnitude if e.dxftype() == "LINE" else
            math.radians((e.dxf.end_angle - e.dxf.start_angle) % 360.0) * e.dxf.radius
            for e in msp.query("LWPOLYLINE").first.virtual_entities())),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
