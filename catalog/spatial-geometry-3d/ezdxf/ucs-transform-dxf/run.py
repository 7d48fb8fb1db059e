"""Placing planar geometry in 3D with ezdxf's coordinate systems: a UCS built from an origin and rotations
(ezdxf.math.UCS), entities transformed in place by a Matrix44 (ezdxf.transform.inplace: a CIRCLE or ARC becomes an
ELLIPSE under a non-uniform scale), their OCS extrusion vectors and WCS points (ezdxf.math.OCS), bounding boxes
(ezdxf.bbox), written as DXF text with ezdxf's fixed metadata (no timestamp or GUID).
"""

import io
import math
import os

import ezdxf
from ezdxf import bbox, transform
from ezdxf.math import OCS, UCS, Matrix44


def main(scn: dict) -> dict:
    ezdxf.options.write_fixed_meta_data_for_testing = True
    ucs = (UCS(origin=tuple(float(v) for v in scn["origin"]))
           .rotate_local_z(math.radians(float(scn["yaw_deg"])))
           .rotate_local_x(math.radians(float(scn["tilt_deg"]))))
    sx, sy = float(scn["scale_x"]), float(scn["scale_y"])
    m = Matrix44.scale(sx, sy, 1.0) @ ucs.matrix
    doc = ezdxf.new("R2010", setup=False)
    msp = doc.modelspace()
    r, w = float(scn["radius"]), float(scn["plate_size"])
    msp.add_circle((0, 0), r)
    msp.add_lwpolyline([(-w, -w), (w, -w), (w, w), (-w, w)], close=True)
    line = msp.add_line((-w, 0), (w, 0))
    msp.add_arc((0, 0), r / 2.0, 0.0, float(scn["arc_span_deg"]))
    transform.inplace(list(msp), m)
    ents = list(msp)
    stream = io.StringIO()
    doc.write(stream)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "placed.dxf"), "w", encoding="utf-8", newline="") as fh:
        fh.write(stream.getvalue())
    full = [e for e in ents if e.dxftype() == "ELLIPSE" and abs(e.dxf.end_param - e.dxf.start_param) > 6.28]
    ellipse = full[0] if full else None
    poly = next(e for e in ents if e.dxftype() == "LWPOLYLINE")
    ocs = OCS(poly.dxf.extrusion)
    corners = [list(ocs.to_wcs((x, y, poly.dxf.elevation)).xyz) for x, y in poly.get_points("xy")]
    box = bbox.extents(ents, fast=False)
    return {
        "drawing": "placed.dxf",
        "types": [e.dxftype() for e in ents],
        "extrusion": list(poly.dxf.extrusion.xyz),
        "plate_corners_wcs": corners,
        "circle_as": "ELLIPSE" if ellipse is not None else "CIRCLE",
        "circle_ratio": float(ellipse.dxf.ratio) if ellipse is not None else 1.0,
        "circle_major_axis_length": float(ellipse.dxf.major_axis.magnitude) if ellipse is not None else r * sx,
        "line_length": float((line.dxf.end - line.dxf.start).magnitude),
        "bbox": [list(box.extmin.xyz), list(box.extmax.xyz)],
        "ucs_ux": list(ucs.ux.xyz),
        "ucs_uz": list(ucs.uz.xyz),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
