"""Forward kinematics of a serial robot arm through trimesh's scene graph: each link is a node whose transform is
relative to its parent (a joint rotation, then the previous link's length), the links are cylinders and the joints
spheres; the scene graph resolves world poses (Scene.graph.get), the assembly is exported as binary glTF (GLB), and
the end-effector pose and the scene's bounds are reported.

Entry workflow: main() builds a new scene per call and never mutates module state. The GLB goes to $SWR_ARTIFACTS,
read on every call.
"""

import math
import os

import numpy as np
import trimesh
from trimesh import transformations as tf

AXES = {"y": [0.0, 1.0, 0.0], "z": [0.0, 0.0, 1.0]}


def main(scenario: dict) -> dict:
    n = int(scenario["n_links"])
    length = float(scenario["link_length"])
    radius = float(scenario["link_radius"])
    angles = [math.radians(float(a)) for a in scenario["joint_angles_deg"]][:n]
    axis = AXES[str(scenario["joint_axis"])]

    scene = trimesh.Scene()
    parent = scene.graph.base_frame
    for k in range(n):
        # joint k: a rotation about the joint axis, placed at the end of link k-1 (or the base)
        offset = tf.translation_matrix([length, 0.0, 0.0]) if k > 0 else np.eye(4)
        frame = f"joint{k}"
        scene.graph.update(frame_to=frame, frame_from=parent, matrix=offset @ tf.rotation_matrix(angles[k], axis))
        scene.add_geometry(trimesh.creation.icosphere(subdivisions=2, radius=1.5 * radius),
                           node_name=f"ball{k}", geom_name=f"ball{k}", parent_node_name=frame)
        # the link runs along the joint frame's +x from 0 to length
        link_pose = tf.translation_matrix([length / 2.0, 0.0, 0.0]) @ tf.rotation_matrix(math.pi / 2.0, [0, 1, 0])
        scene.add_geometry(trimesh.creation.cylinder(radius=radius, height=length, sections=16),
                           node_name=f"link{k}", geom_name=f"link{k}", parent_node_name=frame, transform=link_pose)
        parent = frame
    scene.graph.update(frame_to="tool", frame_from=parent, matrix=tf.translation_matrix([length, 0.0, 0.0]))
    if bool(scenario["gripper"]):
        scene.add_geometry(trimesh.creation.box(extents=[radius, 4.0 * radius, 4.0 * radius]),
                           node_name="gripper", geom_name="gripper", parent_node_name="tool")
    tool, _ = scene.graph.get("tool")
    name = "arm.glb"
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], name), "wb") as fh:
        fh.write(scene.export(file_type="glb"))
    return {
        "mesh": name,
        "tool_position": [float(v) for v in tool[:3, 3]],
        "tool_x_axis": [float(v) for v in tool[:3, 0]],
        "reach": float(np.linalg.norm(tool[:3, 3])),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
