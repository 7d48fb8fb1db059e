"""Rational-function calculus with sympy: partial fractions, exact antiderivative (ratint), derivative, definite integral."""

import sympy as sp
from sympy.integrals.rationaltools import ratint

X = sp.Symbol("x")


def build(scn):
    roots = [int(r) for r in scn["real_roots"]]
    qb = int(scn["quad_b"])
    qc = qb * qb // 4 + int(scn["quad_c_extra"])          # x**2 + qb*x + qc has no real root
    num = [int(c) for c in scn["numerator"]]
    if not any(num):
        num = [1]
    P = sp.Poly(num, X).as_expr()                          # numerator[0] is the leading coefficient
    Q = sp.Mul(*[(X - r) for r in roots]) * (X**2 + qb * X + qc)
    return P, sp.expand(Q)


def main(scn):
    P, Q = build(scn)
    f = sp.cancel(P / Q)
    a = sp.Rational(repr(float(scn["a"])))
    b = a + sp.Rational(repr(float(scn["length"])))

    parts = sp.apart(f, X)
    F = ratint(f, X)
    df = sp.factor(sp.diff(f, X))
    num, den = sp.fraction(sp.together(f))
    definite = sp.N(F.subs(X, b) - F.subs(X, a), 30)
    return {
        "function": str(f),
        "partial_fractions": str(parts),
        "n_partial_fraction_terms": int(len(sp.Add.make_args(parts))),
        "antiderivative": str(F),
        "derivative_factored": str(df),
        "denominator_degree": int(sp.degree(den, X)),
        "polynomial_part": str(sp.div(sp.Poly(num, X), sp.Poly(den, X))[0].as_expr()),
        "value_at_a": float(sp.N(f.subs(X, a), 30)),
        "derivative_at_b": float(sp.N(sp.diff(f, X).subs(X, b), 30)),
        "definite_integral": float(definite),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
