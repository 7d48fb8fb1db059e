"""Registering a noisy scan to its CAD model with trimesh.registration, as in metrology: points sampled on a
seeded convex part are moved by a known rigid motion and perturbed by noise; Procrustes analysis with known
correspondences (trimesh.registration.procrustes) and iterative closest point without them
(trimesh.registration.icp against the mesh surface) recover the motion, and the recovery errors and residual
costs are reported.

Entry workflow: main() builds new meshes per call and never mutates module state; the RNG is seeded by the input.
"""

import math

import numpy as np
import trimesh
from trimesh import registration
from trimesh import transformations as tf


def main(scenario: dict) -> dict:
    rng = np.random.default_rng(int(scenario["seed"]))
    part = trimesh.convex.convex_hull(rng.uniform(-1.0, 1.0, size=(20, 3)) * np.array([3.0, 2.0, 1.0]))
    n = int(scenario["n_points"])
    idx = rng.integers(0, len(part.vertices), size=n)
    scan_true = np.asarray(part.vertices[idx], dtype=np.float64)
    ax, ay, az = (math.radians(float(a)) for a in scenario["rotation_xyz_deg"])
    motion = tf.euler_matrix(ax, ay, az, axes="sxyz")
    motion[:3, 3] = np.asarray(scenario["translation"], dtype=np.float64)
    noise = float(scenario["noise"]) * rng.standard_normal(size=(n, 3))
    scan = trimesh.transform_points(scan_true, motion) + noise
    # the registration maps the scan back onto the model: the ideal answer is inv(motion)
    truth = np.linalg.inv(motion)

    m_pro, _, cost_pro = registration.procrustes(scan, scan_true, reflection=False, scale=bool(scenario["scale"]))
    m_icp, _, cost_icp = registration.icp(scan, part, initial=np.eye(4), threshold=0.0,
                                          max_iterations=int(scenario["icp_iterations"]),
                                          reflection=False, scale=bool(scenario["scale"]))

    def errors(m):
        """Angle of the residual rotation (scale divided out; from |R - I|_F = 2 sqrt(2) sin(angle/2), which stays
        well conditioned near zero) and the translation error."""
        lin = m[:3, :3] / np.cbrt(np.linalg.det(m[:3, :3]))
        rest = lin @ truth[:3, :3].T - np.eye(3)
        angle = 2.0 * math.degrees(math.asin(min(1.0, float(np.linalg.norm(rest)) / (2.0 * math.sqrt(2.0)))))
        return angle, float(np.linalg.norm(m[:3, 3] - truth[:3, 3]))

    pro_angle, pro_shift = errors(m_pro)
    icp_angle, icp_shift = errors(m_icp)
    return {
        "procrustes_matrix": [[float(v) for v in row] for row in m_pro[:3]],
        "procrustes_cost": float(cost_pro),
        "procrustes_rotation_error_deg": pro_angle,
        "procrustes_translation_error": pro_shift,
        "icp_matrix": [[float(v) for v in row] for row in m_icp[:3]],
        "icp_cost": float(cost_icp),
        "icp_rotation_error_deg": icp_angle,
        "icp_translation_error": icp_shift,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
