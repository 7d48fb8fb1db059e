"""Gaussian quadrature from sympy's orthogonal polynomials: the n-point rule of a weight function
(sympy.integrals.quadrature: gauss_legendre, gauss_chebyshev_t, gauss_laguerre, gauss_hermite) applied to an
exponential test integrand with a known exact value, and the family's polynomial of a given degree (sympy.legendre,
chebyshevt, laguerre, hermite) written as a C function by sympy.ccode in Horner form, graded by running it."""

import os

import sympy as sp
from sympy.integrals.quadrature import gauss_chebyshev_t, gauss_hermite, gauss_laguerre, gauss_legendre

X = sp.Symbol("x")
RULES = {"legendre": gauss_legendre, "chebyshev_t": gauss_chebyshev_t, "laguerre": gauss_laguerre,
         "hermite": gauss_hermite}
POLYS = {"legendre": sp.legendre, "chebyshev_t": sp.chebyshevt, "laguerre": sp.laguerre, "hermite": sp.hermite}


def exact_moment(family, c):
    """Integral of w(x)*exp(c*x) over the family's interval, in closed form."""
    if family == "legendre":
        return 2 * sp.sinh(c) / c if c != 0 else sp.Integer(2)
    if family == "chebyshev_t":
        return sp.pi * sp.besseli(0, c)
    if family == "laguerre":
        return 1 / (1 - c)
    return sp.sqrt(sp.pi) * sp.exp(c**2 / 4)


def main(scn):
    family, n = str(scn["family"]), int(scn["points"])
    c = sp.Rational(repr(float(scn["c"])))
    nodes, weights = RULES[family](n, 30)                   # nodes and weights to 30 significant digits
    estimate = sum(w * sp.exp(c * x) for x, w in zip(nodes, weights))
    exact = exact_moment(family, c)
    poly = sp.expand(POLYS[family](int(scn["poly_degree"]), X))
    body = sp.ccode(sp.horner(poly, X), standard="c99")
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "poly.c"), "w", encoding="utf-8") as fh:
        fh.write(f"#include <math.h>\n\ndouble poly(double x) {{\n    return {body};\n}}\n")
    return {
        "c_source": "poly.c",
        "nodes": [float(x) for x in nodes],
        "weights": [float(w) for w in weights],
        "estimate": float(sp.N(estimate, 30)),
        "exact": float(sp.N(exact, 30)),
        "leading_coefficient": float(sp.Poly(poly, X).LC()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
