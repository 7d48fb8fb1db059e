"""A signed-distance field sampled on a grid around a solid with trimesh.proximity, as one builds an implicit model or
a level-set initial condition: the closest surface point of every grid node (trimesh.proximity.closest_point) and its
signed distance (trimesh.proximity.signed_distance, positive inside) are computed for an annulus or a capsule, and the
field's statistics, the inside volume estimate and the closest point of one probe are reported.

Entry workflow: main() builds new meshes per call and never mutates module state.
"""

import math

import numpy as np
import trimesh
from trimesh import proximity
from trimesh import transformations as tf


def solid(shape, size, height, tilt_deg):
    if shape == "annulus":
        mesh = trimesh.creation.annulus(r_min=0.5 * size, r_max=size, height=height, sections=24)
    else:
        mesh = trimesh.creation.capsule(height=height, radius=size, count=[12, 12])
    mesh.apply_transform(tf.rotation_matrix(math.radians(tilt_deg), [1.0, 0.0, 0.0]))
    return mesh


def main(scenario: dict) -> dict:
    mesh = solid(str(scenario["shape"]), float(scenario["size"]), float(scenario["height"]),
                 float(scenario["tilt_deg"]))
    k = int(scenario["grid"])
    margin = float(scenario["margin_frac"])
    lo, hi = mesh.bounds
    pad = margin * (hi - lo)
    axes = [np.linspace(lo[i] - pad[i], hi[i] + pad[i], k) for i in range(3)]
    pts = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    sd = proximity.signed_distance(mesh, pts)
    probe = np.asarray(scenario["probe"], dtype=np.float64).reshape(1, 3)
    cp, dist, _ = proximity.closest_point(mesh, probe)
    cell = float(np.prod((hi + pad - (lo - pad)) / (k - 1)))
    inside = sd > 0.0
    return {
        "nodes": int(len(pts)),
        "inside_nodes": int(inside.sum()),
        "inside_volume_estimate": float(inside.sum() * cell),
        "mesh_volume": float(mesh.volume),
        "max_depth": float(sd.max()),
        "max_outside_distance": float(-sd.min()),
        "mean_abs_distance": float(np.abs(sd).mean()),
        "probe_closest_point": [float(v) for v in cp[0]],
        "probe_distance": float(dist[0]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
