"""The CSG tree of spec.md as an implicit function (negative inside, sign exact) and a bounding box that
holds the solid, both vectorized over points with numpy."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np


class CsgError(ValueError):
    """The tree is not in the spec's format; the message names the node and field."""


def rotation(axis: Any, angle_deg: float) -> np.ndarray:
    """Right-handed rotation matrix about `axis` by angle (Rodrigues)."""
    a = np.asarray(axis, dtype=float)
    n = np.linalg.norm(a)
    if not n or not math.isfinite(n):
        raise CsgError("rotate.axis must be a non-zero vector")
    x, y, z = a / n
    t = math.radians(angle_deg)
    c, s, C = math.cos(t), math.sin(t), 1 - math.cos(t)
    return np.array([[c + x * x * C, x * y * C - z * s, x * z * C + y * s],
                     [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
                     [z * x * C - y * s, z * y * C + x * s, c + z * z * C]])


@dataclass
class Node:
    """A primitive placed by the rigid motion p = R·q + t, or a boolean of children."""

    kind: str
    params: tuple[float, ...] = ()
    R: np.ndarray | None = None
    t: np.ndarray | None = None
    children: tuple[Node, ...] = ()

    def f(self, P: np.ndarray) -> np.ndarray:
        """Implicit value at world points P (n, 3): < 0 inside, > 0 outside, 0 on the surface."""
        if self.kind == "union":
            return np.minimum.reduce([c.f(P) for c in self.children])
        if self.kind == "intersection":
            return np.maximum.reduce([c.f(P) for c in self.children])
        if self.kind == "difference":
            out = self.children[0].f(P)
            for c in self.children[1:2]:  # only the second child removed
                out = np.maximum(out, -c.f(P))
            return out
        q = (P - self.t) @ self.R  # local coordinates: q = Rᵀ(p − t)
        if self.kind == "sphere":
            return np.sqrt((q * q).sum(axis=1)) - self.params[0]
        if self.kind == "cylinder":
            r, h = self.params
            return np.maximum(np.hypot(q[:, 0], q[:, 1]) - r, np.abs(q[:, 2]) - h / 2)
        d = np.abs(q) - np.asarray(self.params) / 2  # box
        return np.minimum(d.max(axis=1), 0) + np.linalg.norm(np.maximum(d, 0), axis=1)

    def bbox(self) -> tuple[np.ndarray, np.ndarray]:
        """An axis-aligned box holding the solid (exact for primitives, conservative for booleans)."""
        if self.kind in ("union", "intersection", "difference"):
            boxes = [c.bbox() for c in self.children]
            if self.kind == "union":
                return np.min([b[0] for b in boxes], axis=0), np.max([b[1] for b in boxes], axis=0)
            if self.kind == "intersection":
                return np.max([b[0] for b in boxes], axis=0), np.min([b[1] for b in boxes], axis=0)
            return boxes[0]
        assert self.R is not None and self.t is not None
        if self.kind == "sphere":
            ext = np.full(3, self.params[0])
        elif self.kind == "cylinder":
            r, h = self.params
            a = self.R[:, 2]
            ext = h / 2 * np.abs(a) + r * np.sqrt(np.clip(1 - a * a, 0, 1))
        else:
            ext = np.abs(self.R) @ (np.asarray(self.params) / 2)
        return self.t - ext, self.t + ext


def _num(node: dict[str, Any], key: str, where: str) -> float:
    v = node.get(key)
    if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or v <= 0:
        raise CsgError(f"{where}.{key} must be a positive number")
    return float(v)


def _vec(v: Any, where: str) -> np.ndarray:
    if not isinstance(v, list) or len(v) != 3 or not all(isinstance(x, (int, float)) for x in v):
        raise CsgError(f"{where} must be [x, y, z]")
    return np.asarray(v, dtype=float)


def parse(node: Any, R: np.ndarray | None = None, t: np.ndarray | None = None, where: str = "tree") -> Node:
    """The tree with every transform pushed down onto its primitives."""
    R = np.eye(3) if R is None else R
    t = np.zeros(3) if t is None else t
    if not isinstance(node, dict):
        raise CsgError(f"{where} must be an object")
    kind = node.get("type")
    if kind == "box":
        size = _vec(node.get("size"), f"{where}.size")
        if (size <= 0).any():
            raise CsgError(f"{where}.size must be positive")
        return Node("box", tuple(size), R, t)
    if kind == "cylinder":
        return Node("cylinder", (_num(node, "radius", where), _num(node, "height", where)), R, t)
    if kind == "sphere":
        return Node("sphere", (_num(node, "radius", where),), R, t)
    if kind == "transform":
        rot = node.get("rotate")
        Rl = rotation(_vec(rot.get("axis"), f"{where}.rotate.axis"), float(rot.get("angle", 0))) \
            if isinstance(rot, dict) else np.eye(3)
        tl = _vec(node["translate"], f"{where}.translate") if "translate" in node else np.zeros(3)
        return parse(node.get("child"), R @ Rl, R @ tl + t, f"{where}.child")
    if kind in ("union", "intersection", "difference"):
        kids = node.get("children")
        if not isinstance(kids, list) or not kids:
            raise CsgError(f"{where}.children must be a non-empty list")
        return Node(kind, children=tuple(parse(c, R, t, f"{where}.children[{i}]") for i, c in enumerate(kids)))
    raise CsgError(f"{where}.type {kind!r} is not box, cylinder, sphere, transform, union, intersection or difference")
