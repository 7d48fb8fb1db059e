"""Serial sections of a solid with trimesh: a torus (trimesh.creation.torus) rotated into a generic pose is cut by
evenly spaced horizontal planes (trimesh.intersections.mesh_multiplane through Trimesh.section_multiplane, giving
planar Path2D cross-sections), each section's enclosed area, perimeter and loop count are reported, and the part of
the solid on one side of a cut plane is kept, optionally capped (trimesh.intersections.slice_mesh_plane), and
written as a binary STL, as one prepares a sectioned specimen.

Entry workflow: main() builds new meshes per call and never mutates module state.
"""

import math
import os

import trimesh
from trimesh import transformations as tf


def posed_torus(major, minor, sections, rot_deg):
    """torus(major_radius, minor_radius, major_sections, minor_sections) rotated by static x-y-z Euler angles."""
    mesh = trimesh.creation.torus(major_radius=major, minor_radius=minor, major_sections=sections,
                                  minor_sections=sections // 2)
    ax, ay, az = (math.radians(float(a)) for a in rot_deg)
    mesh.apply_transform(tf.euler_matrix(ax, ay, az, axes="sxyz"))
    return mesh


def main(scenario: dict) -> dict:
    major = float(scenario["major_radius"])
    minor = float(scenario["minor_ratio"]) * major
    sections = int(scenario["sections"])
    n_planes = int(scenario["n_planes"])
    cut_frac = float(scenario["cut_fraction"])
    mesh = posed_torus(major, minor, sections, scenario["rotation_xyz_deg"])

    zmin, zmax = (float(v) for v in mesh.bounds[:, 2])
    span = zmax - zmin
    heights = [zmin + span * (k + 0.5) / n_planes for k in range(n_planes)]
    paths = mesh.section_multiplane(plane_origin=[0.0, 0.0, zmin], plane_normal=[0.0, 0.0, 1.0],
                                    heights=[h - zmin for h in heights])
    slices = []
    for h, p in zip(heights, paths):
        if p is None:
            slices.append({"z": h, "area": 0.0, "perimeter": 0.0, "loops": 0})
            continue
        slices.append({"z": h, "area": float(p.area), "perimeter": float(p.length),
                       "loops": int(len(p.discrete))})

    z_cut = zmin + cut_frac * span
    normal = [0.0, 0.0, -1.0] if scenario["keep"] == "below" else [0.0, 0.0, 1.0]
    part = trimesh.intersections.slice_mesh_plane(mesh, plane_normal=normal, plane_origin=[0.0, 0.0, z_cut],
                                                  cap=bool(scenario["cap"]))
    name = "part.stl"
    part.export(os.path.join(os.environ["SWR_ARTIFACTS"], name), file_type="stl")
    return {
        "mesh": name,
        "torus_volume": float(mesh.volume),
        "z_range": [zmin, zmax],
        "slices": slices,
        "max_section_area": float(max(s["area"] for s in slices)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
