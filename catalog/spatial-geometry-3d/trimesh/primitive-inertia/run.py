"""Mass properties of a generated trimesh primitive after a non-uniform scale, rotation and translation.

Entry workflow: main() builds a new mesh per call and never mutates module state.
"""

import numpy as np
import trimesh
from trimesh import creation, transformations

SECTIONS = 24


def primitive(kind, a, b, c):
    if kind == "box":
        return creation.box(extents=[a, b, c])
    if kind == "cylinder":
        return creation.cylinder(radius=a, height=b, sections=SECTIONS)
    if kind == "capsule":
        return creation.capsule(height=b, radius=a, count=[SECTIONS, SECTIONS])
    if kind == "cone":
        return creation.cone(radius=a, height=b, sections=SECTIONS)
    if kind == "annulus":
        return creation.annulus(r_min=a, r_max=a + c, height=b, sections=SECTIONS)
    if kind == "icosphere":
        return creation.icosphere(subdivisions=2, radius=a)
    raise ValueError(kind)


def vec(x):
    return [float(v) for v in np.asarray(x, dtype=np.float64).ravel()]


def main(scenario: dict) -> dict:
    kind = str(scenario["shape"])
    a, b, c = (float(scenario[k]) for k in ("dim_a", "dim_b", "dim_c"))
    scale = [float(v) for v in scenario["scale_xyz"]]
    euler = [np.radians(float(v)) for v in scenario["rotation_xyz_deg"]]
    shift = [float(v) for v in scenario["translation"]]
    density = float(scenario["density"])

    mesh = primitive(kind, a, b, c)
    mesh.apply_transform(np.diag(scale + [1.0]))
    mat = transformations.euler_matrix(euler[0], euler[1], euler[2], axes="sxyz")
    mat[:3, 3] = shift
    mesh.apply_transform(mat)
    mesh.density = density

    hull = mesh.convex_hull
    obb = mesh.bounding_box_oriented
    principal = np.sort(np.asarray(mesh.principal_inertia_components, dtype=np.float64))
    inertia_origin = mesh.moment_inertia_frame(np.eye(4))

    return {
        "vertices": int(len(mesh.vertices)),
        "faces": int(len(mesh.faces)),
        "euler_number": int(mesh.euler_number),
        "watertight": bool(mesh.is_watertight),
        "volume": float(mesh.volume),
        "area": float(mesh.area),
        "mass": float(mesh.mass),
        "center_mass": vec(mesh.center_mass),
        "inertia_com": vec(mesh.moment_inertia),
        "inertia_origin": vec(inertia_origin),
        "principal_inertia": vec(principal),
        "bounds": vec(mesh.bounds),
        "convex_hull_volume": float(hull.volume),
        "convexity_ratio": float(mesh.volume / hull.volume),
        "obb_volume": float(obb.volume),
        "bounding_sphere_radius": float(mesh.bounding_sphere.primitive.radius),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
