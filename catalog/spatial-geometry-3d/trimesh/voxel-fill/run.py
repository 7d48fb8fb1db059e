"""Voxelising a solid with trimesh, as for a finite-difference grid or a print-slicer preview: a capsule
(trimesh.creation.capsule) in a rotated pose is surface-voxelised (trimesh.voxel.creation.voxelize, method
'subdivide'), its interior filled (VoxelGrid.fill, method 'holes'), the grid optionally hollowed to its outer shell
(VoxelGrid.hollow), and the occupied voxels written as a PLY of unit boxes (VoxelGrid.as_boxes).

Entry workflow: main() builds new meshes per call and never mutates module state. The PLY goes to $SWR_ARTIFACTS,
read on every call.
"""

import math
import os

import trimesh
from trimesh import transformations as tf
from trimesh.voxel import creation


def main(scenario: dict) -> dict:
    radius = float(scenario["radius"])
    height = float(scenario["height"])
    pitch = float(scenario["pitch_frac"]) * radius
    ax, ay, az = (math.radians(float(a)) for a in scenario["rotation_xyz_deg"])
    mesh = trimesh.creation.capsule(height=height, radius=radius, count=[16, 16])
    mesh.apply_transform(tf.euler_matrix(ax, ay, az, axes="sxyz"))
    mesh.apply_translation(scenario["offset"])

    surface = creation.voxelize(mesh, pitch=pitch, method="subdivide")
    filled = surface.copy().fill(method="holes")
    grid = filled.copy().hollow() if bool(scenario["hollow"]) else filled
    boxes = grid.as_boxes()
    name = "voxels.ply"
    boxes.export(os.path.join(os.environ["SWR_ARTIFACTS"], name), file_type="ply", encoding="binary")
    return {
        "mesh": name,
        "grid_shape": [int(v) for v in filled.shape],
        "surface_voxels": int(surface.filled_count),
        "filled_voxels": int(filled.filled_count),
        "written_voxels": int(grid.filled_count),
        "voxel_volume": float(filled.volume),
        "mesh_volume": float(mesh.volume),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
