"""A turned part from a lathe profile with trimesh.creation.revolve, as for a bottle or a knob: a profile polyline
in the (radius, z) half-plane, closed on the axis at both ends, is revolved about the z axis through part of a turn
with capped cut faces (a cut-away model), and the solid's mass properties for a given density (centre of mass,
inertia tensor about it, Trimesh.mass_properties) are reported with the solid as a binary STL.

Entry workflow: main() builds new meshes per call and never mutates module state. The STL goes to $SWR_ARTIFACTS,
read on every call.
"""

import math
import os

import numpy as np
import trimesh


def profile(radii, height):
    """(r, z) polyline: from the axis at z = 0 out to radii[0], up through radii[k] at z = height*k/(n - 1), back to
    the axis at z = height."""
    n = len(radii)
    pts = [(0.0, 0.0)] + [(float(r), height * k / (n - 1)) for k, r in enumerate(radii)] + [(0.0, height)]
    return np.asarray(pts, dtype=np.float64)


def main(scenario: dict) -> dict:
    line = profile([float(v) for v in scenario["radii"]], float(scenario["height"]))
    mesh = trimesh.creation.revolve(line, angle=math.radians(float(scenario["sweep_deg"])),
                                    sections=int(scenario["sections"]), cap=True)
    mesh.density = float(scenario["density"])
    props = mesh.mass_properties
    name = "turned.stl"
    mesh.export(os.path.join(os.environ["SWR_ARTIFACTS"], name), file_type="stl")
    inertia = np.asarray(props["inertia"], dtype=np.float64)
    return {
        "mesh": name,
        "mass": float(props["mass"]),
        "center_mass": [float(v) for v in props["center_mass"]],
        "inertia_diagonal": [float(inertia[i, i]) for i in range(3)],
        "inertia_xy": float(inertia[0, 1]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
