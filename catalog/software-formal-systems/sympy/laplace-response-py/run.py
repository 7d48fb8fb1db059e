"""Time response of a linear system from its transfer function with sympy's integral transforms: the response to a
step, ramp or impulse by sympy.inverse_laplace_transform, the poles (sympy.roots), the final value by the final value
theorem (sympy.limit), and the response printed as a Python function (sympy.printing.pycode) graded by running it."""

import os

import sympy as sp
from sympy.printing.pycode import pycode

S = sp.Symbol("s")
T = sp.Symbol("t", positive=True)
INPUTS = {"impulse": sp.Integer(1), "step": 1 / S, "ramp": 1 / S**2}


def transfer(scn):
    zeta = sp.Rational(int(scn["zeta_quarters"]), 4)
    wn, p1 = sp.Integer(int(scn["wn"])), sp.Integer(int(scn["real_pole"]))
    num = int(scn["gain"]) * ((S + int(scn["zero"])) if scn["has_zero"] else 1)
    return num / ((S + p1) * (S**2 + 2 * zeta * wn * S + wn**2))


def main(scn):
    H = transfer(scn)
    Y = H * INPUTS[str(scn["input"])]
    y = sp.inverse_laplace_transform(Y, S, T)
    den = sp.Poly(sp.denom(sp.together(H)), S)
    poles = [p for p, m in sp.roots(den).items() for _ in range(m)]
    poles.sort(key=lambda p: (float(sp.re(p)), float(sp.im(p))))
    final = sp.limit(S * Y, S, 0)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "response.py"), "w", encoding="utf-8") as fh:
        fh.write(f"import math\n\n\ndef response(t):\n    return {pycode(y, fully_qualified_modules=True)}\n")
    te = sp.Rational(repr(float(scn["t_eval"])))
    return {
        "py_source": "response.py",
        "poles": [[float(sp.re(p)), float(sp.im(p))] for p in poles],
        "dc_gain": float(H.subs(S, 0)),
        "final_value": float(final) if final.is_finite else None,
        "value_at_t": float(sp.N(y.subs(T, te), 30)),
        "slope_at_t": float(sp.N(sp.diff(y, T).subs(T, te), 30)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
