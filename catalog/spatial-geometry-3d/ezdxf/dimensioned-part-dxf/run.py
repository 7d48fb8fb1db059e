"""A dimensioned part drawing with ezdxf: linear, aligned, radius and angular DIMENSION entities rendered by
ezdxf's dimension renderers (ezdxf.render.dim_linear, dim_radius, dim_curved) with dimstyle overrides, written as DXF
text with ezdxf's fixed metadata (no timestamp or GUID), and the dimensions' measurements and rendered texts.

ezdxf.options.write_fixed_meta_data_for_testing is set to True before writing so the file is reproducible.
"""

import io
import math
import os

import ezdxf

LAYERS = (("PART", 7), ("DIMS", 1))


def main(scn: dict) -> dict:
    ezdxf.options.write_fixed_meta_data_for_testing = True
    w, h = float(scn["width"]), float(scn["height"])
    r = float(scn["hole_radius_frac"]) * min(w, h) / 2.0
    cx, cy = w / 2.0, h / 2.0
    off = float(scn["dim_offset"])
    override = {"dimdec": int(scn["decimals"]), "dimtxt": float(scn["text_height"]),
                "dimlfac": {"mm": 1.0, "cm": 0.1, "inch": 1.0 / 25.4}[str(scn["unit"])]}
    doc = ezdxf.new("R2010", setup=True)
    for name, color in LAYERS:
        doc.layers.add(name, color=color)
    msp = doc.modelspace()
    attribs = {"layer": "DIMS"}
    msp.add_lwpolyline([(0, 0), (w, 0), (w, h), (0, h)], close=True, dxfattribs={"layer": "PART"})
    msp.add_circle((cx, cy), r, dxfattribs={"layer": "PART"})
    dims = [
        msp.add_linear_dim(base=(0, -off), p1=(0, 0), p2=(w, 0), dimstyle="EZDXF", override=override,
                           dxfattribs=attribs),
        msp.add_linear_dim(base=(w + off, 0), p1=(w, 0), p2=(w, h), angle=90, dimstyle="EZDXF", override=override,
                           dxfattribs=attribs),
        msp.add_aligned_dim(p1=(0, h), p2=(w, 0), distance=off, dimstyle="EZDXF", override=override,
                            dxfattribs=attribs),
        msp.add_radius_dim(center=(cx, cy), radius=r, angle=float(scn["radius_angle_deg"]), dimstyle="EZ_RADIUS",
                           override=override, dxfattribs=attribs),
    ]
    if scn["angular"]:
        rad, half = math.hypot(w, h) / 3.0, math.atan2(h, w) / 2
        dims.append(msp.add_angular_dim_3p(base=(rad * math.cos(half), rad * math.sin(half)),
                                           center=(0, 0), p1=(w, 0), p2=(w, h), dimstyle="EZ_CURVED",
                                           override={"dimdec": int(scn["decimals"]),
                                                     "dimtxt": float(scn["text_height"])},
                                           dxfattribs=attribs))
    for d in dims:
        d.render()
    stream = io.StringIO()
    doc.write(stream)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "part.dxf"), "w", encoding="utf-8", newline="") as fh:
        fh.write(stream.getvalue())
    entities = [d.dimension for d in dims]
    return {
        "drawing": "part.dxf",
        "measurements": [float(e.get_measurement()) for e in entities],
        "texts": [[v.plain_text() for v in e.virtual_entities() if v.dxftype() == "MTEXT"][0] for e in entities],
        "block_entities": [len(doc.blocks.get(e.dxf.geometry)) for e in entities],
        "blocks": [e.dxf.geometry for e in entities],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
