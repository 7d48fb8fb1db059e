"""Probe: vector algebra and the lines and planes built on it, on fixed inputs, as one JSON object (recorded
from the original natively; a rebuilt vector module must print the same)."""
import json

from geom3py import Line, Plane, Point, Vector

a, b = Vector([1, 2, 3]), Vector([-4, 0.5, 2])


def vec(v):
    return [round(float(c), 12) for c in v]


out = {
    "add": vec(a + b),
    "sub": vec(a - b),
    "mul": vec(a * 2.5),
    "rmul": vec(-3 * a),
    "div": vec(a / 4),
    "neg": vec(-a),
    "abs": abs(a),
    "dot": a.dot(b),
    "cross": vec(a.cross(b)),
    "magnitude": b.magnitude(),
    "normalize": vec(a.normalize()),
    "angle": [a.angle_with(b), a.angle_with(b, degrees=True)],
    "scale": vec(a.scale(-2)),
    "rotate": [vec(a.rotate(90, ax)) for ax in ("x", "y", "z")] + [vec(b.rotate(33, "z"))],
    "translate": vec(a.translate(b)),
    "reflect_point": vec(a.reflect_on_point(Point([1, 1, 1]))),
    "reflect_line": vec(a.reflect_on_line(Line(Vector([0, 0, 0]), Vector([1, 1, 0])))),
    "reflect_plane": vec(a.reflect_on_plane(Plane(Vector([0, 0, 1]), Vector([1, 1, 2])))),
    "components": [a.x, a.y, a.z],
    "repr": [repr(a), str(b)],
    "line_distance": Line(Vector([0, 0, 0]), Vector([1, 0, 0])).distance_point(Vector([3, 4, 0])),
}
print(json.dumps(out, sort_keys=True))
