"""Equilibria and linear stability of a two-species predator-prey model with sympy (sympy.solve of the steady
state, Matrix.jacobian, Matrix.eigenvals), and the Jacobian determinant written as Python source by sympy.lambdify
(its generated function's source, inspect.getsource), graded by running it."""

import inspect
import os

import sympy as sp

X, Y = sp.symbols("x y", real=True)


def exact(v):
    return sp.Rational(repr(float(v)))


def model(scn):
    r, a, e, m = (exact(scn[k]) for k in ("prey_growth", "attack_rate", "efficiency", "predator_death"))
    K, h = exact(scn["carrying_capacity"]), exact(scn["handling_time"])
    kind = str(scn["model"])
    logistic = (1 - X / K) if kind != "lotka_volterra" else 1
    uptake = a * X * Y / (1 + a * h * X) if kind == "holling2" else a * X * Y
    return sp.Matrix([r * X * logistic - uptake, e * uptake - m * Y])


def classify(eigs):
    """Linear stability from exact eigenvalues."""
    re = [sp.re(v) for v in eigs]
    im = [sp.im(v) for v in eigs]
    if all(v == 0 for v in re) and any(v != 0 for v in im):
        return "center"
    if any(v == 0 for v in re):
        return "non-hyperbolic"
    if all(v < 0 for v in re):
        return "stable focus" if any(v != 0 for v in im) else "stable node"
    if all(v > 0 for v in re):
        return "unstable focus" if any(v != 0 for v in im) else "unstable node"
    return "saddle"


def main(scn):
    f = model(scn)
    J = f.jacobian([X, Y])
    sols = sp.solve(list(f), [X, Y], dict=True)
    points = sorted({(s[X], s[Y]) for s in sols if s[X] >= 0 and s[Y] >= 0}, key=lambda p: (float(p[0]), float(p[1])))
    equilibria = []
    for px, py in points:
        Jp = J.subs({X: px, Y: py})
        eigs = [v for v, mult in Jp.eigenvals().items() for _ in range(mult)]
        eigs.sort(key=lambda v: (float(sp.re(v)), float(sp.im(v))))
        equilibria.append({
            "point": [float(px), float(py)],
            "eigenvalues": [[float(sp.re(v)), float(sp.im(v))] for v in eigs],
            "stability": classify(eigs),
        })
    det = sp.cancel(J.det())
    fn = sp.lambdify((X, Y), det, modules="math")
    source = inspect.getsource(fn).replace("_lambdifygenerated", "jacobian_det")
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "jacobian.py"), "w", encoding="utf-8") as fh:
        fh.write("from math import *\n\n\n" + source)
    return {"py_source": "jacobian.py", "n_equilibria": len(equilibria), "equilibria": equilibria,
            "trace_at_origin": float(J.trace().subs({X: 0, Y: 0}))}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
