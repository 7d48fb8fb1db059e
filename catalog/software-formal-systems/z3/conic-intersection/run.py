"""Exact intersection of an ellipse and a parabola in nonlinear real arithmetic with z3 (nlsat): every real
solution enumerated with blocking clauses, coordinates as algebraic numbers approximated to 30 digits."""

from fractions import Fraction

import z3


def q(v):
    """The decimal float as an exact z3 rational."""
    fr = Fraction(repr(float(v)))
    return z3.Q(fr.numerator, fr.denominator)


def to_float(val):
    """A z3 rational or algebraic number as the nearest float (through a 30-digit decimal)."""
    if z3.is_rational_value(val):
        return float(Fraction(val.numerator_as_long(), val.denominator_as_long()))
    return float(Fraction(val.approx(30).as_decimal(40).rstrip("?")))


def main(scn):
    a, b, cx, cy = (q(scn[k]) for k in ("a", "b", "cx", "cy"))
    vx = q(scn["cx"]) + q(scn["hx"]) * a  # vertex inside the ellipse
    vy = q(scn["cy"]) + q(scn["vy"]) * b
    p = q(scn["curvature"]) * (-1 if scn["opens_down"] else 1)
    x, y = z3.Reals("x y")
    s = z3.Tactic("qfnra-nlsat").solver()  # nlsat directly: the default strategy is far slower here
    s.add((x - cx) * (x - cx) * b * b + (y - cy) * (y - cy) * a * a == a * a * b * b)
    s.add(y == vy + p * (x - vx) * (x - vx))
    points = []
    while s.check() == z3.sat and len(points) < 8:
        m = s.model()
        xv, yv = m.eval(x, model_completion=True), m.eval(y, model_completion=True)
        points.append((to_float(xv), to_float(yv)))
        s.add(z3.Or(x != xv, y != yv))  # block this solution
    points.sort()
    return {
        "n_points": len(points),
        "xs": [px for px, _ in points],
        "ys": [py for _, py in points],
        "vertex": [to_float(z3.simplify(vx)), to_float(z3.simplify(vy))],
        "max_abs_y": max(abs(py) for _, py in points),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
