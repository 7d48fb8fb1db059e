"""A helical (optionally tapered) gear blank meshed with ezdxf's render forms: the gear outline of
ezdxf.render.forms.gear extruded along z with a twist and a scale (forms.extrude_twist_scale), checked with
MeshDiagnose (element counts, closed surface) and written as binary STL
(ezdxf.addons.meshex.stl_dumpb).

Entry workflow: main() builds new meshes per call and never mutates module state.
"""

import math
import os

from ezdxf.addons import meshex
from ezdxf.math import Matrix44
from ezdxf.render import forms


def main(scn: dict) -> dict:
    teeth = int(scn["teeth"])
    radius = float(scn["outside_radius"])
    pitch = 2.0 * math.pi * radius / teeth                  # arc length per tooth at the outside radius
    height = float(scn["tooth_height_frac"]) * radius
    top, bottom = float(scn["top_frac"]) * pitch, float(scn["bottom_frac"]) * pitch
    profile = list(forms.gear(teeth, top_width=top, bottom_width=bottom, height=height, outside_radius=radius,
                              close=True))
    thickness = float(scn["thickness"])
    twist = math.radians(float(scn["twist_deg"]))
    mesh = forms.extrude_twist_scale(profile, [(0, 0, 0), (0, 0, thickness)], twist=twist,
                                     scale=float(scn["taper_scale"]), step_size=thickness / int(scn["slices"]),
                                     close=True, caps=True, quads=bool(scn["quads"]))
    mesh.transform(Matrix44.z_rotate(math.radians(float(scn["rotation_deg"]))))
    diag = mesh.diagnose()
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "gear.stl"), "wb") as fh:
        fh.write(meshex.stl_dumpb(mesh))
    box = mesh.bbox()
    return {
        "mesh": "gear.stl",
        "profile_vertices": len(profile),
        "vertices": diag.n_vertices,
        "faces": diag.n_faces,
        "edges": diag.n_edges,
        "closed_surface": diag.is_closed_surface,
        "bbox": [list(box.extmin.xyz), list(box.extmax.xyz)],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
