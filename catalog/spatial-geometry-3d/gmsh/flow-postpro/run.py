"""Post-processing a field with gmsh's views and plugins, as after a solver run: the potential of uniform flow past a
cylinder in a channel is loaded as node data on a 2D mesh (gmsh.view.addModelData), the velocity is derived with
the Gradient plugin, the speed with MathEval, its integral over the domain with Integrate, and a sensor reads the
potential and the velocity by interpolation (gmsh.view.probe); the mesh is written as an STL.

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no state survives
between calls. The STL goes to $SWR_ARTIFACTS.
"""

import math
import os

import gmsh
import numpy as np


def plugin(name, view, **options):
    """Runs a gmsh plugin on one view (by tag) and returns the tag of the view it creates."""
    gmsh.plugin.setNumber(name, "View", gmsh.view.getIndex(view))
    for key, value in options.items():
        (gmsh.plugin.setString if isinstance(value, str) else gmsh.plugin.setNumber)(name, key, value)
    return gmsh.plugin.run(name)


def main(s: dict) -> dict:
    length, half = float(s["channel_length"]), float(s["channel_half_height"])
    a = float(s["radius_frac"]) * half
    yc = float(s["offset_frac"]) * (half - a)
    u_in = float(s["inflow_speed"])
    theta = math.radians(float(s["sensor_angle_deg"]))
    rs = float(s["sensor_radius_factor"]) * a
    sx, sy = rs * math.cos(theta), yc + rs * math.sin(theta)
    gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.option.setNumber("General.Verbosity", 0)
        gmsh.option.setNumber("General.NumThreads", 1)
        gmsh.option.setNumber("Mesh.MaxNumThreads2D", 1)
        gmsh.option.setNumber("Mesh.RandomSeed", 1)
        size = float(s["mesh_size_frac"]) * a
        gmsh.option.setNumber("Mesh.MeshSizeMin", size)
        gmsh.option.setNumber("Mesh.MeshSizeMax", size)
        gmsh.model.add("channel")
        occ = gmsh.model.occ
        box = occ.addRectangle(-length / 2.0, -half, 0.0, length, 2.0 * half)
        occ.cut([(2, box)], [(2, occ.addDisk(0.0, yc, 0.0, a, a))])
        occ.synchronize()
        gmsh.model.mesh.generate(2)
        tags, coords, _ = gmsh.model.mesh.getNodes()
        xyz = coords.reshape(-1, 3)
        x, y = xyz[:, 0], xyz[:, 1] - yc
        phi = u_in * x * (1.0 + a * a / (x * x + y * y))
        pot = gmsh.view.add("potential")
        gmsh.view.addModelData(pot, 0, "channel", "NodeData", tags, phi[:, None])
        vel = plugin("Gradient", pot)
        speed = plugin("MathEval", vel, Expression0="Sqrt(v0^2+v1^2)")
        total = plugin("Integrate", speed, Dimension=2)
        integral = float(np.asarray(gmsh.view.getListData(total)[2][0])[-1])
        sensor_phi = float(gmsh.view.probe(pot, sx, sy, 0.0)[0][0])
        sensor_vel = [float(v) for v in gmsh.view.probe(vel, sx, sy, 0.0)[0][:2]]
        gmsh.write(os.path.join(os.environ["SWR_ARTIFACTS"], "channel.stl"))
    finally:
        gmsh.finalize()
    return {
        "mesh": "channel.stl",
        "nodes": int(len(tags)),
        "speed_integral": integral,
        "sensor_potential": sensor_phi,
        "sensor_velocity": sensor_vel,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
