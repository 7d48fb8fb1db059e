"""Second-order linear constant-coefficient ODE initial value problem solved exactly by sympy.dsolve."""

import sympy as sp

T = sp.Symbol("t")
Y = sp.Function("y")
HINT = "nth_linear_constant_coeff_undetermined_coefficients"


def forcing(kind, amp, rate):
    return {
        "exp": amp * sp.exp(rate * T),
        "sin": amp * sp.sin(rate * T),
        "cos": amp * sp.cos(rate * T),
        "poly": amp * T**2 + rate * T,
    }[kind]


def exact(v):
    return sp.Rational(repr(float(v)))


def main(scn):
    p, q = int(scn["damping_p"]), int(scn["stiffness_q"])
    g = forcing(str(scn["forcing"]), int(scn["forcing_amplitude"]), int(scn["forcing_rate"]))
    y0, v0 = exact(scn["y0"]), exact(scn["v0"])
    t1 = exact(scn["t_eval"])

    ode = sp.Eq(Y(T).diff(T, 2) + p * Y(T).diff(T) + q * Y(T), g)
    general = sp.dsolve(ode, Y(T), hint=HINT, simplify=False).rhs
    c1, c2 = sp.symbols("C1 C2")
    (k1, k2), = sp.linsolve([general.subs(T, 0) - y0, general.diff(T).subs(T, 0) - v0], [c1, c2])
    sol = general.subs({c1: k1, c2: k2})
    lam = sp.Symbol("lambda")
    char_roots = sp.roots(sp.Poly(lam**2 + p * lam + q, lam))
    disc = p * p - 4 * q
    regime = "overdamped" if disc > 0 else ("critical" if disc == 0 else "underdamped")
    roots_sorted = sorted(char_roots.items(), key=lambda kv: (float(sp.re(kv[0])), float(sp.im(kv[0]))))
    return {
        "solution": str(sol),
        "characteristic_roots": [str(r) for r, _ in roots_sorted],
        "root_multiplicities": [int(m) for _, m in roots_sorted],
        "regime": regime,
        "general_solution": str(general),
        "constants": [str(k1), str(k2)],
        "y_at_t": float(sp.N(sol.subs(T, t1), 30)),
        "dy_at_t": float(sp.N(sol.diff(T).subs(T, t1), 30)),
        "y_at_2t": float(sp.N(sol.subs(T, 2 * t1), 30)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
