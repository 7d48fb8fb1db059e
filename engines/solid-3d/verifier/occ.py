"""The exact solid of a CSG tree with OpenCASCADE (OCP): B-rep primitives, rigid transforms and boolean
operations, then its mass properties, the topology of its shells and exact point classification."""
from __future__ import annotations

import math
from typing import Any

import numpy as np
from OCP.Bnd import Bnd_Box
from OCP.BRep import BRep_Tool
from OCP.BRepAlgoAPI import BRepAlgoAPI_Common, BRepAlgoAPI_Cut, BRepAlgoAPI_Fuse
from OCP.BRepBndLib import BRepBndLib
from OCP.BRepBuilderAPI import BRepBuilderAPI_Transform
from OCP.BRepClass3d import BRepClass3d_SolidClassifier
from OCP.BRepGProp import BRepGProp
from OCP.BRepMesh import BRepMesh_IncrementalMesh
from OCP.BRepPrimAPI import BRepPrimAPI_MakeBox, BRepPrimAPI_MakeCylinder, BRepPrimAPI_MakeSphere
from OCP.gp import gp_Ax1, gp_Ax2, gp_Dir, gp_Pnt, gp_Trsf, gp_Vec
from OCP.GProp import GProp_GProps
from OCP.TopAbs import TopAbs_EDGE, TopAbs_FACE, TopAbs_IN, TopAbs_OUT, TopAbs_REVERSED, TopAbs_SHELL, \
    TopAbs_SOLID, TopAbs_VERTEX, TopAbs_WIRE
from OCP.TopExp import TopExp_Explorer
from OCP.TopLoc import TopLoc_Location
from OCP.TopoDS import TopoDS, TopoDS_Shape


def _primitive(node: dict[str, Any]) -> TopoDS_Shape:
    """Box, cylinder (axis z) and sphere centered at the origin, as spec.md defines them."""
    kind = node["type"]
    if kind == "box":
        sx, sy, sz = (float(v) for v in node["size"])
        return BRepPrimAPI_MakeBox(gp_Pnt(-sx / 2, -sy / 2, -sz / 2), sx, sy, sz).Shape()
    if kind == "cylinder":
        r, h = float(node["radius"]), float(node["height"])
        return BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(0, 0, -h / 2), gp_Dir(0, 0, 1)), r, h).Shape()
    return BRepPrimAPI_MakeSphere(gp_Pnt(0, 0, 0), float(node["radius"])).Shape()


def _transform(node: dict[str, Any], shape: TopoDS_Shape) -> TopoDS_Shape:
    """p = R·q + t: the rotation about the origin first, then the translation."""
    trsf = gp_Trsf()
    rot = node.get("rotate")
    if rot:
        ax = gp_Ax1(gp_Pnt(0, 0, 0), gp_Dir(*(float(v) for v in rot["axis"])))
        trsf.SetRotation(ax, math.radians(float(rot.get("angle", 0))))
    if "translate" in node:
        move = gp_Trsf()
        move.SetTranslation(gp_Vec(*(float(v) for v in node["translate"])))
        trsf = move.Multiplied(trsf)
    return BRepBuilderAPI_Transform(shape, trsf, True).Shape()


def build(node: dict[str, Any]) -> TopoDS_Shape:
    kind = node["type"]
    if kind == "transform":
        return _transform(node, build(node["child"]))
    if kind in ("box", "cylinder", "sphere"):
        return _primitive(node)
    shapes = [build(c) for c in node["children"]]
    out = shapes[0]
    for s in shapes[1:]:
        op = {"union": BRepAlgoAPI_Fuse, "intersection": BRepAlgoAPI_Common, "difference": BRepAlgoAPI_Cut}[kind]
        algo = op(out, s)
        if not algo.IsDone():
            raise RuntimeError(f"OCP boolean {kind} failed")
        out = algo.Shape()
    return out


def mass(shape: TopoDS_Shape) -> tuple[float, float]:
    """(volume, surface area) of the exact solid."""
    v, a = GProp_GProps(), GProp_GProps()
    BRepGProp.VolumeProperties_s(shape, v)
    BRepGProp.SurfaceProperties_s(shape, a)
    return v.Mass(), a.Mass()


def _count(shape: TopoDS_Shape, kind: Any) -> list[Any]:
    """The distinct sub-shapes of a kind (the same shape met with either orientation counts once)."""
    seen: dict[int, list[Any]] = {}
    exp = TopExp_Explorer(shape, kind)
    while exp.More():
        sub = exp.Current()
        bucket = seen.setdefault(hash(sub), [])
        if not any(sub.IsSame(x) for x in bucket):
            bucket.append(sub)
        exp.Next()
    return [x for b in seen.values() for x in b]


def shell_euler(shape: TopoDS_Shape) -> list[int]:
    """Euler characteristic of every shell's surface, sorted: V − E + Σ_faces (2 − wires), without the
    degenerated edges at sphere poles (every face is a planar domain with `wires` boundary loops)."""
    out = []
    exp = TopExp_Explorer(shape, TopAbs_SHELL)
    while exp.More():
        shell = exp.Current()
        edges = [e for e in _count(shell, TopAbs_EDGE) if not BRep_Tool.Degenerated_s(TopoDS.Edge(e))]
        faces = _count(shell, TopAbs_FACE)
        chi = len(_count(shell, TopAbs_VERTEX)) - len(edges) + sum(2 - len(_count(f, TopAbs_WIRE)) for f in faces)
        out.append(chi)
        exp.Next()
    return sorted(out)


def bbox_diagonal(shape: TopoDS_Shape) -> float:
    box = Bnd_Box()
    BRepBndLib.AddOptimal_s(shape, box, False, False)
    lo, hi = box.CornerMin(), box.CornerMax()
    return lo.Distance(hi)


def triangulation(shape: TopoDS_Shape, deflection: float) -> np.ndarray:
    """OCP's tessellation of every face, outward oriented: (m, 3, 3) triangle corners."""
    BRepMesh_IncrementalMesh(shape, deflection, False, 0.1, True)
    tris = []
    exp = TopExp_Explorer(shape, TopAbs_FACE)
    while exp.More():
        face = TopoDS.Face(exp.Current())
        loc = TopLoc_Location()
        t = BRep_Tool.Triangulation_s(face, loc)
        if t is not None:
            trsf = loc.Transformation()
            nodes = np.array([[p.X(), p.Y(), p.Z()] for p in
                              (t.Node(i).Transformed(trsf) for i in range(1, t.NbNodes() + 1))])
            idx = np.array([t.Triangle(i).Get() for i in range(1, t.NbTriangles() + 1)]) - 1
            if face.Orientation() == TopAbs_REVERSED:
                idx = idx[:, ::-1]
            tris.append(nodes[idx])
        exp.Next()
    return np.concatenate(tris) if tris else np.zeros((0, 3, 3))


def classify(shape: TopoDS_Shape, points: np.ndarray, tol: float) -> list[int]:
    """Per point: 1 inside the exact solid, 0 outside, -1 on its boundary (within tol)."""
    solids = _count(shape, TopAbs_SOLID)
    out = []
    for p in points:
        states = []
        for s in solids:
            c = BRepClass3d_SolidClassifier(s, gp_Pnt(*map(float, p)), tol)
            states.append(c.State())
        out.append(1 if TopAbs_IN in states else 0 if all(st == TopAbs_OUT for st in states) else -1)
    return out
