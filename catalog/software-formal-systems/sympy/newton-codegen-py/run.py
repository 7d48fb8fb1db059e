"""A Newton solver generated as code by sympy.codegen (sympy.codegen.algorithms.newtons_method_function builds the
while-loop AST, sympy.printing.pycode prints it), for the root-finding problems of orbital mechanics, the
Lambert W function and a supercritical van der Waals gas, graded by running the generated solver."""

import math
import os
import re

import sympy as sp
from sympy.codegen.algorithms import newtons_method_function
from sympy.printing.pycode import pycode

X, P = sp.symbols("x p", real=True)
N = sp.Symbol("n", integer=True)  # the iteration budget, an argument of the generated solver


def problem(scn):
    """(equation f(x, p) = 0, initial guess x0(p)) of the chosen problem."""
    kind = str(scn["problem"])
    if kind == "kepler":
        e = sp.nsimplify(float(scn["eccentricity"]), rational=True)
        return X - e * sp.sin(X) - P, P
    if kind == "lambert":
        return X * sp.exp(X) - P, sp.log(1 + P)
    t = sp.nsimplify(float(scn["temperature"]), rational=True)
    return (P + 3 / X**2) * (3 * X - 1) - 8 * t, 8 * t / (3 * P) + sp.Rational(1, 3)


def main(scn):
    f, x0 = problem(scn)
    tol = float(scn["atol"])
    func = newtons_method_function(f, X, params=(X, P, N), func_name="newton", atol=tol, itermax=N)
    loop = re.sub(r"_Dummy_\d+", "count", pycode(func))  # the counter is a sympy Dummy: give it a stable name
    src = (
        f"import math\n\n\n{loop}\n\n\n"
        f"def solve(p, n):\n    return newton({pycode(x0, fully_qualified_modules=True)}, p, n)\n"
    )
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "newton.py"), "w", encoding="utf-8") as fh:
        fh.write(src)
    namespace = {"math": math}
    exec(compile(src, "newton.py", "exec"), namespace)
    roots = [float(namespace["solve"](float(p), int(scn["itermax"]))) for p in scn["probes"]]
    fprime = sp.lambdify((X, P), sp.diff(f, X), "math")
    return {
        "py_source": "newton.py",
        "roots": roots,
        "slopes": [float(fprime(r, float(p))) for r, p in zip(roots, scn["probes"])],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
